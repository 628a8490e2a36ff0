#![allow(clippy::unwrap_used)]
//! End-to-end tests of the Discord bot: the real `hexmeros serve` binary (the same client-building
//! code as production, pointed at the fake with `DISCORD_API_BASE`) against the fake Discord in
//! `tests/support/fake_discord.rs`, on a temporary SQLite file. Time is moved by writing the file
//! `HEXMEROS_CLOCK_FILE` names; the bot's own tick task runs the timers.

use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{bot, fake_discord};

use std::time::Duration;

use fake_discord::{FakeDiscord as F, Interaction, Sent};
use hexmeros::ai::Level;
use hexmeros::games::heximeros::HexiMeros;
use hexmeros::games::{AnyGame, GameKind, Outcome, Rules, Seat};
use hexmeros::host::{GameState, Motion};
use serde_json::{Value, json};

use bot::*;

/// The board of a turn message: a PNG file (decoded) or a text board.
fn assert_board(m: &Sent) {
    if let Some((name, bytes)) = m.files.iter().find(|(n, _)| n.ends_with(".png")) {
        let img = image::load_from_memory(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            img.width() >= 200 && img.height() >= 200,
            "{name} is too small"
        );
    } else {
        let c = content(m);
        let text = m
            .files
            .iter()
            .find(|(n, _)| n.ends_with(".txt"))
            .map(|(_, b)| String::from_utf8_lossy(b).to_string())
            .unwrap_or(c);
        assert!(text.lines().count() > 5, "no board in {m:?}");
    }
}

/// A started game: its id, its thread, and the turn message.
struct Game {
    id: i64,
    thread: u64,
}

/// `game`: the index of the choice (0 HexiMeros, 1 HexDame, …), as poise registers choices.
/// The first player starts; everyone else named joins the lobby, and the last Join starts the
/// game (issue 17, consent).
async fn start(fake: &F, players: &[u64], game: Option<u64>) -> (Game, Interaction) {
    let mut opts: Vec<Value> = players
        .iter()
        .enumerate()
        .map(|(i, &p)| user_opt(&format!("p{}", i + 1), p))
        .collect();
    if let Some(g) = game {
        opts.push(json!({"type": 4, "name": "game", "value": g}));
    }
    let i = fake
        .slash(
            players[0],
            F::CHANNEL_ID,
            "hexmeros",
            sub("start", json!(opts)),
        )
        .await;
    acked(fake, &i).await;
    let reply = followup(fake, &i).await;
    let mut text = content(&reply);
    if let Some(lobby) = lobby_number(&text) {
        let msg = lobby_message(fake, lobby).await;
        for &p in &players[1..] {
            let r = click(fake, p, F::CHANNEL_ID, message_id(&msg), &join_id(lobby)).await;
            text = content(&r);
        }
    }
    let id = started_game(&text).unwrap_or_else(|| panic!("no game number in {text:?}"));
    let (thread, parent, _) = fake
        .threads()
        .into_iter()
        .find(|(_, _, name)| name.ends_with(&format!("#{id}")))
        .unwrap();
    assert_eq!(parent, F::CHANNEL_ID);
    assert!(text.contains(&format!("<#{thread}>")), "{text}");
    // The start is complete once its status panel is pinned (the background posts it after
    // the first board).
    wait_panel(fake, thread, "📋").await;
    (Game { id, thread }, i)
}

/// The game an answer says started (`… HexDame #4 started in <#…>`).
fn started_game(text: &str) -> Option<i64> {
    let (before, _) = text.split_once(" started")?;
    before.rsplit('#').next()?.parse().ok()
}

fn join_id(lobby: i64) -> String {
    format!("{lobby}:ljoin:0")
}

