//! HexDame against a second, deliberately naive rules implementation (coordinates in a map,
//! every capture path listed, moves compared as text), and seeded random playouts held to the
//! laws of every engine (tests/support/laws.rs) and to the naive reference: games end within the
//! limits of the rules.

#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use hexmeros_testkit::laws;

use hexmeros::games::hexdame::{HexDame, HouseRules};
use hexmeros::games::{Outcome, Rules};
use laws::{Laws, check_laws};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---- the naive reference: written from rules/hexdame.md alone ----

type Xy = (i32, i32);

/// (white?, king?) by cell.
type Pieces = HashMap<Xy, (bool, bool)>;

/// What the repetition rule compares: every piece and the side to move.
type Key = (Vec<(Xy, bool, bool)>, bool);

#[derive(Clone)]
struct Naive {
    pieces: Pieces,
    white_to_move: bool,
    /// The positions since the last capture or man move, this one last.
    history: Vec<Key>,
}

const DIRS: [Xy; 6] = [(1, 1), (1, 0), (0, 1), (-1, -1), (-1, 0), (0, -1)];

fn on_board((x, y): Xy) -> bool {
    (0..=8).contains(&x) && (0..=8).contains(&y) && (x - y).abs() <= 4
}

fn name((x, y): Xy) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

fn parse_name(s: &str) -> Xy {
    let b = s.as_bytes();
    (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'))
}

fn add((x, y): Xy, (dx, dy): Xy, k: i32) -> Xy {
    (x + dx * k, y + dy * k)
}

/// A naive move: the cells visited and the pieces taken.
#[derive(Clone)]
struct NaiveMove {
    path: Vec<Xy>,
    captured: BTreeSet<Xy>,
}

impl NaiveMove {
    fn text(&self) -> String {
        let sep = if self.captured.is_empty() { "-" } else { "x" };
        self.path
            .iter()
            .map(|&c| name(c))
            .collect::<Vec<_>>()
            .join(sep)
    }
}

impl Naive {
    fn key(&self) -> Key {
        let mut v: Vec<(Xy, bool, bool)> =
            self.pieces.iter().map(|(&c, &(w, k))| (c, w, k)).collect();
        v.sort();
        (v, self.white_to_move)
    }

    /// Read position JSON on its own terms, history included: the `reversible_moves` are king
    /// slides, so slide each king back, then replay them forward.
    fn from_json(json: &str) -> Naive {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        let mut pieces = Pieces::new();
        for p in v["pieces"].as_array().unwrap() {
            pieces.insert(
                parse_name(p["cell"].as_str().unwrap()),
                (p["owner"] == "white", p["kind"] == "king"),
            );
        }
        let mut white_to_move = v["to_move"] == "white";
        let moves: Vec<(Xy, Xy)> = v["reversible_moves"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|m| {
                        let (f, t) = m.as_str().unwrap().split_once('-').unwrap();
                        (parse_name(f), parse_name(t))
                    })
                    .collect()
            })
            .unwrap_or_default();
        for &(from, to) in moves.iter().rev() {
            let p = pieces.remove(&to).unwrap();
            pieces.insert(from, p);
            white_to_move = !white_to_move;
        }
        let mut naive = Naive {
            pieces,
            white_to_move,
            history: Vec::new(),
        };
        naive.history.push(naive.key());
        for (from, to) in moves {
            let m = NaiveMove {
                path: vec![from, to],
                captured: BTreeSet::new(),
            };
            naive = naive.play(&m);
        }
        naive
    }

    /// Through the engine's JSON, which the naive side reads on its own.
    fn from_engine(game: &HexDame) -> Naive {
        Naive::from_json(&game.to_json())
    }

    fn drawn(&self) -> bool {
        let now = self.key();
        self.history.iter().filter(|k| **k == now).count() >= 3
    }

    /// Every complete capture path of the piece that started on `path[0]`.
    fn captures(
        &self,
        board: &Pieces,
        king: bool,
        path: &mut Vec<Xy>,
        captured: &mut BTreeSet<Xy>,
        out: &mut Vec<NaiveMove>,
    ) {
        let at = *path.last().unwrap();
        let mut went_on = false;
        for d in DIRS {
            let reach = if king { 8 } else { 1 };
            // Find the first piece along the line within reach.
            let mut k = 1;
            while k <= reach && on_board(add(at, d, k)) && !board.contains_key(&add(at, d, k)) {
                k += 1;
            }
            let victim = add(at, d, k);
            if k > reach || !on_board(victim) {
                continue;
            }
            let (white, _) = board[&victim];
            if white == self.white_to_move || captured.contains(&victim) {
                continue;
            }
            let far = if king { 8 } else { 1 };
            for j in 1..=far {
                let land = add(victim, d, j);
                if !on_board(land) || board.contains_key(&land) {
                    break;
                }
                went_on = true;
                path.push(land);
                captured.insert(victim);
                self.captures(board, king, path, captured, out);
                captured.remove(&victim);
                path.pop();
            }
        }
        if !went_on && path.len() > 1 {
            out.push(NaiveMove {
                path: path.clone(),
                captured: captured.clone(),
            });
        }
    }

    /// The legal moves as canonical text: majority captures folded by (from, to, captured)
    /// keeping the least text, or else steps and slides.
    fn moves(&self) -> Vec<(String, NaiveMove)> {
        if self.drawn() {
            return Vec::new();
        }
        let mut all = Vec::new();
        for (&from, &(white, king)) in &self.pieces {
            if white != self.white_to_move {
                continue;
            }
            let mut board = self.pieces.clone();
            board.remove(&from);
            self.captures(
                &board,
                king,
                &mut vec![from],
                &mut BTreeSet::new(),
                &mut all,
            );
        }
        if let Some(best) = all.iter().map(|m| m.captured.len()).max() {
            let mut folded: BTreeMap<(Xy, Xy, Vec<Xy>), NaiveMove> = BTreeMap::new();
            for m in all.into_iter().filter(|m| m.captured.len() == best) {
                let key = (
                    m.path[0],
                    *m.path.last().unwrap(),
                    m.captured.iter().copied().collect(),
                );
                match folded.get(&key) {
                    Some(kept) if kept.text() <= m.text() => {}
                    _ => {
                        folded.insert(key, m);
                    }
                }
            }
            let mut v: Vec<_> = folded.into_values().map(|m| (m.text(), m)).collect();
            v.sort_by(|a, b| a.0.cmp(&b.0));
            return v;
        }
        let mut v = Vec::new();
        for (&from, &(white, king)) in &self.pieces {
            if white != self.white_to_move {
                continue;
            }
            let dirs: Vec<Xy> = if king {
                DIRS.to_vec()
            } else if white {
                vec![(1, 1), (1, 0), (0, 1)]
            } else {
                vec![(-1, -1), (-1, 0), (0, -1)]
            };
            for d in dirs {
                let mut k = 1;
                while on_board(add(from, d, k)) && !self.pieces.contains_key(&add(from, d, k)) {
                    let m = NaiveMove {
                        path: vec![from, add(from, d, k)],
                        captured: BTreeSet::new(),
                    };
                    v.push((m.text(), m));
                    if !king {
                        break;
                    }
                    k += 1;
                }
            }
        }
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    fn play(&self, m: &NaiveMove) -> Naive {
        let mut pieces = self.pieces.clone();
        for c in &m.captured {
            pieces.remove(c);
        }
        let (white, king) = pieces.remove(&m.path[0]).unwrap();
        let to = *m.path.last().unwrap();
        let far = if white { 8 } else { 0 };
        let promotes = to.0 == far || to.1 == far;
        pieces.insert(to, (white, king || promotes));
        let mut next = Naive {
            pieces,
            white_to_move: !self.white_to_move,
            history: if king && m.captured.is_empty() {
                self.history.clone()
            } else {
                Vec::new()
            },
        };
        next.history.push(next.key());
        next
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|(_, m)| self.play(m).perft(depth - 1))
            .sum()
    }
}

