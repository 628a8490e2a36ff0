//! `hexmeros rules`: the rules engines on the command line (start positions, legal moves,
//! playing moves, perft, a text board, a bot's move), positions as JSON.

use std::io::Read;

use clap::{Args, Subcommand};
use hexmeros::games::{AnyGame, GameKind};

#[derive(Args)]
pub struct PositionArg {
    /// Position JSON file, or '-' for standard input. Without it: the start position of --game.
    #[arg(long, value_name = "FILE|-")]
    pub position: Option<String>,
    /// The game whose start position is used when --position is not given.
    #[arg(long, default_value = "heximeros")]
    pub game: String,
}

#[derive(Subcommand)]
pub enum RulesCommand {
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

pub fn game_kind(name: &str) -> anyhow::Result<GameKind> {
    GameKind::from_key(name).ok_or_else(|| {
        anyhow::anyhow!(
            "unknown game {name:?} (expected heximeros, hexdame, hexmeister, hexaequo or harmegedo)"
        )
    })
}

pub fn load(arg: &PositionArg) -> anyhow::Result<AnyGame> {
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

/// `hexmeros rules …`.
pub fn rules(cmd: RulesCommand) -> anyhow::Result<String> {
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
