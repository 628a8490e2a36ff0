//! Rule tests for HexDame: every test position of `docs/rules/hexdame.md` §7 (move lists or board
//! pictures), each house rule, the position JSON, move text, and the tables against the shared
//! geometry.

use super::board::{BACK_RANK, DIRS, NEIGHBOR, NONE, RAYS, XY, at};
use super::*;
use crate::games::{PieceText, PlayError};
use crate::hex::Direction;

/// A position from the spec's piece list, e.g. `"Wm e5, WK a1, Bm f6"`.
fn pos_with(pieces: &str, to_move: &str, house_rules: HouseRules) -> HexDame {
    let pieces = pieces
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (code, cell) = p.split_once(' ').unwrap();
            let owner = if code.starts_with('W') {
                "white"
            } else {
                "black"
            };
            let kind = if code.ends_with('K') { "king" } else { "man" };
            PieceText::new(cell, owner, kind)
        })
        .collect();
    HexDame::from_setup(Setup {
        game: "hexdame".into(),
        to_move: to_move.into(),
        pieces,
        reversible_moves: vec![],
        agreed_draw: false,
        house_rules,
        settled: None,
    })
    .unwrap()
}

fn pos(pieces: &str, to_move: &str) -> HexDame {
    pos_with(pieces, to_move, HouseRules::default())
}

fn start() -> HexDame {
    HexDame::new_game(2, HouseRules::default()).unwrap()
}

/// The legal moves must be exactly `expected` (space- or comma-separated, any order).
#[track_caller]
fn assert_moves(game: &HexDame, expected: &str) {
    let mut want: Vec<String> = expected
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    want.sort();
    assert_eq!(game.legal_move_texts(), want, "\n{}", game.show());
}

fn piece(game: &HexDame, cell: &str) -> Option<Piece> {
    game.piece_at(HexDame::geometry().parse(cell).unwrap())
}

fn man(colour: Colour) -> Option<Piece> {
    Some(Piece {
        colour,
        kind: Kind::Man,
    })
}

fn king(colour: Colour) -> Option<Piece> {
    Some(Piece {
        colour,
        kind: Kind::King,
    })
}

/// Read a board picture in the `show` layout: each token is a cell name followed by `W`, `B`,
/// `WK`, `BK`, `.` (empty) or `x` (empty, and a destination). Returns the position (White to
/// move) and the destination cells, sorted.
fn picture(text: &str) -> (HexDame, Vec<String>) {
    let mut pieces = Vec::new();
    let mut dests = Vec::new();
    for token in text.split_whitespace() {
        let (cell, code) = token.split_at(2);
        match code {
            "." => {}
            "x" => dests.push(cell.to_string()),
            "W" => pieces.push(format!("Wm {cell}")),
            "B" => pieces.push(format!("Bm {cell}")),
            "WK" => pieces.push(format!("WK {cell}")),
            "BK" => pieces.push(format!("BK {cell}")),
            _ => panic!("bad picture token {token}"),
        }
    }
    dests.sort();
    (pos(&pieces.join(","), "white"), dests)
}

/// The destinations of every legal move in a picture must be exactly the cells marked `x`.
#[track_caller]
fn assert_dests(text: &str) {
    let (game, want) = picture(text);
    let mut got: Vec<String> = game
        .legal_moves()
        .iter()
        .map(|m| HexDame::cell_name(m.to()).to_string())
        .collect();
    got.sort();
    assert_eq!(got, want, "\n{}", game.show());
}

// ---- the board ----

#[test]
fn board_has_61_cells_named_as_the_spec() {
    assert_eq!(XY.len(), 61);
    let g = HexDame::geometry();
    assert_eq!(g.len(), 61);
    assert_eq!(HexDame::cell_name(Cell(0)), "a1");
    assert_eq!(HexDame::cell_name(Cell(60)), "i9");
    for bad in ["a6", "e0", "e10", "i4", "j5", "a0"] {
        assert_eq!(g.parse(bad), None, "{bad}");
    }
    assert_eq!(g.parse("E5"), g.parse("e5"));
    // e5 is the centre, the origin of the shared coordinates.
    assert_eq!(g.hex(g.parse("e5").unwrap()), crate::hex::Hex::ORIGIN);
    // Cell numbers are in name order, which the canonical capture path relies on.
    let names: Vec<&str> = (0..61).map(|i| HexDame::cell_name(Cell(i))).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}

