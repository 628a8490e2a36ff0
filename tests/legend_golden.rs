//! The rules-help legend of each game (`view::legend`, `/hexmeros rules`) against its golden
//! picture, and a piece's moves picture against the plain board.
//!
//! Golden pictures live in `tests/data/golden/legend-<game>.png`. After an intended change of
//! look, look at the new pictures and regenerate them with
//! `UPDATE_GOLDEN=1 cargo test --test legend_golden`.

#![allow(clippy::unwrap_used)]

use hexmeros::games::GameKind;
use hexmeros::view::legend;

/// Small: a legend is a few tiles and names, and the files are committed.
const GOLDEN_SIZE: u32 = 400;

fn decode(png: &[u8]) -> image::RgbaImage {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .unwrap()
        .to_rgba8()
}

/// Share of pixels whose colour differs by more than `tolerance` in any channel.
fn differing(a: &[u8], b: &[u8], tolerance: u8) -> f64 {
    let n = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .filter(|(p, q)| {
            p.iter()
                .zip(q.iter())
                .any(|(x, y)| x.abs_diff(*y) > tolerance)
        })
        .count();
    n as f64 / (a.len() / 4).max(1) as f64
}

#[test]
fn every_legend_matches_its_golden_picture() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden");
    let mut failures = Vec::new();
    for kind in GameKind::ALL {
        let png = legend::legend_png(kind, Some(GOLDEN_SIZE)).unwrap();
        let ours = decode(&png);
        assert_eq!(ours.width().max(ours.height()), GOLDEN_SIZE, "{kind}");
        let path = format!("{dir}/legend-{}.png", kind.key());
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(&path, &png).unwrap();
        }
        let golden = image::open(&path)
            .unwrap_or_else(|_| panic!("{path} is missing: run with UPDATE_GOLDEN=1"))
            .to_rgba8();
        if (ours.width(), ours.height()) != (golden.width(), golden.height()) {
            failures.push(format!(
                "{kind}: {}x{} instead of {}x{}",
                ours.width(),
                ours.height(),
                golden.width(),
                golden.height()
            ));
            continue;
        }
        // As tests/view_golden.rs: anti-aliasing may move a shade, a change of look moves far
        // more than 0.5 % of the pixels.
        let share = differing(ours.as_raw(), golden.as_raw(), 24);
        if share >= 0.005 {
            failures.push(format!("{kind}: {:.2} % of pixels differ", share * 100.0));
        }
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
