//! `hexmeros local` as a process: a move it confirmed survives a SIGKILL, and the game resumes;
//! with `--web`, a move played on the board in the browser, answered by a bot.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use hexmeros::host::{GameHost, SystemClock};
use hexmeros::store::Store;

/// `hexmeros local` on the database `url`, in `dir`, fed `input`: what it printed.
fn local(dir: &std::path::Path, url: &str, input: &str) -> String {
    let run = Command::new(env!("CARGO_BIN_EXE_hexmeros"))
        .args(["local", "--db", url])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(run.stdin.as_ref().unwrap(), "{input}").unwrap();
    String::from_utf8(run.wait_with_output().unwrap().stdout).unwrap()
}

#[tokio::test]
async fn a_confirmed_move_survives_sigkill_and_the_game_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("local.db").display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexmeros"))
        .args(["local", "--db", &url])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "new heximeros ann bob cy di ed flo\nplay K2-H3").unwrap();
    stdin.flush().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "the process ended early"
        );
        if line.contains("saved (game #1, turn 2)") {
            break;
        }
    }
    // SIGKILL right after the confirmation: no chance to flush or close anything.
    child.kill().unwrap();
    child.wait().unwrap();
    let host = GameHost::new(
        Store::open(&url).await.unwrap(),
        std::sync::Arc::new(SystemClock),
    );
    let st = host.state(1).await.unwrap();
    assert_eq!(st.version(), 1);
    assert_eq!(st.record()[0].line, "silver K2-H3");

    // Starting again resumes the game where it stood.
    let run = Command::new(env!("CARGO_BIN_EXE_hexmeros"))
        .args(["local", "--db", &url])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = run.stdin.as_ref().unwrap();
    writeln!(stdin, "history\nplay B21-C22\nquit").unwrap();
    let output = run.wait_with_output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("resuming game #1"), "{text}");
    assert!(text.contains("1. silver K2-H3"), "{text}");
    assert!(
        text.contains("bob (blue) has the Token") || text.contains("Blue (bob) has the Token"),
        "{text}"
    );
    // After the turn, the board picture was written beside (the working directory) and said so.
    let png = dir.path().join("hexmeros-game-1.png");
    assert!(text.contains("hexmeros-game-1.png"), "{text}");
    let img = image::load_from_memory(&std::fs::read(&png).unwrap()).unwrap();
    assert!(img.width().max(img.height()) >= 1600);
}

#[test]
fn no_arguments_points_to_local_mode() {
    let out = Command::new(env!("CARGO_BIN_EXE_hexmeros"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(
        text.contains("DISCORD_TOKEN") && text.contains("hexmeros local"),
        "{text}"
    );
}

/// Local mode with a bot seat: after the person's move the bot answers at once, and its move is
/// printed and stored.
#[tokio::test]
async fn a_bot_seat_moves_after_the_person() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("local.db").display());
    let game =
        hexmeros::games::AnyGame::new(hexmeros::games::GameKind::HexDame, None, None).unwrap();
    let first = game.legal_moves()[0].clone();
    let bot_seat = game.seat_name(hexmeros::games::Seat(1));
    let run = Command::new(env!("CARGO_BIN_EXE_hexmeros"))
        .args(["local", "--db", &url])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = run.stdin.as_ref().unwrap();
    writeln!(
        stdin,
        "new hexdame ann bot:easy\nplay {first}\nhistory\nquit"
    )
    .unwrap();
    let output = run.wait_with_output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("saved (game #1, turn 2)"), "{text}");
    // Sentences name a seat as players read it (Black); the record keeps the notation (black).
    let mut c = bot_seat.chars();
    let bot_title: String = c.next().unwrap().to_uppercase().chain(c).collect();
    assert!(text.contains(&format!("{bot_title} played")), "{text}");
    assert!(text.contains(&format!("2. {bot_seat} ")), "{text}");
    assert!(text.contains("(ann) has the Token"), "{text}");
    let host = GameHost::new(
        Store::open(&url).await.unwrap(),
        std::sync::Arc::new(SystemClock),
    );
    let st = host.state(1).await.unwrap();
    assert_eq!(st.version(), 2);
    assert_eq!(
        st.seats()[1].player,
        hexmeros::host::bot_id(hexmeros::ai::Level::Easy)
    );
    // A bad level is a clear error.
    let text = local(dir.path(), &url, "new hexdame ann bot:genius\nquit");
    assert!(text.contains("error: unknown level \"genius\""), "{text}");
}

