//! The HexDame board (`docs/rules/hexdame.md` §2): 61 cells named by the spec's `(x, y)` coordinates,
//! the six directions, and the neighbour and ray tables that move generation walks.
//!
//! The tables are computed at compile time and indexed by cell number, so move generation is table
//! look-ups and `u64` bit operations only: 61 cells fit one machine word. Cells are numbered in
//! the spec's (letter, number) order, a1 = 0, a2 = 1, …, i9 = 60; since every name is one letter
//! and one digit, comparing cell numbers compares names, which the canonical capture path uses.
//!
//! The shared [`Geometry`] (names, parsing, `Hex` coordinates for a renderer) is built from the
//! same numbering, so `Cell(i)` there is bit `i` here.

use std::sync::LazyLock;

use crate::hex::{Cell, CellSet, Geometry, Hex};

use super::Colour;

/// Number of cells.
pub const CELLS: usize = 61;

/// "No cell" in the tables: the step leaves the board.
pub const NONE: u8 = u8::MAX;

/// The six directions as the spec's `(dx, dy)`, in the order of the shared `Direction` flats
/// N, NE, SE, S, SW, NW (§2.1), so `Direction::flat(d)` is direction `d` here and `(d + 3) % 6` is
/// its opposite.
pub const DIRS: [(i32, i32); 6] = [(1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0), (0, 1)];

/// The three forward directions of a man (§4.2): N, NE, NW for White; S, SW, SE for Black.
pub const FORWARD: [[usize; 3]; 2] = [[0, 1, 5], [3, 4, 2]];

const fn on_board(x: i32, y: i32) -> bool {
    x >= 0 && y >= 0 && x <= 8 && y <= 8 && (x - y).abs() <= 4
}

/// `(x, y)` of each cell, in cell-number order.
pub const XY: [(u8, u8); CELLS] = {
    let mut out = [(0u8, 0u8); CELLS];
    let mut i = 0;
    let mut x = 0;
    while x < 9 {
        let mut y = 0;
        while y < 9 {
            if on_board(x, y) {
                out[i] = (x as u8, y as u8);
                i += 1;
            }
            y += 1;
        }
        x += 1;
    }
    out
};

/// Cell number of `(x, y)`, `NONE` off the board.
const INDEX: [[u8; 9]; 9] = {
    let mut out = [[NONE; 9]; 9];
    let mut i = 0;
    while i < CELLS {
        let (x, y) = XY[i];
        out[x as usize][y as usize] = i as u8;
        i += 1;
    }
    out
};

/// The cell at `(x, y)`, if it is on the board.
pub const fn at(x: i32, y: i32) -> u8 {
    if on_board(x, y) {
        INDEX[x as usize][y as usize]
    } else {
        NONE
    }
}

/// `NEIGHBOR[cell][d]`: one step in direction `d`, or `NONE`.
pub const NEIGHBOR: [[u8; 6]; CELLS] = {
    let mut out = [[NONE; 6]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (x, y) = XY[i];
        let mut d = 0;
        while d < 6 {
            out[i][d] = at(x as i32 + DIRS[d].0, y as i32 + DIRS[d].1);
            d += 1;
        }
        i += 1;
    }
    out
};

/// `JUMPS[cell][d]`: a man's short jump in direction `d`, (the cell jumped, the landing cell),
/// or `(NONE, NONE)` when the landing cell is off the board.
pub const JUMPS: [[(u8, u8); 6]; CELLS] = {
    let mut out = [[(NONE, NONE); 6]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut d = 0;
        while d < 6 {
            let over = NEIGHBOR[i][d];
            if over != NONE && NEIGHBOR[over as usize][d] != NONE {
                out[i][d] = (over, NEIGHBOR[over as usize][d]);
            }
            d += 1;
        }
        i += 1;
    }
    out
};

/// A line of cells from a cell to the board edge, nearest first (at most 8 on this board).
#[derive(Clone, Copy, Debug)]
pub struct Ray {
    pub cells: [u8; 8],
    pub len: u8,
}

impl Ray {
    pub fn as_slice(&self) -> &[u8] {
        &self.cells[..self.len as usize]
    }
}

/// `RAYS[cell][d]`: the cells reached by 1, 2, … steps in direction `d`.
pub const RAYS: [[Ray; 6]; CELLS] = {
    let empty = Ray {
        cells: [NONE; 8],
        len: 0,
    };
    let mut out = [[empty; 6]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut d = 0;
        while d < 6 {
            let mut cur = NEIGHBOR[i][d];
            let mut n = 0;
            while cur != NONE {
                out[i][d].cells[n] = cur;
                n += 1;
                cur = NEIGHBOR[cur as usize][d];
            }
            out[i][d].len = n as u8;
            d += 1;
        }
        i += 1;
    }
    out
};

const fn rank_mask(line: u8) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < CELLS {
        let (x, y) = XY[i];
        if x == line || y == line {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}

/// Each side's back rank, the two edges meeting at its own corner (§2.1), as bit masks:
/// White's is `x = 0` or `y = 0`, Black's `x = 8` or `y = 8`.
pub const BACK_RANK: [u64; 2] = [rank_mask(0), rank_mask(8)];

/// Bit mask of one cell.
#[inline]
pub const fn bit(c: u8) -> u64 {
    1 << c
}

/// The hexagon of a cell for the shared geometry: the spec's N `(+1,+1)` is the flat N of
/// `Hex`, NE `(+1,0)` its NE and NW `(0,+1)` its NW, with e5 at the origin.
pub fn hex_of(x: u8, y: u8) -> Hex {
    let (cx, cy) = (i32::from(x) - 4, i32::from(y) - 4);
    Hex::new(cx - cy, cy)
}

/// The spec's name of `(x, y)`: letter file, then number file (`a1`, `e5`, `i9`).
fn name_of(x: u8, y: u8) -> String {
    format!("{}{}", char::from(b'a' + x), y + 1)
}

/// Names, parsing and `Hex` coordinates, numbered as the tables are.
pub static GEOMETRY: LazyLock<Geometry> = LazyLock::new(|| {
    let hexes = XY.iter().map(|&(x, y)| hex_of(x, y)).collect();
    Geometry::new(hexes, |h| {
        // Inverse of `hex_of`.
        let x = (h.q + h.r + 4) as u8;
        let y = (h.r + 4) as u8;
        name_of(x, y)
    })
});

/// The name of cell number `c`.
pub fn name(c: u8) -> &'static str {
    GEOMETRY.name(Cell(u16::from(c)))
}

/// A cell set of the shared geometry from a bit mask.
pub fn cell_set(mask: u64) -> CellSet {
    bits(mask).map(|c| Cell(u16::from(c))).collect()
}

/// The cell numbers in a bit mask, lowest first.
#[inline]
pub fn bits(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let c = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(c)
        }
    })
}

/// The back rank a side's men promote on: the opponent's (§4.4).
pub const fn promotion_mask(side: Colour) -> u64 {
    BACK_RANK[side.opponent() as usize]
}
