//! At most one turn message of a thread keeps live controls (issue 62): the real `hexmeros
//! serve` against the fake Discord. When the next turn message is posted, the one before it is
//! edited to carry no components, in the background, once per message, after the move's own
//! requests; a failed edit is tried again (5xx) or forgotten (404); a process killed before it
//! cleaned leaves the work to the next one; a game that ended keeps no live button.

use hexmeros_testkit::{bot, fake_discord};

use std::time::Duration;

use fake_discord::FakeDiscord as F;
use hexmeros::games::{AnyGame, GameKind};
use serde_json::{Value, json};

use bot::*;

/// The turn messages posted in `thread` (those with a Move… button when posted), oldest first.
fn turn_messages(fake: &F, thread: u64) -> Vec<u64> {
    fake.messages(thread)
        .iter()
        .filter(|m| {
            m.json.as_ref().is_some_and(|j| {
                custom_ids(j)
                    .iter()
                    .any(|id| id.split(':').nth(1) == Some("pick"))
            })
        })
        .map(message_id)
        .collect()
}

/// How many components message `id` carries now.
fn controls(fake: &F, id: u64) -> usize {
    fake.message(id)
        .and_then(|m| m["components"].as_array().map(Vec::len))
        .unwrap_or(0)
}

/// The edits that took message `id`'s buttons off.
fn cleanups_of(fake: &F, id: u64) -> usize {
    fake.requests()
        .iter()
        .filter(|s| is_cleanup(s) && s.path.ends_with(&format!("/messages/{id}")))
        .count()
}

/// Wait until only the newest of `thread`'s turn messages has controls (and there are `n`).
async fn only_the_newest_live(fake: &F, thread: u64, n: usize) {
    until(
        &format!("{n} turn messages, only the newest with buttons"),
        || {
            let all = turn_messages(fake, thread);
            all.len() == n
                && all.iter().rev().skip(1).all(|&m| controls(fake, m) == 0)
                && all.last().is_some_and(|&m| controls(fake, m) > 0)
        },
    )
    .await;
}

/// Play HexDame's next move (a capture when there is one) as its mover, by `/hexmeros move`
/// with Pass.
async fn play(fake: &F, players: &[u64], thread: u64, mirror: &mut AnyGame) -> String {
    let mover = mirror.to_move().unwrap();
    let moves = mirror.legal_moves();
    let mv = moves
        .iter()
        .find(|m| m.contains('x'))
        .unwrap_or(&moves[0])
        .clone();
    let shown = fake.messages(thread).len();
    let r = hx(
        fake,
        players[mover.index()],
        thread,
        "move",
        json!([str_opt("from", &mv), bool_opt("pass", true)]),
    )
    .await;
    assert!(!content(&r).starts_with("⚠️"), "{mv}: {r:?}");
    mirror.play(&mv).unwrap();
    wait_message(fake, thread, shown, &format!("played {mv}")).await;
    mv
}

