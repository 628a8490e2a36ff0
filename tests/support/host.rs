//! What the host tests (tests/host/scenarios.rs, tests/host/bots.rs) share: a `GameHost` on a fresh
//! database (a temporary SQLite file, or a PostgreSQL database when `HEXMEROS_TEST_POSTGRES`
//! names a server: `support/db.rs`) with a hand-moved clock, players, and acting as a player.
//! Include `support/db.rs` as `mod db` next to it.
#![allow(dead_code)] // each test file uses what it needs

use std::sync::Arc;

use hexmeros::games::AnyGame;
use hexmeros::host::{Actor, Command, Effect, GameHost, GameId, GameState, ManualClock};
use hexmeros::store::Store;

/// The rules position of a game as a tool outside the host reads it, from its position JSON:
/// the host keeps its own to itself (`GameState::position` is the crate's), and the front ends
/// see the game only through its projection.
pub trait RulesOf {
    fn rules(&self) -> AnyGame;
}

impl RulesOf for GameState {
    fn rules(&self) -> AnyGame {
        hexmeros::games::read_position(&self.position_json())
            .expect("the host's position JSON reads back")
    }
}

/// The clock's start, in milliseconds.
pub const T0: i64 = 1_700_000_000_000;

/// A host on a fresh database; `url` and `clock` open another host on the same database.
pub struct Env {
    pub url: String,
    pub clock: Arc<ManualClock>,
    pub host: GameHost,
    /// Last, so the host goes before its database does.
    pub db: crate::db::TestDb,
}

pub async fn env() -> Env {
    let db = crate::db::TestDb::new().await;
    let url = db.url.clone();
    let clock = Arc::new(ManualClock::new(T0));
    let host = host_on(&url, &clock).await;
    Env {
        url,
        clock,
        host,
        db,
    }
}

/// A host on the database at `url`: another process on the same file, or the same one restarted.
pub async fn host_on(url: &str, clock: &Arc<ManualClock>) -> GameHost {
    GameHost::new(Store::open(url).await.unwrap(), clock.clone())
}

/// Players `ids`, named p1, p2…
pub async fn ensure_players(host: &GameHost, ids: impl IntoIterator<Item = i64>) {
    for p in ids {
        host.store()
            .ensure_player(p, &format!("p{p}"), T0)
            .await
            .unwrap();
    }
}

pub fn cmd_move(text: &str) -> Command {
    Command::Move {
        text: text.into(),
        commit: true,
    }
}

/// A vote on the open motion.
pub fn vote(yes: bool) -> Command {
    Command::Vote { motion: None, yes }
}

/// `player` gives `cmd`, which must be accepted.
pub async fn act(host: &GameHost, game: GameId, player: i64, cmd: Command) -> Vec<Effect> {
    host.handle(game, Actor::player(player), cmd, None)
        .await
        .unwrap_or_else(|e| panic!("player {player}: {e}"))
        .effects
}

/// Everyone asked about the staged move lets it stand (the holder must still pass).
pub async fn let_it_stand(host: &GameHost, game: GameId, st: &GameState) {
    if let Some(staged) = &st.staged() {
        for s in staged.waiting() {
            let p = st.seats()[s.index()].player;
            act(host, game, p, Command::Challenge { declare: false }).await;
        }
    }
}

/// The first legal move of the position, as text.
pub async fn first_move(host: &GameHost, game: GameId) -> String {
    host.state(game).await.unwrap().rules().legal_moves()[0].clone()
}

pub fn said(fx: &[Effect], needle: &str) -> bool {
    fx.iter().any(|e| format!("{e:?}").contains(needle))
}

/// Players 1…6 in seats Silver…Red of a game set up from `tests/data/scenarios/<name>.json`.
pub async fn scenario(host: &GameHost, name: &str) -> GameId {
    ensure_players(host, 1..=7).await;
    let path = format!("{}/tests/data/scenarios/{name}.json", crate::REPO);
    let json = std::fs::read_to_string(&path).unwrap();
    host.create_from_position(&[1, 2, 3, 4, 5, 6], &json, None)
        .await
        .unwrap()
        .0
}

/// From the start position, 31 plies (found by `cargo run --example find_scenarios`, seed 0)
/// after which Blue may play F11-G14 declaring Check, or E14-F13 moving his Sovereign into
/// Green's attack.
/// Scenarios that need no history start from the position after it instead:
/// `tests/data/scenarios/heximeros_blue_may_check.json` (`hexmeros rules play` of these moves).
pub const HEXIMEROS_PREFIX: [&str; 31] = [
    "U2xT1",
    "C20xG16",
    "G44xG38",
    "M50xL51",
    "AA44xAA46",
    "AE20xAE18",
    "T1xP5",
    "G8xG12",
    "C32xF35",
    "L51xI48",
    "AA46xX43",
    "AE18xAC16",
    "M2xN1",
    "G16xG10",
    "G38xC34",
    "U50xT51",
    "AE32xAA36",
    "AC16xAB17",
    "P5xM2",
    "G10xJ13",
    "F35xB31",
    "T51xQ48",
    "X43xT47",
    "AB17xAB15",
    "N1xL3",
    "J13xF9",
    "C34xG30",
    "Q48xR47",
    "AA36xAA38",
    "AB15xZ13",
    "L3xL11",
];
