#![allow(clippy::unwrap_used)]
//! "Type move…" (issue 45): the turn message's button opens a box (a Discord modal) for the
//! Token holder, and anyone else is told privately why not; a typed move is staged with its
//! preview; a move that is not legal is refused privately and changes nothing.

use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{bot, fake_discord};

use fake_discord::FakeDiscord as F;

use bot::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_move_is_staged_and_a_bad_one_changes_nothing() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let players: Vec<u64> = (1..=6).map(u).collect();
    let (game, thread) = start_game(&fake, &players, Vec::new()).await;
    let turn = wait_message(&fake, thread, 0, "you have the Token").await;
    let body = turn.json.clone().unwrap();
    let typed = id_with(&body, "type");

    // Blue does not hold the Token: a private answer, no box.
    let r = click(&fake, u(2), thread, message_id(&turn), &typed).await;
    assert!(content(&r).contains("not your turn"), "{r:?}");

    // Silver does: the box, carrying the button's id, with one text field.
    let i = fake.button(u(1), thread, message_id(&turn), &typed).await;
    let first = fake.first_response(&i, T).await.unwrap();
    let modal = first.json.unwrap();
    assert_eq!(modal["type"], 9, "{modal}");
    assert_eq!(modal["data"]["custom_id"], typed.as_str(), "{modal}");
    let field = &modal["data"]["components"][0]["components"][0];
    assert_eq!(field["type"], 4, "{modal}");
    assert_eq!(field["custom_id"], "move", "{modal}");

    // A move that is not legal: refused privately, nothing changes.
    let was = bot.state(game).await;
    let i = fake
        .modal_submit(u(1), thread, &typed, &[("move", "Q9-Q99")])
        .await;
    acked(&fake, &i).await;
    let r = followup(&fake, &i).await;
    assert!(is_private(&r), "{r:?}");
    assert!(content(&r).starts_with("⚠️"), "{r:?}");
    assert_eq!(bot.state(game).await.version(), was.version());

    // Blue sends Silver's box (a copy of its id): refused, nothing changes.
    let mv = was.rules().legal_moves()[0].clone();
    let i = fake
        .modal_submit(u(2), thread, &typed, &[("move", &mv)])
        .await;
    acked(&fake, &i).await;
    let r = followup(&fake, &i).await;
    assert!(content(&r).contains("not your turn"), "{r:?}");
    assert_eq!(bot.state(game).await.version(), was.version());

    // A legal move: staged, its preview with Pass.
    let i = fake
        .modal_submit(u(1), thread, &typed, &[("move", &format!("  {mv} "))])
        .await;
    acked(&fake, &i).await;
    let r = followup(&fake, &i).await;
    assert!(is_private(&r), "{r:?}");
    assert!(content(&r).contains(&format!("staged **{mv}**")), "{r:?}");
    id_with(r.json.as_ref().unwrap(), "pass");
    let st = bot.state(game).await;
    assert_eq!(st.staged().unwrap().text, mv);
    drop(bot);
}
