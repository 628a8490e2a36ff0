//! Every sentence a player reads from the host: the refusals (a closed set) and what the host
//! says in a game's thread, in private and by direct message. The rest of the host decides;
//! this module words.

use thiserror::Error;

use super::event::{GameId, Millis, PlayerId};
use super::words::Sentence;

/// A house rule ballot still open at the first Token pass, closed.
pub fn house_ballot_closed(id: u64, rule: &str, value: &str) -> String {
    format!(
        "the vote on {rule} = {value} (motion #{id}) closed without a decision: the first move \
         was played"
    )
}

/// One line of the house rules in force.
pub fn house_line(rule: &str, value: &str) -> String {
    format!("{rule}: {value}")
}

/// What a player may not do now, with the sentence they read. Returned only when nothing
/// changed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Refused {
    #[error("there is no game #{0}")]
    UnknownGame(GameId),
    #[error("you are not playing in this game")]
    NotSeated,
    #[error("it is not your turn: {holder} has the Token")]
    NotYourTurn { holder: String },
    #[error("only your team's designated mover may do that")]
    NotTeamMover,
    /// Move text that is not a move (the game's sentence).
    #[error("{0}")]
    Syntax(String),
    /// A move the position does not allow (the game's sentence, or a Check upon the mover
    /// it ignores).
    #[error("{0}")]
    Illegal(String),
    /// Something else the game's rules refuse (the game's sentence): a departure, a draw, a
    /// house rule value.
    #[error("{0}")]
    Rules(String),
    #[error(
        "this was based on an earlier state of the game (version {expected}, now {current}); \
         look at the board again"
    )]
    Stale { expected: u64, current: u64 },
    #[error(
        "this button is from an earlier preview: the move it was made for is no longer the one \
         staged (use your latest preview)"
    )]
    StalePreview,
    #[error("this button is from an earlier challenge window, which is closed")]
    StaleWindow,
    #[error(
        "this confirmation has expired: the game moved on since you asked (ask again with \
         /hexmeros resign)"
    )]
    StaleConfirmation,
    #[error("this button is from an earlier vote: motion #{0} is no longer open")]
    StaleBallot(u64),
    #[error("the game is over")]
    GameOver,
    #[error("the game is paused")]
    Paused,
    #[error("you are no longer in the server this game is played in")]
    LeftPlace,
    #[error("the game is not paused")]
    NotPaused,
    #[error("you are already away in this game: come back first (away end)")]
    AlreadyAway,
    #[error("you are not away in this game")]
    NotAway,
    #[error("you may be away for at most {0} more hours in this game (and for more than no time)")]
    AwayTooLong(i64),
    #[error("you may be away for more than no time and at most {0} days at once")]
    AwayLength(i64),
    #[error("an away reason may be at most {0} characters long")]
    AwayReason(usize),
    #[error("there is no staged move: stage one with move first")]
    NothingStaged,
    #[error("the check challenge window is open: waiting for {0}")]
    WindowOpen(String),
    #[error("no challenge window is open")]
    NoWindow,
    #[error("{text} declares no Check on {target}: it does not newly attack their Sovereign")]
    NoDeclaration { text: String, target: String },
    #[error("you are not asked about this move")]
    NotAsked,
    #[error("you may not vote on this motion")]
    NotVoter,
    #[error("there is no open motion #{0}")]
    NoSuchMotion(u64),
    #[error("you have already voted on motion #{0}")]
    AlreadyVoted(u64),
    #[error("there is no motion to vote on")]
    NoMotionToVote,
    #[error("several motions are open: say which (vote yes <number>)")]
    SeveralMotions,
    #[error("that motion is already being voted on")]
    MotionOpen,
    #[error("only an admin may do that")]
    NotAdmin,
    #[error("a player may take only one seat")]
    OneSeatEach,
    #[error("{game} is played by {players}, not {given}")]
    PlayerCount {
        game: &'static str,
        players: String,
        given: usize,
    },
    #[error("a bot plays that seat: it moves by itself (bot turns)")]
    BotSeat,
    #[error("{0} is no longer in the game")]
    NotInGame(String),
    #[error("house rules are voted only before the first Token pass")]
    HouseRulesClosed,
    #[error("bad value for {key}: {reason}")]
    BadTimer { key: String, reason: String },
    #[error("you cannot expel yourself; resign instead")]
    ExpelSelf,
    #[error("expulsion needs at least two other players to vote")]
    ExpelNeedsVoters,
    #[error("{0} is played by a bot, which never stalls")]
    BotNeverStalls(String),
    #[error("{0} does not hold the Token")]
    NotHolder(String),
    #[error("you cannot skip your own turn")]
    SkipSelf,
    #[error(
        "{0}'s turn may be skipped only after their turn timer has run out (they are not \
         stalled)"
    )]
    SkipNotStalled(String),
    #[error(
        "{0} may be replaced only after their turn timer has run out holding the Token, or when \
         they resign asking for a replacement"
    )]
    ReplaceNotStalled(String),
    #[error(
        "with two players left there is no vote against your opponent: if their turn timer runs \
         out, claim the game on time (vote claim)"
    )]
    AgainstOpponent,
    #[error(
        "a game is claimed on time only when two players are left; with more, the others vote \
         (vote skip, vote replace, vote expel)"
    )]
    ClaimNeedsTwo,
    #[error("you hold the Token: there is no time to claim")]
    ClaimOwnTurn,
    #[error("{0}'s turn timer has not run out: the game can be claimed on time only after it has")]
    NotOutOfTime(String),
    #[error("there is no draw offer to accept (draw offer makes one)")]
    NoDrawOffered,
    #[error("the designated mover must be a member of the team")]
    MoverNotInTeam,
    #[error("a bot cannot play in a team")]
    BotInTeam,
    #[error("a team member already plays another seat")]
    MemberElsewhere,
    #[error("that player already plays in this game")]
    AlreadyPlays,
    #[error("the export has {seats} seats but {given} players were given")]
    SeatsMismatch { seats: usize, given: usize },
    /// A game record (export text) that cannot be imported.
    #[error("{0}")]
    BadRecord(String),
    #[error("game #{0} is not over: it has no results yet")]
    NotOver(GameId),
    #[error("there is no lobby #{0}")]
    UnknownLobby(i64),
    #[error(
        "to start a game, take a seat in it yourself (as one of the players), or ask someone with \
         the Manage Server permission"
    )]
    StarterMustPlay,
    #[error("seats sets the size of an open table: use it with open:true")]
    SeatsNeedOpen,
    #[error("lobby #{lobby} has already started: it is game #{game}")]
    LobbyStarted { lobby: i64, game: GameId },
    #[error("lobby #{0} was cancelled: no game was started")]
    LobbyCancelled(i64),
    #[error("lobby #{0} has expired: no game was started (start a new one)")]
    LobbyExpired(i64),
    #[error("lobby #{0} has no free seat")]
    LobbyFull(i64),
    #[error("you have already joined lobby #{0}")]
    AlreadyJoined(i64),
    #[error("that seat is not yours: only the players invited to lobby #{0} may join it")]
    NotInvited(i64),
    #[error("you have no seat in lobby #{0}")]
    NoLobbySeat(i64),
    #[error("no challenge window is open on your staged move: pass the Token now")]
    NoWindowToWaitFor,
    #[error("you already asked to pass the Token when the challenge window closes")]
    AlreadyPassingWhenClosed,
    #[error("a note needs some text")]
    EmptyNote,
    #[error("you have {0} notes on this game, the most it keeps: clear them first")]
    TooManyNotes(i64),
    #[error("you hold the Token: just move (a queued move is for a later turn)")]
    QueueOwnTurn,
    #[error("{0} has no Sovereign or King, so sovereign_safe does not apply")]
    QueueNoSovereign(&'static str),
    #[error("if_reply works only when two players are left in the game")]
    QueueReplyNeedsTwo,
    #[error("there is no piece of yours on {0} to move")]
    QueueNotYourPiece(String),
    #[error("your opponent cannot answer with {reply}: {reason}")]
    QueueBadReply { reply: String, reason: String },
    #[error("after {reply} your move would not be legal: {reason}")]
    QueueIllegalAfter { reply: String, reason: String },
    #[error("you have no queued move in this game")]
    NothingQueued,
    #[error("you have {0} queued lines, the most kept: clear them first")]
    QueueFull(usize),
}

