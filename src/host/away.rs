//! Away (issue 22): a player stops their clocks in all their games at once, within each game's
//! away allowance, and comes back early or by acting.

use super::event::{Event, GameId, Millis, PlayerId};
use super::say::Refused;
use super::state::Status;
use super::{Effect, GameHost, HostError};

/// The longest absence one `away` asks for (each game cuts it to its own allowance).
pub const AWAY_MAX: Millis = 30 * 24 * 3_600_000;

/// What `away` or `back` did in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AwayGame {
    pub game: GameId,
    pub kind: String,
    /// Away until then; `None` when not away (after `back`, or when the game refused).
    pub until: Option<Millis>,
    /// Away time still allowed in this game (milliseconds), an absence under way counted.
    pub left: Millis,
    /// Why this game refused (no allowance left, the game is paused...).
    pub refused: Option<String>,
}

/// What `away` or `back` did: one line per game, and what the tables are told.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AwayReport {
    pub games: Vec<AwayGame>,
    pub effects: Vec<Effect>,
}

impl GameHost {
    /// `player` goes away for `duration` in every game they play that is under way (a game
    /// with less away time left cuts it short): their clocks and reminders stop there. An
    /// absence under way is replaced by the new one. The games `excluded` (of a place the
    /// front end no longer admits the player to: a server they left or were banned from) are
    /// left as they are, and say why.
    pub async fn away(
        &self,
        player: PlayerId,
        duration: Millis,
        reason: Option<&str>,
        excluded: &[GameId],
    ) -> Result<AwayReport, HostError> {
        if duration <= 0 || duration > AWAY_MAX {
            return Err(Refused::AwayLength(AWAY_MAX / 86_400_000).into());
        }
        // One line, as the panel shows it.
        let reason = reason
            .map(|r| r.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|r| !r.is_empty());
        let reason = reason.as_deref();
        if let Some(r) = reason
            && r.chars().count() > super::state::AWAY_REASON_MAX
        {
            return Err(Refused::AwayReason(super::state::AWAY_REASON_MAX).into());
        }
        self.each_game(player, |state, now| {
            if excluded.contains(&state.id()) {
                return Err(Refused::LeftPlace);
            }
            let seat = state.seat_of(player).ok_or(Refused::NotSeated)?;
            let mut events = Vec::new();
            let mut left = state.away_left(seat, now);
            if state.away(seat).is_some() {
                events.push(Event::Back { seat });
                // What the absence under way used comes back into the count.
                left = state.away_left(seat, now);
            }
            if left <= 0 {
                return Err(Refused::AwayTooLong(0));
            }
            events.push(Event::Away {
                seat,
                until: now + duration.min(left),
                reason: reason.map(str::to_string),
            });
            Ok(events)
        })
        .await
    }

    /// `player` is back in every game where they are away.
    pub async fn back(&self, player: PlayerId) -> Result<AwayReport, HostError> {
        let report = self
            .each_game(player, |state, _| {
                let seat = state.seat_of(player).ok_or(Refused::NotSeated)?;
                match state.away(seat) {
                    Some(_) => Ok(vec![Event::Back { seat }]),
                    None => Ok(Vec::new()),
                }
            })
            .await?;
        Ok(report)
    }

    /// Where `player` is away and how much away time each of their games still allows.
    pub async fn away_status(&self, player: PlayerId) -> Result<Vec<AwayGame>, HostError> {
        let mut out = Vec::new();
        let now = self.now();
        for summary in self.store.games_of(player, false).await? {
            if ![
                Status::HouseRules.id(),
                Status::Playing.id(),
                Status::Paused.id(),
            ]
            .contains(&summary.status)
            {
                continue;
            }
            let state = self.state(summary.id).await?;
            let Some(seat) = state.seat_of(player) else {
                continue;
            };
            out.push(AwayGame {
                game: summary.id,
                kind: summary.kind,
                until: state.away(seat).map(|a| a.until),
                left: state.away_left(seat, now),
                refused: None,
            });
        }
        Ok(out)
    }

    /// Store the events `plan` gives for each unfinished game `player` sits in, under the
    /// game's lock; a game `plan` refuses is reported and left unchanged.
    async fn each_game(
        &self,
        player: PlayerId,
        plan: impl Fn(&super::GameState, Millis) -> Result<Vec<Event>, Refused>,
    ) -> Result<AwayReport, HostError> {
        let mut report = AwayReport::default();
        let live = [Status::HouseRules.id(), Status::Playing.id()];
        for summary in self.store.games_of(player, false).await? {
            if !live.contains(&summary.status) {
                continue;
            }
            let game = summary.id;
            let slot = self.slot(game);
            let mut cached = slot.lock().await;
            let mut state = self.load(game, &mut cached).await?;
            let now = self.now();
            let events = match plan(&state, now) {
                Ok(events) if events.is_empty() => continue,
                Ok(events) => events,
                Err(r) => {
                    report.games.push(AwayGame {
                        game,
                        kind: summary.kind,
                        until: None,
                        left: allowance(&state, player, now),
                        refused: Some(r.to_string()),
                    });
                    continue;
                }
            };
            // Check every event on a copy first: a game stores all of them or none.
            let mut probe = state.clone();
            let checked = events
                .iter()
                .try_for_each(|ev| probe.apply(ev, now).map(|_| ()));
            if let Err(e) = checked {
                report.games.push(AwayGame {
                    game,
                    kind: summary.kind,
                    until: None,
                    left: allowance(&state, player, now),
                    refused: Some(e.to_string()),
                });
                continue;
            }
            for ev in events {
                match self.commit(&mut state, ev, Some(player), None).await {
                    Ok(mut fx) => report.effects.append(&mut fx),
                    Err(e) => {
                        *cached = None;
                        return Err(e);
                    }
                }
            }
            self.keep(game, &mut cached, &state);
            let until = state
                .seat_of(player)
                .and_then(|s| state.away(s))
                .map(|a| a.until);
            report.games.push(AwayGame {
                game,
                kind: summary.kind,
                until,
                // What is left once this absence has run its course.
                left: allowance(&state, player, until.unwrap_or(now)),
                refused: None,
            });
        }
        Ok(report)
    }
}

/// The away time `player` has left in `state`'s game.
fn allowance(state: &super::GameState, player: PlayerId, now: Millis) -> Millis {
    state.seat_of(player).map_or(0, |s| state.away_left(s, now))
}
