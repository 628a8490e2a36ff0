//! Harmegedo's house rules: every choice `docs/rules/harmegedo.md` leaves open (§1, §3, §5, §6), each a
//! field whose `Default` is the spec's proposal.

use serde::{Deserialize, Serialize};

/// In which order the kingdoms move (§1, §6-3). Kingdom 0 (the lowest sector in play) moves
/// first either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnOrder {
    /// 0 → 1 → … → 5 (the spec's proposal): each kingdom is followed by the one on its right.
    #[default]
    Ascending,
    /// 0 → 5 → 4 → … → 1: each kingdom is followed by the one on its left.
    Descending,
}

/// Which sectors fewer than six players take (§3, §6-8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seating {
    /// The spec's proposal, spread round the board: 5 → 0–4; 4 → 0, 1, 3, 4; 3 → 0, 2, 4;
    /// 2 → 0, 3.
    #[default]
    Spread,
    /// Sectors `0..n` side by side.
    Adjacent,
}

/// What an eliminated kingdom's pieces are (§5, §6-7). They never move either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NeutralPieces {
    /// Obstacles that any kingdom may capture (the spec's proposal).
    #[default]
    Capturable,
    /// Obstacles that nobody may capture.
    Walls,
}

/// What a team does once every kingdom outside it is out (§5 "they can then decide").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamVictory {
    /// The team stops and shares the win (all its kingdoms, out or not, win).
    #[default]
    Shared,
    /// The team plays on free-for-all, team-mates now enemies, until one king is left.
    PlayOn,
}

/// The open choices of `docs/rules/harmegedo.md`; `Default` is the spec. Partial JSON is fine
/// (`{"check_rules": true}`); unknown fields are an error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HouseRules {
    /// §6-1: a move may not leave the mover's king attacked by a live opponent; castling may not
    /// start on, pass or end on an attacked space; a kingdom whose turn comes with no legal move
    /// while attacked loses its king. Off by default: kings are simply captured.
    pub check_rules: bool,
    /// §6-4: a pawn reaching the last rank (the inner rim) becomes a queen, rook, bishop or
    /// knight. When off, such a pawn just stays there, unable to move.
    pub promotion: bool,
    /// §6-5: en passant, for the next kingdom to move only. Off by default.
    pub en_passant: bool,
    /// §6-3.
    pub turn_order: TurnOrder,
    /// §6-8: the sectors taken by fewer than six players in a new game.
    pub seating: Seating,
    /// §6-7.
    pub neutral_pieces: NeutralPieces,
    /// §5 team mode: each team a list of kingdom names (`"kingdom0"`). Team-mates cannot capture
    /// each other's pieces (nor, under `check_rules`, threaten each other's kings). Kingdoms not
    /// listed play alone. Empty (the default) is free-for-all.
    pub teams: Vec<Vec<String>>,
    /// §5 team mode: stop with a shared win, or play on.
    pub team_victory: TeamVictory,
    /// §5 draw proposal: the game is drawn after `quiet_turn_limit × surviving kingdoms`
    /// consecutive turns without a capture or a pawn move. Default 50. This is what guarantees
    /// that every game ends (captures and pawn moves are finite); 0 turns the rule off and with
    /// it that guarantee.
    pub quiet_turn_limit: u32,
    /// §5 draw proposal: the third occurrence of the same position (pieces, unmoved flags, side
    /// to move, eliminated kingdoms, en passant chance) is a draw. On by default.
    pub threefold_repetition: bool,
}

impl Default for HouseRules {
    fn default() -> HouseRules {
        HouseRules {
            check_rules: false,
            promotion: true,
            en_passant: false,
            turn_order: TurnOrder::Ascending,
            seating: Seating::Spread,
            neutral_pieces: NeutralPieces::Capturable,
            teams: Vec::new(),
            team_victory: TeamVictory::Shared,
            quiet_turn_limit: 50,
            threefold_repetition: true,
        }
    }
}

impl Seating {
    /// The sectors `players` kingdoms take, ascending; `None` outside 2..=6.
    pub fn sectors(self, players: usize) -> Option<&'static [u8]> {
        Some(match (self, players) {
            (_, 6) => &[0, 1, 2, 3, 4, 5],
            (Seating::Spread, 5) | (Seating::Adjacent, 5) => &[0, 1, 2, 3, 4],
            (Seating::Spread, 4) => &[0, 1, 3, 4],
            (Seating::Spread, 3) => &[0, 2, 4],
            (Seating::Spread, 2) => &[0, 3],
            (Seating::Adjacent, 4) => &[0, 1, 2, 3],
            (Seating::Adjacent, 3) => &[0, 1, 2],
            (Seating::Adjacent, 2) => &[0, 1],
            _ => return None,
        })
    }
}

impl TurnOrder {
    /// A sector's place in one round (smaller moves earlier).
    pub fn rank(self, sector: usize) -> usize {
        match self {
            TurnOrder::Ascending => sector,
            TurnOrder::Descending => (super::board::SECTORS - sector) % super::board::SECTORS,
        }
    }
}
