//! The game record (`games::record`) across the host and the view: for each of the five games, a
//! game played at the table and ended by agreement is exported, imported to the same state, and
//! replayed into an animated GIF; and the record's lines say what they did.
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host::RulesOf;
use std::sync::Arc;

use hexmeros_testkit::db;

use hexmeros::games::record::{GameRecord, Line, RecordError};
use hexmeros::games::{Departure, GameKind, Outcome, Seat};
use hexmeros::host::{Actor, Command, GameHost, GameId, ManualClock, Motion, Status};
use hexmeros::store::Store;

const T0: i64 = 1_700_000_000_000;

/// A host on a fresh database (SQLite, or PostgreSQL in CI's second pass: `support/db.rs`);
/// the database goes when the first half is dropped.
async fn host() -> (db::TestDb, GameHost) {
    let db = db::TestDb::new().await;
    let host = GameHost::new(
        Store::open(&db.url).await.unwrap(),
        Arc::new(ManualClock::new(T0)),
    );
    (db, host)
}

/// A game of `kind` with players 1…n, two moves played (the first legal move each time).
async fn two_moves(host: &GameHost, kind: GameKind) -> (GameId, Vec<i64>) {
    let (_, most) = kind.players();
    let n = if kind == GameKind::Harmegedo { 2 } else { most };
    let players: Vec<i64> = (1..=n as i64).collect();
    for &p in &players {
        host.ensure_player(p, &format!("p{p}")).await.unwrap();
    }
    let (g, _) = host.create(kind, &players, None, None).await.unwrap();
    for _ in 0..2 {
        let st = host.state(g).await.unwrap();
        let mover = st.holder_player().unwrap();
        let text = st.rules().legal_moves()[0].clone();
        host.handle(
            g,
            Actor::player(mover),
            Command::Move { text, commit: true },
            None,
        )
        .await
        .unwrap();
    }
    (g, players)
}

/// Every player agrees a draw: the first proposes, the others vote yes.
async fn agree_draw(host: &GameHost, g: GameId, players: &[i64]) {
    host.handle(
        g,
        Actor::player(players[0]),
        Command::Propose(Motion::Draw),
        None,
    )
    .await
    .unwrap();
    for &p in &players[1..] {
        host.handle(
            g,
            Actor::player(p),
            Command::Vote {
                motion: None,
                yes: true,
            },
            None,
        )
        .await
        .unwrap();
    }
}

fn frames(gif: &[u8]) -> usize {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(gif).unwrap();
    let mut n = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        n += 1;
    }
    n
}

#[tokio::test]
async fn an_agreed_draw_exports_imports_and_replays_in_every_game() {
    for kind in GameKind::ALL {
        let (_dir, host) = host().await;
        let (g, players) = two_moves(&host, kind).await;
        agree_draw(&host, g, &players).await;
        let st = host.state(g).await.unwrap();
        assert_eq!(st.status(), Status::Finished, "{kind}");
        assert!(
            matches!(st.outcome(), Some(Outcome::Draw { .. })),
            "{kind}: {:?}",
            st.outcome()
        );
        let text = host.export(g).await.unwrap();
        assert!(text.lines().any(|l| l == "draw"), "{kind}: {text}");

        // Imported, the game is the same: same position, same outcome, same record.
        let copy = host.import(&text, &players).await.unwrap();
        let again = host.state(copy).await.unwrap();
        assert_eq!(again.status(), Status::Finished, "{kind}");
        assert_eq!(again.outcome(), st.outcome(), "{kind}");
        assert_eq!(again.rules().to_json(), st.rules().to_json(), "{kind}");
        assert_eq!(host.export(copy).await.unwrap(), text, "{kind}");

        // The record replays on its own to the same end, and into a GIF: the start, two moves.
        let record = GameRecord::parse(&text).unwrap();
        let (end, played) = record.replay().unwrap();
        assert_eq!(end.outcome(), st.outcome(), "{kind}");
        assert_eq!(played.iter().flatten().count(), 2, "{kind}");
        let gif =
            hexmeros::view::replay_gif_from_export(&text).unwrap_or_else(|e| panic!("{kind}: {e}"));
        assert_eq!(frames(&gif), 4, "{kind}: start, two moves, the draw line");
    }
}

#[test]
fn record_lines_are_read_written_and_played_by_the_game() {
    let mut game = GameKind::HexDame.start(None, None).unwrap();
    let black = game.seat_named("Black").unwrap();
    assert_eq!(
        Line::parse(&game, "resign black").unwrap(),
        Line::Depart {
            seat: black,
            how: Departure::Resign
        }
    );
    assert_eq!(
        Line::parse(&game, "resign mauve").unwrap_err(),
        RecordError::NoSuchSeat("mauve".into())
    );
    // A move named for the wrong seat is refused and changes nothing.
    let first = game.legal_moves()[0].clone();
    let before = game.to_json();
    let wrong = Line::parse(&game, &format!("black {first}")).unwrap();
    assert!(matches!(
        wrong.apply(&mut game),
        Err(RecordError::NotTheirTurn { .. })
    ));
    assert_eq!(game.to_json(), before);
    // A two-player game has no pass: a skip line is refused.
    let skip = Line::Skip { seat: Seat(0) };
    assert!(matches!(
        skip.apply(&mut game),
        Err(RecordError::Refused(_))
    ));
    // Resignation ends a two-player game for the other seat, and the position keeps it.
    let resign = Line::Depart {
        seat: black,
        how: Departure::Resign,
    };
    assert_eq!(resign.write(&game), "resign black");
    resign.apply(&mut game).unwrap();
    let outcome = game.outcome().unwrap();
    assert!(matches!(&outcome, Outcome::Win { winners, .. } if winners == &vec![Seat(0)]));
    assert!(game.legal_moves().is_empty());
    let copy = hexmeros::games::AnyGame::from_json(&game.to_json()).unwrap();
    assert_eq!(copy.outcome(), Some(outcome));
    // Nothing more can be played on a settled game.
    assert!(Line::Draw.apply(&mut game).is_err());
}

#[test]
fn a_settled_result_in_position_json_is_checked() {
    let mut game = GameKind::Hexmeister.start(None, None).unwrap();
    game.agree_draw().unwrap();
    let json = game.to_json();
    assert!(json.contains("\"settled\""), "{json}");
    let back = hexmeros::games::read_position(&json).unwrap();
    assert_eq!(back.outcome(), game.outcome());
    assert!(back.to_move().is_none());
    // A settled result naming a seat the game does not have is refused, saying why.
    let bad = json.replace("\"seats\": [\n      0,", "\"seats\": [\n      7,");
    assert_ne!(bad, json, "{json}");
    let err = hexmeros::games::read_position(&bad).unwrap_err();
    assert!(err.to_string().contains("seat 7"), "{err}");
    // And one of another game is refused by the game's own reader.
    let err = GameKind::HexDame.read_position(&json).unwrap_err();
    assert!(err.to_string().contains("hexmeister"), "{err}");
}