/// The lobby message of `lobby` in the first server's channel, waited for.
async fn lobby_message(fake: &F, lobby: i64) -> Sent {
    let deadline = tokio::time::Instant::now() + T;
    loop {
        if let Some(m) = fake.messages(F::CHANNEL_ID).into_iter().find(|m| {
            m.json
                .as_ref()
                .is_some_and(|j| custom_ids(j).contains(&join_id(lobby)))
        }) {
            return m;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no message for lobby #{lobby}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn legal(kind: GameKind, played: &[&str]) -> Vec<String> {
    let mut g = AnyGame::new(kind, None, None).unwrap();
    for m in played {
        g.play(m).unwrap();
    }
    g.legal_moves()
}

/// A HexiMeros game of six at its first turn: the game, a first move for Silver, and the path
/// its thread's messages are posted to.
async fn first_turn(fake: &F) -> (Game, String, String) {
    let (game, _) = start(fake, &six(), None).await;
    wait_message(fake, game.thread, 0, "you have the Token").await;
    let mv = legal(GameKind::HexiMeros, &[])[0].clone();
    let path = format!("/channels/{}/messages", game.thread);
    (game, mv, path)
}

fn six() -> Vec<u64> {
    (1..=6).map(u).collect()
}

/// After every test: no first response missed Discord's deadline, and the bot called nothing
/// the fake does not know.
fn assert_clean(fake: &F, bot: &Bot) {
    assert!(
        fake.late_callbacks().is_empty(),
        "late first responses: {:?}\n{}",
        fake.late_callbacks(),
        bot.log()
    );
    let unexpected = fake.unexpected();
    assert!(unexpected.is_empty(), "unexpected calls: {unexpected:?}");
}

/// `/hexmeros <group> <name> …`: a subcommand of a subcommand group (`vote yes`).
fn group(group: &str, name: &str, options: Value) -> Value {
    json!([{ "type": 2, "name": group, "options": sub(name, options) }])
}

/// A slash command by `user` in `channel`, acknowledged in time: its reply.
async fn slash(fake: &F, user: u64, channel: u64, name: &str, options: Value) -> Sent {
    let i = fake.slash(user, channel, name, options).await;
    acked(fake, &i).await;
    followup(fake, &i).await
}

/// Stage and pass `mv` in one command; returns the posted board.
async fn play(fake: &F, user: u64, thread: u64, mv: &str) -> Sent {
    let before = fake.messages(thread).len();
    let r = hx(
        fake,
        user,
        thread,
        "move",
        json!([str_opt("from", mv), bool_opt("pass", true)]),
    )
    .await;
    assert!(!content(&r).starts_with("⚠️"), "{mv}: {r:?}");
    wait_message(fake, thread, before, &format!("played {mv}")).await
}

/// Vote yes on the ballot message `ballot` by pressing its Yes button.
async fn vote_yes(fake: &F, user: u64, thread: u64, ballot: &Sent) {
    let yes = id_with(ballot.json.as_ref().unwrap(), "vote");
    assert!(yes.ends_with("-y"), "{yes}");
    let r = click(fake, user, thread, message_id(ballot), &yes).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
}

/// Assert a message pings exactly `user`, at its start.
fn assert_pings(m: &Sent, user: u64) {
    assert!(content(m).starts_with(&format!("<@{user}>")), "{m:?}");
    let mentions = &m.json.as_ref().unwrap()["allowed_mentions"]["users"];
    assert_eq!(mentions, &json!([user.to_string()]), "{m:?}");
}

fn heximeros(st: &GameState) -> HexiMeros {
    match st.rules() {
        AnyGame::HexiMeros(g) => g,
        other => panic!("not HexiMeros: {}", other.show()),
    }
}

/// The values of an autocomplete answer.
fn choices(s: &Sent) -> Vec<String> {
    assert_eq!(s.json.as_ref().unwrap()["type"], 8, "{s:?}");
    s.json.as_ref().unwrap()["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_opens_a_thread_posts_the_board_and_pings_silver() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    // Commands were registered in the dev guild, within Discord's limits.
    fake.wait_request(T, |s| {
        s.method == "PUT" && s.path.ends_with("/commands") && s.status == 200
    })
    .await
    .unwrap();
    assert!(fake.requests().iter().any(|s| {
        s.method == "PUT"
            && s.path
                .contains(&format!("/guilds/{}/commands", F::GUILD_ID))
    }));
    let names: Vec<String> = fake
        .commands()
        .iter()
        .filter_map(|c| c["name"].as_str().map(str::to_string))
        .collect();
    assert_eq!(names, ["hexmeros", "score"]);

    let (game, _) = start(&fake, &six(), None).await;
    // The board pings Silver in its own message, at its start.
    let board = wait_message(&fake, game.thread, 0, "you have the Token").await;
    assert_board(&board);
    assert_pings(&board, u(1));
    // The turn message carries the buttons; the pinned status panel carries its own three,
    // and its post pinged all six players.
    let (_, body) = turn_message(&fake, game.thread);
    assert!(custom_ids(&body).iter().all(|id| id.len() <= 100));
    let panel = fake.wait_request(T, |s| s.method == "PUT" && s.path.contains("/pins/"));
    let panel: u64 = panel
        .await
        .unwrap()
        .path
        .rsplit('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let posted = fake
        .messages(game.thread)
        .into_iter()
        .find(|m| message_id(m) == panel)
        .unwrap();
    let mut told: Vec<String> = six().iter().map(u64::to_string).collect();
    told.sort();
    let mut pinged: Vec<String> = posted.json.as_ref().unwrap()["allowed_mentions"]["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    pinged.sort();
    assert_eq!(pinged, told, "every seated player is told they were seated");
    let controls: Vec<String> = custom_ids(posted.json.as_ref().unwrap())
        .iter()
        .map(|id| id.split(':').nth(1).unwrap().to_string())
        .collect();
    assert_eq!(controls, ["ppass", "pback", "board"]);
    let st = bot.state(game.id).await;
    assert_eq!(st.seats()[0].player, u(1) as i64);
    assert_eq!(st.holder_player(), Some(u(1) as i64));
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_by_buttons_and_by_command_pass_the_token() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &six(), None).await;
    wait_message(&fake, game.thread, 0, "you have the Token").await;
    let (turn, body) = turn_message(&fake, game.thread);

    // Silver by buttons: Move… → piece → target (staged, private preview) → Pass Token. The
    // picker is one private message: the Move… answer is edited, then updated in place.
    let edited = |i: Interaction| {
        let fake = fake.clone();
        async move {
            fake.wait_responses(&i, T, 1, |s| {
                s.method == "PATCH" && s.path.ends_with("/messages/@original")
            })
            .await
            .unwrap()
            .remove(0)
        }
    };
    let i = fake
        .button(u(1), game.thread, turn, &id_with(&body, "pick"))
        .await;
    acked(&fake, &i).await;
    let picker = edited(i).await;
    let stored = fake.message(message_id(&picker)).unwrap();
    assert_eq!(stored["flags"].as_u64().unwrap_or(0) & 64, 64, "private");
    let pj = picker.json.clone().unwrap();
    let first = legal(GameKind::HexiMeros, &[]);
    let mv = first[0].clone();
    let from = mv.split(['-', 'x']).next().unwrap().to_string();
    // Issue 45: a piece and a target are one tap each (buttons).
    let tap = |body: &Value, action: &str, label: &dyn Fn(&str) -> bool| -> String {
        body["components"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|row| row["components"].as_array().unwrap().iter())
            .find(|c| {
                c["custom_id"].as_str().unwrap().split(':').nth(1) == Some(action)
                    && label(c["label"].as_str().unwrap())
            })
            .map(|c| c["custom_id"].as_str().unwrap().to_string())
            .unwrap_or_else(|| panic!("no {action} button in {body}"))
    };
    let piece = tap(&pj, "piece", &|l| l.ends_with(&format!(" {from}")));
    let i = fake
        .button(u(1), game.thread, message_id(&picker), &piece)
        .await;
    acked(&fake, &i).await;
    let dests = edited(i).await;
    assert_eq!(message_id(&dests), message_id(&picker), "updated in place");
    let dj = dests.json.clone().unwrap();
    let labels: Vec<String> = dj["components"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row["components"].as_array().unwrap().iter())
        .filter(|c| c["custom_id"].as_str().unwrap().split(':').nth(1) == Some("tap"))
        .map(|c| c["label"].as_str().unwrap().to_string())
        .collect();
    let mut expected: Vec<String> = first
        .iter()
        .filter(|m| m.starts_with(&format!("{from}-")) || m.starts_with(&format!("{from}x")))
        .map(|m| m.rsplit(['-', 'x']).next().unwrap().to_string())
        .collect();
    expected.sort();
    let mut cells: Vec<String> = labels
        .iter()
        .map(|l| l.split(" · ").nth(1).unwrap().to_string())
        .collect();
    cells.sort();
    assert_eq!(cells, expected);
    let to = mv.rsplit(['-', 'x']).next().unwrap().to_string();
    let target = tap(&dj, "tap", &|l| l.ends_with(&format!(" · {to}")));
    let i = fake
        .button(u(1), game.thread, message_id(&dests), &target)
        .await;
    acked(&fake, &i).await;
    let staged = edited(i).await;
    assert!(
        content(&staged).contains(&format!("staged **{mv}**")),
        "{staged:?}"
    );
    let sj = staged.json.clone().unwrap();
    let before = fake.messages(game.thread).len();
    // Issue 45: the staged move's message ends clean: what was committed, no controls.
    let done = click_answer(
        &fake,
        u(1),
        game.thread,
        message_id(&staged),
        &id_with(&sj, "pass"),
    )
    .await;
    assert!(is_edit(&done), "{done:?}");
    assert!(
        content(&done).starts_with(&format!("✅ committed **{mv}**")),
        "{done:?}"
    );
    assert!(
        custom_ids(done.json.as_ref().unwrap()).is_empty(),
        "{done:?}"
    );
    let board = wait_message(&fake, game.thread, before, &format!("played {mv}")).await;
    assert_board(&board);
    let ping = wait_message(&fake, game.thread, before, "you have the Token").await;
    assert!(
        content(&ping).starts_with(&format!("<@{}>", u(2))),
        "{ping:?}"
    );

    // Seat two by command, in one step (stage and pass).
    let second = legal(GameKind::HexiMeros, &[&mv]);
    let mv2 = second[0].clone();
    let before = fake.messages(game.thread).len();
    let i = fake
        .slash(
            u(2),
            game.thread,
            "hexmeros",
            sub("move", json!([str_opt("from", &mv2)])),
        )
        .await;
    acked(&fake, &i).await;
    let staged = followup(&fake, &i).await;
    assert!(
        content(&staged).contains(&format!("staged **{mv2}**")),
        "{staged:?}"
    );
    let i = fake
        .slash(u(2), game.thread, "hexmeros", sub("pass", json!([])))
        .await;
    acked(&fake, &i).await;
    followup(&fake, &i).await;
    wait_message(&fake, game.thread, before, &format!("played {mv2}")).await;
    let ping = wait_message(&fake, game.thread, before, "you have the Token").await;
    assert!(
        content(&ping).starts_with(&format!("<@{}>", u(3))),
        "{ping:?}"
    );
    let st = bot.state(game.id).await;
    assert_eq!(st.record().len(), 2);
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_of_turn_strangers_and_stale_buttons_get_private_errors() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &six(), None).await;
    wait_message(&fake, game.thread, 0, "you have the Token").await;
    let (turn, body) = turn_message(&fake, game.thread);
    let version = bot.state(game.id).await.version();

    // A move out of turn.
    let mv = legal(GameKind::HexiMeros, &[])[0].clone();
    let i = fake
        .slash(
            u(2),
            game.thread,
            "hexmeros",
            sub("move", json!([str_opt("from", &mv)])),
        )
        .await;
    acked(&fake, &i).await;
    let r = followup(&fake, &i).await;
    assert!(content(&r).contains("not your turn"), "{r:?}");
    assert!(is_private(&r));

    // A stranger's button.
    let i = fake
        .button(u(7), game.thread, turn, &id_with(&body, "pick"))
        .await;
    acked(&fake, &i).await;
    let r = followup(&fake, &i).await;
    assert!(content(&r).contains("not playing"), "{r:?}");
    assert!(is_private(&r));

    // Controls this bot never makes: an unknown action, a stray argument.
    for foreign in [
        format!("{}:fly:{version}", game.id),
        format!("{}:pick:{version}:x", game.id),
    ] {
        let i = fake.button(u(1), game.thread, turn, &foreign).await;
        acked(&fake, &i).await;
        let r = followup(&fake, &i).await;
        assert!(content(&r).contains("not one of mine"), "{r:?}");
        assert!(is_private(&r));
    }

    // An illegal and a malformed move, by the Token holder.
    for bad in ["Q4-Q40", "zz9"] {
        let i = fake
            .slash(
                u(1),
                game.thread,
                "hexmeros",
                sub("move", json!([str_opt("from", bad)])),
            )
            .await;
        acked(&fake, &i).await;
        let r = followup(&fake, &i).await;
        assert!(content(&r).starts_with("⚠️"), "{r:?}");
        assert!(is_private(&r));
    }
    assert_eq!(
        bot.state(game.id).await.version(),
        version,
        "nothing changed"
    );

    // Pass by command, then the old turn message's buttons are stale.
    let i = fake
        .slash(
            u(1),
            game.thread,
            "hexmeros",
            sub(
                "move",
                json!([
                    str_opt("from", &mv),
                    json!({"type": 5, "name": "pass", "value": true})
                ]),
            ),
        )
        .await;
    acked(&fake, &i).await;
    followup(&fake, &i).await;
    wait_message(&fake, game.thread, 0, &format!("played {mv}")).await;
    let version = bot.state(game.id).await.version();
    // Issue 45: the old turn message's Move… opens the current turn, for its Token holder
    // (Blue) alone: Silver, who moved, is told it is not his turn.
    let i = fake
        .button(u(1), game.thread, turn, &id_with(&body, "pick"))
        .await;
    acked(&fake, &i).await;
    let r = followup(&fake, &i).await;
    assert!(content(&r).contains("not your turn"), "{r:?}");
    assert!(is_private(&r));
    // A double click: the same old button twice opens the picker twice, and changes nothing.
    for _ in 0..2 {
        let i = fake
            .button(u(2), game.thread, turn, &id_with(&body, "pick"))
            .await;
        acked(&fake, &i).await;
        // The picker's first step: the Token holder's pieces, privately.
        let r = fake
            .wait_responses(&i, T, 1, |s| content(s).contains("pick a piece"))
            .await;
        assert!(r.is_ok(), "{r:?}");
    }
    assert_eq!(bot.state(game.id).await.version(), version);
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_lists_only_the_callers_legal_origins_and_destinations() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &six(), None).await;
    wait_message(&fake, game.thread, 0, "you have the Token").await;
    let moves = legal(GameKind::HexiMeros, &[]);
    let focused =
        |name: &str, v: &str| json!({"type": 3, "name": name, "value": v, "focused": true});

    // Origins: only cells Silver can move from, at most 25.
    let i = fake
        .autocomplete(
            u(1),
            game.thread,
            "hexmeros",
            sub("move", json!([focused("from", "")])),
        )
        .await;
    let got = choices(&fake.first_response(&i, T).await.unwrap());
    let mut origins: Vec<String> = moves
        .iter()
        .map(|m| m.split(['-', 'x']).next().unwrap().to_string())
        .collect();
    origins.sort();
    origins.dedup();
    assert!(!got.is_empty() && got.len() <= 25);
    assert_eq!(got, origins.iter().take(25).cloned().collect::<Vec<_>>());

    // Destinations of one origin: exactly its legal moves.
    let from = origins[0].clone();
    let i = fake
        .autocomplete(
            u(1),
            game.thread,
            "hexmeros",
            sub("move", json!([str_opt("from", &from), focused("to", "")])),
        )
        .await;
    let got = choices(&fake.first_response(&i, T).await.unwrap());
    let want: Vec<String> = moves
        .iter()
        .filter(|m| m.split(['-', 'x']).next() == Some(from.as_str()))
        .take(25)
        .cloned()
        .collect();
    assert_eq!(got, want);

    // Someone whose turn it is not gets nothing to choose.
    let i = fake
        .autocomplete(
            u(2),
            game.thread,
            "hexmeros",
            sub("move", json!([focused("from", "")])),
        )
        .await;
    assert!(choices(&fake.first_response(&i, T).await.unwrap()).is_empty());
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_button_from_before_a_restart_still_works() {
    let fake = F::start().await;
    let mut bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &six(), None).await;
    wait_message(&fake, game.thread, 0, "you have the Token").await;
    let (turn, body) = turn_message(&fake, game.thread);
    bot.restart(&fake).await;

    let i = fake
        .button(u(1), game.thread, turn, &id_with(&body, "pick"))
        .await;
    acked(&fake, &i).await;
    let picker = fake
        .wait_responses(&i, T, 1, |s| {
            s.method == "PATCH" && s.path.ends_with("/messages/@original")
        })
        .await
        .unwrap()
        .remove(0);
    assert!(content(&picker).contains("pick a piece"), "{picker:?}");
    // And a reaction on that message passes the Token once a move is staged.
    let mv = legal(GameKind::HexiMeros, &[])[0].clone();
    let i = fake
        .slash(
            u(1),
            game.thread,
            "hexmeros",
            sub("move", json!([str_opt("from", &mv)])),
        )
        .await;
    acked(&fake, &i).await;
    followup(&fake, &i).await;
    let before = fake.messages(game.thread).len();
    fake.react(u(1), game.thread, turn, "✅").await;
    wait_message(&fake, game.thread, before, &format!("played {mv}")).await;
    assert_eq!(bot.state(game.id).await.record().len(), 1);
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_failures_are_retried_and_nothing_is_lost() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, mv, path) = first_turn(&fake).await;
    // The board post fails with 500 twice, then is rate limited once.
    fake.fail_next("POST", &path, 500, None, 2);
    fake.fail_next("POST", &path, 429, Some(0.5), 1);
    let before = fake.messages(game.thread).len();
    let i = fake
        .slash(
            u(1),
            game.thread,
            "hexmeros",
            sub(
                "move",
                json!([
                    str_opt("from", &mv),
                    json!({"type": 5, "name": "pass", "value": true})
                ]),
            ),
        )
        .await;
    acked(&fake, &i).await;
    followup(&fake, &i).await;
    wait_message(&fake, game.thread, before, &format!("played {mv}")).await;
    wait_message(&fake, game.thread, before, "you have the Token").await;
    let failed: Vec<u16> = fake
        .requests()
        .iter()
        .filter(|s| s.path == path && s.status != 200)
        .map(|s| s.status)
        .collect();
    assert_eq!(failed, [500, 500, 429]);

    // A closed DM: tried once, remembered, not tried again.
    let i = fake
        .slash(
            u(2),
            game.thread,
            "hexmeros",
            sub(
                "notify",
                json!([json!({"type": 5, "name": "dm", "value": true})]),
            ),
        )
        .await;
    acked(&fake, &i).await;
    followup(&fake, &i).await;
    fake.close_dms(u(2));
    // Gold holds the Token: 4 and 12 hours later the reminders go by DM too.
    bot.set_clock(START_MS + 4 * 3_600_000 + 60_000);
    wait_message(&fake, game.thread, before, "remind").await;
    fake.wait_request(T, |s| s.method == "POST" && s.status == 403)
        .await
        .unwrap();
    bot.set_clock(START_MS + 12 * 3_600_000 + 60_000);
    tokio::time::sleep(Duration::from_millis(600)).await;
    let dm_tries = fake
        .requests()
        .iter()
        .filter(|s| s.method == "POST" && s.status == 403)
        .count();
    assert_eq!(dm_tries, 1, "{}", bot.log());
    assert_eq!(bot.state(game.id).await.record().len(), 1);
    assert_clean(&fake, &bot);
}

/// A 429's `retry_after` is honoured (issue 47): the board post is refused twice, saying to wait
/// 1.5 s and then 2.75 s, and each next attempt comes no sooner than it was told (the fake's
/// `Retry-After` header rounds up to whole seconds, as Discord's does, and says 2 and 3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429s_retry_after_is_waited_out_before_the_next_attempt() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, mv, path) = first_turn(&fake).await;
    fake.fail_next("POST", &path, 429, Some(1.5), 1);
    fake.fail_next("POST", &path, 429, Some(2.75), 1);
    play(&fake, u(1), game.thread, &mv).await;
    let tries: Vec<(u16, std::time::Instant)> = fake
        .requests()
        .iter()
        .filter(|s| s.method == "POST" && s.path == path)
        .skip_while(|s| s.status != 429)
        .map(|s| (s.status, s.at))
        .collect();
    assert_eq!(
        tries.iter().map(|t| t.0).take(3).collect::<Vec<_>>(),
        [429, 429, 200],
        "{}",
        bot.log()
    );
    let waited = |n: usize| tries[n + 1].1.duration_since(tries[n].1);
    assert!(waited(0) >= Duration::from_secs(2), "{:?}", waited(0));
    assert!(waited(1) >= Duration::from_secs(3), "{:?}", waited(1));
    assert_eq!(bot.state(game.id).await.record().len(), 1);
    assert_clean(&fake, &bot);
}

