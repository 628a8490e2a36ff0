#![allow(clippy::unwrap_used)]
//! End-to-end test of the status panel and the cost of a move (issue 19): the real `hexmeros
//! serve` binary against the fake Discord of `tests/support/fake_discord.rs` (the harness of
//! `tests/support/bot.rs`).
//!
//! A game's thread gets one panel, pinned, that pings every seated player once when posted and
//! carries the Pass Token, Take back and My side buttons (no reactions: posting and pinning it
//! are its only two requests); each committed move then costs at most two requests that count
//! toward Discord's global limit (the turn message, which pings the next player itself, and the
//! panel's edit), and the panel is edited in place, never posted again. The panel's buttons act
//! on the presser's move as it stands, for its Token holder alone and in its own server.

use hexmeros_testkit::{bot, fake_discord};

use std::time::Duration;

use fake_discord::FakeDiscord as F;
use hexmeros::games::{AnyGame, GameKind};
use serde_json::{Value, json};

use bot::*;

/// Requests of a move that count toward Discord's global limit: all but interaction answers
/// and their followups, and but the old turn messages' buttons taken off (`is_cleanup`: in the
/// background, after everything urgent; counted apart).
fn counted(fake: &F) -> usize {
    fake.requests()
        .iter()
        .filter(|s| !s.path.starts_with("/interactions") && !s.path.starts_with("/webhooks"))
        .filter(|s| !is_cleanup(s))
        .count()
}

