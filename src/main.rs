//! The `hexmeros` binary: parses the command line and hands each verb to its module of
//! `cli` (which, with `discord`, is where `anyhow` lives, at the edge).

mod cli;
mod discord;

use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};

use cli::admin::AdminCommand;
use cli::ai::AiCommand;
use cli::db::DbCommand;
use cli::render::RenderArgs;
use cli::rules::RulesCommand;

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
    /// Run the Discord bot. Its settings are flags or environment variables (or .env), the
    /// flag first; the bot token is DISCORD_TOKEN (see .env.example).
    Serve(Box<crate::discord::ServeArgs>),
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
        /// Also open the games on an interactive board in the browser, served at ADDR (an
        /// IP:PORT or a port on 127.0.0.1; default 127.0.0.1:8765): each game prints a link
        /// per player.
        #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8765")]
        web: Option<String>,
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
    /// For operators: move a server's data between databases, back it up and restore it.
    #[command(subcommand)]
    Db(DbCommand),
}

/// What plain `hexmeros` says.
const NO_COMMAND: &str = "\
hexmeros hosts hexagonal board games on Discord and on the terminal.
To run the bot, put DISCORD_TOKEN=<your bot token> in the environment (or .env) and run
`hexmeros serve` (see .env.example). To play without Discord, on this terminal:
    hexmeros local
Games are kept in DATABASE_URL (default sqlite://hexmeros.db). `hexmeros --help` lists the rest.";

fn run(cli: Cli, matches: Option<&clap::ArgMatches>) -> anyhow::Result<String> {
    let Some(cmd) = cli.command else {
        return Ok(NO_COMMAND.to_string());
    };
    match cmd {
        Command::Serve(args) => {
            cli::serve::serve(*args, matches.and_then(|m| m.subcommand_matches("serve")))
        }
        Command::Rules(cmd) => cli::rules::rules(cmd),
        Command::Local {
            db,
            png_dir,
            no_png,
            web,
        } => cli::local::local(db, png_dir, no_png, web),
        Command::Export { game, db } => cli::db::export(game, db),
        Command::Import { file, players, db } => cli::db::import(file, players, db),
        Command::Ai(cmd) => cli::ai::ai(cmd),
        Command::Render(args) => cli::render::render(args),
        Command::Admin(cmd) => cli::admin::admin(cmd),
        Command::Db(cmd) => cli::db::db(cmd),
    }
}

fn main() -> ExitCode {
    // Every verb reads `.env` too (the environment goes first), before its flags are parsed,
    // so that `admin status`, `export` and `local` in the bot's folder open the bot's database
    // (`DATABASE_URL`), as `serve` does. A missing .env is fine.
    let _ = dotenvy::dotenv();
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
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
    match run(cli, Some(&matches)) {
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
