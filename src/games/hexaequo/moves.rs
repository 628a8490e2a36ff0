//! HexaEquo's actions (§4): what they are, which are legal, and how they change the position.
//!
//! Generation builds a small neighbour table over the (at most 18) tiles once per call, so the
//! jump search works on tile indices and a piece array rather than looking cells up.

use super::cells::{self, DIRECTIONS, RING_OFFSETS};
use super::{
    AntiLoop, CaptureRemoval, Colour, Earlier, HexaEquo, Kind, MAX_TILES, MoveIdentity, Piece, Tile,
};
use crate::hex::Hex;

/// One action of the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Lay a tile of one's colour on an empty cell touching two tiles (§4.1).
    Tile(Hex),
    /// Put a disc, or a ring (returning a captured disc), on an empty tile of one's colour
    /// (§4.2).
    Place { kind: Kind, cell: Hex },
    /// A disc steps to a neighbouring empty tile (§4.3).
    Step { from: Hex, to: Hex },
    /// A disc's jump sequence (§4.3): `path` is the start, then every landing cell; `captured`
    /// holds the cells of the enemy pieces taken, in the order they were taken.
    Jump { path: Vec<Hex>, captured: Vec<Hex> },
    /// A ring leaps to a tile two cells away, capturing the enemy piece there if any (§4.4).
    Leap { from: Hex, to: Hex, capture: bool },
}

impl Move {
    /// The cell a piece moves from (`None` for a tile or a placement).
    pub fn from(&self) -> Option<Hex> {
        match self {
            Move::Tile(_) | Move::Place { .. } => None,
            Move::Step { from, .. } | Move::Leap { from, .. } => Some(*from),
            Move::Jump { path, .. } => path.first().copied(),
        }
    }

    /// The cell the action ends on: the tile laid, the piece placed, or the mover's last cell.
    pub fn to(&self) -> Option<Hex> {
        match self {
            Move::Tile(cell) | Move::Place { cell, .. } => Some(*cell),
            Move::Step { to, .. } | Move::Leap { to, .. } => Some(*to),
            Move::Jump { path, .. } => path.last().copied(),
        }
    }

    /// How many enemy pieces the action captures.
    pub fn captures(&self) -> usize {
        match self {
            Move::Jump { captured, .. } => captured.len(),
            Move::Leap { capture: true, .. } => 1,
            _ => 0,
        }
    }
}

const NONE: u8 = u8::MAX;

/// For each tile and direction: the neighbouring tile and the tile beyond it (a jump's landing).
struct Links {
    next: [[u8; 6]; MAX_TILES],
    beyond: [[u8; 6]; MAX_TILES],
}

impl Links {
    fn new(g: &HexaEquo) -> Links {
        let mut l = Links {
            next: [[NONE; 6]; MAX_TILES],
            beyond: [[NONE; 6]; MAX_TILES],
        };
        let index = |h: Hex| g.tile_index(h).map_or(NONE, |i| i as u8);
        for (i, t) in g.tiles.iter().enumerate().take(MAX_TILES) {
            for (d, v) in DIRECTIONS.iter().enumerate() {
                l.next[i][d] = index(t.cell + *v);
                l.beyond[i][d] = index(t.cell + *v * 2);
            }
        }
        l
    }
}

/// The empty cells touching at least two tiles (§4.1, §6-8), inside the board limits.
pub(super) fn tile_spots(g: &HexaEquo) -> Vec<Hex> {
    let mut around: Vec<Hex> = g
        .tiles
        .iter()
        .flat_map(|t| cells::neighbours(t.cell))
        .filter(|&h| g.tile_index(h).is_none())
        .collect();
    around.sort_unstable();
    let mut spots = Vec::new();
    let mut i = 0;
    while i < around.len() {
        let mut j = i + 1;
        while j < around.len() && around[j] == around[i] {
            j += 1;
        }
        if j - i >= 2 && g.house.on_board(around[i]) {
            spots.push(around[i]);
        }
        i = j;
    }
    spots
}

/// Whether the player to move may place a ring: one in hand and a captured disc to return.
fn can_place_ring(g: &HexaEquo, me: Colour, ring_in_hand: u8) -> bool {
    ring_in_hand > 0 && g.prisoners[me.index()].discs > 0
}

/// The tiles a ring on `from` may leap to (§4.4, §6-9), with whether it captures there.
fn ring_targets(g: &HexaEquo, from: Hex, me: Colour) -> impl Iterator<Item = (Hex, bool)> + '_ {
    RING_OFFSETS.iter().filter_map(move |&off| {
        let to = from + off;
        let t = g.tile(to)?;
        if t.piece.is_some_and(|p| p.owner == me) {
            return None;
        }
        if !g.house.ring_over_gap
            && !cells::leap_crossings(from, to)
                .into_iter()
                .any(|c| g.tile_index(c).is_some())
        {
            return None;
        }
        Some((to, t.piece.is_some()))
    })
}

