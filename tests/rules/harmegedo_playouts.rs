//! Seeded random Harmegedo playouts held to the laws of every engine (tests/support/laws.rs), with
//! Harmegedo-shaped mangled texts: every game ends (the §5 quiet-turn draw guarantees it), some
//! by a win, and team rules give team wins; garbage text is refused without panic.

#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use hexmeros_testkit::laws;

use hexmeros::games::harmegedo::{Harmegedo, HouseRules, TeamVictory};
use hexmeros::games::{Outcome, PlayError, Rules};
use laws::{Laws, check_laws};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Variations of a move text: each character replaced, dropped or doubled, and a few suffixes.
fn mutations(text: &str, rng: &mut ChaCha8Rng) -> Vec<String> {
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnxz.-:=QRBNKP";
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for _ in 0..6 {
        let i = rng.random_range(0..bytes.len());
        let mut v = bytes.to_vec();
        match rng.random_range(0..3) {
            0 => v[i] = *ALPHABET.choose(rng).unwrap(),
            1 => {
                v.remove(i);
            }
            _ => v.insert(i, bytes[i]),
        }
        out.push(String::from_utf8(v).unwrap());
    }
    for suffix in ["=Q", "=N", "=K", "x", "-0.e4"] {
        out.push(format!("{text}{suffix}"));
    }
    out.push(text.replace('-', "x"));
    out.push(text.replace('x', "-"));
    if let Some((body, _)) = text.split_once('=') {
        out.push(body.to_string());
    }
    out
}

/// Play one random game to its end under the laws (tests/support/laws.rs), with Harmegedo-shaped
/// mangled texts; returns the number of turns and the outcome.
fn playout(seed: u64, players: usize, house: HouseRules, max_turns: usize) -> (usize, Outcome) {
    let mut laws = Laws::<Harmegedo>::new(players, house);
    laws.max_plies = max_turns;
    laws.must_end = true;
    laws.thorough_every = 100;
    laws.sample = 1;
    laws.mutate = Box::new(|_, text, rng| {
        let all = mutations(text, rng);
        all[rng.random_range(0..all.len())].clone()
    });
    // Captures half the time they are there, so that games reach eliminations.
    laws.choose = Box::new(|g, moves, rng| {
        let captures: Vec<_> = moves
            .iter()
            .filter(|m| g.move_text(m).contains('x'))
            .collect();
        let m = if !captures.is_empty() && rng.random_range(0..2) == 0 {
            **captures.choose(rng).unwrap()
        } else {
            *moves.choose(rng).unwrap()
        };
        g.move_text(&m)
    });
    laws.inspect = Box::new(|g, _| {
        assert!(matches!(
            g.clone().play("0.e2-0.e2"),
            Err(PlayError::Illegal(_) | PlayError::Syntax(_))
        ));
    });
    let p = check_laws(&mut laws, [seed]).pop().unwrap();
    (p.plies, p.game.outcome().unwrap())
}

fn check_outcome(g_players: usize, outcome: &Outcome) {
    match outcome {
        Outcome::Win { winners, .. } => {
            assert!(!winners.is_empty() && winners.iter().all(|s| s.index() < g_players));
        }
        Outcome::Draw { seats, .. } => assert!(seats.len() >= 2),
    }
}

#[test]
fn random_games_end_cleanly() {
    let mut results = Vec::new();
    for (seed, players) in [
        (1, 2),
        (2, 3),
        (3, 4),
        (4, 5),
        (5, 6),
        (6, 6),
        (7, 2),
        (8, 3),
    ] {
        let (turns, outcome) = playout(seed, players, HouseRules::default(), 20_000);
        check_outcome(players, &outcome);
        results.push((players, turns, outcome));
    }
    // Some of them are won outright, by the last king standing.
    assert!(
        results
            .iter()
            .any(|(_, _, o)| matches!(o, Outcome::Win { .. })),
        "{results:?}"
    );
}

#[test]
fn random_games_under_other_house_rules() {
    let check = HouseRules {
        check_rules: true,
        en_passant: true,
        ..HouseRules::default()
    };
    for seed in 10..12 {
        let (_, outcome) = playout(seed, 3, check.clone(), 20_000);
        check_outcome(3, &outcome);
    }
    let teams = HouseRules {
        teams: vec![
            vec!["kingdom0".into(), "kingdom2".into(), "kingdom4".into()],
            vec!["kingdom1".into(), "kingdom3".into(), "kingdom5".into()],
        ],
        ..HouseRules::default()
    };
    for seed in 20..22 {
        let (_, outcome) = playout(seed, 6, teams.clone(), 20_000);
        if let Outcome::Win { winners, .. } = &outcome {
            assert_eq!(winners.len(), 3, "{outcome:?}");
        }
    }
    let play_on = HouseRules {
        team_victory: TeamVictory::PlayOn,
        ..teams
    };
    let (_, outcome) = playout(30, 6, play_on, 20_000);
    if let Outcome::Win { winners, .. } = &outcome {
        assert_eq!(winners.len(), 1, "{outcome:?}");
    }
}

#[test]
fn garbage_text_is_rejected_without_panic() {
    let g = Harmegedo::new_game(6, HouseRules::default()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmxz.-:=QRBNKP@*+ ";
    for _ in 0..3000 {
        let len = rng.random_range(0..14);
        let s: String = (0..len)
            .map(|_| *ALPHABET.choose(&mut rng).unwrap() as char)
            .collect();
        if let Ok(m) = g.parse_move(&s) {
            assert!(g.legal_moves().contains(&m), "{s}");
        }
    }
}
