//! Starts that are never lost (issue 48), against the fake Discord: a start whose thread
//! creation fails once still starts, and a bot killed (SIGKILL) after Discord made the thread
//! but before the bot heard of it starts the game in that thread when it comes back, without a
//! second thread.

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
/// the game's first board are printed (`--nocapture`): issue 48 counts them.
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
