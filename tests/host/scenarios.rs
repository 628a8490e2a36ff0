//! The game host end to end, on a real SQLite file with a hand-moved clock: HexiMeros procedures
//! (staging, checks both ways, the challenge window and its timeout), resignation, expulsion,
//! concession, draws and the §7 totals worked out by hand, votes, timers, restart, corruption,
//! bad input, concurrency, export/import, and the other games once their engines exist.
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host as support;
use hexmeros_testkit::host::RulesOf;

use std::sync::Arc;

use hexmeros::ai::{self, Level};
use hexmeros::games::heximeros::HexiMeros;
use hexmeros::games::{AnyGame, GameKind, Outcome, Rules, Seat};
use hexmeros::host::{
    Actor, AdminAction, ChallengePref, Command, Effect, GameHost, GameId, HostError, Motion,
    Refused, Status,
};
use hexmeros::store::Store;
use support::{
    act, cmd_move, ensure_players, env, first_move, host_on, let_it_stand, said, scenario, vote,
};

/// 150 plies from the start (found by `cargo run --example host_find`, seed 16; every mover
/// declares every Check it may) after which Green, to move, is in Check that no move relieves:
/// the duty lapses.
/// The position before its last move is `tests/data/scenarios/heximeros_green_check_lapses.json`.
const LAPSE: [&str; 150] = [
    "M2xP5",
    "C20xF17",
    "C32xC34",
    "M50xO48",
    "AE32xAC34",
    "AB17-Z19",
    "P5xQ4",
    "F17xF13",
    "C34xE36",
    "U50xV51",
    "AA44xAA46",
    "AA8xAB9",
    "N1-M4",
    "F13xI16",
    "H47-J39",
    "O48xK44",
    "AA46xY44",
    "AE20xAE18",
    "L1xAC18+red",
    "I16-L19",
    "I44xK44",
    "L47xK44",
    "AC34-AB33",
    "AD15-AC16",
    "U2xV1",
    "H5-K12",
    "E36xG34",
    "K50-H43",
    "AB33xAD31",
    "AB9xY12",
    "Q4xO2",
    "G8xG6",
    "G44xG40",
    "V51xW50",
    "AD31xAG28",
    "AE18xAB15",
    "W2-U10",
    "K12xN5",
    "G34xD37",
    "H43-I38",
    "Y44xU48",
    "AB15-Z17",
    "AC18-AC16+red",
    "G6xI8",
    "G46-U32",
    "L51-L43",
    "AG28-AC24",
    "Y12xAC16",
    "O2-O6",
    "N5xS4",
    "G40xI42",
    "W50xAA46",
    "AF31xAF23",
    "AC16xAC20",
    "M4-N1",
    "I8xM4",
    "I42xI34",
    "L43xL19",
    "AC24xAD23",
    "AC14-AA14",
    "U10-X9",
    "D15xU32",
    "D37xD29",
    "L19xAB35",
    "U48xS46",
    "AB11xAF23",
    "O6xS2",
    "U32xE32",
    "I34-I30",
    "O50xE20",
    "S46-U44",
    "AC12-AC14",
    "T5-T9",
    "E32xG38+yellow",
    "E38-D35",
    "AA46xAA38",
    "U44xQ48+orange",
    "AF21-Y14",
    "X9xY14",
    "M4xJ1",
    "J39-H31",
    "Q50xQ48",
    "AB41xAA38",
    "AC20xY16+green",
    "R1-R3",
    "S4xV5",
    "D29xD21",
    "AB35xE12+blue",
    "AD23-AC24",
    "AF23xAD29",
    "N1-O2",
    "E14xE12",
    "I30xF33",
    "E20xH11",
    "AD35-T35+yellow+red",
    "Z19-Y20",
    "O2-N1",
    "F11xS50",
    "F37-H35",
    "P51-Q50",
    "AE34-AA34",
    "AD29xY14",
    "V1xZ5",
    "G38xD35",
    "H11xB29",
    "AC24xY20",
    "AC14xH35",
    "P1-W22",
    "D35-I20",
    "Q50xS50",
    "Y20xY14+red",
    "H35xT35",
    "S2xQ4",
    "I20xT9",
    "B29xF41",
    "Y14xY8",
    "AA14-AB17",
    "Z5xAA6",
    "T9-T33",
    "F41xR5+silver+green",
    "AC38-AB39",
    "T35xT33",
    "Q4xS6",
    "D17-E20",
    "P47-P43",
    "Y8xU4",
    "T33-T19",
    "AA6xAA12",
    "B21-V1",
    "S50-Q50",
    "U4xQ8+silver",
    "T19xW22",
    "Q2-P5",
    "C18*D21",
    "R51xAC40+green",
    "AB43*AC40",
    "W22xP43+silver",
    "P5xQ8",
    "V1-M10",
    "Q50-W50",
    "AA38-K38",
    "P43xAB43+green",
    "Q8-R7",
    "E20xK38",
    "W50xZ41+green",
    "AB39-AC36",
    "AB43xAD37+green",
    "AA12-Z11",
    "G12-I14",
    "Z41-AB35+green",
];

/// Players 1…6 (named p1…p6) in seats Silver…Red.
async fn heximeros(host: &GameHost) -> GameId {
    ensure_players(host, 1..=7).await;
    host.create(GameKind::HexiMeros, &[1, 2, 3, 4, 5, 6], None, None)
        .await
        .unwrap()
        .0
}

async fn play_prefix(host: &GameHost, game: GameId) {
    play_line(host, game, &support::HEXIMEROS_PREFIX).await;
}

/// Play moves as their Token holders; returns the effects of the last one.
async fn play_line(host: &GameHost, game: GameId, line: &[&str]) -> Vec<Effect> {
    let mut last = Vec::new();
    for m in line {
        let p = host.state(game).await.unwrap().holder_player().unwrap();
        last = act(host, game, p, cmd_move(m)).await;
        // A move into attack opens a challenge window: everyone asked lets it stand.
        let st = host.state(game).await.unwrap();
        if st.staged().is_some() {
            let_it_stand(host, game, &st).await;
            last = act(host, game, p, Command::Pass).await;
        }
    }
    last
}

fn engine(state: &hexmeros::host::GameState) -> HexiMeros {
    match state.rules() {
        AnyGame::HexiMeros(g) => g,
        _ => panic!("not heximeros"),
    }
}

