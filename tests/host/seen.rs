//! The game as one viewer sees it (`GameState::seen_by`, issue 62): what is forced, what each
//! target does (a ram, a capture, a Check, a relief), why a piece cannot move, and the round's
//! losses, on positions from the rules' own test cases.

use hexmeros::host::{Does, Forced, GameId, GameState, Mark};
use hexmeros_testkit::host::{Env, act, cmd_move, ensure_players, env};

async fn from_position(e: &Env, players: usize, json: serde_json::Value) -> GameId {
    let ids: Vec<i64> = (1..=players as i64).collect();
    ensure_players(&e.host, ids.clone()).await;
    let (g, _) = e
        .host
        .create_from_position(&ids, &json.to_string(), None)
        .await
        .unwrap();
    g
}

fn piece(cell: &str, owner: &str, kind: &str) -> serde_json::Value {
    serde_json::json!({"cell": cell, "owner": owner, "kind": kind, "moved": true})
}

fn man(cell: &str, owner: &str) -> serde_json::Value {
    serde_json::json!({"cell": cell, "owner": owner, "kind": "man"})
}

/// rules/hexdame.md T5 (majority rule): White must take both men with c3xe5xg5; a3 cannot move,
/// and says why; Black, watching, is told whose turn it is.
#[tokio::test]
async fn a_forced_hexdame_capture_is_named_with_both_men_it_takes() {
    let e = env().await;
    let g = from_position(
        &e,
        2,
        serde_json::json!({"game": "hexdame", "to_move": "white", "pieces": [
            man("c3", "white"), man("a3", "white"),
            man("d4", "black"), man("f5", "black"), man("a4", "black")]}),
    )
    .await;
    let st: GameState = e.host.state(g).await.unwrap();
    let seen = st.seen_by(Some(1));
    assert!(seen.your_turn);
    assert_eq!(seen.forced, Some(Forced::Capture { most: 2 }));
    assert!(
        seen.expects.contains("Capture is compulsory"),
        "{}",
        seen.expects
    );
    assert_eq!(seen.pieces.len(), 1, "{:?}", seen.pieces);
    assert_eq!(seen.pieces[0].origin, "c3");
    assert_eq!(seen.stuck.len(), 1);
    assert_eq!(seen.stuck[0].cell, "a3");
    assert!(
        seen.stuck[0].why.contains("capture is compulsory"),
        "{:?}",
        seen.stuck
    );
    let targets = st.targets_seen_by(Some(1), "c3").unwrap();
    assert_eq!(targets.len(), 1);
    let t = &targets[0];
    let caps = t
        .does
        .iter()
        .filter(
            |d| matches!(d, Does::Captures { whose, piece } if whose == "Black" && piece == "Man"),
        )
        .count();
    assert_eq!(caps, 2, "{:?}", t.does);
    assert_eq!(t.mark(), Mark::Capture);
    assert!(
        t.label().contains("takes Black's Man · takes Black's Man"),
        "{}",
        t.label()
    );
    // The stuck piece's refusal says why; a spectator and the opponent are told whose turn.
    let why = st.targets_seen_by(Some(1), "a3").unwrap_err().to_string();
    assert!(
        why.contains("your Man on a3 cannot move: capture is compulsory"),
        "{why}"
    );
    let black = st.seen_by(Some(2));
    assert!(!black.your_turn && black.pieces.is_empty() && black.forced.is_none());
    assert_eq!(black.expects, "White has the Token.");
    let why = st.targets_seen_by(Some(2), "d4").unwrap_err().to_string();
    assert_eq!(why, "it is White's turn, not yours");
    let why = st.targets_seen_by(None, "c3").unwrap_err().to_string();
    assert_eq!(why, "you are watching: it is White's turn");
}

