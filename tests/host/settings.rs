#![allow(clippy::unwrap_used)]
//! A person's settings through the host (issue 22, `/hexmeros settings`): time zone and quiet
//! hours set, read, changed in part, cleared; bad input refused with its sentence and nothing
//! changed; kept across a restart; a stored row that no longer reads is an error for that
//! player alone.

use hexmeros_testkit::host as support;

use chrono_tz::Tz;
use hexmeros::host::quiet::{Quiet, TimeOfDay};
use hexmeros::host::{HostError, PlayerSettings, SettingsChange, SettingsError};
use support::*;

const ANA: i64 = 1 << 40;
const BEN: i64 = (1 << 40) + 1;
const CY: i64 = (1 << 40) + 2;

fn tod(s: &str) -> TimeOfDay {
    s.parse().unwrap()
}

fn change(zone: Option<&str>, from: Option<&str>, to: Option<&str>) -> SettingsChange {
    SettingsChange {
        time_zone: zone.map(str::to_string),
        quiet_from: from.map(str::to_string),
        quiet_to: to.map(str::to_string),
        commit_on_pick: None,
        turn_dm: None,
        nudge: None,
        digest: None,
        clear: false,
    }
}

fn berlin(from: &str, to: &str) -> PlayerSettings {
    PlayerSettings {
        zone: Some(Tz::Europe__Berlin),
        window: Some((tod(from), tod(to))),
        commit_on_pick: false,
        turn_dm: false,
        nudge: false,
        digest: None,
    }
}

/// The refusal's sentence; it must be a player's error, not an internal one.
fn refusal(e: HostError) -> String {
    assert!(!e.is_internal(), "{e:?}");
    assert!(matches!(e, HostError::Settings(_)), "{e:?}");
    e.to_string()
}

#[tokio::test]
async fn settings_are_set_read_changed_in_part_and_cleared() {
    let env = env().await;
    let h = &env.host;
    assert_eq!(h.settings(ANA).await.unwrap(), PlayerSettings::default());
    assert_eq!(h.quiet_of(ANA).await.unwrap(), None);

    let set = h
        .set_settings(
            ANA,
            &change(Some("europe/berlin"), Some("22:30"), Some("7:00")),
        )
        .await
        .unwrap();
    assert_eq!(set, berlin("22:30", "07:00"));
    assert_eq!(h.settings(ANA).await.unwrap(), set);
    let q = h.quiet_of(ANA).await.unwrap().unwrap();
    assert_eq!(
        q,
        Quiet::new(Tz::Europe__Berlin, tod("22:30"), tod("07:00"))
    );
    // 2026-01-15 23:00 UTC is 00:00 in Berlin: quiet for 7 hours, until 07:00 CET.
    let midnight = 1_768_518_000_000;
    assert!(q.is_quiet(midnight));
    assert_eq!(q.defer(midnight), midnight + 7 * 3_600_000);
    // Nobody else got them.
    assert_eq!(h.settings(BEN).await.unwrap(), PlayerSettings::default());

    // One end moves alone; the zone alone keeps the window.
    let s = h
        .set_settings(ANA, &change(None, None, Some("06:15")))
        .await
        .unwrap();
    assert_eq!(s, berlin("22:30", "06:15"));
    let s = h
        .set_settings(ANA, &change(None, Some("23:00"), None))
        .await
        .unwrap();
    assert_eq!(s, berlin("23:00", "06:15"));
    let s = h
        .set_settings(ANA, &change(Some("Asia/Kolkata"), None, None))
        .await
        .unwrap();
    assert_eq!(s.zone, Some(Tz::Asia__Kolkata));
    assert_eq!(s.window, Some((tod("23:00"), tod("06:15"))));
    assert_eq!(h.settings(ANA).await.unwrap(), s);

    // Nothing given: the settings as they are, nothing written.
    assert_eq!(
        h.set_settings(ANA, &SettingsChange::default())
            .await
            .unwrap(),
        s
    );

    // The same time for both ends: no quiet hours, the zone stays.
    let s = h
        .set_settings(ANA, &change(None, Some("08:00"), Some("08:00")))
        .await
        .unwrap();
    assert_eq!(
        s,
        PlayerSettings {
            zone: Some(Tz::Asia__Kolkata),
            window: None,
            commit_on_pick: false,
            turn_dm: false,
            nudge: false,
            digest: None,
        }
    );
    assert_eq!(h.quiet_of(ANA).await.unwrap(), None);

    // A zone without quiet hours is fine; cleared, everything is gone.
    let cleared = SettingsChange {
        clear: true,
        ..Default::default()
    };
    assert_eq!(
        h.set_settings(ANA, &cleared).await.unwrap(),
        PlayerSettings::default()
    );
    assert_eq!(h.settings(ANA).await.unwrap(), PlayerSettings::default());
    // Clearing nothing is no error.
    assert_eq!(
        h.set_settings(BEN, &cleared).await.unwrap(),
        PlayerSettings::default()
    );
}

