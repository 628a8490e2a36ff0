//! The closed set of reasons the host refuses a command. Each message is what the player reads,
//! privately; the state is unchanged whenever one is returned.

use thiserror::Error;

use super::event::GameId;
use crate::store::StoreError;

#[derive(Debug, Error)]
pub enum HostError {
    #[error("there is no game #{0}")]
    UnknownGame(GameId),
    #[error("game #{game} is corrupt: {reason}")]
    Corrupt { game: GameId, reason: String },
    #[error("you are not playing in this game")]
    NotSeated,
    #[error("it is not your turn: {holder} has the Token")]
    NotYourTurn { holder: String },
    #[error("only your team's designated mover may do that")]
    NotTeamMover,
    #[error("{0}")]
    Syntax(String),
    #[error("{0}")]
    Illegal(String),
    #[error(
        "this was based on an earlier state of the game (version {expected}, now {current}); \
         look at the board again"
    )]
    Stale { expected: u64, current: u64 },
    #[error("the game is over")]
    GameOver,
    #[error("the game is paused")]
    Paused,
    #[error("there is no staged move: stage one with move first")]
    NothingStaged,
    #[error("the check challenge window is open: waiting for {0}")]
    WindowOpen(String),
    #[error("you are not asked about this move")]
    NotAsked,
    #[error("you may not vote on this motion")]
    NotVoter,
    #[error("there is no open motion #{0}")]
    NoSuchMotion(u64),
    #[error("you have already voted on motion #{0}")]
    AlreadyVoted(u64),
    #[error("only an admin may do that")]
    NotAdmin,
    #[error("{0}")]
    Invalid(String),
    #[error("storage failed: {0}")]
    Store(#[from] StoreError),
}

impl HostError {
    /// True for a failure a player cannot cause (storage, a stored game that no longer
    /// replays): a front end apologises and logs it instead of showing its text. Every other
    /// variant is a refusal whose text is the sentence the player reads.
    pub fn is_internal(&self) -> bool {
        matches!(self, HostError::Store(_) | HostError::Corrupt { .. })
    }

    pub(crate) fn invalid(msg: impl Into<String>) -> HostError {
        HostError::Invalid(msg.into())
    }
}