#[tokio::test]
async fn check_by_the_mover_is_recorded_and_announced() {
    let e = env().await;
    let g = scenario(&e.host, "heximeros_blue_may_check").await;
    let st = e.host.state(g).await.unwrap();
    let hm = engine(&st);
    let m = hm.parse_move("F11-G14").unwrap();
    let targets = hm.check_targets(&m);
    assert!(!targets.is_empty());
    let target = targets[0];
    // Stage, add the declaration, pass.
    act(
        &e.host,
        g,
        2,
        Command::Move {
            text: "F11-G14".into(),
            commit: false,
        },
    )
    .await;
    act(&e.host, g, 2, Command::Check { seat: target }).await;
    let st = e.host.state(g).await.unwrap();
    let staged = st.staged().unwrap();
    assert!(
        staged.text.ends_with(&format!("+{}", st.seat_name(target))),
        "{}",
        staged.text
    );
    act(&e.host, g, 2, Command::Pass).await;
    let st = e.host.state(g).await.unwrap();
    let hm = engine(&st);
    let recs = hm.check_records();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].declarer, Seat(1));
    // A declaration on a seat the move does not newly attack is refused.
    let r = e
        .host
        .handle(
            g,
            Actor::player(3),
            Command::Move {
                text: format!("{}+silver", engine(&st).legal_move_texts()[0]),
                commit: false,
            },
            None,
        )
        .await;
    assert!(r.is_err());
}

#[tokio::test]
async fn check_upon_the_mover_window_declare_and_change_move() {
    let e = env().await;
    let g = scenario(&e.host, "heximeros_blue_may_check").await;
    // Blue moves his Sovereign into Green's attack: Green (player 5) is asked.
    let fx = act(
        &e.host,
        g,
        2,
        Command::Move {
            text: "E14-F13".into(),
            commit: false,
        },
    )
    .await;
    assert!(
        fx.iter()
            .any(|f| matches!(f, Effect::AskChallenge { player: 5, .. })),
        "{fx:?}"
    );
    let err = e
        .host
        .handle(g, Actor::player(2), Command::Pass, None)
        .await
        .unwrap_err();
    assert!(
        matches!(err, HostError::Refused(Refused::WindowOpen(_))),
        "{err}"
    );
    // Someone not asked cannot answer.
    let err = e
        .host
        .handle(
            g,
            Actor::player(3),
            Command::Challenge { declare: true },
            None,
        )
        .await
        .unwrap_err();
    assert!(
        matches!(err, HostError::Refused(Refused::NotAsked)),
        "{err}"
    );
    let fx = act(&e.host, g, 5, Command::Challenge { declare: true }).await;
    assert!(said(&fx, "declares Check upon Blue"));
    let st = e.host.state(g).await.unwrap();
    assert!(st.staged().is_none());
    // The same move again is refused; a move that respects the declaration is accepted.
    let err = e
        .host
        .handle(g, Actor::player(2), cmd_move("E14-F13"), None)
        .await
        .unwrap_err();
    assert!(
        matches!(err, HostError::Refused(Refused::Illegal(_))),
        "{err}"
    );
    assert!(err.to_string().contains("Green"), "{err}");
    let ok = engine(&st).moves_respecting(&[Seat(4)]);
    let text = engine(&st).move_text(&ok[0]);
    act(&e.host, g, 2, cmd_move(&text)).await;
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.holder(), Some(Seat(2)));
    assert_eq!(st.record().last().unwrap().line, format!("blue {text}"));
}

/// Stage `text` without passing; the version a preview made now carries.
async fn stage(host: &GameHost, g: GameId, player: i64, text: &str) -> u64 {
    let cmd = Command::Move {
        text: text.into(),
        commit: false,
    };
    act(host, g, player, cmd).await;
    host.state(g).await.unwrap().version()
}

/// `player` presses a control made at version `made` for `cmd`: refused with `want`, and the
/// game is unchanged.
async fn stale(host: &GameHost, g: GameId, player: i64, cmd: Command, made: u64, want: Refused) {
    let before = host.state(g).await.unwrap();
    let err = host
        .press(g, Actor::player(player), cmd.clone(), made)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, HostError::Refused(r) if *r == want),
        "{cmd:?}: {err}"
    );
    assert!(
        err.to_string()
            .starts_with("this button is from an earlier")
    );
    let after = host.state(g).await.unwrap();
    assert_eq!(
        after.version(),
        before.version(),
        "{cmd:?}: nothing is stored"
    );
    assert_eq!(after.staged(), before.staged());
    assert_eq!(after.declared_upon(), before.declared_upon());
}

#[tokio::test]
async fn an_earlier_previews_controls_are_refused_and_change_nothing() {
    let e = env().await;
    let g = scenario(&e.host, "heximeros_blue_may_check").await;
    assert_eq!(e.host.state(g).await.unwrap().staged_at(), None);
    // Nothing staged: a preview control has nothing it was made for.
    let v0 = e.host.state(g).await.unwrap().version();
    stale(&e.host, g, 2, Command::Pass, v0, Refused::StalePreview).await;
    // Blue stages one move, then another: the first preview's controls are stale.
    let first = stage(&e.host, g, 2, "F11-G14").await;
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.staged_at(), Some(first));
    let target = engine(&st).check_targets(&engine(&st).parse_move("F11-G14").unwrap())[0];
    let quiet = engine(&st)
        .legal_moves()
        .into_iter()
        .find(|m| engine(&st).challengers(m).is_empty() && engine(&st).check_targets(m).is_empty())
        .map(|m| engine(&st).move_text(&m))
        .unwrap();
    let second = stage(&e.host, g, 2, &quiet).await;
    assert!(second > first);
    for cmd in [
        Command::Pass,
        Command::TakeBack,
        Command::Check { seat: target },
    ] {
        stale(&e.host, g, 2, cmd, first, Refused::StalePreview).await;
    }
    // The latest preview's Pass (made at the staging or after) commits the move it showed.
    e.host
        .press(g, Actor::player(2), Command::Pass, second)
        .await
        .unwrap();
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.record().last().unwrap().line, format!("blue {quiet}"));
    assert_eq!(st.staged_at(), None);
    // Once passed, that preview is stale too (nothing is staged).
    stale(
        &e.host,
        g,
        3,
        Command::TakeBack,
        second,
        Refused::StalePreview,
    )
    .await;
}

#[tokio::test]
async fn an_earlier_challenge_windows_buttons_are_refused_and_change_nothing() {
    let e = env().await;
    let g = scenario(&e.host, "heximeros_blue_may_check").await;
    // Blue moves his Sovereign into Green's attack: a window opens, Green (5) is asked.
    let opened = stage(&e.host, g, 2, "E14-F13").await;
    assert_eq!(e.host.state(g).await.unwrap().window_at(), Some(opened));
    // Blue takes it back: no window, the button is stale.
    e.host
        .press(g, Actor::player(2), Command::TakeBack, opened)
        .await
        .unwrap();
    let declare = Command::Challenge { declare: true };
    stale(&e.host, g, 5, declare.clone(), opened, Refused::StaleWindow).await;
    // The same move staged again opens a new window: the old button does not declare on it.
    let again = stage(&e.host, g, 2, "E14-F13").await;
    assert!(again > opened);
    stale(&e.host, g, 5, declare.clone(), opened, Refused::StaleWindow).await;
    let no = Command::Challenge { declare: false };
    stale(&e.host, g, 5, no.clone(), opened, Refused::StaleWindow).await;
    // The new window's button answers it; once answered, the window is closed to it too.
    e.host.press(g, Actor::player(5), no, again).await.unwrap();
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.window_at(), None);
    assert_eq!(st.staged_at(), Some(again), "the move stands, still staged");
    stale(&e.host, g, 5, declare, again, Refused::StaleWindow).await;
    // Blue's preview of that staging passes it.
    e.host
        .press(g, Actor::player(2), Command::Pass, again)
        .await
        .unwrap();
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.record().last().unwrap().line, "blue E14-F13");
}

