//! Bot tests: legal, deterministic answers in every game and every test position; smoke matches
//! against a random mover; the HexiMeros Check questions.

use super::*;
use crate::games::GameKind;

fn positions() -> Vec<(String, AnyGame)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/positions");
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for p in paths {
        let text = std::fs::read_to_string(&p).unwrap();
        out.push((p.display().to_string(), AnyGame::from_json(&text).unwrap()));
    }
    for kind in GameKind::ALL {
        out.push((
            kind.key().to_string(),
            AnyGame::new(kind, None, None).unwrap(),
        ));
    }
    out
}

const SMALL: Limits = Limits {
    nodes: Some(400),
    deadline: None,
};

#[test]
fn every_level_answers_a_legal_move_in_every_test_position() {
    for (name, g) in positions() {
        if g.outcome().is_some() {
            continue;
        }
        for level in [Level::Random, Level::Easy, Level::Normal] {
            let choice = choose_with(&g, level, 7, SMALL).unwrap();
            let mut after = g.clone();
            after
                .play(&choice.text)
                .unwrap_or_else(|e| panic!("{name} {level}: {} refused: {e}", choice.text));
            let again = choose_with(&g, level, 7, SMALL).unwrap();
            assert_eq!(choice.text, again.text, "{name} {level}: not deterministic");
        }
    }
}

#[test]
fn unknown_level_is_an_error() {
    assert!("hard".parse::<Level>().is_ok());
    assert!(matches!(
        "grandmaster".parse::<Level>(),
        Err(AiError::UnknownLevel(_))
    ));
}
