#![allow(clippy::unwrap_used)]
//! End-to-end tests of the move picker (issue 19): the real `hexmeros serve` binary against the
//! fake Discord (`tests/support/bot.rs`, `tests/support/fake_discord.rs`). The picker is one
//! private message: the turn message's Move… button opens it (a deferred private answer whose
//! original is then edited), and every later step acknowledges its click as an update and
//! edits that same message; the pieces, the zoomed picture's numbered targets and a promotion's
//! choices are paged so that every legal move can be reached.

use hexmeros_testkit::{bot, fake_discord};

use std::collections::BTreeSet;
use std::sync::Arc;

use fake_discord::{FakeDiscord as F, Interaction, Sent};
use hexmeros::games::{AnyGame, GameKind};
use hexmeros::host::{GameHost, SystemClock};
use serde_json::{Value, json};

use bot::*;

fn six() -> Vec<u64> {
    (1..=6).map(u).collect()
}

/// Start a HexiMeros game of the six users through the lobby: its id and thread.
async fn start(fake: &F) -> (i64, u64) {
    bot::start_game(fake, &six(), Vec::new()).await
}

/// The callback type of an interaction's first response (5: a new private message, deferred;
/// 6: an update of the message the control sits on, deferred).
pub(crate) async fn callback_type(fake: &F, i: &Interaction) -> u64 {
    let first = fake.first_response(i, T).await.unwrap();
    assert_eq!(first.status, 204, "{first:?}");
    first.json.unwrap()["type"].as_u64().unwrap()
}

/// The edit of the interaction's original message that answers it.
pub(crate) async fn edit(fake: &F, i: &Interaction) -> Sent {
    let sent = fake
        .wait_responses(i, T, 1, |s| {
            s.method == "PATCH" && s.path.ends_with("/messages/@original")
        })
        .await
        .unwrap();
    let s = sent.into_iter().next().unwrap();
    assert_eq!(s.status, 200, "{s:?}");
    s
}

/// A step of the picker after the first: acknowledged as an update, answered by an edit.
pub(crate) async fn step(fake: &F, i: &Interaction) -> Sent {
    assert_eq!(callback_type(fake, i).await, 6);
    edit(fake, i).await
}

/// The select menu's custom id and its options as (label, value).
fn menu(s: &Sent) -> (String, Vec<(String, String)>) {
    let (id, options) = select_menu(s);
    (id, options.into_iter().map(|(l, v, _)| (l, v)).collect())
}

/// The custom id of the button labelled `label`, if there is one and it is enabled.
pub(crate) fn button(s: &Sent, label: &str) -> Option<String> {
    let body = s.json.as_ref().unwrap();
    body["components"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row["components"].as_array().unwrap().iter())
        .find(|c| c["type"] == 2 && c["label"] == label && c["disabled"] != true)
        .map(|c| c["custom_id"].as_str().unwrap().to_string())
}

/// The destination cell of a move text: its last cell token (`Q20-Q24=Regent` → `Q24`).
fn destination(m: &str) -> String {
    let body = m.split(['=', '+']).next().unwrap();
    body.rsplit(['-', 'x', '*']).next().unwrap().to_string()
}

/// The legal moves from `origin` in `game`.
fn moves_from(game: &AnyGame, origin: &str) -> Vec<String> {
    game.legal_moves()
        .into_iter()
        .filter(|m| m.split(['-', 'x', '*']).next() == Some(origin))
        .collect()
}

/// Requests of a move that count toward Discord's global limit: all but interaction answers
/// and their followups, and but the old turn messages' buttons taken off (`is_cleanup`: in the
/// background, after everything urgent; counted apart).
fn counted(fake: &F) -> usize {
    fake.requests()
        .iter()
        .filter(|s| !s.path.starts_with("/interactions") && !s.path.starts_with("/webhooks"))
        .filter(|s| !is_cleanup(s))
        .count()
}

