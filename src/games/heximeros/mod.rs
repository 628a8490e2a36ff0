//! HexiMeros (`docs/rules/heximeros.md`): six-player hex chess on a 649-cell board. The position, its
//! pieces and moves. Generation lives in `moves.rs`, Check in `check.rs`, scoring in `score.rs`,
//! position JSON in `setup.rs`, move text and the board picture in `notation.rs`.
//!
//! Seats are colours: seat k is colour k (Silver 0, Blue 1, Yellow 2, Orange 3, Green 4, Red 5),
//! which is also the turn order. A colour is *controlled* by a seat (its own, until the
//! Resurrected Sovereign house rule hands it to another), so ownership and colour stay apart as
//! §6 and §8.6 ask.

mod board;
mod check;
mod house;
mod moves;
#[cfg(test)]
mod naive;
mod notation;
mod score;
mod setup;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use board::{BOARD, Board, CELLS, base_space, hex_name};
pub use check::CheckRecord;
pub use house::{
    ArcherRule, CaptureBan, CheckEligibility, CheckUponMover, DreadnaughtRange, HouseRules,
};
pub use score::{ScoreEvent, ScoreReason, totals};
pub use setup::Setup;

use super::{
    Departure, GameKind, Outcome, PieceText, PlayError, Points, PositionError, Rules, Seat,
};
use crate::hex::{Cell, CellSet};

/// The colours in seat and turn order.
pub const COLOURS: [&str; 6] = ["silver", "blue", "yellow", "orange", "green", "red"];

/// The piece kinds (§3.1). A Hatted Militant is its own kind: it moves as a Sovereign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Sovereign,
    Regent,
    Assassin,
    Archer,
    Prelate,
    Alcazar,
    Cavalier,
    Dreadnaught,
    Militant,
    HattedMilitant,
}

impl Kind {
    pub const ALL: [Kind; 10] = [
        Kind::Sovereign,
        Kind::Regent,
        Kind::Assassin,
        Kind::Archer,
        Kind::Prelate,
        Kind::Alcazar,
        Kind::Cavalier,
        Kind::Dreadnaught,
        Kind::Militant,
        Kind::HattedMilitant,
    ];

    /// What a Militant may become (§4.10): anything but a Sovereign or a Militant.
    pub const PROMOTIONS: [Kind; 7] = [
        Kind::Regent,
        Kind::Assassin,
        Kind::Archer,
        Kind::Prelate,
        Kind::Alcazar,
        Kind::Cavalier,
        Kind::Dreadnaught,
    ];

