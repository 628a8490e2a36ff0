#![allow(clippy::unwrap_used)]
//! End-to-end test of the round story (issue 19): the real `hexmeros serve` binary against the
//! fake Discord of `tests/support/fake_discord.rs` (the harness of `tests/support/bot.rs`). After
//! a capture, the next turn message in the game's thread names it, with the piece taken, below
//! the unchanged "<seat> played <move>" line.

#[path = "support/bot.rs"]
mod bot;
#[path = "support/fake_discord.rs"]
mod fake_discord;

use fake_discord::FakeDiscord as F;
use hexmeros::games::{AnyGame, GameKind};
use serde_json::{Value, json};

use bot::*;

/// Start a HexDame game of `players` (the first starts, the second joins the lobby); its id and
/// thread.
async fn start(fake: &F, players: [u64; 2]) -> (i64, u64) {
    let opts: Vec<Value> = vec![
        user_opt("p1", players[0]),
        user_opt("p2", players[1]),
        json!({"type": 4, "name": "game", "value": 1}),
    ];
    let mut text = content(&hx(fake, players[0], F::CHANNEL_ID, "start", json!(opts)).await);
    if let Some(rest) = text.clone().split("lobby #").nth(1) {
        let lobby: i64 = rest
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let join = format!("{lobby}:ljoin:0");
        let deadline = tokio::time::Instant::now() + T;
        let msg = loop {
            if let Some(m) = fake.messages(F::CHANNEL_ID).into_iter().find(|m| {
                m.json
                    .as_ref()
                    .is_some_and(|j| custom_ids(j).contains(&join))
            }) {
                break m;
            }
            assert!(tokio::time::Instant::now() < deadline, "no lobby message");
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        };
        let i = fake
            .button(players[1], F::CHANNEL_ID, message_id(&msg), &join)
            .await;
        acked(fake, &i).await;
        text = content(&followup(fake, &i).await);
    }
    let (before, _) = text
        .split_once(" started")
        .unwrap_or_else(|| panic!("{text}"));
    let id: i64 = before.rsplit('#').next().unwrap().parse().unwrap();
    let (thread, _, _) = fake
        .threads()
        .into_iter()
        .find(|(_, _, name)| name.ends_with(&format!("#{id}")))
        .unwrap();
    (id, thread)
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
        // The first line is unchanged: the move after " played ".
        assert!(
            lines[0].ends_with(&format!("{} played {mv}", mirror.seat_name(mover))),
            "{text}"
        );
        mirror.play(&mv).unwrap();
        if capture.is_some() {
            // The story line names the capture and the piece it took.
            let story = lines
                .iter()
                .find(|l| l.contains(" took "))
                .unwrap_or_else(|| panic!("no story of the capture in {text:?}"));
            let next = mirror.seat_name(mirror.to_move().unwrap());
            assert!(
                story.starts_with(&format!("since {next}'s last turn: ")),
                "{story}"
            );
            assert!(
                story.contains(&format!(
                    "{} {mv} took {}'s Man",
                    title(mirror.seat_name(mover)),
                    title(next)
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
