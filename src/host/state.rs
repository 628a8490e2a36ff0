//! A game as the host sees it: the rules position plus everything around it (seats and teams,
//! the staged move and its challenge window, open motions, points, timers). Built only by
//! replaying the log: `GameState::new(setup)` then `apply(event)` for each stored event. A live
//! command is applied the same way, to a copy, and stored only if that succeeded — so what is
//! stored always replays.

use serde_json::Value;

use super::effect::Effect;
use super::error::HostError;
use super::event::{
    AdminAction, ChallengePref, Event, GameId, Millis, Motion, PlayerId, REMINDER_HOURS, Setup,
    Timers,
};
use crate::ai::Level;
use crate::games::heximeros::{HexiMeros, Move as HMove, ScoreReason};
use crate::games::{AnyGame, GameKind, Outcome, PlayError, Rules, Seat};
use crate::store::bot_level;

const HOUR: Millis = 3_600_000;
const MINUTE: Millis = 60_000;

/// Where a game is in its life. Stored as a number: keep the numbers (gaps leave room).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Created; house rules may be voted until the first Token pass.
    HouseRules = 10,
    Playing = 20,
    /// Paused by an admin: timers stop, only admins act.
    Paused = 30,
    Finished = 50,
    Aborted = 60,
}

impl Status {
    pub fn id(self) -> i64 {
        self as i64
    }

    pub fn from_id(id: i64) -> Option<Status> {
        [
            Status::HouseRules,
            Status::Playing,
            Status::Paused,
            Status::Finished,
            Status::Aborted,
        ]
        .into_iter()
        .find(|s| s.id() == id)
    }

    pub fn name(self) -> &'static str {
        match self {
            Status::HouseRules => "house rules",
            Status::Playing => "playing",
            Status::Paused => "paused",
            Status::Finished => "finished",
            Status::Aborted => "aborted",
        }
    }
}

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatState {
    pub player: PlayerId,
    /// Team members besides the designated mover (§8.4); empty for a single player.
    pub team: Vec<PlayerId>,
    /// The one who stages and passes: the player, or the team's designated mover.
    pub mover: PlayerId,
    /// Resigned with a proposed replacement; the vote is open.
    pub resigning: bool,
}

impl SeatState {
    fn new(player: PlayerId) -> SeatState {
        SeatState {
            player,
            team: Vec::new(),
            mover: player,
            resigning: false,
        }
    }

    /// Whether `p` plays this seat (alone or in its team).
    pub fn has(&self, p: PlayerId) -> bool {
        self.player == p || self.mover == p || self.team.contains(&p)
    }
}

/// The move the Token holder has staged, and its challenge window (§5.4).
#[derive(Clone, Debug, PartialEq)]
pub struct Staged {
    pub seat: Seat,
    pub text: String,
    /// When the window opened (moved forward by a pause).
    pub opened: Millis,
    /// The players asked whether they declare Check upon the mover.
    pub asked: Vec<Seat>,
    /// Those who let it stand.
    pub answered: Vec<Seat>,
    /// The window timed out.
    pub closed: bool,
}

impl Staged {
    /// Whether the window still waits for someone.
    pub fn waiting(&self) -> Vec<Seat> {
        if self.closed {
            return Vec::new();
        }
        self.asked
            .iter()
            .copied()
            .filter(|s| !self.answered.contains(s))
            .collect()
    }
}

/// A motion being voted on.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenMotion {
    pub id: u64,
    pub by: Seat,
    pub motion: Motion,
    pub yes: Vec<Seat>,
    pub no: Vec<Seat>,
    pub deadline: Millis,
}

/// Points a player scored in this game (§7), attributed to whoever held the seat at the time.
#[derive(Clone, Debug, PartialEq)]
pub struct PointEntry {
    pub player: PlayerId,
    pub seat: Seat,
    pub points: i32,
    pub reason: String,
    /// Loss points (out order, expulsion, a replaced resigner's −50) are never forfeited.
    pub loss: bool,
    /// Forfeited by resigning (§7 "keeping and forfeiting points").
    pub forfeited: bool,
}

/// What a bot seat must do next; the host's `bot_turns` does it, stored like a human command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotAction {
    /// Answer the challenge window about the staged move (§5.4).
    Answer { seat: Seat, level: Level },
    /// Vote on an open motion.
    Vote {
        motion: u64,
        seat: Seat,
        level: Level,
    },
    /// Pass the Token: the staged move's challenge window has closed.
    Pass { seat: Seat },
    /// Choose a move (respecting Checks declared upon it), stage it and pass if no window opens.
    Move { seat: Seat, level: Level },
}

/// One line of the replay: a committed move or a departure, as export writes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub seat: Option<Seat>,
    pub line: String,
    pub at: Millis,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    HouseRules,
    Playing,
    Finished,
    Aborted,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Departure {
    Resign,
    Expel,
    Concede,
}

/// The host's view of one game.
#[derive(Clone, Debug)]
pub struct GameState {
    pub id: GameId,
    pub setup: Setup,
    /// How many events have been applied.
    pub version: u64,
    phase: PhaseBox,
    pub paused_at: Option<Millis>,
    pub game: AnyGame,
    /// House rule switches voted or given at creation (only those that differ).
    pub house: Value,
    pub timers: Timers,
    pub seats: Vec<SeatState>,
    pub record: Vec<Record>,
    pub staged: Option<Staged>,
    /// Seats that declared Check upon the mover this turn (§5.4 step 4).
    pub declared_upon: Vec<Seat>,
    pub prefs: Vec<ChallengePref>,
    pub motions: Vec<OpenMotion>,
    pub points: Vec<PointEntry>,
    /// How a game without engine support for departures ended (two-player resignations, draws).
    pub outcome_override: Option<Outcome>,
    pub turn_started: Millis,
    pub reminded: u8,
    pub timed_out: bool,
    /// (seat, new player, version): replacements, for the seats table.
    pub replacements: Vec<(Seat, PlayerId, u64)>,
}