/// Wait until the thread's pinned status panel shows `text` (its edit after a move is the
/// move's last request on the global limit).
async fn panel_shows(fake: &F, thread: u64, text: &str) {
    let panel = fake.pinned(thread)[0];
    let deadline = tokio::time::Instant::now() + T;
    while !fake.message(panel).unwrap()["content"]
        .as_str()
        .unwrap_or_default()
        .contains(text)
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the panel never showed {text:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// How a picker entry is chosen: an option of a select menu, or a button of its own.
#[derive(Clone, Debug)]
pub(crate) enum How {
    Select { menu: String, value: String },
    Button(String),
}

/// One entry of a picker step: its label, its value (a menu option's value; for a piece's
/// button the origin of the piece at the button's place in the picker's list of `game`, for a
/// target's button its number) and how to choose it.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) label: String,
    pub(crate) value: String,
    pub(crate) how: How,
}

/// The entries of a picker step's message: its select menu's options, or its piece / target
/// buttons (issue 45: one tap each where they fit).
pub(crate) fn entries(s: &Sent, game: &AnyGame) -> Vec<Entry> {
    let body = s.json.as_ref().unwrap();
    let mut out = Vec::new();
    for row in body["components"].as_array().unwrap() {
        for c in row["components"].as_array().unwrap() {
            let id = c["custom_id"].as_str().unwrap_or_default().to_string();
            let mut parts = id.split(':');
            let action = parts.nth(1).unwrap_or_default();
            let arg = parts.nth(1).unwrap_or_default();
            if c["type"] == 3 {
                for o in c["options"].as_array().unwrap() {
                    let value = o["value"].as_str().unwrap().to_string();
                    out.push(Entry {
                        label: o["label"].as_str().unwrap().to_string(),
                        value: value.clone(),
                        how: How::Select {
                            menu: id.clone(),
                            value,
                        },
                    });
                }
            } else if action == "piece" || action == "tap" {
                let value = if action == "piece" {
                    let index: usize = arg.parse().unwrap();
                    hexmeros::view::picker::pieces(game)[index].origin.clone()
                } else {
                    arg.split('-').nth(1).unwrap().to_string()
                };
                out.push(Entry {
                    label: c["label"].as_str().unwrap().to_string(),
                    value,
                    how: How::Button(id.clone()),
                });
            }
        }
    }
    out
}

/// Choose `e` on the picker message `msg`.
pub(crate) async fn choose(fake: &F, user: u64, channel: u64, msg: u64, e: &Entry) -> Interaction {
    match &e.how {
        How::Select { menu, value } => fake.select(user, channel, msg, menu, &[value]).await,
        How::Button(id) => fake.button(user, channel, msg, id).await,
    }
}

/// The cell a target entry's label names: `3 → Q8 · takes …` (a menu's) or `3 · Q8` (a
/// button's).
pub(crate) fn target_cell(label: &str) -> String {
    let rest = match label.split_once(" → ") {
        Some((_, rest)) => rest,
        None => label.split_once(" · ").unwrap().1,
    };
    rest.split(' ').next().unwrap().to_string()
}

/// Every entry of a paged picker step, following Next until it is disabled; each page holds at
/// most 25. Returns every page's answer too, the first first.
async fn all_pages(
    fake: &F,
    user: u64,
    channel: u64,
    first: Sent,
    game: &AnyGame,
) -> (Vec<Entry>, Vec<Sent>) {
    let mut options = Vec::new();
    let mut pages = vec![first];
    loop {
        let page = pages.last().unwrap().clone();
        let opts = entries(&page, game);
        assert!(!opts.is_empty() && opts.len() <= 25, "{page:?}");
        options.extend(opts);
        let Some(next) = button(&page, "Next ▶") else {
            return (options, pages);
        };
        let i = fake.button(user, channel, message_id(&page), &next).await;
        pages.push(step(fake, &i).await);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_heximeros_move_through_the_picker_is_one_private_message_and_four_clicks() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, thread) = start(&fake).await;
    wait_message(&fake, thread, 0, "you have the Token").await;
    let (turn, body) = turn_message(&fake, thread);
    let pick = custom_ids(&body)
        .into_iter()
        .find(|id| id.split(':').nth(1) == Some("pick"))
        .unwrap();
    assert!(custom_ids(&body).iter().all(|id| id.len() <= 100));

    // What the move costs on Discord's global limit, counted from here.
    let before_move = counted(&fake);

    // 1. Move…: a new private message, the deferred answer edited into the pieces.
    let i1 = fake.button(u(1), thread, turn, &pick).await;
    assert_eq!(callback_type(&fake, &i1).await, 5);
    let pieces = edit(&fake, &i1).await;
    let picker_id = message_id(&pieces);
    let stored = fake.message(picker_id).unwrap();
    assert_eq!(stored["flags"].as_u64().unwrap_or(0) & 64, 64, "private");
    assert!(content(&pieces).contains("pick a piece"), "{pieces:?}");
    let start = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
    // Issue 45: HexiMeros' 22 pieces fit on the message: a button each, one tap.
    let options = entries(&pieces, &start);
    assert!(
        options.iter().all(|e| matches!(e.how, How::Button(_))),
        "{options:?}"
    );
    let origins: BTreeSet<String> = start
        .legal_moves()
        .iter()
        .map(|m| m.split(['-', 'x', '*']).next().unwrap().to_string())
        .collect();
    assert_eq!(
        options
            .iter()
            .map(|o| o.value.clone())
            .collect::<BTreeSet<_>>(),
        origins,
        "every piece that can move, once"
    );
    // Labels name the kind and the cell.
    for e in &options {
        assert!(e.label.ends_with(&format!(" {}", e.value)), "{e:?}");
    }

    // 2. A piece: the zoomed picture and its numbered targets, in the same message.
    let busiest = options
        .iter()
        .max_by_key(|e| moves_from(&start, &e.value).len())
        .unwrap()
        .clone();
    let origin = busiest.value.clone();
    let i2 = choose(&fake, u(1), thread, picker_id, &busiest).await;
    let zoomed = step(&fake, &i2).await;
    assert_eq!(message_id(&zoomed), picker_id, "the same message");
    let kind = busiest.label.split(' ').next().unwrap();
    assert!(
        content(&zoomed).contains(&format!("{kind} · {origin}")),
        "{zoomed:?}"
    );
    let (name, png) = zoomed
        .files
        .iter()
        .find(|(n, _)| n.ends_with(".png"))
        .expect("the zoomed picture");
    let img = image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .to_rgba8();
    assert!(img.width().max(img.height()) >= 300, "{name} is too small");
    let background = *img.get_pixel(0, 0);
    assert!(img.pixels().filter(|p| **p != background).count() > 10_000);
    let targets = entries(&zoomed, &start);
    let legal = moves_from(&start, &origin);
    let cells: BTreeSet<String> = legal.iter().map(|m| destination(m)).collect();
    assert_eq!(
        targets.len(),
        cells.len(),
        "one entry per target: {targets:?}"
    );
    // At most 20 targets: numbered buttons, one tap each.
    assert!(targets.len() <= 20);
    for (k, e) in targets.iter().enumerate() {
        assert!(matches!(e.how, How::Button(_)), "{e:?}");
        assert_eq!(e.value, (k + 1).to_string());
        assert!(e.label.starts_with(&format!("{} · ", k + 1)), "{e:?}");
    }
    let named: BTreeSet<String> = targets.iter().map(|e| target_cell(&e.label)).collect();
    assert_eq!(named, cells);

    // 3. A target: the move is staged through the host and the preview shown, same message.
    let first = &targets[0];
    let cell = target_cell(&first.label);
    let mv = legal
        .iter()
        .find(|m| destination(m) == cell)
        .unwrap()
        .clone();
    let i3 = choose(&fake, u(1), thread, picker_id, first).await;
    let staged = step(&fake, &i3).await;
    assert_eq!(message_id(&staged), picker_id);
    assert!(
        content(&staged).contains(&format!("staged **{mv}**")),
        "{staged:?}"
    );
    // The preview: the close-up of the staged move first, then the full board.
    let names: Vec<&str> = staged.files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["focus.png", "board.png"], "{staged:?}");
    assert!(button(&staged, "Another piece").is_some());
    assert!(button(&staged, "Take back").is_some());

    // 4. Pass: the move is played.
    let before = fake.messages(thread).len();
    let pass = button(&staged, "Pass Token").unwrap();
    let i4 = fake.button(u(1), thread, picker_id, &pass).await;
    // Issue 45: the picker ends clean after Pass, in place: what was committed, its picture
    // kept, no controls left that look live.
    let done = step(&fake, &i4).await;
    assert!(
        content(&done).starts_with(&format!("✅ committed **{mv}**")),
        "{done:?}"
    );
    assert!(button(&done, "Pass Token").is_none() && button(&done, "Take back").is_none());
    assert!(
        custom_ids(done.json.as_ref().unwrap()).is_empty(),
        "{done:?}"
    );
    wait_message(&fake, thread, before, &format!("played {mv}")).await;
    // Four taps (Move…, a piece, a target, Pass) and, once the panel shows the next turn, at
    // most two requests on the global limit: the turn message and the panel's edit.
    panel_shows(&fake, thread, "Turn 2:").await;
    let cost = counted(&fake) - before_move;
    eprintln!("a HexiMeros move by buttons: 4 taps, {cost} requests on the global limit");
    assert!(cost <= 2, "{cost} requests: {:?}", fake.requests());
    assert_eq!(bot.state(game).await.record().len(), 1);
    // Every picture of the move had words for a screen reader: the turn messages' boards
    // (whose turn, the round), the zoom (the targets), the preview (the staged move).
    let boards = described_pictures(&fake, "board.png");
    assert!(
        boards.iter().any(|d| d.contains("has the Token")),
        "{boards:?}"
    );
    assert!(
        boards
            .iter()
            .any(|d| d.starts_with("Preview of the staged move") && d.contains(&mv)),
        "{boards:?}"
    );
    let zooms = described_pictures(&fake, "zoom.png");
    assert!(
        zooms
            .iter()
            .any(|d| d.starts_with("Close-up of") && d.contains("→")),
        "{zooms:?}"
    );
    // The picker of a turn gone by is refused politely, in place.
    let again = button(&staged, "Another piece").unwrap();
    let i5 = fake.button(u(1), thread, picker_id, &again).await;
    let stale = step(&fake, &i5).await;
    assert!(content(&stale).contains("earlier turn"), "{stale:?}");

    // One private message: no followup for the three picker steps, one edit each, all of the
    // same message.
    let mut edits = BTreeSet::new();
    for i in [&i1, &i2, &i3, &i4, &i5] {
        let sent = fake.responses(i);
        let followups = sent
            .iter()
            .filter(|s| s.method == "POST" && s.path.starts_with("/webhooks/"))
            .count();
        assert_eq!(followups, 0, "{sent:?}");
        let patches: Vec<&Sent> = sent.iter().filter(|s| s.method == "PATCH").collect();
        assert_eq!(patches.len(), 1, "{sent:?}");
        edits.insert(message_id(patches[0]));
    }
    assert_eq!(edits, BTreeSet::from([picker_id]));
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_move_of_a_far_reaching_piece_and_a_promotion_is_reached_by_paging() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    // Silver to move: a Regent in the open (over a hundred targets) and a Militant two steps
    // from its Center Line, where it promotes.
    let position = json!({"game": "heximeros", "to_move": "silver", "pieces": [
        {"cell": "Q2", "owner": "silver", "kind": "sovereign"},
        {"cell": "Q20", "owner": "silver", "kind": "regent"},
        {"cell": "M24", "owner": "silver", "kind": "militant", "moved": true},
        {"cell": "Q50", "owner": "orange", "kind": "sovereign"},
        {"cell": "Q48", "owner": "orange", "kind": "militant"},
    ]})
    .to_string();
    let position_game = AnyGame::from_json(&position).unwrap();
    let players: Vec<i64> = six().into_iter().map(|p| p as i64).collect();
    let store = hexmeros::store::Store::open(&bot.db_url()).await.unwrap();
    let host = GameHost::new(store.clone(), Arc::new(SystemClock));
    let (game, _) = host
        .create_from_position(&players, &position, None)
        .await
        .unwrap();
    let version = host.state(game).await.unwrap().version();
    store.close().await;

    // In Silver's DM with the bot (a game of no server is named there by its players).
    let dm = fake.open_dm(u(1));
    let i = fake
        .button(u(1), dm, 1, &format!("{game}:pick:{version}"))
        .await;
    assert_eq!(callback_type(&fake, &i).await, 5);
    let pieces = edit(&fake, &i).await;
    let picker_id = message_id(&pieces);
    let options = entries(&pieces, &position_game);
    let labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(labels, ["Sovereign Q2", "Regent Q20", "Militant M24"]);

    // The Regent: 105 targets on five pages of a menu, every legal move once.
    let i = choose(&fake, u(1), dm, picker_id, &options[1]).await;
    let first = step(&fake, &i).await;
    let first_png = first
        .files
        .iter()
        .find(|(n, _)| n.ends_with(".png"))
        .map(|(_, png)| png.clone());
    assert!(first_png.is_some());
    assert!(
        content(&first).contains("Regent · Q20 · 105 moves"),
        "{first:?}"
    );
    let (targets, pages) = all_pages(&fake, u(1), dm, first, &position_game).await;
    let last = pages.last().unwrap().clone();
    let legal = moves_from(&position_game, "Q20");
    assert!(legal.len() > 25);
    assert!(targets.iter().all(|e| matches!(e.how, How::Select { .. })));
    assert_eq!(targets.len(), legal.len(), "none dropped");
    let numbers: Vec<String> = targets.iter().map(|t| t.value.clone()).collect();
    let want: Vec<String> = (1..=legal.len()).map(|n| n.to_string()).collect();
    assert_eq!(numbers, want);
    let named: BTreeSet<String> = targets.iter().map(|e| target_cell(&e.label)).collect();
    let cells: BTreeSet<String> = legal.iter().map(|m| destination(m)).collect();
    assert_eq!(named, cells);
    assert!(content(&last).contains("page 5/5"), "{last:?}");
    // Issue 45: one picture a page, of that page's targets only (page 2 here: the pictures
    // one user may ask for are rated, so a fast reader's later pages may come without one,
    // saying so).
    let (name, png) = pages[1]
        .files
        .iter()
        .find(|(n, _)| n.ends_with(".png"))
        .unwrap_or_else(|| panic!("no picture on page 2: {:?}", pages[1]));
    assert_eq!(name, "zoom.png");
    assert_ne!(
        Some(png),
        first_png.as_ref(),
        "page 2 has a picture of its own"
    );
    for page in &pages {
        let drawn = page.files.iter().any(|(n, _)| n == "zoom.png");
        assert!(
            drawn || content(page).contains("(no picture now"),
            "{page:?}"
        );
    }

    // Another piece: the Militant, its one target, and the promotion as its own step.
    let again = button(&last, "Another piece").unwrap();
    let i = fake.button(u(1), dm, picker_id, &again).await;
    let pieces = step(&fake, &i).await;
    let militant = entries(&pieces, &position_game)
        .into_iter()
        .find(|e| e.value == "M24")
        .unwrap();
    let i = choose(&fake, u(1), dm, picker_id, &militant).await;
    let zoomed = step(&fake, &i).await;
    let targets = entries(&zoomed, &position_game);
    assert_eq!(targets.len(), 1, "{targets:?}");
    let i = choose(&fake, u(1), dm, picker_id, &targets[0]).await;
    let promotion = step(&fake, &i).await;
    let (to_id, choices) = menu(&promotion);
    assert!(to_id.split(':').nth(1) == Some("to"), "{to_id}");
    let values: BTreeSet<String> = choices.iter().map(|c| c.1.clone()).collect();
    let want: BTreeSet<String> = moves_from(&position_game, "M24").into_iter().collect();
    assert_eq!(values, want);
    assert!(
        choices
            .iter()
            .any(|c| c.0.starts_with("Promote to Regent · ")),
        "{choices:?}"
    );
    assert!(
        choices.iter().any(|c| c.0.starts_with("No promotion · ")),
        "{choices:?}"
    );
    // Nothing was played or staged by looking.
    let st = bot.state(game).await;
    assert_eq!(st.version(), version);
    assert!(st.staged().is_none());
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_lists_its_pieces_and_a_pieces_numbered_targets() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let store = hexmeros::store::Store::open(&bot.db_url()).await.unwrap();
    let host = GameHost::new(store.clone(), Arc::new(SystemClock));
    let dm = fake.open_dm(u(1));
    for kind in [
        GameKind::HexDame,
        GameKind::Hexmeister,
        GameKind::HexaEquo,
        GameKind::Harmegedo,
    ] {
        let start = AnyGame::new(kind, Some(2), None).unwrap();
        let players: Vec<i64> = [u(1), u(2)].iter().map(|&p| p as i64).collect();
        let (game, _) = host
            .create_from_position(&players, &start.to_json(), None)
            .await
            .unwrap();
        let version = host.state(game).await.unwrap().version();
        let i = fake
            .button(u(1), dm, 1, &format!("{game}:pick:{version}"))
            .await;
        assert_eq!(callback_type(&fake, &i).await, 5, "{kind}");
        let pieces = edit(&fake, &i).await;
        let (options, _) = all_pages(&fake, u(1), dm, pieces.clone(), &start).await;
        let origins: BTreeSet<String> = start
            .legal_moves()
            .iter()
            .map(|m| match m.find('@') {
                Some(at) => m[..=at].to_string(),
                None => m.split(['-', 'x', '*']).next().unwrap().to_string(),
            })
            .collect();
        let values: BTreeSet<String> = options.iter().map(|o| o.value.clone()).collect();
        assert_eq!(values, origins, "{kind}");
        let origin = &options[0].value;
        let i = choose(&fake, u(1), dm, message_id(&pieces), &options[0]).await;
        let zoomed = step(&fake, &i).await;
        assert!(
            zoomed.files.iter().any(|(n, _)| n.ends_with(".png")),
            "{kind}: {zoomed:?}"
        );
        let (targets, _) = all_pages(&fake, u(1), dm, zoomed, &start).await;
        let moves: Vec<String> = start
            .legal_moves()
            .into_iter()
            .filter(|m| m.starts_with(origin.as_str()))
            .filter(|m| origin.ends_with('@') || m[origin.len()..].starts_with(['-', 'x', '*']))
            .collect();
        let cells: BTreeSet<String> = moves
            .iter()
            .map(|m| destination(m.rsplit('@').next().unwrap()))
            .collect();
        assert_eq!(
            targets.len(),
            cells.len(),
            "{kind}: {targets:?} for {moves:?}"
        );
    }
    store.close().await;
    assert_clean(&fake, &bot);
}

