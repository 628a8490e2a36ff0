//! The real `hexmeros serve` binary as the Discord tests run it (`tests/discord/e2e.rs`,
//! `tests/discord/gateway.rs`, `tests/discord/ratelimit.rs`, the soak): one process on one
//! fresh database (a temporary SQLite file, or a PostgreSQL database when
//! `HEXMEROS_TEST_POSTGRES` names a server: `support/db.rs`), pointed at the fake Discord, its clock moved by writing the file
//! `HEXMEROS_CLOCK_FILE` names; and the small helpers those tests share to speak to it through
//! the fake. Take it with `use hexmeros_testkit::{bot, fake_discord};` (the testkit crate,
//! `testkit/`, compiles these files once for every test).
#![allow(dead_code)] // each test file uses what it needs

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::fake_discord::{FakeDiscord as F, Interaction, Sent};
use hexmeros::games::Rules;
use hexmeros::games::heximeros::{HexiMeros, Move as HMove};
use hexmeros::host::{GameHost, GameState, SystemClock};
use serde_json::{Value, json};

/// For a command's answers and messages.
pub const T: Duration = Duration::from_secs(15);
/// For a process to connect (a loaded machine, a restart).
const READY: Duration = Duration::from_secs(30);
/// 2026-01-01, the tests' starting time.
pub const START_MS: i64 = 1_767_225_600_000;
pub const HOUR_MS: i64 = 3_600_000;

/// One bot process on one database.
pub struct Bot {
    dir: tempfile::TempDir,
    child: Option<Child>,
    api_base: String,
    /// `RUST_LOG` for the process, if set.
    rust_log: Option<String>,
    /// More environment for the process (a limit lowered for a test).
    env: Vec<(String, String)>,
    /// The database; dropped after the process is stopped (and the processes beside it).
    db: std::sync::Arc<crate::db::TestDb>,
    /// `--shards FIRST-LAST --total-shards N` as (first, last, total), with the token the
    /// process identifies with (`start_shards`, `start_beside`); `None`: one unsharded process.
    shards: Option<(u64, u64, u64)>,
    token: String,
}

impl Bot {
    pub async fn start(fake: &F) -> Bot {
        Bot::start_logging(fake, None).await
    }

    /// A bot whose stderr (in `log()`) is filtered by `rust_log`.
    pub async fn start_logging(fake: &F, rust_log: Option<&str>) -> Bot {
        Bot::start_with(fake, rust_log, &[]).await
    }

    /// A bot with more environment variables.
    pub async fn start_with(fake: &F, rust_log: Option<&str>, env: &[(&str, &str)]) -> Bot {
        let bot = Bot::launch(fake, rust_log, env).await;
        fake.wait_ready(READY).await.unwrap();
        bot
    }

