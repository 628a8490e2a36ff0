#![allow(clippy::unwrap_used)]
//! `hexmeros serve` with `HEXMEROS_METRICS` (issue 20), end to end against the fake Discord: a
//! game started and a move made show up at `GET /metrics` in Prometheus' text format (commands
//! by outcome, the active games, the commit, render and delivery histograms, the first
//! callback), and a request the fake fails with a 500 is counted by its status. No timing is
//! asserted: each sample is waited for with a deadline.

use hexmeros_testkit::{bot, fake_discord};

use std::io::{Read, Write};
use std::time::Duration;

use fake_discord::FakeDiscord as F;
use hexmeros::games::{AnyGame, GameKind};
use serde_json::json;

use bot::*;

use super::web::free_port;

/// `GET /metrics` on `addr`: the body, or why not.
fn scrape(addr: &str) -> Result<String, String> {
    let mut s = std::net::TcpStream::connect(addr).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .map_err(|e| e.to_string())?;
    let mut out = String::new();
    s.read_to_string(&mut out).map_err(|e| e.to_string())?;
    let (head, body) = out.split_once("\r\n\r\n").ok_or("no HTTP answer")?;
    if !head.starts_with("HTTP/1.1 200") {
        return Err(format!("not 200: {head}"));
    }
    Ok(body.to_string())
}

/// The sum of the samples of `name` (exactly: not its `_bucket`s) whose labels contain each
/// of `labels` (as `outcome="ok"`); `None` when there is none.
fn sample(text: &str, name: &str, labels: &[&str]) -> Option<f64> {
    let mut found = None;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Some((series, value)) = line.rsplit_once(' ') else {
            continue;
        };
        let (metric, rest) = series.split_once('{').unwrap_or((series, ""));
        if metric != name || !labels.iter().all(|l| rest.contains(l)) {
            continue;
        }
        let v: f64 = value.parse().unwrap();
        found = Some(found.unwrap_or(0.0) + v);
    }
    found
}