fn start() -> HexDame {
    HexDame::new_game(2, HouseRules::default()).unwrap()
}

fn data_file(rel: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(rel),
    )
    .unwrap()
}

/// The mid-game positions of tests/data/perft_hexdame.txt.
const MID_GAME: [&str; 6] = [
    "positions/hexdame_opening.json",
    "positions/hexdame_kings.json",
    "positions/hexdame_endgame.json",
    "positions/hexdame_men.json",
    "positions/hexdame_sweep.json",
    "positions/hexdame_repeat.json",
];

#[test]
fn naive_reference_agrees_on_perft_from_the_start() {
    let game = start();
    let naive = Naive::from_engine(&game);
    for depth in 1..=4 {
        assert_eq!(game.perft(depth), naive.perft(depth), "perft({depth})");
    }
}

#[test]
fn naive_reference_agrees_on_perft_from_the_mid_game_positions() {
    for file in MID_GAME {
        let json = data_file(file);
        let game = HexDame::from_json(&json).unwrap();
        let naive = Naive::from_json(&json);
        for depth in 1..=3 {
            assert_eq!(
                game.perft(depth),
                naive.perft(depth),
                "{file} perft({depth})"
            );
        }
    }
}

#[test]
fn naive_reference_agrees_on_repetition_inside_perft() {
    // The fourth ply can repeat the position a third time (see perft_hexdame.txt).
    let json = data_file("positions/hexdame_repeat.json");
    let game = HexDame::from_json(&json).unwrap();
    let naive = Naive::from_json(&json);
    assert_eq!(naive.perft(5), 194_942);
    assert_eq!(game.perft(5), naive.perft(5));
}

// ---- seeded random playouts ----

fn random_cell(rng: &mut ChaCha8Rng) -> String {
    loop {
        let c = (rng.random_range(0..9), rng.random_range(0..9));
        if on_board(c) {
            return name(c);
        }
    }
}

