//! The focus picture (`view::focus`): the close-up posted before the full board, for the
//! golden HexiMeros and Harmegedo positions (the round's last moves) and for a staged
//! HexiMeros move (the preview), against golden pictures in `tests/data/golden/focus-*.png`.
//! After an intended change of look, look at the new pictures and regenerate them with
//! `UPDATE_GOLDEN=1 cargo test --test rules focus_golden::`.

use hexmeros_testkit::golden;

use golden::{decode, differing, golden_position};
use hexmeros::games::GameKind;
use hexmeros::view::{ViewOptions, focus};

/// Small: the files are committed.
const GOLDEN_SIZE: u32 = 480;

#[test]
fn focus_pictures_match_their_golden_pictures() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden");
    let mut failures = Vec::new();
    for kind in [GameKind::HexiMeros, GameKind::Harmegedo] {
        let (game, opts) = golden_position(kind);
        let png = focus::focus_png(&game, &opts, Some(GOLDEN_SIZE))
            .unwrap()
            .unwrap_or_else(|| panic!("{kind}: no close-up of the round"));
        let path = format!("{dir}/focus-{}.png", kind.key());
        failures.extend(golden::compare(&png, &path, &kind.to_string()));
    }
    let (game, _) = golden_position(GameKind::HexiMeros);
    let staged = game.legal_moves()[0].clone();
    let opts = ViewOptions {
        staged: Some(staged),
        ..ViewOptions::default()
    };
    let png = focus::focus_png(&game, &opts, Some(GOLDEN_SIZE))
        .unwrap()
        .unwrap();
    let path = format!("{dir}/focus-preview-heximeros.png");
    failures.extend(golden::compare(&png, &path, "preview"));
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn the_golden_comparison_notices_a_move_less() {
    let (game, mut opts) = golden_position(GameKind::HexiMeros);
    let a = focus::focus_png(&game, &opts, Some(GOLDEN_SIZE))
        .unwrap()
        .unwrap();
    opts.last_moves.pop();
    let b = focus::focus_png(&game, &opts, Some(GOLDEN_SIZE))
        .unwrap()
        .unwrap();
    let (a, b) = (decode(&a), decode(&b));
    assert!(
        (a.width(), a.height()) != (b.width(), b.height())
            || differing(a.as_raw(), b.as_raw(), 24) > 0.001
    );
}
