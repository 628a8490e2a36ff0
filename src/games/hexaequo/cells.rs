//! HexaEquo's grid: the designer's pointy-top axial coordinates, the six neighbour directions,
//! the twelve ring targets and the cell names (`docs/rules/hexaequo.md` §2).
//!
//! The spec's `(q, r)` is stored as the shared [`Hex`] unchanged: `x ∝ q + r/2`, `y ∝ r` with `r`
//! growing **downward**. The shared `Direction` names (N, NE, …) belong to HexiMeros' flat-topped
//! picture and would mislead here, so this module names the six steps as the spec does.

use crate::hex::Hex;

/// The six neighbour steps, clockwise from east, as in §2: E, NE, NW, W, SW, SE.
pub const DIRECTIONS: [Hex; 6] = [
    Hex::new(1, 0),
    Hex::new(1, -1),
    Hex::new(0, -1),
    Hex::new(-1, 0),
    Hex::new(-1, 1),
    Hex::new(0, 1),
];

/// The twelve cells at distance exactly 2 (a ring's targets, §2): six straight, then six bent.
pub const RING_OFFSETS: [Hex; 12] = [
    Hex::new(2, 0),
    Hex::new(2, -2),
    Hex::new(0, -2),
    Hex::new(-2, 0),
    Hex::new(-2, 2),
    Hex::new(0, 2),
    Hex::new(2, -1),
    Hex::new(1, -2),
    Hex::new(-1, -1),
    Hex::new(-2, 1),
    Hex::new(-1, 2),
    Hex::new(1, 1),
];

/// The origin `(0, 0)`, named I8.
pub const ORIGIN: Hex = Hex::ORIGIN;

// The letter is `'A' + q + 8`, so the spec's names reach q = −8 … 17 (A–Z). Numbers are `r + 8`
// and must stay positive; we stop them at 26 so the named grid is A1–Z26. From the opening the
// board can never leave q = −8 … 8, r = −7 … 8 (a new tile needs two neighbours, so the board
// grows at most one row per two tiles), so the limit only ever binds on hand-made positions.
const Q_MIN: i32 = -8;
const Q_MAX: i32 = 17;
const R_MIN: i32 = -7;
const R_MAX: i32 = 18;

/// Whether `h` has a name (A1–Z26).
pub fn in_grid(h: Hex) -> bool {
    (Q_MIN..=Q_MAX).contains(&h.q) && (R_MIN..=R_MAX).contains(&h.r)
}

/// The spec's name of a cell (`(0,0)` is I8, `(2,−1)` is K7), or `None` outside A1–Z26.
pub fn cell_name(h: Hex) -> Option<String> {
    in_grid(h).then(|| {
        let letter = char::from(b'A' + (h.q - Q_MIN) as u8);
        format!("{letter}{}", h.r + 8)
    })
}

/// The name of a cell for messages and pictures; cells outside the named grid (which no
/// validated position holds) show as raw `(q,r)` rather than failing.
pub fn name(h: Hex) -> String {
    cell_name(h).unwrap_or_else(|| format!("({},{})", h.q, h.r))
}

/// Read a cell name, ignoring case: one letter A–Z, then a number 1–26.
pub fn parse_cell(text: &str) -> Option<Hex> {
    let t = text.trim();
    let mut chars = t.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number: i32 = digits.parse().ok()?;
    let h = Hex::new(i32::from(letter as u8 - b'A') + Q_MIN, number - 8);
    in_grid(h).then_some(h)
}

/// The cells next to `h`, in [`DIRECTIONS`] order.
pub fn neighbours(h: Hex) -> [Hex; 6] {
    DIRECTIONS.map(|d| h + d)
}

/// If `a` and `b` are two apart in a straight line, the cell between them (a disc jumps over it).
pub fn between(a: Hex, b: Hex) -> Option<Hex> {
    let d = b - a;
    DIRECTIONS.iter().find(|&&v| v * 2 == d).map(|&v| a + v)
}

/// The cells a ring passes over on its way from `a` to `b` (distance 2): one for a straight leap,
/// the two flanking cells for a bent one. Empty unless the distance is 2.
pub fn leap_crossings(a: Hex, b: Hex) -> Vec<Hex> {
    if a.distance(b) != 2 {
        return Vec::new();
    }
    if let Some(m) = between(a, b) {
        return vec![m];
    }
    neighbours(a)
        .into_iter()
        .filter(|&n| n.distance(b) == 1)
        .collect()
}
