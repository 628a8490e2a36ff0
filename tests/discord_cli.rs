#![allow(clippy::unwrap_used)]
//! `hexmeros serve` without a token: a clear message naming the variable and where to get a
//! token, exit code 2, and no connection attempted.

use std::process::Command;

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

#[test]
fn serve_with_a_bad_guild_id_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hexmeros"))
        .arg("serve")
        .current_dir(dir.path())
        .env("DISCORD_TOKEN", "x")
        .env("DEV_GUILD_ID", "my-server")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("DEV_GUILD_ID"), "{err}");
}