/// Discord made the message but its answer was lost (a 500 after the fact): the bot's retry
/// carries the same enforced nonce, so the thread gets the board and the ping once, not twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_after_a_lost_answer_does_not_post_twice() {
    use std::collections::HashSet;
    use std::time::Instant;
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &[u(1), u(2)], Some(1)).await;
    wait_message(&fake, game.thread, 0, "you have the Token").await;
    let path = format!("/channels/{}/messages", game.thread);
    fake.fail_next_after_doing("POST", &path, 500, 2);
    let mv = legal(GameKind::HexDame, &[])[0].clone();
    play(&fake, u(1), game.thread, &mv).await;
    wait_message(&fake, game.thread, 0, &format!("played {mv}")).await;
    // Both failed answers are followed by a retry with the same nonce that finds the message
    // already made (waited for: the retries come after a pause).
    let retried = |posts: &[Sent], f: &Sent| {
        let nonce = &f.json.as_ref().unwrap()["nonce"];
        posts
            .iter()
            .any(|s| s.status == 200 && s.at > f.at && s.json.as_ref().unwrap()["nonce"] == *nonce)
    };
    let deadline = Instant::now() + T;
    let posts = loop {
        let posts: Vec<Sent> = fake
            .requests()
            .into_iter()
            .filter(|s| s.method == "POST" && s.path == path)
            .collect();
        let failed: Vec<&Sent> = posts.iter().filter(|s| s.status == 500).collect();
        if failed.len() == 2 && failed.iter().all(|f| retried(&posts, f)) {
            break posts;
        }
        assert!(
            Instant::now() < deadline,
            "no retries after the lost answers: {posts:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    for f in posts.iter().filter(|s| s.status == 500) {
        let body = f.json.as_ref().unwrap();
        assert!(body["nonce"].is_string(), "{f:?}");
        assert_eq!(body["enforce_nonce"], json!(true));
    }
    // Every message of the thread exists once: no two posts made different messages with the
    // same nonce, and the next player is pinged in exactly one message.
    let mut made: Vec<(String, u64)> = posts
        .iter()
        .filter_map(|s| {
            let nonce = s.json.as_ref()?["nonce"].as_str()?.to_string();
            let id = s.response["id"].as_str()?.parse().ok()?;
            Some((nonce, id))
        })
        .collect();
    made.sort();
    made.dedup();
    let nonces: HashSet<&String> = made.iter().map(|(n, _)| n).collect();
    assert_eq!(
        nonces.len(),
        made.len(),
        "one nonce made two messages: {made:?}"
    );
    let ids: HashSet<u64> = made.iter().map(|(_, id)| *id).collect();
    let pings = ids
        .iter()
        .filter_map(|id| fake.message(*id))
        .filter(|m| {
            let c = m["content"].as_str().unwrap_or("");
            c.contains("you have the Token") && c.contains(&format!("<@{}>", u(2)))
        })
        .count();
    assert_eq!(pings, 1, "{}", bot.log());
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hexdame_to_the_end_posts_the_replay_and_updates_the_scores() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let players = [u(1), u(2)];
    let (game, _) = start(&fake, &players, Some(1)).await;
    wait_message(&fake, game.thread, 0, "you have the Token").await;
    let mut played: Vec<String> = Vec::new();
    for turn in 0..4 {
        let refs: Vec<&str> = played.iter().map(String::as_str).collect();
        let mv = legal(GameKind::HexDame, &refs)[0].clone();
        let board = play(&fake, players[turn % 2], game.thread, &mv).await;
        assert_board(&board);
        played.push(mv);
    }
    // The player to move concedes: the game is over, its replay is posted.
    let i = fake
        .slash(u(1), game.thread, "hexmeros", sub("concede", json!([])))
        .await;
    acked(&fake, &i).await;
    followup(&fake, &i).await;
    wait_message(&fake, game.thread, 0, "game over").await;
    let gif = wait_message(&fake, game.thread, 0, "the replay").await;
    let (_, bytes) = gif.files.iter().find(|(n, _)| n.ends_with(".gif")).unwrap();
    assert!(bytes.starts_with(b"GIF8"));
    let st = bot.state(game.id).await;
    assert_eq!(st.status(), hexmeros::host::Status::Finished);

    // /score shows both players in the HexDame ratings.
    let i = fake
        .slash(
            u(3),
            F::CHANNEL_ID,
            "score",
            json!([json!({"type": 4, "name": "game", "value": 1})]),
        )
        .await;
    acked(&fake, &i).await;
    let r = followup(&fake, &i).await;
    let text = content(&r);
    assert!(text.contains("Ratings"), "{text}");
    assert!(
        text.contains("Player 1") && text.contains("Player 2"),
        "{text}"
    );
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_answers_a_move() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let i = fake
        .slash(
            u(1),
            F::CHANNEL_ID,
            "hexmeros",
            sub(
                "start",
                json!([
                    user_opt("p1", u(1)),
                    json!({"type": 4, "name": "game", "value": 1}),
                    json!({"type": 4, "name": "bots", "value": 1}),
                    json!({"type": 4, "name": "level", "value": 0})
                ]),
            ),
        )
        .await;
    acked(&fake, &i).await;
    followup(&fake, &i).await;
    let thread = fake.threads()[0].0;
    wait_message(&fake, thread, 0, "you have the Token").await;
    let mv = legal(GameKind::HexDame, &[])[0].clone();
    // Counted before the move: the bot may answer before `play` returns.
    let after = fake.messages(thread).len();
    play(&fake, u(1), thread, &mv).await;
    // The bot's move, then the person is pinged again.
    let ping = wait_message(&fake, thread, after, "you have the Token").await;
    assert!(
        content(&ping).starts_with(&format!("<@{}>", u(1))),
        "{ping:?}"
    );
    let game: i64 = 1;
    assert_eq!(bot.state(game).await.record().len(), 2);
    assert_clean(&fake, &bot);
}

