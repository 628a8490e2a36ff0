//! Motions and votes (§8.1): who may propose what, who votes, how many yes votes pass it, and
//! what a passed (or failed) motion does.

use serde_json::Value;

use super::super::effect::Effect;
use super::super::error::HostError;
use super::super::event::{Millis, Motion, PlayerId, Timers};
use super::super::words::Sentence;
use super::{
    Awaited, Departure, GameState, HOUR, Line, OpenMotion, Refused, Status, rules, say, story,
};
use crate::games::Seat;
use crate::games::house_menu::{self, Allowed, HouseRule};
use crate::host::bot_level;

/// The host's own house rules (the fields of `Timers`), voted like the game's switches.
pub const TIMER_RULES: [HouseRule; 6] = [
    HouseRule {
        key: "turn_timer_hours",
        name: "Turn timer (hours)",
        about: "after this many hours without a move the Token holder is stalled (0: never)",
        allowed: Allowed::Number {
            min: 0,
            max: u32::MAX,
            offered: &[0, 6, 12, 24, 48, 72, 96, 168],
        },
    },
    HouseRule {
        key: "ballot_hours",
        name: "Ballot length (hours)",
        about: "ballots close after this many hours; a vote not cast counts as no",
        allowed: Allowed::Number {
            min: 0,
            max: u32::MAX,
            offered: &[1, 6, 12, 24, 48, 72],
        },
    },
    HouseRule {
        key: "reminders",
        name: "Reminders",
        about: "remind the Token holder after 1, 4 and 12 hours",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "bank_hours",
        name: "Time bank (hours)",
        about: "each player's bank: once the turn timer has run, it drains; then the turn times out",
        allowed: Allowed::Number {
            min: 0,
            max: 8_760,
            offered: &[0, 12, 24, 48, 72, 168],
        },
    },
    HouseRule {
        key: "bank_add_hours",
        name: "Bank added per move (hours)",
        about: "hours added to a player's bank after each of their moves",
        allowed: Allowed::Number {
            min: 0,
            max: 168,
            offered: &[0, 1, 2, 4, 12, 24],
        },
    },
    HouseRule {
        key: "away_hours",
        name: "Away allowance (hours)",
        about: "how long each player may be away in this game, in all; their clocks stop",
        allowed: Allowed::Number {
            min: 0,
            max: 8_760,
            offered: &[0, 24, 72, 168, 336],
        },
    },
];

impl Timers {
    /// Whether every timer is one the house rules allow (the lobby's settings are checked like
    /// a vote's value).
    pub fn check(&self) -> Result<(), Refused> {
        let values = serde_json::to_value(self).unwrap_or(Value::Null);
        for rule in TIMER_RULES {
            let value = &values[rule.key];
            if !rule.allowed.allows(value) {
                return Err(Refused::BadTimer {
                    key: rule.key.to_string(),
                    reason: format!("{value} is not allowed ({})", rule.allowed.describe()),
                });
            }
        }
        Ok(())
    }
}

fn is_timer(key: &str) -> bool {
    TIMER_RULES.iter().any(|r| r.key == key)
}

/// Merge `key = value` into a JSON object.
fn merged(obj: &Value, key: &str, value: &Value) -> Value {
    let mut m = obj.as_object().cloned().unwrap_or_default();
    m.insert(key.to_string(), value.clone());
    Value::Object(m)
}

/// The seat a motion is against (an expulsion, a replacement, a skip), if any.
pub(super) fn against(motion: &Motion) -> Option<Seat> {
    match motion {
        Motion::Expel { seat }
        | Motion::ExpelFor { seat, .. }
        | Motion::Replace { seat, .. }
        | Motion::Skip { seat } => Some(*seat),
        Motion::HouseRule { .. } | Motion::Draw | Motion::Team { .. } => None,
    }
}

/// Yes votes needed out of `n` voters: more than half; unanimity for expulsion, teams and a
/// draw (the last two agreeing, or everyone abandoning).
fn needed(motion: &Motion, n: usize) -> usize {
    match motion {
        Motion::Expel { .. } | Motion::ExpelFor { .. } | Motion::Team { .. } | Motion::Draw => n,
        _ => n / 2 + 1,
    }
}

