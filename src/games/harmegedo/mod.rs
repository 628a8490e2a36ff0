//! Harmegedo ("6 Player Chess – The Board Of Lords"): chess for two to six kingdoms on the
//! reconstructed ring board of `docs/rules/harmegedo.md`. This file owns the position type
//! [`Harmegedo`], its pieces and the `Rules` implementation; the board lives in `board.rs`, move
//! generation and playing in `moves.rs`, move text in `notation.rs`, position JSON in `setup.rs`,
//! the text picture in `show.rs`, and the open choices of the spec in `house.rs`.
//!
//! Kingdoms are the board's sectors 0–5 and are named `kingdom0` … `kingdom5`. A game's seats are
//! the kingdoms in play in turn order: in a two-player game `Seat(1)` is `kingdom3`.

pub mod board;
mod house;
mod moves;
mod notation;
mod setup;
mod show;
#[cfg(test)]
mod tests;

use std::sync::{Arc, LazyLock};

use super::{GameKind, Outcome, PieceText, PlayError, PositionError, Rules, Seat};
use crate::hex::{Cell, CellSet};

pub use board::{Board, BoardShape, Dir, SECTORS};
pub use house::{HouseRules, NeutralPieces, Seating, TeamVictory, TurnOrder};
pub use moves::Move;
pub use setup::Setup;

/// The board every Harmegedo game is played on: §2.2's reconstruction.
static BOARD: LazyLock<Board> = LazyLock::new(|| Board::new(BoardShape::RECONSTRUCTION));

/// The board of every Harmegedo game (the reconstruction of `docs/rules/harmegedo.md` §2.2).
pub fn board() -> &'static Board {
    &BOARD
}

/// The kingdoms' names, by sector, as they appear in position JSON and house rules.
pub const KINGDOM_NAMES: [&str; SECTORS] = [
    "kingdom0", "kingdom1", "kingdom2", "kingdom3", "kingdom4", "kingdom5",
];

/// A kind of piece (§3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
    ];
    /// What a pawn may become, in the order moves are listed.
    pub const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

    /// The lower-case name used in position JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::King => "king",
            Kind::Queen => "queen",
            Kind::Rook => "rook",
            Kind::Bishop => "bishop",
            Kind::Knight => "knight",
            Kind::Pawn => "pawn",
        }
    }

    /// The letter of chess notation (`N` for the knight).
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Queen => 'Q',
            Kind::Rook => 'R',
            Kind::Bishop => 'B',
            Kind::Knight => 'N',
            Kind::Pawn => 'P',
        }
    }

    /// By name or letter, ignoring case.
    pub fn parse(s: &str) -> Option<Kind> {
        let s = s.trim().to_ascii_lowercase();
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == s || k.letter().to_ascii_lowercase().to_string() == s)
    }

    const fn from_index(i: u8) -> Kind {
        match i {
            0 => Kind::King,
            1 => Kind::Queen,
            2 => Kind::Rook,
            3 => Kind::Bishop,
            4 => Kind::Knight,
            _ => Kind::Pawn,
        }
    }
}

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The owning kingdom's sector, 0–5.
    pub kingdom: u8,
    pub kind: Kind,
    /// Whether it has moved (castling, the Bishop's Knight Manoeuvre and the pawn's double step
    /// need unmoved pieces).
    pub moved: bool,
}

impl Piece {
    /// The one-byte form kept on the board: 0 is an empty space.
    const fn code(self) -> u8 {
        (self.kind as u8 + 1) | (self.kingdom << 3) | ((self.moved as u8) << 6)
    }

    const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            return None;
        }
        Some(Piece {
            kingdom: (code >> 3) & 7,
            kind: Kind::from_index((code & 7) - 1),
            moved: code & 64 != 0,
        })
    }
}

