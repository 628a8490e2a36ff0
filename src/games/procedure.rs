//! What the rulebooks say about the table rather than the board: how a seat leaves a game, and
//! the points a change scores. The `Rules` trait's procedure methods use these; the host asks
//! the game and never decides a rule itself.

use serde::{Deserialize, Serialize};

use super::{Outcome, PositionError, Rules, Seat};

/// How a seat leaves a game before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Departure {
    /// Gives up (HexiMeros §8.3: not replaced).
    Resign,
    /// Voted out (HexiMeros §8.5).
    Expel,
    /// Gives the game to the last opponent (HexiMeros §6).
    Concede,
    /// Lost on time: the last opponent claimed the game after this seat's turn timer ran out
    /// (as in correspondence chess). Otherwise like a resignation.
    TimeOut,
}

impl Departure {
    pub const ALL: [Departure; 4] = [
        Departure::Resign,
        Departure::Expel,
        Departure::Concede,
        Departure::TimeOut,
    ];

    /// The word of the game record (`resign silver`).
    pub const fn key(self) -> &'static str {
        match self {
            Departure::Resign => "resign",
            Departure::Expel => "expel",
            Departure::Concede => "concede",
            Departure::TimeOut => "timeout",
        }
    }

    pub fn from_key(key: &str) -> Option<Departure> {
        Departure::ALL.into_iter().find(|d| d.key() == key)
    }

    /// `silver resigned`, `silver was expelled`, `silver lost on time`.
    pub const fn verb(self) -> &'static str {
        match self {
            Departure::Resign => "resigned",
            Departure::Expel => "was expelled",
            Departure::Concede => "conceded",
            Departure::TimeOut => "lost on time",
        }
    }
}

/// Points a seat scored by one change of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Points {
    pub seat: Seat,
    pub points: i32,
    /// A short stable key (`capture`, `out`, `expelled`, `replaced` …).
    pub reason: String,
    /// Loss points (going out, an expulsion, being replaced) are never forfeited.
    pub loss: bool,
}

/// Refuse a change to a game that is over.
pub(super) fn require_running<R: Rules>(game: &R) -> Result<(), PositionError> {
    match game.outcome() {
        Some(_) => Err(PositionError::Invalid("the game is already over".into())),
        None => Ok(()),
    }
}

/// The default departure: in a two-seat game the other seat wins; with more seats a player
/// may not leave.
pub(super) fn depart_two_seat<R: Rules>(
    game: &mut R,
    seat: Seat,
    how: Departure,
) -> Result<(), PositionError> {
    require_running(game)?;
    if game.seat_count() != 2 {
        return Err(PositionError::Invalid(format!(
            "in {} a player may leave only when two remain",
            R::KIND.name()
        )));
    }
    if seat.index() >= 2 {
        return Err(PositionError::Invalid(format!(
            "there is no seat {}",
            seat.0
        )));
    }
    let name = game.seat_name(seat);
    game.settle(Outcome::Win {
        winners: vec![Seat(1 - seat.0)],
        reason: format!("{name} {}", how.verb()),
    })
}

/// A `settled` result read from position JSON, checked: its seats must exist.
pub(super) fn settled(
    outcome: Option<Outcome>,
    seats: usize,
) -> Result<Option<Box<Outcome>>, PositionError> {
    let Some(outcome) = outcome else {
        return Ok(None);
    };
    let listed = match &outcome {
        Outcome::Win { winners, .. } => winners,
        Outcome::Draw { seats, .. } => seats,
    };
    if let Some(s) = listed.iter().find(|s| s.index() >= seats) {
        return Err(PositionError::Invalid(format!(
            "the settled result names seat {}, but the game has {seats} seats",
            s.0
        )));
    }
    Ok(Some(Box::new(outcome)))
}