    /// [`Bot::start_with`] without waiting for it to connect (it may never).
    pub async fn launch(fake: &F, rust_log: Option<&str>, env: &[(&str, &str)]) -> Bot {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("clock"), START_MS.to_string()).unwrap();
        let db = crate::db::TestDb::new().await;
        let mut bot = Bot {
            db: std::sync::Arc::new(db),
            dir,
            child: None,
            api_base: fake.api_base(),
            rust_log: rust_log.map(str::to_string),
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            shards: None,
            token: "fake-token".to_string(),
        };
        bot.spawn();
        bot
    }

    /// The token this process identifies with.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Wait (up to `within`) for the process to exit by itself: its exit status.
    pub async fn wait_exit(&mut self, within: Duration) -> std::process::ExitStatus {
        let deadline = tokio::time::Instant::now() + within;
        let child = self.child.as_mut().expect("a running bot");
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                self.child = None;
                return status;
            }
            if tokio::time::Instant::now() > deadline {
                panic!("the bot did not exit within {within:?}: {}", self.log());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Wait (up to `within`) until the process's log contains `needle`: the log.
    pub async fn wait_log(&self, needle: &str, within: Duration) -> String {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let log = self.log();
            if log.contains(needle) {
                return log;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{needle:?} never showed in the bot's log within {within:?}:\n{log}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// A process running shards `first..=last` of `total` (`--shards`, `--total-shards`) on
    /// a fresh database, identifying with `token` (so the fake tells it from the processes
    /// beside it): started, and waited for until every one of its shards is connected.
    pub async fn start_shards(fake: &F, token: &str, first: u64, last: u64, total: u64) -> Bot {
        let db = std::sync::Arc::new(crate::db::TestDb::new().await);
        Bot::start_sharded(fake, db, token, (first, last, total)).await
    }

    /// Another process on this one's database, running shards `first..=last` of `total` and
    /// identifying with `token`: started and connected.
    pub async fn start_beside(
        &self,
        fake: &F,
        token: &str,
        first: u64,
        last: u64,
        total: u64,
    ) -> Bot {
        Bot::start_sharded(fake, self.db.clone(), token, (first, last, total)).await
    }

    async fn start_sharded(
        fake: &F,
        db: std::sync::Arc<crate::db::TestDb>,
        token: &str,
        shards: (u64, u64, u64),
    ) -> Bot {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("clock"), START_MS.to_string()).unwrap();
        let mut bot = Bot {
            db,
            dir,
            child: None,
            api_base: fake.api_base(),
            rust_log: None,
            env: vec![],
            shards: Some(shards),
            token: token.to_string(),
        };
        let since = fake.gateway_stats().established();
        bot.spawn();
        bot.wait_shards(fake, since).await;
        bot
    }

    /// Waits until each shard of this (sharded) process has a connection identified with its
    /// token after the fake's count of sessions was `since`.
    async fn wait_shards(&self, fake: &F, since: u64) {
        let Some((first, last, total)) = self.shards else {
            return;
        };
        // serenity starts a process's shards 5 s apart.
        let wait = READY + Duration::from_secs(5 * (last - first));
        let what = format!(
            "shards {first}-{last} of {total} of {} to identify",
            self.token
        );
        fake.wait_sessions(wait, &what, |sessions| {
            (first..=last).all(|shard| {
                sessions.iter().any(|s| {
                    s.shard == [shard, total] && s.bot_token == self.token && s.order > since
                })
            })
        })
        .await
        .unwrap_or_else(|e| panic!("{e}\n{}", self.log()));
    }

    /// Set an environment variable for the next process (`restart`, `start_again`).
    pub fn set_env(&mut self, key: &str, value: &str) {
        self.env.retain(|(k, _)| k != key);
        self.env.push((key.to_string(), value.to_string()));
    }

    pub fn db_url(&self) -> String {
        self.db.url.clone()
    }

    pub fn log_path(&self) -> PathBuf {
        self.dir.path().join("bot.log")
    }

    fn spawn(&mut self) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log_path())
            .unwrap();
        let mut cmd = Command::new(crate::hexmeros_bin());
        if let Some(filter) = &self.rust_log {
            cmd.env("RUST_LOG", filter);
        }
        cmd.arg("serve");
        if let Some((first, last, total)) = self.shards {
            cmd.args([
                "--shards".to_string(),
                format!("{first}-{last}"),
                "--total-shards".to_string(),
                total.to_string(),
            ]);
        }
        let child = cmd
            .current_dir(self.dir.path())
            .env("DISCORD_TOKEN", &self.token)
            .env("DISCORD_API_BASE", &self.api_base)
            .env("DATABASE_URL", self.db_url())
            .env("DEV_GUILD_ID", F::GUILD_ID.to_string())
            .env("HEXMEROS_CLOCK_FILE", self.dir.path().join("clock"))
            .env("HEXMEROS_TICK_MS", "100")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        self.child = Some(child);
    }

    /// Kill the process (SIGKILL, no goodbye: as a crash would) and start a new one on the same
    /// file, connected: the new process, not a session of the old one the fake has not noticed
    /// is gone.
    ///
    /// A sharded process (`start_shards`, `start_beside`) leaves the fake's gateway alone (the
    /// processes beside it stay connected): the restart is done once each of its shards has
    /// identified again.
    pub async fn restart(&mut self, fake: &F) {
        let before = fake.gateway_stats().identifies;
        if self.shards.is_some() {
            let since = fake.gateway_stats().established();
            self.kill();
            self.spawn();
            self.wait_shards(fake, since).await;
            return;
        }
        if let Some(mut c) = self.child.take() {
            c.kill().unwrap();
            c.wait().unwrap();
        }
        fake.drop_gateway().await;
        self.spawn();
        fake.wait_gateway(READY, "the new process to identify", |s| {
            s.identifies > before
        })
        .await
        .unwrap();
        fake.wait_ready(READY).await.unwrap();
    }

    /// The process id of the running process.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Kill the process (SIGKILL) and start a new one on the same database without waiting
    /// for it to connect: when the new one was started. An unsharded process's old connection
    /// is dropped at the fake first; a sharded one's are waited for to close.
    pub async fn respawn(&mut self, fake: &F) -> std::time::Instant {
        self.kill();
        if self.shards.is_some() {
            let token = self.token.clone();
            fake.wait_sessions(READY, "the killed process's connections to close", |s| {
                s.iter().all(|s| s.bot_token != token)
            })
            .await
            .unwrap();
        } else {
            fake.drop_gateway().await;
        }
        let started = std::time::Instant::now();
        self.spawn();
        started
    }

    /// Stop the process as a service manager does (SIGTERM) and wait for it to exit: its exit
    /// status.
    pub async fn terminate(&mut self) -> std::process::ExitStatus {
        let mut child = self.child.take().expect("a running bot");
        let killed = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let deadline = tokio::time::Instant::now() + Duration::from_secs(40);
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return status;
            }
            if tokio::time::Instant::now() > deadline {
                let _ = child.kill();
                panic!("the bot did not stop after SIGTERM: {}", self.log());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Start the process again on the same database (after `terminate`).
    pub async fn start_again(&mut self, fake: &F) {
        fake.drop_gateway().await;
        self.spawn();
        fake.wait_ready(READY).await.unwrap();
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        self.child
            .as_mut()
            .is_some_and(|c| c.try_wait().unwrap().is_none())
    }

    pub fn set_clock(&self, ms: i64) {
        let tmp = self.dir.path().join("clock.tmp");
        std::fs::write(&tmp, ms.to_string()).unwrap();
        std::fs::rename(tmp, self.dir.path().join("clock")).unwrap();
    }

    /// The game as stored (a fresh host on the same file, so nothing is cached). The game row
    /// and the log are read by two statements while the bot may be writing, so a read that
    /// falls between its commits (the row one version behind the log) is read again.
    pub async fn state(&self, game: i64) -> GameState {
        let store = hexmeros::store::Store::open(&self.db_url()).await.unwrap();
        let host = GameHost::new(store.clone(), std::sync::Arc::new(SystemClock));
        let deadline = tokio::time::Instant::now() + T;
        let s = loop {
            match host.state(game).await {
                Ok(s) => break s,
                Err(_) if tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Err(e) => panic!("game #{game} does not load: {e}"),
            }
        };
        store.close().await;
        s
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    /// Kill the process (as dropping the bot does) but keep its database, to read what it left.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.kill();
        // A failing test shows what the bot said last (its files go with the directory).
        if std::thread::panicking() {
            let log = self.log();
            let tail: Vec<&str> = log.lines().rev().take(40).collect();
            eprintln!("--- the bot's last log lines ---");
            for line in tail.into_iter().rev() {
                eprintln!("{line}");
            }
        }
    }
}

