//! `hexmeros rules … hexaequo` through the built binary: good output for each command, and for
//! each kind of bad input exit code 2, one line on stderr and nothing on stdout.

#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use hexmeros_testkit::cli;

use cli::{fails, ok};

const HE3: &str = r#"{"game": "hexaequo", "to_move": "black",
  "tiles": [{"cell": "I8", "owner": "black"}, {"cell": "K8", "owner": "black"},
            {"cell": "M8", "owner": "black"}, {"cell": "J8", "owner": "white"},
            {"cell": "L8", "owner": "white"}],
  "pieces": [{"cell": "I8", "owner": "black", "kind": "disc"},
             {"cell": "J8", "owner": "white", "kind": "disc"},
             {"cell": "L8", "owner": "black", "kind": "disc"}]}"#;

#[test]
fn new_prints_the_opening() {
    let out = ok(&["rules", "new", "hexaequo"], "");
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
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["house_rules"]["board_radius"], 8);
}

#[test]
fn moves_play_perft_and_show() {
    let moves = ok(&["rules", "moves", "--game", "hexaequo"], "");
    assert_eq!(
        moves.lines().collect::<Vec<_>>(),
        ["D@I8", "J8-I8", "J8-I9", "T@H10", "T@H8", "T@J7", "T@J9"]
    );
    let moves = ok(&["rules", "moves", "--position", "-"], HE3);
    assert_eq!(moves.lines().count(), 14);
    assert!(moves.lines().any(|l| l == "I8xK8-M8"));

    let after = ok(&["rules", "play", "--position", "-", "i8-k8-m8"], HE3);
    let v: serde_json::Value = serde_json::from_str(&after).unwrap();
    assert_eq!(v["to_move"], "white");
    assert_eq!(
        v["captured"],
        serde_json::json!([{"owner": "white", "kind": "disc"}])
    );
    // The position printed by play reads back in: White has no piece left, so Black has won.
    assert_eq!(ok(&["rules", "moves", "--position", "-"], &after), "");
    let show = ok(&["rules", "show", "--position", "-"], &after);
    assert!(show.contains("black wins: no white piece"), "{show}");

    assert_eq!(
        ok(&["rules", "perft", "3", "--game", "hexaequo"], "").trim(),
        "461"
    );
    let show = ok(&["rules", "show", "--game", "hexaequo"], "");
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
        "",
    );
    let show = ok(&["rules", "show", "--position", "-"], &played);
    assert!(show.contains("draw, ex aequo"), "{show}");
    assert_eq!(ok(&["rules", "moves", "--position", "-"], &played), "");
    fails(
        &["rules", "play", "--position", "-", "J8-I8"],
        &played,
        "the game is over",
    );
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let g = ["rules", "play", "--game", "hexaequo"];
    fails(&[&g[..], &["Z9-Z10"]].concat(), "", "no tile on Z9");
    fails(&[&g[..], &["I0-I9"]].concat(), "", "no cell I0");
    fails(&[&g[..], &["T@I8"]].concat(), "", "already holds a tile");
    fails(&[&g[..], &["X@I8"]].concat(), "", "unknown kind");
    fails(&[&g[..], &["D@I8", "D@I8"]].concat(), "", "move 2");
    fails(&[&g[..], &["pass"]].concat(), "", "no passing");
    fails(
        &["rules", "moves", "--position", "-"],
        "{\"game\": \"hexaequo\"",
        "malformed position JSON",
    );
    fails(
        &["rules", "moves", "--position", "-"],
        &HE3.replace("\"K8\", \"owner\": \"black\"", "\"K8\", \"owner\": \"red\""),
        "unknown colour",
    );
    fails(
        &["rules", "moves", "--position", "-"],
        &HE3.replace(
            "\"kind\": \"disc\"}]}",
            "\"kind\": \"disc\"}], \"tile\": 1}",
        ),
        "unknown field",
    );
    fails(
        &["rules", "moves", "--position", "-"],
        &HE3.replace(
            "\"L8\", \"owner\": \"black\"",
            "\"Q16\", \"owner\": \"black\"",
        ),
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
        "",
        "bad house rules",
    );
    fails(
        &["rules", "new", "hexaequo", "--players", "3"],
        "",
        "2 players",
    );
    fails(
        &["rules", "moves", "--position", "/nonexistent/hexaequo.json"],
        "",
        "cannot read position file",
    );
}
