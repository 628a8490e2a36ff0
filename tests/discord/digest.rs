//! The daily digest end to end (issue 49, `/hexmeros notify digest`): the real bot on the test
//! clock sends it at the hour each user chose in their zone, not in their quiet hours (it comes
//! when they end), not when there is nothing to say; the setting survives a restart; a 500 and
//! a kill after Discord made it leave one digest; two
//! processes on one database (PostgreSQL in CI's second pass) send each digest once.

use hexmeros_testkit::{bot, fake_discord};

use serde_json::{Value, json};

use bot::*;
use fake_discord::FakeDiscord as F;
use hexmeros::store::Store;

/// 2026-01-01 05:00 UTC on the test clock.
const FIVE: i64 = START_MS + 5 * HOUR_MS;
/// The day's 07:00, 07:30 and 08:00 UTC.
const SEVEN: i64 = START_MS + 7 * HOUR_MS;
const HALF_PAST: i64 = SEVEN + HOUR_MS / 2;
const EIGHT: i64 = START_MS + 8 * HOUR_MS;
const DAY: i64 = 24 * HOUR_MS;

const TITLE: &str = "📬 your daily digest";

/// `/hexmeros <command>` with `options`, as `user`: the private answer.
async fn ask(fake: &F, user: u64, command: &str, options: Value) -> String {
    let r = hx(fake, user, F::CHANNEL_ID, command, options).await;
    assert!(is_private(&r), "{r:?}");
    content(&r)
}

/// `user`'s zone (UTC), quiet hours if any, and digest hour.
async fn digest_at(fake: &F, user: u64, quiet: Option<(&str, &str)>, hour: &str) -> String {
    let mut opts = vec![str_opt("time_zone", "UTC")];
    if let Some((from, to)) = quiet {
        opts.extend([str_opt("quiet_from", from), str_opt("quiet_to", to)]);
    }
    ask(fake, user, "settings", json!(opts)).await;
    ask(fake, user, "notify", json!([str_opt("digest", hour)])).await
}

/// The digests Discord made for `user`.
fn digests(fake: &F, user: u64) -> Vec<String> {
    let Some(dm) = fake.dm_channel(user) else {
        return Vec::new();
    };
    (fake.made().into_iter())
        .filter(|m| m.channel == dm && m.content.starts_with(TITLE))
        .map(|m| m.content)
        .collect()
}

/// A HexDame game of `first` (to move) and `second`, in the test channel.
async fn dame(fake: &F, first: u64, second: u64) -> (i64, u64) {
    let game = json!({"type": 4, "name": "game", "value": 1});
    start_game_in(fake, F::CHANNEL_ID, &[first, second], vec![game]).await
}

