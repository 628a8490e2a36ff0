#![allow(clippy::unwrap_used)]
//! The daily digest through the host (issue 49, `/hexmeros notify digest`): at the chosen hour
//! of the player's zone, with their turns, the games finished since the last one and the lobbies
//! waiting for their Join; none when there is nothing to say, none in quiet hours (it waits for
//! their end); once per day even when two hosts on one database tick together; bad input
//! refused with nothing changed.

use hexmeros_testkit::host as support;

use hexmeros::games::GameKind;
use hexmeros::host::{
    Actor, Command, Digest, Effect, GameHost, HostError, LobbySpec, Opened, REMINDER,
    SettingsChange, Waiting,
};
use support::*;

const ANA: i64 = 1 << 41;
const BEN: i64 = (1 << 41) + 1;
const CY: i64 = (1 << 41) + 2;

const HOUR: i64 = 3_600_000;
/// 2023-11-15 00:00 UTC, the day after the clock's start (`T0` is 2023-11-14 22:13:20 UTC).
const DAY2: i64 = 1_700_006_400_000;

fn digest(at: &str) -> SettingsChange {
    SettingsChange {
        time_zone: Some("UTC".into()),
        digest: Some(at.into()),
        ..Default::default()
    }
}

/// The digests among `fx`, with whose they are.
fn digests(fx: &[Effect]) -> Vec<(i64, Digest)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Digest { player, digest } => Some((*player, digest.clone())),
            _ => None,
        })
        .collect()
}

/// Tick at `at` (clock time) and return the digests made.
async fn tick_at(env: &Env, h: &GameHost, at: i64) -> Vec<(i64, Digest)> {
    env.clock.set(at);
    digests(&h.tick().await.unwrap())
}

/// The digests in the outbox, by player lane.
async fn queued(h: &GameHost, player: i64) -> usize {
    let lane = format!("p{player}");
    let pending = h.outbox_pending().await.unwrap();
    pending
        .iter()
        .filter(|d| d.lane == lane && d.body.starts_with("{\"Digest\""))
        .inspect(|d| assert_eq!(d.priority, REMINDER, "below turn messages"))
        .count()
}

#[tokio::test]
async fn a_digest_comes_at_its_hour_with_turns_finished_games_and_invitations() {
    let env = env().await;
    let h = &host_on(&env.url, &env.clock).await.with_outbox();
    ensure_players(h, [ANA, BEN, CY]).await;
    let s = h.set_settings(ANA, &digest("8")).await.unwrap();
    assert_eq!(s.digest.map(|t| t.to_string()), Some("08:00".into()));
    // Ana's turn in one game, Ben's in another; a third Ana resigns; Cy invites her.
    let (mine, _) = (h.create(GameKind::HexDame, &[ANA, BEN], None, None).await).unwrap();
    let (theirs, _) = (h.create(GameKind::HexDame, &[BEN, ANA], None, None).await).unwrap();
    let (over, _) = (h.create(GameKind::HexDame, &[ANA, CY], None, None).await).unwrap();
    env.clock.advance_minutes(1);
    act(h, over, ANA, Command::Resign { replacement: None }).await;
    let Opened::Waiting(lobby) = h
        .open_lobby(LobbySpec {
            kind: GameKind::Hexmeister,
            starter: Actor::player(CY),
            people: vec![CY, ANA],
            bots: vec![],
            open: false,
            seats: None,
            house_rules: None,
            timers: None,
            hours: 72,
            origin: None,
        })
        .await
        .unwrap()
    else {
        panic!("the lobby waits for Ana")
    };

    // Not before 08:00 of her zone.
    assert_eq!(tick_at(&env, h, DAY2 + 8 * HOUR - 1000).await, []);
    let got = tick_at(&env, h, DAY2 + 8 * HOUR + 500).await;
    let [(who, d)] = &got[..] else {
        panic!("one digest: {got:?}")
    };
    assert_eq!(*who, ANA);
    let awaiting: Vec<_> = d.awaiting.iter().map(|a| (a.game, a.what)).collect();
    assert_eq!(awaiting.len(), 1, "{awaiting:?}");
    assert_eq!(awaiting[0].0, mine, "not {theirs}, where Ben is to move");
    assert!(matches!(awaiting[0].1, Waiting::Turn { .. }));
    let ended: Vec<_> = d.ended.iter().map(|e| (e.game, e.place, e.of)).collect();
    assert_eq!(ended, [(over, 2, 2)], "she resigned: second of two");
    assert!(d.ended[0].summary.contains("rating"), "{:?}", d.ended[0]);
    let invited: Vec<_> = d.invitations.iter().map(|i| (i.lobby, i.starter)).collect();
    assert_eq!(invited, [(lobby.id, CY)]);
    assert_eq!(queued(h, ANA).await, 1, "in her lane of the outbox");

    // Once a day: not again at the next tick; the next day again, with no finished game (told
    // already).
    assert_eq!(tick_at(&env, h, DAY2 + 9 * HOUR).await, []);
    let got = tick_at(&env, h, DAY2 + 32 * HOUR).await;
    let [(_, d)] = &got[..] else {
        panic!("the next day's digest: {got:?}")
    };
    assert_eq!(d.ended, []);
    assert_eq!(d.awaiting.len(), 1);
    assert_eq!(queued(h, ANA).await, 2);
    // Nobody else asked for one.
    assert_eq!(queued(h, BEN).await + queued(h, CY).await, 0);
}

