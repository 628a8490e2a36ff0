//! The `hexmeros rules …` command line with HexiMeros: good output, and for every kind of bad
//! input exit code 2, one line on stderr, nothing on stdout.
#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use hexmeros_testkit::cli;

use cli::{fails, ok};

#[test]
fn new_moves_play_perft_show() {
    let start = ok(&["rules", "new", "heximeros"], "");
    let v: serde_json::Value = serde_json::from_str(&start).unwrap();
    assert_eq!(v["pieces"].as_array().unwrap().len(), 132);
    assert_eq!(v["to_move"], "silver");
    let moves = ok(&["rules", "moves"], "");
    let lines: Vec<&str> = moves.lines().collect();
    assert_eq!(lines.len(), 84);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"Q4-Q8") && lines.contains(&"M2xL1"));
    let after = ok(
        &["rules", "play", "--position", "-", "Q4-Q8", "E18-F19"],
        &start,
    );
    let v: serde_json::Value = serde_json::from_str(&after).unwrap();
    assert_eq!(v["to_move"], "yellow");
    assert_eq!(ok(&["rules", "perft", "2"], "").trim(), "7060");
    assert_eq!(
        ok(&["rules", "perft", "1", "--position", "-"], &after).trim(),
        "84"
    );
    let show = ok(&["rules", "show"], "");
    assert!(show.contains("sS") && show.contains("silver to move"));
    let house = ok(
        &[
            "rules",
            "new",
            "heximeros",
            "--house-rules",
            r#"{"dreadnaught":"exactly_four"}"#,
        ],
        "",
    );
    assert!(house.contains("exactly_four"));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let pos =
        |pieces: &str| format!(r#"{{"game":"heximeros","to_move":"silver","pieces":[{pieces}]}}"#);
    let sov = r#"{"cell":"Q2","owner":"silver","kind":"sovereign"},{"cell":"Q50","owner":"orange","kind":"sovereign"}"#;
    let cases: Vec<(Vec<&str>, String, &str)> = vec![
        (
            vec!["rules", "moves", "--position", "-"],
            "{".into(),
            "malformed position JSON",
        ),
        (
            vec!["rules", "moves", "--position", "-"],
            pos(r#"{"cell":"Q99","owner":"silver","kind":"regent"}"#),
            "unknown cell",
        ),
        (
            vec!["rules", "moves", "--position", "-"],
            pos(r#"{"cell":"Q4","owner":"mauve","kind":"regent"}"#),
            "unknown colour",
        ),
        (
            vec!["rules", "moves", "--position", "-"],
            pos(r#"{"cell":"Q4","owner":"silver","kind":"queen"}"#),
            "unknown piece kind",
        ),
        (
            vec!["rules", "moves", "--position", "-"],
            pos(&format!(
                r#"{sov},{{"cell":"Q2","owner":"blue","kind":"regent"}}"#
            )),
            "two pieces on Q2",
        ),
        (
            vec!["rules", "play", "Q4-Q10"],
            String::new(),
            "cannot move to Q10",
        ),
        (
            vec!["rules", "play", "Q4-Q6", "Q4-Q6"],
            String::new(),
            "move 2",
        ),
        (
            vec!["rules", "play", "Q4~Q6"],
            String::new(),
            "cannot read move",
        ),
        (vec!["rules", "new", "chess"], String::new(), "unknown game"),
        (
            vec!["rules", "new", "heximeros", "--players", "4"],
            String::new(),
            "6 players",
        ),
        (
            vec![
                "rules",
                "new",
                "heximeros",
                "--house-rules",
                r#"{"archer":"longbow"}"#,
            ],
            String::new(),
            "bad house rules",
        ),
        (
            vec!["rules", "moves", "--position", "/nonexistent.json"],
            String::new(),
            "cannot read",
        ),
    ];
    for (args, stdin, why) in cases {
        fails(&args, &stdin, why);
    }
}