/// A Harmegedo position: pieces, the kingdoms in play and out, whose turn, and the draw counters.
#[derive(Clone, Debug)]
pub struct Harmegedo {
    board: &'static Board,
    house: Arc<HouseRules>,
    /// One `Piece::code` per space.
    squares: Box<[u8]>,
    /// Each kingdom's pieces. Boxed, like `outcome`, to keep the position small: `AnyGame` holds
    /// one inline.
    occupied: Box<[CellSet; SECTORS]>,
    kings: [Option<Cell>; SECTORS],
    /// The kingdoms in play, in turn order (the seats).
    seats: [u8; SECTORS],
    seat_len: u8,
    /// Bitmask of sectors in play.
    in_play: u8,
    /// Bitmask of kingdoms whose king has been captured.
    eliminated: u8,
    /// Team number per sector (a kingdom playing alone has its own).
    team_of: [u8; SECTORS],
    /// Whether the live kingdoms still belong to two or more teams, so team-mates are protected.
    teams_apart: bool,
    to_move: u8,
    /// The space a pawn of the previous turn skipped with its double step (en passant only).
    en_passant: Option<Cell>,
    /// Consecutive turns without a capture or a pawn move.
    quiet_turns: u32,
    /// Hashes of the positions since the last capture or pawn move, oldest first.
    history: Vec<u64>,
    hash: u64,
    outcome: Option<Box<Outcome>>,
    /// A result the players settled (resignation, agreed draw); it overrides the board's.
    settled: Option<Box<Outcome>>,
}

// ---- hashing (for repetition): a fixed mixing function, so hashes stored in JSON stay valid.

