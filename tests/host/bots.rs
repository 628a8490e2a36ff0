//! Bots as seats through the host (issue 8), on a real SQLite file with a hand-moved clock: a
//! HexiMeros table of two people and four bots played to its end, a bot elected to replace a
//! resigning person, a restart while a bot holds the Token, a HexDame game against a bot, bots in
//! the House Rules phase, what bots may not do, and a deadlocked table abandoned by their vote.
//! The bots play at the easy level (one ply and captures) so the run stays quick.
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host as support;
use hexmeros_testkit::host::RulesOf;

use hexmeros::ai::Level;
use hexmeros::games::{AnyGame, GameKind, Outcome, Rules, Seat};
use hexmeros::host::{
    Actor, BotAction, Command, Effect, GameHost, GameId, GameState, HostError, Motion, Refused,
    Status,
};
use hexmeros::host::{bot_id, bot_level};
use support::{Env, T0, act, cmd_move, ensure_players, first_move, host_on, said, vote};

/// A host with players p1…p3.
async fn env() -> Env {
    let e = support::env().await;
    ensure_players(&e.host, 1..=3).await;
    e
}

/// Effects never address a bot: it reads no pings, messages or buttons.
fn none_for_bots(fx: &[Effect]) {
    for e in fx {
        if let Effect::Ping { player, .. }
        | Effect::Dm { player, .. }
        | Effect::Private { player, .. }
        | Effect::AskChallenge { player, .. } = e
        {
            assert!(bot_level(*player).is_none(), "{e:?}");
        }
    }
}

/// The scripted person's turn: answer a challenge window with "let it stand", pass a move whose
/// window closed, else stage the first move that respects Checks declared upon them. Returns
/// whether they did anything.
async fn person_acts(host: &GameHost, g: GameId, st: &GameState) -> bool {
    if let Some(staged) = &st.staged() {
        for s in staged.waiting() {
            if st.bot(s).is_none() {
                let p = st.seats()[s.index()].player;
                act(host, g, p, Command::Challenge { declare: false }).await;
                return true;
            }
        }
        if staged.waiting().is_empty() && st.bot(staged.seat).is_none() {
            act(host, g, st.holder_player().unwrap(), Command::Pass).await;
            return true;
        }
        return false;
    }
    let Some(seat) = st.holder() else {
        return false;
    };
    if st.bot(seat).is_some() {
        return false;
    }
    let moves: Vec<String> = match &st.rules() {
        AnyGame::HexiMeros(h) if !st.declared_upon().is_empty() => h
            .moves_respecting(st.declared_upon())
            .iter()
            .map(|m| h.move_text(m))
            .collect(),
        other => other.legal_moves(),
    };
    // A reckless player: a capture whenever there is one, else some move; varied by the ply.
    let captures: Vec<&String> = moves.iter().filter(|m| m.contains('x')).collect();
    let n = st.record().len();
    let text = if captures.is_empty() {
        moves[(n * 31) % moves.len()].clone()
    } else {
        captures[(n * 7) % captures.len()].clone()
    };
    act(host, g, st.holder_player().unwrap(), cmd_move(&text)).await;
    true
}

/// What each viewer is shown of every position a played-out game passes through (issue 62:
/// the projection every front end renders, and the pictures' descriptions) is made without a
/// panic, for the Token holder, a spectator and the seat after the holder, and each piece the
/// holder may move lists its targets.
fn projected(st: &GameState) {
    let holder = st.holder_player();
    let next = st
        .holder()
        .map(|s| st.seats()[(s.index() + 1) % st.seats().len()].player);
    for viewer in [holder, None, next] {
        let seen = st.seen_by(viewer);
        let alt = st.alt_text(viewer);
        assert!(!alt.is_empty() && alt.chars().count() <= 1024, "{alt}");
        if viewer.is_some() && viewer == holder {
            for p in seen.pieces.iter().take(2) {
                let targets = st.targets_seen_by(viewer, &p.origin).unwrap();
                assert!(!targets.is_empty(), "{} moves nowhere", p.origin);
            }
        }
    }
}

/// Run people (scripted) and bots until the game ends.
async fn play_out(host: &GameHost, g: GameId, max_steps: usize) -> GameState {
    play_until(host, g, max_steps, usize::MAX).await
}

