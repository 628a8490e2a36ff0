#![allow(clippy::unwrap_used)]
//! The end of a game on Discord (issue 19), end to end against the fake: the results message
//! (places, rating changes, the final board) pings every player and nobody else, the replay GIF
//! follows it, and the thread ends archived; locked too only with `HEXMEROS_LOCK_FINISHED=on`.

use hexmeros_testkit::{bot, fake_discord};

use std::time::Duration;

use fake_discord::{FakeDiscord as F, Sent};
use hexmeros::games::{AnyGame, GameKind};
use serde_json::{Value, json};

use bot::*;

/// A HexDame game of `players` through the lobby: its id and thread.
async fn start_hexdame(fake: &F, players: [u64; 2]) -> (i64, u64) {
    bot::start_game(
        fake,
        &players,
        vec![json!({"type": 4, "name": "game", "value": 1})],
    )
    .await
}

/// Two moves each way, then White (the first player) concedes: Black wins.
async fn play_and_concede(fake: &F, players: [u64; 2], thread: u64) {
    wait_message(fake, thread, 0, "you have the Token").await;
    let mut g = AnyGame::new(GameKind::HexDame, None, None).unwrap();
    for ply in 0..2 {
        let mv = g.legal_moves()[0].clone();
        let before = fake.messages(thread).len();
        let opts = json!([str_opt("from", &mv), bool_opt("pass", true)]);
        let r = hx(fake, players[ply % 2], thread, "move", opts).await;
        assert!(!content(&r).starts_with("⚠️"), "{mv}: {r:?}");
        wait_message(fake, thread, before, &format!("played {mv}")).await;
        g.play(&mv).unwrap();
    }
    let r = hx(fake, players[0], thread, "concede", json!([])).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
}

/// The index of the first message in `thread` whose content has `needle`, waited for.
async fn index_of(fake: &F, thread: u64, needle: &str) -> usize {
    wait_message(fake, thread, 0, needle).await;
    fake.messages(thread)
        .iter()
        .position(|m| content(m).contains(needle))
        .unwrap()
}

/// Waits until `thread` is archived.
async fn wait_archived(fake: &F, thread: u64, bot: &Bot) {
    let deadline = tokio::time::Instant::now() + T;
    while !fake.thread_archived(thread) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the thread was not archived: {:?}\n{:#?}\n{}",
            thread_edits(fake, thread),
            fake.requests()
                .iter()
                .rev()
                .take(8)
                .map(|s| format!("{} {} {}", s.method, s.path, s.status))
                .collect::<Vec<_>>(),
            bot.log()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn embed_text(m: &Sent) -> String {
    m.json.as_ref().unwrap()["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn assert_clean(fake: &F) {
    assert!(
        fake.late_callbacks().is_empty(),
        "{:?}",
        fake.late_callbacks()
    );
    assert!(fake.unexpected().is_empty(), "{:?}", fake.unexpected());
}

/// The PATCHes of `thread` the bot sent.
fn thread_edits(fake: &F, thread: u64) -> Vec<Value> {
    fake.requests()
        .into_iter()
        .filter(|s| s.method == "PATCH" && s.path == format!("/channels/{thread}"))
        .filter_map(|s| s.json)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_results_ping_every_player_then_the_replay_and_the_thread_is_archived() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let players = [u(1), u(2)];
    let (game, t) = start_hexdame(&fake, players).await;
    play_and_concede(&fake, players, t).await;

    let over = index_of(&fake, t, "game over").await;
    let results = index_of(&fake, t, "is over:").await;
    let replay = index_of(&fake, t, "the replay").await;
    let closed = index_of(&fake, t, "this game is closed").await;
    assert!(
        over < results && results < replay && replay < closed,
        "{over} {results} {replay} {closed}"
    );
    let msgs = fake.messages(t);
    let m = &msgs[results];
    // Every player pinged, and only them.
    let text = content(m);
    assert!(
        text.starts_with(&format!("**HexDame #{game}** is over: Black won")),
        "{text}"
    );
    let mut pinged: Vec<String> = m.json.as_ref().unwrap()["allowed_mentions"]["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    pinged.sort();
    let mut want: Vec<String> = players.iter().map(u64::to_string).collect();
    want.sort();
    assert_eq!(pinged, want, "{m:?}");
    for p in players {
        assert!(text.contains(&format!("<@{p}>")), "{text}");
    }
    // The table: places, colours, players, rating before → after with the change. Both were
    // new (0.0); the winner gained.
    let table = embed_text(m);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 2, "{table}");
    assert!(
        lines[0].starts_with(&format!("**1.** Black · <@{}> · rating 0.0 → ", players[1])),
        "{table}"
    );
    assert!(lines[0].contains("(+"), "{table}");
    assert!(
        lines[1].starts_with(&format!("**2.** White · <@{}> · rating 0.0 → ", players[0])),
        "{table}"
    );
    assert!(!table.contains("points"), "HexDame is not scored: {table}");
    // With the final board.
    let (_, png) = m.files.iter().find(|(n, _)| n == "board.png").unwrap();
    assert!(image::load_from_memory(png).is_ok());
    // The replay follows; the results are posted once.
    let gif = &msgs[replay];
    let (_, bytes) = gif.files.iter().find(|(n, _)| n.ends_with(".gif")).unwrap();
    assert!(bytes.starts_with(b"GIF8"));
    assert_eq!(
        msgs.iter()
            .filter(|m| content(m).contains("is over:"))
            .count(),
        1
    );

    // The thread ends archived, not locked: the server did not ask for it.
    wait_archived(&fake, t, &bot).await;
    assert!(!fake.thread_locked(t));
    let edits = thread_edits(&fake, t);
    assert_eq!(edits.len(), 1, "{edits:?}");
    assert_eq!(edits[0]["archived"], json!(true));
    assert!(edits[0].get("locked").is_none(), "{edits:?}");
    // Nothing is posted after it, which would reopen it.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(fake.messages(t).len(), closed + 1);
    assert!(fake.thread_archived(t));
    assert_clean(&fake);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_wants_it_gets_finished_threads_locked_too() {
    let fake = F::start().await;
    let bot = Bot::start_with(&fake, None, &[("HEXMEROS_LOCK_FINISHED", "on")]).await;
    let players = [u(3), u(4)];
    let (_, t) = start_hexdame(&fake, players).await;
    play_and_concede(&fake, players, t).await;
    index_of(&fake, t, "is over:").await;
    wait_archived(&fake, t, &bot).await;
    assert!(fake.thread_locked(t), "{:?}", thread_edits(&fake, t));
    assert_eq!(
        thread_edits(&fake, t),
        vec![json!({"archived": true, "locked": true})]
    );
    assert_clean(&fake);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_manage_threads_a_finished_thread_is_archived_only() {
    let fake = F::start().await;
    let bot = Bot::start_with(&fake, None, &[("HEXMEROS_LOCK_FINISHED", "on")]).await;
    let players = [u(5), u(6)];
    let (_, t) = start_hexdame(&fake, players).await;
    // Discord refuses the lock (no Manage Threads): the bot archives without it.
    fake.fail_next("PATCH", &format!("/channels/{t}$"), 403, None, 1);
    play_and_concede(&fake, players, t).await;
    index_of(&fake, t, "is over:").await;
    wait_archived(&fake, t, &bot).await;
    assert!(!fake.thread_locked(t));
    assert_eq!(
        thread_edits(&fake, t),
        vec![
            json!({"archived": true, "locked": true}),
            json!({"archived": true})
        ]
    );
    assert_clean(&fake);
}
