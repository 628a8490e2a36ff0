//! "Pass when the window closes" (issue 19): the Token holder whose staged move opened a
//! challenge window (HexiMeros §5.4) asks that the Token be passed as soon as the window closes
//! with nobody declaring. On a real SQLite file with a hand-moved clock: passed on the last
//! "let it stand" and when the window times out, never after a declaration, cancelled by a
//! take back or a new staging, kept across a restart, and refused when it makes no sense.
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host as support;
use hexmeros_testkit::host::RulesOf;

use hexmeros::games::heximeros::HexiMeros;
use hexmeros::games::{AnyGame, Rules, Seat};
use hexmeros::host::{
    Actor, Clock, Command, Effect, GameHost, GameId, GameState, HostError, Refused,
};
use support::{act, env, host_on, said};

/// Players 1…6 in seats Silver…Red of a game set up from
/// `tests/data/scenarios/heximeros_blue_may_check.json`: Blue (2) to move; E14-F13 moves his
/// Sovereign into Green's attack, so Green (5) alone is asked.
async fn scenario(host: &GameHost) -> GameId {
    support::scenario(host, "heximeros_blue_may_check").await
}

const INTO_ATTACK: &str = "E14-F13";

fn engine(state: &GameState) -> HexiMeros {
    match state.rules() {
        AnyGame::HexiMeros(g) => g,
        _ => panic!("not heximeros"),
    }
}

/// Stage `text` without passing: the version the preview carries.
async fn stage(host: &GameHost, g: GameId, player: i64, text: &str) -> u64 {
    let cmd = Command::Move {
        text: text.into(),
        commit: false,
    };
    act(host, g, player, cmd).await;
    host.state(g).await.unwrap().version()
}

/// The mover (player 2, Blue) asks to pass when the window closes, from the preview made at
/// `made`.
async fn ask_auto_pass(host: &GameHost, g: GameId, made: u64) -> Vec<Effect> {
    host.press(g, Actor::player(2), Command::PassWhenClosed, made)
        .await
        .unwrap()
        .effects
}

fn passed(fx: &[Effect]) -> bool {
    fx.iter().any(
        |f| matches!(f, Effect::Say { text, .. } if text.to_string().contains("Token was passed automatically")),
    )
}

/// The staged move's "pass when the window closes" flag.
async fn auto(host: &GameHost, g: GameId) -> bool {
    host.state(g)
        .await
        .unwrap()
        .staged()
        .is_some_and(|s| s.pass_when_closed)
}

/// After an automatic pass: an ordinary committed move of Blue's, the Token with Yellow (3),
/// and a replay of the stored log gives the same game.
async fn assert_passed(host: &GameHost, g: GameId, fx: &[Effect], text: &str) {
    assert!(passed(fx), "{fx:?}");
    assert!(
        said(fx, &format!("passed automatically with {text}")),
        "{fx:?}"
    );
    let board = fx
        .iter()
        .position(|f| matches!(f, Effect::Board { caption, .. } if caption.contains(&format!("Blue played {text}"))))
        .unwrap_or_else(|| panic!("no board: {fx:?}"));
    let told = fx
        .iter()
        .position(
            |f| matches!(f, Effect::Say { text, .. } if text.to_string().contains("passed automatically")),
        )
        .unwrap();
    assert!(
        told < board,
        "the thread is told before the new board: {fx:?}"
    );
    assert!(
        fx.iter()
            .any(|f| matches!(f, Effect::Ping { player: 3, text, .. } if text.to_string().contains("Token"))),
        "the next Token holder is pinged: {fx:?}"
    );
    let st = host.state(g).await.unwrap();
    assert_eq!(st.holder(), Some(Seat(2)));
    assert_eq!(st.record().last().unwrap().line, format!("blue {text}"));
    assert!(st.staged().is_none());
    let replayed = host.replay(g).await.unwrap();
    assert_eq!(replayed.version(), st.version());
    assert_eq!(replayed.export(), st.export());
    assert_eq!(replayed.holder(), st.holder());
}

#[tokio::test]
async fn passes_on_the_last_let_it_stand() {
    let e = env().await;
    let g = scenario(&e.host).await;
    let made = stage(&e.host, g, 2, INTO_ATTACK).await;
    let fx = ask_auto_pass(&e.host, g, made).await;
    assert!(
        said(&fx, "the Token will be passed with your staged move"),
        "{fx:?}"
    );
    assert!(auto(&e.host, g).await);
    // Still Blue's turn, the window still open: nothing is passed yet.
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.holder(), Some(Seat(1)));
    assert_eq!(st.window_at(), Some(made));
    let fx = act(&e.host, g, 5, Command::Challenge { declare: false }).await;
    assert!(!said(&fx, "you may pass the Token"), "{fx:?}");
    assert_passed(&e.host, g, &fx, INTO_ATTACK).await;
}

