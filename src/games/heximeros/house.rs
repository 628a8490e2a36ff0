//! HexiMeros House Rules (§8.2, §9): every [REC] choice of `docs/rules/heximeros.md` as a switch whose
//! default is the spec. Players vote these in before Silver first passes the Token.

use serde::{Deserialize, Serialize};

/// How an Archer captures (§4.8, §9.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArcherRule {
    /// Move or shoot, never both in one turn; a shot stops at the first piece (the spec).
    #[default]
    MoveOrShoot,
    /// (a) Move, then shoot from the new cell in the same turn (either part may be left out).
    MoveThenShoot,
    /// (b) Arrows fly over pieces: any enemy piece within range on the axis can be shot.
    FlyOver,
    /// (c) An Archer may shoot only after it has moved at least once in the game.
    ShootAfterMoving,
}

/// The Dreadnaught's range (§4.7, §9.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DreadnaughtRange {
    /// 1 to 4 flats (1 to 8 with the GZ bonus).
    #[default]
    UpToFour,
    /// Exactly 4 flats (4 or 8 with the GZ bonus).
    ExactlyFour,
}

/// When the mover may declare Check (§5.3, §9.11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckEligibility {
    /// At least one attack on the Sovereign must be new after the move.
    #[default]
    NewAttack,
    /// Any attack on the Sovereign after the move will do.
    AnyAttack,
}

/// Check upon the mover (§5.4, §9.13).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckUponMover {
    /// The attacked-by players are asked in a challenge window (the host runs it).
    #[default]
    Window,
    /// Moving one's Sovereign into attack is simply illegal (unless every move does).
    AutoDeclare,
    /// Nobody may declare Check upon the mover.
    NeverDeclare,
}

/// Who may not be captured (§9.22).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaptureBan {
    /// A player may not capture any piece he controls (matters once he controls two colours).
    #[default]
    Controlled,
    /// Literal: a piece may not capture its own colour only.
    Colour,
}

/// Every switch of the game. `Default` is the spec.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HouseRules {
    pub archer: ArcherRule,
    pub dreadnaught: DreadnaughtRange,
    pub check_eligibility: CheckEligibility,
    pub check_upon_mover: CheckUponMover,
    /// The challenge window of §5.4 closes after this many minutes (used by the host).
    pub check_window_minutes: u32,
    /// The Prelate's one-flat first move (§4.5).
    pub prelate_first_move: bool,
    /// A Militant may promote on reaching another colour's Base Line (§4.10).
    pub base_line_promotion: bool,
    /// A Militant on Ground Zero may capture any adjacent or line-diagonal cell (§4.10 [REC]).
    pub gz_militant_direct_capture: bool,
    /// Automatic draw when each of the last two players has only Sovereigns left (§6).
    pub bare_sovereigns_draw: bool,
    /// Automatic draw after this many full rounds of the last two players without a capture, an
    /// unhatted Militant move or a promotion (§6); 0 turns the rule off.
    pub quiet_rounds_draw: u32,
    /// Draw by threefold repetition of the position and Token holder (§6, off by default).
    pub repetition_draw: bool,
    /// The provisional Resurrected Sovereign rule (§8.6, off by default).
    pub resurrection: bool,
    pub capture_ban: CaptureBan,
    /// Whether the game is scored (§7); voted with the House Rules.
    pub scored: bool,
}

impl Default for HouseRules {
    fn default() -> HouseRules {
        HouseRules {
            archer: ArcherRule::default(),
            dreadnaught: DreadnaughtRange::default(),
            check_eligibility: CheckEligibility::default(),
            check_upon_mover: CheckUponMover::default(),
            check_window_minutes: 10,
            prelate_first_move: true,
            base_line_promotion: true,
            gz_militant_direct_capture: true,
            bare_sovereigns_draw: true,
            quiet_rounds_draw: 50,
            repetition_draw: false,
            resurrection: false,
            capture_ban: CaptureBan::default(),
            scored: true,
        }
    }
}
