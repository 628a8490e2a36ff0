//! The web board as a Discord Activity (issue 46), against the fake Discord: "Play on the
//! board" on the turn message answered with the launch-activity callback; the page's sign-in
//! (`POST /api/token`) exchanging the SDK's OAuth2 code with the client secret, reading the
//! user and their servers, and mapping the Activity's channel (or a deep link's `custom_id`) to
//! the game; who gets a player's board, who a spectator's, and who is told nothing; and in a
//! real browser, the Embedded App SDK's handshake with the Discord client, through Discord's
//! proxy, ending on the player's own board.

use hexmeros_testkit::fake_discord::activity::{CLIENT_SECRET, Frame};
use hexmeros_testkit::{browser, fake_discord};
use serde_json::{Value, json};

use super::web::{act, board_game, get, post};
use fake_discord::FakeDiscord as F;
use hexmeros_testkit::bot::*;

/// Whether this build can run the Activity; under CI it must (`.ci/run` installs npm).
fn built() -> bool {
    let ok = hexmeros::web::activity::available();
    assert!(
        ok || std::env::var_os("CI").is_none(),
        "CI must build the Activity's script: {}",
        hexmeros::web::activity::SDK_MISSING
    );
    if !ok {
        eprintln!(
            "no Activity script in this build ({}): skipped",
            hexmeros::web::activity::SDK_MISSING
        );
    }
    ok
}

/// A bot serving the board as an Activity, with a HexDame game of users 1 and 2 begun.
async fn activity_game(fake: &F) -> (Bot, String, i64, u64) {
    board_game(fake, &[("DISCORD_CLIENT_SECRET", CLIENT_SECRET)]).await
}

async fn sign_in(base: &str, body: Value) -> (u16, Value) {
    // The page has no token of ours yet.
    post(base, "/api/token", "", body).await
}

/// A member of the game's server (`GUILD_ID`) signs in from the Activity launched in
/// `channel`, as the page does.
async fn sign_in_member(fake: &F, base: &str, user: u64, channel: u64) -> (u16, Value) {
    let code = fake.grant_code(user, &[F::GUILD_ID]);
    sign_in(
        base,
        json!({"code": code, "channel_id": channel.to_string()}),
    )
    .await
}

/// The id of a stored message.
fn message_id_of(m: &Value) -> u64 {
    m["id"].as_str().unwrap().parse().unwrap()
}

fn play_id(body: &Value) -> Option<String> {
    custom_ids(body)
        .into_iter()
        .find(|id| id.split(':').nth(1) == Some("play"))
}

