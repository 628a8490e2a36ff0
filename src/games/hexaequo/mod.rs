//! HexaEquo (Piero Barrette): the position type and its `Rules` implementation
//! (`docs/rules/hexaequo.md`).
//!
//! There is no fixed board: the players lay hexagonal **tiles** (9 each) and move **discs** (6
//! each) and **rings** (3 each) on them. The tiles are kept as a small vector sorted by cell
//! (at most 18 entries), each tile carrying its colour and the piece on it. Reserves are not
//! stored: they follow from the tiles, the pieces and the prisoners, exactly as §7 says.
//!
//! * `cells.rs`: coordinates, directions, cell names.
//! * `moves.rs`: the actions, their generation and how they change the position.
//! * `notation.rs`: move text (`T@H8`, `D@I8`, `R@I8`, `J8-I8`, `I8xK8-M8`).
//! * `setup.rs`: position JSON and its validation.

pub mod cells;
mod moves;
mod notation;
mod setup;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use super::{GameKind, Outcome, PieceText, PlayError, PositionError, Rules, Seat};
use crate::hex::Hex;

pub use cells::{cell_name, parse_cell};
pub use moves::Move;
pub use setup::{CapturedText, ReserveText, Setup, TileText};

/// Tiles per colour (§3).
pub const TILES: u8 = 9;
/// Discs per colour (§3).
pub const DISCS: u8 = 6;
/// Rings per colour (§3).
pub const RINGS: u8 = 3;
/// The most tiles a board can hold: both colours' nine.
pub const MAX_TILES: usize = 2 * TILES as usize;

/// A player's colour. Black is seat 0 and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    pub const BOTH: [Colour; 2] = [Colour::Black, Colour::White];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// The lower-case name used in position JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::White => "white",
        }
    }

    pub const fn seat(self) -> Seat {
        Seat(self as u8)
    }

    pub fn from_name(name: &str) -> Option<Colour> {
        super::position::lookup(&["black", "white"], name).map(|i| Colour::BOTH[i])
    }

    fn letter(self) -> char {
        match self {
            Colour::Black => 'b',
            Colour::White => 'w',
        }
    }
}

/// The two kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Disc,
    Ring,
}

impl Kind {
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Disc => "disc",
            Kind::Ring => "ring",
        }
    }

    pub fn from_name(name: &str) -> Option<Kind> {
        super::position::lookup(&["disc", "ring"], name).map(|i| [Kind::Disc, Kind::Ring][i])
    }

    /// The letter of a placement (`D@I8`, `R@I8`) and of the text picture.
    pub const fn letter(self) -> char {
        match self {
            Kind::Disc => 'D',
            Kind::Ring => 'R',
        }
    }
}

/// A disc or ring of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub owner: Colour,
    pub kind: Kind,
}

impl Piece {
    pub const fn new(owner: Colour, kind: Kind) -> Piece {
        Piece { owner, kind }
    }

    /// 1–4, never 0 (an empty tile), for the repetition key.
    const fn code(self) -> u64 {
        1 + 2 * self.owner as u64 + self.kind as u64
    }
}

/// A laid tile: where, whose colour, and what stands on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    pub cell: Hex,
    pub owner: Colour,
    pub piece: Option<Piece>,
}

/// What a player still has in hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reserve {
    pub tile: u8,
    pub disc: u8,
    pub ring: u8,
}

/// The enemy pieces a player holds (their prisoner pool, §4.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prisoners {
    pub discs: u8,
    pub rings: u8,
}

/// The cells a set of hexes spans, for a renderer sizing its picture. `x` is the doubled
/// screen column of the pointy-top layout (`2q + r`, so neighbours in a row differ by 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub min_q: i32,
    pub max_q: i32,
    pub min_r: i32,
    pub max_r: i32,
    pub min_x: i32,
    pub max_x: i32,
}

impl Bounds {
    /// The bounds of `cells`; `None` if there are none.
    pub fn of(cells: impl IntoIterator<Item = Hex>) -> Option<Bounds> {
        let mut it = cells.into_iter();
        let first = it.next()?;
        let x = 2 * first.q + first.r;
        let mut b = Bounds {
            min_q: first.q,
            max_q: first.q,
            min_r: first.r,
            max_r: first.r,
            min_x: x,
            max_x: x,
        };
        for h in it {
            b.include(h);
        }
        Some(b)
    }

    pub fn include(&mut self, h: Hex) {
        let x = 2 * h.q + h.r;
        self.min_q = self.min_q.min(h.q);
        self.max_q = self.max_q.max(h.q);
        self.min_r = self.min_r.min(h.r);
        self.max_r = self.max_r.max(h.r);
        self.min_x = self.min_x.min(x);
        self.max_x = self.max_x.max(x);
    }
}

