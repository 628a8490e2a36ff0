//! Seeded random HexiMeros playouts: no panic; every listed move is accepted and keeps its text;
//! mutated move texts are accepted only when they name a listed move; position JSON round-trips;
//! Check declarations offered by `check_targets` are accepted and recorded.
#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use hexmeros::games::Rules;
use hexmeros::games::heximeros::{COLOURS, HexiMeros, HouseRules};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn strip_checks(t: &str) -> &str {
    t.split('+').next().unwrap()
}

fn mutate(rng: &mut ChaCha8Rng, text: &str, cells: &[String]) -> String {
    let cell = &cells[rng.random_range(0..cells.len())];
    match rng.random_range(0..6) {
        0 => format!("{}-{cell}", text.split(['-', 'x', '*']).next().unwrap()),
        1 => text.replace('-', "x"),
        2 => text.replace('x', "-"),
        3 => format!("{text}=Regent"),
        4 => format!("{cell}-{}", text.rsplit(['-', 'x', '*']).next().unwrap()),
        _ => text.replace('-', "*"),
    }
}

fn playout(seed: u64, plies: usize, house: HouseRules) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = HexiMeros::new_game(6, house).unwrap();
    let cells: Vec<String> = hexmeros::games::heximeros::BOARD
        .geometry
        .cells()
        .map(|c| {
            hexmeros::games::heximeros::BOARD
                .geometry
                .name(c)
                .to_string()
        })
        .collect();
    for ply in 0..plies {
        let moves = g.legal_moves();
        if g.outcome().is_some() {
            assert!(moves.is_empty());
            return;
        }
        assert!(
            !moves.is_empty(),
            "seed {seed} ply {ply}: no move and no outcome"
        );
        let texts = g.legal_move_texts();
        // A few listed moves, and mutations of them.
        for _ in 0..4 {
            let t = &texts[rng.random_range(0..texts.len())];
            let mut c = g.clone();
            assert_eq!(&c.play(t).map(|m| g.move_text(&m)).unwrap(), t);
            let bad = mutate(&mut rng, t, &cells);
            match g.clone().parse_move(&bad) {
                Ok(m) => {
                    let canon = g.move_text(&m);
                    assert!(
                        texts.iter().any(|x| x == strip_checks(&canon)),
                        "seed {seed}: {bad} accepted as {canon}, not listed"
                    );
                }
                Err(_) => assert!(!texts.contains(&bad), "seed {seed}: listed {bad} refused"),
            }
        }
        if ply % 7 == 0 {
            let json = g.to_json();
            let back = HexiMeros::from_json(&json).unwrap();
            assert_eq!(back.to_json(), json, "seed {seed} ply {ply}");
            assert_eq!(back.legal_move_texts(), texts, "seed {seed} ply {ply}");
        }
        // Prefer captures now and then, so games reach eliminations.
        let caps: Vec<&String> = texts.iter().filter(|t| t.contains(['x', '*'])).collect();
        let choice = if !caps.is_empty() && rng.random_range(0..3) == 0 {
            caps[rng.random_range(0..caps.len())].clone()
        } else {
            texts[rng.random_range(0..texts.len())].clone()
        };
        let m = g.parse_move(&choice).unwrap();
        let targets = g.check_targets(&m);
        let text = if let Some(s) = targets.first() {
            format!("{choice}+{}", COLOURS[s.index()])
        } else {
            choice
        };
        let before = g.check_records().len();
        g.play(&text).unwrap();
        if !targets.is_empty() && g.outcome().is_none() {
            assert!(
                g.check_records().len() > before || before > 0,
                "seed {seed}: {text}"
            );
        }
    }
}

#[test]
fn random_playouts_default_rules() {
    for seed in 0..6 {
        playout(seed, 120, HouseRules::default());
    }
}

#[test]
fn random_playouts_with_every_switch_flipped() {
    let json = r#"{"archer":"move_then_shoot","dreadnaught":"exactly_four",
        "check_eligibility":"any_attack","check_upon_mover":"auto_declare",
        "prelate_first_move":false,"base_line_promotion":false,
        "gz_militant_direct_capture":false,"repetition_draw":true,"resurrection":true,
        "capture_ban":"colour"}"#;
    let house: HouseRules = serde_json::from_str(json).unwrap();
    for seed in 100..103 {
        playout(seed, 80, house.clone());
    }
    let fly: HouseRules = serde_json::from_str(r#"{"archer":"fly_over"}"#).unwrap();
    playout(200, 80, fly);
}

#[test]
fn a_long_capture_heavy_game_ends_or_keeps_going_legally() {
    // Captures are chosen a third of the time; 600 plies exercise eliminations and frozen pieces.
    playout(7, 600, HouseRules::default());
}
