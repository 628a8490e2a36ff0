#![allow(clippy::unwrap_used)]
//! `hexmeros serve` with a missing or harmful setting: a clear message naming the variable, exit
//! code 2, and no connection attempted.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn serve_without_a_token_explains_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hexmeros"))
        .arg("serve")
        .current_dir(dir.path())
        .env_remove("DISCORD_TOKEN")
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.path().join("t.db").display()),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("DISCORD_TOKEN"), "{err}");
    assert!(err.contains("discord.com/developers/applications"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(out.stdout.is_empty());
}

/// `hexmeros serve` with a token and `vars`, in an empty directory (its database file there).
/// `DISCORD_API_BASE` defaults to a closed port of this machine, so nothing leaves it.
fn serve(vars: &[(&str, &str)], dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hexmeros"));
    cmd.arg("serve")
        .current_dir(dir)
        .env("DISCORD_TOKEN", "x")
        .env("DISCORD_API_BASE", "http://127.0.0.1:1")
        .env_remove("DEV_GUILD_ID")
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.join("t.db").display()),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in vars {
        cmd.env(k, v);
    }
    cmd
}

/// Refused before anything starts: exit 2 within the deadline, one line naming `var`, no
/// database created.
fn assert_refused(vars: &[(&str, &str)], var: &str) {
    assert_refused_saying(&[], vars, &format!("{var} must be"));
}

/// `serve` with more `args` refused as `assert_refused` says, its one line starting with
/// `error: ` and `start`.
fn assert_refused_saying(args: &[&str], vars: &[(&str, &str)], start: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut child = serve(vars, dir.path()).args(args).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            panic!("{vars:?}: still running after 20 s (not refused): {err}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{vars:?}: {err}");
    assert!(
        err.starts_with(&format!("error: {start}")),
        "{vars:?}: {err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(
        !dir.path().join("t.db").exists(),
        "{vars:?} opened the database"
    );
}

#[test]
fn serve_with_a_bad_request_timeout_names_it() {
    for bad in ["soon", "50", "-1"] {
        assert_refused(
            &[("HEXMEROS_DISCORD_TIMEOUT_MS", bad)],
            "HEXMEROS_DISCORD_TIMEOUT_MS",
        );
    }
}

#[test]
fn serve_with_a_bad_lock_setting_names_it() {
    for bad in ["yes", "1", "locked"] {
        assert_refused(&[("HEXMEROS_LOCK_FINISHED", bad)], "HEXMEROS_LOCK_FINISHED");
    }
}

#[test]
fn serve_with_a_bad_guild_id_names_it() {
    for bad in ["my-server", "0", "-5"] {
        assert_refused(&[("DEV_GUILD_ID", bad)], "DEV_GUILD_ID");
    }
}

