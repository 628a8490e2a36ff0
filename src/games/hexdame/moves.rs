//! Move generation (`docs/rules/hexdame.md` §4): compulsory capture with the majority rule, men's short
//! jumps and kings' long jumps in six directions, captured pieces staying on the board until the
//! move ends, then steps and slides when nothing can be captured.
//!
//! Everything works on three `u64` masks and the compile-time tables of `board.rs`; the only
//! allocation is the caller's output vector, which perft reuses from ply to ply.

use crate::hex::{Cell, CellSet};

use super::Colour;
use super::board::{FORWARD, JUMPS, NEIGHBOR, NONE, RAYS, bit, bits, cell_set, promotion_mask};

/// The most pieces one capture can take: a side never has more than 16 (§3, and setups are
/// checked), so this also bounds a capture path.
pub const MAX_CAPTURES: usize = 16;

/// The pieces on the board and the side to move: what the repetition rule compares (§6-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// White pieces, one bit per cell number.
    pub white: u64,
    /// Black pieces.
    pub black: u64,
    /// Kings of either colour (a subset of `white | black`).
    pub kings: u64,
    pub side: Colour,
}

impl Board {
    pub const fn own(&self, side: Colour) -> u64 {
        match side {
            Colour::White => self.white,
            Colour::Black => self.black,
        }
    }

    pub const fn occupied(&self) -> u64 {
        self.white | self.black
    }

    /// Play a move of the side to move. `m` must be legal here.
    pub fn apply(&mut self, m: &Move) {
        let from = bit(m.from);
        let to = bit(m.to);
        let was_king = self.kings & from != 0;
        let (own, enemy) = match self.side {
            Colour::White => (&mut self.white, &mut self.black),
            Colour::Black => (&mut self.black, &mut self.white),
        };
        // Clear then set: a capture may end on its own starting cell (T11).
        *own = (*own & !from) | to;
        *enemy &= !m.captured;
        self.kings &= !(from | m.captured);
        if was_king || m.promotes {
            self.kings |= to;
        }
        self.side = self.side.opponent();
    }
}

/// A HexDame move: a step or slide, or a whole capture sequence (one move, §4).
///
/// Under the spec's move identity (§6-2) a capture is (from, to, captured cells); `path` is the
/// one kept for display, the least in cell-name order. With the house rule
/// `distinct_capture_paths` every path is a move of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub(super) from: u8,
    pub(super) to: u8,
    /// Pieces captured (= landing cells in `path`); 0 for a step or slide.
    pub(super) count: u8,
    /// A man ending on the opponent's back rank (§4.4).
    pub(super) promotes: bool,
    pub(super) captured: u64,
    /// The landing cell after each capture; `path[count - 1] == to`.
    pub(super) path: [u8; MAX_CAPTURES],
}

impl Move {
    /// A step or slide.
    pub(super) fn quiet(from: u8, to: u8, promotes: bool) -> Move {
        Move {
            from,
            to,
            count: 0,
            promotes,
            captured: 0,
            path: [NONE; MAX_CAPTURES],
        }
    }

    /// The cell the moving piece starts on.
    pub fn from(&self) -> Cell {
        Cell(u16::from(self.from))
    }

    /// The cell the moving piece ends on (a capture may end where it began).
    pub fn to(&self) -> Cell {
        Cell(u16::from(self.to))
    }

    /// The pieces this move captures.
    pub fn captured(&self) -> CellSet {
        cell_set(self.captured)
    }

    /// The landing cell after each capture, in order (empty for a step or slide).
    pub fn path(&self) -> impl Iterator<Item = Cell> + '_ {
        self.landings().iter().map(|&c| Cell(u16::from(c)))
    }

    pub fn is_capture(&self) -> bool {
        self.count > 0
    }

    /// Number of pieces this move captures.
    pub fn capture_count(&self) -> usize {
        usize::from(self.count)
    }

    /// Whether a man ends this move on the far back rank and becomes a king.
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// The landing cells of a capture in order (empty for a step or slide).
    pub(super) fn landings(&self) -> &[u8] {
        &self.path[..usize::from(self.count)]
    }

    /// Same move under the spec's identity: start, end and the set of captured pieces.
    pub(super) fn same_capture(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

/// Depth-first search of capture sequences from one piece, keeping only those of the greatest
/// length found so far over all pieces (the majority rule, §4.1).
struct Search<'a> {
    enemy: u64,
    /// Every piece still on the board, the captured ones included (they block, §4.3), the moving
    /// piece's starting cell excluded (it has left it).
    occupied: u64,
    from: u8,
    promotion: u64,
    /// Fold paths with the same (from, to, captured) into one move (§6-2).
    fold_paths: bool,
    best: u8,
    path: [u8; MAX_CAPTURES],
    out: &'a mut Vec<Move>,
}