/// §6-2: which rule stops a disc's jump chain from looping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AntiLoop {
    /// The designer's current engine (the spec's choice): the disc may not land on a cell it has
    /// occupied since its most recent capture (or since the start).
    #[default]
    SinceLastCapture,
    /// The older engine: no friendly piece may be jumped twice in one sequence, and the disc may
    /// not return to its start unless it has captured on the way.
    NoFriendTwice,
}

/// §6-4: when a captured piece leaves the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaptureRemoval {
    /// At once (the spec's choice): the emptied cell may be landed on later in the sequence.
    #[default]
    Immediate,
    /// At the end of the move: until then the captured piece stays on its cell as a hurdle the
    /// disc may jump again, capturing nothing more. (Where the disc may land is the same either
    /// way: each jump adds twice a unit vector, so every landing differs from the start by even
    /// `q` and `r`, and a jumped cell never does.)
    EndOfMove,
}

/// §6-5: when two jump chains of one disc count as the same move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveIdentity {
    /// Same start, same final cell, same **set** of captured pieces (the spec's choice): they
    /// give the same position, so one path is kept.
    #[default]
    CaptureSet,
    /// Same start, final cell and **order** of captures (the designer's engine): chains taking
    /// the same pieces in another order are listed separately.
    CaptureOrder,
}

/// The open choices of `docs/rules/hexaequo.md` §6; `Default` is the spec.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HouseRules {
    /// §6-1: `None` (the spec): no edge. `Some(n)`: tiles only within distance `n` of I8 (the
    /// older engine used 8). Cells must in any case have a name, A1–Z26.
    pub board_radius: Option<u8>,
    /// §6-2: the anti-loop rule of disc jump chains.
    pub anti_loop: AntiLoop,
    /// §6-4: when captured pieces leave the board.
    pub capture_removal: CaptureRemoval,
    /// §6-5: which jump chains count as one move.
    pub move_identity: MoveIdentity,
    /// §6-9: `true` (the spec): a ring may leap over missing cells. `false`: at least one cell it
    /// passes over (the middle one, or one of the two flanking a bent leap) must be a tile.
    pub ring_over_gap: bool,
}

impl Default for HouseRules {
    fn default() -> HouseRules {
        HouseRules {
            board_radius: None,
            anti_loop: AntiLoop::SinceLastCapture,
            capture_removal: CaptureRemoval::Immediate,
            move_identity: MoveIdentity::CaptureSet,
            ring_over_gap: true,
        }
    }
}

impl HouseRules {
    /// Whether a tile may ever stand on `h` (named, and inside `board_radius` if set).
    pub fn on_board(&self, h: Hex) -> bool {
        cells::in_grid(h)
            && self
                .board_radius
                .is_none_or(|r| h.distance(cells::ORIGIN) <= i32::from(r))
    }
}

/// A position before a reversible action, kept for threefold repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Earlier {
    key: u64,
    from: Hex,
    to: Hex,
}

/// A HexaEquo position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexaEquo {
    house: HouseRules,
    /// Sorted by cell; at most [`MAX_TILES`].
    tiles: Vec<Tile>,
    /// Indexed by the holder's colour.
    prisoners: [Prisoners; 2],
    to_move: Colour,
    /// The positions since the last irreversible action (a tile, a placement, a capture), oldest
    /// first. Those actions change a count that never returns (§5.3's key holds the tiles and
    /// the prisoner counts), so no earlier position can come back and need not be remembered.
    history: Vec<Earlier>,
    /// A result the players settled (resignation, agreed draw); it overrides the board's.
    settled: Option<Box<Outcome>>,
}

impl HexaEquo {
    /// The opening (§3): black tiles I8 J8, white tiles H9 I9, a black disc on J8, a white disc
    /// on H9. Black to move.
    pub fn opening(house: HouseRules) -> Result<HexaEquo, PositionError> {
        let mut g = HexaEquo {
            house,
            tiles: Vec::new(),
            prisoners: [Prisoners::default(); 2],
            to_move: Colour::Black,
            history: Vec::new(),
            settled: None,
        };
        let black_disc = Some(Piece::new(Colour::Black, Kind::Disc));
        let white_disc = Some(Piece::new(Colour::White, Kind::Disc));
        for (q, r, owner, piece) in [
            (0, 0, Colour::Black, None),
            (1, 0, Colour::Black, black_disc),
            (-1, 1, Colour::White, white_disc),
            (0, 1, Colour::White, None),
        ] {
            let cell = Hex::new(q, r);
            if !g.house.on_board(cell) {
                return Err(PositionError::Invalid(format!(
                    "the opening tile {} lies outside the board radius {:?}",
                    cells::name(cell),
                    g.house.board_radius
                )));
            }
            g.insert_tile(Tile { cell, owner, piece });
        }
        Ok(g)
    }

