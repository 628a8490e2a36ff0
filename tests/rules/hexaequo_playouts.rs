//! Seeded random HexaEquo games, under the spec's rules and under mixed house rules, held to the
//! laws of every engine (tests/support/laws.rs) with HexaEquo-shaped mangled texts: every game
//! ends; arbitrary text and position JSON are read without panic.

#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use hexmeros_testkit::laws;

use hexmeros::games::hexaequo::{AntiLoop, CaptureRemoval, HexaEquo, HouseRules, MoveIdentity};
use hexmeros::games::{Outcome, Rules};
use laws::{Laws, check_laws};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// No numeric limit is in the rules (threefold repetition ends every game, since the number of
/// positions is finite); random games end by a win long before this (the longest seen is about
/// 160 plies), so reaching it means something is wrong.
const SANITY_PLIES: usize = 1000;

const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-x@*=+ ";

fn mutate(text: &str, rng: &mut ChaCha8Rng) -> String {
    let mut b = text.as_bytes().to_vec();
    let pick = |rng: &mut ChaCha8Rng| ALPHABET[rng.random_range(0..ALPHABET.len())];
    match rng.random_range(0..6) {
        0 if !b.is_empty() => {
            let i = rng.random_range(0..b.len());
            b[i] = pick(rng);
        }
        1 if !b.is_empty() => {
            b.remove(rng.random_range(0..b.len()));
        }
        2 => {
            let i = rng.random_range(0..=b.len());
            b.insert(i, pick(rng));
        }
        3 => {
            // Nudge a digit: a neighbouring cell.
            if let Some(i) = b.iter().rposition(u8::is_ascii_digit) {
                b[i] = if b[i] == b'9' { b'1' } else { b[i] + 1 };
            }
        }
        4 => {
            // Extend a move by another hop.
            let cells = ["I8", "J8", "K10", "H9", "G10", "L7", "J6"];
            b.extend_from_slice(format!("-{}", cells[rng.random_range(0..cells.len())]).as_bytes());
        }
        _ => {
            // A different letter: a cell in another column.
            if let Some(i) = b.iter().position(u8::is_ascii_uppercase) {
                b[i] = b'A' + rng.random_range(0..26u8);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn random_house(rng: &mut ChaCha8Rng) -> HouseRules {
    HouseRules {
        board_radius: [None, Some(3), Some(8)][rng.random_range(0..3)],
        anti_loop: if rng.random_bool(0.5) {
            AntiLoop::SinceLastCapture
        } else {
            AntiLoop::NoFriendTwice
        },
        capture_removal: if rng.random_bool(0.5) {
            CaptureRemoval::Immediate
        } else {
            CaptureRemoval::EndOfMove
        },
        move_identity: if rng.random_bool(0.5) {
            MoveIdentity::CaptureSet
        } else {
            MoveIdentity::CaptureOrder
        },
        ring_over_gap: rng.random_bool(0.5),
    }
}

/// Play seeded games under the laws (tests/support/laws.rs), with HexaEquo-shaped mangled texts;
/// every game ends, and a win has one winner. Returns the total number of plies.
fn playouts(seeds: impl IntoIterator<Item = u64>, house: HouseRules) -> usize {
    let mut laws = Laws::<HexaEquo>::new(2, house);
    laws.max_plies = SANITY_PLIES;
    laws.must_end = true;
    laws.mutations = 4;
    laws.mutate = Box::new(|_, text, rng| mutate(text, rng));
    let mut total = 0;
    for p in check_laws(&mut laws, seeds) {
        if let Some(Outcome::Win { winners, .. }) = p.game.outcome() {
            assert_eq!(winners.len(), 1, "seed {}", p.seed);
        }
        total += p.plies;
    }
    total
}

#[test]
fn spec_rules_playouts() {
    let total = playouts(0..30, HouseRules::default());
    assert!(
        total > 30 * 10,
        "games too short to mean much: {total} plies"
    );
}

#[test]
fn house_rule_playouts() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xe9_0a);
    for seed in 100..110 {
        let house = random_house(&mut rng);
        playouts([seed], house);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Arbitrary text never panics the reader, and what it accepts is a legal move.
    #[test]
    fn any_text_is_read_safely(text in "[A-Za-z0-9@xX*=+:-]{0,14}") {
        let g = HexaEquo::new_game(2, HouseRules::default()).unwrap();
        if let Ok(m) = g.parse_move(&text) {
            prop_assert!(g.legal_moves().contains(&m));
        }
    }

    /// Arbitrary JSON-ish input never panics the position reader.
    #[test]
    fn any_position_json_is_read_safely(cell in "[A-Z][0-9]{1,3}", n in 0u32..20) {
        let json = format!(
            r#"{{"game": "hexaequo", "to_move": "white",
                "tiles": [{{"cell": "{cell}", "owner": "black"}}, {{"cell": "I8", "owner": "white"}}],
                "pieces": [{{"cell": "{cell}", "owner": "black", "kind": "ring"}},
                           {{"cell": "I8", "owner": "white", "kind": "disc"}}],
                "reserves": {{"black": {{"tile": {n}, "disc": 6, "ring": 2}}}}}}"#
        );
        if let Ok(g) = HexaEquo::from_json(&json) {
            let _ = g.legal_moves();
            prop_assert_eq!(HexaEquo::from_json(&g.to_json()).unwrap().to_json(), g.to_json());
        }
    }
}