/// Local mode's `away` and `back`: a player's clock stops in their games, the table hears of it,
/// and a bad duration is a clear error.
#[tokio::test]
async fn a_local_player_goes_away_and_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("local.db").display());
    let text = local(
        dir.path(),
        &url,
        "new hexdame ann bob\nbob: away 2d visiting family\nbob: away soon\nbob: back\nquit",
    );
    assert!(text.contains("#1 hexdame: away"), "{text}");
    assert!(text.contains("is away until"), "{text}");
    assert!(text.contains("(visiting family)"), "{text}");
    assert!(
        text.contains("error: \"soon\" is not a length of time"),
        "{text}"
    );
    assert!(text.contains("#1 hexdame: back"), "{text}");
    assert!(text.contains("is back"), "{text}");
    let host = GameHost::new(
        Store::open(&url).await.unwrap(),
        std::sync::Arc::new(SystemClock),
    );
    let st = host.state(1).await.unwrap();
    assert!(st.away(hexmeros::games::Seat(1)).is_none());
    assert_eq!(st.version(), 2, "away, then back");
}

/// Issue 45: `moves` lists the Token holder's legal moves piece by piece; after a move the
/// status under the board says what was played since, and the confirmation names the turn,
/// not the store's version.
#[test]
fn moves_lists_the_legal_moves_and_the_board_says_what_was_played() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("local.db").display());
    let game =
        hexmeros::games::AnyGame::new(hexmeros::games::GameKind::HexDame, None, None).unwrap();
    let first = game.legal_moves()[0].clone();
    let piece = game.movable_pieces()[0].clone();
    let text = local(
        dir.path(),
        &url,
        &format!("new hexdame ann bob\nmoves\nplay {first}\nboard\nquit"),
    );
    let listed = text
        .lines()
        .map(|l| l.trim_start_matches("> "))
        .find(|l| l.starts_with(&format!("{piece}: ")))
        .unwrap_or_else(|| panic!("no line for {piece}: {text}"));
    for m in game.moves_from(&piece) {
        assert!(
            listed.split(' ').any(|w| w == m),
            "{m} missing from {listed}"
        );
    }
    let lines = text
        .lines()
        .filter(|l| l.contains(": ") && !l.contains(' '))
        .count();
    assert_eq!(lines, 0, "{text}");
    assert!(text.contains("saved (game #1, turn 2)"), "{text}");
    assert!(!text.contains("version"), "{text}");
    let mover = game.seat_name(hexmeros::games::Seat(0));
    assert!(
        text.contains(&format!("since then: {mover} {first}")),
        "{text}"
    );
}

/// The next line of `out` containing `needle`, read in a thread of its own so a silent process
/// fails the test at the deadline instead of hanging it.
fn line_with(
    out: std::sync::Arc<std::sync::Mutex<BufReader<std::process::ChildStdout>>>,
    needle: &'static str,
) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = out.lock().unwrap();
        let mut line = String::new();
        loop {
            line.clear();
            if out.read_line(&mut line).unwrap_or(0) == 0 {
                let _ = tx.send(None);
                return;
            }
            if line.contains(needle) {
                let _ = tx.send(Some(line.trim().to_string()));
                return;
            }
        }
    });
    rx.recv_timeout(std::time::Duration::from_secs(60))
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no line with {needle:?}"))
}

