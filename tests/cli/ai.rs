//! The bots on the command line: `hexmeros rules bestmove` answers a legal move, the same one for
//! the same seed; `hexmeros ai tournament` and `ai budget` run; bad input gets exit code 2, one
//! line on stderr and nothing on stdout.

#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexmeros"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}

#[track_caller]
fn ok(args: &[&str], stdin: Option<&str>) -> String {
    let out = run(args, stdin);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{args:?}: {stderr}");
    assert!(stderr.is_empty(), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// Exit 2, one line `error: …` on stderr containing `why`, nothing on stdout.
#[track_caller]
fn fails(args: &[&str], stdin: Option<&str>, why: &str) {
    let out = run(args, stdin);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: stdout not empty");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    assert!(stderr.contains(why), "{args:?}: {stderr:?} lacks {why:?}");
}

/// A HexDame middle game from the test data, read as standard input.
fn men() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/positions/hexdame_men.json"
    ))
    .unwrap()
}

#[test]
fn bestmove_answers_a_legal_move_in_every_game() {
    for game in [
        "heximeros",
        "hexdame",
        "hexmeister",
        "hexaequo",
        "harmegedo",
    ] {
        let legal = ok(&["rules", "moves", "--game", game], None);
        let legal: Vec<&str> = legal.lines().collect();
        for level in ["random", "easy", "normal"] {
            let m = ok(
                &[
                    "rules", "bestmove", "--game", game, "--level", level, "--seed", "3",
                ],
                None,
            );
            let m = m.trim();
            // HexiMeros may add Check declarations; none are possible from the start.
            assert!(legal.contains(&m), "{game} {level}: {m} is not legal");
        }
    }
}

#[test]
fn bestmove_reads_a_position_and_is_deterministic() {
    let men = men();
    let legal = ok(&["rules", "moves", "--position", "-"], Some(&men));
    let a = ok(&["rules", "bestmove", "--position", "-"], Some(&men));
    let b = ok(&["rules", "bestmove", "--position", "-"], Some(&men));
    assert_eq!(a, b);
    assert!(legal.lines().any(|l| l == a.trim()), "{a}");
    let hard = ok(
        &["rules", "bestmove", "--position", "-", "--level", "hard"],
        Some(&men),
    );
    assert!(legal.lines().any(|l| l == hard.trim()), "{hard}");
}

#[test]
fn bestmove_bad_input_is_one_line() {
    fails(
        &[
            "rules",
            "bestmove",
            "--game",
            "hexdame",
            "--level",
            "grandmaster",
        ],
        None,
        "unknown level \"grandmaster\"",
    );
    fails(
        &["rules", "bestmove", "--game", "chess"],
        None,
        "unknown game \"chess\"",
    );
    fails(
        &["rules", "bestmove", "--position", "-"],
        Some("{not json"),
        "",
    );
    fails(
        &[
            "rules",
            "bestmove",
            "--position",
            "/nonexistent/position.json",
        ],
        None,
        "cannot read position file",
    );
    // A finished game: White has no piece left, so Black has won.
    let over = r#"{"game":"hexdame","to_move":"white","pieces":[
      {"cell":"e5","owner":"black","kind":"man"}]}"#;
    let out = run(&["rules", "bestmove", "--position", "-"], Some(over));
    let stderr = String::from_utf8(out.stderr).unwrap();
    if out.status.success() {
        panic!("a finished game has no best move, got {:?}", out.stdout);
    }
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// A quick HexDame match (easy against random, 300 nodes a move); tests add games, seed and flags.
const EASY_VS_RANDOM: &[&str] = &[
    "ai",
    "tournament",
    "--game",
    "hexdame",
    "--a",
    "easy",
    "--b",
    "random",
    "--nodes",
    "300",
];

