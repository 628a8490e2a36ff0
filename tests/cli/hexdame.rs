//! The `hexmeros rules` command line with HexDame: good output for each command, and for every
//! kind of bad input exit code 2, exactly one line on stderr and nothing on stdout.

#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use hexmeros_testkit::cli;

use cli::{fails, ok};

const T14: &str = r#"{"game":"hexdame","to_move":"white","pieces":[
  {"cell":"e1","owner":"white","kind":"man"},{"cell":"e2","owner":"black","kind":"man"},
  {"cell":"f2","owner":"black","kind":"man"},{"cell":"e3","owner":"black","kind":"man"},
  {"cell":"g3","owner":"black","kind":"man"}]}"#;

#[test]
fn new_prints_the_start_position() {
    let json = ok(&["rules", "new", "hexdame"], "");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["game"], "hexdame");
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["pieces"].as_array().unwrap().len(), 32);
    assert!(
        v.get("house_rules").is_none(),
        "the spec's rules are not written out"
    );
    let json = ok(
        &[
            "rules",
            "new",
            "hexdame",
            "--players",
            "2",
            "--house-rules",
            r#"{"king_move_limit":50}"#,
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["house_rules"]["king_move_limit"], 50);
    // The house rules travel with the position.
    let again = ok(&["rules", "play", "--position", "-", "d4-e5"], &json);
    let v: serde_json::Value = serde_json::from_str(&again).unwrap();
    assert_eq!(v["house_rules"]["king_move_limit"], 50);
}

#[test]
fn moves_perft_and_show() {
    let moves = ok(&["rules", "moves", "--game", "hexdame"], "");
    assert_eq!(
        moves.split_whitespace().collect::<Vec<_>>(),
        [
            "a4-a5", "a4-b5", "b4-b5", "b4-c5", "c4-c5", "c4-d5", "d1-e1", "d1-e2", "d2-e2",
            "d2-e3", "d3-e3", "d3-e4", "d4-d5", "d4-e4", "d4-e5"
        ]
    );
    assert_eq!(
        ok(&["rules", "perft", "3", "--game", "hexdame"], "").trim(),
        "3337"
    );
    let show = ok(&["rules", "show", "--game", "HexDame"], "");
    assert_eq!(show.lines().next(), Some("                i9B"));
    assert_eq!(show.lines().last(), Some("white to move"));
    let show = ok(&["rules", "show", "--position", "-"], T14);
    assert!(
        show.trim_end()
            .ends_with("black wins: white has no legal move")
    );
    assert_eq!(ok(&["rules", "moves", "--position", "-"], T14), "");
}

#[test]
fn play_prints_the_position_and_chains_through_stdin() {
    let json = ok(
        &[
            "rules", "play", "--game", "hexdame", "d4-e5", "f6xd4", "c3xe5",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["pieces"].as_array().unwrap().len(), 30);
    // The position file round-trips through the command line.
    let moves = ok(&["rules", "moves", "--position", "-"], &json);
    assert!(!moves.is_empty());
    let path = std::env::temp_dir().join(format!("hexdame_cli_{}.json", std::process::id()));
    std::fs::write(&path, &json).unwrap();
    let from_file = ok(
        &["rules", "moves", "--position", path.to_str().unwrap()],
        "",
    );
    std::fs::remove_file(&path).unwrap();
    assert_eq!(from_file, moves);
    // T11: `moves` lists the canonical path, and the other path is accepted as the same move.
    let cycle = r#"{"game":"hexdame","to_move":"white","pieces":[
      {"cell":"e5","owner":"white","kind":"man"},{"cell":"e6","owner":"black","kind":"man"},
      {"cell":"f6","owner":"black","kind":"man"},{"cell":"f7","owner":"black","kind":"man"}]}"#;
    assert_eq!(
        ok(&["rules", "moves", "--position", "-"], cycle).trim(),
        "e5xe7xg7xe5"
    );
    let after = ok(&["rules", "play", "--position", "-", "e5xg7xe7xe5"], cycle);
    let v: serde_json::Value = serde_json::from_str(&after).unwrap();
    assert_eq!(v["pieces"].as_array().unwrap().len(), 1);
}

#[test]
fn bad_moves_exit_2_with_one_line() {
    let g = ["rules", "play", "--game", "hexdame"];
    let with = |m: &'static str| [&g[..], &[m]].concat();
    fails(&with("d4-d6"), "", "move 1 (d4-d6)");
    fails(&with("d4-d6"), "", "forward");
    fails(&with("zz"), "", "cannot read move");
    fails(&with("d4-j5"), "", "no cell j5");
    fails(&with("pass"), "", "must move");
    fails(&with("f6-f5"), "", "black's");
    fails(&with("d4xf6"), "", "nothing to capture");
    fails(&with("d4-e5=Q"), "", "king");
    // After d4-e5 Black must take it (f6xd4): the message names the second move.
    fails(
        &[&g[..], &["d4-e5", "f6-f5"]].concat(),
        "",
        "move 2 (f6-f5)",
    );
    fails(&[&g[..], &["d4-e5", "f6-f5"]].concat(), "", "compulsory");
    fails(&["rules", "play", "--position", "-", "e1-f2"], T14, "over");
}

#[test]
fn bad_positions_and_options_exit_2_with_one_line() {
    let moves = ["rules", "moves", "--position", "-"];
    let piece = |cell: &str, owner: &str, kind: &str| {
        format!(
            r#"{{"game":"hexdame","to_move":"white","pieces":[{{"cell":"{cell}","owner":"{owner}","kind":"{kind}"}}]}}"#
        )
    };
    fails(&moves, "{", "malformed position JSON");
    fails(&moves, "not json", "malformed position JSON");
    fails(&moves, &piece("j5", "white", "man"), "unknown cell");
    fails(&moves, &piece("a1", "green", "man"), "unknown colour");
    fails(&moves, &piece("a1", "white", "queen"), "unknown piece kind");
    fails(
        &moves,
        r#"{"game":"hexdame","to_move":"white","pieces":[{"cell":"a1","owner":"white","kind":"man"},{"cell":"a1","owner":"black","kind":"king"}]}"#,
        "two pieces on a1",
    );
    fails(
        &moves,
        r#"{"game":"hexdame","to_move":"blue","pieces":[]}"#,
        "unknown colour",
    );
    fails(
        &moves,
        r#"{"game":"hexdame","to_move":"white","pieces":[],"reversible_moves":["a1-b2"]}"#,
        "reversible_moves",
    );
    fails(
        &moves,
        r#"{"game":"hexdame","to_move":"white","pieces":[],"extra":1}"#,
        "unknown field",
    );
    fails(
        &["rules", "moves", "--position", "/nonexistent/hexdame.json"],
        "",
        "cannot read position file",
    );
    fails(
        &["rules", "new", "hexdame", "--players", "3"],
        "",
        "2 players",
    );
    fails(
        &["rules", "new", "hexdame", "--house-rules", r#"{"bogus":1}"#],
        "",
        "bad house rules",
    );
    fails(
        &["rules", "new", "hexdame", "--house-rules", "{"],
        "",
        "house rules are not JSON",
    );
    fails(
        &[
            "rules",
            "new",
            "hexdame",
            "--house-rules",
            r#"{"king_move_limit":0}"#,
        ],
        "",
        "at least 1",
    );
    fails(&["rules", "show", "--game", "hexdam"], "", "unknown game");
}
