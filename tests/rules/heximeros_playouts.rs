//! Seeded random HexiMeros playouts under the laws of every engine (tests/support/laws.rs), with
//! HexiMeros-shaped mangled move texts; Check declarations offered by `check_targets` are
//! accepted and recorded.
#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use hexmeros_testkit::laws;

use hexmeros::games::Rules;
use hexmeros::games::heximeros::{BOARD, COLOURS, HexiMeros, HouseRules};
use laws::{Laws, check_laws};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

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

/// Random play that prefers captures now and then (so games reach eliminations) and declares
/// the first Check the move allows; the Check is recorded.
fn playout(seed: u64, plies: usize, house: HouseRules) {
    let cells: Vec<String> = BOARD
        .geometry
        .cells()
        .map(|c| BOARD.geometry.name(c).to_string())
        .collect();
    let mut laws = Laws::<HexiMeros>::new(6, house);
    laws.max_plies = plies;
    // Every text read resolves against the legal moves, which is what costs here.
    laws.thorough_every = 25;
    laws.sample = 1;
    laws.mutations = 4;
    laws.mutate = Box::new(move |_, text, rng| mutate(rng, text, &cells));
    laws.choose = Box::new(|g, moves, rng| {
        let texts: Vec<String> = moves.iter().map(|m| g.move_text(m)).collect();
        let caps: Vec<&String> = texts.iter().filter(|t| t.contains(['x', '*'])).collect();
        let choice = if !caps.is_empty() && rng.random_range(0..3) == 0 {
            caps[rng.random_range(0..caps.len())].clone()
        } else {
            texts[rng.random_range(0..texts.len())].clone()
        };
        let m = g.parse_move(&choice).unwrap();
        match g.check_targets(&m).first() {
            Some(s) => format!("{choice}+{}", COLOURS[s.index()]),
            None => choice,
        }
    });
    laws.played = Box::new(|before, text, after| {
        if text.contains('+') && after.outcome().is_none() {
            assert!(
                after.check_records().len() > before.check_records().len()
                    || !before.check_records().is_empty(),
                "{text}"
            );
        }
    });
    check_laws(&mut laws, [seed]);
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