/// The line of the bot's log that has every one of `parts`, waited for.
async fn wait_log_line(bot: &Bot, parts: &[&str]) -> String {
    let deadline = tokio::time::Instant::now() + T;
    loop {
        let log = bot.log();
        if let Some(line) = log.lines().find(|l| parts.iter().all(|p| l.contains(p))) {
            return line.to_string();
        }
        if tokio::time::Instant::now() > deadline {
            panic!("no log line with {parts:?} in:\n{log}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The milliseconds a log line reports (`ms=<n>`).
fn log_ms(line: &str) -> u64 {
    line.split(" ms=")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no milliseconds in {line:?}"))
}

/// `RUST_LOG=debug`: every command and button logs one line when it finishes, with its game,
/// user, action, outcome and milliseconds (ok at debug, refused at info); an internal error (here
/// a reply Discord rejects) is shown as an apology with a reference, and logged under it with its
/// cause, which the player does not see.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_and_buttons_are_logged_with_their_outcome_and_latency() {
    let fake = F::start().await;
    let bot = Bot::start_logging(&fake, Some("debug")).await;
    let (game, _) = start(&fake, &six(), None).await;
    wait_message(&fake, game.thread, 0, "you have the Token").await;
    let g = format!(" game={} ", game.id);
    let user = |n: u64| format!(" user={} ", u(n));
    // The start opened a lobby: its line names no game.
    let line = wait_log_line(
        &bot,
        &[
            "DEBUG",
            " command ",
            &user(1),
            r#"action="hexmeros start""#,
            "outcome=ok",
        ],
    )
    .await;
    assert!(log_ms(&line) < T.as_millis() as u64, "{line}");

    // A move out of turn: refused, at info.
    let mv = legal(GameKind::HexiMeros, &[])[0].clone();
    let r = hx(
        &fake,
        u(2),
        game.thread,
        "move",
        json!([str_opt("from", &mv)]),
    )
    .await;
    assert_refused(&r, "not your turn");
    let action = r#"action="hexmeros move""#;
    let line = wait_log_line(&bot, &["INFO", &g, &user(2), action, "outcome=refused"]).await;
    log_ms(&line);

    // Buttons: a stranger's is refused, the holder's "My side" is fine.
    let (turn, body) = turn_message(&fake, game.thread);
    let r = click(&fake, u(7), game.thread, turn, &id_with(&body, "pick")).await;
    assert_refused(&r, "not playing");
    let parts = [
        " component ",
        &g,
        &user(7),
        r#"action="pick""#,
        "outcome=refused",
    ];
    log_ms(&wait_log_line(&bot, &parts).await);
    click(&fake, u(1), game.thread, turn, &id_with(&body, "board")).await;
    let parts = [
        " component ",
        &g,
        &user(1),
        r#"action="board""#,
        "outcome=ok",
    ];
    log_ms(&wait_log_line(&bot, &parts).await);

    // Discord refuses the reply to /hexmeros games: the player gets the apology instead.
    fake.fail_next("POST", "/webhooks/", 403, None, 1);
    let i = fake
        .slash(u(3), game.thread, "hexmeros", sub("games", json!([])))
        .await;
    acked(&fake, &i).await;
    let ok = |s: &Sent| s.method == "POST" && s.path.starts_with("/webhooks/") && s.status == 200;
    let r = fake.wait_responses(&i, T, 1, ok).await.unwrap().remove(0);
    let text = content(&r);
    assert!(is_private(&r), "{r:?}");
    assert!(text.starts_with("⚠️ Sorry, something went wrong"), "{text}");
    assert!(!text.contains("Missing Permissions"), "{text}");
    let reference = text
        .split("(ref ")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .unwrap();
    let parts = ["ERROR", "internal error", reference, "Missing Permissions"];
    wait_log_line(&bot, &parts).await;
    let action = r#"action="hexmeros games""#;
    let line = wait_log_line(
        &bot,
        &["ERROR", " command ", &user(3), action, "outcome=error"],
    )
    .await;
    log_ms(&line);
    assert_clean(&fake, &bot);
}

/// Too many bots for the game's seats: a clear refusal, no game, no thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_with_more_bots_than_seats_is_refused() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let i = fake
        .slash(
            u(1),
            F::CHANNEL_ID,
            "hexmeros",
            sub(
                "start",
                json!([
                    user_opt("p1", u(1)),
                    json!({"type": 4, "name": "game", "value": 1}),
                    json!({"type": 4, "name": "bots", "value": 2}),
                ]),
            ),
        )
        .await;
    acked(&fake, &i).await;
    let r = followup(&fake, &i).await;
    assert_refused(&r, "HexDame is played by 2 players, not 3");
    assert!(fake.threads().is_empty(), "{:?}", fake.threads());
    let store = hexmeros::store::Store::open(&bot.db_url()).await.unwrap();
    assert!(store.game(1).await.unwrap().is_none());
    store.close().await;
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_declared_by_the_mover_and_upon_the_mover() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;

    // 1. Blue declares Check on Silver with his move, through the staged move's buttons.
    let (a, b) =
        heximeros_pair(|g, b| g.check_targets(b) == [Seat(0)] && g.challengers(b).is_empty());
    let (game, _) = start(&fake, &six(), None).await;
    wait_message(&fake, game.thread, 0, "you have the Token").await;
    play(&fake, u(1), game.thread, &a).await;
    let staged = hx(
        &fake,
        u(2),
        game.thread,
        "move",
        json!([str_opt("from", &b)]),
    )
    .await;
    assert!(
        content(&staged).contains(&format!("staged **{b}**")),
        "{staged:?}"
    );
    // A colour the move does not attack cannot be named; nothing changes.
    let version = bot.state(game.id).await.version();
    let r = hx(
        &fake,
        u(2),
        game.thread,
        "check",
        json!([str_opt("colour", "yellow")]),
    )
    .await;
    assert_refused(&r, "does not newly attack their Sovereign");
    assert_eq!(bot.state(game.id).await.version(), version);
    let checks = click(
        &fake,
        u(2),
        game.thread,
        message_id(&staged),
        &id_with(staged.json.as_ref().unwrap(), "checks"),
    )
    .await;
    let cj = checks.json.clone().unwrap();
    let offered: Vec<String> = custom_ids(&cj);
    assert_eq!(offered.len(), 1, "only Silver is attacked: {cj}");
    assert!(
        offered[0].ends_with(":check:0") || offered[0].contains(":check:"),
        "{cj}"
    );
    let with_check = click(&fake, u(2), game.thread, message_id(&checks), &offered[0]).await;
    let declared = format!("{b}+silver");
    assert!(
        content(&with_check).contains(&format!("staged **{declared}**")),
        "{with_check:?}"
    );
    let before = fake.messages(game.thread).len();
    click_answer(
        &fake,
        u(2),
        game.thread,
        message_id(&with_check),
        &id_with(with_check.json.as_ref().unwrap(), "pass"),
    )
    .await;
    // The declaration is shown with the move, and recorded.
    let board = wait_message(&fake, game.thread, before, &format!("played {declared}")).await;
    assert_board(&board);
    let st = bot.state(game.id).await;
    assert_eq!(st.record().last().unwrap().line, format!("blue {declared}"));
    // The status panel's last round says so.
    wait_panel(&fake, game.thread, "Blue declared Check on Silver").await;
    let mut g = heximeros(&st).clone();
    assert!(
        g.check_records().iter().any(|r| r.declarer == Seat(1)),
        "{:?}",
        g.check_records()
    );
    // The others move; when the Token comes back to Silver, he is told he is in Check.
    for p in 3..=6 {
        let m = g
            .legal_moves()
            .into_iter()
            .find(|m| g.challengers(m).is_empty())
            .unwrap();
        play(&fake, u(p), game.thread, &g.move_text(&m)).await;
        g = g.after(&m);
    }
    let ping = wait_message(
        &fake,
        game.thread,
        before,
        "you are in Check by Blue: your move must relieve it if any move can",
    )
    .await;
    assert_pings(&ping, u(1));

    // 2. Blue stages a move that leaves his own Sovereign attacked by Silver: Silver is asked
    // (§5.4) and declares Check upon him; the move is rejected and Blue must move otherwise.
    let (a, b) = heximeros_pair(|g, b| g.challengers(b) == [Seat(0)]);
    let (game, _) = start(&fake, &six(), None).await;
    wait_message(&fake, game.thread, 0, "you have the Token").await;
    play(&fake, u(1), game.thread, &a).await;
    let before = fake.messages(game.thread).len();
    let r = hx(
        &fake,
        u(2),
        game.thread,
        "move",
        json!([str_opt("from", &b), bool_opt("pass", true)]),
    )
    .await;
    assert!(content(&r).contains("challenge window"), "{r:?}");
    assert!(is_private(&r));
    wait_message(&fake, game.thread, before, "may declare Check upon Blue").await;
    let ask = wait_message(&fake, game.thread, before, "declare Check upon them").await;
    assert_pings(&ask, u(1));
    // Blue may not pass while the window is open, and only Silver was asked.
    let r = hx(&fake, u(2), game.thread, "pass", json!([])).await;
    assert_refused(&r, "challenge window");
    let aj = ask.json.clone().unwrap();
    let declare = id_with(&aj, "chal");
    assert!(declare.ends_with(":y"), "{declare}");
    let r = click(&fake, u(3), game.thread, message_id(&ask), &declare).await;
    assert_refused(&r, "not asked");
    let r = click(&fake, u(1), game.thread, message_id(&ask), &declare).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    wait_message(
        &fake,
        game.thread,
        before,
        "Silver declares Check upon Blue: the staged move is rejected",
    )
    .await;
    let ping = wait_message(&fake, game.thread, before, "declared Check upon you").await;
    assert_pings(&ping, u(2));
    let st = bot.state(game.id).await;
    assert_eq!(st.declared_upon(), [Seat(0)]);
    assert!(st.staged().is_none());
    // The same move again is refused; a move out of Silver's attack is played.
    let r = hx(
        &fake,
        u(2),
        game.thread,
        "move",
        json!([str_opt("from", &b)]),
    )
    .await;
    assert_refused(&r, "declared Check upon you");
    let g = heximeros(&st);
    let ok = g
        .moves_respecting(&[Seat(0)])
        .into_iter()
        .find(|m| g.challengers(m).is_empty())
        .map(|m| g.move_text(&m))
        .unwrap();
    play(&fake, u(2), game.thread, &ok).await;
    let st = bot.state(game.id).await;
    assert_eq!(st.record().len(), 2);
    assert!(
        st.declared_upon().is_empty(),
        "declarations end with the turn"
    );
    assert_clean(&fake, &bot);
}

/// `/hexmeros resign` by `user`: the private question with its one button, then the click on
/// it: the answer to the click.
async fn resign(fake: &F, user: u64, channel: u64, options: Value) -> Sent {
    let q = hx(fake, user, channel, "resign", options).await;
    assert!(is_private(&q), "{q:?}");
    assert!(content(&q).contains("This cannot be undone"), "{q:?}");
    let id = id_with(q.json.as_ref().unwrap(), "resign");
    click(fake, user, channel, message_id(&q), &id).await
}

/// Issue 45: resigning asks first. The question changes nothing; its button holds only while
/// the game stands as it was (a move in between ends it); only a seated player is asked; a
/// stranger's click on the button is refused; the confirmation resigns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_asks_to_confirm_and_the_question_expires_when_the_game_moves_on() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &six(), None).await;
    let t = game.thread;
    wait_message(&fake, t, 0, "you have the Token").await;
    let version = bot.state(game.id).await.version();

    let q = hx(&fake, u(3), t, "resign", json!([])).await;
    assert!(is_private(&q), "{q:?}");
    assert!(
        content(&q).starts_with("Resign Yellow in HexiMeros"),
        "{q:?}"
    );
    assert_eq!(custom_ids(q.json.as_ref().unwrap()).len(), 1, "{q:?}");
    assert_eq!(
        bot.state(game.id).await.version(),
        version,
        "asking changes nothing"
    );
    // Someone not seated is not asked.
    let r = hx(&fake, u(9), t, "resign", json!([])).await;
    assert!(content(&r).starts_with("⚠️"), "{r:?}");
    assert!(custom_ids(r.json.as_ref().unwrap()).is_empty(), "{r:?}");

    // Silver moves: the question has expired, and nothing changes.
    let mv = legal(GameKind::HexiMeros, &[])[0].clone();
    play(&fake, u(1), t, &mv).await;
    let moved = bot.state(game.id).await.version();
    let id = id_with(q.json.as_ref().unwrap(), "resign");
    let r = click(&fake, u(3), t, message_id(&q), &id).await;
    assert_refused(&r, "this confirmation has expired");
    assert_eq!(bot.state(game.id).await.version(), moved);
    assert!(bot.state(game.id).await.active().contains(&Seat(2)));

    // Asked again: a stranger replaying the button is refused; Yellow's click resigns.
    let q = hx(&fake, u(3), t, "resign", json!([])).await;
    let id = id_with(q.json.as_ref().unwrap(), "resign");
    let r = click(&fake, u(9), t, message_id(&q), &id).await;
    assert!(content(&r).starts_with("⚠️"), "{r:?}");
    assert_eq!(bot.state(game.id).await.version(), moved);
    let before = fake.messages(t).len();
    let r = click(&fake, u(3), t, message_id(&q), &id).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    wait_message(&fake, t, before, "Yellow resigned").await;
    assert!(!bot.state(game.id).await.active().contains(&Seat(2)));
    // The same button again: expired, nothing more happens.
    let r = click(&fake, u(3), t, message_id(&q), &id).await;
    assert!(content(&r).starts_with("⚠️"), "{r:?}");
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resignation_with_a_replacement_expulsion_and_concession_of_the_last_two() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &six(), None).await;
    let t = game.thread;
    wait_message(&fake, t, 0, "you have the Token").await;

    // Yellow (player 3) resigns and names player 7; three of the five others elect him.
    let before = fake.messages(t).len();
    let r = resign(&fake, u(3), t, json!([user_opt("replacement", u(7))])).await;
    assert!(is_private(&r) && !content(&r).starts_with("⚠️"), "{r:?}");
    let ballot = wait_message(&fake, t, before, "ballot on motion").await;
    assert!(
        content(&ballot).contains(&format!("<@{}> takes over Yellow", u(7))),
        "{ballot:?}"
    );
    // One message (issue 45): the motion, its buttons and the voters' pings. The newcomer is
    // named, not pinged (he is told if he is elected), nor is the resigner, who has no vote.
    let pinged = &ballot.json.as_ref().unwrap()["allowed_mentions"];
    let voters: Vec<String> = [1, 2, 4, 5, 6].iter().map(|&n| u(n).to_string()).collect();
    assert_eq!(pinged["users"], json!(voters), "{pinged}");
    assert!(content(&ballot).contains("your vote, please"), "{ballot:?}");
    let after: Vec<String> = fake.messages(t)[before..].iter().map(content).collect();
    assert!(
        after.iter().all(|c| !c.contains("please vote")),
        "no separate pings: {after:?}"
    );
    // The resigner has no vote on his own replacement.
    let r = click(
        &fake,
        u(3),
        t,
        message_id(&ballot),
        &id_with(ballot.json.as_ref().unwrap(), "vote"),
    )
    .await;
    assert_refused(&r, "may not vote");
    for p in [1, 2, 4] {
        vote_yes(&fake, u(p), t, &ballot).await;
    }
    let passed = wait_message(&fake, t, before, "passed").await;
    // The host's words name the newcomer by id; the thread shows a mention that pings nobody.
    assert!(
        content(&passed).contains(&format!("<@{}>", u(7)))
            && !content(&passed).contains(&format!("player {}", u(7))),
        "{passed:?}"
    );
    assert_eq!(
        passed.json.as_ref().unwrap()["allowed_mentions"]["users"],
        json!([])
    );
    let welcome = wait_message(&fake, t, before, "you now play Yellow").await;
    assert_pings(&welcome, u(7));
    let st = bot.state(game.id).await;
    assert_eq!(st.seats()[2].player, u(7) as i64);
    assert_eq!(st.seat_of(u(3) as i64), None);
    assert!(
        st.points()
            .iter()
            .any(|p| p.player == u(3) as i64 && p.points == -50),
        "{:?}",
        st.points()
    );

    // Silver proposes to expel Red (player 6): unanimous, the newcomer voting too.
    let before = fake.messages(t).len();
    let r = slash(
        &fake,
        u(1),
        t,
        "hexmeros",
        group("vote", "expel", json!([user_opt("player", u(6))])),
    )
    .await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    let ballot = wait_message(&fake, t, before, "ballot on motion").await;
    assert!(content(&ballot).contains("expel Red"), "{ballot:?}");
    for p in [2, 7] {
        vote_yes(&fake, u(p), t, &ballot).await;
    }
    for p in [4, 5] {
        // Four yes of five are not enough: expulsion is unanimous.
        assert!(bot.state(game.id).await.active().contains(&Seat(5)));
        let r = slash(&fake, u(p), t, "hexmeros", group("vote", "yes", json!([]))).await;
        assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    }
    wait_message(&fake, t, before, "Red was expelled").await;
    let st = bot.state(game.id).await;
    assert!(!st.active().contains(&Seat(5)));
    assert!(
        st.points()
            .iter()
            .any(|p| p.player == u(6) as i64 && p.points == -500 && p.loss),
        "{:?}",
        st.points()
    );

    // Orange and Green resign without a replacement; a concession needs the last two.
    for p in [4, 5] {
        let r = resign(&fake, u(p), t, json!([])).await;
        assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    }
    wait_message(&fake, t, before, "Green resigned").await;
    let r = hx(&fake, u(2), t, "concede", json!([])).await;
    assert_refused(&r, "exactly two");
    resign(&fake, u(7), t, json!([])).await;
    wait_message(&fake, t, before, "Yellow resigned").await;
    assert_eq!(bot.state(game.id).await.active(), [Seat(0), Seat(1)]);
    let r = hx(&fake, u(2), t, "concede", json!([])).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    wait_message(&fake, t, before, "Blue conceded").await;
    wait_message(&fake, t, before, "game over: Silver won").await;
    let st = bot.state(game.id).await;
    assert_eq!(st.status(), hexmeros::host::Status::Finished);
    assert_eq!(st.record().last().unwrap().line, "concede blue");
    // The status panel tells how each seat left.
    let panel = wait_panel(&fake, t, "finished").await;
    for (seat, how) in [
        ("Silver", "🏆 won"),
        ("Red", "expelled"),
        ("Green", "resigned"),
        ("Yellow", "resigned"),
        ("Blue", "conceded"),
    ] {
        assert!(
            panel
                .lines()
                .any(|l| l.contains(&format!("**{seat}**")) && l.contains(how)),
            "{seat} {how}: {panel}"
        );
    }
    // The points table: the expelled player carries his −500 (and more loss points, if any).
    let r = slash(
        &fake,
        u(8),
        F::CHANNEL_ID,
        "score",
        json!([json!({"type": 4, "name": "game", "value": 0})]),
    )
    .await;
    let text = content(&r);
    let red: i64 = text
        .lines()
        .find(|l| l.contains("Player 6 —"))
        .and_then(|l| l.split("— ").nth(1))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no points for player6 in {text}"));
    assert!(red <= -500, "{text}");
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_house_rule_vote_before_the_first_pass_changes_the_game() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &six(), None).await;
    let t = game.thread;
    wait_message(&fake, t, 0, "you have the Token").await;

    // Nobody may declare Check upon the mover: a majority of four of six.
    let before = fake.messages(t).len();
    let rule = |v: &str| {
        group(
            "vote",
            "house-rule",
            json!([str_opt("key", "check_upon_mover"), str_opt("value", v)]),
        )
    };
    let r = slash(&fake, u(1), t, "hexmeros", rule("never_declare")).await;
    assert!(is_private(&r) && !content(&r).starts_with("⚠️"), "{r:?}");
    let ballot = wait_message(&fake, t, before, "ballot on motion").await;
    assert!(content(&ballot).contains("check_upon_mover"), "{ballot:?}");
    for p in [2, 3] {
        vote_yes(&fake, u(p), t, &ballot).await;
    }
    assert!(
        bot.state(game.id)
            .await
            .house()
            .get("check_upon_mover")
            .is_none(),
        "3 of 6 is not yet a majority"
    );
    vote_yes(&fake, u(4), t, &ballot).await;
    wait_message(&fake, t, before, "passed").await;
    let st = bot.state(game.id).await;
    assert_eq!(st.house()["check_upon_mover"], "never_declare");
    assert_eq!(
        heximeros(&st).house_rules().check_upon_mover,
        hexmeros::games::heximeros::CheckUponMover::NeverDeclare
    );

    // The behaviour changed: a move that would open a challenge window passes at once.
    let (a, b) = heximeros_pair(|g, b| g.challengers(b) == [Seat(0)]);
    play(&fake, u(1), t, &a).await;
    let board = play(&fake, u(2), t, &b).await;
    assert_board(&board);
    assert!(
        !fake
            .messages(t)
            .iter()
            .any(|m| content(m).contains("declare Check upon")),
        "no challenge window"
    );
    assert_eq!(bot.state(game.id).await.record().len(), 2);

    // After the first pass, house rules are closed.
    let version = bot.state(game.id).await.version();
    let r = slash(&fake, u(3), t, "hexmeros", rule("window")).await;
    assert_refused(&r, "before the first Token pass");
    assert_eq!(bot.state(game.id).await.version(), version);
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_then_stalled_players_are_skipped_or_replaced_by_a_bot_by_vote() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &six(), None).await;
    let t = game.thread;
    wait_message(&fake, t, 0, "you have the Token").await;
    // Silver asks for reminders by DM too.
    let r = hx(&fake, u(1), t, "notify", json!([bool_opt("dm", true)])).await;
    assert!(content(&r).contains("direct message"), "{r:?}");
    const HOUR: i64 = 3_600_000;

    // One hour: a reminder in the thread only.
    let before = fake.messages(t).len();
    bot.set_clock(START_MS + HOUR + 60_000);
    let m = wait_message(&fake, t, before, "reminder").await;
    assert_pings(&m, u(1));
    assert!(content(&m).contains("for 1 hours"), "{m:?}");
    assert_eq!(bot.state(game.id).await.reminded(), 1);
    assert!(
        fake.dm_channel(u(1)).is_none(),
        "the first reminder is not a DM"
    );

    // Four hours: in the thread and by DM.
    let before = fake.messages(t).len();
    bot.set_clock(START_MS + 4 * HOUR + 60_000);
    wait_message(&fake, t, before, "for 4 hours").await;
    let deadline = tokio::time::Instant::now() + T;
    let dm = loop {
        if let Some(c) = fake.dm_channel(u(1))
            && let Some(m) = fake
                .messages(c)
                .into_iter()
                .find(|m| content(m).contains("reminder"))
        {
            break m;
        }
        assert!(tokio::time::Instant::now() < deadline, "no DM reminder");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(
        content(&dm).contains(&format!("game #{}", game.id)),
        "{dm:?}"
    );
    assert!(fake.dm_channel(u(2)).is_none(), "nobody else is DMed");

    // A day: the turn timer runs out and the others are invited to vote.
    let before = fake.messages(t).len();
    bot.set_clock(START_MS + 24 * HOUR + 60_000);
    wait_message(&fake, t, before, "Silver has not moved for 24 hours").await;
    assert!(bot.state(game.id).await.timed_out());
    // The vote is offered with buttons: skip, a bot takes over, expel.
    let stalled = wait_message(&fake, t, before, "Silver is stalled").await;
    let sj = stalled.json.clone().unwrap();
    let choices: Vec<String> = custom_ids(&sj)
        .iter()
        .map(|id| id.split(':').nth(3).unwrap().to_string())
        .collect();
    assert_eq!(choices, ["skip-0-0", "bot-0-0", "expel-0-0"]);
    // The stalled player may not propose to skip himself; a stranger may not propose at all.
    let skip = id_with(&sj, "stall");
    let r = click(&fake, u(1), t, message_id(&stalled), &skip).await;
    assert_refused(&r, "your own turn");
    let r = click(&fake, u(8), t, message_id(&stalled), &skip).await;
    assert_refused(&r, "not playing");
    let r = click(&fake, u(2), t, message_id(&stalled), &skip).await;
    assert!(
        content(&r).contains("you proposed: skip Silver's turn"),
        "{r:?}"
    );
    // The same motion by command is already open.
    let r = slash(
        &fake,
        u(3),
        t,
        "hexmeros",
        group("vote", "skip", json!([user_opt("player", u(1))])),
    )
    .await;
    assert_refused(&r, "already being voted on");
    let ballot = wait_message(&fake, t, before, "ballot on motion").await;
    assert!(
        content(&ballot).contains("skip Silver's turn"),
        "{ballot:?}"
    );
    // The stalled player has no say; three of the five others carry it.
    let r = slash(&fake, u(1), t, "hexmeros", group("vote", "no", json!([]))).await;
    assert_refused(&r, "no motion to vote on");
    for p in [3, 4] {
        vote_yes(&fake, u(p), t, &ballot).await;
    }
    wait_message(&fake, t, before, "passed").await;
    let ping = wait_message(&fake, t, before, "Blue, you have the Token").await;
    assert_pings(&ping, u(2));
    let st = bot.state(game.id).await;
    assert_eq!(st.record().last().unwrap().line, "skip silver");
    assert_eq!(st.holder(), Some(Seat(1)));
    assert_eq!(st.reminded(), 0, "a new turn starts its reminders afresh");
    // The stall buttons are stale now.
    let r = click(&fake, u(3), t, message_id(&stalled), &skip).await;
    assert!(content(&r).contains("no longer holds the Token"), "{r:?}");
    assert_eq!(bot.state(game.id).await.version(), st.version());

    // A day later Blue is stalled too: Yellow proposes that a bot takes the seat over; two more
    // yes votes of the five carry it, and the bot moves at once.
    let before = fake.messages(t).len();
    bot.set_clock(START_MS + 48 * HOUR + 2 * 60_000);
    wait_message(&fake, t, before, "Blue has not moved for 24 hours").await;
    let stalled = wait_message(&fake, t, before, "Blue is stalled").await;
    let take_over = custom_ids(stalled.json.as_ref().unwrap())
        .into_iter()
        .find(|id| id.ends_with(":bot-1-1"))
        .unwrap();
    let r = click(&fake, u(3), t, message_id(&stalled), &take_over).await;
    assert!(content(&r).contains("you proposed"), "{r:?}");
    let ballot = wait_message(&fake, t, before, "ballot on motion").await;
    assert!(
        content(&ballot).contains(&format!("Bot ({}) takes over Blue", Level::Normal)),
        "{ballot:?}"
    );
    for p in [4, 5] {
        vote_yes(&fake, u(p), t, &ballot).await;
    }
    wait_message(&fake, t, before, "passed").await;
    wait_message(&fake, t, before, "Blue played").await;
    let ping = wait_message(&fake, t, before, "Yellow, you have the Token").await;
    assert_pings(&ping, u(3));
    let st = bot.state(game.id).await;
    assert_eq!(st.bot(Seat(1)), Some(Level::Normal));
    assert_eq!(st.seat_of(u(2) as i64), None);
    assert_eq!(st.holder(), Some(Seat(2)));
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hexdame_played_to_a_win_on_the_board() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let players = [u(1), u(2)];
    let (game, _) = start(&fake, &players, Some(1)).await;
    let t = game.thread;
    wait_message(&fake, t, 0, "you have the Token").await;
    // The mirror: White plays the normal bot, Black the first legal move.
    let mut mirror = AnyGame::new(GameKind::HexDame, None, None).unwrap();
    let mut ply = 0;
    while mirror.outcome().is_none() {
        assert!(ply < 300, "the game does not end");
        let mv = if ply % 2 == 0 {
            hexmeros::ai::choose(&mirror, Level::Normal, 7).unwrap()
        } else {
            mirror.legal_moves()[0].clone()
        };
        play(&fake, players[ply % 2], t, &mv).await;
        mirror.play(&mv).unwrap();
        ply += 1;
    }
    let Some(Outcome::Win { winners, .. }) = mirror.outcome() else {
        panic!("{:?}", mirror.outcome());
    };
    // The sentence names the seat with a capital, as the pictures and panel do.
    let name = mirror.seat_name(winners[0]);
    let winner = format!("{}{}", name[..1].to_uppercase(), &name[1..]);
    let over = wait_message(&fake, t, 0, "game over").await;
    assert!(
        content(&over).contains(&format!("{winner} won")),
        "{over:?}"
    );
    let gif = wait_message(&fake, t, 0, "the replay").await;
    let (_, bytes) = gif.files.iter().find(|(n, _)| n.ends_with(".gif")).unwrap();
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::io::Cursor::new(bytes))
        .unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert!(frames > 1, "{frames} frames");
    let st = bot.state(game.id).await;
    assert_eq!(st.status(), hexmeros::host::Status::Finished);
    assert_eq!(st.record().len(), ply);
    assert_eq!(st.outcome(), mirror.outcome());

    // /score: both rated, the winner above the loser.
    let r = slash(
        &fake,
        u(3),
        F::CHANNEL_ID,
        "score",
        json!([json!({"type": 4, "name": "game", "value": 1})]),
    )
    .await;
    let text = content(&r);
    let ratings = text
        .split("**Ratings**")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    // Players are named by their display names, "Player N".
    let w = format!("Player {}", winners[0].0 + 1);
    let l = format!("Player {}", 2 - winners[0].0);
    let (wi, li) = (ratings.find(&w).unwrap(), ratings.find(&l).unwrap());
    assert!(wi < li, "{text}");
    assert_clean(&fake, &bot);
}

