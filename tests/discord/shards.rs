#![allow(clippy::unwrap_used)]
//! Shard ranges across processes (issue 20), end to end: the real `hexmeros serve` with
//! `--shards FIRST-LAST --total-shards 4` against the fake Discord, which routes each server's
//! interactions to the connection of its shard, `(guild_id >> 22) % 4`, as Discord does. One
//! server on each of the four shards; (a) one process running all four shards, (b) two processes
//! (shards 0-1 and 2-3) on one database, each answering its own servers, (c) one of the two
//! killed mid-game and started again: its games go on. Timers firing once across processes are
//! the host's leases, tested with them.

use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{bot, fake_discord};

use fake_discord::{FakeDiscord as F, Interaction};
use hexmeros::games::{AnyGame, GameKind};
use serde_json::json;

use bot::*;

const TOTAL: u64 = 4;

/// One server on each shard of [`TOTAL`], shard `k` at index `k`: (guild, text channel). The
/// fake's own guild (where the bot registers its commands) is one of them; the others are made
/// here, before any bot connects (a connection hears of its guilds when it identifies).
fn servers(fake: &F) -> Vec<(u64, u64)> {
    (0..TOTAL)
        .map(|shard| {
            if F::shard_of(F::GUILD_ID, TOTAL) == shard {
                (F::GUILD_ID, F::CHANNEL_ID)
            } else {
                let g = F::guild_on_shard(shard, TOTAL, 0);
                (g, fake.add_guild(g))
            }
        })
        .collect()
}

/// A HexDame game on Discord and the position it should be in.
struct Game {
    id: i64,
    thread: u64,
    /// The server's shard.
    shard: u64,
    players: [u64; 2],
    position: AnyGame,
    plies: usize,
}

/// A HexDame game in the server of shard `shard` (its channel `channel`), between two players
/// of its own (so no one reaches a limit on games at once).
async fn start(fake: &F, shard: u64, channel: u64) -> Game {
    let players = [u(2 * shard + 1), u(2 * shard + 2)];
    let game = json!({"type": 4, "name": "game", "value": 1});
    let (id, thread) = start_game_in(fake, channel, &players, vec![game]).await;
    wait_message(fake, thread, 0, "you have the Token").await;
    Game {
        id,
        thread,
        shard,
        players,
        position: AnyGame::new(GameKind::HexDame, None, None).unwrap(),
        plies: 0,
    }
}

/// The player to move plays the first legal move by `/hexmeros move … pass:true` in the game's
/// thread: accepted. Returns the interaction (to see which connection got it), the move, and
/// how many messages the thread had before; the move's message in the thread is not waited
/// for (see [`wait_played`]).
async fn send_move(fake: &F, game: &mut Game) -> (Interaction, String, usize) {
    let mv = game.position.legal_moves()[0].clone();
    let before = fake.messages(game.thread).len();
    let player = game.players[game.plies % 2];
    let opts = json!([str_opt("from", &mv), bool_opt("pass", true)]);
    let i = fake
        .slash(player, game.thread, "hexmeros", sub("move", opts))
        .await;
    acked(fake, &i).await;
    let r = followup(fake, &i).await;
    assert!(
        !content(&r).starts_with("⚠️"),
        "game #{} {mv}: {r:?}",
        game.id
    );
    game.position.play(&mv).unwrap();
    game.plies += 1;
    (i, mv, before)
}

/// The thread tells the move `mv` after its first `before` messages.
async fn wait_played(fake: &F, game: &Game, mv: &str, before: usize) {
    wait_message(fake, game.thread, before, &format!("played {mv}")).await;
}

/// One move in `game`, told in its thread: the interaction.
async fn play(fake: &F, game: &mut Game) -> Interaction {
    let (i, mv, before) = send_move(fake, game).await;
    wait_played(fake, game, &mv, before).await;
    i
}

/// The interaction went to the connection of its server's shard, of the process `token`.
fn assert_routed(i: &Interaction, game: &Game, token: &str) {
    assert_eq!(i.shard, [game.shard, TOTAL], "game #{}", game.id);
    assert_eq!(
        i.bot_token, token,
        "game #{} on shard {}",
        game.id, game.shard
    );
}

