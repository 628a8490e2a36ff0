//! `hex` and `games` are pure (ARCHITECTURE.md): no async runtime, database, Discord, file system
//! or network in them. This test reads their sources and fails on any such import.
#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use std::path::Path;

/// The `.rs` files under `dir`, unit-test modules (`tests.rs`) left out.
pub(crate) fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs")
            && p.file_name().is_some_and(|n| n != "tests.rs")
        {
            // Unit-test modules (`tests.rs`) may seed a random generator; the rules may not.
            out.push(p);
        }
    }
}

#[test]
fn hex_and_games_are_pure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root.join("hex"), &mut files);
    sources(&root.join("games"), &mut files);
    assert!(files.len() > 5);
    let banned = [
        "tokio",
        "sqlx",
        "serenity",
        "poise",
        "std::fs",
        "std::net",
        "async fn",
        "SystemTime",
        "Instant::now",
        "thread_rng",
        "rand::",
    ];
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for b in banned {
            assert!(!text.contains(b), "{} uses {b}", f.display());
        }
    }
}

/// The rooms (top-level modules) a source file names through `crate::…` paths.
fn crate_rooms(text: &str) -> Vec<String> {
    let mut rooms = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        let name = |s: &str| -> String {
            s.trim()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        };
        if let Some(list) = rest.strip_prefix('{') {
            let end = list.find('}').unwrap_or(list.len());
            rooms.extend(list[..end].split(',').map(name));
        } else {
            rooms.push(name(rest));
        }
    }
    rooms
}

/// ARCHITECTURE.md's layers: `hex` and `games` use nothing above them, `store` nothing of the
/// rooms above it, and the library never names the Discord front end.
#[test]
fn each_room_uses_only_the_rooms_below_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let rules: [(&str, &[&str]); 4] = [
        (
            "hex",
            &[
                "games",
                "host",
                "store",
                "view",
                "ai",
                "local",
                "background",
            ],
        ),
        (
            "games",
            &["host", "store", "view", "ai", "local", "background"],
        ),
        ("store", &["host", "view", "ai", "games", "local"]),
        ("view", &["host", "store", "ai", "local"]),
    ];
    for (room, above) in rules {
        let mut files = Vec::new();
        sources(&root.join(room), &mut files);
        assert!(!files.is_empty(), "no sources in src/{room}");
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for used in crate_rooms(&text) {
                assert!(
                    !above.contains(&used.as_str()),
                    "{} (room {room}) uses crate::{used}, a room above it",
                    f.display()
                );
            }
        }
    }
}

#[test]
fn the_room_check_sees_imports() {
    assert_eq!(
        crate_rooms("use crate::ai::Level;\nuse crate::{host, games::Seat};"),
        vec!["ai", "host", "games"]
    );
    assert!(crate_rooms("let crated = 1;").is_empty());
}

/// What a front end may not name (issue 62): the views and the rules position are the host's;
/// Discord, the web board and the terminal draw the game through its projection
/// (`GameState::seen_by`, its lists and pictures) only. Comment lines are not code.
const FRONT_END_BANNED: [&str; 5] = [
    "crate::view",
    "hexmeros::view",
    "AnyGame",
    ".position()",
    "crate::{view",
];

/// The banned names `text` uses, with their line numbers.
fn front_end_uses(text: &str) -> Vec<(usize, &'static str)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        for b in FRONT_END_BANNED {
            if line.contains(b) {
                found.push((n + 1, b));
            }
        }
    }
    found
}

#[test]
fn front_ends_draw_the_game_only_through_the_hosts_projection() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for room in ["discord", "web", "local"] {
        sources(&root.join(room), &mut files);
    }
    assert!(files.len() > 20, "{}", files.len());
    let mut bad = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (line, name) in front_end_uses(&text) {
            bad.push(format!("{}:{line} names {name}", f.display()));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The check can fail: the picker as it was before issue 62 named the view's picker and zoom
/// and the rules position; a comment saying so is no use.
#[test]
fn the_front_end_check_sees_a_view_import_and_the_position() {
    let before = "use hexmeros::games::AnyGame;\n\
                  use hexmeros::view::picker::{self, Piece, Target};\n\
                  // view::zoom draws it\n\
                  let game = state.position().clone();\n";
    let found = front_end_uses(before);
    assert_eq!(
        found,
        vec![(1, "AnyGame"), (2, "hexmeros::view"), (4, ".position()")]
    );
}
