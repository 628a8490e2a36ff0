//! The game record: the text `hexmeros export` writes, `hexmeros import` reads and the replay
//! GIF plays. One header line each for the game, the seat count and the house rules (other
//! header lines, such as the host's `timers`, are kept as they are), then one line per committed
//! move or table event, oldest first:
//!
//! ```text
//! # hexmeros game export
//! game hexdame
//! seats 2
//! house {}
//! white a1-a2
//! black b7-b6
//! draw
//! # white and black drew (agreed)
//! ```
//!
//! A line is `<seat> <move>`, a bare move (played by the side to move), `resign <seat>`,
//! `expel <seat>`, `concede <seat>`, `timeout <seat>` (lost on time), `skip <seat>` or `draw`.
//! Lines starting with `#` are comments. This module is the only reader and writer of that
//! text; `apply` plays a line on a game through the game's own rules.

use serde_json::Value;
use thiserror::Error;

use super::{AnyGame, Departure, GameKind, Seat};

/// A record that cannot be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    #[error("the record names no game (a line `game <kind>`)")]
    NoGame,
    #[error("unknown game {0:?}")]
    UnknownGame(String),
    #[error("bad seat count {0:?}")]
    BadSeats(String),
    #[error("bad house rules: {0}")]
    BadHouse(String),
    #[error("the record's start position cannot be set up: {0}")]
    Start(String),
    #[error("no seat called {0:?}")]
    NoSuchSeat(String),
    #[error("it is {holder}'s turn, not {named}'s")]
    NotTheirTurn { holder: String, named: String },
    #[error("{0}")]
    Refused(String),
}

/// One line of the record, resolved against the game it is played on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A move; `seat` is `None` for a bare move (the side to move plays it).
    Move { seat: Option<Seat>, text: String },
    /// A seat left the game.
    Depart { seat: Seat, how: Departure },
    /// The Token holder's turn was skipped.
    Skip { seat: Seat },
    /// The players still in agreed a draw.
    Draw,
}

impl Line {
    /// Read one line of the record (not a comment or header) for `game`, the position it is
    /// played on.
    pub fn parse(game: &AnyGame, line: &str) -> Result<Line, RecordError> {
        let line = line.trim();
        let (head, rest) = line.split_once(' ').unwrap_or((line, ""));
        let seat = |name: &str| {
            game.seat_named(name)
                .ok_or_else(|| RecordError::NoSuchSeat(name.trim().to_string()))
        };
        if head == "draw" && rest.trim().is_empty() {
            return Ok(Line::Draw);
        }
        if head == "skip" {
            return Ok(Line::Skip { seat: seat(rest)? });
        }
        if let Some(how) = Departure::from_key(head) {
            return Ok(Line::Depart {
                seat: seat(rest)?,
                how,
            });
        }
        Ok(match game.seat_named(head) {
            Some(s) => Line::Move {
                seat: Some(s),
                text: rest.trim().to_string(),
            },
            None => Line::Move {
                seat: None,
                text: line.to_string(),
            },
        })
    }

    /// The line as the record writes it, on the game it is played on.
    pub fn write(&self, game: &AnyGame) -> String {
        match self {
            Line::Move {
                seat: Some(s),
                text,
            } => format!("{} {text}", game.seat_name(*s)),
            Line::Move { seat: None, text } => text.clone(),
            Line::Depart { seat, how } => format!("{} {}", how.key(), game.seat_name(*seat)),
            Line::Skip { seat } => format!("skip {}", game.seat_name(*seat)),
            Line::Draw => "draw".into(),
        }
    }

    /// Play this line on `game` by the game's rules. Returns the move as the record writes it
    /// (canonical text, with its seat) when the line was a move. On error `game` is unchanged.
    pub fn apply(&self, game: &mut AnyGame) -> Result<Option<String>, RecordError> {
        let refused = |e: &dyn std::fmt::Display| RecordError::Refused(e.to_string());
        match self {
            Line::Move { seat, text } => {
                let mover = game.to_move().ok_or_else(|| refused(&"the game is over"))?;
                if let Some(s) = seat
                    && *s != mover
                {
                    return Err(RecordError::NotTheirTurn {
                        holder: game.seat_name(mover).into(),
                        named: game.seat_name(*s).into(),
                    });
                }
                let canonical = game.play(text).map_err(|e| refused(&e))?;
                Ok(Some(format!("{} {canonical}", game.seat_name(mover))))
            }
            Line::Depart { seat, how } => {
                game.depart(*seat, *how).map_err(|e| refused(&e))?;
                Ok(None)
            }
            Line::Skip { seat } => {
                let holder = game.to_move();
                if holder != Some(*seat) {
                    return Err(refused(&format!(
                        "{} cannot be skipped: not their turn",
                        game.seat_name(*seat)
                    )));
                }
                game.skip_turn().map_err(|e| refused(&e))?;
                Ok(None)
            }
            Line::Draw => {
                game.agree_draw().map_err(|e| refused(&e))?;
                Ok(None)
            }
        }
    }
}