/// Issue 45: with "commit on pick" set (`/hexmeros settings commit_on_pick:True`, kept by the
/// store), a HexiMeros move is three taps: Move…, a piece, a target. The picker's message says
/// what was committed and has no controls left; the thread shows the move; the move still costs
/// at most two requests on the global limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_commit_on_pick_a_move_is_three_taps() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, thread) = start(&fake).await;
    wait_message(&fake, thread, 0, "you have the Token").await;
    let r = hx(
        &fake,
        u(1),
        thread,
        "settings",
        json!([bool_opt("commit_on_pick", true)]),
    )
    .await;
    assert!(is_private(&r), "{r:?}");
    assert!(content(&r).contains("commit on pick: on"), "{r:?}");
    // Shown again with no options: stored.
    let r = hx(&fake, u(1), thread, "settings", json!([])).await;
    assert!(content(&r).contains("commit on pick: on"), "{r:?}");

    let before_move = counted(&fake);
    let (turn, body) = turn_message(&fake, thread);
    let pick = id_with(&body, "pick");
    let i1 = fake.button(u(1), thread, turn, &pick).await;
    let pieces = edit(&fake, &i1).await;
    let picker_id = message_id(&pieces);
    let start = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
    let piece = entries(&pieces, &start).remove(0);
    let i2 = fake.button(u(1), thread, picker_id, &id_of(&piece)).await;
    let zoomed = step(&fake, &i2).await;
    let target = entries(&zoomed, &start).remove(0);
    let before = fake.messages(thread).len();
    let i3 = fake.button(u(1), thread, picker_id, &id_of(&target)).await;
    let done = step(&fake, &i3).await;
    assert!(content(&done).starts_with("✅ committed **"), "{done:?}");
    assert!(
        custom_ids(done.json.as_ref().unwrap()).is_empty(),
        "{done:?}"
    );
    let mv = content(&done).split("**").nth(1).unwrap().to_string();
    wait_message(&fake, thread, before, &format!("played {mv}")).await;
    let st = bot.state(game).await;
    assert_eq!(st.record().len(), 1);
    assert!(st.staged().is_none());
    panel_shows(&fake, thread, "Turn 2:").await;
    let cost = counted(&fake) - before_move;
    eprintln!("a HexiMeros move with commit on pick: 3 taps, {cost} requests on the global limit");
    assert!(cost <= 2, "{cost}");
    assert_clean(&fake, &bot);
}

