//! A game as the host sees it: the rules position plus everything around it (seats and teams,
//! the staged move and its challenge window, open motions, points, timers). Built only by
//! replaying the log: `GameState::new(setup)` then `apply(event)` for each stored event. A live
//! command is applied the same way, to a copy, and stored only if that succeeded — so what is
//! stored always replays.
//!
//! Split by concern: `turn` (stage, challenge, commit), `motions` (votes), `departures`,
//! `points` (scores and ranks), `timers` (what is due, admin pauses), `bots` (what a bot seat
//! must do next). The game's own procedure (who is still in, what a departure does, the pass,
//! who may challenge, points) is asked of the rules (`games::Rules`); the host decides none.

mod alt;
mod bots;
mod clocks;
mod departures;
mod motions;
mod panel;
mod pictures;
mod points;
mod queue;
mod seen;
mod timers;
mod turn;
mod view;

use serde_json::Value;

use super::effect::Effect;
use super::error::HostError;
use super::event::{ChallengePref, Event, GameId, Millis, Motion, PlayerId, Setup, Timers};
use super::say::{self, Refused};
use crate::ai::Level;
use crate::games::record::{self, Line};
use crate::games::{AnyGame, Departure, GameKind, Outcome, PositionError, Seat};
use crate::host::bot_level;
use crate::host::quiet::Quiet;
use crate::host::story::{self, Told};

pub use alt::{ALT_MAX, clip};
pub use bots::BotAction;
pub use clocks::{AWAY_REASON_MAX, Away, CLOCK_HEADER, ClockHeader, moves_clocks};
pub use panel::{Panel, PanelSeat, PanelTurn, SeatStanding};
pub use pictures::replay_svg;
pub use queue::QueuedMove;
pub use seen::{Does, Forced, Mark, NotMovable, Seen, SeenPiece, SeenTarget, Stuck};

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

/// Something that waits on people's answers (`GameState::awaited`): an open motion (its id),
/// or the challenge window of the move staged at a version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Awaited {
    Vote(u64),
    Window(u64),
}

/// The move the Token holder has staged, and its challenge window (§5.4).
#[derive(Clone, Debug, PartialEq)]
pub struct Staged {
    pub seat: Seat,
    pub text: String,
    /// The game's version once it was staged: a preview control (and, when the window opened
    /// with it, a challenge button) made before is stale.
    pub version: u64,
    /// When the window opened (moved forward by a pause).
    pub opened: Millis,
    /// The players asked whether they declare Check upon the mover.
    pub asked: Vec<Seat>,
    /// Those who let it stand.
    pub answered: Vec<Seat>,
    /// The window timed out.
    pub closed: bool,
    /// The mover asked that the Token be passed with this move as soon as the window closes
    /// with nobody declaring.
    pub pass_when_closed: bool,
    /// Staged by the host from the seat's queued move (issue 22).
    pub queued: bool,
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
    /// The key ballots and buttons name it by (the game's version when it opened).
    pub id: u64,
    /// What players read and type: motions are numbered 1, 2, … in each game.
    pub number: u64,
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

/// One line of the replay: a committed move or a departure, as export writes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub seat: Option<Seat>,
    pub line: String,
    pub at: Millis,
}

