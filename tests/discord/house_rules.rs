#![allow(clippy::unwrap_used)]
//! End-to-end tests of the house rules menu (issue 19): the real `hexmeros serve` binary against
//! the fake Discord (`tests/support/bot.rs`, `tests/support/fake_discord.rs`).
//! `/hexmeros house-rules` answers privately with a select of the game's rules; picking one
//! updates that message in place to a select of its values, and picking a value proposes it, so
//! its ballot opens in the thread. Only seated players of the game, from its own server, in the
//! House Rules phase get a menu; the first Token pass closes an open house rule ballot with a
//! sentence in the thread.

use hexmeros_testkit::{bot, fake_discord};

use fake_discord::{FakeDiscord as F, Interaction, Sent};
use hexmeros::games::{AnyGame, GameKind};
use hexmeros::host::Motion;
use serde_json::json;

use bot::*;

/// A HexDame game of users 1 (White) and 2 (Black) through the lobby: its id and thread.
async fn start(fake: &F) -> (i64, u64) {
    bot::start_game(
        fake,
        &[u(1), u(2)],
        vec![json!({"type": 4, "name": "game", "value": 1})],
    )
    .await
}

/// A step of the menu after the slash command: acknowledged as an update of the message the
/// control sits on (callback type 6), answered by an edit of it.
async fn step(fake: &F, i: &Interaction) -> Sent {
    let first = fake.first_response(i, T).await.unwrap();
    assert_eq!(first.status, 204, "{first:?}");
    assert_eq!(first.json.unwrap()["type"].as_u64(), Some(6));
    let sent = fake
        .wait_responses(i, T, 1, |s| {
            s.method == "PATCH" && s.path.ends_with("/messages/@original")
        })
        .await
        .unwrap();
    let s = sent.into_iter().next().unwrap();
    assert_eq!(s.status, 200, "{s:?}");
    s
}

