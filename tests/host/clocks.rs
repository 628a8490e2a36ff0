//! Per-player clocks, banks and away (issue 22), with the test clock: a bank filling and
//! draining over twenty turns, a time-out after the bank (claimed in a two-player game, the
//! stall procedure in HexiMeros), away stopping clocks and reminders and ending on time or when
//! the player acts, and a record that replays the clocks.

#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host as support;
use hexmeros_testkit::host::RulesOf;

use hexmeros::games::{GameKind, Outcome, Seat};
use hexmeros::host::words::Part;
use hexmeros::host::{
    Command, Effect, GameHost, GameId, HostError, Motion, Refused, Status, Timers,
};
use support::{Env, act, cmd_move, ensure_players, env, said, vote};

const HOUR: i64 = 3_600_000;
const MIN: i64 = 60_000;

fn clocked(turn: u32, bank: u32, add: u32) -> Timers {
    Timers {
        turn_timer_hours: turn,
        bank_hours: bank,
        bank_add_hours: add,
        reminders: false,
        ..Timers::default()
    }
}

async fn hexdame(host: &GameHost, timers: Timers) -> GameId {
    ensure_players(host, 1..=7).await;
    host.create(GameKind::HexDame, &[1, 2], None, Some(timers))
        .await
        .unwrap()
        .0
}

async fn heximeros(host: &GameHost, timers: Timers) -> GameId {
    ensure_players(host, 1..=7).await;
    host.create(GameKind::HexiMeros, &[1, 2, 3, 4, 5, 6], None, Some(timers))
        .await
        .unwrap()
        .0
}

/// The holder plays the first legal move.
async fn play(host: &GameHost, game: GameId) -> Vec<Effect> {
    let st = host.state(game).await.unwrap();
    let player = st.holder_player().unwrap();
    let mv = st.rules().legal_moves()[0].clone();
    act(host, game, player, cmd_move(&mv)).await
}

async fn refused(host: &GameHost, game: GameId, player: i64, cmd: Command) -> Refused {
    match host
        .handle(game, hexmeros::host::Actor::player(player), cmd, None)
        .await
    {
        Err(HostError::Refused(r)) => r,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn timed_out(fx: &[Effect]) -> bool {
    said(fx, "has not moved for")
}

#[tokio::test]
async fn a_bank_fills_and_drains_across_twenty_turns() {
    let e = env().await;
    // Two hours free per turn, a 10-hour bank, one hour back per move.
    let g = hexdame(&e.host, clocked(2, 10, 1)).await;
    let mut model = [10 * HOUR, 10 * HOUR];
    let mut drained = false;
    for turn in 0..20 {
        let st = e.host.state(g).await.unwrap();
        let seat = st.holder().unwrap();
        // The holder's deadline: the free time plus their bank, from the start of the turn.
        assert_eq!(
            st.deadline(),
            Some(st.turn_started() + 2 * HOUR + model[seat.index()]),
            "turn {turn}"
        );
        assert_eq!(st.panel().turn.unwrap().due, st.deadline());
        // Turns of 0 to 4 hours and 50 minutes: the long ones dig into the bank.
        let used = (turn % 5) * 60 + (turn % 3) * 25;
        e.clock.advance_minutes(used);
        assert!(!timed_out(&e.host.tick().await.unwrap()), "turn {turn}");
        play(&e.host, g).await;
        let over = (used * MIN - 2 * HOUR).max(0);
        drained |= over > 0;
        let b = &mut model[seat.index()];
        *b = (*b - over).max(0) + HOUR;
        let st = e.host.state(g).await.unwrap();
        assert_eq!(st.bank(seat), model[seat.index()], "turn {turn}");
        let panel = st.panel();
        assert_eq!(panel.seats[seat.index()].bank, Some(model[seat.index()]));
    }
    assert!(drained, "some turns must have drained a bank");
    // The clocks come out the same from the stored log.
    let replayed = e.host.replay(g).await.unwrap();
    for s in [Seat(0), Seat(1)] {
        assert_eq!(replayed.bank(s), model[s.index()]);
    }
}

#[tokio::test]
async fn time_runs_out_after_the_bank_and_the_opponent_claims_the_win() {
    let e = env().await;
    let g = hexdame(&e.host, clocked(1, 2, 0)).await;
    play(&e.host, g).await;
    // Black holds the Token: one hour free and a two-hour bank.
    e.clock.advance_minutes(179);
    assert!(!timed_out(&e.host.tick().await.unwrap()));
    assert_eq!(
        refused(&e.host, g, 1, Command::ClaimTime).await,
        Refused::NotOutOfTime("Black".into())
    );
    e.clock.advance_minutes(2);
    let fx = e.host.tick().await.unwrap();
    assert!(
        said(&fx, "Black has not moved for 3 hours: White may claim"),
        "{fx:?}"
    );
    let fx = act(&e.host, g, 1, Command::ClaimTime).await;
    assert!(said(&fx, "White won (Black lost on time)"), "{fx:?}");
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.status(), Status::Finished);
    assert!(matches!(st.outcome(), Some(Outcome::Win { winners, .. }) if winners == vec![Seat(0)]));
}

#[tokio::test]
async fn a_time_out_after_the_bank_starts_the_stall_procedure_in_heximeros() {
    let e = env().await;
    let g = heximeros(&e.host, clocked(2, 3, 0)).await;
    play(&e.host, g).await;
    // Blue: two hours free and a three-hour bank.
    e.clock.advance_minutes(4 * 60 + 59);
    assert!(!timed_out(&e.host.tick().await.unwrap()));
    assert_eq!(
        refused(
            &e.host,
            g,
            1,
            Command::Propose(Motion::Skip { seat: Seat(1) })
        )
        .await,
        Refused::SkipNotStalled("Blue".into())
    );
    e.clock.advance_minutes(2);
    let fx = e.host.tick().await.unwrap();
    assert!(said(&fx, "Blue has not moved for 5 hours"), "{fx:?}");
    assert!(e.host.state(g).await.unwrap().stalled(Seat(1)));
    act(
        &e.host,
        g,
        1,
        Command::Propose(Motion::Skip { seat: Seat(1) }),
    )
    .await;
    act(&e.host, g, 3, vote(true)).await;
    act(&e.host, g, 4, vote(true)).await;
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.holder(), Some(Seat(2)));
    assert_eq!(st.record().last().unwrap().line, "skip blue");
    // The skipped seat's bank is spent; the next holder's clock starts whole.
    assert_eq!(st.bank(Seat(1)), 0);
    assert_eq!(st.bank(Seat(2)), 3 * HOUR);
    assert_eq!(st.deadline(), Some(e.clock_now() + 5 * HOUR));
}

