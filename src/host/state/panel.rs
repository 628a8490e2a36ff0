//! The status panel of a game (issue 19): what a returning player reads first. Plain data, with
//! players as ids; a front end words and formats it (the Discord one pins it in the game's thread
//! and edits it after every turn).

use super::{Away, GameState, Line, Status, story};
use crate::ai::Level;
use crate::games::{Departure, Outcome, Seat};
use crate::host::event::{Millis, PlayerId};
use crate::host::words::Sentence;

/// Where a seat stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatStanding {
    /// Still playing.
    In,
    /// Out of the game by the rules (a Sovereign or king lost, no move left...).
    Out,
    /// Left the game (resigned, expelled, conceded, lost on time).
    Left(Departure),
    /// The game is over and this seat won (or shared the win).
    Won,
    /// The game is over in a draw this seat was part of.
    Drew,
}

/// One seat of the panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanelSeat {
    pub seat: Seat,
    /// The seat's name as players read it (`Red`, `Kingdom0`).
    pub name: String,
    /// Who holds the seat now (the mover of a team).
    pub player: PlayerId,
    /// A bot's level, when a bot plays the seat.
    pub bot: Option<Level>,
    pub standing: SeatStanding,
    /// Points so far (§7) in a scored game.
    pub points: Option<i32>,
    /// The seat's time bank, in a game with banks (the turn under way not counted).
    pub bank: Option<Millis>,
    /// The seat's player is away.
    pub away: Option<Away>,
    /// The seats that declared the Checks standing on this seat's royal piece, by name.
    pub checked_by: Vec<String>,
}

/// Whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PanelTurn {
    pub seat: Seat,
    pub player: PlayerId,
    /// The turn's number (1 for the first move of the game).
    pub number: u32,
    /// When the Token holder got the Token.
    pub since: Millis,
    /// When the Token holder's time runs out, bank included (none: no timer, the game is
    /// paused, or the holder is away).
    pub due: Option<Millis>,
}

/// Everything the status panel shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panel {
    pub status: Status,
    pub paused: bool,
    /// The result of a finished game, in words.
    pub result: Option<String>,
    pub seats: Vec<PanelSeat>,
    pub turn: Option<PanelTurn>,
    /// The turn timer in hours (0: none).
    pub turn_timer_hours: u32,
    /// The house rules in force that differ from the rules as written (and timers that differ
    /// from the defaults), as `Name: value` (`GameState::house_lines`).
    pub house: Vec<String>,
    /// Open motions: what is voted on, and when the ballot closes. Votes cast are not shown: casting one tells the thread nothing, so the panel
    /// would show a stale count.
    pub votes: Vec<(Sentence, Millis)>,
    /// The last round in words (`Red N1xN4 took Silver's Archer · Green is out`).
    pub last_round: String,
}

impl GameState {
    /// The status panel of the game as it is now.
    /// Whose turn it is, since when and until when (the panel's line, without the rest of the
    /// panel: lists of games and digests ask only this).
    pub fn turn(&self) -> Option<PanelTurn> {
        self.holder()
            .zip(self.holder_player())
            .map(|(seat, player)| PanelTurn {
                seat,
                player,
                number: self.turn_number(),
                since: self.turn_started,
                due: self.deadline(),
            })
    }

    pub fn panel(&self) -> Panel {
        let outcome = self.outcome();
        let active = self.active();
        let points = self.player_points();
        let checks = self.game.declared_checks();
        let seats = self
            .all_seats()
            .into_iter()
            .map(|seat| {
                let st = &self.seats[seat.index()];
                let standing = self.standing(seat, outcome.as_ref(), &active);
                PanelSeat {
                    seat,
                    name: story::seat(&self.game, seat),
                    player: st.mover,
                    bot: self.bot(seat),
                    standing,
                    points: points
                        .iter()
                        .find(|(p, _)| *p == st.player)
                        .map(|(_, n)| *n),
                    bank: (self.timers.bank_hours > 0 || self.timers.bank_add_hours > 0)
                        .then(|| self.bank(seat)),
                    away: self.away(seat).cloned(),
                    checked_by: checks
                        .iter()
                        .filter(|(checked, _)| *checked == seat)
                        .map(|&(_, by)| story::seat(&self.game, by))
                        .collect(),
                }
            })
            .collect();
        let turn = self.turn();
        let house = self.house_lines();
        let votes = self
            .motions
            .iter()
            .map(|m| {
                (
                    Sentence::from(format!("#{} ", m.number)) + self.describe(&m.motion),
                    m.deadline,
                )
            })
            .collect();
        let last_round = match self.holder() {
            Some(next) => self.story_since(next),
            None => story::line(&self.told[self.told.len().saturating_sub(1)..]),
        };
        Panel {
            status: self.life,
            paused: self.paused_at.is_some(),
            result: outcome.as_ref().map(|o| self.outcome_text(o)),
            seats,
            turn,
            turn_timer_hours: self.timers.turn_timer_hours,
            house,
            votes,
            last_round,
        }
    }

    /// Where `seat` stands: won, drew, still in, or how it left.
    fn standing(&self, seat: Seat, outcome: Option<&Outcome>, active: &[Seat]) -> SeatStanding {
        match outcome {
            Some(Outcome::Win { winners, .. }) if winners.contains(&seat) => SeatStanding::Won,
            Some(Outcome::Draw { seats, .. }) if seats.contains(&seat) => SeatStanding::Drew,
            _ if active.contains(&seat) && self.life != Status::Finished => SeatStanding::In,
            _ => self
                .departure(seat)
                .map_or(SeatStanding::Out, SeatStanding::Left),
        }
    }

    /// Whether `seat` left the game (resigned, was expelled, conceded, lost on time).
    pub fn has_left(&self, seat: Seat) -> bool {
        self.departure(seat).is_some()
    }

    /// How `seat` left the game, if it did (the last departure recorded for it).
    fn departure(&self, seat: Seat) -> Option<Departure> {
        self.record
            .iter()
            .rev()
            .find_map(|r| match Line::parse(&self.game, &r.line) {
                Ok(Line::Depart { seat: s, how }) if s == seat => Some(how),
                _ => None,
            })
    }
}