/// The host's view of one game.
#[derive(Clone, Debug)]
pub struct GameState {
    id: GameId,
    setup: Setup,
    /// How many events have been applied.
    version: u64,
    /// Where the game is in its life (never `Paused`: see `paused_at`).
    life: Status,
    paused_at: Option<Millis>,
    game: AnyGame,
    /// House rule switches voted or given at creation (only those that differ).
    house: Value,
    timers: Timers,
    seats: Vec<SeatState>,
    record: Vec<Record>,
    staged: Option<Staged>,
    /// Seats that declared Check upon the mover this turn (§5.4 step 4).
    declared_upon: Vec<Seat>,
    prefs: Vec<ChallengePref>,
    motions: Vec<OpenMotion>,
    /// The id of every motion opened, in order: a motion's number is its place here plus one.
    motion_ids: Vec<u64>,
    /// How many record lines there were when a draw (or abandon) vote was last proposed: a bot
    /// puts it to the table at most once a turn ([`GameState::bot_action`]).
    draw_asked: Option<usize>,
    points: Vec<PointEntry>,
    turn_started: Millis,
    reminded: u8,
    timed_out: bool,
    /// Each seat's time bank (milliseconds), not counting the turn under way.
    banks: Vec<Millis>,
    /// Seats whose player is away now.
    away: Vec<Option<Away>>,
    /// Away time each seat has used up (absences that ended).
    away_used: Vec<Millis>,
    /// When the game was created: its clocks' start.
    created: Millis,
    /// The events besides the record's lines that moved the clocks (absences, pauses), with
    /// how many record lines came before each and when: exported so an import replays the
    /// clocks.
    clock_log: Vec<(usize, Millis, Event)>,
    /// The Token holder's quiet hours (their settings, not the log): reminders wait until they
    /// end. Set by the host before it asks what is due (`set_holder_quiet`).
    holder_quiet: Option<(PlayerId, Quiet)>,
    /// (seat, new player, version): replacements, for the seats table.
    replacements: Vec<(Seat, PlayerId, u64)>,
    /// The latest moves, skips, departures and takeovers told in words (the round story),
    /// oldest first; only the last [`TOLD_KEPT`] are kept.
    told: Vec<Told>,
    /// Each seat's queued move for its next turn (issue 22), private to its player: one line,
    /// or (two players) several, each for another answer of the opponent's.
    queue: Vec<Vec<QueuedMove>>,
    /// Why each seat's last queued move was not played, until it queues another (shown to its
    /// player alone).
    queue_missed: Vec<Option<super::event::QueueMiss>>,
    /// The last committed move: its seat and canonical text (a queued move's `if_reply`).
    last_move: Option<(Seat, String)>,
}

/// How many told events a game keeps: more than any round holds (six turns, their
/// departures and takeovers), so a story since a seat's previous turn is whole.
const TOLD_KEPT: usize = 48;

/// What the game's rules refused, as the player reads it.
fn rules(e: PositionError) -> HostError {
    Refused::Rules(e.to_string()).into()
}

impl GameState {
    /// The state before any event: the start position under the setup's house rules.
    pub fn new(id: GameId, setup: Setup, created: Millis) -> Result<GameState, HostError> {
        let house = if setup.house_rules.is_object() {
            setup.house_rules.clone()
        } else {
            super::event::empty_object()
        };
        let game = match &setup.position {
            None => setup
                .kind
                .start(Some(setup.players.len()), Some(house.clone()))
                .map_err(rules)?,
            Some(json) => setup.kind.read_position(&json.to_string()).map_err(rules)?,
        };
        if game.seat_count() != setup.players.len() {
            let n = game.seat_count();
            return Err(Refused::player_count(setup.kind.name(), n, n, setup.players.len()).into());
        }
        // A game set up from a position is already under way: its house rules are the
        // position's, so there is no House Rules phase.
        let life = match setup.position {
            None => Status::HouseRules,
            Some(_) => Status::Playing,
        };
        Ok(GameState {
            id,
            version: 0,
            life,
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
            motion_ids: Vec::new(),
            draw_asked: None,
            points: Vec::new(),
            turn_started: created,
            reminded: 0,
            timed_out: false,
            banks: vec![setup.timers.bank_start(); setup.players.len()],
            away: vec![None; setup.players.len()],
            away_used: vec![0; setup.players.len()],
            created,
            clock_log: Vec::new(),
            holder_quiet: None,
            replacements: Vec::new(),
            told: Vec::new(),
            queue: vec![Vec::new(); setup.players.len()],
            queue_missed: vec![None; setup.players.len()],
            last_move: None,
            setup,
        })
    }

    /// The id the store gave a game created from this state.
    pub(crate) fn set_id(&mut self, id: GameId) {
        self.id = id;
    }

    pub fn kind(&self) -> GameKind {
        self.setup.kind
    }

    pub fn status(&self) -> Status {
        match self.life {
            Status::Finished | Status::Aborted => self.life,
            _ if self.paused_at.is_some() => Status::Paused,
            life => life,
        }
    }