#[tokio::test]
async fn bad_input_is_refused_and_changes_nothing() {
    let env = env().await;
    let h = &env.host;
    h.set_settings(
        ANA,
        &change(Some("Europe/Berlin"), Some("22:30"), Some("07:00")),
    )
    .await
    .unwrap();
    let before = h.settings(ANA).await.unwrap();

    let cases = [
        (
            change(Some("Mars/Base"), Some("21:00"), Some("06:00")),
            "'Mars/Base' is not a time zone",
        ),
        (
            change(Some("UTC"), Some("25:00"), Some("06:00")),
            "'25:00' is not a time of day (HH:MM, 00:00–23:59)",
        ),
        (
            change(None, Some("21:00"), Some("6h")),
            "'6h' is not a time of day",
        ),
        (
            SettingsChange {
                clear: true,
                ..change(Some("UTC"), None, None)
            },
            "not both",
        ),
    ];
    for (c, words) in cases {
        let e = refusal(h.set_settings(ANA, &c).await.unwrap_err());
        assert!(e.contains(words), "{c:?}: {e}");
        assert_eq!(h.settings(ANA).await.unwrap(), before, "{c:?} changed it");
    }

    // Without stored quiet hours, one end alone or a window without a zone is refused.
    let e = refusal(
        h.set_settings(BEN, &change(Some("UTC"), Some("22:00"), None))
            .await
            .unwrap_err(),
    );
    assert!(e.contains("give both ends"), "{e}");
    let e = refusal(
        h.set_settings(BEN, &change(None, Some("22:00"), Some("06:00")))
            .await
            .unwrap_err(),
    );
    assert_eq!(e, "quiet hours need your time zone: give time_zone too");
    assert_eq!(h.settings(BEN).await.unwrap(), PlayerSettings::default());
    assert!(
        h.store().player_settings(BEN).await.unwrap().is_none(),
        "a refusal writes no row"
    );
}

#[tokio::test]
async fn settings_survive_a_restart() {
    let env = env().await;
    env.host
        .set_settings(
            ANA,
            &change(Some("Pacific/Auckland"), Some("21:45"), Some("06:30")),
        )
        .await
        .unwrap();
    env.host
        .set_settings(BEN, &change(Some("America/New_York"), None, None))
        .await
        .unwrap();
    env.host.store().close().await;

    let again = host_on(&env.url, &env.clock).await;
    assert_eq!(
        again.quiet_of(ANA).await.unwrap(),
        Some(Quiet::new(
            Tz::Pacific__Auckland,
            tod("21:45"),
            tod("06:30")
        ))
    );
    assert_eq!(
        again.settings(BEN).await.unwrap(),
        PlayerSettings {
            zone: Some(Tz::America__New_York),
            window: None,
            commit_on_pick: false,
            turn_dm: false,
            nudge: false,
            digest: None,
        }
    );
    assert_eq!(
        again.quiet_of_many(&[BEN, ANA, CY]).await.unwrap(),
        vec![
            None,
            Some(Quiet::new(
                Tz::Pacific__Auckland,
                tod("21:45"),
                tod("06:30")
            )),
            None
        ]
    );
}

