//! What the host keeps in memory, and what a broken game costs it: unknown ids are never
//! cached, a game that is over leaves the cache, and a corrupt game stops its timers instead of
//! failing every tick.
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host as support;
use hexmeros_testkit::host::RulesOf;

use hexmeros::games::GameKind;
use hexmeros::host::{Clock, Command, GameId, HostError, Motion, Refused};
use support::{act, cmd_move, ensure_players, env, first_move, host_on, vote};

/// A HexDame game between players 1 and 2 after White's first move.
async fn hexdame_after_one_move() -> (support::Env, GameId) {
    let e = env().await;
    ensure_players(&e.host, 1..=2).await;
    let (g, _) = e
        .host
        .create(GameKind::HexDame, &[1, 2], None, None)
        .await
        .unwrap();
    let white = first_move(&e.host, g).await;
    act(&e.host, g, 1, cmd_move(&white)).await;
    (e, g)
}

#[tokio::test]
async fn unknown_game_ids_are_never_cached() {
    let e = env().await;
    for id in 1..=10_000 {
        let err = e.host.state(id).await.unwrap_err();
        assert!(
            matches!(err, HostError::Refused(Refused::UnknownGame(g)) if g == id),
            "{err}"
        );
    }
    assert_eq!(e.host.cached_games(), 0);
}

#[tokio::test]
async fn a_game_that_is_over_leaves_the_cache() {
    let (e, g) = hexdame_after_one_move().await;
    assert_eq!(e.host.cached_games(), 1);
    act(&e.host, g, 2, Command::Propose(Motion::Draw)).await;
    act(&e.host, g, 1, vote(true)).await;
    assert_eq!(e.host.cached_games(), 0);
    // Asked for again, it is rebuilt from its log and still not kept.
    let st = e.host.state(g).await.unwrap();
    assert!(st.outcome().is_some());
    assert_eq!(e.host.cached_games(), 0);
}

#[tokio::test]
async fn a_corrupt_game_stops_its_timers() {
    let (e, g) = hexdame_after_one_move().await;
    sqlx::query("UPDATE events SET body = 'not json' WHERE game_id = $1 AND version = 0")
        .bind(g)
        .execute(e.host.store().writer())
        .await
        .unwrap();
    // A day later its reminders are due, but the game no longer loads.
    e.clock.advance_minutes(24 * 60);
    let host = host_on(&e.url, &e.clock).await;
    assert_eq!(
        host.store().due_games(e.clock.now()).await.unwrap(),
        vec![g]
    );
    host.tick().await.unwrap();
    assert!(
        host.store()
            .due_games(e.clock.now())
            .await
            .unwrap()
            .is_empty()
    );
    assert!(matches!(
        host.state(g).await.unwrap_err(),
        HostError::Corrupt { .. }
    ));
}

/// Another process (a second host on the same file, nothing cached) reads a game while moves
/// are committed: the game row and the log come from one snapshot, so no read ever sees the
/// row of one version and the log of another ("the log has N events but the game says …").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_read_while_moves_are_committed_is_never_torn() {
    let e = env().await;
    ensure_players(&e.host, [1, 2]).await;
    let (g, _) = e
        .host
        .create(GameKind::HexDame, &[1, 2], None, None)
        .await
        .unwrap();
    let reader = host_on(&e.url, &e.clock).await;
    let writer = async {
        for _ in 0..60 {
            let st = e.host.state(g).await.unwrap();
            let Some(p) = st.holder_player() else { break };
            if st.rules().legal_moves().is_empty() {
                break;
            }
            act(&e.host, g, p, cmd_move(&first_move(&e.host, g).await)).await;
        }
    };
    let reads = async {
        let mut n = 0;
        for _ in 0..400 {
            // A fresh host each time: every read is a replay from the file.
            let fresh = host_on(&e.url, &e.clock).await;
            match fresh.state(g).await {
                Ok(_) => n += 1,
                Err(err) => panic!("read {n} saw a torn game: {err}"),
            }
            tokio::task::yield_now().await;
        }
        n
    };
    let ((), n) = tokio::join!(writer, reads);
    assert_eq!(n, 400);
    assert!(reader.state(g).await.unwrap().version() > 10);
}
