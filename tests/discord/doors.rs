//! Doors under attack (issue 60), against the real bot and the fake Discord: an outbox that no
//! number of refused lanes can stall, a server that removes the bot (its games paused, their
//! entries given up, their players told), a lane refused access for an hour, reminders that
//! outlived an outage, and a crowd's reactions that cost no call.

use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{bot, fake_discord};

use std::time::Duration;

use serde_json::json;
use sqlx::Row;

use bot::*;
use fake_discord::FakeDiscord as F;
use hexmeros::host::Status;
use hexmeros::store::{NewEntry, Store};

/// A HexDame game of users `a` (to move first) and `b` in `channel`.
async fn dame_in(fake: &F, channel: u64, a: u64, b: u64) -> (i64, u64) {
    let game = json!({"type": 4, "name": "game", "value": 1});
    start_game_in(fake, channel, &[a, b], vec![game]).await
}

/// Games in `threads` (of a server the test made), written straight into the bot's database
/// with nothing but what delivering words to their threads needs, each with one word waiting
/// in its lane: the lanes, as Discord refuses them, fill the outbox.
async fn waiting_lanes(bot: &Bot, guild: u64, parent: u64, threads: &[u64]) {
    let store = Store::open(&bot.db_url()).await.unwrap();
    let pool = store.writer().clone();
    let mut entries = Vec::new();
    for &thread in threads {
        let row = sqlx::query(
            "INSERT INTO games (kind, status, version, setup, house_rules, channel, created_at, \
             updated_at) VALUES ('hexdame', 20, 1, '{}', '{}', $1, $2, $2) RETURNING id",
        )
        .bind(thread.to_string())
        .bind(START_MS)
        .fetch_one(&pool)
        .await
        .unwrap();
        let game: i64 = row.try_get(0).unwrap();
        sqlx::query(
            "INSERT INTO discord_games (game_id, guild_id, parent_id, thread_id) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(game)
        .bind(guild as i64)
        .bind(parent as i64)
        .bind(thread as i64)
        .execute(&pool)
        .await
        .unwrap();
        entries.push(NewEntry {
            lane: format!("g{game}"),
            game: Some(game),
            version: Some(1),
            priority: hexmeros::host::NORMAL,
            body: json!({"Say": {"game": game, "text": ["a word for the table"]}}).to_string(),
        });
    }
    store.enqueue(&entries, START_MS).await.unwrap();
    store.close().await;
}

/// How many of `threads` Discord refused a message with 403.
fn refused(fake: &F, threads: &[u64]) -> usize {
    let set: std::collections::HashSet<String> = threads
        .iter()
        .map(|t| format!("/channels/{t}/messages"))
        .collect();
    let hit: std::collections::HashSet<String> = fake
        .requests()
        .into_iter()
        .filter(|s| s.method == "POST" && s.status == 403 && set.contains(&s.path))
        .map(|s| s.path)
        .collect();
    hit.len()
}

/// The pending outbox entries of `lane`.
async fn pending_in(store: &Store, lane: &str) -> usize {
    store
        .outbox_pending()
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.lane == lane)
        .count()
}

