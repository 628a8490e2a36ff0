//! Hexmeister: placeholder until its engine lands (issue 3/4). Replace this whole folder.

use serde::{Deserialize, Serialize};

use super::position::expect_game;
use super::{GameKind, Outcome, PlayError, PositionError, Rules, Seat};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HouseRules {}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Setup {
    pub game: String,
}

#[derive(Clone, Debug)]
pub struct Hexmeister {
    house: HouseRules,
}

impl Rules for Hexmeister {
    type Move = u32;
    type HouseRules = HouseRules;
    type Setup = Setup;
    const KIND: GameKind = GameKind::Hexmeister;

    fn new_game(_: usize, _: HouseRules) -> Result<Self, PositionError> {
        Err(PositionError::Invalid(
            "Hexmeister is not playable yet".into(),
        ))
    }
    fn from_setup(setup: Setup) -> Result<Self, PositionError> {
        expect_game(&setup.game, GameKind::Hexmeister)?;
        Err(PositionError::Invalid(
            "Hexmeister is not playable yet".into(),
        ))
    }
    fn to_setup(&self) -> Setup {
        Setup {
            game: GameKind::Hexmeister.key().into(),
        }
    }
    fn house_rules(&self) -> &HouseRules {
        &self.house
    }
    fn seat_count(&self) -> usize {
        2
    }
    fn seat_name(&self, _: Seat) -> &'static str {
        "none"
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
        Err(PlayError::illegal(text, "Hexmeister is not playable yet"))
    }
    fn show(&self) -> String {
        String::new()
    }
}
