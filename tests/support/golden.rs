//! The fixed mid-game position of each game's golden picture (tests/rules/view_golden.rs), also the
//! position of the docs' pictures (examples/docs_pictures.rs).
#![allow(clippy::unwrap_used)] // seeded playouts of the start position: a panic is a bug report
#![allow(dead_code)] // each user takes what it needs

use hexmeros::games::{AnyGame, GameKind};
use hexmeros::view::ViewOptions;

/// The playouts' generator, one step (an LCG; a move is `(s >> 33) % moves`).
pub fn next_seed(s: u64) -> u64 {
    s.wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407)
}

/// A seeded playout: `plies` moves chosen by an LCG among the sorted legal moves. Returns the
/// position and every move text played.
pub fn playout(
    kind: GameKind,
    players: Option<usize>,
    plies: usize,
    seed: u64,
) -> (AnyGame, Vec<String>) {
    let mut game = AnyGame::new(kind, players, None).unwrap();
    let mut played = Vec::new();
    let mut s = seed;
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        s = next_seed(s);
        let m = &moves[(s >> 33) as usize % moves.len()];
        played.push(game.play(m).unwrap());
    }
    (game, played)
}

/// The fixed mid-game position of each golden picture, with the moves since the viewer's
/// previous turn.
pub fn golden_position(kind: GameKind) -> (AnyGame, ViewOptions) {
    let (plies, last, players) = match kind {
        GameKind::HexiMeros => (40, 5, None),
        GameKind::HexDame => (24, 2, None),
        GameKind::Hexmeister => (22, 2, None),
        GameKind::HexaEquo => (16, 2, None),
        GameKind::Harmegedo => (18, 3, Some(3)),
    };
    let (game, played) = playout(kind, players, plies, 7);
    let opts = ViewOptions {
        last_moves: played[played.len().saturating_sub(last)..].to_vec(),
        turn: Some(played.len() as u32 + 1),
        ..ViewOptions::default()
    };
    (game, opts)
}

/// A PNG decoded to RGBA.
pub fn decode(png: &[u8]) -> image::RgbaImage {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .unwrap()
        .to_rgba8()
}

/// Share of pixels whose colour differs by more than `tolerance` in any channel.
pub fn differing(a: &[u8], b: &[u8], tolerance: u8) -> f64 {
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

/// Compare `png` with the golden picture at `path` (written first with `UPDATE_GOLDEN=1`): what
/// differs, for `what`, if anything. Anti-aliasing may shift by a shade between CPUs or library
/// versions; a change of look (a colour, a piece, a moved label) touches far more than 0.5 % of
/// the pixels.
pub fn compare(png: &[u8], path: &str, what: &str) -> Option<String> {
    compare_within(png, path, what, 0.005)
}

/// [`compare`] allowing `share` of the pixels to differ (a browser's screenshot, whose text the
/// machine's fonts draw).
pub fn compare_within(png: &[u8], path: &str, what: &str, share: f64) -> Option<String> {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        if let Some(dir) = std::path::Path::new(path).parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(path, png).unwrap();
    }
    let ours = decode(png);
    let golden = image::open(path)
        .unwrap_or_else(|_| panic!("{path} is missing: run with UPDATE_GOLDEN=1"))
        .to_rgba8();
    if (ours.width(), ours.height()) != (golden.width(), golden.height()) {
        return Some(format!(
            "{what}: {}x{} instead of {}x{}",
            ours.width(),
            ours.height(),
            golden.width(),
            golden.height()
        ));
    }
    let differ = differing(ours.as_raw(), golden.as_raw(), 24);
    (differ >= share).then(|| format!("{what}: {:.2} % of pixels differ", differ * 100.0))
}