impl Refused {
    /// The player-count refusal for a game taking `min..=max` players.
    pub fn player_count(game: &'static str, min: usize, max: usize, given: usize) -> Refused {
        Refused::PlayerCount {
            game,
            players: if min == max {
                format!("{min} players")
            } else {
                format!("{min} to {max} players")
            },
            given,
        }
    }
}

pub fn disrespects(text: &str, declarers: &[String]) -> String {
    format!(
        "illegal move {text}: it leaves your Sovereign attacked by {}, who declared Check upon \
         you; change your move",
        declarers.join(" and ")
    )
}

pub fn staged_preview(text: &str, board: &str) -> String {
    format!("staged {text}\n{board}\npass the Token to commit it, or take it back")
}

pub fn window_opened(mover: &str, asked: &[String], minutes: i64) -> String {
    format!(
        "{mover} staged a move that leaves their Sovereign attacked by {}: they may declare \
         Check upon {mover} within {minutes} minutes",
        asked.join(", ")
    )
}

/// The question to `attacker` in a challenge window about `mover`'s staged move `text`.
pub fn ask_challenge(mover: &str, text: &str, attacker: &str) -> String {
    format!(
        "{mover}'s staged move {text} leaves {mover}'s Sovereign attacked by {attacker} (you): \
         declare Check upon them, or let it stand?"
    )
}