impl GameState {
    pub(super) fn propose(
        &mut self,
        based: u64,
        seat: Seat,
        motion: &Motion,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.require_seat(seat)?;
        self.live()?;
        self.check_motion(seat, motion)?;
        if *motion == Motion::Draw {
            self.draw_asked = Some(self.record.len());
        }
        self.open_motion(based, seat, motion.clone(), at, fx)
    }

    pub(super) fn ballot(
        &mut self,
        motion: u64,
        seat: Seat,
        yes: bool,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.live()?;
        let i = self
            .motions
            .iter()
            .position(|m| m.id == motion)
            .ok_or(Refused::NoSuchMotion(self.motion_number(motion)))?;
        if !self.voters(&self.motions[i].motion).contains(&seat) {
            return Err(Refused::NotVoter.into());
        }
        let m = &mut self.motions[i];
        if m.yes.contains(&seat) || m.no.contains(&seat) {
            return Err(Refused::AlreadyVoted(m.number).into());
        }
        if yes {
            m.yes.push(seat);
        } else {
            m.no.push(seat);
        }
        self.settle_motion(motion, at, fx)
    }

    /// A ballot button names its motion: refused once that motion is no longer open.
    pub fn require_open_motion(&self, motion: u64) -> Result<(), Refused> {
        if self.motions.iter().any(|m| m.id == motion) {
            Ok(())
        } else {
            Err(Refused::StaleBallot(self.motion_number(motion)))
        }
    }

    /// The number players read for the motion `id` (1 for the game's first); an id of no
    /// motion of this game stands for itself.
    pub fn motion_number(&self, id: u64) -> u64 {
        self.motion_ids
            .iter()
            .position(|&m| m == id)
            .map_or(id, |i| i as u64 + 1)
    }

    /// The id of the game's motion number `number`, open or not.
    pub fn motion_by_number(&self, number: u64) -> Option<u64> {
        let i = usize::try_from(number.checked_sub(1)?).ok()?;
        self.motion_ids.get(i).copied()
    }

    /// A ballot closed before the motion passed: it fails.
    pub(super) fn expire(
        &mut self,
        motion: u64,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        let i = self
            .motions
            .iter()
            .position(|m| m.id == motion)
            .ok_or(Refused::NoSuchMotion(self.motion_number(motion)))?;
        let m = self.motions.remove(i);
        fx.push(Effect::Say {
            game: self.id,
            text: say::motion_expired(m.number, self.describe(&m.motion)),
        });
        self.failed(&m.motion, at, fx)
    }

    /// Refuse motions that make no sense now.
    fn check_motion(&self, by: Seat, motion: &Motion) -> Result<(), HostError> {
        if self.motions.iter().any(|m| m.motion == *motion) {
            return Err(Refused::MotionOpen.into());
        }
        // Two seats left: nobody votes the other out, skips or replaces them (a stalled opponent
        // loses on time when claimed instead).
        if let Some(seat) = against(motion)
            && self.opponent(by) == Some(seat)
        {
            return Err(Refused::AgainstOpponent.into());
        }
        match motion {
            Motion::HouseRule { key, value } => {
                if self.life != Status::HouseRules {
                    return Err(Refused::HouseRulesClosed.into());
                }
                self.with_house_rule(key, value)?;
            }
            Motion::Expel { seat } | Motion::ExpelFor { seat, .. } => {
                self.require_active(*seat)?;
                if let Motion::ExpelFor { player, .. } = motion {
                    self.check_newcomer(*player)?;
                }
                if *seat == by {
                    return Err(Refused::ExpelSelf.into());
                }
                if self.voters(motion).len() < 2 {
                    return Err(Refused::ExpelNeedsVoters.into());
                }
            }
            Motion::Replace { seat, player } => {
                self.require_active(*seat)?;
                self.check_newcomer(*player)?;
                self.check_replaceable(*seat)?;
            }
            Motion::Skip { seat } => self.check_skip(by, *seat)?,
            Motion::Draw => {
                if !self.active().contains(&by) {
                    return Err(Refused::NotVoter.into());
                }
            }
            Motion::Team {
                seat,
                members,
                mover,
            } => {
                self.require_active(*seat)?;
                let s = self.require_seat(*seat)?;
                if *mover != s.player && !members.contains(mover) {
                    return Err(Refused::MoverNotInTeam.into());
                }
                if members.iter().any(|&m| bot_level(m).is_some()) || self.bot(*seat).is_some() {
                    return Err(Refused::BotInTeam.into());
                }
                if members
                    .iter()
                    .any(|m| self.seat_of(*m).is_some_and(|x| x != *seat))
                {
                    return Err(Refused::MemberElsewhere.into());
                }
            }
        }
        Ok(())
    }

