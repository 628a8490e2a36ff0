//! The parts of the position JSON that every game shares (ARCHITECTURE.md "Positions").

use serde::{Deserialize, Serialize};

use super::PositionError;

fn is_false(b: &bool) -> bool {
    !*b
}

/// One piece as written in position JSON. `moved`, `hatted` and `gz_bonus` default to false and
/// are left out when false; a game that has no use for one rejects it when set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceText {
    pub cell: String,
    pub owner: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub moved: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub hatted: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub gz_bonus: bool,
}

impl PieceText {
    pub fn new(cell: &str, owner: &str, kind: &str) -> PieceText {
        PieceText {
            cell: cell.to_string(),
            owner: owner.to_string(),
            kind: kind.to_string(),
            moved: false,
            hatted: false,
            gz_bonus: false,
        }
    }

    /// Reject the flags a game does not use, naming the piece.
    pub fn forbid_flags(
        &self,
        moved: bool,
        hatted: bool,
        gz_bonus: bool,
    ) -> Result<(), PositionError> {
        for (set, allowed, name) in [
            (self.moved, moved, "moved"),
            (self.hatted, hatted, "hatted"),
            (self.gz_bonus, gz_bonus, "gz_bonus"),
        ] {
            if set && !allowed {
                return Err(PositionError::Invalid(format!(
                    "the piece on {} has {name}, which this game does not use",
                    self.cell
                )));
            }
        }
        Ok(())
    }
}

/// Check the `game` field of a setup.
pub fn expect_game(found: &str, expected: super::GameKind) -> Result<(), PositionError> {
    if found == expected.key() {
        Ok(())
    } else {
        Err(PositionError::WrongGame {
            expected: expected.key(),
            found: found.to_string(),
        })
    }
}

/// Look a name up in a list of lower-case names, ignoring case.
pub fn lookup(names: &[&str], name: &str) -> Option<usize> {
    let n = name.trim().to_ascii_lowercase();
    names.iter().position(|&x| x == n)
}