pub const TAKEN_BACK: &str = "move taken back";

pub fn declared_upon(declarer: &str, mover: &str) -> String {
    format!("{declarer} declares Check upon {mover}: the staged move is rejected")
}

pub fn declared_upon_you(declarer: &str) -> String {
    format!(
        "{declarer} declared Check upon you: stage a move that leaves your Sovereign out of \
         their attack"
    )
}

pub const NOBODY_DECLARED: &str = "nobody declared Check upon you: you may pass the Token";

pub const WINDOW_CLOSED: &str =
    "the challenge window closed without a declaration: you may pass the Token";

pub const WINDOW_STILL_OPEN: &str = "a challenge window is open: pass the Token once it closes";

pub fn played(seat: &str, text: &str) -> String {
    format!("{seat} played {text}")
}

/// Whose previous turn a turn message's story starts after.
pub enum Since<'a> {
    /// The Token holder's previous turn.
    Turn(&'a str),
    /// The game's start: the holder has had no turn yet.
    Start,
    /// The move itself (the game is over).
    Move,
}

/// A turn message's caption: the move on the first line (kept alone: readers find the move
/// after " played "), then the story of the round on the next.
pub fn with_story(played: &str, since: Since, story: &str) -> String {
    if story.is_empty() {
        return played.to_string();
    }
    match since {
        Since::Turn(seat) => format!("{played}\nsince {seat}'s last turn: {story}"),
        Since::Start => format!("{played}\nso far: {story}"),
        Since::Move => format!("{played}\n{story}"),
    }
}

/// The Token holder's ping, with what the rules force on them in the words every front end
/// shows (the host's projection, `Forced::text`): a Check to relieve, a compulsory capture.
pub fn your_token(seat: &str, forced: Option<&super::Forced>) -> String {
    let mut text = format!("{seat}, you have the Token");
    if let Some(f) = forced {
        text.push_str("; ");
        text.push_str(&f.text());
    }
    text
}

pub fn reminder(game: GameId, hours: i64) -> String {
    format!("reminder: you have held the Token in game #{game} for {hours} hours")
}

/// A player went away (`until`: Unix milliseconds, written as a Discord timestamp), with the
/// reason they gave, as they wrote it.
pub fn away(seat: &str, until: Millis, reason: Option<&str>) -> Sentence {
    let mut text = Sentence::from(format!("{seat} is away until <t:{}:f>", until / 1000));
    if let Some(r) = reason {
        text += " (";
        text += Sentence::quoted(r);
        text += ")";
    }
    text += ": their clock stands still meanwhile";
    text
}

