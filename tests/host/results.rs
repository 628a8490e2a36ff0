//! The end of a game (issue 19): a finished game's results table (places, §7 points, what the
//! game did to each rating), announced once through the outbox before the replay and the
//! closing of the thread, and rebuilt the same from the store after a restart.
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::{db, host as support};

use std::sync::Arc;

use hexmeros::games::{GameKind, Seat};
use hexmeros::host::{Command, Effect, GameHost, GameId, HostError, Motion, Refused, Results};
use hexmeros::store::{Store, conservative};
use support::{T0, act, cmd_move, ensure_players, vote};

struct Env {
    clock: Arc<hexmeros::host::ManualClock>,
    host: GameHost,
    db: db::TestDb,
}

async fn env() -> Env {
    let db = db::TestDb::new().await;
    let clock = Arc::new(hexmeros::host::ManualClock::new(T0));
    let host = GameHost::new(Store::open(&db.url).await.unwrap(), clock.clone()).with_outbox();
    ensure_players(&host, 1..=7).await;
    Env { clock, host, db }
}

/// The outbox's effects for game `g`, pending or not, in the order they go out.
async fn outbox_of(host: &GameHost, g: GameId) -> Vec<Effect> {
    host.store()
        .outbox_pending()
        .await
        .unwrap()
        .iter()
        .filter(|e| e.game == Some(g))
        .map(|e| serde_json::from_str(&e.body).unwrap())
        .collect()
}

fn count(fx: &[Effect], g: GameId) -> usize {
    fx.iter()
        .filter(|f| **f == Effect::Results { game: g })
        .count()
}

/// (place, colour, player, points) of each line.
fn lines(r: &Results) -> Vec<(usize, &'static str, i64, Option<i32>)> {
    r.places
        .iter()
        .map(|p| (p.place, p.colour, p.player, p.points))
        .collect()
}

/// A newcomer's shown rating (μ 25, σ 25/3: μ−3σ = 0).
const NEW: f64 = 0.0;

/// The scored game of `tests/host/scenarios.rs` (`scored_game_to_a_concession_matches_section_7`):
/// Yellow and Orange resign, Green is expelled, Red resigns, Blue concedes; Silver wins.
async fn heximeros_to_the_end(host: &GameHost) -> (GameId, Vec<Effect>) {
    let (g, _) = host
        .create(GameKind::HexiMeros, &[1, 2, 3, 4, 5, 6], None, None)
        .await
        .unwrap();
    act(host, g, 1, cmd_move("K2-H3")).await;
    act(host, g, 3, Command::Resign { replacement: None }).await;
    act(host, g, 4, Command::Resign { replacement: None }).await;
    act(
        host,
        g,
        1,
        Command::Propose(Motion::Expel { seat: Seat(4) }),
    )
    .await;
    act(host, g, 2, vote(true)).await;
    act(host, g, 6, vote(true)).await;
    act(host, g, 6, Command::Resign { replacement: None }).await;
    let fx = act(host, g, 2, Command::Concede).await;
    (g, fx)
}

#[tokio::test]
async fn a_finished_heximeros_game_has_places_points_and_rating_changes() {
    let e = env().await;
    let (g, fx) = heximeros_to_the_end(&e.host).await;
    assert_eq!(count(&fx, g), 1, "{fx:?}");
    // In the outbox once, after the words of the end and before the replay and the closing.
    let out = outbox_of(&e.host, g).await;
    assert_eq!(count(&out, g), 1);
    let at = |x: &Effect| out.iter().position(|f| f == x).unwrap();
    let over = out
        .iter()
        .position(
            |f| matches!(f, Effect::Say { text, .. } if text.to_string().starts_with("game over")),
        )
        .unwrap();
    let results = at(&Effect::Results { game: g });
    assert!(over < results, "{out:?}");
    assert!(results < at(&Effect::Replay { game: g }), "{out:?}");
    assert!(at(&Effect::Replay { game: g }) < at(&Effect::CloseThread { game: g }));

    let r = e.host.results(g).await.unwrap();
    assert!(r.scored);
    assert!(r.outcome.starts_with("Silver won"), "{}", r.outcome);
    // The winner, then the others in reverse order of going out; §7 points as in §7's table.
    assert_eq!(
        lines(&r),
        vec![
            (1, "silver", 1, Some(600)),
            (2, "blue", 2, Some(-10)),
            (3, "red", 6, Some(-20)),
            (4, "green", 5, Some(-530)),
            (5, "orange", 4, Some(-40)),
            (6, "yellow", 3, Some(-50)),
        ]
    );
    // Everyone was new: every rating moved from a newcomer's, the winner's up the most, and
    // each ends where the ratings table says.
    let ratings = e.host.ratings(Some(GameKind::HexiMeros)).await.unwrap();
    for p in &r.places {
        let c = p.rating.as_ref().unwrap_or_else(|| panic!("{p:?}"));
        assert!((c.before() - NEW).abs() < 1e-9, "{p:?}");
        let now = ratings.iter().find(|x| x.player == p.player).unwrap();
        assert!((c.after() - now.shown()).abs() < 1e-9, "{p:?} {now:?}");
    }
    let change = |i: usize| {
        let c = r.places[i].rating.as_ref().unwrap();
        c.after() - c.before()
    };
    assert!((1..6).all(|i| change(0) > change(i)), "{r:?}");
    assert!(r.places[0].rating.as_ref().unwrap().mu_after > 25.0);
    assert!(r.places[5].rating.as_ref().unwrap().mu_after < 25.0);
    assert!(
        r.places[0]
            .summary()
            .starts_with("600 points · rating 0.0 → "),
        "{}",
        r.places[0].summary()
    );
    assert_eq!(r.people(), vec![1, 2, 6, 5, 4, 3]);
}

