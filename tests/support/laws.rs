//! The laws every `hexmeros::games::Rules` engine keeps, checked over seeded random playouts by
//! one function, `check_laws`, that the five `tests/*_playouts.rs` call with their own way of
//! choosing and mangling moves. At each position:
//!
//! * the game is over exactly when no move is listed, and then no seat is to move; a live game
//!   has a seat of its own to move; an outcome names seats of the game, a draw at least two;
//! * move texts are unique; a listed move's text reads back as that move (in either letter
//!   case) and keeps its text; playing it by text or by value gives the same position;
//! * a mangled or garbage text is accepted only as a listed move; a refused one is not listed in
//!   any letter case, the reason is one line, and the position is unchanged;
//! * position JSON round-trips: the reloaded position writes the same JSON, has the same moves,
//!   outcome and side to move, and plays on to the same position;
//!
//! and at the end of each playout, replaying the move texts from the start position reaches the
//! same JSON and outcome. A failure names the game, seed and ply, and prints the board.
#![allow(dead_code)] // each test file uses what it needs

use std::collections::HashSet;

use hexmeros::games::{Outcome, Rules};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A plausible but possibly wrong text near a listed one.
pub type Mutate<'a, R> = Box<dyn FnMut(&R, &str, &mut ChaCha8Rng) -> String + 'a>;
/// The text to play next, given the position and its (non-empty) legal moves.
pub type Choose<'a, R> = Box<dyn FnMut(&R, &[<R as Rules>::Move], &mut ChaCha8Rng) -> String + 'a>;
/// Game-specific checks of a position, before its move is chosen.
pub type Inspect<'a, R> = Box<dyn FnMut(&R, &mut ChaCha8Rng) + 'a>;
/// Game-specific checks of one ply: the position before, the text played, the position after.
pub type Played<'a, R> = Box<dyn FnMut(&R, &str, &R) + 'a>;

/// How to play the seeded games: the table, the bounds, how thoroughly to look, and the game's
/// own hooks. `Laws::new` gives uniform random play and generic text edits.
pub struct Laws<'a, R: Rules> {
    pub players: usize,
    pub house: R::HouseRules,
    /// Plies before a playout stops.
    pub max_plies: usize,
    /// Whether every playout must end by the rules within `max_plies` (else reaching it is fine).
    pub must_end: bool,
    /// Every `thorough_every` plies, and at the end, every listed move and the position JSON are
    /// checked; on the other plies `sample` listed moves at random.
    pub thorough_every: usize,
    pub sample: usize,
    /// Mangled texts tried near each sampled move (alternately the game's `mutate` and a
    /// generic edit).
    pub mutations: usize,
    pub mutate: Mutate<'a, R>,
    pub choose: Choose<'a, R>,
    pub inspect: Inspect<'a, R>,
    pub played: Played<'a, R>,
}

/// One finished (or stopped) playout.
pub struct Playout<R> {
    pub seed: u64,
    pub plies: usize,
    pub game: R,
}

impl<'a, R: Rules> Laws<'a, R> {
    pub fn new(players: usize, house: R::HouseRules) -> Self {
        Laws {
            players,
            house,
            max_plies: 1000,
            must_end: false,
            thorough_every: 1,
            sample: 4,
            mutations: 2,
            mutate: Box::new(|_, text, rng| edit(text, rng)),
            choose: Box::new(|g, moves, rng| g.move_text(&moves[rng.random_range(0..moves.len())])),
            inspect: Box::new(|_, _| {}),
            played: Box::new(|_, _, _| {}),
        }
    }
}

/// Play one game per seed from the start position, checking every law on the way.
pub fn check_laws<R: Rules>(
    laws: &mut Laws<R>,
    seeds: impl IntoIterator<Item = u64>,
) -> Vec<Playout<R>> {
    seeds.into_iter().map(|seed| playout(laws, seed)).collect()
}

