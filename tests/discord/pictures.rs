#![allow(clippy::unwrap_used)]
//! End-to-end test of the board pictures the bot posts (issue 19): the real `hexmeros serve`
//! binary against the fake Discord (`tests/support/bot.rs`, `tests/support/fake_discord.rs`).
//! A turn's board names the seated players in its header, as `view::render_png` draws it with
//! their names, not with the colours alone.

use hexmeros_testkit::{bot, fake_discord, golden};

use fake_discord::FakeDiscord as F;
use hexmeros::view::ViewOptions;

use bot::*;
use golden::{decode, differing};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turns_board_names_the_seated_players() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let players: Vec<u64> = (1..=6).map(u).collect();
    let (game, thread) = bot::start_game(&fake, &players, Vec::new()).await;
    wait_message(&fake, thread, 0, "you have the Token").await;
    // The turn's board: the first picture posted in the thread.
    let deadline = tokio::time::Instant::now() + T;
    let png = loop {
        let found = fake.messages(thread).into_iter().find_map(|m| {
            m.files
                .into_iter()
                .find(|(n, _)| n.ends_with(".png"))
                .map(|(_, b)| b)
        });
        if let Some(png) = found {
            break png;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no board picture: {:?}",
            fake.messages(thread)
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    let posted = decode(&png);

    let state = bot.state(game).await;
    let opts = ViewOptions {
        as_seat: state.holder(),
        last_moves: state.last_round(),
        turn: Some(state.turn_number()),
        ..ViewOptions::default()
    };
    // The fake's users are shown as "Player 1" … "Player 6" (their display names; their
    // usernames are player1 … player6).
    let named = ViewOptions {
        players: (1..=6).map(|n| format!("Player {n}")).collect(),
        ..opts.clone()
    };
    let with_names = decode(&state.render(&named).unwrap());
    let without = decode(&state.render(&opts).unwrap());
    assert_eq!(posted.dimensions(), with_names.dimensions());
    let d_named = differing(posted.as_raw(), with_names.as_raw(), 24);
    let d_plain = differing(posted.as_raw(), without.as_raw(), 24);
    assert!(
        d_named < 0.0005,
        "{:.3} % differ from the named board",
        d_named * 100.0
    );
    assert!(d_plain > d_named, "the posted board shows no names");
    drop(bot);
}