fn assert_refused(s: &Sent, sentence: &str) {
    assert_eq!(content(s), format!("⚠️ {sentence}"), "{s:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_house_rule_proposed_from_the_menu_opens_a_ballot_the_first_pass_closes() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, thread) = start(&fake).await;
    wait_message(&fake, thread, 0, "you have the Token").await;

    // The rules, each with its value in force, privately.
    let rules = hx(&fake, u(1), thread, "house-rules", json!([])).await;
    assert!(is_private(&rules), "{rules:?}");
    assert!(
        content(&rules).contains("**House rules** of game #"),
        "{rules:?}"
    );
    let (rule_id, options) = select_menu(&rules);
    assert!(rule_id.len() <= 100);
    let labels: Vec<&str> = options.iter().map(|o| o.0.as_str()).collect();
    assert_eq!(
        labels,
        [
            "Threefold repetition · now: on",
            "Distinct capture paths · now: off",
            "King move limit · now: none",
            "Turn timer (hours) · now: 24",
            "Ballot length (hours) · now: 24",
            "Reminders · now: on",
            "Time bank (hours) · now: 0",
            "Bank added per move (hours) · now: 0",
            "Away allowance (hours) · now: 168",
        ]
    );
    let menu_msg = message_id(&rules);

    // A rule: the same message now offers its values, the one in force marked.
    let before = fake.messages(thread).len();
    let i = fake
        .select(u(1), thread, menu_msg, &rule_id, &["king_move_limit"])
        .await;
    let values = step(&fake, &i).await;
    assert!(
        content(&values).contains("**King move limit**"),
        "{values:?}"
    );
    let (value_id, options) = select_menu(&values);
    assert_eq!(
        options[0],
        ("none · now".to_string(), "null".to_string(), true)
    );
    assert!(options.iter().skip(1).all(|o| !o.2 && !o.0.contains("now")));
    assert!(options.iter().any(|o| o.1 == "25"), "{options:?}");
    assert!(
        custom_ids(values.json.as_ref().unwrap())
            .iter()
            .any(|id| id.contains(":hrules:"))
    );

    // The value in force is no proposal; a value the menu does not offer is refused in place.
    let i = fake
        .select(u(1), thread, menu_msg, &value_id, &["null"])
        .await;
    assert_refused(&step(&fake, &i).await, "King move limit is already none");
    let i = fake.select(u(1), thread, menu_msg, &value_id, &["7"]).await;
    assert_refused(
        &step(&fake, &i).await,
        "that is not on this game's house rules menu",
    );
    assert!(bot.state(game).await.motions().is_empty());

    // A value: proposed, and the ballot appears in the thread.
    let i = fake
        .select(u(1), thread, menu_msg, &value_id, &["25"])
        .await;
    let done = step(&fake, &i).await;
    assert!(
        content(&done).contains("you proposed King move limit = 25"),
        "{done:?}"
    );
    let ballot = wait_message(&fake, thread, before, "ballot on motion #").await;
    assert!(
        content(&ballot).contains("house rule king_move_limit = 25"),
        "{ballot:?}"
    );
    let st = bot.state(game).await;
    assert_eq!(st.motions().len(), 1);
    let motion = st.motions()[0].number;
    assert_eq!(motion, 1, "numbered per game from 1");
    assert_eq!(
        st.motions()[0].motion,
        Motion::HouseRule {
            key: "king_move_limit".into(),
            value: json!(25)
        }
    );

    // A stranger gets no menu, and a forged pick from them proposes nothing.
    let r = hx(&fake, u(3), thread, "house-rules", json!([])).await;
    assert_refused(&r, "you are not playing in this game");
    let i = fake
        .select(u(3), thread, menu_msg, &value_id, &["20"])
        .await;
    assert_refused(&step(&fake, &i).await, "you are not playing in this game");
    // From another server the game does not exist; nor does a game a control's id makes up.
    let opts = json!([int_opt("game", game)]);
    let r = hx(&fake, u(1), F::OTHER_CHANNEL_ID, "house-rules", opts).await;
    assert_refused(&r, &format!("there is no game #{game}"));
    let forged = value_id.replacen(&game.to_string(), "999", 1);
    let i = fake.select(u(1), thread, menu_msg, &forged, &["20"]).await;
    assert_refused(&step(&fake, &i).await, "there is no game #999");
    assert_eq!(bot.state(game).await.motions().len(), 1);

    // `/hexmeros vote house-rule` completes keys and values from the same lists.
    let focused =
        |name: &str, v: &str| json!({"type": 3, "name": name, "value": v, "focused": true});
    let ac = |opts| {
        fake.autocomplete(u(2), thread, "hexmeros", json!([{
        "type": 2, "name": "vote", "options": [{"type": 1, "name": "house-rule", "options": opts}]
    }]))
    };
    let i = ac(json!([focused("key", "king")])).await;
    let got = fake.first_response(&i, T).await.unwrap().json.unwrap();
    assert_eq!(got["type"], 8, "{got}");
    assert_eq!(
        got["data"]["choices"],
        json!([{"name": "King move limit (king_move_limit) · now: none", "value": "king_move_limit"}])
    );
    let i = ac(json!([
        str_opt("key", "threefold_repetition"),
        focused("value", "")
    ]))
    .await;
    let got = fake.first_response(&i, T).await.unwrap().json.unwrap();
    assert_eq!(
        got["data"]["choices"],
        json!([{"name": "true (now)", "value": "true"}, {"name": "false", "value": "false"}])
    );
    // Completing proposes nothing.
    assert_eq!(bot.state(game).await.motions().len(), 1);

    // The first pass: the ballot closes with a sentence in the thread, and the motion is gone.
    let before = fake.messages(thread).len();
    let mv = AnyGame::new(GameKind::HexDame, None, None)
        .unwrap()
        .legal_moves()[0]
        .clone();
    let opts = json!([str_opt("from", &mv), bool_opt("pass", true)]);
    let r = hx(&fake, u(1), thread, "move", opts).await;
    assert!(!content(&r).starts_with("⚠️"), "{mv}: {r:?}");
    wait_message(
        &fake,
        thread,
        before,
        &format!(
            "the vote on King move limit = 25 (motion #{motion}) closed without a decision: the \
             first move was played"
        ),
    )
    .await;
    assert!(bot.state(game).await.motions().is_empty());

    // The phase is over: one sentence, for the command and for the old menu alike.
    let closed = "house rules are voted only before the first Token pass";
    let r = hx(&fake, u(2), thread, "house-rules", json!([])).await;
    assert_refused(&r, closed);
    let i = fake
        .select(u(1), thread, menu_msg, &value_id, &["20"])
        .await;
    assert_refused(&step(&fake, &i).await, closed);
    assert!(bot.state(game).await.motions().is_empty());
    assert_clean(&fake, &bot);
}

/// `/hexmeros start scored:false`: the games decide which chosen rules they have, so a
/// HexiMeros game starts unscored and a HexDame game (which has no such rule) as usual.
#[tokio::test]
async fn a_start_gives_the_game_the_house_rules_it_has() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let six: Vec<u64> = (1..=6).map(u).collect();
    let (game, _) = bot::start_game(&fake, &six, vec![bool_opt("scored", false)]).await;
    assert_eq!(bot.state(game).await.house()["scored"], json!(false));
    let (game, _) = bot::start_game(
        &fake,
        &[u(7), u(8)],
        vec![
            json!({"type": 4, "name": "game", "value": 1}),
            bool_opt("scored", false),
        ],
    )
    .await;
    assert!(bot.state(game).await.house().get("scored").is_none());
}
