//! Issue 62 end to end: what a target does is said alike on every front end. The real `hexmeros
//! serve` against the fake Discord, its web board served beside it: a ram and a Check-giving
//! target of HexiMeros, and HexDame's compulsory capture, each on the Discord buttons, the zoom
//! picture (its marks and its words for a screen reader), the staged move's preview and the
//! web board; and the player in Check (or bound to capture) told so in their ping, their
//! pictures' words and on their web board.
//!
//! The positions come from seeded random playouts (`golden::playout`'s generator), replayed
//! move by move through `/hexmeros move`.

use std::time::Duration;

use fake_discord::{FakeDiscord as F, Sent};
use hexmeros::games::{AnyGame, GameKind};
use hexmeros::view::picker;
use hexmeros_testkit::host::RulesOf;
use hexmeros_testkit::{bot, fake_discord, golden};
use serde_json::{Value, json};

use crate::picker::{Entry, button, choose, edit, entries, step};
use crate::web::{board_game_of, get, my_board};
use bot::*;

/// The first position of a seeded random playout of `kind` (at most `plies` moves) where
/// `wanted` holds, and the moves that lead there. No move of the way walks into a Check
/// (HexiMeros §5.4's challenge window would hold the Token between moves).
fn found(
    kind: GameKind,
    plies: usize,
    wanted: impl Fn(&AnyGame) -> bool,
) -> (AnyGame, Vec<String>) {
    for seed in 0..300u64 {
        let mut game = AnyGame::new(kind, None, None).unwrap();
        let mut played = Vec::new();
        let mut s = seed;
        for _ in 0..plies {
            if game.outcome().is_some() {
                break;
            }
            if wanted(&game) {
                return (game, played);
            }
            let moves = game.legal_moves();
            s = golden::next_seed(s);
            let m = &moves[(s >> 33) as usize % moves.len()];
            let origin = m.split(['-', 'x', '*']).next().unwrap();
            let exposes = picker::targets(&game, origin)
                .iter()
                .any(|t| t.moves.contains(m) && !t.exposes.is_empty());
            if exposes || m.contains('+') {
                break;
            }
            played.push(game.play(m).unwrap());
        }
    }
    panic!("no seeded {kind:?} position as wanted");
}

/// Replay `moves` in the game of `thread` by `/hexmeros move … pass`, each by its mover, until
/// the bot has stored them all.
async fn replay(fake: &F, bot: &Bot, game: i64, thread: u64, players: &[u64], moves: &[String]) {
    let mut mirror = AnyGame::new(bot.state(game).await.kind(), None, None).unwrap();
    for (k, mv) in moves.iter().enumerate() {
        replay_one(fake, players, thread, &mirror, mv).await;
        mirror.play(mv).unwrap();
        wait_stored(bot, game, k + 1).await;
    }
}