fn playout<R: Rules>(laws: &mut Laws<R>, seed: u64) -> Playout<R> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = R::new_game(laws.players, laws.house.clone()).unwrap();
    let mut line: Vec<String> = Vec::new();
    let kind = R::KIND;
    for ply in 0..=laws.max_plies {
        let at = format!("{kind} seed {seed} ply {ply}");
        let moves = g.legal_moves();
        let over = moves.is_empty() || ply == laws.max_plies;
        let thorough = over || ply % laws.thorough_every.max(1) == 0;
        check_position(laws, &g, &moves, thorough, &mut rng, &at);
        (laws.inspect)(&g, &mut rng);
        if over {
            assert!(
                !laws.must_end || moves.is_empty(),
                "{at}: no end in {} plies\n{}",
                laws.max_plies,
                g.show()
            );
            check_replay(laws, &g, &line, &at);
            return Playout {
                seed,
                plies: ply,
                game: g,
            };
        }
        let text = (laws.choose)(&g, &moves, &mut rng);
        let before = g.clone();
        let m = g
            .play(&text)
            .unwrap_or_else(|e| panic!("{at}: chosen {text} refused: {e}\n{}", before.show()));
        let mut by_value = before.clone();
        by_value.play_unchecked(&m);
        assert_eq!(by_value.to_json(), g.to_json(), "{at}: {text} by value");
        if thorough {
            // The reloaded position plays on to the same position.
            let mut back = R::from_json(&before.to_json()).unwrap();
            back.play(&text).unwrap();
            assert_eq!(back.to_json(), g.to_json(), "{at}: {text} after a reload");
        }
        (laws.played)(&before, &text, &g);
        line.push(text);
    }
    unreachable!("the last ply returns")
}

/// The laws of one position.
fn check_position<R: Rules>(
    laws: &mut Laws<R>,
    g: &R,
    moves: &[R::Move],
    thorough: bool,
    rng: &mut ChaCha8Rng,
    at: &str,
) {
    // Over exactly when nothing is listed; a live game has a seat of its own to move.
    let outcome = g.outcome();
    assert_eq!(
        outcome.is_some(),
        moves.is_empty(),
        "{at}: outcome {outcome:?} with {} moves\n{}",
        moves.len(),
        g.show()
    );
    assert_eq!(g.to_move().is_none(), moves.is_empty(), "{at}: to move");
    if let Some(s) = g.to_move() {
        assert!(s.index() < g.seat_count(), "{at}: {s:?} to move");
    }
    if let Some(o) = &outcome {
        check_outcome(g, o, at);
    }

    let texts: Vec<String> = moves.iter().map(|m| g.move_text(m)).collect();
    let listed: HashSet<String> = texts.iter().map(|t| t.to_ascii_lowercase()).collect();
    assert_eq!(listed.len(), texts.len(), "{at}: two moves, one text");

    // On thorough plies every listed move reads back; a sample is checked in full.
    let sample: Vec<usize> = (0..laws.sample.min(moves.len()))
        .map(|_| rng.random_range(0..moves.len()))
        .collect();
    if thorough {
        for (m, t) in moves.iter().zip(&texts) {
            check_reads_back(g, m, t, at);
        }
    }
    for &i in &sample {
        check_listed(g, &moves[i], &texts[i], rng, at);
    }
    // Mangled texts near a few listed ones (a generic one when nothing is listed).
    let bases: Vec<&str> = if texts.is_empty() {
        vec!["a1-b2"]
    } else {
        sample.iter().map(|&i| texts[i].as_str()).collect()
    };
    let alphabet = alphabet(&texts);
    // Refused text leaves the position as it was (compared as JSON on thorough plies).
    let json = thorough.then(|| g.to_json());
    let json = json.as_deref();
    for base in bases {
        for k in 0..laws.mutations {
            let bad = if k % 2 == 0 {
                (laws.mutate)(g, base, rng)
            } else {
                edit_with(base, &alphabet, rng)
            };
            check_unlisted(g, moves, &listed, &bad, json, at);
        }
    }
    if thorough {
        for _ in 0..8 {
            let len = rng.random_range(0..12);
            let junk: String = (0..len)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect();
            check_unlisted(g, moves, &listed, &junk, json, at);
        }
        let mut sorted = texts.clone();
        sorted.sort();
        assert_eq!(g.legal_move_texts(), sorted, "{at}: legal_move_texts");
        check_json(g, &sorted, at);
    }
}

/// A listed move's text reads back as that move, and the move keeps its text.
fn check_reads_back<R: Rules>(g: &R, m: &R::Move, text: &str, at: &str) {
    match g.parse_move(text) {
        Ok(parsed) => {
            assert_eq!(&parsed, m, "{at}: {text} read as another move");
            assert_eq!(g.move_text(&parsed), text, "{at}: text of {text}");
        }
        Err(e) => panic!("{at}: listed {text} refused: {e}\n{}", g.show()),
    }
}