#[test]
fn a_small_tournament_prints_its_table() {
    let args = [EASY_VS_RANDOM, &["--games", "2", "--seed", "5"]].concat();
    let out = ok(&args, None);
    assert!(
        out.starts_with("HexDame (2 seats, colours alternated): easy vs random, 2 games"),
        "{out}"
    );
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 5, "{out}");
    assert!(
        rows[2].starts_with("easy ") && rows[3].starts_with("random "),
        "{out}"
    );
    assert!(rows[4].starts_with("games: "), "{out}");
    // Same seed, same games: only the times may differ.
    let again = ok(&args, None);
    let results = |s: &str| -> Vec<String> {
        s.lines()
            .skip(2)
            .take(2)
            .map(|l| l.split_whitespace().take(5).collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert_eq!(results(&out), results(&again));
}

#[test]
fn verbose_tournament_numbers_its_games_and_from_replays_a_later_game() {
    let games = |extra: &[&str]| -> Vec<String> {
        let args = [EASY_VS_RANDOM, &["--seed", "9", "--verbose"], extra].concat();
        let out = run(&args, None);
        assert!(out.status.success());
        String::from_utf8(out.stderr)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    };
    let both = games(&["--games", "2"]);
    assert_eq!(both.len(), 2, "{both:?}");
    assert!(
        both[0].starts_with("game 1: ") && both[1].starts_with("game 2: "),
        "{both:?}"
    );
    // Colours alternate: each line names the level in each seat with its finishing place.
    assert!(both[0].contains("; places by seat: easy "), "{both:?}");
    assert!(both[1].contains("; places by seat: random "), "{both:?}");
    for line in &both {
        let places = line.split("places by seat: ").nth(1).unwrap();
        let mut sum = 0.0;
        for seat in places.split(", ") {
            sum += seat.split(' ').nth(1).unwrap().parse::<f64>().unwrap();
        }
        assert_eq!(sum, 3.0, "two seats share places 1 and 2: {line}");
    }
    assert_eq!(games(&["--games", "1", "--from", "2"]), both[1..]);
    // Each line gives the game's length in rounds too, so that a run split with --from still
    // has every game's rounds: a game alone is the run's median.
    let args = [
        EASY_VS_RANDOM,
        &["--seed", "9", "--verbose", "--games", "1"],
    ]
    .concat();
    let out = run(&args, None);
    assert!(out.status.success());
    let (line, report) = (
        String::from_utf8(out.stderr).unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    );
    let (plies, rounds) = line
        .strip_prefix("game 1: ")
        .and_then(|l| l.split_once(" plies ("))
        .and_then(|(p, l)| Some((p, l.split_once(" rounds), ")?.0)))
        .unwrap_or_else(|| panic!("{line}"));
    let (plies, rounds): (u32, u32) = (plies.parse().unwrap(), rounds.parse().unwrap());
    assert!(rounds > 0 && rounds < plies, "two seats: {line}");
    assert!(
        report.contains(&format!("median {plies} plies, {rounds} rounds")),
        "{line}{report}"
    );
}

#[test]
fn tournament_moves_prints_each_game_replayable_to_its_result() {
    use hexmeros::games::{AnyGame, GameKind};
    let args = [
        EASY_VS_RANDOM,
        &["--seed", "9", "--games", "2", "--verbose", "--moves"],
    ]
    .concat();
    let out = run(&args, None);
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 4, "{stderr}");
    for (g, pair) in lines.chunks(2).enumerate() {
        let n = g + 1;
        let plies: usize = pair[0]
            .strip_prefix(&format!("game {n}: "))
            .and_then(|r| r.split(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        let moves: Vec<&str> = pair[1]
            .strip_prefix(&format!("game {n} moves: "))
            .unwrap()
            .split(' ')
            .collect();
        assert_eq!(moves.len(), plies, "{pair:?}");
        // Every move is legal in turn, and the last one ends the game the line reports.
        let mut game = AnyGame::new(GameKind::HexDame, None, None).unwrap();
        for m in &moves {
            game.play(m).unwrap();
        }
        let outcome = game.outcome().map(|o| format!("{o:?}"));
        match outcome {
            Some(o) => assert!(pair[0].contains(&o), "{pair:?} against {o}"),
            None => assert!(pair[0].contains("capped"), "{pair:?}"),
        }
    }
}

#[test]
fn tournament_bad_input_is_one_line() {
    let base = |extra: &[&'static str]| {
        let mut v = vec![
            "ai",
            "tournament",
            "--game",
            "hexdame",
            "--a",
            "normal",
            "--b",
            "random",
        ];
        v.extend_from_slice(extra);
        v
    };
    fails(
        &[
            "ai",
            "tournament",
            "--game",
            "chess",
            "--a",
            "normal",
            "--b",
            "random",
        ],
        None,
        "unknown game \"chess\"",
    );
    fails(
        &[
            "ai",
            "tournament",
            "--game",
            "hexdame",
            "--a",
            "genius",
            "--b",
            "random",
        ],
        None,
        "unknown level \"genius\"",
    );
    fails(&base(&["--games", "0"]), None, "--games must be at least 1");
    fails(&base(&["--from", "0"]), None, "--from counts games from 1");
    fails(
        &base(&["--from", "4294967295", "--games", "2"]),
        None,
        "run past the last game number",
    );
    fails(
        &base(&["--max-plies", "0"]),
        None,
        "--max-plies must be at least 1",
    );
    fails(
        &base(&["--seating", "round"]),
        None,
        "unknown seating \"round\"",
    );
    fails(&base(&["--players", "3"]), None, "");
    fails(
        &[
            "ai",
            "tournament",
            "--game",
            "harmegedo",
            "--a",
            "normal",
            "--b",
            "random",
            "--players",
            "9",
        ],
        None,
        "",
    );
}

#[test]
fn budget_times_a_given_position() {
    let men = men();
    let out = ok(
        &[
            "ai",
            "budget",
            "--position",
            "-",
            "--levels",
            "easy,normal",
            "--seeds",
            "1",
        ],
        Some(&men),
    );
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 3, "{out}");
    assert!(
        rows[1].starts_with("hexdame") && rows[1].contains(" easy "),
        "{out}"
    );
    assert!(rows[2].contains(" normal "), "{out}");
    fails(
        &["ai", "budget", "--levels", "normal,wizard"],
        None,
        "unknown level \"wizard\"",
    );
    fails(
        &["ai", "budget", "--game", "go"],
        None,
        "unknown game \"go\"",
    );
    fails(
        &["ai", "budget", "--game", "hexdame", "--seeds", "0"],
        None,
        "--seeds must be at least 1",
    );
}

/// A tiny three-kingdom Harmegedo match (100 nodes a move, 16 plies at most).
const HARMEGEDO_3: &[&str] = &[
    "ai",
    "tournament",
    "--game",
    "harmegedo",
    "--players",
    "3",
    "--games",
    "1",
    "--max-plies",
    "16",
    "--nodes",
    "100",
];

#[test]
fn tournament_search_flags_choose_each_sides_search() {
    let args = [
        HARMEGEDO_3,
        &["--a", "normal", "--b", "normal", "--search-a", "brs"],
    ]
    .concat();
    let out = ok(&args, None);
    assert!(
        out.starts_with("Harmegedo (3 seats, alternate seats): normal/brs vs normal, 1 games"),
        "{out}"
    );
    let rows: Vec<&str> = out.lines().collect();
    assert!(
        rows[2].starts_with("normal/brs ") && rows[3].starts_with("normal "),
        "{out}"
    );
    // --search sets both sides; the same bot on both sides plays on (no side left alone).
    let args = [
        HARMEGEDO_3,
        &["--a", "easy", "--b", "easy", "--search", "BRS"],
    ]
    .concat();
    let out = ok(&args, None);
    assert!(out.contains("easy/brs vs easy/brs"), "{out}");
    assert!(
        out.contains("easy/brs A ") && out.contains("easy/brs B "),
        "{out}"
    );
    assert!(out.contains(" 0 stopped with one side left"), "{out}");
    assert!(out.contains("16 plies/game"), "{out}");
}

#[test]
fn tournament_gives_each_sides_place_by_seat() {
    // Games 2 and 3 of a three-seat table with A alone: A sits in the second and the third
    // seat (kingdoms 2 and 4 of a three-kingdom Harmegedo), once each; B twice in the first.
    let args = [
        &HARMEGEDO_3[..6],
        &[
            "--games",
            "2",
            "--from",
            "2",
            "--max-plies",
            "16",
            "--nodes",
            "100",
        ],
        &["--a", "easy", "--b", "normal", "--seating", "lone"],
    ]
    .concat();
    let out = ok(&args, None);
    let line = |who: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(&format!("{who} place by seat: ")))
            .unwrap_or_else(|| panic!("no {who} line in {out}"))
            .split(", ")
            .map(|part| {
                let (seat, rest) = part.split_once(' ').unwrap();
                let (place, n) = rest.split_once(' ').unwrap();
                let place: f64 = place.parse().unwrap();
                assert!((1.0..=3.0).contains(&place), "{out}");
                (seat.to_string(), n.to_string())
            })
            .collect::<Vec<_>>()
    };
    let seats = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        line("easy"),
        seats(&[("kingdom2", "(1)"), ("kingdom4", "(1)")]),
        "{out}"
    );
    assert_eq!(
        line("normal"),
        seats(&[
            ("kingdom0", "(2)"),
            ("kingdom2", "(1)"),
            ("kingdom4", "(1)")
        ]),
        "{out}"
    );
    // Two seats: colours alternate, no line by seat.
    let two = ok(
        &[
            "ai",
            "tournament",
            "--game",
            "hexdame",
            "--a",
            "random",
            "--b",
            "easy",
            "--games",
            "1",
            "--max-plies",
            "4",
        ],
        None,
    );
    assert!(!two.contains("place by seat"), "{two}");
}

