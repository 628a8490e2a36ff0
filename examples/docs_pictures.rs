//! Writes the README's board pictures, `docs/board-<game>.png`: each game's golden position
//! (tests/support/golden.rs) at 1200 px. Run by hand after an intended change of look:
//! `cargo run --release --example docs_pictures`.

#[path = "../tests/support/golden.rs"]
mod golden;

use hexmeros::games::GameKind;
use hexmeros::view;

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
    Ok(())
}
