//! Seats that leave (resign, concede, are expelled) and seats taken over by someone else
//! (§8.3, §8.5). What a departure does to the board is the game's rule (`Rules::depart`); the
//! host keeps the seats, the points forfeited and the motions made moot.

use super::super::effect::Effect;
use super::super::error::HostError;
use super::super::event::{Millis, Motion, PlayerId};
use super::motions::against;
use super::{Departure, GameState, Line, PointEntry, Refused, SeatState, rules, say, story};
use crate::games::Seat;
use crate::host::bot_level;

impl GameState {
    /// A seat leaves the game.
    pub(super) fn leave(
        &mut self,
        seat: Seat,
        how: Departure,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.live()?;
        self.require_active(seat)?;
        self.depart(seat, how, at, fx)
    }

    /// A seat resigns proposing `player` as its replacement: a vote on them opens.
    pub(super) fn resign_for(
        &mut self,
        based: u64,
        seat: Seat,
        player: PlayerId,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.live()?;
        self.require_active(seat)?;
        self.check_newcomer(player)?;
        if let Some(s) = self.seats.get_mut(seat.index()) {
            s.resigning = true;
        }
        self.open_motion(based, seat, Motion::Replace { seat, player }, at, fx)
    }

    /// With two seats left, `seat` claims the game on time: the other seat holds the Token and
    /// its turn timer ran out, so it loses on time (the game's `timeout` departure).
    pub(super) fn claim_time(
        &mut self,
        seat: Seat,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.live()?;
        self.require_active(seat)?;
        let other = self.opponent(seat).ok_or(Refused::ClaimNeedsTwo)?;
        if self.holder() == Some(seat) {
            return Err(Refused::ClaimOwnTurn.into());
        }
        if !self.stalled(other) {
            return Err(Refused::NotOutOfTime(self.seat_title(other)).into());
        }
        self.depart(other, Departure::TimeOut, at, fx)
    }

    /// A resigner (or expelled player) forfeits everything but loss points (§7).
    fn forfeit(&mut self, player: PlayerId) {
        for p in &mut self.points {
            if p.player == player && !p.loss {
                p.forfeited = true;
            }
        }
    }

    pub(super) fn depart(
        &mut self,
        seat: Seat,
        how: Departure,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        let player = self.require_seat(seat)?.player;
        let holder_before = self.holder();
        if how != Departure::Concede {
            self.forfeit(player);
        }
        let before = self.game.clone();
        self.game.depart(seat, how).map_err(rules)?;
        self.take_points();
        self.note(Some(seat), Line::Depart { seat, how }, at);
        self.tell(story::told_departure(&before, seat, how, &self.game));
        if let Some(s) = self.seats.get_mut(seat.index()) {
            s.resigning = false;
        }
        self.forget_queue(seat);
        // Motions about a seat that left are moot.
        self.motions.retain(|m| against(&m.motion) != Some(seat));
        fx.push(Effect::Say {
            game: self.id,
            text: say::departed(&self.seat_title(seat), how.verb()).into(),
        });
        if self.holder() != holder_before {
            self.new_turn(at, fx);
            self.announce_turn(fx);
        }
        Ok(())
    }

    /// A player who may take over a seat: anyone not already playing here, or a bot (one bot
    /// player may hold several seats).
    pub(super) fn check_newcomer(&self, player: PlayerId) -> Result<(), Refused> {
        if bot_level(player).is_none() && self.seat_of(player).is_some() {
            return Err(Refused::AlreadyPlays);
        }
        Ok(())
    }

    /// `player` takes over `seat` (§8.3 [REC]: the seat continues under the new person). The
    /// one who leaves forfeits their points and takes the game's takeover points (after an
    /// expulsion, the expulsion's too). A newcomer holding the Token starts a fresh turn clock.
    pub(super) fn take_over(
        &mut self,
        seat: Seat,
        player: PlayerId,
        expelled: bool,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.require_active(seat)?;
        let old = self.require_seat(seat)?.player;
        if expelled {
            fx.push(Effect::Say {
                game: self.id,
                text: say::departed(&self.seat_title(seat), Departure::Expel.verb()).into(),
            });
        }
        self.forfeit(old);
        for p in self.game.takeover_points(seat, expelled) {
            self.points.push(PointEntry {
                player: old,
                seat,
                points: p.points,
                reason: p.reason,
                loss: p.loss,
                forfeited: false,
            });
        }
        if let Some(s) = self.seats.get_mut(seat.index()) {
            *s = SeatState::new(player);
        }
        self.reset_bank(seat);
        // The newcomer does not inherit the old player's queued move.
        self.forget_queue(seat);
        self.replacements.push((seat, player, self.version));
        self.tell(story::told_takeover(
            &self.game,
            seat,
            bot_level(player).is_some(),
        ));
        fx.push(Effect::Ping {
            game: self.id,
            player,
            text: say::now_you_play(&self.seat_title(seat), self.id).into(),
        });
        // A newcomer holding the Token gets a whole turn.
        if self.holder() == Some(seat) {
            self.restart_clock(at, fx);
        }
        Ok(())
    }
}
