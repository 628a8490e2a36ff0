#![allow(clippy::unwrap_used)]
//! What the load benchmark (`benches/scale.rs`) stands on: the seeded games are whole games of
//! the store (each loads and is where its template left it, with its own players and thread
//! link), on SQLite and, with `HEXMEROS_TEST_POSTGRES`, PostgreSQL; the fake's bulk threads take
//! posts; its tap sees every call as recorded; the real bot answers a move in a seeded game.

use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{bot, db, fake_discord, scale};

use std::sync::Arc;
use std::time::Duration;

use fake_discord::FakeDiscord as F;
use hexmeros::games::GameKind;
use hexmeros::host::{GameHost, SystemClock};
use hexmeros::store::Store;
use serenity::all::{CreateMessage, HttpBuilder};
use sqlx::Row;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeded_games_load_where_their_templates_left_them_each_with_its_players_and_thread() {
    let (duels, meros) = scale::templates(2, 7).await.unwrap();
    assert_eq!((duels.len(), meros.len()), (2, 2));
    assert!(
        meros.iter().all(|t| t.events() >= 300),
        "HexiMeros logs of 300+ events"
    );
    assert!(duels.iter().all(|t| t.events() >= 30));

    let fake = F::start().await;
    let servers = scale::servers(&fake);
    let threads = scale::make_threads(&fake, &servers, 7);
    let db = db::TestDb::new().await;
    // The bot's migrations, as `serve` would run them.
    Store::open(&db.url).await.unwrap().close().await;
    let games = scale::seed(&db.url, &servers, &threads, &duels, &meros, (5, 2))
        .await
        .unwrap();
    assert_eq!(games.len(), 7);

    let store = Store::open(&db.url).await.unwrap();
    let host = GameHost::new(store.clone(), Arc::new(SystemClock));
    let mut players = std::collections::HashSet::new();
    for (n, g) in games.iter().enumerate() {
        let st = host.state(g.id).await.unwrap();
        let (kind, template) = if n < 5 {
            (GameKind::HexDame, &duels[n % 2])
        } else {
            (GameKind::HexiMeros, &meros[(n - 5) % 2])
        };
        assert_eq!(st.kind(), kind, "game #{}", g.id);
        assert_eq!(st.version() as usize, template.events(), "game #{}", g.id);
        assert_eq!(
            st.rules().to_json(),
            template.position.to_json(),
            "game #{}",
            g.id
        );
        let seated: Vec<u64> = st.seats().iter().map(|s| s.player as u64).collect();
        assert_eq!(seated, g.players, "game #{}", g.id);
        for p in &seated {
            assert!(players.insert(*p), "player {p} seated twice");
        }
        let link = sqlx::query("SELECT guild_id, thread_id FROM discord_games WHERE game_id = $1")
            .bind(g.id)
            .fetch_one(store.writer())
            .await
            .unwrap();
        assert_eq!(link.get::<i64, _>(1) as u64, threads[n]);
        assert_eq!(link.get::<i64, _>(0) as u64, servers[n % 4].0);
        assert_eq!(g.shard, F::shard_of(servers[n % 4].0, 4));
    }
    assert_eq!(host.active_games().await.unwrap(), 7);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bulk_threads_take_posts_and_the_tap_sees_every_call() {
    let fake = F::start().await;
    let channel = fake.add_guild_channel(F::GUILD_ID, "games");
    let threads = fake.add_threads(F::GUILD_ID, channel, 3);
    assert_eq!(threads.len(), 3);
    assert_eq!(
        threads
            .iter()
            .collect::<std::collections::HashSet<_>>()
            .len(),
        3
    );
    let mut tap = fake.tap();
    let http = HttpBuilder::new("fake-token")
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    for &t in &threads {
        serenity::all::ChannelId::new(t)
            .send_message(&http, CreateMessage::new().content(format!("hello {t}")))
            .await
            .unwrap();
    }
    for &t in &threads {
        let s = tokio::time::timeout(Duration::from_secs(5), tap.recv())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(s.path, format!("/channels/{t}/messages"));
        assert_eq!(s.status, 200);
        assert_eq!(bot::content(&s), format!("hello {t}"));
        assert_eq!(fake.messages(t).len(), 1);
    }
    assert!(fake.unexpected().is_empty(), "{:?}", fake.unexpected());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_answers_a_move_in_a_seeded_game_in_its_thread() {
    let (duels, meros) = scale::templates(1, 3).await.unwrap();
    let fake = F::start().await;
    let servers = scale::servers(&fake);
    let threads = scale::make_threads(&fake, &servers, 4);
    let bot = bot::Bot::start(&fake).await;
    let games = scale::seed(&bot.db_url(), &servers, &threads, &duels, &meros, (4, 0))
        .await
        .unwrap();
    let driver = scale::Driver::new(&fake, games);
    let mut rng = scale::Rng::new(1);
    let m = driver.send(&fake, &mut rng, |_| true).unwrap();
    driver.wait_callback(m, bot::T).await.unwrap();
    driver.settle(bot::T).await;
    let w = driver.window(0, (0, 0, 0), 1.0);
    assert_eq!((w.sent, w.committed, w.refused), (1, 1, 0), "{w:?}");
    assert!(w.board.max >= w.callback.max, "{w:?}");
    // The seeded game's panel is edited, as in a game in play (after the move's message), and
    // no new panel is posted, pinned or reacted to.
    let panel = |r: &fake_discord::Sent| {
        r.method == "PATCH"
            && threads
                .iter()
                .any(|t| r.path == format!("/channels/{t}/messages/{t}"))
    };
    fake.wait_request(bot::T, panel)
        .await
        .unwrap_or_else(|e| panic!("the seeded panel is not edited: {e}"));
    for r in fake.requests() {
        assert!(
            !r.path.contains("/pins") && !r.path.contains("/reactions"),
            "a move in a seeded game pinned or reacted: {} {}",
            r.method,
            r.path
        );
    }
}