/// Run people (scripted) and bots until the game ends or has `plies` lines of record.
async fn play_until(host: &GameHost, g: GameId, max_steps: usize, plies: usize) -> GameState {
    for _ in 0..max_steps {
        let fx = host.bot_turns(g).await.unwrap();
        none_for_bots(&fx);
        let st = host.state(g).await.unwrap();
        projected(&st);
        if st.status() == Status::Finished || st.record().len() >= plies {
            return st;
        }
        assert!(
            person_acts(host, g, &st).await,
            "nobody can act: {:?} staged {:?} motions {:?}",
            st.holder(),
            st.staged(),
            st.motions()
        );
    }
    panic!("game {g} did not end in {max_steps} steps");
}

/// Silver and Orange are people, one easy bot holds the other four seats. The people play
/// recklessly (captures first) for 60 plies, then resign, and the bots play to the end. (Bots
/// voting a take-over in: `a_bot_is_elected_to_replace_a_resigning_person`.)
#[tokio::test]
async fn two_people_and_four_bots_play_heximeros_to_the_end() {
    let e = env().await;
    let bot = e.host.bot_player(Level::Easy).await.unwrap();
    assert_eq!(bot, bot_id(Level::Easy));
    assert_eq!(
        e.host.player_bot_level(bot).await.unwrap(),
        Some(Level::Easy)
    );
    assert_eq!(
        e.host.store().player_name(bot).await.unwrap().as_deref(),
        Some("Bot (easy)")
    );
    let (g, fx) = e
        .host
        .create(GameKind::HexiMeros, &[1, bot, bot, 2, bot, bot], None, None)
        .await
        .unwrap();
    none_for_bots(&fx);
    let st = play_until(&e.host, g, 1000, 60).await;
    assert!(
        st.record().iter().any(|r| r.line.starts_with("blue ")),
        "bots moved"
    );
    if st.status() != Status::Finished {
        // The people leave; the bots play on. (A bot seat is never replaced or skipped, as it
        // never stalls, so a table of bots ends only by play: this seeded one does.)
        for (seat, p) in [(Seat(0), 1), (Seat(3), 2)] {
            if st.active().contains(&seat) {
                act(&e.host, g, p, Command::Resign { replacement: None }).await;
            }
        }
    }
    let st = play_out(&e.host, g, 5000).await;
    let outcome = st.outcome().unwrap();
    assert!(
        matches!(outcome, Outcome::Win { .. } | Outcome::Draw { .. }),
        "{outcome:?}"
    );
    // Every move replays from the log.
    let replayed = e.host.replay(g).await.unwrap();
    assert_eq!(replayed.export(), st.export());
    // People got §7 points, the bot none; everyone is rated, the bot once.
    let board = e.host.leaderboard(None).await.unwrap();
    assert!(
        !board.is_empty() && board.iter().all(|s| s.player > 0),
        "{board:?}"
    );
    let ratings = e.host.ratings(Some(GameKind::HexiMeros)).await.unwrap();
    assert!(ratings.iter().any(|r| r.player == bot), "{ratings:?}");
    assert!(ratings.iter().all(|r| r.games == 1), "{ratings:?}");
}

#[tokio::test]
async fn a_bot_is_elected_to_replace_a_resigning_person() {
    let e = env().await;
    let easy = e.host.bot_player(Level::Easy).await.unwrap();
    let normal = e.host.bot_player(Level::Normal).await.unwrap();
    let (g, _) = e
        .host
        .create(
            GameKind::HexiMeros,
            &[1, 2, 3, easy, easy, easy],
            None,
            None,
        )
        .await
        .unwrap();
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    // Blue resigns and proposes the normal bot; the three bots vote yes at once (3 of 5).
    let fx = act(
        &e.host,
        g,
        2,
        Command::Resign {
            replacement: Some(normal),
        },
    )
    .await;
    assert!(said(&fx, "motion #"), "{fx:?}");
    assert_eq!(e.host.state(g).await.unwrap().seats()[1].player, 2);
    let fx = e.host.bot_turns(g).await.unwrap();
    none_for_bots(&fx);
    assert!(said(&fx, "passed"), "{fx:?}");
    // The bot now plays Blue, held the Token, and moved.
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.seats()[1].player, normal);
    assert_eq!(st.bot(Seat(1)), Some(Level::Normal));
    assert!(
        st.record().iter().any(|r| r.line.starts_with("blue ")),
        "{:?}",
        st.record()
    );
    assert_eq!(
        st.holder(),
        Some(Seat(2)),
        "Yellow, a person, has the Token"
    );
    assert!(st.points().iter().any(|p| p.player == 2 && p.points == -50));
    // The seats table knows the bot took over.
    assert_eq!(
        e.host.store().games_of(normal, false).await.unwrap().len(),
        1
    );
    assert!(e.host.store().games_of(2, false).await.unwrap().is_empty());
}

