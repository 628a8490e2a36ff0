//! The move picker's zoomed picture (`view::zoom`) of a piece in each golden mid-game position
//! (tests/support/golden.rs) against its golden picture, for every game: HexiMeros (a piece's
//! moves), HexaEquo (a placement), HexDame, Hexmeister and Harmegedo.
//!
//! Golden pictures live in `tests/data/golden/zoom-<game>.png`. After an intended change of
//! look, look at the new pictures and regenerate them with
//! `UPDATE_GOLDEN=1 cargo test --test rules zoom_golden::`.

#![allow(clippy::unwrap_used)]

use hexmeros_testkit::golden;

use golden::{decode, differing, golden_position};
use hexmeros::games::{AnyGame, GameKind};
use hexmeros::view::picker::{self, Piece, Target};
use hexmeros::view::zoom;

/// Small: the files are committed.
const GOLDEN_SIZE: u32 = 360;

/// The golden position's piece with the most targets (the first such in the picker's order),
/// and its targets.
fn busiest(game: &AnyGame) -> (Piece, Vec<Target>) {
    picker::pieces(game)
        .into_iter()
        .map(|p| {
            let t = picker::targets(game, &p.origin);
            (p, t)
        })
        .reduce(|best, next| {
            if next.1.len() > best.1.len() {
                next
            } else {
                best
            }
        })
        .unwrap()
}

#[test]
fn zoomed_pictures_match_their_golden_pictures() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden");
    let mut failures = Vec::new();
    for kind in GameKind::ALL {
        let (game, _) = golden_position(kind);
        let (piece, targets) = busiest(&game);
        assert!(!targets.is_empty(), "{kind}");
        let png = zoom::zoom_png(&game, None, &piece, &targets, Some(GOLDEN_SIZE)).unwrap();
        let ours = decode(&png);
        assert_eq!(ours.width().max(ours.height()), GOLDEN_SIZE, "{kind}");
        if let Some(out) = std::env::var_os("ZOOM_OUT") {
            std::fs::write(
                format!("{}/{}.png", out.to_string_lossy(), kind.key()),
                &png,
            )
            .unwrap();
        }
        let path = format!("{dir}/zoom-{}.png", kind.key());
        failures.extend(golden::compare(&png, &path, &kind.to_string()));
    }
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn the_golden_comparison_notices_one_target_less() {
    let (game, _) = golden_position(GameKind::HexiMeros);
    let (piece, mut targets) = busiest(&game);
    let a = zoom::zoom_png(&game, None, &piece, &targets, Some(GOLDEN_SIZE)).unwrap();
    targets.pop();
    let b = zoom::zoom_png(&game, None, &piece, &targets, Some(GOLDEN_SIZE)).unwrap();
    assert!(differing(decode(&a).as_raw(), decode(&b).as_raw(), 24) > 0.001);
}
