//! The host's outbox (issue 18): what players must be told is stored in the transaction of the
//! event that causes it, all but the actor's own replies, with the follow-ups (ballots, stall
//! notices, the replay) derived once.
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{db, host as support};

use std::sync::Arc;

use hexmeros::games::{GameKind, Seat};
use hexmeros::host::{
    Actor, AdminAction, Command, Effect, GameHost, GameId, HostError, Motion, Pinged, REMINDER,
    Status, URGENT, is_reply,
};
use hexmeros::store::{Entry, Store};
use support::{T0, act, cmd_move, ensure_players};

struct Env {
    clock: Arc<hexmeros::host::ManualClock>,
    host: GameHost,
    _db: db::TestDb,
}

async fn env() -> Env {
    let db = db::TestDb::new().await;
    let clock = Arc::new(hexmeros::host::ManualClock::new(T0));
    let host = GameHost::new(Store::open(&db.url).await.unwrap(), clock.clone()).with_outbox();
    ensure_players(&host, 1..=7).await;
    Env {
        clock,
        host,
        _db: db,
    }
}

async fn pending(host: &GameHost) -> Vec<Entry> {
    host.store().outbox_pending().await.unwrap()
}

fn effects(entries: &[Entry]) -> Vec<Effect> {
    entries
        .iter()
        .map(|e| serde_json::from_str(&e.body).unwrap())
        .collect()
}

/// Effects as the outbox keeps them: boards without their text picture (drawn again at
/// delivery from the game at the entry's version), each Token ping that follows a board said in
/// the board's message, and the status panel's update after the rest when the thread is told
/// anything (right after a new game's thread, before a finished game's thread is closed).
fn as_stored(fx: &[Effect]) -> Vec<Effect> {
    let mut out: Vec<Effect> = Vec::new();
    for e in fx {
        match (e, out.last_mut()) {
            (Effect::Ping { player, text, .. }, Some(Effect::Board { ping: p @ None, .. })) => {
                *p = Some(Pinged {
                    player: *player,
                    text: text.clone(),
                });
            }
            (Effect::Board { game, caption, .. }, _) => out.push(Effect::Board {
                game: *game,
                board: String::new(),
                caption: caption.clone(),
                ping: None,
            }),
            (other, _) => out.push(other.clone()),
        }
    }
    let Some(game) = out.iter().find_map(Effect::game) else {
        return out;
    };
    out.push(Effect::Panel { game });
    out
}

/// The Token ping folded into the stored board of `stored`.
fn board_ping(stored: &[Entry]) -> (Pinged, i64) {
    let boards: Vec<(Pinged, i64)> = stored
        .iter()
        .filter_map(|x| match serde_json::from_str(&x.body).unwrap() {
            Effect::Board { ping: Some(p), .. } => Some((p, x.priority)),
            _ => None,
        })
        .collect();
    assert_eq!(boards.len(), 1, "{stored:?}");
    boards[0].clone()
}

/// Mark everything pending as delivered.
async fn deliver_all(host: &GameHost) {
    for e in pending(host).await {
        let done = hexmeros::store::Done {
            message: Some(1),
            outcome: "sent".into(),
        };
        assert!(
            host.store()
                .outbox_done(None, e.id, &done, T0)
                .await
                .unwrap()
        );
    }
}

async fn heximeros(host: &GameHost) -> GameId {
    host.create(GameKind::HexiMeros, &[1, 2, 3, 4, 5, 6], None, None)
        .await
        .unwrap()
        .0
}