#[tokio::test]
async fn an_unreadable_row_is_an_error_for_its_player_alone() {
    let env = env().await;
    let h = &env.host;
    h.set_settings(
        BEN,
        &change(Some("Asia/Kolkata"), Some("23:30"), Some("06:30")),
    )
    .await
    .unwrap();
    // A zone this build does not know (renamed, or written by hand).
    sqlx::query(
        "INSERT INTO player_settings (player_id, time_zone, quiet_start, quiet_end, updated_at) \
         VALUES ($1, 'Mars/Base', 1320, 420, 0)",
    )
    .bind(ANA)
    .execute(h.store().writer())
    .await
    .unwrap();

    let e = h.settings(ANA).await.unwrap_err();
    assert!(matches!(
        e,
        HostError::Settings(SettingsError::Unreadable(_))
    ));
    let text = refusal(e);
    assert!(
        text.contains("your stored settings cannot be read") && text.contains("'Mars/Base'"),
        "{text}"
    );
    assert!(h.quiet_of(ANA).await.is_err());
    // The others read as ever; a list of players skips the bad row rather than fail.
    assert!(h.quiet_of(BEN).await.unwrap().is_some());
    let many = h.quiet_of_many(&[ANA, BEN, CY]).await.unwrap();
    assert_eq!(many.len(), 3);
    assert_eq!(many[0], None);
    assert_eq!(
        many[1],
        Some(Quiet::new(Tz::Asia__Kolkata, tod("23:30"), tod("06:30")))
    );
    assert_eq!(many[2], None);

    // Moving the window keeps the bad zone: refused. A new zone mends it; so does clear.
    let e = refusal(
        h.set_settings(ANA, &change(None, Some("22:00"), Some("06:00")))
            .await
            .unwrap_err(),
    );
    assert!(e.contains("cannot be read"), "{e}");
    let s = h
        .set_settings(ANA, &change(Some("Europe/Berlin"), None, None))
        .await
        .unwrap();
    assert_eq!(s, berlin("22:00", "07:00"));

    // A window with one end stored is unreadable too.
    sqlx::query("UPDATE player_settings SET quiet_end = NULL WHERE player_id = $1")
        .bind(ANA)
        .execute(h.store().writer())
        .await
        .unwrap();
    assert!(refusal(h.settings(ANA).await.unwrap_err()).contains("one end"));
    let cleared = SettingsChange {
        clear: true,
        ..Default::default()
    };
    h.set_settings(ANA, &cleared).await.unwrap();
    assert_eq!(h.settings(ANA).await.unwrap(), PlayerSettings::default());
}

/// Issue 45: "commit on pick" is set alone (no zone needed), kept when the other settings
/// change, and forgotten with them.
#[tokio::test]
async fn commit_on_pick_is_set_alone_kept_and_cleared() {
    let env = env().await;
    let h = &env.host;
    let on = SettingsChange {
        commit_on_pick: Some(true),
        ..Default::default()
    };
    let s = h.set_settings(CY, &on).await.unwrap();
    assert!(s.commit_on_pick);
    assert_eq!((s.zone, s.window), (None, None));
    let s = h
        .set_settings(
            CY,
            &change(Some("Europe/Berlin"), Some("22:30"), Some("07:00")),
        )
        .await
        .unwrap();
    assert!(s.commit_on_pick, "kept when the zone and hours change");
    assert_eq!(h.settings(CY).await.unwrap(), s);
    let off = SettingsChange {
        commit_on_pick: Some(false),
        ..Default::default()
    };
    let s = h.set_settings(CY, &off).await.unwrap();
    assert!(!s.commit_on_pick);
    assert_eq!(s.zone, Some(Tz::Europe__Berlin), "the rest kept");
    h.set_settings(CY, &on).await.unwrap();
    let cleared = SettingsChange {
        clear: true,
        ..Default::default()
    };
    h.set_settings(CY, &cleared).await.unwrap();
    assert_eq!(h.settings(CY).await.unwrap(), PlayerSettings::default());
}