// ----- one server's games are none of another's (issue 17, guild isolation) -----

/// `/hexmeros admin <action> game:<game>` by `user` in `channel`: its reply.
async fn admin(fake: &F, user: u64, channel: u64, action: &str, game: i64) -> Sent {
    let opts = json!([{"type": 4, "name": "game", "value": game}]);
    slash(
        fake,
        user,
        channel,
        "hexmeros",
        group("admin", action, opts),
    )
    .await
}

/// The control `id` made for another game.
fn for_game(id: &str, game: i64) -> String {
    let rest = id.split_once(':').map(|(_, r)| r).unwrap_or_default();
    format!("{game}:{rest}")
}

/// `about` (an answer about game `game`) reads exactly as `none` (the same request about
/// `unknown`, a game that does not exist): a private refusal, nothing attached, no controls.
fn assert_same_as_unknown(about: &Sent, game: i64, none: &Sent, unknown: i64) {
    assert_refused(none, &format!("#{unknown}"));
    let want = content(none).replace(&format!("#{unknown}"), &format!("#{game}"));
    assert_eq!(content(about), want, "{about:?}");
    assert!(is_private(about), "{about:?}");
    assert!(about.files.is_empty(), "{about:?}");
    assert!(
        custom_ids(about.json.as_ref().unwrap()).is_empty(),
        "{about:?}"
    );
}

