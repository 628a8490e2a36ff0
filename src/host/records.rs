//! The game record (`games::record`) at the table: export a stored game, import one as a new
//! game. Every imported line is replayed through the host before anything is stored.

use super::event::{self, Event, GameId, Motion, PlayerId, Setup, Timers};
use super::say::Refused;
use super::{GameHost, GameState, HostError, Status, finish_of, house_json, to_json};
use crate::games::Departure;
use crate::games::record::{GameRecord, Line};
use crate::store::{EventRow, GameWrite, NewGame};

/// The record's extra header the host writes and reads: its timers.
const TIMERS: &str = "timers";

/// The events one record line stands for at `state`'s table.
fn line_events(state: &GameState, line: &Line) -> Result<Vec<Event>, Refused> {
    let one = match *line {
        Line::Draw => Event::Enacted {
            motion: Motion::Draw,
        },
        Line::Depart { seat, how } => match how {
            Departure::Resign => Event::Resigned { seat },
            Departure::Concede => Event::Conceded { seat },
            Departure::Expel => Event::Enacted {
                motion: Motion::Expel { seat },
            },
            // A time loss: the holder's turn timer ran out and the other seat claimed the game.
            Departure::TimeOut => {
                let other = state.active().into_iter().find(|&s| s != seat);
                let other = other.ok_or_else(|| Refused::BadRecord("nobody claims it".into()))?;
                return Ok(vec![
                    Event::TurnTimedOut { seat },
                    Event::TimeClaimed { seat: other },
                ]);
            }
        },
        Line::Skip { seat } => Event::Enacted {
            motion: Motion::Skip { seat },
        },
        Line::Move {
            seat: Some(seat),
            ref text,
        } => Event::Committed {
            seat,
            text: text.clone(),
        },
        Line::Move {
            seat: None,
            ref text,
        } => {
            let head = text.split_whitespace().next().unwrap_or_default();
            return Err(Refused::BadRecord(format!("no seat called {head:?}")));
        }
    };
    Ok(vec![one])
}

/// Play every line of `record` at a new table from `setup`: the state it ends in and the events
/// to store.
fn replay(
    record: &GameRecord,
    setup: &Setup,
    now: i64,
) -> Result<(GameState, Vec<EventRow>), HostError> {
    let mut state = GameState::new(0, setup.clone(), now)?;
    let mut events = Vec::new();
    for (i, text) in record.lines.iter().enumerate() {
        let evs = Line::parse(state.position(), text)
            .map_err(|e| Refused::BadRecord(e.to_string()))
            .and_then(|l| line_events(&state, &l))
            .map_err(|e| Refused::BadRecord(format!("line {}: {e}", i + 1)))?;
        for ev in evs {
            let version = state.version();
            state
                .apply(&ev, now)
                .map_err(|e| Refused::BadRecord(format!("move line {} ({text}): {e}", i + 1)))?;
            events.push(EventRow {
                version: version as i64,
                kind: ev.name().to_string(),
                actor: None,
                body: to_json(&ev)?,
                at: now,
            });
        }
    }
    Ok((state, events))
}

impl GameHost {
    /// The game as text (setup, house rules, moves): the replay format.
    pub async fn export(&self, game: GameId) -> Result<String, HostError> {
        Ok(self.state(game).await?.export())
    }

    /// Create a game from exported text, seating `players` in order. Every line is checked by
    /// replaying it before anything is stored.
    pub async fn import(&self, text: &str, players: &[PlayerId]) -> Result<GameId, HostError> {
        let record = GameRecord::parse(text).map_err(|e| Refused::BadRecord(e.to_string()))?;
        let timers: Timers = match record.header(TIMERS) {
            Some(t) => serde_json::from_str(t)
                .map_err(|e| Refused::BadRecord(format!("bad timers: {e}")))?,
            None => Timers::default(),
        };
        let house = if record.house.is_object() {
            record.house.clone()
        } else {
            event::empty_object()
        };
        let position = match record.header("position") {
            Some(p) => Some(
                serde_json::from_str(p)
                    .map_err(|e| Refused::BadRecord(format!("bad position: {e}")))?,
            ),
            None => None,
        };
        let setup = Setup {
            kind: record.kind,
            players: players.to_vec(),
            house_rules: house,
            timers,
            position,
        };
        if let Some(n) = record.seats
            && n != players.len()
        {
            return Err(Refused::SeatsMismatch {
                seats: n,
                given: players.len(),
            }
            .into());
        }
        let now = self.now();
        let (mut state, events) = replay(&record, &setup, now)?;
        let fresh = GameState::new(0, setup.clone(), now)?;
        let id = self
            .store
            .create_game(
                &NewGame {
                    kind: setup.kind.key(),
                    status: fresh.status().id(),
                    setup: &to_json(&setup)?,
                    house_rules: &house_json(&fresh),
                    players,
                    to_move: fresh.holder_player(),
                    next_due: fresh.next_due(),
                    channel: None,
                    now,
                },
                |_| Ok(Vec::new()),
            )
            .await?;
        state.set_id(id);
        let finish = (state.status() == Status::Finished).then(|| finish_of(&state));
        self.store
            .append(&GameWrite {
                game: id,
                expected: 0,
                events,
                status: state.status().id(),
                house_rules: house_json(&state),
                to_move: state.holder_player(),
                next_due: state.next_due(),
                now,
                replacements: Vec::new(),
                finish,
                outbox: Vec::new(),
            })
            .await?;
        Ok(id)
    }
}