#[test]
fn serve_refuses_an_api_base_off_this_machine() {
    for bad in [
        "https://discord.com",
        "http://10.0.0.1",
        "http://127.evil.com",
        "discord.com",
    ] {
        assert_refused(&[("DISCORD_API_BASE", bad)], "DISCORD_API_BASE");
    }
    // On this machine it is accepted: the bot gets as far as its database (then keeps trying
    // to connect, so it is stopped here).
    let dir = tempfile::tempdir().unwrap();
    let vars = [
        ("DISCORD_API_BASE", "http://localhost:1"),
        ("DEV_GUILD_ID", "42"),
    ];
    let mut child = serve(&vars, dir.path()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !dir.path().join("t.db").exists() && Instant::now() < deadline {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(dir.path().join("t.db").exists(), "not started: {err}");
    assert!(!err.contains("must be"), "{err}");
}

#[test]
fn serve_with_a_bad_metrics_address_names_it() {
    for bad in ["9100", "localhost:9100", "127.0.0.1", "127.0.0.1:port"] {
        assert_refused(&[("HEXMEROS_METRICS", bad)], "HEXMEROS_METRICS");
        assert_refused_saying(&["--metrics", bad], &[], "--metrics must be");
    }
    // The flag goes before the variable: a good variable does not save a bad flag.
    assert_refused_saying(
        &["--metrics", "nowhere"],
        &[("HEXMEROS_METRICS", "127.0.0.1:0")],
        "--metrics must be",
    );
}

#[test]
fn serve_with_a_bad_shard_range_names_it_before_connecting() {
    for (range, total, start) in [
        ("3-1", "4", "--shards \"3-1\" ends before it starts"),
        ("0-4", "4", "--shards \"0-4\" goes past the last shard"),
        ("first", "4", "--shards must be a range"),
        ("0-3", "0", "--total-shards must be"),
        ("0-3", "many", "--total-shards must be"),
    ] {
        assert_refused_saying(&["--shards", range, "--total-shards", total], &[], start);
    }
    assert_refused_saying(
        &["--shards", "0-3"],
        &[],
        "--shards \"0-3\" needs the total number of shards",
    );
    assert_refused(&[("HEXMEROS_TOTAL_SHARDS", "-2")], "HEXMEROS_TOTAL_SHARDS");
    assert_refused_saying(
        &[],
        &[("HEXMEROS_SHARDS", "2-9"), ("HEXMEROS_TOTAL_SHARDS", "8")],
        "HEXMEROS_SHARDS \"2-9\" goes past the last shard",
    );
    // The flags go before the variables: a good variable does not save a bad flag.
    assert_refused_saying(
        &["--shards", "5-2"],
        &[("HEXMEROS_SHARDS", "0-1"), ("HEXMEROS_TOTAL_SHARDS", "8")],
        "--shards \"5-2\" ends before it starts",
    );
}

#[test]
fn serve_with_a_bad_log_format_names_it() {
    assert_refused(&[("HEXMEROS_LOG_FORMAT", "yaml")], "HEXMEROS_LOG_FORMAT");
    assert_refused_saying(
        &["--log-format", "xml"],
        &[],
        "--log-format must be text or json",
    );
}

/// With `HEXMEROS_LOG_FORMAT=json` every line on stderr is one JSON object with the time, the
/// level, the target and the fields (here: Discord at a closed port does not answer).
#[test]
fn json_logs_are_one_object_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = serve(&[("HEXMEROS_LOG_FORMAT", "json")], dir.path())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead as _;
        for line in std::io::BufReader::new(stderr).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut lines = Vec::new();
    while !lines
        .iter()
        .any(|l: &String| l.contains("not connecting to Discord"))
    {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => lines.push(line),
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("not connecting to Discord")),
        "{lines:#?}"
    );
    for line in &lines {
        let v: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
        assert!(v["timestamp"].is_string(), "{line}");
        assert!(v["level"].is_string(), "{line}");
        assert!(v["target"].is_string(), "{line}");
        assert!(v["fields"]["message"].is_string(), "{line}");
    }
    let error = lines
        .iter()
        .find(|l| l.contains("not connecting to Discord"))
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(error).unwrap();
    assert_eq!(v["level"], "ERROR");
    assert!(v["fields"]["error"].is_string(), "{error}");
}

#[test]
fn serve_stops_when_the_metrics_port_is_taken() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    assert_refused_saying(
        &[],
        &[("HEXMEROS_METRICS", &addr)],
        &format!("HEXMEROS_METRICS: cannot serve metrics on {addr}"),
    );
    assert_refused_saying(
        &["--metrics", &addr],
        &[],
        &format!("--metrics: cannot serve metrics on {addr}"),
    );
}

#[test]
fn serve_with_a_public_address_but_no_web_board_names_both() {
    // Ignored before: the turn messages then had no board link, and nothing said why.
    let url = [("HEXMEROS_PUBLIC_URL", "https://board.example.org")];
    assert_refused_saying(
        &[],
        &url,
        "HEXMEROS_PUBLIC_URL (--public-url) is the web board's",
    );
    assert_refused_saying(
        &["--public-url", "https://board.example.org"],
        &[],
        "HEXMEROS_PUBLIC_URL (--public-url) is the web board's",
    );
}

