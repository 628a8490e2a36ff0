#![allow(clippy::unwrap_used)]
//! The short fault-injection soak (issue 18) in the default test run: a few HexDame games and
//! one HexiMeros game with bots, against the fake Discord injecting a few faults of each kind,
//! one outage of a few seconds, one gateway drop and one SIGKILL + restart of the bot. The full
//! soak is `cargo bench --bench soak`; both are `tests/support/soak.rs`.

use hexmeros_testkit::{fake_discord, soak};

use std::time::Duration;

use fake_discord::Chaos;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_is_lost_or_doubled_under_faults_an_outage_a_gateway_drop_and_a_sigkill() {
    let cfg = soak::Config::from_env(soak::Config {
        seed: 7,
        duels: 3,
        meros: 1,
        play: Duration::from_secs(30),
        chaos: Chaos {
            seed: 7,
            p500: 0.06,
            p429: 0.03,
            p_after: 0.04,
            p_drop: 0.04,
            retry_after: 0.5,
        },
        outage_at: Duration::from_secs(8),
        outage: Duration::from_secs(3),
        gateway_every: Duration::from_secs(18),
        kills: 1,
        drain: Duration::from_secs(60),
        max_moves: 1000,
        think: Duration::from_millis(400),
        verbose: true,
    });
    let report = soak::run(cfg).await;
    report.print();
    report.assert_ok();
}