/// Waits until `ok` (a question to the database) holds, for at most `T`.
async fn eventually<Fut: std::future::Future<Output = bool>>(
    what: &str,
    mut ok: impl FnMut() -> Fut,
) {
    let deadline = tokio::time::Instant::now() + T;
    while !ok().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The DMs Discord made for `user` whose text contains `needle`.
fn dms_saying(fake: &F, user: u64, needle: &str) -> usize {
    fake.dm_channel(user)
        .map_or(0, |dm| made_in(fake, dm, needle))
}

/// 300 lanes of a server that took the bot's access away (each refused with 403, waiting ten
/// minutes to be tried again) ahead of a healthy game's reminder, which is less urgent than
/// any of them: the reminder is posted all the same. The deliverer used to read the first 256
/// lanes' heads only, all waiting, and never came to it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_hundred_refused_lanes_leave_a_healthy_games_reminder_its_place() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, thread) = dame_in(&fake, F::CHANNEL_ID, u(1), u(2)).await;

    // Just before the Token holder's 4-hour reminder, a server with 300 games loses the bot's
    // access (a permission taken away: Discord says nothing until a call is refused).
    bot.set_clock(START_MS + 4 * HOUR_MS - 5 * 60_000);
    let guild = F::guild_on_shard(0, 1, 0);
    let parent = fake.add_guild(guild);
    let threads = fake.add_threads(guild, parent, 300);
    fake.forbid_guild(guild);
    waiting_lanes(&bot, guild, parent, &threads).await;
    until_within(
        "every refused lane tried once",
        Duration::from_secs(90),
        || refused(&fake, &threads) == threads.len(),
    )
    .await;

    // Six minutes on (the refused lanes wait ten): the reminder is due, and goes out.
    let before = fake.messages(thread).len();
    bot.set_clock(START_MS + 4 * HOUR_MS + 60_000);
    wait_message(&fake, thread, before, "for 4 hours").await;
    assert_ne!(bot.state(game).await.status(), Status::Paused);
    // The refused lanes still wait, each tried once: not given up, nor tried again early.
    let store = Store::open(&bot.db_url()).await.unwrap();
    let waiting = store
        .outbox_pending()
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.attempts == 1 && e.blocked_at.is_some())
        .count();
    assert_eq!(waiting, threads.len());
    let posts = fake
        .requests()
        .iter()
        .filter(|s| s.method == "POST" && s.status == 403 && s.path.ends_with("/messages"))
        .filter(|s| {
            threads
                .iter()
                .any(|t| s.path == format!("/channels/{t}/messages"))
        })
        .count();
    assert_eq!(posts, threads.len(), "tried once each");
}

/// A server removes the bot while a move's board waits to be posted there: Discord says so on
/// the gateway (GUILD_DELETE, which the bot hears with the GUILDS intent), and the game is
/// paused at once (no clock runs while nobody can see it), what waited for its thread is given
/// up, and both players are told by DM where the game stands. A game in another server goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_removes_the_bot_has_its_games_paused_and_their_players_told() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (other, other_thread) = dame_in(&fake, F::CHANNEL_ID, u(3), u(4)).await;
    let guild = F::guild_on_shard(0, 1, 0);
    let parent = fake.add_guild(guild);
    let (game, thread) = dame_in(&fake, parent, u(1), u(2)).await;
    let store = Store::open(&bot.db_url()).await.unwrap();

    // Access goes first (the board of the next move is refused and waits), then the bot.
    fake.forbid_guild(guild);
    let mv = bot.state(game).await.rules().legal_moves()[0].clone();
    hx(
        &fake,
        u(1),
        thread,
        "move",
        json!([str_opt("from", &mv), bool_opt("pass", true)]),
    )
    .await;
    until_within("the board refused", T, || refused(&fake, &[thread]) == 1).await;
    assert!(pending_in(&store, &format!("g{game}")).await > 0);
    fake.remove_bot(guild);

    until_within("the game paused", T, || {
        dms_saying(&fake, u(1), "is paused") == 1 && dms_saying(&fake, u(2), "is paused") == 1
    })
    .await;
    let state = bot.state(game).await;
    assert_eq!(state.status(), Status::Paused, "{}", bot.log());
    assert_eq!(state.record().len(), 1, "the move played is kept");
    eventually("its lane given up", || async {
        pending_in(&store, &format!("g{game}")).await == 0
    })
    .await;
    let dm = fake.dm_channel(u(1)).unwrap();
    let told = fake
        .messages(dm)
        .into_iter()
        .map(|m| content(&m))
        .find(|t| t.contains("is paused"))
        .unwrap();
    assert!(told.contains("I was removed from the server"), "{told}");
    assert!(
        told.contains(&format!("/hexmeros admin resume game:{game}")),
        "{told}"
    );
    // Nobody else is told, and the game elsewhere goes on.
    assert_eq!(dms_saying(&fake, u(3), "is paused"), 0);
    assert_ne!(bot.state(other).await.status(), Status::Paused);
    let mv = bot.state(other).await.rules().legal_moves()[0].clone();
    let before = fake.messages(other_thread).len();
    hx(
        &fake,
        u(3),
        other_thread,
        "move",
        json!([str_opt("from", &mv), bool_opt("pass", true)]),
    )
    .await;
    wait_message(&fake, other_thread, before, &format!("played {mv}")).await;
}

