#![allow(clippy::unwrap_used)]
//! End-to-end test of per-player clocks and `/hexmeros away` (issue 22): a game started with a
//! time bank shows each seat's bank on its status panel; a player who goes away has their clock
//! stopped (the thread is told, the panel says until when and why); they are back when they
//! move, or when their away time is over; bad durations and going away too often are refused. The real `hexmeros serve`
//! binary against the fake Discord (`tests/support/bot.rs`), its clock moved by hand.

use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{bot, fake_discord};

use fake_discord::FakeDiscord as F;
use serde_json::json;

use bot::*;

/// The Token holder of `game` plays its first legal move through `/hexmeros move`.
async fn play(fake: &F, bot: &Bot, game: i64, thread: u64) {
    let st = bot.state(game).await;
    let player = st.holder_player().unwrap() as u64;
    let mv = st.rules().legal_moves()[0].clone();
    let before = fake.messages(thread).len();
    let r = hx(
        fake,
        player,
        thread,
        "move",
        json!([str_opt("from", &mv), bool_opt("pass", true)]),
    )
    .await;
    assert!(!content(&r).contains('⚠'), "{r:?}");
    wait_message(fake, thread, before, "played").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn away_stops_a_players_clock_until_they_move_or_their_time_is_over() {
    let fake = F::start().await;
    // Each player may go away (or come back) once an hour here.
    let bot = Bot::start_with(&fake, None, &[("HEXMEROS_RATE_AWAY", "1/1h")]).await;
    let (game, t) = start_game(
        &fake,
        &[u(1), u(2)],
        vec![
            json!({"type": 4, "name": "game", "value": 1}),
            int_opt("bank_hours", 10),
            int_opt("bank_add_hours", 1),
            int_opt("away_days", 3),
        ],
    )
    .await;
    wait_message(&fake, t, 0, "you have the Token").await;
    let panel = wait_panel(&fake, t, "bank 10 h").await;
    assert!(panel.contains("their time runs out"), "{panel}");
    play(&fake, &bot, game, t).await;
    // The mover's bank grew by the hour added per move.
    wait_panel(&fake, t, "bank 11 h").await;

    // Black goes away for two days.
    let before = fake.messages(t).len();
    let r = hx(
        &fake,
        u(2),
        t,
        "away",
        json!([str_opt("duration", "2d"), str_opt("reason", "a trip")]),
    )
    .await;
    assert!(is_private(&r), "{r:?}");
    let text = content(&r);
    assert!(
        text.contains(&format!("#{game}")) && text.contains("away until"),
        "{text}"
    );
    wait_message(&fake, t, before, "is away until").await;
    let panel = wait_panel(&fake, t, "💤 away until").await;
    assert!(panel.contains("(a trip)"), "{panel}");
    assert!(
        panel.contains("their clock is stopped while they are away"),
        "{panel}"
    );
    let st = bot.state(game).await;
    assert_eq!(st.deadline(), None, "the clock stands still");

    // Bad input is refused and changes nothing.
    let version = bot.state(game).await.version();
    let r = hx(&fake, u(2), t, "away", json!([str_opt("duration", "soon")])).await;
    assert_refused(&r, "is not a length of time");
    let r = hx(
        &fake,
        u(2),
        t,
        "away",
        json!([str_opt("duration", "1d"), bool_opt("back", true)]),
    )
    .await;
    assert_refused(&r, "not both");
    let r = hx(&fake, u(2), t, "away", json!([str_opt("duration", "45d")])).await;
    assert_refused(&r, "is not a length of time");
    assert_eq!(bot.state(game).await.version(), version);

    // Black moves: they are back, and the panel says so.
    let before = fake.messages(t).len();
    play(&fake, &bot, game, t).await;
    wait_message(&fake, t, before, "is back").await;
    let deadline = tokio::time::Instant::now() + T;
    while wait_panel(&fake, t, "Turn").await.contains("💤") {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the panel still shows away"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let r = hx(&fake, u(2), t, "away", json!([])).await;
    let text = content(&r);
    assert!(
        text.contains("here") && text.contains("72 hours of away time left"),
        "{text}"
    );

    // White goes away for an hour; when it is over, they are back by themselves.
    let r = hx(&fake, u(1), t, "away", json!([str_opt("duration", "1h")])).await;
    assert!(content(&r).contains("away until"), "{r:?}");
    assert!(
        bot.state(game)
            .await
            .away(hexmeros::games::Seat(0))
            .is_some()
    );
    let before = fake.messages(t).len();
    bot.set_clock(START_MS + 61 * 60_000);
    wait_message(&fake, t, before, "is back").await;
    let st = bot.state(game).await;
    assert!(st.away(hexmeros::games::Seat(0)).is_none());
    // White's turn ran for no time while away: a whole hour was used of their allowance.
    assert_eq!(
        st.away_left(hexmeros::games::Seat(0), START_MS + 61 * 60_000),
        71 * 3_600_000
    );
    // Going away again within the hour is refused: every absence is told in every thread.
    let version = bot.state(game).await.version();
    let r = hx(&fake, u(1), t, "away", json!([str_opt("duration", "2h")])).await;
    assert_refused(&r, "going too fast");
    assert_eq!(bot.state(game).await.version(), version);
    assert_clean(&fake, &bot);
}
