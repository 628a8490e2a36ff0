//! Motions as the rules intend (issue 17), through the host on a real SQLite file with a
//! hand-moved clock: a turn may be skipped and a seat replaced only when its holder is stalled
//! (the turn timer ran out) or resigned asking for a replacement; with two seats left there is
//! no vote against the opponent, who loses on time when the other claims it; `draw accept`
//! answers only a draw offer. Every refusal changes nothing.
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host as support;

use hexmeros::ai::Level;
use hexmeros::games::{GameKind, Outcome, Seat};
use hexmeros::host::{
    Actor, Command, Effect, GameHost, GameId, HostError, Motion, Refused, Status,
};
use support::{act, ensure_players, env, first_move, said, vote};

/// A day and a minute: past the default 24-hour turn timer.
const STALL_MINUTES: i64 = 24 * 60 + 1;

/// `player`'s `cmd` is refused, and the game is unchanged.
async fn refused(host: &GameHost, g: GameId, player: i64, cmd: Command) -> Refused {
    let before = host.state(g).await.unwrap();
    let err = host
        .handle(g, Actor::player(player), cmd, None)
        .await
        .unwrap_err();
    let after = host.state(g).await.unwrap();
    assert_eq!(
        after.version(),
        before.version(),
        "{err}: nothing is stored"
    );
    assert_eq!(after.motions(), before.motions());
    match err {
        HostError::Refused(r) => r,
        other => panic!("not a refusal: {other}"),
    }
}

/// A HexDame game of players 1 (White) and 2 (Black), White's first move played: Black holds
/// the Token.
async fn hexdame(host: &GameHost) -> GameId {
    ensure_players(host, 1..=3).await;
    let (g, _) = host
        .create(GameKind::HexDame, &[1, 2], None, None)
        .await
        .unwrap();
    act(host, g, 1, support::cmd_move(&first_move(host, g).await)).await;
    g
}

/// A HexiMeros game of players 1…6, Silver's first move played: Blue (2) holds the Token.
async fn heximeros(host: &GameHost, players: &[i64]) -> GameId {
    ensure_players(host, 1..=9).await;
    let (g, _) = host
        .create(GameKind::HexiMeros, players, None, None)
        .await
        .unwrap();
    act(host, g, 1, support::cmd_move("K2-H3")).await;
    g
}

fn against_black() -> [Motion; 4] {
    let black = Seat(1);
    [
        Motion::Skip { seat: black },
        Motion::Replace {
            seat: black,
            player: 3,
        },
        Motion::Expel { seat: black },
        Motion::ExpelFor {
            seat: black,
            player: 3,
        },
    ]
}

#[tokio::test]
async fn two_players_no_vote_against_the_opponent_only_a_claim_on_time() {
    let e = env().await;
    let g = hexdame(&e.host).await;
    // Black has the Token and is not stalled: nothing can be done against them.
    for m in against_black() {
        let r = refused(&e.host, g, 1, Command::Propose(m)).await;
        assert_eq!(r, Refused::AgainstOpponent, "{r}");
    }
    let r = refused(&e.host, g, 1, Command::ClaimTime).await;
    assert_eq!(r, Refused::NotOutOfTime("Black".into()));
    assert_eq!(
        r.to_string(),
        "Black's turn timer has not run out: the game can be claimed on time only after it has"
    );
    let r = refused(&e.host, g, 2, Command::ClaimTime).await;
    assert_eq!(r, Refused::ClaimOwnTurn);
    // A day passes: Black is stalled. Still no votes against them; White may claim the game.
    e.clock.advance_minutes(STALL_MINUTES);
    let fx = e.host.tick().await.unwrap();
    assert!(
        said(
            &fx,
            "Black has not moved for 24 hours: White may claim the game on time"
        ),
        "{fx:?}"
    );
    for m in against_black() {
        let r = refused(&e.host, g, 1, Command::Propose(m)).await;
        assert_eq!(r, Refused::AgainstOpponent);
    }
    let fx = act(&e.host, g, 1, Command::ClaimTime).await;
    assert!(said(&fx, "Black lost on time"), "{fx:?}");
    assert!(
        said(&fx, "game over: White won (Black lost on time)"),
        "{fx:?}"
    );
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.status(), Status::Finished);
    assert!(matches!(st.outcome(), Some(Outcome::Win { winners, .. }) if winners == vec![Seat(0)]));
    assert_eq!(st.record().last().unwrap().line, "timeout black");
    // The time loss replays from the log and round-trips through the game record.
    assert_eq!(e.host.replay(g).await.unwrap().export(), st.export());
    let text = e.host.export(g).await.unwrap();
    assert!(text.to_string().contains("\ntimeout black\n"), "{text}");
    let copy = e.host.import(&text, &[1, 2]).await.unwrap();
    let copied = e.host.state(copy).await.unwrap();
    assert_eq!(copied.outcome(), st.outcome());
    assert_eq!(copied.export(), text);
}