#[tokio::test]
async fn a_new_game_and_a_move_are_stored_with_what_they_tell() {
    let e = env().await;
    let (g, fx) = e
        .host
        .create(GameKind::HexiMeros, &[1, 2, 3, 4, 5, 6], None, None)
        .await
        .unwrap();
    let stored = pending(&e.host).await;
    assert_eq!(
        effects(&stored),
        as_stored(&fx),
        "the opening effects, in order"
    );
    assert!(
        stored.iter().all(|x| x.body.len() < 1000),
        "no pictures in the outbox"
    );
    assert!(stored.iter().all(|x| x.lane == format!("g{g}")));
    assert!(matches!(fx[0], Effect::OpenThread { .. }));
    // The thread, the board pinging Red (its caption the first words), then the status panel:
    // a start's board waits for nothing but its thread (issue 48).
    let kinds: Vec<&str> = stored
        .iter()
        .map(|x| x.body.split('"').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(kinds, ["OpenThread", "Board", "Panel"], "{stored:?}");
    assert_eq!(board_ping(&stored).0.player, 1);
    deliver_all(&e.host).await;

    // Staging answers the mover privately: that answer is the command's reply, not stored.
    let staged = act(
        &e.host,
        g,
        1,
        Command::Move {
            text: "K2-H3".into(),
            commit: false,
        },
    )
    .await;
    assert!(staged.iter().any(|f| is_reply(f, Some(1))), "{staged:?}");
    let stored = pending(&e.host).await;
    assert!(
        !effects(&stored).iter().any(|f| is_reply(f, Some(1))),
        "{stored:?}"
    );
    deliver_all(&e.host).await;
    let fx = act(&e.host, g, 1, Command::Pass).await;
    let stored = pending(&e.host).await;
    let meant: Vec<Effect> = fx
        .iter()
        .filter(|f| !is_reply(f, Some(1)))
        .cloned()
        .collect();
    assert_eq!(effects(&stored), as_stored(&meant));
    let version = e.host.state(g).await.unwrap().version() as i64;
    assert!(stored.iter().all(|x| x.version == Some(version)));
    // One message for the move: the board pings the next Token holder; then the panel.
    assert!(
        !stored.iter().any(|x| x.body.contains("\"Ping\"")),
        "{stored:?}"
    );
    let (ping, priority) = board_ping(&stored);
    assert_eq!(priority, URGENT);
    assert_eq!(ping.player, 2);
    assert!(
        ping.text.to_string().contains("you have the Token"),
        "{}",
        ping.text
    );
    assert!(
        stored.last().unwrap().body.contains("\"Panel\""),
        "{stored:?}"
    );
}

#[tokio::test]
async fn a_refused_or_stale_command_stores_nothing_to_tell() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    deliver_all(&e.host).await;
    let not_yours = e
        .host
        .handle(g, Actor::player(3), cmd_move("K2-H3"), None)
        .await;
    assert!(not_yours.is_err());
    let stale = e
        .host
        .handle(g, Actor::player(1), cmd_move("K2-H3"), Some(7))
        .await;
    assert!(matches!(stale, Err(HostError::Refused(_))), "{stale:?}");
    assert!(pending(&e.host).await.is_empty());
    assert_eq!(e.host.store().outbox_stats().await.unwrap().pending, 0);
}

#[tokio::test]
async fn a_motion_gets_one_ballot_and_a_finished_game_one_replay() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    deliver_all(&e.host).await;
    let fx = act(&e.host, g, 1, Command::Propose(Motion::Draw)).await;
    let ballots: Vec<&Effect> = fx
        .iter()
        .filter(|f| matches!(f, Effect::Ballot { .. }))
        .collect();
    assert_eq!(ballots.len(), 1, "{fx:?}");
    let Effect::Ballot { motion, .. } = *ballots[0] else {
        unreachable!()
    };
    assert!(
        effects(&pending(&e.host).await).contains(ballots[0]),
        "the ballot is in the outbox"
    );
    deliver_all(&e.host).await;
    let fx = act(
        &e.host,
        g,
        2,
        Command::Vote {
            motion: Some(motion),
            yes: true,
        },
    )
    .await;
    assert!(
        !fx.iter().any(|f| matches!(f, Effect::Ballot { .. })),
        "a vote opens no ballot: {fx:?}"
    );

    let (d, _) = e
        .host
        .create(GameKind::HexDame, &[1, 2], None, None)
        .await
        .unwrap();
    deliver_all(&e.host).await;
    let fx = act(&e.host, d, 1, Command::Concede).await;
    assert!(
        fx.contains(&Effect::Replay { game: d }),
        "the end of the game: {fx:?}"
    );
    let stored = effects(&pending(&e.host).await);
    assert!(stored.contains(&Effect::Replay { game: d }));
    // The panel shows the result before the thread is archived (then it can be edited no more).
    assert_eq!(
        &stored[stored.len() - 2..],
        [Effect::Panel { game: d }, Effect::CloseThread { game: d }],
        "{stored:?}"
    );
}

