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
    },
    /// Rules engines: start positions, legal moves, playing moves, perft, board pictures.
    #[command(subcommand)]
    Rules(RulesCommand),
    /// Play on the terminal (hot seat), on the same game host and database as the bot.
    Local {
        /// The database; default: $DATABASE_URL, else sqlite://hexmeros.db.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
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
    Ok(tokio::runtime::Builder::new_multi_thread()
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

fn run_host(cmd: Command) -> anyhow::Result<String> {
    runtime()?.block_on(async move {
        match cmd {
            Command::Serve { db } => {
                discord::serve_from_env(db).await?;
                Ok(String::new())
            }
            Command::Local { db } => {
                let host = host(db).await?;
                let input = tokio::io::BufReader::new(tokio::io::stdin());
                hexmeros::local::Local::new(&host, std::io::stdout())
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
                    ids.push(host.store().local_player(n, host.now()).await?);
                }
                let id = host.import(&text, &ids).await?;
                Ok(format!("imported as game #{id}"))
            }
            Command::Rules(_) | Command::Ai(_) => Ok(String::new()),
        }
    })
}

#[derive(Subcommand)]
enum AiCommand {
    /// Play seeded games between two levels (colours or seats alternated) and print win/draw/loss
    /// rates and the time per move of each level.
    Tournament {
        #[arg(long)]
        game: String,
        /// Level A: random, easy, normal or hard.
        #[arg(long)]
        a: String,
        /// Level B.
        #[arg(long)]
        b: String,
        #[arg(long, default_value_t = 100)]
        games: u32,
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
        /// Print one line per finished game.
        #[arg(long)]
        verbose: bool,
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
    use hexmeros::ai::tournament::{self, Spec, Tally};
    use hexmeros::ai::{Level, Limits};
    let AiCommand::Tournament {
        game,
        a,
        b,
        games,
        seed,
        players,
        max_plies,
        nodes,
        verbose,
    } = cmd;
    let kind = game_kind(&game)?;
    let (a, b): (Level, Level) = (a.parse()?, b.parse()?);
    let spec = Spec {
        kind,
        players,
        a,
        b,
        games,
        seed,
        max_plies: max_plies.unwrap_or_else(|| tournament::default_max_plies(kind)),
        limits: Limits {
            nodes,
            deadline: None,
        },
    };
    let start = std::time::Instant::now();
    let report = tournament::run(&spec, &mut || start.elapsed(), &mut |i, rec| {
        if verbose {
            let result = match &rec.outcome {
                Some(o) => format!("{o:?}"),
                None => "capped".to_string(),
            };
            eprintln!("game {}: {} plies, {result}", i + 1, rec.plies);
        }
    })?;
    let row = |level: Level, t: &Tally| {
        let n = (t.wins + t.draws + t.losses).max(1) as f64;
        format!(
            "{:<7} {:>5.1}% {:>5.1}% {:>5.1}%  {:>5.2}  {:>9.1} {:>9.1}",
            level.key(),
            100.0 * t.wins as f64 / n,
            100.0 * t.draws as f64 / n,
            100.0 * t.losses as f64 / n,
            t.average_place(),
            t.average_time().as_secs_f64() * 1000.0,
            t.max_time.as_secs_f64() * 1000.0,
        )
    };
    let mut out = format!(
        "{} ({} seats): {a} vs {b}, {} games, seed {seed}, {} capped at {} plies, {:.0} plies/game, {:.1} s\n",
        kind.name(),
        players.unwrap_or(kind.players().1),
        report.games,
        report.capped,
        spec.max_plies,
        report.plies as f64 / report.games.max(1) as f64,
        start.elapsed().as_secs_f64(),
    );
    out.push_str("level     win   draw   loss  place  avg ms/mv max ms/mv\n");
    out.push_str(&row(a, &report.a));
    if a != b {
        out.push('\n');
        out.push_str(&row(b, &report.b));
    }
    Ok(out)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
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
