//! HexaEquo rule tests: every test position of `docs/rules/hexaequo.md` §7 (as complete action
//! lists), each house-rule switch, position JSON validation, move text, the picture, the
//! renderer helpers, and a cross-check against the naive model in `reference.rs`.

use super::reference;
use super::*;
use crate::games::{AnyGame, Outcome, PlayError, Rules};

/// Build a position: tiles by colour (`"I8 K8"`), pieces (`"bD I8, wR J10"`), the side to
/// move, and the captured pieces by their colour and kind (`"wD wD bR"`).
fn json(black: &str, white: &str, pieces: &str, to_move: &str, captured: &str) -> String {
    let mut tiles = Vec::new();
    for (owner, cells) in [("black", black), ("white", white)] {
        for c in cells.split_whitespace() {
            tiles.push(serde_json::json!({"cell": c, "owner": owner}));
        }
    }
    let pieces: Vec<_> = pieces
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (code, cell) = p.split_once(' ').unwrap();
            let owner = if code.starts_with('b') {
                "black"
            } else {
                "white"
            };
            let kind = if code.ends_with('D') { "disc" } else { "ring" };
            serde_json::json!({"cell": cell, "owner": owner, "kind": kind})
        })
        .collect();
    let captured: Vec<_> = captured
        .split_whitespace()
        .map(|code| {
            let owner = if code.starts_with('b') {
                "black"
            } else {
                "white"
            };
            let kind = if code.ends_with('D') { "disc" } else { "ring" };
            serde_json::json!({"owner": owner, "kind": kind})
        })
        .collect();
    serde_json::json!({
        "game": "hexaequo", "to_move": to_move, "tiles": tiles, "pieces": pieces,
        "captured": captured,
    })
    .to_string()
}

fn pos(black: &str, white: &str, pieces: &str, to_move: &str, captured: &str) -> HexaEquo {
    HexaEquo::from_json(&json(black, white, pieces, to_move, captured)).unwrap()
}

fn with_house(g: &HexaEquo, house: HouseRules) -> HexaEquo {
    let mut setup = g.to_setup();
    setup.house_rules = house;
    HexaEquo::from_setup(setup).unwrap()
}

#[track_caller]
fn assert_moves(g: &HexaEquo, expected: &str) {
    let mut want: Vec<&str> = expected.split_whitespace().collect();
    want.sort_unstable();
    assert_eq!(g.legal_move_texts(), want, "\n{}", g.show());
}

fn start() -> HexaEquo {
    HexaEquo::new_game(2, HouseRules::default()).unwrap()
}

// ---- cells --------------------------------------------------------------------------------

#[test]
fn cell_names_follow_the_designer() {
    for (name, q, r) in [
        ("I8", 0, 0),
        ("J8", 1, 0),
        ("H9", -1, 1),
        ("I9", 0, 1),
        ("K7", 2, -1),
        ("A1", -8, -7),
        ("Z26", 17, 18),
    ] {
        assert_eq!(parse_cell(name), Some(Hex::new(q, r)), "{name}");
        assert_eq!(cell_name(Hex::new(q, r)).as_deref(), Some(name));
    }
    assert_eq!(parse_cell("i8"), Some(Hex::ORIGIN));
    for bad in ["", "I", "8", "I0", "I27", "@8", "II8", "I8x", "I-1", "I123"] {
        assert_eq!(parse_cell(bad), None, "{bad}");
    }
    assert_eq!(cell_name(Hex::new(18, 0)), None);
    assert_eq!(cell_name(Hex::new(0, -8)), None);
}

#[test]
fn ring_offsets_are_the_twelve_cells_at_distance_two() {
    let mut offs = cells::RING_OFFSETS.to_vec();
    offs.sort_unstable();
    let mut ring = Hex::ORIGIN.ring(2);
    ring.sort_unstable();
    assert_eq!(offs, ring);
    for d in cells::DIRECTIONS {
        assert_eq!(d.length(), 1);
        assert_eq!(cells::between(Hex::ORIGIN, d * 2), Some(d));
    }
    assert_eq!(cells::between(Hex::ORIGIN, Hex::new(2, -1)), None);
    assert_eq!(cells::leap_crossings(Hex::ORIGIN, Hex::new(2, -1)).len(), 2);
    assert_eq!(cells::leap_crossings(Hex::ORIGIN, Hex::new(2, 0)).len(), 1);
}

