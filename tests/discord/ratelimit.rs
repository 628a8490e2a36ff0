#![allow(clippy::unwrap_used)]
//! Under Discord's global rate limit (issue 18): the real `hexmeros serve` binary, pacing its own
//! calls (`HEXMEROS_RATE_DISCORD`, `src/discord/wire/pace.rs`), against the fake Discord enforcing a
//! global limit and answering some calls 429 for their route. After a downtime every game's
//! reminder falls due in one tick; the reminders go out at half the bot's pace while a Token
//! ping made meanwhile goes ahead of them, and every 429 is waited out and sent again, never
//! lost or doubled.
//!
//! Every wait polls a condition against a deadline; nothing sleeps for a fixed time, and nothing
//! asserts a duration: the ping's lead is counted in reminders still unsent.

use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{bot, fake_discord, soak};

use std::time::Duration;

use bot::{Bot, HOUR_MS, START_MS, T, made_in, until_within as until};
use fake_discord::{Chaos, FakeDiscord as F};
use hexmeros::store::Store;
use serde_json::json;

/// Games in the storm; the fake's global limit, and the bot's pace under it (reminders take at
/// most half of it: the storm lasts at least `2 * GAMES / PACE` seconds).
const GAMES: usize = 60;
const LIMIT: u32 = 10;
const PACE: &str = "8/1s";