async fn hexdame(fake: &F, players: &[u64]) -> (i64, u64, AnyGame) {
    let (game, thread) = bot::start_game(
        fake,
        players,
        vec![json!({"type": 4, "name": "game", "value": 1})],
    )
    .await;
    wait_message(fake, thread, 0, "you have the Token").await;
    (
        game,
        thread,
        AnyGame::new(GameKind::HexDame, None, None).unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_turn_message_loses_its_buttons_once_the_next_is_posted() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let players = [u(1), u(2)];
    let (_, thread, mut mirror) = hexdame(&fake, &players).await;
    only_the_newest_live(&fake, thread, 1).await;
    let first = turn_messages(&fake, thread)[0];
    let first_body: Value = fake.messages(thread)[0].json.clone().unwrap_or_default();
    for n in 2..=5 {
        play(&fake, &players, thread, &mut mirror).await;
        only_the_newest_live(&fake, thread, n).await;
    }
    let all = turn_messages(&fake, thread);
    // Each old message edited once, the newest never; its text and picture untouched.
    for &m in &all[..all.len() - 1] {
        assert_eq!(cleanups_of(&fake, m), 1, "message {m}");
    }
    assert_eq!(cleanups_of(&fake, *all.last().unwrap()), 0);
    assert!(
        fake.message(first).unwrap()["content"]
            .as_str()
            .is_some_and(|c| c.contains("Token")),
        "{first_body}"
    );
    // An old button pressed anyway (a client that did not refresh) still changes nothing.
    let old_piece = custom_ids(
        fake.messages(thread)
            .iter()
            .find(|m| message_id(m) == first)
            .and_then(|m| m.json.as_ref())
            .unwrap(),
    )
    .into_iter()
    .find(|id| id.split(':').nth(1) == Some("open"))
    .unwrap();
    let mover = players[mirror.to_move().unwrap().index()];
    let r = click_answer(&fake, mover, thread, first, &old_piece).await;
    assert!(content(&r).contains("earlier turn"), "{r:?}");
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_cleanup_is_tried_again_and_a_deleted_message_is_forgotten() {
    let fake = F::start().await;
    let _bot = Bot::start(&fake).await;
    let players = [u(1), u(2)];
    let (_, thread, mut mirror) = hexdame(&fake, &players).await;
    let first = turn_messages(&fake, thread)[0];
    // Discord fails the first cleanup more often than one call retries (6 tries): the job
    // backs off and tries again.
    fake.fail_next("PATCH", &format!("/messages/{first}$"), 500, None, 7);
    play(&fake, &players, thread, &mut mirror).await;
    only_the_newest_live(&fake, thread, 2).await;
    let tried = fake
        .requests()
        .iter()
        .filter(|s| s.method == "PATCH" && s.path.ends_with(&format!("/messages/{first}")))
        .count();
    assert_eq!(tried, 8, "seven 500s, then the edit");
    // The next old message is gone (deleted by a moderator): one try, then it is forgotten.
    let second = turn_messages(&fake, thread)[1];
    fake.refuse_next(
        "PATCH",
        &format!("/messages/{second}$"),
        404,
        10008,
        "Unknown Message",
        1,
    );
    play(&fake, &players, thread, &mut mirror).await;
    until("the deleted message's cleanup to be tried", || {
        fake.requests()
            .iter()
            .any(|s| s.path.ends_with(&format!("/messages/{second}")) && s.status == 404)
    })
    .await;
    // The next cleanup (of the third message) shows the job moved on.
    play(&fake, &players, thread, &mut mirror).await;
    let third = turn_messages(&fake, thread)[2];
    until("the third message to be cleaned", || {
        controls(&fake, third) == 0
    })
    .await;
    let second_tries = fake
        .requests()
        .iter()
        .filter(|s| s.method == "PATCH" && s.path.ends_with(&format!("/messages/{second}")))
        .count();
    assert_eq!(second_tries, 1, "a 404 is not tried again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_killed_before_it_cleaned_leaves_it_to_the_next() {
    let fake = F::start().await;
    let mut bot = Bot::start(&fake).await;
    let players = [u(1), u(2)];
    let (_, thread, mut mirror) = hexdame(&fake, &players).await;
    let first = turn_messages(&fake, thread)[0];
    // The cleanup's edit hangs (not carried out); the process is killed meanwhile.
    fake.hang_next(
        "PATCH",
        &format!("/messages/{first}$"),
        Duration::from_secs(20),
        1,
    );
    play(&fake, &players, thread, &mut mirror).await;
    until("the cleanup's edit to hang", || {
        fake.requests()
            .iter()
            .any(|s| s.method == "PATCH" && s.path.ends_with(&format!("/messages/{first}")))
    })
    .await;
    assert!(
        controls(&fake, first) > 0,
        "the hung edit was not carried out"
    );
    bot.restart(&fake).await;
    only_the_newest_live(&fake, thread, 2).await;
    // And the game goes on: a move after the restart cleans the next one too.
    play(&fake, &players, thread, &mut mirror).await;
    only_the_newest_live(&fake, thread, 3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_ended_keeps_no_live_turn_button() {
    let fake = F::start().await;
    let _bot = Bot::start(&fake).await;
    let players = [u(1), u(2)];
    let (_, thread, mut mirror) = hexdame(&fake, &players).await;
    play(&fake, &players, thread, &mut mirror).await;
    only_the_newest_live(&fake, thread, 2).await;
    let last = *turn_messages(&fake, thread).last().unwrap();
    let user = players[mirror.to_move().unwrap().index()];
    let q = hx(&fake, user, thread, "resign", json!([])).await;
    let id = id_with(q.json.as_ref().unwrap(), "resign");
    click(&fake, user, thread, message_id(&q), &id).await;
    until("the last turn message's buttons to come off", || {
        controls(&fake, last) == 0
    })
    .await;
    assert!(
        turn_messages(&fake, thread)
            .iter()
            .all(|&m| controls(&fake, m) == 0)
    );
    // The results' board, like every picture, is described.
    until("the results", || {
        fake.messages(thread)
            .iter()
            .any(|m| content(m).contains("is over"))
    })
    .await;
    let boards = described_pictures(&fake, "board.png");
    assert!(
        boards.iter().any(|d| d.contains("The game is over.")),
        "{boards:?}"
    );
}

/// A 429 on an old message's edit is waited out (its `retry_after`, here 2 s as the fake's
/// header rounds it) and the edit made after it; rows no message can have (a negative id, a
/// thread 0, on SQLite a word where an id belongs) are logged and forgotten, never stopping
/// the cleaning of the real ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_is_waited_out_and_a_corrupt_row_is_forgotten() {
    use hexmeros::store::Store;
    let fake = F::start().await;
    let bot = Bot::start_logging(&fake, Some("info")).await;
    let players = [u(1), u(2)];
    let (game, thread, mut mirror) = hexdame(&fake, &players).await;
    let store = Store::open(&bot.db_url()).await.unwrap();
    let pool = store.writer().clone();
    let sqlite = bot.db_url().starts_with("sqlite");
    let mut bad: Vec<(&str, &str)> = vec![("-5", "1"), ("1", "0")];
    if sqlite {
        bad.push(("'garbage'", "7"));
    }
    for (message, channel) in &bad {
        sqlx::query(&format!(
            "INSERT INTO discord_stale_turns (message_id, game_id, channel_id) \
             VALUES ({message}, $1, {channel})"
        ))
        .bind(game)
        .execute(&pool)
        .await
        .unwrap();
    }
    let first = turn_messages(&fake, thread)[0];
    fake.fail_next("PATCH", &format!("/messages/{first}$"), 429, Some(1.5), 1);
    play(&fake, &players, thread, &mut mirror).await;
    only_the_newest_live(&fake, thread, 2).await;
    let tries: Vec<(u16, std::time::Instant)> = fake
        .requests()
        .iter()
        .filter(|s| s.method == "PATCH" && s.path.ends_with(&format!("/messages/{first}")))
        .map(|s| (s.status, s.at))
        .collect();
    assert_eq!(
        tries.iter().map(|t| t.0).collect::<Vec<_>>(),
        [429, 200],
        "{}",
        bot.log()
    );
    let waited = tries[1].1.duration_since(tries[0].1);
    assert!(waited >= Duration::from_secs(2), "{waited:?}");
    // The bad rows go, each said so (the job reaches them in its own time: waited for).
    let deadline = tokio::time::Instant::now() + T;
    loop {
        let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM discord_stale_turns")
            .fetch_one(&pool)
            .await
            .unwrap();
        if left == 0 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{left} rows left: {}",
            bot.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let log = bot.log();
    assert_eq!(
        log.matches("an old turn message's row cannot be read")
            .count(),
        bad.len(),
        "{log}"
    );
    // The job goes on: the next turn's old message loses its buttons too.
    play(&fake, &players, thread, &mut mirror).await;
    only_the_newest_live(&fake, thread, 3).await;
}
