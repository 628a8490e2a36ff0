//! A transposition table for the search of three or more seats (paranoid and Best-Reply
//! Search): what a node's search found, kept by the position's key (the game's
//! [`Engine::tt_key`](super::search::Engine::tt_key), which covers the seat to move), so a position
//! met again is not searched again and its best move is tried first on the next, deeper pass.
//!
//! One table lives for one search (one bot move): the scores are from that search's bot's seat.
//! It has a fixed number of slots, a power of two, one entry each; a new entry replaces an old
//! one unless the old one is of another position and was searched deeper. The whole 64-bit key
//! is kept and compared, so two positions meet in one slot without being taken for each other
//! (barring a 64-bit collision).

use super::search::WIN;

/// What a stored score says about the position's true score at the stored depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The score itself (it fell inside the search window).
    Exact,
    /// At least the score (the search was cut off above the window).
    Lower,
    /// At most the score (every move failed below the window).
    Upper,
}

#[derive(Clone, Debug)]
pub(crate) struct Entry<M> {
    key: u64,
    pub depth: u32,
    pub bound: Bound,
    /// Ply-independent: a won or lost game counts its plies from this node, not the root.
    score: i32,
    /// The move that gave the score (or cut the search off), tried first next time.
    pub best: Option<M>,
}

impl<M> Entry<M> {
    /// The stored score seen from `ply` plies below the root.
    pub fn score(&self, ply: u32) -> i32 {
        from_table(self.score, ply)
    }
}

/// Scores this close to ±WIN are won or lost games, which count plies from the root.
const DECIDED: i32 = WIN - 10_000;

fn to_table(score: i32, ply: u32) -> i32 {
    if score >= DECIDED {
        score + ply as i32
    } else if score <= -DECIDED {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: u32) -> i32 {
    if score >= DECIDED {
        score - ply as i32
    } else if score <= -DECIDED {
        score + ply as i32
    } else {
        score
    }
}

pub(crate) struct Table<M> {
    slots: Vec<Option<Entry<M>>>,
    mask: usize,
    /// Searches answered from the table without searching the node (a cut-off or an exact
    /// score at a sufficient depth).
    pub hits: u64,
}

/// The slots of a table never exceed this (2^18 entries: a few MB for the largest moves).
pub(crate) const MAX_SLOTS: usize = 1 << 18;
const MIN_SLOTS: usize = 1 << 10;

impl<M: Clone> Table<M> {
    /// A table of about `want` slots, rounded up to a power of two within
    /// [`MIN_SLOTS`]..=[`MAX_SLOTS`].
    pub fn new(want: u64) -> Table<M> {
        let n = usize::try_from(want)
            .unwrap_or(MAX_SLOTS)
            .clamp(MIN_SLOTS, MAX_SLOTS)
            .next_power_of_two();
        Table {
            slots: vec![None; n],
            mask: n - 1,
            hits: 0,
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    fn slot(&self, key: u64) -> usize {
        // The low bits of a well-mixed key.
        (key as usize) & self.mask
    }

    /// The entry of this position, if it is still in the table.
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        self.slots[self.slot(key)].as_ref().filter(|e| e.key == key)
    }

    /// Keep what a search of `depth` plies from `ply` found: `score` within the window
    /// `alpha0..beta0` it was searched with (fail-soft), and its best move.
    #[allow(clippy::too_many_arguments)] // one node's findings, passed as they are
    pub fn store(
        &mut self,
        key: u64,
        depth: u32,
        ply: u32,
        alpha0: i32,
        beta0: i32,
        score: i32,
        best: Option<M>,
    ) {
        let bound = if score <= alpha0 {
            Bound::Upper
        } else if score >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let i = self.slot(key);
        if let Some(old) = &self.slots[i]
            && old.key != key
            && old.depth > depth
        {
            return;
        }
        // A search that found no move better than the first keeps the old entry's move.
        let best = best.or_else(|| {
            self.slots[i]
                .as_ref()
                .filter(|e| e.key == key)
                .and_then(|e| e.best.clone())
        });
        self.slots[i] = Some(Entry {
            key,
            depth,
            bound,
            score: to_table(score, ply),
            best,
        });
    }
}

/// What a probe says the search of a node may do.
pub(crate) enum Probe<M> {
    /// The stored score settles the node within the window: return it.
    Cut(i32),
    /// Search the node, trying this move (if any) first.
    Search(Option<M>),
}

impl<M: Clone> Table<M> {
    /// Look the position up for a search of `depth` plies at `ply` within `alpha..beta`.
    pub fn lookup(&mut self, key: u64, depth: u32, ply: u32, alpha: i32, beta: i32) -> Probe<M> {
        let Some(e) = self.probe(key) else {
            return Probe::Search(None);
        };
        if e.depth >= depth {
            let v = e.score(ply);
            let settled = match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            };
            if settled {
                self.hits += 1;
                return Probe::Cut(v);
            }
        }
        Probe::Search(e.best.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_found_by_its_key_only_and_keeps_its_bound() {
        let mut t: Table<u32> = Table::new(10);
        assert_eq!(t.len(), MIN_SLOTS);
        t.store(5, 3, 1, -100, 100, 40, Some(7));
        let e = t.probe(5).unwrap();
        assert_eq!(
            (e.depth, e.bound, e.score(1), e.best),
            (3, Bound::Exact, 40, Some(7))
        );
        // Same slot, another key: not taken for the first.
        assert!(t.probe(5 + MIN_SLOTS as u64).is_none());
        t.store(6, 2, 1, -100, 100, -100, None);
        assert_eq!(t.probe(6).unwrap().bound, Bound::Upper);
        t.store(7, 2, 1, -100, 100, 150, Some(1));
        assert_eq!(t.probe(7).unwrap().bound, Bound::Lower);
    }

    #[test]
    fn a_deeper_entry_of_another_position_is_kept() {
        let mut t: Table<u32> = Table::new(0);
        let other = 9 + t.len() as u64;
        t.store(9, 4, 0, -1, 1, 0, Some(1));
        t.store(other, 2, 0, -1, 1, 0, Some(2));
        assert!(t.probe(other).is_none());
        assert_eq!(t.probe(9).unwrap().best, Some(1));
        t.store(other, 4, 0, -1, 1, 0, Some(2));
        assert_eq!(t.probe(other).unwrap().best, Some(2));
    }

    #[test]
    fn lookup_cuts_only_on_a_deep_enough_bound_that_settles_the_window() {
        let mut t: Table<u32> = Table::new(0);
        t.store(1, 3, 0, 0, 100, 150, Some(4)); // a lower bound of 150
        assert!(matches!(t.lookup(1, 3, 0, 0, 120), Probe::Cut(150)));
        assert!(matches!(t.lookup(1, 3, 0, 0, 200), Probe::Search(Some(4))));
        assert!(matches!(t.lookup(1, 4, 0, 0, 120), Probe::Search(Some(4))));
        assert_eq!(t.hits, 1);
    }

    #[test]
    fn won_games_are_stored_by_distance_from_the_node() {
        let mut t: Table<u32> = Table::new(0);
        // A win 3 plies below a node at ply 2 scores WIN - 5 from the root.
        t.store(1, 3, 2, -10, 10, WIN - 5, None);
        assert_eq!(t.probe(1).unwrap().score(4), WIN - 7);
        t.store(2, 3, 2, -10, 10, -WIN + 5, None);
        assert_eq!(t.probe(2).unwrap().score(1), -WIN + 4);
    }
}