/// Whether the side to move has any legal action (§5.2), without listing them all.
pub(super) fn has_action(g: &HexaEquo) -> bool {
    let me = g.to_move;
    let hand = g.reserve(me);
    if hand.tile > 0 && !tile_spots(g).is_empty() {
        return true;
    }
    let own_empty = || g.tiles.iter().any(|t| t.owner == me && t.piece.is_none());
    if (hand.disc > 0 || can_place_ring(g, me, hand.ring)) && own_empty() {
        return true;
    }
    let links = Links::new(g);
    g.tiles.iter().enumerate().any(|(i, t)| match t.piece {
        Some(p) if p.owner == me && p.kind == Kind::Ring => {
            ring_targets(g, t.cell, me).next().is_some()
        }
        Some(p) if p.owner == me => (0..6).any(|d| {
            let next = links.next[i][d];
            let beyond = links.beyond[i][d];
            let empty = |j: u8| j != NONE && g.tiles[j as usize].piece.is_none();
            // A step, or a first jump (which can never land back on the start).
            empty(next) || (next != NONE && !empty(next) && empty(beyond))
        }),
        _ => false,
    })
}

/// Every legal action of the side to move, assuming the game is not over.
pub(super) fn generate(g: &HexaEquo) -> Vec<Move> {
    let me = g.to_move;
    let hand = g.reserve(me);
    let mut out = Vec::new();
    if hand.tile > 0 {
        out.extend(tile_spots(g).into_iter().map(Move::Tile));
    }
    let ring = can_place_ring(g, me, hand.ring);
    if hand.disc > 0 || ring {
        for t in g
            .tiles
            .iter()
            .filter(|t| t.owner == me && t.piece.is_none())
        {
            if hand.disc > 0 {
                out.push(Move::Place {
                    kind: Kind::Disc,
                    cell: t.cell,
                });
            }
            if ring {
                out.push(Move::Place {
                    kind: Kind::Ring,
                    cell: t.cell,
                });
            }
        }
    }
    let links = Links::new(g);
    for (i, t) in g.tiles.iter().enumerate().take(MAX_TILES) {
        let Some(p) = t.piece.filter(|p| p.owner == me) else {
            continue;
        };
        match p.kind {
            Kind::Ring => out.extend(ring_targets(g, t.cell, me).map(|(to, capture)| Move::Leap {
                from: t.cell,
                to,
                capture,
            })),
            Kind::Disc => {
                for &j in &links.next[i] {
                    if j != NONE && g.tiles[j as usize].piece.is_none() {
                        out.push(Move::Step {
                            from: t.cell,
                            to: g.tiles[j as usize].cell,
                        });
                    }
                }
                Chains::new(g, &links, i as u8).search(&mut out);
            }
        }
    }
    out
}

/// The depth-first search of one disc's jump sequences (§4.3). Every prefix of a legal
/// sequence is a move of its own (§6-3); sequences giving the same move (§6-5) are listed once.
struct Chains<'a> {
    g: &'a HexaEquo,
    links: &'a Links,
    me: Colour,
    /// What stands on each tile, with the jumping disc lifted (its start counts as empty) and,
    /// under immediate removal, the pieces it has captured so far taken off.
    board: [Option<Piece>; MAX_TILES],
    /// `CaptureRemoval::EndOfMove`: captured pieces still standing. They may be jumped again as
    /// hurdles, capturing nothing more. (No removal rule changes where the disc may land: every
    /// landing differs from the start by even `q` and `r`, and no jumped cell does.)
    dead: u32,
    /// The pieces jumped so far: `AntiLoop::NoFriendTwice` forbids jumping one again without
    /// capturing it (a friendly piece, or a captured one left standing).
    jumped: u32,
    /// The start, then each landing.
    path: Vec<u8>,
    /// `AntiLoop::SinceLastCapture`: `path[window..]` are the cells occupied since the last
    /// capture (or the start); the disc may not land on them again.
    window: usize,
    captured: Vec<u8>,
    /// The moves listed so far: (final cell, captures as a set or in order).
    seen: Vec<(u8, u64)>,
}

