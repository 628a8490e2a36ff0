#![allow(clippy::unwrap_used)]
//! End-to-end test of the round story (issue 19): the real `hexmeros serve` binary against the
//! fake Discord of `tests/support/fake_discord.rs` (the harness of `tests/support/bot.rs`). After
//! a capture, the next turn message in the game's thread names it, with the piece taken, below
//! the unchanged "<seat> played <move>" line.

use hexmeros_testkit::{bot, fake_discord};

use fake_discord::FakeDiscord as F;
use hexmeros::games::{AnyGame, GameKind};
use serde_json::json;

use bot::*;

/// A HexDame game of `players` through the lobby: its id and thread.
async fn start(fake: &F, players: [u64; 2]) -> (i64, u64) {
    bot::start_game(
        fake,
        &players,
        vec![json!({"type": 4, "name": "game", "value": 1})],
    )
    .await
}

/// A move that offers the opponent a capture, if there is one; else the first legal move.
fn offering(game: &AnyGame) -> String {
    let moves = game.legal_moves();
    moves
        .iter()
        .find(|m| {
            let mut next = game.clone();
            next.play(m).unwrap();
            next.legal_moves().iter().any(|r| r.contains('x'))
        })
        .unwrap_or(&moves[0])
        .clone()
}

fn title(s: &str) -> String {
    let mut c = s.chars();
    c.next().unwrap().to_uppercase().chain(c).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_capture_the_next_turn_message_names_it() {
    let fake = F::start().await;
    let _bot = Bot::start(&fake).await;
    let players = [u(1), u(2)];
    let (_, thread) = start(&fake, players).await;
    wait_message(&fake, thread, 0, "you have the Token").await;
    let mut mirror = AnyGame::new(GameKind::HexDame, None, None).unwrap();
    for ply in 0..40 {
        let mover = mirror.to_move().unwrap();
        let user = players[mover.index()];
        let capture = mirror.legal_moves().into_iter().find(|m| m.contains('x'));
        let mv = capture.clone().unwrap_or_else(|| offering(&mirror));
        let before = fake.messages(thread).len();
        let r = hx(
            &fake,
            user,
            thread,
            "move",
            json!([str_opt("from", &mv), bool_opt("pass", true)]),
        )
        .await;
        assert!(!content(&r).starts_with("⚠️"), "{mv}: {r:?}");
        let turn = wait_message(&fake, thread, before, &format!("played {mv}")).await;
        let text = content(&turn);
        let lines: Vec<&str> = text.lines().collect();
        // The next player's ping first, then the unchanged caption: the move after " played ".
        let next = players[1 - mover.index()];
        assert!(lines[0].starts_with(&format!("<@{next}> ")), "{text}");
        assert!(
            lines[1].ends_with(&format!("{} played {mv}", title(mirror.seat_name(mover)))),
            "{text}"
        );
        mirror.play(&mv).unwrap();
        if capture.is_some() {
            // The story line names the capture and the piece it took.
            let story = lines
                .iter()
                .find(|l| l.contains(" took "))
                .unwrap_or_else(|| panic!("no story of the capture in {text:?}"));
            let next = title(mirror.seat_name(mirror.to_move().unwrap()));
            assert!(
                story.starts_with(&format!("since {next}'s last turn: ")),
                "{story}"
            );
            assert!(
                story.contains(&format!(
                    "{} {mv} took {}'s Man",
                    title(mirror.seat_name(mover)),
                    next
                )),
                "{story}"
            );
            // The turn message stays within Discord's 2000 characters.
            assert!(text.chars().count() <= 2000);
            return;
        }
        assert!(!text.contains(" took "), "ply {ply}: {text}");
    }
    panic!("no capture in 40 plies");
}
