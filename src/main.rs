//! The `hexmeros` binary: the command line. `anyhow` lives here, at the edge.

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
}

/// What plain `hexmeros` says: the Discord front end is not part of this build yet.
const NO_COMMAND: &str = "\
hexmeros hosts hexagonal board games on Discord and on the terminal.
To run the bot, put DISCORD_TOKEN=<your bot token> in the environment (or .env) and run
`hexmeros serve` once the Discord front end is built. To play now, on this terminal:
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
            Command::Rules(_) => Ok(String::new()),
        }
    })
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
    })
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
