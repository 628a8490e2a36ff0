#![allow(clippy::unwrap_used)]
//! The status panel's data (issue 19, `GameState::panel`): each seat in or out (and how it
//! left), whose turn since when and until when, and the last round in words: a capture, a Check
//! declared, a seat put out.

use hexmeros_testkit::host as support;
use hexmeros_testkit::host::RulesOf;

use hexmeros::games::{Departure, Seat};
use hexmeros::host::{Command, GameId, GameState, PanelSeat, SeatStanding, Status};
use serde_json::json;

use support::*;

/// A Silver Regent on Q20 looks north along the file at Blue's piece on Q24 (`blue_on_q24`) with
/// Blue's other piece behind it on Q30; Red's Sovereign is far away; the other seats have no
/// pieces. Players 1…6 sit in the seats in order.
async fn file_game(e: &Env, blue_on_q24: &str, blue_on_q30: &str) -> GameId {
    ensure_players(&e.host, 1..=6).await;
    let position = json!({
        "game": "heximeros", "to_move": "silver",
        "pieces": [
            {"cell": "Q2", "owner": "silver", "kind": "sovereign"},
            {"cell": "Q20", "owner": "silver", "kind": "regent"},
            {"cell": "Q24", "owner": "blue", "kind": blue_on_q24},
            {"cell": "Q30", "owner": "blue", "kind": blue_on_q30},
            {"cell": "E14", "owner": "red", "kind": "sovereign"},
        ]
    });
    e.host
        .create_from_position(&[1, 2, 3, 4, 5, 6], &position.to_string(), None)
        .await
        .unwrap()
        .0
}

fn seat<'a>(st: &GameState, seats: &'a [PanelSeat], name: &str) -> &'a PanelSeat {
    let s: Seat = st.rules().seat_named(name).unwrap();
    seats.iter().find(|p| p.seat == s).unwrap()
}

/// The player in seat `name`.
fn player(st: &GameState, name: &str) -> i64 {
    st.seats()[st.rules().seat_named(name).unwrap().index()].player
}

#[tokio::test]
async fn a_capture_and_a_check_declared_are_the_last_round() {
    let e = env().await;
    let g = file_game(&e, "archer", "sovereign").await;
    let st = e.host.state(g).await.unwrap();
    let p = st.panel();
    assert_eq!(p.status, Status::Playing);
    let turn = p.turn.unwrap();
    let silver = player(&st, "silver");
    assert_eq!((turn.player, turn.number, turn.since), (silver, 1, T0));
    assert_eq!(
        turn.due,
        Some(T0 + 24 * 3_600_000),
        "the default 24-hour timer"
    );
    assert!(p.last_round.is_empty(), "{}", p.last_round);

    e.clock.advance_minutes(90);
    let blue = st.rules().seat_named("blue").unwrap();
    act(
        &e.host,
        g,
        silver,
        Command::Move {
            text: "Q20xQ24".into(),
            commit: false,
        },
    )
    .await;
    act(&e.host, g, silver, Command::Check { seat: blue }).await;
    let staged = e.host.state(g).await.unwrap();
    let_it_stand(&e.host, g, &staged).await;
    act(&e.host, g, silver, Command::Pass).await;

    let st = e.host.state(g).await.unwrap();
    let p = st.panel();
    assert!(
        p.last_round
            .contains("Silver Q20xQ24+blue took Blue's Archer"),
        "{}",
        p.last_round
    );
    assert!(
        p.last_round.contains("Silver declared Check on Blue"),
        "{}",
        p.last_round
    );
    let turn = p.turn.unwrap();
    assert_eq!((turn.player, turn.number), (player(&st, "blue"), 2));
    assert!(
        turn.since > T0,
        "the new turn started when the Token passed"
    );
    for name in ["silver", "blue", "red"] {
        assert_eq!(
            seat(&st, &p.seats, name).standing,
            SeatStanding::In,
            "{name}"
        );
    }
    assert!(p.seats.iter().all(|s| s.bot.is_none()));
    assert_eq!(seat(&st, &p.seats, "blue").player, player(&st, "blue"));
}