// `Phase` is private; a Debug wrapper keeps `GameState: Debug` without exposing it.
#[derive(Clone, Copy, PartialEq, Eq)]
struct PhaseBox(Phase);

impl std::fmt::Debug for PhaseBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            Phase::HouseRules => "house rules",
            Phase::Playing => "playing",
            Phase::Finished => "finished",
            Phase::Aborted => "aborted",
        })
    }
}

fn play_error(e: PlayError) -> HostError {
    match e {
        PlayError::Syntax(s) => HostError::Syntax(s.to_string()),
        PlayError::Illegal(i) => HostError::Illegal(i.to_string()),
    }
}

/// Merge `key = value` into a JSON object.
fn merged(obj: &Value, key: &str, value: &Value) -> Value {
    let mut m = obj.as_object().cloned().unwrap_or_default();
    m.insert(key.to_string(), value.clone());
    Value::Object(m)
}

const TIMER_KEYS: [&str; 3] = ["turn_timer_hours", "ballot_hours", "reminders"];

impl GameState {
    /// The state before any event: the start position under the setup's house rules.
    pub fn new(id: GameId, setup: Setup, created: Millis) -> Result<GameState, HostError> {
        let house = if setup.house_rules.is_object() {
            setup.house_rules.clone()
        } else {
            super::event::empty_object()
        };
        let game = AnyGame::new(setup.kind, Some(setup.players.len()), Some(house.clone()))
            .map_err(|e| HostError::invalid(e.to_string()))?;
        if game.seat_count() != setup.players.len() {
            return Err(HostError::invalid(format!(
                "{} needs {} players",
                setup.kind.name(),
                game.seat_count()
            )));
        }
        Ok(GameState {
            id,
            version: 0,
            phase: PhaseBox(Phase::HouseRules),
            paused_at: None,
            game,
            house,
            timers: setup.timers.clone(),
            seats: setup.players.iter().map(|&p| SeatState::new(p)).collect(),
            record: Vec::new(),
            staged: None,
            declared_upon: Vec::new(),
            prefs: vec![ChallengePref::Ask; setup.players.len()],
            motions: Vec::new(),
            points: Vec::new(),
            outcome_override: None,
            turn_started: created,
            reminded: 0,
            timed_out: false,
            replacements: Vec::new(),
            setup,
        })
    }

    pub fn kind(&self) -> GameKind {
        self.setup.kind
    }

    pub fn status(&self) -> Status {
        match self.phase.0 {
            Phase::Finished => Status::Finished,
            Phase::Aborted => Status::Aborted,
            _ if self.paused_at.is_some() => Status::Paused,
            Phase::HouseRules => Status::HouseRules,
            Phase::Playing => Status::Playing,
        }
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.game
            .outcome()
            .or_else(|| self.outcome_override.clone())
    }

    /// The seat holding the Token, while the game runs.
    pub fn holder(&self) -> Option<Seat> {
        match self.phase.0 {
            Phase::Finished | Phase::Aborted => None,
            _ if self.outcome_override.is_some() => None,
            _ => self.game.to_move(),
        }
    }

    /// The player who acts for the Token holder (its team's designated mover).
    pub fn holder_player(&self) -> Option<PlayerId> {
        self.holder()
            .and_then(|s| self.seats.get(s.index()))
            .map(|s| s.mover)
    }

