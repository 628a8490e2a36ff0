//! Seeded random Hexmeister games under several house rules, held to the laws of every engine
//! (tests/support/laws.rs) with Hexmeister-shaped mangled texts: every game ends (win, loss or
//! draw) within the bound the quiet-action limit gives (73 × the limit actions: at most 36 drops
//! and 36 capturing actions can reset it), and games capture, chain bonuses and are won.

#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use hexmeros_testkit::laws;

use std::cell::Cell;

use hexmeros::games::hexmeister::{Action, Hexmeister, HouseRules, Stalemate, geometry};
use hexmeros::games::{Outcome, PlayError, Rules};
use laws::{Laws, check_laws};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy, Default, Debug)]
struct Tally {
    games: u32,
    actions: u64,
    wins: u32,
    draws: u32,
    bonus_actions: u64,
    captures: u64,
}

/// Pick an action: half the time a drop if there is one (so boards fill up), mostly one that
/// earns a bonus (so gates fill, captures and chains happen, and some games are won), else any.
fn choose(g: &Hexmeister, moves: &[Action], rng: &mut ChaCha8Rng) -> Action {
    let drops: Vec<&Action> = moves
        .iter()
        .filter(|a| matches!(a, Action::Drop(_)))
        .collect();
    if !drops.is_empty() && rng.random_range(0..2) == 0 {
        return *drops[rng.random_range(0..drops.len())];
    }
    if rng.random_range(0..3) != 0 {
        for _ in 0..12 {
            let a = moves[rng.random_range(0..moves.len())];
            let mut n = g.clone();
            n.play_unchecked(&a);
            if n.bonus_pending() {
                return a;
            }
        }
    }
    moves[rng.random_range(0..moves.len())]
}

/// A random text near `text`: another cell swapped in, a drop elsewhere, `pass`, junk.
fn mutate(text: &str, rng: &mut ChaCha8Rng) -> String {
    let g = geometry();
    let any = |rng: &mut ChaCha8Rng| {
        g.name(g.cells().nth(rng.random_range(0..g.len())).unwrap())
            .to_string()
    };
    match rng.random_range(0..6) {
        0 => format!("S@{}", any(rng)),
        1 => "pass".to_string(),
        2 => match text.split_once('-') {
            Some((f, _)) => format!("{f}-{}", any(rng)),
            None => format!("{}-{}", any(rng), any(rng)),
        },
        3 => match text.split_once('-') {
            Some((_, t)) => format!("{}-{t}", any(rng)),
            None => format!("{}-{}", any(rng), any(rng)),
        },
        4 => text.replace('-', "x"),
        _ => format!("{}-{}", any(rng), any(rng)),
    }
}

/// Play seeded games under the laws (tests/support/laws.rs); every game must end within the
/// bound of the quiet-action limit. Hexmeister-shaped mangled texts are a syntax error only
/// when they use `x`, which Hexmeister does not write.
fn check_games(seeds: std::ops::Range<u64>, house: HouseRules, tally: &Cell<Tally>) {
    let mut laws = Laws::<Hexmeister>::new(2, house);
    laws.max_plies = 73 * house.quiet_limit as usize;
    laws.must_end = true;
    laws.thorough_every = 60;
    laws.sample = 2;
    laws.mutate = Box::new(|_, text, rng| mutate(text, rng));
    laws.choose = Box::new(|g, moves, rng| g.move_text(&choose(g, moves, rng)));
    laws.inspect = Box::new(|g, rng| {
        let texts = g.legal_move_texts();
        if texts.is_empty() {
            return;
        }
        let t = mutate(&texts[rng.random_range(0..texts.len())], rng);
        if let Err(PlayError::Syntax(_)) = g.parse_move(&t) {
            assert!(t.contains('x'), "{t}");
        }
    });
    laws.played = Box::new(|before, text, after| {
        let a = before.parse_move(text).unwrap();
        let mut t = tally.get();
        t.actions += 1;
        t.bonus_actions += u64::from(before.bonus_pending());
        let stones = before.stones().len() + usize::from(matches!(a, Action::Drop(_)));
        t.captures += (stones - after.stones().len()) as u64;
        tally.set(t);
    });
    for p in check_laws(&mut laws, seeds) {
        let mut t = tally.get();
        t.games += 1;
        match p.game.outcome().unwrap() {
            Outcome::Win { .. } => t.wins += 1,
            Outcome::Draw { .. } => t.draws += 1,
        }
        tally.set(t);
    }
}

#[test]
fn random_games_under_the_default_rules() {
    let tally = Cell::new(Tally::default());
    check_games(0..12, HouseRules::default(), &tally);
    let t = tally.get();
    assert_eq!(t.games, 12);
    assert!(t.captures > 0 && t.bonus_actions > 0, "{t:?}");
    eprintln!("default rules: {t:?}");
}

#[test]
fn random_games_under_house_rules() {
    let tally = Cell::new(Tally::default());
    let variants = [
        HouseRules {
            straight_moves: true,
            ..HouseRules::default()
        },
        HouseRules {
            mandatory_bonus: true,
            cross_opponent_gates: true,
            quiet_limit: 40,
            ..HouseRules::default()
        },
        HouseRules {
            allow_self_capture: true,
            centre_counts_for_eight: false,
            drop_on_base_gates: true,
            stalemate: Stalemate::Lose,
            ..HouseRules::default()
        },
        HouseRules {
            repetition_draw: false,
            quiet_limit: 30,
            ..HouseRules::default()
        },
    ];
    for (i, house) in variants.into_iter().enumerate() {
        let first = 100 + 10 * i as u64;
        check_games(first..first + 3, house, &tally);
    }
    let t = tally.get();
    assert_eq!(t.games, 12);
    assert!(t.captures > 0, "{t:?}");
    eprintln!("house rules: {t:?}");
}
