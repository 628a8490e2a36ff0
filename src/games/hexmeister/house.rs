//! Hexmeister's house rules: every open point of `docs/rules/hexmeister.md` §6 (and the draw rules of
//! §5) as a switch whose default is the spec's proposal, plus one rule of this engine's own (the
//! quiet-action limit) so that every game ends in a bounded number of actions.
//!
//! §6-6 (when captures are checked) has no switch: with self-capture illegal, "secures a cell while
//! it is occupied" and "is secured after the action" are the same thing, as the spec explains.
//! §6-10 (a typo in the source) and §6-11 (rules nobody has) need none either.

use serde::{Deserialize, Serialize};

/// Who moves first (§6-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FirstPlayer {
    #[default]
    South,
    North,
}

/// What a player with no legal action does (§6-9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stalemate {
    /// The player passes (`pass`); two passes in succession draw (the spec's proposal).
    #[default]
    Pass,
    /// The player loses.
    Lose,
}

/// The switches. `Default` is the spec; JSON may name only the fields it changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HouseRules {
    /// §6-1: a stone slides along one of the six lines instead of following a free path.
    pub straight_moves: bool,
    /// §6-2: who moves first. Seats stay South = 0, North = 1 either way.
    pub first_player: FirstPlayer,
    /// §6-3: drops may also go onto one's two base gates (all six cells of the base row).
    pub drop_on_base_gates: bool,
    /// §6-4: a bonus action must be taken when there is one (the spec lets the player decline).
    pub mandatory_bonus: bool,
    /// §6-5: gates held by the opponent are open routes too (BGG's looser summary).
    pub cross_opponent_gates: bool,
    /// §6-7: a move may leave one's own stone on a cell the opponent secures; the opponent's next
    /// action then captures it.
    pub allow_self_capture: bool,
    /// §6-8: the centre f6 counts towards the eight gates that cancel centre triangulation.
    pub centre_counts_for_eight: bool,
    /// §6-9: a player with no legal action passes (two passes in succession draw) or loses.
    pub stalemate: Stalemate,
    /// §5: the third occurrence of a position (board, reserves, side to move, pending bonus) draws.
    pub repetition_draw: bool,
    /// [REC] of this engine, not of the spec: the game is drawn once this many actions in a row
    /// (bonus actions and passes included) have neither dropped a stone nor captured one. Drops and
    /// captures happen at most 72 times in a game, so this bounds a game at 73 × the limit
    /// actions. 0 turns the rule off.
    pub quiet_limit: u32,
}

impl Default for HouseRules {
    fn default() -> HouseRules {
        HouseRules {
            straight_moves: false,
            first_player: FirstPlayer::South,
            drop_on_base_gates: false,
            mandatory_bonus: false,
            cross_opponent_gates: false,
            allow_self_capture: false,
            centre_counts_for_eight: true,
            stalemate: Stalemate::Pass,
            repetition_draw: true,
            quiet_limit: 100,
        }
    }
}
