//! Leases (issue 20): several processes on one database share the work no interaction ties to
//! one of them — a game's timers and a game's bots — each item done under its lease by one
//! process at a time; one that died holding a lease leaves the item to the others once it lapses.
//! Two hosts on one database stand for two processes.

#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host as support;
use hexmeros_testkit::host::RulesOf;

use hexmeros::ai::Level;
use hexmeros::games::GameKind;
use hexmeros::host::{GameHost, GameId, LEASE_MS, Timers, bots_lease, timers_lease};
use support::{act, cmd_move, ensure_players, env, host_on};

/// How many reminders `game`'s log holds.
async fn reminders(host: &GameHost, game: GameId) -> usize {
    let events = host.store().events(game).await.unwrap();
    events.iter().filter(|e| e.kind == "reminded").count()
}

/// A process named `owner` claims the lease `name` now (and then dies holding it): the time.
async fn hold(host: &GameHost, name: &str, owner: &str) -> i64 {
    let now = host.now();
    let claimed = host.store().claim_lease(name, owner, now, LEASE_MS).await;
    assert!(claimed.unwrap().is_some(), "{name} was free");
    now
}

/// A HexDame game with the default timers (a reminder an hour into a turn), White to move.
async fn hexdame(host: &GameHost) -> GameId {
    ensure_players(host, 1..=2).await;
    host.create(GameKind::HexDame, &[1, 2], None, Some(Timers::default()))
        .await
        .unwrap()
        .0
}

/// Two processes tick at the same moment, again and again, over a day of reminders: each
/// reminder is stored and told exactly once, and no lease is left behind.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hosts_ticking_at_once_remind_exactly_once() {
    let e = env().await;
    let g = hexdame(&e.host).await;
    let other = host_on(&e.url, &e.clock).await;
    let mut told = 0;
    for _ in 0..16 {
        e.clock.advance_minutes(61);
        let (a, b) = tokio::join!(e.host.tick(), other.tick());
        for fx in [a.unwrap(), b.unwrap()] {
            told += fx
                .iter()
                .filter(|f| format!("{f:?}").contains("reminder"))
                .count();
        }
        assert_eq!(e.host.store().lease(&timers_lease(g)).await.unwrap(), None);
    }
    // Reminders after 1, 4 and 12 hours of the turn.
    assert_eq!(reminders(&e.host, g).await, 3);
    assert!(told >= 3, "each reminder is told: {told}");
    let events = e.host.store().events(g).await.unwrap();
    let versions: Vec<i64> = events.iter().map(|ev| ev.version).collect();
    assert_eq!(versions, (0..events.len() as i64).collect::<Vec<_>>());
}

/// A process died while running a game's timers: its lease stands until it lapses, and the
/// other process leaves the game alone until then; then it runs the timers itself.
#[tokio::test]
async fn timers_leased_by_a_dead_process_run_once_its_lease_lapses() {
    let e = env().await;
    let g = hexdame(&e.host).await;
    e.clock.advance_minutes(61);
    let now = hold(&e.host, &timers_lease(g), "a process that died").await;
    let other = host_on(&e.url, &e.clock).await;
    assert!(other.tick().await.unwrap().is_empty());
    assert_eq!(
        reminders(&other, g).await,
        0,
        "the game is left to the lease's holder"
    );
    // Just before it lapses: still left alone.
    e.clock.set(now + LEASE_MS - 1);
    other.tick().await.unwrap();
    assert_eq!(reminders(&other, g).await, 0);
    // Lapsed: the other process takes the timers over, and gives the lease up when done.
    e.clock.set(now + LEASE_MS);
    other.tick().await.unwrap();
    assert_eq!(reminders(&other, g).await, 1);
    assert_eq!(other.store().lease(&timers_lease(g)).await.unwrap(), None);
}