    /// The rulebook name (`Regent`, `Hatted Militant`).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Sovereign => "Sovereign",
            Kind::Regent => "Regent",
            Kind::Assassin => "Assassin",
            Kind::Archer => "Archer",
            Kind::Prelate => "Prelate",
            Kind::Alcazar => "Alcazar",
            Kind::Cavalier => "Cavalier",
            Kind::Dreadnaught => "Dreadnaught",
            Kind::Militant => "Militant",
            Kind::HattedMilitant => "Hatted Militant",
        }
    }

    /// One letter for board pictures: S R A B(ow) P Z(alcazar) C D M H(at).
    pub const fn letter(self) -> char {
        match self {
            Kind::Sovereign => 'S',
            Kind::Regent => 'R',
            Kind::Assassin => 'A',
            Kind::Archer => 'B',
            Kind::Prelate => 'P',
            Kind::Alcazar => 'Z',
            Kind::Cavalier => 'C',
            Kind::Dreadnaught => 'D',
            Kind::Militant => 'M',
            Kind::HattedMilitant => 'H',
        }
    }

    /// Capture value (§7), also the promotion value.
    pub const fn value(self) -> i32 {
        match self {
            Kind::Sovereign => 75,
            Kind::Regent => 55,
            Kind::Assassin => 45,
            Kind::Archer => 40,
            Kind::Prelate | Kind::Alcazar => 30,
            Kind::Cavalier => 25,
            Kind::Dreadnaught => 15,
            Kind::HattedMilitant => 10,
            Kind::Militant => 5,
        }
    }

    /// Retention value in a draw (§7): half, rounded down.
    pub const fn half_value(self) -> i32 {
        self.value() / 2
    }

    /// Whether ending a move on Ground Zero gives this kind the bonus (§4.11).
    pub const fn gets_gz_bonus(self) -> bool {
        !matches!(self, Kind::Regent | Kind::Prelate | Kind::Alcazar)
    }

    /// Read a kind from its name or letter, ignoring case (`regent`, `R`, `hatted_militant`).
    pub fn parse(s: &str) -> Option<Kind> {
        let t = s.trim().to_ascii_lowercase().replace([' ', '-'], "_");
        Kind::ALL.into_iter().find(|k| {
            let name = k.name().to_ascii_lowercase().replace(' ', "_");
            t == name || (t.len() == 1 && t.starts_with(k.letter().to_ascii_lowercase()))
        })
    }
}

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The colour (0–5): sets a Militant's forward and the piece's set.
    pub colour: u8,
    pub kind: Kind,
    /// It has moved before (an unmoved Militant or Prelate still has its first move).
    pub moved: bool,
    /// A pending Ground Zero bonus (§4.11).
    pub bonus: bool,
}

/// What a move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The piece goes `from` → `to`, capturing whatever is on `to` (a Dreadnaught: on its path).
    Move,
    /// An Archer on `from` shoots the piece on `to` and stays.
    Shot,
    /// House rule (a): the Archer moves `from` → `to`, then shoots the piece on the given cell.
    MoveShot(Cell),
    /// Resurrected Sovereign (§8.6): the Sovereign of the given colour, held as a prisoner, is
    /// placed on `to`.
    Resurrect(u8),
    /// No piece can move (§5.3): the Token passes.
    Pass,
}

/// A resolved move, with the mover's promotion choice and Check declarations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Cell,
    pub to: Cell,
    pub action: Action,
    /// `None` declines a promotion that is offered (the Militant gets its Hat if due).
    pub promotion: Option<Kind>,
    /// Bit `s` set: the mover declares Check on seat `s`'s Sovereign(s) (§5.3).
    pub checks: u8,
}

impl Move {
    pub const PASS: Move = Move {
        from: Cell(0),
        to: Cell(0),
        action: Action::Pass,
        promotion: None,
        checks: 0,
    };

    fn simple(from: Cell, to: Cell, action: Action) -> Move {
        Move {
            from,
            to,
            action,
            promotion: None,
            checks: 0,
        }
    }

    /// The same move without Check declarations.
    pub fn without_checks(self) -> Move {
        Move { checks: 0, ..self }
    }

    /// The seats the mover declares Check on.
    pub fn declared(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..6u8).filter(|s| self.checks & (1 << s) != 0).map(Seat)
    }
}

/// A HexiMeros position.
#[derive(Clone, Debug)]
pub struct HexiMeros {
    board: [Option<Piece>; CELLS],
    /// Cells of each colour's pieces.
    by_colour: [CellSet; 6],
    /// `controller[colour]` = the seat that moves that colour.
    controller: [u8; 6],
    /// Seats with a Sovereign on the board.
    active: [bool; 6],
    /// Eliminated seats, in the order they went out.
    out_order: Vec<u8>,
    to_move: u8,
    checks: Vec<CheckRecord>,
    /// Captured Sovereigns: (holder seat, colour), for the Resurrected Sovereign rule.
    prisoners: Vec<(u8, u8)>,
    /// Moves since the last capture, unhatted Militant move, promotion or elimination.
    halfmove_clock: u32,
    /// Position hashes since the last irreversible move (repetition draw only).
    history: Vec<u64>,
    /// Colours handed over by a concession: not counted in the winner's retention.
    conceded: u8,
    result: Option<Outcome>,
    /// Score events of the last move played (or resignation, end of game …).
    events: Vec<ScoreEvent>,
    house: HouseRules,
}