#[test]
fn tables_agree_with_the_shared_geometry() {
    let g = HexDame::geometry();
    for (i, &(x, y)) in XY.iter().enumerate() {
        for d in 0..6 {
            let step = g
                .step(Cell(i as u16), Direction::flat(d))
                .map(|c| c.0 as u8);
            let table = NEIGHBOR[i][d];
            assert_eq!(step, (table != NONE).then_some(table), "cell {i} dir {d}");
            let (dx, dy) = DIRS[d];
            assert_eq!(table, at(i32::from(x) + dx, i32::from(y) + dy));
            let ray: Vec<u8> = g
                .ray(Cell(i as u16), Direction::flat(d))
                .iter()
                .map(|c| c.0 as u8)
                .collect();
            assert_eq!(RAYS[i][d].as_slice(), ray.as_slice());
        }
    }
}

#[test]
fn back_ranks_are_two_edges_of_nine_cells() {
    let names = |c: Colour| -> Vec<&str> {
        HexDame::back_rank(c)
            .iter()
            .map(HexDame::cell_name)
            .collect()
    };
    assert_eq!(
        names(Colour::White),
        ["a1", "a2", "a3", "a4", "a5", "b1", "c1", "d1", "e1"]
    );
    assert_eq!(
        names(Colour::Black),
        ["e9", "f9", "g9", "h9", "i5", "i6", "i7", "i8", "i9"]
    );
    assert_eq!(BACK_RANK[0].count_ones() + BACK_RANK[1].count_ones(), 18);
}

#[test]
fn start_position_is_the_spec_picture() {
    let spec = &"
                i9B
            h9B     i8B
        g9B     h8B     i7B
    f9B     g8B     h7B     i6B
e9.     f8B     g7B     h6B     i5.
    e8.     f7B     g6B     h5.
d8.     e7.     f6B     g5.     h4.
    d7.     e6.     f5.     g4.
c7.     d6.     e5.     f4.     g3.
    c6.     d5.     e4.     f3.
b6.     c5.     d4W     e3.     f2.
    b5.     c4W     d3W     e2.
a5.     b4W     c3W     d2W     e1.
    a4W     b3W     c2W     d1W
        a3W     b2W     c1W
            a2W     b1W
                a1W
white to move"[1..];
    let game = start();
    assert_eq!(game.show(), spec);
    assert_eq!(game.pieces().count(), 32);
    assert_eq!(game.to_move(), Some(Seat(0)));
    assert_eq!(piece(&game, "d4"), man(Colour::White));
    assert_eq!(piece(&game, "f6"), man(Colour::Black));
    assert_eq!(piece(&game, "e5"), None);
}

// ---- docs/rules/hexdame.md §7 ----

#[test]
fn t1_initial_position_white_has_15_moves() {
    assert_moves(
        &start(),
        "a4-a5, a4-b5, b4-b5, b4-c5, c4-c5, c4-d5, d4-d5, d4-e4, d4-e5, d3-e3, d3-e4, d2-e2, \
         d2-e3, d1-e1, d1-e2",
    );
}

#[test]
fn t2_initial_position_black_to_move_has_15_moves() {
    let mut setup = start().to_setup();
    setup.to_move = "black".into();
    let game = HexDame::from_setup(setup).unwrap();
    assert_moves(
        &game,
        "f6-e5, f6-e6, f6-f5, f7-e6, f7-e7, f8-e7, f8-e8, f9-e8, f9-e9, g6-f5, g6-g5, h6-g5, \
         h6-h5, i6-h5, i6-i5",
    );
}