    fn over(&self) -> bool {
        matches!(self.life, Status::Finished | Status::Aborted)
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// The seat holding the Token, while the game runs.
    pub fn holder(&self) -> Option<Seat> {
        if self.over() {
            return None;
        }
        self.game.to_move()
    }

    /// The seat at the bottom of the game's public pictures (the turn messages in the thread,
    /// the results, the board of a spectator), for the whole game: the seat that moves first.
    /// Turning the board to the Token holder moved every piece 60° with every message.
    pub fn public_side(&self) -> Seat {
        Seat(0)
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

    /// The seat's name as a player reads it in a sentence or on a button: `Red`, `Silver`
    /// (the notation's `red` is for commands).
    pub fn seat_title(&self, seat: Seat) -> String {
        crate::host::story::seat(&self.game, seat)
    }

    fn seat_names(&self, seats: &[Seat]) -> Vec<String> {
        seats.iter().map(|&s| self.seat_title(s)).collect()
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

    /// The seats still in the game.
    pub fn active(&self) -> Vec<Seat> {
        if self.life == Status::Aborted {
            return Vec::new();
        }
        self.game.active_seats()
    }

    /// `seat`'s only opponent, when exactly two seats are left and `seat` is one of them: no
    /// votes against each other then, a stalled seat loses on time when the other claims it.
    fn opponent(&self, seat: Seat) -> Option<Seat> {
        match self.active()[..] {
            [a, b] if a == seat => Some(b),
            [a, b] if b == seat => Some(a),
            _ => None,
        }
    }

    /// Whether the game keeps a points table (HexiMeros §7 with its `scored` house rule; the
    /// other games have ratings only).
    pub fn scored(&self) -> bool {
        self.game.scored()
    }

    /// Minutes the challenge window stays open (§5.4).
    pub fn window_minutes(&self) -> i64 {
        self.game.challenge_minutes()
    }

    fn live(&self) -> Result<(), Refused> {
        if self.over() || self.outcome().is_some() {
            return Err(Refused::GameOver);
        }
        if self.paused_at.is_some() {
            return Err(Refused::Paused);
        }
        Ok(())
    }

    fn require_holder(&self, seat: Seat) -> Result<(), Refused> {
        match self.holder() {
            Some(h) if h == seat => Ok(()),
            Some(h) => Err(Refused::NotYourTurn {
                holder: self.seat_name(h).to_string(),
            }),
            None => Err(Refused::GameOver),
        }
    }

    fn require_seat(&self, seat: Seat) -> Result<&SeatState, Refused> {
        self.seats.get(seat.index()).ok_or(Refused::NotSeated)
    }

    fn require_active(&self, seat: Seat) -> Result<(), Refused> {
        self.require_seat(seat)?;
        if !self.active().contains(&seat) {
            return Err(Refused::NotInGame(self.seat_title(seat)));
        }
        Ok(())
    }

    fn player(&self, seat: Seat) -> PlayerId {
        self.seats.get(seat.index()).map(|s| s.mover).unwrap_or(0)
    }

    /// Apply one event. On error `self` may be half-changed: callers apply to a copy.
    pub fn apply(&mut self, ev: &Event, at: Millis) -> Result<Vec<Effect>, HostError> {
        let based = self.version;
        let mut fx = Vec::new();
        self.version += 1;
        match ev {
            Event::Staged { seat, text, asked } => self.stage(*seat, text, asked, at, &mut fx)?,
            Event::TakenBack { seat } => self.take_back(*seat, &mut fx)?,
            Event::Answered { seat, declare } => self.answer(*seat, *declare, at, &mut fx)?,
            Event::WindowClosed => self.close_window(at, &mut fx)?,
            Event::Committed { seat, text } => self.commit(*seat, text, at, &mut fx)?,
            Event::Preference { seat, pref } => {
                self.require_seat(*seat)?;
                if let Some(p) = self.prefs.get_mut(seat.index()) {
                    *p = *pref;
                }
            }
            Event::Resigned { seat } => self.leave(*seat, Departure::Resign, at, &mut fx)?,
            Event::ResignedFor { seat, player } => {
                self.resign_for(based, *seat, *player, at, &mut fx)?
            }
            Event::Conceded { seat } => self.leave(*seat, Departure::Concede, at, &mut fx)?,
            Event::Proposed { seat, motion } => self.propose(based, *seat, motion, at, &mut fx)?,
            Event::Ballot { motion, seat, yes } => {
                self.ballot(*motion, *seat, *yes, at, &mut fx)?
            }
            Event::MotionExpired { motion } => self.expire(*motion, at, &mut fx)?,
            Event::Enacted { motion } => self.enact(motion, at, &mut fx)?,
            Event::Reminded { seat, level } => self.remind(*seat, *level, &mut fx)?,
            Event::TurnTimedOut { seat } => self.time_out(*seat, &mut fx)?,
            Event::Admin { action } => self.admin(*action, at, &mut fx)?,
            Event::TimeClaimed { seat } => self.claim_time(*seat, at, &mut fx)?,
            Event::PassWhenClosed { seat } => self.pass_when_closed(*seat, &mut fx)?,
            Event::Away {
                seat,
                until,
                reason,
            } => self.go_away(*seat, *until, reason.as_deref(), at, &mut fx)?,
            Event::Back { seat } => self.come_back(*seat, at, &mut fx)?,
            Event::Queued {
                seat,
                text,
                conditions,
            } => self.queue_move(*seat, text, conditions, &mut fx)?,
            Event::QueueCleared { seat } => self.clear_queue(*seat, &mut fx)?,
            Event::QueueDropped { seat, why } => self.drop_queue(*seat, why, &mut fx)?,
            Event::QueuePlayed { seat, text, asked } => {
                self.play_queue(*seat, text, asked, at, &mut fx)?
            }
            Event::Abandoned { .. } => self.abandon()?,
        }
        if clocks::moves_clocks(ev) {
            self.clock_log.push((self.record.len(), at, ev.clone()));
        }
        self.check_end(&mut fx);
        Ok(fx)
    }

    fn check_end(&mut self, fx: &mut Vec<Effect>) {
        if self.over() {
            return;
        }
        let Some(outcome) = self.outcome() else {
            return;
        };
        self.life = Status::Finished;
        self.staged = None;
        self.motions.clear();
        fx.push(Effect::Say {
            game: self.id,
            text: say::game_over(&self.outcome_text(&outcome)).into(),
        });
    }

    /// The outcome in a sentence: `White won (Black lost on time)`.
    pub fn outcome_text(&self, outcome: &Outcome) -> String {
        crate::host::story::outcome(&self.game, outcome)
    }

    /// Append a committed move or table event to the record.
    fn note(&mut self, seat: Option<Seat>, line: Line, at: Millis) {
        self.record.push(Record {
            seat,
            line: line.write(&self.game),
            at,
        });
    }

    /// Keep `told` for the round story.
    fn tell(&mut self, told: Told) {
        if self.told.len() >= TOLD_KEPT {
            self.told.remove(0);
        }
        self.told.push(told);
    }

    /// What happened since `seat`'s previous turn, in words (see `host::story`).
    pub fn story_since(&self, seat: Seat) -> String {
        story::since(&self.told, seat)
    }

    /// The game as text: setup, house rules, then one line per committed move or departure.
    /// This is what `export` writes and `import` reads, and what a renderer replays.
    pub fn export(&self) -> String {
        let mut headers: Vec<(String, String)> = Vec::new();
        if let Ok(t) = serde_json::to_string(&self.timers) {
            headers.push(("timers".into(), t));
        }
        if let Some(p) = &self.setup.position {
            headers.push(("position".into(), p.to_string()));
        }
        headers.push((clocks::CLOCK_HEADER.into(), self.clock_header().to_string()));
        let lines: Vec<String> = self.record.iter().map(|r| r.line.clone()).collect();
        let outcome = self.outcome().map(|o| self.outcome_text(&o));
        record::write(
            self.kind(),
            self.seats.len(),
            &self.house,
            &headers,
            &lines,
            outcome.as_deref(),
        )
    }
}