trait Now {
    fn clock_now(&self) -> i64;
}

impl Now for Env {
    fn clock_now(&self) -> i64 {
        use hexmeros::host::Clock;
        self.clock.now()
    }
}

#[tokio::test]
async fn away_stops_the_clock_and_reminders_and_ends_on_time() {
    let e = env().await;
    let g = hexdame(&e.host, Timers::default()).await;
    play(&e.host, g).await;
    let started = e.clock_now();
    // Black (player 2) holds the Token; half an hour in they go away for ten hours.
    e.clock.advance_minutes(30);
    let report = e
        .host
        .away(2, 10 * HOUR, Some("on a\nplane"), &[])
        .await
        .unwrap();
    assert_eq!(report.games.len(), 1, "{report:?}");
    assert_eq!(report.games[0].until, Some(e.clock_now() + 10 * HOUR));
    assert!(
        said(&report.effects, "Black is away until"),
        "{:?}",
        report.effects
    );
    assert!(
        report.effects.iter().any(|f| matches!(
            f,
            Effect::Say { text, .. } if text.to_string().contains("(on a plane)")
        )),
        "one line: {:?}",
        report.effects
    );
    let st = e.host.state(g).await.unwrap();
    let away = st.away(Seat(1)).unwrap();
    assert_eq!(away.reason.as_deref(), Some("on a plane"));
    assert_eq!(st.deadline(), None, "the clock stands still");
    assert_eq!(
        st.panel().seats[1].away.as_ref().map(|a| a.until),
        Some(away.until)
    );
    // No reminder while away (one would be due an hour into the turn).
    for _ in 0..9 {
        e.clock.advance_minutes(60);
        let fx = e.host.tick().await.unwrap();
        assert!(!said(&fx, "reminder"), "{fx:?}");
        assert!(!timed_out(&fx));
    }
    // Ten hours on, the absence ends by itself.
    e.clock.advance_minutes(60);
    let fx = e.host.tick().await.unwrap();
    assert!(said(&fx, "Black is back"), "{fx:?}");
    let st = e.host.state(g).await.unwrap();
    assert!(st.away(Seat(1)).is_none());
    // The turn had run half an hour: the clock goes on from there.
    assert_eq!(st.turn_started(), started + 10 * HOUR);
    assert_eq!(st.deadline(), Some(started + 10 * HOUR + 24 * HOUR));
    e.clock.advance_minutes(29);
    assert!(!said(&e.host.tick().await.unwrap(), "reminder"));
    e.clock.advance_minutes(2);
    let fx = e.host.tick().await.unwrap();
    assert!(
        fx.iter()
            .any(|f| matches!(f, Effect::Ping { player: 2, .. })),
        "the first reminder, an hour of turn time in: {fx:?}"
    );
    // Ten of the 168 hours are used: a long absence is cut to the 158 left.
    let report = e.host.away(2, 20 * 24 * HOUR, None, &[]).await.unwrap();
    assert_eq!(
        report.games[0].until,
        Some(e.clock_now() + 158 * HOUR),
        "{report:?}"
    );
    assert_eq!(report.games[0].left, 0);
    // The stored log gives the same clocks.
    let replayed = e.host.replay(g).await.unwrap();
    assert_eq!(
        replayed.away(Seat(1)),
        e.host.state(g).await.unwrap().away(Seat(1))
    );
    assert_eq!(replayed.turn_started(), st.turn_started());
}

