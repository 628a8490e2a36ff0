//! `hexmeros db copy --from URL --to URL` (issue 20, "move a server's data"): every row of every
//! table goes over with its id, the copy is checked (the same rows, every game replaying to the
//! same state), the target plays on with fresh ids, and bad input is refused with nothing
//! written. SQLite to SQLite always; SQLite to PostgreSQL and back when `HEXMEROS_TEST_POSTGRES`
//! names a server (the CI's PostgreSQL pass).
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{cli, db, host as support};

use std::sync::Arc;

use hexmeros::ai::Level;
use hexmeros::copy_check;
use hexmeros::games::{GameKind, Seat};
use hexmeros::host::{
    Actor, Command, GameHost, GameId, LobbySpec, ManualClock, Motion, Opened, SettingsChange,
};
use hexmeros::store::Store;
use hexmeros::store::copy::{self, COPIED, NOT_COPIED};
use sqlx::Row;
use support::{T0, act, cmd_move, ensure_players, vote};

/// What a filled database holds besides its games' logs: ids the checks look up.
struct Made {
    games: Vec<GameId>,
    /// A HexDame game in play between players 1 and 2.
    hexdame: GameId,
    lobby: i64,
    bot: i64,
}

async fn host_at(url: &str) -> GameHost {
    let clock = Arc::new(ManualClock::new(T0));
    GameHost::new(Store::open(url).await.unwrap(), clock).with_outbox()
}

/// `plies` moves of a two-player game: the first legal move of whoever holds the Token.
async fn play(host: &GameHost, g: GameId, plies: usize) {
    for _ in 0..plies {
        let st = host.state(g).await.unwrap();
        let p = st.holder_player().unwrap();
        let m = st.rules().legal_moves()[0].clone();
        act(host, g, p, cmd_move(&m)).await;
    }
}