// ---- §7 test positions ---------------------------------------------------------------------

#[test]
fn he1_opening_black_has_seven_actions() {
    let g = start();
    assert_moves(&g, "T@H8 T@H10 T@J7 T@J9 D@I8 J8-I8 J8-I9");
    assert_eq!(g.to_move(), Some(Seat(0)));
    for c in Colour::BOTH {
        assert_eq!(
            g.reserve(c),
            Reserve {
                tile: 7,
                disc: 5,
                ring: 3
            }
        );
        assert_eq!(g.prisoners(c), Prisoners::default());
    }
}

#[test]
fn he2_after_d_i8_white_has_six_actions() {
    let mut g = start();
    g.play("D@I8").unwrap();
    assert_moves(&g, "T@H8 T@H10 T@J7 T@J9 D@I9 H9-I9");
    assert_eq!(g.to_move(), Some(Seat(1)));
}

#[test]
fn he3_jump_chain_over_enemy_then_friend() {
    let g = pos("I8 K8 M8", "J8 L8", "bD I8, wD J8, bD L8", "black", "");
    assert_moves(
        &g,
        "T@I9 T@J9 T@K9 T@L9 T@J7 T@K7 T@L7 T@M7 D@K8 D@M8 I8xK8 I8xK8-M8 L8-K8 L8-M8",
    );
    // Jumping back from M8 over L8 to K8 is what the anti-loop rule forbids.
    let e = g.parse_move("I8xK8-M8-K8").unwrap_err();
    assert!(e.to_string().contains("since its last capture"), "{e}");
    let mut after = g.clone();
    after.play("I8xK8-M8").unwrap();
    assert_eq!(after.prisoners(Colour::Black).discs, 1);
    assert!(
        after
            .tile(parse_cell("J8").unwrap())
            .unwrap()
            .piece
            .is_none()
    );
    assert_eq!(
        after.tile(parse_cell("M8").unwrap()).unwrap().piece,
        Some(Piece::new(Colour::Black, Kind::Disc))
    );
}

#[test]
fn he4_ring_leaps_and_a_three_jump_chain() {
    let g = pos(
        "I8 J8 K8 H9 I9 J9 K9 I10",
        "H8 G10 J10 K10 H10",
        "bR I9, bD K8, wD K9, wR J10",
        "black",
        "",
    );
    assert_moves(
        &g,
        "T@G9 T@G11 T@H11 T@I7 T@I11 T@J7 T@J11 T@K7 T@L8 T@L9 \
         D@H9 D@I8 D@I10 D@J8 D@J9 \
         I9xK9 I9-H8 I9-G10 I9xJ10 \
         K8-J8 K8-J9 K8xK10 K8xK10xI10 K8xK10xI10-I8",
    );
}

#[test]
fn he5_anti_loop_around_a_friendly_piece() {
    let g = pos(
        "I8 J8 J7 I7 H8 H9 I9",
        "H10 I10",
        "bD I8, bD J8, wD I10",
        "black",
        "",
    );
    assert_moves(
        &g,
        "T@G9 T@G10 T@H7 T@H11 T@J6 T@J9 T@K7 \
         D@H8 D@H9 D@I7 D@I9 D@J7 \
         I8-J7 I8-I7 I8-H8 I8-H9 I8-I9 \
         J8-J7 J8-I9 J8-H8",
    );
    let e = g.parse_move("J8-H8-J8").unwrap_err();
    assert!(matches!(e, PlayError::Illegal(_)), "{e}");
}

#[test]
fn he6_ring_placement_needs_a_prisoner() {
    let g = pos("I8 J8", "H9 I9", "bD J8, wD H9", "black", "wD");
    assert_eq!(g.reserve(Colour::White).disc, 4);
    assert_moves(&g, "T@H8 T@H10 T@J7 T@J9 D@I8 R@I8 J8-I8 J8-I9");
    let mut after = g.clone();
    after.play("R@I8").unwrap();
    assert_eq!(after.prisoners(Colour::Black).discs, 0);
    assert_eq!(after.reserve(Colour::White).disc, 5);
    assert_eq!(after.reserve(Colour::Black).ring, 2);
    // Without the prisoner (the opening) there is no ring placement, and the reason says so.
    let e = start().parse_move("R@I8").unwrap_err();
    assert!(e.to_string().contains("holds none"), "{e}");
}