#[tokio::test]
async fn away_ends_when_the_player_acts_in_all_their_games() {
    let e = env().await;
    let g = hexdame(&e.host, Timers::default()).await;
    let other = e
        .host
        .create(GameKind::HexDame, &[3, 2], None, None)
        .await
        .unwrap()
        .0;
    play(&e.host, g).await;
    let report = e.host.away(2, 48 * HOUR, None, &[]).await.unwrap();
    assert_eq!(report.games.len(), 2, "{report:?}");
    assert!(e.host.state(other).await.unwrap().away(Seat(1)).is_some());
    e.clock.advance_minutes(5 * 60);
    // Black moves: they are back here and in their other game.
    let fx = play(&e.host, g).await;
    assert!(said(&fx, "Black is back"), "{fx:?}");
    let st = e.host.state(g).await.unwrap();
    assert!(st.away(Seat(1)).is_none());
    assert_eq!(st.holder(), Some(Seat(0)), "the move was played");
    assert!(e.host.state(other).await.unwrap().away(Seat(1)).is_none());
    // Five hours of away time were used in each game.
    assert_eq!(st.away_left(Seat(1), e.clock_now()), 163 * HOUR);
    // A refused move while away changes nothing: the player stays away.
    e.host.away(2, HOUR, None, &[]).await.unwrap();
    let before = e.host.state(g).await.unwrap().version();
    let r = refused(&e.host, g, 2, cmd_move("a1-b2")).await;
    assert!(matches!(r, Refused::NotYourTurn { .. }), "{r}");
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.version(), before);
    assert!(st.away(Seat(1)).is_some());
    // Coming back early.
    let report = e.host.back(2).await.unwrap();
    assert_eq!(report.games.len(), 2);
    assert!(report.games.iter().all(|g| g.until.is_none()));
    assert!(
        e.host.back(2).await.unwrap().games.is_empty(),
        "nothing to end"
    );
}

/// A game the front end no longer admits the player to (a server they left) is left as it
/// is by `away`, and the report says why; the others go away as asked, the reason kept apart
/// as the player's own words (issue 60).
#[tokio::test]
async fn away_leaves_the_games_of_a_place_the_player_left_untouched() {
    let e = env().await;
    let g = hexdame(&e.host, Timers::default()).await;
    let left = e
        .host
        .create(GameKind::HexDame, &[3, 2], None, None)
        .await
        .unwrap()
        .0;
    let before = e.host.state(left).await.unwrap().version();
    let report = e
        .host
        .away(2, 48 * HOUR, Some("[x](https://e.example)"), &[left])
        .await
        .unwrap();
    let of = |id| report.games.iter().find(|a| a.game == id).unwrap();
    assert!(of(g).until.is_some(), "{report:?}");
    assert_eq!(of(left).until, None);
    assert_eq!(
        of(left).refused.as_deref(),
        Some("you are no longer in the server this game is played in")
    );
    assert_eq!(e.host.state(left).await.unwrap().version(), before);
    assert!(e.host.state(left).await.unwrap().away(Seat(1)).is_none());
    let said: Vec<_> = report
        .effects
        .iter()
        .filter_map(|f| match f {
            Effect::Say { game, text } => Some((*game, text.clone())),
            _ => None,
        })
        .collect();
    assert!(said.iter().all(|(game, _)| *game == g), "{said:?}");
    let (_, text) = &said[0];
    assert!(
        text.parts()
            .any(|p| p == Part::Quoted("[x](https://e.example)")),
        "{text:?}"
    );
}