/// A game's thread refused for lack of access (a permission taken away, Discord telling nothing
/// on the gateway): its entries are tried again and again (every sixth of the bound, at most
/// every ten minutes), and once it has been refused for the bound (an hour by default, 6 s
/// here) the game is paused, its players told by DM and its lane given up, so that no lane
/// waits for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_refused_for_long_enough_has_its_game_paused_and_its_lane_given_up() {
    let fake = F::start().await;
    let bot = Bot::start_with(&fake, None, &[("HEXMEROS_ACCESS_GIVE_UP_MS", "6000")]).await;
    let guild = F::guild_on_shard(0, 1, 0);
    let parent = fake.add_guild(guild);
    let (game, thread) = dame_in(&fake, parent, u(1), u(2)).await;
    let store = Store::open(&bot.db_url()).await.unwrap();
    fake.forbid_guild(guild);
    let mv = bot.state(game).await.rules().legal_moves()[0].clone();
    hx(
        &fake,
        u(1),
        thread,
        "move",
        json!([str_opt("from", &mv), bool_opt("pass", true)]),
    )
    .await;
    let posts = format!("/channels/{thread}/messages");
    let refusals = || {
        fake.requests()
            .into_iter()
            .filter(|s| s.path == posts && s.status == 403)
            .collect::<Vec<_>>()
    };
    until_within("the board refused", T, || !refusals().is_empty()).await;
    assert!(pending_in(&store, &format!("g{game}")).await > 0);
    until_within("the game paused", Duration::from_secs(30), || {
        dms_saying(&fake, u(1), "is paused") == 1 && dms_saying(&fake, u(2), "is paused") == 1
    })
    .await;
    eventually("its lane given up", || async {
        pending_in(&store, &format!("g{game}")).await == 0
    })
    .await;
    assert_eq!(bot.state(game).await.status(), Status::Paused);
    // Not before the bound, and after more than one try.
    let tries = refusals();
    assert!(tries.len() >= 2, "{} tries", tries.len());
    let dm = fake.dm_channel(u(1)).unwrap();
    let told = fake
        .messages(dm)
        .into_iter()
        .find(|m| content(m).contains("is paused"))
        .unwrap();
    assert!(
        told.at.duration_since(tries[0].at) >= Duration::from_secs(6),
        "paused {:?} after the first refusal",
        told.at.duration_since(tries[0].at)
    );
    assert!(
        content(&told).contains("it refused me for 6 seconds: Missing Access"),
        "{}",
        content(&told)
    );
}

/// Discord down for an hour across a reminder: when it answers again the reminder, now an hour
/// late, is not posted as if fresh (it is dropped, with the reason kept); the game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_that_outlived_an_outage_is_not_sent_as_fresh() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, thread) = dame_in(&fake, F::CHANNEL_ID, u(1), u(2)).await;
    fake.set_outage(true);
    bot.set_clock(START_MS + 4 * HOUR_MS + 60_000);
    let lane = format!("g{game}");
    let store = Store::open(&bot.db_url()).await.unwrap();
    let tried = |store: &Store| {
        let store = store.clone();
        let lane = lane.clone();
        async move {
            store
                .outbox_pending()
                .await
                .unwrap()
                .iter()
                .any(|e| e.lane == lane && e.attempts > 0)
        }
    };
    eventually("the reminder tried and waiting", || tried(&store)).await;
    bot.set_clock(START_MS + 5 * HOUR_MS + 2 * 60_000);
    fake.set_outage(false);
    eventually("the reminder dropped", || async {
        pending_in(&store, &lane).await == 0
    })
    .await;
    let outcome: String = sqlx::query(
        "SELECT outcome FROM outbox WHERE lane = $1 AND priority = $2 ORDER BY id DESC LIMIT 1",
    )
    .bind(&lane)
    .bind(hexmeros::host::REMINDER)
    .fetch_one(store.writer())
    .await
    .unwrap()
    .try_get(0)
    .unwrap();
    assert!(outcome.starts_with("outlived"), "{outcome}");
    assert_eq!(made_in(&fake, thread, "for 4 hours"), 0);
    assert_ne!(bot.state(game).await.status(), Status::Paused);
}

