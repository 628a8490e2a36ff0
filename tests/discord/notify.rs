//! A direct message on your turn (issue 49, `/hexmeros notify turn`): shown and set privately,
//! kept across a restart, sent once per turn through the outbox (also when the bot is killed
//! after Discord made the message but before the bot heard), to those who asked only; bad input
//! changes nothing.

use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{bot, fake_discord};

use std::time::Duration;

use serde_json::{Value, json};

use bot::*;
use fake_discord::FakeDiscord as F;

/// The DMs Discord made for `user` saying it is their turn in `game`.
fn turn_dms(fake: &F, user: u64, game: i64) -> usize {
    dms_saying(fake, user, &format!("your turn in HexDame #{game}"))
}

/// The DMs Discord made for `user` whose text contains `needle`.
fn dms_saying(fake: &F, user: u64, needle: &str) -> usize {
    fake.dm_channel(user)
        .map_or(0, |dm| made_in(fake, dm, needle))
}

/// `/hexmeros notify` with `options`, as `user`: the private answer.
async fn notify(fake: &F, user: u64, options: Value) -> String {
    let r = hx(fake, user, F::CHANNEL_ID, "notify", options).await;
    assert!(is_private(&r), "{r:?}");
    content(&r)
}

/// The options of a move `mv` passed at once.
fn moving(mv: &str) -> Value {
    json!([str_opt("from", mv), bool_opt("pass", true)])
}

/// A HexDame game of users 1 (to move first) and 2, in the test channel.
async fn dame(fake: &F) -> (i64, u64) {
    let game = json!({"type": 4, "name": "game", "value": 1});
    start_game_in(fake, F::CHANNEL_ID, &[u(1), u(2)], vec![game]).await
}