#[tokio::test]
async fn a_finished_two_player_game_has_places_and_rating_changes_without_points() {
    let e = env().await;
    let (d, _) = e
        .host
        .create(GameKind::HexDame, &[1, 2], None, None)
        .await
        .unwrap();
    // Before its end a game has no results.
    let early = e.host.results(d).await;
    assert!(
        matches!(early, Err(HostError::Refused(Refused::NotOver(x))) if x == d),
        "{early:?}"
    );
    let fx = act(&e.host, d, 1, Command::Concede).await;
    assert_eq!(count(&fx, d), 1, "{fx:?}");
    let r = e.host.results(d).await.unwrap();
    assert!(!r.scored);
    assert_eq!(
        lines(&r),
        vec![(1, "black", 2, None), (2, "white", 1, None)]
    );
    let (win, loss) = (
        r.places[0].rating.clone().unwrap(),
        r.places[1].rating.clone().unwrap(),
    );
    assert!(win.after() > win.before() && win.mu_after > win.mu_before);
    assert!(loss.mu_after < loss.mu_before);
    assert!(win.after() - win.before() > loss.after() - loss.before());
    assert!(!r.places[1].summary().contains("points"));

    // A later game between them moves their ratings again; this game's results still show
    // what this game did.
    let (d2, _) = e
        .host
        .create(GameKind::HexDame, &[1, 2], None, None)
        .await
        .unwrap();
    act(&e.host, d2, 1, Command::Concede).await;
    assert_eq!(e.host.results(d).await.unwrap(), r);
    let again = e.host.results(d2).await.unwrap();
    let w2 = again.places[0].rating.clone().unwrap();
    assert!((w2.before() - win.after()).abs() < 1e-9, "{w2:?} {win:?}");
    assert!((conservative(w2.mu_before, w2.sigma_before) - win.after()).abs() < 1e-9);
}

#[tokio::test]
async fn a_restart_or_a_replay_does_not_announce_the_results_again() {
    let e = env().await;
    let (g, _) = heximeros_to_the_end(&e.host).await;
    let before = e.host.results(g).await.unwrap();

    // Another process on the same file: replays, ticks and refused commands say nothing new.
    let clock = e.clock.clone();
    let other = GameHost::new(Store::open(&e.db.url).await.unwrap(), clock.clone()).with_outbox();
    other.replay(g).await.unwrap();
    other.state(g).await.unwrap();
    clock.advance_minutes(7 * 24 * 60);
    let fx = other.tick().await.unwrap();
    assert_eq!(count(&fx, g), 0, "{fx:?}");
    let late = other.handle(g, hexmeros::host::Actor::player(1), Command::Concede, None);
    assert!(late.await.is_err());
    assert_eq!(count(&outbox_of(&other, g).await, g), 1);
    assert_eq!(other.results(g).await.unwrap(), before);

    // The game's record imported again is a new finished game, rated, but announced to nobody.
    let record = other.export(g).await.unwrap();
    let copy = other.import(&record, &[1, 2, 3, 4, 5, 6]).await.unwrap();
    assert_eq!(count(&outbox_of(&other, copy).await, copy), 0);
    assert_eq!(lines(&other.results(copy).await.unwrap()), lines(&before));
}
