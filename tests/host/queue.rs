//! Queued (conditional) moves (issue 22) through the host, on a real SQLite file: a waiting
//! player queues a move; when the turn comes the host plays it (the thread is told it was a
//! queued move) or drops it with a ping saying why — in each of the five games. The positions
//! are found by a short deterministic walk from each game's start (`scene`): one where the seat
//! to move (the attacker) can either capture a piece of the next seat (the victim) or play a
//! quiet move after which that piece has a legal move (the queued one).
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host as support;
use hexmeros_testkit::host::RulesOf;

use hexmeros::games::{AnyGame, GameKind, Seat};
use hexmeros::host::{
    Actor, BotAction, Command, Effect, GameHost, GameId, HostError, QueueMiss, Refused,
};
use support::{act, cmd_move, ensure_players, env, host_on};

/// A position to queue in, found by `scene`.
#[derive(Clone, Debug)]
struct Scene {
    json: String,
    players: usize,
    /// The seat to move in `json`.
    attacker: Seat,
    /// The seat that moves after the attacker, whichever of the two replies is played.
    victim: Seat,
    /// The attacker's moves (a turn may hold bonus actions) capturing the victim's piece on
    /// `cell`.
    capture: Vec<String>,
    /// The attacker's moves leaving it there, after which `queued` is legal.
    quiet: Vec<String>,
    /// The victim's move of the piece on `cell`.
    queued: String,
    cell: String,
}

fn owned(g: &AnyGame, seat: Seat) -> Vec<(String, String)> {
    let name = g.seat_name(seat);
    g.piece_texts()
        .into_iter()
        .filter(|p| p.owner.eq_ignore_ascii_case(name))
        .map(|p| (p.cell, p.kind))
        .collect()
}

/// A scene in position `g`, if it offers one (`pick` chooses among several).
fn scene_here(g: &AnyGame, players: usize) -> Option<Scene> {
    let attacker = g.to_move()?;
    let mut replies: Vec<(Vec<String>, AnyGame)> = Vec::new();
    for y in g.legal_moves() {
        let mut n = g.clone();
        n.play(&y).ok()?;
        // Bonus actions (Hexmeister): the attacker's first legal moves until the turn passes.
        let mut turn = vec![y];
        while turn.len() < 4 && n.outcome().is_none() && n.to_move() == Some(attacker) {
            let next = n.legal_moves().into_iter().next()?;
            n.play(&next).ok()?;
            turn.push(next);
        }
        if n.outcome().is_none() && n.to_move().is_some_and(|v| v != attacker) {
            replies.push((turn, n));
        }
    }
    for (capture, after) in &replies {
        let victim = after.to_move()?;
        let before = owned(g, victim);
        let kept = owned(after, victim);
        for (cell, kind) in before.iter().filter(|p| !kept.contains(p)) {
            let _ = kind;
            for (quiet, next) in &replies {
                if next.to_move() != Some(victim)
                    || !owned(next, victim).iter().any(|p| &p.0 == cell)
                {
                    continue;
                }
                // A plain move of that piece (no Check declarations to keep it simple).
                if let Some(queued) = next.moves_from(cell).into_iter().find(|m| !m.contains('+')) {
                    return Some(Scene {
                        json: g.to_json(),
                        players,
                        attacker,
                        victim,
                        capture: capture.clone(),
                        quiet: quiet.clone(),
                        queued,
                        cell: cell.clone(),
                    });
                }
            }
        }
    }
    None
}

/// The first scene deterministic walks from `kind`'s start find.
fn scene(kind: GameKind, players: usize) -> Scene {
    let mut rng: u64 = 0x2545_F491_4F6C_DD1D;
    for _walk in 0..20 {
        let mut g = kind.start(Some(players), None).unwrap();
        for _ in 0..300 {
            if let Some(s) = scene_here(&g, players) {
                return s;
            }
            let moves = g.legal_moves();
            if moves.is_empty() || g.outcome().is_some() {
                break;
            }
            rng = rng
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = &moves[(rng >> 33) as usize % moves.len()];
            g.play(m).unwrap();
        }
    }
    panic!("{kind}: no scene in 20 walks");
}

/// Players 1… seated in a game started from the scene's position.
async fn start(host: &GameHost, s: &Scene) -> GameId {
    ensure_players(host, 1..=8).await;
    let players: Vec<i64> = (1..=s.players as i64).collect();
    host.create_from_position(&players, &s.json, None)
        .await
        .unwrap()
        .0
}

fn player_of(seat: Seat) -> i64 {
    seat.0 as i64 + 1
}

fn queue(text: &str) -> Command {
    Command::Queue {
        text: text.into(),
        sovereign_safe: false,
        if_reply: None,
    }
}