#[test]
fn tournament_refuses_an_unknown_search() {
    let base = [HARMEGEDO_3, &["--a", "normal", "--b", "easy"]].concat();
    fails(
        &[&base[..], &["--search", "maxn"]].concat(),
        None,
        "unknown search \"maxn\" (expected paranoid, brs, brs+ or wary)",
    );
    fails(
        &[&base[..], &["--search-b", "fast"]].concat(),
        None,
        "unknown search \"fast\"",
    );
}

#[test]
fn budget_times_the_search_asked_for() {
    let pos = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/positions/harmegedo_mid3.json"
    );
    let base = [
        "ai",
        "budget",
        "--position",
        pos,
        "--levels",
        "normal",
        "--seeds",
        "1",
    ];
    let brs = ok(&[&base[..], &["--search", "brs"]].concat(), None);
    let paranoid = ok(&base, None);
    let row = |out: &str| out.lines().nth(1).unwrap_or_default().to_string();
    let cols = |r: &str| r.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let (b, p) = (cols(&row(&brs)), cols(&row(&paranoid)));
    assert!(brs.lines().next().unwrap().contains(" search "), "{brs}");
    assert_eq!(&b[..5], ["harmegedo", "3", &b[2], "normal", "brs"], "{brs}");
    assert_eq!(p[4], "paranoid", "{paranoid}");
    // Depth and nodes: the two searches are different trees.
    assert_ne!(&b[5..7], &p[5..7], "{brs}{paranoid}");
    // BRS+ is asked by name too, and reported as such.
    let plus = ok(&[&base[..], &["--search", "brs+"]].concat(), None);
    assert_eq!(cols(&row(&plus))[4], "brs+", "{plus}");
    // Two seats search alpha-beta whatever is asked.
    let out = ok(
        &[
            "ai",
            "budget",
            "--position",
            "-",
            "--levels",
            "easy",
            "--seeds",
            "1",
            "--search",
            "brs",
        ],
        Some(&men()),
    );
    assert_eq!(cols(&row(&out))[4], "-", "{out}");
    fails(
        &[&base[..], &["--search", "maxn"]].concat(),
        None,
        "unknown search \"maxn\" (expected paranoid, brs, brs+ or wary)",
    );
}