#[tokio::test]
async fn play_on_the_board_launches_the_activity_and_its_sign_in_admits_whom_it_should() {
    if !built() {
        return;
    }
    let fake = F::start().await;
    let (bot, base, game, thread) = activity_game(&fake).await;

    // The status panel's board button launches the Activity in the thread; the turn message
    // has no board button (it would take a piece's place).
    let (turn, body) = turn_message(&fake, thread);
    assert_eq!(play_id(&body), None, "{body}");
    let panel_body = super::web::panel(&fake, thread).await;
    let panel = message_id_of(&panel_body);
    let play = play_id(&panel_body).unwrap_or_else(|| panic!("no Play on the board: {panel_body}"));
    assert!(
        !panel_body.to_string().contains("Watch the board"),
        "the Activity takes the link's place: {panel_body}"
    );
    let i = fake.button(u(3), thread, panel, &play).await;
    let first = fake.first_response(&i, T).await.unwrap();
    assert_eq!(first.json.as_ref().unwrap()["type"], 12, "{first:?}");
    assert_eq!(first.status, 204, "{first:?}");
    // The same control pressed in another server: no launch, the unknown game's words.
    let i = fake.button(u(3), F::OTHER_CHANNEL_ID, panel, &play).await;
    let first = fake.first_response(&i, T).await.unwrap();
    let answer = first.json.as_ref().unwrap();
    assert_eq!(answer["type"], 4, "{first:?}");
    assert_eq!(answer["data"]["flags"], 64, "{first:?}");
    let said = answer["data"]["content"].as_str().unwrap();
    assert!(said.contains(&format!("no game #{game}")), "{said}");

    // My side: the player's own link, and Discord's deep link to the Activity for this game
    // (its custom_id names the game wherever Discord opens it).
    let r = click(&fake, u(1), thread, turn, &id_with(&body, "board")).await;
    let doors: Vec<(String, String)> = r.json.as_ref().unwrap()["components"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row["components"].as_array().unwrap().iter())
        .filter(|c| c["style"] == 5)
        .map(|c| {
            (
                c["label"].as_str().unwrap().to_string(),
                c["url"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let deep = format!(
        "https://discord.com/activities/{}?custom_id=game-{game}",
        F::APP_ID
    );
    assert!(doors.iter().any(|(l, _)| l == "My board"), "{doors:?}");
    assert!(
        doors
            .iter()
            .any(|(l, u)| l == "Play in Discord" && *u == deep),
        "{doors:?}"
    );

    // The page's set-up: the application's id, for the SDK.
    let (status, setup) = get(&base, "/api/activity", "").await;
    assert_eq!(status, 200, "{setup}");
    assert_eq!(setup["client_id"], F::APP_ID.to_string());

    // A player launched in the game's thread: a player's board.
    let code = fake.grant_code(u(1), &[F::GUILD_ID]);
    let (status, signed) = sign_in(
        &base,
        json!({"code": code, "channel_id": thread.to_string()}),
    )
    .await;
    assert_eq!(status, 200, "{signed}");
    assert_eq!(signed["game"], game);
    assert_eq!(signed["plays"], true);
    let access = signed["access_token"].as_str().unwrap();
    assert!(
        access.starts_with("fake-access-"),
        "Discord's own token: {signed}"
    );
    let token = signed["token"].as_str().unwrap().to_string();
    let (status, view) = get(&base, "/api/board", &token).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["you"]["mover"], true, "{view}");
    // The exchange went to Discord's token endpoint with the client secret, in the body.
    let exchange = fake
        .requests()
        .into_iter()
        .find(|s| s.path == "/oauth2/token")
        .unwrap();
    assert_eq!(
        exchange.json.as_ref().unwrap()["client_secret"],
        CLIENT_SECRET
    );
    assert_eq!(exchange.json.as_ref().unwrap()["code"], code);

    // A code works once: replayed, it is refused and nothing is signed.
    let (status, again) = sign_in(
        &base,
        json!({"code": code, "channel_id": thread.to_string()}),
    )
    .await;
    assert_eq!(status, 401, "{again}");
    assert!(
        again["error"]
            .as_str()
            .unwrap()
            .contains("used or has expired")
    );
    assert!(again.get("token").is_none());

    // Someone of the game's server who does not play: a spectator's board, which cannot act.
    let (status, signed) = sign_in_member(&fake, &base, u(3), thread).await;
    assert_eq!(status, 200, "{signed}");
    assert_eq!(signed["plays"], false);
    let watch = signed["token"].as_str().unwrap();
    let (_, view) = get(&base, "/api/board", watch).await;
    assert!(view["you"].is_null(), "{view}");
    let (status, _) = act(
        &base,
        watch,
        json!({"version": view["version"], "do": "pass"}),
    )
    .await;
    assert_eq!(status, 403);

    // Someone of another server only: told nothing of the game, as if it did not exist.
    let code = fake.grant_code(u(4), &[F::OTHER_GUILD_ID]);
    let (status, refused) = sign_in(
        &base,
        json!({"code": code, "custom_id": format!("game-{game}")}),
    )
    .await;
    assert_eq!(status, 404, "{refused}");
    let unknown = refused["error"].as_str().unwrap().to_string();
    let code = fake.grant_code(u(4), &[F::OTHER_GUILD_ID]);
    let (status, none) = sign_in(&base, json!({"code": code, "custom_id": "game-999"})).await;
    assert_eq!(status, 404);
    assert_eq!(
        none["error"]
            .as_str()
            .unwrap()
            .replace("999", &game.to_string()),
        unknown,
        "a game of another server reads like one that does not exist"
    );

    // The deep link's custom_id, launched in the parent channel: the game it names.
    let code = fake.grant_code(u(2), &[F::GUILD_ID]);
    let (status, signed) = sign_in(
        &base,
        json!({"code": code, "channel_id": F::CHANNEL_ID.to_string(),
               "custom_id": format!("game-{game}")}),
    )
    .await;
    assert_eq!(status, 200, "{signed}");
    assert_eq!(
        (signed["game"].as_i64(), signed["plays"].as_bool()),
        (Some(game), Some(true))
    );

    // A channel with no game, a forged code, a malformed sign-in: refused, saying why.
    let (status, r) = sign_in_member(&fake, &base, u(1), F::CHANNEL_ID).await;
    assert_eq!(status, 404, "{r}");
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("no game is played in this channel")
    );
    let (status, r) = sign_in(
        &base,
        json!({"code": "forgedCode0000000000000000000000", "channel_id": thread.to_string()}),
    )
    .await;
    assert_eq!(status, 401, "{r}");
    let (status, r) = sign_in(&base, json!({"code": 5})).await;
    assert_eq!(status, 400, "{r}");
    let (status, r) = sign_in(
        &base,
        json!({"code": "forgedCode0000000000000000000000", "channel_id": "12ab"}),
    )
    .await;
    assert_eq!(status, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("not a Discord id"));

    // The client secret is in no answer and no log line.
    let log = bot.log();
    assert!(!log.contains(CLIENT_SECRET), "the secret in the log");
    assert!(!log.contains("fake-access-"), "an access token in the log");
    assert!(!log.contains("fakecode"), "a code in the log");
    assert_eq!(
        bot.state(game).await.record().len(),
        0,
        "nothing was played"
    );
}

#[tokio::test]
async fn without_a_client_secret_there_is_no_activity() {
    let fake = F::start().await;
    let (_bot, base, game, thread) = board_game(&fake, &[]).await;
    let (turn, body) = turn_message(&fake, thread);
    assert_eq!(play_id(&body), None, "{body}");
    let panel_body = super::web::panel(&fake, thread).await;
    assert_eq!(play_id(&panel_body), None, "{panel_body}");
    assert!(panel_body.to_string().contains("Watch the board"));
    let (status, r) = get(&base, "/api/activity", "").await;
    assert_eq!(status, 404, "{r}");
    let (status, r) = sign_in_member(&fake, &base, u(1), thread).await;
    assert_eq!(status, 404, "{r}");
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("not set up as a Discord Activity")
    );
    assert!(fake.requests().iter().all(|s| s.path != "/oauth2/token"));

    // A Play button of before (the operator turned the Activity off): a private word, no launch.
    let play = format!("{game}:play:0");
    let i = fake.button(u(1), thread, turn, &play).await;
    let first = fake.first_response(&i, T).await.unwrap();
    let answer = first.json.as_ref().unwrap();
    assert_eq!(answer["type"], 4, "{first:?}");
    assert_eq!(answer["data"]["flags"], 64, "{first:?}");
    assert!(
        answer["data"]["content"]
            .as_str()
            .unwrap()
            .contains("no longer offered")
    );
}

/// The Activity in a real browser: the Discord client's page frames the board through
/// Discord's proxy; the board's script completes the SDK's handshake (HANDSHAKE, READY,
/// AUTHORIZE, AUTHENTICATE), signs in through our server and shows the player their own board,
/// where they play a move by taps that the thread then shows.
#[tokio::test]
async fn browser_the_sdk_handshake_signs_a_player_in_and_they_play_on_the_board() {
    if !built() {
        return;
    }
    let Some(driver) = browser::driver().await else {
        return;
    };
    let fake = F::start().await;
    let (bot, base, game, thread) = activity_game(&fake).await;
    // The board is up once it answers.
    get(&base, "/api/activity", "").await;
    let frame = Frame::start(&base).await;
    let c = driver.browser(390, 844).await;
    let code = fake.grant_code(u(1), &[F::GUILD_ID]);
    c.goto(&frame.client_url(&code, F::GUILD_ID, thread, None))
        .await
        .unwrap();
    c.enter_frame(0).await.unwrap();
    browser::at_version(&c, 0).await;
    assert_eq!(
        browser::until(&c, "document.body.dataset.activity").await,
        json!("player")
    );
    let who = browser::text_of(&c, "who").await;
    assert!(!who.is_empty(), "the page says whose board it is");

    // The handshake as the Discord client saw it.
    c.enter_parent_frame().await.unwrap();
    let rpc: Value = serde_json::from_str(
        browser::until(
            &c,
            "document.body.dataset.rpc.includes('AUTHENTICATE') && document.body.dataset.rpc",
        )
        .await
        .as_str()
        .unwrap(),
    )
    .unwrap();
    let frames = rpc.as_array().unwrap();
    assert_eq!(frames[0][0], 0, "HANDSHAKE first: {rpc}");
    assert_eq!(frames[0][1]["client_id"], F::APP_ID.to_string());
    assert_eq!(frames[0][1]["frame_id"], "frame-1");
    let cmds: Vec<&str> = frames.iter().filter_map(|f| f[1]["cmd"].as_str()).collect();
    assert_eq!(cmds, ["AUTHORIZE", "AUTHENTICATE"], "{rpc}");
    let authorize = &frames[1][1]["args"];
    assert_eq!(authorize["scope"], json!(["identify", "guilds"]));
    assert!(
        frames[2][1]["args"]["access_token"]
            .as_str()
            .unwrap()
            .starts_with("fake-access-")
    );
    assert!(!rpc.to_string().contains(CLIENT_SECRET));

    // A move by taps on the Activity's board: the thread shows it. Where to tap is read from
    // the API with a token of the same player's.
    let (_, signed) = sign_in_member(&fake, &base, u(1), thread).await;
    let token = signed["token"].as_str().unwrap();
    let (_, view) = get(&base, "/api/board", token).await;
    let cell = view["pieces"][0]["cell"].as_str().unwrap();
    let origin = view["pieces"][0]["origin"].as_str().unwrap();
    let hex = view["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c[2] == cell)
        .map(|c| (c[0].as_i64().unwrap() as i32, c[1].as_i64().unwrap() as i32))
        .unwrap();
    let (_, targets) = get(&base, &format!("/api/targets?origin={origin}"), token).await;
    let to = &targets[0]["hex"];
    let to = (
        to[0].as_i64().unwrap() as i32,
        to[1].as_i64().unwrap() as i32,
    );
    c.enter_frame(0).await.unwrap();
    browser::tap(&c, hex).await;
    browser::until(&c, "document.querySelector('.hl-target')").await;
    browser::tap(&c, to).await;
    let before = fake.messages(thread).len();
    browser::until(
        &c,
        "[...document.querySelectorAll('#actions button')].some(b => b.textContent === 'Pass')",
    )
    .await;
    browser::click_button(&c, "Pass").await;
    wait_message(&fake, thread, before, "played").await;
    assert_eq!(bot.state(game).await.record().len(), 1);
    browser::at_version(&c, 2).await;
    c.close().await.unwrap();
    // Inside Discord the page asks under Discord's proxy prefix, which the board answers.
    let asked = frame.requested();
    for path in ["/.proxy/api/token", "/.proxy/api/board", "/.proxy/api/act"] {
        assert!(
            asked.iter().any(|p| p == path),
            "{path} not asked: {asked:?}"
        );
    }

    // Black, through Discord's deep link, in the parent channel: the custom_id names the game,
    // and it is Black's turn on Black's own board.
    let c = driver.browser(1280, 800).await;
    let code = fake.grant_code(u(2), &[F::GUILD_ID]);
    let deep = format!("game-{game}");
    c.goto(&frame.client_url(&code, F::GUILD_ID, F::CHANNEL_ID, Some(&deep)))
        .await
        .unwrap();
    c.enter_frame(0).await.unwrap();
    browser::at_version(&c, 2).await;
    assert_eq!(
        browser::until(&c, "document.body.dataset.activity").await,
        json!("player")
    );
    browser::until(
        &c,
        "document.getElementById('who').textContent.includes('your turn')",
    )
    .await;
    c.close().await.unwrap();
}

/// Calls the bot made to Discord's token endpoint so far.
fn exchanges(fake: &F) -> usize {
    fake.requests()
        .iter()
        .filter(|s| s.path == "/oauth2/token")
        .count()
}

/// A sign-in's status, its `Retry-After` header (seconds) and its JSON answer.
async fn sign_in_raw(base: &str, body: Value) -> (u16, Option<u64>, Value) {
    let res = reqwest::Client::new()
        .post(format!("{base}/api/token"))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let wait = res
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok());
    (status, wait, res.json().await.unwrap_or(Value::Null))
}

/// A code shaped like Discord's that Discord never gave (it answers `invalid_grant`).
fn junk(i: usize) -> String {
    format!("junk{i:026}")
}

/// Issue 60: anyone who reaches the board can post sign-ins. Codes that do not look like
/// Discord's cost no call; after Discord answers the token endpoint 429 (30 s), 40 more
/// sign-ins, one after another and then all at once, make no call; each is answered 503 with
/// how long to wait, and so is a good code meanwhile.
#[tokio::test]
async fn junk_sign_ins_under_discords_429_make_at_most_one_call_and_malformed_codes_none() {
    if !built() {
        return;
    }
    let fake = F::start().await;
    let (bot, base, _game, thread) = activity_game(&fake).await;
    get(&base, "/api/activity", "").await;
    let channel = thread.to_string();

    let long = "x".repeat(65);
    for code in [
        "",
        "short",
        "fakecode-0000000000000000000001",
        "has spaces in it 0000000000",
        long.as_str(),
        "codé00000000000000000000000000",
        "<script>alert(1)</script>",
        "0000000000%00",
        "abc\u{0}defghijklmnop",
    ] {
        let (status, r) = sign_in(&base, json!({"code": code, "channel_id": channel})).await;
        assert_eq!(status, 400, "{code:?}: {r}");
        assert!(
            r["error"].as_str().unwrap().contains("no usable code"),
            "{code:?}: {r}"
        );
    }
    assert_eq!(exchanges(&fake), 0, "a malformed code reached Discord");

    // Discord answers the token endpoint 429 from now on, asking for 30 s.
    fake.fail_next("POST", "/oauth2/token", 429, Some(30.0), 1_000);
    for i in 0..40 {
        let (status, wait, r) =
            sign_in_raw(&base, json!({"code": junk(i), "channel_id": channel})).await;
        assert_eq!(status, 503, "sign-in {i}: {r}");
        let wait = wait.unwrap_or_else(|| panic!("no Retry-After: {r}"));
        assert!(
            (1..=30).contains(&wait),
            "sign-in {i} told to wait {wait} s"
        );
        assert_eq!(r["retry_after"], wait, "{r}");
        assert!(
            r["error"]
                .as_str()
                .unwrap()
                .contains("asked the bot to wait")
        );
    }
    assert_eq!(exchanges(&fake), 1, "40 junk sign-ins under a 429");
    // A player's good code meanwhile: refused the same way, without a call.
    let code = fake.grant_code(u(1), &[F::GUILD_ID]);
    let (status, _, r) = sign_in_raw(&base, json!({"code": code, "channel_id": channel})).await;
    assert_eq!(status, 503, "{r}");
    // 40 more at once: each refused with a wait, by Discord's wait or (past this address's
    // burst of 60 requests) by the address's rate.
    let burst = futures_util::future::join_all(
        (40..80).map(|i| sign_in_raw(&base, json!({"code": junk(i), "channel_id": channel}))),
    )
    .await;
    assert!(
        burst
            .iter()
            .all(|(s, w, _)| (*s == 503 || *s == 429) && w.is_some()),
        "{burst:?}"
    );
    assert_eq!(exchanges(&fake), 1, "no call while Discord's wait lasts");
    assert!(bot.log().contains("Discord answered 429"));
}

/// Issue 60: Discord's wait is honoured for as long as it asked (here 1.5 s), then a good
/// code signs in with the next call.
#[tokio::test]
async fn a_sign_in_succeeds_once_discords_wait_is_over() {
    if !built() {
        return;
    }
    let fake = F::start().await;
    let (_bot, base, game, thread) = activity_game(&fake).await;
    get(&base, "/api/activity", "").await;
    let channel = thread.to_string();
    fake.fail_next("POST", "/oauth2/token", 429, Some(1.5), 1);
    let began = std::time::Instant::now();
    let (status, wait, r) =
        sign_in_raw(&base, json!({"code": junk(0), "channel_id": channel})).await;
    assert_eq!((status, wait), (503, Some(2)), "{r}");
    let code = fake.grant_code(u(1), &[F::GUILD_ID]);
    let deadline = began + std::time::Duration::from_secs(20);
    let signed = loop {
        let (status, _, r) = sign_in_raw(&base, json!({"code": code, "channel_id": channel})).await;
        if status == 200 {
            break r;
        }
        assert_eq!(status, 503, "{r}");
        assert_eq!(exchanges(&fake), 1, "a call during Discord's wait");
        assert!(
            std::time::Instant::now() < deadline,
            "still refused after 20 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    eprintln!("signed in {:?} after the 429", began.elapsed());
    assert_eq!(
        (signed["game"].as_i64(), signed["plays"].as_bool()),
        (Some(game), Some(true))
    );
    assert_eq!(exchanges(&fake), 2);
    // The exchange as RFC 6749 §4.1.3 asks: the Activity's authorize had no redirect_uri, so
    // the exchange has none either.
    let sent = fake
        .requests()
        .into_iter()
        .rfind(|s| s.path == "/oauth2/token")
        .unwrap();
    let form = sent.json.unwrap();
    assert_eq!(form["grant_type"], "authorization_code");
    assert!(form.get("redirect_uri").is_none(), "{form}");
}

/// Issue 60: at most four sign-ins talk to Discord at once (the rest are answered 503 at once)
/// and at most `HEXMEROS_RATE_SIGN_INS` begin (the rest 429, with how long to wait).
#[tokio::test]
async fn sign_ins_are_bounded_at_once_and_in_rate() {
    if !built() {
        return;
    }
    let fake = F::start().await;
    let (_bot, base, _game, thread) = board_game(
        &fake,
        &[
            ("DISCORD_CLIENT_SECRET", CLIENT_SECRET),
            ("HEXMEROS_RATE_SIGN_INS", "5/10m"),
        ],
    )
    .await;
    get(&base, "/api/activity", "").await;
    let channel = thread.to_string();
    // Discord is slow to answer: 40 sign-ins at once.
    fake.hang_next(
        "POST",
        "/oauth2/token",
        std::time::Duration::from_secs(3),
        100,
    );
    let all = futures_util::future::join_all(
        (0..40).map(|i| sign_in_raw(&base, json!({"code": junk(i), "channel_id": channel}))),
    )
    .await;
    let busy = all
        .iter()
        .filter(|(s, w, r)| {
            *s == 503 && *w == Some(1) && r["error"].as_str().unwrap().contains("at once")
        })
        .count();
    assert_eq!(busy, 36, "{all:?}");
    assert_eq!(exchanges(&fake), 4);
    // One of the five left, then the rate.
    let mut refused = 0;
    for i in 40..48 {
        let (status, wait, r) =
            sign_in_raw(&base, json!({"code": junk(i), "channel_id": channel})).await;
        if status == 429 {
            refused += 1;
            assert!(wait.is_some_and(|w| (1..=120).contains(&w)), "{r}");
            assert!(r["error"].as_str().unwrap().contains("too many sign-ins"));
        }
    }
    assert_eq!((refused, exchanges(&fake)), (7, 5));
}

/// Issue 60: a member of the game's server who may not see the channel the game is played in
/// is not admitted as a spectator (told nothing of the game, as of one that does not exist);
/// one the channel lets in is, and a player always is.
#[tokio::test]
async fn a_spectator_must_see_the_games_channel() {
    if !built() {
        return;
    }
    let fake = F::start().await;
    let (_bot, base, game, thread) = activity_game(&fake).await;
    let (status, _) = get(&base, "/api/activity", "").await;
    assert_eq!(status, 200);
    // Only this application's Activity may frame the board, no other's.
    let res = reqwest::get(format!("{base}/board")).await.unwrap();
    let csp = res.headers()["content-security-policy"].to_str().unwrap();
    let ours = format!("https://{}.discordsays.com", F::APP_ID);
    assert!(
        csp.contains("frame-ancestors 'self' https://discord.com"),
        "{csp}"
    );
    assert!(
        csp.contains(&ours) && !csp.contains("*.discordsays.com"),
        "{csp}"
    );
    // The game's channel hidden from the server's members but user 5.
    fake.hide_channel(F::CHANNEL_ID, &[u(5)]);
    let (status, refused) = sign_in_member(&fake, &base, u(3), thread).await;
    assert_eq!(status, 404, "{refused}");
    assert!(refused.get("token").is_none(), "{refused}");
    let code = fake.grant_code(u(4), &[F::OTHER_GUILD_ID]);
    let (_, unknown) = sign_in(&base, json!({"code": code, "custom_id": "game-999"})).await;
    assert_eq!(
        refused["error"],
        unknown["error"]
            .as_str()
            .unwrap()
            .replace("999", &game.to_string()),
        "the words of a game that does not exist"
    );
    // Through the deep link too.
    let code = fake.grant_code(u(3), &[F::GUILD_ID]);
    let (status, _) = sign_in(
        &base,
        json!({"code": code, "custom_id": format!("game-{game}")}),
    )
    .await;
    assert_eq!(status, 404);
    // The member the channel lets in watches; a player plays, whoever the channel hides.
    let (status, signed) = sign_in_member(&fake, &base, u(5), thread).await;
    assert_eq!(
        (status, signed["plays"].as_bool()),
        (200, Some(false)),
        "{signed}"
    );
    let (status, signed) = sign_in_member(&fake, &base, u(2), thread).await;
    assert_eq!(
        (status, signed["plays"].as_bool()),
        (200, Some(true)),
        "{signed}"
    );
    // A member who has left the server is not admitted either.
    fake.remove_member(F::GUILD_ID, u(5));
    let (status, _) = sign_in_member(&fake, &base, u(5), thread).await;
    assert_eq!(status, 404);
}