#[tokio::test]
async fn away_is_refused_beyond_its_limits_and_changes_nothing() {
    let e = env().await;
    let g = hexdame(
        &e.host,
        Timers {
            away_hours: 0,
            ..Timers::default()
        },
    )
    .await;
    for bad in [0, -HOUR, 31 * 24 * HOUR] {
        let err = e.host.away(1, bad, None, &[]).await.unwrap_err();
        assert!(err.to_string().contains("at most 30 days"), "{err}");
    }
    let err = e
        .host
        .away(1, HOUR, Some(&"x".repeat(101)), &[])
        .await
        .unwrap_err();
    assert!(err.to_string().contains("at most 100 characters"), "{err}");
    let before = e.host.state(g).await.unwrap().version();
    // This game allows no away time: it says so and stays as it was.
    let report = e.host.away(1, HOUR, None, &[]).await.unwrap();
    assert_eq!(report.games.len(), 1);
    assert!(
        report.games[0]
            .refused
            .as_deref()
            .is_some_and(|r| r.contains("at most 0 more hours")),
        "{report:?}"
    );
    assert!(report.effects.is_empty());
    assert_eq!(e.host.state(g).await.unwrap().version(), before);
    // Someone with no game has nothing to stop.
    assert!(
        e.host
            .away(7, HOUR, None, &[])
            .await
            .unwrap()
            .games
            .is_empty()
    );
    // A bank or allowance outside what the house rules allow is refused at creation.
    let err = e
        .host
        .create(
            GameKind::HexDame,
            &[1, 2],
            None,
            Some(Timers {
                bank_add_hours: 1000,
                ..Timers::default()
            }),
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("bank_add_hours"), "{err}");
}

#[tokio::test]
async fn a_pause_during_an_absence_is_not_counted_twice() {
    let e = env().await;
    let g = hexdame(&e.host, Timers::default()).await;
    play(&e.host, g).await;
    let started = e.clock_now();
    e.clock.advance_minutes(60);
    e.host.away(2, 10 * HOUR, None, &[]).await.unwrap();
    e.clock.advance_minutes(60);
    let admin = hexmeros::host::Actor {
        player: 7,
        admin: true,
    };
    let pause = Command::Admin(hexmeros::host::AdminAction::Pause);
    e.host.handle(g, admin, pause, None).await.unwrap();
    e.clock.advance_minutes(120);
    let resume = Command::Admin(hexmeros::host::AdminAction::Resume);
    e.host.handle(g, admin, resume, None).await.unwrap();
    e.clock.advance_minutes(60);
    e.host.back(2).await.unwrap();
    // One hour of the turn ran before the absence; nothing since.
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.turn_started(), e.clock_now() - HOUR);
    assert_eq!(st.turn_started(), started + 4 * HOUR);
    // Away time counts the absence without the pause: two hours.
    assert_eq!(st.away_left(Seat(1), e.clock_now()), 166 * HOUR);
}

