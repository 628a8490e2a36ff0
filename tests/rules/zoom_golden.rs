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

/// A HexiMeros piece with 33 targets (the Prelate on K8 after 30 plies of the seeded playout), three
/// of which take: its targets are paged (25 a page), each page with a picture of its own. The
/// first page's picture against its golden (the capture targets' red number discs drawn over
/// the pieces they take; its header says "targets 1–25 of 33"); the second page shows only
/// targets 26–33, and its header says so.
#[test]
fn a_thirty_target_piece_has_a_picture_per_page() {
    let (game, _) = golden::playout(GameKind::HexiMeros, None, 30, 0);
    let piece = picker::pieces(&game)
        .into_iter()
        .find(|p| p.origin == "K8")
        .unwrap();
    let targets = picker::targets(&game, &piece.origin);
    assert_eq!(targets.len(), 33);
    let first = picker::page(targets.len(), 0);
    let second = picker::page(targets.len(), 1);
    assert_eq!((first.range.clone(), second.range.clone()), (0..25, 25..33));
    let page_one = &targets[first.range];
    assert!(
        page_one.iter().any(|t| !t.takes.is_empty()),
        "a capture target on the first page"
    );
    let png = zoom::zoom_png(&game, None, &piece, page_one, Some(GOLDEN_SIZE)).unwrap();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden");
    let failure = golden::compare(&png, &format!("{dir}/zoom-heximeros-page.png"), "page 1");
    assert!(failure.is_none(), "{failure:?}");

    let one = zoom::zoom_scene_named(&game, None, &[], &piece, page_one).unwrap();
    assert!(
        one.header[1]
            .text
            .contains("· targets 1–25 of 33, numbered"),
        "{:?}",
        one.header[1]
    );

    let page_two = &targets[second.range];
    let scene = zoom::zoom_scene_named(&game, None, &[], &piece, page_two).unwrap();
    // The number discs (the other tags are the cells' name plates).
    let numbers: Vec<String> = scene
        .tags
        .iter()
        .filter(|t| t.text.chars().all(|c| c.is_ascii_digit()))
        .map(|t| t.text.clone())
        .collect();
    let expected: Vec<String> = (26..=33).map(|n| n.to_string()).collect();
    assert_eq!(numbers, expected);
    assert!(
        scene.header[1]
            .text
            .contains("· targets 26–33 of 33, numbered"),
        "{:?}",
        scene.header[1]
    );
}
