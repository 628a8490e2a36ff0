#![allow(clippy::unwrap_used)]
//! Gateway resilience (issue 18): the real `hexmeros serve` binary against the fake Discord of
//! `tests/support/fake_discord.rs`, whose gateway connection is closed with a resumable code,
//! with a code that needs a fresh IDENTIFY, dropped without a close frame, answered with an
//! unknown session on RESUME, or refused for a while. After each, the bot must be connected
//! again and answer commands; an effect that falls due while the gateway is down must still be
//! posted, since REST does not depend on the gateway.
//!
//! Every wait polls a condition against a deadline; nothing sleeps for a fixed time.

use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{bot, fake_discord};

use std::time::Duration;

use fake_discord::{FakeDiscord as F, GatewayStats};
use hexmeros::games::{AnyGame, GameKind};
use serde_json::json;

use bot::*;

/// For a reconnection: serenity waits up to 5 s for the old shard before it re-identifies, and
/// retries a refused connection every 5 s.
const RECONNECT: Duration = Duration::from_secs(40);

/// A two-player HexDame game between users 1 (White, to move) and 2: its id and thread.
async fn hexdame(fake: &F) -> (i64, u64) {
    let game = json!({"type": 4, "name": "game", "value": 1});
    let (id, thread) = start_game(fake, &[u(1), u(2)], vec![game]).await;
    wait_message(fake, thread, 0, "you have the Token").await;
    (id, thread)
}

/// `user` stages and passes `mv` in one command: the command is answered, the move is posted
/// in the thread and stored.
async fn play(
    fake: &F,
    bot: &Bot,
    game: i64,
    thread: u64,
    user: u64,
    mirror: &mut AnyGame,
    mv: &str,
) {
    let before = fake.messages(thread).len();
    let r = hx(
        fake,
        user,
        thread,
        "move",
        json!([str_opt("from", mv), bool_opt("pass", true)]),
    )
    .await;
    assert!(!content(&r).starts_with("⚠️"), "{mv}: {r:?}");
    wait_message(fake, thread, before, &format!("played {mv}")).await;
    mirror.play(mv).unwrap();
    let stored = bot.state(game).await;
    assert_eq!(stored.rules().show(), mirror.show(), "{mv} is not stored");
}

/// How the fake breaks the connection.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// A close frame with this code.
    Close(u16),
    /// The TCP connection dropped without a close frame.
    Reset,
    /// The session forgotten, then a resumable close: the RESUME gets INVALID_SESSION.
    Forgotten,
    /// RECONNECT (op 7): the client must move to a new connection.
    Reconnect,
}

