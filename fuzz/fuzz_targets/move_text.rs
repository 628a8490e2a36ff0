//! Arbitrary text as a move, against positions of all five games: parsing and resolving never
//! panic; a move that resolves plays, its canonical text plays the same, and a refused move
//! leaves the position unchanged.
#![no_main]

use std::sync::LazyLock;

use hexmeros::games::{AnyGame, MoveText, Seat};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

static POSITIONS: LazyLock<Vec<(AnyGame, String)>> = LazyLock::new(common::positions);

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let syntax_ok = text.parse::<MoveText>().is_ok();
    for (game, json) in POSITIONS.iter() {
        let mut played = game.clone();
        match played.play(text) {
            Ok(canonical) => {
                assert_eq!(
                    game.resolve(text, &[]).ok().as_deref(),
                    Some(canonical.as_str()),
                    "resolve and play agree on {text:?}"
                );
                let mut again = game.clone();
                assert_eq!(
                    again.play(&canonical).as_deref(),
                    Ok(canonical.as_str()),
                    "canonical text {canonical:?} of {text:?} plays as itself"
                );
                assert_eq!(
                    again.to_json(),
                    played.to_json(),
                    "{text:?} vs {canonical:?}"
                );
                let _ = game.challengers(text);
                for s in 0..game.seat_count() as u8 {
                    let _ = game.declare(text, Seat(s));
                    let _ = game.resolve(text, &[Seat(s)]);
                }
                let _ = (played.to_move(), played.outcome(), played.active_seats());
                let _ = played.last_points();
            }
            Err(_) => {
                if syntax_ok {
                    assert_eq!(
                        &played.to_json(),
                        json,
                        "a refused {text:?} changed nothing"
                    );
                }
            }
        }
    }
});