/// Every game is stored where its moves took it.
async fn assert_stored(bot: &Bot, games: &[Game]) {
    for g in games {
        let st = bot.state(g.id).await;
        assert_eq!(st.rules().to_json(), g.position.to_json(), "game #{}", g.id);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_process_running_every_shard_plays_in_the_servers_of_all_of_them() {
    let fake = F::start().await;
    let servers = servers(&fake);
    let bot = Bot::start_shards(&fake, "all-shards", 0, TOTAL - 1, TOTAL).await;
    let sessions = fake.gateway_sessions();
    let mut shards: Vec<[u64; 2]> = sessions.iter().map(|s| s.shard).collect();
    shards.sort_unstable();
    assert_eq!(shards, [[0, 4], [1, 4], [2, 4], [3, 4]], "{sessions:?}");

    let mut games = vec![];
    for (shard, &(_, channel)) in (0..).zip(&servers) {
        games.push(start(&fake, shard, channel).await);
    }
    for _ in 0..3 {
        for g in &mut games {
            let i = play(&fake, g).await;
            assert_routed(&i, g, "all-shards");
        }
    }
    assert_stored(&bot, &games).await;
    assert_clean(&fake, &bot);
}

/// The process of the shard of `game`'s server: `a` (shards 0-1) or `b` (2-3).
fn owner(game: &Game) -> &'static str {
    if game.shard < 2 { "proc-a" } else { "proc-b" }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_one_database_each_answer_their_own_servers() {
    let fake = F::start().await;
    let servers = servers(&fake);
    let a = Bot::start_shards(&fake, "proc-a", 0, 1, TOTAL).await;
    let b = a.start_beside(&fake, "proc-b", 2, 3, TOTAL).await;
    for s in fake.gateway_sessions() {
        let want = if s.shard[0] < 2 { "proc-a" } else { "proc-b" };
        assert_eq!(s.bot_token, want, "{s:?}");
    }

    let mut games = vec![];
    for (shard, &(_, channel)) in (0..).zip(&servers) {
        games.push(start(&fake, shard, channel).await);
    }
    for _ in 0..3 {
        for g in &mut games {
            let i = play(&fake, g).await;
            assert_routed(&i, g, owner(g));
        }
    }
    // Both processes see every game: one database.
    assert_stored(&a, &games).await;
    assert_stored(&b, &games).await;
    assert_clean(&fake, &a);
    assert_clean(&fake, &b);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_killed_mid_game_and_started_again_carries_on_its_games() {
    let fake = F::start().await;
    let servers = servers(&fake);
    let a = Bot::start_shards(&fake, "proc-a", 0, 1, TOTAL).await;
    let mut b = a.start_beside(&fake, "proc-b", 2, 3, TOTAL).await;
    let mut games = vec![];
    for (shard, &(_, channel)) in (0..).zip(&servers) {
        games.push(start(&fake, shard, channel).await);
    }
    for _ in 0..2 {
        for g in &mut games {
            let i = play(&fake, g).await;
            assert_routed(&i, g, owner(g));
        }
    }

    // A move in a server of b's is accepted, and b dies at once (SIGKILL) without waiting for
    // the move's message in the thread.
    let (_, mv, before) = send_move(&fake, &mut games[2]).await;
    b.kill();
    fake.wait_sessions(T, "proc-b's connections to close", |s| {
        s.iter().all(|s| s.bot_token != "proc-b")
    })
    .await
    .unwrap();
    // While b is down its servers' interactions reach no one (as on Discord, which has no
    // connection for those shards), and a's servers play on.
    let (_, channel_of_2) = servers[2];
    assert!(
        fake.try_slash(u(5), channel_of_2, "hexmeros", sub("help", json!([])))
            .is_none()
    );
    for g in &mut games[..2] {
        let i = play(&fake, g).await;
        assert_routed(&i, g, "proc-a");
    }

    b.restart(&fake).await;
    // The move accepted before the kill is not lost: it is told, and the games go on in every
    // server, b's answered by the new b.
    wait_played(&fake, &games[2], &mv, before).await;
    for _ in 0..2 {
        for g in &mut games {
            let i = play(&fake, g).await;
            assert_routed(&i, g, owner(g));
        }
    }
    assert_stored(&a, &games).await;
    assert_clean(&fake, &a);
    assert_clean(&fake, &b);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sharded_process_whose_client_fails_for_good_starts_its_shards_again() {
    let fake = F::start().await;
    // Shards of 2: the fake's guild is on shard 1, one more server on shard 0.
    assert_eq!(F::shard_of(F::GUILD_ID, 2), 1);
    let g0 = F::guild_on_shard(0, 2, 0);
    let servers = [(0, fake.add_guild(g0)), (1, F::CHANNEL_ID)];
    let bot = Bot::start_shards(&fake, "proc", 0, 1, 2).await;
    let mut games = vec![];
    for &(shard, channel) in &servers {
        games.push(start(&fake, shard, channel).await);
    }
    for g in &mut games {
        let i = play(&fake, g).await;
        assert_eq!(i.shard, [g.shard, 2]);
    }

    // 4004 (authentication failed) on every connection stops serenity's client for good; the
    // restart loop builds a new one, which connects both shards again with their range.
    let since = fake.gateway_stats().established();
    fake.close_gateway(4004).await;
    fake.wait_sessions(T * 3, "both shards to identify again", |s| {
        (0..2).all(|k| {
            s.iter()
                .any(|s| s.shard == [k, 2] && s.order > since && s.bot_token == "proc")
        })
    })
    .await
    .unwrap_or_else(|e| panic!("{e}\n{}", bot.log()));
    assert!(bot.log().contains("failed for good"), "{}", bot.log());
    for g in &mut games {
        let i = play(&fake, g).await;
        assert_eq!(i.shard, [g.shard, 2]);
        let s = fake
            .gateway_sessions()
            .into_iter()
            .find(|s| s.connection == i.connection)
            .unwrap();
        assert!(s.order > since, "an old connection answered: {s:?}");
    }
    assert_stored(&bot, &games).await;
    assert!(
        fake.late_callbacks().is_empty(),
        "{:?}",
        fake.late_callbacks()
    );
    assert!(fake.unexpected().is_empty(), "{:?}", fake.unexpected());
}

/// A timer due in a game of shard 0's server, with two processes ticking over one database
/// (every 100 ms each): each reminder is told exactly once, whichever process runs it (a game's
/// timers, and its outbox lane, are worked under leases); and with shard 0's process killed, the
/// other runs the game's next reminder (timers are not tied to a shard).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timer_due_fires_exactly_once_across_two_processes() {
    const HOUR: i64 = 3_600_000;
    let fake = F::start().await;
    let servers = servers(&fake);
    let mut a = Bot::start_shards(&fake, "proc-a", 0, 1, TOTAL).await;
    let b = a.start_beside(&fake, "proc-b", 2, 3, TOTAL).await;
    let (_, channel) = servers[0];
    let game = start(&fake, 0, channel).await;
    // Messages made, not requests: a delivery retried with its enforced nonce (a request that
    // timed out on a busy machine) is answered with the message already made, as by Discord.
    let told = |needle: &str| -> Vec<String> {
        fake.stored_messages(game.thread)
            .iter()
            .map(|m| m["content"].as_str().unwrap_or_default().to_string())
            .filter(|c| c.contains(needle))
            .collect()
    };
    for hours in [1, 4, 12] {
        if hours == 12 {
            // Shard 0's process dies; b alone is left.
            assert!(a.running());
            a.kill();
        }
        let before = fake.messages(game.thread).len();
        for bot in [&a, &b] {
            bot.set_clock(START_MS + hours * HOUR + 60_000);
        }
        wait_message(&fake, game.thread, before, &format!("for {hours} hours")).await;
    }
    // The 12-hour reminder was told after both others: had either been told twice, the second
    // telling would be in the thread by then (each process ticked many times meanwhile).
    for hours in [1, 4, 12] {
        let told = told(&format!("for {hours} hours"));
        assert_eq!(told.len(), 1, "{hours} h: {told:#?}");
    }
    assert_eq!(b.state(game.id).await.reminded(), 3);
    assert_clean(&fake, &b);
}