#[test]
fn tournament_weights_flags_give_a_side_its_own_heximeros_weights() {
    let base = [
        "ai",
        "tournament",
        "--game",
        "heximeros",
        "--a",
        "normal",
        "--b",
        "normal",
        "--games",
        "1",
        "--max-plies",
        "12",
        "--nodes",
        "200",
    ];
    let out = run(
        &[
            &base[..],
            &["--verbose", "--weights-a", "hunt=0, net=0,pressing=900"],
        ]
        .concat(),
        None,
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("normal/brs+w vs normal/brs,"), "{stdout}");
    assert!(
        stderr.contains("normal/brs+w ") && stderr.contains("normal/brs 3.5"),
        "{stderr}"
    );
    // The defaults spelled out are the defaults: the same bot on both sides.
    let out = ok(&[&base[..], &["--weights-b", "hunt=1"]].concat(), None);
    assert!(out.contains("normal/brs vs normal/brs,"), "{out}");
    // A side's weights are set over its level's: hard's draw_tenths (10) stays unless named,
    // and naming it back to the plain default makes a bot of weights of its own.
    let hard = |weights: &str| {
        let mut args = base.to_vec();
        args[5] = "hard";
        ok(&[&args[..], &["--weights-a", weights]].concat(), None)
    };
    let out = hard("restless=40");
    assert!(out.contains("hard/brs vs normal/brs,"), "{out}");
    let out = hard("draw_tenths=0");
    assert!(out.contains("hard/brs+w vs normal/brs,"), "{out}");
}