/// A process died while its bot was thinking: the other process does not play the bot's move
/// while the lease stands, and plays it once it lapses; a bot run gives its lease up.
#[tokio::test]
async fn bots_leased_by_a_dead_process_move_once_its_lease_lapses() {
    let e = env().await;
    ensure_players(&e.host, 1..=1).await;
    let bot = e.host.bot_player(Level::Easy).await.unwrap();
    let (g, _) = e
        .host
        .create(GameKind::HexDame, &[1, bot], None, None)
        .await
        .unwrap();
    let mv = e.host.state(g).await.unwrap().rules().legal_moves()[0].clone();
    act(&e.host, g, 1, cmd_move(&mv)).await;
    let before = e.host.state(g).await.unwrap().version();
    let now = hold(&e.host, &bots_lease(g), "a process that died").await;
    let other = host_on(&e.url, &e.clock).await;
    assert!(other.bot_turns(g).await.unwrap().is_empty());
    other.tick().await.unwrap();
    assert_eq!(
        other.state(g).await.unwrap().version(),
        before,
        "no bot move"
    );
    e.clock.set(now + LEASE_MS);
    other.bot_turns(g).await.unwrap();
    let st = other.state(g).await.unwrap();
    assert!(st.version() > before, "the bot moved");
    assert_eq!(st.holder_player(), Some(1));
    assert_eq!(other.store().lease(&bots_lease(g)).await.unwrap(), None);
}

/// A process restarted in the same role (`with_lease_owner`, as `serve` does) takes back at once
/// the leases its predecessor died holding: a crash's timers go on right away.
#[tokio::test]
async fn a_restarted_process_takes_its_own_leases_back_at_once() {
    let e = env().await;
    let g = hexdame(&e.host).await;
    e.clock.advance_minutes(61);
    hold(&e.host, &timers_lease(g), "serve").await;
    let stranger = host_on(&e.url, &e.clock).await;
    stranger.tick().await.unwrap();
    assert_eq!(reminders(&stranger, g).await, 0, "another role waits");
    let restarted = host_on(&e.url, &e.clock).await.with_lease_owner("serve");
    restarted.tick().await.unwrap();
    assert_eq!(reminders(&restarted, g).await, 1);
}

/// Issue 60: a process paused past its lease (SIGSTOP, a long GC, a frozen VM) wakes after
/// another took the timers over, and goes on where it stopped: what it stores under the lease is
/// refused and changes nothing — though the game's version has not moved, so its version check
/// alone would let it through — and the process holding the lease now runs the timers.
#[tokio::test]
async fn a_process_paused_past_its_lease_writes_nothing_once_another_took_over() {
    let e = env().await;
    let g = hexdame(&e.host).await;
    e.clock.advance_minutes(61);
    let before = e.host.state(g).await.unwrap().version();
    // Process A claims the game's timers, and is paused before it stores the reminder.
    let mine = e.host.claim_lease(&timers_lease(g)).await.unwrap().unwrap();
    let paused_at = e.host.now();
    // Its lease lapses; process B takes the timers over, with a new token.
    e.clock.set(paused_at + LEASE_MS);
    let other = host_on(&e.url, &e.clock).await;
    let theirs = other.claim_lease(&timers_lease(g)).await.unwrap().unwrap();
    assert!(theirs.fence > mine.fence);
    // A wakes and runs the reminder it was about to store: refused, nothing written.
    let mut fx = Vec::new();
    let bots = e.host.tick_game(g, &mine, paused_at, &mut fx).await;
    assert!(!bots.unwrap() && fx.is_empty(), "{fx:?}");
    assert_eq!(
        reminders(&e.host, g).await,
        0,
        "the paused process stored nothing"
    );
    assert_eq!(e.host.state(g).await.unwrap().version(), before);
    // Its renewal is refused too, and its release leaves B's lease alone.
    assert_eq!(e.host.renew_lease(&mine).await.unwrap(), None);
    e.host.release_lease(&mine).await;
    assert_eq!(
        e.host.store().lease(&timers_lease(g)).await.unwrap(),
        Some((other.lease_owner().to_string(), paused_at + 2 * LEASE_MS))
    );
    // B runs the timers: the reminder is stored once, by B.
    other
        .tick_game(g, &theirs, other.now(), &mut fx)
        .await
        .unwrap();
    other.release_lease(&theirs).await;
    assert_eq!(reminders(&other, g).await, 1);
    assert!(
        fx.iter().any(|f| format!("{f:?}").contains("reminder")),
        "{fx:?}"
    );
}
