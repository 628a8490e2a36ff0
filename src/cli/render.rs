//! `hexmeros render`: a board picture (PNG) of a position, or a whole game as an animated GIF.

use std::io::Read;

use clap::Args;
use hexmeros::games::AnyGame;

use super::rules::{PositionArg, load};

#[derive(Args)]
pub struct RenderArgs {
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
    /// The picture's long side in pixels (default: the game's own, 1600 for most boards, 1200
    /// for HexDame, 560 to 1600 for HexaEquo as its board grows; 960 for a replay's frames).
    #[arg(long, value_name = "PX")]
    size: Option<u32>,
    /// Where to write the picture.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<String>,
}

/// `hexmeros render`: one board picture, or a replay GIF of an export.
pub fn render(args: RenderArgs) -> anyhow::Result<String> {
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