/// The `YourTurn` effects among `fx`, as (game, player).
fn turn_dms(fx: &[hexmeros::host::Effect]) -> Vec<(i64, i64)> {
    fx.iter()
        .filter_map(|e| match e {
            hexmeros::host::Effect::YourTurn { game, player, .. } => Some((*game, *player)),
            _ => None,
        })
        .collect()
}

/// A DM on my turn (issue 49, `/hexmeros notify turn`): a player who asked gets one each time
/// the Token comes to them (a new game's first turn too), in the outbox with the move; nobody
/// who did not ask gets one, and turning it off stops them.
#[tokio::test]
async fn a_turn_dm_comes_with_each_turn_of_a_player_who_asked_for_it() {
    use hexmeros::games::GameKind;
    let env = env().await;
    let h = &host_on(&env.url, &env.clock).await.with_outbox();
    ensure_players(h, [ANA, BEN]).await;
    let turn = |on| SettingsChange {
        turn_dm: Some(on),
        ..Default::default()
    };
    assert!(h.set_settings(ANA, &turn(true)).await.unwrap().turn_dm);
    assert!(h.settings(ANA).await.unwrap().turn_dm, "stored");
    let (g, fx) = h
        .create(GameKind::HexDame, &[ANA, BEN], None, None)
        .await
        .unwrap();
    assert_eq!(turn_dms(&fx), [(g, ANA)], "the first turn: {fx:?}");
    let dm_text = fx
        .iter()
        .find_map(|e| match e {
            hexmeros::host::Effect::YourTurn { text, .. } => Some(text.to_string()),
            _ => None,
        })
        .unwrap();
    assert!(dm_text.contains(&format!("HexDame #{g}")), "{dm_text}");
    // Ana moves: Ben, who did not ask, gets none; Ben moves: Ana gets hers, once.
    let mv = first_move(h, g).await;
    assert_eq!(turn_dms(&act(h, g, ANA, cmd_move(&mv)).await), []);
    let mv = first_move(h, g).await;
    assert_eq!(turn_dms(&act(h, g, BEN, cmd_move(&mv)).await), [(g, ANA)]);
    let pending = h.outbox_pending().await.unwrap();
    let lane = format!("p{ANA}");
    assert_eq!(
        pending.iter().filter(|d| d.lane == lane).count(),
        2,
        "both DMs are in the outbox, in Ana's lane"
    );
    // Turned off: no more.
    assert!(!h.set_settings(ANA, &turn(false)).await.unwrap().turn_dm);
    let mv = first_move(h, g).await;
    act(h, g, ANA, cmd_move(&mv)).await;
    let mv = first_move(h, g).await;
    assert_eq!(turn_dms(&act(h, g, BEN, cmd_move(&mv)).await), []);
}

/// A HexiMeros game of players 1…6 where `nudged` asked for nudges.
async fn six_one_nudged(h: &hexmeros::host::GameHost, nudged: i64) -> i64 {
    ensure_players(h, 1..=6).await;
    let nudge = SettingsChange {
        nudge: Some(true),
        ..Default::default()
    };
    assert!(h.set_settings(nudged, &nudge).await.unwrap().nudge);
    let kind = hexmeros::games::GameKind::HexiMeros;
    h.create(kind, &[1, 2, 3, 4, 5, 6], None, None)
        .await
        .unwrap()
        .0
}

/// The nudges among `fx`, as (player, words).
fn nudges(fx: &[hexmeros::host::Effect]) -> Vec<(i64, String)> {
    fx.iter()
        .filter_map(|e| match e {
            hexmeros::host::Effect::Nudge { player, text, .. } => Some((*player, text.to_string())),
            _ => None,
        })
        .collect()
}