impl<'a> Chains<'a> {
    fn new(g: &'a HexaEquo, links: &'a Links, start: u8) -> Chains<'a> {
        let mut board = [None; MAX_TILES];
        for (slot, t) in board.iter_mut().zip(&g.tiles) {
            *slot = t.piece;
        }
        board[start as usize] = None;
        Chains {
            g,
            links,
            me: g.to_move,
            board,
            dead: 0,
            jumped: 0,
            path: vec![start],
            window: 0,
            captured: Vec::new(),
            seen: Vec::new(),
        }
    }

    fn search(mut self, out: &mut Vec<Move>) {
        let start = self.path[0];
        self.walk(start, out);
    }

    fn walk(&mut self, at: u8, out: &mut Vec<Move>) {
        let house = &self.g.house;
        for d in 0..6 {
            let over = self.links.next[at as usize][d];
            let land = self.links.beyond[at as usize][d];
            if over == NONE || land == NONE || self.board[land as usize].is_some() {
                continue;
            }
            let Some(jumped) = self.board[over as usize] else {
                continue;
            };
            let takes = jumped.owner != self.me && self.dead & (1 << over) == 0;
            let allowed = match house.anti_loop {
                AntiLoop::SinceLastCapture => !self.path[self.window..].contains(&land),
                AntiLoop::NoFriendTwice => {
                    (takes || self.jumped & (1 << over) == 0)
                        && (land != self.path[0] || !self.captured.is_empty())
                }
            };
            if !allowed {
                continue;
            }
            let (window, dead, jumped_before) = (self.window, self.dead, self.jumped);
            self.path.push(land);
            self.jumped |= 1 << over;
            if takes {
                self.captured.push(over);
                match house.capture_removal {
                    CaptureRemoval::Immediate => self.board[over as usize] = None,
                    CaptureRemoval::EndOfMove => self.dead |= 1 << over,
                }
                // The landing cell itself is occupied after the capture, so it opens the window.
                self.window = self.path.len() - 1;
            }
            self.emit(land, out);
            self.walk(land, out);
            self.path.pop();
            if takes {
                self.captured.pop();
                self.board[over as usize] = Some(jumped);
            }
            (self.window, self.dead, self.jumped) = (window, dead, jumped_before);
        }
    }

    fn emit(&mut self, land: u8, out: &mut Vec<Move>) {
        let captures = match self.g.house.move_identity {
            MoveIdentity::CaptureSet => self.captured.iter().fold(0u64, |m, &c| m | 1 << c),
            // At most 9 enemy pieces can be taken, 5 bits each (index + 1 keeps 0 apart).
            MoveIdentity::CaptureOrder => self
                .captured
                .iter()
                .fold(0u64, |m, &c| (m << 5) | u64::from(c + 1)),
        };
        if self.seen.contains(&(land, captures)) {
            return;
        }
        self.seen.push((land, captures));
        let cell = |i: &u8| self.g.tiles[*i as usize].cell;
        out.push(Move::Jump {
            path: self.path.iter().map(cell).collect(),
            captured: self.captured.iter().map(cell).collect(),
        });
    }
}

/// Play `m` for the side to move. Not validated; a move that does not fit the position changes
/// what it can and never panics.
pub(super) fn apply(g: &mut HexaEquo, m: &Move) {
    let me = g.to_move;
    let before = g.key();
    let mut reversible = None;
    match m {
        Move::Tile(cell) => {
            if g.tiles.len() < MAX_TILES {
                g.insert_tile(Tile {
                    cell: *cell,
                    owner: me,
                    piece: None,
                });
            }
        }
        Move::Place { kind, cell } => {
            if let Some(i) = g.tile_index(*cell) {
                g.tiles[i].piece = Some(Piece::new(me, *kind));
                if *kind == Kind::Ring {
                    // The ring's price: one captured disc goes back to its owner's hand.
                    let held = &mut g.prisoners[me.index()];
                    held.discs = held.discs.saturating_sub(1);
                }
            }
        }
        Move::Step { from, to } => {
            move_piece(g, *from, *to);
            reversible = Some((*from, *to));
        }
        Move::Jump { path, captured } => {
            if let (Some(&from), Some(&to)) = (path.first(), path.last()) {
                let disc = take(g, from);
                for &c in captured {
                    capture(g, me, c);
                }
                put(g, to, disc);
                if captured.is_empty() {
                    reversible = Some((from, to));
                }
            }
        }
        Move::Leap { from, to, .. } => {
            let ring = take(g, *from);
            if !capture(g, me, *to) {
                reversible = Some((*from, *to));
            }
            put(g, *to, ring);
        }
    }
    g.to_move = me.other();
    match reversible {
        Some((from, to)) => g.history.push(Earlier {
            key: before,
            from,
            to,
        }),
        None => g.history.clear(),
    }
}

fn take(g: &mut HexaEquo, cell: Hex) -> Option<Piece> {
    g.tile_index(cell).and_then(|i| g.tiles[i].piece.take())
}

fn put(g: &mut HexaEquo, cell: Hex, piece: Option<Piece>) {
    if let Some(i) = g.tile_index(cell) {
        g.tiles[i].piece = piece;
    }
}

fn move_piece(g: &mut HexaEquo, from: Hex, to: Hex) {
    let p = take(g, from);
    put(g, to, p);
}

/// Take the enemy piece on `cell` into `me`'s prisoner pool; whether there was one.
fn capture(g: &mut HexaEquo, me: Colour, cell: Hex) -> bool {
    let Some(i) = g.tile_index(cell) else {
        return false;
    };
    match g.tiles[i].piece {
        Some(p) if p.owner != me => {
            g.tiles[i].piece = None;
            let held = &mut g.prisoners[me.index()];
            match p.kind {
                Kind::Disc => held.discs += 1,
                Kind::Ring => held.rings += 1,
            }
            true
        }
        _ => false,
    }
}