#[tokio::test]
async fn challenge_window_times_out_and_preferences_skip_it() {
    let e = env().await;
    let g = scenario(&e.host, "heximeros_blue_may_check").await;
    act(
        &e.host,
        g,
        2,
        Command::Move {
            text: "E14-F13".into(),
            commit: false,
        },
    )
    .await;
    // Ten minutes (the default window) later the tick closes it.
    e.clock.advance_minutes(9);
    assert!(
        e.host
            .tick()
            .await
            .unwrap()
            .iter()
            .all(|f| !said(std::slice::from_ref(f), "challenge window closed"))
    );
    e.clock.advance_minutes(2);
    let fx = e.host.tick().await.unwrap();
    assert!(said(&fx, "challenge window closed"), "{fx:?}");
    act(&e.host, g, 2, Command::Pass).await;
    assert_eq!(e.host.state(g).await.unwrap().holder(), Some(Seat(2)));

    // Standing preferences: Green never declares → nobody is asked; always → refused at once.
    let g2 = heximeros(&e.host).await;
    play_prefix(&e.host, g2).await;
    act(
        &e.host,
        g2,
        5,
        Command::Prefer(ChallengePref::AlwaysDeclare),
    )
    .await;
    let err = e
        .host
        .handle(g2, Actor::player(2), cmd_move("E14-F13"), None)
        .await
        .unwrap_err();
    assert!(
        matches!(err, HostError::Refused(Refused::Illegal(_))),
        "{err}"
    );
    act(&e.host, g2, 5, Command::Prefer(ChallengePref::NeverDeclare)).await;
    let fx = act(&e.host, g2, 2, cmd_move("E14-F13")).await;
    assert!(!fx.iter().any(|f| matches!(f, Effect::AskChallenge { .. })));
    assert_eq!(e.host.state(g2).await.unwrap().holder(), Some(Seat(2)));
}

#[tokio::test]
async fn a_check_duty_that_no_move_relieves_lapses() {
    let e = env().await;
    let g = scenario(&e.host, "heximeros_green_check_lapses").await;
    let fx = play_line(&e.host, g, &LAPSE[LAPSE.len() - 1..]).await;
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.holder(), Some(Seat(4)));
    // Green is told of the Check as the turn starts ...
    assert!(
        said(&fx, "Green, you have the Token; you are in Check by"),
        "{fx:?}"
    );
    let hm = engine(&st);
    let live = hm.live_checks();
    assert!(!live.is_empty());
    // ... but no legal move relieves it, so any move is accepted (§5.3 [REC]).
    let legal = hm.legal_moves();
    assert!(legal.iter().all(|m| !hm.relieves(m, &live)));
    let text = hm.move_text(&legal[0]);
    play_line(&e.host, g, &[text.as_str()]).await;
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.record().last().unwrap().line, format!("green {text}"));
    assert_ne!(st.holder(), Some(Seat(4)));
    // The records aimed at Green are cleared after the turn.
    assert!(
        engine(&st)
            .check_records()
            .iter()
            .all(|r| !engine(&st).sovereigns_of(Seat(4)).contains(&r.target)),
        "{:?}",
        engine(&st).check_records()
    );
}

/// Resignations with nobody to replace (§8.3): Green, who scored a capture, resigns out of turn
/// and forfeits it; Blue resigns holding the Token, which goes on to Yellow. Each Sovereign leaves
/// the board without a capture (nobody scores), the seats are out in order (−50, −40). Then an
/// expulsion needs every other vote and fails on one no.
#[tokio::test]
async fn resignation_without_replacement_and_a_failed_expulsion() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    play_prefix(&e.host, g).await;
    let before = e.host.state(g).await.unwrap();
    assert_eq!(before.holder(), Some(Seat(1)));
    let scored = |st: &hexmeros::host::GameState, player: i64| -> i32 {
        st.points()
            .iter()
            .filter(|p| p.player == player && !p.forfeited)
            .map(|p| p.points)
            .sum()
    };
    assert_eq!(
        scored(&before, 5),
        5,
        "Green captured a Militant in the prefix"
    );
    let fx = act(&e.host, g, 5, Command::Resign { replacement: None }).await;
    assert!(said(&fx, "Green resigned"), "{fx:?}");
    assert_eq!(e.host.state(g).await.unwrap().holder(), Some(Seat(1)));
    let fx = act(&e.host, g, 2, Command::Resign { replacement: None }).await;
    assert!(said(&fx, "Blue resigned"), "{fx:?}");
    assert!(
        fx.iter()
            .any(|f| matches!(f, Effect::Ping { player: 3, .. })),
        "the Token moves on: {fx:?}"
    );
    let st = e.host.state(g).await.unwrap();
    let hm = engine(&st);
    assert_eq!(st.holder(), Some(Seat(2)));
    for s in [Seat(1), Seat(4)] {
        assert!(!hm.is_active(s));
        assert!(hm.sovereigns_of(s).is_empty());
    }
    assert_eq!(hm.out_order(), vec![Seat(4), Seat(1)]);
    assert_eq!(st.record().last().unwrap().line, "resign blue");
    // Nobody scored for the resignations; the resigners keep only their loss points.
    for p in [1, 3, 4, 6] {
        assert_eq!(scored(&st, p), scored(&before, p), "player {p}");
    }
    let mut pts = st.player_points();
    pts.sort();
    assert_eq!(&pts[1..=4], &[(2, -40), (3, 0), (4, 0), (5, -50)]);
    // A resigned seat can do nothing more.
    let err = e
        .host
        .handle(
            g,
            Actor::player(2),
            Command::Resign { replacement: None },
            None,
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("no longer in the game"), "{err}");

    // Expelling Red: Silver calls, Yellow says yes, Orange says no: the motion fails.
    act(
        &e.host,
        g,
        1,
        Command::Propose(Motion::Expel { seat: Seat(5) }),
    )
    .await;
    act(&e.host, g, 3, vote(true)).await;
    let fx = act(&e.host, g, 4, vote(false)).await;
    assert!(said(&fx, "failed"), "{fx:?}");
    assert!(engine(&e.host.state(g).await.unwrap()).is_active(Seat(5)));
}

