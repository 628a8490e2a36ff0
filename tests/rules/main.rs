//! The rules and the pictures of a position, one test binary: perft counts, the laws every
//! game obeys, purity of `hex`/`games`, random playouts of each game and the golden pictures.
//! Each module was a test binary of its own (`tests/<name>.rs`); one binary links the crate once.
#![allow(clippy::unwrap_used)]

mod bounds;
mod doc_links;
mod focus_golden;
mod harmegedo_playouts;
mod hexaequo_playouts;
mod hexdame_playouts;
mod heximeros_playouts;
mod hexmeister_playouts;
mod laws;
mod legend_golden;
mod perft;
mod purity;
mod view_golden;
mod zoom_golden;