pub fn back(seat: &str) -> String {
    format!("{seat} is back: their clock runs again when they hold the Token")
}

pub fn timed_out(seat: &str, hours: u32) -> String {
    format!(
        "{seat} has not moved for {hours} hours: the others may vote to skip their turn, replace \
         them or expel them (vote skip / vote replace / vote expel)"
    )
}

/// The turn timer ran out with two seats left: no vote, the opponent may claim the game.
pub fn timed_out_claim(seat: &str, hours: u32, opponent: &str) -> String {
    format!(
        "{seat} has not moved for {hours} hours: {opponent} may claim the game on time (vote \
         claim)"
    )
}

pub const ABORTED: &str = "the game was aborted by an admin";
pub const PAUSED: &str = "the game is paused by an admin";
pub const RESUMED: &str = "the game is resumed";

pub fn departed(seat: &str, verb: &str) -> String {
    format!("{seat} {verb}")
}

pub fn motion_opened(
    id: u64,
    by: &str,
    what: Sentence,
    hours: u32,
    needed: usize,
    voters: usize,
) -> Sentence {
    Sentence::from(format!("motion #{id} by {by}: "))
        + what
        + format!(" — vote yes or no within {hours} hours ({needed} of {voters} needed)")
}

pub fn motion_settled(id: u64, what: Sentence, passed: bool) -> Sentence {
    Sentence::from(format!("motion #{id} (")) + what + if passed { ") passed" } else { ") failed" }
}

/// A motion about a stall the seat ended by moving (or by being skipped).
pub fn motion_lapsed(id: u64, what: Sentence, seat: &str) -> Sentence {
    Sentence::from(format!("motion #{id} ("))
        + what
        + format!(") lapsed: {seat} is no longer stalled")
}

pub fn motion_expired(id: u64, what: Sentence) -> Sentence {
    Sentence::from(format!("motion #{id} (")) + what + ") failed: the ballot closed"
}

/// The direct message of a player who asked to hear of their turns that way.
pub fn your_turn_dm(game_name: &str, game: GameId, seat: &str) -> String {
    format!("⏳ your turn in {game_name} #{game} (you play {seat})")
}

/// The start of the direct message of a player everyone waits on alone, who asked to be told:
/// what waits on them, and an opening bracket for what it is about.
pub fn nudge(game_name: &str, game: GameId, what: &str) -> Sentence {
    Sentence::from(format!(
        "🕰️ everyone waits on you in {game_name} #{game}: {what} ("
    ))
}

pub fn now_you_play(seat: &str, game: GameId) -> String {
    format!("you now play {seat} in game #{game}")
}

/// One line of a results table after the place, colour and player: §7 points when the game is
/// scored, then the rating before → after with the change (`None`: the game changed no rating).
pub fn result_line(points: Option<i32>, rating: Option<(f64, f64)>) -> String {
    let mut parts = Vec::new();
    if let Some(p) = points {
        parts.push(format!("{p} points"));
    }
    parts.push(match rating {
        Some((before, after)) => {
            // The change is of the rounded values, so the three numbers always add up.
            let (b, a) = (
                (before * 10.0).round() / 10.0,
                (after * 10.0).round() / 10.0,
            );
            format!("rating {b:.1} → {a:.1} ({:+.1})", a - b)
        }
        None => "rating unchanged".to_string(),
    });
    parts.join(" · ")
}

pub fn game_over(outcome: &str) -> String {
    format!("game over: {outcome}")
}

pub fn thread_title(game_name: &str, id: GameId) -> String {
    format!("{game_name} #{id}")
}

/// The caption of a new game's first board: its first words.
pub const START_POSITION: &str = "the start position: the game begins. House rules may be voted \
                                  (vote house-rule) until the first Token pass.";

/// How motions read (§8).
pub mod motion {
    use super::{PlayerId, Sentence};

    pub fn house_rule(key: &str, value: &serde_json::Value) -> Sentence {
        format!("house rule {key} = {value}").into()
    }