/// `player` plays `turn` as a person does: each move staged and passed, everyone asked letting
/// it stand. Returns every effect, the bots' (and the queued move's) included.
async fn play(host: &GameHost, game: GameId, player: i64, turn: &[String]) -> Vec<Effect> {
    let mut fx = Vec::new();
    for text in turn {
        fx.extend(play_one(host, game, player, text).await);
    }
    fx
}

async fn play_one(host: &GameHost, game: GameId, player: i64, text: &str) -> Vec<Effect> {
    let mut fx = act(host, game, player, cmd_move(text)).await;
    fx.extend(settle(host, game).await);
    let st = host.state(game).await.unwrap();
    if st
        .staged()
        .is_some_and(|s| s.seat == st.seat_of(player).unwrap() && s.waiting().is_empty())
    {
        fx.extend(act(host, game, player, Command::Pass).await);
        fx.extend(host.bot_turns(game).await.unwrap());
    }
    fx
}

/// Drive what the host does by itself (queued moves), and let every open challenge window
/// close with nobody declaring.
async fn settle(host: &GameHost, game: GameId) -> Vec<Effect> {
    let mut fx = host.bot_turns(game).await.unwrap();
    for _ in 0..8 {
        let st = host.state(game).await.unwrap();
        let Some(staged) = st.staged() else { break };
        let waiting = staged.waiting();
        if waiting.is_empty() {
            break;
        }
        for s in waiting {
            let p = st.seats()[s.index()].player;
            fx.extend(act(host, game, p, Command::Challenge { declare: false }).await);
        }
        fx.extend(host.bot_turns(game).await.unwrap());
    }
    fx
}

fn boards(fx: &[Effect]) -> Vec<String> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Board { caption, .. } => Some(caption.clone()),
            _ => None,
        })
        .collect()
}

/// What `player` alone is told (the reason a queued move was not played).
fn told_privately(fx: &[Effect], player: i64) -> Vec<String> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Private {
                player: p, text, ..
            } if *p == player => Some(text.to_string()),
            _ => None,
        })
        .collect()
}

fn pings_to(fx: &[Effect], player: i64) -> Vec<String> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Ping {
                player: p, text, ..
            } if *p == player => Some(text.to_string()),
            _ => None,
        })
        .collect()
}

/// The queue is played when its piece is still there; the thread is told it was queued.
async fn played_case(kind: GameKind, players: usize) {
    let s = scene(kind, players);
    let e = env().await;
    let game = start(&e.host, &s).await;
    let victim = player_of(s.victim);
    let fx = act(&e.host, game, victim, queue(&s.queued)).await;
    // Only the one who queued is told, privately.
    assert!(
        fx.iter()
            .all(|f| matches!(f, Effect::Private { player, .. } if *player == victim)),
        "{kind}: {fx:?}"
    );
    assert!(
        fx.iter()
            .any(|f| format!("{f:?}").contains("queued for your next turn"))
    );
    let export = e.host.export(game).await.unwrap();
    let fx = play(&e.host, game, player_of(s.attacker), &s.quiet).await;
    let fx = [fx, settle(&e.host, game).await].concat();
    let st = e.host.state(game).await.unwrap();
    let last = st.record().last().unwrap();
    assert_eq!(last.seat, Some(s.victim), "{kind}: {s:?}");
    assert!(
        last.line.contains(&s.queued),
        "{kind}: {} vs {}",
        last.line,
        s.queued
    );
    let captions = boards(&fx);
    let victim_name = st.seat_title(s.victim);
    assert!(
        captions.iter().any(
            |c| c.starts_with(&format!("{victim_name} played {}", s.queued))
                && c.contains("(a queued move)")
        ),
        "{kind}: {captions:?}"
    );
    // The victim is not pinged for a turn already played for them.
    assert!(
        pings_to(&fx, victim)
            .iter()
            .all(|t| !t.contains("you have the Token")),
        "{kind}: {fx:?}"
    );
    assert!(st.queued(s.victim).is_none());
    // The queue never reaches the record.
    assert!(!export.contains("queued"));
    assert_eq!(st.version(), e.host.replay(game).await.unwrap().version());
    assert_eq!(st.export(), e.host.replay(game).await.unwrap().export());
}

