//! HexDame (Christian Freeling, 1979): international draughts on a 61-cell hexagon, as specified
//! in `docs/rules/hexdame.md`. This file owns the position type [`HexDame`], its house rules, the game
//! end (no legal move, threefold repetition, agreement) and the `Rules` implementation.
//!
//! ```text
//!                 i9B                      the start position (§2.2); White moves first,
//!             h9B     i8B                  men step forward in three directions and
//!         g9B     h8B     i7B              capture in all six; kings fly
//!     f9B     g8B     h7B     i6B
//! e9.     f8B     g7B     h6B     i5.
//!  …
//!         a3W     b2W     c1W
//!             a2W     b1W
//!                 a1W
//! ```
//!
//! Layout: `board.rs` (cells, names, tables), `moves.rs` (generation), `notation.rs` (move text),
//! `setup.rs` (position JSON), `tests.rs`.

mod board;
mod moves;
mod notation;
mod setup;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::hex::{Cell, CellSet, Geometry};

use super::{GameKind, Outcome, PieceText, PlayError, PositionError, Rules, Seat};
use board::{BACK_RANK, GEOMETRY, XY, bit, bits};
pub use moves::Move;
use moves::{Board, generate, has_move};
pub use setup::Setup;

/// The two sides. White is seat 0 and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    White = 0,
    Black = 1,
}

impl Colour {
    pub const fn opponent(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// The lower-case name used in position JSON and messages.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }

    pub const fn seat(self) -> Seat {
        Seat(self as u8)
    }
}

/// Men and kings (a king is a promoted man).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Man,
    King,
}

impl Kind {
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Man => "man",
            Kind::King => "king",
        }
    }
}

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub colour: Colour,
    pub kind: Kind,
}

/// The open choices of `docs/rules/hexdame.md` §6. `Default` is the spec.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HouseRules {
    /// §5 / §6-3: the third occurrence of a position (same pieces, same side to move) draws at
    /// once. `false` turns the rule off.
    pub threefold_repetition: bool,
    /// §6-2: the spec counts capture paths with the same start, end and captured pieces as one
    /// move. `true` makes every path a move of its own.
    pub distinct_capture_paths: bool,
    /// §6-6: draw after this many consecutive moves by each side that are king moves without a
    /// capture (so twice as many plies). `None` (the spec) has no such limit.
    pub king_move_limit: Option<u32>,
}

impl Default for HouseRules {
    fn default() -> HouseRules {
        HouseRules {
            threefold_repetition: true,
            distinct_capture_paths: false,
            king_move_limit: None,
        }
    }
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    Repetition,
    KingMoveLimit,
    Agreement,
}

/// What undoes one [`HexDame::make`] (perft walks the tree in place).
struct Undo {
    board: Board,
    window_start: usize,
    draw: Option<DrawReason>,
}

/// A HexDame position with the history the repetition rule needs.
#[derive(Clone, Debug)]
pub struct HexDame {
    board: Board,
    /// Every position since the game started (or since the earliest one a setup describes),
    /// oldest first; the last is `board`. Kept whole so a replay from the start is exact.
    history: Vec<Board>,
    /// Where the positions since the last capture or man move begin in `history`. Those moves
    /// cannot be undone (material only falls, men only go forward), so only positions from here
    /// on can recur, and the king move limit counts the plies from here.
    window_start: usize,
    draw: Option<DrawReason>,
    house: HouseRules,
    /// A result the players settled (resignation, agreed draw); it overrides the board's.
    settled: Option<Box<Outcome>>,
}

impl HexDame {
    fn from_board(board: Board, house: HouseRules) -> HexDame {
        HexDame {
            board,
            history: vec![board],
            window_start: 0,
            draw: None,
            house,
            settled: None,
        }
    }