/// The newest turn message once it is the one of the position after `plies` moves (its Move…
/// button carries the version the bot is at).
async fn current_turn(fake: &F, bot: &Bot, game: i64, thread: u64) -> (u64, Value) {
    let version = bot.state(game).await.version();
    let deadline = tokio::time::Instant::now() + T;
    loop {
        let (id, body) = turn_message(fake, thread);
        let pick = custom_ids(&body)
            .into_iter()
            .find(|c| c.split(':').nth(1) == Some("pick"));
        if pick.is_some_and(|c| c.split(':').nth(2) == Some(version.to_string().as_str())) {
            return (id, body);
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no turn message at version {version}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Move… on the turn message, then the piece at `origin`: the zoom answer with its targets.
async fn open_piece(
    fake: &F,
    user: u64,
    thread: u64,
    turn: (u64, &Value),
    position: &AnyGame,
    origin: &str,
) -> Sent {
    let pick = id_with(turn.1, "pick");
    let i = fake.button(user, thread, turn.0, &pick).await;
    let pieces = edit(fake, &i).await;
    let entry: Entry = entries(&pieces, position)
        .into_iter()
        .find(|e| e.value == origin)
        .unwrap_or_else(|| panic!("no {origin} among the pieces: {pieces:?}"));
    let i = choose(fake, user, thread, message_id(&pieces), &entry).await;
    step(fake, &i).await
}

/// The zoom picture of an answer, decoded.
fn zoom_of(s: &Sent) -> image::RgbaImage {
    let (_, png) = s
        .files
        .iter()
        .find(|(n, _)| n == "zoom.png")
        .unwrap_or_else(|| panic!("no zoom picture: {s:?}"));
    image::load_from_memory(png).unwrap().to_rgba8()
}

/// How many pixels of `img` are within a little of `rgb`.
fn pixels_of(img: &image::RgbaImage, rgb: [u8; 3]) -> usize {
    img.pixels()
        .filter(|p| (0..3).all(|i| p.0[i].abs_diff(rgb[i]) <= 4))
        .count()
}

/// The ram's amber in the close-up (`view::zoom::RAM`): a colour no cell, piece or other mark
/// of the zoom uses.
const RAM_AMBER: [u8; 3] = [236, 176, 20];

/// The web board's targets of `origin` for the link `token`: (cell, does, mark).
async fn web_targets(base: &str, token: &str, origin: &str) -> Vec<(String, Vec<String>, String)> {
    let (status, t) = get(base, &format!("/api/targets?origin={origin}"), token).await;
    assert_eq!(status, 200, "{t}");
    t.as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["cell"].as_str().unwrap().to_string(),
                t["does"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| d.as_str().unwrap().to_string())
                    .collect(),
                t["mark"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A target of the position (by the host's own picker) whose first move passes `pred`.
fn target_where(
    position: &AnyGame,
    pred: impl Fn(&picker::Target) -> bool,
) -> Option<(String, picker::Target)> {
    picker::pieces(position).into_iter().find_map(|p| {
        picker::targets(position, &p.origin)
            .into_iter()
            .find(|t| t.moves.len() == 1 && pred(t))
            .map(|t| (p.origin.clone(), t))
    })
}

/// Wait until the game's staged move is `text`.
async fn until_staged(bot: &Bot, game: i64, text: Option<&str>) {
    let deadline = tokio::time::Instant::now() + T;
    while bot
        .state(game)
        .await
        .staged()
        .map(|s| s.text.clone())
        .as_deref()
        != text
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "never staged {text:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn is_ram(t: &picker::Target) -> bool {
    t.taken.iter().any(|x| x.own)
}

/// A HexiMeros ram and a Check-giving target: the same words on the target buttons, in the
/// zoom picture's description (and the ram in its amber on the picture), in the preview once
/// staged and on the web board; the Check, declared with Pass, is then told to its player in
/// their ping, their board's words and their web board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ram_and_a_check_are_told_alike_on_every_front_end() {
    let (position, moves) = found(GameKind::HexiMeros, 40, |g| {
        target_where(g, is_ram).is_some()
            && target_where(g, |t| !t.checks.is_empty() && !is_ram(t)).is_some()
    });
    let (ram_origin, ram) = target_where(&position, is_ram).unwrap();
    let (check_origin, check) =
        target_where(&position, |t| !t.checks.is_empty() && !is_ram(t)).unwrap();
    let rammed = ram.taken.iter().find(|x| x.own).unwrap().kind.clone();
    let on = check.checks[0].clone();
    let fake = F::start().await;
    let players: Vec<u64> = (1..=6).map(u).collect();
    let (bot, base, game, thread) = board_game_of(&fake, &players, Vec::new(), &[]).await;
    replay(&fake, &bot, game, thread, &players, &moves).await;
    let mover = players[position.to_move().unwrap().index()];
    let (turn, body) = current_turn(&fake, &bot, game, thread).await;

    // Discord: the ram's button and the zoom's words; the ram in amber on the picture.
    let zoom = open_piece(&fake, mover, thread, (turn, &body), &position, &ram_origin).await;
    let rams = format!("rams your own {rammed}");
    let tap = entries(&zoom, &position)
        .into_iter()
        .find(|e| e.value == ram.number.to_string())
        .unwrap_or_else(|| panic!("no target {}: {zoom:?}", ram.number));
    assert!(tap.label.contains(&rams), "the ram's button: {}", tap.label);
    assert!(!tap.label.contains("takes"), "{}", tap.label);
    let words = described_pictures(&fake, "zoom.png");
    assert!(
        words.last().is_some_and(|d| d.contains(&rams)),
        "the zoom's words: {words:?}"
    );
    assert!(
        pixels_of(&zoom_of(&zoom), RAM_AMBER) > 50,
        "the ram is drawn in its own colour"
    );

    // The web board, before anything is staged: the same words and marks.
    let token = my_board(&fake, mover, thread, &base).await.unwrap();
    let on_web = web_targets(&base, &token, &ram_origin).await;
    let (_, does, mark) = on_web.iter().find(|(c, _, _)| *c == ram.cell).unwrap();
    assert!(does.contains(&rams), "{does:?}");
    assert_eq!(mark, "ram");
    let on_web = web_targets(&base, &token, &check_origin).await;
    let gives = format!("gives Check to {on}");
    let (_, does, mark) = on_web.iter().find(|(c, _, _)| *c == check.cell).unwrap();
    assert!(does.iter().any(|d| d.starts_with(&gives)), "{does:?}");
    assert_eq!(
        mark,
        if check.taken.is_empty() {
            "check"
        } else {
            "capture"
        }
    );

    // Staged: the preview says it, and so does the web board.
    let i = choose(&fake, mover, thread, message_id(&zoom), &tap).await;
    let staged = step(&fake, &i).await;
    assert!(content(&staged).contains(&rams), "{staged:?}");
    let (_, view) = get(&base, "/api/board", &token).await;
    let expects = view["expects"].as_str().unwrap();
    assert!(expects.contains(&format!("({rams}")), "{expects}");

    // Taken back, the Check-giving target: its button, the zoom's words, the preview.
    let back = button(&staged, "Take back").unwrap();
    let i = fake.button(mover, thread, message_id(&staged), &back).await;
    fake.first_response(&i, T).await.unwrap();
    until_staged(&bot, game, None).await;
    let zoom = open_piece(
        &fake,
        mover,
        thread,
        (turn, &body),
        &position,
        &check_origin,
    )
    .await;
    let tap = entries(&zoom, &position)
        .into_iter()
        .find(|e| e.value == check.number.to_string())
        .unwrap();
    assert!(
        tap.label.contains(&gives),
        "the Check's button: {}",
        tap.label
    );
    let words = described_pictures(&fake, "zoom.png");
    assert!(
        words.last().is_some_and(|d| d.contains(&gives)),
        "the zoom's words: {words:?}"
    );
    let i = choose(&fake, mover, thread, message_id(&zoom), &tap).await;
    let staged = step(&fake, &i).await;
    assert!(content(&staged).contains(&gives), "{staged:?}");
    let (_, view) = get(&base, "/api/board", &token).await;
    assert!(view["expects"].as_str().unwrap().contains(&gives), "{view}");
    assert!(
        view["declarable"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["label"] == on.as_str()),
        "{view}"
    );

    // Passed with the Check declared; the others play on until the checked seat holds the
    // Token, which is then told so in its ping, its board's words and on its web board.
    let by = bot
        .state(game)
        .await
        .seat_title(position.to_move().unwrap());
    let pass = button(&staged, &format!("Pass + Check on {on}")).unwrap();
    let before = fake.messages(thread).len();
    let i = fake.button(mover, thread, message_id(&staged), &pass).await;
    fake.first_response(&i, T).await.unwrap();
    let mut played = moves.len() + 1;
    wait_stored(&bot, game, played).await;
    let checked = position.seat_named(&on).unwrap();
    loop {
        let st = bot.state(game).await;
        if st.holder() == Some(checked) {
            break;
        }
        let g = st.rules();
        let mv = g
            .legal_moves()
            .into_iter()
            .find(|m| {
                let origin = m.split(['-', 'x', '*']).next().unwrap();
                !m.contains('+')
                    && picker::targets(&g, origin)
                        .iter()
                        .any(|t| t.moves.contains(m) && t.exposes.is_empty())
            })
            .unwrap();
        replay_one(&fake, &players, thread, &g, &mv).await;
        played += 1;
        wait_stored(&bot, game, played).await;
    }
    let told = format!("{on}, you have the Token; you are in Check by {by}");
    wait_message(&fake, thread, before, &told).await;
    until("the checked seat's board in words", || {
        described_pictures(&fake, "board.png")
            .last()
            .is_some_and(|d| d.contains(&format!("{on} is in Check by {by}")))
    })
    .await;
    let checked_user = players[checked.index()];
    let token = my_board(&fake, checked_user, thread, &base).await.unwrap();
    let (_, view) = get(&base, "/api/board", &token).await;
    let forced = view["forced"].as_str().unwrap_or_default();
    assert!(
        forced.starts_with(&format!("you are in Check by {by}")),
        "{view}"
    );
    assert!(
        view["expects"]
            .as_str()
            .unwrap()
            .contains(&format!("You are in Check by {by}")),
        "{view}"
    );
}

/// Wait until the bot has stored `n` moves of `game`.
async fn wait_stored(bot: &Bot, game: i64, n: usize) {
    let deadline = tokio::time::Instant::now() + T;
    while bot.state(game).await.record().len() < n {
        assert!(
            tokio::time::Instant::now() < deadline,
            "move {n} was not stored"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `mv` of `position` by its mover, with `/hexmeros move … pass`.
async fn replay_one(fake: &F, players: &[u64], thread: u64, position: &AnyGame, mv: &str) {
    let mover = position.to_move().unwrap();
    let r = hx(
        fake,
        players[mover.index()],
        thread,
        "move",
        json!([str_opt("from", mv), bool_opt("pass", true)]),
    )
    .await;
    assert!(!content(&r).starts_with("⚠️"), "{mv}: {r:?}");
}

/// HexDame's compulsory capture of two men (the majority rule): the ping says capture is
/// compulsory; the turn message offers only the pieces that capture; the target's button, the
/// zoom's words (and its rings on the men taken), the preview and the web board all name both
/// men it takes; the web board says what is forced.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forced_hexdame_capture_is_told_alike_on_every_front_end() {
    let (position, moves) = found(GameKind::HexDame, 80, |g| {
        let legal = g.legal_moves();
        !legal.is_empty()
            && legal.iter().all(|m| m.contains('x'))
            && legal.iter().all(|m| m.matches('x').count() >= 2)
    });
    let (origin, target) = target_where(&position, |t| t.taken.len() >= 2).unwrap();
    let fake = F::start().await;
    let players = [u(1), u(2)];
    let game_opt = json!({"type": 4, "name": "game", "value": 1});
    let (bot, base, game, thread) = board_game_of(&fake, &players, vec![game_opt], &[]).await;
    let before = fake.messages(thread).len();
    replay(&fake, &bot, game, thread, &players, &moves).await;
    let seat = bot
        .state(game)
        .await
        .seat_title(position.to_move().unwrap());
    let mover = players[position.to_move().unwrap().index()];
    wait_message(
        &fake,
        thread,
        before,
        &format!("{seat}, you have the Token; capture is compulsory, and of the captures the most"),
    )
    .await;
    let (turn, body) = current_turn(&fake, &bot, game, thread).await;
    let capturing: std::collections::BTreeSet<String> = position
        .legal_moves()
        .iter()
        .map(|m| m.split('x').next().unwrap().to_string())
        .collect();
    let opens = custom_ids(&body)
        .into_iter()
        .filter(|id| id.split(':').nth(1) == Some("open"))
        .count();
    assert_eq!(opens, capturing.len(), "only the capturing pieces: {body}");

    let takes: Vec<String> = target
        .taken
        .iter()
        .map(|x| format!("takes {}'s {}", x.owner, x.kind))
        .collect();
    let said = takes.join(" · ");
    let zoom = open_piece(&fake, mover, thread, (turn, &body), &position, &origin).await;
    let tap = entries(&zoom, &position)
        .into_iter()
        .find(|e| e.value == target.number.to_string())
        .unwrap();
    assert!(tap.label.contains(&said), "the button: {}", tap.label);
    let words = described_pictures(&fake, "zoom.png");
    assert!(
        words.last().is_some_and(|d| d.contains(&said)),
        "the zoom's words: {words:?}"
    );
    let token = my_board(&fake, mover, thread, &base).await.unwrap();
    let (_, view) = get(&base, "/api/board", &token).await;
    assert!(
        view["forced"]
            .as_str()
            .unwrap_or_default()
            .starts_with("capture is compulsory"),
        "{view}"
    );
    assert!(
        view["expects"]
            .as_str()
            .unwrap()
            .contains("Capture is compulsory"),
        "{view}"
    );
    let on_web = web_targets(&base, &token, &origin).await;
    let (_, does, mark) = on_web.iter().find(|(c, _, _)| *c == target.cell).unwrap();
    assert_eq!(does, &takes);
    assert_eq!(mark, "capture");
    let i = choose(&fake, mover, thread, message_id(&zoom), &tap).await;
    let staged = step(&fake, &i).await;
    assert!(content(&staged).contains(&said), "{staged:?}");
    let (_, view) = get(&base, "/api/board", &token).await;
    assert!(
        view["expects"]
            .as_str()
            .unwrap()
            .contains(&takes.join(", ")),
        "{view}"
    );
}
