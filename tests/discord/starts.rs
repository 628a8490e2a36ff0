//! Starts that are never lost (issue 48), against the fake Discord: a start whose thread
//! creation fails once still starts, and a bot killed (SIGKILL) after Discord made the thread
//! but before the bot heard of it starts the game in that thread when it comes back, without a
//! second thread. A start whose thread Discord refuses for good tells its players and leaves no
//! game; one without the permission to open threads is played in the channel.

use std::time::Duration;

use hexmeros_testkit::{bot, fake_discord};
use serde_json::json;

use bot::*;
use fake_discord::FakeDiscord as F;

/// The threads of game `game` (by their name, which ends with `#<id>`).
fn threads_of(fake: &F, game: i64) -> Vec<u64> {
    let name = format!("#{game}");
    fake.threads()
        .into_iter()
        .filter(|(_, _, n)| n.ends_with(&name))
        .map(|(t, _, _)| t)
        .collect()
}

/// Whether `s` asks for a server's active threads (the whole list: long where many games run).
fn lists_threads(s: &fake_discord::Sent) -> bool {
    s.method == "GET" && s.path.ends_with("/threads/active")
}

/// A start as it should go: one thread, asked for once, and no list of the server's threads.
/// The bot's requests on Discord's global limit (not interaction answers) from the last Join to
/// the game's pinned panel are four (issue 48 aimed at five at most): the thread, the board, the
/// panel and its pin; `--nocapture` prints them.
#[tokio::test]
async fn a_start_asks_for_its_thread_without_listing_the_servers_threads() {
    let fake = F::start().await;
    let _bot = Bot::start(&fake).await;
    let hexdame = json!({"type": 4, "name": "game", "value": 1});
    let (game, thread) = start_game(&fake, &[u(1), u(2)], vec![hexdame]).await;
    wait_message(&fake, thread, 0, "you have the Token").await;
    let made = fake.requests();
    assert!(
        !made.iter().any(lists_threads),
        "a fresh start listed the server's threads"
    );
    let asked = made
        .iter()
        .filter(|s| s.method == "POST" && s.path.ends_with("/threads"))
        .count();
    assert_eq!(asked, 1);
    assert_eq!(threads_of(&fake, game), vec![thread]);
    // From the thread on (the lobby's message and the commands' registration come before).
    let from = made
        .iter()
        .position(|s| s.method == "POST" && s.path.ends_with("/threads"))
        .unwrap_or(0);
    let counted: Vec<String> = made[from..]
        .iter()
        .filter(|s| !s.path.starts_with("/interactions/") && !s.path.starts_with("/webhooks/"))
        .map(|s| format!("{} {}", s.method, s.path))
        .collect();
    eprintln!(
        "a start's requests on the global limit ({}): {counted:#?}",
        counted.len()
    );
    let messages = format!("POST /channels/{thread}/messages");
    assert_eq!(
        counted,
        [
            format!("POST /channels/{}/threads", F::CHANNEL_ID),
            messages.clone(),
            messages,
            format!("PUT /channels/{thread}/pins/{}", fake.pinned(thread)[0]),
        ],
        "the thread, the board, the panel, its pin"
    );
}

#[tokio::test]
async fn a_start_whose_thread_fails_once_still_starts_in_one_thread() {
    let fake = F::start().await;
    let _bot = Bot::start(&fake).await;
    fake.fail_next("POST", "/threads", 500, None, 1);
    let hexdame = json!({"type": 4, "name": "game", "value": 1});
    let (game, thread) = start_game(&fake, &[u(1), u(2)], vec![hexdame]).await;
    wait_message(&fake, thread, 0, "you have the Token").await;
    let tried: Vec<u16> = fake
        .requests()
        .iter()
        .filter(|s| s.method == "POST" && s.path.ends_with("/threads"))
        .map(|s| s.status)
        .collect();
    assert_eq!(tried[0], 500, "the first attempt failed: {tried:?}");
    // The retry looked for a thread the failed attempt might have made.
    assert!(fake.requests().iter().any(lists_threads));
    assert_eq!(threads_of(&fake, game), vec![thread], "one thread");
}