/// A listed move reads back as itself in either letter case, and plays by its text.
fn check_listed<R: Rules>(g: &R, m: &R::Move, text: &str, rng: &mut ChaCha8Rng, at: &str) {
    check_reads_back(g, m, text, at);
    let other_case = if rng.random_bool(0.5) {
        text.to_ascii_lowercase()
    } else {
        text.to_ascii_uppercase()
    };
    match g.parse_move(&other_case) {
        Ok(parsed) => assert_eq!(&parsed, m, "{at}: {other_case} read as another move"),
        Err(e) => panic!("{at}: listed {text} refused as {other_case}: {e}"),
    }
    let mut next = g.clone();
    assert_eq!(next.play(text).as_ref(), Ok(m), "{at}: play {text}");
}

/// Text that is not a listed move's is refused with a one-line reason, leaving the position as
/// it was (its JSON is `json`, when given); text that is accepted names a listed move.
fn check_unlisted<R: Rules>(
    g: &R,
    moves: &[R::Move],
    listed: &HashSet<String>,
    text: &str,
    json: Option<&str>,
    at: &str,
) {
    let mut probe = g.clone();
    match probe.play(text) {
        Ok(m) => assert!(
            moves.contains(&m),
            "{at}: {text:?} accepted as {}, not listed",
            g.move_text(&m)
        ),
        Err(e) => {
            assert!(
                !listed.contains(&text.to_ascii_lowercase()),
                "{at}: listed {text:?} refused: {e}"
            );
            assert!(!e.to_string().contains('\n'), "{at}: {text:?}: {e}");
            if let Some(json) = json {
                assert_eq!(probe.to_json(), json, "{at}: refused {text:?} moved");
            }
        }
    }
}

/// Position JSON reloads to the same position.
fn check_json<R: Rules>(g: &R, sorted_texts: &[String], at: &str) {
    let json = g.to_json();
    let back = R::from_json(&json).unwrap_or_else(|e| panic!("{at}: own JSON refused: {e}"));
    assert_eq!(back.to_json(), json, "{at}: JSON round trip");
    assert_eq!(
        back.legal_move_texts(),
        sorted_texts,
        "{at}: moves after a reload"
    );
    assert_eq!(back.outcome(), g.outcome(), "{at}: outcome after a reload");
    assert_eq!(back.to_move(), g.to_move(), "{at}: to move after a reload");
    assert_eq!(
        back.seat_count(),
        g.seat_count(),
        "{at}: seats after a reload"
    );
    assert_eq!(
        back.house_rules(),
        g.house_rules(),
        "{at}: house rules after a reload"
    );
}

/// An outcome names seats of the game, each once; a draw is between two seats at least.
fn check_outcome<R: Rules>(g: &R, outcome: &Outcome, at: &str) {
    let (seats, fewest) = match outcome {
        Outcome::Win { winners, .. } => (winners, 1),
        Outcome::Draw { seats, .. } => (seats, 2),
    };
    let unique: HashSet<_> = seats.iter().collect();
    assert!(
        seats.len() >= fewest
            && unique.len() == seats.len()
            && seats.iter().all(|s| s.index() < g.seat_count()),
        "{at}: {outcome:?}"
    );
}

/// Replaying the texts played from the start position reaches the same position.
fn check_replay<R: Rules>(laws: &Laws<R>, g: &R, line: &[String], at: &str) {
    let mut again = R::new_game(laws.players, laws.house.clone()).unwrap();
    for (i, t) in line.iter().enumerate() {
        again
            .play(t)
            .unwrap_or_else(|e| panic!("{at}: replayed ply {i} {t} refused: {e}"));
    }
    assert_eq!(again.to_json(), g.to_json(), "{at}: replay from the start");
    assert_eq!(again.outcome(), g.outcome(), "{at}: outcome of the replay");
}

/// The characters of the listed texts, with a few separators and junk.
fn alphabet(texts: &[String]) -> Vec<char> {
    let mut set: Vec<char> = texts.iter().flat_map(|t| t.chars()).collect();
    set.extend("-x@*=: 19aZé".chars());
    set.sort_unstable();
    set.dedup();
    set
}

/// A generic edit: one character replaced, dropped or doubled.
pub fn edit(text: &str, rng: &mut ChaCha8Rng) -> String {
    edit_with(text, &alphabet(&[text.to_string()]), rng)
}

fn edit_with(text: &str, alphabet: &[char], rng: &mut ChaCha8Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return alphabet[rng.random_range(0..alphabet.len())].to_string();
    }
    let i = rng.random_range(0..chars.len());
    match rng.random_range(0..3) {
        0 => chars[i] = alphabet[rng.random_range(0..alphabet.len())],
        1 => {
            chars.remove(i);
        }
        _ => chars.insert(i, chars[i]),
    }
    chars.into_iter().collect()
}