/// A game is played before and after the fault; returns the gateway counters just before the
/// fault and once the bot was connected again, and the bot's log (serenity's, at info level).
async fn a_move_before_and_after(fault: Fault) -> (GatewayStats, GatewayStats, String) {
    let fake = F::start().await;
    let bot = Bot::start_logging(&fake, Some("info")).await;
    let (game, thread) = hexdame(&fake).await;
    let mut mirror = AnyGame::new(GameKind::HexDame, None, None).unwrap();
    let white = mirror.legal_moves()[0].clone();
    play(&fake, &bot, game, thread, u(1), &mut mirror, &white).await;

    let before = fake.gateway_stats();
    match fault {
        Fault::Close(code) => fake.close_gateway(code).await,
        Fault::Reset => fake.reset_gateway().await,
        Fault::Forgotten => {
            fake.forget_sessions();
            fake.close_gateway(4000).await;
        }
        Fault::Reconnect => fake.request_reconnect(),
    }
    let after = fake
        .wait_reconnected(RECONNECT, before)
        .await
        .unwrap_or_else(|e| panic!("{fault:?}: {e}\n{}", bot.log()));

    // The bot answers again: Black's move is acknowledged, posted and stored.
    let black = mirror.legal_moves()[0].clone();
    play(&fake, &bot, game, thread, u(2), &mut mirror, &black).await;
    assert!(
        fake.late_callbacks().is_empty(),
        "late first responses: {:?}",
        fake.late_callbacks()
    );
    assert!(
        fake.unexpected().is_empty(),
        "unexpected calls: {:?}",
        fake.unexpected()
    );
    (before, after, bot.log())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_resumable_close_the_bot_resumes_and_keeps_answering() {
    let (before, after, log) = a_move_before_and_after(Fault::Close(4000)).await;
    assert_eq!(after.resumes, before.resumes + 1, "{before:?} → {after:?}");
    assert_eq!(after.resumed, before.resumed + 1, "{before:?} → {after:?}");
    assert_eq!(
        after.identifies, before.identifies,
        "no new IDENTIFY: {after:?}"
    );
    assert_eq!(after.connections, before.connections + 1, "{after:?}");
    // serenity saw the close frame.
    assert!(log.contains("code: Library(4000)"), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_session_timeout_close_the_bot_identifies_again_and_keeps_answering() {
    let (before, after, _) = a_move_before_and_after(Fault::Close(4009)).await;
    assert_eq!(
        after.identifies,
        before.identifies + 1,
        "{before:?} → {after:?}"
    );
    assert_eq!(
        after.resumes, before.resumes,
        "4009 is not resumed: {after:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_connection_dropped_without_close_frame_the_bot_resumes_and_keeps_answering() {
    let (before, after, log) = a_move_before_and_after(Fault::Reset).await;
    // serenity saw the connection end without a close frame (it logs tungstenite's error).
    assert!(log.contains("ResetWithoutClosingHandshake"), "{log}");
    assert!(!log.contains("CloseFrame"), "{log}");
    assert_eq!(after.resumed, before.resumed + 1, "{before:?} → {after:?}");
    assert_eq!(
        after.identifies, before.identifies,
        "no new IDENTIFY: {after:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn asked_to_reconnect_the_bot_resumes_on_a_new_connection_and_keeps_answering() {
    let (before, after, _) = a_move_before_and_after(Fault::Reconnect).await;
    assert_eq!(
        after.connections,
        before.connections + 1,
        "{before:?} → {after:?}"
    );
    assert_eq!(after.resumed, before.resumed + 1, "{before:?} → {after:?}");
    assert_eq!(
        after.identifies, before.identifies,
        "no new IDENTIFY: {after:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resume_of_an_unknown_session_is_refused_and_the_bot_identifies_again() {
    let (before, after, _) = a_move_before_and_after(Fault::Forgotten).await;
    assert_eq!(after.resumes, before.resumes + 1, "{before:?} → {after:?}");
    assert_eq!(
        after.invalid_sessions,
        before.invalid_sessions + 1,
        "{before:?} → {after:?}"
    );
    assert_eq!(after.resumed, before.resumed, "{after:?}");
    assert_eq!(
        after.identifies,
        before.identifies + 1,
        "{before:?} → {after:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_due_while_the_gateway_is_down_is_posted_and_the_bot_answers_once_it_is_back() {
    let fake = F::start().await;
    let mut bot = Bot::start_logging(&fake, Some("info")).await;
    let (game, thread) = hexdame(&fake).await;

    // The gateway goes down and stays down: the bot's attempts to come back are refused.
    let before = fake.gateway_stats();
    fake.set_gateway_down(true);
    fake.reset_gateway().await;
    fake.wait_gateway(RECONNECT, "a refused reconnection", |s| {
        s.refused > before.refused
    })
    .await
    .unwrap();

    // White's first reminder falls due meanwhile, and is posted through REST.
    let posted = fake.messages(thread).len();
    bot.set_clock(START_MS + HOUR_MS + 60_000);
    let m = wait_message(&fake, thread, posted, "reminder").await;
    assert!(content(&m).starts_with(&format!("<@{}>", u(1))), "{m:?}");
    assert_eq!(bot.state(game).await.reminded(), 1);
    // It was posted while no session was up.
    let during = fake.gateway_stats();
    assert_eq!(fake.sessions(), 0);
    assert_eq!(during.established(), before.established(), "{during:?}");
    assert!(bot.running(), "the bot gave up:\n{}", bot.log());

    // The gateway is back: the bot connects again and answers.
    fake.set_gateway_down(false);
    fake.wait_reconnected(RECONNECT, during)
        .await
        .unwrap_or_else(|e| panic!("{e}\n{}", bot.log()));
    let mut mirror = AnyGame::new(GameKind::HexDame, None, None).unwrap();
    let white = mirror.legal_moves()[0].clone();
    play(&fake, &bot, game, thread, u(1), &mut mirror, &white).await;
    // The reminder was posted once.
    let reminders = fake
        .messages(thread)
        .iter()
        .filter(|m| content(m).contains("reminder"))
        .count();
    assert_eq!(reminders, 1);
    assert!(fake.unexpected().is_empty(), "{:?}", fake.unexpected());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_fatal_close_serve_builds_a_new_client_and_keeps_answering() {
    let fake = F::start().await;
    let mut bot = Bot::start_logging(&fake, Some("info")).await;
    let (game, thread) = hexdame(&fake).await;
    let mut mirror = AnyGame::new(GameKind::HexDame, None, None).unwrap();
    let white = mirror.legal_moves()[0].clone();
    play(&fake, &bot, game, thread, u(1), &mut mirror, &white).await;

    // 4004 (authentication failed) makes serenity's client stop for good.
    let before = fake.gateway_stats();
    fake.close_gateway(4004).await;
    let after = fake
        .wait_reconnected(RECONNECT, before)
        .await
        .unwrap_or_else(|e| panic!("{e}\nrunning: {}\n{}", bot.running(), bot.log()));
    assert_eq!(
        after.identifies,
        before.identifies + 1,
        "{before:?} → {after:?}"
    );
    assert_eq!(after.resumes, before.resumes, "{after:?}");
    assert!(bot.running(), "{}", bot.log());

    let black = mirror.legal_moves()[0].clone();
    play(&fake, &bot, game, thread, u(2), &mut mirror, &black).await;
    // The timers still run: White's reminder is posted.
    let posted = fake.messages(thread).len();
    bot.set_clock(START_MS + HOUR_MS + 60_000);
    wait_message(&fake, thread, posted, "reminder").await;
    assert!(
        bot.log().contains("failed for good"),
        "the failure is logged:\n{}",
        bot.log()
    );
    // The stopped client's shard manager and queuer were shut down, not left running.
    let deadline = tokio::time::Instant::now() + T;
    while !bot.log().contains("Shutting down all shards") {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the old client was not shut down:\n{}",
            bot.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        fake.late_callbacks().is_empty(),
        "{:?}",
        fake.late_callbacks()
    );
    assert!(fake.unexpected().is_empty(), "{:?}", fake.unexpected());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_sent_just_before_the_gateway_closes_is_answered_and_its_messages_posted() {
    let fake = F::start().await;
    let bot = Bot::start_logging(&fake, Some("info")).await;
    let (game, thread) = hexdame(&fake).await;
    let mut mirror = AnyGame::new(GameKind::HexDame, None, None).unwrap();
    let white = mirror.legal_moves()[0].clone();

    // The close frame follows the interaction on the same socket, so the bot has it; all it
    // does about it goes through REST while the gateway is away.
    let before = fake.gateway_stats();
    let posted = fake.messages(thread).len();
    let opts = json!([str_opt("from", &white), bool_opt("pass", true)]);
    let i = fake
        .slash(u(1), thread, "hexmeros", sub("move", opts))
        .await;
    fake.close_gateway(4000).await;
    acked(&fake, &i).await;
    let r = followup(&fake, &i).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    wait_message(&fake, thread, posted, &format!("played {white}")).await;
    // Black is told it is their turn.
    wait_message(&fake, thread, posted, &format!("<@{}>", u(2))).await;
    mirror.play(&white).unwrap();
    assert_eq!(bot.state(game).await.rules().show(), mirror.show());

    fake.wait_reconnected(RECONNECT, before)
        .await
        .unwrap_or_else(|e| panic!("{e}\n{}", bot.log()));
    let black = mirror.legal_moves()[0].clone();
    play(&fake, &bot, game, thread, u(2), &mut mirror, &black).await;
    assert!(
        fake.late_callbacks().is_empty(),
        "{:?}",
        fake.late_callbacks()
    );
    assert!(fake.unexpected().is_empty(), "{:?}", fake.unexpected());
}