#[test]
fn t3_capture_is_compulsory() {
    let mut game = pos("Wm e5, Wm a1, Bm f6, Bm i9", "white");
    assert_moves(&game, "e5xg7");
    let err = game.parse_move("a1-a2").unwrap_err();
    assert!(
        matches!(&err, PlayError::Illegal(e) if e.reason.contains("compulsory")),
        "{err}"
    );
    game.play("e5xg7").unwrap();
    assert_eq!(piece(&game, "f6"), None);
    assert_eq!(piece(&game, "g7"), man(Colour::White));
}

#[test]
fn t4_men_capture_backwards() {
    assert_moves(&pos("Wm e5, Bm d4, Bm i9", "white"), "e5xc3");
}

#[test]
fn t5_majority_rule() {
    let game = pos("Wm c3, Wm a3, Bm d4, Bm f5, Bm a4", "white");
    assert_moves(&game, "c3xe5xg5");
    let err = game.parse_move("a3xa5").unwrap_err();
    assert!(
        matches!(&err, PlayError::Illegal(e) if e.reason.contains("majority")),
        "{err}"
    );
}

#[test]
fn t6_lone_king_mobility() {
    assert_dests(
        "
                i9x
            h9.     i8.
        g9.     h8x     i7.
    f9.     g8.     h7.     i6.
e9x     f8.     g7x     h6.     i5x
    e8x     f7.     g6.     h5x
d8.     e7x     f6x     g5x     h4.
    d7.     e6x     f5x     g4.
c7.     d6.     e5WK    f4.     g3.
    c6.     d5x     e4x     f3.
b6.     c5x     d4x     e3x     f2.
    b5x     c4.     d3.     e2x
a5x     b4.     c3x     d2.     e1x
    a4.     b3B     c2.     d1.
        a3.     b2x     c1.
            a2.     b1.
                a1x",
    );
    assert_eq!(pos("WK e5, Bm b3", "white").legal_moves().len(), 24);
}

#[test]
fn t7_king_capture_chooses_its_landing() {
    assert_moves(&pos("WK e5, Bm e7, Bm i5", "white"), "e5xe8 e5xe9");
}

#[test]
fn t8_promotion_by_a_quiet_move() {
    let game = pos("Wm g8, Bm a1", "white");
    assert_moves(&game, "g8-h8 g8-g9 g8-h9");
    for (mv, kind) in [
        ("g8-h8", Kind::Man),
        ("g8-g9", Kind::King),
        ("g8-h9", Kind::King),
    ] {
        let mut g = game.clone();
        let m = g.play(mv).unwrap();
        assert_eq!(m.promotes(), kind == Kind::King);
        let to = &mv[3..];
        assert_eq!(
            piece(&g, to),
            Some(Piece {
                colour: Colour::White,
                kind
            }),
            "{mv}"
        );
    }
    // `=K` is accepted on a promoting move only.
    assert!(game.parse_move("g8-g9=K").is_ok());
    assert!(matches!(
        game.parse_move("g8-h8=K"),
        Err(PlayError::Illegal(_))
    ));
}

#[test]
fn t9_passing_the_back_rank_does_not_promote() {
    let mut game = pos("Wm g7, Bm g8, Bm f8, Bm a1", "white");
    assert_moves(&game, "g7xg9xe7");
    game.play("g7xg9xe7").unwrap();
    assert_eq!(piece(&game, "e7"), man(Colour::White));
    assert_eq!(piece(&game, "g8"), None);
    assert_eq!(piece(&game, "f8"), None);
}

#[test]
fn t10_capture_ending_on_the_back_rank_promotes() {
    let mut game = pos("Bm c3, Wm b2", "black");
    assert_moves(&game, "c3xa1");
    game.play("c3xa1").unwrap();
    assert_eq!(piece(&game, "a1"), king(Colour::Black));
    assert_eq!(game.pieces().count(), 1);
}