    // ---- queries a renderer or host needs -------------------------------------------------

    /// Every laid tile, sorted by cell, with its colour and piece.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The tile on `cell`, if one is laid there.
    pub fn tile(&self, cell: Hex) -> Option<&Tile> {
        self.tile_index(cell).map(|i| &self.tiles[i])
    }

    /// Every piece on the board with its cell.
    pub fn pieces(&self) -> impl Iterator<Item = (Hex, Piece)> + '_ {
        self.tiles
            .iter()
            .filter_map(|t| t.piece.map(|p| (t.cell, p)))
    }

    /// What `colour` still has in hand: 9 tiles minus those laid, 6 discs minus those on the
    /// board and those the enemy holds, 3 rings likewise.
    pub fn reserve(&self, colour: Colour) -> Reserve {
        let mut tile = 0u8;
        let mut disc = 0u8;
        let mut ring = 0u8;
        for t in &self.tiles {
            if t.owner == colour {
                tile += 1;
            }
            match t.piece {
                Some(p) if p.owner == colour && p.kind == Kind::Disc => disc += 1,
                Some(p) if p.owner == colour => ring += 1,
                _ => {}
            }
        }
        let held = self.prisoners[colour.other().index()];
        Reserve {
            tile: TILES.saturating_sub(tile),
            disc: DISCS.saturating_sub(disc + held.discs),
            ring: RINGS.saturating_sub(ring + held.rings),
        }
    }

    /// The enemy pieces `holder` has captured and still holds.
    pub fn prisoners(&self, holder: Colour) -> Prisoners {
        self.prisoners[holder.index()]
    }

    /// The colour whose turn it is (or would be: also after the game has ended).
    pub fn side_to_move(&self) -> Colour {
        self.to_move
    }

    /// The cells the tiles span; `None` only for an empty board.
    pub fn bounds(&self) -> Option<Bounds> {
        Bounds::of(self.tiles.iter().map(|t| t.cell))
    }

    /// The empty cells touching at least two tiles (and allowed by `board_radius`): where a tile
    /// may be laid by a player who has one.
    pub fn tile_spots(&self) -> Vec<Hex> {
        moves::tile_spots(self)
    }

    // ---- internals ------------------------------------------------------------------------

    fn tile_index(&self, cell: Hex) -> Option<usize> {
        self.tiles.binary_search_by(|t| t.cell.cmp(&cell)).ok()
    }

    fn insert_tile(&mut self, tile: Tile) {
        if let Err(i) = self.tiles.binary_search_by(|t| t.cell.cmp(&tile.cell)) {
            self.tiles.insert(i, tile);
        }
    }

    fn has_piece_on_board(&self, colour: Colour) -> bool {
        self.pieces().any(|(_, p)| p.owner == colour)
    }

    /// §5.3's position key. Within a run of reversible actions the tiles and prisoner counts are
    /// fixed, so the side to move and what stands on each tile (3 bits × at most 18 tiles) say
    /// everything, and fit a `u64` exactly: no hash, no collision.
    fn key(&self) -> u64 {
        self.tiles.iter().fold(self.to_move as u64, |k, t| {
            (k << 3) | t.piece.map_or(0, Piece::code)
        })
    }

    /// How often the current position has occurred (at least 1).
    fn occurrences(&self) -> usize {
        let k = self.key();
        1 + self.history.iter().filter(|e| e.key == k).count()
    }

    /// §5.1: the player who has just moved wins, and why.
    fn winner(&self) -> Option<(Colour, String)> {
        let mover = self.to_move.other();
        let enemy = self.to_move.name();
        let held = self.prisoners[mover.index()];
        if held.discs >= DISCS {
            Some((mover, format!("captured all six {enemy} discs")))
        } else if held.rings >= RINGS {
            Some((mover, format!("captured all three {enemy} rings")))
        } else if !self.has_piece_on_board(self.to_move) {
            Some((mover, format!("no {enemy} piece is left on the tiles")))
        } else {
            None
        }
    }

    /// Over by a win or by threefold repetition: nothing more may be played. (A draw for want of
    /// a legal action needs no check: there is then nothing to play anyway.)
    fn finished(&self) -> bool {
        self.settled.is_some() || self.winner().is_some() || self.occurrences() >= 3
    }
}