/// A store with games of every kind (in play and finished, rated), a queued move, a note,
/// settings, a waiting lobby, a bot player, outbox entries (one delivered) and the Discord front
/// end's rows.
async fn fill(url: &str) -> Made {
    let host = host_at(url).await;
    ensure_players(&host, 1..=7).await;
    let bot = host.bot_player(Level::Easy).await.unwrap();
    // The web board's signing key (its links stay valid on the copy).
    hexmeros::web::keys(&host).await.unwrap();
    let mut games = Vec::new();
    let mut hexdame = 0;
    for (kind, plies) in [
        (GameKind::HexDame, 6),
        (GameKind::Hexmeister, 4),
        (GameKind::HexaEquo, 3),
        (GameKind::Harmegedo, 2),
    ] {
        let (g, _) = host.create(kind, &[1, 2], None, None).await.unwrap();
        play(&host, g, plies).await;
        if kind == GameKind::HexDame {
            hexdame = g;
        }
        games.push(g);
    }
    // A queued move of the player waiting for their turn.
    let st = host.state(hexdame).await.unwrap();
    let waiting = if st.holder_player() == Some(1) { 2 } else { 1 };
    let mut after = st.rules().clone();
    after.play(&after.legal_moves()[0].clone()).unwrap();
    let answer = after.legal_moves()[0].clone();
    act(
        &host,
        hexdame,
        waiting,
        Command::Queue {
            text: answer,
            sovereign_safe: false,
            if_reply: None,
        },
    )
    .await;
    // HexiMeros: one in play, one played to the end (§7 points, ratings and their changes).
    let (g, _) = host
        .create(GameKind::HexiMeros, &[1, 2, 3, 4, 5, 6], None, None)
        .await
        .unwrap();
    act(&host, g, 1, cmd_move("K2-H3")).await;
    games.push(g);
    let (g, _) = host
        .create(GameKind::HexiMeros, &[1, 2, 3, 4, 5, 6], None, None)
        .await
        .unwrap();
    act(&host, g, 1, cmd_move("K2-H3")).await;
    act(&host, g, 3, Command::Resign { replacement: None }).await;
    act(&host, g, 4, Command::Resign { replacement: None }).await;
    act(
        &host,
        g,
        1,
        Command::Propose(Motion::Expel { seat: Seat(4) }),
    )
    .await;
    act(&host, g, 2, vote(true)).await;
    act(&host, g, 6, vote(true)).await;
    act(&host, g, 6, Command::Resign { replacement: None }).await;
    act(&host, g, 2, Command::Concede).await;
    games.push(g);
    host.add_note(hexdame, 1, "their left flank is weak")
        .await
        .unwrap();
    host.set_settings(
        1,
        &SettingsChange {
            time_zone: Some("Europe/Berlin".into()),
            quiet_from: Some("22:30".into()),
            quiet_to: Some("07:00".into()),
            commit_on_pick: None,
            turn_dm: Some(true),
            nudge: Some(true),
            digest: Some("7:30".into()),
            clear: false,
        },
    )
    .await
    .unwrap();
    let Opened::Waiting(lobby) = host
        .open_lobby(LobbySpec {
            kind: GameKind::HexDame,
            starter: Actor::player(3),
            people: vec![3, 7],
            bots: vec![],
            open: false,
            seats: None,
            house_rules: None,
            timers: None,
            hours: 48,
            origin: Some("channel 42".into()),
        })
        .await
        .unwrap()
    else {
        panic!("the lobby waits for player 7");
    };
    let first = host.outbox_pending().await.unwrap()[0].id;
    host.outbox_done(
        None,
        first,
        &hexmeros::host::Delivered {
            message: Some(9_001),
            outcome: "sent".into(),
        },
    )
    .await
    .unwrap();
    let w = host.store().writer();
    for (i, &g) in games.iter().enumerate() {
        sqlx::query(
            "INSERT INTO discord_games (game_id, guild_id, parent_id, thread_id, turn_message, \
             turn_version, gif_posted, panel_message, panel_text) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(g)
        .bind(1_100_000_000_000_000_000_i64)
        .bind(1_200_000_000_000_000_000_i64 + i as i64)
        .bind(1_300_000_000_000_000_000_i64 + i as i64)
        .bind(Some(1_400_000_000_000_000_000_i64 + i as i64))
        .bind(Some(3_i64))
        .bind((i % 2) as i64)
        .bind(None::<i64>)
        .bind(Some(format!("panel of game {g}")))
        .execute(w)
        .await
        .unwrap();
    }
    sqlx::query("INSERT INTO discord_ballots (game_id, motion) VALUES ($1, $2)")
        .bind(games[5])
        .bind(0_i64)
        .execute(w)
        .await
        .unwrap();
    sqlx::query("INSERT INTO discord_dm (user_id, opted_in, closed_at) VALUES ($1, $2, $3)")
        .bind(2_i64)
        .bind(1_i64)
        .bind(None::<i64>)
        .execute(w)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO discord_lobbies (lobby_id, guild_id, channel_id, message_id) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(lobby.id)
    .bind(Some(1_100_000_000_000_000_000_i64))
    .bind(42_i64)
    .bind(Some(43_i64))
    .execute(w)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO discord_stale_turns (message_id, game_id, channel_id, tries, retry_at) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(44_i64)
    .bind(games[5])
    .bind(42_i64)
    .bind(2_i64)
    .bind(1_700_000_000_000_i64)
    .execute(w)
    .await
    .unwrap();
    host.store().close().await;
    Made {
        games,
        hexdame,
        lobby: lobby.id,
        bot,
    }
}

/// Rows of `sql` (every column an optional integer or text), as text.
async fn raw(store: &Store, sql: &str) -> Vec<String> {
    let rows = sqlx::query(sql).fetch_all(store.writer()).await.unwrap();
    rows.iter()
        .map(|r| {
            (0..r.len())
                .map(|i| match r.try_get::<Option<i64>, _>(i) {
                    Ok(v) => format!("{v:?}"),
                    Err(_) => format!("{:?}", r.try_get::<Option<String>, _>(i).unwrap()),
                })
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect()
}

/// Everything the store says about `made`, read through the store's and host's own API (and
/// plain queries for the Discord tables), so two databases can be compared without the copy's
/// own digests.
async fn snapshot(url: &str, made: &Made) -> Vec<String> {
    let host = host_at(url).await;
    let s = host.store();
    let mut out = vec![format!("{:?}", s.all_games().await.unwrap())];
    for &g in &made.games {
        let st = host.replay(g).await.unwrap();
        out.push(format!(
            "game {g}: v{} {:?}\n{}\n{}",
            st.version(),
            st.status(),
            st.export(),
            st.position_json()
        ));
        out.push(format!("{:?}", s.events(g).await.unwrap()));
        out.push(format!("{:?}", s.rating_changes(g, "all").await.unwrap()));
        for p in 1..=2 {
            out.push(format!("{:?}", s.notes(g, p).await.unwrap()));
        }
    }
    for p in (1..=7).chain([made.bot]) {
        out.push(format!(
            "{:?} {:?} {:?}",
            s.player_name(p).await.unwrap(),
            s.player_bot_key(p).await.unwrap(),
            s.player_settings(p).await.unwrap()
        ));
    }
    for kind in ["all", "heximeros"] {
        out.push(format!("{:?}", s.ratings(kind).await.unwrap()));
    }
    out.push(format!("{:?}", s.leaderboard(None).await.unwrap()));
    out.push(format!("{:?}", s.outbox_pending().await.unwrap()));
    out.push(format!("{:?}", s.outbox_stats().await.unwrap()));
    out.push(format!("{:?}", s.lobby(made.lobby).await.unwrap()));
    for sql in [
        "SELECT game_id, guild_id, parent_id, thread_id, turn_message, turn_version, gif_posted, \
         panel_message, panel_text FROM discord_games ORDER BY game_id",
        "SELECT game_id, motion FROM discord_ballots ORDER BY game_id, motion",
        "SELECT user_id, opted_in, closed_at FROM discord_dm ORDER BY user_id",
        "SELECT lobby_id, guild_id, channel_id, message_id FROM discord_lobbies ORDER BY lobby_id",
        "SELECT message_id, game_id, channel_id, tries, retry_at FROM discord_stale_turns \
         ORDER BY message_id",
        "SELECT id, lane, game_id, version, priority, done_at, message_id, outcome FROM outbox \
         ORDER BY id",
        "SELECT game_id, seat, player_id, from_version, until_version FROM seats \
         ORDER BY game_id, seat, from_version",
        "SELECT game_id, player_id, kind, points FROM scores ORDER BY game_id, player_id",
    ] {
        out.extend(raw(s, sql).await);
    }
    s.close().await;
    out
}

async fn max_id(store: &Store, table: &str) -> i64 {
    sqlx::query_scalar::<_, Option<i64>>(&format!("SELECT MAX(id) FROM {table}"))
        .fetch_one(store.writer())
        .await
        .unwrap()
        .unwrap_or(0)
}

/// The copy at `url` goes on as the source would: a copied game takes its next move, and a new
/// game, its outbox entries, a note and a lobby get ids after every copied one.
async fn plays_on(url: &str, made: &Made) {
    let host = host_at(url).await;
    let s = host.store();
    let before: Vec<i64> = {
        let mut v = Vec::new();
        for t in ["games", "outbox", "notes", "lobbies"] {
            v.push(max_id(s, t).await);
        }
        v
    };
    let version = host.state(made.hexdame).await.unwrap().version();
    play(&host, made.hexdame, 1).await;
    assert!(host.state(made.hexdame).await.unwrap().version() > version);
    let (g, _) = host
        .create(GameKind::HexDame, &[1, 2], None, None)
        .await
        .unwrap();
    assert!(g > before[0], "new game #{g} after #{}", before[0]);
    play(&host, g, 2).await;
    assert_eq!(host.state(g).await.unwrap().version(), 2);
    let first_new: i64 = sqlx::query_scalar("SELECT MIN(id) FROM outbox WHERE game_id = $1")
        .bind(g)
        .fetch_one(s.writer())
        .await
        .unwrap();
    assert!(
        first_new > before[1],
        "outbox #{first_new} after #{}",
        before[1]
    );
    host.add_note(g, 2, "a fresh note").await.unwrap();
    assert!(max_id(s, "notes").await > before[2]);
    let Opened::Waiting(lobby) = host
        .open_lobby(LobbySpec {
            kind: GameKind::HexDame,
            starter: Actor::player(4),
            people: vec![4, 5],
            bots: vec![],
            open: false,
            seats: None,
            house_rules: None,
            timers: None,
            hours: 48,
            origin: None,
        })
        .await
        .unwrap()
    else {
        panic!("the lobby waits for player 5");
    };
    assert!(
        lobby.id > before[3],
        "lobby #{} after #{}",
        lobby.id,
        before[3]
    );
    s.close().await;
}

/// `db copy` from `from` (filled as `made`) into the empty `to`: it says what it copied and
/// checked, the two databases hold the same, and the copy plays on.
async fn copy_and_compare(from: &str, to: &str, made: &Made) {
    let out = cli::ok(&["db", "copy", "--from", from, "--to", to], "");
    assert!(
        out.contains(&format!("copied {} tables", COPIED.len())),
        "{out}"
    );
    assert!(out.contains("events "), "{out}");
    assert!(
        out.contains(&format!(
            "all {} games replay to the same state",
            made.games.len()
        )),
        "{out}"
    );
    assert!(
        !out.contains("postgres://"),
        "no URL (nor its password) in {out}"
    );
    let (a, b) = (snapshot(from, made).await, snapshot(to, made).await);
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y);
    }
}

#[tokio::test]
async fn sqlite_to_sqlite_copies_every_row_and_the_copy_plays_on() {
    let (src, dst) = (db::TestDb::sqlite(), db::TestDb::sqlite());
    let made = fill(&src.url).await;
    copy_and_compare(&src.url, &dst.url, &made).await;
    // Every table of the store had rows to copy (so none was left out unnoticed).
    let target = Store::open(&dst.url).await.unwrap();
    for (table, rows) in copy::counts(&target).await.unwrap() {
        assert!(rows > 0, "{table} is empty in the copy");
    }
    target.close().await;
    plays_on(&dst.url, &made).await;
}

/// SQLite to PostgreSQL, and that copy back to a new SQLite file; both check out, and the
/// PostgreSQL copy's identity sequences start after the copied ids. Only when
/// `HEXMEROS_TEST_POSTGRES` names a server.
#[tokio::test]
async fn sqlite_to_postgres_and_back() {
    let pg = db::TestDb::new().await;
    if !pg.is_postgres() {
        eprintln!("{} is not set: SQLite to SQLite only", db::POSTGRES_VAR);
        return;
    }
    let (src, back) = (db::TestDb::sqlite(), db::TestDb::sqlite());
    let made = fill(&src.url).await;
    copy_and_compare(&src.url, &pg.url, &made).await;
    copy_and_compare(&pg.url, &back.url, &made).await;
    plays_on(&pg.url, &made).await;
    plays_on(&back.url, &made).await;
}

#[tokio::test]
async fn a_target_with_data_is_refused_and_left_as_it_was() {
    let (src, dst) = (db::TestDb::sqlite(), db::TestDb::new().await);
    fill(&src.url).await;
    let target = Store::open(&dst.url).await.unwrap();
    target.ensure_player(77, "already here", T0).await.unwrap();
    let before = copy::counts(&target).await.unwrap();
    target.close().await;
    cli::fails(
        &["db", "copy", "--from", &src.url, "--to", &dst.url],
        "",
        "the target database is not empty (its table players has 1 rows)",
    );
    let target = Store::open(&dst.url).await.unwrap();
    assert_eq!(copy::counts(&target).await.unwrap(), before);
    assert_eq!(
        target.player_name(77).await.unwrap().as_deref(),
        Some("already here")
    );
    target.close().await;
}

#[tokio::test]
async fn bad_urls_are_refused_and_nothing_is_made() {
    let src = db::TestDb::sqlite();
    fill(&src.url).await;
    let dir = src.path().unwrap();
    let new = format!("sqlite://{}", dir.join("new.db").display());
    let missing = dir.join("missing.db");
    let garbage = dir.join("garbage.db");
    std::fs::write(&garbage, "not a database at all").unwrap();
    let same_file = format!("sqlite://{}/./test.db", dir.display());
    let cases: [(&str, &str, &str); 6] = [
        ("mysql://u@h/db", &new, "--from: unsupported database URL"),
        (&src.url, "hexmeros.db", "--to: unsupported database URL"),
        (&src.url, &src.url, "--from and --to name the same database"),
        (
            &src.url,
            &same_file,
            "--from and --to name the same database",
        ),
        (
            &format!("sqlite://{}", missing.display()),
            &new,
            "the source database file",
        ),
        (
            &format!("sqlite://{}", garbage.display()),
            &new,
            "is not a SQLite database",
        ),
    ];
    for (from, to, why) in cases {
        cli::fails(&["db", "copy", "--from", from, "--to", to], "", why);
    }
    cli::fails(
        &["db", "copy", "--from", &src.url, "--to", "sqlite::memory:"],
        "",
        "an in-memory database cannot be copied",
    );
    cli::fails(&["db", "copy", "--from", &src.url], "", "required");
    assert!(!missing.exists(), "a missing source is not created");
    assert!(!dir.join("new.db").exists(), "no target was made");
}

#[tokio::test]
async fn a_corrupt_event_in_the_source_is_found_before_anything_is_written() {
    let (src, dst) = (db::TestDb::sqlite(), db::TestDb::new().await);
    let made = fill(&src.url).await;
    let source = Store::open(&src.url).await.unwrap();
    sqlx::query("UPDATE events SET body = $1 WHERE game_id = $2 AND version = 1")
        .bind("{\"no\": \"such event\"}")
        .bind(made.hexdame)
        .execute(source.writer())
        .await
        .unwrap();
    source.close().await;
    cli::fails(
        &["db", "copy", "--from", &src.url, "--to", &dst.url],
        "",
        &format!("in the source database, game #{} is corrupt", made.hexdame),
    );
    if let Some(dir) = dst.path() {
        assert!(!dir.join("test.db").exists(), "no target file was made");
    }
    let target = Store::open(&dst.url).await.unwrap();
    for (table, rows) in copy::counts(&target).await.unwrap() {
        assert_eq!(rows, 0, "{table}");
    }
    target.close().await;
}

/// The check compares the target with the source: a value changed or a row added in the
/// target after the copy is found, and `copy::empty` leaves the target empty again (a second
/// copy into it then succeeds).
#[tokio::test]
async fn the_check_finds_a_target_that_differs_from_its_source() {
    let (src, dst) = (db::TestDb::sqlite(), db::TestDb::new().await);
    let made = fill(&src.url).await;
    copy_check::copy_and_check(&src.url, &dst.url)
        .await
        .unwrap();
    let source = Store::open(&src.url).await.unwrap();
    let target = Store::open(&dst.url).await.unwrap();
    let expected = copy_check::replay_all(&source, "source").await.unwrap();
    assert_eq!(
        copy_check::check(&source, &target, &expected)
            .await
            .unwrap(),
        made.games.len()
    );

    sqlx::query("UPDATE notes SET text = 'changed'")
        .execute(target.writer())
        .await
        .unwrap();
    let err = copy_check::check(&source, &target, &expected)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("the table notes holds other values"), "{err}");

    copy::empty(&target).await.unwrap();
    for (table, rows) in copy::counts(&target).await.unwrap() {
        assert_eq!(rows, 0, "{table}");
    }
    copy::copy_rows(&source, &target).await.unwrap();
    copy_check::check(&source, &target, &expected)
        .await
        .unwrap();

    let host = GameHost::new(target.clone(), Arc::new(ManualClock::new(T0)));
    play(&host, made.hexdame, 1).await;
    let err = copy_check::check(&source, &target, &expected)
        .await
        .unwrap_err()
        .to_string();
    let events = copy::counts(&source).await.unwrap()[3];
    assert_eq!(events.0, "events");
    assert!(
        err.contains(&format!(
            "the table events has {} rows in the source and {} in the target",
            events.1,
            events.1 + 1
        )),
        "{err}"
    );
    source.close().await;
    target.close().await;
}