impl Search<'_> {
    fn record(&mut self, at: u8, captured: u64, depth: u8, king: bool) {
        if depth < self.best {
            return;
        }
        if depth > self.best {
            self.out.clear();
            self.best = depth;
        }
        // Slots past the end may hold cells of an abandoned branch: clear them so that equal
        // moves compare equal.
        let mut path = self.path;
        path[usize::from(depth)..].fill(NONE);
        let m = Move {
            from: self.from,
            to: at,
            count: depth,
            // Promotion only where the move ends (§4.4): a man passing the back rank stays a man.
            promotes: !king && self.promotion & bit(at) != 0,
            captured,
            path,
        };
        if self.fold_paths {
            let n = usize::from(depth);
            if let Some(e) = self.out.iter_mut().find(|e| e.same_capture(&m)) {
                if m.path[..n] < e.path[..n] {
                    e.path = m.path;
                }
                return;
            }
        }
        self.out.push(m);
    }

    /// A man at `at` having taken `captured`: jump an adjacent enemy to the empty cell beyond.
    fn man(&mut self, at: u8, captured: u64, depth: u8) {
        let mut more = false;
        if usize::from(depth) < MAX_CAPTURES {
            for &(over, land) in &JUMPS[usize::from(at)] {
                if over == NONE
                    || (self.enemy & !captured) & bit(over) == 0
                    || self.occupied & bit(land) != 0
                {
                    continue;
                }
                more = true;
                self.path[usize::from(depth)] = land;
                self.man(land, captured | bit(over), depth + 1);
            }
        }
        if !more && depth > 0 {
            self.record(at, captured, depth, false);
        }
    }

    /// A king at `at`: along each line pass empty cells, jump the first piece if it is an enemy
    /// not yet taken, and land on any empty cell of the run beyond it.
    fn king(&mut self, at: u8, captured: u64, depth: u8) {
        let mut more = false;
        if usize::from(depth) < MAX_CAPTURES {
            for ray in &RAYS[usize::from(at)] {
                let cells = ray.as_slice();
                let Some(i) = cells.iter().position(|&c| self.occupied & bit(c) != 0) else {
                    continue;
                };
                let victim = cells[i];
                if (self.enemy & !captured) & bit(victim) == 0 {
                    continue;
                }
                for &land in &cells[i + 1..] {
                    if self.occupied & bit(land) != 0 {
                        break;
                    }
                    more = true;
                    self.path[usize::from(depth)] = land;
                    self.king(land, captured | bit(victim), depth + 1);
                }
            }
        }
        if !more && depth > 0 {
            self.record(at, captured, depth, true);
        }
    }
}

/// Every legal move of `board.side` into `out` (cleared first). With `fold_paths`, capture paths
/// that start and end alike and take the same pieces are one move (§6-2).
pub fn generate(board: &Board, fold_paths: bool, out: &mut Vec<Move>) {
    out.clear();
    let side = board.side;
    let own = board.own(side);
    let enemy = board.own(side.opponent());
    let all = board.occupied();
    let mut search = Search {
        enemy,
        occupied: all,
        from: NONE,
        promotion: promotion_mask(side),
        fold_paths,
        best: 0,
        path: [NONE; MAX_CAPTURES],
        out,
    };
    for from in bits(own) {
        search.from = from;
        search.occupied = all & !bit(from);
        if board.kings & bit(from) != 0 {
            search.king(from, 0, 0);
        } else {
            search.man(from, 0, 0);
        }
    }
    if search.best > 0 {
        return;
    }
    let promotion = promotion_mask(side);
    for from in bits(own & !board.kings) {
        for &d in &FORWARD[side as usize] {
            let to = NEIGHBOR[usize::from(from)][d];
            if to != NONE && all & bit(to) == 0 {
                out.push(Move::quiet(from, to, promotion & bit(to) != 0));
            }
        }
    }
    for from in bits(own & board.kings) {
        for ray in &RAYS[usize::from(from)] {
            for &to in ray.as_slice() {
                if all & bit(to) != 0 {
                    break;
                }
                out.push(Move::quiet(from, to, false));
            }
        }
    }
}

/// Whether the side to move has any legal move at all (the loss test of §5), without listing.
pub fn has_move(board: &Board) -> bool {
    let side = board.side;
    let own = board.own(side);
    let enemy = board.own(side.opponent());
    let all = board.occupied();
    for from in bits(own) {
        let king = board.kings & bit(from) != 0;
        for (d, &next) in NEIGHBOR[usize::from(from)].iter().enumerate() {
            if next == NONE {
                continue;
            }
            if all & bit(next) == 0 {
                // A king with an empty neighbour can slide there; one without can only jump an
                // adjacent piece (tested below), so one step per direction is enough to tell.
                if king || FORWARD[side as usize].contains(&d) {
                    return true;
                }
            } else if enemy & bit(next) != 0 {
                let land = NEIGHBOR[usize::from(next)][d];
                if land != NONE && all & bit(land) == 0 {
                    return true;
                }
            }
        }
    }
    false
}

/// One capture hop as written by a player, from `at` to `land`: the enemy piece it jumps, if it
/// is a legal jump for a man (`king == false`) or a king with `captured` already taken and
/// `occupied` as in [`Search`]. Used to explain why a written capture is wrong.
pub fn hop(king: bool, at: u8, land: u8, enemy: u64, occupied: u64, captured: u64) -> Option<u8> {
    for ray in &RAYS[usize::from(at)] {
        let cells = ray.as_slice();
        let Some(j) = cells.iter().position(|&c| c == land) else {
            continue;
        };
        let between = &cells[..j];
        let mut pieces = between.iter().filter(|&&c| occupied & bit(c) != 0);
        let victim = *pieces.next()?;
        let ok = pieces.next().is_none()
            && (enemy & !captured) & bit(victim) != 0
            && occupied & bit(land) == 0
            && (king || between.len() == 1);
        return ok.then_some(victim);
    }
    None
}