/// Waits until the outbox is empty.
async fn drained(store: &Store, what: &str) {
    let end = tokio::time::Instant::now() + T * 4;
    loop {
        let s = store.outbox_stats().await.unwrap();
        if s.pending == 0 {
            return;
        }
        assert!(
            tokio::time::Instant::now() < end,
            "the outbox still holds {} entries after {what}",
            s.pending
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_the_global_limit_a_storm_of_reminders_does_not_hold_up_a_token_ping() {
    let fake = F::start().await;
    let mut bot = Bot::start_with(
        &fake,
        Some("info"),
        &[
            ("HEXMEROS_RATE_DISCORD", "off"),
            ("HEXMEROS_RATE_STARTS", "OFF"),
            ("HEXMEROS_MAX_ACTIVE_GAMES", "1000"),
        ],
    )
    .await;
    let store = Store::open(&bot.db_url()).await.unwrap();
    let t0 = std::time::Instant::now();
    let mut games = Vec::new();
    for chunk in (0..GAMES as u64).collect::<Vec<_>>().chunks(10) {
        let started = futures_util::future::join_all(chunk.iter().map(|&i| {
            let users = [F::user(100 + 2 * i), F::user(101 + 2 * i)];
            let store = &store;
            let fake = &fake;
            async move { soak::start_game(fake, store, &users, false).await }
        }))
        .await;
        games.extend(started);
    }
    let mut threads = Vec::new();
    for &g in &games {
        threads.push(soak::thread_of(&store, g).await.unwrap());
    }
    // Everything the starts said is out.
    drained(&store, "the openings").await;

    eprintln!("{GAMES} games started in {:?}", t0.elapsed());
    // The process stops (SIGKILL) and the next one keeps a pace under Discord's global limit.
    bot.set_env("HEXMEROS_RATE_DISCORD", PACE);
    bot.restart(&fake).await;
    // Discord limits the bot to LIMIT calls a second, and now and then a route says 429 too.
    fake.set_global_limit(Some(LIMIT));
    fake.set_chaos(Some(Chaos {
        seed: 5,
        p500: 0.0,
        p429: 0.1,
        p_after: 0.0,
        p_drop: 0.0,
        retry_after: 0.3,
    }));
    // An hour and a bit later: every game's first reminder falls due in the same tick.
    bot.set_clock(START_MS + HOUR_MS + 60_000);
    let reminder = "reminder: you have held the Token";
    let reminders = |fake: &F| {
        threads
            .iter()
            .map(|&t| made_in(fake, t, reminder))
            .sum::<usize>()
    };
    until("the first reminder", T, || reminders(&fake) > 0).await;

    // Meanwhile Silver moves in the last game: its Token ping is delivered while most reminders
    // still wait (its own game's reminder goes first: a thread reads in order).
    let (game, thread) = (*games.last().unwrap(), *threads.last().unwrap());
    // The tick may not have reached this game yet (on a slow database it takes a while over 60
    // games): a move made before its reminder is committed starts a new turn, which rightly
    // gets no reminder. So the move waits for the reminder's commit, not for its delivery.
    let end = tokio::time::Instant::now() + T * 2;
    let st = loop {
        let st = bot.state(game).await;
        if st.reminded() >= 1 {
            break st;
        }
        assert!(
            tokio::time::Instant::now() < end,
            "game #{game}'s reminder was not committed"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let mover = st.holder_player().unwrap() as u64;
    let next = st
        .seats()
        .iter()
        .map(|s| s.player as u64)
        .find(|&p| p != mover)
        .unwrap();
    let mv = st.rules().legal_moves()[0].clone();
    let i = fake
        .slash(
            mover,
            thread,
            "hexmeros",
            json!([{"type": 1, "name": "move", "options": [
                {"type": 3, "name": "from", "value": mv},
                {"type": 5, "name": "pass", "value": true}]}]),
        )
        .await;
    bot::acked(&fake, &i).await;
    let ping = format!("<@{next}>");
    until("the next player's ping", T * 2, || {
        fake.made()
            .iter()
            .any(|m| m.channel == thread && m.content.starts_with(&ping))
    })
    .await;
    let sent_before_ping = reminders(&fake);
    assert!(
        sent_before_ping <= GAMES / 2,
        "the ping waited behind the storm: {sent_before_ping} of {GAMES} reminders went first"
    );

    // Every reminder is delivered once: the 429s were waited out and sent again. The moved
    // game's too, unless it was still waiting when the move was made: a reminder of a turn
    // that is over is not sent (issue 60), and says so in the outbox.
    let others = |fake: &F| {
        threads
            .iter()
            .filter(|&&t| t != thread)
            .map(|&t| made_in(fake, t, reminder))
            .sum::<usize>()
    };
    let end = tokio::time::Instant::now() + T * 8;
    while others(&fake) < GAMES - 1 {
        if tokio::time::Instant::now() >= end {
            let missing: Vec<_> = games
                .iter()
                .zip(&threads)
                .filter(|&(_, &t)| made_in(&fake, t, reminder) == 0)
                .map(|(&g, _)| g)
                .collect();
            let mut rows = Vec::new();
            for &g in &missing {
                let st = bot.state(g).await;
                rows.push(format!(
                    "#{g} v{} next_due {:?}",
                    st.version(),
                    st.next_due()
                ));
            }
            panic!(
                "timed out waiting for every reminder: {} of {GAMES}; without one: {rows:?}; \
                 pending: {:?}; leases: {:?}; due: {:?}",
                reminders(&fake),
                store.outbox_pending().await.unwrap(),
                store.leases().await.unwrap(),
                store.due_games(i64::MAX).await.unwrap(),
            );
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drained(&store, "the storm").await;
    for &t in threads.iter().filter(|&&t| t != thread) {
        assert_eq!(made_in(&fake, t, reminder), 1, "thread {t}");
    }
    let moved_reminded = made_in(&fake, thread, reminder);
    let cs = fake.chaos_stats();
    assert!(cs.e429 > 0, "no route said 429: {cs:?}");
    let stats = store.outbox_stats().await.unwrap();
    if moved_reminded == 0 {
        let outcome: String =
            sqlx::query_scalar("SELECT outcome FROM outbox WHERE game_id = $1 AND priority = $2")
                .bind(game)
                .bind(hexmeros::host::REMINDER)
                .fetch_one(store.writer())
                .await
                .unwrap();
        assert!(outcome.starts_with("outlived"), "{outcome}");
        assert_eq!(stats.dropped, 1, "{stats:?}");
    } else {
        assert_eq!(moved_reminded, 1);
        assert_eq!(stats.dropped, 0, "{stats:?}");
    }
    eprintln!(
        "{GAMES} reminders, {sent_before_ping} before the ping; fake: {cs:?}; outbox: {stats:?}"
    );
    store.close().await;
}