/// A guard against a forgotten table: every table of the schema (after every migration) is
/// either copied or listed as not copied with a reason, and every copied table exists.
#[tokio::test]
async fn every_table_of_the_schema_is_copied_or_listed_with_a_reason() {
    let d = db::TestDb::new().await;
    let store = Store::open(&d.url).await.unwrap();
    let tables = copy::schema_tables(&store).await.unwrap();
    assert_eq!(
        copy::unlisted(&tables),
        Vec::<String>::new(),
        "add each to store::copy::COPIED (in foreign-key order) or NOT_COPIED with a reason"
    );
    for t in COPIED {
        assert!(tables.iter().any(|x| x == t.name), "{} is gone", t.name);
    }
    for (name, why) in NOT_COPIED {
        assert!(!why.trim().is_empty(), "{name} needs a reason");
        assert!(!COPIED.iter().any(|t| t.name == *name), "{name} both ways");
    }
    // The guard itself: a table nobody listed is named.
    sqlx::query("CREATE TABLE forgotten (id BIGINT PRIMARY KEY)")
        .execute(store.writer())
        .await
        .unwrap();
    let tables = copy::schema_tables(&store).await.unwrap();
    assert_eq!(copy::unlisted(&tables), vec!["forgotten".to_string()]);
    store.close().await;
}

