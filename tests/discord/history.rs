#![allow(clippy::unwrap_used)]
//! `/hexmeros history` (issue 45): a readable move list, one round a line in the game's
//! notation, with the list and the replay text as files; a stranger's game in another server
//! is answered as an unknown game (tested with the other commands in `e2e`).

use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{bot, fake_discord};

use fake_discord::FakeDiscord as F;
use serde_json::json;

use bot::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_reads_one_round_a_line_and_comes_with_both_files() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let players: Vec<u64> = (1..=6).map(u).collect();
    let (game, thread) = start_game(&fake, &players, Vec::new()).await;
    wait_message(&fake, thread, 0, "you have the Token").await;

    let r = hx(&fake, u(3), thread, "history", json!([])).await;
    assert!(is_private(&r), "{r:?}");
    assert!(content(&r).contains("no moves yet"), "{r:?}");

    // Seven moves: a whole round of six and the first of the next.
    let mut played = Vec::new();
    for turn in 0..7 {
        let st = bot.state(game).await;
        let seat = st.holder().unwrap();
        let mv = st.rules().legal_moves()[0].clone();
        let before = fake.messages(thread).len();
        let r = hx(
            &fake,
            players[seat.index()],
            thread,
            "move",
            json!([str_opt("from", &mv), bool_opt("pass", true)]),
        )
        .await;
        assert!(!content(&r).starts_with("⚠️"), "turn {turn}: {r:?}");
        wait_message(&fake, thread, before, &format!("played {mv}")).await;
        played.push((st.seat_title(seat), mv));
    }
    let r = hx(&fake, u(3), thread, "history", json!([])).await;
    let text = content(&r);
    assert!(
        text.starts_with(&format!(
            "**HexiMeros #{game}**: 7 record lines in 2 rounds"
        )),
        "{text}"
    );
    let first: Vec<String> = played[..6]
        .iter()
        .map(|(who, mv)| format!("{who} {mv}"))
        .collect();
    let want_first = format!("1. {}", first.join(" · "));
    let want_second = format!("2. {} {}", played[6].0, played[6].1);
    assert!(
        text.contains(&format!("{want_first}\n{want_second}")),
        "{text}"
    );
    assert!(first[0].starts_with("Silver "), "{first:?}");
    let names: Vec<&str> = r.files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [format!("moves-{game}.txt"), format!("hexmeros-{game}.txt")]
    );
    let list = String::from_utf8(r.files[0].1.clone()).unwrap();
    assert_eq!(list, format!("{want_first}\n{want_second}"));
    assert!(String::from_utf8_lossy(&r.files[1].1).contains(&played[0].1));
    drop(bot);
}
