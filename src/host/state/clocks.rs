//! Per-player clocks (issue 22): each turn the Token holder has the turn timer's hours free;
//! past them their bank drains; when both are spent the turn has timed out (the stalled-player
//! procedure, or a claim on time with two seats left). After each of their moves a seat's bank
//! grows by the increment (Fischer). A player may be away: their clocks stop (and reminders with
//! them) until they come back or the away time they asked for, within the game's allowance, is
//! over. Everything here is worked out from the events and the times they were stored at, so a
//! replay (or an imported record with its times) gives the same clocks.

use super::super::effect::Effect;
use super::super::error::HostError;
use serde::{Deserialize, Serialize};

use super::super::event::{AdminAction, Event, Millis, Timers};
use super::{GameState, HOUR, Refused, say};
use crate::games::Seat;

/// A seat's player is away: their clocks stand still from `since` until `until` (or until they
/// come back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Away {
    pub since: Millis,
    pub until: Millis,
    pub reason: Option<String>,
}

/// The record header with the times of the lines and the events that moved the clocks.
pub const CLOCK_HEADER: &str = "clock";

/// The `clock` header of a record: when the game started, when each line was played, and the
/// absences and pauses between them (`after`: how many lines came before).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockHeader {
    pub start: Millis,
    pub at: Vec<Millis>,
    #[serde(default)]
    pub table: Vec<ClockEvent>,
}

/// An event of the clock header.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockEvent {
    pub after: usize,
    pub at: Millis,
    pub event: Event,
}

/// Whether an event moves the clocks without being a record line: an absence or a pause.
pub fn moves_clocks(ev: &Event) -> bool {
    matches!(
        ev,
        Event::Away { .. }
            | Event::Back { .. }
            | Event::Admin {
                action: AdminAction::Pause | AdminAction::Resume
            }
    )
}

/// The longest an away reason may be.
pub const AWAY_REASON_MAX: usize = 100;

impl Timers {
    /// Whether a turn can time out at all.
    pub fn clocked(&self) -> bool {
        self.turn_timer_hours > 0 || self.bank_hours > 0
    }

    /// The bank each seat starts with.
    pub fn bank_start(&self) -> Millis {
        i64::from(self.bank_hours) * HOUR
    }
}

impl GameState {
    /// The record's `clock` header for this game.
    pub fn clock_header(&self) -> serde_json::Value {
        let header = ClockHeader {
            start: self.created,
            at: self.record.iter().map(|r| r.at).collect(),
            table: self
                .clock_log
                .iter()
                .map(|(after, at, event)| ClockEvent {
                    after: *after,
                    at: *at,
                    event: event.clone(),
                })
                .collect(),
        };
        serde_json::to_value(header).unwrap_or(serde_json::Value::Null)
    }

    /// When the game was created (its clocks' start).
    pub fn created(&self) -> Millis {
        self.created
    }

    /// `seat`'s bank now (its time left beyond the free turn time), not counting the turn
    /// under way.
    pub fn bank(&self, seat: Seat) -> Millis {
        self.banks.get(seat.index()).copied().unwrap_or(0)
    }

    /// Whether `seat`'s player is away, and until when.
    pub fn away(&self, seat: Seat) -> Option<&Away> {
        self.away.get(seat.index()).and_then(Option::as_ref)
    }

    /// Away time `seat` has used in this game (milliseconds), a current absence included up to
    /// `now`.
    pub fn away_used(&self, seat: Seat, now: Millis) -> Millis {
        let done = self.away_used.get(seat.index()).copied().unwrap_or(0);
        done + self
            .away(seat)
            .map_or(0, |a| (now.min(a.until) - a.since).max(0))
    }

    /// Away time `seat` may still take in this game.
    pub fn away_left(&self, seat: Seat, now: Millis) -> Millis {
        (i64::from(self.timers.away_hours) * HOUR - self.away_used(seat, now)).max(0)
    }