/// Scrape `addr` until `ok` holds of the text; the last text otherwise (a panic naming `what`).
async fn wait_metrics(addr: &str, what: &str, ok: impl Fn(&str) -> bool) -> String {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let a = addr.to_string();
        let last = match tokio::task::spawn_blocking(move || scrape(&a))
            .await
            .unwrap()
        {
            Ok(text) if ok(&text) => return text,
            Ok(text) => text,
            Err(e) => e,
        };
        assert!(
            tokio::time::Instant::now() < deadline,
            "{what} never showed at /metrics:\n{last}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn at_least(text: &str, name: &str, labels: &[&str], n: f64) -> bool {
    sample(text, name, labels).is_some_and(|v| v >= n)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_and_a_failed_request_show_in_the_metrics() {
    let fake = F::start().await;
    let addr = format!("127.0.0.1:{}", free_port());
    let bot = Bot::start_with(&fake, None, &[("HEXMEROS_METRICS", &addr)]).await;
    // Served before any game: every gauge comes (they are read one after the other, so a
    // scrape may see some before the rest: waited for together).
    let gauges = [
        "hexmeros_active_games",
        "hexmeros_outbox_pending",
        "hexmeros_outbox_oldest_age_seconds",
        "hexmeros_game_cache_entries",
    ];
    let text = wait_metrics(&addr, "the gauges", |t| {
        gauges.iter().all(|g| sample(t, g, &[]).is_some())
    })
    .await;
    assert_eq!(sample(&text, "hexmeros_active_games", &[]), Some(0.0));

    let players = [u(1), u(2)];
    let (_, thread) = bot::start_game(
        &fake,
        &players,
        vec![json!({"type": 4, "name": "game", "value": 1})],
    )
    .await;
    let turn = wait_message(&fake, thread, 0, "you have the Token").await;
    // A reaction the bot does not act on: counted under `other`, not under its emoji.
    fake.react(u(2), thread, message_id(&turn), "🦄").await;
    // The move's board post fails once with a 500 (then goes through).
    let mv = AnyGame::new(GameKind::HexDame, None, None)
        .unwrap()
        .legal_moves()[0]
        .clone();
    fake.fail_next(
        "POST",
        &format!("/channels/{thread}/messages"),
        500,
        None,
        1,
    );
    let before = fake.messages(thread).len();
    let opts = json!([str_opt("from", &mv), bool_opt("pass", true)]);
    let r = hx(&fake, players[0], thread, "move", opts).await;
    assert!(!content(&r).starts_with("⚠️"), "{mv}: {r:?}");
    wait_message(&fake, thread, before, &format!("played {mv}")).await;

    let text = wait_metrics(&addr, "the game, the move and the reaction", |t| {
        at_least(
            t,
            "hexmeros_commands_total",
            &[r#"action="hexmeros move""#, r#"outcome="ok""#],
            1.0,
        ) && sample(t, "hexmeros_active_games", &[]) == Some(1.0)
            && at_least(
                t,
                "hexmeros_discord_errors_total",
                &[r#"status="500""#],
                1.0,
            )
            && at_least(
                t,
                "hexmeros_commands_total",
                &[r#"kind="reaction""#, r#"action="other""#],
                1.0,
            )
    })
    .await;
    assert!(!text.contains("🦄"), "{text}");
    assert!(
        at_least(
            &text,
            "hexmeros_commands_total",
            &[
                r#"kind="command""#,
                r#"action="hexmeros start""#,
                r#"outcome="ok""#
            ],
            1.0
        ),
        "{text}"
    );
    // The second player joined the lobby with its button.
    assert!(
        at_least(
            &text,
            "hexmeros_commands_total",
            &[
                r#"kind="component""#,
                r#"action="ljoin""#,
                r#"outcome="ok""#
            ],
            1.0
        ),
        "{text}"
    );
    for histogram in [
        "hexmeros_command_seconds_count",
        "hexmeros_commit_seconds_count",
        "hexmeros_render_seconds_count",
        "hexmeros_first_callback_seconds_count",
        "hexmeros_delivery_seconds_count",
    ] {
        assert!(at_least(&text, histogram, &[], 1.0), "{histogram}: {text}");
    }
    // Histograms with buckets, not summaries.
    assert!(
        at_least(
            &text,
            "hexmeros_commit_seconds_bucket",
            &[r#"le="+Inf""#],
            1.0
        ),
        "{text}"
    );
    assert!(
        at_least(
            &text,
            "hexmeros_delivery_seconds_count",
            &[r#"priority="urgent""#],
            1.0
        ),
        "{text}"
    );
    drop(bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bots_search_is_timed() {
    let fake = F::start().await;
    let addr = format!("127.0.0.1:{}", free_port());
    let bot = Bot::start_with(&fake, None, &[("HEXMEROS_METRICS", &addr)]).await;
    let opts = json!([
        user_opt("p1", u(1)),
        json!({"type": 4, "name": "game", "value": 1}),
        json!({"type": 4, "name": "bots", "value": 1}),
        json!({"type": 4, "name": "level", "value": 0})
    ]);
    hx(&fake, u(1), F::CHANNEL_ID, "start", opts).await;
    let thread = fake.threads()[0].0;
    wait_message(&fake, thread, 0, "you have the Token").await;
    let mv = AnyGame::new(GameKind::HexDame, None, None)
        .unwrap()
        .legal_moves()[0]
        .clone();
    let after = fake.messages(thread).len();
    let opts = json!([str_opt("from", &mv), bool_opt("pass", true)]);
    let r = hx(&fake, u(1), thread, "move", opts).await;
    assert!(!content(&r).starts_with("⚠️"), "{mv}: {r:?}");
    // The bot moved: the person has the Token again.
    wait_message(&fake, thread, after, "you have the Token").await;
    wait_metrics(&addr, "the bot's search", |t| {
        at_least(t, "hexmeros_bot_think_seconds_count", &[], 1.0)
    })
    .await;
    drop(bot);
}