#[tokio::test]
async fn a_seat_put_out_and_a_seat_that_resigned_are_shown_so() {
    let e = env().await;
    let g = file_game(&e, "sovereign", "archer").await;
    let st = e.host.state(g).await.unwrap();
    act(&e.host, g, player(&st, "silver"), cmd_move("Q20xQ24")).await;
    let st = e.host.state(g).await.unwrap();
    let p = st.panel();
    assert!(
        p.last_round.contains("took Blue's Sovereign"),
        "{}",
        p.last_round
    );
    assert!(p.last_round.contains("Blue is out"), "{}", p.last_round);
    assert_eq!(seat(&st, &p.seats, "blue").standing, SeatStanding::Out);
    assert_eq!(seat(&st, &p.seats, "red").standing, SeatStanding::In);
    let red = player(&st, "red");
    assert_eq!(p.turn.unwrap().player, red, "Red has the Token");

    // Red resigns: Silver, the last seat, wins.
    act(&e.host, g, red, Command::Resign { replacement: None }).await;
    let st = e.host.state(g).await.unwrap();
    let p = st.panel();
    assert_eq!(p.status, Status::Finished);
    assert!(p.turn.is_none());
    assert!(p.result.is_some());
    assert_eq!(seat(&st, &p.seats, "silver").standing, SeatStanding::Won);
    assert_eq!(seat(&st, &p.seats, "blue").standing, SeatStanding::Out);
    assert_eq!(
        seat(&st, &p.seats, "red").standing,
        SeatStanding::Left(Departure::Resign)
    );
}

#[tokio::test]
async fn open_votes_and_house_rules_are_listed() {
    let e = env().await;
    ensure_players(&e.host, 1..=6).await;
    let (g, _) = e
        .host
        .create(
            hexmeros::games::GameKind::HexiMeros,
            &[1, 2, 3, 4, 5, 6],
            Some(json!({"scored": false})),
            None,
        )
        .await
        .unwrap();
    let p = e.host.state(g).await.unwrap().panel();
    assert_eq!(p.status, Status::HouseRules);
    assert_eq!(p.house, ["Scored: off"]);
    assert!(p.seats.iter().all(|s| s.points.is_none()), "not scored");
    assert!(p.votes.is_empty());
    act(
        &e.host,
        g,
        2,
        Command::Propose(hexmeros::host::Motion::Draw),
    )
    .await;
    let p = e.host.state(g).await.unwrap().panel();
    assert_eq!(p.votes.len(), 1, "{:?}", p.votes);
    assert!(p.votes[0].1 > T0, "the ballot's deadline");
}

/// Issue 45: the panel says who is in Check and who declared it, on the checked seat's line.
#[tokio::test]
async fn a_standing_check_is_on_the_checked_seats_line() {
    let e = env().await;
    ensure_players(&e.host, 1..=6).await;
    let position = json!({
        "game": "heximeros", "to_move": "silver",
        "pieces": [
            {"cell": "Q2", "owner": "silver", "kind": "sovereign"},
            {"cell": "Q20", "owner": "silver", "kind": "regent"},
            {"cell": "Q24", "owner": "blue", "kind": "sovereign"},
            {"cell": "E14", "owner": "red", "kind": "sovereign"},
        ],
        "checks": [{"declarer": "silver", "target": "Q24"}]
    });
    let (g, _) = e
        .host
        .create_from_position(&[1, 2, 3, 4, 5, 6], &position.to_string(), None)
        .await
        .unwrap();
    let st = e.host.state(g).await.unwrap();
    let p = st.panel();
    assert_eq!(seat(&st, &p.seats, "blue").checked_by, ["Silver"]);
    for other in ["silver", "red"] {
        assert!(seat(&st, &p.seats, other).checked_by.is_empty(), "{other}");
    }
}