/// rules/heximeros.md T12: Silver declared Check on Blue's Sovereign; Blue is told so, only the
/// relieving moves are offered, each says it relieves the Check.
#[tokio::test]
async fn a_player_in_check_is_told_and_each_move_relieves_it() {
    let e = env().await;
    let g = from_position(
        &e,
        6,
        serde_json::json!({"game": "heximeros", "to_move": "blue", "pieces": [
            piece("Q20", "silver", "regent"), piece("Q2", "silver", "sovereign"),
            piece("Q30", "blue", "sovereign"), piece("U26", "blue", "alcazar")],
            "checks": [{"declarer": "silver", "target": "Q30"}]}),
    )
    .await;
    let st = e.host.state(g).await.unwrap();
    let blue = st.holder_player().unwrap();
    let seen = st.seen_by(Some(blue));
    assert_eq!(
        seen.forced,
        Some(Forced::RelieveCheck {
            by: vec!["Silver".into()]
        })
    );
    assert!(
        seen.expects.contains("You are in Check by Silver"),
        "{}",
        seen.expects
    );
    let moves: usize = seen.pieces.iter().map(|p| p.moves).sum();
    assert_eq!(moves, 11, "T12's 11 relieving moves: {:?}", seen.pieces);
    for p in &seen.pieces {
        for t in st.targets_seen_by(Some(blue), &p.origin).unwrap() {
            assert!(t.does.contains(&Does::Relieves), "{}", t.label());
            assert!(t.label().contains("relieves your Check"), "{}", t.label());
        }
    }
    // The picture in words, for anyone in the thread: whose turn, the Check to relieve, and
    // Blue's attacked Sovereign; Silver's side names Silver's pieces instead.
    let alt = st.alt_text(Some(blue));
    assert!(alt.starts_with("HexiMeros board, turn"), "{alt}");
    assert!(alt.contains("from Blue's side"), "{alt}");
    assert!(alt.contains("Blue has the Token."), "{alt}");
    assert!(
        alt.contains("Blue is in Check by Silver and must relieve it."),
        "{alt}"
    );
    assert!(
        alt.contains("Blue's pieces attacked: Sovereign on Q30 by Silver"),
        "{alt}"
    );
    assert!(alt.chars().count() <= hexmeros::host::ALT_MAX);
    let silver = st.seats()[0].player;
    let from_silver = st.alt_text(Some(silver));
    assert!(
        !from_silver.contains("Blue's pieces attacked"),
        "{from_silver}"
    );
    // The staged relief says what it does, as its button did.
    let relief = st
        .targets_seen_by(Some(blue), &seen.pieces[0].origin)
        .unwrap()[0]
        .target
        .moves[0]
        .clone();
    assert!(st.staged_does(Some(blue)).is_empty(), "nothing staged yet");
    act(
        &e.host,
        g,
        blue,
        hexmeros::host::Command::Move {
            text: relief.clone(),
            commit: false,
        },
    )
    .await;
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.staged().map(|s| s.text.clone()), Some(relief));
    assert!(
        st.staged_does(Some(blue)).contains(&Does::Relieves),
        "{:?}",
        st.staged_does(Some(blue))
    );
    assert!(st.staged_does(Some(silver)).is_empty(), "not Silver's move");
}