impl HexiMeros {
    /// The piece on a cell.
    pub fn piece(&self, c: Cell) -> Option<Piece> {
        self.board[c.index()]
    }

    /// Every piece with its cell, in cell order.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        self.board
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (Cell(i as u16), p)))
    }

    /// The seat that moves pieces of `colour`.
    pub fn controller(&self, colour: u8) -> Seat {
        Seat(self.controller[colour as usize])
    }

    /// Whether a seat still has a Sovereign on the board.
    pub fn is_active(&self, seat: Seat) -> bool {
        self.active.get(seat.index()).copied().unwrap_or(false)
    }

    /// Active seats in turn order.
    pub fn active_seats(&self) -> Vec<Seat> {
        (0..6u8)
            .filter(|&s| self.active[s as usize])
            .map(Seat)
            .collect()
    }

    /// Eliminated seats in the order they went out.
    pub fn out_order(&self) -> Vec<Seat> {
        self.out_order.iter().map(|&s| Seat(s)).collect()
    }

    /// Whether a piece is frozen: its colour's controller is out (§4.12).
    pub fn is_frozen(&self, p: Piece) -> bool {
        !self.active[self.controller[p.colour as usize] as usize]
    }

    /// The Check records in force.
    pub fn check_records(&self) -> &[CheckRecord] {
        &self.checks
    }

    /// Captured Sovereigns: (holder, colour).
    pub fn prisoners(&self) -> Vec<(Seat, u8)> {
        self.prisoners.iter().map(|&(h, c)| (Seat(h), c)).collect()
    }

    /// Score events produced by the last change to the position (a move, a resignation …).
    pub fn last_events(&self) -> &[ScoreEvent] {
        &self.events
    }

    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The cells of the pieces of every colour `seat` controls, colour by colour.
    pub(super) fn cells_of(&self, seat: Seat) -> impl Iterator<Item = Cell> + '_ {
        (0..6)
            .filter(move |&c| self.controller[c] as usize == seat.index())
            .flat_map(|c| self.by_colour[c].iter())
    }

    /// The cells of a seat's Sovereigns.
    pub fn sovereigns_of(&self, seat: Seat) -> Vec<Cell> {
        self.cells_of(seat)
            .filter(|&c| matches!(self.board[c.index()], Some(p) if p.kind == Kind::Sovereign))
            .collect()
    }

    fn empty(house: HouseRules) -> HexiMeros {
        HexiMeros {
            board: [None; CELLS],
            by_colour: [CellSet::new(); 6],
            controller: [0, 1, 2, 3, 4, 5],
            active: [true; 6],
            out_order: Vec::new(),
            to_move: 0,
            checks: Vec::new(),
            prisoners: Vec::new(),
            halfmove_clock: 0,
            history: Vec::new(),
            conceded: 0,
            result: None,
            events: Vec::new(),
            house,
        }
    }

    fn put(&mut self, c: Cell, p: Piece) {
        if let Some(old) = self.board[c.index()] {
            self.by_colour[old.colour as usize].remove(c);
        }
        self.board[c.index()] = Some(p);
        self.by_colour[p.colour as usize].insert(c);
    }

    fn take(&mut self, c: Cell) -> Option<Piece> {
        let p = self.board[c.index()].take()?;
        self.by_colour[p.colour as usize].remove(c);
        Some(p)
    }

    /// The start position of §3.3.
    pub fn start(house: HouseRules) -> HexiMeros {
        let mut g = HexiMeros::empty(house);
        let geo = &BOARD.geometry;
        for colour in 0..6u8 {
            for (x, y, kind) in board::SILVER_LAYOUT {
                let cell = crate::hex::Hex::from_doubled(x, y)
                    .map(|h| h.rotate_by(colour as i32))
                    .and_then(|h| geo.cell(h));
                if let Some(cell) = cell {
                    g.put(
                        cell,
                        Piece {
                            colour,
                            kind,
                            moved: false,
                            bonus: false,
                        },
                    );
                }
            }
        }
        g.record_history();
        g
    }

    /// The next active seat after `seat` in turn order.
    fn next_active(&self, seat: u8) -> u8 {
        (1..=6)
            .map(|i| (seat + i) % 6)
            .find(|&s| self.active[s as usize])
            .unwrap_or(seat)
    }

    /// Recompute `active` from the board; newly out seats join the out order (with their loss
    /// points). Returns whether anyone went out.
    fn update_eliminations(&mut self) -> bool {
        let mut any = false;
        for seat in 0..6u8 {
            if self.active[seat as usize] && self.sovereigns_of(Seat(seat)).is_empty() {
                self.eliminate(seat);
                any = true;
            }
        }
        any
    }

    fn eliminate(&mut self, seat: u8) {
        self.active[seat as usize] = false;
        self.out_order.push(seat);
        let place = self.out_order.len() as u8;
        self.events.push(ScoreEvent::out(Seat(seat), place));
        self.checks.retain(|r| r.declarer.0 != seat);
    }

    /// After any change: end the game when one seat is left, or by the draw rules (§6).
    fn settle(&mut self) {
        if self.result.is_some() {
            return;
        }
        let active = self.active_seats();
        if active.len() == 1 {
            self.finish(Outcome::Win {
                winners: active,
                reason: "last player with a Sovereign on the board".into(),
            });
        } else if active.len() == 2 {
            let reason = if self.house.bare_sovereigns_draw
                && active.iter().all(|&s| self.only_sovereigns(s))
            {
                Some("each of the last two players has only Sovereigns left".to_string())
            } else if self.house.quiet_rounds_draw > 0
                && self.halfmove_clock >= 2 * self.house.quiet_rounds_draw
            {
                Some(format!(
                    "{} full rounds without a capture, an unhatted Militant move or a promotion",
                    self.house.quiet_rounds_draw
                ))
            } else if self.house.repetition_draw && self.repetitions() >= 3 {
                Some("the same position with the same Token holder for the third time".into())
            } else {
                None
            };
            if let Some(reason) = reason {
                self.finish(Outcome::Draw {
                    seats: active,
                    reason,
                });
            }
        }
    }

    /// With three or more players left, whether the test the rules apply to the last two (§6)
    /// holds for all of them: each has only Sovereigns left, or the quiet-rounds count has run
    /// out (that many full rounds of everyone left without a capture, an unhatted Militant
    /// move or a promotion). The rules leave such a table only the unanimous vote to abandon
    /// ([`HexiMeros::agree_draw`]); bots vote for it then.
    pub fn deadlocked(&self) -> bool {
        let active = self.active_seats();
        if self.result.is_some() || active.len() < 3 {
            return false;
        }
        let rounds = self.house.quiet_rounds_draw;
        (self.house.bare_sovereigns_draw && active.iter().all(|&s| self.only_sovereigns(s)))
            || (rounds > 0 && self.halfmove_clock >= rounds.saturating_mul(active.len() as u32))
    }

    fn only_sovereigns(&self, seat: Seat) -> bool {
        self.cells_of(seat)
            .all(|c| matches!(self.board[c.index()], Some(p) if p.kind == Kind::Sovereign))
    }

    /// End the game with `outcome`, adding the end-game and retention points (§7).
    fn finish(&mut self, outcome: Outcome) {
        self.events.extend(score::end_events(self, &outcome));
        self.result = Some(outcome);
        self.checks.clear();
    }

    fn hash(&self) -> u64 {
        // FNV-1a over the pieces and the Token holder: stable across runs and Rust versions.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |b: u64| {
            h ^= b;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        };
        mix(self.to_move as u64);
        for (c, p) in self.pieces() {
            mix(c.0 as u64);
            // `moved` matters only where it grants a first move (or, by house rule, a shot).
            let moved = p.moved && matches!(p.kind, Kind::Militant | Kind::Prelate | Kind::Archer);
            mix(p.colour as u64
                | (p.kind as u64) << 3
                | (moved as u64) << 7
                | (p.bonus as u64) << 8);
        }
        h
    }

    fn record_history(&mut self) {
        if self.house.repetition_draw {
            let h = self.hash();
            self.history.push(h);
        }
    }

    fn repetitions(&self) -> usize {
        match self.history.last() {
            Some(last) => self.history.iter().filter(|h| *h == last).count(),
            None => 0,
        }
    }

    /// Resignation (§8.3) of a seat that is not replaced: its Sovereigns leave the board for its
    /// base space (not a capture: no points), its pieces freeze, it takes the next out place. If
    /// one seat is left, that seat wins.
    pub fn resign(&mut self, seat: Seat) -> Result<(), PositionError> {
        self.require_active(seat)?;
        self.events.clear();
        for c in self.sovereigns_of(seat) {
            self.take(c);
        }
        self.depart(seat.0);
        Ok(())
    }

    /// Expulsion (§8.5): handled as a resignation, plus −500.
    pub fn expel(&mut self, seat: Seat) -> Result<(), PositionError> {
        self.resign(seat)?;
        self.events.insert(0, ScoreEvent::expelled(seat));
        Ok(())
    }

    /// Concession (§6): only between the last two; the other seat wins, and the conceder's colours
    /// do not count in the winner's retention.
    pub fn concede(&mut self, seat: Seat) -> Result<(), PositionError> {
        self.require_active(seat)?;
        if self.active_seats().len() != 2 {
            return Err(PositionError::Invalid(
                "a concession is possible only when exactly two players remain; resign instead"
                    .into(),
            ));
        }
        self.events.clear();
        for c in 0..6 {
            if self.controller[c] == seat.0 {
                self.conceded |= 1 << c;
            }
        }
        for c in self.sovereigns_of(seat) {
            self.take(c);
        }
        self.depart(seat.0);
        Ok(())
    }

    /// Draw by agreement of the last two players, or the unanimous abandon vote of three or more
    /// (§6): every remaining seat draws.
    pub fn agree_draw(&mut self) -> Result<(), PositionError> {
        if self.result.is_some() {
            return Err(PositionError::Invalid("the game is already over".into()));
        }
        self.events.clear();
        let seats = self.active_seats();
        let reason = if seats.len() == 2 {
            "agreed by the last two players"
        } else {
            "abandoned by unanimous vote"
        };
        self.finish(Outcome::Draw {
            seats,
            reason: reason.into(),
        });
        Ok(())
    }

    fn require_active(&self, seat: Seat) -> Result<(), PositionError> {
        if self.result.is_some() {
            return Err(PositionError::Invalid("the game is already over".into()));
        }
        if !self.is_active(seat) {
            return Err(PositionError::Invalid(format!(
                "{} is not in the game",
                seat_name(seat)
            )));
        }
        Ok(())
    }

    fn depart(&mut self, seat: u8) {
        self.eliminate(seat);
        self.halfmove_clock = 0;
        self.history.clear();
        self.checks.retain(
            |r| matches!(self.board[r.target.index()], Some(p) if p.kind == Kind::Sovereign),
        );
        if self.to_move == seat {
            self.to_move = self.next_active(seat);
        }
        self.settle();
    }
}