#[test]
fn serve_with_a_client_secret_but_no_web_board_names_both() {
    // The Activity is the web board inside Discord: a secret without the board is a mistake.
    assert_refused_saying(
        &[],
        &[("DISCORD_CLIENT_SECRET", "s3cret-not-echoed")],
        "DISCORD_CLIENT_SECRET is set for the board's Discord Activity",
    );
    let dir = tempfile::tempdir().unwrap();
    let out = serve(
        &[("DISCORD_CLIENT_SECRET", "s3cret-not-echoed")],
        dir.path(),
    )
    .output()
    .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("HEXMEROS_WEB"), "{err}");
    assert!(
        !err.contains("s3cret-not-echoed"),
        "the secret echoed: {err}"
    );
}

#[test]
fn serve_help_lists_every_setting_with_its_flag_variable_and_default() {
    let out = Command::new(env!("CARGO_BIN_EXE_hexmeros"))
        .args(["serve", "--help"])
        .env("DATABASE_URL", "postgres://u:hunter2@db/x")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for (flag, var) in [
        ("--db", "DATABASE_URL"),
        ("--metrics", "HEXMEROS_METRICS"),
        ("--shards", "HEXMEROS_SHARDS"),
        ("--total-shards", "HEXMEROS_TOTAL_SHARDS"),
        ("--web", "HEXMEROS_WEB"),
        ("--public-url", "HEXMEROS_PUBLIC_URL"),
        ("--dev-guild", "DEV_GUILD_ID"),
        ("--api-base", "DISCORD_API_BASE"),
        ("--lobby-hours", "LOBBY_HOURS"),
        ("--rate-pictures", "HEXMEROS_RATE_PICTURES"),
        ("--rate-dms", "HEXMEROS_RATE_DMS"),
        ("--rate-starts", "HEXMEROS_RATE_STARTS"),
        ("--rate-away", "HEXMEROS_RATE_AWAY"),
        ("--rate-bot-seats", "HEXMEROS_RATE_BOT_SEATS"),
        ("--max-active-games", "HEXMEROS_MAX_ACTIVE_GAMES"),
        ("--render-queue", "HEXMEROS_RENDER_QUEUE"),
        ("--bot-queue", "HEXMEROS_BOT_QUEUE"),
        ("--rate-discord", "HEXMEROS_RATE_DISCORD"),
        ("--lock-finished", "HEXMEROS_LOCK_FINISHED"),
        ("--discord-timeout-ms", "HEXMEROS_DISCORD_TIMEOUT_MS"),
        ("--clock-file", "HEXMEROS_CLOCK_FILE"),
        ("--tick-ms", "HEXMEROS_TICK_MS"),
        ("--web-header-timeout-ms", "HEXMEROS_WEB_HEADER_TIMEOUT_MS"),
        ("--web-idle-timeout-ms", "HEXMEROS_WEB_IDLE_TIMEOUT_MS"),
        ("--web-connections", "HEXMEROS_WEB_CONNECTIONS"),
        ("--web-trusted-proxies", "HEXMEROS_WEB_TRUSTED_PROXIES"),
        ("--rate-sign-ins", "HEXMEROS_RATE_SIGN_INS"),
        ("--access-give-up-ms", "HEXMEROS_ACCESS_GIVE_UP_MS"),
        ("--log-format", "HEXMEROS_LOG_FORMAT"),
        ("--retention-days", "HEXMEROS_RETENTION_DAYS"),
    ] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{flag} ")))
            .unwrap_or_else(|| panic!("no {flag} in: {help}"));
        assert!(line.contains(&format!("[env: {var}]")), "{line}");
        assert!(line.contains("[default: "), "{line}");
    }
    // The secrets are named, as variables only; no value set in the environment is shown.
    for secret in ["DISCORD_TOKEN", "DISCORD_CLIENT_SECRET"] {
        assert!(help.contains(secret), "{help}");
        assert!(!help.contains(&format!("--{}", secret.to_lowercase().replace('_', "-"))));
    }
    assert!(!help.contains("hunter2"), "a set value shown: {help}");
}