#[tokio::test]
async fn preview_and_take_back_store_nothing_but_the_staged_move() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    let (text, board) = e.host.preview(g, Actor::player(1), "K2-H3").await.unwrap();
    assert_eq!(text, "K2-H3");
    assert!(!board.is_empty());
    assert_eq!(e.host.state(g).await.unwrap().version(), 0);
    act(
        &e.host,
        g,
        1,
        Command::Move {
            text: "K2-H3".into(),
            commit: false,
        },
    )
    .await;
    act(&e.host, g, 1, Command::TakeBack).await;
    act(
        &e.host,
        g,
        1,
        Command::Move {
            text: "Q4-Q6".into(),
            commit: false,
        },
    )
    .await;
    act(&e.host, g, 1, Command::Pass).await;
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.record().len(), 1);
    assert_eq!(st.record()[0].line, "silver Q4-Q6");
    assert_eq!(st.status(), Status::Playing);
}

/// The whole §7 table by hand: Yellow resigns (1st out −50), Orange resigns (−40), Green is
/// expelled (−500, and 3rd out −30), Red resigns (−20), Blue concedes (−10), Silver wins: +100
/// and the retention of his untouched 22 pieces: 75 + 55 + 45 + 2·40 + 2·30 + 2·30 + 2·25 +
/// 2·15 + 9·5 = 500.
#[tokio::test]
async fn scored_game_to_a_concession_matches_section_7() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    act(&e.host, g, 3, Command::Resign { replacement: None }).await;
    act(&e.host, g, 4, Command::Resign { replacement: None }).await;
    act(
        &e.host,
        g,
        1,
        Command::Propose(Motion::Expel { seat: Seat(4) }),
    )
    .await;
    act(&e.host, g, 2, vote(true)).await;
    let fx = act(&e.host, g, 6, vote(true)).await;
    assert!(said(&fx, "Green was expelled"), "{fx:?}");
    act(&e.host, g, 6, Command::Resign { replacement: None }).await;
    // Concession only between the last two: now it is.
    let fx = act(&e.host, g, 2, Command::Concede).await;
    assert!(said(&fx, "game over: Silver won"), "{fx:?}");
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.status(), Status::Finished);
    let mut pts = st.player_points();
    pts.sort();
    assert_eq!(
        pts,
        vec![(1, 600), (2, -10), (3, -50), (4, -40), (5, -530), (6, -20)]
    );
    let board = e.host.leaderboard(Some(GameKind::HexiMeros)).await.unwrap();
    assert_eq!(board[0].player, 1);
    assert_eq!(board[0].points, 600);
    let ratings = e.host.ratings(Some(GameKind::HexiMeros)).await.unwrap();
    assert_eq!(ratings.len(), 6);
    assert_eq!(ratings[0].player, 1, "the winner rates highest");
    assert!(e.host.ratings(None).await.unwrap().len() == 6);
    // Finished: nothing more is accepted.
    let err = e
        .host
        .handle(g, Actor::player(1), cmd_move("Q4-Q6"), None)
        .await
        .unwrap_err();
    assert!(
        matches!(err, HostError::Refused(Refused::GameOver)),
        "{err}"
    );
}

/// Draw between the last two: +45 each and half-value retention (37 + 27 + 22 + 2·20 + 2·15 +
/// 2·15 + 2·12 + 2·7 + 9·2 = 242).
#[tokio::test]
async fn agreed_draw_between_the_last_two() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    // Three or more left: a draw offer is an abandon vote that needs everyone.
    act(&e.host, g, 1, Command::Propose(Motion::Draw)).await;
    act(&e.host, g, 2, vote(false)).await;
    for p in 3..=6 {
        act(&e.host, g, p, Command::Resign { replacement: None }).await;
    }
    act(&e.host, g, 1, Command::Propose(Motion::Draw)).await;
    let fx = act(&e.host, g, 2, vote(true)).await;
    let st = e.host.state(g).await.unwrap();
    assert!(
        said(&fx, "drew"),
        "{fx:?} {:?} {:?}",
        st.outcome(),
        st.motions()
    );
    let mut pts = e.host.state(g).await.unwrap().player_points();
    pts.sort();
    assert_eq!(
        pts,
        vec![(1, 287), (2, 287), (3, -50), (4, -40), (5, -30), (6, -20)]
    );
}

#[tokio::test]
async fn resignation_with_a_replacement_elected_and_refused() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    // Blue resigns naming player 7; three of the five others agree.
    act(
        &e.host,
        g,
        2,
        Command::Resign {
            replacement: Some(7),
        },
    )
    .await;
    let err = e
        .host
        .handle(g, Actor::player(2), vote(true), None)
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            HostError::Refused(Refused::NotVoter | Refused::NoMotionToVote)
        ),
        "{err}"
    );
    act(&e.host, g, 1, vote(true)).await;
    act(&e.host, g, 3, vote(true)).await;
    let fx = act(&e.host, g, 4, vote(true)).await;
    assert!(said(&fx, "passed"), "{fx:?}");
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.seats()[1].player, 7);
    assert_eq!(st.seat_of(2), None);
    assert_eq!(engine(&st).active_seats().len(), 6, "the seat continues");
    // The newcomer moves for Blue; the replaced resigner carries −50.
    act(&e.host, g, 7, cmd_move(&engine(&st).legal_move_texts()[0])).await;
    assert!(st.points().iter().any(|p| p.player == 2 && p.points == -50));
    let mine = e.host.store().games_of(7, false).await.unwrap();
    assert_eq!(mine.len(), 1);

    // Yellow resigns naming player 2; the others say no: Yellow leaves unreplaced.
    act(
        &e.host,
        g,
        3,
        Command::Resign {
            replacement: Some(2),
        },
    )
    .await;
    for p in [1, 7, 4] {
        act(&e.host, g, p, vote(false)).await;
    }
    let st = e.host.state(g).await.unwrap();
    assert!(!engine(&st).is_active(Seat(2)));
    assert_eq!(engine(&st).out_order(), vec![Seat(2)]);
}