/// The colour name of a seat (`"silver"`), or `"?"` past the sixth.
pub fn seat_name(seat: Seat) -> &'static str {
    COLOURS.get(seat.index()).copied().unwrap_or("?")
}

impl Rules for HexiMeros {
    type Move = Move;
    type HouseRules = HouseRules;
    type Setup = Setup;
    const KIND: GameKind = GameKind::HexiMeros;

    fn new_game(players: usize, house: HouseRules) -> Result<Self, PositionError> {
        if players != 6 {
            return Err(PositionError::Invalid(format!(
                "HexiMeros is played by 6 players, not {players}"
            )));
        }
        Ok(HexiMeros::start(house))
    }

    fn from_setup(setup: Setup) -> Result<Self, PositionError> {
        setup::from_setup(setup)
    }

    fn to_setup(&self) -> Setup {
        setup::to_setup(self)
    }

    fn piece_texts(&self) -> Vec<PieceText> {
        setup::to_setup(self).pieces
    }

    fn house_rules(&self) -> &HouseRules {
        &self.house
    }

    fn seat_count(&self) -> usize {
        6
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        seat_name(seat)
    }

    fn to_move(&self) -> Option<Seat> {
        self.result.is_none().then_some(Seat(self.to_move))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result.clone()
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.legal()
    }