/// A plausible but possibly wrong move text made from a legal one.
fn mutate(text: &str, rng: &mut ChaCha8Rng) -> String {
    let cells: Vec<&str> = text.split(['-', 'x']).collect();
    let sep = if text.contains('x') { "x" } else { "-" };
    match rng.random_range(0..6) {
        0 => {
            let mut c: Vec<String> = cells.iter().map(|s| s.to_string()).collect();
            let i = rng.random_range(0..c.len());
            c[i] = random_cell(rng);
            c.join(sep)
        }
        1 => cells.join(if sep == "x" { "-" } else { "x" }),
        2 if cells.len() > 2 => cells[..cells.len() - 1].join(sep),
        3 => format!("{text}{sep}{}", random_cell(rng)),
        4 => format!("{}{sep}{}", cells[0], cells[cells.len() - 1]),
        _ => {
            let alphabet = b"abcdefghijx-:0123456789=K ";
            let n = rng.random_range(0..9);
            (0..n)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())] as char)
                .collect()
        }
    }
}

/// What the laws leave to HexDame: the repetition count survives position JSON, and the naive
/// reference lists the same moves.
fn check_position(game: &HexDame) {
    let back = HexDame::from_json(&game.to_json()).unwrap();
    assert_eq!(back.repetition_count(), game.repetition_count());
    if game.outcome().is_none() {
        let naive: Vec<String> = Naive::from_engine(game)
            .moves()
            .into_iter()
            .map(|(t, _)| t)
            .collect();
        assert_eq!(game.legal_move_texts(), naive, "\n{}", game.show());
    }
}

/// The most pieces the side to move can capture (0 if none).
fn threat(game: &HexDame) -> usize {
    game.legal_moves()
        .iter()
        .map(|m| m.capture_count())
        .max()
        .unwrap_or(0)
}

/// A careful random player: among a few random moves, take the one that gives the opponent
/// the smallest capture. Games then last into king endgames, where the draw rules matter.
fn careful_pick(game: &HexDame, texts: &[String], rng: &mut ChaCha8Rng) -> String {
    let mut best: Option<(i64, &String)> = None;
    for _ in 0..6 {
        let t = &texts[rng.random_range(0..texts.len())];
        let mut next = game.clone();
        let m = next.play(t).unwrap();
        let score = m.capture_count() as i64 - threat(&next) as i64;
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, t));
        }
    }
    best.unwrap().1.clone()
}

/// Play one seeded game (random, or careful) under the laws (tests/support/laws.rs), with
/// HexDame-shaped mangled texts; returns its length in plies and how it ended.
fn playout(
    seed: u64,
    house: HouseRules,
    max_plies: usize,
    careful: bool,
) -> (usize, Option<Outcome>) {
    let mut laws = Laws::<HexDame>::new(2, house);
    laws.max_plies = max_plies;
    laws.mutations = 4;
    laws.mutate = Box::new(|_, text, rng| mutate(text, rng));
    if careful {
        laws.choose = Box::new(|g, moves, rng| {
            let texts: Vec<String> = moves.iter().map(|m| g.move_text(m)).collect();
            careful_pick(g, &texts, rng)
        });
    }
    laws.inspect = Box::new(|g, _| check_position(g));
    let p = check_laws(&mut laws, [seed]).pop().unwrap();
    (p.plies, p.game.outcome())
}

#[test]
fn random_playouts_under_a_king_move_limit_end() {
    // With the house rule every game must end: men move only forward (at most 16 steps each,
    // plus 2 per capture hop won back), captures are at most 31, and between two such moves
    // at most 2 × limit king moves are played. That bounds a game far below the cap.
    let house = HouseRules {
        king_move_limit: Some(15),
        ..HouseRules::default()
    };
    let mut ends = [0usize; 3];
    for seed in 0..24 {
        let careful = seed % 2 == 1;
        let (plies, outcome) = playout(seed, house.clone(), 20_000, careful);
        let outcome = outcome.unwrap_or_else(|| panic!("seed {seed}: no end in {plies} plies"));
        match outcome {
            Outcome::Win { winners, .. } => ends[winners[0].index()] += 1,
            Outcome::Draw { .. } => ends[2] += 1,
        }
    }
    // Random play ends every way now and then; a regression that never ends games (or always
    // draws) shows here.
    assert!(ends[0] > 0 && ends[1] > 0 && ends[2] > 0, "{ends:?}");
}

#[test]
fn random_playouts_under_the_spec_rules() {
    for seed in 100..112 {
        let (plies, outcome) = playout(seed, HouseRules::default(), 400, seed % 2 == 1);
        assert!(outcome.is_some() || plies == 400);
    }
}

#[test]
fn garbage_move_text_never_panics() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let game = start();
    for _ in 0..2000 {
        let n = rng.random_range(0..12);
        let text: String = (0..n)
            .map(|_| {
                let alphabet = "abcdefghijkxX-:*@=+0123456789 Kéz";
                alphabet
                    .chars()
                    .nth(rng.random_range(0..alphabet.chars().count()))
                    .unwrap()
            })
            .collect();
        let _ = game.parse_move(&text);
    }
}