/// 500 reactions by strangers on a turn message cost the bot no call at all (they used to be
/// removed one urgent call each, and a move's board then waited behind them); the Token
/// holder's ✅ still passes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowds_reactions_cost_no_call_and_the_holders_still_acts() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, thread) = dame_in(&fake, F::CHANNEL_ID, u(1), u(2)).await;
    let (turn, _) = turn_message(&fake, thread);
    for n in 0..500u64 {
        // Users 3.. are members who do not play; a few emoji, the bot's own among them.
        let emoji = ["✅", "↩️", "🔄", "🎉"][(n % 4) as usize];
        fake.react(u(3 + n % 40), thread, turn, emoji).await;
    }
    // The holder stages a move and passes by reaction: the bot hears every reaction in order,
    // so once the pass is told every stranger's reaction was heard before it.
    let mv = bot.state(game).await.rules().legal_moves()[0].clone();
    let staged = hx(&fake, u(1), thread, "move", json!([str_opt("from", &mv)])).await;
    assert!(is_private(&staged), "{staged:?}");
    let (turn, _) = turn_message(&fake, thread);
    let before = fake.messages(thread).len();
    fake.react(u(1), thread, turn, "✅").await;
    wait_message(&fake, thread, before, &format!("played {mv}")).await;
    let removals = || {
        fake.requests()
            .iter()
            .filter(|s| s.method == "DELETE" && s.path.contains("/reactions/"))
            .count()
    };
    // The holder's own is removed, later and at the lowest priority; nobody else's.
    until("the holder's reaction removed", || removals() == 1).await;
    assert_eq!(bot.state(game).await.record().len(), 1);
    assert_clean(&fake, &bot);
}

/// A member who left a server (or was banned from it) reaches its games from nowhere: their
/// `away` reason, sent from another server, goes to the threads of the servers they are still
/// in only, and there as the words they wrote (a masked link shows as text, not as a link);
/// from a DM with the bot, that server's game is as unknown as any other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_who_left_a_server_posts_nothing_there_and_their_words_show_as_written() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (here, here_thread) = dame_in(&fake, F::CHANNEL_ID, u(1), u(2)).await;
    let guild = F::guild_on_shard(0, 1, 0);
    let parent = fake.add_guild(guild);
    let (there, there_thread) = dame_in(&fake, parent, u(1), u(3)).await;
    fake.remove_member(guild, u(1));

    let reason = "[free nitro](https://e.example) **now**";
    let before = (
        fake.messages(here_thread).len(),
        fake.messages(there_thread).len(),
    );
    let answer = hx(
        &fake,
        u(1),
        F::CHANNEL_ID,
        "away",
        json!([str_opt("duration", "1d"), str_opt("reason", reason)]),
    )
    .await;
    let answer = content(&answer);
    assert!(
        answer.contains("you are no longer in the server this game is played in"),
        "{answer}"
    );
    let told = wait_message(&fake, here_thread, before.0, "is away until").await;
    let told = content(&told);
    assert!(
        told.contains(r"\[free nitro\]\(https\://e.example\) \*\*now\*\*"),
        "{told}"
    );
    assert!(!told.contains("[free nitro](https"), "{told}");
    // The other server's thread was told nothing, and its game is as it was.
    let there_said: Vec<String> = fake.messages(there_thread)[before.1..]
        .iter()
        .map(content)
        .collect();
    assert!(
        there_said.iter().all(|m| !m.contains("away")),
        "{there_said:?}"
    );
    assert!(
        bot.state(there)
            .await
            .away(hexmeros::games::Seat(0))
            .is_none()
    );
    assert!(
        bot.state(here)
            .await
            .away(hexmeros::games::Seat(0))
            .is_some()
    );

    // From a DM, the game of the server they left is unknown; their other game is not.
    let dm = fake.open_dm(u(1));
    for (game, known) in [(there, false), (here, true)] {
        let r = hx(
            &fake,
            u(1),
            dm,
            "board",
            json!([{"type": 4, "name": "game", "value": game}]),
        )
        .await;
        let text = content(&r);
        assert_eq!(
            text.contains(&format!("there is no game #{game}")),
            !known,
            "game #{game}: {text}"
        );
    }
}