    fn play_unchecked(&mut self, m: &Move) {
        self.apply(m);
    }

    fn move_text(&self, m: &Move) -> String {
        notation::move_text(self, m)
    }

    fn parse_move(&self, text: &str) -> Result<Move, PlayError> {
        notation::parse_move(self, text)
    }

    fn show(&self) -> String {
        notation::show(self)
    }

    fn agree_draw(&mut self) -> Result<(), PositionError> {
        HexiMeros::agree_draw(self)
    }

    fn active_seats(&self) -> Vec<Seat> {
        if self.result.is_some() {
            return Vec::new();
        }
        HexiMeros::active_seats(self)
    }

    fn out_order(&self) -> Vec<Seat> {
        HexiMeros::out_order(self)
    }

    fn depart(&mut self, seat: Seat, how: Departure) -> Result<(), PositionError> {
        match how {
            // A time loss (claimed by the last opponent) leaves like a resignation (§8.3).
            Departure::Resign | Departure::TimeOut => self.resign(seat),
            Departure::Expel => self.expel(seat),
            Departure::Concede => self.concede(seat),
        }
    }

    /// A skipped turn is the pass move (§8.6).
    fn skip_turn(&mut self) -> Result<(), PositionError> {
        if self.result.is_some() {
            return Err(PositionError::Invalid("the game is already over".into()));
        }
        self.apply(&Move::PASS);
        Ok(())
    }