#[test]
fn he7_win_by_the_sixth_disc() {
    let g = pos(
        "I8 J8 K8",
        "H9 I9",
        "bD I8, wD J8, wR H9",
        "black",
        "wD wD wD wD wD",
    );
    assert_moves(&g, "T@H8 T@H10 T@J7 T@J9 T@K7 D@K8 R@K8 I8-I9 I8xK8");
    let mut after = g.clone();
    after.play("I8xK8").unwrap();
    assert_eq!(after.prisoners(Colour::Black).discs, 6);
    let Some(Outcome::Win { winners, reason }) = after.outcome() else {
        panic!("no win: {:?}", after.outcome());
    };
    assert_eq!(winners, vec![Seat(0)]);
    assert!(reason.contains("six white discs"), "{reason}");
    // White still has its ring on the board: this is not the "empty" win.
    assert!(after.pieces().any(|(_, p)| p.owner == Colour::White));
    assert!(after.legal_moves().is_empty());
    assert_eq!(after.to_move(), None);
}

#[test]
fn he8_win_by_emptying_the_tiles() {
    let g = pos("I8 J8 K8", "H9 I9", "bD I8, wD J8", "black", "");
    let mut after = g.clone();
    after.play("I8xK8").unwrap();
    assert_eq!(after.reserve(Colour::White).disc, 5);
    assert_eq!(after.reserve(Colour::White).ring, 3);
    let Some(Outcome::Win { winners, reason }) = after.outcome() else {
        panic!("no win");
    };
    assert_eq!(winners, vec![Seat(0)]);
    assert!(reason.contains("no white piece"), "{reason}");
    assert!(after.legal_moves().is_empty());
}

#[test]
fn he9_no_legal_action_is_a_draw() {
    let g = pos(
        "L8 L9 L10",
        "I8 I9 I10 J8 J9 J10 K8 K9 K10",
        "wD I8, bD I9, wD I10, bD J8, wD J9, bD J10, wD K8, bD K9, wD K10, bD L8, wD L9, bD L10",
        "white",
        "",
    );
    assert_moves(&g, "");
    let Some(Outcome::Draw { seats, reason }) = g.outcome() else {
        panic!("not a draw: {:?}", g.outcome());
    };
    assert_eq!(seats, vec![Seat(0), Seat(1)]);
    assert!(reason.contains("white has no legal action"), "{reason}");
    assert_eq!(g.to_move(), None);
    // The same board with Black to move is no draw: Black still has three tiles in hand.
    let black = pos(
        "L8 L9 L10",
        "I8 I9 I10 J8 J9 J10 K8 K9 K10",
        "wD I8, bD I9, wD I10, bD J8, wD J9, bD J10, wD K8, bD K9, wD K10, bD L8, wD L9, bD L10",
        "black",
        "",
    );
    assert!(black.outcome().is_none());
}

#[test]
fn he10_threefold_repetition_is_a_draw() {
    let mut g = start();
    for round in 0..2 {
        for m in ["J8-I8", "H9-I9", "I8-J8", "I9-H9"] {
            assert!(g.outcome().is_none(), "round {round} before {m}");
            g.play(m).unwrap();
        }
        assert_eq!(g.tiles(), start().tiles());
        assert_eq!(g.occurrences(), round + 2);
    }
    let Some(Outcome::Draw { reason, .. }) = g.outcome() else {
        panic!("no draw: {:?}", g.outcome());
    };
    assert!(reason.contains("third time"), "{reason}");
    assert!(g.legal_moves().is_empty());
    assert!(matches!(g.parse_move("J8-I8"), Err(PlayError::Illegal(_))));
    // The repetition survives a round trip through JSON.
    let again = HexaEquo::from_json(&g.to_json()).unwrap();
    assert_eq!(again.outcome(), g.outcome());
    assert_eq!(again.to_json(), g.to_json());
}