/// In the scenario, after Blue's H5-I10, Yellow's E38-F35 leaves Yellow's Sovereign attacked
/// by Green and Red: two are asked.
const QUIET_BLUE: &str = "H5-I10";
const TWO_ASKED: &str = "E38-F35";

#[tokio::test]
async fn with_two_asked_only_the_last_let_it_stand_passes() {
    let e = env().await;
    let g = scenario(&e.host).await;
    act(&e.host, g, 2, support::cmd_move(QUIET_BLUE)).await;
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.holder(), Some(Seat(2)));
    let asked = engine(&st).challengers(&engine(&st).parse_move(TWO_ASKED).unwrap());
    assert_eq!(asked, [Seat(4), Seat(5)]);
    let made = stage(&e.host, g, 3, TWO_ASKED).await;
    e.host
        .press(g, Actor::player(3), Command::PassWhenClosed, made)
        .await
        .unwrap();
    let fx = act(&e.host, g, 6, Command::Challenge { declare: false }).await;
    assert!(!passed(&fx), "{fx:?}");
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.holder(), Some(Seat(2)));
    assert_eq!(st.staged().unwrap().waiting(), [Seat(4)]);
    let fx = act(&e.host, g, 5, Command::Challenge { declare: false }).await;
    assert!(
        said(&fx, &format!("passed automatically with {TWO_ASKED}")),
        "{fx:?}"
    );
    let st = e.host.state(g).await.unwrap();
    assert_eq!(
        st.record().last().unwrap().line,
        format!("yellow {TWO_ASKED}")
    );
    assert_eq!(st.holder(), Some(Seat(3)));
}

#[tokio::test]
async fn passes_when_the_timer_closes_the_window() {
    let e = env().await;
    let g = scenario(&e.host).await;
    let made = stage(&e.host, g, 2, INTO_ATTACK).await;
    ask_auto_pass(&e.host, g, made).await;
    e.clock.advance_minutes(9);
    let fx = e.host.tick().await.unwrap();
    assert!(!passed(&fx), "{fx:?}");
    assert_eq!(e.host.state(g).await.unwrap().holder(), Some(Seat(1)));
    e.clock.advance_minutes(2);
    let fx = e.host.tick().await.unwrap();
    assert!(!said(&fx, "you may pass the Token"), "{fx:?}");
    assert_passed(&e.host, g, &fx, INTO_ATTACK).await;
    // The move is stored at the moment the window closed.
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.record().last().unwrap().at, e.clock.now());
}

#[tokio::test]
async fn not_passed_after_a_declaration() {
    let e = env().await;
    let g = scenario(&e.host).await;
    let made = stage(&e.host, g, 2, INTO_ATTACK).await;
    ask_auto_pass(&e.host, g, made).await;
    let fx = act(&e.host, g, 5, Command::Challenge { declare: true }).await;
    assert!(!passed(&fx), "{fx:?}");
    assert!(
        fx.iter().any(|f| matches!(f, Effect::Ping { player: 2, text, .. }
            if text.to_string().contains("declared Check upon you") && text.to_string().contains("not be passed automatically"))),
        "{fx:?}"
    );
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.holder(), Some(Seat(1)), "the mover must act");
    assert!(st.staged().is_none());
    assert!(st.record().is_empty());
    // Nothing is due any more: time passing passes nothing.
    e.clock.advance_minutes(11);
    let fx = e.host.tick().await.unwrap();
    assert!(!passed(&fx), "{fx:?}");
    let after = e.host.state(g).await.unwrap();
    assert_eq!(after.holder(), Some(Seat(1)));
    assert!(after.record().is_empty());
}

