//! Hexagonal geometry shared by every game: coordinates, the 12 directions, cells of one board,
//! cell sets, and per-board tables.

mod cell;
mod coord;
mod geometry;

pub use cell::{Cell, CellSet, CellSetIter};
pub use coord::{Direction, Hex};
pub use geometry::Geometry;

#[cfg(test)]
mod tests;
