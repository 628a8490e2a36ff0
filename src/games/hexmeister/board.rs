//! The Hexmeister board (`docs/rules/hexmeister.md` §2): 91 cells named `a1`…`k11`, each a lane, a
//! ring ("moat") cell or a gate; the two base entry rows and their drop cells and base gates; the
//! six segmental triangles, the three five-gate alignment lines and the two gate rings.
//!
//! A cell has two numbers. The public one is the shared [`Cell`] index into [`geometry()`]. The
//! engine's own is a bit of a `u128` laid out as the 11×11 rhombus of the spec's coordinates,
//! `bit = (L−1)·11 + (N−1)`. In that layout each of the six neighbours is a fixed shift (±1, ±11,
//! ±12), and a shift that wraps round the rhombus's edge never joins two cells of the hexagon (a
//! cell with N = 11 has L ≥ 6, while the cells that +1 or +12 wrap it to have N = 1 and L ≥ 7,
//! off the board; likewise the other way), so a flood fill or a proximity count is a few word
//! operations with no tables. `shift_neighbours_agree_with_the_geometry_and_never_wrap` in the
//! tests checks every cell against the shared `Geometry`.

use std::sync::LazyLock;

use crate::games::Seat;
use crate::hex::{Cell, CellSet, Geometry, Hex};

/// A set of cells in the engine's bit layout.
pub(crate) type Bits = u128;

pub(crate) const SOUTH: Seat = Seat(0);
pub(crate) const NORTH: Seat = Seat(1);

/// What a cell is on the board (§2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellRole {
    /// A plain cell (the two white rings): open when empty.
    Lane,
    /// A moat cell: it may end a move but not be crossed (except an empty cell of one's own base
    /// entry row).
    Ring,
    /// One of the 13 gates (red): open when empty or held by the mover; entered only from an
    /// adjacent cell (or, for a player's base gates, from their base).
    Gate,
}

const fn on_board(l: i32, n: i32) -> bool {
    l >= 1 && l <= 11 && n >= 1 && n <= 11 && (n - l).abs() <= 5
}

/// Distance from the centre f6 (§2.1).
const fn ring_of(l: i32, n: i32) -> i32 {
    let (x, y) = (l - 6, n - 6);
    let m = if x.abs() > y.abs() { x.abs() } else { y.abs() };
    if (x - y).abs() > m { (x - y).abs() } else { m }
}

const fn role_of(l: i32, n: i32) -> CellRole {
    let (x, y) = (l - 6, n - 6);
    // The three axes through the centre: gates sit where the odd rings (the moats) cross them.
    let on_axis = x == 0 || y == 0 || x == y;
    match ring_of(l, n) {
        0 => CellRole::Gate,
        1 => CellRole::Ring,
        3 | 5 if on_axis => CellRole::Gate,
        3 | 5 => CellRole::Ring,
        _ => CellRole::Lane,
    }
}

pub(crate) const fn bit(l: i32, n: i32) -> u32 {
    ((l - 1) * 11 + (n - 1)) as u32
}

/// The one-cell set of `(L, N)`; `a1` is `sq(1, 1)`.
pub(crate) const fn sq(l: i32, n: i32) -> Bits {
    1 << bit(l, n)
}

/// What a mask built at compile time selects.
#[derive(Clone, Copy)]
enum Select {
    All,
    Role(CellRole),
    /// The row `N − L = d`.
    Row(i32),
}

const fn selected(sel: Select, l: i32, n: i32) -> bool {
    match sel {
        Select::All => true,
        Select::Role(r) => role_of(l, n) as u8 == r as u8,
        Select::Row(d) => n - l == d,
    }
}

/// Every cell of the board that `sel` selects.
const fn mask_of(sel: Select) -> Bits {
    let mut m: Bits = 0;
    let mut l = 1;
    while l <= 11 {
        let mut n = 1;
        while n <= 11 {
            if on_board(l, n) && selected(sel, l, n) {
                m |= sq(l, n);
            }
            n += 1;
        }
        l += 1;
    }
    m
}

pub(crate) const ON_BOARD: Bits = mask_of(Select::All);
pub(crate) const GATES: Bits = mask_of(Select::Role(CellRole::Gate));
pub(crate) const RINGS: Bits = mask_of(Select::Role(CellRole::Ring));
pub(crate) const LANES: Bits = mask_of(Select::Role(CellRole::Lane));

/// The central gate f6.
pub(crate) const CENTRE: Bits = sq(6, 6);

const A1: Bits = sq(1, 1); // a1
const A6: Bits = sq(1, 6); // a6
const C3: Bits = sq(3, 3); // c3
const C6: Bits = sq(3, 6); // c6
const F1: Bits = sq(6, 1); // f1
const F3: Bits = sq(6, 3); // f3
const F9: Bits = sq(6, 9); // f9
const F11: Bits = sq(6, 11); // f11
const I6: Bits = sq(9, 6); // i6
const I9: Bits = sq(9, 9); // i9
const K6: Bits = sq(11, 6); // k6
const K11: Bits = sq(11, 11); // k11

