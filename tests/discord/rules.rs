#![allow(clippy::unwrap_used)]
//! End-to-end tests of `/hexmeros rules`: the real `hexmeros serve` binary against the fake
//! Discord of `tests/support/fake_discord.rs` (the harness of `tests/support/bot.rs`). Every
//! answer is private; a legend or a piece's moves comes as a PNG, bad input as a sentence and
//! nothing else.

use hexmeros_testkit::{bot, fake_discord};

use std::time::Duration;

use fake_discord::{FakeDiscord as F, Interaction, Sent};
use serde_json::{Value, json};

use bot::{Bot, T, assert_clean, content, is_private, str_opt};

fn rules(options: Value) -> Value {
    json!([{ "type": 1, "name": "rules", "options": options }])
}

/// `game`: the index of the choice (0 HexiMeros, 1 HexDame, …), as poise registers choices.
fn game_opt(index: u64) -> Value {
    json!({"type": 4, "name": "game", "value": index})
}

/// Ask `/hexmeros rules` with `options` in the main channel, as user `user` (a picture costs
/// from the asker's picture rate, so a test asking many spreads them over users): the
/// acknowledgement must come in time, and the answer is the interaction's first followup.
async fn ask(fake: &F, user: u64, options: Value) -> Sent {
    ask_in(fake, F::CHANNEL_ID, user, options).await
}

/// [`ask`] in `channel`.
async fn ask_in(fake: &F, channel: u64, user: u64, options: Value) -> Sent {
    let i: Interaction = fake
        .slash(F::user(user), channel, "hexmeros", rules(options))
        .await;
    let first = fake.first_response(&i, T).await.unwrap();
    assert_eq!(first.status, 204, "first response {first:?}");
    let sent = fake
        .wait_responses(&i, T, 1, |s| {
            s.method == "POST" && s.path.starts_with("/webhooks/")
        })
        .await
        .unwrap();
    sent.into_iter().next().unwrap()
}

/// What Discord counts toward a command's 8000 characters: names, descriptions and choice
/// names and values, of the command, its options, subcommands and choices.
fn characters(v: &Value) -> usize {
    match v {
        Value::Object(m) => m
            .iter()
            .map(|(k, x)| match (k.as_str(), x) {
                ("name" | "description" | "value", Value::String(s)) => s.chars().count(),
                ("value", n @ Value::Number(_)) => n.to_string().len(),
                ("options" | "choices", x) => characters(x),
                _ => 0,
            })
            .sum(),
        Value::Array(a) => a.iter().map(characters).sum(),
        _ => 0,
    }
}

