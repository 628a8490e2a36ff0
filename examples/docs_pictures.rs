//! Writes the docs' board pictures, `docs/board-<game>.png`: each game's golden position
//! (tests/support/golden.rs) at 1200 px; and the move picker's zoomed picture of the HexiMeros
//! golden position's busiest piece, `docs/picker-heximeros.png`, at the 720 px the bot sends,
//! with sample players' names; and the close-up posted before the full board
//! (`view::focus`) of the HexiMeros golden position's round, `docs/focus-heximeros.png`.
//! Run by hand after an intended change of look:
//! `cargo run --release --example docs_pictures`.

use hexmeros_testkit::golden;

use hexmeros::games::GameKind;
use hexmeros::view;
use hexmeros::view::picker;
use hexmeros::view::zoom;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs");
    for kind in GameKind::ALL {
        let (game, mut opts) = golden::golden_position(kind);
        opts.size = Some(1200);
        let png = view::render_png(&game, &opts)?;
        let path = format!("{dir}/board-{}.png", kind.key());
        std::fs::write(&path, png)?;
        println!("wrote {path}");
    }
    let (game, _) = golden::golden_position(GameKind::HexiMeros);
    let (piece, targets) = picker::pieces(&game)
        .into_iter()
        .map(|p| {
            let t = picker::targets(&game, &p.origin);
            (p, t)
        })
        .max_by_key(|(_, t)| t.len())
        .ok_or("no movable piece")?;
    let names: Vec<String> = ["Ana", "Ben", "Chidi", "Dana", "Emil", "Fay"]
        .map(String::from)
        .to_vec();
    let png = zoom::zoom_png_named(&game, None, &names, &piece, &targets, Some(720))?;
    let path = format!("{dir}/picker-heximeros.png");
    std::fs::write(&path, png)?;
    println!("wrote {path}");
    let (game, mut opts) = golden::golden_position(GameKind::HexiMeros);
    opts.players = names;
    let png = view::focus::focus_png(&game, &opts, None)?.ok_or("no close-up")?;
    let path = format!("{dir}/focus-heximeros.png");
    std::fs::write(&path, png)?;
    println!("wrote {path}");
    Ok(())
}
