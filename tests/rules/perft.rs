//! Perft counts kept as text data (`tests/data/perft_<game>.txt`), checked against every engine.
//!
//! Format, one case per block separated by blank lines; `#` starts a comment line:
//!
//! ```text
//! id start
//! game heximeros
//! position start                     (or: position @positions/heximeros_mid1.json)
//! perft 1 84
//! perft 2 7056
//! ```
//!
//! `position @FILE` reads position JSON from a file relative to `tests/data`. Each case says in a
//! comment where its counts come from.

#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use std::path::Path;

use hexmeros::games::{AnyGame, GameKind};

struct Case {
    file: String,
    id: String,
    game: Option<GameKind>,
    position: Option<String>,
    depths: Vec<(u32, u64)>,
}

fn parse(file: &str, text: &str, data: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    for block in text.split("\n\n") {
        let mut case = Case {
            file: file.to_string(),
            id: String::new(),
            game: None,
            position: None,
            depths: Vec::new(),
        };
        for line in block.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "id" => case.id = value.to_string(),
                "game" => case.game = Some(GameKind::from_key(value).expect("known game")),
                "position" if value == "start" => case.position = None,
                "position" => {
                    let rel = value.strip_prefix('@').expect("position start or @FILE");
                    let json = std::fs::read_to_string(data.join(rel))
                        .unwrap_or_else(|e| panic!("{file}: cannot read {rel}: {e}"));
                    case.position = Some(json);
                }
                "perft" => {
                    let (d, n) = value.split_once(' ').expect("perft DEPTH COUNT");
                    case.depths.push((d.parse().unwrap(), n.parse().unwrap()));
                }
                other => panic!("{file}: unknown key {other:?}"),
            }
        }
        if !case.id.is_empty() {
            assert!(case.game.is_some(), "{file} {}: no game", case.id);
            assert!(
                !case.depths.is_empty(),
                "{file} {}: no perft lines",
                case.id
            );
            cases.push(case);
        }
    }
    cases
}

#[test]
fn perft_data_files() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            name.starts_with("perft_") && name.ends_with(".txt")
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no perft data files");
    let mut checked = 0;
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        for case in parse(&name, &text, &data) {
            let kind = case.game.unwrap();
            let game = match &case.position {
                None => AnyGame::new(kind, None, None).unwrap(),
                Some(json) => AnyGame::from_json(json).unwrap(),
            };
            assert_eq!(game.kind(), kind, "{} {}", case.file, case.id);
            for (depth, want) in case.depths {
                assert_eq!(
                    game.perft(depth),
                    want,
                    "{} {}: perft({depth})",
                    case.file,
                    case.id
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}