#[tokio::test]
async fn a_stalled_token_holder_is_announced_once_and_reminders_wait_behind_the_rest() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    deliver_all(&e.host).await;
    e.clock.advance_minutes(61);
    e.host.tick().await.unwrap();
    let reminders = pending(&e.host).await;
    assert!(!reminders.is_empty());
    assert!(
        reminders.iter().all(|x| x.priority == REMINDER),
        "{reminders:?}"
    );
    deliver_all(&e.host).await;
    e.clock.advance_minutes(24 * 60);
    let fx = e.host.tick().await.unwrap();
    let stalls = |fx: &[Effect]| {
        fx.iter()
            .filter(|f| matches!(f, Effect::Stalled { seat: Seat(1), .. }))
            .count()
    };
    assert_eq!(stalls(&fx), 1, "{fx:?}");
    assert_eq!(stalls(&effects(&pending(&e.host).await)), 1);
    e.clock.advance_minutes(60);
    let fx = e.host.tick().await.unwrap();
    assert_eq!(stalls(&fx), 0, "once a turn: {fx:?}");
}

#[tokio::test]
async fn a_board_is_drawn_as_it_was_at_its_version() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    let start = e.host.state(g).await.unwrap();
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    let now = e.host.state(g).await.unwrap();
    assert!(now.version() > start.version());
    let then = e.host.state_at(g, start.version()).await.unwrap();
    assert_eq!(then.rules().show(), start.rules().show());
    assert_eq!(then.version(), start.version());
    assert_eq!(
        e.host
            .state_at(g, now.version())
            .await
            .unwrap()
            .rules()
            .show(),
        now.rules().show()
    );
    assert!(e.host.state_at(g, now.version() + 1).await.is_err());
}

#[tokio::test]
async fn after_a_storm_of_reminders_a_token_ping_is_delivered_first() {
    let e = env().await;
    let mut games = Vec::new();
    for i in 0..40 {
        let (g, _) = e
            .host
            .create(GameKind::HexDame, &[1 + i % 7, 1 + (i + 1) % 7], None, None)
            .await
            .unwrap();
        games.push(g);
    }
    deliver_all(&e.host).await;
    // Every game's first reminder falls due in the same tick.
    e.clock.advance_minutes(61);
    e.host.tick().await.unwrap();
    let storm = pending(&e.host).await;
    assert!(storm.len() >= 40, "{}", storm.len());
    assert!(storm.iter().all(|x| x.priority == REMINDER));
    // Then a move in one of them: the next player's ping goes before the other reminders,
    // though it was stored after them (its own lane keeps its order: it is behind that game's
    // reminder).
    let g = games[5];
    let st = e.host.state(g).await.unwrap();
    let mover = st.holder_player().unwrap();
    let mv = st.rules().legal_moves()[0].clone();
    act(&e.host, g, mover, cmd_move(&mv)).await;
    let heads = e.host.store().outbox_heads(100, T0, None).await.unwrap();
    let mine = heads
        .iter()
        .position(|h| h.lane == format!("g{g}"))
        .unwrap();
    assert_eq!(
        heads[mine].priority, REMINDER,
        "the game's own reminder first"
    );
    // Once that reminder is out, the game's next entries lead the whole outbox.
    let done = hexmeros::store::Done {
        message: Some(1),
        outcome: "sent".into(),
    };
    e.host
        .store()
        .outbox_done(None, heads[mine].id, &done, T0)
        .await
        .unwrap();
    let heads = e.host.store().outbox_heads(100, T0, None).await.unwrap();
    assert_eq!(heads[0].lane, format!("g{g}"), "{:?}", &heads[..2]);
    assert_eq!(heads[0].priority, URGENT);
    assert!(heads[1..].iter().all(|h| h.priority == REMINDER));
}

#[tokio::test]
async fn bots_make_no_move_until_the_table_has_been_told_of_the_last() {
    let e = env().await;
    let bot = e.host.bot_player(hexmeros::ai::Level::Easy).await.unwrap();
    let (g, _) = e
        .host
        .create(GameKind::HexDame, &[bot, bot], None, None)
        .await
        .unwrap();
    // The opening is not delivered yet: no bot moves.
    assert!(e.host.bot_turns(g).await.unwrap().is_empty());
    assert_eq!(e.host.state(g).await.unwrap().record().len(), 0);
    // Each call makes one move once the lane is empty, and none while its move is undelivered.
    for n in 1..=5 {
        deliver_all(&e.host).await;
        let fx = e.host.bot_turns(g).await.unwrap();
        assert!(!fx.is_empty());
        assert_eq!(e.host.state(g).await.unwrap().record().len(), n);
        assert!(
            pending(&e.host)
                .await
                .iter()
                .all(|x| x.lane == format!("g{g}"))
        );
        assert!(e.host.bot_turns(g).await.unwrap().is_empty());
        e.host.tick().await.unwrap();
        assert_eq!(e.host.state(g).await.unwrap().record().len(), n);
    }
    // The timers drive a game waiting on a bot once the lane is empty (one move at a time too).
    deliver_all(&e.host).await;
    e.host.tick().await.unwrap();
    assert_eq!(e.host.state(g).await.unwrap().record().len(), 6);
    // Without the outbox, nothing to wait for: a call plays on.
    let free = GameHost::new(e.host.store().clone(), e.clock.clone());
    free.bot_turns(g).await.unwrap();
    assert!(free.state(g).await.unwrap().record().len() > 7);
}