#[tokio::test]
async fn the_last_two_of_heximeros_claim_on_time_instead_of_voting() {
    let e = env().await;
    let g = heximeros(&e.host, &[1, 2, 3, 4, 5, 6]).await;
    // With six in, there is no claim on time.
    let r = refused(&e.host, g, 1, Command::ClaimTime).await;
    assert_eq!(r, Refused::ClaimNeedsTwo);
    for p in 3..=6 {
        act(&e.host, g, p, Command::Resign { replacement: None }).await;
    }
    // Silver and Blue are left; Blue holds the Token and stalls.
    assert_eq!(e.host.state(g).await.unwrap().holder(), Some(Seat(1)));
    e.clock.advance_minutes(STALL_MINUTES);
    e.host.tick().await.unwrap();
    let r = refused(
        &e.host,
        g,
        1,
        Command::Propose(Motion::Skip { seat: Seat(1) }),
    )
    .await;
    assert_eq!(r, Refused::AgainstOpponent);
    let fx = act(&e.host, g, 1, Command::ClaimTime).await;
    assert!(said(&fx, "Blue lost on time"), "{fx:?}");
    let st = e.host.state(g).await.unwrap();
    assert!(matches!(st.outcome(), Some(Outcome::Win { winners, .. }) if winners == vec![Seat(0)]));
    assert_eq!(st.record().last().unwrap().line, "timeout blue");
    assert_eq!(e.host.replay(g).await.unwrap().export(), st.export());
}

#[tokio::test]
async fn heximeros_skips_and_replaces_only_a_stalled_seat() {
    let e = env().await;
    let g = heximeros(&e.host, &[1, 2, 3, 4, 5, 6]).await;
    let (blue, yellow) = (Seat(1), Seat(2));
    // Blue has just got the Token: not stalled.
    let r = refused(&e.host, g, 1, Command::Propose(Motion::Skip { seat: blue })).await;
    assert_eq!(r, Refused::SkipNotStalled("Blue".into()));
    let replace = |seat| Command::Propose(Motion::Replace { seat, player: 7 });
    let r = refused(&e.host, g, 1, replace(blue)).await;
    assert_eq!(r, Refused::ReplaceNotStalled("Blue".into()));
    assert_eq!(
        r.to_string(),
        "Blue may be replaced only after their turn timer has run out holding the Token, or \
         when they resign asking for a replacement"
    );
    // A day later Blue is stalled; Yellow, who does not hold the Token, is not.
    e.clock.advance_minutes(STALL_MINUTES);
    e.host.tick().await.unwrap();
    let r = refused(&e.host, g, 1, replace(yellow)).await;
    assert_eq!(r, Refused::ReplaceNotStalled("Yellow".into()));
    act(&e.host, g, 1, replace(blue)).await;
    act(&e.host, g, 3, vote(true)).await;
    let fx = act(&e.host, g, 4, vote(true)).await;
    assert!(said(&fx, "passed"), "{fx:?}");
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.seats()[1].player, 7);
    // The newcomer gets a whole turn: not stalled, not skippable.
    assert!(!st.stalled(blue));
    let r = refused(&e.host, g, 1, Command::Propose(Motion::Skip { seat: blue })).await;
    assert_eq!(r, Refused::SkipNotStalled("Blue".into()));
    // The newcomer stalls in turn: a majority skips the turn.
    e.clock.advance_minutes(STALL_MINUTES);
    e.host.tick().await.unwrap();
    act(&e.host, g, 1, Command::Propose(Motion::Skip { seat: blue })).await;
    act(&e.host, g, 3, vote(true)).await;
    act(&e.host, g, 4, vote(true)).await;
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.record().last().unwrap().line, "skip blue");
    assert_eq!(st.holder(), Some(yellow));
    // Yellow stalls; a skip is proposed, and Yellow moves before it passes: the motion lapses.
    e.clock.advance_minutes(STALL_MINUTES);
    e.host.tick().await.unwrap();
    act(
        &e.host,
        g,
        1,
        Command::Propose(Motion::Skip { seat: yellow }),
    )
    .await;
    let fx = act(
        &e.host,
        g,
        3,
        support::cmd_move(&first_move(&e.host, g).await),
    )
    .await;
    assert!(
        said(
            &fx,
            "(skip Yellow's turn) lapsed: Yellow is no longer stalled"
        ),
        "{fx:?}"
    );
    assert!(e.host.state(g).await.unwrap().motions().is_empty());
}

