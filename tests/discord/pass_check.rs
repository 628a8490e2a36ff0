#![allow(clippy::unwrap_used)]
//! Check in one tap (issue 45): a staged HexiMeros move that attacks another Sovereign gets a
//! "Pass + Check on Silver" button on its preview; pressing it declares the Check and passes
//! the Token at once, and the preview's message ends clean. A stranger's press and a replay of
//! the old button are refused and change nothing.

use hexmeros_testkit::{bot, fake_discord};

use fake_discord::{FakeDiscord as F, Sent};
use hexmeros::games::Seat;
use serde_json::json;

use bot::*;

/// The label of the control `id` of a message.
fn label_of(m: &Sent, id: &str) -> String {
    let body = m.json.as_ref().unwrap();
    for row in body["components"].as_array().into_iter().flatten() {
        for c in row["components"].as_array().into_iter().flatten() {
            if c["custom_id"] == id {
                return c["label"].as_str().unwrap_or_default().to_string();
            }
        }
    }
    panic!("no control {id} in {body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pass_and_check_in_one_tap() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    // Blue's `b` attacks Silver's Sovereign and opens no challenge window.
    let (a, b) =
        heximeros_pair(|g, b| g.check_targets(b) == [Seat(0)] && g.challengers(b).is_empty());
    let players: Vec<u64> = (1..=6).map(u).collect();
    let (game, thread) = start_game(&fake, &players, Vec::new()).await;
    wait_message(&fake, thread, 0, "you have the Token").await;
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
    wait_message(&fake, thread, before, &format!("played {a}")).await;

    let preview = hx(&fake, u(2), thread, "move", json!([str_opt("from", &b)])).await;
    assert!(
        content(&preview).contains(&format!("staged **{b}**")),
        "{preview:?}"
    );
    let body = preview.json.clone().unwrap();
    let one_tap = id_with(&body, "passcheck");
    assert!(one_tap.ends_with(":0"), "Silver is seat 0: {one_tap}");
    assert_eq!(label_of(&preview, &one_tap), "Pass + Check on Silver");
    // Only the attacked seat is offered.
    let offered = custom_ids(&body)
        .into_iter()
        .filter(|id| id.contains(":passcheck:"))
        .count();
    assert_eq!(offered, 1, "{body}");

    // A stranger to the move (Yellow) presses it: refused, nothing changes.
    let was = bot.state(game).await;
    let r = click(&fake, u(3), thread, message_id(&preview), &one_tap).await;
    assert!(content(&r).starts_with("⚠️"), "{r:?}");
    assert_eq!(bot.state(game).await.version(), was.version());

    // Blue presses it: Check declared and the Token passed; the preview ends clean.
    let before = fake.messages(thread).len();
    let done = click_answer(&fake, u(2), thread, message_id(&preview), &one_tap).await;
    assert!(is_edit(&done), "{done:?}");
    let declared = format!("{b}+silver");
    assert!(
        content(&done).starts_with(&format!("✅ committed **{b}** with Check on Silver")),
        "{done:?}"
    );
    assert!(
        custom_ids(done.json.as_ref().unwrap()).is_empty(),
        "{done:?}"
    );
    wait_message(&fake, thread, before, &format!("played {declared}")).await;
    let st = bot.state(game).await;
    assert_eq!(st.record().last().unwrap().line, format!("blue {declared}"));
    assert_eq!(st.holder(), Some(Seat(2)));

    // The same button again (a replay): refused privately, nothing changes.
    let r = click(&fake, u(2), thread, message_id(&preview), &one_tap).await;
    assert_refused(&r, "from an earlier turn");
    assert_eq!(bot.state(game).await.version(), st.version());
    drop(bot);
}
