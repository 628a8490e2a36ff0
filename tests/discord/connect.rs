//! How `hexmeros serve` connects, end to end against the fake Discord (issue 61): a token
//! Discord refuses stops the bot with a message naming `DISCORD_TOKEN` (it never retries for
//! ever); a configured API base that refuses gateway discovery is never replaced by Discord's
//! own gateway; the metrics listener's `/healthz` and `/readyz` say whether the bot is up and
//! connected; the "connected" line is logged.

use hexmeros_testkit::{bot, fake_discord};

use std::io::{Read, Write};
use std::time::Duration;

use bot::Bot;
use fake_discord::FakeDiscord as F;

use super::web::free_port;

/// `GET path` on `addr`: (status code, body), or why not.
fn get(addr: &str, path: &str) -> Result<(u16, String), String> {
    let mut s = std::net::TcpStream::connect(addr).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| e.to_string())?;
    let mut out = String::new();
    s.read_to_string(&mut out).map_err(|e| e.to_string())?;
    let (head, body) = out.split_once("\r\n\r\n").ok_or("no HTTP answer")?;
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("no status in {head:?}"))?;
    Ok((code, body.to_string()))
}

/// Ask `path` on `addr` until the answer's status is `code`: its body.
async fn wait_status(addr: &str, path: &str, code: u16) -> String {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (a, p) = (addr.to_string(), path.to_string());
        let got = tokio::task::spawn_blocking(move || get(&a, &p))
            .await
            .unwrap();
        match got {
            Ok((c, body)) if c == code => return body,
            last => assert!(
                tokio::time::Instant::now() < deadline,
                "{path} never answered {code}: {last:?}"
            ),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_discord_refuses_stops_the_bot_and_names_it() {
    let fake = F::start().await;
    fake.refuse_token(Some("fake-token"));
    let mut bot = Bot::launch(&fake, None, &[]).await;
    assert_eq!(bot.token(), "fake-token");
    let status = bot.wait_exit(Duration::from_secs(30)).await;
    assert_eq!(status.code(), Some(2), "{}", bot.log());
    let log = bot.log();
    assert!(
        log.contains("error: Discord refused DISCORD_TOKEN (401 Unauthorized)"),
        "{log}"
    );
    assert_eq!(
        log.lines().filter(|l| l.contains("DISCORD_TOKEN")).count(),
        1,
        "said once, not retried: {log}"
    );
    assert_eq!(fake.gateway_stats().identifies, 0, "never identified");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_base_that_refuses_discovery_is_never_replaced_and_the_probes_say_so() {
    let fake = F::start().await;
    fake.refuse_discovery(true);
    let addr = format!("127.0.0.1:{}", free_port());
    let bot = Bot::launch(&fake, None, &[("HEXMEROS_METRICS", &addr)]).await;
    bot.wait_log("does not answer gateway discovery", Duration::from_secs(30))
        .await;
    // Alive, not ready: no gateway connection, and none tried at Discord's own gateway
    // (serenity's fallback would have logged its failed connection to gateway.discord.gg).
    assert_eq!(wait_status(&addr, "/healthz", 200).await, "ok\n");
    let why = wait_status(&addr, "/readyz", 503).await;
    assert!(why.contains("no gateway connection"), "{why}");
    assert_eq!(fake.gateway_stats().identifies, 0);
    assert!(!bot.log().contains("discord.gg"), "{}", bot.log());

    fake.refuse_discovery(false);
    fake.wait_ready(Duration::from_secs(60)).await.unwrap();
    let ready = wait_status(&addr, "/readyz", 200).await;
    assert!(ready.contains("1 shard(s) connected"), "{ready}");
    let log = bot
        .wait_log("connected to Discord and ready", Duration::from_secs(30))
        .await;
    assert!(!log.contains("discord.gg"), "{log}");
    let metrics = wait_status(&addr, "/metrics", 200).await;
    assert!(
        metrics
            .lines()
            .any(|l| l == "hexmeros_gateway_shards_connected 1"),
        "{metrics}"
    );
}

/// Discord answering 500 to the slash commands' registration at startup: that request was part
/// of poise's setup, whose failure left the process connected but dead (no outbox, no timers,
/// every event waiting for the framework's data). Now registration is tried in the background
/// and the bot plays meanwhile: a game starts and its first turn is posted while the list is
/// still refused, and the list is registered once Discord takes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_command_registration_at_startup_leaves_the_bot_playing() {
    let fake = F::start().await;
    // Four refusals: the wire's retries pause 0.25 + 0.5 + 1 + 2 s between them.
    fake.fail_next("PUT", "/commands", 500, None, 4);
    let bot = Bot::start_logging(&fake, Some("info")).await;
    let players = [F::user(1), F::user(2)];
    let (_game, thread) = bot::start_game(
        &fake,
        &players,
        vec![serde_json::json!({"type": 4, "name": "game", "value": 1})],
    )
    .await;
    bot::wait_message(&fake, thread, 0, "you have the Token").await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    // The fake records the list before it answers, and the bot logs only after the answer:
    // wait for both, never assume which comes first.
    while fake.commands().is_empty() || !bot.log().contains("slash commands registered") {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the commands were never registered: {}",
            bot.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        fake.commands().iter().any(|c| c["name"] == "hexmeros"),
        "{:?}",
        fake.commands()
    );
    let log = bot.log();
    assert!(
        log.contains("registering the slash commands"),
        "the failures were retried: {log}"
    );
}
