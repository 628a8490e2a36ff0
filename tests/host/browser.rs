//! The web board in a real browser (issue 46): Debian's headless Chromium driven through
//! chromedriver (WebDriver), against the board served in this process on a real store. A whole
//! HexDame game played by taps in two browsers (each seeing the other's moves arrive without a
//! reload), a move made elsewhere (as by Discord) arriving on an open board, a HexiMeros turn
//! with a capture and a Check, a spectator who cannot act, forged and expired links, and the
//! board's look at a phone's and a desktop's size (golden screenshots).
//!
//! Chromium and chromedriver come from Debian (`.ci/run` installs them). Without them these
//! tests say so and pass, except under CI (`CI` set), where a missing browser fails them.

use hexmeros_testkit::host::RulesOf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use hexmeros::games::{AnyGame, GameKind};
use hexmeros::host::{Actor, GameHost, GameId};
use hexmeros::view::picker;
use hexmeros::web::{self, Claims, Links};
use hexmeros_testkit::browser::*;
use hexmeros_testkit::golden;
use hexmeros_testkit::host::{self as support, T0, ensure_players, host_on};
use serde_json::json;

struct Board {
    _env: support::Env,
    host: Arc<GameHost>,
    links: Links,
    keys: web::Keys,
}

impl Board {
    /// A new HexDame game of players 1 and 2.
    async fn hexdame(&self) -> GameId {
        let (game, _) = self
            .host
            .create(GameKind::HexDame, &[1, 2], None, None)
            .await
            .unwrap();
        game
    }

    /// `game` in a new browser of `size`, as `player` (a spectator when `None`), once its
    /// board is shown.
    async fn open(
        &self,
        driver: &Driver,
        game: GameId,
        player: Option<i64>,
        size: (u32, u32),
    ) -> Client {
        let c = driver.browser(size.0, size.1).await;
        let link = match player {
            Some(p) => self.links.player(game, p, T0),
            None => self.links.watch(game, T0),
        };
        c.goto(&link).await.unwrap();
        let v = self.host.state(game).await.unwrap().version();
        at_version(&c, v).await;
        c
    }
}

async fn board() -> Board {
    let env = support::env().await;
    let host = Arc::new(host_on(&env.url, &env.clock).await);
    ensure_players(&host, 1..=6).await;
    let keys = web::keys(&host).await.unwrap();
    let front = Arc::new(web::standalone::Standalone::new(host.clone()));
    // The browsers tap as fast as the machine lets them, two on one address: the rate limits
    // (tested on their own in web.rs) would refuse them where no person could tap that fast.
    let unhurried = web::WebLimits {
        per_address: web::quota((10_000, 10_000)),
        per_link: web::quota((10_000, 10_000)),
        pictures: web::quota((10_000, 10_000)),
        per_player: web::quota((10_000, 10_000)),
        ..web::WebLimits::default()
    };
    let running = web::start_with(
        host.clone(),
        keys.clone(),
        "127.0.0.1:0".parse().unwrap(),
        front,
        unhurried,
    )
    .await
    .unwrap();
    let links = Links::new(keys.clone(), &format!("http://{}", running.addr));
    Board {
        _env: env,
        host,
        links,
        keys,
    }
}

