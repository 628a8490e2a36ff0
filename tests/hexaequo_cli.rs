//! `hexmeros rules … hexaequo` through the built binary: good output for each command, and for
//! each kind of bad input exit code 2, one line on stderr and nothing on stdout.

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
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

fn ok(args: &[&str], stdin: Option<&str>) -> String {
    let out = run(args, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    String::from_utf8(out.stdout).unwrap()
}

#[track_caller]
fn fails(args: &[&str], stdin: Option<&str>, needle: &str) {
    let out = run(args, stdin);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected {needle:?} in {err}"
    );
}

const HE3: &str = r#"{"game": "hexaequo", "to_move": "black",
  "tiles": [{"cell": "I8", "owner": "black"}, {"cell": "K8", "owner": "black"},
            {"cell": "M8", "owner": "black"}, {"cell": "J8", "owner": "white"},
            {"cell": "L8", "owner": "white"}],
  "pieces": [{"cell": "I8", "owner": "black", "kind": "disc"},
             {"cell": "J8", "owner": "white", "kind": "disc"},
             {"cell": "L8", "owner": "black", "kind": "disc"}]}"#;

#[test]
fn new_prints_the_opening() {
    let out = ok(&["rules", "new", "hexaequo"], None);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["game"], "hexaequo");
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["tiles"].as_array().unwrap().len(), 4);
    assert_eq!(v["pieces"].as_array().unwrap().len(), 2);
    assert_eq!(v["reserves"]["white"]["tile"], 7);
    assert_eq!(v["captured"], serde_json::json!([]));
    let out = ok(
        &[
            "rules",
            "new",
            "hexaequo",
            "--house-rules",
            r#"{"board_radius": 8, "anti_loop": "no_friend_twice"}"#,
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["house_rules"]["board_radius"], 8);
}

#[test]
fn moves_play_perft_and_show() {
    let moves = ok(&["rules", "moves", "--game", "hexaequo"], None);
    assert_eq!(
        moves.lines().collect::<Vec<_>>(),
        ["D@I8", "J8-I8", "J8-I9", "T@H10", "T@H8", "T@J7", "T@J9"]
    );
    let moves = ok(&["rules", "moves", "--position", "-"], Some(HE3));
    assert_eq!(moves.lines().count(), 14);
    assert!(moves.lines().any(|l| l == "I8xK8-M8"));

    let after = ok(&["rules", "play", "--position", "-", "i8-k8-m8"], Some(HE3));
    let v: serde_json::Value = serde_json::from_str(&after).unwrap();
    assert_eq!(v["to_move"], "white");
    assert_eq!(
        v["captured"],
        serde_json::json!([{"owner": "white", "kind": "disc"}])
    );
    // The position printed by play reads back in: White has no piece left, so Black has won.
    assert_eq!(ok(&["rules", "moves", "--position", "-"], Some(&after)), "");
    let show = ok(&["rules", "show", "--position", "-"], Some(&after));
    assert!(show.contains("black wins: no white piece"), "{show}");

    assert_eq!(
        ok(&["rules", "perft", "3", "--game", "hexaequo"], None).trim(),
        "461"
    );
    let show = ok(&["rules", "show", "--game", "hexaequo"], None);
    assert!(show.contains("J8  b:bD"), "{show}");
    assert!(show.trim_end().ends_with("black to move"));
}

#[test]
fn finished_games_show_the_result() {
    let played = ok(
        &[
            "rules", "play", "--game", "hexaequo", "J8-I8", "H9-I9", "I8-J8", "I9-H9", "J8-I8",
            "H9-I9", "I8-J8", "I9-H9",
        ],
        None,
    );
    let show = ok(&["rules", "show", "--position", "-"], Some(&played));
    assert!(show.contains("draw, ex aequo"), "{show}");
    assert_eq!(
        ok(&["rules", "moves", "--position", "-"], Some(&played)),
        ""
    );
    fails(
        &["rules", "play", "--position", "-", "J8-I8"],
        Some(&played),
        "the game is over",
    );
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let g = ["rules", "play", "--game", "hexaequo"];
    fails(&[&g[..], &["Z9-Z10"]].concat(), None, "no tile on Z9");
    fails(&[&g[..], &["I0-I9"]].concat(), None, "no cell I0");
    fails(&[&g[..], &["T@I8"]].concat(), None, "already holds a tile");
    fails(&[&g[..], &["X@I8"]].concat(), None, "unknown kind");
    fails(&[&g[..], &["D@I8", "D@I8"]].concat(), None, "move 2");
    fails(&[&g[..], &["pass"]].concat(), None, "no passing");
    fails(
        &["rules", "moves", "--position", "-"],
        Some("{\"game\": \"hexaequo\""),
        "malformed position JSON",
    );
    fails(
        &["rules", "moves", "--position", "-"],
        Some(&HE3.replace("\"K8\", \"owner\": \"black\"", "\"K8\", \"owner\": \"red\"")),
        "unknown colour",
    );
    fails(
        &["rules", "moves", "--position", "-"],
        Some(&HE3.replace(
            "\"kind\": \"disc\"}]}",
            "\"kind\": \"disc\"}], \"tile\": 1}",
        )),
        "unknown field",
    );
    fails(
        &["rules", "moves", "--position", "-"],
        Some(&HE3.replace(
            "\"L8\", \"owner\": \"black\"",
            "\"Q16\", \"owner\": \"black\"",
        )),
        "stands on no tile",
    );
    fails(
        &[
            "rules",
            "new",
            "hexaequo",
            "--house-rules",
            r#"{"radius": 8}"#,
        ],
        None,
        "bad house rules",
    );
    fails(
        &["rules", "new", "hexaequo", "--players", "3"],
        None,
        "2 players",
    );
    fails(
        &["rules", "moves", "--position", "/nonexistent/hexaequo.json"],
        None,
        "cannot read position file",
    );
}
