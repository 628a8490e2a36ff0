//! The game record (`games::record`) at the table: export a stored game, import one as a new
//! game. Every imported line is replayed through the host before anything is stored.

use super::event::{self, AdminAction, Event, GameId, Motion, PlayerId, Setup, Timers};
use super::say::Refused;
use super::state::{CLOCK_HEADER, ClockHeader, moves_clocks};
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

/// The record's `clock` header, checked: a time for each line, times in order and not after
/// `now`, and only absences and pauses between the lines.
fn clock_header(record: &GameRecord, now: i64) -> Result<Option<ClockHeader>, Refused> {
    let Some(text) = record.header(CLOCK_HEADER) else {
        return Ok(None);
    };
    let bad = |why: String| Refused::BadRecord(format!("bad clock: {why}"));
    let h: ClockHeader = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    if h.at.len() != record.lines.len() {
        return Err(bad(format!(
            "{} times for {} lines",
            h.at.len(),
            record.lines.len()
        )));
    }
    let mut times = vec![h.start];
    times.extend(&h.at);
    times.extend(h.table.iter().map(|e| e.at));
    if times.iter().any(|&t| t > now) {
        return Err(bad("a time after now".into()));
    }
    if h.at.windows(2).any(|w| w[1] < w[0]) || h.at.first().is_some_and(|&t| t < h.start) {
        return Err(bad("the lines' times are not in order".into()));
    }
    if let Some(e) = h
        .table
        .iter()
        .find(|e| !moves_clocks(&e.event) || e.after > h.at.len())
    {
        return Err(bad(format!(
            "{} after line {} is not an absence or a pause between the lines",
            e.event.name(),
            e.after
        )));
    }
    Ok(Some(h))
}

/// Play every line of `record` at a new table from `setup`: the state it ends in and the events
/// to store. With a `clock` header the lines (and the absences and pauses between them) are
/// played at their times, so the clocks come out as they were; the turn under way then starts
/// afresh at `now` (the clock stood still between the export and the import).
fn replay(
    record: &GameRecord,
    setup: &Setup,
    now: i64,
) -> Result<(GameState, Vec<EventRow>), HostError> {
    let clock = clock_header(record, now)?;
    let start = clock.as_ref().map_or(now, |c| c.start);
    let mut state = GameState::new(0, setup.clone(), start)?;
    let mut events = Vec::new();
    let mut push = |state: &mut GameState, ev: Event, at: i64, what: &str| {
        let version = state.version();
        state
            .apply(&ev, at)
            .map_err(|e| Refused::BadRecord(format!("{what}: {e}")))?;
        events.push(EventRow {
            version: version as i64,
            kind: ev.name().to_string(),
            actor: None,
            body: to_json(&ev)?,
            at,
        });
        Ok::<(), HostError>(())
    };
    let table = |after: usize| {
        clock
            .iter()
            .flat_map(|c| c.table.iter())
            .filter(move |e| e.after == after)
    };
    for (i, text) in record.lines.iter().enumerate() {
        for e in table(i) {
            push(
                &mut state,
                e.event.clone(),
                e.at,
                &format!("clock before line {}", i + 1),
            )?;
        }
        let at = clock.as_ref().map_or(now, |c| c.at[i]);
        let evs = Line::parse(state.position(), text)
            .map_err(|e| Refused::BadRecord(e.to_string()))
            .and_then(|l| line_events(&state, &l))
            .map_err(|e| Refused::BadRecord(format!("line {}: {e}", i + 1)))?;
        for ev in evs {
            push(&mut state, ev, at, &format!("move line {} ({text})", i + 1))?;
        }
    }
    if let Some(c) = &clock {
        for e in table(record.lines.len()) {
            push(
                &mut state,
                e.event.clone(),
                e.at,
                "clock after the last line",
            )?;
        }
        // The time between the export and the import does not count against anyone.
        let last = c.at.iter().chain(c.table.iter().map(|e| &e.at)).max();
        let last = last.copied().unwrap_or(c.start);
        if state.holder().is_some() && state.paused_at().is_none() && last < now {
            for (action, at) in [(AdminAction::Pause, last), (AdminAction::Resume, now)] {
                push(&mut state, Event::Admin { action }, at, "clock at import")?;
            }
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
        // The game's clocks start when the exported game started.
        let created = state.created();
        let fresh = GameState::new(0, setup.clone(), created)?;
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
                    now: created,
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
                lease: None,
            })
            .await?;
        Ok(id)
    }
}
