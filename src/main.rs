//! The `hexmeros` binary: the command line. `anyhow` lives here, at the edge.

mod discord;

use std::io::Read;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use hexmeros::games::{AnyGame, GameKind};

#[derive(Parser)]
#[command(
    name = "hexmeros",
    version,
    about = "Hosts hexagonal board games; rules engines on the command line"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the Discord bot: reads DISCORD_TOKEN, DATABASE_URL, DEV_GUILD_ID and
    /// DISCORD_API_BASE from .env or the environment (see .env.example).
    Serve {
        /// The database; default: $DATABASE_URL, else sqlite://hexmeros.db.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
        /// Serve Prometheus metrics at http://ADDR/metrics (an IP:PORT, as 127.0.0.1:9100);
        /// default: $HEXMEROS_METRICS, else none.
        #[arg(long, value_name = "ADDR")]
        metrics: Option<String>,
        /// The gateway shards this process runs, FIRST-LAST (as 0-3) or one number; needs
        /// --total-shards. Default: $HEXMEROS_SHARDS, else all of them.
        #[arg(long, value_name = "FIRST-LAST")]
        shards: Option<String>,
        /// How many shards the bot has in all, across its processes. Default:
        /// $HEXMEROS_TOTAL_SHARDS, else one connection, unsharded.
        #[arg(long, value_name = "N")]
        total_shards: Option<String>,
    },
    /// Rules engines: start positions, legal moves, playing moves, perft, board pictures.
    #[command(subcommand)]
    Rules(RulesCommand),
    /// Play on the terminal (hot seat), on the same game host and database as the bot.
    Local {
        /// The database; default: $DATABASE_URL, else sqlite://hexmeros.db.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
        /// Where the board picture is written after every turn (hexmeros-game-<id>.png);
        /// default: $HEXMEROS_PNG_DIR, else the current directory.
        #[arg(long, value_name = "DIR", conflicts_with = "no_png")]
        png_dir: Option<std::path::PathBuf>,
        /// Text boards only: write no pictures.
        #[arg(long)]
        no_png: bool,
    },
    /// Print a stored game as replay text (setup, house rules, moves).
    Export {
        game: i64,
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Create a game from replay text (FILE or '-'), seating the named local players in order.
    Import {
        #[arg(value_name = "FILE|-")]
        file: String,
        #[arg(long, required = true, num_args = 1.., value_name = "NAME")]
        players: Vec<String>,
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Computer players: seeded bot tournaments.
    #[command(subcommand)]
    Ai(AiCommand),
    /// Draw a board picture (PNG), or a whole game as an animated GIF (--replay).
    Render(RenderArgs),
    /// For operators: what the bot still has to deliver, and the games in play.
    #[command(subcommand)]
    Admin(AdminCommand),
    /// For operators: move a server's data between databases.
    #[command(subcommand)]
    Db(DbCommand),
}

#[derive(Subcommand)]
enum DbCommand {
    /// Copy every game, player, rating, link, lobby, note, setting and outbox entry (with their
    /// ids) from one database into an empty one, then check the copy: the same rows in every
    /// table, and every game replaying to the same state. Stop the bot first.
    Copy {
        /// The database to copy: sqlite://FILE or postgres://USER@HOST/DB.
        #[arg(long, value_name = "URL")]
        from: String,
        /// The empty database to copy into (a new SQLite file is created).
        #[arg(long, value_name = "URL")]
        to: String,
    },
}

#[derive(Subcommand)]
enum AdminCommand {
    /// The outbox (messages players must still be sent: how many, since when, retried, given
    /// up) and the games in play.
    Status {
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
}

/// What plain `hexmeros` says.
const NO_COMMAND: &str = "\
hexmeros hosts hexagonal board games on Discord and on the terminal.
To run the bot, put DISCORD_TOKEN=<your bot token> in the environment (or .env) and run
`hexmeros serve` (see .env.example). To play without Discord, on this terminal:
    hexmeros local
Games are kept in DATABASE_URL (default sqlite://hexmeros.db). `hexmeros --help` lists the rest.";

fn database_url(db: Option<String>) -> String {
    db.or_else(|| std::env::var("DATABASE_URL").ok())
        .filter(|u| !u.trim().is_empty())
        .unwrap_or_else(|| hexmeros::store::DEFAULT_DATABASE_URL.to_string())
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    // The Discord front end's futures nest deep (serenity's event dispatch, poise, a command,
    // the host, sqlx); unoptimized (a debug build) they are several times larger, and under load
    // a worker's default 2 MiB stack overflowed. 8 MiB is address space; only what is used is
    // resident.
    Ok(tokio::runtime::Builder::new_multi_thread()
        .thread_stack_size(8 * 1024 * 1024)
        .enable_all()
        .build()?)
}

async fn host(db: Option<String>) -> anyhow::Result<hexmeros::host::GameHost> {
    let url = database_url(db);
    let store = hexmeros::store::Store::open(&url)
        .await
        .map_err(|e| anyhow::anyhow!("cannot open the database {url}: {e}"))?;
    Ok(hexmeros::host::GameHost::new(
        store,
        std::sync::Arc::new(hexmeros::host::SystemClock),
    ))
}

/// The bot's logs, on stderr (serenity's and poise's too): `RUST_LOG` from the environment or
/// `.env` filters them (e.g. `hexmeros=debug,info`), `info` when unset; serenity's HTTP spans
/// only at warn unless `RUST_LOG` names `serenity::http`.
fn init_logging() {
    use std::io::IsTerminal as _;
    // A missing .env is fine: the variables may come from the environment.
    let _ = dotenvy::dotenv();
    let wanted = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty());
    let (filter, bad) = match wanted
        .as_deref()
        .map(tracing_subscriber::EnvFilter::try_new)
    {
        Some(Ok(f)) => (f, None),
        Some(Err(e)) => (tracing_subscriber::EnvFilter::new("info"), Some(e)),
        None => (tracing_subscriber::EnvFilter::new("info"), None),
    };
    // serenity opens an info span per HTTP request that records the whole request in Debug
    // form: an uploaded board picture as a list of numbers, tens of kilobytes of text per
    // request (most of the bot's CPU under load). Off unless RUST_LOG names serenity::http.
    let filter = match "serenity::http=warn".parse() {
        Ok(quiet)
            if !wanted
                .as_deref()
                .is_some_and(|w| w.contains("serenity::http")) =>
        {
            filter.add_directive(quiet)
        }
        _ => filter,
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
    if let Some(e) = bad {
        tracing::warn!(error = %e, "RUST_LOG is not a filter; logging at info");
    }
}

fn run_host(cmd: Command) -> anyhow::Result<String> {
    runtime()?.block_on(async move {
        match cmd {
            Command::Serve {
                db,
                metrics,
                shards,
                total_shards,
            } => {
                init_logging();
                discord::serve_from_env(db, metrics, shards, total_shards).await?;
                Ok(String::new())
            }
            Command::Local {
                db,
                png_dir,
                no_png,
            } => {
                let png_dir = if no_png {
                    None
                } else {
                    Some(
                        png_dir
                            .or_else(|| std::env::var_os("HEXMEROS_PNG_DIR").map(Into::into))
                            .unwrap_or_else(|| ".".into()),
                    )
                };
                let host = host(db).await?;
                let input = tokio::io::BufReader::new(tokio::io::stdin());
                hexmeros::local::Local::new(&host, std::io::stdout())
                    .with_png_dir(png_dir)
                    .run(input)
                    .await?;
                Ok(String::new())
            }
            Command::Export { game, db } => Ok(host(db).await?.export(game).await?),
            Command::Import { file, players, db } => {
                let text = if file == "-" {
                    let mut s = String::new();
                    std::io::stdin().read_to_string(&mut s)?;
                    s
                } else {
                    std::fs::read_to_string(&file)
                        .map_err(|e| anyhow::anyhow!("cannot read {file}: {e}"))?
                };
                let host = host(db).await?;
                let mut ids = Vec::new();
                for n in &players {
                    ids.push(host.local_player(n).await?);
                }
                let id = host.import(&text, &ids).await?;
                Ok(format!("imported as game #{id}"))
            }
            Command::Admin(AdminCommand::Status { db }) => status(&host(db).await?).await,
            Command::Db(DbCommand::Copy { from, to }) => {
                let summary = hexmeros::copy_check::copy_and_check(&from, &to).await?;
                Ok(summary.text())
            }
            Command::Rules(_) | Command::Ai(_) | Command::Render(_) => Ok(String::new()),
        }
    })
}

/// `hexmeros admin status`: the outbox at a glance, its waiting entries (the oldest ten) and
/// how many games are in play.
async fn status(host: &hexmeros::host::GameHost) -> anyhow::Result<String> {
    use std::fmt::Write as _;
    let now = host.now();
    let stats = host.outbox_stats().await?;
    let pending = host.outbox_pending().await?;
    let games = host.all_games().await?;
    let playing = games.iter().filter(|g| matches!(g.status, 10 | 20)).count();
    let paused = games.iter().filter(|g| g.status == 30).count();
    let mut out = String::new();
    let oldest = match stats.oldest_created_at {
        Some(t) => format!(", the oldest waiting {} s", (now - t).max(0) / 1000),
        None => String::new(),
    };
    writeln!(
        out,
        "outbox: {} pending{oldest}; {} of them failed at least once; {} retries in all; \
         {} delivered, {} given up",
        stats.pending, stats.retrying, stats.retries, stats.delivered, stats.dropped
    )?;
    for e in pending.iter().take(10) {
        writeln!(
            out,
            "  #{} {} (priority {}), {} attempts{}",
            e.id,
            e.lane,
            e.priority,
            e.attempts,
            e.last_error
                .as_deref()
                .map(|x| format!(", last error: {x}"))
                .unwrap_or_default()
        )?;
    }
    if pending.len() > 10 {
        writeln!(out, "  … and {} more", pending.len() - 10)?;
    }
    let leases = host.leases().await?;
    let lapsed = leases.iter().filter(|l| l.2 <= now).count();
    writeln!(
        out,
        "leases: {} held, {lapsed} lapsed (their holder stopped; taken over at the next look)",
        leases.len() - lapsed
    )?;
    for (name, owner, until) in leases.iter().take(10) {
        let left = (until - now) / 1000;
        match left > 0 {
            true => writeln!(out, "  {name} held by {owner} for {left} s more")?,
            false => writeln!(out, "  {name} held by {owner}, lapsed {} s ago", -left)?,
        }
    }
    if leases.len() > 10 {
        writeln!(out, "  … and {} more", leases.len() - 10)?;
    }
    write!(
        out,
        "games: {playing} in play, {paused} paused, {} in all",
        games.len()
    )?;
    Ok(out)
}

#[derive(Subcommand)]
enum AiCommand {
    /// Play seeded games between two levels (colours or seats alternated) and print win/draw/loss
    /// rates and the time per search of each level (a HexiMeros move re-chosen after a Check
    /// declared upon it is two searches, each with its own deadline in the host).
    Tournament {
        #[arg(long)]
        game: String,
        /// Level A: random, easy, normal or hard.
        #[arg(long)]
        a: String,
        /// Level B.
        #[arg(long)]
        b: String,
        /// Search of both sides with three or more seats: paranoid, brs (Best-Reply Search),
        /// brs+ (the opponents who do not reply take their best capture) or wary (brs, but
        /// paranoid while the side is hunted: its Sovereign attacked, or the weakest); without it each
        /// level's default (brs for hard in Harmegedo and for normal and hard in HexiMeros,
        /// else paranoid). --search-a and --search-b set one side.
        #[arg(long)]
        search: Option<String>,
        /// Search of side A (overrides --search).
        #[arg(long)]
        search_a: Option<String>,
        /// Search of side B (overrides --search).
        #[arg(long)]
        search_b: Option<String>,
        /// HexiMeros evaluation weights of side A, as `name=value,...` over its level's
        /// (docs/tournaments.md lists the terms; `ai tune` prints such lists).
        #[arg(long)]
        weights_a: Option<String>,
        /// HexiMeros evaluation weights of side B.
        #[arg(long)]
        weights_b: Option<String>,
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// Number (from 1) of the first game to play: `--from 26 --games 25` plays games 26–50
        /// of the same seed's run, so a long run can be split between processes.
        #[arg(long, default_value_t = 1)]
        from: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of seats, for games that take a range (Harmegedo: 2–6).
        #[arg(long)]
        players: Option<usize>,
        /// Plies after which an unfinished game counts as a draw (default: per game).
        #[arg(long)]
        max_plies: Option<u32>,
        /// Override the levels' node budget (per move).
        #[arg(long)]
        nodes: Option<u64>,
        /// Node budget per move of side A alone (overrides its level's and --nodes).
        #[arg(long)]
        nodes_a: Option<u64>,
        /// Node budget per move of side B alone.
        #[arg(long)]
        nodes_b: Option<u64>,
        /// How the levels share a table of three or more: `alternate` (A and B in alternate
        /// seats) or `lone` (A in one seat, B in all the others).
        #[arg(long, default_value = "alternate")]
        seating: String,
        /// Plies played at random (seeded by each game's seed) before the bots take over, so
        /// games that seat the levels alike do not repeat one another; counted in the cap.
        #[arg(long, default_value_t = 0)]
        opening: u32,
        /// Print one line per finished game.
        #[arg(long)]
        verbose: bool,
        /// Print each finished game's moves (a line after its --verbose line).
        #[arg(long)]
        moves: bool,
    },
    /// Time the levels' moves in each game's busiest middle game (the position with the most
    /// legal moves met in seeded random playouts, or --position) and print the slowest.
    Budget {
        /// One game, or every game when left out.
        #[arg(long)]
        game: Option<String>,
        /// Number of seats, for games that take a range (Harmegedo: 2–6).
        #[arg(long)]
        players: Option<usize>,
        /// Time this position instead of searching for the busiest one.
        #[arg(long, value_name = "FILE|-")]
        position: Option<String>,
        /// Levels to time, comma-separated.
        #[arg(long, default_value = "normal,hard")]
        levels: String,
        /// Moves timed per level (one search each, with different seeds).
        #[arg(long, default_value_t = 3)]
        seeds: u32,
        /// Random playouts searched for the busiest position.
        #[arg(long, default_value_t = 4)]
        playouts: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cut each search at the level's time cap, as a host does.
        #[arg(long)]
        capped: bool,
        /// Search with three or more seats: paranoid, brs (Best-Reply Search), brs+
        /// (Best-Reply Search whose opponents who do not reply take their best capture) or wary
        /// (brs, paranoid while the bot is hunted);
        /// without it each level's default in each game.
        #[arg(long)]
        search: Option<String>,
    },
    /// Tune HexiMeros evaluation weights by self-play (SPSA): each iteration plays the weights
    /// nudged up against the same nudged down, three seats against three, and moves them
    /// towards the side that finished higher. Prints each iteration and the final weights as a
    /// name=value list (for --weights-a or `Weights::DEFAULT`).
    Tune {
        /// Terms to tune, comma-separated (docs/tournaments.md lists them).
        #[arg(long, default_value = "hunt,net,pressing,mobility")]
        terms: String,
        /// Starting weights, name=value,... over the level's.
        #[arg(long)]
        weights: Option<String>,
        #[arg(long, default_value = "normal")]
        level: String,
        /// paranoid, brs, brs+ or wary; without it the level's default in HexiMeros.
        #[arg(long)]
        search: Option<String>,
        #[arg(long, default_value_t = 10)]
        iterations: u32,
        /// Games per iteration.
        #[arg(long, default_value_t = 4)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A nudge, in percent of each term's size (at least 1).
        #[arg(long, default_value_t = 25)]
        step: u32,
        /// Steps the weights move at most per iteration (when one side takes every top place).
        #[arg(long, default_value_t = 2.0)]
        gain: f64,
        /// Plies after which a game counts as a draw between the seats still in.
        #[arg(long, default_value_t = 2400)]
        max_plies: u32,
        /// Override the level's node budget (per move).
        #[arg(long)]
        nodes: Option<u64>,
    },
}

#[derive(Args)]
struct PositionArg {
    /// Position JSON file, or '-' for standard input. Without it: the start position of --game.
    #[arg(long, value_name = "FILE|-")]
    position: Option<String>,
    /// The game whose start position is used when --position is not given.
    #[arg(long, default_value = "heximeros")]
    game: String,
}

#[derive(Subcommand)]
enum RulesCommand {
    /// Print the start position of GAME as JSON.
    New {
        game: String,
        /// Number of players, for games that take a range (Harmegedo: 2–6).
        #[arg(long)]
        players: Option<usize>,
        /// House rules as JSON, e.g. '{"archer":"move_then_shoot"}'.
        #[arg(long, value_name = "JSON")]
        house_rules: Option<String>,
    },
    /// Print every legal move of the side to move, one per line, sorted.
    Moves(PositionArg),
    /// Play MOVEs in order and print the resulting position as JSON.
    Play {
        #[command(flatten)]
        position: PositionArg,
        #[arg(required = true)]
        moves: Vec<String>,
    },
    /// Print the number of legal move sequences of length DEPTH.
    Perft {
        depth: u32,
        #[command(flatten)]
        position: PositionArg,
    },
    /// Print a text picture of the board.
    Show(PositionArg),
    /// Print the move a bot of LEVEL chooses for the side to move.
    Bestmove {
        #[command(flatten)]
        position: PositionArg,
        /// random, easy, normal or hard.
        #[arg(long, default_value = "normal")]
        level: String,
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

fn game_kind(name: &str) -> anyhow::Result<GameKind> {
    GameKind::from_key(name).ok_or_else(|| {
        anyhow::anyhow!(
            "unknown game {name:?} (expected heximeros, hexdame, hexmeister, hexaequo or harmegedo)"
        )
    })
}

fn load(arg: &PositionArg) -> anyhow::Result<AnyGame> {
    let Some(path) = &arg.position else {
        return Ok(AnyGame::new(game_kind(&arg.game)?, None, None)?);
    };
    let text = if path == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| anyhow::anyhow!("cannot read the position from standard input: {e}"))?;
        s
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read position file {path}: {e}"))?
    };
    Ok(AnyGame::from_json(&text)?)
}

fn run(cli: Cli) -> anyhow::Result<String> {
    let cmd = match cli.command {
        None => return Ok(NO_COMMAND.to_string()),
        Some(Command::Rules(cmd)) => cmd,
        Some(Command::Ai(cmd)) => return ai(cmd),
        Some(Command::Render(args)) => return render(args),
        Some(other) => return run_host(other),
    };
    Ok(match cmd {
        RulesCommand::New {
            game,
            players,
            house_rules,
        } => {
            let house = house_rules
                .map(|h| serde_json::from_str(&h))
                .transpose()
                .map_err(|e| anyhow::anyhow!("house rules are not JSON: {e}"))?;
            AnyGame::new(game_kind(&game)?, players, house)?.to_json()
        }
        RulesCommand::Moves(p) => load(&p)?.legal_moves().join("\n"),
        RulesCommand::Play { position, moves } => {
            let mut game = load(&position)?;
            for (i, m) in moves.iter().enumerate() {
                game.play(m)
                    .map_err(|e| anyhow::anyhow!("move {} ({m}): {e}", i + 1))?;
            }
            game.to_json()
        }
        RulesCommand::Perft { depth, position } => load(&position)?.perft(depth).to_string(),
        RulesCommand::Show(p) => load(&p)?.show(),
        RulesCommand::Bestmove {
            position,
            level,
            seed,
        } => hexmeros::ai::choose(&load(&position)?, level.parse()?, seed)?,
    })
}

fn ai(cmd: AiCommand) -> anyhow::Result<String> {
    use hexmeros::ai::tournament::{self, Bot, Spec};
    use hexmeros::ai::{Level, Limits, SearchKind, default_search};
    match cmd {
        AiCommand::Tune {
            terms,
            weights,
            level,
            search,
            iterations,
            games,
            seed,
            step,
            gain,
            max_plies,
            nodes,
        } => {
            let level: Level = level.parse()?;
            tune(hexmeros::ai::tune::TuneSpec {
                start: weights_arg("--weights", weights, level)?
                    .unwrap_or(hexmeros::ai::Weights::for_level(level)),
                terms: terms
                    .split(',')
                    .map(|t| t.trim().to_string())
                    .filter(|t| !t.is_empty())
                    .collect(),
                level,
                search: match search {
                    Some(s) => s.parse()?,
                    None => default_search(GameKind::HexiMeros, level),
                },
                iterations,
                games,
                seed,
                step_percent: step,
                gain,
                max_plies,
                limits: Limits {
                    nodes: nodes_arg("--nodes", nodes)?,
                    deadline: None,
                },
            })
        }
        AiCommand::Tournament {
            game,
            a,
            b,
            search,
            search_a,
            search_b,
            weights_a,
            weights_b,
            games,
            from,
            seed,
            players,
            max_plies,
            nodes,
            nodes_a,
            nodes_b,
            seating,
            opening,
            verbose,
            moves,
        } => {
            let kind = game_kind(&game)?;
            let search: Option<SearchKind> = search.map(|s| s.parse()).transpose()?;
            let (a, b): (Level, Level) = (a.parse()?, b.parse()?);
            let side = |s: Option<String>, level: Level| -> anyhow::Result<SearchKind> {
                Ok(match s {
                    Some(s) => s.parse()?,
                    None => search.unwrap_or(default_search(kind, level)),
                })
            };
            let (a, b) = (
                Bot {
                    level: a,
                    search: side(search_a, a)?,
                    weights: weights_arg("--weights-a", weights_a, a)?,
                    nodes: nodes_arg("--nodes-a", nodes_a)?,
                },
                Bot {
                    level: b,
                    search: side(search_b, b)?,
                    weights: weights_arg("--weights-b", weights_b, b)?,
                    nodes: nodes_arg("--nodes-b", nodes_b)?,
                },
            );
            let seating: tournament::Seating = seating.parse()?;
            if games == 0 {
                anyhow::bail!("--games must be at least 1");
            }
            if from == 0 {
                anyhow::bail!("--from counts games from 1");
            }
            if max_plies == Some(0) {
                anyhow::bail!("--max-plies must be at least 1");
            }
            let max_plies = max_plies.unwrap_or_else(|| tournament::default_max_plies(kind));
            if opening >= max_plies {
                anyhow::bail!("--opening ({opening}) must be below the ply cap ({max_plies})");
            }
            let spec = Spec {
                kind,
                players,
                a,
                b,
                games,
                first: from - 1,
                seed,
                max_plies,
                limits: Limits {
                    nodes: nodes_arg("--nodes", nodes)?,
                    deadline: None,
                },
                seating,
                opening,
            };
            tournament_verb(&spec, verbose, moves)
        }
        AiCommand::Budget {
            game,
            players,
            position,
            levels,
            seeds,
            playouts,
            seed,
            capped,
            search,
        } => budget(
            game,
            players,
            position,
            &levels,
            seeds,
            playouts,
            seed,
            capped,
            search.map(|s| s.parse()).transpose()?,
        ),
    }
}

/// `ai tournament`: one line per game on stderr as it ends (`--verbose`, `--moves`), the table
/// on stdout.
fn tournament_verb(
    spec: &hexmeros::ai::tournament::Spec,
    verbose: bool,
    moves: bool,
) -> anyhow::Result<String> {
    use hexmeros::ai::tournament::{self, Bot, Spec, Tally};
    let &Spec {
        kind,
        a,
        b,
        seed,
        players,
        seating,
        opening,
        ..
    } = spec;
    let start = std::time::Instant::now();
    let report = tournament::run(spec, &mut || stamp(start), &mut |i, rec| {
        if verbose {
            let result = match &rec.outcome {
                Some(o) => format!("{o:?}"),
                None if rec.capped => "capped: a draw".to_string(),
                None => "decided: one side left".to_string(),
            };
            let places: Vec<String> = rec
                .bots
                .iter()
                .zip(&rec.places)
                .map(|(bot, p)| format!("{} {p}", bot.name()))
                .collect();
            eprintln!(
                "game {}: {} plies ({} rounds), {result}; places by seat: {}",
                i + 1,
                rec.plies,
                rec.rounds,
                places.join(", ")
            );
        }
        if moves {
            eprintln!("game {} moves: {}", i + 1, rec.moves.join(" "));
        }
    })?;
    // The same bot on both sides: its rows tell the two sets of seats apart.
    let label = |bot: Bot, side: &str| {
        if a == b {
            format!("{} {side}", bot.name())
        } else {
            bot.name()
        }
    };
    let row = |name: String, t: &Tally| {
        let n = (t.wins + t.draws + t.losses).max(1) as f64;
        format!(
            "{:<15} {:>5.1}% {:>5.1}% {:>5.1}%  {:>5.2}  {:>10.1} {:>10.1} {:>10.1}",
            name,
            100.0 * t.wins as f64 / n,
            100.0 * t.draws as f64 / n,
            100.0 * t.losses as f64 / n,
            t.average_place(),
            ms(t.average_time().cpu),
            ms(t.max_time.cpu),
            ms(t.max_time.wall),
        )
    };
    let seats = players.unwrap_or(kind.players().1);
    let table = match (seats > 2, seating) {
        (false, _) => "colours alternated",
        (true, tournament::Seating::Alternate) => "alternate seats",
        (true, tournament::Seating::Lone) => "A in one seat",
    };
    let table = if opening > 0 {
        format!("{table}, {opening} random plies first")
    } else {
        table.to_string()
    };
    let mut out = format!(
        "{} ({seats} seats, {table}): {} vs {}, {} games, seed {seed}, {} capped at {} plies, {:.0} plies/game, {:.1} s\n",
        kind.name(),
        a.name(),
        b.name(),
        report.games,
        report.capped,
        spec.max_plies,
        report.plies as f64 / report.games.max(1) as f64,
        start.elapsed().as_secs_f64(),
    );
    out.push_str("bot               win   draw   loss  place  avg cpu ms max cpu ms max wall ms\n");
    out.push_str(&row(label(a, "A"), &report.a));
    out.push('\n');
    out.push_str(&row(label(b, "B"), &report.b));
    // Three or more seats: each side's place in each seat it sat in (Silver, Blue, ...).
    if seats > 2 {
        let table = AnyGame::new(kind, players, None)?;
        for (name, t) in [(label(a, "A"), &report.a), (label(b, "B"), &report.b)] {
            let by_seat: Vec<String> = t
                .place_by_seat()
                .iter()
                .enumerate()
                .filter_map(|(s, p)| {
                    let (place, n) = (*p)?;
                    let seat = table.seat_name(hexmeros::games::Seat(s as u8));
                    Some(format!("{seat} {place:.2} ({n})"))
                })
                .collect();
            out.push_str(&format!("\n{name} place by seat: {}", by_seat.join(", ")));
        }
    }
    let (median_plies, median_rounds) = report.median_length();
    out.push_str(&format!(
        "\ngames: {} won, {} drawn ({} of them abandoned, deadlocked), {} capped, {} stopped with one side left; median {median_plies} plies, {median_rounds} rounds",
        report.games - report.drawn - report.capped - report.decided,
        report.drawn,
        report.abandoned,
        report.capped,
        report.decided,
    ));
    Ok(out)
}

/// `ai tune`: one line per iteration on stderr as it ends, the final weights on stdout.
fn tune(spec: hexmeros::ai::tune::TuneSpec) -> anyhow::Result<String> {
    if spec.level < hexmeros::ai::Level::Normal {
        anyhow::bail!("--level must be normal or hard: the weights are the searching levels'");
    }
    if !(spec.gain.is_finite() && spec.gain > 0.0) {
        anyhow::bail!("--gain must be a number above 0");
    }
    if spec.max_plies == 0 {
        anyhow::bail!("--max-plies must be at least 1");
    }
    let start = std::time::Instant::now();
    let terms = spec.terms.clone();
    let w = hexmeros::ai::tune::tune(&spec, &mut || stamp(start), &mut |it| {
        let now: Vec<String> = terms
            .iter()
            .map(|t| format!("{t}={}", it.weights.get(t).unwrap_or_default()))
            .collect();
        eprintln!(
            "iteration {}: plus {:.2}, minus {:.2} (average place), {} capped of {}; now {} ({:.0} s)",
            it.number,
            it.report.a.average_place(),
            it.report.b.average_place(),
            it.report.capped,
            it.report.games,
            now.join(","),
            start.elapsed().as_secs_f64(),
        );
    })?;
    Ok(w.to_string())
}

/// A `--weights-*` option: HexiMeros evaluation weights over the level's (None: not given, so
/// the level's own).
fn weights_arg(
    option: &str,
    text: Option<String>,
    level: hexmeros::ai::Level,
) -> anyhow::Result<Option<hexmeros::ai::Weights>> {
    let Some(text) = text else {
        return Ok(None);
    };
    hexmeros::ai::Weights::for_level(level)
        .with_pairs(&text)
        .map(Some)
        .map_err(|e| anyhow::anyhow!("{option} {text:?}: {e}"))
}

/// A node budget given on the command line: at least one node, or the search has nothing to
/// play.
fn nodes_arg(option: &str, nodes: Option<u64>) -> anyhow::Result<Option<u64>> {
    match nodes {
        Some(0) => anyhow::bail!("{option} must be at least 1"),
        n => Ok(n),
    }
}

/// `ai budget`: the slowest move of each level in each game's busiest middle game.
#[allow(clippy::too_many_arguments)] // the verb's options, passed straight through
fn budget(
    game: Option<String>,
    players: Option<usize>,
    position: Option<String>,
    levels: &str,
    seeds: u32,
    playouts: u32,
    seed: u64,
    capped: bool,
    search: Option<hexmeros::ai::SearchKind>,
) -> anyhow::Result<String> {
    use hexmeros::ai::tournament;
    use hexmeros::ai::{Level, Limits, default_search};
    if seeds == 0 {
        anyhow::bail!("--seeds must be at least 1");
    }
    let levels = levels
        .split(',')
        .map(str::parse)
        .collect::<Result<Vec<Level>, _>>()?;
    let kinds = match (&game, &position) {
        (Some(g), _) => vec![game_kind(g)?],
        (None, None) => GameKind::ALL.to_vec(),
        (None, Some(_)) => Vec::new(),
    };
    let mut positions = Vec::new();
    if position.is_some() {
        let g = load(&PositionArg {
            position,
            game: "heximeros".into(),
        })?;
        let n = g.legal_moves().len();
        positions.push((g, n));
    } else {
        for kind in kinds {
            let (plies, skip) = match kind {
                GameKind::HexiMeros | GameKind::Harmegedo => (160, 30),
                _ => (120, 16),
            };
            positions.push(tournament::busiest(
                kind, players, seed, playouts, skip, plies,
            )?);
        }
    }
    let start = std::time::Instant::now();
    let mut out = String::from(
        "game       seats moves level   search   depth  max nodes avg cpu ms max cpu ms max wall ms cap ms\n",
    );
    for (g, n) in &positions {
        for &level in &levels {
            let mut limits = || {
                if capped {
                    Limits::within(level, std::time::Instant::now())
                } else {
                    Limits::default()
                }
            };
            let search = search.unwrap_or(default_search(g.kind(), level));
            let t =
                tournament::time_moves(g, level, search, seeds, &mut limits, &mut || stamp(start))?;
            // Two seats search plain alpha-beta whatever is asked.
            let kind = if g.seat_count() > 2 {
                search.key()
            } else {
                "-"
            };
            out.push_str(&format!(
                "{:<10} {:>5} {:>5} {:<7} {:<8} {:>5} {:>10} {:>10.1} {:>10.1} {:>11.1} {:>6}\n",
                g.kind().key(),
                g.seat_count(),
                n,
                level.key(),
                kind,
                t.min_depth,
                t.max_nodes,
                ms(t.total.per(t.moves as u64).cpu),
                ms(t.max.cpu),
                ms(t.max.wall),
                level.time_cap().as_millis(),
            ));
        }
    }
    Ok(out)
}

/// The clocks lent to the tournament harness: wall time since `start` and this thread's CPU
/// time (zero where the platform cannot tell, which only blanks that column).
fn stamp(start: std::time::Instant) -> hexmeros::ai::tournament::Stamp {
    hexmeros::ai::tournament::Stamp {
        wall: start.elapsed(),
        cpu: cpu_time::ThreadTime::try_now()
            .map(|t| t.as_duration())
            .unwrap_or_default(),
    }
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            {
                e.exit();
            }
            // Wrong usage is one line too, like every other error: clap's first line (which
            // already starts with "error: "), the usage left to `--help`.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("error: wrong usage").trim();
            let first = first.strip_prefix("error: ").unwrap_or(first);
            eprintln!("error: {first} (see --help)");
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(out) => {
            use std::io::Write;
            if !out.is_empty() {
                // A closed pipe (`… | head`) is not an error worth a panic.
                let _ = writeln!(std::io::stdout().lock(), "{}", out.trim_end());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            // One line: the error and its causes, joined.
            let msg = format!("{e:#}").replace('\n', " ");
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

#[derive(Args)]
struct RenderArgs {
    #[command(flatten)]
    position: PositionArg,
    /// Turn the board so this seat (e.g. blue, white, kingdom3) sits at the bottom.
    #[arg(long = "as", value_name = "SEAT")]
    as_seat: Option<String>,
    /// Moves played since the viewer's previous turn (oldest first), highlighted.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    last: Vec<String>,
    /// A staged move of the player to move, drawn as a preview.
    #[arg(long, value_name = "MOVE")]
    staged: Option<String>,
    /// A game export (FILE or '-'): write an animated GIF of the whole game instead.
    #[arg(long, value_name = "FILE|-", conflicts_with_all = ["position", "last", "staged"])]
    replay: Option<String>,
    /// The picture's long side in pixels (default 1600 for a board, 960 for a replay).
    #[arg(long, value_name = "PX")]
    size: Option<u32>,
    /// Where to write the picture.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<String>,
}

/// `hexmeros render`: one board picture, or a replay GIF of an export.
fn render(args: RenderArgs) -> anyhow::Result<String> {
    use hexmeros::games::Seat;
    use hexmeros::view;
    let out = args
        .output
        .ok_or_else(|| anyhow::anyhow!("say where to write the picture with -o FILE"))?;
    let seat_of = |game: &AnyGame, name: &str| {
        (0..game.seat_count() as u8)
            .map(Seat)
            .find(|&s| game.seat_name(s).eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                let names: Vec<&str> = (0..game.seat_count() as u8)
                    .map(|s| game.seat_name(Seat(s)))
                    .collect();
                anyhow::anyhow!("no seat called {name:?} (seats: {})", names.join(", "))
            })
    };
    let bytes = if let Some(path) = &args.replay {
        let text = read_input(path, "replay")?;
        let (start, lines) = view::parse_export(&text)?;
        let opts = view::ViewOptions {
            as_seat: args.as_seat.map(|n| seat_of(&start, &n)).transpose()?,
            size: args.size,
            ..view::ViewOptions::default()
        };
        view::replay_gif(&start, &lines, &opts)?
    } else {
        let game = load(&args.position)?;
        let opts = view::ViewOptions {
            as_seat: args.as_seat.map(|n| seat_of(&game, &n)).transpose()?,
            last_moves: args.last,
            staged: args.staged,
            size: args.size,
            ..view::ViewOptions::default()
        };
        view::render_png(&game, &opts)?
    };
    std::fs::write(&out, &bytes).map_err(|e| anyhow::anyhow!("cannot write {out}: {e}"))?;
    Ok(format!("wrote {out} ({} bytes)", bytes.len()))
}

fn read_input(path: &str, what: &str) -> anyhow::Result<String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| anyhow::anyhow!("cannot read the {what} from standard input: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read {what} file {path}: {e}"))
    }
}