/// A Dreadnaught's path over its own piece removes it (a ram, rules §4): said so, in its own
/// mark, never as a capture of an enemy.
#[tokio::test]
async fn a_ram_on_your_own_piece_is_labelled_as_a_ram() {
    let e = env().await;
    let g = from_position(
        &e,
        6,
        serde_json::json!({"game": "heximeros", "to_move": "silver", "pieces": [
            piece("Q20", "silver", "dreadnaught"), piece("Q24", "silver", "militant"),
            piece("Q2", "silver", "sovereign"), piece("E14", "blue", "sovereign")]}),
    )
    .await;
    let st = e.host.state(g).await.unwrap();
    let silver = st.holder_player().unwrap();
    let targets = st.targets_seen_by(Some(silver), "Q20").unwrap();
    let rams: Vec<_> = targets
        .iter()
        .filter(|t| {
            t.does.contains(&Does::Rams {
                piece: "Militant".into(),
            })
        })
        .collect();
    assert!(!rams.is_empty(), "no ram among {targets:?}");
    for t in &rams {
        assert_eq!(t.mark(), Mark::Ram);
        assert!(
            t.label().contains("rams your own Militant"),
            "{}",
            t.label()
        );
        assert!(!t.label().contains("takes"), "{}", t.label());
    }
    // Staged, the ram is said so in the headline the web board and the preview show.
    let ram = rams[0].target.moves[0].clone();
    act(
        &e.host,
        g,
        silver,
        hexmeros::host::Command::Move {
            text: ram.clone(),
            commit: false,
        },
    )
    .await;
    let seen = e.host.state(g).await.unwrap().seen_by(Some(silver));
    assert_eq!(seen.staged.as_deref(), Some(ram.as_str()));
    assert_eq!(
        seen.staged_does,
        vec![Does::Rams {
            piece: "Militant".into()
        }]
    );
    assert!(
        seen.expects.starts_with(&format!(
            "Your move {ram} (rams your own Militant) is staged"
        )),
        "{}",
        seen.expects
    );
}

/// The round since a seat's last turn comes clause by clause: the next seat is told of
/// Silver's move, Silver (whose turn it was) of nothing since.
#[tokio::test]
async fn the_round_is_told_since_the_viewers_last_turn() {
    let e = env().await;
    let g = from_position(
        &e,
        6,
        serde_json::json!({"game": "heximeros", "to_move": "silver", "pieces": [
            piece("Q20", "silver", "regent"), piece("Q2", "silver", "sovereign"),
            piece("Q30", "blue", "sovereign"), piece("Q50", "orange", "sovereign")]}),
    )
    .await;
    let st = e.host.state(g).await.unwrap();
    let silver = st.holder_player().unwrap();
    act(&e.host, g, silver, cmd_move("Q20-Q22")).await;
    let st = e.host.state(g).await.unwrap();
    let next = st.holder_player().unwrap();
    assert_ne!(next, silver);
    let seen = st.seen_by(Some(next));
    assert!(seen.your_turn);
    assert!(
        seen.round.iter().any(|c| c.starts_with("Silver Q20-Q22")),
        "{:?}",
        seen.round
    );
    assert!(seen.your_losses.is_empty(), "{:?}", seen.your_losses);
    assert!(st.seen_by(Some(silver)).round.is_empty());
}

/// Silver's Regent takes Blue's Archer: of the round Blue is shown, that move is the one that
/// cost Blue (the close-up puts it first), and it cost Silver nothing.
#[tokio::test]
async fn the_move_that_took_the_viewers_piece_is_named_as_costly() {
    let e = env().await;
    let g = from_position(
        &e,
        6,
        serde_json::json!({"game": "heximeros", "to_move": "silver", "pieces": [
            piece("Q20", "silver", "regent"), piece("Q2", "silver", "sovereign"),
            piece("Q26", "blue", "archer"),
            piece("Q30", "blue", "sovereign"), piece("Q50", "orange", "sovereign")]}),
    )
    .await;
    let st = e.host.state(g).await.unwrap();
    let silver = st.holder_player().unwrap();
    let capture = st
        .targets_seen_by(Some(silver), "Q20")
        .unwrap()
        .into_iter()
        .find(|t| t.target.cell == "Q26")
        .expect("the Regent reaches the Archer");
    act(&e.host, g, silver, cmd_move(&capture.target.moves[0])).await;
    let st = e.host.state(g).await.unwrap();
    let blue = st.holder().unwrap();
    let round = st.last_round();
    assert_eq!(round.len(), 1, "{round:?}");
    assert_eq!(st.moves_that_cost(Some(blue), &round), round);
    let silver_seat = st.seat_of(silver);
    assert!(st.moves_that_cost(silver_seat, &round).is_empty());
}