/// Issue 45: the turn message carries the Token holder's movable pieces as buttons (HexiMeros'
/// 22 at the start fit beside Move…, Type move… and My side), so a move is three taps: a piece
/// (its targets open privately), a target, Pass; still at most two requests on the global
/// limit. Another player's tap and a tap on an earlier turn's message are refused privately
/// and change nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_from_the_turn_messages_piece_buttons_is_three_taps() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, thread) = start(&fake).await;
    wait_message(&fake, thread, 0, "you have the Token").await;
    let (turn, body) = turn_message(&fake, thread);
    let start = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
    let pieces = hexmeros::view::picker::pieces(&start);
    assert_eq!(pieces.len(), 22);
    // Every movable piece, once, in the picker's order, labelled by kind and cell; within
    // Discord's 25 buttons in 5 rows.
    let rows = body["components"].as_array().unwrap();
    assert!(rows.len() <= 5, "{body}");
    let buttons: Vec<&Value> = rows
        .iter()
        .flat_map(|r| r["components"].as_array().unwrap().iter())
        .collect();
    assert!(buttons.len() <= 25, "{body}");
    let opens: Vec<(String, String)> = buttons
        .iter()
        .filter(|b| b["custom_id"].as_str().unwrap().split(':').nth(1) == Some("open"))
        .map(|b| {
            (
                b["custom_id"].as_str().unwrap().to_string(),
                b["label"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(opens.len(), pieces.len(), "{body}");
    for (k, (id, label)) in opens.iter().enumerate() {
        assert_eq!(id.split(':').nth(3), Some(k.to_string().as_str()), "{id}");
        assert_eq!(label, &pieces[k].button());
    }
    for label in ["Move…", "Type move…", "My side"] {
        assert!(
            buttons.iter().any(|b| b["label"] == label),
            "{label}: {body}"
        );
    }

    // Another player taps a piece: refused privately, nothing staged.
    let was = bot.state(game).await;
    // A forged piece number the turn does not have: refused privately, nothing staged.
    let forged = format!("{game}:open:{}:99", was.version());
    let r = click(&fake, u(1), thread, turn, &forged).await;
    assert_refused(&r, "no legal move now");
    assert!(bot.state(game).await.staged().is_none());
    let r = click(&fake, u(2), thread, turn, &opens[0].0).await;
    assert!(content(&r).starts_with("⚠️"), "{r:?}");
    assert_eq!(bot.state(game).await.version(), was.version());
    assert!(bot.state(game).await.staged().is_none());

    let before_move = counted(&fake);
    // 1. The piece with the most targets: a new private message with its numbered targets.
    let busiest = (0..pieces.len())
        .max_by_key(|&k| moves_from(&start, &pieces[k].origin).len())
        .unwrap();
    let i1 = fake.button(u(1), thread, turn, &opens[busiest].0).await;
    assert_eq!(callback_type(&fake, &i1).await, 5);
    let zoomed = edit(&fake, &i1).await;
    let picker_id = message_id(&zoomed);
    let stored = fake.message(picker_id).unwrap();
    assert_eq!(stored["flags"].as_u64().unwrap_or(0) & 64, 64, "private");
    assert!(
        content(&zoomed).contains(&format!("· {}", pieces[busiest].origin)),
        "{zoomed:?}"
    );
    let targets = entries(&zoomed, &start);
    let legal = moves_from(&start, &pieces[busiest].origin);
    assert!(!targets.is_empty() && targets.len() <= 20, "{targets:?}");
    // 2. A target: staged, with its preview, in the same message.
    let first = &targets[0];
    let mv = legal
        .iter()
        .find(|m| destination(m) == target_cell(&first.label))
        .unwrap()
        .clone();
    let i2 = choose(&fake, u(1), thread, picker_id, first).await;
    let staged = step(&fake, &i2).await;
    assert!(
        content(&staged).contains(&format!("staged **{mv}**")),
        "{staged:?}"
    );
    // 3. Pass.
    let before = fake.messages(thread).len();
    let i3 = fake
        .button(
            u(1),
            thread,
            picker_id,
            &button(&staged, "Pass Token").unwrap(),
        )
        .await;
    let done = step(&fake, &i3).await;
    assert!(
        content(&done).starts_with(&format!("✅ committed **{mv}**")),
        "{done:?}"
    );
    wait_message(&fake, thread, before, &format!("played {mv}")).await;
    panel_shows(&fake, thread, "Turn 2:").await;
    let cost = counted(&fake) - before_move;
    eprintln!("a HexiMeros move from the turn message's piece buttons: 3 taps, {cost} requests");
    assert!(cost <= 2, "{cost} requests: {:?}", fake.requests());
    let st = bot.state(game).await;
    assert_eq!(st.record().len(), 1);

    // The first turn message's piece, tapped by the new Token holder: from an earlier turn.
    let r = click(&fake, u(2), thread, turn, &opens[0].0).await;
    assert_refused(&r, "from an earlier turn");
    let now = bot.state(game).await;
    assert_eq!(now.version(), st.version());
    assert!(now.staged().is_none());
    // The new turn message has Blue's pieces.
    let (_, body) = turn_message(&fake, thread);
    let blue = now.pick_pieces();
    let opened = custom_ids(&body)
        .into_iter()
        .filter(|id| id.split(':').nth(1) == Some("open"))
        .count();
    assert_eq!(opened, blue.len().min(22), "{body}");
    assert_clean(&fake, &bot);
}

/// The custom id of a button entry.
fn id_of(e: &Entry) -> String {
    match &e.how {
        How::Button(id) => id.clone(),
        How::Select { .. } => panic!("a menu, not a button: {e:?}"),
    }
}