    pub fn expel(seat: &str) -> Sentence {
        format!("expel {seat}").into()
    }

    pub fn expel_for(seat: &str, player: PlayerId) -> Sentence {
        Sentence::from(format!("expel {seat} and seat "))
            + Sentence::player(player)
            + " in their place"
    }

    pub fn replace(seat: &str, player: PlayerId) -> Sentence {
        Sentence::player(player) + format!(" takes over {seat}")
    }

    pub fn skip(seat: &str) -> Sentence {
        format!("skip {seat}'s turn").into()
    }

    pub fn draw(last_two: bool) -> Sentence {
        if last_two {
            "draw".into()
        } else {
            "abandon the game as a draw".into()
        }
    }

    pub fn team(seat: &str, mover: PlayerId) -> Sentence {
        Sentence::from(format!("a team plays {seat} with ")) + Sentence::player(mover) + " moving"
    }
}

/// Lobbies (`lobby.rs`): what the lobby message and its notices say, naming players as
/// sentences do, for a front end to write a mention or a name.
pub mod lobby {
    use super::super::lobby::{Chair, Lobby, LobbyStatus};
    use super::{PlayerId, Sentence};

    fn players(ps: &[PlayerId]) -> Sentence {
        Sentence::join(ps.iter().map(|&p| Sentence::player(p)), ", ")
    }

    fn chair(c: &Chair) -> Sentence {
        match (c.player, c.joined) {
            (Some(p), true) => Sentence::player(p) + " ✅",
            (Some(p), false) => Sentence::player(p) + " (invited)",
            (None, _) => "open".into(),
        }
    }

    /// The lobby message: who is invited, the seats, how to answer; or how it ended.
    pub fn message(l: &Lobby) -> Sentence {
        let name = l.kind.name();
        match l.status {
            LobbyStatus::Open => {
                let mut text = Sentence::player(l.starter)
                    + format!(" opens a table of {name} (lobby #{}): ", l.id)
                    + Sentence::join(l.chairs.iter().map(chair), " · ");
                let waiting = l.waiting();
                if !waiting.is_empty() {
                    text += "\n";
                    text += players(&waiting);
                    text += ": press Join to take your seat, or Decline";
                }
                if l.open_seats() > 0 {
                    text += format!(
                        "\n{} open seat(s): anyone here may press Join",
                        l.open_seats()
                    );
                }
                text += format!(
                    "\nthe game starts when every seat is taken; the lobby lapses after {} hours",
                    l.hours
                );
                text
            }
            LobbyStatus::Started(game) => {
                format!("lobby #{} is complete: {name} #{game} has begun", l.id).into()
            }
            LobbyStatus::Cancelled => cancelled(l).into(),
            LobbyStatus::Expired => expired(l).into(),
        }
    }

    pub fn cancelled(l: &Lobby) -> String {
        format!(
            "lobby #{} ({}) is cancelled: an invitation was declined; no game was started",
            l.id,
            l.kind.name()
        )
    }

    pub fn expired(l: &Lobby) -> String {
        format!(
            "lobby #{} ({}) expired after {} hours before every seat was taken; no game was \
             started",
            l.id,
            l.kind.name(),
            l.hours
        )
    }

    /// The starter's answer when the lobby waits.
    pub fn opened(l: &Lobby) -> String {
        format!(
            "lobby #{} is open: the game starts when every seat is taken (within {} hours)",
            l.id, l.hours
        )
    }

    /// A Join that leaves the lobby waiting.
    pub fn joined(l: &Lobby) -> Sentence {
        let mut missing = Vec::new();
        if !l.waiting().is_empty() {
            missing.push(players(&l.waiting()));
        }
        if l.open_seats() > 0 {
            missing.push(format!("{} open seat(s)", l.open_seats()).into());
        }
        Sentence::from(format!("you joined lobby #{}; waiting for ", l.id))
            + Sentence::join(missing, " and ")
    }

    pub fn declined(l: &Lobby, cancelled: bool) -> String {
        if cancelled {
            format!("you declined: lobby #{} is cancelled", l.id)
        } else {
            format!(
                "you left lobby #{}: your seat is open for anyone here",
                l.id
            )
        }
    }
}