#[tokio::test]
async fn house_rules_phase_closes_at_the_first_pass() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    act(
        &e.host,
        g,
        2,
        Command::Propose(Motion::HouseRule {
            key: "scored".into(),
            value: false.into(),
        }),
    )
    .await;
    for p in [1, 3, 4] {
        act(&e.host, g, p, vote(true)).await;
    }
    act(
        &e.host,
        g,
        1,
        Command::Propose(Motion::HouseRule {
            key: "turn_timer_hours".into(),
            value: 2.into(),
        }),
    )
    .await;
    for p in [2, 3, 4] {
        act(&e.host, g, p, vote(true)).await;
    }
    let st = e.host.state(g).await.unwrap();
    assert!(!st.scored());
    assert_eq!(st.timers().turn_timer_hours, 2);
    let err = e
        .host
        .handle(
            g,
            Actor::player(1),
            Command::Propose(Motion::HouseRule {
                key: "no_such".into(),
                value: true.into(),
            }),
            None,
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("no_such"), "{err}");
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    let err = e
        .host
        .handle(
            g,
            Actor::player(1),
            Command::Propose(Motion::HouseRule {
                key: "archer".into(),
                value: "fly_over".into(),
            }),
            None,
        )
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("before the first Token pass"),
        "{err}"
    );
}

#[tokio::test]
async fn reminders_escalate_then_the_others_vote_to_skip() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    e.clock.advance_minutes(61);
    let fx = e.host.tick().await.unwrap();
    assert!(
        fx.iter()
            .any(|f| matches!(f, Effect::Ping { player: 2, .. })),
        "{fx:?}"
    );
    assert!(!fx.iter().any(|f| matches!(f, Effect::Dm { .. })));
    assert!(
        e.host.tick().await.unwrap().is_empty(),
        "a reminder is sent once"
    );
    e.clock.advance_minutes(4 * 60);
    let fx = e.host.tick().await.unwrap();
    assert!(
        fx.iter().any(|f| matches!(f, Effect::Dm { player: 2, .. })),
        "{fx:?}"
    );
    assert_eq!(e.host.my_turn(2).await.unwrap().len(), 1);
    assert!(e.host.my_turn(1).await.unwrap().is_empty());
    e.clock.advance_minutes(20 * 60);
    let fx = e.host.tick().await.unwrap();
    assert!(said(&fx, "has not moved for 24 hours"), "{fx:?}");
    // Nobody is kicked: the others vote, and a majority skips Blue's turn.
    assert_eq!(e.host.state(g).await.unwrap().holder(), Some(Seat(1)));
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
    // An unanswered ballot fails when it closes.
    act(
        &e.host,
        g,
        1,
        Command::Propose(Motion::Expel { seat: Seat(5) }),
    )
    .await;
    e.clock.advance_minutes(25 * 60);
    let fx = e.host.tick().await.unwrap();
    assert!(said(&fx, "failed: the ballot closed"), "{fx:?}");
    assert!(engine(&e.host.state(g).await.unwrap()).is_active(Seat(5)));
}

/// The caption of the turn message among `fx`.
fn caption(fx: &[Effect]) -> String {
    fx.iter()
        .find_map(|f| match f {
            Effect::Board { caption, .. } => Some(caption.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no board in {fx:?}"))
}

fn title(s: &str) -> String {
    let mut c = s.chars();
    c.next().unwrap().to_uppercase().chain(c).collect()
}

#[tokio::test]
async fn the_turn_caption_tells_the_round_and_a_skip_or_resignation_keeps_its_highlights() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    // Blue stalls and is skipped; the sixth seat resigns; the third seat moves.
    for hours in [1, 4, 20] {
        e.clock.advance_minutes(hours * 60);
        e.host.tick().await.unwrap();
    }
    act(
        &e.host,
        g,
        1,
        Command::Propose(Motion::Skip { seat: Seat(1) }),
    )
    .await;
    act(&e.host, g, 3, vote(true)).await;
    act(&e.host, g, 4, vote(true)).await;
    act(&e.host, g, 6, Command::Resign { replacement: None }).await;
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.holder(), Some(Seat(2)));
    let name = |s: u8| st.seat_name(Seat(s));
    let mv = first_move(&e.host, g).await;
    let fx = act(&e.host, g, 3, cmd_move(&mv)).await;
    let text = caption(&fx);
    let lines: Vec<&str> = text.lines().collect();
    // The first line is the move alone (readers find it after " played ").
    assert_eq!(lines[0], format!("{} played {mv}", title(name(2))));
    // The fourth seat has had no turn: it reads the game so far.
    assert_eq!(
        lines[1],
        format!(
            "so far: Silver K2-H3 · Blue's turn was skipped · {} resigned · {} {mv}",
            title(name(5)),
            title(name(2))
        )
    );
    // The picture keeps both moves highlighted across the skip and the resignation.
    let st = e.host.state(g).await.unwrap();
    assert_eq!(
        st.last_round(),
        ["silver K2-H3".to_string(), format!("{} {mv}", name(2))]
    );

    // Round two: Silver reads what happened since its own move.
    let mut fx = Vec::new();
    while e.host.state(g).await.unwrap().holder() != Some(Seat(0)) {
        let st = e.host.state(g).await.unwrap();
        let p = st.holder_player().unwrap();
        let m = first_move(&e.host, g).await;
        fx = act(&e.host, g, p, cmd_move(&m)).await;
    }
    let text = caption(&fx);
    let story = text.lines().nth(1).unwrap();
    assert!(
        story.starts_with(&format!(
            "since Silver's last turn: Blue's turn was skipped · {} resigned · {} {mv} · ",
            title(name(5)),
            title(name(2))
        )),
        "{story}"
    );
    let st = e.host.state(g).await.unwrap();
    let round = st.last_round();
    assert_eq!(round.len(), 3, "{round:?}");
    assert!(round.iter().all(|m| !m.starts_with("silver ")), "{round:?}");
}

#[tokio::test]
async fn admin_pause_resume_abort() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    let admin = Actor {
        player: 99,
        admin: true,
    };
    let err = e
        .host
        .handle(
            g,
            Actor::player(1),
            Command::Admin(AdminAction::Pause),
            None,
        )
        .await
        .unwrap_err();
    assert!(matches!(err, HostError::Refused(Refused::NotAdmin)));
    e.host
        .handle(g, admin, Command::Admin(AdminAction::Pause), None)
        .await
        .unwrap();
    let err = e
        .host
        .handle(g, Actor::player(1), cmd_move("K2-H3"), None)
        .await
        .unwrap_err();
    assert!(matches!(err, HostError::Refused(Refused::Paused)), "{err}");
    e.clock.advance_minutes(48 * 60);
    assert!(
        e.host.tick().await.unwrap().is_empty(),
        "timers stop while paused"
    );
    e.host
        .handle(g, admin, Command::Admin(AdminAction::Resume), None)
        .await
        .unwrap();
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    let fx = e
        .host
        .handle(g, admin, Command::Admin(AdminAction::Abort), None)
        .await
        .unwrap()
        .effects;
    assert!(fx.contains(&Effect::CloseThread { game: g }));
    assert_eq!(e.host.state(g).await.unwrap().status(), Status::Aborted);
}