    pub fn seat_name(&self, seat: Seat) -> &'static str {
        self.game.seat_name(seat)
    }

    /// The seat a player plays (alone or in a team).
    pub fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.has(player))
            .map(|i| Seat(i as u8))
    }

    /// The level of the bot playing `seat`, `None` for a person.
    pub fn bot(&self, seat: Seat) -> Option<Level> {
        self.seats
            .get(seat.index())
            .and_then(|s| bot_level(s.mover))
    }

    /// The next thing a bot must do in this game, if any: answers in a challenge window first,
    /// then votes, then the Token holder's move. `None` while people must act. A bot Silver does
    /// not end the House Rules phase while a house-rule ballot is open (it moves once that closes).
    pub fn bot_action(&self) -> Option<BotAction> {
        self.live().ok()?;
        if let Some(st) = &self.staged {
            for seat in st.waiting() {
                if let Some(level) = self.bot(seat) {
                    return Some(BotAction::Answer { seat, level });
                }
            }
        }
        for m in &self.motions {
            for seat in self.voters(&m.motion) {
                if !m.yes.contains(&seat)
                    && !m.no.contains(&seat)
                    && let Some(level) = self.bot(seat)
                {
                    return Some(BotAction::Vote {
                        motion: m.id,
                        seat,
                        level,
                    });
                }
            }
        }
        let seat = self.holder()?;
        let level = self.bot(seat)?;
        match &self.staged {
            Some(st) => st.waiting().is_empty().then_some(BotAction::Pass { seat }),
            None => {
                let house_ballot = self.phase.0 == Phase::HouseRules
                    && self
                        .motions
                        .iter()
                        .any(|m| matches!(m.motion, Motion::HouseRule { .. }));
                (!house_ballot).then_some(BotAction::Move { seat, level })
            }
        }
    }

    /// The seats still in the game.
    pub fn active(&self) -> Vec<Seat> {
        if self.outcome().is_some() || self.phase.0 == Phase::Aborted {
            return Vec::new();
        }
        match &self.game {
            AnyGame::HexiMeros(g) => g.active_seats(),
            g => (0..g.seat_count() as u8).map(Seat).collect(),
        }
    }

    /// Whether the game is scored by §7 (HexiMeros' `scored` house rule; the other games have no
    /// points table, only ratings).
    pub fn scored(&self) -> bool {
        match &self.game {
            AnyGame::HexiMeros(g) => g.house_rules().scored,
            _ => false,
        }
    }

    /// Minutes the challenge window stays open (§5.4).
    pub fn window_minutes(&self) -> i64 {
        match &self.game {
            AnyGame::HexiMeros(g) => g.house_rules().check_window_minutes as i64,
            _ => 10,
        }
    }

    fn live(&self) -> Result<(), HostError> {
        match self.phase.0 {
            Phase::Finished | Phase::Aborted => Err(HostError::GameOver),
            _ if self.outcome().is_some() => Err(HostError::GameOver),
            _ if self.paused_at.is_some() => Err(HostError::Paused),
            _ => Ok(()),
        }
    }

    fn require_holder(&self, seat: Seat) -> Result<(), HostError> {
        match self.holder() {
            Some(h) if h == seat => Ok(()),
            Some(h) => Err(HostError::NotYourTurn {
                holder: self.seat_name(h).to_string(),
            }),
            None => Err(HostError::GameOver),
        }
    }

    fn require_seat(&self, seat: Seat) -> Result<&SeatState, HostError> {
        self.seats.get(seat.index()).ok_or(HostError::NotSeated)
    }

    fn player(&self, seat: Seat) -> PlayerId {
        self.seats.get(seat.index()).map(|s| s.mover).unwrap_or(0)
    }

    /// Resolve move text for the Token holder: the canonical text, refusing moves that ignore a
    /// declaration upon the mover (§5.4 step 4; it lapses when no move respects it).
    pub fn resolve(&self, text: &str) -> Result<String, HostError> {
        match &self.game {
            AnyGame::HexiMeros(g) => {
                let m = g.parse_move(text).map_err(play_error)?;
                self.respects(g, &m, &self.declared_upon)?;
                Ok(g.move_text(&m))
            }
            g => {
                let mut next = g.clone();
                next.play(text).map_err(play_error)
            }
        }
    }

    fn respects(&self, g: &HexiMeros, m: &HMove, declarers: &[Seat]) -> Result<(), HostError> {
        if declarers.is_empty() {
            return Ok(());
        }
        if g.moves_respecting(declarers).contains(&m.without_checks()) {
            return Ok(());
        }
        let names: Vec<&str> = declarers.iter().map(|&s| self.seat_name(s)).collect();
        Err(HostError::Illegal(format!(
            "illegal move {}: it leaves your Sovereign attacked by {}, who declared Check upon \
             you; change your move",
            g.move_text(m),
            names.join(" and ")
        )))
    }

    /// What staging `text` would do: the canonical text and who must be asked in a challenge
    /// window. Standing preferences are applied here: "never" is not asked, "always" refuses
    /// the move at once (unless no move avoids it, when the declaration lapses).
    pub fn prepare_stage(&self, text: &str) -> Result<(String, Vec<Seat>), HostError> {
        let canonical = self.resolve(text)?;
        let AnyGame::HexiMeros(g) = &self.game else {
            return Ok((canonical, Vec::new()));
        };
        let m = g.parse_move(&canonical).map_err(play_error)?;
        let challengers = g.challengers(&m);
        let always: Vec<Seat> = challengers
            .iter()
            .copied()
            .filter(|s| self.prefs.get(s.index()) == Some(&ChallengePref::AlwaysDeclare))
            .collect();
        if !always.is_empty() {
            let mut declarers = self.declared_upon.clone();
            declarers.extend(always.iter().copied());
            self.respects(g, &m, &declarers)?;
        }
        let asked = challengers
            .into_iter()
            .filter(|s| {
                self.prefs.get(s.index()) == Some(&ChallengePref::Ask)
                    && !self.declared_upon.contains(s)
            })
            .collect();
        Ok((canonical, asked))
    }

    /// The board after `text`, for a free preview (§5.1): nothing is stored.
    pub fn preview(&self, text: &str) -> Result<(String, AnyGame), HostError> {
        let canonical = self.resolve(text)?;
        let mut next = self.game.clone();
        next.play(&canonical).map_err(play_error)?;
        Ok((canonical, next))
    }

    /// Apply one event. On error `self` may be half-changed: callers apply to a copy.
    pub fn apply(&mut self, ev: &Event, at: Millis) -> Result<Vec<Effect>, HostError> {
        let based = self.version;
        let mut fx = Vec::new();
        self.version += 1;
        let id = self.id;
        match ev {
            Event::Staged { seat, text, asked } => {
                self.live()?;
                self.require_holder(*seat)?;
                let canonical = self.resolve(text)?;
                let (_, board) = self.preview(&canonical)?;
                fx.push(Effect::Private {
                    player: self.player(*seat),
                    text: format!(
                        "staged {canonical}\n{}\npass the Token to commit it, or take it back",
                        board.show()
                    ),
                });
                if !asked.is_empty() {
                    let names: Vec<&str> = asked.iter().map(|&s| self.seat_name(s)).collect();
                    fx.push(Effect::Say {
                        game: id,
                        text: format!(
                            "{} staged a move that leaves their Sovereign attacked by {}: they \
                             may declare Check upon {} within {} minutes",
                            self.seat_name(*seat),
                            names.join(", "),
                            self.seat_name(*seat),
                            self.window_minutes()
                        ),
                    });
                    for &s in asked {
                        fx.push(Effect::AskChallenge {
                            game: id,
                            player: self.player(s),
                            version: self.version,
                            text: format!(
                                "{}'s staged move leaves their Sovereign attacked by you: \
                                 declare Check upon them, or let it stand?",
                                self.seat_name(*seat)
                            ),
                        });
                    }
                }
                self.staged = Some(Staged {
                    seat: *seat,
                    text: canonical,
                    opened: at,
                    asked: asked.clone(),
                    answered: Vec::new(),
                    closed: false,
                });
            }
            Event::TakenBack { seat } => {
                self.live()?;
                self.require_holder(*seat)?;
                if self.staged.take().is_none() {
                    return Err(HostError::NothingStaged);
                }
                fx.push(Effect::Private {
                    player: self.player(*seat),
                    text: "move taken back".into(),
                });
            }
            Event::Answered { seat, declare } => {
                self.live()?;
                let mover = {
                    let st = self.staged.as_mut().ok_or(HostError::NothingStaged)?;
                    if !st.waiting().contains(seat) {
                        return Err(HostError::NotAsked);
                    }
                    if !declare {
                        st.answered.push(*seat);
                    }
                    st.seat
                };
                if *declare {
                    self.staged = None;
                    self.declared_upon.push(*seat);
                    fx.push(Effect::Say {
                        game: id,
                        text: format!(
                            "{} declares Check upon {}: the staged move is rejected",
                            self.seat_name(*seat),
                            self.seat_name(mover)
                        ),
                    });
                    fx.push(Effect::Ping {
                        game: id,
                        player: self.player(mover),
                        text: format!(
                            "{} declared Check upon you: stage a move that leaves your Sovereign \
                             out of their attack",
                            self.seat_name(*seat)
                        ),
                    });
                } else if self.staged.as_ref().is_some_and(|s| s.waiting().is_empty()) {
                    fx.push(Effect::Ping {
                        game: id,
                        player: self.player(mover),
                        text: "nobody declared Check upon you: you may pass the Token".into(),
                    });
                }
            }
            Event::WindowClosed => {
                let st = self.staged.as_mut().ok_or(HostError::NothingStaged)?;
                if st.waiting().is_empty() {
                    return Err(HostError::invalid("no challenge window is open"));
                }
                st.closed = true;
                let mover = st.seat;
                fx.push(Effect::Ping {
                    game: id,
                    player: self.player(mover),
                    text: "the challenge window closed without a declaration: you may pass the \
                           Token"
                        .into(),
                });
            }
            Event::Committed { seat, text } => {
                self.live()?;
                self.require_holder(*seat)?;
                if let Some(st) = &self.staged
                    && st.text == *text
                    && !st.waiting().is_empty()
                {
                    let names: Vec<&str> =
                        st.waiting().iter().map(|&s| self.seat_name(s)).collect();
                    return Err(HostError::WindowOpen(names.join(", ")));
                }
                let canonical = self.resolve(text)?;
                self.game.play(&canonical).map_err(play_error)?;
                self.take_points();
                self.record.push(Record {
                    seat: Some(*seat),
                    line: format!("{} {canonical}", self.seat_name(*seat)),
                    at,
                });
                if self.phase.0 == Phase::HouseRules {
                    self.phase = PhaseBox(Phase::Playing);
                    // House rule ballots end with the phase.
                    self.motions
                        .retain(|m| !matches!(m.motion, Motion::HouseRule { .. }));
                }
                self.new_turn(at);
                fx.push(Effect::Board {
                    game: id,
                    board: self.game.show(),
                    caption: format!("{} played {canonical}", self.seat_name(*seat)),
                });
                self.announce_turn(&mut fx);
            }
            Event::Preference { seat, pref } => {
                self.require_seat(*seat)?;
                if let Some(p) = self.prefs.get_mut(seat.index()) {
                    *p = *pref;
                }
            }
            Event::Resigned { seat } => {
                self.live()?;
                self.require_active(*seat)?;
                self.depart(*seat, Departure::Resign, at, &mut fx)?;
            }
            Event::ResignedFor { seat, player } => {
                self.live()?;
                self.require_active(*seat)?;
                self.check_newcomer(*player)?;
                if let Some(s) = self.seats.get_mut(seat.index()) {
                    s.resigning = true;
                }
                let motion = Motion::Replace {
                    seat: *seat,
                    player: *player,
                };
                self.open_motion(based, *seat, motion, at, &mut fx)?;
            }
            Event::Conceded { seat } => {
                self.live()?;
                self.require_active(*seat)?;
                self.depart(*seat, Departure::Concede, at, &mut fx)?;
            }
            Event::Proposed { seat, motion } => {
                self.require_seat(*seat)?;
                self.live()?;
                self.check_motion(*seat, motion)?;
                self.open_motion(based, *seat, motion.clone(), at, &mut fx)?;
            }
            Event::Ballot { motion, seat, yes } => {
                self.live()?;
                let i = self
                    .motions
                    .iter()
                    .position(|m| m.id == *motion)
                    .ok_or(HostError::NoSuchMotion(*motion))?;
                let voters = self.voters(&self.motions[i].motion);
                if !voters.contains(seat) {
                    return Err(HostError::NotVoter);
                }
                let m = &mut self.motions[i];
                if m.yes.contains(seat) || m.no.contains(seat) {
                    return Err(HostError::AlreadyVoted(*motion));
                }
                if *yes {
                    m.yes.push(*seat);
                } else {
                    m.no.push(*seat);
                }
                self.settle_motion(*motion, at, &mut fx)?;
            }
            Event::MotionExpired { motion } => {
                let i = self
                    .motions
                    .iter()
                    .position(|m| m.id == *motion)
                    .ok_or(HostError::NoSuchMotion(*motion))?;
                let m = self.motions.remove(i);
                fx.push(Effect::Say {
                    game: id,
                    text: format!(
                        "motion #{} ({}) failed: the ballot closed",
                        m.id,
                        self.describe(&m.motion)
                    ),
                });
                self.failed(&m.motion, at, &mut fx)?;
            }
            Event::Enacted { motion } => {
                self.enact(motion, at, &mut fx)?;
            }
            Event::Reminded { seat, level } => {
                self.live()?;
                self.require_holder(*seat)?;
                self.reminded = *level;
                let player = self.player(*seat);
                let hours = REMINDER_HOURS
                    .get((*level as usize).saturating_sub(1))
                    .copied()
                    .unwrap_or(0);
                let text =
                    format!("reminder: you have held the Token in game #{id} for {hours} hours");
                fx.push(Effect::Ping {
                    game: id,
                    player,
                    text: text.clone(),
                });
                if *level >= 2 {
                    fx.push(Effect::Dm { player, text });
                }
            }
            Event::TurnTimedOut { seat } => {
                self.live()?;
                self.require_holder(*seat)?;
                self.timed_out = true;
                fx.push(Effect::Say {
                    game: id,
                    text: format!(
                        "{} has not moved for {} hours: the others may vote to skip their turn, \
                         replace them or expel them (vote skip / vote replace / vote expel)",
                        self.seat_name(*seat),
                        self.timers.turn_timer_hours
                    ),
                });
            }
            Event::Admin { action } => match action {
                AdminAction::Abort => {
                    if matches!(self.phase.0, Phase::Finished | Phase::Aborted) {
                        return Err(HostError::GameOver);
                    }
                    self.phase = PhaseBox(Phase::Aborted);
                    self.staged = None;
                    self.motions.clear();
                    fx.push(Effect::Say {
                        game: id,
                        text: "the game was aborted by an admin".into(),
                    });
                    fx.push(Effect::CloseThread { game: id });
                }
                AdminAction::Pause => {
                    self.live()?;
                    self.paused_at = Some(at);
                    fx.push(Effect::Say {
                        game: id,
                        text: "the game is paused by an admin".into(),
                    });
                }
                AdminAction::Resume => {
                    let since = self
                        .paused_at
                        .take()
                        .ok_or_else(|| HostError::invalid("the game is not paused"))?;
                    // Every clock stops while paused: move the starts forward.
                    let d = at - since;
                    self.turn_started += d;
                    if let Some(st) = &mut self.staged {
                        st.opened += d;
                    }
                    for m in &mut self.motions {
                        m.deadline += d;
                    }
                    fx.push(Effect::Say {
                        game: id,
                        text: "the game is resumed".into(),
                    });
                }
            },
        }
        self.check_end(&mut fx);
        Ok(fx)
    }

    fn require_active(&self, seat: Seat) -> Result<(), HostError> {
        self.require_seat(seat)?;
        if !self.active().contains(&seat) {
            return Err(HostError::invalid(format!(
                "{} is no longer in the game",
                self.seat_name(seat)
            )));
        }
        Ok(())
    }

    fn new_turn(&mut self, at: Millis) {
        self.staged = None;
        self.declared_upon.clear();
        self.turn_started = at;
        self.reminded = 0;
        self.timed_out = false;
    }

    fn announce_turn(&self, fx: &mut Vec<Effect>) {
        let Some(next) = self.holder() else { return };
        let mut text = format!("{}, you have the Token", self.seat_name(next));
        if let AnyGame::HexiMeros(g) = &self.game {
            let live = g.live_checks();
            if !live.is_empty() {
                let mut by: Vec<&str> = live.iter().map(|r| self.seat_name(r.declarer)).collect();
                by.dedup();
                text.push_str(&format!(
                    "; you are in Check by {}: your move must relieve it if any move can",
                    by.join(", ")
                ));
            }
        }
        fx.push(Effect::Ping {
            game: self.id,
            player: self.player(next),
            text,
        });
    }

    /// Record the rules engine's score events of the last change, for whoever holds each seat.
    fn take_points(&mut self) {
        let AnyGame::HexiMeros(g) = &self.game else {
            return;
        };
        for e in g.last_events() {
            let player = self
                .seats
                .get(e.seat.index())
                .map(|s| s.player)
                .unwrap_or(0);
            let loss = matches!(e.reason, ScoreReason::Out { .. } | ScoreReason::Expelled);
            let reason = serde_json::to_value(e.reason)
                .ok()
                .and_then(|v| v.get("event").and_then(|x| x.as_str()).map(str::to_string))
                .unwrap_or_default();
            self.points.push(PointEntry {
                player,
                seat: e.seat,
                points: e.points,
                reason,
                loss,
                forfeited: false,
            });
        }
    }

    /// A resigner (or expelled player) forfeits everything but loss points (§7).
    fn forfeit(&mut self, player: PlayerId) {
        for p in &mut self.points {
            if p.player == player && !p.loss {
                p.forfeited = true;
            }
        }
    }

    fn depart(
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
        let name = self.seat_name(seat);
        match &mut self.game {
            AnyGame::HexiMeros(g) => {
                match how {
                    Departure::Resign => g.resign(seat),
                    Departure::Expel => g.expel(seat),
                    Departure::Concede => g.concede(seat),
                }
                .map_err(|e| HostError::invalid(e.to_string()))?;
                self.take_points();
            }
            g => {
                if g.seat_count() != 2 {
                    return Err(HostError::invalid(format!(
                        "in {} a player may leave only when two remain",
                        self.setup.kind.name()
                    )));
                }
                let other = Seat(1 - seat.0);
                let verb = match how {
                    Departure::Resign => "resigned",
                    Departure::Expel => "was expelled",
                    Departure::Concede => "conceded",
                };
                self.outcome_override = Some(Outcome::Win {
                    winners: vec![other],
                    reason: format!("{name} {verb}"),
                });
            }
        }
        let word = match how {
            Departure::Resign => "resign",
            Departure::Expel => "expel",
            Departure::Concede => "concede",
        };
        self.record.push(Record {
            seat: Some(seat),
            line: format!("{word} {name}"),
            at,
        });
        if let Some(s) = self.seats.get_mut(seat.index()) {
            s.resigning = false;
        }
        // Motions about a seat that left are moot.
        self.motions.retain(|m| match &m.motion {
            Motion::Expel { seat: s }
            | Motion::ExpelFor { seat: s, .. }
            | Motion::Replace { seat: s, .. }
            | Motion::Skip { seat: s } => *s != seat,
            _ => true,
        });
        fx.push(Effect::Say {
            game: self.id,
            text: match how {
                Departure::Resign => format!("{name} resigned"),
                Departure::Expel => format!("{name} was expelled"),
                Departure::Concede => format!("{name} conceded"),
            },
        });
        if self.holder() != holder_before {
            self.new_turn(at);
            self.announce_turn(fx);
        }
        Ok(())
    }

    /// Refuse motions that make no sense now.
    fn check_motion(&self, by: Seat, motion: &Motion) -> Result<(), HostError> {
        if self.motions.iter().any(|m| m.motion == *motion) {
            return Err(HostError::invalid("that motion is already being voted on"));
        }
        match motion {
            Motion::HouseRule { key, value } => {
                if self.phase.0 != Phase::HouseRules {
                    return Err(HostError::invalid(
                        "house rules are voted only before the first Token pass",
                    ));
                }
                self.with_house_rule(key, value)?;
            }
            Motion::Expel { seat } | Motion::ExpelFor { seat, .. } => {
                self.require_active(*seat)?;
                if let Motion::ExpelFor { player, .. } = motion {
                    self.check_newcomer(*player)?;
                }
                if *seat == by {
                    return Err(HostError::invalid(
                        "you cannot expel yourself; resign instead",
                    ));
                }
                if self.voters(motion).len() < 2 {
                    return Err(HostError::invalid(
                        "expulsion needs at least two other players to vote",
                    ));
                }
            }
            Motion::Replace { seat, player } => {
                self.require_active(*seat)?;
                self.check_newcomer(*player)?;
            }
            Motion::Skip { seat } => {
                if self.bot(*seat).is_some() {
                    return Err(HostError::invalid(format!(
                        "{} is played by a bot, which never stalls",
                        self.seat_name(*seat)
                    )));
                }
                if self.holder() != Some(*seat) {
                    return Err(HostError::invalid(format!(
                        "{} does not hold the Token",
                        self.seat_name(*seat)
                    )));
                }
                if *seat == by {
                    return Err(HostError::invalid("you cannot skip your own turn"));
                }
                if !matches!(self.game, AnyGame::HexiMeros(_)) {
                    return Err(HostError::invalid(format!(
                        "{} has no pass move, so a turn cannot be skipped",
                        self.setup.kind.name()
                    )));
                }
            }
            Motion::Draw => {
                if !self.active().contains(&by) {
                    return Err(HostError::NotVoter);
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
                    return Err(HostError::invalid(
                        "the designated mover must be a member of the team",
                    ));
                }
                if members.iter().any(|&m| bot_level(m).is_some()) || self.bot(*seat).is_some() {
                    return Err(HostError::invalid("a bot cannot play in a team"));
                }
                if members
                    .iter()
                    .any(|m| self.seat_of(*m).is_some_and(|x| x != *seat))
                {
                    return Err(HostError::invalid(
                        "a team member already plays another seat",
                    ));
                }
            }
        }
        Ok(())
    }

    /// A player who may take over a seat: anyone not already playing here, or a bot (one bot
    /// player may hold several seats).
    fn check_newcomer(&self, player: PlayerId) -> Result<(), HostError> {
        if bot_level(player).is_none() && self.seat_of(player).is_some() {
            return Err(HostError::invalid("that player already plays in this game"));
        }
        Ok(())
    }

    fn with_house_rule(&self, key: &str, value: &Value) -> Result<(Value, Timers), HostError> {
        if TIMER_KEYS.contains(&key) {
            let t = serde_json::to_value(&self.timers)
                .map_err(|e| HostError::invalid(e.to_string()))?;
            let timers: Timers = serde_json::from_value(merged(&t, key, value))
                .map_err(|e| HostError::invalid(format!("bad value for {key}: {e}")))?;
            return Ok((self.house.clone(), timers));
        }
        let house = merged(&self.house, key, value);
        AnyGame::new(self.setup.kind, Some(self.seats.len()), Some(house.clone()))
            .map_err(|e| HostError::invalid(e.to_string()))?;
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

    /// Yes votes needed out of `n` voters: more than half; unanimity for expulsion, teams and a
    /// draw (the last two agreeing, or everyone abandoning).
    fn needed(motion: &Motion, n: usize) -> usize {
        match motion {
            Motion::Expel { .. } | Motion::ExpelFor { .. } | Motion::Team { .. } | Motion::Draw => {
                n
            }
            _ => n / 2 + 1,
        }
    }

    fn open_motion(
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
        fx.push(Effect::Say {
            game: self.id,
            text: format!(
                "motion #{id} by {}: {} — vote yes or no within {} hours ({} of {} needed)",
                self.seat_name(by),
                self.describe(&motion),
                self.timers.ballot_hours,
                Self::needed(&motion, voters.len()),
                voters.len()
            ),
        });
        for &v in &voters {
            if v != by {
                fx.push(Effect::Ping {
                    game: self.id,
                    player: self.player(v),
                    text: format!("please vote on motion #{id}: {}", self.describe(&motion)),
                });
            }
        }
        self.motions.push(OpenMotion {
            id,
            by,
            motion,
            yes,
            no: Vec::new(),
            deadline: at + self.timers.ballot_hours as i64 * HOUR,
        });
        self.settle_motion(id, at, fx)
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
        let need = Self::needed(&self.motions[i].motion, voters.len());
        let m = &self.motions[i];
        let yes = m.yes.iter().filter(|s| voters.contains(s)).count();
        let no = m.no.iter().filter(|s| voters.contains(s)).count();
        let passed = voters.is_empty() || yes >= need;
        let failed = !passed && voters.len() - no < need;
        if !passed && !failed {
            return Ok(());
        }
        let m = self.motions.remove(i);
        let what = self.describe(&m.motion);
        fx.push(Effect::Say {
            game: self.id,
            text: format!(
                "motion #{} ({what}) {}",
                m.id,
                if passed { "passed" } else { "failed" }
            ),
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

    fn enact(
        &mut self,
        motion: &Motion,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        match motion {
            Motion::HouseRule { key, value } => {
                if self.phase.0 != Phase::HouseRules {
                    return Err(HostError::invalid(
                        "house rules are voted only before the first Token pass",
                    ));
                }
                let (house, timers) = self.with_house_rule(key, value)?;
                self.game =
                    AnyGame::new(self.setup.kind, Some(self.seats.len()), Some(house.clone()))
                        .map_err(|e| HostError::invalid(e.to_string()))?;
                self.house = house;
                self.timers = timers;
                self.staged = None;
            }
            Motion::Expel { seat } => self.depart(*seat, Departure::Expel, at, fx)?,
            Motion::ExpelFor { seat, player } => {
                let old = self.require_seat(*seat)?.player;
                self.points.push(PointEntry {
                    player: old,
                    seat: *seat,
                    points: -500,
                    reason: "expelled".into(),
                    loss: true,
                    forfeited: false,
                });
                fx.push(Effect::Say {
                    game: self.id,
                    text: format!("{} was expelled", self.seat_name(*seat)),
                });
                self.enact(
                    &Motion::Replace {
                        seat: *seat,
                        player: *player,
                    },
                    at,
                    fx,
                )?;
            }
            Motion::Replace { seat, player } => {
                self.require_active(*seat)?;
                let old = self.require_seat(*seat)?.player;
                // §8.3 [REC]: the seat continues under the new person; the resigner forfeits
                // his points and personally takes −50.
                self.forfeit(old);
                self.points.push(PointEntry {
                    player: old,
                    seat: *seat,
                    points: -50,
                    reason: "replaced".into(),
                    loss: true,
                    forfeited: false,
                });
                if let Some(s) = self.seats.get_mut(seat.index()) {
                    *s = SeatState::new(*player);
                }
                self.replacements.push((*seat, *player, self.version));
                fx.push(Effect::Ping {
                    game: self.id,
                    player: *player,
                    text: format!(
                        "you now play {} in game #{}",
                        self.seat_name(*seat),
                        self.id
                    ),
                });
            }
            Motion::Skip { seat } => {
                self.require_holder(*seat)?;
                let AnyGame::HexiMeros(g) = &mut self.game else {
                    return Err(HostError::invalid("this game has no pass move"));
                };
                g.play_unchecked(&HMove::PASS);
                self.take_points();
                let name = self.seat_name(*seat);
                self.record.push(Record {
                    seat: Some(*seat),
                    line: format!("skip {name}"),
                    at,
                });
                self.new_turn(at);
                self.announce_turn(fx);
            }
            Motion::Draw => {
                match &mut self.game {
                    AnyGame::HexiMeros(g) => {
                        g.agree_draw()
                            .map_err(|e| HostError::invalid(e.to_string()))?;
                        self.take_points();
                    }
                    g => {
                        self.outcome_override = Some(Outcome::Draw {
                            seats: (0..g.seat_count() as u8).map(Seat).collect(),
                            reason: "agreed".into(),
                        });
                    }
                }
                self.record.push(Record {
                    seat: None,
                    line: "draw".into(),
                    at,
                });
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

    /// A motion in words.
    pub fn describe(&self, motion: &Motion) -> String {
        match motion {
            Motion::HouseRule { key, value } => format!("house rule {key} = {value}"),
            Motion::Expel { seat } => format!("expel {}", self.seat_name(*seat)),
            Motion::ExpelFor { seat, player } => format!(
                "expel {} and seat player {player} in their place",
                self.seat_name(*seat)
            ),
            Motion::Replace { seat, player } => {
                format!("player {player} takes over {}", self.seat_name(*seat))
            }
            Motion::Skip { seat } => format!("skip {}'s turn", self.seat_name(*seat)),
            Motion::Draw => {
                if self.active().len() == 2 {
                    "draw".into()
                } else {
                    "abandon the game as a draw".into()
                }
            }
            Motion::Team { seat, mover, .. } => format!(
                "a team plays {} with player {mover} moving",
                self.seat_name(*seat)
            ),
        }
    }

    fn check_end(&mut self, fx: &mut Vec<Effect>) {
        if matches!(self.phase.0, Phase::Finished | Phase::Aborted) {
            return;
        }
        let Some(outcome) = self.outcome() else {
            return;
        };
        self.phase = PhaseBox(Phase::Finished);
        self.staged = None;
        self.motions.clear();
        fx.push(Effect::Say {
            game: self.id,
            text: format!("game over: {}", self.outcome_text(&outcome)),
        });
    }

    pub fn outcome_text(&self, outcome: &Outcome) -> String {
        let names = |s: &[Seat]| -> String {
            s.iter()
                .map(|&x| self.seat_name(x))
                .collect::<Vec<_>>()
                .join(" and ")
        };
        match outcome {
            Outcome::Win { winners, reason } => format!("{} won ({reason})", names(winners)),
            Outcome::Draw { seats, reason } => format!("{} drew ({reason})", names(seats)),
        }
    }

    /// Each seat's finishing rank (1 = best), for ratings: winners or drawn seats first, then the
    /// others in reverse order of going out.
    pub fn finishing_ranks(&self) -> Vec<(Seat, usize)> {
        let Some(outcome) = self.outcome() else {
            return Vec::new();
        };
        let top = match &outcome {
            Outcome::Win { winners, .. } => winners.clone(),
            Outcome::Draw { seats, .. } => seats.clone(),
        };
        let mut ranks: Vec<(Seat, usize)> = top.iter().map(|&s| (s, 1)).collect();
        let out: Vec<Seat> = match &self.game {
            AnyGame::HexiMeros(g) => g.out_order(),
            _ => Vec::new(),
        };
        let mut rank = 2;
        for s in out.iter().rev() {
            if !top.contains(s) {
                ranks.push((*s, rank));
                rank += 1;
            }
        }
        for i in 0..self.seats.len() as u8 {
            if !ranks.iter().any(|(s, _)| s.0 == i) {
                ranks.push((Seat(i), rank));
            }
        }
        ranks
    }

    /// Each player's points in this game (§7), forfeits applied; empty when not scored.
    pub fn player_points(&self) -> Vec<(PlayerId, i32)> {
        if !self.scored() {
            return Vec::new();
        }
        let mut out: Vec<(PlayerId, i32)> = Vec::new();
        for s in &self.seats {
            if !out.iter().any(|(p, _)| *p == s.player) {
                out.push((s.player, 0));
            }
        }
        for e in &self.points {
            let pts = if e.forfeited { 0 } else { e.points };
            match out.iter_mut().find(|(p, _)| *p == e.player) {
                Some((_, t)) => *t += pts,
                None => out.push((e.player, pts)),
            }
        }
        out
    }

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
        if self.holder().is_some_and(|h| self.bot(h).is_none()) {
            if self.timers.reminders
                && let Some(h) = REMINDER_HOURS.get(self.reminded as usize)
            {
                due.push(self.turn_started + h * HOUR);
            }
            if self.timers.turn_timer_hours > 0 && !self.timed_out {
                due.push(self.turn_started + self.timers.turn_timer_hours as i64 * HOUR);
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
        // A bot seat is never reminded nor put to a stalled-player vote.
        if let Some(seat) = self.holder().filter(|&h| self.bot(h).is_none()) {
            if self.timers.reminders {
                // Only the highest level due is sent: a host down for a day does not spam.
                let level = REMINDER_HOURS
                    .iter()
                    .filter(|&&h| now >= self.turn_started + h * HOUR)
                    .count() as u8;
                if level > self.reminded {
                    out.push(Event::Reminded { seat, level });
                }
            }
            if self.timers.turn_timer_hours > 0
                && !self.timed_out
                && now >= self.turn_started + self.timers.turn_timer_hours as i64 * HOUR
            {
                out.push(Event::TurnTimedOut { seat });
            }
        }
        out
    }

    /// The game as text: setup, house rules, then one line per committed move or departure.
    /// This is what `export` writes and `import` reads, and what a renderer replays.
    pub fn export(&self) -> String {
        let mut s = String::new();
        s.push_str("# hexmeros game export\n");
        s.push_str(&format!("game {}\n", self.setup.kind.key()));
        s.push_str(&format!("seats {}\n", self.seats.len()));
        s.push_str(&format!("house {}\n", self.house));
        if let Ok(t) = serde_json::to_string(&self.timers) {
            s.push_str(&format!("timers {t}\n"));
        }
        for r in &self.record {
            s.push_str(&r.line);
            s.push('\n');
        }
        if let Some(o) = self.outcome() {
            s.push_str(&format!("# {}\n", self.outcome_text(&o)));
        }
        s
    }
}
