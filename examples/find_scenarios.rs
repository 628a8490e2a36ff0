//! Finds move sequences from the HexiMeros start position that reach the situations the host
//! tests need (a Check the mover may declare, a move into attack). Run by hand:
//! `cargo run --example find_scenarios`; tests/host/scenarios.rs keeps the output (`PREFIX`).

use hexmeros::games::Rules;
use hexmeros::games::heximeros::{HexiMeros, HouseRules};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    for seed in 0..40u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut g = HexiMeros::start(HouseRules::default());
        let mut line = Vec::new();
        for ply in 0..400 {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply > 30 {
                let mut found = false;
                for m in &moves {
                    if !g.challengers(m).is_empty() {
                        println!(
                            "seed {seed} INTO {} by {:?} after {:?}",
                            g.move_text(m),
                            g.challengers(m),
                            line
                        );
                        found = true;
                        break;
                    }
                }
                if found {
                    return;
                }
            }
            let caps: Vec<_> = moves
                .iter()
                .filter(|m| g.move_text(m).contains('x'))
                .collect();
            let m = if !caps.is_empty() {
                *caps[rng.random_range(0..caps.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            line.push(g.move_text(&m));
            g.play_unchecked(&m);
        }
    }
}