/// Header lines besides the game's own that a record may carry: the host's `timers`, the
/// `position` (JSON on one line) a game started from when not the start position, and the
/// host's `clock` (when the game started and each line was played, and the absences and pauses
/// between: JSON on one line). A reader
/// that has no use for one skips it.
pub const HEADERS: [&str; 3] = ["timers", "position", "clock"];

/// A parsed record: the start of the game and its lines, not yet played.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub kind: GameKind,
    /// The seat count the record names, if it does.
    pub seats: Option<usize>,
    /// The house rules JSON the record names (an empty object: the game's defaults).
    pub house: Value,
    /// The other header lines ([`HEADERS`]), by key, in order.
    pub headers: Vec<(String, String)>,
    /// The move and table lines, oldest first.
    pub lines: Vec<String>,
}

impl GameRecord {
    /// Read a record. Header lines (`game`, `seats`, `house` and the [`HEADERS`] others keep)
    /// may come in any order before the lines.
    pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
        let mut kind = None;
        let mut seats = None;
        let mut house = Value::Object(serde_json::Map::new());
        let mut headers = Vec::new();
        let mut lines = Vec::new();
        for raw in text.lines() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (head, rest) = line.split_once(' ').unwrap_or((line, ""));
            let rest = rest.trim();
            match head {
                "game" if kind.is_none() => {
                    kind = Some(
                        GameKind::from_key(rest)
                            .ok_or_else(|| RecordError::UnknownGame(rest.to_string()))?,
                    );
                }
                "seats" if lines.is_empty() => {
                    seats = Some(
                        rest.parse::<usize>()
                            .map_err(|_| RecordError::BadSeats(rest.to_string()))?,
                    );
                }
                "house" if lines.is_empty() => {
                    house = serde_json::from_str(rest)
                        .map_err(|e| RecordError::BadHouse(e.to_string()))?;
                }
                h if lines.is_empty() && HEADERS.contains(&h) => {
                    headers.push((h.to_string(), rest.to_string()));
                }
                _ => lines.push(line.to_string()),
            }
        }
        Ok(GameRecord {
            kind: kind.ok_or(RecordError::NoGame)?,
            seats,
            house,
            headers,
            lines,
        })
    }

    /// The header value of `key`, if the record has one.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The start position (for `seats` seats when the record does not name them): the record's
    /// `position` header if it has one, else the game's start under its house rules.
    pub fn start(&self, seats: Option<usize>) -> Result<AnyGame, RecordError> {
        if let Some(json) = self.header("position") {
            return self
                .kind
                .read_position(json)
                .map_err(|e| RecordError::Start(e.to_string()));
        }
        // An empty house object means the game's defaults.
        let house =
            Some(self.house.clone()).filter(|h| h.as_object().is_none_or(|o| !o.is_empty()));
        self.kind
            .start(self.seats.or(seats), house)
            .map_err(|e| RecordError::Start(e.to_string()))
    }

    /// Play every line from the start: the final position and, per line, the move it played
    /// (see `Line::apply`).
    pub fn replay(&self) -> Result<(AnyGame, Vec<Option<String>>), ReplayError> {
        let fail = |line: usize, text: &str, error: RecordError| ReplayError {
            line,
            text: text.to_string(),
            error,
        };
        let mut game = self.start(None).map_err(|e| fail(0, "", e))?;
        let mut played = Vec::with_capacity(self.lines.len());
        for (i, text) in self.lines.iter().enumerate() {
            let line = Line::parse(&game, text).map_err(|e| fail(i + 1, text, e))?;
            played.push(line.apply(&mut game).map_err(|e| fail(i + 1, text, e))?);
        }
        Ok((game, played))
    }
}

/// A record line (counted from 1; 0 for the header) that does not replay.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line} ({text}): {error}")]
pub struct ReplayError {
    pub line: usize,
    pub text: String,
    pub error: RecordError,
}

/// Write a record: the header (`game`, `seats`, `house`, then `headers`), the lines, and the
/// outcome in words as a closing comment.
pub fn write(
    kind: GameKind,
    seats: usize,
    house: &Value,
    headers: &[(String, String)],
    lines: &[String],
    outcome: Option<&str>,
) -> String {
    let mut s = String::new();
    s.push_str("# hexmeros game export\n");
    s.push_str(&format!("game {}\n", kind.key()));
    s.push_str(&format!("seats {seats}\n"));
    s.push_str(&format!("house {house}\n"));
    for (k, v) in headers {
        s.push_str(&format!("{k} {v}\n"));
    }
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    if let Some(o) = outcome {
        s.push_str(&format!("# {o}\n"));
    }
    s
}