    /// A stalled Token holder's turn may be skipped by the others, where the game has a pass.
    fn check_skip(&self, by: Seat, seat: Seat) -> Result<(), HostError> {
        if self.bot(seat).is_some() {
            return Err(Refused::BotNeverStalls(self.seat_title(seat)).into());
        }
        if self.holder() != Some(seat) {
            return Err(Refused::NotHolder(self.seat_title(seat)).into());
        }
        if seat == by {
            return Err(Refused::SkipSelf.into());
        }
        if !self.stalled(seat) {
            return Err(Refused::SkipNotStalled(self.seat_title(seat)).into());
        }
        // Whether the game has a pass at all: ask it on a copy.
        self.game.clone().skip_turn().map_err(rules)
    }

    /// A seat may be replaced when it resigned asking for a replacement or is stalled.
    fn check_replaceable(&self, seat: Seat) -> Result<(), Refused> {
        if self.seats.get(seat.index()).is_some_and(|s| s.resigning) || self.stalled(seat) {
            return Ok(());
        }
        let name = self.seat_title(seat);
        Err(match self.bot(seat) {
            Some(_) => Refused::BotNeverStalls(name),
            None => Refused::ReplaceNotStalled(name),
        })
    }

    /// A new turn ends the last holder's stall: motions to skip them, or to replace a seat
    /// that did not resign, lapse.
    pub(super) fn lapse_stall_motions(&mut self, fx: &mut Vec<Effect>) {
        let (lapsed, open): (Vec<OpenMotion>, Vec<OpenMotion>) = std::mem::take(&mut self.motions)
            .into_iter()
            .partition(|m| match m.motion {
                Motion::Skip { .. } => true,
                Motion::Replace { seat, .. } => {
                    !self.seats.get(seat.index()).is_some_and(|s| s.resigning)
                }
                _ => false,
            });
        self.motions = open;
        for m in lapsed {
            if let Some(seat) = against(&m.motion) {
                fx.push(Effect::Say {
                    game: self.id,
                    text: say::motion_lapsed(
                        m.number,
                        self.describe(&m.motion),
                        &self.seat_title(seat),
                    ),
                });
            }
        }
    }

    /// The game's house rules and the timers with `key = value` voted in.
    fn with_house_rule(&self, key: &str, value: &Value) -> Result<(Value, Timers), HostError> {
        if is_timer(key) {
            let bad = |e: serde_json::Error| Refused::BadTimer {
                key: key.to_string(),
                reason: e.to_string(),
            };
            if let Some(rule) = TIMER_RULES.iter().find(|r| r.key == key)
                && !rule.allowed.allows(value)
            {
                return Err(Refused::BadTimer {
                    key: key.to_string(),
                    reason: format!("{value} is not allowed ({})", rule.allowed.describe()),
                }
                .into());
            }
            let t = serde_json::to_value(&self.timers).map_err(bad)?;
            let timers: Timers = serde_json::from_value(merged(&t, key, value)).map_err(bad)?;
            return Ok((self.house.clone(), timers));
        }
        let house = merged(&self.house, key, value);
        self.kind()
            .start(Some(self.seats.len()), Some(house.clone()))
            .map_err(rules)?;
        Ok((house, self.timers.clone()))
    }

    /// Who votes on a motion (§8.1): one vote per active seat; the seat a motion is about does
    /// not vote. Bots abstain on house rules and teams, which are the people's business: they
    /// are left out of the count, so they never block them.
    pub fn voters(&self, motion: &Motion) -> Vec<Seat> {
        let active = self.active();
        match motion {
            Motion::HouseRule { .. } | Motion::Team { .. } => active
                .into_iter()
                .filter(|&s| {
                    self.bot(s).is_none()
                        && !matches!(motion, Motion::Team { seat, .. } if *seat == s)
                })
                .collect(),
            Motion::Draw => active,
            Motion::Expel { seat }
            | Motion::ExpelFor { seat, .. }
            | Motion::Replace { seat, .. }
            | Motion::Skip { seat } => active.into_iter().filter(|s| s != seat).collect(),
        }
    }

