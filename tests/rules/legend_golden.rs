//! The rules-help legend of each game (`view::legend`, `/hexmeros rules`) against its golden
//! picture, and a piece's moves picture against the plain board.
//!
//! Golden pictures live in `tests/data/golden/legend-<game>.png`. After an intended change of
//! look, look at the new pictures and regenerate them with
//! `UPDATE_GOLDEN=1 cargo test --test rules legend_golden::`.

#![allow(clippy::unwrap_used)]

use hexmeros_testkit::golden;

use golden::{decode, differing};
use hexmeros::games::GameKind;
use hexmeros::view::legend;

/// Small: a legend is a few tiles and names, and the files are committed.
const GOLDEN_SIZE: u32 = 400;

#[test]
fn every_legend_matches_its_golden_picture() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden");
    let mut failures = Vec::new();
    for kind in GameKind::ALL {
        let png = legend::legend_png(kind, Some(GOLDEN_SIZE)).unwrap();
        let ours = decode(&png);
        assert_eq!(ours.width().max(ours.height()), GOLDEN_SIZE, "{kind}");
        let path = format!("{dir}/legend-{}.png", kind.key());
        failures.extend(golden::compare(&png, &path, &kind.to_string()));
    }
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn legends_of_different_games_differ() {
    let a = decode(&legend::legend_png(GameKind::HexDame, Some(GOLDEN_SIZE)).unwrap());
    let b = decode(&legend::legend_png(GameKind::Harmegedo, Some(GOLDEN_SIZE)).unwrap());
    let same_size = (a.width(), a.height()) == (b.width(), b.height());
    assert!(!same_size || differing(a.as_raw(), b.as_raw(), 24) > 0.05);
}

#[test]
fn moves_from_another_cell_are_another_picture() {
    let a = legend::piece_moves(GameKind::HexiMeros, "Regent", Some("Q20"), Some(500)).unwrap();
    let b = legend::piece_moves(GameKind::HexiMeros, "Regent", Some("Q30"), Some(500)).unwrap();
    assert_ne!(a.targets, b.targets);
    let (a, b) = (decode(&a.png), decode(&b.png));
    assert_eq!((a.width(), a.height()), (b.width(), b.height()));
    assert!(differing(a.as_raw(), b.as_raw(), 24) > 0.002);
}