#[tokio::test]
async fn bots_skip_only_a_stalled_person() {
    let e = env().await;
    let easy = e.host.bot_player(Level::Easy).await.unwrap();
    let g = heximeros(&e.host, &[1, 2, 3, easy, easy, easy]).await;
    let blue = Seat(1);
    let r = refused(&e.host, g, 1, Command::Propose(Motion::Skip { seat: blue })).await;
    assert_eq!(r, Refused::SkipNotStalled("Blue".into()));
    e.clock.advance_minutes(STALL_MINUTES);
    e.host.tick().await.unwrap();
    // Silver proposes; the three bots carry it (4 of the 5 others), Yellow need not vote.
    act(&e.host, g, 1, Command::Propose(Motion::Skip { seat: blue })).await;
    let fx = e.host.bot_turns(g).await.unwrap();
    assert!(said(&fx, "(skip Blue's turn) passed"), "{fx:?}");
    let st = e.host.state(g).await.unwrap();
    assert!(st.record().iter().any(|r| r.line == "skip blue"));
}

#[tokio::test]
async fn draw_accept_answers_only_a_draw_offer() {
    let e = env().await;
    let g = heximeros(&e.host, &[1, 2, 3, 4, 5, 6]).await;
    // Only an expulsion is open: `draw accept` casts nothing.
    act(
        &e.host,
        g,
        1,
        Command::Propose(Motion::Expel { seat: Seat(5) }),
    )
    .await;
    let r = refused(&e.host, g, 2, Command::AcceptDraw).await;
    assert_eq!(r, Refused::NoDrawOffered);
    assert_eq!(
        r.to_string(),
        "there is no draw offer to accept (draw offer makes one)"
    );
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.motions()[0].yes, vec![Seat(0)], "no vote was cast");
    // With a draw offered too, a bare vote must name its motion; `draw accept` answers the
    // draw and only the draw.
    act(&e.host, g, 1, Command::Propose(Motion::Draw)).await;
    let r = refused(&e.host, g, 3, vote(true)).await;
    assert_eq!(r, Refused::SeveralMotions);
    act(&e.host, g, 3, Command::AcceptDraw).await;
    let st = e.host.state(g).await.unwrap();
    let (expel, draw) = (&st.motions()[0], &st.motions()[1]);
    assert_eq!(expel.motion, Motion::Expel { seat: Seat(5) });
    assert_eq!(expel.yes, vec![Seat(0)]);
    assert_eq!(draw.motion, Motion::Draw);
    assert_eq!(draw.yes, vec![Seat(0), Seat(2)]);
}