const fn mix(mut x: u64) -> u64 {
    // splitmix64's finaliser.
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

fn piece_key(c: Cell, code: u8) -> u64 {
    mix(((c.0 as u64) << 8) | code as u64)
}

fn turn_key(k: u8) -> u64 {
    mix(0x1_0000_0000 | k as u64)
}

fn eliminated_key(k: u8) -> u64 {
    mix(0x2_0000_0000 | k as u64)
}

fn en_passant_key(c: Cell) -> u64 {
    mix(0x3_0000_0000 | c.0 as u64)
}

impl Harmegedo {
    /// An empty board for the given kingdoms (sectors, any order); `to_move` is the first seat.
    fn empty(house: HouseRules, sectors: &[u8]) -> Result<Harmegedo, PositionError> {
        let board = board();
        let mut in_play = 0u8;
        for &s in sectors {
            if s as usize >= SECTORS {
                return Err(PositionError::Invalid(format!("there is no kingdom {s}")));
            }
            if in_play & (1 << s) != 0 {
                return Err(PositionError::Invalid(format!(
                    "{} is listed twice",
                    KINGDOM_NAMES[s as usize]
                )));
            }
            in_play |= 1 << s;
        }
        if sectors.len() < 2 {
            return Err(PositionError::Invalid(
                "Harmegedo is played by 2 to 6 kingdoms".into(),
            ));
        }
        let mut order: Vec<u8> = sectors.to_vec();
        order.sort_by_key(|&s| house.turn_order.rank(s as usize));
        let mut seats = [0u8; SECTORS];
        seats[..order.len()].copy_from_slice(&order);
        let team_of = setup::team_table(&house, in_play)?;
        let mut g = Harmegedo {
            board,
            house: Arc::new(house),
            squares: vec![0; board.len()].into_boxed_slice(),
            occupied: Box::new([CellSet::new(); SECTORS]),
            kings: [None; SECTORS],
            seats,
            seat_len: order.len() as u8,
            in_play,
            eliminated: 0,
            team_of,
            teams_apart: false,
            to_move: order[0],
            en_passant: None,
            quiet_turns: 0,
            history: Vec::new(),
            hash: turn_key(order[0]),
            outcome: None,
            settled: None,
        };
        g.teams_apart = g.compute_teams_apart();
        Ok(g)
    }

    /// The start position of `sectors` (§3): R N B Q K Q B N R on rank 1, nine pawns on rank 2.
    fn start(house: HouseRules, sectors: &[u8]) -> Result<Harmegedo, PositionError> {
        let mut g = Harmegedo::empty(house, sectors)?;
        const HOME_ROW: [Kind; 9] = [
            Kind::Rook,
            Kind::Knight,
            Kind::Bishop,
            Kind::Queen,
            Kind::King,
            Kind::Queen,
            Kind::Bishop,
            Kind::Knight,
            Kind::Rook,
        ];
        // A wider kingdom (another board shape) keeps its home row centred.
        let offset = (g.board.shape().kingdom_files as usize - HOME_ROW.len()) / 2;
        for &s in sectors {
            for (i, kind) in HOME_ROW.into_iter().enumerate() {
                for (rank, kind) in [(1, kind), (2, Kind::Pawn)] {
                    if let Some(c) = g.board.cell_at(s as usize, offset + i, rank) {
                        g.put(
                            c,
                            Piece {
                                kingdom: s,
                                kind,
                                moved: false,
                            },
                        );
                    }
                }
            }
        }
        g.outcome = g.compute_outcome().map(Box::new);
        Ok(g)
    }

    /// The board this game is played on.
    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// The piece on a space, if any.
    pub fn piece_at(&self, c: Cell) -> Option<Piece> {
        Piece::from_code(self.squares[c.index()])
    }

    /// Every piece with its space, in space order.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        self.squares
            .iter()
            .enumerate()
            .filter_map(|(i, &code)| Piece::from_code(code).map(|p| (Cell(i as u16), p)))
    }

    /// The kingdoms (sectors) in play, in turn order: `kingdoms()[i]` is `Seat(i)`.
    pub fn kingdoms(&self) -> &[u8] {
        &self.seats[..self.seat_len as usize]
    }

    /// The seat a kingdom plays, if it is in play.
    pub fn seat_of(&self, kingdom: u8) -> Option<Seat> {
        self.kingdoms()
            .iter()
            .position(|&k| k == kingdom)
            .map(|i| Seat(i as u8))
    }

    /// The kingdom (sector) a seat plays.
    pub fn kingdom_of(&self, seat: Seat) -> Option<u8> {
        self.kingdoms().get(seat.index()).copied()
    }

    /// Whether a kingdom's king has been captured (its pieces are neutral, §5).
    pub fn is_eliminated(&self, kingdom: u8) -> bool {
        kingdom < 8 && self.eliminated & (1 << kingdom) != 0
    }

    /// Whether a kingdom is in play with its king on the board.
    pub fn is_live(&self, kingdom: u8) -> bool {
        kingdom < 8 && (self.in_play & !self.eliminated) & (1 << kingdom) != 0
    }

    /// The kingdom whose turn it is (also once the game is over: then nobody moves).
    pub fn to_move_kingdom(&self) -> u8 {
        self.to_move
    }

    /// Where a kingdom's king stands, if it is still on the board.
    pub fn king(&self, kingdom: u8) -> Option<Cell> {
        self.kings.get(kingdom as usize).copied().flatten()
    }

    /// Whether another live kingdom (not a team-mate) attacks the king of `seat` now (§6-1);
    /// false when the seat has no king on the board.
    pub fn king_attacked(&self, seat: Seat) -> bool {
        self.kingdom_of(seat)
            .and_then(|k| self.king(k).map(|c| self.attacked(c, k)))
            .unwrap_or(false)
    }

    /// Consecutive turns without a capture or a pawn move (§5's draw counter).
    pub fn quiet_turns(&self) -> u32 {
        self.quiet_turns
    }

    /// A 64-bit key of the position (pieces, kingdom to move, eliminated kingdoms, en passant
    /// space): the repetition hash, also the bots' transposition-table key.
    pub fn position_key(&self) -> u64 {
        self.hash
    }

    /// Whether `attacker` may capture a piece of `owner` (§4, §5, team mode, §6-7).
    fn can_capture(&self, attacker: u8, owner: u8) -> bool {
        if attacker == owner {
            return false;
        }
        if self.is_eliminated(owner) {
            return self.house.neutral_pieces == NeutralPieces::Capturable;
        }
        !(self.teams_apart && self.team_of[attacker as usize] == self.team_of[owner as usize])
    }

    fn compute_teams_apart(&self) -> bool {
        let mut first = None;
        for &k in self.kingdoms() {
            if self.is_live(k) {
                match first {
                    None => first = Some(self.team_of[k as usize]),
                    Some(t) if t != self.team_of[k as usize] => return true,
                    Some(_) => {}
                }
            }
        }
        false
    }

    fn put(&mut self, c: Cell, p: Piece) {
        let code = p.code();
        debug_assert_eq!(self.squares[c.index()], 0);
        self.squares[c.index()] = code;
        self.occupied[p.kingdom as usize].insert(c);
        if p.kind == Kind::King {
            self.kings[p.kingdom as usize] = Some(c);
        }
        self.hash ^= piece_key(c, code);
    }

    /// Take the piece off `c`, returning it.
    fn take(&mut self, c: Cell) -> Option<Piece> {
        let code = self.squares[c.index()];
        let p = Piece::from_code(code)?;
        self.squares[c.index()] = 0;
        self.occupied[p.kingdom as usize].remove(c);
        if p.kind == Kind::King && self.kings[p.kingdom as usize] == Some(c) {
            self.kings[p.kingdom as usize] = None;
        }
        self.hash ^= piece_key(c, code);
        Some(p)
    }

    /// The kingdom is out: its king is gone and its pieces stay as neutral obstacles (§5).
    fn eliminate(&mut self, k: u8) {
        if self.eliminated & (1 << k) == 0 {
            self.eliminated |= 1 << k;
            self.hash ^= eliminated_key(k);
            self.teams_apart = self.compute_teams_apart();
        }
    }

    fn set_to_move(&mut self, k: u8) {
        self.hash ^= turn_key(self.to_move) ^ turn_key(k);
        self.to_move = k;
    }

    fn set_en_passant(&mut self, c: Option<Cell>) {
        if let Some(old) = self.en_passant {
            self.hash ^= en_passant_key(old);
        }
        if let Some(new) = c {
            self.hash ^= en_passant_key(new);
        }
        self.en_passant = c;
    }

    /// The next live kingdom after `k` in turn order.
    fn next_live(&self, k: u8) -> u8 {
        let seats = self.kingdoms();
        let i = seats.iter().position(|&s| s == k).unwrap_or(0);
        (1..=seats.len())
            .map(|d| seats[(i + d) % seats.len()])
            .find(|&s| self.is_live(s))
            .unwrap_or(k)
    }

    fn live_seats(&self) -> Vec<Seat> {
        (0..self.seat_len)
            .filter(|&i| self.is_live(self.seats[i as usize]))
            .map(Seat)
            .collect()
    }

    /// The result the position has reached by the rules alone (§5), if any.
    fn compute_outcome(&self) -> Option<Outcome> {
        let live = self.live_seats();
        // A team's win is shared by its eliminated members too, so it comes first.
        if !self.house.teams.is_empty()
            && !self.teams_apart
            && self.house.team_victory == TeamVictory::Shared
        {
            let first = live.first().map_or(self.to_move, |s| self.seats[s.index()]);
            let team = self.team_of[first as usize];
            let winners = (0..self.seat_len)
                .filter(|&i| self.team_of[self.seats[i as usize] as usize] == team)
                .map(Seat)
                .collect();
            return Some(Outcome::Win {
                winners,
                reason: "their team overthrew every other kingdom".into(),
            });
        }
        if live.len() <= 1 {
            return Some(Outcome::Win {
                winners: live,
                reason: "last king standing".into(),
            });
        }
        let limit = self.house.quiet_turn_limit as u64 * live.len() as u64;
        if limit > 0 && self.quiet_turns as u64 >= limit {
            return Some(Outcome::Draw {
                seats: live,
                reason: format!("{limit} turns without a capture or a pawn move"),
            });
        }
        if self.house.threefold_repetition
            && self.history.iter().filter(|&&h| h == self.hash).count() >= 2
        {
            return Some(Outcome::Draw {
                seats: live,
                reason: "the same position came up a third time".into(),
            });
        }
        None
    }
}

