#![allow(clippy::unwrap_used)]
//! End-to-end test of private notes (issue 22, `/hexmeros note`): a seated player keeps lines on
//! a game that only they see, shown with their private board, kept across a restart, at most 20,
//! cleared on request; strangers and empty notes are refused; the thread hears nothing. The real
//! `hexmeros serve` binary against the fake Discord (`tests/support/bot.rs`).

use hexmeros_testkit::{bot, fake_discord};

use fake_discord::{FakeDiscord as F, Sent};
use serde_json::json;

use bot::*;

fn private_text(s: &Sent) -> String {
    assert!(is_private(s), "{s:?}");
    content(s)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notes_are_private_kept_shown_with_the_board_and_bounded() {
    let fake = F::start().await;
    let mut bot = Bot::start(&fake).await;
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
        u(1),
        t,
        "note",
        json!([str_opt("text", "plan: trade on e5")]),
    )
    .await;
    let text = private_text(&r);
    assert!(text.contains("noted (1 of 20 lines)"), "{text}");
    assert!(text.contains("plan: trade on e5"), "{text}");

    // Only their author sees them: the other player has none, and their board shows none.
    let r = hx(&fake, u(2), t, "note", json!([])).await;
    assert!(private_text(&r).contains("you have no notes"), "{r:?}");
    let r = hx(&fake, u(2), t, "board", json!([])).await;
    assert!(!content(&r).contains("plan: trade"), "{r:?}");
    let r = hx(&fake, u(1), t, "board", json!([])).await;
    let text = private_text(&r);
    assert!(
        text.contains("your notes") && text.contains("plan: trade on e5"),
        "{text}"
    );
    assert!(!r.files.is_empty(), "the board's picture");

    // Refused, changing nothing: a stranger, an empty line, a line and clear at once.
    let r = hx(&fake, u(9), t, "note", json!([str_opt("text", "hi")])).await;
    assert_refused(&r, "you are not playing in this game");
    let r = hx(&fake, u(1), t, "note", json!([str_opt("text", "   ")])).await;
    assert_refused(&r, "a note needs some text");
    let r = hx(
        &fake,
        u(1),
        t,
        "note",
        json!([str_opt("text", "x"), bool_opt("clear", true)]),
    )
    .await;
    assert_refused(&r, "not both");

    // Kept across a restart.
    bot.restart(&fake).await;
    let r = hx(&fake, u(1), t, "note", json!([])).await;
    assert!(private_text(&r).contains("plan: trade on e5"), "{r:?}");

    // At most 20 lines; then cleared.
    for n in 2..=20 {
        let r = hx(
            &fake,
            u(1),
            t,
            "note",
            json!([str_opt("text", &format!("line {n}"))]),
        )
        .await;
        assert!(
            private_text(&r).contains(&format!("noted ({n} of 20 lines)")),
            "{r:?}"
        );
    }
    let r = hx(
        &fake,
        u(1),
        t,
        "note",
        json!([str_opt("text", "one too many")]),
    )
    .await;
    assert_refused(&r, "the most it keeps");
    let r = hx(&fake, u(1), t, "note", json!([bool_opt("clear", true)])).await;
    assert!(
        private_text(&r).contains("your 20 notes are forgotten"),
        "{r:?}"
    );
    let r = hx(&fake, u(1), t, "note", json!([])).await;
    assert!(private_text(&r).contains("you have no notes"), "{r:?}");

    // The thread heard nothing of it.
    assert_eq!(fake.messages(t).len(), shown);
    assert_clean(&fake, &bot);
}