#[test]
fn a_capture_in_between_breaks_the_repetition() {
    // Same moves, but a tile laid in the middle: no position before it can recur.
    let mut g = start();
    for m in ["J8-I8", "H9-I9", "I8-J8", "I9-H9", "T@J7", "T@H10"] {
        g.play(m).unwrap();
    }
    for m in ["J8-I8", "H9-I9", "I8-J8", "I9-H9"] {
        g.play(m).unwrap();
    }
    assert!(g.outcome().is_none());
    assert_eq!(g.occurrences(), 2);
}

// ---- house rules ---------------------------------------------------------------------------

#[test]
fn house_rules_default_is_the_spec_and_reads_partial_json() {
    let h: HouseRules = serde_json::from_str("{}").unwrap();
    assert_eq!(h, HouseRules::default());
    let h: HouseRules = serde_json::from_str(r#"{"anti_loop": "no_friend_twice"}"#).unwrap();
    assert_eq!(h.anti_loop, AntiLoop::NoFriendTwice);
    assert_eq!(h.move_identity, MoveIdentity::CaptureSet);
    assert!(serde_json::from_str::<HouseRules>(r#"{"radius": 8}"#).is_err());
    let g = AnyGame::new(
        GameKind::HexaEquo,
        None,
        Some(serde_json::json!({"board_radius": 8})),
    )
    .unwrap();
    assert!(g.to_json().contains("board_radius"));
}

#[test]
fn board_radius_limits_where_tiles_go() {
    let house = HouseRules {
        board_radius: Some(1),
        ..HouseRules::default()
    };
    let g = HexaEquo::new_game(2, house.clone()).unwrap();
    assert_moves(&g, "T@H8 T@J7 D@I8 J8-I8 J8-I9");
    let e = g.parse_move("T@J9").unwrap_err();
    assert!(e.to_string().contains("outside the board"), "{e}");
    let zero = HouseRules {
        board_radius: Some(0),
        ..HouseRules::default()
    };
    assert!(HexaEquo::new_game(2, zero).is_err());
    // A position with a tile beyond the radius is refused.
    let mut setup = pos("I8 J8 K8", "H9 I9", "bD I8, wD J8", "black", "").to_setup();
    setup.house_rules = house;
    let e = HexaEquo::from_setup(setup).unwrap_err();
    assert!(e.to_string().contains("K8 lies outside"), "{e}");
}

/// The disc on H8 jumps the friendly I8 to J8, takes K8 landing on L8, comes round over L7
/// and K7 to J8 again, and may then jump I8 a second time, home to H8: the capture reset the
/// spec's memory. The older rule forbids jumping a friendly piece twice, and nothing else
/// leads back to H8.
fn round_trip() -> HexaEquo {
    pos(
        "H8 I8 J8 L8 L7 L6 K7",
        "K8",
        "bD H8, bD I8, wD K8, bD L7, bD K7",
        "black",
        "",
    )
}

#[test]
fn anti_loop_switch_changes_which_chains_exist() {
    let g = round_trip();
    let spec = g.legal_move_texts();
    let old = with_house(
        &g,
        HouseRules {
            anti_loop: AntiLoop::NoFriendTwice,
            ..HouseRules::default()
        },
    );
    let older = old.legal_move_texts();
    let only_spec: Vec<&String> = spec.iter().filter(|m| !older.contains(m)).collect();
    let only_old: Vec<&String> = older.iter().filter(|m| !spec.contains(m)).collect();
    assert_eq!(only_spec, ["H8-J8xL8-L6-J8-H8"]);
    assert!(only_old.is_empty(), "{only_old:?}");
    let e = old.parse_move("H8-J8xL8-L6-J8-H8").unwrap_err();
    assert!(e.to_string().contains("already been jumped"), "{e}");
    // Both rules keep a disc from hopping back to its start without a capture.
    assert!(g.parse_move("H8-J8-H8").is_err());
    assert!(old.parse_move("H8-J8-H8").is_err());
}

#[test]
fn capture_removal_switch_keeps_captured_pieces_as_hurdles() {
    let g = pos("I8 J8 K8", "H9 I9", "bD I8, wD J8, wD H9", "black", "");
    assert_moves(&g, "T@H8 T@H10 T@J7 T@J9 T@K7 D@K8 I8-I9 I8xK8");
    let end = with_house(
        &g,
        HouseRules {
            capture_removal: CaptureRemoval::EndOfMove,
            ..HouseRules::default()
        },
    );
    assert_moves(&end, "T@H8 T@H10 T@J7 T@J9 T@K7 D@K8 I8-I9 I8xK8 I8xK8-I8");
    let mut after = end.clone();
    after.play("I8xK8-I8").unwrap();
    assert_eq!(after.prisoners(Colour::Black).discs, 1);
    assert_eq!(
        after.tile(Hex::ORIGIN).unwrap().piece,
        Some(Piece::new(Colour::Black, Kind::Disc))
    );
    assert!(after.tile(Hex::new(1, 0)).unwrap().piece.is_none());
}

/// White's disc on K7 can take J8, I8 and J7 going either way round the triangle.
fn triangle() -> HexaEquo {
    pos(
        "I8 J8 J7 K7 K8",
        "I7 I9 H9",
        "wD K7, bD J8, bD I8, bD J7, bD K8, wD H9",
        "white",
        "",
    )
}

#[test]
fn move_identity_switch_lists_both_orders() {
    let g = triangle();
    let round = |m: &str| m.starts_with("K7x") && m.ends_with("xK7") && m.len() == 11;
    let spec: Vec<String> = g
        .legal_move_texts()
        .into_iter()
        .filter(|m| round(m))
        .collect();
    assert_eq!(spec.len(), 1, "{spec:?}");
    let ordered = with_house(
        &g,
        HouseRules {
            move_identity: MoveIdentity::CaptureOrder,
            ..HouseRules::default()
        },
    );
    let mut both: Vec<String> = ordered
        .legal_move_texts()
        .into_iter()
        .filter(|m| round(m))
        .collect();
    both.sort();
    assert_eq!(both, ["K7xI7xI9xK7", "K7xI9xI7xK7"]);
    // Under the spec either path is read as the one move.
    assert_eq!(
        g.parse_move("K7xI7xI9xK7").unwrap(),
        g.parse_move("K7xI9xI7xK7").unwrap()
    );
    assert_ne!(
        ordered.parse_move("K7xI7xI9xK7").unwrap(),
        ordered.parse_move("K7xI9xI7xK7").unwrap()
    );
}

#[test]
fn ring_over_gap_switch() {
    let g = pos("I8 K8", "H9 I9", "bR I8, wD H9", "black", "");
    assert!(g.legal_move_texts().contains(&"I8-K8".to_string()));
    let strict = with_house(
        &g,
        HouseRules {
            ring_over_gap: false,
            ..HouseRules::default()
        },
    );
    assert!(!strict.legal_move_texts().contains(&"I8-K8".to_string()));
    let e = strict.parse_move("I8-K8").unwrap_err();
    assert!(e.to_string().contains("gap"), "{e}");
    // A bent leap needs only one of its two flanking cells: I8 to J9 passes I9 (a tile).
    let bent = pos("I8 J9", "H9 I9", "bR I8, wD H9", "black", "");
    let strict = with_house(
        &bent,
        HouseRules {
            ring_over_gap: false,
            ..HouseRules::default()
        },
    );
    assert!(strict.legal_move_texts().contains(&"I8-J9".to_string()));
}

// ---- position JSON -------------------------------------------------------------------------

#[test]
fn position_json_round_trips_and_documents_reserves() {
    let g = pos(
        "I8 J8 K8",
        "H9 I9",
        "bD I8, wD J8, wR H9",
        "black",
        "wD wD bR",
    );
    let text = g.to_json();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["reserves"]["white"]["disc"], 3);
    assert_eq!(v["reserves"]["white"]["ring"], 2);
    assert_eq!(v["reserves"]["black"]["ring"], 2);
    assert_eq!(v["reserves"]["black"]["tile"], 6);
    assert_eq!(v["captured"].as_array().unwrap().len(), 3);
    let back = HexaEquo::from_json(&text).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.to_json(), text);
}

#[test]
fn bad_positions_are_refused_with_a_reason() {
    let ok = json("I8 J8", "H9 I9", "bD J8, wD H9", "black", "");
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v: serde_json::Value = serde_json::from_str(&ok).unwrap();
        f(&mut v);
        HexaEquo::from_json(&v.to_string()).unwrap_err().to_string()
    };
    let cases: Vec<(&str, String)> = vec![
        (
            "this position is for hexdame",
            edit(&|v| v["game"] = "hexdame".into()),
        ),
        ("unknown colour", edit(&|v| v["to_move"] = "red".into())),
        (
            "unknown cell",
            edit(&|v| v["tiles"][0]["cell"] = "I0".into()),
        ),
        (
            "two tiles on",
            edit(&|v| v["tiles"][1]["cell"] = "I8".into()),
        ),
        (
            "unknown piece kind",
            edit(&|v| v["pieces"][0]["kind"] = "king".into()),
        ),
        (
            "stands on no tile",
            edit(&|v| v["pieces"][0]["cell"] = "K8".into()),
        ),
        (
            "two pieces on",
            edit(&|v| v["pieces"][1]["cell"] = "J8".into()),
        ),
        (
            "does not use",
            edit(&|v| v["pieces"][0]["moved"] = true.into()),
        ),
        ("unknown field", edit(&|v| v["stones"] = 3.into())),
        (
            "malformed",
            HexaEquo::from_json("{").unwrap_err().to_string(),
        ),
        (
            "leave 5",
            edit(&|v| {
                v["reserves"] = serde_json::json!({"black": {"tile": 7, "disc": 4, "ring": 3}})
            }),
        ),
        (
            "only 9",
            edit(&|v| {
                let cells = ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8"];
                for c in cells {
                    v["tiles"]
                        .as_array_mut()
                        .unwrap()
                        .push(serde_json::json!({"cell": c, "owner": "black"}));
                }
            }),
        ),
        (
            "at most 18 tiles",
            edit(&|v| {
                for i in 1..=20 {
                    let cell = format!("B{i}");
                    v["tiles"]
                        .as_array_mut()
                        .unwrap()
                        .push(serde_json::json!({"cell": cell, "owner": "white"}));
                }
            }),
        ),
        (
            "but only 6",
            edit(&|v| {
                let caps = vec![serde_json::json!({"owner": "black", "kind": "disc"}); 6];
                v["captured"] = caps.into();
                v["to_move"] = "white".into();
            }),
        ),
        (
            "would already have won",
            edit(&|v| {
                v["captured"] =
                    vec![serde_json::json!({"owner": "white", "kind": "ring"}); 3].into()
            }),
        ),
        (
            "white has no piece on the tiles",
            edit(&|v| {
                v["pieces"]
                    .as_array_mut()
                    .unwrap()
                    .retain(|p| p["owner"] == "black")
            }),
        ),
        (
            "history move 1",
            edit(&|v| v["history"] = vec!["J8-I8"].into()),
        ),
        (
            "history move 1",
            edit(&|v| v["history"] = vec!["T@I8"].into()),
        ),
        (
            "board_radius",
            edit(&|v| v["house_rules"] = serde_json::json!({"board_radius": 0})),
        ),
    ];
    for (want, got) in cases {
        assert!(got.contains(want), "expected {want:?} in {got:?}");
        assert!(!got.contains('\n'));
    }
    // Matching reserves are accepted.
    let mut v: serde_json::Value = serde_json::from_str(&ok).unwrap();
    v["reserves"] = serde_json::json!({"black": {"tile": 7, "disc": 5, "ring": 3}});
    assert!(HexaEquo::from_json(&v.to_string()).is_ok());
}