impl Rules for Harmegedo {
    type Move = Move;
    type HouseRules = HouseRules;
    type Setup = Setup;
    const KIND: GameKind = GameKind::Harmegedo;

    fn new_game(players: usize, house_rules: HouseRules) -> Result<Self, PositionError> {
        let sectors = house_rules.seating.sectors(players).ok_or_else(|| {
            PositionError::Invalid(format!(
                "Harmegedo is played by 2 to 6 kingdoms, not {players}"
            ))
        })?;
        Harmegedo::start(house_rules, sectors)
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
        self.seat_len as usize
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        self.kingdom_of(seat)
            .map_or("none", |k| KINGDOM_NAMES[k as usize])
    }

    fn to_move(&self) -> Option<Seat> {
        if self.outcome.is_some() || self.settled.is_some() {
            return None;
        }
        self.seat_of(self.to_move)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.settled.as_deref().or(self.outcome.as_deref()).cloned()
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.legal()
    }

    fn play_unchecked(&mut self, m: &Move) {
        self.play_move(m);
    }

    fn move_text(&self, m: &Move) -> String {
        notation::move_text(self, m)
    }

    fn parse_move(&self, text: &str) -> Result<Move, PlayError> {
        notation::parse_move(self, text)
    }

    fn show(&self) -> String {
        show::show(self)
    }

    fn settle(&mut self, outcome: Outcome) -> Result<(), PositionError> {
        super::procedure::require_running(self)?;
        self.settled = Some(Box::new(outcome));
        Ok(())
    }
}
