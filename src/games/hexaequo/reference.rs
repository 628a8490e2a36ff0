//! A second, deliberately naive HexaEquo model (default house rules only), written straight from
//! `docs/rules/hexaequo.md` without sharing code with the engine: states are maps keyed by `(q, r)`,
//! jump sequences are explored by cloning whole states, and moves are not represented at all:
//! only the set of positions one action can reach.
//!
//! §6-5 identifies a piece move by its start, its final cell and the set of pieces it captures,
//! and the last two are exactly what the resulting position records. So each legal move is one
//! (start of the moving piece, resulting position) pair, tiles and placements having no start:
//! the model's set of such pairs must match the engine's moves one for one. (Moves of two
//! different discs can give the same position: each may return to its own start having taken
//! the same pieces.) Perft over these sets must equal the engine's perft below 8 plies, where no
//! threefold repetition can happen yet; this model has no repetition rule.

use std::collections::{BTreeMap, BTreeSet};

type Cell = (i32, i32);

/// colour: 0 black, 1 white; kind: 0 disc, 1 ring.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct State {
    pub tiles: BTreeMap<Cell, u8>,
    pub pieces: BTreeMap<Cell, (u8, u8)>,
    /// held[holder][kind]: enemy pieces captured and still held.
    pub held: [[u8; 2]; 2],
    pub turn: u8,
}