/// The Middle Ring gates c3 c6 f9 i9 i6 f3 (§2.3).
pub(crate) const MIDDLE_RING: Bits = C3 | C6 | F9 | I9 | I6 | F3;
/// The Outer Ring gates a1 a6 f11 k11 k6 f1 (§2.3).
pub(crate) const OUTER_RING: Bits = A1 | A6 | F11 | K11 | K6 | F1;

/// The alignment lines A1, A2, A3: the three axes through the centre, five gates each.
pub(crate) const ALIGNMENTS: [(&str, Bits); 3] = [
    ("a1-c3-f6-i9-k11", A1 | C3 | CENTRE | I9 | K11),
    ("f1-f3-f6-f9-f11", F1 | F3 | CENTRE | F9 | F11),
    ("a6-c6-f6-i6-k6", A6 | C6 | CENTRE | I6 | K6),
];

/// The six segmental triangles: the centre plus the middle and outer gates of two neighbouring
/// axis rays.
pub(crate) const TRIANGLES: [Bits; 6] = [
    CENTRE | C3 | A1 | C6 | A6,   // T-W/NW
    CENTRE | C6 | A6 | F9 | F11,  // T-top
    CENTRE | F9 | F11 | I9 | K11, // T-NE/E
    CENTRE | I9 | K11 | I6 | K6,  // T-E/SE
    CENTRE | I6 | K6 | F3 | F1,   // T-bottom
    CENTRE | F3 | F1 | C3 | A1,   // T-SW/W
];

/// The base entry rows: South's is the bottom row `N − L = −5`, North's the top row `N − L = 5`.
pub(crate) const BASE_ROW: [Bits; 2] = [mask_of(Select::Row(-5)), mask_of(Select::Row(5))];
/// Each player's two base gates: the corner gates of their base entry row.
pub(crate) const BASE_GATES: [Bits; 2] = [BASE_ROW[0] & GATES, BASE_ROW[1] & GATES];
/// The four non-gate cells of each base entry row: the drop cells (§6-3) and the cells from which
/// the base-gate exception applies.
pub(crate) const BASE_CELLS: [Bits; 2] = [BASE_ROW[0] & !GATES, BASE_ROW[1] & !GATES];

/// The neighbours of every cell of `m` (cells of `m` included only if they neighbour another).
#[inline]
pub(crate) fn neighbours(m: Bits) -> Bits {
    ((m << 1) | (m >> 1) | (m << 11) | (m >> 11) | (m << 12) | (m >> 12)) & ON_BOARD
}

/// How many neighbours in `q` each cell has, bit-sliced: six shifted copies of `q` go through a
/// counter whose planes say "odd count", "bit 2 of the count" and "four or more".
#[inline]
fn neighbour_counts(q: Bits) -> (Bits, Bits, Bits) {
    let (mut ones, mut twos, mut fours): (Bits, Bits, Bits) = (0, 0, 0);
    for x in [q << 1, q >> 1, q << 11, q >> 11, q << 12, q >> 12] {
        let c1 = ones & x;
        ones ^= x;
        let c2 = twos & c1;
        twos ^= c1;
        fours |= c2;
    }
    (ones, twos, fours)
}

/// The cells with at least 3 neighbours in `q`: those `q` secures by proximity (§4.3).
#[inline]
pub(crate) fn three_neighbours(q: Bits) -> Bits {
    let (ones, twos, fours) = neighbour_counts(q);
    (fours | (twos & ones)) & ON_BOARD
}

/// The cells with exactly 2 neighbours in `q`: one more stone of `q` beside them secures them by
/// proximity.
#[inline]
pub(crate) fn two_neighbours(q: Bits) -> Bits {
    let (ones, twos, fours) = neighbour_counts(q);
    twos & !ones & !fours & ON_BOARD
}

/// The six steps `(dL, dN)` as bit offsets, used by straight-line slides.
pub(crate) const STEPS: [i32; 6] = [12, -12, 1, -11, 11, -1];

/// One step from `b` by the bit offset `d`, if it lands on the board.
#[inline]
pub(crate) fn step(b: u32, d: i32) -> Option<u32> {
    let t = b as i32 + d;
    (0..121)
        .contains(&t)
        .then_some(t as u32)
        .filter(|&t| ON_BOARD >> t & 1 == 1)
}

/// The cells of a bit set in increasing order.
pub(crate) fn bits(mut m: Bits) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m.trailing_zeros();
            m &= m - 1;
            b
        })
    })
}

