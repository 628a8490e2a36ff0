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