#[tokio::test]
async fn a_record_replays_the_clocks() {
    let e = env().await;
    let g = hexdame(&e.host, clocked(1, 6, 1)).await;
    for (i, minutes) in [30, 150, 20, 200, 90, 10].into_iter().enumerate() {
        e.clock.advance_minutes(minutes);
        if i == 2 {
            e.host.away(1, 3 * HOUR, Some("lunch"), &[]).await.unwrap();
            e.clock.advance_minutes(100);
        }
        play(&e.host, g).await;
    }
    e.clock.advance_minutes(45);
    let st = e.host.state(g).await.unwrap();
    let text = e.host.export(g).await.unwrap();
    assert!(text.to_string().contains("\nclock {"), "{text}");
    e.clock.advance_minutes(24 * 60);
    let copy = e.host.import(&text, &[3, 4]).await.unwrap();
    let copied = e.host.state(copy).await.unwrap();
    for s in [Seat(0), Seat(1)] {
        assert_eq!(copied.bank(s), st.bank(s), "{s:?}");
        assert_eq!(
            copied.away_left(s, e.clock_now()),
            st.away_left(s, e.clock_now())
        );
    }
    assert_ne!(st.bank(Seat(0)), st.bank(Seat(1)), "the banks differ");
    // The turn under way starts afresh at the import: the clock stood still since the
    // record's last line.
    let holder = copied.holder().unwrap();
    assert_eq!(holder, st.holder().unwrap());
    assert_eq!(
        copied.deadline(),
        Some(e.clock_now() + HOUR + st.bank(holder))
    );
    // The copy's stored log gives the same clocks.
    let replayed = e.host.replay(copy).await.unwrap();
    assert_eq!(replayed.deadline(), copied.deadline());
    assert_eq!(replayed.bank(Seat(1)), st.bank(Seat(1)));
    // A bad clock header is refused and nothing is created.
    let games = e.host.store().games_of(3, false).await.unwrap().len();
    let broken = [
        text.replacen("\"at\":[", "\"at\":[1,", 1),
        text.replacen("\"start\":", "\"start\":9", 1),
        text.replacen("clock {", "clock {\"bogus\":1,", 1),
        text.replacen("\"table\":[", "\"table\":[{\"after\":0,\"at\":1700000000000,\"event\":{\"event\":\"resigned\",\"seat\":0}},", 1),
    ];
    for bad in broken {
        let err = e.host.import(&bad, &[3, 4]).await.unwrap_err();
        assert!(err.to_string().contains("bad clock"), "{err}");
    }
    assert_eq!(
        e.host.store().games_of(3, false).await.unwrap().len(),
        games
    );
}

#[tokio::test]
async fn a_bank_voted_before_the_first_pass_fills_every_seat() {
    let e = env().await;
    let g = heximeros(&e.host, Timers::default()).await;
    act(
        &e.host,
        g,
        2,
        Command::Propose(Motion::HouseRule {
            key: "bank_hours".into(),
            value: serde_json::json!(48),
        }),
    )
    .await;
    for p in [1, 3, 4, 5] {
        if e.host.state(g).await.unwrap().motions().is_empty() {
            break;
        }
        act(&e.host, g, p, vote(true)).await;
    }
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.timers().bank_hours, 48);
    assert!(st.all_seats().into_iter().all(|s| st.bank(s) == 48 * HOUR));
    assert!(
        st.house_lines().iter().any(|l| l.contains("Time bank")),
        "{:?}",
        st.house_lines()
    );
    // A value outside the rule's range is refused when proposed.
    let r = refused(
        &e.host,
        g,
        2,
        Command::Propose(Motion::HouseRule {
            key: "away_hours".into(),
            value: serde_json::json!(99_999),
        }),
    )
    .await;
    assert!(r.to_string().contains("away_hours"), "{r}");
}

/// Unix milliseconds of an RFC 3339 time.
fn ms(rfc3339: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(rfc3339)
        .unwrap()
        .timestamp_millis()
}

fn quiet_hours(zone: &str, from: &str, to: &str) -> hexmeros::host::SettingsChange {
    hexmeros::host::SettingsChange {
        time_zone: Some(zone.into()),
        quiet_from: Some(from.into()),
        quiet_to: Some(to.into()),
        commit_on_pick: None,
        turn_dm: None,
        nudge: None,
        digest: None,
        clear: false,
    }
}

fn reminded(fx: &[Effect], player: i64) -> bool {
    fx.iter()
        .any(|f| matches!(f, Effect::Ping { player: p, text, .. } if *p == player && text.to_string().contains("reminder")))
}

#[tokio::test]
async fn quiet_hours_move_a_reminder_to_their_end_across_a_daylight_saving_change() {
    let e = env().await;
    // Berlin, the night the clocks go forward (2026-03-29, 02:00 CET → 03:00 CEST).
    e.clock.set(ms("2026-03-28T20:30:00Z"));
    let g = hexdame(&e.host, Timers::default()).await;
    e.host
        .set_settings(2, &quiet_hours("Europe/Berlin", "22:00", "08:00"))
        .await
        .unwrap();
    // Black (player 2) gets the Token at 21:30 Berlin time.
    play(&e.host, g).await;
    // The first reminder would fall at 22:30 Berlin: quiet, so it waits for 08:00 (CEST now,
    // 06:00 UTC; 07:00 UTC had the clocks not changed).
    for at in [
        "2026-03-28T21:31:00Z",
        "2026-03-29T00:30:00Z",
        "2026-03-29T05:59:00Z",
    ] {
        e.clock.set(ms(at));
        let fx = e.host.tick().await.unwrap();
        assert!(!reminded(&fx, 2), "{at}: {fx:?}");
        assert!(!fx.iter().any(|f| matches!(f, Effect::Dm { .. })), "{at}");
    }
    e.clock.set(ms("2026-03-29T06:00:00Z"));
    let fx = e.host.tick().await.unwrap();
    assert!(reminded(&fx, 2), "{fx:?}");
    // By then the turn is 9½ hours old: the 4-hour reminder, by direct message too, once.
    assert!(said(&fx, "for 4 hours"), "{fx:?}");
    assert!(fx.iter().any(|f| matches!(f, Effect::Dm { player: 2, .. })));
    assert!(!reminded(&e.host.tick().await.unwrap(), 2));
}

