//! `Hex`: a hexagon in cube coordinates `(q, r, s)` with `q + r + s = 0`, stored axially.
//!
//! The vocabulary is Red Blob Games': neighbour, distance, ring, rotation. Direction vectors and
//! the flat/line naming follow `docs/rules/heximeros.md` §2.4, which every game of the bot shares.

use std::ops::{Add, Mul, Neg, Sub};

use serde::{Deserialize, Serialize};

/// A hexagon in cube coordinates; `s` is derived as `-q - r`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hex {
    pub q: i32,
    pub r: i32,
}

impl Hex {
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// From cube coordinates; `None` unless `q + r + s == 0`.
    pub fn from_cube(q: i32, r: i32, s: i32) -> Option<Hex> {
        (q + r + s == 0).then_some(Hex { q, r })
    }

    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// Flat-topped "doubled" display coordinates: `x = q`, `y = r - s` (so `x + y` is even).
    pub const fn to_doubled(self) -> (i32, i32) {
        (self.q, self.r - self.s())
    }

    /// Inverse of [`Hex::to_doubled`]; `None` when `x + y` is odd.
    pub fn from_doubled(x: i32, y: i32) -> Option<Hex> {
        if (x + y).rem_euclid(2) != 0 {
            return None;
        }
        Some(Hex {
            q: x,
            r: (y - x) / 2,
        })
    }

    /// Hex distance (number of flat steps).
    pub fn distance(self, other: Hex) -> i32 {
        (other - self).length()
    }

    /// Distance from the origin.
    pub fn length(self) -> i32 {
        (self.q.abs() + self.r.abs() + self.s().abs()) / 2
    }

    pub fn neighbor(self, d: Direction) -> Hex {
        self + d.vector()
    }

    /// Rotate by 60° about the origin: `(q, r, s) -> (-s, -q, -r)`. Sends flat direction `i` to
    /// flat direction `i + 1` (N → NE → …), i.e. clockwise on the display.
    pub fn rotate(self) -> Hex {
        Hex {
            q: -self.s(),
            r: -self.q,
        }
    }

    /// Rotate by `60° * times` (any integer, negative turns the other way).
    pub fn rotate_by(self, times: i32) -> Hex {
        (0..times.rem_euclid(6)).fold(self, |h, _| h.rotate())
    }

    /// Cube dot product, e.g. the "forward coordinate" `p · F[k]` of `docs/rules/heximeros.md` §2.4.
    pub fn dot(self, other: Hex) -> i32 {
        self.q * other.q + self.r * other.r + self.s() * other.s()
    }

    /// The `6 * radius` hexes at exactly `radius` from `self` (just `self` for radius 0).
    pub fn ring(self, radius: i32) -> Vec<Hex> {
        if radius <= 0 {
            return vec![self];
        }
        let mut out = Vec::with_capacity(6 * radius as usize);
        let mut h = self + Direction::flat(4).vector() * radius;
        for i in 0..6 {
            for _ in 0..radius {
                out.push(h);
                h = h + Direction::flat(i).vector();
            }
        }
        out
    }

    /// Every hex within `radius` of `self`, centre first, then ring by ring.
    pub fn range(self, radius: i32) -> Vec<Hex> {
        (0..=radius).flat_map(|r| self.ring(r)).collect()
    }
}

impl Add for Hex {
    type Output = Hex;
    fn add(self, o: Hex) -> Hex {
        Hex::new(self.q + o.q, self.r + o.r)
    }
}

impl Sub for Hex {
    type Output = Hex;
    fn sub(self, o: Hex) -> Hex {
        Hex::new(self.q - o.q, self.r - o.r)
    }
}

impl Neg for Hex {
    type Output = Hex;
    fn neg(self) -> Hex {
        Hex::new(-self.q, -self.r)
    }
}

impl Mul<i32> for Hex {
    type Output = Hex;
    fn mul(self, k: i32) -> Hex {
        Hex::new(self.q * k, self.r * k)
    }
}

/// One of the 12 directions of a hex board: 6 **flat** steps (through a shared edge, to a
/// neighbour) and 6 **line** steps (through a corner, to distance 2). Index 0–5 are the flats
/// N, NE, SE, S, SW, NW; 6–11 the lines NNE, E, SSE, SSW, W, NNW (`L[i] = F[i] + F[i+1]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Direction(u8);

const FLAT_VECTORS: [Hex; 6] = [
    Hex::new(0, 1),
    Hex::new(1, 0),
    Hex::new(1, -1),
    Hex::new(0, -1),
    Hex::new(-1, 0),
    Hex::new(-1, 1),
];

const NAMES: [&str; 12] = [
    "N", "NE", "SE", "S", "SW", "NW", "NNE", "E", "SSE", "SSW", "W", "NNW",
];

impl Direction {
    /// All 12 directions: the six flats, then the six lines.
    pub const ALL: [Direction; 12] = [
        Direction(0),
        Direction(1),
        Direction(2),
        Direction(3),
        Direction(4),
        Direction(5),
        Direction(6),
        Direction(7),
        Direction(8),
        Direction(9),
        Direction(10),
        Direction(11),
    ];
    pub const FLATS: [Direction; 6] = [
        Direction(0),
        Direction(1),
        Direction(2),
        Direction(3),
        Direction(4),
        Direction(5),
    ];
    pub const LINES: [Direction; 6] = [
        Direction(6),
        Direction(7),
        Direction(8),
        Direction(9),
        Direction(10),
        Direction(11),
    ];

    /// Flat direction `i` (taken mod 6).
    pub const fn flat(i: usize) -> Direction {
        Direction((i % 6) as u8)
    }

    /// Line direction `i` (taken mod 6): between flats `i` and `i + 1`.
    pub const fn line(i: usize) -> Direction {
        Direction((i % 6) as u8 + 6)
    }

    /// 0–11, the position in [`Direction::ALL`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn is_flat(self) -> bool {
        self.0 < 6
    }

    pub const fn is_line(self) -> bool {
        self.0 >= 6
    }

    /// The index within its own kind (0–5).
    pub const fn sub_index(self) -> usize {
        (self.0 % 6) as usize
    }

    pub const fn vector(self) -> Hex {
        let i = (self.0 % 6) as usize;
        if self.0 < 6 {
            FLAT_VECTORS[i]
        } else {
            let a = FLAT_VECTORS[i];
            let b = FLAT_VECTORS[(i + 1) % 6];
            Hex::new(a.q + b.q, a.r + b.r)
        }
    }

    /// The two flat neighbours that flank a line step (they never block it). `None` for a flat.
    pub const fn flanks(self) -> Option<(Direction, Direction)> {
        if self.0 < 6 {
            None
        } else {
            let i = (self.0 % 6) as usize;
            Some((Direction::flat(i), Direction::flat(i + 1)))
        }
    }

    /// Rotate by `60° * times` within its kind (flat stays flat).
    pub const fn rotate(self, times: i32) -> Direction {
        let i = (self.0 % 6) as i32;
        let j = (i + times).rem_euclid(6) as u8;
        Direction(if self.0 < 6 { j } else { j + 6 })
    }

    pub const fn opposite(self) -> Direction {
        self.rotate(3)
    }

    pub fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }
}