#[test]
fn tournament_node_flags_give_each_side_its_budget() {
    let args = [
        HARMEGEDO_3,
        &["--a", "normal", "--b", "normal", "--nodes-a", "1"],
    ]
    .concat();
    let out = ok(&args, None);
    assert!(out.contains("normal@1 vs normal, 1 games"), "{out}");
    let rows: Vec<&str> = out.lines().collect();
    assert!(
        rows[2].starts_with("normal@1 ") && rows[3].starts_with("normal "),
        "{out}"
    );
    let args = [
        HARMEGEDO_3,
        &["--a", "hard", "--b", "normal", "--nodes-b", "7"],
    ]
    .concat();
    let out = ok(&args, None);
    assert!(out.contains("hard/brs vs normal@7,"), "{out}");
    // Refused, with nothing played: a budget of no nodes, for a side or both.
    let base = [HARMEGEDO_3, &["--a", "normal", "--b", "easy"]].concat();
    for flag in ["--nodes-a", "--nodes-b"] {
        fails(
            &[&base[..], &[flag, "0"]].concat(),
            None,
            &format!("{flag} must be at least 1"),
        );
    }
    fails(
        &[
            "ai",
            "tournament",
            "--game",
            "harmegedo",
            "--a",
            "normal",
            "--b",
            "easy",
            "--nodes",
            "0",
        ],
        None,
        "--nodes must be at least 1",
    );
    fails(
        &[&base[..], &["--nodes-a", "many"]].concat(),
        None,
        "invalid value 'many' for '--nodes-a <NODES_A>'",
    );
}

#[test]
fn tournament_opening_plays_random_plies_first() {
    let args = [
        HARMEGEDO_3,
        &["--a", "normal", "--b", "easy", "--opening", "6", "--moves"],
    ]
    .concat();
    let out = run(&args, None);
    let stderr = String::from_utf8(out.stderr).unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.starts_with("Harmegedo (3 seats, alternate seats, 6 random plies first): "),
        "{stdout}"
    );
    assert!(stdout.contains("16 plies/game"), "{stdout}");
    // The moves printed start with the opening, and the plies cap counts it.
    let line = stderr.lines().find(|l| l.contains(" moves: ")).unwrap();
    let moves: Vec<&str> = line.split(" moves: ").nth(1).unwrap().split(' ').collect();
    assert_eq!(moves.len(), 16, "{line}");
    let base = [HARMEGEDO_3, &["--a", "normal", "--b", "easy"]].concat();
    fails(
        &[&base[..], &["--opening", "16"]].concat(),
        None,
        "--opening (16) must be below the ply cap (16)",
    );
    fails(
        &[&base[..], &["--opening", "six"]].concat(),
        None,
        "invalid value 'six' for '--opening <OPENING>'",
    );
}

