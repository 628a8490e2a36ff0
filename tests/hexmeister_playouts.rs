//! Seeded random Hexmeister games under several house rules: no panic, every listed action is
//! accepted with its own canonical text, mutated texts are accepted exactly when they name a
//! listed action, position JSON round-trips, and every game ends (win, loss or draw) within the
//! bound the quiet-action limit gives (73 × the limit actions: at most 36 drops and 36 capturing
//! actions can reset it).

#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use hexmeros::games::hexmeister::{Action, Hexmeister, HouseRules, Stalemate, geometry};
use hexmeros::games::{Outcome, PlayError, Rules};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Default, Debug)]
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

fn check_game(seed: u64, house: HouseRules, tally: &mut Tally) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = Hexmeister::new_game(2, house).unwrap();
    let bound = 73 * u64::from(house.quiet_limit);
    let mut n: u64 = 0;
    loop {
        let moves = g.legal_moves();
        if g.outcome().is_some() {
            assert!(moves.is_empty() && g.to_move().is_none(), "seed {seed}");
            match g.outcome().unwrap() {
                Outcome::Win { .. } => tally.wins += 1,
                Outcome::Draw { .. } => tally.draws += 1,
            }
            break;
        }
        assert!(!moves.is_empty(), "seed {seed}: no action but not over");
        assert!(n < bound, "seed {seed}: {n} actions, bound {bound}");
        let texts: Vec<String> = moves.iter().map(|a| g.move_text(a)).collect();
        let mut unique = texts.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), texts.len(), "seed {seed}: duplicate actions");

        // Listed actions parse back to themselves (all of them now and then, a sample always).
        let all = n.is_multiple_of(60);
        for (i, (a, t)) in moves.iter().zip(&texts).enumerate() {
            if all || i % 53 == (n as usize) % 53 {
                assert_eq!(g.parse_move(t).unwrap(), *a, "seed {seed}: {t}");
                assert_eq!(g.parse_move(&t.to_uppercase()).unwrap(), *a, "{t}");
            }
        }
        // Mutated texts are accepted exactly when they name a listed action.
        for _ in 0..3 {
            let t = mutate(&texts[rng.random_range(0..texts.len())], &mut rng);
            let mut probe = g.clone();
            match probe.play(&t) {
                Ok(a) => assert!(moves.contains(&a), "seed {seed}: {t} accepted"),
                Err(PlayError::Illegal(_)) => {
                    assert!(!texts.contains(&t), "seed {seed}: {t} refused")
                }
                Err(PlayError::Syntax(_)) => assert!(t.contains('x'), "seed {seed}: {t}"),
            }
        }
        // Position JSON round-trips.
        if n.is_multiple_of(7) {
            let json = g.to_json();
            let back = Hexmeister::from_json(&json).unwrap();
            assert_eq!(back.to_json(), json, "seed {seed}");
            assert_eq!(back.legal_moves(), moves, "seed {seed}");
        }

        let a = choose(&g, &moves, &mut rng);
        let before = g.stones().len() + usize::from(matches!(a, Action::Drop(_)));
        let text = g.move_text(&a);
        if g.bonus_pending() {
            tally.bonus_actions += 1;
        }
        assert_eq!(g.play(&text).unwrap(), a, "seed {seed}");
        tally.captures += (before - g.stones().len()) as u64;
        n += 1;
    }
    let json = g.to_json();
    let back = Hexmeister::from_json(&json).unwrap();
    assert_eq!(
        back.outcome(),
        g.outcome(),
        "seed {seed}: finished game reloads"
    );
    tally.games += 1;
    tally.actions += n;
}

#[test]
fn random_games_under_the_default_rules() {
    let mut t = Tally::default();
    for seed in 0..12 {
        check_game(seed, HouseRules::default(), &mut t);
    }
    assert_eq!(t.games, 12);
    assert!(t.captures > 0 && t.bonus_actions > 0, "{t:?}");
    eprintln!("default rules: {t:?}");
}

#[test]
fn random_games_under_house_rules() {
    let mut t = Tally::default();
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
        for seed in 0..3 {
            check_game(100 + 10 * i as u64 + seed, house, &mut t);
        }
    }
    assert_eq!(t.games, 12);
    assert!(t.captures > 0, "{t:?}");
    eprintln!("house rules: {t:?}");
}
