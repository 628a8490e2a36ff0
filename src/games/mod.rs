//! The games: one `Rules` trait that every engine implements, the stable `GameKind` keys, seats,
//! outcomes, the shared position JSON pieces and move text, and `AnyGame` for callers that hold a
//! game of any kind (the CLI, the store, the host).
//!
//! Everything here is pure: no I/O, no clock, no randomness.

mod any;
pub mod error;
pub mod harmegedo;
pub mod help;
pub mod hexaequo;
pub mod hexdame;
pub mod heximeros;
pub mod hexmeister;
pub mod house_menu;
pub mod notation;
pub mod position;
pub mod procedure;
pub mod record;

use std::fmt::Debug;
use std::hash::Hash;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub use any::{AnyGame, Unresolved, read_position};
pub use error::{IllegalMove, PlayError, PositionError, SyntaxError};
pub use notation::{MoveText, Sep};
pub use position::PieceText;
pub use procedure::{Departure, Points};

/// The games the bot hosts. `key()` is stored in the database and in position JSON: never change
/// one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    HexiMeros,
    HexDame,
    Hexmeister,
    HexaEquo,
    Harmegedo,
}

impl GameKind {
    pub const ALL: [GameKind; 5] = [
        GameKind::HexiMeros,
        GameKind::HexDame,
        GameKind::Hexmeister,
        GameKind::HexaEquo,
        GameKind::Harmegedo,
    ];

