//! Seeded random HexaEquo games, under the spec's rules and under mixed house rules: nothing
//! panics, every listed move is accepted and keeps its text, mutated or junk text is rejected
//! unless it names a listed move, position JSON and move text round-trip, and every game ends.

#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use std::collections::HashSet;

use hexmeros::games::hexaequo::{
    AntiLoop, CaptureRemoval, HexaEquo, HouseRules, Move, MoveIdentity,
};
use hexmeros::games::{Outcome, Rules};
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

/// Play one seeded game, checking every position on the way; returns its length.
fn playout(seed: u64, house: HouseRules) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = HexaEquo::new_game(2, house).unwrap();
    for ply in 0..SANITY_PLIES {
        let moves = g.legal_moves();
        let texts: Vec<String> = moves.iter().map(|m| g.move_text(m)).collect();
        let listed: HashSet<&str> = texts.iter().map(String::as_str).collect();
        assert_eq!(
            listed.len(),
            texts.len(),
            "seed {seed} ply {ply}: two moves, one text"
        );

        // Position JSON round-trips.
        let json = g.to_json();
        let back = HexaEquo::from_json(&json).unwrap();
        assert_eq!(back.to_json(), json, "seed {seed} ply {ply}");
        assert_eq!(back.legal_moves(), moves, "seed {seed} ply {ply}");
        assert_eq!(back.outcome(), g.outcome());

        if moves.is_empty() {
            let outcome = g.outcome().unwrap_or_else(|| panic!("seed {seed}: stuck"));
            assert_eq!(g.to_move(), None);
            if let Outcome::Win { winners, .. } = &outcome {
                assert_eq!(winners.len(), 1);
            }
            return ply;
        }
        assert!(
            g.outcome().is_none(),
            "seed {seed} ply {ply}: moves after the end"
        );

        // Every listed move is accepted as itself and keeps its text.
        for (m, t) in moves.iter().zip(&texts) {
            let parsed = g
                .parse_move(t)
                .unwrap_or_else(|e| panic!("seed {seed}: {t}: {e}"));
            assert_eq!(&parsed, m, "seed {seed} ply {ply}: {t}");
            assert_eq!(&g.move_text(&parsed), t);
            let lower = g.parse_move(&t.to_ascii_lowercase()).unwrap();
            assert_eq!(&lower, m);
        }

        // Mutated text: accepted only as a listed move; rejected text is never a listed one.
        for _ in 0..8 {
            let t = &texts[rng.random_range(0..texts.len())];
            let bad = mutate(t, &mut rng);
            match g.parse_move(&bad) {
                Ok(m) => assert!(
                    moves.contains(&m),
                    "seed {seed}: {bad} gave an unlisted move"
                ),
                Err(e) => {
                    assert!(
                        !listed.contains(bad.as_str()),
                        "seed {seed}: {bad} rejected: {e}"
                    );
                    assert!(!e.to_string().contains('\n'));
                }
            }
        }

        // Play by text and by value: the same position.
        let m: &Move = &moves[rng.random_range(0..moves.len())];
        let mut by_value = g.clone();
        by_value.play_unchecked(m);
        let played = g.play(&g.move_text(m)).unwrap();
        assert_eq!(&played, m);
        assert_eq!(g, by_value);
    }
    panic!("seed {seed}: no end after {SANITY_PLIES} plies");
}

#[test]
fn spec_rules_playouts() {
    let mut total = 0;
    for seed in 0..30 {
        total += playout(seed, HouseRules::default());
    }
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
        playout(seed, house);
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
