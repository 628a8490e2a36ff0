#![allow(clippy::unwrap_used)]
//! End-to-end test of `/hexmeros try <move>` (issue 22): any seated player, at any time, gets a
//! private picture of the game with a move of the Token holder's drawn in; nothing is stored and
//! nothing is said in the thread. A stranger and an illegal move are refused with the reason.
//! The real `hexmeros serve` binary against the fake Discord (`tests/support/bot.rs`).

use hexmeros_testkit::{bot, fake_discord};

use fake_discord::{FakeDiscord as F, Sent};
use hexmeros::games::{AnyGame, GameKind};
use serde_json::json;

use bot::*;

/// A refusal ([`bot::assert_refused`]) that carries no picture.
fn refused_without_picture(s: &Sent, words: &str) {
    assert_refused(s, words);
    assert!(s.files.is_empty(), "a refusal carries no picture");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tried_move_is_a_private_picture_and_changes_nothing() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let players = [u(1), u(2)];
    let (game, thread) = start_game(
        &fake,
        &players,
        vec![json!({"type": 4, "name": "game", "value": 1})],
    )
    .await;
    wait_message(&fake, thread, 0, "you have the Token").await;
    let before = bot.state(game).await;
    let shown = fake.messages(thread).len();
    let white = AnyGame::new(GameKind::HexDame, None, None)
        .unwrap()
        .legal_moves()[0]
        .clone();

    // The player waiting for the Token tries the holder's move; so does the holder.
    for user in [u(2), u(1)] {
        let r = hx(&fake, user, thread, "try", json!([str_opt("move", &white)])).await;
        assert!(is_private(&r), "{r:?}");
        let text = content(&r);
        assert!(
            text.contains(&format!("if White played **{white}**")),
            "{text}"
        );
        let (name, png) = r.files.first().expect("a picture");
        assert!(name.ends_with(".png"), "{name}");
        let img = image::load_from_memory(png).unwrap();
        assert!(img.width().max(img.height()) >= 600);
    }

    // Wrong: a stranger, a move that is not legal here, a game that is not there.
    let r = hx(&fake, u(9), thread, "try", json!([str_opt("move", &white)])).await;
    refused_without_picture(&r, "you are not playing in this game");
    let r = hx(
        &fake,
        u(2),
        thread,
        "try",
        json!([str_opt("move", "a1-a9")]),
    )
    .await;
    refused_without_picture(&r, "a1-a9");
    let r = hx(
        &fake,
        u(2),
        thread,
        "try",
        json!([str_opt("move", &white), int_opt("game", 999)]),
    )
    .await;
    refused_without_picture(&r, "there is no game #999");

    // Nothing was staged or stored, and the thread heard nothing.
    let after = bot.state(game).await;
    assert_eq!(after.version(), before.version());
    assert!(after.staged().is_none());
    assert_eq!(fake.messages(thread).len(), shown);
    assert_clean(&fake, &bot);
}