/// The values an autocomplete answered.
fn choices(s: &Sent) -> Vec<String> {
    let body = s.json.as_ref().unwrap();
    assert_eq!(body["type"], 8, "{s:?}");
    body["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_str().unwrap().to_string())
        .collect()
}

/// The answer's one PNG, decoded: at least 200 px a side, and not one flat colour.
fn picture(s: &Sent) -> image::RgbaImage {
    let pngs: Vec<_> = s
        .files
        .iter()
        .filter(|(n, _)| n.ends_with(".png"))
        .collect();
    assert_eq!(
        pngs.len(),
        1,
        "files {:?}",
        s.files.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    let (name, bytes) = pngs[0];
    let img = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .to_rgba8();
    assert!(
        img.width() >= 200 && img.height() >= 200,
        "{name} is too small"
    );
    let background = *img.get_pixel(0, 0);
    let drawn = img.pixels().filter(|p| **p != background).count();
    assert!(
        drawn * 30 > (img.width() * img.height()) as usize,
        "{name} is nearly blank"
    );
    img
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_answers_every_game_and_a_pieces_moves_with_a_picture() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;

    // Registered as a subcommand with its three options, the command still within Discord's
    // 8000 characters of names, descriptions and choices.
    let deadline = tokio::time::Instant::now() + T;
    let hexmeros = loop {
        let found = fake
            .commands()
            .into_iter()
            .find(|c| c["name"] == "hexmeros");
        if let Some(c) = found {
            break c;
        }
        assert!(tokio::time::Instant::now() < deadline, "no commands");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let sub = hexmeros["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "rules")
        .expect("a rules subcommand");
    let options: Vec<&str> = sub["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(options, ["game", "piece", "cell"]);
    let used = characters(&hexmeros);
    assert!((1000..=8000).contains(&used), "{used} characters");

    let names = [
        "HexiMeros",
        "HexDame",
        "Hexmeister",
        "HexaEquo",
        "Harmegedo",
    ];
    let mut sizes = Vec::new();
    for (index, name) in names.iter().enumerate() {
        let answer = ask(&fake, index as u64 + 1, json!([game_opt(index as u64)])).await;
        assert!(is_private(&answer), "{name}: not private");
        let text = content(&answer);
        assert!(text.contains(&format!("{name} — rules in brief")), "{text}");
        assert!(text.contains("Cell names"), "{text}");
        let img = picture(&answer);
        sizes.push((img.width(), img.height()));
    }
    // Five games, five legends (not one picture five times).
    let mut distinct = sizes.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() >= 3, "{sizes:?}");

    // Outside a game's thread and with no game named: HexiMeros.
    let answer = ask(&fake, 6, json!([])).await;
    assert!(content(&answer).contains("HexiMeros — rules in brief"));
    picture(&answer);

    // A piece's moves: a HexDame king in the centre reaches 24 cells.
    let answer = ask(
        &fake,
        7,
        json!([game_opt(1), str_opt("piece", "King"), str_opt("cell", "e5")]),
    )
    .await;
    assert!(is_private(&answer));
    let text = content(&answer);
    assert!(text.contains("HexDame King on e5"), "{text}");
    assert!(text.contains("24 targets"), "{text}");
    assert!(text.contains("i9"), "{text}");
    picture(&answer);

    // No cell: the game's central one.
    let answer = ask(&fake, 8, json!([str_opt("piece", "cavalier")])).await;
    let text = content(&answer);
    assert!(text.contains("HexiMeros Cavalier on Q20"), "{text}");
    assert!(text.contains("24 targets"), "{text}");
    picture(&answer);

    // The piece option offers the pieces of the game named.
    let focused = json!({"type": 3, "name": "piece", "value": "", "focused": true});
    let i = fake
        .autocomplete(
            F::user(1),
            F::CHANNEL_ID,
            "hexmeros",
            rules(json!([game_opt(4), focused])),
        )
        .await;
    let offered = choices(&fake.first_response(&i, T).await.unwrap());
    assert_eq!(
        offered,
        ["King", "Queen", "Rook", "Bishop", "Knight", "Pawn"]
    );
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_games_thread_rules_are_that_games() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    // A HexDame game against a bot starts at once, in a thread of its own.
    let i = fake
        .slash(
            F::user(1),
            F::CHANNEL_ID,
            "hexmeros",
            json!([{"type": 1, "name": "start", "options": [
                {"type": 6, "name": "p1", "value": F::user(1).to_string()},
                {"type": 4, "name": "game", "value": 1},
                {"type": 4, "name": "bots", "value": 1},
            ]}]),
        )
        .await;
    fake.first_response(&i, T).await.unwrap();
    let deadline = tokio::time::Instant::now() + T;
    // The thread is the game's once the bot has posted in it: it records the thread as the
    // game's after Discord opens it, and only then posts the board there.
    let thread = loop {
        if let Some((thread, _, _)) = fake.threads().into_iter().next()
            && !fake.messages(thread).is_empty()
        {
            break thread;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no game thread was opened and posted in"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };

    let answer = ask_in(&fake, thread, 2, json!([])).await;
    assert!(
        content(&answer).contains("HexDame — rules in brief"),
        "{}",
        content(&answer)
    );
    picture(&answer);
    // Naming a game still wins over the thread's.
    let answer = ask_in(&fake, thread, 3, json!([game_opt(2)])).await;
    assert!(content(&answer).contains("Hexmeister — rules in brief"));

    let focused = json!({"type": 3, "name": "piece", "value": "k", "focused": true});
    let i = fake
        .autocomplete(F::user(2), thread, "hexmeros", rules(json!([focused])))
        .await;
    assert_eq!(
        choices(&fake.first_response(&i, T).await.unwrap()),
        ["King"]
    );
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_rules_requests_get_a_private_sentence_and_no_picture() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let cases: [(Value, &str); 4] = [
        // HexDame has no queen.
        (
            json!([game_opt(1), str_opt("piece", "queen")]),
            "HexDame has no piece called \"queen\"",
        ),
        // Q21 is not a HexiMeros cell (a column holds every other row).
        (
            json!([str_opt("piece", "Regent"), str_opt("cell", "Q21")]),
            "not a cell of the HexiMeros board",
        ),
        // A Harmegedo pawn would already have promoted on rank 8.
        (
            json!([
                game_opt(4),
                str_opt("piece", "pawn"),
                str_opt("cell", "0.e8")
            ]),
            "cannot stand on 0.e8",
        ),
        // A cell without a piece says nothing.
        (json!([str_opt("cell", "Q26")]), "give a piece too"),
    ];
    for (user, (options, expected)) in (1..).zip(cases) {
        let answer = ask(&fake, user, options).await;
        let text = content(&answer);
        assert!(text.contains(expected), "{expected:?} not in {text:?}");
        assert!(is_private(&answer), "{text}");
        assert!(answer.files.is_empty(), "a picture with {text:?}");
    }
    assert_clean(&fake, &bot);
}