#[tokio::test]
async fn no_digest_in_quiet_hours_nor_when_there_is_nothing_to_say() {
    let env = env().await;
    let h = &host_on(&env.url, &env.clock).await.with_outbox();
    ensure_players(h, [ANA, BEN, CY]).await;
    // Ben's digest at 08:00, in quiet hours that end at 09:30; his turn waits.
    let quiet = SettingsChange {
        quiet_from: Some("22:00".into()),
        quiet_to: Some("09:30".into()),
        ..digest("08:00")
    };
    h.set_settings(BEN, &quiet).await.unwrap();
    h.create(GameKind::HexDame, &[BEN, ANA], None, None)
        .await
        .unwrap();
    // Cy asked for one and has nothing at all.
    h.set_settings(CY, &digest("08:00")).await.unwrap();

    assert_eq!(
        tick_at(&env, h, DAY2 + 8 * HOUR).await,
        [],
        "08:00: Cy has nothing, Ben sleeps"
    );
    assert_eq!(tick_at(&env, h, DAY2 + 9 * HOUR).await, []);
    let got = tick_at(&env, h, DAY2 + 9 * HOUR + 30 * 60_000).await;
    assert_eq!(
        got.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
        [BEN],
        "09:30: {got:?}"
    );
    assert_eq!(queued(h, CY).await, 0);
    // Cy's digest is put off to the next day, not built again at every tick.
    let row = h.store().player_settings(CY).await.unwrap().unwrap();
    assert_eq!(row.digest_next_at, Some(DAY2 + 32 * HOUR));
    let row = h.store().player_settings(BEN).await.unwrap().unwrap();
    assert_eq!(row.digest_next_at, Some(DAY2 + 33 * HOUR + 30 * 60_000));
    // Quiet hours moved off the digest's hour: it comes at 08:00 again.
    let awake = SettingsChange {
        quiet_to: Some("07:00".into()),
        ..Default::default()
    };
    h.set_settings(BEN, &awake).await.unwrap();
    let got = tick_at(&env, h, DAY2 + 32 * HOUR).await;
    assert_eq!(got.iter().map(|(p, _)| *p).collect::<Vec<_>>(), [BEN]);
}

/// The refusal's sentence; it must be a player's error, not an internal one.
fn refusal(e: HostError) -> String {
    assert!(!e.is_internal(), "{e:?}");
    e.to_string()
}