/// The process is killed while Discord's answer to the thread's creation is on its way (the
/// thread exists; the bot does not know it): the next process finds that thread and starts
/// the game in it.
#[tokio::test]
async fn a_start_killed_after_its_thread_was_made_starts_in_that_thread_after_a_restart() {
    let fake = F::start().await;
    let mut bot = Bot::start(&fake).await;
    let opts = json!([
        user_opt("p1", u(1)),
        user_opt("p2", u(2)),
        {"type": 4, "name": "game", "value": 1},
    ]);
    let text = content(&hx(&fake, u(1), F::CHANNEL_ID, "start", opts).await);
    let lobby = lobby_number(&text).unwrap_or_else(|| panic!("no lobby in {text:?}"));
    let join = format!("{lobby}:ljoin:0");
    let msg = wait_message(&fake, F::CHANNEL_ID, 0, &format!("#{lobby}")).await;
    // Discord makes the thread, and its answer does not come back before the kill.
    fake.hang_next_after_doing("POST", "/threads", Duration::from_secs(30), 1);
    let _ = fake
        .button(u(2), F::CHANNEL_ID, message_id(&msg), &join)
        .await;
    let deadline = tokio::time::Instant::now() + T;
    while fake.threads().is_empty() {
        assert!(tokio::time::Instant::now() < deadline, "no thread made");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    bot.kill();
    fake.clear_failures();

    bot.start_again(&fake).await;
    let (thread, _, name) = fake.threads().into_iter().next().unwrap();
    let game: i64 = name.rsplit('#').next().unwrap().parse().unwrap();
    wait_message(&fake, thread, 0, "you have the Token").await;
    assert_eq!(threads_of(&fake, game), vec![thread], "no second thread");
    assert_eq!(bot.state(game).await.record().len(), 0);
}

/// A lobby for HexDame between u(1) and u(2) in the test channel, and its Join button: the
/// lobby number, the Join's custom id and the lobby message.
async fn hexdame_lobby(fake: &F) -> (String, u64) {
    let opts = json!([
        user_opt("p1", u(1)),
        user_opt("p2", u(2)),
        {"type": 4, "name": "game", "value": 1},
    ]);
    let text = content(&hx(fake, u(1), F::CHANNEL_ID, "start", opts).await);
    let lobby = lobby_number(&text).unwrap_or_else(|| panic!("no lobby in {text:?}"));
    let msg = wait_message(fake, F::CHANNEL_ID, 0, &format!("#{lobby}")).await;
    (format!("{lobby}:ljoin:0"), message_id(&msg))
}

/// The game a started (or abandoned) game's answer names: `HexDame #<id> …`.
fn game_named(text: &str) -> i64 {
    text.split("HexDame #")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no game in {text:?}"))
}

/// Discord refuses the thread for good (Missing Access: the bot cannot see the channel, so
/// the channel cannot be told either): each player is told by DM, the last joiner's answer
/// says so, the game is aborted with nothing played, and nothing more is sent for it.
#[tokio::test]
async fn a_start_whose_thread_is_refused_for_good_tells_the_players_and_leaves_no_game() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (join, lobby_msg) = hexdame_lobby(&fake).await;
    let channel_posts = format!("/channels/{}/messages$", F::CHANNEL_ID);
    fake.refuse_next("POST", "/threads", 403, 50001, "Missing Access", 1);
    fake.refuse_next("POST", &channel_posts, 403, 50001, "Missing Access", 1);
    let i = fake.button(u(2), F::CHANNEL_ID, lobby_msg, &join).await;
    acked(&fake, &i).await;
    let text = content(&followup(&fake, &i).await);
    assert!(text.contains("could not start"), "{text}");
    let game = game_named(&text);

    // Both players are told by DM, once each, with the reason and what to do.
    for p in [u(1), u(2)] {
        let deadline = tokio::time::Instant::now() + T;
        let dm = loop {
            if let Some(dm) = fake.dm_channel(p).map(|c| fake.messages(c))
                && !dm.is_empty()
            {
                break dm;
            }
            assert!(tokio::time::Instant::now() < deadline, "{p} not told");
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert_eq!(dm.len(), 1, "{dm:?}");
        let said = content(&dm[0]);
        assert!(
            said.contains(&format!("HexDame #{game} could not start")),
            "{said}"
        );
        assert!(said.contains("Missing Access"), "{said}");
        assert!(said.contains("Create Public Threads"), "{said}");
    }
    let state = bot.state(game).await;
    assert_eq!(state.status(), hexmeros::host::Status::Aborted);
    assert_eq!(state.record().len(), 0);
    assert!(fake.threads().is_empty(), "a thread was made");
    // Nothing more is tried for the game: one thread request, no panel, no board, anywhere.
    let made = fake.requests();
    let asked = made
        .iter()
        .filter(|s| s.method == "POST" && s.path.ends_with("/threads"))
        .count();
    assert_eq!(asked, 1, "the thread was asked for again");
    assert!(
        !made.iter().any(|s| s.path.contains("/pins")),
        "a panel was pinned"
    );
    // The players are free: the same two start again at once, in a channel that works.
    let (game2, thread) = start_game(
        &fake,
        &[u(1), u(2)],
        vec![json!({"type": 4, "name": "game", "value": 1})],
    )
    .await;
    assert_ne!(game2, game);
    wait_message(&fake, thread, 0, "you have the Token").await;
}

/// Discord refuses the thread for good where the channel can still be told (400: a channel
/// that holds no threads, such as a thread): the notice pings both players in the channel,
/// and the lobby message says the game could not start.
#[tokio::test]
async fn a_start_refused_a_thread_says_so_in_the_channel_pinging_its_players() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (join, lobby_msg) = hexdame_lobby(&fake).await;
    fake.refuse_next(
        "POST",
        "/threads",
        400,
        50024,
        "Cannot execute action on this channel type",
        1,
    );
    let seen = fake.messages(F::CHANNEL_ID).len();
    let i = fake.button(u(2), F::CHANNEL_ID, lobby_msg, &join).await;
    acked(&fake, &i).await;
    let text = content(&followup(&fake, &i).await);
    let game = game_named(&text);
    let notice = wait_message(&fake, F::CHANNEL_ID, seen, "could not start").await;
    let said = content(&notice);
    assert!(said.contains(&format!("<@{}>", u(1))), "{said}");
    assert!(said.contains(&format!("<@{}>", u(2))), "{said}");
    assert!(
        said.contains("Cannot execute action on this channel type"),
        "{said}"
    );
    let pinged = notice
        .json
        .as_ref()
        .map(|j| j["allowed_mentions"]["users"].clone());
    let pinged = pinged.unwrap_or_default();
    assert!(
        pinged.as_array().is_some_and(|a| a.len() == 2),
        "both players pinged: {pinged}"
    );
    assert!(fake.dm_channel(u(1)).is_none(), "told by DM too");
    assert_eq!(
        bot.state(game).await.status(),
        hexmeros::host::Status::Aborted
    );
    // The lobby message no longer reads as a game under way.
    let deadline = tokio::time::Instant::now() + T;
    loop {
        let lobby = fake
            .stored_messages(F::CHANNEL_ID)
            .into_iter()
            .find(|m| m["id"].as_str() == Some(&lobby_msg.to_string()))
            .and_then(|m| m["content"].as_str().map(String::from))
            .unwrap_or_default();
        if lobby.contains("could not start") {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "lobby reads {lobby:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Without the permission to open threads (403 code 50013, Missing Permissions) the channel
/// itself can still be used: the game is played there instead, not abandoned.
#[tokio::test]
async fn a_start_without_the_thread_permission_is_played_in_the_channel() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (join, lobby_msg) = hexdame_lobby(&fake).await;
    fake.fail_next("POST", "/threads", 403, None, 1);
    let seen = fake.messages(F::CHANNEL_ID).len();
    let i = fake.button(u(2), F::CHANNEL_ID, lobby_msg, &join).await;
    acked(&fake, &i).await;
    let text = content(&followup(&fake, &i).await);
    assert!(!text.contains("could not start"), "{text}");
    let game = game_named(&text);
    wait_message(&fake, F::CHANNEL_ID, seen, "you have the Token").await;
    assert!(fake.threads().is_empty());
    assert_ne!(
        bot.state(game).await.status(),
        hexmeros::host::Status::Aborted
    );
}

/// The last Join updates the lobby message through its own interaction (acknowledged as an
/// update of that message), which Discord does not count toward the bot's global limit: the
/// message says where the game is and loses its buttons, with no edit of it through the channel.
#[tokio::test]
async fn the_last_join_updates_the_lobby_message_through_its_interaction() {
    let fake = F::start().await;
    let _bot = Bot::start(&fake).await;
    let (join, lobby_msg) = hexdame_lobby(&fake).await;
    let i = fake.button(u(2), F::CHANNEL_ID, lobby_msg, &join).await;
    let first = fake.first_response(&i, T).await.unwrap();
    assert_eq!(
        first.json.as_ref().map(|j| j["type"].clone()),
        Some(json!(6))
    );
    let answer = followup(&fake, &i).await;
    assert!(is_private(&answer), "{answer:?}");
    let game = game_named(&content(&answer));
    let deadline = tokio::time::Instant::now() + T;
    let lobby = loop {
        let lobby = fake
            .stored_messages(F::CHANNEL_ID)
            .into_iter()
            .find(|m| m["id"].as_str() == Some(&lobby_msg.to_string()))
            .unwrap();
        if lobby["content"].as_str().is_some_and(|c| c.contains("<#")) {
            break lobby;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "lobby reads {lobby}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(
        lobby["components"].as_array().is_none_or(|c| c.is_empty()),
        "the buttons stayed: {lobby}"
    );
    let thread = threads_of(&fake, game)[0];
    assert!(
        lobby["content"]
            .as_str()
            .unwrap()
            .contains(&format!("<#{thread}>"))
    );
    let made = fake.requests();
    let through_channel = format!("/channels/{}/messages/{lobby_msg}", F::CHANNEL_ID);
    assert!(
        !made
            .iter()
            .any(|s| s.method == "PATCH" && s.path == through_channel),
        "the lobby message was edited through the channel"
    );
    assert!(
        made.iter()
            .any(|s| s.method == "PATCH" && s.path.ends_with("/messages/@original")),
        "no edit through the interaction"
    );
}

/// The lobby message is a public followup of `/hexmeros start`, after the starter's private
/// answer: a new message, so it pings the people invited, and one that Discord does not count
/// toward the bot's global limit (nothing is posted through the channel).
#[tokio::test]
async fn the_lobby_message_is_a_public_followup_of_start_pinging_the_invited() {
    let fake = F::start().await;
    let _bot = Bot::start(&fake).await;
    let (join, lobby_msg) = hexdame_lobby(&fake).await;
    let made = fake.requests();
    let posted = made
        .iter()
        .find(|s| s.status == 200 && s.response["id"].as_str() == Some(&lobby_msg.to_string()))
        .unwrap();
    assert!(posted.path.starts_with("/webhooks/"), "{posted:?}");
    let body = posted.json.clone().unwrap();
    assert_eq!(
        body["flags"].as_u64().unwrap_or(0) & 64,
        0,
        "ephemeral: {body}"
    );
    assert_eq!(body["allowed_mentions"]["users"], json!([u(2).to_string()]));
    assert!(custom_ids(&body).contains(&join));
    assert!(
        !made.iter().any(
            |s| s.method == "POST" && s.path == format!("/channels/{}/messages", F::CHANNEL_ID)
        ),
        "a message was posted through the channel"
    );
    // The starter's private answer came first, in place of the deferred answer.
    let followups: Vec<&fake_discord::Sent> = made
        .iter()
        .filter(|s| s.method == "POST" && s.path.starts_with("/webhooks/"))
        .collect();
    assert!(is_private(followups[0]), "{:?}", followups[0]);
    assert!(content(followups[0]).contains("lobby #"));
}

/// The process is killed between the last Join and the thread: the Join was committed (the game
/// exists), Discord never got to make the thread. The next process opens the thread and posts
/// the first board: the start is not lost, and there is one thread.
#[tokio::test]
async fn a_start_killed_between_the_last_join_and_its_thread_is_started_by_the_next_process() {
    let fake = F::start().await;
    let mut bot = Bot::start(&fake).await;
    let (join, lobby_msg) = hexdame_lobby(&fake).await;
    fake.hang_next("POST", "/threads", Duration::from_secs(30), 1);
    let _ = fake.button(u(2), F::CHANNEL_ID, lobby_msg, &join).await;
    let deadline = tokio::time::Instant::now() + T;
    while !fake
        .requests()
        .iter()
        .any(|s| s.method == "POST" && s.path.ends_with("/threads"))
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no thread asked for"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    bot.kill();
    fake.clear_failures();
    assert!(fake.threads().is_empty(), "the thread was made");

    bot.start_again(&fake).await;
    let deadline = tokio::time::Instant::now() + T;
    while fake.threads().is_empty() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no thread after the restart"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (thread, _, name) = fake.threads().into_iter().next().unwrap();
    let game: i64 = name.rsplit('#').next().unwrap().parse().unwrap();
    wait_message(&fake, thread, 0, "you have the Token").await;
    assert_eq!(threads_of(&fake, game), vec![thread], "one thread");
    assert_eq!(bot.state(game).await.record().len(), 0);
}

/// The bot says at `/hexmeros start` what it lacks of what it uses in the channel (issue 61),
/// privately, with what goes missing; with everything, nothing. Pin Messages (`1 << 51`),
/// which serenity drops from the interaction's permissions, is read from the server's roles.
#[tokio::test]
async fn the_starter_is_told_privately_what_the_bot_lacks_in_the_channel() {
    let fake = F::start().await;
    let _bot = Bot::start(&fake).await;
    let lobby = |a: u64, b: u64| {
        json!([
            user_opt("p1", u(a)),
            user_opt("p2", u(b)),
            {"type": 4, "name": "game", "value": 1},
        ])
    };
    let r = hx(&fake, u(1), F::CHANNEL_ID, "start", lobby(1, 2)).await;
    assert!(lobby_number(&content(&r)).is_some(), "{r:?}");
    assert!(!content(&r).contains("lacks"), "{r:?}");

    // Pin Messages only from the role: what the bot reads of the server decides.
    fake.set_bot_permissions(F::BOT_PERMISSIONS & !F::EMBED_LINKS);
    let r = hx(&fake, u(3), F::CHANNEL_ID, "start", lobby(3, 4)).await;
    let text = content(&r);
    assert!(is_private(&r), "{r:?}");
    assert!(
        lobby_number(&text).is_some(),
        "the lobby still opens: {text}"
    );
    assert!(
        text.contains("**Embed Links** (the results table)"),
        "{text}"
    );
    assert!(
        text.contains("**Pin Messages** (pinning the game's status panel)"),
        "{text}"
    );
    assert!(!text.contains("Attach Files"), "{text}");

    // A game of the starter and a bot starts at once, publicly; the warning follows, privately.
    fake.set_bot_permissions((F::BOT_PERMISSIONS | F::PIN_MESSAGES) & !F::EMBED_LINKS);
    let opts = json!([
        user_opt("p1", u(5)),
        {"type": 4, "name": "game", "value": 1},
        {"type": 4, "name": "bots", "value": 1},
    ]);
    let i = fake
        .slash(u(5), F::CHANNEL_ID, "hexmeros", sub("start", opts))
        .await;
    let sent = fake
        .wait_responses(&i, Duration::from_secs(30), 2, |s| {
            s.method == "POST" && s.path.starts_with("/webhooks/")
        })
        .await
        .unwrap();
    let warned: Vec<_> = sent
        .iter()
        .filter(|s| content(s).contains("lacks"))
        .collect();
    assert_eq!(warned.len(), 1, "{sent:#?}");
    assert!(is_private(warned[0]), "{sent:#?}");
    assert!(content(warned[0]).contains("**Embed Links**"));
    assert!(!content(warned[0]).contains("Pin Messages"), "{sent:#?}");
}