/// A nudge (issue 49, `/hexmeros notify nudge`): when the others have all voted on a motion and
/// one person's vote is missing, that person gets a DM if they asked; not before, not twice,
/// and nobody who did not ask.
#[tokio::test]
async fn the_last_voter_everyone_waits_on_is_nudged_if_they_asked() {
    use hexmeros::host::{Command, Motion};
    let env = env().await;
    let h = &host_on(&env.url, &env.clock).await.with_outbox();
    let g = six_one_nudged(h, 6).await;
    // A draw needs every vote: Silver proposes (and votes yes); four more vote.
    let fx = act(h, g, 1, Command::Propose(Motion::Draw)).await;
    assert_eq!(nudges(&fx), []);
    for p in 2..=4 {
        assert_eq!(nudges(&act(h, g, p, vote(true)).await), [], "player {p}");
    }
    // Player 5 votes: only player 6's vote is missing, and they asked.
    let fx = act(h, g, 5, vote(true)).await;
    let told = nudges(&fx);
    assert_eq!(told.len(), 1, "{fx:?}");
    assert_eq!(told[0].0, 6);
    assert!(
        told[0].1.contains(&format!("HexiMeros #{g}")) && told[0].1.contains("motion #1"),
        "{}",
        told[0].1
    );
    // The same with player 5 last, who did not ask: no nudge.
    act(h, g, 6, vote(false)).await;
    act(h, g, 1, Command::Propose(Motion::Draw)).await;
    for p in [2, 3, 4, 6] {
        assert_eq!(nudges(&act(h, g, p, vote(true)).await), [], "player {p}");
    }
}

/// 44 quiet moves of a HexiMeros game from the start (found by seeded random play), after which
/// Yellow's `E38-E36` opens a challenge window asking Blue and Green.
const TO_TWO_CHALLENGERS: &str = "U2xQ6 C20-E22 G44-H43 M50-K48 AA38-Z37 AE20-AE26 S2-I32 H5-M6 \
    C32xF35 L51-L49 AB41-W26 AE18-AE20 Q2-P3 E22xE16 H43-G42 N51-J51 AE32-AB29 AE26-AE30 I32-N17 \
    M6-J5 F35xD37 J51-L51 AA46-Z45 AF23-AC16 P3-Q2 E16-E18 G38-H37 Q48-Q44 W26-AC26 AF21-AF27 \
    Q6-Q8 C18-C22 B29-E22 K48-K46 Z47-W48 AC16-AA20 Q8-S10 E18xE22 F41-H35 R51-O42 AD37-AC36 \
    AF27-M8 N17-X17 E22-E28";

/// A nudge for a challenge window: once all but one of those asked let the move stand, the
/// last one, who asked for nudges, is told everyone waits on them.
#[tokio::test]
async fn the_last_seat_a_challenge_window_waits_on_is_nudged_if_they_asked() {
    use hexmeros::games::Seat;
    use hexmeros::host::Command;
    let env = env().await;
    let h = &host_on(&env.url, &env.clock).await.with_outbox();
    let g = six_one_nudged(h, 5).await;
    for text in TO_TWO_CHALLENGERS.split_whitespace() {
        let p = h.state(g).await.unwrap().holder_player().unwrap();
        act(h, g, p, cmd_move(text)).await;
    }
    let mover = h.state(g).await.unwrap().holder_player().unwrap();
    let stage = Command::Move {
        text: "E38-E36".into(),
        commit: false,
    };
    assert_eq!(nudges(&act(h, g, mover, stage).await), []);
    let st = h.state(g).await.unwrap();
    assert_eq!(st.staged().unwrap().asked, [Seat(1), Seat(4)]);
    // Blue lets it stand: Green (player 5) alone is awaited, and asked to be told.
    let fx = act(h, g, 2, Command::Challenge { declare: false }).await;
    let told = nudges(&fx);
    assert_eq!(told.len(), 1, "{fx:?}");
    assert_eq!(told[0].0, 5);
    assert!(
        told[0].1.contains("your answer on") && told[0].1.contains("E38-E36"),
        "{}",
        told[0].1
    );
}