/// The mover's answer when he asks to pass once the window closes.
pub fn will_pass_when_closed(waiting: &[String]) -> String {
    format!(
        "the Token will be passed with your staged move as soon as the challenge window closes \
         with nobody declaring (waiting for {}); a declaration upon you or a take back cancels it",
        waiting.join(", ")
    )
}

/// Said in the thread when the Token was passed on the mover's behalf.
pub fn passed_automatically(mover: &str, text: &str) -> String {
    format!(
        "nobody declared Check upon {mover}: the Token was passed automatically with {text}, as \
         {mover} asked"
    )
}

pub const TAKEN_BACK_NO_AUTO_PASS: &str =
    "move taken back: the Token will not be passed when the challenge window closes";

pub fn declared_upon_you_no_auto_pass(declarer: &str) -> String {
    format!(
        "{} (the Token will not be passed automatically)",
        declared_upon_you(declarer)
    )
}

// Queued (conditional) moves (issue 22).

/// One queued line: the move and its conditions.
pub fn queue_line(
    text: &str,
    conditions: &super::event::QueueConditions,
    sovereign: &str,
) -> String {
    let mut ifs = Vec::new();
    if let Some(p) = &conditions.piece {
        ifs.push(format!("your piece on {} is still there", p.cell));
    }
    if let Some(r) = &conditions.if_reply {
        ifs.push(format!("your opponent answers with {r}"));
    }
    if conditions.sovereign_safe {
        ifs.push(format!("nothing attacks your {sovereign}"));
    }
    if ifs.is_empty() {
        text.to_string()
    } else {
        format!("{text}, if {}", ifs.join(" and "))
    }
}

/// A queued move, told privately to the one who queued it; `lines` queued in all (answers to
/// different replies of the opponent's).
pub fn queued(line: &str, lines: usize) -> String {
    let of = if lines > 1 {
        format!(" (one of {lines} lines: the first that holds is played)")
    } else {
        String::new()
    };
    format!("queued for your next turn: {line}{of}. Nobody else is told")
}

/// The queued lines, for their player.
pub fn queue_shown(lines: &[String]) -> String {
    match lines {
        [one] => format!("queued for your next turn: {one}"),
        _ => format!(
            "queued for your next turn (the first line that holds is played):\n{}",
            lines
                .iter()
                .map(|l| format!("• {l}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

/// The queued move (each of its lines) was cancelled by its player.
pub fn queue_cleared(texts: &[String]) -> String {
    format!("your queued move {} is cancelled", texts.join(", "))
}

/// Why a queued move was not played, as its player reads it.
/// What the table reads when a player's queued move was not played.
pub const QUEUE_NOT_PLAYED: &str =
    "your queued move was not played (why was sent to you privately); it is cleared";

/// Why a queued move was not played, for its player alone (a DM names the game).
pub fn queue_missed(game: GameId, why: &super::event::QueueMiss, sovereign: &str) -> String {
    format!("game #{game}: {}", queue_missed_here(why, sovereign))
}

/// Why a queued move was not played, where the game is known.
pub fn queue_missed_here(why: &super::event::QueueMiss, sovereign: &str) -> String {
    use super::event::QueueMiss;
    let reason = match why {
        QueueMiss::PieceGone { cell } => format!("your piece on {cell} was captured"),
        QueueMiss::SovereignAttacked => format!("your {sovereign} is attacked"),
        QueueMiss::OtherReply {
            expected,
            played: Some(p),
        } => format!("your opponent answered {p}, not {expected}"),
        QueueMiss::OtherReply {
            expected,
            played: None,
        } => format!("your opponent did not answer {expected}"),
        QueueMiss::Refused { reason } => format!("the rules refuse it now ({reason})"),
    };
    format!("your queued move was not played: {reason}; it is cleared")
}

/// A turn message's first line after a queued move was played.
pub fn played_queued(seat: &str, text: &str) -> String {
    format!("{seat} played {text} (a queued move)")
}