    /// The shared geometry of the board: cell names, `Hex` coordinates (flat-topped; the spec's
    /// N is the flat N, e5 the origin) and cell sets. `Cell`s of this crate's API index it.
    pub fn geometry() -> &'static Geometry {
        &GEOMETRY
    }

    /// The spec's name of a cell (`a1` … `i9`).
    pub fn cell_name(cell: Cell) -> &'static str {
        GEOMETRY.name(cell)
    }

    /// A side's back rank (§2.1): the nine cells its men start behind and the opponent's men
    /// promote on.
    pub fn back_rank(colour: Colour) -> CellSet {
        board::cell_set(BACK_RANK[colour as usize])
    }

    /// The side whose turn it is, or would be if the game were not over.
    pub fn side_to_move(&self) -> Colour {
        self.board.side
    }

    /// The piece on a cell.
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        let c = u8::try_from(cell.0)
            .ok()
            .filter(|&c| usize::from(c) < board::CELLS)?;
        let colour = if self.board.white & bit(c) != 0 {
            Colour::White
        } else if self.board.black & bit(c) != 0 {
            Colour::Black
        } else {
            return None;
        };
        let kind = if self.board.kings & bit(c) != 0 {
            Kind::King
        } else {
            Kind::Man
        };
        Some(Piece { colour, kind })
    }

    /// Every piece with its cell, in cell-name order (a1 first). Names via [`HexDame::cell_name`].
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        bits(self.board.occupied()).filter_map(|c| {
            let cell = Cell(u16::from(c));
            self.piece_at(cell).map(|p| (cell, p))
        })
    }

    /// How many times the current position has occurred (1 the first time), counting from the
    /// last capture or man move, before which no position can recur.
    pub fn repetition_count(&self) -> usize {
        self.history[self.window_start..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|b| **b == self.board)
            .count()
    }

    /// Moves in a row (plies) that were king moves without capture: what the optional
    /// `king_move_limit` counts.
    pub fn reversible_plies(&self) -> usize {
        self.history.len() - self.window_start - 1
    }

    /// Record a draw by agreement (§5); the players agree outside the rules, so the host calls
    /// this. Fails if the game is already over.
    pub fn agree_draw(&mut self) -> Result<(), PositionError> {
        if self.outcome().is_some() {
            return Err(PositionError::Invalid(
                "the game is already over, so no draw can be agreed".into(),
            ));
        }
        self.draw = Some(DrawReason::Agreement);
        Ok(())
    }

    /// Why the game was drawn, if it was.
    pub fn draw_reason(&self) -> Option<DrawReason> {
        self.draw
    }

    /// Play `m` and return what undoes it. Updates the repetition window and the draw.
    fn make(&mut self, m: &Move) -> Undo {
        let undo = Undo {
            board: self.board,
            window_start: self.window_start,
            draw: self.draw,
        };
        let irreversible = m.is_capture() || self.board.kings & bit(m.from) == 0;
        self.board.apply(m);
        if irreversible {
            self.window_start = self.history.len();
        }
        self.history.push(self.board);
        if !irreversible {
            if self.house.threefold_repetition && self.repetition_count() >= 3 {
                self.draw = Some(DrawReason::Repetition);
            } else if let Some(limit) = self.house.king_move_limit
                && self.reversible_plies() as u64 >= 2 * u64::from(limit)
            {
                self.draw = Some(DrawReason::KingMoveLimit);
            }
        }
        undo
    }

    fn unmake(&mut self, undo: Undo) {
        self.history.pop();
        self.board = undo.board;
        self.window_start = undo.window_start;
        self.draw = undo.draw;
    }

    /// Perft by make/unmake; `buffers[ply]` is the move list of each ply, reused across nodes
    /// and grown on demand (a huge depth must not allocate up front).
    fn perft_in_place(&mut self, depth: u32, ply: usize, buffers: &mut Vec<Vec<Move>>) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.draw.is_some() {
            return 0;
        }
        if buffers.len() <= ply {
            buffers.push(Vec::with_capacity(64));
        }
        let mut moves = std::mem::take(&mut buffers[ply]);
        generate(&self.board, !self.house.distinct_capture_paths, &mut moves);
        let total = if depth == 1 {
            moves.len() as u64
        } else {
            let mut total = 0;
            for m in &moves {
                let undo = self.make(m);
                total += self.perft_in_place(depth - 1, ply + 1, buffers);
                self.unmake(undo);
            }
            total
        };
        buffers[ply] = moves;
        total
    }

    /// Every legal move with every capture path kept apart, for resolving written paths.
    fn all_paths(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.draw.is_none() && self.settled.is_none() {
            generate(&self.board, false, &mut out);
        }
        out
    }
}