/// The panel's text now.
fn panel_text(fake: &F, panel: u64) -> String {
    fake.message(panel).unwrap()["content"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// Wait until `what` gives something, or fail saying `why`.
async fn until<T>(why: &str, mut what: impl FnMut() -> Option<T>) -> T {
    let deadline = tokio::time::Instant::now() + T;
    loop {
        if let Some(v) = what() {
            return v;
        }
        assert!(tokio::time::Instant::now() < deadline, "timed out: {why}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn users_allowed(body: &Value) -> Vec<String> {
    body["allowed_mentions"]["users"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pinned_panel_is_edited_each_turn_and_a_move_costs_two_requests() {
    let fake = F::start().await;
    let _bot = Bot::start(&fake).await;
    let players = [u(1), u(2)];
    let (_, thread) = bot::start_game(
        &fake,
        &players,
        vec![json!({"type": 4, "name": "game", "value": 1})],
    )
    .await;

    // The first board pings the first player in its own message: no separate ping.
    let first = wait_message(&fake, thread, 0, "you have the Token").await;
    let body = first.json.clone().unwrap();
    assert_eq!(users_allowed(&body), [players[0].to_string()], "{body}");

    // One panel, pinned, naming both players, with the three buttons and no reaction.
    let panel = until("the panel is pinned", || {
        fake.pinned(thread).first().copied()
    })
    .await;
    let posted = fake
        .requests()
        .into_iter()
        .find(|s| {
            s.method == "POST"
                && s.path == format!("/channels/{thread}/messages")
                && s.response["id"].as_str() == Some(&panel.to_string())
        })
        .expect("the panel's post");
    let mut pinged = users_allowed(posted.json.as_ref().unwrap());
    pinged.sort();
    let mut all: Vec<String> = players.iter().map(u64::to_string).collect();
    all.sort();
    assert_eq!(
        pinged, all,
        "posting the panel tells every player they are seated"
    );
    let text = panel_text(&fake, panel);
    for p in players {
        assert!(text.contains(&format!("<@{p}>")), "{text}");
    }
    assert!(text.contains("holds the Token"), "{text}");
    let reactions = |fake: &F| {
        fake.requests()
            .iter()
            .filter(|s| {
                s.method == "PUT"
                    && s.path
                        .starts_with(&format!("/channels/{thread}/messages/{panel}/reactions/"))
            })
            .count()
    };
    let ids = custom_ids(posted.json.as_ref().unwrap());
    let keys: Vec<&str> = ids.iter().map(|id| id.split(':').nth(1).unwrap()).collect();
    assert_eq!(keys, ["ppass", "pback", "board"], "{ids:?}");

    let mut mirror = AnyGame::new(GameKind::HexDame, None, None).unwrap();
    let mut costs = Vec::new();
    let mut capture_shown = false;
    for ply in 0..30 {
        let turn = ply + 1;
        until("the panel shows the turn", || {
            panel_text(&fake, panel)
                .contains(&format!("Turn {turn}:"))
                .then_some(())
        })
        .await;
        let mover = mirror.to_move().unwrap();
        let user = players[mover.index()];
        let moves = mirror.legal_moves();
        let mv = moves
            .iter()
            .find(|m| m.contains('x'))
            .unwrap_or(&moves[0])
            .clone();
        let before = counted(&fake);
        let shown = fake.messages(thread).len();
        let r = hx(
            &fake,
            user,
            thread,
            "move",
            json!([str_opt("from", &mv), bool_opt("pass", true)]),
        )
        .await;
        assert!(!content(&r).starts_with("⚠️"), "{mv}: {r:?}");
        mirror.play(&mv).unwrap();
        let posted = wait_message(&fake, thread, shown, &format!("played {mv}")).await;
        // The next player is pinged by the turn message itself.
        let next = players[mirror.to_move().unwrap().index()];
        assert_eq!(
            users_allowed(posted.json.as_ref().unwrap()),
            [next.to_string()]
        );
        let text = until("the panel shows the next turn", || {
            let t = panel_text(&fake, panel);
            t.contains(&format!("Turn {}:", turn + 1)).then_some(t)
        })
        .await;
        costs.push(counted(&fake) - before);
        if mv.contains('x') {
            assert!(text.contains(" took "), "the panel's last round: {text}");
            capture_shown = true;
        }
        if capture_shown && ply >= 5 {
            break;
        }
    }
    eprintln!("requests counted toward the global limit per committed move: {costs:?}");
    assert!(capture_shown, "no capture in 30 plies");
    assert!(costs.iter().all(|&c| c <= 2), "{costs:?}");
    // Edited in place: still the one panel, never posted again, and no reaction added.
    assert_eq!(fake.pinned(thread), [panel]);
    let panels = fake
        .messages(thread)
        .iter()
        .filter(|m| content(m).starts_with("📋"))
        .count();
    assert_eq!(panels, 1);
    assert_eq!(reactions(&fake), 0);
}

/// The panel's buttons: the Token holder's Pass commits the move staged now and Take back takes
/// it back; anyone else's, a replayed Pass, or a press from another server changes nothing; My
/// side shows a seated player their board privately; a finished game's panel has no buttons.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_panels_buttons_act_on_the_move_staged_now() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let players = [u(1), u(2)];
    let (game, thread) = bot::start_game(
        &fake,
        &players,
        vec![json!({"type": 4, "name": "game", "value": 1})],
    )
    .await;
    wait_message(&fake, thread, 0, "you have the Token").await;
    let panel = until("the panel is pinned", || {
        fake.pinned(thread).first().copied()
    })
    .await;
    let ids = custom_ids(&fake.message(panel).unwrap());
    let [pass, back, side] = [0, 1, 2].map(|i| ids[i].clone());
    let mv = AnyGame::new(GameKind::HexDame, None, None)
        .unwrap()
        .legal_moves()[0]
        .clone();
    let stage = || hx(&fake, u(1), thread, "move", json!([str_opt("from", &mv)]));

    // Nothing staged, or someone other than the Token holder: refused, nothing changes.
    let r = click(&fake, u(1), thread, panel, &pass).await;
    assert_refused(&r, "");
    assert!(!content(&stage().await).starts_with("⚠️"));
    let shown = fake.messages(thread).len();
    for id in [&pass, &back] {
        let r = click(&fake, u(2), thread, panel, id).await;
        assert_refused(&r, "");
        // The same press from another server: the answer of a game that does not exist.
        let r = click(&fake, u(1), F::OTHER_CHANNEL_ID, panel, id).await;
        assert_refused(&r, &format!("no game #{game}"));
    }
    let st = bot.state(game).await;
    assert_eq!(st.staged().map(|s| s.text.clone()), Some(mv.clone()));
    assert_eq!(st.holder_player(), Some(u(1) as i64));

    // The holder's Take back, then Pass on the move staged again.
    let r = click(&fake, u(1), thread, panel, &back).await;
    assert!(content(&r).contains("taken back"), "{r:?}");
    assert!(bot.state(game).await.staged().is_none());
    assert!(!content(&stage().await).starts_with("⚠️"));
    let r = click(&fake, u(1), thread, panel, &pass).await;
    assert!(
        content(&r).contains(&format!("committed **{mv}**")),
        "{r:?}"
    );
    wait_message(&fake, thread, shown, &format!("played {mv}")).await;
    let st = bot.state(game).await;
    assert_eq!(st.holder_player(), Some(u(2) as i64));
    let record = st.record().len();
    // Replayed: nothing more is played.
    let r = click(&fake, u(1), thread, panel, &pass).await;
    assert_refused(&r, "");
    assert_eq!(bot.state(game).await.record().len(), record);

    // My side, privately, with the board.
    let r = click(&fake, u(2), thread, panel, &side).await;
    let body = r.json.as_ref().unwrap().to_string();
    assert!(
        body.contains("attachments") || body.contains("board."),
        "{r:?}"
    );

    // Once the game is over, the panel loses its buttons.
    let r = hx(&fake, u(2), thread, "resign", json!([])).await;
    let confirm = id_with(r.json.as_ref().unwrap(), "resign");
    click(&fake, u(2), thread, message_id(&r), &confirm).await;
    until("the finished panel has no buttons", || {
        let m = fake.message(panel).unwrap();
        (panel_text(&fake, panel).contains("finished") && custom_ids(&m).is_empty()).then_some(())
    })
    .await;
}
