//! The `hexmeros rules …` commands for Harmegedo, run as the built binary: good output, and for
//! every kind of bad input exit code 2, one line on stderr and nothing on stdout.

#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use hexmeros_testkit::cli;

use cli::{fails, ok};

#[test]
fn new_game_for_two_to_six_players() {
    let six = ok(&["rules", "new", "harmegedo"], "");
    let v: serde_json::Value = serde_json::from_str(&six).unwrap();
    assert_eq!(v["game"], "harmegedo");
    assert_eq!(v["kingdoms"].as_array().unwrap().len(), 6);
    assert_eq!(v["pieces"].as_array().unwrap().len(), 108);
    assert_eq!(v["to_move"], "kingdom0");
    let two = ok(&["rules", "new", "harmegedo", "--players", "2"], "");
    let v: serde_json::Value = serde_json::from_str(&two).unwrap();
    assert_eq!(v["kingdoms"], serde_json::json!(["kingdom0", "kingdom3"]));
    let three = ok(
        &[
            "rules",
            "new",
            "harmegedo",
            "--players",
            "3",
            "--house-rules",
            r#"{"seating":"adjacent","check_rules":true}"#,
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&three).unwrap();
    assert_eq!(
        v["kingdoms"],
        serde_json::json!(["kingdom0", "kingdom1", "kingdom2"])
    );
    assert_eq!(v["house_rules"]["check_rules"], true);
    // The house rules travel with the position.
    let moves = ok(&["rules", "moves", "--position", "-"], &three);
    assert_eq!(moves.lines().count(), 24);
}

#[test]
fn moves_play_perft_show() {
    let moves = ok(&["rules", "moves", "--game", "harmegedo"], "");
    assert_eq!(moves.lines().count(), 24);
    assert!(moves.lines().any(|l| l == "0.c1-0.b1"));
    let after = ok(
        &[
            "rules",
            "play",
            "--game",
            "harmegedo",
            "0.e2-0.e4",
            "1.c1-1.b1",
            "2.B1-2.C3",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&after).unwrap();
    assert_eq!(v["to_move"], "kingdom3");
    let moved: Vec<&str> = v["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["moved"] == true)
        .map(|p| p["cell"].as_str().unwrap())
        .collect();
    assert_eq!(moved, ["0.e4", "1.b1", "1.c1", "2.c3"]);
    let shown = ok(&["rules", "show", "--position", "-"], &after);
    assert!(shown.contains("kingdom3 to move") && shown.contains("N1"));
    assert_eq!(
        ok(&["rules", "perft", "2", "--game", "harmegedo"], "").trim(),
        "576"
    );
    let two = ok(&["rules", "new", "harmegedo", "--players", "2"], "");
    assert_eq!(
        ok(&["rules", "perft", "3", "--position", "-"], &two).trim(),
        "16560"
    );
}

#[test]
fn bad_input_exits_2_with_one_line() {
    fails(
        &["rules", "new", "harmegedo", "--players", "7"],
        "",
        "2 to 6",
    );
    fails(
        &["rules", "new", "harmegedo", "--players", "1"],
        "",
        "2 to 6",
    );
    fails(
        &[
            "rules",
            "new",
            "harmegedo",
            "--house-rules",
            r#"{"bogus":1}"#,
        ],
        "",
        "bogus",
    );
    fails(
        &["rules", "new", "harmegedo", "--house-rules", "{"],
        "",
        "not JSON",
    );
    fails(
        &[
            "rules",
            "new",
            "harmegedo",
            "--players",
            "2",
            "--house-rules",
            r#"{"teams":[["kingdom0","kingdom3"]]}"#,
        ],
        "",
        "nobody to play against",
    );
    fails(
        &["rules", "play", "--game", "harmegedo", "0.e2-0.e5"],
        "",
        "cannot go to 0.e5",
    );
    fails(
        &[
            "rules",
            "play",
            "--game",
            "harmegedo",
            "0.e2-0.e4",
            "0.d2-0.d4",
        ],
        "",
        "move 2 (0.d2-0.d4)",
    );
    fails(
        &["rules", "play", "--game", "harmegedo", "e2-e4"],
        "",
        "cannot read move",
    );
    fails(&["rules", "moves", "--position", "-"], "{", "malformed");
    fails(
        &["rules", "moves", "--position", "-"],
        r#"{"game":"harmegedo","to_move":"kingdom0","pieces":[{"cell":"0.e1","owner":"kingdom0","kind":"king"}]}"#,
        "kingdom1 has no king",
    );
    fails(
        &["rules", "show", "--position", "-"],
        r#"{"game":"harmegedo","kingdoms":["kingdom0","kingdom3"],"to_move":"kingdom0","pieces":[{"cell":"0.k1","owner":"kingdom0","kind":"king"}]}"#,
        "0.k1",
    );
    fails(
        &["rules", "perft", "1", "--position", "/nonexistent/h.json"],
        "",
        "cannot read position file",
    );
}
