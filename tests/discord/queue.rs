#![allow(clippy::unwrap_used)]
//! End-to-end test of queued moves (issue 22, `/hexmeros queue`): a waiting player queues a move
//! privately (nobody else is told), the opponent moves, and the bot plays the queued move on the
//! player's behalf, the thread saying it was a queued move; refusals are private and change
//! nothing. The real `hexmeros serve` binary against the fake Discord (`tests/support/bot.rs`).

use hexmeros_testkit::{bot, fake_discord};

use fake_discord::FakeDiscord as F;
use serde_json::json;

use bot::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_move_is_played_for_the_player_and_the_thread_says_so() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    // HexDame: White (player 1) moves first, Black (player 2) waits.
    let (id, t) = start_game(
        &fake,
        &[u(1), u(2)],
        vec![json!({"type": 4, "name": "game", "value": 1})],
    )
    .await;
    wait_message(&fake, t, 0, "you have the Token").await;
    let shown = fake.messages(t).len();

    // Refused, privately: the Token holder, a stranger, text that is no move, if_reply with no
    // move, a piece that is not theirs.
    let r = hx(&fake, u(1), t, "queue", json!([str_opt("move", "a4-a5")])).await;
    assert_refused(&r, "you hold the Token: just move");
    let r = hx(&fake, u(9), t, "queue", json!([str_opt("move", "f6-e5")])).await;
    assert_refused(&r, "you are not playing in this game");
    let r = hx(
        &fake,
        u(2),
        t,
        "queue",
        json!([str_opt("move", "e5 please")]),
    )
    .await;
    assert_refused(&r, "cannot read move");
    let r = hx(
        &fake,
        u(2),
        t,
        "queue",
        json!([str_opt("if_reply", "a4-a5")]),
    )
    .await;
    assert_refused(&r, "give the move too");
    let r = hx(&fake, u(2), t, "queue", json!([str_opt("move", "a4-a5")])).await;
    assert_refused(&r, "no piece of yours on a4");
    // From another server the game does not exist, even for its own player.
    let r = hx(
        &fake,
        u(2),
        F::OTHER_CHANNEL_ID,
        "queue",
        json!([str_opt("move", "f6-e5"), int_opt("game", id)]),
    )
    .await;
    assert_refused(&r, &format!("there is no game #{id}"));
    let r = hx(&fake, u(2), t, "queue", json!([])).await;
    assert!(
        is_private(&r) && content(&r).contains("you have no queued move"),
        "{r:?}"
    );

    // Autocomplete: Black's moves as if it were Black's turn, White's moves for if_reply; the
    // Token holder gets nothing to queue.
    let focused =
        |name: &str, v: &str| json!({"type": 3, "name": name, "value": v, "focused": true});
    let got = ac(&fake, u(2), t, json!([focused("move", "f6")])).await;
    assert!(got.contains(&"f6-e5".to_string()), "{got:?}");
    assert!(got.iter().all(|m| m.contains("f6")), "{got:?}");
    let got = ac(&fake, u(2), t, json!([focused("if_reply", "")])).await;
    assert!(got.contains(&"a4-a5".to_string()), "{got:?}");
    let got = ac(&fake, u(1), t, json!([focused("move", "")])).await;
    assert!(got.is_empty(), "{got:?}");

    // Black queues its answer: only Black is told.
    let r = hx(&fake, u(2), t, "queue", json!([str_opt("move", "f6-e5")])).await;
    assert!(is_private(&r), "{r:?}");
    let text = content(&r);
    assert!(
        text.contains("queued for your next turn: f6-e5")
            && text.contains("your piece on f6 is still there"),
        "{text}"
    );
    let r = hx(&fake, u(2), t, "queue", json!([])).await;
    assert!(is_private(&r) && content(&r).contains("f6-e5"), "{r:?}");
    // Shown under Black's private board; the other player sees nothing of it.
    let r = hx(&fake, u(2), t, "board", json!([])).await;
    assert!(
        is_private(&r) && content(&r).contains("⏳ queued for your next turn: f6-e5"),
        "{r:?}"
    );
    let r = hx(&fake, u(1), t, "queue", json!([])).await;
    assert!(content(&r).contains("you have no queued move"), "{r:?}");
    let r = hx(&fake, u(1), t, "board", json!([])).await;
    assert!(!content(&r).contains("queued"), "{r:?}");
    assert_eq!(fake.messages(t).len(), shown, "the thread heard nothing");

    // White moves: the bot plays Black's queued move, and says so.
    let r = hx(
        &fake,
        u(1),
        t,
        "move",
        json!([str_opt("from", "a4-a5"), bool_opt("pass", true)]),
    )
    .await;
    assert!(is_private(&r), "{r:?}");
    let played = wait_message(&fake, t, shown, "f6-e5 (a queued move)").await;
    let text = content(&played);
    assert!(
        text.contains(&format!("<@{}>", u(1))),
        "White is pinged: {text}"
    );
    // Black was never pinged for the turn played for them (a ping comes first in a message;
    // the board only names the Token holder in passing).
    let black = format!("<@{}>", u(2));
    assert!(
        fake.messages(t)
            .iter()
            .skip(shown)
            .all(|m| !content(m).starts_with(&black)
                && !content(m).contains("Black, you have the Token")),
        "{:#?}",
        fake.messages(t).iter().map(content).collect::<Vec<_>>()
    );
    let r = hx(&fake, u(2), t, "queue", json!([])).await;
    assert!(content(&r).contains("you have no queued move"), "{r:?}");
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_move_whose_condition_fails_is_dropped_with_the_turns_ping() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (_, t) = start_game(
        &fake,
        &[u(1), u(2)],
        vec![json!({"type": 4, "name": "game", "value": 1})],
    )
    .await;
    wait_message(&fake, t, 0, "you have the Token").await;
    let shown = fake.messages(t).len();
    let r = hx(
        &fake,
        u(2),
        t,
        "queue",
        json!([str_opt("move", "f6-e5"), str_opt("if_reply", "a4-a5")]),
    )
    .await;
    assert!(
        content(&r)
            .contains("if your piece on f6 is still there and your opponent answers with a4-a5"),
        "{r:?}"
    );
    hx(
        &fake,
        u(1),
        t,
        "move",
        json!([str_opt("from", "b4-b5"), bool_opt("pass", true)]),
    )
    .await;
    let m = wait_message(&fake, t, shown, "your queued move was not played").await;
    let text = content(&m);
    assert!(
        text.starts_with(&format!("<@{}> Black, you have the Token", u(2))),
        "{text}"
    );
    // The table is not told what was queued, nor why it failed; the player reads why when
    // they look (and by DM, had they asked for DMs).
    assert!(!text.contains("a4-a5") && !text.contains("f6"), "{text}");
    let r = hx(&fake, u(2), t, "queue", json!([])).await;
    assert!(
        content(&r).contains("your opponent answered b4-b5, not a4-a5"),
        "{r:?}"
    );
    // Nothing was played for Black; the queue is gone.
    assert!(
        fake.messages(t)
            .iter()
            .all(|m| !content(m).contains("(a queued move)"))
    );
    let r = hx(&fake, u(2), t, "queue", json!([])).await;
    assert!(content(&r).contains("not played"), "{r:?}");
    assert_clean(&fake, &bot);
}

/// The values an autocomplete of `/hexmeros queue` offers.
async fn ac(fake: &F, user: u64, channel: u64, options: serde_json::Value) -> Vec<String> {
    let i = fake
        .autocomplete(user, channel, "hexmeros", sub("queue", options))
        .await;
    let s = fake.first_response(&i, T).await.unwrap();
    assert_eq!(s.json.as_ref().unwrap()["type"], 8, "{s:?}");
    s.json.as_ref().unwrap()["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_str().unwrap().to_string())
        .collect()
}