/// A bot, and a HexDame game of u(1) (who has the Token) and u(2) started in the first server:
/// the game, its turn message's id and body.
async fn hexdame_game(fake: &F) -> (Bot, Game, u64, Value) {
    let bot = Bot::start(fake).await;
    let (game, _) = start(fake, &[u(1), u(2)], Some(1)).await;
    wait_message(fake, game.thread, 0, "you have the Token").await;
    let (turn, body) = turn_message(fake, game.thread);
    (bot, game, turn, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_of_another_server_cannot_abort_or_pause_a_game_and_it_stays_playable() {
    let fake = F::start().await;
    let (bot, game, turn, body) = hexdame_game(&fake).await;
    let before = bot.state(game.id).await;
    let before = (before.version(), before.status());
    let unknown = game.id + 1000;
    let elsewhere = F::OTHER_CHANNEL_ID;
    // u(7) runs the other server; u(1), who holds the Token, is a member of both.
    let manager = F::MEMBER_PERMISSIONS | F::MANAGE_GUILD;
    fake.set_guild_permissions(F::OTHER_GUILD_ID, u(7), manager);
    for action in ["abort", "pause", "resume"] {
        let foreign = admin(&fake, u(7), elsewhere, action, game.id).await;
        let none = admin(&fake, u(7), elsewhere, action, unknown).await;
        assert_same_as_unknown(&foreign, game.id, &none, unknown);
    }
    // Manage Server there is no right here (poise refuses before the command runs, in the
    // first response).
    let opts = json!([{"type": 4, "name": "game", "value": game.id}]);
    let i = fake
        .slash(u(7), game.thread, "hexmeros", group("admin", "pause", opts))
        .await;
    let r = fake.first_response(&i, T).await.unwrap();
    let answer = &r.json.as_ref().unwrap()["data"];
    assert!(
        answer["content"]
            .as_str()
            .unwrap()
            .contains("Manage Server"),
        "{r:?}"
    );
    assert_eq!(answer["flags"].as_u64().unwrap() & 64, 64, "{r:?}");

    // Commands, buttons and autocomplete naming the game from the other server, even by its
    // own players, get the unknown game's answer.
    let mv = legal(GameKind::HexDame, &[])[0].clone();
    let game_opt = |g: i64| json!({"type": 4, "name": "game", "value": g});
    let moving = |g| json!([str_opt("from", &mv), bool_opt("pass", true), game_opt(g)]);
    let looking = |g| json!([game_opt(g)]);
    for (name, user, opts) in [
        ("move", u(1), &moving as &dyn Fn(i64) -> Value),
        ("board", u(7), &looking),
        ("history", u(1), &looking),
    ] {
        let foreign = hx(&fake, user, elsewhere, name, opts(game.id)).await;
        let none = hx(&fake, user, elsewhere, name, opts(unknown)).await;
        assert_same_as_unknown(&foreign, game.id, &none, unknown);
    }
    for id in custom_ids(&body) {
        let foreign = click(&fake, u(1), elsewhere, turn, &id).await;
        let none = click(&fake, u(1), elsewhere, turn, &for_game(&id, unknown)).await;
        assert_same_as_unknown(&foreign, game.id, &none, unknown);
    }
    let focused = json!({"type": 3, "name": "from", "value": "", "focused": true});
    let named = json!({"type": 4, "name": "game", "value": game.id});
    let i = fake
        .autocomplete(
            u(1),
            elsewhere,
            "hexmeros",
            sub("move", json!([named, focused.clone()])),
        )
        .await;
    assert!(choices(&fake.first_response(&i, T).await.unwrap()).is_empty());
    let i = fake
        .autocomplete(
            u(1),
            game.thread,
            "hexmeros",
            sub("move", json!([named, focused])),
        )
        .await;
    assert!(!choices(&fake.first_response(&i, T).await.unwrap()).is_empty());

    // Nothing changed, and the game plays on.
    let st = bot.state(game.id).await;
    assert_eq!((st.version(), st.status()), before);
    play(&fake, u(1), game.thread, &mv).await;

    // The game's own server's admin may pause it.
    fake.set_permissions(u(8), manager);
    let r = admin(&fake, u(8), game.thread, "pause", game.id).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    assert_eq!(
        bot.state(game.id).await.status(),
        hexmeros::host::Status::Paused
    );
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_cannot_act_in_a_dm_on_someone_elses_game() {
    let fake = F::start().await;
    let (bot, game, turn, body) = hexdame_game(&fake).await;
    let version = bot.state(game.id).await.version();
    let unknown = game.id + 1000;
    // Every control of the turn message, pressed in the stranger's DM with the bot.
    let dm = fake.open_dm(u(5));
    for id in custom_ids(&body) {
        let foreign = click(&fake, u(5), dm, turn, &id).await;
        let none = click(&fake, u(5), dm, turn, &for_game(&id, unknown)).await;
        assert_same_as_unknown(&foreign, game.id, &none, unknown);
    }
    assert_eq!(bot.state(game.id).await.version(), version);

    // In their own DM the players act on their own game.
    let dm = fake.open_dm(u(1));
    let r = click(&fake, u(1), dm, turn, &id_with(&body, "board")).await;
    assert_board(&r);
    let i = fake.button(u(1), dm, turn, &id_with(&body, "pick")).await;
    acked(&fake, &i).await;
    let r = fake
        .wait_responses(&i, T, 1, |s| {
            s.method == "PATCH" && s.path.ends_with("/messages/@original")
        })
        .await
        .unwrap()
        .remove(0);
    assert!(content(&r).contains("pick a piece"), "{r:?}");
    assert_clean(&fake, &bot);
}

/// The game as stored has not moved since `before`: same version, same staged move, same
/// declarations, same record.
fn assert_unchanged(before: &GameState, after: &GameState) {
    assert_eq!(after.version(), before.version());
    assert_eq!(after.staged(), before.staged());
    assert_eq!(after.declared_upon(), before.declared_upon());
    assert_eq!(after.record(), before.record());
    assert_eq!(after.motions(), before.motions());
}

/// `user` presses control `action` of message `m`: privately refused with `words`.
async fn click_refused(fake: &F, user: u64, channel: u64, m: &Sent, action: &str, words: &str) {
    let id = id_with(m.json.as_ref().unwrap(), action);
    let r = click(fake, user, channel, message_id(m), &id).await;
    assert_refused(&r, words);
}

/// `user` stages `text` by command (no pass): the private preview.
async fn stage(fake: &F, user: u64, channel: u64, text: &str) -> Sent {
    let r = hx(fake, user, channel, "move", json!([str_opt("from", text)])).await;
    assert!(content(&r).contains(&format!("staged **{text}**")), "{r:?}");
    r
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_previews_pass_and_an_old_challenge_button_are_refused() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    // Blue's move `b` leaves his Sovereign attacked by Silver: staging it asks Silver.
    let (a, b) = heximeros_pair(|g, b| g.challengers(b) == [Seat(0)]);
    let (game, _) = start(&fake, &six(), None).await;
    let t = game.thread;
    wait_message(&fake, t, 0, "you have the Token").await;
    play(&fake, u(1), t, &a).await;
    let st = bot.state(game.id).await;
    let g = heximeros(&st);
    let quiet = g
        .legal_moves()
        .into_iter()
        .find(|m| g.challengers(m).is_empty() && g.move_text(m) != b)
        .map(|m| g.move_text(&m))
        .unwrap();

    // Blue stages `b` (Silver is asked), takes it back with that preview's button, and stages
    // a quiet move instead.
    let before = fake.messages(t).len();
    let old_preview = stage(&fake, u(2), t, &b).await;
    let old_ask = wait_message(&fake, t, before, "declare Check upon them").await;
    assert_pings(&old_ask, u(1));
    let r = click(
        &fake,
        u(2),
        t,
        message_id(&old_preview),
        &id_with(old_preview.json.as_ref().unwrap(), "back"),
    )
    .await;
    assert!(content(&r).contains("taken back"), "{r:?}");
    let quiet_preview = stage(&fake, u(2), t, &quiet).await;

    // The old preview's Pass would commit the quiet move Blue was not shown there: refused, as
    // are its Take back and Declare Check; and the old window's buttons, with no window open.
    let was = bot.state(game.id).await;
    assert_eq!(was.staged().unwrap().text, quiet);
    for action in ["pass", "back", "checks"] {
        click_refused(
            &fake,
            u(2),
            t,
            &old_preview,
            action,
            "from an earlier preview",
        )
        .await;
    }
    click_refused(
        &fake,
        u(1),
        t,
        &old_ask,
        "chal",
        "from an earlier challenge",
    )
    .await;
    assert_unchanged(&was, &bot.state(game.id).await);

    // Blue stages `b` again: a new window asks Silver. The old window's Declare Check does not
    // declare on it.
    let before = fake.messages(t).len();
    let preview = stage(&fake, u(2), t, &b).await;
    let ask = wait_message(&fake, t, before, "declare Check upon them").await;
    assert_ne!(message_id(&ask), message_id(&old_ask));
    let was = bot.state(game.id).await;
    assert_eq!(was.window_at(), was.staged_at());
    let declare = id_with(old_ask.json.as_ref().unwrap(), "chal");
    assert!(declare.ends_with(":y"), "{declare}");
    let r = click(&fake, u(1), t, message_id(&old_ask), &declare).await;
    assert_refused(&r, "this button is from an earlier challenge window");
    // And the quiet move's preview is stale now too.
    click_refused(
        &fake,
        u(2),
        t,
        &quiet_preview,
        "pass",
        "from an earlier preview",
    )
    .await;
    assert_unchanged(&was, &bot.state(game.id).await);

    // The current window's buttons and the current preview's Pass work.
    let stand = custom_ids(ask.json.as_ref().unwrap())
        .into_iter()
        .find(|id| id.ends_with(":n"))
        .unwrap();
    let r = click(&fake, u(1), t, message_id(&ask), &stand).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    let before = fake.messages(t).len();
    let r = click_answer(
        &fake,
        u(2),
        t,
        message_id(&preview),
        &id_with(preview.json.as_ref().unwrap(), "pass"),
    )
    .await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    wait_message(&fake, t, before, &format!("played {b}")).await;
    let st = bot.state(game.id).await;
    assert_eq!(st.record().last().unwrap().line, format!("blue {b}"));
    assert!(st.declared_upon().is_empty());
    assert_clean(&fake, &bot);
}

/// `/hexmeros draw <offer|accept>` (poise registers the choice as its index).
fn draw(accept: bool) -> Value {
    sub(
        "draw",
        json!([{"type": 4, "name": "action", "value": u64::from(accept)}]),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_accept_never_votes_on_another_motion() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &six(), None).await;
    let t = game.thread;
    wait_message(&fake, t, 0, "you have the Token").await;
    // Blue proposes a house rule: the one open motion.
    let rule = group(
        "vote",
        "house-rule",
        json!([
            str_opt("key", "check_upon_mover"),
            str_opt("value", "never_declare")
        ]),
    );
    let r = slash(&fake, u(2), t, "hexmeros", rule).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    // `draw accept` with no draw offered casts no vote on it.
    let was = bot.state(game.id).await;
    let r = slash(&fake, u(1), t, "hexmeros", draw(true)).await;
    assert_refused(&r, "there is no draw offer to accept");
    assert_unchanged(&was, &bot.state(game.id).await);
    // Yellow offers a draw: two motions are open. A bare vote must name its motion; `draw
    // accept` answers the draw only, and a bare vote after it still names none.
    let r = slash(&fake, u(3), t, "hexmeros", draw(false)).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    let was = bot.state(game.id).await;
    assert_eq!(was.motions().len(), 2);
    let r = slash(&fake, u(1), t, "hexmeros", group("vote", "yes", json!([]))).await;
    assert_refused(&r, "several motions are open");
    assert_unchanged(&was, &bot.state(game.id).await);
    let r = slash(&fake, u(1), t, "hexmeros", draw(true)).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    let was = bot.state(game.id).await;
    let r = slash(&fake, u(1), t, "hexmeros", group("vote", "no", json!([]))).await;
    assert_refused(&r, "several motions are open");
    assert_unchanged(&was, &bot.state(game.id).await);
    let st = bot.state(game.id).await;
    let (rule, offer) = (&st.motions()[0], &st.motions()[1]);
    assert!(matches!(rule.motion, Motion::HouseRule { .. }), "{rule:?}");
    assert_eq!(rule.yes, [Seat(1)]);
    assert!(rule.no.is_empty());
    assert_eq!(offer.motion, Motion::Draw);
    assert_eq!(offer.yes, [Seat(2), Seat(0)]);
    // A number no motion of this game has: refused, nothing changes.
    let was = bot.state(game.id).await;
    let none = json!([{"type": 4, "name": "motion", "value": 9}]);
    let r = slash(&fake, u(1), t, "hexmeros", group("vote", "yes", none)).await;
    assert_refused(&r, "there is no open motion #9");
    assert_unchanged(&was, &bot.state(game.id).await);
    // Named, the vote goes where it says.
    let named = json!([{"type": 4, "name": "motion", "value": rule.number}]);
    let r = slash(&fake, u(1), t, "hexmeros", group("vote", "yes", named)).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    let st = bot.state(game.id).await;
    assert_eq!(st.motions()[0].yes, [Seat(1), Seat(0)]);
    assert_clean(&fake, &bot);
}

const HOUR_MS: i64 = 3_600_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_two_player_game_the_opponent_cannot_replace_or_skip_and_claims_on_time() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &[u(1), u(2)], Some(1)).await;
    let t = game.thread;
    wait_message(&fake, t, 0, "you have the Token").await;
    let white = legal(GameKind::HexDame, &[])[0].clone();
    play(&fake, u(1), t, &white).await;
    // Black holds the Token and is not stalled: White can neither skip nor replace them, nor
    // claim the game (by command, or by a claim button pressed too early).
    let against = [
        group("vote", "skip", json!([user_opt("player", u(2))])),
        group(
            "vote",
            "replace",
            json!([user_opt("player", u(2)), user_opt("by", u(3))]),
        ),
    ];
    let was = bot.state(game.id).await;
    for cmd in &against {
        let r = slash(&fake, u(1), t, "hexmeros", cmd.clone()).await;
        assert_refused(&r, "no vote against your opponent");
    }
    let r = slash(
        &fake,
        u(1),
        t,
        "hexmeros",
        group("vote", "claim", json!([])),
    )
    .await;
    assert_refused(&r, "Black's turn timer has not run out");
    let (turn, _) = turn_message(&fake, t);
    let early = format!("{}:claim:{}", game.id, was.version());
    let r = click(&fake, u(1), t, turn, &early).await;
    assert_refused(&r, "Black's turn timer has not run out");
    assert_unchanged(&was, &bot.state(game.id).await);

    // A day later Black's timer has run out: White is pinged with a button to claim the win
    // (no skip/expel/bot vote buttons), and still cannot vote against Black.
    let before = fake.messages(t).len();
    bot.set_clock(START_MS + 24 * HOUR_MS + 60_000);
    wait_message(&fake, t, before, "White may claim the game on time").await;
    let notice = wait_message(&fake, t, before, "you may claim the win on time").await;
    assert_pings(&notice, u(1));
    let ids = custom_ids(notice.json.as_ref().unwrap());
    assert_eq!(ids.len(), 1, "{ids:?}");
    assert_eq!(ids[0].split(':').nth(1), Some("claim"), "{ids:?}");
    assert!(
        !fake
            .messages(t)
            .iter()
            .any(|m| content(m).contains("is stalled")),
        "no stalled-player vote between two"
    );
    let was = bot.state(game.id).await;
    assert!(was.stalled(Seat(1)));
    for cmd in &against {
        let r = slash(&fake, u(1), t, "hexmeros", cmd.clone()).await;
        assert_refused(&r, "no vote against your opponent");
    }
    // Black cannot claim against White, nor can a stranger.
    click_refused(&fake, u(2), t, &notice, "claim", "you hold the Token").await;
    click_refused(&fake, u(7), t, &notice, "claim", "not playing").await;
    assert_unchanged(&was, &bot.state(game.id).await);
    // White's press wins the game on time.
    let before = fake.messages(t).len();
    let r = click(&fake, u(1), t, message_id(&notice), &ids[0]).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    wait_message(&fake, t, before, "Black lost on time").await;
    wait_message(&fake, t, before, "game over: White won").await;
    let st = bot.state(game.id).await;
    assert!(matches!(st.outcome(), Some(Outcome::Win { winners, .. }) if winners == [Seat(0)]));
    assert_eq!(st.record().last().unwrap().line, "timeout black");
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_heximeros_a_replacement_or_skip_passes_only_for_a_stalled_seat() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &six(), None).await;
    let t = game.thread;
    wait_message(&fake, t, 0, "you have the Token").await;
    let skip = |p| group("vote", "skip", json!([user_opt("player", p)]));
    let replace = |p| {
        group(
            "vote",
            "replace",
            json!([user_opt("player", p), user_opt("by", u(7))]),
        )
    };
    // Silver holds the Token and is not stalled; Yellow does not hold it.
    let was = bot.state(game.id).await;
    let r = slash(&fake, u(2), t, "hexmeros", skip(u(1))).await;
    assert_refused(
        &r,
        "Silver's turn may be skipped only after their turn timer has run out",
    );
    let r = slash(&fake, u(2), t, "hexmeros", replace(u(1))).await;
    assert_refused(
        &r,
        "Silver may be replaced only after their turn timer has run out",
    );
    let r = slash(&fake, u(2), t, "hexmeros", skip(u(3))).await;
    assert_refused(&r, "Yellow does not hold the Token");
    assert_unchanged(&was, &bot.state(game.id).await);

    // A day later Silver is stalled, Yellow still is not: Silver may be replaced (three of the
    // five others carry it), Yellow may not.
    let before = fake.messages(t).len();
    bot.set_clock(START_MS + 24 * HOUR_MS + 60_000);
    wait_message(&fake, t, before, "Silver is stalled").await;
    let r = slash(&fake, u(2), t, "hexmeros", replace(u(3))).await;
    assert_refused(&r, "Yellow may be replaced only after");
    let r = slash(&fake, u(2), t, "hexmeros", replace(u(1))).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    let ballot = wait_message(&fake, t, before, "ballot on motion").await;
    for p in [3, 4] {
        vote_yes(&fake, u(p), t, &ballot).await;
    }
    wait_message(&fake, t, before, "passed").await;
    let st = bot.state(game.id).await;
    assert_eq!(st.seats()[0].player, u(7) as i64);
    assert_eq!(st.seat_of(u(1) as i64), None);
    // The newcomer has a whole turn: not stalled, so not skipped.
    let r = slash(&fake, u(2), t, "hexmeros", skip(u(7))).await;
    assert_refused(&r, "Silver's turn may be skipped only after");
    assert_clean(&fake, &bot);
}

