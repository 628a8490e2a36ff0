//! `hexmeros local`: the games on the terminal, hot seat, on the same host and database as the
//! bot.

use super::db::{host, runtime};

/// Play on the terminal until the input ends; a board picture after every turn in `png_dir`
/// (flag, then `HEXMEROS_PNG_DIR`, then the current directory) unless `no_png`.
pub fn local(
    db: Option<String>,
    png_dir: Option<std::path::PathBuf>,
    no_png: bool,
) -> anyhow::Result<String> {
    let png_dir = if no_png {
        None
    } else {
        Some(
            png_dir
                .or_else(|| std::env::var_os("HEXMEROS_PNG_DIR").map(Into::into))
                .unwrap_or_else(|| ".".into()),
        )
    };
    runtime()?.block_on(async move {
        let host = host(db).await?;
        let input = tokio::io::BufReader::new(tokio::io::stdin());
        hexmeros::local::Local::new(&host, std::io::stdout())
            .with_png_dir(png_dir)
            .run(input)
            .await?;
        Ok(String::new())
    })
}