#[test]
fn history_is_checked_and_replayed() {
    let mut g = start();
    g.play("J8-I8").unwrap();
    g.play("H9-I9").unwrap();
    let v: serde_json::Value = serde_json::from_str(&g.to_json()).unwrap();
    assert_eq!(v["history"], serde_json::json!(["J8-I8", "H9-I9"]));
    let back = HexaEquo::from_json(&g.to_json()).unwrap();
    assert_eq!(back, g);
    // A history move that was not legal is refused: I8 to J9 is no step or jump.
    let mut v = v;
    v["history"] = serde_json::json!(["J9-I8", "H9-I9"]);
    assert!(HexaEquo::from_json(&v.to_string()).is_err());
}

// ---- move text -----------------------------------------------------------------------------

#[test]
fn move_text_is_read_leniently_and_errors_say_why() {
    let g = pos(
        "I8 J8 K8 H9 I9 J9 K9 I10",
        "H8 G10 J10 K10 H10",
        "bR I9, bD K8, wD K9, wR J10",
        "black",
        "",
    );
    let canon = |t: &str| g.move_text(&g.parse_move(t).unwrap());
    assert_eq!(canon("k8-k10-i10-i8"), "K8xK10xI10-I8");
    assert_eq!(canon("K8xI8"), "K8xK10xI10-I8"); // the only chain from K8 to I8
    assert_eq!(canon("K8-K10"), "K8xK10");
    assert_eq!(canon("K8-I10"), "K8xK10xI10"); // not a single jump (J9 is empty): shorthand
    assert_eq!(canon("t@g9"), "T@G9");
    assert_eq!(canon("disc@H9"), "D@H9");
    assert_eq!(canon("I9-K9"), "I9xK9");
    let syntax = [
        "",
        "pass!",
        "I8",
        "X@I8",
        "I8*K8",
        "Q4=Regent",
        "I8-I0",
        "hello",
        "D@I8-I9",
    ];
    for t in syntax {
        assert!(matches!(g.parse_move(t), Err(PlayError::Syntax(_))), "{t}");
    }
    let illegal = [
        ("pass", "no passing"),
        ("T@I8", "already holds a tile"),
        ("T@M8", "touches 0"),
        ("D@H8", "white tile"),
        ("D@I9", "not empty"),
        ("D@L8", "no tile"),
        ("R@I8", "holds none"),
        ("K9-L9", "white's"),
        ("J8-J9", "no piece"),
        ("M8-M9", "no tile on M8"),
        ("I9-I8xK9", "single leap"),
        ("I9-I8", "exactly two"),
        ("I9-I11", "no tile on I11"),
        ("I9-K8", "own side"),
        ("K8-L8", "no tile on L8"),
        ("K8-K9", "not empty"),
        ("K8-K10-I11", "not a jump"),
        ("K8-M8", "no tile on M8"),
        ("K8xK10xI10-I8-I10", "since its last capture"),
        ("K8xK10xI10xK10", "no piece on J10"),
    ];
    for (t, why) in illegal {
        let e = g.parse_move(t).unwrap_err();
        assert!(matches!(e, PlayError::Illegal(_)), "{t}: {e}");
        assert!(e.to_string().contains(why), "{t}: {e}");
    }
}