#[tokio::test]
async fn local_web_plays_a_move_on_the_board_and_the_bot_answers() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("local.db").display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexmeros"))
        .args(["local", "--db", &url, "--no-png", "--web", "127.0.0.1:0"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let out = std::sync::Arc::new(std::sync::Mutex::new(BufReader::new(
        child.stdout.take().unwrap(),
    )));
    let served = line_with(out.clone(), "the board is served at");
    assert!(served.contains("http://127.0.0.1:"), "{served}");
    writeln!(stdin, "new hexdame ann bot:easy").unwrap();
    stdin.flush().unwrap();
    let link = line_with(out.clone(), "board for ann: ");
    let link = link.split_once("board for ann: ").unwrap().1.to_string();
    let (base, token) = link.split_once("/board#t=").unwrap();
    let http = reqwest::Client::new();
    let board = |path: &'static str| http.get(format!("{base}{path}")).bearer_auth(token).send();
    let view: serde_json::Value = board("/api/board").await.unwrap().json().await.unwrap();
    assert_eq!(view["you"]["label"], "White", "{view}");
    assert_eq!(view["you"]["mover"], true, "{view}");
    let origin = view["pieces"][0]["origin"].as_str().unwrap();
    let targets: serde_json::Value = http
        .get(format!("{base}/api/targets?origin={origin}"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let text = targets[0]["moves"][0].as_str().unwrap();
    let v = view["version"].as_u64().unwrap();
    for (version, body) in [
        (v, serde_json::json!({"do": "stage", "text": text})),
        (v + 1, serde_json::json!({"do": "pass"})),
    ] {
        let mut body = body;
        body["version"] = version.into();
        let res = http
            .post(format!("{base}/api/act"))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 200, "{:?}", res.text().await);
    }
    // The bot answers on its own: two moves in the story, and White to move again.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let view: serde_json::Value = board("/api/board").await.unwrap().json().await.unwrap();
        if view["story"].as_array().unwrap().len() == 2 && view["you"]["mover"] == true {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the bot did not answer: {view}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    drop(stdin);
    child.kill().unwrap();
    child.wait().unwrap();
}

/// The terminal names the players of the host's sentences (`host::words`) by their names: the
/// vote on a resigning player's replacement reads "zed takes over …", never "player 7 takes
/// over …".
#[test]
fn sentences_name_players_by_their_names() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("local.db").display());
    let text = local(
        dir.path(),
        &url,
        "new heximeros ann bob cy di ed flo\nbob: resign new:zed\nquit",
    );
    assert!(text.contains("zed takes over"), "{text}");
    assert!(!text.contains("player "), "{text}");
}

/// Issue 61: words after a command that takes none are refused, not ignored (`pass now please`
/// is no pass), a stray word is never made a replacement player, a person is never seated
/// twice, and an unknown game is said with the ones there are; none of it changes anything.
#[tokio::test]
async fn loose_words_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("local.db").display());
    let game =
        hexmeros::games::AnyGame::new(hexmeros::games::GameKind::HexDame, None, None).unwrap();
    let first = game.legal_moves()[0].clone();
    let text = local(
        dir.path(),
        &url,
        &format!(
            "new hexdame ann Ann\nnew hexdam ann bob\nnew hexdame ann bob\nmove {first}\n\
             pass now please\nresign please\nvote replace white please\nboard extra\nscore chess\nquit"
        ),
    );
    let errors: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim_start_matches("> ").strip_prefix("error: "))
        .collect();
    assert_eq!(errors.len(), 7, "{text}");
    assert!(errors[0].contains("Ann is named twice"), "{errors:?}");
    assert!(
        errors[1].contains("unknown game hexdam (one of") && errors[1].contains("hexdame"),
        "{errors:?}"
    );
    assert!(
        errors[2].contains("pass takes no more words: \"now please\" is not understood"),
        "{errors:?}"
    );
    for e in &errors[3..5] {
        assert!(e.contains("nobody is called please"), "{errors:?}");
    }
    assert!(
        errors[5].contains("board takes no more words"),
        "{errors:?}"
    );
    assert!(errors[6].contains("unknown game chess"), "{errors:?}");
    // One game, its move staged and not passed, and no player called "please".
    let host = GameHost::new(
        Store::open(&url).await.unwrap(),
        std::sync::Arc::new(SystemClock),
    );
    assert_eq!(host.all_games().await.unwrap().len(), 1);
    let st = host.state(1).await.unwrap();
    assert_eq!(st.record().len(), 0, "nothing was passed: {text}");
    assert!(
        st.holder().is_some() && st.outcome().is_none(),
        "nobody resigned"
    );
    assert_eq!(host.player_named("please").await.unwrap(), None);
}

/// `import --players ann ann` seats nobody twice.
#[test]
fn an_import_seats_nobody_twice() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("i.db").display());
    hexmeros_testkit::cli::fails(
        &["import", "-", "--players", "ann", "ANN", "--db", &url],
        "hexdame\n",
        "--players names ANN twice",
    );
}