/// The board's tables: the shared `Geometry` (names, hexes) and the two numberings.
pub struct Board {
    geometry: Geometry,
    /// `bit_of[cell]`
    bit_of: Vec<u32>,
    /// `cell_of[bit]`, `u16::MAX` off the board.
    cell_of: [u16; 121],
}

static BOARD: LazyLock<Board> = LazyLock::new(|| {
    let mut hexes = Vec::with_capacity(91);
    let mut bit_of = Vec::with_capacity(91);
    let mut cell_of = [u16::MAX; 121];
    for l in 1..=11 {
        for n in 1..=11 {
            if on_board(l, n) {
                cell_of[bit(l, n) as usize] = hexes.len() as u16;
                bit_of.push(bit(l, n));
                hexes.push(hex_of(l, n));
            }
        }
    }
    let geometry = Geometry::new(hexes, |h| {
        let (l, n) = ln_of(h);
        format!("{}{n}", char::from(b'a' + (l - 1) as u8))
    });
    Board {
        geometry,
        bit_of,
        cell_of,
    }
});

/// The spec's `(L, N)` as a `Hex`: `q = L − 6`, `r = 6 − N`, so the spec's six neighbour steps are
/// exactly the six flat directions (its cube coordinates `(x, −y, y − x)`).
fn hex_of(l: i32, n: i32) -> Hex {
    Hex::new(l - 6, 6 - n)
}

fn ln_of(h: Hex) -> (i32, i32) {
    (h.q + 6, 6 - h.r)
}

pub(crate) fn board() -> &'static Board {
    &BOARD
}

/// The board's cells, names and neighbour tables.
pub fn geometry() -> &'static Geometry {
    &BOARD.geometry
}

impl Board {
    pub(crate) fn bit(&self, c: Cell) -> u32 {
        self.bit_of[c.index()]
    }

    pub(crate) fn cell(&self, b: u32) -> Cell {
        Cell(self.cell_of[b as usize])
    }

    pub(crate) fn name(&self, b: u32) -> &str {
        self.geometry.name(self.cell(b))
    }

    /// A cell name (any case) as a bit.
    pub(crate) fn parse(&self, name: &str) -> Option<u32> {
        self.geometry.parse(name).map(|c| self.bit(c))
    }

    pub(crate) fn to_cells(&self, m: Bits) -> CellSet {
        bits(m).map(|b| self.cell(b)).collect()
    }
}

/// The spec's `(L, N)` of a cell: letter index (a = 1) and number.
pub fn coordinates(c: Cell) -> (i32, i32) {
    ln_of(geometry().hex(c))
}

/// Where the spec's map (§2.2) draws a cell, in doubled-width coordinates of a pointy-topped
/// layout: `x = L + N − 2` (0…20, in half cells, left to right) and `y = 5 − (N − L)` (0…10, rows
/// from North's base row at the top to South's at the bottom).
pub fn map_position(c: Cell) -> (i32, i32) {
    let (l, n) = coordinates(c);
    (l + n - 2, 5 - (n - l))
}

/// Every cell with its role, in cell order: what a renderer needs to draw the empty board.
pub fn cells() -> impl Iterator<Item = (Cell, CellRole)> {
    geometry().cells().map(|c| (c, role(c)))
}

/// Whether the cell is a lane, a ring cell or a gate.
pub fn role(c: Cell) -> CellRole {
    let (l, n) = coordinates(c);
    role_of(l, n)
}

/// The player whose base entry row holds the cell, if any.
pub fn base_owner(c: Cell) -> Option<Seat> {
    let b = sq_of(c);
    [SOUTH, NORTH]
        .into_iter()
        .find(|s| BASE_ROW[s.index()] & b != 0)
}

fn sq_of(c: Cell) -> Bits {
    1 << board().bit(c)
}

/// A player's base entry row (6 cells).
pub fn base_row(seat: Seat) -> CellSet {
    board().to_cells(BASE_ROW[seat.index() & 1])
}

/// A player's two base gates.
pub fn base_gates(seat: Seat) -> CellSet {
    board().to_cells(BASE_GATES[seat.index() & 1])
}

/// A player's four drop cells (the non-gate cells of the base entry row).
pub fn drop_cells(seat: Seat) -> CellSet {
    board().to_cells(BASE_CELLS[seat.index() & 1])
}

/// The 13 gates.
pub fn gates() -> CellSet {
    board().to_cells(GATES)
}

/// The six Middle Ring gates and the six Outer Ring gates.
pub fn gate_rings() -> [CellSet; 2] {
    [board().to_cells(MIDDLE_RING), board().to_cells(OUTER_RING)]
}

/// The three alignment lines (five gates each, through the centre).
pub fn alignment_lines() -> [CellSet; 3] {
    ALIGNMENTS.map(|(_, m)| board().to_cells(m))
}

/// The six segmental triangles (five gates each).
pub fn segmental_triangles() -> [CellSet; 6] {
    TRIANGLES.map(|m| board().to_cells(m))
}