/// The queue is dropped when the attacker captures its piece: the victim is pinged for the turn
/// with the reason, and nothing is played for them.
async fn captured_case(kind: GameKind, players: usize) {
    let s = scene(kind, players);
    let e = env().await;
    let game = start(&e.host, &s).await;
    let victim = player_of(s.victim);
    act(&e.host, game, victim, queue(&s.queued)).await;
    let fx = play(&e.host, game, player_of(s.attacker), &s.capture).await;
    let st = e.host.state(game).await.unwrap();
    assert_eq!(st.holder(), Some(s.victim), "{kind}: nothing was played");
    assert_eq!(st.record().last().unwrap().seat, Some(s.attacker));
    assert!(
        st.queued(s.victim).is_none(),
        "{kind}: the queue is cleared"
    );
    let pings = pings_to(&fx, victim);
    assert!(
        pings
            .iter()
            .any(|t| t.contains("you have the Token")
                && t.contains("your queued move was not played")),
        "{kind}: {pings:?}"
    );
    // Why, and which piece, only the player is told: the queue is private.
    let why = format!("your piece on {} was captured", s.cell);
    assert!(pings.iter().all(|t| !t.contains(&why)), "{kind}: {pings:?}");
    assert!(
        fx.iter()
            .any(|f| matches!(f, Effect::Private { player, text }
            if *player == victim && text.to_string().contains(&why))),
        "{kind}: {fx:?}"
    );
    // Nothing is left for the host to do: the victim moves by hand, as ever.
    assert!(st.bot_action().is_none());
    let replayed = e.host.replay(game).await.unwrap();
    assert_eq!(replayed.version(), st.version());
    assert!(replayed.queued(s.victim).is_none());
}

#[tokio::test]
async fn heximeros_queued_move_played() {
    played_case(GameKind::HexiMeros, 6).await;
}

#[tokio::test]
async fn heximeros_queued_move_dropped_when_captured() {
    captured_case(GameKind::HexiMeros, 6).await;
}

#[tokio::test]
async fn hexdame_queued_move_played() {
    played_case(GameKind::HexDame, 2).await;
}

#[tokio::test]
async fn hexdame_queued_move_dropped_when_captured() {
    captured_case(GameKind::HexDame, 2).await;
}

#[tokio::test]
async fn hexmeister_queued_move_played() {
    played_case(GameKind::Hexmeister, 2).await;
}

#[tokio::test]
async fn hexmeister_queued_move_dropped_when_captured() {
    captured_case(GameKind::Hexmeister, 2).await;
}

#[tokio::test]
async fn hexaequo_queued_move_played() {
    played_case(GameKind::HexaEquo, 2).await;
}

#[tokio::test]
async fn hexaequo_queued_move_dropped_when_captured() {
    captured_case(GameKind::HexaEquo, 2).await;
}

#[tokio::test]
async fn harmegedo_queued_move_played() {
    played_case(GameKind::Harmegedo, 2).await;
}

#[tokio::test]
async fn harmegedo_queued_move_dropped_when_captured() {
    captured_case(GameKind::Harmegedo, 2).await;
}

