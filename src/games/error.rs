//! The closed set of errors a rules engine reports: a bad position, a mistyped move, an illegal
//! move. Messages are lower-case and say what was wrong and why.

use thiserror::Error;

/// A position (JSON or a `Setup`) that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("malformed position JSON: {0}")]
    Json(String),
    #[error("unknown game {0:?} (expected heximeros, hexdame, hexmeister, hexaequo or harmegedo)")]
    UnknownGame(String),
    #[error("this position is for {found}, not {expected}")]
    WrongGame {
        expected: &'static str,
        found: String,
    },
    #[error("unknown cell {0:?}")]
    UnknownCell(String),
    #[error("unknown colour {0:?}")]
    UnknownOwner(String),
    #[error("unknown piece kind {0:?}")]
    UnknownKind(String),
    #[error("two pieces on {0}")]
    TwoPieces(String),
    #[error("{0}")]
    Invalid(String),
}

/// Move text that does not parse, before any position is consulted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot read move {text:?}: {reason}")]
pub struct SyntaxError {
    pub text: String,
    pub reason: String,
}

/// A well-formed move that the position does not allow, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("illegal move {text}: {reason}")]
pub struct IllegalMove {
    pub text: String,
    pub reason: String,
}

/// Why a move could not be played: it was mistyped, or it is against the rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlayError {
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

impl PlayError {
    pub fn syntax(text: &str, reason: impl Into<String>) -> PlayError {
        PlayError::Syntax(SyntaxError {
            text: text.to_string(),
            reason: reason.into(),
        })
    }

    pub fn illegal(text: &str, reason: impl Into<String>) -> PlayError {
        PlayError::Illegal(IllegalMove {
            text: text.to_string(),
            reason: reason.into(),
        })
    }
}