/// Issue 62: Silver's close-up after a round in which Orange took Silver's Regent and
/// declared Check on Silver holds both (the Check on Silver's Sovereign and the capture), with
/// its cells named; what the round did far away is left to the full board and said so.
#[tokio::test]
async fn silvers_close_up_holds_the_check_on_it_and_the_regent_it_lost() {
    use hexmeros::host::{Command, ViewOptions};
    use hexmeros_testkit::host::RulesOf;
    let e = env().await;
    let g = from_position(
        &e,
        6,
        serde_json::json!({"game": "heximeros", "to_move": "orange", "pieces": [
            piece("Q20", "silver", "sovereign"), piece("Q30", "silver", "regent"),
            piece("E14", "blue", "sovereign"), piece("E38", "yellow", "sovereign"),
            piece("Q40", "orange", "alcazar"), piece("Q50", "orange", "sovereign"),
            piece("AC38", "green", "sovereign"), piece("AC14", "red", "sovereign")]}),
    )
    .await;
    let st = e.host.state(g).await.unwrap();
    let orange = st.holder_player().unwrap();
    let silver_seat = st.seat_named("silver").unwrap();
    let take = st
        .targets_seen_by(Some(orange), "Q40")
        .unwrap()
        .into_iter()
        .find(|t| t.target.cell == "Q30")
        .expect("the Alcazar reaches the Regent");
    assert!(
        take.does.contains(&Does::GivesCheck {
            on: vec!["Silver".into()]
        }),
        "{:?}",
        take.does
    );
    act(
        &e.host,
        g,
        orange,
        Command::Move {
            text: take.target.moves[0].clone(),
            commit: false,
        },
    )
    .await;
    act(
        &e.host,
        g,
        orange,
        Command::CheckAndPass { seat: silver_seat },
    )
    .await;
    // Green and Red move their Sovereigns, far from Silver.
    for _ in 0..2 {
        let st = e.host.state(g).await.unwrap();
        let player = st.holder_player().unwrap();
        let mv = st.rules().legal_moves()[0].clone();
        act(&e.host, g, player, cmd_move(&mv)).await;
    }
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.holder(), Some(silver_seat));
    let opts = ViewOptions {
        as_seat: Some(silver_seat),
        last_moves: st.last_round(),
        ..ViewOptions::default()
    };
    let focus = st.render_focus(&opts).unwrap().expect("a close-up");
    assert!(!focus.png.is_empty());
    // The close-up's cells: the same crop as the host draws, from the same options.
    let costly = st.moves_that_cost(Some(silver_seat), &opts.last_moves);
    assert_eq!(costly.len(), 1, "Orange's capture cost Silver: {costly:?}");
    let told = hexmeros::view::focus::focus_told(
        &st.rules(),
        &ViewOptions {
            costly,
            ..opts.clone()
        },
    )
    .unwrap()
    .unwrap();
    let names = hexmeros::view::cell_names(&st.rules());
    let hex = |cell: &str| names.iter().find(|(_, n)| n == cell).unwrap().0;
    let shown: Vec<_> = told.scene.tiles.iter().map(|t| t.hex).collect();
    for cell in ["Q20", "Q30", "Q40"] {
        assert!(shown.contains(&hex(cell)), "{cell} is in Silver's close-up");
    }
    // The Check is marked there, and the cells are named.
    let check = told
        .scene
        .tiles
        .iter()
        .find(|t| t.hex == hex("Q20"))
        .unwrap();
    assert!(
        check.markers.contains(&hexmeros_render::Marker::Check),
        "{:?}",
        check.markers
    );
    assert!(
        told.scene.labels.iter().any(|l| l.text == "Q30")
            || told.scene.tags.iter().any(|t| t.text == "Q30"),
        "cells named: {:?} {:?}",
        told.scene.labels,
        told.scene.tags
    );
    // Green's and Red's moves, far off, are left to the full board and said so.
    assert_eq!(told.outside, focus.outside);
    let alt = st.alt_text(Some(st.holder_player().unwrap()));
    assert!(alt.contains("Silver is in Check by Orange"), "{alt}");
    assert!(alt.contains("Regent"), "the Regent's loss is told: {alt}");
}