impl Rules for HexDame {
    type Move = Move;
    type HouseRules = HouseRules;
    type Setup = Setup;
    const KIND: GameKind = GameKind::HexDame;

    fn new_game(players: usize, house_rules: HouseRules) -> Result<HexDame, PositionError> {
        if players != 2 {
            return Err(PositionError::Invalid(format!(
                "HexDame is played by 2 players, not {players}"
            )));
        }
        setup::check_house_rules(&house_rules)?;
        // §3: White men on x ≤ 3 and y ≤ 3, Black men on x ≥ 5 and y ≥ 5.
        let mut white = 0;
        let mut black = 0;
        for (i, &(x, y)) in XY.iter().enumerate() {
            if x <= 3 && y <= 3 {
                white |= bit(i as u8);
            } else if x >= 5 && y >= 5 {
                black |= bit(i as u8);
            }
        }
        let board = Board {
            white,
            black,
            kings: 0,
            side: Colour::White,
        };
        Ok(HexDame::from_board(board, house_rules))
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
        match seat.0 {
            0 => "white",
            1 => "black",
            _ => "none",
        }
    }

    fn to_move(&self) -> Option<Seat> {
        self.outcome().is_none().then_some(self.board.side.seat())
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = &self.settled {
            return Some((**o).clone());
        }
        let both = vec![Colour::White.seat(), Colour::Black.seat()];
        let reason = match self.draw {
            Some(DrawReason::Repetition) => Some("threefold repetition".to_string()),
            Some(DrawReason::Agreement) => Some("agreement".to_string()),
            Some(DrawReason::KingMoveLimit) => Some(format!(
                "{} king moves by each side without a capture",
                self.house.king_move_limit.unwrap_or(0)
            )),
            None => None,
        };
        if let Some(reason) = reason {
            return Some(Outcome::Draw {
                seats: both,
                reason,
            });
        }
        if has_move(&self.board) {
            return None;
        }
        let loser = self.board.side;
        Some(Outcome::Win {
            winners: vec![loser.opponent().seat()],
            reason: format!("{} has no legal move", loser.name()),
        })
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.draw.is_none() && self.settled.is_none() {
            generate(&self.board, !self.house.distinct_capture_paths, &mut out);
        }
        out
    }

    fn play_unchecked(&mut self, m: &Move) {
        self.make(m);
    }

    fn move_text(&self, m: &Move) -> String {
        notation::move_text(m)
    }

    fn parse_move(&self, text: &str) -> Result<Move, PlayError> {
        notation::parse_move(self, text)
    }

    fn show(&self) -> String {
        notation::show(self)
    }

    fn agree_draw(&mut self) -> Result<(), PositionError> {
        HexDame::agree_draw(self)
    }

    fn settle(&mut self, outcome: Outcome) -> Result<(), PositionError> {
        super::procedure::require_running(self)?;
        self.settled = Some(Box::new(outcome));
        Ok(())
    }

    /// Walks the tree in place (make/unmake, one reused move list per ply) instead of cloning a
    /// position per node.
    fn perft(&self, depth: u32) -> u64 {
        let mut game = self.clone();
        game.perft_in_place(depth, 0, &mut Vec::new())
    }
}
