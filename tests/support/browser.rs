//! The web board's browser tests' harness: Debian's headless Chromium driven through
//! chromedriver (WebDriver), and the few page helpers every browser test uses (wait for an
//! expression, tap a cell, press a button).
//!
//! Chromium and chromedriver come from Debian (`.ci/run` installs them). Without them the tests
//! say so and pass, except under CI (`CI` set), where a missing browser fails them.

use std::os::unix::process::CommandExt as _;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

/// How long a page may take to show what the test waits for.
pub const WAIT: Duration = Duration::from_secs(30);

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// A chromedriver process, stopped when dropped.
pub struct Driver {
    child: Child,
    url: String,
    _profiles: tempfile::TempDir,
}

impl Drop for Driver {
    /// chromedriver and every browser it started go together (their process group), also when
    /// a test failed before closing its browser: an orphaned page would go on asking its old
    /// port for live updates, which another test's server may have by then.
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// chromedriver on a free port, or `None` (with a word why) where the machine has no browser.
pub async fn driver() -> Option<Driver> {
    if !std::path::Path::new(CHROMEDRIVER).exists() || !std::path::Path::new(CHROMIUM).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the browser tests: install chromium and chromium-driver (apt-get)"
        );
        eprintln!("no {CHROMIUM} or {CHROMEDRIVER}: the browser tests are skipped here");
        return None;
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let url = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + WAIT;
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Some(Driver {
        child,
        url,
        _profiles: tempfile::tempdir().unwrap(),
    })
}

impl Driver {
    /// A new headless browser of `width`×`height` CSS pixels at scale 1, with a profile of its
    /// own and no traffic but to this machine.
    pub async fn browser(&self, width: u32, height: u32) -> Client {
        let profile = tempfile::tempdir_in(self._profiles.path()).unwrap();
        // A phone's width is emulated (a window cannot be made narrower than about 500 pixels);
        // the page sees exactly `width`×`height` CSS pixels at scale 1 either way.
        let caps: serde_json::Map<String, Value> = serde_json::from_value(json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                    "--force-device-scale-factor=1", "--font-render-hinting=none",
                    "--window-size=1280,900",
                    format!("--user-data-dir={}", profile.keep().display()),
                ],
                "mobileEmulation": {
                    "deviceMetrics": { "width": width, "height": height, "pixelRatio": 1.0, "touch": width < 600 },
                },
            },
        }))
        .unwrap();
        ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&self.url)
            .await
            .unwrap()
    }
}

/// The value of `expr` in the page once it is truthy, waited for.
pub async fn until(c: &Client, expr: &str) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        let v = c
            .execute(&format!("return ({expr});"), vec![])
            .await
            .unwrap();
        if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
            return v;
        }
        if Instant::now() > deadline {
            let msg = c
                .execute(
                    "return document.getElementById('message').textContent;",
                    vec![],
                )
                .await
                .unwrap_or_default();
            panic!("waited in vain for {expr}; the page says {msg}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The board loaded at `version` or later.
pub async fn at_version(c: &Client, version: u64) {
    // A board at version 0 (a game just made from a position) is loaded too: the attribute
    // appears only once it is.
    until(
        c,
        &format!(
            "document.body.dataset.version !== undefined \
             && Number(document.body.dataset.version) >= {version}"
        ),
    )
    .await;
}

pub async fn tap(c: &Client, hex: (i32, i32)) {
    let css = format!("g.cell[data-q=\"{}\"][data-r=\"{}\"]", hex.0, hex.1);
    match c.find(Locator::Css(&css)).await {
        Ok(cell) => cell.click().await.unwrap(),
        Err(e) => {
            let page = c
                .execute(
                    "return [document.querySelectorAll('g.cell').length, \
                     document.getElementById('title').textContent, \
                     document.getElementById('message').textContent, \
                     [...document.querySelectorAll('g.cell')].slice(0, 3).map(g => g.outerHTML.slice(0, 90)), \
                     document.querySelectorAll('svg').length, \
                     !!document.querySelector(arguments[0]), \
                     performance.getEntriesByType('resource').map(e => e.name.split('/').pop())];",
                    vec![json!(css)],
                )
                .await
                .unwrap_or_default();
            panic!("no cell {hex:?} on the page ({e}): {page}");
        }
    }
}

pub async fn click_button(c: &Client, text: &str) {
    let buttons = c
        .find_all(Locator::Css("#actions button, #choices button"))
        .await
        .unwrap();
    for b in buttons {
        if b.text().await.unwrap() == text {
            b.click().await.unwrap();
            return;
        }
    }
    panic!("no button {text:?}");
}

pub async fn text_of(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}
