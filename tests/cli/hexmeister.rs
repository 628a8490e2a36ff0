//! `hexmeros rules … hexmeister` end to end: the built binary, its output, and its one-line errors
//! with exit code 2 for every kind of bad input.

#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use hexmeros_testkit::cli;

use cli::{fails, ok};

/// HM4 of the spec: South stones d4 f4 e2, North e4, South to move.
const HM4: &str = r#"{"game": "hexmeister", "to_move": "south", "pieces": [
  {"cell": "d4", "owner": "south", "kind": "stone"},
  {"cell": "f4", "owner": "south", "kind": "stone"},
  {"cell": "e2", "owner": "south", "kind": "stone"},
  {"cell": "e4", "owner": "north", "kind": "stone"}]}"#;

#[test]
fn new_prints_the_start_position() {
    let out = ok(&["rules", "new", "hexmeister"], "");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["game"], "hexmeister");
    assert_eq!(v["to_move"], "south");
    assert_eq!(v["pieces"].as_array().unwrap().len(), 0);
    assert_eq!(v["reserves"]["south"]["stone"], 18);
    assert_eq!(v["reserves"]["north"]["stone"], 18);
    assert!(v.get("house_rules").is_none());
    let out = ok(
        &[
            "rules",
            "new",
            "hexmeister",
            "--house-rules",
            r#"{"straight_moves": true, "first_player": "north"}"#,
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["to_move"], "north");
    assert_eq!(v["house_rules"]["straight_moves"], true);
    assert_eq!(v["house_rules"]["quiet_limit"], 100);
}

#[test]
fn moves_play_perft_show() {
    let out = ok(&["rules", "moves", "--game", "hexmeister"], "");
    assert_eq!(out, "S@g2\nS@h3\nS@i4\nS@j5\n");
    assert_eq!(
        ok(&["rules", "perft", "3", "--game", "hexmeister"], ""),
        "1296\n"
    );
    let show = ok(&["rules", "show", "--game", "hexmeister"], "");
    assert!(show.starts_with("Hexmeister: south to move\n"));
    assert!(show.contains("a1G   b2.   c3G   d4.   e5o   f6G"));

    let moves = ok(&["rules", "moves", "--position", "-"], HM4);
    assert_eq!(moves.lines().count(), 229);
    assert!(moves.lines().any(|l| l == "e2-e3"));
    // e2-e3 captures e4 and earns a bonus: South acts again, then declines.
    let after = ok(&["rules", "play", "--position", "-", "e2-e3"], HM4);
    let v: serde_json::Value = serde_json::from_str(&after).unwrap();
    assert_eq!(v["to_move"], "south");
    assert_eq!(v["bonus"], true);
    assert_eq!(v["pieces"].as_array().unwrap().len(), 3);
    assert_eq!(v["reserves"]["north"]["stone"], 17);
    let passed = ok(&["rules", "play", "--position", "-", "pass"], &after);
    let v: serde_json::Value = serde_json::from_str(&passed).unwrap();
    assert_eq!(v["to_move"], "north");
    assert!(v.get("bonus").is_none());
    // The spec's `*g2` drop is read as S@g2.
    let a = ok(
        &["rules", "play", "--game", "hexmeister", "*g2", "S@b7"],
        "",
    );
    let b = ok(
        &["rules", "play", "--game", "hexmeister", "S@g2", "s@B7"],
        "",
    );
    assert_eq!(a, b);
    assert!(ok(&["rules", "show", "--position", "-"], &a).contains("g2S"));
}

#[test]
fn house_rules_travel_with_the_position() {
    let start = ok(
        &[
            "rules",
            "new",
            "hexmeister",
            "--house-rules",
            r#"{"straight_moves":true}"#,
        ],
        "",
    );
    let pos = ok(
        &["rules", "play", "--position", "-", "S@h3", "S@b7"],
        &start,
    );
    // HM2 straight: 3 drops + 9 moves.
    assert_eq!(
        ok(&["rules", "moves", "--position", "-"], &pos)
            .lines()
            .count(),
        12
    );
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let new = ["rules", "new", "hexmeister"];
    fails(
        &["rules", "new", "hexmeister", "--players", "3"],
        "",
        "2 players",
    );
    fails(
        &[
            new[0],
            new[1],
            new[2],
            "--house-rules",
            r#"{"gravity":true}"#,
        ],
        "",
        "bad house rules",
    );
    fails(
        &[
            new[0],
            new[1],
            new[2],
            "--house-rules",
            r#"{"stalemate":"sulk"}"#,
        ],
        "",
        "bad house rules",
    );
    let play = |m: &str, want: &str| {
        fails(&["rules", "play", "--game", "hexmeister", m], "", want);
    };
    play("S@b7", "south drops only on g2 h3 i4 j5");
    play("S@f6", "south drops only on g2 h3 i4 j5");
    play("h3-h4", "no stone on h3");
    play("h3xh4", "cannot read move");
    play("Q@g2", "only piece is the stone");
    play("z1-a1", "no cell");
    play("pass", "only when no drop or move");
    play("fly", "unknown word");
    fails(
        &["rules", "play", "--position", "-", "e2-e4"],
        HM4,
        "e4 is occupied",
    );
    // HM5: e4 is secured by South (d3, e3, e5); North may cross it but not stop there.
    let hm5 = r#"{"game": "hexmeister", "to_move": "north", "pieces": [
      {"cell": "d3", "owner": "south", "kind": "stone"},
      {"cell": "e3", "owner": "south", "kind": "stone"},
      {"cell": "e5", "owner": "south", "kind": "stone"},
      {"cell": "d4", "owner": "north", "kind": "stone"}]}"#;
    fails(
        &["rules", "play", "--position", "-", "d4-e4"],
        hm5,
        "e4 is secured by south",
    );
    ok(&["rules", "play", "--position", "-", "d4-f4"], hm5);
    let bad_positions = [
        (HM4.replace("\"e2\"", "\"e0\""), "unknown cell"),
        (HM4.replace("\"e2\"", "\"d4\""), "two pieces on d4"),
        (
            HM4.replace(
                "\"north\", \"kind\": \"stone\"",
                "\"north\", \"kind\": \"king\"",
            ),
            "unknown piece kind",
        ),
        (
            HM4.replace("\"to_move\": \"south\"", "\"to_move\": \"west\""),
            "unknown colour",
        ),
        (
            HM4.replace("]}", "], \"reserves\": {\"south\": {\"stone\": 16}}}"),
            "a player has 18",
        ),
        (HM4.replace("]}", "], \"bonus\": 1}"), "malformed"),
        (
            HM4.replace("\"hexmeister\"", "\"hexmeisters\""),
            "unknown game",
        ),
        (HM4[..40].to_string(), "malformed position JSON"),
        (HM4.replace("\"e2\"", "\"e3\""), "secured by south"),
    ];
    for (json, want) in &bad_positions {
        fails(&["rules", "moves", "--position", "-"], json, want);
    }
    fails(
        &["rules", "show", "--position", "/nonexistent/hm.json"],
        "",
        "cannot read position file",
    );
}
