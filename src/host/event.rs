//! What the host stores: a game's setup and the events of its log. The log is the truth; a game's
//! state is the setup with every event replayed (`state.rs`). Every type here is serialized into
//! the database, so variant and field names are stable: add, never rename.

use serde::{Deserialize, Serialize};

use crate::games::{GameKind, Seat};

/// A player's id: a Discord user snowflake, or a small number for local players.
pub type PlayerId = i64;

/// A game's id (the `games` row).
pub type GameId = i64;

/// Unix time in milliseconds.
pub type Millis = i64;

/// How a game starts: written once, when it is created.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    pub kind: GameKind,
    /// The player in each seat at the start, in seat order.
    pub players: Vec<PlayerId>,
    /// House rules given at creation (a JSON object; only the switches that differ).
    #[serde(default = "empty_object")]
    pub house_rules: serde_json::Value,
    #[serde(default)]
    pub timers: Timers,
    /// The position the game starts from (position JSON, see docs/notation.md), when it does not
    /// start from the game's start position; its house rules are the position's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<serde_json::Value>,
}

pub(crate) fn empty_object() -> serde_json::Value {
    serde_json::Value::Object(serde_json::Map::new())
}

/// The host's own house rules: how long people get. Voted in the House Rules phase like the
/// game's switches (keys `turn_timer_hours`, `ballot_hours`, `reminders`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Timers {
    /// After this many hours without a move the Token holder is stalled: the others may vote to
    /// skip, replace or expel them, or, with two seats left, the opponent may claim the game on
    /// time; 0 turns the timer off.
    pub turn_timer_hours: u32,
    /// Ballots close after this many hours (§8.1: default 24); a vote not cast counts as no.
    pub ballot_hours: u32,
    /// Remind the Token holder after 1, 4 and 12 hours (the later ones also by direct message).
    pub reminders: bool,
    /// Each seat's time bank at the start, in hours: once a turn has lasted `turn_timer_hours`,
    /// the holder's bank drains; with both spent, the turn has timed out. 0: no bank.
    pub bank_hours: u32,
    /// Hours added to a seat's bank after each of its moves (Fischer). 0: none.
    pub bank_add_hours: u32,
    /// How long each player may be away in this game, in all (hours); their clocks stop
    /// meanwhile.
    pub away_hours: u32,
}

impl Default for Timers {
    fn default() -> Timers {
        Timers {
            turn_timer_hours: 24,
            ballot_hours: 24,
            reminders: true,
            bank_hours: 0,
            bank_add_hours: 0,
            away_hours: 168,
        }
    }
}

/// Hours after the start of a turn at which the Token holder is reminded, escalating.
pub const REMINDER_HOURS: [i64; 3] = [1, 4, 12];

/// A standing answer to the check-upon-the-mover question (§5.4 step 3), so a player is not
/// asked every time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengePref {
    /// Ask me each time (the default).
    Ask,
    /// Always declare Check upon a mover who leaves his Sovereign attacked by me.
    AlwaysDeclare,
    /// Never declare: I keep quiet and may capture the Sovereign on my turn.
    NeverDeclare,
}

/// A question put to the players (§8.1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "motion", rename_all = "snake_case")]
pub enum Motion {
    /// Set a house rule (a game switch or a timer) before the first Token pass; majority.
    HouseRule {
        key: String,
        value: serde_json::Value,
    },
    /// Expel a player (§8.5): unanimous yes of every other active seat; −500 when scored.
    Expel { seat: Seat },
    /// Expel a player and seat `player` (a person or a bot) in their place (§8.5: expulsion is
    /// handled as a resignation, so a replacement may be elected): unanimous like `Expel`; the
    /// expelled player forfeits his points and takes −500 and the −50 of a replaced resigner.
    ExpelFor { seat: Seat, player: PlayerId },
    /// A new person takes over a seat: one that resigned asking for a replacement, or the
    /// stalled Token holder (turn timer run out); majority of the others. Never against the
    /// opponent when two seats are left.
    Replace { seat: Seat, player: PlayerId },
    /// Pass the Token of the stalled Token holder (turn timer run out) without a move; majority
    /// of the others. Never against the opponent when two seats are left.
    Skip { seat: Seat },
    /// End the game drawn between every remaining seat: the last two agreeing, or a unanimous
    /// abandon vote of three or more (§6).
    Draw,
    /// Several people play one seat (§8.4); only the designated mover stages and passes.
    /// Unanimous approval of every other seat.
    Team {
        seat: Seat,
        members: Vec<PlayerId>,
        mover: PlayerId,
    },
}

/// Admin actions (the front end checks the permission).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdminAction {
    Abort,
    Pause,
    Resume,
}