/// Waits until `ok` holds of the store's rows (read afresh each time), at most [`T`].
async fn until_stored<F2, Fut>(what: &str, url: &str, mut ok: F2)
where
    F2: FnMut(Store) -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let store = Store::open(url).await.unwrap();
    let end = tokio::time::Instant::now() + T;
    while !ok(store.clone()).await {
        assert!(
            tokio::time::Instant::now() < end,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// When `user`'s next digest is due, as stored.
async fn next_at(store: &Store, user: u64) -> Option<i64> {
    let row = store.player_settings(user as i64).await.unwrap();
    row.and_then(|r| r.digest_next_at)
}

/// Waits until `user`'s next digest is due at `at`.
async fn until_next(bot: &Bot, user: u64, at: i64) {
    let what = format!("user {user}'s next digest at {at}");
    until_stored(&what, &bot.db_url(), |s| async move {
        next_at(&s, user).await == Some(at)
    })
    .await;
}

/// Waits until the outbox has nothing left to deliver.
async fn until_delivered(bot: &Bot) {
    until_stored("the outbox to drain", &bot.db_url(), |s| async move {
        s.outbox_pending().await.unwrap().is_empty()
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_digest_comes_at_the_chosen_hour_not_in_quiet_hours_nor_with_nothing_to_say() {
    let fake = F::start().await;
    let mut bot = Bot::start(&fake).await;
    bot.set_clock(FIVE);
    // User 1 at 07:00 but quiet until 07:30; user 2 at 07:00 with nothing waiting on them;
    // user 3 at 08:00.
    let saved = digest_at(&fake, u(1), Some(("22:00", "07:30")), "7").await;
    assert!(saved.starts_with("saved"), "{saved}");
    assert!(
        saved.contains("a daily digest by direct message: at 07:00 your time"),
        "{saved}"
    );
    digest_at(&fake, u(2), None, "07:00").await;
    let saved = digest_at(&fake, u(3), None, "8am").await;
    assert!(saved.contains("at 08:00 your time"), "{saved}");
    let (g1, thread1) = dame(&fake, u(1), u(2)).await;
    let (g2, _) = dame(&fake, u(3), u(4)).await;
    // The settings survive a restart.
    bot.restart(&fake).await;
    let shown = ask(&fake, u(1), "notify", json!([])).await;
    assert!(shown.contains("at 07:00 your time"), "{shown}");

    // 07:00: user 1's is put off to the end of their quiet hours; user 2's has nothing to say
    // and waits for tomorrow; nothing is sent.
    bot.set_clock(SEVEN);
    until_next(&bot, u(1), HALF_PAST).await;
    until_next(&bot, u(2), SEVEN + DAY).await;
    until_delivered(&bot).await;
    assert_eq!(digests(&fake, u(1)), Vec::<String>::new(), "quiet hours");
    assert_eq!(digests(&fake, u(2)), Vec::<String>::new(), "nothing to say");

    // 07:30: user 1's comes, with their turn and a link to the thread; user 3's hour has not.
    bot.set_clock(HALF_PAST);
    until("user 1's digest", || digests(&fake, u(1)).len() == 1).await;
    let text = &digests(&fake, u(1))[0];
    assert!(
        text.contains(&format!("HexDame #{g1}: your turn")),
        "{text}"
    );
    let link = format!("https://discord.com/channels/{}/{thread1}", F::GUILD_ID);
    assert!(text.contains(&link), "{text}");
    assert!(
        !text.contains(&format!("#{g2}")),
        "not user 3's game: {text}"
    );
    // The next is tomorrow's 07:00, put off to 07:30 again.
    until_next(&bot, u(1), HALF_PAST + DAY).await;
    until_delivered(&bot).await;
    assert_eq!(digests(&fake, u(3)), Vec::<String>::new(), "before 08:00");

    bot.set_clock(EIGHT);
    until("user 3's digest", || digests(&fake, u(3)).len() == 1).await;
    assert!(digests(&fake, u(3))[0].contains(&format!("HexDame #{g2}: your turn")));
    until_delivered(&bot).await;
    let counts: Vec<usize> = (1..=4).map(|n| digests(&fake, u(n)).len()).collect();
    assert_eq!(counts, [1, 0, 1, 0]);
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_digest_hours_are_refused_privately_and_change_nothing() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    // No time zone yet: refused, with what to do.
    let no_zone = ask(&fake, u(5), "notify", json!([str_opt("digest", "8")])).await;
    assert!(no_zone.contains("give your time zone first"), "{no_zone}");
    ask(
        &fake,
        u(5),
        "settings",
        json!([str_opt("time_zone", "UTC")]),
    )
    .await;
    ask(&fake, u(5), "notify", json!([str_opt("digest", "19:30")])).await;
    for (typed, says) in [("25", "no hour of the day"), ("tea time", "not a time")] {
        let answer = ask(&fake, u(5), "notify", json!([str_opt("digest", typed)])).await;
        assert!(answer.contains(says), "{typed}: {answer}");
        let shown = ask(&fake, u(5), "notify", json!([])).await;
        assert!(
            shown.contains("at 19:30 your time"),
            "{typed} changed nothing: {shown}"
        );
    }
    // Off.
    let off = ask(&fake, u(5), "notify", json!([str_opt("digest", "off")])).await;
    assert!(
        off.contains("a daily digest by direct message: off"),
        "{off}"
    );
    let store = Store::open(&bot.db_url()).await.unwrap();
    assert_eq!(next_at(&store, u(5)).await, None);
    // `/hexmeros settings` shows the digest; clearing the settings forgets it too, and says so.
    ask(&fake, u(5), "notify", json!([str_opt("digest", "6pm")])).await;
    let shown = ask(&fake, u(5), "settings", json!([])).await;
    assert!(
        shown.contains("📬 a daily digest at 18:00 your time"),
        "{shown}"
    );
    let cleared = ask(&fake, u(5), "settings", json!([bool_opt("clear", true)])).await;
    assert!(
        cleared.contains("your /hexmeros notify choices with them"),
        "{cleared}"
    );
    assert!(!cleared.contains("daily digest at"), "{cleared}");
    assert_eq!(next_at(&store, u(5)).await, None);
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_digest_survives_a_500_and_a_kill_after_discord_made_it_and_comes_once() {
    let fake = F::start().await;
    let mut bot = Bot::start(&fake).await;
    bot.set_clock(FIVE);
    digest_at(&fake, u(1), None, "07:00").await;
    dame(&fake, u(1), u(2)).await;
    // The digest's first try is answered 500; the second is made by Discord, but its answer
    // never comes back before the bot is killed.
    let path = format!("/channels/{}/messages", fake.open_dm(u(1)));
    fake.fail_next("POST", &path, 500, None, 1);
    fake.hang_next_after_doing("POST", &path, std::time::Duration::from_secs(30), 1);
    bot.set_clock(SEVEN);
    until("the digest made", || digests(&fake, u(1)).len() == 1).await;
    bot.kill();
    fake.clear_failures();
    bot.start_again(&fake).await;
    // The restarted bot sends it again with its nonce: Discord keeps the one it made.
    let posts = || {
        (fake.requests().iter())
            .filter(|s| s.method == "POST" && s.path == path)
            .count()
    };
    until("the digest sent again", || posts() >= 3).await;
    until_delivered(&bot).await;
    assert_eq!(digests(&fake, u(1)).len(), 1, "one digest");
    assert_clean(&fake, &bot);
}

/// How many people the two processes' test invites: enough digests due at once that the two
/// processes' timers overlap while they build them.
const INVITED: u64 = 30;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_one_database_send_each_digest_once() {
    let fake = F::start().await;
    let a = Bot::start_shards(&fake, "proc-a", 0, 0, 2).await;
    let b = a.start_beside(&fake, "proc-b", 1, 1, 2).await;
    a.set_clock(FIVE);
    b.set_clock(FIVE);
    // Thirty people asked for a digest at 07:00, each invited to a lobby of six.
    for n in 1..=INVITED {
        digest_at(&fake, u(n), None, "07:00").await;
    }
    for (k, five) in (1..=INVITED).collect::<Vec<_>>().chunks(5).enumerate() {
        let starter = u(100 + k as u64);
        let mut opts = vec![user_opt("p1", starter)];
        opts.extend(
            (2..)
                .zip(five)
                .map(|(i, &n)| user_opt(&format!("p{i}"), u(n))),
        );
        let opened = content(&hx(&fake, starter, F::CHANNEL_ID, "start", json!(opts)).await);
        assert!(opened.contains("lobby #"), "{opened}");
    }
    for day in 0..2 {
        b.set_clock(SEVEN + day * DAY);
        a.set_clock(SEVEN + day * DAY);
        let want = day as usize + 1;
        for n in 1..=INVITED {
            until_next(&a, u(n), SEVEN + (day + 1) * DAY).await;
        }
        until_delivered(&a).await;
        let counts: Vec<usize> = (1..=INVITED).map(|n| digests(&fake, u(n)).len()).collect();
        assert_eq!(counts, vec![want; INVITED as usize], "day {day}");
        let text = &digests(&fake, u(1))[0];
        assert!(
            text.contains("lobby #") && text.contains("waiting for your Join"),
            "{text}"
        );
    }
    assert_clean(&fake, &a);
    assert_clean(&fake, &b);
}
