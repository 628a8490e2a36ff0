//! The web board beside the real bot (issue 46), against the fake Discord: the status panel's
//! "Watch the board" link (a spectator's), "My board" on My side (a link for the presser only),
//! a move played on the board delivered in the thread like a button's, and a move made in
//! Discord reaching an open board's live stream.

use std::time::Duration;

use futures_util::StreamExt as _;
use hexmeros_testkit::{bot, fake_discord};
use serde_json::{Value, json};

use bot::*;
use fake_discord::FakeDiscord as F;

/// A free port on loopback for the bot's board.
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// Every link button of a message: (label, url).
fn links(body: &Value) -> Vec<(String, String)> {
    body["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().unwrap().iter())
        .filter(|c| c["type"] == 2 && c["style"] == 5)
        .map(|c| {
            (
                c["label"].as_str().unwrap().to_string(),
                c["url"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn token_of(url: &str, base: &str) -> String {
    let rest = url
        .strip_prefix(&format!("{base}/board#t="))
        .unwrap_or_else(|| panic!("{url} is not a board link of {base}"));
    rest.to_string()
}

/// `GET path` with `token`, retried until the bot's board answers (it starts with the bot).
pub async fn get(base: &str, path: &str, token: &str) -> (u16, Value) {
    let http = reqwest::Client::new();
    let deadline = tokio::time::Instant::now() + T;
    loop {
        match http
            .get(format!("{base}{path}"))
            .bearer_auth(token)
            .send()
            .await
        {
            Ok(res) => {
                let status = res.status().as_u16();
                return (status, res.json().await.unwrap_or(Value::Null));
            }
            Err(e) => {
                assert!(tokio::time::Instant::now() < deadline, "no board: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

pub async fn act(base: &str, token: &str, body: Value) -> (u16, Value) {
    post(base, "/api/act", token, body).await
}

/// `POST path` of `body` as JSON with `token`: the status and the JSON answer.
pub async fn post(base: &str, path: &str, token: &str, body: Value) -> (u16, Value) {
    let res = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// A bot serving the board on a free port of loopback at a public address (and `more`
/// settings), with a HexDame game of users 1 and 2 begun: the bot, the board's base address,
/// the game and its thread.
pub async fn board_game(fake: &F, more: &[(&str, &str)]) -> (Bot, String, i64, u64) {
    let game_opt = json!({"type": 4, "name": "game", "value": 1});
    board_game_of(fake, &[u(1), u(2)], vec![game_opt], more).await
}

/// [`board_game`] of `players`, with `/hexmeros new`'s `options`.
pub async fn board_game_of(
    fake: &F,
    players: &[u64],
    options: Vec<Value>,
    more: &[(&str, &str)],
) -> (Bot, String, i64, u64) {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let addr = format!("127.0.0.1:{port}");
    let mut env = vec![
        ("HEXMEROS_WEB", addr.as_str()),
        ("HEXMEROS_PUBLIC_URL", base.as_str()),
    ];
    env.extend_from_slice(more);
    let bot = Bot::start_with(fake, None, &env).await;
    let (game, thread) = start_game(fake, players, options).await;
    wait_message(fake, thread, 0, "you have the Token").await;
    (bot, base, game, thread)
}

/// The first target of the first movable piece on `token`'s board, staged and passed there:
/// the move's text and the version the board showed before.
async fn play_first_move(base: &str, token: &str, view: &Value) -> (String, u64) {
    let origin = view["pieces"][0]["origin"].as_str().unwrap().to_string();
    let (_, targets) = get(base, &format!("/api/targets?origin={origin}"), token).await;
    let text = targets[0]["moves"][0].as_str().unwrap().to_string();
    let v = view["version"].as_u64().unwrap();
    let (status, r) = act(
        base,
        token,
        json!({"version": v, "do": "stage", "text": text}),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = act(base, token, json!({"version": v + 1, "do": "pass"})).await;
    assert_eq!(status, 200, "{r}");
    (text, v)
}

/// The thread's status panel as it stands, once it is pinned.
pub async fn panel(fake: &F, thread: u64) -> Value {
    let deadline = tokio::time::Instant::now() + T;
    loop {
        if let Some(&id) = fake.pinned(thread).first()
            && let Some(m) = fake.message(id)
        {
            return m;
        }
        assert!(tokio::time::Instant::now() < deadline, "no pinned panel");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// My side pressed by `user`: the "My board" link's token, if the answer has one.
pub(crate) async fn my_board(fake: &F, user: u64, thread: u64, base: &str) -> Option<String> {
    let (turn, body) = turn_message(fake, thread);
    let id = custom_ids(&body)
        .into_iter()
        .find(|id| id.split(':').nth(1) == Some("board"))
        .unwrap();
    let r = click(fake, user, thread, turn, &id).await;
    let json = r.json.clone().unwrap();
    links(&json)
        .into_iter()
        .find(|(label, _)| label == "My board")
        .map(|(_, url)| token_of(&url, base))
}

#[tokio::test]
async fn the_board_is_reached_from_discord_and_plays_through_the_thread() {
    let fake = F::start().await;
    let (bot, base, game, thread) = board_game(&fake, &[]).await;

    // The turn message has no link; the status panel has "Watch the board", a spectator's.
    let (_, body) = turn_message(&fake, thread);
    assert!(links(&body).is_empty(), "{body}");
    let panel = panel(&fake, thread).await;
    let open = links(&panel);
    let (_, url) = open
        .iter()
        .find(|(l, _)| l == "Watch the board")
        .unwrap_or_else(|| panic!("no board link: {panel}"));
    let watch = token_of(url, &base);
    let (status, view) = get(&base, "/api/board", &watch).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["game"], game);
    assert!(view["you"].is_null(), "a spectator's link: {view}");
    let (status, _) = act(
        &base,
        &watch,
        json!({"version": view["version"], "do": "pass"}),
    )
    .await;
    assert_eq!(status, 403, "a spectator cannot act");

    // My board: a link of the presser's own; none for someone not in the game.
    let white = my_board(&fake, u(1), thread, &base)
        .await
        .expect("My board");
    assert!(my_board(&fake, u(3), thread, &base).await.is_none());
    let (_, view) = get(&base, "/api/board", &white).await;
    assert_eq!(view["you"]["mover"], true, "{view}");

    // Black follows the game live.
    let black = my_board(&fake, u(2), thread, &base)
        .await
        .expect("My board");
    let res = reqwest::Client::new()
        .get(format!("{base}/api/live"))
        .bearer_auth(&black)
        .send()
        .await
        .unwrap();
    let mut live = res.bytes_stream();

    // A move played on the board: posted in the thread as a button's would be.
    let before = fake.messages(thread).len();
    let (text, v) = play_first_move(&base, &white, &view).await;
    wait_message(&fake, thread, before, &format!("played {text}")).await;
    assert_eq!(bot.state(game).await.record().len(), 1);

    // Black's open board hears of it without reloading.
    let deadline = tokio::time::Instant::now() + T;
    let mut seen = String::new();
    while !seen.contains(&format!("data: {}", v + 2)) && !seen.contains(&format!("data:{}", v + 2))
    {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let chunk = tokio::time::timeout(left, live.next())
            .await
            .unwrap_or_else(|_| panic!("no version {} on the live stream: {seen}", v + 2));
        seen.push_str(&String::from_utf8_lossy(&chunk.unwrap().unwrap()));
    }
}

/// A Pass on the board is confirmed only once it is stored: the process killed (SIGKILL) the
/// moment the board answered loses nothing, and the next process posts the move in the thread
/// (from the outbox) once, not twice.
#[tokio::test]
async fn a_pass_on_the_board_survives_a_kill_right_after_its_answer() {
    let fake = F::start().await;
    let (mut bot, base, game, thread) = board_game(&fake, &[]).await;
    let white = my_board(&fake, u(1), thread, &base)
        .await
        .expect("My board");
    let (_, view) = get(&base, "/api/board", &white).await;
    let (text, v) = play_first_move(&base, &white, &view).await;
    bot.kill();
    assert_eq!(
        bot.state(game).await.record().len(),
        1,
        "the Pass was stored"
    );

    bot.start_again(&fake).await;
    let played = format!("played {text}");
    wait_message(&fake, thread, 0, &played).await;
    // Black's ping follows the move: by then everything of the move was delivered.
    let count = |needle: &str| {
        fake.messages(thread)
            .iter()
            .filter(|m| content(m).contains(needle))
            .count()
    };
    let deadline = tokio::time::Instant::now() + T;
    while count("you have the Token") < 2 {
        assert!(tokio::time::Instant::now() < deadline, "no ping for Black");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(count(&played), 1, "the move's board once, not twice");
    let (_, view) = get(&base, "/api/board", &white).await;
    assert_eq!(view["version"].as_u64(), Some(v + 2), "{view}");
    assert_eq!(bot.state(game).await.record().len(), 1);
}

/// Raise this test process's soft open-file limit to its hard one: it holds more than 1,024
/// sockets at once.
fn raise_own_open_files() -> u64 {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct they are given.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim), 0);
        lim.rlim_cur = lim.rlim_max.min(1 << 20);
        libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim);
    }
    lim.rlim_cur
}

/// Whether the server closes `s` before `deadline`, whatever it sends first.
async fn closed_by(mut s: tokio::net::TcpStream, deadline: tokio::time::Instant) -> bool {
    use tokio::io::AsyncReadExt as _;
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

/// Issue 60: 1,100 connections that send nothing, half a request's headers, a request and then
/// nothing, or half a request's body are closed by the board's timeouts (here shortened to 1 s
/// for headers and 3 s of silence), and the board is served meanwhile and afterwards.
#[tokio::test]
async fn idle_and_half_sent_connections_are_closed_and_the_board_stays_served() {
    use tokio::io::AsyncWriteExt as _;
    let files = raise_own_open_files();
    assert!(
        files > 2_400,
        "the test needs 2,400 open files, not {files}"
    );
    let fake = F::start().await;
    let (bot, base, _game, _thread) = board_game(
        &fake,
        &[
            ("HEXMEROS_WEB_HEADER_TIMEOUT_MS", "1000"),
            ("HEXMEROS_WEB_IDLE_TIMEOUT_MS", "3000"),
        ],
    )
    .await;
    let (status, _) = get(&base, "/", "").await;
    assert_eq!(status, 200);
    let addr = base.strip_prefix("http://").unwrap().to_string();
    let began = tokio::time::Instant::now();
    let mut socks = Vec::new();
    for i in 0..1_100 {
        let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
        let sent: &[u8] = match i % 55 {
            // Half a request's headers.
            0 => b"GET /board HTTP/1.1\r\nHost: board\r\nAccept: text/",
            // A whole request, then nothing (kept alive).
            1 => b"GET /assets/board.css HTTP/1.1\r\nHost: board\r\n\r\n",
            // Whole headers, then half the body.
            2 => {
                b"POST /api/act HTTP/1.1\r\nHost: board\r\nContent-Type: application/json\r\n\
                   Content-Length: 200\r\n\r\n{\"version\": 1,"
            }
            // Nothing at all.
            _ => b"",
        };
        s.write_all(sent).await.unwrap();
        socks.push(s);
    }
    // Meanwhile a real request is served.
    let (status, _) = get(&base, "/", "").await;
    assert_eq!(status, 200, "the board while 1,100 connections are open");
    let deadline = began + Duration::from_secs(60);
    let closed =
        futures_util::future::join_all(socks.into_iter().map(|s| closed_by(s, deadline))).await;
    let open = closed.iter().filter(|c| !**c).count();
    assert_eq!(open, 0, "{open} of 1,100 connections still open after 60 s");
    eprintln!("1,100 idle connections closed in {:?}", began.elapsed());
    let (status, _) = get(&base, "/", "").await;
    assert_eq!(status, 200, "the board afterwards");
    let log = bot.log();
    assert!(log.contains("open files"), "the open-file limit is logged");
    assert!(log.contains("web board listening"), "{log}");
}

/// Issue 60: a player who left the game's server (or was banned from it) acts there through no
/// board link: their link is refused, saying why, and nothing is played; the other player's
/// link works as before.
#[tokio::test]
async fn a_player_who_left_the_server_has_their_board_link_ended() {
    let fake = F::start().await;
    let (bot, base, game, thread) = board_game(&fake, &[]).await;
    let one = my_board(&fake, u(1), thread, &base).await.unwrap();
    let two = my_board(&fake, u(2), thread, &base).await.unwrap();
    fake.remove_member(F::GUILD_ID, u(1));
    let (status, r) = get(&base, "/api/board", &one).await;
    assert_eq!(status, 403, "{r}");
    assert!(
        r["error"].as_str().unwrap().contains("no longer a member"),
        "{r}"
    );
    let (status, r) = act(&base, &one, json!({"version": 0, "do": "pass"})).await;
    assert_eq!(status, 403, "{r}");
    let (status, view) = get(&base, "/api/board", &two).await;
    assert_eq!(status, 200, "{view}");
    assert!(view["you"].is_object(), "{view}");
    assert_eq!(
        bot.state(game).await.record().len(),
        0,
        "nothing was played"
    );
}

/// Issue 62: with the web board served, its door takes no piece button's place: the opening
/// HexiMeros turn message carries all 22 movable pieces, Move…, Type move… and My side (25
/// buttons, no link), and the Token holder's own board link comes privately from My side: a
/// player's link (it may act), not a spectator's.
#[tokio::test]
async fn the_board_door_never_takes_a_piece_buttons_place() {
    let fake = F::start().await;
    let players: Vec<u64> = (1..=6).map(u).collect();
    let (_bot, base, _game, thread) = board_game_of(&fake, &players, Vec::new(), &[]).await;
    let (_, body) = turn_message(&fake, thread);
    let start =
        hexmeros::games::AnyGame::new(hexmeros::games::GameKind::HexiMeros, None, None).unwrap();
    assert_eq!(hexmeros::view::picker::pieces(&start).len(), 22);
    let ids = custom_ids(&body);
    let key = |k: &str| {
        ids.iter()
            .filter(|id| id.split(':').nth(1) == Some(k))
            .count()
    };
    assert_eq!(
        key("open"),
        22,
        "every movable piece, a button each: {body}"
    );
    for k in ["pick", "type", "board"] {
        assert_eq!(key(k), 1, "{k}: {body}");
    }
    assert_eq!(ids.len(), 25, "{body}");
    assert!(
        links(&body).is_empty(),
        "no link on the turn message: {body}"
    );
    // The Token holder's My side: their own board, one that may act.
    let token = my_board(&fake, u(1), thread, &base)
        .await
        .expect("My board for the Token holder");
    let (status, view) = get(&base, "/api/board", &token).await;
    assert_eq!(status, 200, "{view}");
    assert!(
        !view["you"].is_null(),
        "a player's link, not a spectator's: {view}"
    );
    assert_eq!(view["you"]["mover"], true, "{view}");
}
