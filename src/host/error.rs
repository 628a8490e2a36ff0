//! The host's errors have two faces. A [`Refused`] is something a player did that the rules or
//! the table do not allow: the closed set of refusals, each with the sentence the player reads
//! (`say.rs` words them), and the state is unchanged. Everything else is internal — the store
//! failed, a stored game no longer replays, a bot could not think — which a front end shows as a
//! short apology and logs with its cause.

use thiserror::Error;

use super::event::GameId;
pub use super::say::Refused;
use super::settings::SettingsError;
use crate::store::StoreError;

#[derive(Debug, Error)]
pub enum HostError {
    /// Something a player may not do, with the sentence they read.
    #[error(transparent)]
    Refused(#[from] Refused),
    /// A stored game whose log no longer replays.
    #[error("game #{game} is corrupt: {reason}")]
    Corrupt { game: GameId, reason: String },
    /// Settings a player cannot set, or whose stored row no longer reads (`settings`): the
    /// sentence they read.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error("storage failed: {0}")]
    Store(#[from] StoreError),
    /// A failure of the host itself (a bot that could not think, a value that could not be
    /// written).
    #[error("{0}")]
    Internal(String),
}

impl HostError {
    /// Whether this is the host's (or the store's) failure rather than the player's: shown as
    /// an apology and logged, never as its text.
    pub fn is_internal(&self) -> bool {
        !matches!(self, HostError::Refused(_) | HostError::Settings(_))
    }

    /// Whether a write made under a lease was refused because another process holds the lease
    /// now (`StoreError::LeaseLost`): the item is theirs, nothing was written.
    pub fn lease_lost(&self) -> bool {
        matches!(self, HostError::Store(StoreError::LeaseLost { .. }))
    }

    /// The refusal, when the player did something not allowed.
    pub fn refusal(&self) -> Option<&Refused> {
        match self {
            HostError::Refused(r) => Some(r),
            _ => None,
        }
    }
}