#[test]
fn a_bad_flag_is_named_as_a_flag_and_a_flag_goes_before_its_variable() {
    assert_refused_saying(&["--lobby-hours", "0"], &[], "--lobby-hours must be");
    assert_refused_saying(
        &["--rate-pictures", "often"],
        &[],
        "--rate-pictures must be",
    );
    assert_refused_saying(&["--dev-guild", "x"], &[], "--dev-guild must be");
    // The web board's address and public URL, named as they came.
    assert_refused_saying(&["--web", "foo"], &[], "--web: \"foo\" is not an address");
    assert_refused_saying(
        &[],
        &[("HEXMEROS_WEB", "foo")],
        "HEXMEROS_WEB: \"foo\" is not an address",
    );
    assert_refused_saying(
        &["--web", "0", "--public-url", "x"],
        &[],
        "--public-url must be the board's http(s) address",
    );
    assert_refused_saying(
        &["--retention-days", "0"],
        &[],
        "--retention-days must be a whole number of days, at least 1, not \"0\"",
    );
    assert_refused_saying(
        &[],
        &[("HEXMEROS_RETENTION_DAYS", "a month")],
        "HEXMEROS_RETENTION_DAYS must be a whole number of days",
    );
    assert_refused_saying(
        &["--discord-timeout-ms", "5"],
        &[],
        "--discord-timeout-ms must be",
    );
    // The web board's bounds (issue 60), checked whether or not the board is served.
    assert_refused_saying(
        &["--web-header-timeout-ms", "10s"],
        &[],
        "--web-header-timeout-ms must be milliseconds",
    );
    assert_refused_saying(
        &[],
        &[("HEXMEROS_WEB_IDLE_TIMEOUT_MS", "50")],
        "HEXMEROS_WEB_IDLE_TIMEOUT_MS must be milliseconds, 100 to 3600000",
    );
    assert_refused_saying(
        &["--web-connections", "0"],
        &[],
        "--web-connections must be how many connections",
    );
    assert_refused_saying(
        &["--web-trusted-proxies", "127.0.0.1, proxy.lan"],
        &[],
        "--web-trusted-proxies must be the proxies' addresses or networks, comma separated \
         (127.0.0.1, 10.0.0.0/8): \"proxy.lan\" is not an address",
    );
    assert_refused_saying(
        &[],
        &[("HEXMEROS_WEB_TRUSTED_PROXIES", "10.0.0.0/40")],
        "HEXMEROS_WEB_TRUSTED_PROXIES must be",
    );
    assert_refused_saying(
        &[],
        &[("HEXMEROS_RATE_SIGN_INS", "lots")],
        "HEXMEROS_RATE_SIGN_INS must be COUNT/PERIOD",
    );
    // How long a thread may be refused before its game is paused (issue 60).
    assert_refused_saying(
        &["--access-give-up-ms", "1h"],
        &[],
        "--access-give-up-ms must be milliseconds, not \"1h\"",
    );
    assert_refused_saying(
        &[],
        &[("HEXMEROS_ACCESS_GIVE_UP_MS", "10")],
        "HEXMEROS_ACCESS_GIVE_UP_MS must be at least 1000 (a second), not 10",
    );
    // The variable's bad value is not read when the flag gives one: the refusal is the other
    // flag's.
    assert_refused_saying(
        &["--rate-pictures", "4/20s", "--lock-finished", "maybe"],
        &[("HEXMEROS_RATE_PICTURES", "often")],
        "--lock-finished must be",
    );
    // An empty variable is unset.
    assert_refused_saying(
        &[],
        &[("LOBBY_HOURS", " "), ("HEXMEROS_LOCK_FINISHED", "maybe")],
        "HEXMEROS_LOCK_FINISHED must be",
    );
}