#[test]
fn an_ambiguous_shorthand_asks_for_the_path() {
    // Two ways from I8 to K10, taking different discs.
    let g = pos(
        "I8 J8 K8 K9",
        "K10 I9 I10 J10",
        "bD I8, wD J8, wD K9, wD I9, wD J10",
        "black",
        "",
    );
    let e = g.parse_move("I8xK10").unwrap_err();
    assert!(e.to_string().contains("write the whole path"), "{e}");
    assert_eq!(
        g.move_text(&g.parse_move("I8xK8xK10").unwrap()),
        "I8xK8xK10"
    );
    assert_eq!(
        g.move_text(&g.parse_move("I8xI10xK10").unwrap()),
        "I8xI10xK10"
    );
}

// ---- pictures and helpers ------------------------------------------------------------------

#[test]
fn show_draws_the_opening() {
    let want = "    I8  b:.. J8  b:bD\n\
                H9  w:wD I9  w:..\n\
                \n\
                black: in hand 7 tiles, 5 discs, 3 rings; holds 0 white discs, 0 white rings\n\
                white: in hand 7 tiles, 5 discs, 3 rings; holds 0 black discs, 0 black rings\n\
                black to move";
    assert_eq!(start().show(), want);
    let mut won = pos("I8 J8 K8", "H9 I9", "bD I8, wD J8", "black", "");
    won.play("I8xK8").unwrap();
    assert!(
        won.show()
            .ends_with("black wins: no white piece is left on the tiles")
    );
}

