//! What the integration tests (`tests/*.rs`) and the benchmarks share, compiled once: the fake
//! Discord, the real `hexmeros serve` under test, test databases (SQLite, or PostgreSQL when
//! `HEXMEROS_TEST_POSTGRES` is set), host and CLI helpers, soak and load drivers. The files live
//! in `tests/support/`; a test takes what it needs with `use hexmeros_testkit::{bot, …};`.
//!
//! Before, each test binary included these files with `#[path]`, and the fake Discord (3,000
//! lines over axum) was compiled again for each of about 20 binaries: most of CI's build time.
#![allow(clippy::unwrap_used)] // test support: a panic is the test's failure

#[path = "../../tests/support/bot.rs"]
pub mod bot;
#[path = "../../tests/support/browser.rs"]
pub mod browser;
#[path = "../../tests/support/cli.rs"]
pub mod cli;
#[path = "../../tests/support/db.rs"]
pub mod db;
#[path = "../../tests/support/fake_discord.rs"]
pub mod fake_discord;
#[path = "../../tests/support/golden.rs"]
pub mod golden;
#[path = "../../tests/support/host.rs"]
pub mod host;
#[path = "../../tests/support/laws.rs"]
pub mod laws;
#[path = "../../tests/support/scale.rs"]
pub mod scale;
#[path = "../../tests/support/soak.rs"]
pub mod soak;
#[path = "../../tests/support/starts.rs"]
pub mod starts;

/// The `hexmeros` binary of this build. Cargo builds it beside every integration test and
/// benchmark (`target/<profile>/hexmeros`, the test itself in `target/<profile>/deps/`), but only
/// tells the package's own targets where (`CARGO_BIN_EXE_hexmeros`); `HEXMEROS_BIN` overrides.
pub fn hexmeros_bin() -> std::path::PathBuf {
    if let Some(p) = std::env::var_os("HEXMEROS_BIN") {
        return p.into();
    }
    let exe = std::env::current_exe().expect("the test knows its own path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test runs from target/<profile>/deps");
    let bin = dir.join(format!("hexmeros{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "no hexmeros binary at {} (build it with `cargo build`, or set HEXMEROS_BIN)",
        bin.display()
    );
    bin
}

/// The repository's root (the hexmeros package), for its test data.
pub const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
