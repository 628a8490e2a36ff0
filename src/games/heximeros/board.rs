//! The HexiMeros board (`docs/rules/heximeros.md` §2): 649 playing cells of a line-sided hexagon of
//! radius 25, their names (§2.6), Ground Zero, each colour's forward coordinate, Base Lines and
//! Center Lines, the six off-board base spaces, and the Cavalier's leap table, all built once.
//!
//! The cell set is data (§9.1): if the official outline turns up, only `playing_hexes` changes.

use std::sync::LazyLock;

use crate::hex::{Cell, CellSet, Direction, Geometry, Hex};

/// Board radius in the `max(|q−r|, |r−s|, |s−q|)` metric (§2.5).
pub const RADIUS: i32 = 25;

/// Number of playing cells.
pub const CELLS: usize = 649;

/// Everything about the board that does not depend on the pieces.
#[derive(Debug)]
pub struct Board {
    pub geometry: Geometry,
    /// Ground Zero, Q26.
    pub gz: Cell,
    /// `forward[k][cell]` = `f_k(cell)`, colour k's forward coordinate (§2.4).
    pub forward: [Vec<i8>; 6],
    /// Base Line of each colour: `f_k ∈ {−25, −24}`.
    pub base_line: [CellSet; 6],
    /// The Cavalier's destinations from each cell: `(destination, needs the GZ bonus)`, only those
    /// whose whole route stays on the board (§4.6).
    pub cavalier: Vec<Vec<(Cell, bool)>>,
}

/// The four diagonal capture directions of a Militant whose forward is flat `k`: the two oblique
/// flats and the two lines at ±30° (§4.10).
pub fn militant_diagonals(k: usize) -> [Direction; 4] {
    [
        Direction::flat(k + 1),
        Direction::flat(k + 5),
        Direction::line(k),
        Direction::line(k + 5),
    ]
}

/// `f_k(h) = h · F[k]` in cube coordinates.
pub fn forward_coord(colour: usize, h: Hex) -> i32 {
    h.dot(Direction::flat(colour).vector())
}

/// `max(|q−r|, |r−s|, |s−q|)`.
fn line_radius(h: Hex) -> i32 {
    let (q, r, s) = (h.q, h.r, h.s());
    (q - r).abs().max((r - s).abs()).max((s - q).abs())
}

/// The playing cells, ordered by row (south to north), then column (west to east).
pub fn playing_hexes() -> Vec<Hex> {
    let mut v = Vec::with_capacity(CELLS);
    for y in -RADIUS..=RADIUS {
        for x in -16..=16 {
            if let Some(h) = Hex::from_doubled(x, y)
                && line_radius(h) <= RADIUS
            {
                v.push(h);
            }
        }
    }
    v
}

/// Column letters for a 1-based column index: A … Z, AA … AG.
fn column_letters(col: i32) -> String {
    if col <= 26 {
        ((b'A' + (col - 1) as u8) as char).to_string()
    } else {
        format!("A{}", (b'A' + (col - 27) as u8) as char)
    }
}

/// §2.6 name of any hex (also the off-board base spaces): column `x + 17`, row `y + 26`.
pub fn hex_name(h: Hex) -> String {
    let (x, y) = h.to_doubled();
    format!("{}{}", column_letters(x + 17), y + 26)
}

/// The off-board base space of each colour (§2.5): Silver's is cube (0, −13, 13), the others by
/// rotation. A resigning player's Sovereign is placed there; nothing ever moves onto it.
pub fn base_space(colour: usize) -> Hex {
    Hex::new(0, -13).rotate_by(colour as i32)
}

pub static BOARD: LazyLock<Board> = LazyLock::new(|| {
    let geometry = Geometry::new(playing_hexes(), hex_name);
    // Q26 is on the board by construction (the origin); fall back to cell 0 can never happen.
    let gz = geometry.cell(Hex::ORIGIN).unwrap_or(Cell(0));
    let forward: [Vec<i8>; 6] = std::array::from_fn(|k| {
        geometry
            .cells()
            .map(|c| forward_coord(k, geometry.hex(c)) as i8)
            .collect()
    });
    let base_line = std::array::from_fn(|k| {
        geometry
            .cells()
            .filter(|c| forward[k][c.index()] <= -24)
            .collect()
    });
    let cavalier = geometry
        .cells()
        .map(|c| cavalier_targets(&geometry, c))
        .collect();
    Board {
        geometry,
        gz,
        forward,
        base_line,
        cavalier,
    }
});

/// `p + a·d` then `+ b·d'` for `d'` = `d` rotated ±60°, with the (2,1), (3,2) pattern and the GZ
/// bonus (4,2), (6,4) pattern; every cell of the route must be a playing cell.
fn cavalier_targets(g: &Geometry, from: Cell) -> Vec<(Cell, bool)> {
    let mut out = Vec::new();
    for d in Direction::FLATS {
        for turn in [1, -1] {
            let d2 = d.rotate(turn);
            for (a, b, bonus) in [(2, 1, false), (3, 2, false), (4, 2, true), (6, 4, true)] {
                let mut cur = Some(from);
                for _ in 0..a {
                    cur = cur.and_then(|c| g.step(c, d));
                }
                for _ in 0..b {
                    cur = cur.and_then(|c| g.step(c, d2));
                }
                if let Some(dest) = cur {
                    out.push((dest, bonus));
                }
            }
        }
    }
    out
}

/// Silver's start layout (§3.3) as (display x, y, kind); other colours are rotations of it.
pub const SILVER_LAYOUT: [(i32, i32, super::Kind); 22] = {
    use super::Kind::*;
    [
        (-5, -25, Alcazar),
        (-3, -25, Archer),
        (-1, -25, Regent),
        (1, -25, Assassin),
        (3, -25, Archer),
        (5, -25, Alcazar),
        (-6, -24, Cavalier),
        (-4, -24, Dreadnaught),
        (-2, -24, Prelate),
        (0, -24, Sovereign),
        (2, -24, Prelate),
        (4, -24, Dreadnaught),
        (6, -24, Cavalier),
        (-2, -22, Militant),
        (0, -22, Militant),
        (2, -22, Militant),
        (-5, -21, Militant),
        (-3, -21, Militant),
        (-1, -21, Militant),
        (1, -21, Militant),
        (3, -21, Militant),
        (5, -21, Militant),
    ]
};
