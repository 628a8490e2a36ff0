#![allow(clippy::unwrap_used)]
//! End-to-end test of the challenge window (issue 19): the real `hexmeros serve` binary against
//! the fake Discord of `tests/support/fake_discord.rs` (the harness of `tests/support/bot.rs`).
//! The asked player's question carries the picture of the staged move (the board from their
//! side with the move drawn as a preview) and names the move, its mover and the attacker; the
//! mover's private preview offers "Pass when the window closes", and once the asked player lets
//! the move stand the Token is passed without the mover acting again.

use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{bot, fake_discord};

use fake_discord::{FakeDiscord as F, Sent};
use hexmeros::games::{AnyGame, Rules, Seat};
use hexmeros::host::GameState;
use hexmeros::view::{DEFAULT_SIZE, ViewOptions};
use serde_json::json;

use bot::*;

fn assert_pings(m: &Sent, user: u64) {
    assert!(content(m).starts_with(&format!("<@{user}>")), "{m:?}");
    let mentions = &m.json.as_ref().unwrap()["allowed_mentions"]["users"];
    assert_eq!(mentions, &json!([user.to_string()]), "{m:?}");
}

/// The message's full board, decoded.
fn png_of(m: &Sent) -> image::RgbaImage {
    let (name, bytes) = m
        .files
        .iter()
        .find(|(n, _)| n == "board.png")
        .unwrap_or_else(|| panic!("no picture in {m:?}"));
    image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .to_rgba8()
}

