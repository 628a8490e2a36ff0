//! Time at the table: what is due when (challenge windows, ballots, reminders, the turn timer),
//! and the admin's abort, pause and resume (a pause stops every clock).

use super::super::effect::Effect;
use super::super::error::HostError;
use super::super::event::{AdminAction, Event, Millis, PlayerId, REMINDER_HOURS};
use super::{GameState, HOUR, MINUTE, Refused, Status, say};
use crate::games::Seat;
use crate::host::quiet::Quiet;

impl GameState {
    /// The earliest moment a timer needs the host (`tick`), if any.
    pub fn next_due(&self) -> Option<Millis> {
        if self.live().is_err() {
            return None;
        }
        let mut due: Vec<Millis> = self.motions.iter().map(|m| m.deadline).collect();
        // A bot waits for nobody: a game a bot must act in is due at once, so `tick` drives it
        // (after a restart too).
        if self.bot_action().is_some() {
            due.push(0);
        }
        if let Some(st) = &self.staged
            && !st.waiting().is_empty()
        {
            due.push(st.opened + self.window_minutes() * MINUTE);
        }
        // An absence ends by itself when its time is over.
        due.extend(self.away.iter().flatten().map(|a| a.until));
        // A player away is neither reminded nor timed out: their clock stands still.
        if self
            .holder()
            .is_some_and(|h| self.bot(h).is_none() && self.away(h).is_none())
        {
            if self.timers.reminders
                && let Some(h) = REMINDER_HOURS.get(self.reminded as usize)
            {
                let at = self.turn_started + h * HOUR;
                due.push(self.quiet().map_or(at, |q| q.defer(at)));
            }
            if !self.timed_out
                && let Some(d) = self.deadline()
            {
                due.push(d);
            }
        }
        due.into_iter().min()
    }

    /// The timer events due at `now`, in the order they should be applied.
    pub fn due_events(&self, now: Millis) -> Vec<Event> {
        let mut out = Vec::new();
        if self.live().is_err() {
            return out;
        }
        if let Some(st) = &self.staged
            && !st.waiting().is_empty()
            && now >= st.opened + self.window_minutes() * MINUTE
        {
            out.push(Event::WindowClosed);
        }
        for m in &self.motions {
            if now >= m.deadline {
                out.push(Event::MotionExpired { motion: m.id });
            }
        }
        for seat in self.all_seats() {
            if self.away(seat).is_some_and(|a| now >= a.until) {
                out.push(Event::Back { seat });
            }
        }
        // A bot seat is never reminded nor put to a stalled-player vote; a player away is
        // neither while away.
        if let Some(seat) = self
            .holder()
            .filter(|&h| self.bot(h).is_none() && self.away(h).is_none())
        {
            // In the holder's quiet hours a reminder waits for their end.
            if self.timers.reminders && !self.quiet().is_some_and(|q| q.is_quiet(now)) {
                // Only the highest level due is sent: a host down for a day does not spam.
                let level = REMINDER_HOURS
                    .iter()
                    .filter(|&&h| now >= self.turn_started + h * HOUR)
                    .count() as u8;
                if level > self.reminded {
                    out.push(Event::Reminded { seat, level });
                }
            }
            if !self.timed_out && self.deadline().is_some_and(|d| now >= d) {
                out.push(Event::TurnTimedOut { seat });
            }
        }
        out
    }

    /// The Token holder's quiet hours, if the host gave them for the holder of now.
    fn quiet(&self) -> Option<&Quiet> {
        match &self.holder_quiet {
            Some((p, q)) if Some(*p) == self.holder_player() => Some(q),
            _ => None,
        }
    }

    /// When the Token holder's quiet hours end, if `now` is in them.
    pub fn quiet_end(&self, now: Millis) -> Option<Millis> {
        self.quiet()
            .filter(|q| q.is_quiet(now))
            .map(|q| q.defer(now))
    }

    /// The quiet hours of `player`, the Token holder (their settings; see `next_due`).
    pub fn set_holder_quiet(&mut self, player: PlayerId, quiet: Option<Quiet>) {
        self.holder_quiet = quiet.map(|q| (player, q));
    }

    pub(super) fn remind(
        &mut self,
        seat: Seat,
        level: u8,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.live()?;
        self.require_holder(seat)?;
        self.reminded = level;
        let player = self.player(seat);
        let hours = REMINDER_HOURS
            .get((level as usize).saturating_sub(1))
            .copied()
            .unwrap_or(0);
        let text = say::reminder(self.id, hours);
        fx.push(Effect::Ping {
            game: self.id,
            player,
            text: text.clone().into(),
        });
        if level >= 2 {
            fx.push(Effect::Dm {
                player,
                text: text.into(),
                about: Some(self.id),
            });
        }
        Ok(())
    }

    pub(super) fn time_out(&mut self, seat: Seat, fx: &mut Vec<Effect>) -> Result<(), HostError> {
        self.live()?;
        self.require_holder(seat)?;
        self.timed_out = true;
        // The turn lasted the free turn time and the bank.
        let held = self
            .deadline()
            .map_or(i64::from(self.timers.turn_timer_hours) * HOUR, |d| {
                d - self.turn_started
            });
        let (name, hours) = (&self.seat_title(seat), (held / HOUR) as u32);
        let text = match self.opponent(seat) {
            Some(other) => say::timed_out_claim(name, hours, &self.seat_title(other)),
            None => say::timed_out(name, hours),
        };
        fx.push(Effect::Say {
            game: self.id,
            text: text.into(),
        });
        Ok(())
    }

    /// The start could not be completed: the game ends aborted, silently (its players are told
    /// by the front end, where the game could not be).
    pub(super) fn abandon(&mut self) -> Result<(), HostError> {
        if self.over() {
            return Err(Refused::GameOver.into());
        }
        self.life = Status::Aborted;
        self.staged = None;
        self.motions.clear();
        Ok(())
    }

    pub(super) fn admin(
        &mut self,
        action: AdminAction,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        let game = self.id;
        let post = |fx: &mut Vec<Effect>, text: &str| {
            fx.push(Effect::Say {
                game,
                text: text.into(),
            })
        };
        match action {
            AdminAction::Abort => {
                if self.over() {
                    return Err(Refused::GameOver.into());
                }
                self.life = Status::Aborted;
                self.staged = None;
                self.motions.clear();
                post(fx, say::ABORTED);
                fx.push(Effect::CloseThread { game: self.id });
            }
            AdminAction::Pause => {
                self.live()?;
                self.paused_at = Some(at);
                post(fx, say::PAUSED);
            }
            AdminAction::Resume => {
                let since = self.paused_at.take().ok_or(Refused::NotPaused)?;
                // Every clock stops while paused: move the starts forward.
                let d = at - since;
                self.turn_started += d;
                if let Some(st) = &mut self.staged {
                    st.opened += d;
                }
                for m in &mut self.motions {
                    m.deadline += d;
                }
                self.shift_away(d);
                post(fx, say::RESUMED);
            }
        }
        Ok(())
    }
}