    pub(super) fn open_motion(
        &mut self,
        id: u64,
        by: Seat,
        motion: Motion,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        let voters = self.voters(&motion);
        let yes = if voters.contains(&by) {
            vec![by]
        } else {
            Vec::new()
        };
        let what = self.describe(&motion);
        self.motion_ids.push(id);
        let number = self.motion_ids.len() as u64;
        let text = say::motion_opened(
            number,
            &self.seat_title(by),
            what,
            self.timers.ballot_hours,
            needed(&motion, voters.len()),
            voters.len(),
        );
        let asked: Vec<PlayerId> = voters
            .iter()
            .filter(|&&v| v != by)
            .map(|&v| self.player(v))
            .filter(|&p| bot_level(p).is_none())
            .collect();
        self.motions.push(OpenMotion {
            id,
            number,
            by,
            motion,
            yes,
            no: Vec::new(),
            deadline: at + self.timers.ballot_hours as i64 * HOUR,
        });
        let here = fx.len();
        self.settle_motion(id, at, fx)?;
        // One message: the motion said with its ballot and the voters' pings; a motion settled
        // as it opened (its proposer's yes was enough) is only said.
        let opened = if self.motions.iter().any(|m| m.id == id) {
            Effect::Ballot {
                game: self.id,
                motion: id,
                text,
                voters: asked,
            }
        } else {
            Effect::Say {
                game: self.id,
                text,
            }
        };
        fx.insert(here, opened);
        Ok(())
    }

    /// Pass or fail a motion once its result is certain.
    fn settle_motion(
        &mut self,
        id: u64,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        let Some(i) = self.motions.iter().position(|m| m.id == id) else {
            return Ok(());
        };
        let voters = self.voters(&self.motions[i].motion);
        let need = needed(&self.motions[i].motion, voters.len());
        let m = &self.motions[i];
        let yes = m.yes.iter().filter(|s| voters.contains(s)).count();
        let no = m.no.iter().filter(|s| voters.contains(s)).count();
        let passed = voters.is_empty() || yes >= need;
        let failed = !passed && voters.len() - no < need;
        if !passed && !failed {
            return Ok(());
        }
        let m = self.motions.remove(i);
        fx.push(Effect::Say {
            game: self.id,
            text: say::motion_settled(m.number, self.describe(&m.motion), passed),
        });
        if passed {
            self.enact(&m.motion, at, fx)
        } else {
            self.failed(&m.motion, at, fx)
        }
    }

    /// A failed replacement of a resigning player leaves the seat unreplaced (§8.3).
    fn failed(
        &mut self,
        motion: &Motion,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        if let Motion::Replace { seat, .. } = motion
            && self.seats.get(seat.index()).is_some_and(|s| s.resigning)
        {
            self.depart(*seat, Departure::Resign, at, fx)?;
        }
        Ok(())
    }

    /// Carry out a passed motion.
    pub(super) fn enact(
        &mut self,
        motion: &Motion,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        match motion {
            Motion::HouseRule { key, value } => {
                if self.life != Status::HouseRules {
                    return Err(Refused::HouseRulesClosed.into());
                }
                let (house, timers) = self.with_house_rule(key, value)?;
                self.game = self
                    .kind()
                    .start(Some(self.seats.len()), Some(house.clone()))
                    .map_err(rules)?;
                self.house = house;
                self.timers = timers;
                self.reset_banks();
                self.staged = None;
            }
            Motion::Expel { seat } => self.depart(*seat, Departure::Expel, at, fx)?,
            Motion::ExpelFor { seat, player } => self.take_over(*seat, *player, true, at, fx)?,
            Motion::Replace { seat, player } => self.take_over(*seat, *player, false, at, fx)?,
            Motion::Skip { seat } => {
                self.require_holder(*seat)?;
                self.game.skip_turn().map_err(rules)?;
                self.take_points();
                self.note(Some(*seat), Line::Skip { seat: *seat }, at);
                self.tell(story::told_skip(&self.game, *seat));
                self.spend(*seat, at, false);
                self.new_turn(at, fx);
                self.announce_turn(fx);
            }
            Motion::Draw => {
                self.game.agree_draw().map_err(rules)?;
                self.take_points();
                self.note(None, Line::Draw, at);
            }
            Motion::Team {
                seat,
                members,
                mover,
            } => {
                if let Some(s) = self.seats.get_mut(seat.index()) {
                    s.team = members.iter().copied().filter(|&m| m != *mover).collect();
                    if s.player != *mover && !s.team.contains(&s.player) {
                        s.team.push(s.player);
                    }
                    s.mover = *mover;
                }
            }
        }
        Ok(())
    }

