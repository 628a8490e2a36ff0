#![allow(clippy::unwrap_used)]
//! The full fault-injection soak of issue 18: `cargo bench --bench soak`. 200 HexDame and 20
//! HexiMeros games (four bots each) against the fake Discord with ~10 % 500s, 5 % 429s, 2 %
//! answers lost after the message was made, 2 % dropped connections, a 60 s outage, a gateway
//! drop every 30 s and 5 SIGKILLs of the bot. Sizes and durations from `SOAK_*` variables
//! (`tests/support/soak.rs`, `Config::from_env`), e.g.
//! `SOAK_DUELS=20 SOAK_MEROS=2 SOAK_PLAY_S=120 SOAK_OUTAGE_S=20 cargo bench --bench soak`.

use hexmeros_testkit::soak;

fn main() {
    let cfg = soak::Config::from_env(soak::Config::full());
    eprintln!("soak config: {cfg:?}");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let report = rt.block_on(soak::run(cfg));
    report.print();
    report.assert_ok();
}