/// The fake's `n`-th user.
pub fn u(n: u64) -> u64 {
    F::user(n)
}

/// A subcommand with its options.
pub fn sub(name: &str, options: Value) -> Value {
    json!([{ "type": 1, "name": name, "options": options }])
}

pub fn user_opt(name: &str, id: u64) -> Value {
    json!({ "type": 6, "name": name, "value": id.to_string() })
}

pub fn str_opt(name: &str, v: &str) -> Value {
    json!({ "type": 3, "name": name, "value": v })
}

pub fn bool_opt(name: &str, v: bool) -> Value {
    json!({ "type": 5, "name": name, "value": v })
}

pub fn int_opt(name: &str, v: i64) -> Value {
    json!({ "type": 4, "name": name, "value": v })
}

/// The text of a followup or message body.
pub fn content(s: &Sent) -> String {
    s.json
        .as_ref()
        .and_then(|j| j["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

/// Every custom_id in a message body, in order.
pub fn custom_ids(body: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for row in body["components"].as_array().into_iter().flatten() {
        for c in row["components"].as_array().into_iter().flatten() {
            if let Some(id) = c["custom_id"].as_str() {
                out.push(id.to_string());
            }
        }
    }
    out
}

/// The custom_id of the control doing `action` in a message body.
pub fn id_with(body: &Value, action: &str) -> String {
    custom_ids(body)
        .into_iter()
        .find(|id| id.split(':').nth(1) == Some(action))
        .unwrap_or_else(|| panic!("no {action} control in {body}"))
}

/// Whether a followup or message is private (ephemeral).
pub fn is_private(s: &Sent) -> bool {
    s.json
        .as_ref()
        .and_then(|j| j["flags"].as_u64())
        .is_some_and(|f| f & 64 != 0)
}

/// The id of the message a post made.
pub fn message_id(s: &Sent) -> u64 {
    s.response["id"].as_str().unwrap().parse().unwrap()
}

/// The first followup (webhook post) of an interaction after its acknowledgement.
pub async fn followup(fake: &F, i: &Interaction) -> Sent {
    let s = fake
        .wait_responses(i, T, 1, |s| {
            s.method == "POST" && s.path.starts_with("/webhooks/")
        })
        .await
        .unwrap();
    s.into_iter().next().unwrap()
}

/// The first callback came in time and was an acknowledgement.
pub async fn acked(fake: &F, i: &Interaction) {
    let first = fake.first_response(i, T).await.unwrap();
    assert_eq!(first.status, 204, "first response {first:?}");
}

/// `/hexmeros <name> …` by `user` in `channel`, acknowledged in time: its reply.
pub async fn hx(fake: &F, user: u64, channel: u64, name: &str, options: Value) -> Sent {
    let i = fake
        .slash(user, channel, "hexmeros", sub(name, options))
        .await;
    acked(fake, &i).await;
    followup(fake, &i).await
}

/// The latest turn message in `thread` (the one with a Move… button): its id and body.
pub fn turn_message(fake: &F, thread: u64) -> (u64, Value) {
    let m = fake
        .messages(thread)
        .into_iter()
        .rev()
        .find(|m| {
            m.json.as_ref().is_some_and(|j| {
                custom_ids(j)
                    .iter()
                    .any(|id| id.split(':').nth(1) == Some("pick"))
            })
        })
        .expect("a turn message");
    (message_id(&m), m.json.unwrap())
}

/// A message in `channel` whose content contains `needle`, posted after `after` earlier
/// messages, waited for.
pub async fn wait_message(fake: &F, channel: u64, after: usize, needle: &str) -> Sent {
    let deadline = tokio::time::Instant::now() + T;
    loop {
        let msgs = fake.messages(channel);
        if let Some(m) = msgs
            .iter()
            .skip(after)
            .find(|m| content(m).contains(needle))
        {
            return m.clone();
        }
        if tokio::time::Instant::now() > deadline {
            let all: Vec<String> = msgs.iter().map(content).collect();
            panic!("no message with {needle:?} in {channel}; messages: {all:#?}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `/hexmeros start` by `players[0]` naming all of `players` (plus `extra` options, e.g. the
/// game), every other player joining the lobby if one opens: the game's id and its thread.
pub async fn start_game(fake: &F, players: &[u64], extra: Vec<Value>) -> (i64, u64) {
    start_game_in(fake, F::CHANNEL_ID, players, extra).await
}

/// [`start_game`] in `channel`, a text channel of any server; it returns once the game's status
/// panel is pinned.
pub async fn start_game_in(
    fake: &F,
    channel: u64,
    players: &[u64],
    extra: Vec<Value>,
) -> (i64, u64) {
    let mut opts: Vec<Value> = players
        .iter()
        .enumerate()
        .map(|(i, &p)| user_opt(&format!("p{}", i + 1), p))
        .collect();
    opts.extend(extra);
    let mut text = content(&hx(fake, players[0], channel, "start", json!(opts)).await);
    if text.contains("lobby #") {
        let lobby = lobby_number(&text).unwrap_or_else(|| panic!("no lobby in {text:?}"));
        let join = format!("{lobby}:ljoin:0");
        let deadline = tokio::time::Instant::now() + T;
        let msg = loop {
            if let Some(m) = fake.messages(channel).into_iter().find(|m| {
                m.json
                    .as_ref()
                    .is_some_and(|j| custom_ids(j).contains(&join))
            }) {
                break m;
            }
            assert!(tokio::time::Instant::now() < deadline, "no lobby message");
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        for &p in &players[1..] {
            let i = fake.button(p, channel, message_id(&msg), &join).await;
            acked(fake, &i).await;
            text = content(&followup(fake, &i).await);
        }
    }
    let id: i64 = text
        .split_once(" started")
        .and_then(|(b, _)| b.rsplit('#').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no game in {text:?}"));
    // The reply may reach us before the fake has recorded the thread the bot opened: wait.
    let name = format!("#{id}");
    let deadline = tokio::time::Instant::now() + T;
    let thread = loop {
        if let Some((thread, _, _)) = fake
            .threads()
            .into_iter()
            .find(|(_, _, n)| n.ends_with(&name))
        {
            break thread;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no thread for game {id}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    // The start is complete once its status panel is pinned: the background posts it after the
    // first board, when the answers above may have come already.
    while fake.pinned(thread).is_empty() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no status panel for game {id}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    (id, thread)
}

/// The lobby a starter's answer names (`lobby #3 is open…`).
pub fn lobby_number(text: &str) -> Option<i64> {
    let rest = text.split("lobby #").nth(1)?;
    rest.split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// The text of the status panel pinned in `thread` once it contains `needle`, waited for (the
/// panel is edited after the turn message, so it may lag behind it).
pub async fn wait_panel(fake: &F, thread: u64, needle: &str) -> String {
    let deadline = tokio::time::Instant::now() + T;
    loop {
        let text = fake
            .pinned(thread)
            .first()
            .and_then(|&id| fake.message(id))
            .and_then(|m| m["content"].as_str().map(str::to_string))
            .unwrap_or_default();
        if text.contains(needle) {
            return text;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no {needle:?} on the status panel of {thread}: {text:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Every first response came in time, the bot called nothing the fake does not know, and it
/// logged no internal error (a refusal is not one).
/// Waits until `ok` holds, at most `deadline`: what is waited for is named in the failure.
pub async fn until_within(what: &str, deadline: Duration, mut ok: impl FnMut() -> bool) {
    let end = tokio::time::Instant::now() + deadline;
    while !ok() {
        assert!(
            tokio::time::Instant::now() < end,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// [`until_within`] the usual deadline, [`T`].
pub async fn until(what: &str, ok: impl FnMut() -> bool) {
    until_within(what, T, ok).await
}

/// How many messages the fake made in `channel` whose text contains `needle`, whatever the
/// bot heard back.
pub fn made_in(fake: &F, channel: u64, needle: &str) -> usize {
    fake.made()
        .iter()
        .filter(|m| m.channel == channel && m.content.contains(needle))
        .count()
}

pub fn assert_clean(fake: &F, bot: &Bot) {
    assert!(
        fake.late_callbacks().is_empty(),
        "late first responses: {:?}",
        fake.late_callbacks()
    );
    let unexpected = fake.unexpected();
    assert!(unexpected.is_empty(), "unexpected calls: {unexpected:?}");
    let log = bot.log();
    assert!(
        !log.contains(" ERROR ") && !log.contains("panicked"),
        "{log}"
    );
}

/// Silver's first move `a` (one that opens no challenge window) and Blue's answer `b` such that
/// `pred(after a, b)`: the shortest way to a HexiMeros position a scenario needs, searched in the
/// rules engine (a few milliseconds).
pub fn heximeros_pair(pred: impl Fn(&HexiMeros, &HMove) -> bool) -> (String, String) {
    let g = HexiMeros::start(Default::default());
    for a in g.legal_moves() {
        if !g.challengers(&a).is_empty() {
            continue;
        }
        let g1 = g.after(&a);
        if let Some(b) = g1.legal_moves().into_iter().find(|b| pred(&g1, b)) {
            return (g.move_text(&a), g1.move_text(&b));
        }
    }
    panic!("no such pair of moves");
}

/// The first select menu of a message: its custom id and its options as (label, value, marked
/// as the default).
pub fn select_menu(s: &Sent) -> (String, Vec<(String, String, bool)>) {
    let body = s.json.as_ref().unwrap();
    for row in body["components"].as_array().unwrap() {
        for c in row["components"].as_array().unwrap() {
            if c["type"] == 3 {
                let options = c["options"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| {
                        (
                            o["label"].as_str().unwrap().to_string(),
                            o["value"].as_str().unwrap().to_string(),
                            o["default"] == true,
                        )
                    })
                    .collect();
                return (c["custom_id"].as_str().unwrap().to_string(), options);
            }
        }
    }
    panic!("no select menu in {body}");
}

/// A click by `user` on control `id` of message `msg`, acknowledged in time: its private reply.
pub async fn click(fake: &F, user: u64, channel: u64, msg: u64, id: &str) -> Sent {
    let i = fake.button(user, channel, msg, id).await;
    acked(fake, &i).await;
    let r = followup(fake, &i).await;
    assert!(is_private(&r), "{r:?}");
    r
}

/// A click answered either in place (the control's own message edited, as a Pass that
/// committed) or by a private message of its own (a refusal): that answer.
pub async fn click_answer(fake: &F, user: u64, channel: u64, msg: u64, id: &str) -> Sent {
    let i = fake.button(user, channel, msg, id).await;
    acked(fake, &i).await;
    let sent = fake
        .wait_responses(&i, T, 1, |s| {
            (s.method == "PATCH" && s.path.ends_with("/messages/@original"))
                || (s.method == "POST" && s.path.starts_with("/webhooks/"))
        })
        .await
        .unwrap();
    sent.into_iter().next().unwrap()
}

/// Every picture the bot sent (a PNG or GIF attachment, in a message or an interaction's
/// answer) carried a description for screen readers, within Discord's 1,024 characters; the
/// descriptions of the pictures named `name`, in order.
pub fn described_pictures(fake: &F, name: &str) -> Vec<String> {
    let mut found = Vec::new();
    for s in fake.requests() {
        let Some(list) = s
            .json
            .as_ref()
            .and_then(|j| j["attachments"].as_array().cloned())
        else {
            continue;
        };
        for a in list {
            let file = a["filename"].as_str().unwrap_or_default();
            if !(file.ends_with(".png") || file.ends_with(".gif")) {
                continue;
            }
            let d = a["description"].as_str().unwrap_or_default();
            assert!(
                !d.is_empty(),
                "{file} has no description: {} {}",
                s.method,
                s.path
            );
            assert!(
                d.chars().count() <= 1024,
                "{file}'s description is too long"
            );
            if file == name {
                found.push(d.to_string());
            }
        }
    }
    found
}

/// Whether a request is the background job's taking an old turn message's buttons off (an edit
/// of a thread's message to carry no components), which waits for every move's own requests.
pub fn is_cleanup(s: &Sent) -> bool {
    s.method == "PATCH"
        && s.path.starts_with("/channels/")
        && s.path.contains("/messages/")
        && !s.path.ends_with("@original")
        && s.json.as_ref() == Some(&serde_json::json!({"components": []}))
}

/// Whether an answer edited the control's own message (rather than adding one).
pub fn is_edit(s: &Sent) -> bool {
    s.method == "PATCH" && s.path.ends_with("/messages/@original")
}

/// A refusal: private, with a warning and the given words.
pub fn assert_refused(s: &Sent, words: &str) {
    let text = content(s);
    assert!(text.starts_with("⚠️") && text.contains(words), "{s:?}");
    assert!(is_private(s), "{s:?}");
}