#[test]
fn renderer_helpers() {
    let g = start();
    let b = g.bounds().unwrap();
    assert_eq!((b.min_q, b.max_q, b.min_r, b.max_r), (-1, 1, 0, 1));
    assert_eq!((b.min_x, b.max_x), (-1, 2));
    assert_eq!(g.tiles().len(), 4);
    assert_eq!(g.pieces().count(), 2);
    let mut spots = g.tile_spots();
    spots.sort_unstable();
    let mut want: Vec<Hex> = ["H8", "H10", "J7", "J9"]
        .map(|c| parse_cell(c).unwrap())
        .to_vec();
    want.sort_unstable();
    assert_eq!(spots, want);
    assert_eq!(g.side_to_move(), Colour::Black);
    assert_eq!(g.seat_name(Seat(1)), "white");
}

#[test]
fn play_unchecked_never_panics_on_moves_from_elsewhere() {
    let mut g = start();
    for m in [
        Move::Jump {
            path: vec![],
            captured: vec![],
        },
        Move::Step {
            from: Hex::new(40, 40),
            to: Hex::ORIGIN,
        },
        Move::Place {
            kind: Kind::Ring,
            cell: Hex::new(5, 5),
        },
        Move::Leap {
            from: Hex::ORIGIN,
            to: Hex::new(9, 9),
            capture: true,
        },
    ] {
        g.play_unchecked(&m);
    }
    let _ = g.legal_moves();
}