const STEPS: [Cell; 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

fn add(a: Cell, b: Cell) -> Cell {
    (a.0 + b.0, a.1 + b.1)
}

fn dist(a: Cell, b: Cell) -> i32 {
    let (dq, dr) = (a.0 - b.0, a.1 - b.1);
    (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
}

fn name_to_cell(s: &str) -> Cell {
    let b = s.as_bytes();
    let q = i32::from(b[0].to_ascii_uppercase()) - i32::from(b'A') - 8;
    let r: i32 = s[1..].parse().expect("number");
    (q, r - 8)
}

impl State {
    /// Read the engine's position JSON (the shared schema, not the engine's types).
    pub fn from_json(json: &str) -> State {
        let v: serde_json::Value = serde_json::from_str(json).expect("json");
        let col = |s: &str| u8::from(s == "white");
        let kind = |s: &str| u8::from(s == "ring");
        let mut st = State {
            tiles: BTreeMap::new(),
            pieces: BTreeMap::new(),
            held: [[0; 2]; 2],
            turn: col(v["to_move"].as_str().expect("to_move")),
        };
        for t in v["tiles"].as_array().expect("tiles") {
            st.tiles.insert(
                name_to_cell(t["cell"].as_str().expect("cell")),
                col(t["owner"].as_str().expect("owner")),
            );
        }
        for p in v["pieces"].as_array().expect("pieces") {
            st.pieces.insert(
                name_to_cell(p["cell"].as_str().expect("cell")),
                (
                    col(p["owner"].as_str().expect("owner")),
                    kind(p["kind"].as_str().expect("kind")),
                ),
            );
        }
        for c in v["captured"].as_array().expect("captured") {
            let owner = col(c["owner"].as_str().expect("owner"));
            st.held[usize::from(1 - owner)][usize::from(kind(c["kind"].as_str().expect("k")))] += 1;
        }
        st
    }

    fn count(&self, colour: u8, kind: u8) -> u8 {
        self.pieces
            .values()
            .filter(|&&p| p == (colour, kind))
            .count() as u8
    }

    /// §5.1 for the player who has just moved.
    pub fn won(&self) -> bool {
        let mover = usize::from(1 - self.turn);
        self.held[mover][0] == 6
            || self.held[mover][1] == 3
            || !self.pieces.values().any(|p| p.0 == self.turn)
    }

    fn finish(&self, mut next: State) -> State {
        next.turn = 1 - self.turn;
        next
    }

    /// Every action of the side to move, as (start of the moving piece, resulting position).
    pub fn successors(&self) -> BTreeSet<(Option<Cell>, State)> {
        let mut out = BTreeSet::new();
        if self.won() {
            return out;
        }
        let me = self.turn;
        let them = usize::from(1 - me);
        let my_tiles = self.tiles.values().filter(|&&c| c == me).count();
        // Tiles.
        if my_tiles < 9 {
            let mut seen = BTreeSet::new();
            for &t in self.tiles.keys() {
                for s in STEPS {
                    let n = add(t, s);
                    if self.tiles.contains_key(&n) || !seen.insert(n) {
                        continue;
                    }
                    let touching = STEPS
                        .iter()
                        .filter(|&&s2| self.tiles.contains_key(&add(n, s2)))
                        .count();
                    if touching >= 2 {
                        let mut next = self.clone();
                        next.tiles.insert(n, me);
                        out.insert((None, self.finish(next)));
                    }
                }
            }
        }
        // Placements.
        let discs_left = 6 - self.count(me, 0) - self.held[them][0];
        let rings_left = 3 - self.count(me, 1) - self.held[them][1];
        for (&c, &owner) in &self.tiles {
            if owner != me || self.pieces.contains_key(&c) {
                continue;
            }
            if discs_left > 0 {
                let mut next = self.clone();
                next.pieces.insert(c, (me, 0));
                out.insert((None, self.finish(next)));
            }
            if rings_left > 0 && self.held[usize::from(me)][0] > 0 {
                let mut next = self.clone();
                next.pieces.insert(c, (me, 1));
                next.held[usize::from(me)][0] -= 1;
                out.insert((None, self.finish(next)));
            }
        }
        // Piece moves.
        for (&c, &(owner, kind)) in &self.pieces {
            if owner != me {
                continue;
            }
            if kind == 1 {
                for (&to, _) in self.tiles.iter().filter(|(t, _)| dist(c, **t) == 2) {
                    let mut next = self.clone();
                    match self.pieces.get(&to) {
                        Some(p) if p.0 == me => continue,
                        Some(p) => next.held[usize::from(me)][usize::from(p.1)] += 1,
                        None => {}
                    }
                    next.pieces.remove(&c);
                    next.pieces.insert(to, (me, 1));
                    out.insert((Some(c), self.finish(next)));
                }
                continue;
            }
            for s in STEPS {
                let n = add(c, s);
                if self.tiles.contains_key(&n) && !self.pieces.contains_key(&n) {
                    let mut next = self.clone();
                    next.pieces.remove(&c);
                    next.pieces.insert(n, (me, 0));
                    out.insert((Some(c), self.finish(next)));
                }
            }
            let mut lifted = self.clone();
            lifted.pieces.remove(&c);
            self.jumps(&lifted, c, c, &[c], &mut out);
        }
        out
    }

    /// Extend a jump sequence whose disc (lifted off `board`) stands on `at`; `since` holds the
    /// cells occupied since the last capture.
    fn jumps(
        &self,
        board: &State,
        start: Cell,
        at: Cell,
        since: &[Cell],
        out: &mut BTreeSet<(Option<Cell>, State)>,
    ) {
        let me = self.turn;
        for s in STEPS {
            let over = add(at, s);
            let land = add(over, s);
            let Some(&jumped) = board.pieces.get(&over) else {
                continue;
            };
            if !board.tiles.contains_key(&land)
                || board.pieces.contains_key(&land)
                || since.contains(&land)
            {
                continue;
            }
            let mut next = board.clone();
            let window = if jumped.0 != me {
                next.pieces.remove(&over);
                next.held[usize::from(me)][usize::from(jumped.1)] += 1;
                vec![land]
            } else {
                let mut w = since.to_vec();
                w.push(land);
                w
            };
            let mut placed = next.clone();
            placed.pieces.insert(land, (me, 0));
            out.insert((Some(start), self.finish(placed)));
            self.jumps(&next, start, land, &window, out);
        }
    }
}

/// Perft over successor sets.
pub fn perft(s: &State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    s.successors()
        .iter()
        .map(|(_, n)| perft(n, depth - 1))
        .sum()
}