/// Play `m` (of `mirror`, whose mover's browser is `c`) by taps: the piece, the target, a
/// choice when the target has several moves, Pass.
async fn play_by_taps(c: &Client, mirror: &AnyGame, origin: &str, m: &str) {
    let view = hexmeros::view::cell_names(mirror);
    let hex_of = |cell: &str| {
        view.iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(cell))
            .map(|(h, _)| (h.q, h.r))
            .unwrap_or_else(|| panic!("no cell {cell}"))
    };
    let piece = picker::pieces(mirror)
        .into_iter()
        .find(|p| p.origin == origin)
        .unwrap();
    tap(c, hex_of(piece.cell.as_deref().unwrap())).await;
    until(
        c,
        "document.querySelectorAll('#highlights .hl-target').length",
    )
    .await;
    let target = picker::targets(mirror, origin)
        .into_iter()
        .find(|t| t.moves.iter().any(|x| x == m))
        .unwrap();
    tap(c, (target.hex.unwrap().q, target.hex.unwrap().r)).await;
    if target.moves.len() > 1 {
        until(c, "document.querySelectorAll('#choices button').length").await;
        click_button(c, m).await;
    }
    until(c, "document.querySelector('#actions button.primary')").await;
    click_button(c, "Pass").await;
    // Passed, the page tells the state as it now is, never the move that was staged.
    until(
        c,
        "(() => { const t = document.getElementById('message').textContent; \
         return !document.querySelector('#actions button.primary') && !/staged/i.test(t) \
         && /has the Token|over/.test(t); })()",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_hexdame_game_is_played_by_taps_and_each_board_follows_the_other() {
    let Some(driver) = driver().await else { return };
    let b = board().await;
    let game = b.hexdame().await;
    let white = driver.browser(1280, 800).await;
    let black = driver.browser(390, 844).await;
    white.goto(&b.links.player(game, 1, T0)).await.unwrap();
    black.goto(&b.links.player(game, 2, T0)).await.unwrap();
    let mut mirror = AnyGame::new(GameKind::HexDame, None, None).unwrap();
    let mut version = b.host.state(game).await.unwrap().version();
    let mut ply = 0usize;
    while mirror.outcome().is_none() {
        assert!(ply < 200, "the game should have ended");
        // Both boards show the game as it stands, neither reloaded by the test.
        at_version(&white, version).await;
        at_version(&black, version).await;
        let mover = if mirror.to_move().unwrap().0 == 0 {
            &white
        } else {
            &black
        };
        until(
            mover,
            "document.getElementById('who').textContent.includes('your turn')",
        )
        .await;
        // The board is an image with words for a screen reader: whose turn it is.
        until(
            mover,
            "(() => { const s = document.querySelector('#board svg'); \
             return s && s.getAttribute('role') === 'img' \
             && /has the Token/.test(document.getElementById('board-alt').textContent); })()",
        )
        .await;
        // A seeded choice among the pieces, in the picker's order, and its first target.
        let pieces = picker::pieces(&mirror);
        let origin = pieces[(ply * 7) % pieces.len()].origin.clone();
        let m = picker::targets(&mirror, &origin)[0].moves[0].clone();
        play_by_taps(mover, &mirror, &origin, &m).await;
        mirror.play(&m).unwrap();
        version += 2;
        ply += 1;
    }
    at_version(&white, version).await;
    at_version(&black, version).await;
    let st = b.host.state(game).await.unwrap();
    assert_eq!(st.record().len(), ply);
    assert_eq!(st.rules().show(), mirror.show());
    for c in [&white, &black] {
        until(
            c,
            "document.getElementById('who').textContent.includes('over')",
        )
        .await;
        let story = c.find_all(Locator::Css("#story li")).await.unwrap();
        assert_eq!(story.len(), ply);
    }
    white.close().await.unwrap();
    black.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_made_elsewhere_reaches_an_open_board() {
    let Some(driver) = driver().await else { return };
    let b = board().await;
    let game = b.hexdame().await;
    let black = b.open(&driver, game, Some(2), (390, 844)).await;
    let v = b.host.state(game).await.unwrap().version();
    assert!(!text_of(&black, "who").await.contains("your turn"));
    // White moves in Discord (the host's own path, as a slash command takes it).
    let m = b.host.legal_moves(game, 1).await.unwrap()[0].clone();
    b.host
        .handle(
            game,
            Actor::player(1),
            hexmeros::host::Command::Move {
                text: m,
                commit: true,
            },
            None,
        )
        .await
        .unwrap();
    at_version(&black, v + 1).await;
    until(
        &black,
        "document.getElementById('who').textContent.includes('your turn')",
    )
    .await;
    assert_eq!(
        black
            .find_all(Locator::Css("#story li"))
            .await
            .unwrap()
            .len(),
        1
    );
    // Looking back: the start, then now again (and no tap plays while looking back).
    black
        .find(Locator::Id("step-back"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(
        &black,
        "document.getElementById('step-label').textContent === 'the start'",
    )
    .await;
    until(&black, "document.querySelector('#story li.shown') === null").await;
    black
        .find(Locator::Id("step-now"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(
        &black,
        "document.getElementById('step-label').textContent === ''",
    )
    .await;
    until(
        &black,
        "document.getElementById('who').textContent.includes('your turn')",
    )
    .await;
    black.close().await.unwrap();
}

/// A HexiMeros position where the side to move has a capture that may declare Check: a seeded
/// playout of the start, and that move's piece and text.
fn capture_with_check() -> (AnyGame, String, String) {
    for seed in 0..400 {
        let (game, _) = golden::playout(GameKind::HexiMeros, None, 40, seed);
        if game.outcome().is_some() {
            continue;
        }
        for p in picker::pieces(&game) {
            for t in picker::targets(&game, &p.origin) {
                if !t.takes.is_empty() && !t.checks.is_empty() && t.moves.len() == 1 {
                    return (game, p.origin.clone(), t.moves[0].clone());
                }
            }
        }
    }
    panic!("no seeded position with a capture that may declare Check");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_heximeros_turn_with_a_capture_and_a_check_is_played_by_taps() {
    let Some(driver) = driver().await else { return };
    let b = board().await;
    let (position, origin, m) = capture_with_check();
    let (game, _): (GameId, _) = b
        .host
        .create_from_position(&[1, 2, 3, 4, 5, 6], &position.to_json(), None)
        .await
        .unwrap();
    let mover = position.to_move().unwrap();
    let player = i64::from(mover.0) + 1;
    let c = driver.browser(1280, 800).await;
    c.goto(&b.links.player(game, player, T0)).await.unwrap();
    let v = b.host.state(game).await.unwrap().version();
    at_version(&c, v).await;
    // The piece's targets: the capture is ringed, and marked as a possible Check.
    let view = hexmeros::view::cell_names(&position);
    let piece = picker::pieces(&position)
        .into_iter()
        .find(|p| p.origin == origin)
        .unwrap();
    let cell = piece.cell.unwrap();
    let (h, _) = view.iter().find(|(_, n)| *n == cell).unwrap();
    tap(&c, (h.q, h.r)).await;
    until(
        &c,
        "document.querySelectorAll('#highlights .hl-capture').length",
    )
    .await;
    until(
        &c,
        "document.querySelectorAll('#highlights .hl-check').length",
    )
    .await;
    let target = picker::targets(&position, &origin)
        .into_iter()
        .find(|t| t.moves[0] == m)
        .unwrap();
    let th = target.hex.unwrap();
    tap(&c, (th.q, th.r)).await;
    // Staged: Pass + Check on the seat it may declare upon.
    let check = format!("Pass + Check on {}", target.checks[0]);
    until(&c, "document.querySelector('#actions button.check')").await;
    click_button(&c, &check).await;
    let deadline = Instant::now() + WAIT;
    let line = loop {
        let st = b.host.state(game).await.unwrap();
        if let Some(r) = st.record().last() {
            break r.line.clone();
        }
        assert!(Instant::now() < deadline, "the move was not committed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(line.contains('x'), "a capture: {line}");
    assert!(
        line.to_lowercase()
            .contains(&format!("+{}", target.checks[0].to_lowercase())),
        "a Check declared: {line}"
    );
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_cannot_act_and_bad_links_are_refused() {
    let Some(driver) = driver().await else { return };
    let b = board().await;
    let game = b.hexdame().await;
    let c = b.open(&driver, game, None, (390, 844)).await;
    let v = b.host.state(game).await.unwrap().version();
    assert_eq!(text_of(&c, "who").await, "Watching");
    // The link's token has left the address bar, and a reload of the tab still finds it.
    let address = c.current_url().await.unwrap();
    assert!(!address.as_str().contains("t="), "{address}");
    assert_eq!(address.fragment(), None, "{address}");
    c.refresh().await.unwrap();
    until(
        &c,
        "document.getElementById('who').textContent === 'Watching' && !location.hash",
    )
    .await;
    let start = AnyGame::new(GameKind::HexDame, None, None).unwrap();
    let piece = &picker::pieces(&start)[0];
    let view = hexmeros::view::cell_names(&start);
    let (h, _) = view
        .iter()
        .find(|(_, n)| Some(n) == piece.cell.as_ref())
        .unwrap();
    tap(&c, (h.q, h.r)).await;
    until(
        &c,
        "document.getElementById('message').textContent.includes('cannot move')",
    )
    .await;
    assert_eq!(
        c.find_all(Locator::Css("#highlights *"))
            .await
            .unwrap()
            .len(),
        0
    );
    assert_eq!(
        c.find_all(Locator::Css("#actions button"))
            .await
            .unwrap()
            .len(),
        0
    );
    assert_eq!(b.host.state(game).await.unwrap().version(), v);
    // A forged link and an expired one.
    let base = b.links.watch(game, T0);
    let base = base.split_once("#t=").unwrap().0;
    let forged = web::Keys::new(b"not the key of this database.....").sign(&Claims {
        game,
        player: Some(1),
        expires: T0 + 60_000,
    });
    c.goto(&format!("{base}#t={forged}")).await.unwrap();
    c.refresh().await.unwrap();
    until(
        &c,
        "document.getElementById('message').textContent.includes('not one the bot made')",
    )
    .await;
    let expired = b.keys.sign(&Claims {
        game,
        player: Some(1),
        expires: T0 - 1,
    });
    c.goto(&format!("{base}#t={expired}")).await.unwrap();
    c.refresh().await.unwrap();
    until(
        &c,
        "document.getElementById('message').textContent.includes('expired')",
    )
    .await;
    c.goto(base).await.unwrap();
    c.refresh().await.unwrap();
    until(
        &c,
        "document.getElementById('message').textContent.includes('needs a link')",
    )
    .await;
    assert_eq!(b.host.state(game).await.unwrap().version(), v);
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_looks_as_it_should_on_a_phone_and_a_desktop() {
    let Some(driver) = driver().await else { return };
    let b = board().await;
    let game = b.hexdame().await;
    let v = b.host.state(game).await.unwrap().version();
    for (w, h) in [(390, 844), (1280, 800)] {
        let c = driver.browser(w, h).await;
        c.goto(&b.links.player(game, 1, T0)).await.unwrap();
        at_version(&c, v).await;
        until(
            &c,
            "document.getElementById('message').textContent.includes('tap a piece')",
        )
        .await;
        let inner = c
            .execute("return [window.innerWidth, window.innerHeight];", vec![])
            .await
            .unwrap();
        assert_eq!(inner, json!([w, h]), "the page's viewport");
        let png = c.screenshot().await.unwrap();
        let path = format!(
            "{}/tests/data/golden/web-hexdame-{w}x{h}.png",
            hexmeros_testkit::REPO
        );
        // A browser draws text with the machine's fonts and hinting: a shade here and there
        // moves between runs; a change of look (a colour, a moved panel, a piece) moves far more
        // than the 1 % allowed.
        if let Some(diff) = golden::compare_within(&png, &path, &format!("{w}x{h}"), 0.01) {
            panic!("{diff}");
        }
        // A piece tapped: its targets numbered on the board.
        let start = AnyGame::new(GameKind::HexDame, None, None).unwrap();
        let piece = &picker::pieces(&start)[3];
        let (hex, _) = hexmeros::view::cell_names(&start)
            .into_iter()
            .find(|(_, n)| Some(n) == piece.cell.as_ref())
            .unwrap();
        tap(&c, (hex.q, hex.r)).await;
        until(
            &c,
            "document.querySelectorAll('#highlights .hl-target').length",
        )
        .await;
        let png = c.screenshot().await.unwrap();
        let path = path.replace(".png", "-targets.png");
        if let Some(diff) = golden::compare_within(&png, &path, &format!("{w}x{h} targets"), 0.01) {
            panic!("{diff}");
        }
        c.close().await.unwrap();
    }
}

/// Two fingers on a phone: spread apart they zoom the board in, pinched together they zoom it
/// back out, and neither gesture counts as a tap (no piece's targets appear).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_fingers_pinch_the_board_in_and_out_without_tapping_it() {
    use fantoccini::actions::{Actions, InputSource as _, PointerAction, TouchActions};
    let Some(driver) = driver().await else { return };
    let b = board().await;
    let game = b.hexdame().await;
    let c = b.open(&driver, game, Some(1), (390, 844)).await;
    let width = async |c: &Client| -> f64 {
        let v = c
            .execute(
                "return document.querySelector('#board svg').getAttribute('viewBox');",
                vec![],
            )
            .await
            .unwrap();
        v.as_str()
            .unwrap()
            .split([' ', ','])
            .nth(2)
            .unwrap()
            .parse()
            .unwrap()
    };
    let centre = c
        .execute(
            "const r = document.getElementById('board').getBoundingClientRect(); \
             return [r.left + r.width / 2, r.top + r.height / 2];",
            vec![],
        )
        .await
        .unwrap();
    let (x, y) = (centre[0].as_f64().unwrap(), centre[1].as_f64().unwrap());
    // One finger from `from` to `to` pixels right of the centre (negative: left), in steps.
    let finger = |id: &str, from: f64, to: f64| {
        let mut t = TouchActions::new(id.to_string()).then(PointerAction::MoveTo {
            duration: None,
            x: x + from,
            y,
        });
        t = t.then(PointerAction::Down { button: 0 });
        for i in 1..=8 {
            let at = from + (to - from) * f64::from(i) / 8.0;
            t = t.then(PointerAction::MoveTo {
                duration: Some(Duration::from_millis(20)),
                x: x + at,
                y,
            });
        }
        t.then(PointerAction::Up { button: 0 })
    };
    let whole = width(&c).await;
    c.perform_actions(Actions::from(finger("a", -30.0, -120.0)).and(finger("b", 30.0, 120.0)))
        .await
        .unwrap();
    let zoomed = width(&c).await;
    assert!(
        zoomed < whole * 0.6,
        "spread fingers zoom in: {whole} → {zoomed}"
    );
    c.perform_actions(Actions::from(finger("a", -120.0, -40.0)).and(finger("b", 120.0, 40.0)))
        .await
        .unwrap();
    let back = width(&c).await;
    assert!(
        back > zoomed * 1.5,
        "pinched fingers zoom out: {zoomed} → {back}"
    );
    let marks = c
        .execute(
            "return document.querySelectorAll('.hl-target, .hl-from').length;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(marks, json!(0), "a pinch is no tap");
    c.close().await.unwrap();
}

/// Issue 62 in the browser: a ram is drawn as a ram (its own mark, not a capture's ring) and
/// said in words when its piece is tapped and once it is staged, as the Discord buttons say
/// it; a HexDame player bound to capture is told so above the board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ram_and_a_compulsory_capture_are_told_on_the_board() {
    let Some(driver) = driver().await else { return };
    let b = board().await;
    let piece = |cell: &str, owner: &str, kind: &str| json!({"cell": cell, "owner": owner, "kind": kind, "moved": true});
    let ram = json!({"game": "heximeros", "to_move": "silver", "pieces": [
        piece("Q20", "silver", "dreadnaught"), piece("Q24", "silver", "militant"),
        piece("Q2", "silver", "sovereign"), piece("E14", "blue", "sovereign")]});
    let (game, _): (GameId, _) = b
        .host
        .create_from_position(&[1, 2, 3, 4, 5, 6], &ram.to_string(), None)
        .await
        .unwrap();
    let st = b.host.state(game).await.unwrap();
    let silver = st.holder_player().unwrap();
    let c = driver.browser(390, 844).await;
    c.goto(&b.links.player(game, silver, T0)).await.unwrap();
    at_version(&c, st.version()).await;
    let names = st.cell_names();
    let hex = |cell: &str| {
        let (h, _) = names.iter().find(|(_, n)| n == cell).unwrap();
        (h.q, h.r)
    };
    tap(&c, hex("Q20")).await;
    until(
        &c,
        "document.querySelectorAll('#highlights .hl-ram').length",
    )
    .await;
    until(
        &c,
        "document.getElementById('message').textContent.includes('rams your own Militant')",
    )
    .await;
    let rammed = st
        .targets_seen_by(Some(silver), "Q20")
        .unwrap()
        .into_iter()
        .find(|t| t.target.cell == "Q24")
        .unwrap();
    assert!(
        rammed.does.contains(&hexmeros::host::Does::Rams {
            piece: "Militant".into()
        }),
        "{:?}",
        rammed.does
    );
    tap(&c, hex("Q24")).await;
    until(
        &c,
        "document.getElementById('message').textContent.includes('(rams your own Militant) is staged')",
    )
    .await;
    c.close().await.unwrap();

    // rules/hexdame.md T5: White must take two men.
    let man = |cell: &str, owner: &str| json!({"cell": cell, "owner": owner, "kind": "man"});
    let dame = json!({"game": "hexdame", "to_move": "white", "pieces": [
        man("c3", "white"), man("a3", "white"),
        man("d4", "black"), man("f5", "black"), man("a4", "black")]});
    let (game, _): (GameId, _) = b
        .host
        .create_from_position(&[1, 2], &dame.to_string(), None)
        .await
        .unwrap();
    let c = b.open(&driver, game, Some(1), (390, 844)).await;
    until(
        &c,
        "document.getElementById('message').textContent.includes('Capture is compulsory')",
    )
    .await;
    c.close().await.unwrap();
}