// ----- nobody is seated without consent (issue 17, lobbies) -----

/// `/hexmeros start` of a HexDame table by `user` with `opts` (the players and more): the reply.
async fn start_reply(fake: &F, user: u64, opts: Vec<Value>) -> Sent {
    let mut opts = opts;
    opts.push(json!({"type": 4, "name": "game", "value": 1}));
    hx(fake, user, F::CHANNEL_ID, "start", json!(opts)).await
}

/// u(1)'s HexDame lobby with `guest`: its number and its message.
async fn lobby_with(fake: &F, guest: u64) -> (i64, Sent) {
    let opts = vec![user_opt("p1", u(1)), user_opt("p2", guest)];
    let r = start_reply(fake, u(1), opts).await;
    assert!(is_private(&r), "{r:?}");
    let lobby = lobby_number(&content(&r)).unwrap_or_else(|| panic!("{r:?}"));
    (lobby, lobby_message(fake, lobby).await)
}

async fn games_stored(bot: &Bot) -> usize {
    let store = hexmeros::store::Store::open(&bot.db_url()).await.unwrap();
    let n = store.all_games().await.unwrap().len();
    store.close().await;
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_strangers_start_seats_nobody_without_consent_and_the_game_starts_after_everyone_joined()
{
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    // A stranger who does not play and may not manage the server seats nobody.
    let them = vec![user_opt("p1", u(1)), user_opt("p2", u(2))];
    let r = start_reply(&fake, u(7), them.clone()).await;
    assert_refused(&r, "take a seat in it yourself");
    assert!(fake.messages(F::CHANNEL_ID).is_empty());

    // A player's start pings the invited once, with Join / Decline; no game yet.
    let (lobby, msg) = lobby_with(&fake, u(2)).await;
    assert_eq!(fake.messages(F::CHANNEL_ID).len(), 1);
    assert!(content(&msg).contains(&format!("<@{}>", u(2))), "{msg:?}");
    let mentions = &msg.json.as_ref().unwrap()["allowed_mentions"]["users"];
    assert_eq!(mentions, &json!([u(2).to_string()]), "{msg:?}");
    let ids = custom_ids(msg.json.as_ref().unwrap());
    assert_eq!(ids, [join_id(lobby), format!("{lobby}:ldecline:0")]);
    let m = message_id(&msg);
    // A stranger's Join, the starter's second, one from another server or a DM: refused.
    let r = click(&fake, u(7), F::CHANNEL_ID, m, &join_id(lobby)).await;
    assert_refused(&r, "that seat is not yours");
    let r = click(&fake, u(1), F::CHANNEL_ID, m, &join_id(lobby)).await;
    assert_refused(&r, "you have already joined");
    let none = click(&fake, u(2), F::CHANNEL_ID, m, &join_id(lobby + 100)).await;
    assert_refused(&none, &format!("there is no lobby #{}", lobby + 100));
    for place in [F::OTHER_CHANNEL_ID, fake.open_dm(u(2))] {
        let r = click(&fake, u(2), place, m, &join_id(lobby)).await;
        assert_eq!(
            content(&r),
            format!("⚠️ there is no lobby #{lobby}"),
            "{r:?}"
        );
    }
    assert!(fake.threads().is_empty(), "{:?}", fake.threads());
    assert_eq!(games_stored(&bot).await, 0);

    // The last Join starts the game, as /hexmeros start did.
    let r = click(&fake, u(2), F::CHANNEL_ID, m, &join_id(lobby)).await;
    let game = started_game(&content(&r)).unwrap_or_else(|| panic!("{r:?}"));
    let thread = fake.threads()[0].0;
    wait_message(&fake, thread, 0, "you have the Token").await;
    let st = bot.state(game).await;
    let seated: Vec<i64> = st.seats().iter().map(|s| s.player).collect();
    assert_eq!(seated, [u(1) as i64, u(2) as i64]);
    let edited = fake.message(m).unwrap();
    assert!(custom_ids(&edited).is_empty(), "{edited}");
    let r = click(&fake, u(2), F::CHANNEL_ID, m, &join_id(lobby)).await;
    assert_refused(&r, "has already started");

    // Decline cancels a table without open seats, and says so.
    let (lobby, msg) = lobby_with(&fake, u(3)).await;
    let decline = format!("{lobby}:ldecline:0");
    let r = click(&fake, u(3), F::CHANNEL_ID, message_id(&msg), &decline).await;
    assert!(content(&r).contains("is cancelled"), "{r:?}");
    wait_message(
        &fake,
        F::CHANNEL_ID,
        0,
        &format!("lobby #{lobby} (HexDame) is cancelled"),
    )
    .await;
    let r = click(
        &fake,
        u(3),
        F::CHANNEL_ID,
        message_id(&msg),
        &join_id(lobby),
    )
    .await;
    assert_refused(&r, "was cancelled");

    // A lobby nobody answers expires after 48 hours, and says so.
    let (lobby, msg) = lobby_with(&fake, u(4)).await;
    bot.set_clock(START_MS + 48 * 3_600_000 + 60_000);
    wait_message(
        &fake,
        F::CHANNEL_ID,
        0,
        &format!("lobby #{lobby} (HexDame) expired after 48 hours"),
    )
    .await;
    let r = click(
        &fake,
        u(4),
        F::CHANNEL_ID,
        message_id(&msg),
        &join_id(lobby),
    )
    .await;
    assert_refused(&r, "has expired");
    assert_eq!(games_stored(&bot).await, 1);

    // With Manage Server, a starter need not play.
    fake.set_permissions(u(7), F::MEMBER_PERMISSIONS | F::MANAGE_GUILD);
    let r = start_reply(&fake, u(7), them).await;
    assert!(content(&r).contains("is open"), "{r:?}");
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_lobby_takes_anyone_here_and_a_declined_seat_opens() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    // Harmegedo (choice 4) for three: u(1), u(2) invited, one seat open.
    let opts = json!([
        user_opt("p1", u(1)),
        user_opt("p2", u(2)),
        {"type": 4, "name": "game", "value": 4},
        bool_opt("open", true),
        {"type": 4, "name": "seats", "value": 3},
    ]);
    let r = hx(&fake, u(1), F::CHANNEL_ID, "start", opts).await;
    let lobby = lobby_number(&content(&r)).unwrap_or_else(|| panic!("{r:?}"));
    let msg = lobby_message(&fake, lobby).await;
    assert!(content(&msg).contains("1 open seat"), "{msg:?}");
    let m = message_id(&msg);
    let decline = format!("{lobby}:ldecline:0");
    let r = click(&fake, u(2), F::CHANNEL_ID, m, &decline).await;
    assert!(content(&r).contains("your seat is open"), "{r:?}");
    let r = click(&fake, u(7), F::OTHER_CHANNEL_ID, m, &join_id(lobby)).await;
    assert_eq!(
        content(&r),
        format!("⚠️ there is no lobby #{lobby}"),
        "{r:?}"
    );
    let r = click(&fake, u(5), F::CHANNEL_ID, m, &join_id(lobby)).await;
    assert!(content(&r).contains("waiting for 1 open seat"), "{r:?}");
    assert!(fake.threads().is_empty());
    let r = click(&fake, u(6), F::CHANNEL_ID, m, &join_id(lobby)).await;
    let game = started_game(&content(&r)).unwrap_or_else(|| panic!("{r:?}"));
    let seated: Vec<i64> = bot
        .state(game)
        .await
        .seats()
        .iter()
        .map(|s| s.player)
        .collect();
    assert_eq!(seated, [u(1) as i64, u(5) as i64, u(6) as i64]);
    let r = click(&fake, u(8), F::CHANNEL_ID, m, &join_id(lobby)).await;
    assert_refused(&r, "has already started");
    assert_clean(&fake, &bot);
}

// ----- bounded resources and Discord's limits (issue 17) -----

/// The answer to interaction `i`: its first response when that carries the answer (a refusal
/// before anything ran), else the followup after the acknowledgement. Its text and flags.
async fn answer(fake: &F, i: &Interaction) -> (String, u64) {
    let first = fake.first_response(i, T).await.unwrap();
    assert_eq!(first.status, 204, "first response {first:?}");
    let data = &first.json.as_ref().unwrap()["data"];
    if let Some(text) = data["content"].as_str() {
        return (text.to_string(), data["flags"].as_u64().unwrap_or(0));
    }
    let r = followup(fake, i).await;
    let flags = r.json.as_ref().unwrap()["flags"].as_u64().unwrap_or(0);
    (content(&r), flags)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_1500_character_argument_gets_a_private_answer_within_discords_limits() {
    let fake = F::start().await;
    let (bot, game, _, _) = hexdame_game(&fake).await;
    let version = bot.state(game.id).await.version();
    let posted = fake.messages(game.thread).len();
    let long = "Q4".repeat(750);
    let cases = [
        sub("move", json!([str_opt("from", &long)])),
        sub("move", json!([str_opt("from", "a3"), str_opt("to", &long)])),
        sub("move", json!([str_opt("from", &format!("a3-{long}"))])),
        sub(
            "move",
            json!([
                str_opt("from", &long),
                str_opt("to", &long),
                str_opt("check", &long)
            ]),
        ),
        sub("board", json!([str_opt("as", &long)])),
        sub("check", json!([str_opt("colour", &long)])),
        group(
            "vote",
            "house-rule",
            json!([str_opt("key", &long), str_opt("value", &long)]),
        ),
        group(
            "vote",
            "house-rule",
            json!([str_opt("key", "timer_hours"), str_opt("value", &long)]),
        ),
    ];
    for options in cases {
        let i = fake
            .slash(u(1), game.thread, "hexmeros", options.clone())
            .await;
        let (text, flags) = answer(&fake, &i).await;
        assert!(text.starts_with("⚠️"), "{options}: {text}");
        assert!(
            text.chars().count() <= 2000,
            "{options}: {} chars",
            text.len()
        );
        assert_eq!(flags & 64, 64, "{options}: not private");
    }
    assert_eq!(
        bot.state(game.id).await.version(),
        version,
        "nothing changed"
    );
    assert_eq!(fake.messages(game.thread).len(), posted, "nothing posted");
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_board_requests_in_a_second_give_a_handful_of_pictures_and_polite_refusals() {
    let fake = F::start().await;
    let (bot, game, turn, body) = hexdame_game(&fake).await;
    let board = id_with(&body, "board");
    // Half by the Board button, half by /hexmeros board, all at once.
    let asked = (0..50).map(|n| {
        let (fake, board) = (&fake, &board);
        async move {
            let i = if n % 2 == 0 {
                fake.button(u(1), game.thread, turn, board).await
            } else {
                fake.slash(u(1), game.thread, "hexmeros", sub("board", json!([])))
                    .await
            };
            acked(fake, &i).await;
            followup(fake, &i).await
        }
    });
    let answers = futures_util::future::join_all(asked).await;
    let (mut pictures, mut refusals) = (0, 0);
    for a in &answers {
        assert!(is_private(a), "{a:?}");
        let text = content(a);
        if text.contains("going too fast — try again in") || text.contains("try again in a moment")
        {
            assert!(a.files.is_empty(), "{a:?}");
            refusals += 1;
        } else {
            assert_board(a);
            pictures += 1;
        }
    }
    assert_eq!(pictures + refusals, 50);
    assert!((1..=6).contains(&pictures), "{pictures} pictures");
    // Another user is not held up by the first one's haste.
    let r = click(&fake, u(2), game.thread, turn, &board).await;
    assert_board(&r);
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_beyond_the_active_games_limit_is_refused() {
    let fake = F::start().await;
    let limit = [("HEXMEROS_MAX_ACTIVE_GAMES", "2")];
    let bot = Bot::start_with(&fake, None, &limit).await;
    for _ in 0..2 {
        start(&fake, &[u(1), u(2)], Some(1)).await;
    }
    let threads = fake.threads().len();
    let opts = json!([
        user_opt("p1", u(1)),
        user_opt("p2", u(3)),
        json!({"type": 4, "name": "game", "value": 1})
    ]);
    let r = hx(&fake, u(1), F::CHANNEL_ID, "start", opts).await;
    assert_refused(&r, "you already play in 2 unfinished games");
    assert_eq!(fake.threads().len(), threads, "no thread opened");
    let store = hexmeros::store::Store::open(&bot.db_url()).await.unwrap();
    assert!(store.game(3).await.unwrap().is_none());
    store.close().await;
    // Someone else may still start one with the second player.
    start(&fake, &[u(3), u(2)], Some(1)).await;
    assert_clean(&fake, &bot);
}

/// Wait until the stored game has passed version `v`.
async fn wait_version_past(bot: &Bot, game: i64, v: u64) -> GameState {
    let deadline = tokio::time::Instant::now() + T;
    loop {
        let st = bot.state(game).await;
        if st.version() > v {
            return st;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "game #{game} stays at {v}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Send `/hexmeros move <mv> pass:True` as `user` in `channel` and wait until it is
/// acknowledged (not for its answer: the test decides what comes next).
async fn send_move(fake: &F, user: u64, channel: u64, mv: &str) {
    let i = fake
        .slash(
            user,
            channel,
            "hexmeros",
            sub("move", json!([str_opt("from", mv), bool_opt("pass", true)])),
        )
        .await;
    acked(fake, &i).await;
}

/// Wait until a message of `channel` contains `needle`, whatever came before.
async fn wait_made(fake: &F, channel: u64, needle: &str) {
    let deadline = tokio::time::Instant::now() + T;
    while made_with(fake, channel, needle) == 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no message with {needle:?} in {channel}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Messages of `channel` whose content contains `needle` (made once each: a post answered with
/// a message already made by its nonce counts once), the status panel aside: it names every
/// player.
fn made_with(fake: &F, channel: u64, needle: &str) -> usize {
    let mut ids: Vec<u64> = fake
        .messages(channel)
        .iter()
        .filter(|m| content(m).contains(needle) && !content(m).starts_with("📋"))
        .map(message_id)
        .collect();
    ids.sort();
    ids.dedup();
    ids.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_message_left_unsent_by_a_crash_is_posted_once_after_the_restart() {
    let fake = F::start().await;
    let mut bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &[u(1), u(2)], Some(1)).await;
    wait_message(&fake, game.thread, 0, "you have the Token").await;
    let v0 = bot.state(game.id).await.version();
    // Discord fails every post in the thread: the move is committed, its board is not sent.
    let path = format!("/channels/{}/messages", game.thread);
    fake.fail_next("POST", &path, 500, None, 1_000_000);
    let mv = legal(GameKind::HexDame, &[])[0].clone();
    send_move(&fake, u(1), game.thread, &mv).await;
    wait_version_past(&bot, game.id, v0).await;
    // The process dies with the board unsent; Discord comes back; the new process sends it.
    bot.restart(&fake).await;
    assert_eq!(made_with(&fake, game.thread, &format!("played {mv}")), 0);
    fake.clear_failures();
    wait_message(&fake, game.thread, 0, &format!("played {mv}")).await;
    let ping = format!("<@{}> ", u(2));
    wait_made(&fake, game.thread, &ping).await;
    assert_eq!(made_with(&fake, game.thread, &format!("played {mv}")), 1);
    assert_eq!(made_with(&fake, game.thread, &ping), 1);
    // The board is the new turn message: the next player plays from it.
    let mv2 = legal(GameKind::HexDame, &[&mv])[0].clone();
    play(&fake, u(2), game.thread, &mv2).await;
    let store = hexmeros::store::Store::open(&bot.db_url()).await.unwrap();
    let deadline = tokio::time::Instant::now() + T;
    while store.outbox_stats().await.unwrap().pending > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the outbox stays full"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ballot_whose_sends_fail_for_a_while_is_posted_once() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &[u(1), u(2)], Some(1)).await;
    let t = game.thread;
    wait_message(&fake, t, 0, "you have the Token").await;
    // More failures than one delivery's quick retries: the deliverer tries again later.
    fake.fail_next("POST", &format!("/channels/{t}/messages"), 500, None, 8);
    let r = slash(&fake, u(1), t, "hexmeros", draw(false)).await;
    assert!(!content(&r).starts_with("⚠️"), "{r:?}");
    let ballot = wait_message(&fake, t, 0, "ballot on motion").await;
    assert_eq!(made_with(&fake, t, "ballot on motion"), 1);
    let failed = fake
        .requests()
        .iter()
        .filter(|s| s.method == "POST" && s.path.ends_with(&format!("{t}/messages")))
        .filter(|s| s.status == 500)
        .count();
    assert_eq!(failed, 8);
    // The ballot works: the opponent accepts the draw with its Yes button.
    vote_yes(&fake, u(2), t, &ballot).await;
    let deadline = tokio::time::Instant::now() + T;
    while bot.state(game.id).await.status() != hexmeros::host::Status::Finished {
        assert!(tokio::time::Instant::now() < deadline, "no draw");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_thread_moves_the_game_to_its_channel_and_a_locked_one_is_reopened() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &[u(1), u(2)], Some(1)).await;
    wait_message(&fake, game.thread, 0, "you have the Token").await;
    // A moderator locks the thread: the bot reopens it and the game goes on there.
    fake.lock_thread(game.thread);
    let mv = legal(GameKind::HexDame, &[])[0].clone();
    play(&fake, u(1), game.thread, &mv).await;
    assert!(!fake.thread_archived(game.thread));
    // Then deletes it. The next message of the game (the hour's reminder) goes to the channel,
    // which is told, and the game goes on there.
    fake.delete_channel(game.thread);
    let before = fake.messages(F::CHANNEL_ID).len();
    bot.set_clock(START_MS + 3_600_000 + 60_000);
    let notice = wait_message(&fake, F::CHANNEL_ID, before, "was deleted").await;
    assert!(
        content(&notice).contains(&format!("HexDame #{}", game.id)),
        "{notice:?}"
    );
    wait_message(&fake, F::CHANNEL_ID, before, "reminder").await;
    let mv2 = legal(GameKind::HexDame, &[&mv])[0].clone();
    play(&fake, u(2), F::CHANNEL_ID, &mv2).await;
    let mv3 = legal(GameKind::HexDame, &[&mv, &mv2])[0].clone();
    play(&fake, u(1), F::CHANNEL_ID, &mv3).await;
    assert_eq!(bot.state(game.id).await.record().len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_finishes_the_message_being_sent_and_the_next_process_sends_the_rest() {
    let fake = F::start().await;
    let mut bot = Bot::start(&fake).await;
    let (game, _) = start(&fake, &[u(1), u(2)], Some(1)).await;
    let t = game.thread;
    wait_message(&fake, t, 0, "you have the Token").await;
    let path = format!("/channels/{t}/messages");
    // The board's first tries fail, so it is still being sent when the stop comes.
    fake.fail_next("POST", &path, 500, None, 3);
    let mv = legal(GameKind::HexDame, &[])[0].clone();
    send_move(&fake, u(1), t, &mv).await;
    fake.wait_request(T, |s| s.path == path && s.status == 500)
        .await
        .unwrap();
    let status = bot.terminate().await;
    assert!(status.success(), "{status:?}: {}", bot.log());
    assert!(bot.log().contains("stopped cleanly"), "{}", bot.log());
    // The entry being sent when the stop came was finished: the board, which pings the next
    // player, is there, once.
    let ping = format!("<@{}> ", u(2));
    assert_eq!(made_with(&fake, t, &format!("played {mv}")), 1);
    assert_eq!(made_with(&fake, t, &ping), 1);
    // What was not begun (the status panel's edit) waits in the outbox for the next process,
    // which makes it.
    let panel = |fake: &F| {
        let id = fake.pinned(t)[0];
        fake.message(id).unwrap()["content"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(panel(&fake).contains("Turn 1:"), "{}", panel(&fake));
    bot.start_again(&fake).await;
    let deadline = tokio::time::Instant::now() + T;
    while !panel(&fake).contains("Turn 2:") {
        assert!(tokio::time::Instant::now() < deadline, "{}", panel(&fake));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(made_with(&fake, t, &ping), 1);
    assert_eq!(made_with(&fake, t, &format!("played {mv}")), 1);
    assert_eq!(bot.state(game.id).await.record().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_after_discord_made_the_message_does_not_post_twice() {
    let fake = F::start().await;
    let bot = Bot::start_with(&fake, None, &[("HEXMEROS_DISCORD_TIMEOUT_MS", "500")]).await;
    let (game, _) = start(&fake, &[u(1), u(2)], Some(1)).await;
    let t = game.thread;
    wait_message(&fake, t, 0, "you have the Token").await;
    // Discord makes the board but the answer never comes in time; the bot gives up on it and
    // tries again with the same nonce.
    let path = format!("/channels/{t}/messages");
    fake.hang_next_after_doing("POST", &path, Duration::from_secs(3), 1);
    let mv = legal(GameKind::HexDame, &[])[0].clone();
    play(&fake, u(1), t, &mv).await;
    let ping = format!("<@{}> ", u(2));
    wait_made(&fake, t, &ping).await;
    let posts: Vec<Sent> = fake
        .requests()
        .into_iter()
        .filter(|s| s.method == "POST" && s.path == path)
        .collect();
    let played = |s: &Sent| content(s).contains(&format!("played {mv}"));
    assert!(
        posts.iter().filter(|s| played(s)).count() >= 2,
        "the board was sent again after the timeout: {posts:?}"
    );
    // Discord's own record: one board, one ping (the status panel, which names every player,
    // aside).
    let stored = fake.stored_messages(t);
    let with = |needle: &str| {
        stored
            .iter()
            .map(|m| m["content"].as_str().unwrap_or(""))
            .filter(|c| c.contains(needle) && !c.starts_with("📋"))
            .count()
    };
    assert_eq!(with(&format!("played {mv}")), 1, "{stored:#?}");
    assert_eq!(with(&ping), 1, "{stored:#?}");
    assert!(
        bot.log().contains("no answer from Discord within"),
        "{}",
        bot.log()
    );
}
