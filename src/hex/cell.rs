//! `Cell` (an index into one board's `Geometry`) and `CellSet` (a fixed-size bitset over cells).

use std::fmt;

/// Index of a playing cell within one [`crate::hex::Geometry`]. Meaningless on another board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u16);

impl Cell {
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

const WORDS: usize = 11;

/// A set of cells of one board, as a bitset. Holds up to [`CellSet::CAPACITY`] cells: enough for
/// HexiMeros' 649, the largest fixed board of the five games.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet {
    words: [u64; WORDS],
}

impl CellSet {
    pub const CAPACITY: usize = WORDS * 64;

    pub const fn new() -> CellSet {
        CellSet { words: [0; WORDS] }
    }

    pub fn insert(&mut self, c: Cell) {
        self.words[c.index() / 64] |= 1 << (c.index() % 64);
    }

    pub fn remove(&mut self, c: Cell) {
        self.words[c.index() / 64] &= !(1 << (c.index() % 64));
    }

    pub fn contains(&self, c: Cell) -> bool {
        self.words[c.index() / 64] & (1 << (c.index() % 64)) != 0
    }

    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn union(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        for (a, b) in out.words.iter_mut().zip(other.words) {
            *a |= b;
        }
        out
    }

    pub fn intersection(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        for (a, b) in out.words.iter_mut().zip(other.words) {
            *a &= b;
        }
        out
    }

    pub fn difference(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        for (a, b) in out.words.iter_mut().zip(other.words) {
            *a &= !b;
        }
        out
    }

    pub fn intersects(&self, other: &CellSet) -> bool {
        self.words.iter().zip(other.words).any(|(a, b)| a & b != 0)
    }

    /// Cells in increasing index order.
    pub fn iter(&self) -> CellSetIter {
        CellSetIter {
            words: self.words,
            word: 0,
        }
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> CellSet {
        let mut s = CellSet::new();
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl Extend<Cell> for CellSet {
    fn extend<I: IntoIterator<Item = Cell>>(&mut self, iter: I) {
        for c in iter {
            self.insert(c);
        }
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|c| c.0)).finish()
    }
}

pub struct CellSetIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for CellSetIter {
    type Item = Cell;
    fn next(&mut self) -> Option<Cell> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                let bit = w.trailing_zeros() as usize;
                self.words[self.word] &= w - 1;
                return Some(Cell((self.word * 64 + bit) as u16));
            }
            self.word += 1;
        }
        None
    }
}

impl IntoIterator for &CellSet {
    type Item = Cell;
    type IntoIter = CellSetIter;
    fn into_iter(self) -> CellSetIter {
        self.iter()
    }
}