async fn first_move(bot: &Bot, game: i64) -> String {
    bot.state(game).await.rules().legal_moves()[0].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_dm_arrives_once_per_turn_also_after_a_kill_between_commit_and_send() {
    let fake = F::start().await;
    let mut bot = Bot::start(&fake).await;
    let shown = notify(&fake, u(2), json!([])).await;
    assert!(shown.starts_with("your notifications"), "{shown}");
    assert!(shown.contains("a direct message too: off"), "{shown}");
    let saved = notify(&fake, u(2), json!([bool_opt("turn", true)])).await;
    assert!(saved.starts_with("saved"), "{saved}");
    assert!(saved.contains("a direct message too: on"), "{saved}");
    let (game, thread) = dame(&fake).await;

    // Silver moves: the Token comes to user 2, by DM too, with a link to the game's thread.
    let mv = first_move(&bot, game).await;
    hx(&fake, u(1), thread, "move", moving(&mv)).await;
    until("user 2's DM", || turn_dms(&fake, u(2), game) == 1).await;
    let dm = fake.dm_channel(u(2)).unwrap();
    let made = fake.made();
    let text = &made.iter().find(|m| m.channel == dm).unwrap().content;
    let link = format!("https://discord.com/channels/{}/{thread}", F::GUILD_ID);
    assert!(text.contains(&link), "{text}");
    // User 1 did not ask: none for them.
    let mv = first_move(&bot, game).await;
    hx(&fake, u(2), thread, "move", moving(&mv)).await;
    assert_eq!(turn_dms(&fake, u(1), game), 0);

    // The next DM is made by Discord, but its answer never comes back before the bot is killed.
    let path = format!("/channels/{dm}/messages");
    fake.hang_next_after_doing("POST", &path, Duration::from_secs(30), 1);
    let mv = first_move(&bot, game).await;
    let _ = fake
        .slash(u(1), thread, "hexmeros", sub("move", moving(&mv)))
        .await;
    until("the second DM made", || turn_dms(&fake, u(2), game) == 2).await;
    bot.kill();
    fake.clear_failures();
    bot.start_again(&fake).await;
    // The restarted bot sends the DM again, with its nonce: Discord keeps the one it made.
    let posts = || {
        fake.requests()
            .iter()
            .filter(|s| s.method == "POST" && s.path == path)
            .count()
    };
    until("the DM sent again", || posts() >= 3).await;
    assert_eq!(turn_dms(&fake, u(2), game), 2, "one DM per turn");
    assert_eq!(bot.state(game).await.record().len(), 3);
    // The setting survived the restart.
    let shown = notify(&fake, u(2), json!([])).await;
    assert!(shown.contains("a direct message too: on"), "{shown}");
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notify_with_bad_input_is_refused_and_changes_nothing() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    notify(&fake, u(3), json!([bool_opt("turn", true)])).await;
    // A forged option: text where Discord sends a boolean.
    let i = fake
        .slash(
            u(3),
            F::CHANNEL_ID,
            "hexmeros",
            sub("notify", json!([str_opt("turn", "off")])),
        )
        .await;
    acked(&fake, &i).await;
    let answer = followup(&fake, &i).await;
    assert!(is_private(&answer), "{answer:?}");
    assert!(
        content(&answer).starts_with("⚠️ I could not read that"),
        "{answer:?}"
    );
    let shown = notify(&fake, u(3), json!([])).await;
    assert!(shown.contains("a direct message too: on"), "{shown}");
    // Another user's choices are their own: user 4 sees theirs, untouched.
    let theirs = notify(&fake, u(4), json!([])).await;
    assert!(theirs.contains("a direct message too: off"), "{theirs}");
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_dm_is_tried_once_turned_off_and_said_in_the_thread_once() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    notify(&fake, u(2), json!([bool_opt("turn", true)])).await;
    fake.close_dms(u(2));
    let (game, thread) = dame(&fake).await;
    let refused = || {
        fake.requests()
            .iter()
            .filter(|s| s.method == "POST" && s.status == 403)
            .count()
    };
    let said = || {
        fake.messages(thread)
            .iter()
            .filter(|m| content(m).contains("direct messages are closed to me"))
            .count()
    };
    // Two turns of user 2's: the first DM is refused and said in the thread; the second is not
    // tried at all.
    for _ in 0..2 {
        let mv = first_move(&bot, game).await;
        hx(&fake, u(1), thread, "move", moving(&mv)).await;
        until("the notice", || said() == 1).await;
        let mv = first_move(&bot, game).await;
        hx(&fake, u(2), thread, "move", moving(&mv)).await;
    }
    let notice = fake
        .messages(thread)
        .into_iter()
        .find(|m| content(m).contains("direct messages are closed to me"))
        .unwrap();
    assert!(
        content(&notice).contains(&format!("<@{}>", u(2))),
        "{notice:?}"
    );
    // Everything the moves made is delivered (or dropped) before counting what was not sent.
    let store = hexmeros::store::Store::open(&bot.db_url()).await.unwrap();
    let end = tokio::time::Instant::now() + T;
    while store.outbox_stats().await.unwrap().pending > 0 {
        assert!(
            tokio::time::Instant::now() < end,
            "the outbox is not drained"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!((refused(), said()), (1, 1), "one refusal, one notice");
    assert_eq!(bot.state(game).await.record().len(), 4);
    let shown = notify(&fake, u(2), json!([])).await;
    assert!(shown.contains("closed to me"), "{shown}");
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_last_voter_everyone_waits_on_gets_one_nudge_by_dm() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let saved = notify(&fake, u(6), json!([bool_opt("nudge", true)])).await;
    assert!(saved.contains("challenge window, but you: on"), "{saved}");
    let six: Vec<u64> = (1..=6).map(u).collect();
    let (game, thread) = start_game_in(&fake, F::CHANNEL_ID, &six, Vec::new()).await;
    let draw = |accept: u64| json!([{"type": 4, "name": "action", "value": accept}]);
    // Silver offers a draw (every vote is needed); four accept: user 6 alone is awaited.
    hx(&fake, u(1), thread, "draw", draw(0)).await;
    for p in 2..=5 {
        let r = hx(&fake, u(p), thread, "draw", draw(1)).await;
        assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    }
    let needle = format!("everyone waits on you in HexiMeros #{game}");
    let nudged = || dms_saying(&fake, u(6), &needle);
    until("user 6's nudge", || nudged() == 1).await;
    let dm = fake.dm_channel(u(6)).unwrap();
    let made = fake.made();
    let text = &made.iter().find(|m| m.channel == dm).unwrap().content;
    assert!(
        text.contains("motion #1") && text.contains(&thread.to_string()),
        "{text}"
    );
    // Nobody else was nudged.
    for p in 1..=5 {
        assert_eq!(fake.dm_channel(u(p)), None, "user {p} got a DM");
    }
    assert_clean(&fake, &bot);
}