#[test]
fn t11_cycle_to_the_start_and_move_identity() {
    let game = pos("Wm e5, Bm e6, Bm f6, Bm f7", "white");
    // One move; its text is the lesser path in name order.
    assert_moves(&game, "e5xe7xg7xe5");
    let m = game.legal_moves()[0];
    assert_eq!(m.capture_count(), 3);
    assert_eq!(m.from(), m.to());
    // Either path, or just from and to, names that move.
    for text in ["e5xe7xg7xe5", "e5xg7xe7xe5", "e5xe5", "E5:G7:E7:E5"] {
        assert_eq!(game.parse_move(text).unwrap(), m, "{text}");
    }
    let mut after = game.clone();
    after.play("e5xg7xe7xe5").unwrap();
    assert_eq!(
        after.pieces().collect::<Vec<_>>(),
        [(
            HexDame::geometry().parse("e5").unwrap(),
            man(Colour::White).unwrap()
        )]
    );
}

#[test]
fn t12_king_must_land_where_the_capture_goes_on() {
    let game = pos("WK a1, Bm c3, Bm d6", "white");
    assert_moves(&game, "a1xd4xd7 a1xd4xd8 a1xf6xc6 a1xf6xb6");
    let err = game.parse_move("a1xe5").unwrap_err();
    assert!(
        matches!(&err, PlayError::Illegal(e) if e.reason.contains("majority")),
        "{err}"
    );
}

#[test]
fn t13_captured_pieces_block_until_the_move_ends() {
    let game = pos("WK e5, Bm e6, Bm f8, Bm b3", "white");
    assert_moves(&game, "e5xe7xg9 e5xe8xg8 e5xe8xh8 e5xe8xi8");
    assert!(game.legal_moves().iter().all(|m| m.capture_count() == 2));
    // The three-piece line through the not yet removed e6 is refused.
    assert!(game.parse_move("e5xe8xg8xa2").is_err());
}

#[test]
fn t14_blocked_side_loses() {
    let game = pos("Wm e1, Bm e2, Bm f2, Bm e3, Bm g3", "white");
    assert_moves(&game, "");
    assert_eq!(game.to_move(), None);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winners: vec![Seat(1)],
            reason: "white has no legal move".into()
        })
    );
    assert!(game.show().ends_with("black wins: white has no legal move"));
    let err = game.parse_move("e1-f2").unwrap_err();
    assert!(
        matches!(&err, PlayError::Illegal(e) if e.reason.contains("over")),
        "{err}"
    );
}

/// T15 as the spec writes it. After a1-b2 White's king stands on the central column with a1
/// empty behind it, so Black's king on i9 must capture it (i9xa1): the sequence breaks at move 2.
const T15_SPEC: [&str; 8] = [
    "a1-b2", "i9-h8", "b2-a1", "h8-i9", "a1-b2", "i9-h8", "b2-a1", "h8-i9",
];

/// T15 with the kings shuffling off each other's lines, which is what the test means: the
/// position "WK a1, BK i9, White to move" occurs at the start, after move 4 and after move 8.
const T15: [&str; 8] = [
    "a1-a2", "i9-i8", "a2-a1", "i8-i9", "a1-a2", "i9-i8", "a2-a1", "i8-i9",
];

#[test]
fn t15_as_written_breaks_on_a_compulsory_capture() {
    let mut game = pos("WK a1, BK i9", "white");
    game.play(T15_SPEC[0]).unwrap();
    assert_moves(&game, "i9xa1");
    let err = game.parse_move(T15_SPEC[1]).unwrap_err();
    assert!(
        matches!(&err, PlayError::Illegal(e) if e.reason.contains("compulsory")),
        "{err}"
    );
}

#[test]
fn t15_threefold_repetition_draws() {
    let mut game = pos("WK a1, BK i9", "white");
    assert_eq!(game.repetition_count(), 1);
    for (i, mv) in T15.iter().enumerate() {
        assert_eq!(game.outcome(), None, "before move {}", i + 1);
        game.play(mv).unwrap();
        // Every position recurs four plies later: once more from move 5 on, twice at move 8.
        let expected = match i + 1 {
            1..=3 => 1,
            4..=7 => 2,
            _ => 3,
        };
        assert_eq!(game.repetition_count(), expected, "after move {}", i + 1);
    }
    assert_eq!(game.draw_reason(), Some(DrawReason::Repetition));
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            seats: vec![Seat(0), Seat(1)],
            reason: "threefold repetition".into()
        })
    );
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.to_move(), None);
    assert_eq!(game.perft(1), 0);
    assert!(game.show().ends_with("draw: threefold repetition"));
}