/// One entry of a game's log. Each is stored with the version it was based on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The Token holder stages a move (canonical text, with his Check declarations). `asked` are
    /// the players put to the check-upon-the-mover question, decided when staging.
    Staged {
        seat: Seat,
        text: String,
        #[serde(default)]
        asked: Vec<Seat>,
    },
    /// The Token holder takes the staged move back.
    TakenBack {
        seat: Seat,
    },
    /// A player asked in the challenge window answers.
    Answered {
        seat: Seat,
        declare: bool,
    },
    /// The challenge window timed out: whoever did not answer let the move stand.
    WindowClosed,
    /// The Token is passed: the move (canonical text) is final.
    Committed {
        seat: Seat,
        text: String,
    },
    /// A player sets a standing preference for challenge windows.
    Preference {
        seat: Seat,
        pref: ChallengePref,
    },
    /// A seat resigns without a replacement (§8.3).
    Resigned {
        seat: Seat,
    },
    /// A seat resigns and proposes who takes over; the others vote (motion id = this version).
    ResignedFor {
        seat: Seat,
        player: PlayerId,
    },
    /// One of the last two concedes (§6).
    Conceded {
        seat: Seat,
    },
    /// A motion is put to the vote; its id is the version of this event.
    Proposed {
        seat: Seat,
        motion: Motion,
    },
    /// A vote on an open motion.
    Ballot {
        motion: u64,
        seat: Seat,
        yes: bool,
    },
    /// A ballot's deadline passed: the motion failed.
    MotionExpired {
        motion: u64,
    },
    /// A motion taking effect without a vote (import of an exported game).
    Enacted {
        motion: Motion,
    },
    /// A turn reminder was sent (`level` 1, 2, 3).
    Reminded {
        seat: Seat,
        level: u8,
    },
    /// The turn timer ran out: the others were invited to vote.
    TurnTimedOut {
        seat: Seat,
    },
    Admin {
        action: AdminAction,
    },
    /// With two seats left, `seat` claims the game on time: the other seat holds the Token and
    /// its turn timer ran out, so it loses on time (a `timeout` departure).
    TimeClaimed {
        seat: Seat,
    },
    /// The Token holder asks that the Token be passed with the staged move as soon as its
    /// challenge window closes with nobody declaring (all asked let it stand, or the window
    /// times out). A declaration upon him, a take back or a new staging cancels it.
    PassWhenClosed {
        seat: Seat,
    },
    /// `seat`'s player is away until `until` (within the game's away allowance): their clocks
    /// and reminders stop meanwhile.
    Away {
        seat: Seat,
        until: Millis,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// `seat`'s player is back: they came back early or acted, or their away time is over.
    Back {
        seat: Seat,
    },
    /// A waiting player queues a move for their next turn, with conditions (issue 22). Private:
    /// nobody else is told, and it is never exported. A new one replaces the seat's old one.
    Queued {
        seat: Seat,
        text: String,
        #[serde(default)]
        conditions: QueueConditions,
    },
    /// The player cancels their queued move.
    QueueCleared {
        seat: Seat,
    },
    /// The seat's turn came and a condition of its queued move failed (or the rules refused the
    /// move): the queue is cleared and the player is pinged with the reason.
    QueueDropped {
        seat: Seat,
        why: QueueMiss,
    },
    /// The seat's turn came and its queued move held: staged for the player (canonical text,
    /// `asked` decided as for a move the player stages) and passed at once when nobody is asked,
    /// else as soon as the challenge window closes with nobody declaring.
    QueuePlayed {
        seat: Seat,
        text: String,
        #[serde(default)]
        asked: Vec<Seat>,
    },
    /// The game could not be given a place to be played (Discord refused its thread for good:
    /// no access to the channel, a channel that holds no threads) before anyone moved: it ends
    /// aborted, and nothing it had to say is sent (`GameHost::abandon_start`).
    Abandoned {
        why: String,
    },
}

/// The conditions of a queued move: every one must hold when the seat's turn comes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueConditions {
    /// The piece the move starts from, as it stood when the move was queued: it must still be
    /// there (implied by every queued move that moves a piece).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<QueuedPiece>,
    /// Nothing attacks the player's Sovereign (King) when the turn comes.
    #[serde(default)]
    pub sovereign_safe: bool,
    /// Two-player games: the opponent's last move was this one (canonical text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub if_reply: Option<String>,
}

/// A piece as a queued move found it: its cell, owner and kind (position JSON names).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuedPiece {
    pub cell: String,
    pub owner: String,
    pub kind: String,
}

/// Why a queued move was not played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum QueueMiss {
    /// The piece it moves is no longer on its cell.
    PieceGone { cell: String },
    /// Something attacks the player's Sovereign (King).
    SovereignAttacked,
    /// The opponent answered with another move (`played`, none when they made none).
    OtherReply {
        expected: String,
        played: Option<String>,
    },
    /// The rules refused the move now (the rules' sentence).
    Refused { reason: String },
}

impl Event {
    /// The short name stored in the `kind` column (for reading the log by hand).
    pub fn name(&self) -> &'static str {
        match self {
            Event::Staged { .. } => "staged",
            Event::TakenBack { .. } => "taken_back",
            Event::Answered { .. } => "answered",
            Event::WindowClosed => "window_closed",
            Event::Committed { .. } => "committed",
            Event::Preference { .. } => "preference",
            Event::Resigned { .. } => "resigned",
            Event::ResignedFor { .. } => "resigned_for",
            Event::Conceded { .. } => "conceded",
            Event::Proposed { .. } => "proposed",
            Event::Ballot { .. } => "ballot",
            Event::MotionExpired { .. } => "motion_expired",
            Event::Enacted { .. } => "enacted",
            Event::Reminded { .. } => "reminded",
            Event::TurnTimedOut { .. } => "turn_timed_out",
            Event::Admin { .. } => "admin",
            Event::TimeClaimed { .. } => "time_claimed",
            Event::PassWhenClosed { .. } => "pass_when_closed",
            Event::Away { .. } => "away",
            Event::Back { .. } => "back",
            Event::Queued { .. } => "queued",
            Event::QueueCleared { .. } => "queue_cleared",
            Event::QueueDropped { .. } => "queue_dropped",
            Event::QueuePlayed { .. } => "queue_played",
            Event::Abandoned { .. } => "abandoned",
        }
    }
}