#[tokio::test]
async fn cancelled_by_take_back_and_by_a_new_staging() {
    let e = env().await;
    let g = scenario(&e.host).await;
    let made = stage(&e.host, g, 2, INTO_ATTACK).await;
    ask_auto_pass(&e.host, g, made).await;
    let fx = act(&e.host, g, 2, Command::TakeBack).await;
    assert!(
        said(&fx, "will not be passed when the challenge window closes"),
        "{fx:?}"
    );
    // The same move staged again opens a new window that passes nothing by itself.
    stage(&e.host, g, 2, INTO_ATTACK).await;
    assert!(!auto(&e.host, g).await);
    let fx = act(&e.host, g, 5, Command::Challenge { declare: false }).await;
    assert!(!passed(&fx), "{fx:?}");
    assert!(said(&fx, "you may pass the Token"), "{fx:?}");
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.holder(), Some(Seat(1)));
    assert!(st.record().is_empty());

    // Staging again (even the same move) cancels it too: a new staging, a new decision.
    let g = scenario(&e.host).await;
    let made = stage(&e.host, g, 2, INTO_ATTACK).await;
    ask_auto_pass(&e.host, g, made).await;
    stage(&e.host, g, 2, INTO_ATTACK).await;
    assert!(!auto(&e.host, g).await);
    e.clock.advance_minutes(11);
    let fx = e.host.tick().await.unwrap();
    assert!(said(&fx, "challenge window closed"), "{fx:?}");
    assert!(!passed(&fx), "{fx:?}");
    assert_eq!(e.host.state(g).await.unwrap().holder(), Some(Seat(1)));
}

#[tokio::test]
async fn survives_a_restart_before_the_window_closes() {
    let e = env().await;
    let g = scenario(&e.host).await;
    let g2 = scenario(&e.host).await;
    for game in [g, g2] {
        let made = stage(&e.host, game, 2, INTO_ATTACK).await;
        ask_auto_pass(&e.host, game, made).await;
    }
    let before = e.host.state(g).await.unwrap();
    e.host.store().close().await;
    drop(e.host);
    let host = host_on(&e.url, &e.clock).await;
    let after = host.state(g).await.unwrap();
    assert_eq!(after.version(), before.version());
    assert_eq!(after.staged(), before.staged());
    assert!(after.staged().unwrap().pass_when_closed);
    // Game 1: the last answer passes; game 2: the timer does.
    let fx = act(&host, g, 5, Command::Challenge { declare: false }).await;
    assert_passed(&host, g, &fx, INTO_ATTACK).await;
    e.clock.advance_minutes(11);
    let fx = host.tick().await.unwrap();
    assert_passed(&host, g2, &fx, INTO_ATTACK).await;
}

/// `player`'s PassWhenClosed (a button made at `made`, or the slash command when `None`) is
/// refused with `want`, and nothing changes.
async fn refused(host: &GameHost, g: GameId, player: i64, made: Option<u64>, want: Refused) {
    let before = host.state(g).await.unwrap();
    let actor = Actor::player(player);
    let r = match made {
        Some(v) => host.press(g, actor, Command::PassWhenClosed, v).await,
        None => host.handle(g, actor, Command::PassWhenClosed, None).await,
    };
    let err = r.unwrap_err();
    assert!(
        matches!(&err, HostError::Refused(r) if *r == want),
        "{err} (wanted {want})"
    );
    let after = host.state(g).await.unwrap();
    assert_eq!(after.version(), before.version(), "nothing is stored");
    assert_eq!(after.staged(), before.staged());
}

#[tokio::test]
async fn refused_when_it_makes_no_sense() {
    let e = env().await;
    let g = scenario(&e.host).await;
    refused(&e.host, g, 2, None, Refused::NothingStaged).await;
    // A move that opens no window: pass it now.
    let st = e.host.state(g).await.unwrap();
    let quiet = engine(&st)
        .legal_moves()
        .into_iter()
        .find(|m| engine(&st).challengers(m).is_empty())
        .map(|m| engine(&st).move_text(&m))
        .unwrap();
    let made = stage(&e.host, g, 2, &quiet).await;
    refused(&e.host, g, 2, Some(made), Refused::NoWindowToWaitFor).await;
    assert_eq!(
        Refused::NoWindowToWaitFor.to_string(),
        "no challenge window is open on your staged move: pass the Token now"
    );
    // A window: only the mover may ask, once, from the current preview.
    let first = stage(&e.host, g, 2, INTO_ATTACK).await;
    refused(
        &e.host,
        g,
        5,
        None,
        Refused::NotYourTurn {
            holder: "blue".into(),
        },
    )
    .await;
    refused(&e.host, g, 2, Some(made), Refused::StalePreview).await;
    ask_auto_pass(&e.host, g, first).await;
    refused(
        &e.host,
        g,
        2,
        Some(first),
        Refused::AlreadyPassingWhenClosed,
    )
    .await;
    // Once everyone answered, the window is gone: nothing to wait for.
    let g = scenario(&e.host).await;
    let made = stage(&e.host, g, 2, INTO_ATTACK).await;
    act(&e.host, g, 5, Command::Challenge { declare: false }).await;
    refused(&e.host, g, 2, Some(made), Refused::NoWindowToWaitFor).await;
}