#[tokio::test]
async fn a_restart_while_a_bot_holds_the_token_loses_nothing() {
    let e = env().await;
    let bot = e.host.bot_player(Level::Easy).await.unwrap();
    let (g, _) = e
        .host
        .create(
            GameKind::HexiMeros,
            &[1, bot, bot, bot, bot, bot],
            None,
            None,
        )
        .await
        .unwrap();
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    // The host stops before its bots thought (what a crash mid-thought leaves behind).
    let before = e.host.state(g).await.unwrap();
    assert!(matches!(
        before.bot_action(),
        Some(BotAction::Move { seat: Seat(1), .. })
    ));
    e.host.store().close().await;
    drop(e.host);
    let host = host_on(&e.url, &e.clock).await;
    let after = host.state(g).await.unwrap();
    assert_eq!(after.export(), before.export());
    // The timer tick finds the game waiting on a bot: the five bots move and the Token comes
    // back to Silver.
    let fx = host.tick().await.unwrap();
    none_for_bots(&fx);
    assert_eq!(
        fx.iter()
            .filter(|f| matches!(f, Effect::Board { .. }))
            .count(),
        5,
        "{fx:?}"
    );
    let st = host.state(g).await.unwrap();
    assert_eq!(st.record().len(), 6);
    assert_eq!(st.record()[0].line, "silver K2-H3");
    assert_eq!(st.holder(), Some(Seat(0)));
    assert!(
        fx.iter()
            .any(|f| matches!(f, Effect::Ping { player: 1, .. }))
    );
    // Nothing more to do until Silver moves.
    assert!(host.bot_turns(g).await.unwrap().is_empty());
    assert!(host.tick().await.unwrap().is_empty());
}

#[tokio::test]
async fn hexdame_against_a_bot_to_the_end() {
    let e = env().await;
    let bot = e.host.bot_player(Level::Easy).await.unwrap();
    let (g, _) = e
        .host
        .create(GameKind::HexDame, &[1, bot], None, None)
        .await
        .unwrap();
    let st = play_out(&e.host, g, 1000).await;
    assert!(st.outcome().is_some());
    assert!(st.record().len() > 4, "{:?}", st.record());
    let ratings = e.host.ratings(Some(GameKind::HexDame)).await.unwrap();
    assert_eq!(ratings.len(), 2);
    // The bot moves as the second seat after each of the person's moves: the record alternates.
    for (i, r) in st.record().iter().enumerate() {
        let seat = Seat((i % 2) as u8);
        assert!(r.line.starts_with(st.seat_name(seat)), "{i}: {}", r.line);
    }
}

#[tokio::test]
async fn bots_leave_house_rules_to_the_people_and_wait_for_their_ballot() {
    let e = env().await;
    let bot = e.host.bot_player(Level::Easy).await.unwrap();
    // A bot is Silver: it would end the House Rules phase with its first move.
    let (g, _) = e
        .host
        .create(GameKind::HexiMeros, &[bot, 1, 2, bot, bot, bot], None, None)
        .await
        .unwrap();
    act(
        &e.host,
        g,
        1,
        Command::Propose(Motion::HouseRule {
            key: "scored".into(),
            value: false.into(),
        }),
    )
    .await;
    // While the ballot is open Silver waits, and the bots do not vote on it.
    assert!(e.host.bot_turns(g).await.unwrap().is_empty());
    assert!(e.host.tick().await.unwrap().is_empty());
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.status(), Status::HouseRules);
    assert_eq!(st.voters(&st.motions()[0].motion), vec![Seat(1), Seat(2)]);
    let fx = act(&e.host, g, 2, vote(true)).await;
    assert!(said(&fx, "passed"), "{fx:?}");
    // The people decided: the game is not scored; now Silver moves and play begins.
    let fx = e.host.bot_turns(g).await.unwrap();
    assert!(said(&fx, "Silver played"), "{fx:?}");
    let st = e.host.state(g).await.unwrap();
    assert!(!st.scored());
    assert_eq!(st.status(), Status::Playing);
    assert_eq!(st.holder(), Some(Seat(1)));
}