/// A command hands back the game as it stands after it: the state a front end shows without
/// reading it again, the same as the host's from then on.
#[tokio::test]
async fn a_command_hands_back_the_game_as_it_stands_after_it() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    let before = e.host.state(g).await.unwrap();
    let done = e
        .host
        .handle(g, Actor::player(1), cmd_move("K2-H3"), None)
        .await
        .unwrap();
    assert_eq!(done.state.version(), before.version() + 1);
    assert_eq!(done.state.record().len(), before.record().len() + 1);
    let now = e.host.state(g).await.unwrap();
    assert_eq!(done.state.version(), now.version());
    assert_eq!(done.state.rules().show(), now.rules().show());
    assert!(!done.effects.is_empty());
}

#[tokio::test]
async fn teams_move_only_through_their_designated_mover() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    // Silver becomes a team of players 1 and 7, with 7 moving; all five others approve.
    act(
        &e.host,
        g,
        1,
        Command::Propose(Motion::Team {
            seat: Seat(0),
            members: vec![7, 1],
            mover: 7,
        }),
    )
    .await;
    for p in 2..=6 {
        act(&e.host, g, p, vote(true)).await;
    }
    let err = e
        .host
        .handle(g, Actor::player(1), cmd_move("K2-H3"), None)
        .await
        .unwrap_err();
    assert!(
        matches!(err, HostError::Refused(Refused::NotTeamMover)),
        "{err}"
    );
    e.host.preview(g, Actor::player(1), "K2-H3").await.unwrap();
    act(&e.host, g, 7, cmd_move("K2-H3")).await;
}

#[tokio::test]
async fn restart_gives_exactly_the_same_game() {
    let e = env().await;
    let g = scenario(&e.host, "heximeros_blue_may_check").await;
    act(
        &e.host,
        g,
        2,
        Command::Move {
            text: "E14-F13".into(),
            commit: false,
        },
    )
    .await;
    let before = e.host.state(g).await.unwrap();
    e.host.store().close().await;
    drop(e.host);
    let host = host_on(&e.url, &e.clock).await;
    let after = host.state(g).await.unwrap();
    assert_eq!(after.version(), before.version());
    assert_eq!(after.export(), before.export());
    assert_eq!(after.rules().to_json(), before.rules().to_json());
    assert_eq!(after.staged(), before.staged());
    // The reopened game carries on: Green's answer is taken, the window still works.
    host.handle(
        g,
        Actor::player(5),
        Command::Challenge { declare: false },
        None,
    )
    .await
    .unwrap();
    host.handle(g, Actor::player(2), Command::Pass, None)
        .await
        .unwrap();
}

#[tokio::test]
async fn export_and_import_round_trip() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    play_prefix(&e.host, g).await;
    act(&e.host, g, 4, Command::Resign { replacement: None }).await;
    let text = e.host.export(g).await.unwrap();
    assert!(
        text.starts_with("# hexmeros game export\ngame heximeros\nseats 6\n"),
        "{text}"
    );
    assert!(
        text.contains("silver U2xT1\n") && text.contains("resign orange\n"),
        "{text}"
    );
    let g2 = e
        .host
        .import(&text, &[11, 12, 13, 14, 15, 16])
        .await
        .unwrap();
    assert_eq!(e.host.export(g2).await.unwrap(), text);
    let bad = text.replace("silver U2xT1", "silver U2-Z9");
    assert!(
        e.host
            .import(&bad, &[11, 12, 13, 14, 15, 16])
            .await
            .is_err()
    );
}

/// A game set up from a position exports with that position, imports to the same game, and
/// replays from it; it has no House Rules phase (its house rules are the position's).
#[tokio::test]
async fn a_game_from_a_position_exports_imports_and_replays() {
    let e = env().await;
    let g = scenario(&e.host, "heximeros_blue_may_check").await;
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.status(), Status::Playing);
    assert_eq!(st.holder(), Some(Seat(1)));
    play_line(&e.host, g, &["F11-G14"]).await;
    let text = e.host.export(g).await.unwrap();
    assert!(text.contains("\nposition {"), "{text}");
    assert!(text.contains("\nblue F11-G14\n"), "{text}");
    let g2 = e
        .host
        .import(&text, &[11, 12, 13, 14, 15, 16])
        .await
        .unwrap();
    assert_eq!(e.host.export(g2).await.unwrap(), text);
    let copy = e.host.state(g2).await.unwrap();
    assert_eq!(
        copy.position_json(),
        e.host.state(g).await.unwrap().position_json()
    );
    let gif = hexmeros::view::replay_gif_from_export(&text).unwrap();
    assert!(gif.len() > 1000);
    // A position of another game, or a broken one, is refused and stores nothing.
    let before = e.host.all_games().await.unwrap().len();
    for bad in [
        "{\"game\": \"chess\"}",
        "not json",
        "{\"game\": \"heximeros\", \"to_move\": \"blue\", \"pieces\": [{\"cell\": \"ZZ99\", \"owner\": \"blue\", \"kind\": \"sovereign\"}]}",
    ] {
        assert!(
            e.host
                .create_from_position(&[1, 2, 3, 4, 5, 6], bad, None)
                .await
                .is_err(),
            "{bad}"
        );
    }
    assert_eq!(e.host.all_games().await.unwrap().len(), before);
}

/// name, player, game, command, expected version, what the error says.
type Case = (
    &'static str,
    i64,
    GameId,
    Command,
    Option<u64>,
    &'static str,
);