/// A start the front end cannot give a thread is abandoned: aborted with nothing played, every
/// entry still waiting for it given up; asked again (a process that died between the two
/// writes) it changes nothing more.
#[tokio::test]
async fn an_abandoned_start_is_aborted_with_nothing_left_to_send() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    assert!(!pending(&e.host).await.is_empty());
    e.host.abandon_start(g, "Missing Access").await.unwrap();
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.status(), Status::Aborted);
    assert_eq!(st.record().len(), 0);
    assert!(pending(&e.host).await.is_empty(), "entries left");
    let version = st.version();
    e.host.abandon_start(g, "Missing Access").await.unwrap();
    assert_eq!(e.host.state(g).await.unwrap().version(), version);
    // Aborted with its entries still waiting, as after a process died between the two writes:
    // only the entries are given up.
    let other = heximeros(&e.host).await;
    let admin = Actor {
        player: 99,
        admin: true,
    };
    e.host
        .handle(other, admin, Command::Admin(AdminAction::Abort), None)
        .await
        .unwrap();
    let version = e.host.state(other).await.unwrap().version();
    assert!(!pending(&e.host).await.is_empty());
    e.host.abandon_start(other, "Missing Access").await.unwrap();
    assert!(pending(&e.host).await.is_empty(), "entries left");
    assert_eq!(e.host.state(other).await.unwrap().version(), version);
}

/// A reminder that waited too long in the outbox (an outage, a storm) is not sent as if fresh
/// (issue 60): not once its turn is over (a move committed since), still after a staged move,
/// and not an hour late.
#[tokio::test]
async fn a_reminder_is_not_sent_once_its_turn_is_over_or_an_hour_late() {
    let e = env().await;
    let mut games = Vec::new();
    for players in [[1, 2], [3, 4]] {
        let (g, _) = e
            .host
            .create(GameKind::HexDame, &players, None, None)
            .await
            .unwrap();
        games.push(g);
    }
    deliver_all(&e.host).await;
    e.clock.advance_minutes(61);
    e.host.tick().await.unwrap();
    let reminders = e.host.outbox_pending().await.unwrap();
    let of = |g: GameId| {
        reminders
            .iter()
            .find(|r| r.game == Some(g) && r.priority == REMINDER)
            .cloned()
            .unwrap()
    };
    let (staged, moved) = (of(games[0]), of(games[1]));
    assert_eq!(e.host.outlived(&staged).await.unwrap(), None, "fresh");
    // In one game the holder only stages a move; in the other they pass the Token.
    for (g, commit) in [(games[0], false), (games[1], true)] {
        let st = e.host.state(g).await.unwrap();
        let mv = st.rules().legal_moves()[0].clone();
        let text = mv.to_string();
        act(
            &e.host,
            g,
            st.holder_player().unwrap(),
            Command::Move { text, commit },
        )
        .await;
    }
    assert_eq!(e.host.outlived(&staged).await.unwrap(), None);
    assert_eq!(
        e.host.outlived(&moved).await.unwrap().as_deref(),
        Some("outlived: the turn it was about is over")
    );
    // Boards are never outlived, however late.
    e.clock.advance_minutes(61);
    let why = e.host.outlived(&staged).await.unwrap().unwrap();
    assert!(
        why.starts_with("outlived: a reminder 61 minutes late"),
        "{why}"
    );
    let later = e.host.outbox_pending().await.unwrap();
    let board = later.iter().find(|d| d.body.contains("\"Board\"")).unwrap();
    assert_eq!(e.host.outlived(board).await.unwrap(), None);
}