#[tokio::test]
async fn bots_vote_on_what_concerns_them_and_cannot_be_impersonated() {
    let e = env().await;
    e.clock.set(T0);
    let bot = e.host.bot_player(Level::Easy).await.unwrap();
    let (g, _) = e
        .host
        .create(GameKind::HexiMeros, &[1, 2, bot, bot, bot, bot], None, None)
        .await
        .unwrap();
    // Nobody may send a command as a bot.
    let err = e
        .host
        .handle(g, Actor::player(bot), cmd_move("K2-H3"), None)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("bot"), "{err}");
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    // A bot's turn cannot be skipped: it never stalls.
    act(&e.host, g, 2, cmd_move(&first_move(&e.host, g).await)).await;
    let err = e
        .host
        .handle(
            g,
            Actor::player(1),
            Command::Propose(Motion::Skip { seat: Seat(2) }),
            None,
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("bot"), "{err}");
    // An expulsion of a person who has not stalled: the bots vote no, so it fails.
    e.host.bot_turns(g).await.unwrap();
    act(
        &e.host,
        g,
        1,
        Command::Propose(Motion::Expel { seat: Seat(1) }),
    )
    .await;
    let fx = e.host.bot_turns(g).await.unwrap();
    assert!(said(&fx, "failed"), "{fx:?}");
    assert!(e.host.state(g).await.unwrap().motions().is_empty());
    // One person cannot take two seats, but one bot can take several.
    let err = e
        .host
        .create(GameKind::HexDame, &[1, 1], None, None)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("only one seat"), "{err}");
    e.host
        .create(GameKind::HexDame, &[bot, bot], None, None)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_game_of_bots_alone_is_played_by_bot_turns() {
    let e = env().await;
    let bot = e.host.bot_player(Level::Easy).await.unwrap();
    let (g, _) = e
        .host
        .create(GameKind::Hexmeister, &[bot, bot], None, None)
        .await
        .unwrap();
    let err = e
        .host
        .handle(g, Actor::player(1), Command::Concede, None)
        .await
        .unwrap_err();
    assert!(matches!(err, HostError::Refused(Refused::NotSeated)));
    let fx = e.host.bot_turns(g).await.unwrap();
    assert!(said(&fx, "game over"), "{fx:?}");
    assert_eq!(e.host.state(g).await.unwrap().status(), Status::Finished);
}

/// A person who stalls past the turn timer is expelled and a bot elected in their place (§8.5:
/// expulsion is handled as a resignation): the bots vote for it, as the ground is abandonment.
#[tokio::test]
async fn a_stalled_person_is_expelled_and_a_bot_takes_the_seat() {
    let e = env().await;
    let easy = e.host.bot_player(Level::Easy).await.unwrap();
    let (g, _) = e
        .host
        .create(
            GameKind::HexiMeros,
            &[1, 2, 3, easy, easy, easy],
            None,
            None,
        )
        .await
        .unwrap();
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    // Without a stall the bots refuse an expulsion.
    let expel_for = Command::Propose(Motion::ExpelFor {
        seat: Seat(1),
        player: easy,
    });
    act(&e.host, g, 1, expel_for.clone()).await;
    act(&e.host, g, 3, vote(true)).await;
    let fx = e.host.bot_turns(g).await.unwrap();
    assert!(said(&fx, "failed"), "{fx:?}");
    // Blue holds the Token for a day: the turn timer runs out, and now the bots agree.
    e.clock.advance_minutes(24 * 60 + 1);
    let fx = e.host.tick().await.unwrap();
    assert!(said(&fx, "has not moved for 24 hours"), "{fx:?}");
    act(&e.host, g, 1, expel_for).await;
    act(&e.host, g, 3, vote(true)).await;
    let fx = e.host.bot_turns(g).await.unwrap();
    assert!(said(&fx, "Blue was expelled"), "{fx:?}");
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.seats()[1].player, easy);
    assert!(
        st.record().iter().any(|r| r.line.starts_with("blue ")),
        "the bot moved"
    );
    assert!(engine_active(&st, Seat(1)), "the seat plays on");
    let blue: i32 = st
        .player_points()
        .into_iter()
        .filter(|p| p.0 == 2)
        .map(|p| p.1)
        .sum();
    assert_eq!(
        blue, -550,
        "−500 for the expulsion and −50 as a replaced resigner"
    );
}