    /// Every house rule of this game, the game's then the host's timers, with the value in force
    /// now (what a house rules menu lists).
    pub fn house_menu(&self) -> Vec<(HouseRule, Value)> {
        let game = house_menu::current(&self.game);
        let timers = serde_json::to_value(&self.timers).unwrap_or(Value::Null);
        let game_rules = house_menu::rules(self.kind())
            .iter()
            .map(|r| (*r, game[r.key].clone()));
        let timer_rules = TIMER_RULES.iter().map(|r| (*r, timers[r.key].clone()));
        game_rules.chain(timer_rules).collect()
    }

    /// The house rule `key` of this game (the game's or a timer) and its value now.
    pub fn house_rule(&self, key: &str) -> Option<(HouseRule, Value)> {
        self.house_menu().into_iter().find(|(r, _)| r.key == key)
    }

    /// The rules in force that differ from the spec's (and the timers from the host's
    /// defaults), one `Name: value` line each, in menu order; empty when all are the default.
    /// For the status panel.
    pub fn house_lines(&self) -> Vec<String> {
        let game = house_menu::defaults(self.kind());
        let timers = serde_json::to_value(Timers::default()).unwrap_or(Value::Null);
        self.house_menu()
            .into_iter()
            .filter(|(r, now)| {
                let default = if is_timer(r.key) { &timers } else { &game };
                default[r.key] != *now
            })
            .map(|(r, now)| say::house_line(r.name, &house_menu::value_text(&now)))
            .collect()
    }

    /// The first Token pass ends the House Rules phase: each open house rule ballot closes
    /// without a decision, said in the thread.
    pub(super) fn close_house_ballots(&mut self, fx: &mut Vec<Effect>) {
        let (closed, open): (Vec<OpenMotion>, Vec<OpenMotion>) = std::mem::take(&mut self.motions)
            .into_iter()
            .partition(|m| matches!(m.motion, Motion::HouseRule { .. }));
        self.motions = open;
        for m in closed {
            if let Motion::HouseRule { key, value } = &m.motion {
                let name = self.house_rule(key).map_or(key.as_str(), |(r, _)| r.name);
                fx.push(Effect::Say {
                    game: self.id,
                    text: say::house_ballot_closed(m.number, name, &house_menu::value_text(value))
                        .into(),
                });
            }
        }
    }

    /// What waits on people now, and on whom: each open motion on the people asked to vote
    /// who have not, the challenge window on those asked who have not answered (bots answer at
    /// once: they are never waited on).
    pub fn awaited(&self) -> Vec<(Awaited, Vec<PlayerId>)> {
        let people = |seats: Vec<Seat>| -> Vec<PlayerId> {
            seats
                .into_iter()
                .filter(|&s| self.bot(s).is_none())
                .map(|s| self.player(s))
                .collect()
        };
        let mut out: Vec<(Awaited, Vec<PlayerId>)> = self
            .motions
            .iter()
            .map(|m| {
                let voters = self.voters(&m.motion);
                let left = voters
                    .into_iter()
                    .filter(|s| !m.yes.contains(s) && !m.no.contains(s))
                    .collect();
                (Awaited::Vote(m.id), people(left))
            })
            .collect();
        if let Some(st) = &self.staged {
            out.push((Awaited::Window(st.version), people(st.waiting())));
        }
        out
    }

    /// A motion in words.
    pub fn describe(&self, motion: &Motion) -> Sentence {
        match motion {
            Motion::HouseRule { key, value } => say::motion::house_rule(key, value),
            Motion::Expel { seat } => say::motion::expel(&self.seat_title(*seat)),
            Motion::ExpelFor { seat, player } => {
                say::motion::expel_for(&self.seat_title(*seat), *player)
            }
            Motion::Replace { seat, player } => {
                say::motion::replace(&self.seat_title(*seat), *player)
            }
            Motion::Skip { seat } => say::motion::skip(&self.seat_title(*seat)),
            Motion::Draw => say::motion::draw(self.active().len() == 2),
            Motion::Team { seat, mover, .. } => say::motion::team(&self.seat_title(*seat), *mover),
        }
    }
}