/// Every bad input gets a clear error and leaves the stored game as it was: the cases of issue 6
/// (out of turn, not seated, illegal, malformed, stale, vote by a non-voter, unknown game, corrupt
/// row) and a few more.
#[tokio::test]
async fn bad_input_is_refused_and_changes_nothing() {
    let e = env().await;
    // A second game, written by another host on the file, whose stored log was then broken.
    let other = host_on(&e.url, &e.clock).await;
    let bad = heximeros(&other).await;
    act(&other, bad, 1, cmd_move("K2-H3")).await;
    sqlx::query("UPDATE events SET body = $1 WHERE game_id = $2 AND version = 0")
        .bind(r#"{"event":"committed","seat":0,"text":"Q50-Q40"}"#)
        .bind(bad)
        .execute(e.host.store().writer())
        .await
        .unwrap();
    let bad_log = e.host.store().events(bad).await.unwrap();
    let g = heximeros(&e.host).await;
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    act(
        &e.host,
        g,
        3,
        Command::Propose(Motion::Expel { seat: Seat(5) }),
    )
    .await;
    let motion = e.host.state(g).await.unwrap().motions()[0].id;
    let cases: Vec<Case> = vec![
        (
            "out of turn",
            1,
            g,
            cmd_move("Q4-Q6"),
            None,
            "not your turn",
        ),
        ("not seated", 42, g, cmd_move("Q4-Q6"), None, "not playing"),
        ("illegal", 2, g, cmd_move("Q50-Q40"), None, "illegal move"),
        (
            "malformed",
            2,
            g,
            cmd_move("Q5~Q6"),
            None,
            "cannot read move",
        ),
        (
            "unknown cell",
            2,
            g,
            cmd_move("ZZ9-Q6"),
            None,
            "cannot read move",
        ),
        (
            "stale version",
            2,
            g,
            cmd_move("Q4-Q6"),
            Some(1),
            "earlier state",
        ),
        (
            "vote by non-voter",
            6,
            g,
            Command::Vote {
                motion: Some(motion),
                yes: true,
            },
            None,
            "may not vote",
        ),
        (
            "unknown motion",
            1,
            g,
            Command::Vote {
                motion: Some(99),
                yes: true,
            },
            None,
            "no open motion",
        ),
        (
            "unknown game",
            1,
            999,
            cmd_move("Q4-Q6"),
            None,
            "no game #999",
        ),
        ("corrupt row", 2, bad, cmd_move("Q4-Q6"), None, "is corrupt"),
        (
            "pass with nothing staged",
            2,
            g,
            Command::Pass,
            None,
            "no staged move",
        ),
        (
            "concession with six left",
            2,
            g,
            Command::Concede,
            None,
            "only when exactly two",
        ),
        (
            "admin without rights",
            2,
            g,
            Command::Admin(AdminAction::Abort),
            None,
            "admin",
        ),
    ];
    let before = e.host.export(g).await.unwrap();
    let version = e.host.state(g).await.unwrap().version();
    for (name, player, game, cmd, expected, msg) in cases {
        let err = e
            .host
            .handle(game, Actor::player(player), cmd, expected)
            .await
            .unwrap_err();
        let text = err.to_string();
        assert!(text.contains(msg), "{name}: {text}");
        assert!(
            text.starts_with(|c: char| c.is_lowercase()),
            "{name}: {text}"
        );
    }
    let again = Store::open(&e.url).await.unwrap();
    assert_eq!(again.version(g).await.unwrap(), Some(version as i64));
    assert_eq!(e.host.export(g).await.unwrap(), before);
    let after = again.events(bad).await.unwrap();
    assert_eq!(after.len(), bad_log.len());
    assert!(after.iter().zip(&bad_log).all(|(a, b)| a.body == b.body));
    assert_eq!(again.version(bad).await.unwrap(), Some(1));
    // A duplicate (double click) of the last accepted command is stale.
    let v = e.host.state(g).await.unwrap().version();
    e.host
        .handle(g, Actor::player(2), cmd_move("K2-H3").clone(), Some(v))
        .await
        .unwrap_err();
}

#[tokio::test]
async fn a_corrupt_row_is_reported_not_panicked_on() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    act(&e.host, g, 1, cmd_move("K2-H3")).await;
    let blue = first_move(&e.host, g).await;
    act(&e.host, g, 2, cmd_move(&blue)).await;
    // Rewrite Blue's stored move into one that does not replay, from outside the host.
    sqlx::query("UPDATE events SET body = $1 WHERE game_id = $2 AND version = 1")
        .bind(r#"{"event":"committed","seat":1,"text":"Q50-Q40"}"#)
        .bind(g)
        .execute(e.host.store().writer())
        .await
        .unwrap();
    let host = host_on(&e.url, &e.clock).await;
    let err = host
        .handle(g, Actor::player(3), cmd_move("Q4-Q6"), None)
        .await
        .unwrap_err();
    assert!(matches!(err, HostError::Corrupt { .. }), "{err}");
    assert!(err.to_string().contains("no longer replays"), "{err}");
    sqlx::query("UPDATE events SET body = 'not json' WHERE game_id = $1 AND version = 1")
        .bind(g)
        .execute(host.store().writer())
        .await
        .unwrap();
    let err = host.state(g).await.unwrap_err();
    assert!(err.to_string().contains("unreadable"), "{err}");
    sqlx::query("UPDATE games SET kind = 'chess' WHERE id = $1")
        .bind(g)
        .execute(host.store().writer())
        .await
        .unwrap();
    assert!(matches!(
        host.state(g).await.unwrap_err(),
        HostError::Corrupt { .. }
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_racing_moves_one_accepted_per_version() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    let host = Arc::new(e.host);
    for round in 0..3u64 {
        let st = host.state(g).await.unwrap();
        let holder = st.holder_player().unwrap();
        let moves = st.rules().legal_moves();
        let mut tasks = Vec::new();
        for i in 0..50 {
            let host = host.clone();
            let text = moves[i % moves.len()].clone();
            // Half with the version a button carries, half without (slash commands).
            let expected = (i % 2 == 0).then_some(round);
            let player = if i % 5 == 0 {
                (i as i64 % 6) + 1
            } else {
                holder
            };
            tasks.push(tokio::spawn(async move {
                host.handle(g, Actor::player(player), cmd_move(&text), expected)
                    .await
            }));
        }
        let mut ok = 0;
        for t in tasks {
            match t.await.unwrap() {
                Ok(_) => ok += 1,
                Err(
                    HostError::Refused(Refused::Stale { .. })
                    | HostError::Refused(Refused::NotYourTurn { .. })
                    | HostError::Refused(Refused::Illegal(_)),
                ) => {}
                Err(other) => panic!("unexpected error: {other}"),
            }
        }
        assert_eq!(ok, 1, "round {round}");
        assert_eq!(host.state(g).await.unwrap().version(), round + 1);
    }
    // A second host on the same file (another process) loses the race cleanly too.
    let other = host_on(&e.url, &e.clock).await;
    let st = host.state(g).await.unwrap();
    let text = st.rules().legal_moves()[0].clone();
    let p = st.holder_player().unwrap();
    let (a, b) = tokio::join!(
        host.handle(g, Actor::player(p), cmd_move(&text), Some(3)),
        other.handle(g, Actor::player(p), cmd_move(&text), Some(3)),
    );
    assert!(a.is_ok() != b.is_ok(), "{a:?} {b:?}");
    let replayed = other.replay(g).await.unwrap();
    assert_eq!(replayed.version(), 4);
    assert_eq!(replayed.export(), host.state(g).await.unwrap().export());
}

/// Two hosts on one database (two processes; on PostgreSQL each with its own pool of
/// connections writing at once) race on one game round after round, with different moves, with
/// and without the version a button carries: every round exactly one move commits (the writes
/// are version-guarded), and both hosts then replay the same log, one event per version.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hosts_on_one_database_never_both_commit() {
    let e = env().await;
    let g = heximeros(&e.host).await;
    let other = host_on(&e.url, &e.clock).await;
    let rounds = 12u64;
    for round in 0..rounds {
        let truth = other.replay(g).await.unwrap();
        assert_eq!(truth.version(), round);
        let holder = truth.holder_player().unwrap();
        let moves = truth.rules().legal_moves();
        let (first, last) = (moves[0].clone(), moves[moves.len() - 1].clone());
        assert_ne!(first, last);
        let expected = (round % 2 == 0).then_some(round);
        let (a, b) = tokio::join!(
            e.host
                .handle(g, Actor::player(holder), cmd_move(&first), expected),
            other.handle(g, Actor::player(holder), cmd_move(&last), expected),
        );
        for r in [&a, &b] {
            if let Err(err) = r {
                assert!(
                    matches!(
                        err,
                        HostError::Refused(Refused::Stale { .. } | Refused::NotYourTurn { .. })
                    ),
                    "round {round}: {err}"
                );
            }
        }
        assert!(a.is_ok() != b.is_ok(), "round {round}: {a:?} {b:?}");
    }
    let one = e.host.replay(g).await.unwrap();
    let two = other.replay(g).await.unwrap();
    assert_eq!(one.version(), rounds);
    assert_eq!(one.export(), two.export());
    let versions: Vec<i64> = e
        .host
        .store()
        .events(g)
        .await
        .unwrap()
        .iter()
        .map(|ev| ev.version)
        .collect();
    assert_eq!(versions, (0..rounds as i64).collect::<Vec<_>>());
}

/// Every game kind through the host to both ends: a full game to a win (the first seat played
/// by the normal bot, the others by the random mover, every move a host command), and a game that
/// ends in an agreed draw (every game has draws). Both are finished, rated and replay exactly.
#[tokio::test]
async fn every_game_kind_plays_to_a_win_and_to_a_draw() {
    let e = env().await;
    for kind in GameKind::ALL {
        let (min, _) = kind.players();
        let players: Vec<i64> = (1..=min as i64).collect();
        let too_few = e.host.create(kind, &[1], None, None).await;
        assert!(too_few.is_err(), "{kind}");

        // A win, played out.
        let (g, _) = e.host.create(kind, &players, None, None).await.unwrap();
        let mut plies = 0u64;
        loop {
            let st = e.host.state(g).await.unwrap();
            let Some(seat) = st.holder() else { break };
            assert!(plies < 2000, "{kind}: no end after {plies} plies");
            let level = if seat.0 == 0 {
                Level::Normal
            } else {
                Level::Random
            };
            if st.staged().is_some() {
                // A challenge window (HexiMeros): everyone asked lets it stand, then pass.
                let_it_stand(&e.host, g, &st).await;
                act(&e.host, g, st.holder_player().unwrap(), Command::Pass).await;
                plies += 1;
                continue;
            }
            let text = ai::choose(&st.rules(), level, plies).unwrap();
            act(&e.host, g, st.holder_player().unwrap(), cmd_move(&text)).await;
            plies += 1;
        }
        let st = e.host.replay(g).await.unwrap();
        assert_eq!(st.status(), Status::Finished, "{kind}");
        assert!(
            matches!(st.outcome(), Some(Outcome::Win { .. })),
            "{kind}: {:?}",
            st.outcome()
        );
        assert_eq!(st.export(), e.host.state(g).await.unwrap().export());

        // A draw, agreed after two moves.
        let (g, _) = e.host.create(kind, &players, None, None).await.unwrap();
        for _ in 0..2 {
            let st = e.host.state(g).await.unwrap();
            let text = st.rules().legal_moves()[0].clone();
            act(&e.host, g, st.holder_player().unwrap(), cmd_move(&text)).await;
        }
        // Two players: an offer and its acceptance; more: the unanimous abandon vote (§6).
        act(&e.host, g, 1, Command::Propose(Motion::Draw)).await;
        let mut fx = Vec::new();
        for p in 2..=min as i64 {
            fx = act(&e.host, g, p, vote(true)).await;
        }
        assert!(said(&fx, "drew"), "{kind}: {fx:?}");
        let st = e.host.replay(g).await.unwrap();
        assert_eq!(st.status(), Status::Finished, "{kind}");
        assert!(matches!(st.outcome(), Some(Outcome::Draw { .. })), "{kind}");
        assert!(st.finishing_ranks().iter().all(|&(_, r)| r == 1), "{kind}");
    }
    let rated = e.host.ratings(None).await.unwrap();
    assert_eq!(rated.len(), 6);
    assert!(rated.iter().any(|r| r.player == 1 && r.games == 10));
}

/// The count the Discord front end's active-games limit reads: games a player sits in that are
/// not finished or aborted (a paused game counts).
#[tokio::test]
async fn unfinished_games_count_the_games_a_player_sits_in_until_they_end() {
    let e = env().await;
    ensure_players(&e.host, 1..=3).await;
    let mut games = Vec::new();
    for players in [[1, 2], [1, 2], [2, 3]] {
        let (g, _) = e
            .host
            .create(GameKind::HexDame, &players, None, None)
            .await
            .unwrap();
        games.push(g);
    }
    let count = |p| e.host.unfinished_games(p);
    assert_eq!(
        (
            count(1).await.unwrap(),
            count(2).await.unwrap(),
            count(3).await.unwrap()
        ),
        (2, 3, 1)
    );
    assert_eq!(count(4).await.unwrap(), 0);
    let by_admin = Actor {
        player: 3,
        admin: true,
    };
    e.host
        .handle(games[0], by_admin, Command::Admin(AdminAction::Abort), None)
        .await
        .unwrap();
    e.host
        .handle(games[2], by_admin, Command::Admin(AdminAction::Pause), None)
        .await
        .unwrap();
    // A draw agreed after two moves finishes the second game.
    for _ in 0..2 {
        let st = e.host.state(games[1]).await.unwrap();
        let text = st.rules().legal_moves()[0].clone();
        act(
            &e.host,
            games[1],
            st.holder_player().unwrap(),
            cmd_move(&text),
        )
        .await;
    }
    act(&e.host, games[1], 1, Command::Propose(Motion::Draw)).await;
    act(&e.host, games[1], 2, vote(true)).await;
    assert_eq!(
        e.host.state(games[1]).await.unwrap().status(),
        Status::Finished
    );
    assert_eq!(
        (
            count(1).await.unwrap(),
            count(2).await.unwrap(),
            count(3).await.unwrap()
        ),
        (0, 1, 1)
    );
}

/// A Discord user who changed their display name is shown under the new one.
#[tokio::test]
async fn a_player_seen_again_under_a_new_name_is_renamed() {
    let e = env().await;
    e.host.ensure_player(1 << 40, "Ana").await.unwrap();
    e.host.ensure_player(1 << 40, "Ana").await.unwrap();
    assert_eq!(
        e.host.player_name(1 << 40).await.unwrap().as_deref(),
        Some("Ana")
    );
    e.host.ensure_player(1 << 40, "Ana B.").await.unwrap();
    assert_eq!(
        e.host.player_name(1 << 40).await.unwrap().as_deref(),
        Some("Ana B.")
    );
}