#[test]
fn tournament_refuses_bad_weights() {
    let base = [HARMEGEDO_3, &["--a", "normal", "--b", "easy"]].concat();
    fails(
        &[&base[..], &["--weights-a", "hunted=3"]].concat(),
        None,
        "--weights-a \"hunted=3\": unknown HexiMeros evaluation term \"hunted\"",
    );
    fails(
        &[&base[..], &["--weights-b", "net=lots"]].concat(),
        None,
        "\"lots\" is not a whole number",
    );
    fails(
        &[&base[..], &["--weights-b", "rival_share=0"]].concat(),
        None,
        "rival_share divides: it must be at least 1",
    );
    fails(
        &[&base[..], &["--weights-a", "net"]].concat(),
        None,
        "\"net\" is not name=value",
    );
    fails(
        &[&base[..], &["--weights-a", "draw_tenths=1000001"]].concat(),
        None,
        "draw_tenths must be between -1000000 and 1000000, not 1000001",
    );
    fails(
        &[&base[..], &["--weights-b", "hunt=99999999999999999999"]].concat(),
        None,
        "\"99999999999999999999\" is not a whole number",
    );
}

#[test]
fn tune_prints_each_iteration_and_the_weights_it_ends_with() {
    let args = [
        "ai",
        "tune",
        "--terms",
        "hunt,net",
        "--iterations",
        "2",
        "--games",
        "1",
        "--max-plies",
        "12",
        "--nodes",
        "120",
        "--seed",
        "3",
    ];
    let out = run(&args, None);
    let stderr = String::from_utf8(out.stderr).unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with("iteration 1: plus "), "{stderr}");
    assert!(lines[1].contains("; now hunt="), "{stderr}");
    // The final weights: every term, as a list `--weights-a` takes back.
    let last = stdout.trim();
    assert!(
        last.starts_with("sovereign=3000,") && last.contains(",hunt="),
        "{stdout}"
    );
    ok(
        &[
            HARMEGEDO_3,
            &["--a", "normal", "--b", "easy", "--weights-a", last],
        ]
        .concat(),
        None,
    );
    // The same seed, the same weights.
    assert_eq!(String::from_utf8(run(&args, None).stdout).unwrap(), stdout);
}

#[test]
fn tune_bad_input_is_one_line() {
    let base = [
        "ai",
        "tune",
        "--iterations",
        "1",
        "--games",
        "1",
        "--max-plies",
        "4",
    ];
    fails(
        &[&base[..], &["--terms", "hunt,hunted"]].concat(),
        None,
        "unknown HexiMeros evaluation term \"hunted\"",
    );
    fails(
        &[&base[..], &["--terms", " , "]].concat(),
        None,
        "no term to tune",
    );
    fails(
        &[&base[..], &["--level", "easy"]].concat(),
        None,
        "--level must be normal or hard",
    );
    fails(
        &[&base[..], &["--gain", "0"]].concat(),
        None,
        "--gain must be a number above 0",
    );
    fails(
        &[&base[..], &["--gain", "NaN"]].concat(),
        None,
        "--gain must be a number above 0",
    );
    fails(
        &[&base[..], &["--weights", "net=x"]].concat(),
        None,
        "--weights \"net=x\"",
    );
    fails(
        &[&base[..], &["--search", "maxn"]].concat(),
        None,
        "unknown search \"maxn\"",
    );
    fails(
        &[&base[..], &["--nodes", "0"]].concat(),
        None,
        "--nodes must be at least 1",
    );
    fails(
        &["ai", "tune", "--games", "0"],
        None,
        "at least one iteration of at least one game",
    );
}