// ---- house rules: each switch changes the game ----

#[test]
fn house_rule_threefold_repetition_off() {
    let house = HouseRules {
        threefold_repetition: false,
        ..HouseRules::default()
    };
    let mut game = pos_with("WK a1, BK i9", "white", house);
    for mv in T15 {
        game.play(mv).unwrap();
    }
    assert_eq!(game.repetition_count(), 3);
    assert_eq!(game.outcome(), None);
    assert!(!game.legal_moves().is_empty());
}

#[test]
fn house_rule_distinct_capture_paths() {
    let house = HouseRules {
        distinct_capture_paths: true,
        ..HouseRules::default()
    };
    let game = pos_with("Wm e5, Bm e6, Bm f6, Bm f7", "white", house);
    assert_moves(&game, "e5xe7xg7xe5 e5xg7xe7xe5");
    // Now from-to alone is ambiguous.
    let err = game.parse_move("e5xe5").unwrap_err();
    assert!(
        matches!(&err, PlayError::Illegal(e) if e.reason.contains("whole path")),
        "{err}"
    );
    assert_eq!(game.perft(1), 2);
}

#[test]
fn house_rule_king_move_limit() {
    let house = HouseRules {
        king_move_limit: Some(2),
        ..HouseRules::default()
    };
    let base = "WK a1, BK i9, Wm d1";
    let mut game = pos_with(base, "white", house.clone());
    for mv in &T15[..3] {
        game.play(mv).unwrap();
        assert_eq!(game.outcome(), None);
    }
    assert_eq!(game.reversible_plies(), 3);
    game.play(T15[3]).unwrap();
    assert_eq!(game.repetition_count(), 2);
    assert_eq!(game.draw_reason(), Some(DrawReason::KingMoveLimit));
    assert!(matches!(game.outcome(), Some(Outcome::Draw { .. })));
    // A man move restarts the count.
    let mut game = pos_with(base, "white", house);
    for mv in ["a1-a2", "i9-i8", "d1-d2", "i8-i9", "a2-a1", "i9-i8"] {
        game.play(mv).unwrap();
    }
    assert_eq!(game.reversible_plies(), 3);
    assert_eq!(game.outcome(), None);
    // Without the house rule there is no limit.
    let mut plain = pos(base, "white");
    for mv in &T15[..4] {
        plain.play(mv).unwrap();
    }
    assert_eq!(plain.outcome(), None);
}

