//! `hex` and `games` are pure (ARCHITECTURE.md): no async runtime, database, Discord, file system
//! or network in them. This test reads their sources and fails on any such import.
#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use std::path::Path;

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
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