#[tokio::test]
async fn a_reminder_waiting_for_quiet_hours_follows_a_change_of_settings() {
    let e = env().await;
    e.clock.set(ms("2026-07-01T21:00:00Z"));
    let g = hexdame(&e.host, Timers::default()).await;
    // New York: 17:00 when Black gets the Token; quiet from 17:30 to 09:00.
    e.host
        .set_settings(2, &quiet_hours("America/New_York", "17:30", "09:00"))
        .await
        .unwrap();
    play(&e.host, g).await;
    e.clock.set(ms("2026-07-01T22:05:00Z"));
    assert!(
        !reminded(&e.host.tick().await.unwrap(), 2),
        "quiet at 18:05"
    );
    // They drop their quiet hours: the reminder goes at the next tick.
    e.host
        .set_settings(
            2,
            &hexmeros::host::SettingsChange {
                clear: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(reminded(&e.host.tick().await.unwrap(), 2));
    // A player without settings is reminded as before: an hour in.
    let other = e
        .host
        .create(GameKind::HexDame, &[3, 4], None, None)
        .await
        .unwrap()
        .0;
    play(&e.host, other).await;
    e.clock.advance_minutes(61);
    assert!(reminded(&e.host.tick().await.unwrap(), 4));
}

#[tokio::test]
async fn a_player_away_may_queue_a_move_and_it_is_played_for_them() {
    let e = env().await;
    let g = hexdame(&e.host, Timers::default()).await;
    e.host
        .away(2, 48 * HOUR, Some("travelling"), &[])
        .await
        .unwrap();
    // Black queues a move from afar: that is not coming back.
    let (mine, _) = e.host.queue_choices(g, 2).await.unwrap();
    act(
        &e.host,
        g,
        2,
        Command::Queue {
            text: mine[0].clone(),
            sovereign_safe: false,
            if_reply: None,
        },
    )
    .await;
    assert!(e.host.state(g).await.unwrap().away(Seat(1)).is_some());
    // White moves; the host plays Black's queued move for them, and they stay away.
    e.clock.advance_minutes(30);
    play(&e.host, g).await;
    e.host.bot_turns(g).await.unwrap();
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.record().len(), 2, "{:?}", st.record());
    assert_eq!(st.holder(), Some(Seat(0)));
    assert!(st.away(Seat(1)).is_some(), "still away");
}

#[tokio::test]
async fn a_reminder_due_just_before_the_quiet_hours_and_seen_late_waits_for_their_end() {
    let e = env().await;
    // Berlin in winter (UTC+1): Black gets the Token at 20:59, so the first reminder is due at
    // 21:59, one minute before the quiet hours; the timers only look at 22:01.
    e.clock.set(ms("2026-01-10T19:59:00Z"));
    let g = hexdame(&e.host, Timers::default()).await;
    e.host
        .set_settings(2, &quiet_hours("Europe/Berlin", "22:00", "08:00"))
        .await
        .unwrap();
    play(&e.host, g).await;
    e.clock.set(ms("2026-01-10T21:01:00Z"));
    assert!(
        !reminded(&e.host.tick().await.unwrap(), 2),
        "22:01 is quiet"
    );
    // The game is due again when the quiet hours end (08:00, 07:00 UTC), not at every tick.
    assert_eq!(
        e.host.store().next_due(g).await.unwrap(),
        Some(ms("2026-01-11T07:00:00Z"))
    );
    e.clock.set(ms("2026-01-11T06:59:00Z"));
    assert!(!reminded(&e.host.tick().await.unwrap(), 2));
    e.clock.set(ms("2026-01-11T07:00:00Z"));
    assert!(reminded(&e.host.tick().await.unwrap(), 2));
}
