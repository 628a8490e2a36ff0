//! Finds move sequences from the HexiMeros start position for host scenarios that need them (a
//! Check duty that lapses because no move relieves it). Run by hand:
//! `cargo run --example host_find`; tests/host/scenarios.rs keeps the output (`LAPSE`).

use hexmeros::games::Rules;
use hexmeros::games::heximeros::{HexiMeros, HouseRules, Move};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random capture-first playouts in which every mover declares every Check it may; stop at the
/// first turn whose live Check records no legal move relieves (§5.3: the duty lapses).
fn main() {
    for seed in 0..400u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut g = HexiMeros::start(HouseRules::default());
        let mut line = Vec::new();
        for _ in 0..300 {
            let live = g.live_checks();
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            if !live.is_empty() && !moves.iter().any(|m| g.relieves(m, &live)) {
                println!("seed {seed} LAPSE for {:?} after {line:?}", g.to_move());
                return;
            }
            let caps: Vec<&Move> = moves
                .iter()
                .filter(|m| g.move_text(m).contains('x'))
                .collect();
            let m = if !caps.is_empty() && rng.random_range(0..3) > 0 {
                *caps[rng.random_range(0..caps.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            let bits = g.check_targets(&m).iter().fold(0u8, |b, s| b | 1 << s.0);
            let m = Move { checks: bits, ..m };
            line.push(g.move_text(&m));
            g.play_unchecked(&m);
        }
    }
    eprintln!("no lapse found");
    std::process::exit(1);
}