// ---- cross-check with the naive model ------------------------------------------------------

/// Follow a fixed pseudo-random walk and compare, at every position, the engine's successors
/// with the naive model's.
#[test]
fn engine_agrees_with_the_naive_model() {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut positions = 0;
    for game in 0..12 {
        let mut g = start();
        for _ in 0..400 {
            let moves = g.legal_moves();
            let model = reference::State::from_json(&g.to_json());
            let want = if g.occurrences() >= 3 {
                Default::default()
            } else {
                model.successors()
            };
            let got: std::collections::BTreeSet<_> = moves
                .iter()
                .map(|m| {
                    let mut next = g.clone();
                    next.play_unchecked(m);
                    let start = m.from().map(|h| (h.q, h.r));
                    (start, reference::State::from_json(&next.to_json()))
                })
                .collect();
            assert_eq!(
                got.len(),
                moves.len(),
                "two moves, one result (game {game})"
            );
            assert!(got == want, "game {game}:\n{}", g.show());
            positions += 1;
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            g.play_unchecked(&moves[(seed % moves.len() as u64) as usize]);
        }
    }
    assert!(positions > 500, "{positions}");
}

#[test]
fn perft_agrees_with_the_naive_model() {
    let g = start();
    let model = reference::State::from_json(&g.to_json());
    for depth in 1..=4 {
        assert_eq!(
            g.perft(depth),
            reference::perft(&model, depth),
            "depth {depth}"
        );
    }
    let g = triangle();
    let model = reference::State::from_json(&g.to_json());
    assert_eq!(g.perft(2), reference::perft(&model, 2));
}

const MID: [&str; 3] = [
    include_str!("../../../tests/data/positions/hexaequo_mid1.json"),
    include_str!("../../../tests/data/positions/hexaequo_mid2.json"),
    include_str!("../../../tests/data/positions/hexaequo_mid3.json"),
];

/// The mid-game positions of `tests/data/perft_hexaequo.txt`, counted by both models.
#[test]
fn perft_data_positions_agree_with_the_naive_model() {
    for json in MID {
        let g = HexaEquo::from_json(json).unwrap();
        let model = reference::State::from_json(json);
        assert_eq!(g.perft(3), reference::perft(&model, 3));
    }
}

/// The deeper counts of `tests/data/perft_hexaequo.txt`, by the naive model (slow: run with
/// `cargo test --release -- --ignored naive_model_deep`).
#[test]
#[ignore]
fn naive_model_deep() {
    let start = reference::State::from_json(&start().to_json());
    let counts: Vec<u64> = (1..=6).map(|d| reference::perft(&start, d)).collect();
    assert_eq!(counts, [7, 51, 461, 4442, 48973, 563695]);
    let want = [
        [39, 728, 23633, 429285],
        [35, 892, 27233, 608802],
        [30, 259, 5648, 58162],
    ];
    for (json, want) in MID.iter().zip(want) {
        let model = reference::State::from_json(json);
        let counts: Vec<u64> = (1..=4).map(|d| reference::perft(&model, d)).collect();
        assert_eq!(counts, want);
    }
}