#[test]
fn house_rules_json_is_partial_and_strict() {
    let h: HouseRules = serde_json::from_str(r#"{"king_move_limit": 50}"#).unwrap();
    assert_eq!(h.king_move_limit, Some(50));
    assert!(h.threefold_repetition);
    assert!(serde_json::from_str::<HouseRules>(r#"{"flying_men": true}"#).is_err());
    let zero = HouseRules {
        king_move_limit: Some(0),
        ..HouseRules::default()
    };
    assert!(HexDame::new_game(2, zero).is_err());
    assert!(HexDame::new_game(3, HouseRules::default()).is_err());
}

// ---- draws by agreement, JSON and history ----

#[test]
fn draw_by_agreement_is_recorded_and_survives_json() {
    let mut game = start();
    game.agree_draw().unwrap();
    assert_eq!(game.draw_reason(), Some(DrawReason::Agreement));
    assert!(game.legal_moves().is_empty());
    let json = game.to_json();
    assert!(json.contains("\"agreed_draw\": true"), "{json}");
    let back = HexDame::from_json(&json).unwrap();
    assert_eq!(back.draw_reason(), Some(DrawReason::Agreement));
    assert!(game.agree_draw().is_err());
    let lost = pos("Wm e1, Bm e2, Bm f2, Bm e3, Bm g3", "white");
    let mut setup = lost.to_setup();
    setup.agreed_draw = true;
    assert!(HexDame::from_setup(setup).is_err());
}

#[test]
fn repetition_history_survives_json() {
    let mut game = pos("WK a1, BK i9", "white");
    for mv in &T15[..6] {
        game.play(mv).unwrap();
    }
    let json = game.to_json();
    assert!(json.contains("reversible_moves"), "{json}");
    let mut back = HexDame::from_json(&json).unwrap();
    assert_eq!(back.to_json(), json);
    assert_eq!(back.repetition_count(), game.repetition_count());
    for mv in &T15[6..] {
        back.play(mv).unwrap();
    }
    assert_eq!(back.draw_reason(), Some(DrawReason::Repetition));
    // A man move or a capture ends the window: nothing to carry.
    let mut g = pos("WK a1, BK i9, Wm d1", "white");
    g.play("a1-a2").unwrap();
    g.play("i9-i8").unwrap();
    assert_eq!(g.to_setup().reversible_moves, ["a1-a2", "i9-i8"]);
    g.play("d1-d2").unwrap();
    assert!(g.to_setup().reversible_moves.is_empty());
}

#[test]
fn reversible_moves_are_checked() {
    let base = pos("WK a2, BK i8, Bm c5", "white").to_setup();
    let with = |moves: &[&str]| {
        let mut s = base.clone();
        s.reversible_moves = moves.iter().map(|m| m.to_string()).collect();
        HexDame::from_setup(s)
    };
    // a2 came from a1 and i8 from i9.
    let game = with(&["a1-a2", "i9-i8"]).unwrap();
    assert_eq!(game.reversible_plies(), 2);
    for (moves, why) in [
        (&["c3-c4"][..], "black king on c4"), // nothing on c4
        (&["a1-a2"][..], "black king on a2"), // the last move was Black's
        (&["e5-i8"][..], "open line"),        // not a line
        (&["i9-i8", "xx"][..], "from-to"),
        (&["i9xi8"][..], "from-to"),
        (&["i9-z8"][..], "from-to"),
    ] {
        let err = with(moves).unwrap_err().to_string();
        assert!(err.contains(why), "{moves:?}: {err}");
    }
    // From a3 White's king could take c5 (a3-b4-c5-d6 is a column), so a3-a2 was illegal.
    let err = with(&["a3-a2", "i9-i8"]).unwrap_err().to_string();
    assert!(err.contains("compulsory"), "{err}");
}

#[test]
fn position_json_round_trips_and_errors_are_clear() {
    let game = start();
    let json = game.to_json();
    let back = HexDame::from_json(&json).unwrap();
    assert_eq!(back.to_json(), json);
    assert_eq!(back.legal_move_texts(), game.legal_move_texts());
    let cases = [
        (
            r#"{"game":"heximeros","to_move":"white","pieces":[]}"#,
            "heximeros",
        ),
        (r#"{"game":"hexdame","to_move":"red","pieces":[]}"#, "red"),
        (
            r#"{"game":"hexdame","to_move":"white","pieces":[{"cell":"a6","owner":"white","kind":"man"}]}"#,
            "a6",
        ),
        (
            r#"{"game":"hexdame","to_move":"white","pieces":[{"cell":"a1","owner":"blue","kind":"man"}]}"#,
            "blue",
        ),
        (
            r#"{"game":"hexdame","to_move":"white","pieces":[{"cell":"a1","owner":"white","kind":"queen"}]}"#,
            "queen",
        ),
        (
            r#"{"game":"hexdame","to_move":"white","pieces":[{"cell":"a1","owner":"white","kind":"man"},{"cell":"A1","owner":"black","kind":"man"}]}"#,
            "two pieces on a1",
        ),
        (
            r#"{"game":"hexdame","to_move":"white","pieces":[{"cell":"a1","owner":"white","kind":"man","moved":true}]}"#,
            "moved",
        ),
        (
            r#"{"game":"hexdame","to_move":"white","pieces":[],"colour":"x"}"#,
            "unknown field",
        ),
        (
            r#"{"game":"hexdame","to_move":"white","pieces":[],"house_rules":{"king_move_limit":0}}"#,
            "at least 1",
        ),
        ("[1,2", "malformed"),
    ];
    for (json, why) in cases {
        let err = HexDame::from_json(json).unwrap_err().to_string();
        assert!(err.contains(why), "{json}: {err}");
        assert!(!err.contains('\n'));
    }
    // More than 16 pieces a side.
    let mut setup = start().to_setup();
    for c in ["e1", "e2"] {
        setup.pieces.push(PieceText::new(c, "white", "man"));
    }
    let err = HexDame::from_setup(setup).unwrap_err().to_string();
    assert!(err.contains("at most 16"), "{err}");
}

// ---- move text ----

#[test]
fn move_text_errors_say_syntax_or_rule() {
    let game = start();
    for bad in [
        "",
        "d4",
        "d4-e5-f6",
        "d4xe5-f6",
        "j4-j5",
        "d4-a9",
        "N@d4",
        "d4*e5",
        "d4-e5+black",
        "resign",
        "d4-e5=Q",
    ] {
        assert!(
            matches!(game.parse_move(bad), Err(PlayError::Syntax(_))),
            "{bad:?}: {:?}",
            game.parse_move(bad)
        );
    }
    for (bad, why) in [
        ("pass", "pass"),
        ("e5-e6", "no piece"),
        ("f6-e5", "black's"),
        ("d4-d6", "forward"),
        ("d3-d4", "not empty"),
        ("d4xf6", "nothing to capture"),
    ] {
        match game.parse_move(bad) {
            Err(PlayError::Illegal(e)) => assert!(e.reason.contains(why), "{bad}: {}", e.reason),
            other => panic!("{bad}: {other:?}"),
        }
    }
    // Case and ':' are accepted; the canonical text is lower case with x.
    let g = pos("Wm e5, Bm f6, Bm i9", "white");
    let m = g.parse_move("E5:G7").unwrap();
    assert_eq!(g.move_text(&m), "e5xg7");
    // A capture stopped short is told to go on.
    let g = pos("Wm g7, Bm g8, Bm f8, Bm a1", "white");
    match g.parse_move("g7xg9") {
        Err(PlayError::Illegal(e)) => assert!(e.reason.contains("go on from g9"), "{}", e.reason),
        other => panic!("{other:?}"),
    }
    // From and to alone name the capture when only one goes there.
    assert_eq!(g.move_text(&g.parse_move("g7xe7").unwrap()), "g7xg9xe7");
    match g.parse_move("g7xe9") {
        Err(PlayError::Illegal(e)) => assert!(e.reason.contains("cannot capture"), "{}", e.reason),
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_legal_move_text_round_trips() {
    for game in [
        start(),
        pos("WK a1, Bm c3, Bm d6", "white"),
        pos("Wm e5, Bm e6, Bm f6, Bm f7", "white"),
        pos("WK e5, Bm e6, Bm f8, Bm b3", "white"),
    ] {
        for m in game.legal_moves() {
            let text = game.move_text(&m);
            assert_eq!(game.parse_move(&text).unwrap(), m, "{text}");
        }
    }
}

#[test]
fn perft_in_place_matches_the_cloning_count() {
    // The trait's default perft clones per node; the override makes and unmakes.
    fn slow(game: &HexDame, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        game.legal_moves()
            .iter()
            .map(|m| {
                let mut g = game.clone();
                g.play_unchecked(m);
                slow(&g, depth - 1)
            })
            .sum()
    }
    for game in [start(), pos("WK a1, BK i9, Wm c3, Bm g7", "white")] {
        for depth in 1..=3 {
            assert_eq!(game.perft(depth), slow(&game, depth));
        }
    }
    // Repetition inside the tree ends a branch: a lone king each shuffling.
    let game = pos("WK a1, BK i9", "white");
    assert_eq!(game.perft(5), slow(&game, 5));
}