    pub const fn key(self) -> &'static str {
        match self {
            GameKind::HexiMeros => "heximeros",
            GameKind::HexDame => "hexdame",
            GameKind::Hexmeister => "hexmeister",
            GameKind::HexaEquo => "hexaequo",
            GameKind::Harmegedo => "harmegedo",
        }
    }

    pub fn from_key(key: &str) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.key() == key.trim().to_ascii_lowercase())
    }

    /// The name players read.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::HexiMeros => "HexiMeros",
            GameKind::HexDame => "HexDame",
            GameKind::Hexmeister => "Hexmeister",
            GameKind::HexaEquo => "HexaEquo",
            GameKind::Harmegedo => "Harmegedo",
        }
    }

    /// Whether a mover declares Check upon other seats with a move (HexiMeros' Check
    /// declarations and challenges): the front ends offer Declare Check and Pass + Check.
    pub const fn declares_check(self) -> bool {
        matches!(self, GameKind::HexiMeros)
    }

    /// How many players the game takes: (fewest, most).
    pub const fn players(self) -> (usize, usize) {
        match self {
            GameKind::HexiMeros => (6, 6),
            GameKind::Harmegedo => (2, 6),
            _ => (2, 2),
        }
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

/// A player's place in a game, `0..seat_count`, in turn order of the full game (HexiMeros: Silver
/// is 0 … Red is 5). What a seat is called is the game's business (`Rules::seat_name`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Seat(pub u8);

impl Seat {
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum Outcome {
    /// `winners` won (one seat, or a team); everyone else lost.
    Win { winners: Vec<Seat>, reason: String },
    /// `seats` drew; any other seat had already lost.
    Draw { seats: Vec<Seat>, reason: String },
}

/// A rules engine. Positions are plain values: `legal_moves` lists, `play_unchecked` applies one
/// of them, and text goes through `parse_move` (syntax, then rules) and `move_text`.
pub trait Rules: Clone + Debug + Sized {
    /// A resolved move of this game.
    type Move: Clone + Debug + PartialEq + Eq + Hash;
    /// Every [REC] choice of the game's spec; `Default` is the spec.
    type HouseRules: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned;
    /// The untrusted position JSON (ARCHITECTURE.md "Positions").
    type Setup: Serialize + DeserializeOwned;

    const KIND: GameKind;

    /// The start position for `players` seats under `house_rules`.
    fn new_game(players: usize, house_rules: Self::HouseRules) -> Result<Self, PositionError>;

    /// Validate an untrusted setup: the only way to a position besides `new_game` and playing.
    fn from_setup(setup: Self::Setup) -> Result<Self, PositionError>;

    fn to_setup(&self) -> Self::Setup;

    /// The pieces on the board as the position JSON lists them (its `pieces`). The games
    /// answer from their setup directly; this default reads the setup's JSON.
    fn piece_texts(&self) -> Vec<PieceText> {
        serde_json::to_value(self.to_setup())
            .ok()
            .and_then(|mut v| serde_json::from_value(v["pieces"].take()).ok())
            .unwrap_or_default()
    }

    fn house_rules(&self) -> &Self::HouseRules;

    /// Seats in this game (all of them, eliminated or not).
    fn seat_count(&self) -> usize;

    /// The lower-case name of a seat's colour, as in the rules file (`"silver"`, `"white"`).
    fn seat_name(&self, seat: Seat) -> &'static str;

    /// Whose turn it is; `None` once the game is over.
    fn to_move(&self) -> Option<Seat>;

    /// `Some` once the game is over by the rules alone.
    fn outcome(&self) -> Option<Outcome>;

    /// Every legal move of the side to move (empty once the game is over).
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Apply a move taken from `legal_moves` (or a replayed log). Not validated.
    fn play_unchecked(&mut self, m: &Self::Move);

    /// The canonical text of a legal move of this position.
    fn move_text(&self, m: &Self::Move) -> String;

    /// Parse move text (a `SyntaxError` if it is not a move at all) and resolve it against this
    /// position (an `IllegalMove` saying why it is not allowed).
    fn parse_move(&self, text: &str) -> Result<Self::Move, PlayError>;

    /// A text picture of the board.
    fn show(&self) -> String;

    /// End the game as a draw agreed by the players still in it (§ "draw" of each rulebook).
    /// By default every seat draws; the position keeps the result (see `settle`).
    fn agree_draw(&mut self) -> Result<(), PositionError> {
        procedure::require_running(self)?;
        let seats = self.active_seats();
        self.settle(Outcome::Draw {
            seats,
            reason: "agreed".into(),
        })
    }

    /// Record an end the players decide rather than the board (a resignation, an agreed draw):
    /// from now on `outcome()` is `outcome`, `to_move()` is `None` and no move is legal. Engines
    /// that keep such an end implement this; the default refuses.
    fn settle(&mut self, outcome: Outcome) -> Result<(), PositionError> {
        let _ = outcome;
        Err(PositionError::Invalid(format!(
            "{} cannot be ended by the players",
            Self::KIND.name()
        )))
    }

    /// The seats still in the game (all of them, by default, until it ends).
    fn active_seats(&self) -> Vec<Seat> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        (0..self.seat_count() as u8).map(Seat).collect()
    }

    /// The seats that went out before the end, first out first (for finishing ranks).
    fn out_order(&self) -> Vec<Seat> {
        Vec::new()
    }

    /// A seat leaves before the end: it resigns, is expelled or concedes. By default only a
    /// two-seat game allows it, and the other seat wins.
    fn depart(&mut self, seat: Seat, how: Departure) -> Result<(), PositionError> {
        procedure::depart_two_seat(self, seat, how)
    }

    /// The Token holder loses the turn (a skipped stalled player): the game's pass. Games
    /// without a pass move refuse.
    fn skip_turn(&mut self) -> Result<(), PositionError> {
        Err(PositionError::Invalid(format!(
            "{} has no pass move, so a turn cannot be skipped",
            Self::KIND.name()
        )))
    }

    /// Whether this game keeps a points table (HexiMeros' §7 when its `scored` house rule is on).
    fn scored(&self) -> bool {
        false
    }

    /// The points the last change (a move, a departure, a draw) scored, per seat.
    fn last_points(&self) -> Vec<Points> {
        Vec::new()
    }

    /// The points a seat's player takes personally when another player takes over the seat
    /// (`expelled`: the takeover follows an expulsion).
    fn takeover_points(&self, seat: Seat, expelled: bool) -> Vec<Points> {
        let _ = (seat, expelled);
        Vec::new()
    }

    /// The seats that may challenge move `m` of the side to move (HexiMeros: declare Check upon
    /// the mover, §5.4). None by default.
    fn challengers(&self, m: &Self::Move) -> Vec<Seat> {
        let _ = m;
        Vec::new()
    }

    /// Whether `m` respects the challenges `declarers` made upon the side to move (HexiMeros: it
    /// leaves the mover's Sovereign out of their attack, or no move can). True by default.
    fn respects(&self, m: &Self::Move, declarers: &[Seat]) -> bool {
        let _ = (m, declarers);
        true
    }

    /// The seats whose standing challenges bind the side to move now (HexiMeros: the declarers
    /// of live Checks on it, §5.3).
    fn binding_challenges(&self) -> Vec<Seat> {
        Vec::new()
    }

    /// The declared Checks standing now, as (the seat whose royal piece is in Check, the seat
    /// that declared it) (HexiMeros §5.3), for the pictures and the status panel. Games
    /// without declarations have none.
    fn declared_checks(&self) -> Vec<(Seat, Seat)> {
        Vec::new()
    }

    /// Move `m` with the mover's declaration on `target` added (HexiMeros: Check on that seat's
    /// Sovereign, §5.3), or `None` when `m` allows no such declaration. Games without
    /// declarations have none.
    fn declare(&self, m: &Self::Move, target: Seat) -> Option<Self::Move> {
        let _ = (m, target);
        None
    }

    /// Minutes a challenge window stays open.
    fn challenge_minutes(&self) -> i64 {
        10
    }

    fn from_json(json: &str) -> Result<Self, PositionError> {
        let setup: Self::Setup =
            serde_json::from_str(json).map_err(|e| PositionError::Json(e.to_string()))?;
        Self::from_setup(setup)
    }

    fn to_json(&self) -> String {
        // A derived `Serialize` on plain data cannot fail; an empty object would show it if it did.
        serde_json::to_string_pretty(&self.to_setup()).unwrap_or_else(|_| "{}".to_string())
    }

    /// Parse, resolve and play; on error the position is unchanged.
    fn play(&mut self, text: &str) -> Result<Self::Move, PlayError> {
        let m = self.parse_move(text)?;
        self.play_unchecked(&m);
        Ok(m)
    }

    /// The number of legal move sequences of length `depth`.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut next = self.clone();
                next.play_unchecked(m);
                next.perft(depth - 1)
            })
            .sum()
    }

    /// The legal moves as text, sorted: what `hexmeros rules moves` prints.
    fn legal_move_texts(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .legal_moves()
            .iter()
            .map(|m| self.move_text(m))
            .collect();
        v.sort();
        v
    }
}

/// The item of `items` that `rank` scores highest, the first among equals, with its score: how a
/// greedy player picks its move (the bots' non-replying opponents, a checked seat's best relief).
pub fn first_best<'a, T>(
    items: impl IntoIterator<Item = &'a T>,
    rank: impl Fn(&T) -> i32,
) -> Option<(i32, &'a T)>
where
    T: 'a,
{
    let mut best: Option<(i32, &T)> = None;
    for item in items {
        let r = rank(item);
        if best.is_none_or(|(b, _)| r > b) {
            best = Some((r, item));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::first_best;

    #[test]
    fn first_best_takes_the_highest_and_the_first_among_equals() {
        let words = ["ox", "horse", "cat", "mouse", "hen"];
        let best = first_best(&words, |w| w.len() as i32);
        assert_eq!(best, Some((5, &"horse")));
        let best = first_best(&words, |w| -(w.len() as i32));
        assert_eq!(best, Some((-2, &"ox")));
        assert_eq!(first_best(&[] as &[&str], |w| w.len() as i32), None);
    }
}