#[tokio::test]
async fn a_ballot_for_a_motion_no_longer_open_is_refused() {
    let e = env().await;
    let g = heximeros(&e.host, &[1, 2, 3, 4, 5, 6]).await;
    act(&e.host, g, 1, Command::Propose(Motion::Draw)).await;
    let st = e.host.state(g).await.unwrap();
    let (draw, made) = (st.motions()[0].id, st.version());
    // Players read the game's first motion as #1, whatever its id.
    let number = st.motions()[0].number;
    assert_eq!(number, 1);
    // A no from Blue fails the (unanimous) draw: the motion is gone, its ballot is stale.
    let no = Command::Vote {
        motion: Some(draw),
        yes: false,
    };
    e.host.press(g, Actor::player(2), no, made).await.unwrap();
    assert!(e.host.state(g).await.unwrap().motions().is_empty());
    let before = e.host.state(g).await.unwrap();
    let yes = Command::Vote {
        motion: Some(draw),
        yes: true,
    };
    let err = e
        .host
        .press(g, Actor::player(3), yes, made)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, HostError::Refused(Refused::StaleBallot(m)) if *m == number),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "this button is from an earlier vote: motion #1 is no longer open"
    );
    assert_eq!(e.host.state(g).await.unwrap().version(), before.version());
    // A new draw offer gets a new number: the old ballot does not vote on it.
    act(&e.host, g, 1, Command::Propose(Motion::Draw)).await;
    let yes = Command::Vote {
        motion: Some(draw),
        yes: true,
    };
    let err = e
        .host
        .press(g, Actor::player(3), yes, made)
        .await
        .unwrap_err();
    assert!(
        matches!(err, HostError::Refused(Refused::StaleBallot(_))),
        "{err}"
    );
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.motions()[0].yes, vec![Seat(0)], "no vote was cast");
}

#[tokio::test]
async fn with_several_motions_open_a_vote_names_its_motion_even_after_voting_on_one() {
    let e = env().await;
    let g = heximeros(&e.host, &[1, 2, 3, 4, 5, 6]).await;
    act(
        &e.host,
        g,
        1,
        Command::Propose(Motion::Expel { seat: Seat(5) }),
    )
    .await;
    act(&e.host, g, 1, Command::Propose(Motion::Draw)).await;
    // Yellow accepts the draw; a bare vote still does not fall to the expulsion.
    act(&e.host, g, 3, Command::AcceptDraw).await;
    let r = refused(&e.host, g, 3, vote(true)).await;
    assert_eq!(r, Refused::SeveralMotions);
    let expel = e.host.state(g).await.unwrap().motions()[0].id;
    act(
        &e.host,
        g,
        3,
        Command::Vote {
            motion: Some(expel),
            yes: false,
        },
    )
    .await;
    // Red, whom the expulsion is about, votes only on the draw: a bare vote is the draw's.
    act(&e.host, g, 6, vote(true)).await;
    let st = e.host.state(g).await.unwrap();
    let draw = st
        .motions()
        .iter()
        .find(|m| m.motion == Motion::Draw)
        .unwrap();
    assert_eq!(draw.yes, vec![Seat(0), Seat(2), Seat(5)]);
}

/// Issue 45: a motion is said with its ballot, one effect: the announcement (numbered from 1 in
/// each game) and the players asked to vote, not a word and a ping per voter besides.
#[tokio::test]
async fn a_motion_is_said_with_its_ballot_in_one_effect() {
    let e = env().await;
    let g = heximeros(&e.host, &[1, 2, 3, 4, 5, 6]).await;
    let fx = act(&e.host, g, 3, Command::Propose(Motion::Draw)).await;
    let ballots: Vec<&Effect> = fx
        .iter()
        .filter(|f| matches!(f, Effect::Ballot { .. }))
        .collect();
    assert_eq!(ballots.len(), 1, "{fx:?}");
    let Effect::Ballot { text, voters, .. } = ballots[0] else {
        unreachable!()
    };
    assert!(
        text.to_string().starts_with("motion #1 by Yellow: "),
        "{text}"
    );
    assert_eq!(voters, &[1, 2, 4, 5, 6]);
    assert!(
        !fx.iter().any(|f| matches!(f, Effect::Ping { .. })),
        "no ping besides the ballot: {fx:?}"
    );
    assert!(
        !fx.iter().any(
            |f| matches!(f, Effect::Say { text, .. } if text.to_string().contains("motion #1"))
        ),
        "no word besides the ballot: {fx:?}"
    );
}
