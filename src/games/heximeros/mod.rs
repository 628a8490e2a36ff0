//! HexiMeros (scaffold: the engine is being written; see issue 2).

use serde::{Deserialize, Serialize};

use super::position::{PieceText, expect_game};
use super::{GameKind, Outcome, PlayError, PositionError, Rules, Seat};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HouseRules {}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Setup {
    pub game: String,
    pub to_move: String,
    pub pieces: Vec<PieceText>,
}

#[derive(Clone, Debug)]
pub struct HexiMeros {
    house: HouseRules,
}

impl Rules for HexiMeros {
    type Move = u32;
    type HouseRules = HouseRules;
    type Setup = Setup;
    const KIND: GameKind = GameKind::HexiMeros;

    fn new_game(_: usize, house: HouseRules) -> Result<Self, PositionError> {
        Ok(HexiMeros { house })
    }
    fn from_setup(setup: Setup) -> Result<Self, PositionError> {
        expect_game(&setup.game, GameKind::HexiMeros)?;
        Ok(HexiMeros {
            house: HouseRules {},
        })
    }
    fn to_setup(&self) -> Setup {
        Setup {
            game: "heximeros".into(),
            to_move: "silver".into(),
            pieces: vec![],
        }
    }
    fn house_rules(&self) -> &HouseRules {
        &self.house
    }
    fn seat_count(&self) -> usize {
        6
    }
    fn seat_name(&self, _: Seat) -> &'static str {
        "silver"
    }
    fn to_move(&self) -> Option<Seat> {
        None
    }
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn legal_moves(&self) -> Vec<u32> {
        vec![]
    }
    fn play_unchecked(&mut self, _: &u32) {}
    fn move_text(&self, _: &u32) -> String {
        String::new()
    }
    fn parse_move(&self, text: &str) -> Result<u32, PlayError> {
        Err(PlayError::illegal(text, "scaffold"))
    }
    fn show(&self) -> String {
        String::new()
    }
}