/// `state` drawn from `seat`'s side, with `staged` as a preview when given.
fn drawn(state: &GameState, seat: Seat, staged: Option<&str>) -> image::RgbaImage {
    let opts = ViewOptions {
        as_seat: Some(seat),
        staged: staged.map(str::to_string),
        turn: Some(state.turn_number()),
        // The fake's users' display names, in seat order (players 1…6 sit in order).
        players: (1..=6).map(|n| format!("Player {n}")).collect(),
        ..ViewOptions::default()
    };
    let png = state.render(&opts).unwrap();
    image::load_from_memory_with_format(&png, image::ImageFormat::Png)
        .unwrap()
        .to_rgba8()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_asked_player_sees_the_move_and_the_mover_passes_when_the_window_closes() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    // Blue's `b` leaves his Sovereign attacked by Silver: staging it asks Silver (§5.4).
    let (a, b) = heximeros_pair(|g, b| g.challengers(b) == [Seat(0)]);
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
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    wait_message(&fake, thread, before, &format!("played {a}")).await;

    // Blue stages `b`: his private preview offers to pass when the window closes.
    let before = fake.messages(thread).len();
    let preview = hx(&fake, u(2), thread, "move", json!([str_opt("from", &b)])).await;
    assert!(is_private(&preview), "{preview:?}");
    let text = content(&preview);
    assert!(text.contains(&format!("staged **{b}**")), "{preview:?}");
    assert!(
        text.contains("challenge window open: waiting for Silver"),
        "{text}"
    );
    let auto = id_with(preview.json.as_ref().unwrap(), "autopass");
    assert_eq!(
        auto,
        format!("{game}:autopass:{}", bot.state(game).await.version())
    );

    // Silver's question: the move, who is attacked and by whom, and the picture of the move.
    let ask = wait_message(&fake, thread, before, "declare Check upon them").await;
    assert_pings(&ask, u(1));
    assert!(
        content(&ask).contains(&format!(
            "Blue's staged move {b} leaves Blue's Sovereign attacked by Silver (you)"
        )),
        "{ask:?}"
    );
    let pic = png_of(&ask);
    assert_eq!(
        pic.width().max(pic.height()),
        DEFAULT_SIZE,
        "{}x{}",
        pic.width(),
        pic.height()
    );
    // Exactly the staged move's preview from Silver's side; not the plain board.
    let st = bot.state(game).await;
    assert_eq!(st.staged().unwrap().text, b);
    assert!(
        pic == drawn(&st, Seat(0), Some(&b)),
        "the ask shows the staged move"
    );
    assert!(
        pic != drawn(&st, Seat(0), None),
        "the move is drawn on the picture"
    );
    let stand = custom_ids(ask.json.as_ref().unwrap())
        .into_iter()
        .find(|id| id.ends_with(":n"))
        .unwrap();

    // Nobody else may press Blue's button; nothing changes.
    let r = click(&fake, u(3), thread, message_id(&preview), &auto).await;
    assert_refused(&r, "it is not your turn");
    let r = click(&fake, u(1), thread, message_id(&preview), &auto).await;
    assert_refused(&r, "it is not your turn");
    assert_eq!(bot.state(game).await.version(), st.version());

    // Blue asks to pass when the window closes, and is not asked to come back.
    let r = click(&fake, u(2), thread, message_id(&preview), &auto).await;
    assert!(
        content(&r).contains("the Token will be passed with your staged move"),
        "{r:?}"
    );
    assert!(bot.state(game).await.staged().unwrap().pass_when_closed);
    // Pressed twice: refused, nothing changes.
    let again = click(&fake, u(2), thread, message_id(&preview), &auto).await;
    assert_refused(&again, "you already asked");

    // Silver lets it stand: the next turn message follows with no action of Blue's.
    let before = fake.messages(thread).len();
    let r = click(&fake, u(1), thread, message_id(&ask), &stand).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    let told = wait_message(
        &fake,
        thread,
        before,
        &format!("the Token was passed automatically with {b}"),
    )
    .await;
    assert!(
        content(&told).contains("nobody declared Check upon Blue"),
        "{told:?}"
    );
    let turn = wait_message(&fake, thread, before, &format!("Blue played {b}")).await;
    // One thread's messages go out in the order the host said them: the word, then the board.
    let at = |m: &Sent| {
        fake.messages(thread)
            .iter()
            .position(|x| message_id(x) == message_id(m))
            .unwrap()
    };
    assert!(at(&told) < at(&turn), "told after the board");
    // The board pings the next Token holder in its own message.
    assert!(
        content(&turn).contains("you have the Token"),
        "{}",
        content(&turn)
    );
    png_of(&turn);
    let ping = wait_message(&fake, thread, before, "you have the Token").await;
    assert_pings(&ping, u(3));
    let st = bot.state(game).await;
    assert_eq!(st.record().last().unwrap().line, format!("blue {b}"));
    assert_eq!(st.holder(), Some(Seat(2)));
    // Blue was never told to pass himself.
    let msgs = fake.messages(thread);
    assert!(
        msgs[before..]
            .iter()
            .all(|m| !content(m).contains("you may pass the Token")),
        "{:?}",
        msgs[before..].iter().map(content).collect::<Vec<_>>()
    );
    // The button now belongs to an earlier turn: refused in place.
    let r = click(&fake, u(2), thread, message_id(&preview), &auto).await;
    assert!(
        content(&r).contains("this button is from an earlier turn"),
        "{r:?}"
    );

    // `/hexmeros pass when:window-closes` asks the same of the host: Yellow's quiet move opens
    // no window, so there is nothing to wait for (a plain pass would commit it).
    let g = match st.rules() {
        AnyGame::HexiMeros(g) => g.clone(),
        other => panic!("not HexiMeros: {}", other.show()),
    };
    let quiet = g
        .legal_moves()
        .into_iter()
        .find(|m| g.challengers(m).is_empty())
        .map(|m| g.move_text(&m))
        .unwrap();
    let r = hx(
        &fake,
        u(3),
        thread,
        "move",
        json!([str_opt("from", &quiet)]),
    )
    .await;
    assert!(
        content(&r).contains(&format!("staged **{quiet}**")),
        "{r:?}"
    );
    assert!(
        custom_ids(r.json.as_ref().unwrap())
            .iter()
            .all(|id| !id.contains(":autopass:"))
    );
    let staged = bot.state(game).await;
    // poise registers the choice as its index: 1 is window-closes.
    let r = hx(&fake, u(3), thread, "pass", json!([int_opt("when", 1)])).await;
    assert_refused(
        &r,
        "no challenge window is open on your staged move: pass the Token now",
    );
    assert_eq!(bot.state(game).await.version(), staged.version());
    assert_eq!(bot.state(game).await.staged(), staged.staged());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_window_timing_out_passes_the_token() {
    let fake = F::start().await;
    let mut bot = Bot::start(&fake).await;
    let (a, b) = heximeros_pair(|g, b| g.challengers(b) == [Seat(0)]);
    let players: Vec<u64> = (1..=6).map(u).collect();
    let (game, thread) = start_game(&fake, &players, Vec::new()).await;
    wait_message(&fake, thread, 0, "you have the Token").await;
    let before = fake.messages(thread).len();
    hx(
        &fake,
        u(1),
        thread,
        "move",
        json!([str_opt("from", &a), bool_opt("pass", true)]),
    )
    .await;
    wait_message(&fake, thread, before, &format!("played {a}")).await;
    let before = fake.messages(thread).len();
    let preview = hx(&fake, u(2), thread, "move", json!([str_opt("from", &b)])).await;
    wait_message(&fake, thread, before, "declare Check upon them").await;
    // Blue asks by command this time.
    let r = hx(&fake, u(2), thread, "pass", json!([int_opt("when", 1)])).await;
    assert!(
        content(&r).contains("the Token will be passed with your staged move"),
        "{r:?}"
    );
    assert!(id_with(preview.json.as_ref().unwrap(), "autopass").contains(":autopass:"));
    // The bot stops and starts again; Silver never answers; the window's ten minutes pass.
    bot.restart(&fake).await;
    assert!(bot.state(game).await.staged().unwrap().pass_when_closed);
    let before = fake.messages(thread).len();
    bot.set_clock(START_MS + 11 * 60_000);
    wait_message(
        &fake,
        thread,
        before,
        &format!("the Token was passed automatically with {b}"),
    )
    .await;
    wait_message(&fake, thread, before, &format!("Blue played {b}")).await;
    let ping = wait_message(&fake, thread, before, "you have the Token").await;
    assert_pings(&ping, u(3));
    let st = bot.state(game).await;
    assert_eq!(st.record().last().unwrap().line, format!("blue {b}"));
    assert_eq!(st.holder(), Some(Seat(2)));
}
