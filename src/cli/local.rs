//! `hexmeros local`: the games on the terminal, hot seat, on the same host and database as the
//! bot.

use super::db::{host, runtime};

/// Play on the terminal until the input ends; a board picture after every turn in `png_dir`
/// (flag, then `HEXMEROS_PNG_DIR`, then the current directory) unless `no_png`; with `web`, the
/// board in the browser too, served at that address.
pub fn local(
    db: Option<String>,
    png_dir: Option<std::path::PathBuf>,
    no_png: bool,
    web: Option<String>,
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
        let host = std::sync::Arc::new(host(db, hexmeros::store::Opening::Migrate).await?);
        let links = match web {
            Some(addr) => Some(board(&host, &addr).await?),
            None => None,
        };
        let input = tokio::io::BufReader::new(tokio::io::stdin());
        hexmeros::local::Local::new(&host, std::io::stdout())
            .with_png_dir(png_dir)
            .with_links(links)
            .run(input)
            .await?;
        Ok(String::new())
    })
}

/// Serve the board for local play at `addr`; its links.
async fn board(
    host: &std::sync::Arc<hexmeros::host::GameHost>,
    addr: &str,
) -> anyhow::Result<hexmeros::web::Links> {
    use hexmeros::web;
    let addr = web::parse_addr(addr).map_err(anyhow::Error::msg)?;
    let keys = web::keys(host).await?;
    let front = std::sync::Arc::new(web::standalone::Standalone::new(host.clone()));
    let running = web::start(host.clone(), keys.clone(), addr, front)
        .await
        .map_err(|e| anyhow::anyhow!("cannot serve the board at {addr}: {e}"))?;
    println!(
        "the board is served at http://{}/ (a link per player comes with each game)",
        running.addr
    );
    Ok(web::Links::new(keys, &format!("http://{}", running.addr)))
}