/// What the check compares of two replays: the same game replays the same, twice or in two
/// databases, and one move more is another state.
#[tokio::test]
async fn a_replayed_state_tells_one_move_apart() {
    let (src, dst) = (db::TestDb::sqlite(), db::TestDb::sqlite());
    let made = fill(&src.url).await;
    copy_check::copy_and_check(&src.url, &dst.url)
        .await
        .unwrap();
    let (a, b) = (host_at(&src.url).await, host_at(&dst.url).await);
    for &g in &made.games {
        let here = copy_check::Replayed::of(&a.replay(g).await.unwrap());
        assert_eq!(here, copy_check::Replayed::of(&a.replay(g).await.unwrap()));
        assert_eq!(here, copy_check::Replayed::of(&b.replay(g).await.unwrap()));
    }
    let before = copy_check::Replayed::of(&b.replay(made.hexdame).await.unwrap());
    // A note is not part of the game's state; a move is.
    b.add_note(made.hexdame, 2, "not the game").await.unwrap();
    assert_eq!(
        before,
        copy_check::Replayed::of(&b.replay(made.hexdame).await.unwrap())
    );
    play(&b, made.hexdame, 1).await;
    assert_ne!(
        before,
        copy_check::Replayed::of(&b.replay(made.hexdame).await.unwrap())
    );
    // Two games at the same version are told apart too.
    let c = copy_check::Replayed::of(&a.replay(made.games[1]).await.unwrap());
    let d = copy_check::Replayed::of(&a.replay(made.games[0]).await.unwrap());
    assert_ne!(c.digest, d.digest);
    a.store().close().await;
    b.store().close().await;
}