impl Rules for HexaEquo {
    type Move = Move;
    type HouseRules = HouseRules;
    type Setup = Setup;
    const KIND: GameKind = GameKind::HexaEquo;

    fn new_game(players: usize, house_rules: HouseRules) -> Result<Self, PositionError> {
        if players != 2 {
            return Err(PositionError::Invalid(format!(
                "HexaEquo is played by 2 players, not {players}"
            )));
        }
        HexaEquo::opening(house_rules)
    }

    fn from_setup(mut setup: Setup) -> Result<Self, PositionError> {
        let settled = setup.settled.take();
        let mut g = setup::from_setup(setup)?;
        g.settled = super::procedure::settled(settled, g.seat_count())?;
        Ok(g)
    }

    fn piece_texts(&self) -> Vec<PieceText> {
        setup::to_setup(self).pieces
    }

    fn to_setup(&self) -> Setup {
        let mut s = setup::to_setup(self);
        s.settled = self.settled.as_deref().cloned();
        s
    }

    fn house_rules(&self) -> &HouseRules {
        &self.house
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        if seat.0 == 0 { "black" } else { "white" }
    }

    fn to_move(&self) -> Option<Seat> {
        self.outcome().is_none().then(|| self.to_move.seat())
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = &self.settled {
            return Some((**o).clone());
        }
        if let Some((winner, reason)) = self.winner() {
            return Some(Outcome::Win {
                winners: vec![winner.seat()],
                reason,
            });
        }
        let draw = |reason: String| Outcome::Draw {
            seats: vec![Seat(0), Seat(1)],
            reason,
        };
        // §5: the lack of a legal action is checked before repetition.
        if !moves::has_action(self) {
            return Some(draw(format!(
                "ex aequo: {} has no legal action",
                self.to_move.name()
            )));
        }
        if self.occurrences() >= 3 {
            return Some(draw(
                "ex aequo: the position has occurred for the third time".to_string(),
            ));
        }
        None
    }

    fn legal_moves(&self) -> Vec<Move> {
        if self.finished() {
            return Vec::new();
        }
        moves::generate(self)
    }

    fn play_unchecked(&mut self, m: &Move) {
        moves::apply(self, m);
    }

    fn move_text(&self, m: &Move) -> String {
        notation::move_text(m)
    }

    fn parse_move(&self, text: &str) -> Result<Move, PlayError> {
        notation::parse_move(self, text)
    }

    fn show(&self) -> String {
        show(self)
    }

    fn settle(&mut self, outcome: Outcome) -> Result<(), PositionError> {
        super::procedure::require_running(self)?;
        self.settled = Some(Box::new(outcome));
        Ok(())
    }
}

/// The text picture: one line per row `r`, each tile as `NAME t:pp` (tile colour `b`/`w`, then
/// the piece: `bD` black disc, `wR` white ring, `..` none), shifted half a cell per row as on
/// the pointy-top board; then whose turn, reserves, prisoners and the result.
fn show(g: &HexaEquo) -> String {
    const HALF: usize = 4; // characters per half cell
    let mut out = String::new();
    if let Some(b) = g.bounds() {
        for r in b.min_r..=b.max_r {
            let mut line = String::new();
            for t in g.tiles.iter().filter(|t| t.cell.r == r) {
                let col = ((2 * t.cell.q + t.cell.r - b.min_x) as usize) * HALF;
                while line.len() < col {
                    line.push(' ');
                }
                let piece = t.piece.map_or("..".to_string(), |p| {
                    format!("{}{}", p.owner.letter(), p.kind.letter())
                });
                line.push_str(&format!(
                    "{:<3} {}:{piece} ",
                    cells::name(t.cell),
                    t.owner.letter()
                ));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out.push('\n');
    for c in Colour::BOTH {
        let res = g.reserve(c);
        let held = g.prisoners(c);
        out.push_str(&format!(
            "{:<5}: in hand {} tiles, {} discs, {} rings; holds {} {} discs, {} {} rings\n",
            c.name(),
            res.tile,
            res.disc,
            res.ring,
            held.discs,
            c.other().name(),
            held.rings,
            c.other().name(),
        ));
    }
    match g.outcome() {
        None => out.push_str(&format!("{} to move", g.to_move.name())),
        Some(Outcome::Win { winners, reason }) => {
            let w = winners.first().map_or("nobody", |s| g.seat_name(*s));
            out.push_str(&format!("{w} wins: {reason}"));
        }
        Some(Outcome::Draw { reason, .. }) => out.push_str(&format!("draw, {reason}")),
    }
    out
}
