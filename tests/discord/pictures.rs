#![allow(clippy::unwrap_used)]
//! End-to-end test of the board pictures the bot posts (issue 19): the real `hexmeros serve`
//! binary against the fake Discord (`tests/support/bot.rs`, `tests/support/fake_discord.rs`).
//! A turn's board names the seated players in its header, as `view::render_png` draws it with
//! their names, not with the colours alone; and the thread's board keeps one orientation for
//! the whole game (issue 45), whoever holds the Token.

use hexmeros_testkit::{bot, fake_discord, golden};

use fake_discord::FakeDiscord as F;
use hexmeros::games::Seat;
use hexmeros::view::ViewOptions;
use serde_json::json;

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
                .find(|(n, _)| n == "board.png")
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

/// The full board of a posted message.
fn png_of(m: &fake_discord::Sent) -> Option<Vec<u8>> {
    m.files
        .iter()
        .find(|(n, _)| n == "board.png")
        .map(|(_, b)| b.clone())
}

/// Issue 45: the thread's board no longer turns to the Token holder. After Silver's move, the
/// turn message that pings Blue shows the board from Silver's side, as the first turn did, so a
/// piece stays where it was on every message of the thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_public_board_keeps_one_side_at_the_bottom_across_turns() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let players: Vec<u64> = (1..=6).map(u).collect();
    let (game, thread) = bot::start_game(&fake, &players, Vec::new()).await;
    wait_message(&fake, thread, 0, "you have the Token").await;
    let (a, _) = heximeros_pair(|_, _| true);
    let before = fake.messages(thread).len();
    let r = hx(
        &fake,
        u(1),
        thread,
        "move",
        json!([str_opt("from", &a), bool_opt("pass", true)]),
    )
    .await;
    assert!(is_private(&r), "{r:?}");
    let turn = wait_message(&fake, thread, before, "you have the Token").await;
    let posted = decode(&png_of(&turn).unwrap_or_else(|| panic!("no board in {turn:?}")));

    let state = bot.state(game).await;
    assert_eq!(state.holder(), Some(Seat(1)), "Blue holds the Token");
    let from = |seat| ViewOptions {
        as_seat: Some(seat),
        last_moves: state.last_round(),
        turn: Some(state.turn_number()),
        players: (1..=6).map(|n| format!("Player {n}")).collect(),
        ..ViewOptions::default()
    };
    let silver = decode(&state.render(&from(Seat(0))).unwrap());
    let blue = decode(&state.render(&from(Seat(1))).unwrap());
    assert_eq!(posted.dimensions(), silver.dimensions());
    let d_silver = differing(posted.as_raw(), silver.as_raw(), 24);
    let d_blue = differing(posted.as_raw(), blue.as_raw(), 24);
    assert!(
        d_silver < 0.0005,
        "{:.3} % differ from the board from Silver's side",
        d_silver * 100.0
    );
    assert!(
        d_blue > 0.05,
        "the board from Blue's side differs in only {:.3} %",
        d_blue * 100.0
    );
    // The close-up of Silver's move comes first, the full board second, both from Silver's
    // side.
    let names: Vec<&str> = turn.files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["focus.png", "board.png"], "{turn:?}");
    let focus = decode(&turn.files[0].1);
    let ours = decode(&state.render_focus(&from(Seat(0))).unwrap().unwrap().png);
    assert_eq!(focus.dimensions(), ours.dimensions());
    let d_focus = differing(focus.as_raw(), ours.as_raw(), 24);
    assert!(
        d_focus < 0.0005,
        "{:.3} % of the close-up differ",
        d_focus * 100.0
    );
    // A close-up: a cell of the 720 px picture is at least 28 px wide, where the full 1600 px
    // board's is about 36.
    assert!(focus.width().max(focus.height()) == hexmeros::view::focus::FOCUS_SIZE);
    drop(bot);
}