fn engine_active(st: &GameState, seat: Seat) -> bool {
    st.active().contains(&seat)
}

/// Three Sovereigns alone (Silver, Blue and Red; the other seats out), Blue to move: none of
/// them can ever take another, and only the unanimous vote to abandon ends the game (§6).
fn three_bare_sovereigns() -> String {
    serde_json::json!({
        "game": "heximeros",
        "to_move": "blue",
        "pieces": [
            {"owner": "silver", "kind": "sovereign", "cell": "Q2"},
            {"owner": "blue", "kind": "sovereign", "cell": "E14"},
            {"owner": "red", "kind": "sovereign", "cell": "AC14"},
        ],
        "eliminated": ["yellow", "orange", "green"],
    })
    .to_string()
}

/// Bots put the vote to abandon a deadlocked table to it when the deadlock sets in, and not
/// again the same turn or the next round once people have voted it down; a table of bots
/// alone abandons it and the game ends as a draw of the three, instead of running on forever.
#[tokio::test]
async fn bots_ask_a_deadlocked_table_to_abandon_and_a_table_of_bots_ends() {
    let e = env().await;
    e.clock.set(T0);
    let bot = e.host.bot_player(Level::Easy).await.unwrap();
    let (g, _) = e
        .host
        .create_from_position(
            &[1, bot, bot, bot, bot, bot],
            &three_bare_sovereigns(),
            None,
        )
        .await
        .unwrap();
    // Blue, the first bot still in, proposes; Red votes for it; both move on while Silver, a
    // person, is asked.
    let fx = e.host.bot_turns(g).await.unwrap();
    none_for_bots(&fx);
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.motions().len(), 1, "{fx:?}");
    let m = &st.motions()[0];
    assert_eq!((m.by, &m.motion), (Seat(1), &Motion::Draw));
    let mut yes = m.yes.clone();
    yes.sort();
    assert_eq!(yes, vec![Seat(1), Seat(5)]);
    assert_eq!(st.holder(), Some(Seat(0)));
    assert_eq!(st.record().len(), 2);
    // Silver votes no and moves: the next round passes without another ballot.
    let fx = act(
        &e.host,
        g,
        1,
        Command::Vote {
            motion: None,
            yes: false,
        },
    )
    .await;
    assert!(said(&fx, "failed"), "{fx:?}");
    act(&e.host, g, 1, cmd_move(&first_move(&e.host, g).await)).await;
    e.host.bot_turns(g).await.unwrap();
    let st = e.host.state(g).await.unwrap();
    assert!(st.motions().is_empty(), "{:?}", st.motions());
    assert_eq!((st.record().len(), st.holder()), (5, Some(Seat(0))));
    assert_eq!(st.status(), Status::Playing);

    // Two people (Silver, Red) and Blue a bot, Blue to move: Silver proposes, Red votes no.
    // The table has just voted it down: Blue moves instead of asking again this turn.
    let (g, _) = e
        .host
        .create_from_position(&[1, bot, bot, bot, bot, 2], &three_bare_sovereigns(), None)
        .await
        .unwrap();
    let st = e.host.state(g).await.unwrap();
    assert!(matches!(
        st.bot_action(),
        Some(BotAction::Propose { seat: Seat(1) })
    ));
    act(&e.host, g, 1, Command::Propose(Motion::Draw)).await;
    let no = Command::Vote {
        motion: None,
        yes: false,
    };
    assert!(said(&act(&e.host, g, 2, no).await, "failed"));
    let st = e.host.state(g).await.unwrap();
    assert!(st.motions().is_empty());
    assert!(
        matches!(st.bot_action(), Some(BotAction::Move { seat: Seat(1), .. })),
        "{:?}",
        st.bot_action()
    );

    // Bots alone: proposed, carried, over.
    let (g, _) = e
        .host
        .create_from_position(&[bot; 6], &three_bare_sovereigns(), None)
        .await
        .unwrap();
    e.host.bot_turns(g).await.unwrap();
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.status(), Status::Finished);
    match st.outcome() {
        Some(Outcome::Draw { seats, reason }) => {
            assert_eq!(seats, vec![Seat(0), Seat(1), Seat(5)]);
            assert!(reason.contains("abandoned"), "{reason}");
        }
        o => panic!("{o:?}"),
    }
}
