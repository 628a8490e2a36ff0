//! Arbitrary bytes as position JSON: reading never panics; an accepted position answers every
//! query, plays each of its legal moves, and writes back JSON that reads as the same position.
#![no_main]

use hexmeros::games::{AnyGame, Departure, GameKind, PositionError, Seat, read_position};
use libfuzzer_sys::fuzz_target;

/// How many legal moves of an accepted position are played (a bound on one input's time).
const PLAYED: usize = 16;

fn queries(game: &AnyGame) {
    let moves = game.legal_moves();
    if game.to_move().is_none() {
        assert!(moves.is_empty(), "no side to move, yet moves {moves:?}");
    }
    for m in moves.iter().take(PLAYED) {
        let mut next = game.clone();
        assert_eq!(next.play(m).as_deref(), Ok(m.as_str()), "legal move {m:?}");
        let _ = (next.to_move(), next.outcome(), next.last_points());
    }
    for piece in game.movable_pieces().iter().take(4) {
        assert!(!game.moves_from(piece).is_empty(), "{piece:?} moves");
    }
    let seats = game.seat_count();
    for s in 0..seats as u8 {
        let name = game.seat_name(Seat(s));
        assert_eq!(game.seat_named(name), Some(Seat(s)), "seat {name}");
        let _ = game.takeover_points(Seat(s), s % 2 == 0);
    }
    let _ = (
        game.active_seats(),
        game.out_order(),
        game.scored(),
        game.last_points(),
    );
    let _ = (
        game.binding_challenges(),
        game.challenge_minutes(),
        game.show(),
    );
    let _ = game.clone().agree_draw();
    let _ = game.clone().skip_turn();
    if let Some(mover) = game.to_move() {
        for how in [
            Departure::Resign,
            Departure::Expel,
            Departure::Concede,
            Departure::TimeOut,
        ] {
            let _ = game.clone().depart(mover, how);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(json) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(game) = read_position(json) else {
        return;
    };
    for kind in GameKind::ALL {
        match kind.read_position(json) {
            Ok(same) => {
                assert_eq!(kind, game.kind());
                assert_eq!(same.to_json(), game.to_json());
            }
            Err(e) => assert!(
                kind != game.kind() && matches!(e, PositionError::WrongGame { .. }),
                "{kind} refused its own position: {e}"
            ),
        }
    }
    queries(&game);
    let written = game.to_json();
    let back = match read_position(&written) {
        Ok(back) => back,
        Err(e) => panic!("written position does not read back: {e}\n{written}"),
    };
    assert_eq!(back.to_json(), written, "position JSON round trip");
    assert_eq!(
        back.legal_moves(),
        game.legal_moves(),
        "same moves after the round trip"
    );
    assert_eq!(back.to_move(), game.to_move());
    assert_eq!(back.outcome(), game.outcome());
});