/// A check that fails after the rows were written (here: a game expected to replay otherwise)
/// deletes them again: the target is left as empty as it was, and a later copy into it works.
#[tokio::test]
async fn a_failed_check_leaves_the_target_empty() {
    let (src, dst) = (db::TestDb::sqlite(), db::TestDb::new().await);
    let made = fill(&src.url).await;
    let source = Store::open(&src.url).await.unwrap();
    let target = Store::open(&dst.url).await.unwrap();
    let mut expected = copy_check::replay_all(&source, "source").await.unwrap();
    expected.get_mut(&made.hexdame).unwrap().version += 1;
    let err = copy_check::copy_into(&source, &target, &expected)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!("game #{} replays to another state", made.hexdame)),
        "{err}"
    );
    assert!(
        err.contains("the copied rows were deleted from the target again"),
        "{err}"
    );
    for (table, rows) in copy::counts(&target).await.unwrap() {
        assert_eq!(rows, 0, "{table}");
    }
    let expected = copy_check::replay_all(&source, "source").await.unwrap();
    let summary = copy_check::copy_into(&source, &target, &expected)
        .await
        .unwrap();
    assert_eq!(summary.games, made.games.len());
    assert_eq!(summary.rows(), {
        let mut n = 0;
        for (_, rows) in copy::counts(&source).await.unwrap() {
            n += rows as u64;
        }
        n
    });
    // Ids after the copied ones, also after the deleted first attempt.
    let host = GameHost::new(target.clone(), Arc::new(ManualClock::new(T0)));
    let (g, _) = host
        .create(GameKind::HexDame, &[1, 2], None, None)
        .await
        .unwrap();
    assert!(g > *made.games.iter().max().unwrap());
    source.close().await;
    target.close().await;
}