    /// When the Token holder's turn times out: the free turn time plus their bank, counted from
    /// the start of the turn (moved forward by pauses and absences). `None` when turns never
    /// time out, while the game is paused, or while the holder is away.
    pub fn deadline(&self) -> Option<Millis> {
        let seat = self.holder()?;
        if !self.timers.clocked() || self.paused_at.is_some() || self.away(seat).is_some() {
            return None;
        }
        Some(self.turn_started + i64::from(self.timers.turn_timer_hours) * HOUR + self.bank(seat))
    }

    /// The Token holder's time left at `now` (free turn time and bank), while a clock runs.
    pub fn time_left(&self, now: Millis) -> Option<Millis> {
        self.deadline().map(|d| (d - now).max(0))
    }

    /// `seat` ends its turn at `at`: the time past the free turn time comes off its bank; a
    /// move (not a skip) earns the increment.
    pub(super) fn spend(&mut self, seat: Seat, at: Millis, moved: bool) {
        if !self.timers.clocked() {
            return;
        }
        let free = i64::from(self.timers.turn_timer_hours) * HOUR;
        let over = (at - self.turn_started - free).max(0);
        let add = if moved {
            i64::from(self.timers.bank_add_hours) * HOUR
        } else {
            0
        };
        if let Some(b) = self.banks.get_mut(seat.index()) {
            *b = (*b - over).max(0) + add;
        }
    }

    /// Every seat's bank starts afresh (the timers changed before the first pass).
    pub(super) fn reset_banks(&mut self) {
        let start = self.timers.bank_start();
        for b in &mut self.banks {
            *b = start;
        }
    }

    /// A newcomer in `seat` gets a full bank.
    pub(super) fn reset_bank(&mut self, seat: Seat) {
        let start = self.timers.bank_start();
        if let Some(b) = self.banks.get_mut(seat.index()) {
            *b = start;
        }
        if let Some(a) = self.away.get_mut(seat.index()) {
            *a = None;
        }
    }

    /// `seat`'s player goes away from `at` until `until` (already cut to the allowance).
    pub(super) fn go_away(
        &mut self,
        seat: Seat,
        until: Millis,
        reason: Option<&str>,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.live()?;
        self.require_active(seat)?;
        if self.away(seat).is_some() {
            return Err(Refused::AlreadyAway.into());
        }
        if until <= at || until - at > self.away_left(seat, at) {
            return Err(Refused::AwayTooLong(self.away_left(seat, at) / HOUR).into());
        }
        if let Some(r) = reason
            && r.chars().count() > AWAY_REASON_MAX
        {
            return Err(Refused::AwayReason(AWAY_REASON_MAX).into());
        }
        if let Some(a) = self.away.get_mut(seat.index()) {
            *a = Some(Away {
                since: at,
                until,
                reason: reason.map(str::to_string),
            });
        }
        fx.push(Effect::Say {
            game: self.id,
            text: say::away(&self.seat_title(seat), until, reason),
        });
        Ok(())
    }

    /// `seat`'s player is back (early, or their away time is over): the turn clock of a Token
    /// holder moves forward by the time it stood still.
    pub(super) fn come_back(
        &mut self,
        seat: Seat,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        if self.over() {
            return Err(Refused::GameOver.into());
        }
        let Some(away) = self.away.get_mut(seat.index()).and_then(Option::take) else {
            return Err(Refused::NotAway.into());
        };
        let back = at.min(away.until);
        if let Some(u) = self.away_used.get_mut(seat.index()) {
            *u += (back - away.since).max(0);
        }
        if self.holder() == Some(seat) {
            // While paused, the pause moves the clock on resume: only the time before it counts.
            let end = self.paused_at.map_or(back, |p| p.min(back));
            self.turn_started += (end - away.since.max(self.turn_started)).max(0);
        }
        fx.push(Effect::Say {
            game: self.id,
            text: say::back(&self.seat_title(seat)).into(),
        });
        Ok(())
    }

    /// A pause of `d` milliseconds ended: absences under way stood still with the game.
    pub(super) fn shift_away(&mut self, d: Millis) {
        for a in self.away.iter_mut().flatten() {
            a.since += d;
        }
    }
}