#[tokio::test]
async fn a_bad_hour_is_refused_and_changes_nothing() {
    let env = env().await;
    let h = &env.host;
    ensure_players(h, [ANA, BEN]).await;
    // No zone yet: the hour would mean nothing.
    let no_zone = SettingsChange {
        digest: Some("8".into()),
        ..Default::default()
    };
    let e = refusal(h.set_settings(ANA, &no_zone).await.unwrap_err());
    assert!(e.contains("time zone"), "{e}");
    assert_eq!(h.store().player_settings(ANA).await.unwrap(), None);

    let set = h.set_settings(ANA, &digest("7pm")).await.unwrap();
    assert_eq!(set.digest.map(|t| t.to_string()), Some("19:00".into()));
    let before = h.store().player_settings(ANA).await.unwrap();
    for (typed, says) in [
        ("25", "no hour of the day"),
        ("24:00", "no hour of the day"),
        ("8:75", "no hour of the day"),
        ("13pm", "no hour of the day"),
        ("noonish", "not a time"),
        ("8:5", "not a time"),
        ("", "not a time"),
    ] {
        let bad = SettingsChange {
            digest: Some(typed.into()),
            turn_dm: Some(true),
            ..Default::default()
        };
        let e = refusal(h.set_settings(ANA, &bad).await.unwrap_err());
        assert!(e.contains(says), "{typed:?}: {e}");
        assert_eq!(
            h.store().player_settings(ANA).await.unwrap(),
            before,
            "{typed:?}"
        );
    }
    for (typed, shown) in [
        ("12am", "00:00"),
        ("12pm", "12:00"),
        ("08:30", "08:30"),
        ("23", "23:00"),
    ] {
        let s = h.set_settings(ANA, &digest(typed)).await.unwrap();
        assert_eq!(
            s.digest.map(|t| t.to_string()),
            Some(shown.into()),
            "{typed}"
        );
    }
    // Off: no digest is due any more.
    let s = h.set_settings(ANA, &digest("off")).await.unwrap();
    assert_eq!(s.digest, None);
    let row = h.store().player_settings(ANA).await.unwrap().unwrap();
    assert_eq!((row.digest_at, row.digest_next_at), (None, None));
    // Nobody else's settings were touched.
    assert_eq!(h.store().player_settings(BEN).await.unwrap(), None);
}

#[tokio::test]
async fn two_hosts_ticking_together_queue_one_digest() {
    let env = env().await;
    let a = &host_on(&env.url, &env.clock).await.with_outbox();
    let b = &host_on(&env.url, &env.clock).await.with_outbox();
    ensure_players(a, [ANA, BEN]).await;
    a.set_settings(ANA, &digest("08:00")).await.unwrap();
    a.create(GameKind::HexDame, &[ANA, BEN], None, None)
        .await
        .unwrap();
    for day in 0..3 {
        env.clock.set(DAY2 + day * 24 * HOUR + 8 * HOUR);
        let (x, y) = tokio::join!(a.tick(), b.tick());
        let made = digests(&x.unwrap()).len() + digests(&y.unwrap()).len();
        assert_eq!(made, 1, "day {day}: one of the two claimed it");
        assert_eq!(queued(a, ANA).await as i64, day + 1);
    }
}

#[tokio::test]
async fn votes_waiting_on_a_person_come_after_their_turns() {
    use hexmeros::host::Motion;
    let env = env().await;
    let h = &host_on(&env.url, &env.clock).await.with_outbox();
    let six = [BEN, ANA, CY, 4, 5, 6];
    ensure_players(h, six).await;
    h.set_settings(ANA, &digest("08:00")).await.unwrap();
    // Ben holds the Token of the six's game and proposes a draw: Ana's vote is awaited there.
    let (table, _) = (h.create(GameKind::HexiMeros, &six, None, None).await).unwrap();
    act(h, table, BEN, Command::Propose(Motion::Draw)).await;
    // Ana's own turn elsewhere.
    let (mine, _) = (h.create(GameKind::HexDame, &[ANA, CY], None, None).await).unwrap();
    let got = tick_at(&env, h, DAY2 + 8 * HOUR).await;
    let [(_, d)] = &got[..] else {
        panic!("one digest: {got:?}")
    };
    let awaiting: Vec<_> = d.awaiting.iter().map(|a| (a.game, a.what)).collect();
    assert_eq!(awaiting.len(), 2, "{awaiting:?}");
    assert_eq!(awaiting[0].0, mine);
    assert_eq!(awaiting[1], (table, Waiting::Vote { motion: 1 }));
    // In words, with each line's link.
    let lines = d.sections(&|t| format!("<{t}>"), &|l| format!(" [{l:?}]"));
    let (head, first) = &lines[0];
    assert!(head.contains("waiting on you"), "{head}");
    let text: Vec<String> = first.iter().map(|s| s.to_string()).collect();
    assert!(
        text[0].starts_with(&format!("HexDame #{mine}: your turn")),
        "{text:?}"
    );
    assert!(text[0].ends_with(&format!(" [Game({mine})]")), "{text:?}");
    assert_eq!(
        text[1],
        format!("HexiMeros #{table}: your vote on motion #1 [Game({table})]")
    );
}
