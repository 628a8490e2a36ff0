//! Positions shared by the game fuzz targets: every game's start (at each seat count it takes
//! at its ends), the test positions in `tests/data/positions`, and positions reached from each
//! start by playing some legal moves (chosen deterministically).

use hexmeros::games::{AnyGame, GameKind, read_position};

const TEST_POSITIONS: [&str; 22] = [
    include_str!("../../tests/data/positions/harmegedo_mid2.json"),
    include_str!("../../tests/data/positions/harmegedo_mid3.json"),
    include_str!("../../tests/data/positions/harmegedo_mid6.json"),
    include_str!("../../tests/data/positions/harmegedo_start2.json"),
    include_str!("../../tests/data/positions/hexaequo_mid1.json"),
    include_str!("../../tests/data/positions/hexaequo_mid2.json"),
    include_str!("../../tests/data/positions/hexaequo_mid3.json"),
    include_str!("../../tests/data/positions/hexdame_endgame.json"),
    include_str!("../../tests/data/positions/hexdame_kings.json"),
    include_str!("../../tests/data/positions/hexdame_men.json"),
    include_str!("../../tests/data/positions/hexdame_opening.json"),
    include_str!("../../tests/data/positions/hexdame_repeat.json"),
    include_str!("../../tests/data/positions/hexdame_sweep.json"),
    include_str!("../../tests/data/positions/heximeros_mid1.json"),
    include_str!("../../tests/data/positions/heximeros_mid2.json"),
    include_str!("../../tests/data/positions/heximeros_mid3.json"),
    include_str!("../../tests/data/positions/heximeros_mid4.json"),
    include_str!("../../tests/data/positions/hexmeister_bonus.json"),
    include_str!("../../tests/data/positions/hexmeister_hm9.json"),
    include_str!("../../tests/data/positions/hexmeister_mid1.json"),
    include_str!("../../tests/data/positions/hexmeister_mid2.json"),
    include_str!("../../tests/data/positions/hexmeister_straight.json"),
];

/// Play `plies` legal moves from `game`, the `k`-th move chosen by a fixed stride.
fn advance(mut game: AnyGame, plies: usize, stride: usize) -> AnyGame {
    for ply in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = &moves[(ply * stride + 3) % moves.len()];
        game.play(m).expect("a legal move plays");
    }
    game
}

/// The positions, with their JSON.
pub fn positions() -> Vec<(AnyGame, String)> {
    let mut out = Vec::new();
    for kind in GameKind::ALL {
        let (min, max) = kind.players();
        let mut seat_counts = vec![max];
        if min != max {
            seat_counts.push(min);
        }
        for n in seat_counts {
            let start = kind.start(Some(n), None).expect("the start position");
            for (plies, stride) in [(4, 7), (12, 5), (30, 11)] {
                out.push(advance(start.clone(), plies, stride));
            }
            out.push(start);
        }
    }
    for json in TEST_POSITIONS {
        out.push(read_position(json).expect("a test position reads"));
    }
    out.into_iter()
        .map(|g| {
            let json = g.to_json();
            (g, json)
        })
        .collect()
}