    fn scored(&self) -> bool {
        self.house.scored
    }

    fn last_points(&self) -> Vec<Points> {
        self.events.iter().map(ScoreEvent::points).collect()
    }

    fn takeover_points(&self, seat: Seat, expelled: bool) -> Vec<Points> {
        let mut v = Vec::new();
        if expelled {
            v.push(ScoreEvent::expelled(seat).points());
        }
        v.push(ScoreEvent::replaced(seat).points());
        v
    }

    fn challengers(&self, m: &Move) -> Vec<Seat> {
        HexiMeros::challengers(self, m)
    }

    fn respects(&self, m: &Move, declarers: &[Seat]) -> bool {
        declarers.is_empty()
            || self
                .moves_respecting(declarers)
                .contains(&m.without_checks())
    }

    fn binding_challenges(&self) -> Vec<Seat> {
        let mut by: Vec<Seat> = self.live_checks().iter().map(|r| r.declarer).collect();
        by.dedup();
        by
    }

    fn declared_checks(&self) -> Vec<(Seat, Seat)> {
        self.checks
            .iter()
            .filter_map(|r| Some((Seat(self.piece(r.target)?.colour), r.declarer)))
            .collect()
    }

    fn declare(&self, m: &Move, target: Seat) -> Option<Move> {
        self.check_targets(m).contains(&target).then(|| Move {
            checks: m.checks | (1 << target.0),
            ..*m
        })
    }

    fn challenge_minutes(&self) -> i64 {
        self.house.check_window_minutes as i64
    }
}
