//! The law check of tests/support/laws.rs can fail: HexDame wrapped with one deliberate flaw at a
//! time (a `to_json` that forgets the position, a game over too soon, move text that does not
//! read back, a reader that minds letter case, a start that changes between calls) is caught by
//! the law it breaks, while the unflawed wrapper passes.
#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use hexmeros_testkit::laws;

use std::sync::atomic::{AtomicUsize, Ordering};

use hexmeros::games::hexdame::{HexDame, HouseRules};
use hexmeros::games::{GameKind, Outcome, PlayError, PositionError, Rules, Seat};
use laws::{Laws, check_laws};

const NONE: u8 = 0;
const FORGETFUL_JSON: u8 = 1;
const OVER_TOO_SOON: u8 = 2;
const TEXT_DOES_NOT_READ_BACK: u8 = 3;
const CASE_SENSITIVE: u8 = 4;
const RESTLESS_START: u8 = 5;

/// HexDame with the flaw `F`.
#[derive(Clone, Debug)]
struct Flawed<const F: u8>(HexDame);

/// Calls of `new_game`, for the start that changes between calls.
static STARTS: AtomicUsize = AtomicUsize::new(0);

impl<const F: u8> Rules for Flawed<F> {
    type Move = <HexDame as Rules>::Move;
    type HouseRules = HouseRules;
    type Setup = <HexDame as Rules>::Setup;

    const KIND: GameKind = GameKind::HexDame;

    fn new_game(players: usize, house_rules: HouseRules) -> Result<Self, PositionError> {
        let mut g = HexDame::new_game(players, house_rules)?;
        if F == RESTLESS_START && STARTS.fetch_add(1, Ordering::Relaxed) % 2 == 1 {
            let m = g.legal_moves()[0];
            g.play_unchecked(&m);
        }
        Ok(Flawed(g))
    }

    fn from_setup(setup: Self::Setup) -> Result<Self, PositionError> {
        HexDame::from_setup(setup).map(Flawed)
    }

    fn to_setup(&self) -> Self::Setup {
        if F == FORGETFUL_JSON {
            HexDame::new_game(2, self.0.house_rules().clone())
                .unwrap()
                .to_setup()
        } else {
            self.0.to_setup()
        }
    }

    fn house_rules(&self) -> &HouseRules {
        self.0.house_rules()
    }

    fn seat_count(&self) -> usize {
        self.0.seat_count()
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        self.0.seat_name(seat)
    }

    fn to_move(&self) -> Option<Seat> {
        self.0.to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        if F == OVER_TOO_SOON {
            Some(Outcome::Draw {
                seats: vec![Seat(0), Seat(1)],
                reason: "bored".to_string(),
            })
        } else {
            self.0.outcome()
        }
    }

    fn legal_moves(&self) -> Vec<Self::Move> {
        self.0.legal_moves()
    }

    fn play_unchecked(&mut self, m: &Self::Move) {
        self.0.play_unchecked(m);
    }

    fn move_text(&self, m: &Self::Move) -> String {
        let text = self.0.move_text(m);
        if F == TEXT_DOES_NOT_READ_BACK {
            text.replace('-', "~")
        } else {
            text
        }
    }

    fn parse_move(&self, text: &str) -> Result<Self::Move, PlayError> {
        if F == CASE_SENSITIVE && text.chars().any(|c| c.is_ascii_uppercase()) {
            return Err(PlayError::illegal(text, "capital letters"));
        }
        self.0.parse_move(text)
    }

    fn show(&self) -> String {
        self.0.show()
    }
}

/// Short random games: enough for every law to be tried.
fn check<const F: u8>() {
    let mut laws = Laws::<Flawed<F>>::new(2, HouseRules::default());
    laws.max_plies = 40;
    check_laws(&mut laws, 0..3);
}

#[test]
fn the_law_check_passes_an_unflawed_engine_and_catches_each_flaw() {
    check::<NONE>();
    let caught = |f: fn(), law: &str| {
        // The expected panics stay quiet; any other failure is reported by the assert below.
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let result = std::panic::catch_unwind(f);
        std::panic::set_hook(hook);
        let err = result.expect_err(law);
        let message = err
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        assert!(message.contains(law), "expected {law:?}, got {message}");
    };
    caught(check::<FORGETFUL_JSON>, "after a reload");
    caught(check::<OVER_TOO_SOON>, "outcome Some(Draw");
    caught(check::<TEXT_DOES_NOT_READ_BACK>, "listed");
    caught(check::<CASE_SENSITIVE>, "refused as");
    caught(check::<RESTLESS_START>, "replay");
}