fn refusal<T: std::fmt::Debug>(r: Result<T, HostError>) -> Refused {
    match r {
        Err(HostError::Refused(r)) => r,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// The turns of the attacker (each with its bonus actions) and the positions after them.
fn turns(g: &AnyGame) -> Vec<(Vec<String>, AnyGame)> {
    let Some(attacker) = g.to_move() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for y in g.legal_moves() {
        let mut n = g.clone();
        if n.play(&y).is_err() {
            continue;
        }
        let mut turn = vec![y];
        while turn.len() < 4 && n.outcome().is_none() && n.to_move() == Some(attacker) {
            let Some(next) = n.legal_moves().into_iter().next() else {
                break;
            };
            if n.play(&next).is_err() {
                break;
            }
            turn.push(next);
        }
        if n.outcome().is_none() && n.to_move().is_some_and(|v| v != attacker) {
            out.push((turn, n));
        }
    }
    out
}

/// A position where the attacker can put the victim in Check (HexiMeros: a move declaring Check
/// on the victim's Sovereign) or play a quiet move after which `queued` is legal, while after the
/// Check `queued` is not (it does not relieve it) though its piece is still there. `capture` is
/// the checking turn.
fn check_scene(kind: GameKind, players: usize) -> Scene {
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    for _walk in 0..20 {
        let mut g = kind.start(Some(players), None).unwrap();
        for _ in 0..300 {
            let all = turns(&g);
            // HexiMeros: a Check is declared on the victim's Sovereign with the move (§5.3).
            let checks: Vec<(Vec<String>, AnyGame)> = if kind == GameKind::HexiMeros {
                all.iter()
                    .filter_map(|(t, n)| {
                        let victim = n.to_move()?;
                        let d = g.declare(t.first()?, victim).ok()??;
                        let mut nc = g.clone();
                        nc.play(&d).ok()?;
                        (nc.to_move() == Some(victim)).then(|| (vec![d], nc))
                    })
                    .collect()
            } else {
                all.clone()
            };
            for (check, nc) in &checks {
                let Some(victim) = nc.to_move() else { continue };
                if nc.royal_attacked(victim) != Some(true) {
                    continue;
                }
                for (quiet, nq) in &all {
                    if nq.to_move() != Some(victim) || nq.royal_attacked(victim) != Some(false) {
                        continue;
                    }
                    let kept = owned(nc, victim);
                    let found = nq.legal_moves().into_iter().find(|m| {
                        let from = hexmeros::games::notation::origin(m);
                        !m.contains('+')
                            && owned(&g, victim).iter().any(|p| p.0 == from)
                            && kept.iter().any(|p| p.0 == from)
                            && nc.clone().play(m).is_err()
                    });
                    if let Some(queued) = found {
                        let cell = hexmeros::games::notation::origin(&queued).to_string();
                        return Scene {
                            json: g.to_json(),
                            players,
                            attacker: g.to_move().unwrap(),
                            victim,
                            capture: check.clone(),
                            quiet: quiet.clone(),
                            queued,
                            cell,
                        };
                    }
                }
            }
            let moves = g.legal_moves();
            if moves.is_empty() || g.outcome().is_some() {
                break;
            }
            rng = rng
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = &moves[(rng >> 33) as usize % moves.len()];
            g.play(m).unwrap();
        }
    }
    panic!("{kind}: no check scene in 20 walks");
}

/// A Check upon the player: the queued move that does not answer it is dropped by the rules;
/// with `sovereign_safe` it is dropped because the Sovereign (King) is attacked, and played
/// when the attacker made the quiet move instead.
async fn check_case(kind: GameKind, players: usize) {
    let s = check_scene(kind, players);
    let royal = if kind == GameKind::Harmegedo {
        "King"
    } else {
        "Sovereign"
    };
    for (safe, checked) in [(false, true), (true, true), (true, false)] {
        let e = env().await;
        let game = start(&e.host, &s).await;
        let victim = player_of(s.victim);
        let cmd = Command::Queue {
            text: s.queued.clone(),
            sovereign_safe: safe,
            if_reply: None,
        };
        let fx = act(&e.host, game, victim, cmd).await;
        if safe {
            assert!(
                said(&fx, &format!("nothing attacks your {royal}")),
                "{fx:?}"
            );
        }
        let turn = if checked { &s.capture } else { &s.quiet };
        let fx = play(&e.host, game, player_of(s.attacker), turn).await;
        let st = e.host.state(game).await.unwrap();
        let pings = pings_to(&fx, victim);
        if checked {
            assert_eq!(st.holder(), Some(s.victim), "{kind} {safe}: {s:?}");
            let why = if safe {
                format!("your {royal} is attacked")
            } else {
                "the rules refuse it now".to_string()
            };
            assert!(
                pings
                    .iter()
                    .any(|t| t.contains("your queued move was not played") && !t.contains(&why)),
                "{kind} {safe}: {pings:?}"
            );
            let private = told_privately(&fx, victim);
            assert!(
                private.iter().any(|t| t.contains(&why)),
                "{kind} {safe}: {private:?}"
            );
        } else {
            let last = st.record().last().unwrap();
            assert_eq!(last.seat, Some(s.victim), "{kind}: {s:?}");
            assert!(last.line.contains(&s.queued));
            assert!(boards(&fx).iter().any(|c| c.contains("(a queued move)")));
        }
        assert!(st.queued(s.victim).is_none());
    }
}

fn said(fx: &[Effect], needle: &str) -> bool {
    fx.iter().any(|e| format!("{e:?}").contains(needle))
}

#[tokio::test]
async fn heximeros_check_upon_the_player_drops_the_queued_move() {
    check_case(GameKind::HexiMeros, 6).await;
}

#[tokio::test]
async fn harmegedo_check_upon_the_player_drops_the_queued_move() {
    check_case(GameKind::Harmegedo, 2).await;
}

/// HexDame from the start: White (player 1) to move, Black (player 2) queues.
async fn hexdame(host: &GameHost) -> GameId {
    ensure_players(host, 1..=9).await;
    host.create(GameKind::HexDame, &[1, 2], None, None)
        .await
        .unwrap()
        .0
}

#[tokio::test]
async fn if_reply_matched_plays_and_another_reply_drops() {
    let g0 = GameKind::HexDame.start(Some(2), None).unwrap();
    let moves = g0.legal_moves();
    let (expected, other) = (moves[0].clone(), moves[moves.len() - 1].clone());
    let mut after = g0.clone();
    after.play(&expected).unwrap();
    let answer = after.legal_moves()[0].clone();
    for (reply, played) in [(&expected, true), (&other, false)] {
        let e = env().await;
        let game = hexdame(&e.host).await;
        let cmd = Command::Queue {
            text: answer.clone(),
            sovereign_safe: false,
            if_reply: Some(expected.clone()),
        };
        let fx = act(&e.host, game, 2, cmd).await;
        assert!(said(&fx, &format!("your opponent answers with {expected}")));
        let fx = play(&e.host, game, 1, std::slice::from_ref(reply)).await;
        let st = e.host.state(game).await.unwrap();
        if played {
            assert_eq!(st.record().len(), 2);
            assert!(st.record()[1].line.contains(&answer));
            assert_eq!(st.holder(), Some(Seat(0)));
            assert!(boards(&fx).iter().any(|c| c.contains("(a queued move)")));
        } else {
            assert_eq!(st.record().len(), 1);
            assert_eq!(st.holder(), Some(Seat(1)));
            let private = told_privately(&fx, 2);
            assert!(
                private.iter().any(|t| t.contains(&format!(
                    "your opponent answered {other}, not {expected}"
                ))),
                "{private:?}"
            );
        }
        assert!(st.queued(Seat(1)).is_none());
    }
}

#[tokio::test]
async fn bad_queues_are_refused_and_change_nothing() {
    let e = env().await;
    let game = hexdame(&e.host).await;
    let g0 = GameKind::HexDame.start(Some(2), None).unwrap();
    let white = g0.legal_moves()[0].clone();
    let mut after = g0.clone();
    after.play(&white).unwrap();
    let black = after.legal_moves()[0].clone();
    let v = e.host.state(game).await.unwrap().version();
    let try_ = |player: i64, cmd: Command| {
        let host = &e.host;
        async move { refusal(host.handle(game, Actor::player(player), cmd, None).await) }
    };
    assert_eq!(try_(9, queue(&black)).await, Refused::NotSeated);
    assert_eq!(try_(1, queue(&white)).await, Refused::QueueOwnTurn);
    assert!(matches!(try_(2, queue("zz")).await, Refused::Syntax(_)));
    // White's piece, not Black's.
    assert!(matches!(
        try_(2, queue(&white)).await,
        Refused::QueueNotYourPiece(_)
    ));
    let safe = Command::Queue {
        text: black.clone(),
        sovereign_safe: true,
        if_reply: None,
    };
    assert_eq!(try_(2, safe).await, Refused::QueueNoSovereign("HexDame"));
    let bad_reply = Command::Queue {
        text: black.clone(),
        sovereign_safe: false,
        if_reply: Some(black.clone()),
    };
    assert!(matches!(
        try_(2, bad_reply).await,
        Refused::QueueBadReply { .. }
    ));
    let not_after = Command::Queue {
        text: white.clone(),
        sovereign_safe: false,
        if_reply: Some(white.clone()),
    };
    assert!(matches!(
        try_(2, not_after).await,
        Refused::QueueIllegalAfter { .. } | Refused::QueueNotYourPiece(_)
    ));
    assert_eq!(try_(2, Command::ClearQueue).await, Refused::NothingQueued);
    let st = e.host.state(game).await.unwrap();
    assert_eq!(st.version(), v);
    assert!(st.queued(Seat(1)).is_none());
    // A finished game.
    act(&e.host, game, 1, Command::Concede).await;
    assert_eq!(try_(2, queue(&black)).await, Refused::GameOver);
}

#[tokio::test]
async fn if_reply_needs_two_players_and_sovereign_safe_a_sovereign() {
    let s = scene(GameKind::HexiMeros, 6);
    let e = env().await;
    let game = start(&e.host, &s).await;
    let cmd = Command::Queue {
        text: s.queued.clone(),
        sovereign_safe: true,
        if_reply: Some(s.quiet[0].clone()),
    };
    let r = refusal(
        e.host
            .handle(game, Actor::player(player_of(s.victim)), cmd, None)
            .await,
    );
    assert_eq!(r, Refused::QueueReplyNeedsTwo);
}

#[tokio::test]
async fn a_new_queue_replaces_the_old_and_a_cleared_one_is_not_played() {
    let e = env().await;
    let game = hexdame(&e.host).await;
    let g0 = GameKind::HexDame.start(Some(2), None).unwrap();
    let white = g0.legal_moves()[0].clone();
    let mut after = g0.clone();
    after.play(&white).unwrap();
    let black = after.legal_moves();
    act(&e.host, game, 2, queue(&black[0])).await;
    act(&e.host, game, 2, queue(&black[1])).await;
    let st = e.host.state(game).await.unwrap();
    assert_eq!(st.queued(Seat(1)).unwrap().text, black[1]);
    let fx = act(&e.host, game, 2, Command::ClearQueue).await;
    assert!(said(
        &fx,
        &format!("your queued move {} is cancelled", black[1])
    ));
    let fx = play(&e.host, game, 1, std::slice::from_ref(&white)).await;
    let st = e.host.state(game).await.unwrap();
    assert_eq!(st.holder(), Some(Seat(1)));
    assert_eq!(st.record().len(), 1);
    // The usual ping, nothing about a queue.
    let pings = pings_to(&fx, 2);
    assert!(
        pings.iter().any(|t| t.contains("you have the Token")),
        "{fx:?}"
    );
    assert!(!said(&fx, "queued"));
}

#[tokio::test]
async fn a_queue_is_dropped_when_its_player_resigns_or_is_replaced() {
    let s = scene(GameKind::HexiMeros, 6);
    let e = env().await;
    let game = start(&e.host, &s).await;
    let victim = player_of(s.victim);
    act(&e.host, game, victim, queue(&s.queued)).await;
    // Replaced by player 7: the others vote yes.
    act(
        &e.host,
        game,
        victim,
        Command::Resign {
            replacement: Some(7),
        },
    )
    .await;
    assert!(e.host.state(game).await.unwrap().queued(s.victim).is_some());
    for p in 1..=6 {
        if p == victim {
            continue;
        }
        let st = e.host.state(game).await.unwrap();
        if st.motions().is_empty() {
            break;
        }
        act(
            &e.host,
            game,
            p,
            Command::Vote {
                motion: None,
                yes: true,
            },
        )
        .await;
    }
    let st = e.host.state(game).await.unwrap();
    assert_eq!(st.seats()[s.victim.index()].player, 7);
    assert!(st.queued(s.victim).is_none());
    // The newcomer's queue goes with a plain resignation.
    act(&e.host, game, 7, queue(&s.queued)).await;
    assert!(e.host.state(game).await.unwrap().queued(s.victim).is_some());
    act(&e.host, game, 7, Command::Resign { replacement: None }).await;
    assert!(e.host.state(game).await.unwrap().queued(s.victim).is_none());
}

#[tokio::test]
async fn a_restart_between_the_reply_and_the_queued_move_plays_it_once() {
    let s = scene(GameKind::HexDame, 2);
    let e = env().await;
    let game = start(&e.host, &s).await;
    let victim = player_of(s.victim);
    act(&e.host, game, victim, queue(&s.queued)).await;
    // The opponent moves; the process stops before anything drives the queue.
    for t in &s.quiet {
        act(&e.host, game, player_of(s.attacker), cmd_move(t)).await;
    }
    let st = e.host.state(game).await.unwrap();
    assert_eq!(st.bot_action(), Some(BotAction::Queued { seat: s.victim }));
    // A replay agrees on what is pending.
    let replayed = e.host.replay(game).await.unwrap();
    assert_eq!(replayed.queued(s.victim), st.queued(s.victim));
    assert_eq!(replayed.bot_action(), st.bot_action());
    let before = st.record().len();
    drop(e.host);
    let host = host_on(&e.url, &e.clock).await;
    let fx = host.tick().await.unwrap();
    assert!(
        boards(&fx).iter().any(|c| c.contains("(a queued move)")),
        "{fx:?}"
    );
    let st = host.state(game).await.unwrap();
    assert_eq!(st.record().len(), before + 1);
    assert!(st.record()[before].line.contains(&s.queued));
    // Once only.
    host.tick().await.unwrap();
    host.bot_turns(game).await.unwrap();
    assert_eq!(host.state(game).await.unwrap().version(), st.version());
    let replayed = host.replay(game).await.unwrap();
    assert_eq!(replayed.export(), st.export());
    assert!(replayed.queued(s.victim).is_none());
}

#[tokio::test]
async fn stored_reasons_read_back() {
    // The reasons are stored in the log: their JSON names are kept.
    let why = QueueMiss::PieceGone { cell: "d4".into() };
    let json = serde_json::to_string(&why).unwrap();
    assert_eq!(json, r#"{"why":"piece_gone","cell":"d4"}"#);
}

#[tokio::test]
async fn the_terminal_queues_shows_and_plays_a_queued_move() {
    let e = env().await;
    let mut out = Vec::new();
    {
        let mut local = hexmeros::local::Local::new(&e.host, &mut out);
        for l in [
            "new hexdame ann bob",
            "bob: queue f6-e5 safe",
            "bob: queue f6-e5 if",
            "bob: queue f6-e5",
            "bob: queue",
            "play a4-a5",
            "bob: queue",
            "history",
        ] {
            local.line(l).await.unwrap();
        }
    }
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.to_string()
            .contains("error: HexDame has no Sovereign or King"),
        "{text}"
    );
    assert!(
        text.to_string().contains("error: queue: if <reply>"),
        "{text}"
    );
    assert!(
        text.to_string()
            .contains("queued for your next turn: f6-e5, if your piece on f6 is still there"),
        "{text}"
    );
    assert!(
        text.to_string()
            .contains("Black played f6-e5 (a queued move)"),
        "{text}"
    );
    assert!(text.to_string().contains("no queued move"), "{text}");
    assert!(text.to_string().contains("2. black f6-e5"), "{text}");
}

/// A queued move that opens a challenge window (Green is asked whether Blue's Sovereign walked
/// into his attack) is staged for Blue and passed when the window closes with nobody declaring
/// (Green lets it stand, or the window times out); a declaration upon Blue stops it and pings
/// Blue to move.
#[tokio::test]
async fn a_queued_move_waits_for_its_challenge_window() {
    let mut g = GameKind::HexiMeros.start(Some(6), None).unwrap();
    // The first 30 plies of the prefix: Silver is to move (L3xL11), after which Blue may move
    // his Sovereign E14-F13 into Green's attack.
    for m in &support::HEXIMEROS_PREFIX[..30] {
        g.play(m).unwrap();
    }
    let s = Scene {
        json: g.to_json(),
        players: 6,
        attacker: Seat(0),
        victim: Seat(1),
        capture: Vec::new(),
        quiet: vec!["L3xL11".into()],
        queued: "E14-F13".into(),
        cell: "E14".into(),
    };
    for how in ["let it stand", "time out", "declare"] {
        let e = env().await;
        let game = start(&e.host, &s).await;
        act(&e.host, game, 2, queue("E14-F13")).await;
        let mut fx = act(&e.host, game, 1, cmd_move("L3xL11")).await;
        let st = e.host.state(game).await.unwrap();
        assert_eq!(st.holder(), Some(Seat(1)), "{how}: Silver passed");
        fx.extend(e.host.bot_turns(game).await.unwrap());
        let st = e.host.state(game).await.unwrap();
        let staged = st.staged().unwrap();
        assert!(
            staged.queued && staged.pass_when_closed,
            "{how}: {staged:?}"
        );
        assert_eq!(staged.waiting(), vec![Seat(4)]);
        assert!(
            fx.iter()
                .any(|f| matches!(f, Effect::AskChallenge { player: 5, .. })),
            "{how}: {fx:?}"
        );
        assert!(pings_to(&fx, 2).is_empty(), "{how}: Blue is not pinged");
        let fx = match how {
            "let it stand" => act(&e.host, game, 5, Command::Challenge { declare: false }).await,
            "time out" => {
                e.clock.advance_minutes(st.window_minutes() + 1);
                e.host.tick().await.unwrap()
            }
            _ => act(&e.host, game, 5, Command::Challenge { declare: true }).await,
        };
        let st = e.host.state(game).await.unwrap();
        if how == "declare" {
            assert_eq!(st.holder(), Some(Seat(1)));
            assert!(st.staged().is_none());
            assert!(
                pings_to(&fx, 2)
                    .iter()
                    .any(|t| t.contains("will not be passed automatically")),
                "{fx:?}"
            );
            // Blue moves by hand now, as ever; nothing is left queued.
            assert!(st.queued(Seat(1)).is_none());
            assert!(st.bot_action().is_none());
        } else {
            assert_eq!(st.holder(), Some(Seat(2)), "{how}");
            assert!(st.record().last().unwrap().line.contains("E14-F13"));
            assert!(
                boards(&fx)
                    .iter()
                    .any(|c| c.starts_with("Blue played E14-F13 (a queued move)")),
                "{how}: {fx:?}"
            );
        }
        let replayed = e.host.replay(game).await.unwrap();
        assert_eq!(replayed.version(), st.version());
        assert_eq!(replayed.staged(), st.staged());
    }
}

/// With the outbox (the Discord front end), queueing writes nothing anyone receives: its only
/// word is the private answer to the one who queued, returned to the caller.
#[tokio::test]
async fn queueing_puts_nothing_in_the_outbox() {
    let e = env().await;
    let host = host_on(&e.url, &e.clock).await.with_outbox();
    let game = hexdame(&host).await;
    let before = host.outbox_pending().await.unwrap().len();
    let g0 = GameKind::HexDame.start(Some(2), None).unwrap();
    let mut after = g0.clone();
    after.play(&g0.legal_moves()[0]).unwrap();
    let fx = act(&host, game, 2, queue(&after.legal_moves()[0])).await;
    assert!(
        matches!(&fx[..], [Effect::Private { player: 2, .. }]),
        "{fx:?}"
    );
    assert_eq!(host.outbox_pending().await.unwrap().len(), before);
    act(&host, game, 2, Command::ClearQueue).await;
    assert_eq!(host.outbox_pending().await.unwrap().len(), before);
}

/// Two players: lines for different answers of the opponent's are kept side by side (at most
/// six); the line for the answer played is played; a move queued without if_reply replaces them.
#[tokio::test]
async fn lines_for_several_replies_play_the_one_answered() {
    let g0 = GameKind::HexDame.start(Some(2), None).unwrap();
    let whites = g0.legal_moves();
    assert!(whites.len() >= 7);
    let answer = |w: &str| {
        let mut g = g0.clone();
        g.play(w).unwrap();
        g.legal_moves()[0].clone()
    };
    let line = |i: usize| Command::Queue {
        text: answer(&whites[i]),
        sovereign_safe: false,
        if_reply: Some(whites[i].clone()),
    };
    let e = env().await;
    let game = hexdame(&e.host).await;
    for i in 0..6 {
        let fx = act(&e.host, game, 2, line(i)).await;
        if i > 0 {
            assert!(said(&fx, &format!("one of {} lines", i + 1)), "{fx:?}");
        }
    }
    // The same reply again replaces its line.
    act(&e.host, game, 2, line(3)).await;
    assert_eq!(
        e.host
            .state(game)
            .await
            .unwrap()
            .queued_lines(Seat(1))
            .len(),
        6
    );
    let r = refusal(e.host.handle(game, Actor::player(2), line(6), None).await);
    assert_eq!(r, Refused::QueueFull(6));
    let shown = e.host.queued_move(game, 2).await.unwrap().unwrap();
    assert!(
        shown.contains("the first line that holds is played"),
        "{shown}"
    );
    assert_eq!(shown.matches("• ").count(), 6, "{shown}");
    // White answers with the fifth line's reply: that line is played.
    let fx = play(&e.host, game, 1, std::slice::from_ref(&whites[4])).await;
    let st = e.host.state(game).await.unwrap();
    assert_eq!(st.record().len(), 2);
    assert!(st.record()[1].line.contains(&answer(&whites[4])));
    assert!(boards(&fx).iter().any(|c| c.contains("(a queued move)")));
    assert!(st.queued_lines(Seat(1)).is_empty());

    // A move without if_reply replaces every line.
    let e = env().await;
    let game = hexdame(&e.host).await;
    act(&e.host, game, 2, line(0)).await;
    act(&e.host, game, 2, line(1)).await;
    act(&e.host, game, 2, queue(&answer(&whites[0]))).await;
    let st = e.host.state(game).await.unwrap();
    assert_eq!(st.queued_lines(Seat(1)).len(), 1);
    assert!(st.queued(Seat(1)).unwrap().conditions.if_reply.is_none());
    // Cleared: all of it.
    let fx = act(&e.host, game, 2, Command::ClearQueue).await;
    assert!(said(&fx, "is cancelled"));
    assert!(
        e.host
            .state(game)
            .await
            .unwrap()
            .queued_lines(Seat(1))
            .is_empty()
    );
}

/// What a front end suggests to queue: in each game, the moves the waiting seat would have now;
/// the first of them is accepted as a queued move. The Token holder gets no suggestions.
#[tokio::test]
async fn suggestions_are_the_waiting_seats_moves_in_each_game() {
    let e = env().await;
    ensure_players(&e.host, 1..=6).await;
    for kind in GameKind::ALL {
        let players: Vec<i64> = (1..=kind.players().0 as i64).collect();
        let (game, _) = e.host.create(kind, &players, None, None).await.unwrap();
        let (mine, theirs) = e.host.queue_choices(game, 2).await.unwrap();
        assert!(!mine.is_empty(), "{kind}");
        let st = e.host.state(game).await.unwrap();
        assert_eq!(theirs, st.rules().legal_moves(), "{kind}");
        // Another seat's moves (some, such as HexaEquo's tile placements, are written alike).
        assert_ne!(mine, theirs, "{kind}");
        act(&e.host, game, 2, queue(&mine[0])).await;
        assert_eq!(
            e.host.queue_choices(game, 1).await.unwrap(),
            (Vec::new(), Vec::new()),
            "{kind}"
        );
        assert_eq!(
            e.host.queue_choices(game, 99).await.unwrap(),
            (Vec::new(), Vec::new())
        );
    }
}

/// Several waiting seats queue (HexiMeros): when Silver moves, the second seat's queued move is
/// played, then the third's, each told as a queued move; the fourth, who queued nothing, is
/// pinged.
#[tokio::test]
async fn queued_moves_of_several_seats_are_played_in_turn() {
    let e = env().await;
    ensure_players(&e.host, 1..=6).await;
    let (game, _) = e
        .host
        .create(GameKind::HexiMeros, &[1, 2, 3, 4, 5, 6], None, None)
        .await
        .unwrap();
    let silver = e.host.state(game).await.unwrap().rules().legal_moves()[0].clone();
    for p in [2, 3] {
        let (mine, _) = e.host.queue_choices(game, p).await.unwrap();
        act(&e.host, game, p, queue(&mine[0])).await;
    }
    let fx = [
        play(&e.host, game, 1, &[silver]).await,
        settle(&e.host, game).await,
    ]
    .concat();
    let st = e.host.state(game).await.unwrap();
    assert_eq!(st.record().len(), 3, "{:?}", st.record());
    assert_eq!(st.holder(), Some(Seat(3)));
    let captions = boards(&fx);
    for seat in [st.seat_title(Seat(1)), st.seat_title(Seat(2))] {
        assert!(
            captions
                .iter()
                .any(|c| c.starts_with(&format!("{seat} played")) && c.contains("(a queued move)")),
            "{captions:?}"
        );
    }
    assert!(
        pings_to(&fx, 4)
            .iter()
            .any(|t| t.contains("you have the Token"))
    );
    assert!(
        pings_to(&fx, 2).is_empty() && pings_to(&fx, 3).is_empty(),
        "{fx:?}"
    );
}
