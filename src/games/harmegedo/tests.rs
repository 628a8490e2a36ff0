//! Tests of the Harmegedo engine: every §7 position of `docs/rules/harmegedo.md`, each house rule,
//! position JSON, move text, and a cross-check against an independent, deliberately naive move
//! generator written straight from the spec's coordinates.

use std::collections::{BTreeSet, HashMap, HashSet};

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::games::PieceText;

// ---------------------------------------------------------------- helpers

/// A position in §7's notation (`0N'@0.e4`: kingdom, piece letter, `'` if moved, `@`, space).
/// `kingdoms` are in play; those without a king among the pieces are eliminated. Kingdom 0 moves.
fn spec_position_with(pieces: &str, kingdoms: &[u8], house: HouseRules) -> Harmegedo {
    let mut list = Vec::new();
    let mut kings = HashSet::new();
    for token in pieces.split_whitespace() {
        let (piece, cell) = token.split_once('@').unwrap();
        let k: u8 = piece[..1].parse().unwrap();
        let kind = Kind::parse(&piece[1..2]).unwrap();
        if kind == Kind::King {
            kings.insert(k);
        }
        list.push(PieceText {
            moved: piece.ends_with('\''),
            ..PieceText::new(cell, KINGDOM_NAMES[k as usize], kind.name())
        });
    }
    let name = |k: &u8| KINGDOM_NAMES[*k as usize].to_string();
    Harmegedo::from_setup(Setup {
        game: "harmegedo".into(),
        kingdoms: kingdoms.iter().map(name).collect(),
        to_move: "kingdom0".into(),
        eliminated: kingdoms
            .iter()
            .filter(|k| !kings.contains(k))
            .map(name)
            .collect(),
        pieces: list,
        en_passant: None,
        quiet_turns: 0,
        history: Vec::new(),
        house_rules: house,
        settled: None,
    })
    .unwrap()
}

fn spec_position(pieces: &str, kingdoms: &[u8]) -> Harmegedo {
    spec_position_with(pieces, kingdoms, HouseRules::default())
}

fn texts(g: &Harmegedo) -> Vec<String> {
    g.legal_move_texts()
}

fn moves_from(g: &Harmegedo, from: &str) -> Vec<String> {
    let prefix = format!("{from}-");
    let capture = format!("{from}x");
    texts(g)
        .into_iter()
        .filter(|t| t.starts_with(&prefix) || t.starts_with(&capture))
        .collect()
}

/// Sector 0 as a picture, inner rim at the top: `x` marks where the piece on `from` may go,
/// other pieces show their letter, `.` is empty, void spaces are blank.
fn picture(g: &Harmegedo, from: &str) -> String {
    let b = g.board();
    let f = b.parse(from).unwrap();
    let dests: HashSet<Cell> = g
        .legal_moves()
        .iter()
        .filter(|m| m.from() == Some(f))
        .filter_map(|m| m.to())
        .collect();
    let mut s = String::new();
    for rank in (1..=8).rev() {
        let mut line = format!("{rank}");
        for x in 0..11 {
            let ch = match b.cell_at(0, x, rank) {
                None => ' ',
                Some(c) if dests.contains(&c) => 'x',
                Some(c) => g.piece_at(c).map_or('.', |p| p.kind.letter()),
            };
            line.push(' ');
            line.push(ch);
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s.push_str("a b c d e f g h i j k");
    s
}

#[track_caller]
fn assert_dests(g: &Harmegedo, from: &str, expected: &str) {
    let got = picture(g, from);
    let want: Vec<&str> = expected.trim().lines().map(str::trim).collect();
    let have: Vec<&str> = got.lines().map(str::trim).collect();
    assert_eq!(have, want, "\ngot:\n{got}");
}

fn play(g: &mut Harmegedo, text: &str) {
    if let Err(e) = g.play(text) {
        panic!("{text}: {e}\n{}", g.show());
    }
}

// ---------------------------------------------------------------- §7 test positions

#[test]
fn hg1_initial_position_24_moves() {
    let g = Harmegedo::new_game(6, HouseRules::default()).unwrap();
    assert_eq!(g.board().len(), 504);
    assert_eq!(g.pieces().count(), 6 * 18);
    let t = texts(&g);
    assert_eq!(t.len(), 24);
    for m in [
        "0.a2-0.a3",
        "0.i2-0.i4",
        "0.b1-0.a3",
        "0.b1-0.c3",
        "0.h1-0.g3",
        "0.h1-0.i3",
        "0.c1-0.b1",
        "0.g1-0.h1",
    ] {
        assert!(t.contains(&m.to_string()), "{m}");
    }
    assert_eq!(
        t.iter()
            .filter(|m| m.starts_with("0.") && m.len() == 9)
            .count(),
        24
    );
    // Each kingdom's bishops share a colour: light for 0, 2, 4; dark for 1, 3, 5.
    let b = g.board();
    for (c, p) in g.pieces() {
        if p.kind == Kind::Bishop {
            assert_eq!(b.is_light(c), p.kingdom % 2 == 0);
        }
    }
}

#[test]
fn hg2_knight_in_open_field() {
    let g = spec_position("0N'@0.e4 0K'@0.a1 3K@3.e1", &[0, 3]);
    assert_eq!(g.legal_moves().len(), 11);
    assert_dests(
        &g,
        "0.e4",
        "
        8 . . . . . . . . . . .
        7 . . . . . . . . . . .
        6 . . . x . x . . . . .
        5 . . x . . . x . . . .
        4 . . . . N . . . . . .
        3 . . x . . . x . . . .
        2 . . . x . x . . .
        1 K . . . . . . . .
        a b c d e f g h i j k",
    );
    assert_eq!(
        moves_from(&g, "0.a1"),
        ["0.a1-0.a2", "0.a1-0.b1", "0.a1-0.b2"]
    );
}

#[test]
fn hg3_queen_with_own_blockers() {
    let g = spec_position("0Q'@0.e4 0P'@0.b4 0P'@0.h4 0K'@0.a1 3K@3.e1", &[0, 3]);
    assert_eq!(g.legal_moves().len(), 30);
    assert_dests(
        &g,
        "0.e4",
        "
        8 x . . . x . . . x . .
        7 . x . . x . . x . . .
        6 . . x . x . x . . . .
        5 . . . x x x . . . . .
        4 . P x x Q x x P . . .
        3 . . . x x x . . . . .
        2 . . x . x . x . .
        1 K x . . x . . x .
        a b c d e f g h i j k",
    );
    assert_eq!(moves_from(&g, "0.b4"), ["0.b4-0.b5"]);
    assert_eq!(moves_from(&g, "0.h4"), ["0.h4-0.h5"]);
}

#[test]
fn hg4_pawn_double_step_blocked() {
    let g = spec_position("0P@0.e2 1N'@0.e4 0K@0.a1 3K@3.e1", &[0, 1, 3]);
    assert_eq!(moves_from(&g, "0.e2"), ["0.e2-0.e3"]);
    assert_eq!(g.legal_moves().len(), 4);
    let g = spec_position("0P@0.e2 1N'@0.e3 0K@0.a1 3K@3.e1", &[0, 1, 3]);
    assert!(moves_from(&g, "0.e2").is_empty());
    assert_eq!(g.legal_moves().len(), 3);
    // Unblocked, the unmoved pawn has both steps.
    let g = spec_position("0P@0.e2 0K@0.a1 3K@3.e1", &[0, 3]);
    assert_eq!(moves_from(&g, "0.e2"), ["0.e2-0.e3", "0.e2-0.e4"]);
}

#[test]
fn hg5_pawn_captures_diagonally_only() {
    let g = spec_position(
        "0P@0.e2 1N'@0.d3 2P'@0.f3 0P'@0.e3 1B'@0.e4 0K'@0.a1 3K@3.e1",
        &[0, 1, 2, 3],
    );
    assert_eq!(moves_from(&g, "0.e2"), ["0.e2x0.d3", "0.e2x0.f3"]);
    assert!(moves_from(&g, "0.e3").is_empty());
    assert_eq!(g.legal_moves().len(), 5);
}

#[test]
fn hg6_castling_both_sides() {
    let pawns: String = "abcdefghi".chars().map(|f| format!("0P@0.{f}2 ")).collect();
    let g = spec_position(&format!("0K@0.e1 0R@0.a1 0R@0.i1 {pawns} 3K@3.e1"), &[0, 3]);
    assert_eq!(g.legal_moves().len(), 28);
    assert_eq!(
        moves_from(&g, "0.e1"),
        ["0.e1-0.c1", "0.e1-0.d1", "0.e1-0.f1", "0.e1-0.g1"]
    );
    assert_eq!(
        moves_from(&g, "0.a1"),
        ["0.a1-0.b1", "0.a1-0.c1", "0.a1-0.d1"]
    );
    assert_eq!(
        moves_from(&g, "0.i1"),
        ["0.i1-0.f1", "0.i1-0.g1", "0.i1-0.h1"]
    );
    let mut left = g.clone();
    play(&mut left, "0.e1-0.c1");
    let b = g.board();
    let at = |g: &Harmegedo, n: &str| g.piece_at(b.parse(n).unwrap());
    assert_eq!(
        at(&left, "0.c1").map(|p| (p.kind, p.moved)),
        Some((Kind::King, true))
    );
    assert_eq!(
        at(&left, "0.d1").map(|p| (p.kind, p.moved)),
        Some((Kind::Rook, true))
    );
    assert_eq!(at(&left, "0.a1"), None);
    assert_eq!(at(&left, "0.e1"), None);
    let mut right = g.clone();
    play(&mut right, "0.e1-0.g1");
    assert_eq!(at(&right, "0.g1").map(|p| p.kind), Some(Kind::King));
    assert_eq!(at(&right, "0.f1").map(|p| p.kind), Some(Kind::Rook));
    // Once the king has moved (even back home) there is no castling.
    let g = spec_position(
        &format!("0K'@0.e1 0R@0.a1 0R@0.i1 {pawns} 3K@3.e1"),
        &[0, 3],
    );
    assert_eq!(moves_from(&g, "0.e1"), ["0.e1-0.d1", "0.e1-0.f1"]);
    // Nor towards a moved rook, nor past a piece.
    let g = spec_position(
        &format!("0K@0.e1 0R'@0.a1 0R@0.i1 0N'@0.h1 {pawns} 3K@3.e1"),
        &[0, 3],
    );
    assert_eq!(moves_from(&g, "0.e1"), ["0.e1-0.d1", "0.e1-0.f1"]);
}

#[test]
fn hg7_manoeuvre_needs_both_pieces_unmoved() {
    let pawns: String = "abcdefghi".chars().map(|f| format!("0P@0.{f}2 ")).collect();
    let g = spec_position(
        &format!("0K@0.e1 0B@0.c1 0N'@0.b1 0B@0.g1 0N@0.h1 {pawns} 3K@3.e1"),
        &[0, 3],
    );
    assert_eq!(g.legal_moves().len(), 25);
    assert_eq!(moves_from(&g, "0.c1"), Vec::<String>::new());
    assert_eq!(moves_from(&g, "0.g1"), ["0.g1-0.h1"]);
    assert_eq!(moves_from(&g, "0.b1"), ["0.b1-0.a3", "0.b1-0.c3"]);
    assert_eq!(moves_from(&g, "0.e1"), ["0.e1-0.d1", "0.e1-0.f1"]);
    // The swap, written from either piece, leaves both moved.
    let mut s = g.clone();
    assert_eq!(
        s.play("0.h1-0.g1").map(|m| g.move_text(&m)),
        Ok("0.g1-0.h1".into())
    );
    let b = g.board();
    let at = |n: &str| s.piece_at(b.parse(n).unwrap()).unwrap();
    assert_eq!((at("0.h1").kind, at("0.h1").moved), (Kind::Bishop, true));
    assert_eq!((at("0.g1").kind, at("0.g1").moved), (Kind::Knight, true));
    assert!(b.is_light(b.parse("0.g1").unwrap()) && !b.is_light(b.parse("0.h1").unwrap()));
    let err = g.parse_move("0.c1-0.b1").unwrap_err().to_string();
    assert!(err.contains("unmoved"), "{err}");
}

#[test]
fn hg8_promotion() {
    let g = spec_position("0P'@0.e7 1R'@0.d8 0K'@0.a1 3K@3.e1", &[0, 1, 3]);
    assert_eq!(
        moves_from(&g, "0.e7"),
        [
            "0.e7-0.e8=B",
            "0.e7-0.e8=N",
            "0.e7-0.e8=Q",
            "0.e7-0.e8=R",
            "0.e7x0.d8=B",
            "0.e7x0.d8=N",
            "0.e7x0.d8=Q",
            "0.e7x0.d8=R"
        ]
    );
    assert_eq!(g.legal_moves().len(), 11);
    let mut p = g.clone();
    play(&mut p, "0.e7x0.d8=N");
    let piece = p.piece_at(g.board().parse("0.d8").unwrap()).unwrap();
    assert_eq!((piece.kingdom, piece.kind), (0, Kind::Knight));
    let err = g.parse_move("0.e7-0.e8").unwrap_err();
    assert!(
        matches!(err, PlayError::Illegal(_)) && err.to_string().contains("=Q"),
        "{err}"
    );
}

#[test]
fn hg9_king_capture_and_elimination() {
    let mut g = spec_position("0R'@0.e5 1K'@0.e8 1P'@0.a7 3K@3.e1 0K'@0.a1", &[0, 1, 3]);
    let b = g.board();
    play(&mut g, "0.e5x0.e8");
    assert!(g.is_eliminated(1));
    assert_eq!(g.to_move_kingdom(), 3);
    assert_eq!(g.outcome(), None);
    let pawn = g.piece_at(b.parse("0.a7").unwrap()).unwrap();
    assert_eq!((pawn.kingdom, pawn.kind), (1, Kind::Pawn));
    // Kingdom 1 is skipped from now on.
    play(&mut g, "3.e1-3.e2");
    assert_eq!(g.to_move_kingdom(), 0);
    play(&mut g, "0.e8-0.e7");
    assert_eq!(g.to_move_kingdom(), 3);
    play(&mut g, "3.e2-3.e1");
    // The neutral pawn is anyone's to take; it never moves itself.
    assert!(texts(&g).contains(&"0.e7x0.a7".to_string()));
    // The rook reaches 3.e7 along rank 7, either way round (one move), and takes the last king.
    assert_eq!(
        texts(&g)
            .iter()
            .filter(|t| t.as_str() == "0.e7-3.e7")
            .count(),
        1
    );
    play(&mut g, "0.e7-3.e7");
    play(&mut g, "3.e1-3.e2");
    play(&mut g, "3.e7x3.e2");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winners: vec![Seat(0)],
            reason: "last king standing".into()
        })
    );
    assert_eq!(g.to_move(), None);
    assert!(g.legal_moves().is_empty());
    let err = g.parse_move("pass").unwrap_err().to_string();
    assert!(err.contains("over"), "{err}");
    // The neutral pawn is still there.
    assert!(g.piece_at(b.parse("0.a7").unwrap()).is_some());
}

#[test]
fn hg10_wrap_around_rook() {
    let g = spec_position("0R'@0.e3 0K'@0.a1 3K@3.e1", &[0, 3]);
    assert_eq!(g.legal_moves().len(), 75);
    let rook = moves_from(&g, "0.e3");
    assert_eq!(rook.len(), 72);
    let set: HashSet<&String> = rook.iter().collect();
    assert_eq!(set.len(), 72, "each space once");
    for m in [
        "0.e3-5.k3",
        "0.e3-3.e3",
        "0.e3-0.f3",
        "0.e3-0.e8",
        "0.e3-0.e1",
    ] {
        assert!(set.contains(&m.to_string()), "{m}");
    }
    // A piece on the same rank: captured from one side, the spaces beyond reached from the other.
    let g = spec_position("0R'@0.e3 0K'@0.a1 3K@3.e1 4N'@4.e3", &[0, 3, 4]);
    assert_eq!(g.legal_moves().len(), 75);
    let rook = moves_from(&g, "0.e3");
    assert!(rook.contains(&"0.e3x4.e3".to_string()));
    assert!(rook.contains(&"0.e3-4.f3".to_string()) && rook.contains(&"0.e3-4.d3".to_string()));
    assert_eq!(rook.iter().collect::<HashSet<_>>().len(), 72);
}

// ---------------------------------------------------------------- house rules

#[test]
fn seating_and_turn_order() {
    let seats = |n, h: HouseRules| Harmegedo::new_game(n, h).unwrap().kingdoms().to_vec();
    let d = HouseRules::default();
    assert_eq!(seats(2, d.clone()), [0, 3]);
    assert_eq!(seats(3, d.clone()), [0, 2, 4]);
    assert_eq!(seats(4, d.clone()), [0, 1, 3, 4]);
    assert_eq!(seats(5, d.clone()), [0, 1, 2, 3, 4]);
    assert_eq!(seats(6, d.clone()), [0, 1, 2, 3, 4, 5]);
    let adjacent = HouseRules {
        seating: Seating::Adjacent,
        ..HouseRules::default()
    };
    assert_eq!(seats(3, adjacent.clone()), [0, 1, 2]);
    assert_eq!(seats(2, adjacent), [0, 1]);
    for n in [0, 1, 7] {
        assert!(Harmegedo::new_game(n, HouseRules::default()).is_err());
    }
    // Ascending: 0 → 1 → 2; descending: 0 → 5 → 4.
    let mut g = Harmegedo::new_game(6, d).unwrap();
    play(&mut g, "0.e2-0.e4");
    assert_eq!(g.to_move(), Some(Seat(1)));
    assert_eq!(g.seat_name(Seat(1)), "kingdom1");
    let desc = HouseRules {
        turn_order: TurnOrder::Descending,
        ..HouseRules::default()
    };
    let mut g = Harmegedo::new_game(6, desc.clone()).unwrap();
    assert_eq!(g.kingdoms(), [0, 5, 4, 3, 2, 1]);
    play(&mut g, "0.e2-0.e4");
    assert_eq!(g.to_move_kingdom(), 5);
    assert_eq!(g.seat_name(g.to_move().unwrap()), "kingdom5");
    // Two players: seat 1 is kingdom 3.
    let g = Harmegedo::new_game(2, HouseRules::default()).unwrap();
    assert_eq!((g.seat_count(), g.seat_name(Seat(1))), (2, "kingdom3"));
}

#[test]
fn promotion_switch() {
    let off = HouseRules {
        promotion: false,
        ..HouseRules::default()
    };
    let g = spec_position_with("0P'@0.e7 1R'@0.d8 0K'@0.a1 3K@3.e1", &[0, 1, 3], off);
    assert_eq!(moves_from(&g, "0.e7"), ["0.e7-0.e8", "0.e7x0.d8"]);
    assert_eq!(g.legal_moves().len(), 5);
    let mut p = g.clone();
    play(&mut p, "0.e7-0.e8");
    play(&mut p, "3.e1-3.e2");
    // The pawn on the last rank cannot move at all.
    assert!(moves_from(&p, "0.e8").is_empty());
    let err = g.parse_move("0.e7-0.e8=Q").unwrap_err().to_string();
    assert!(err.contains("promotion is off"), "{err}");
}

#[test]
fn neutral_pieces_switch() {
    let setup = "0P@0.e2 1N'@0.d3 2P'@0.f3 0P'@0.e3 1B'@0.e4 0K'@0.a1 3K@3.e1";
    let walls = HouseRules {
        neutral_pieces: NeutralPieces::Walls,
        ..HouseRules::default()
    };
    let g = spec_position_with(setup, &[0, 1, 2, 3], walls);
    assert!(moves_from(&g, "0.e2").is_empty());
    assert_eq!(g.legal_moves().len(), 3);
    let err = g.parse_move("0.e2x0.d3").unwrap_err().to_string();
    assert!(err.contains("neutral"), "{err}");
    // Neutral pieces never move: kingdom 1 never gets a turn.
    let mut g = spec_position(setup, &[0, 1, 2, 3]);
    play(&mut g, "0.a1-0.b1");
    assert_eq!(g.to_move_kingdom(), 3);
}

#[test]
fn en_passant_switch() {
    // Kingdom 3's pawn double-steps past 0.e3; kingdom 0's pawn beside its start may take it.
    let pos = |h| spec_position_with("0P'@0.d2 3P@0.e2 0K'@0.a1 3K@3.e1", &[0, 3], h);
    let on = HouseRules {
        en_passant: true,
        ..HouseRules::default()
    };
    let mut g = pos(on);
    play(&mut g, "0.a1-0.b1");
    play(&mut g, "0.e2-0.e4");
    assert_eq!(g.to_setup().en_passant.as_deref(), Some("0.e3"));
    assert!(texts(&g).contains(&"0.d2x0.e3".to_string()));
    let mut taken = g.clone();
    play(&mut taken, "0.d2x0.e3");
    let b = g.board();
    assert_eq!(taken.piece_at(b.parse("0.e4").unwrap()), None);
    assert_eq!(
        taken.piece_at(b.parse("0.e3").unwrap()).map(|p| p.kingdom),
        Some(0)
    );
    // Only on the very next turn.
    let mut late = g.clone();
    play(&mut late, "0.b1-0.a1");
    play(&mut late, "3.e1-3.e2");
    assert!(!texts(&late).contains(&"0.d2x0.e3".to_string()));
    // Off by default.
    let mut g = pos(HouseRules::default());
    play(&mut g, "0.a1-0.b1");
    play(&mut g, "0.e2-0.e4");
    assert!(!texts(&g).contains(&"0.d2x0.e3".to_string()));
    assert_eq!(g.to_setup().en_passant, None);
}

#[test]
fn check_rules_switch() {
    let check = HouseRules {
        check_rules: true,
        ..HouseRules::default()
    };
    // Kingdom 3's rook on 0.e8 holds the e-file: the king may not step onto it.
    let setup = "0K'@0.e1 3R'@0.e8 0N'@0.a3 3K@3.e1";
    let free = spec_position(setup, &[0, 3]);
    let g = spec_position_with(setup, &[0, 3], check.clone());
    assert!(moves_from(&free, "0.e1").contains(&"0.e1-0.e2".to_string()));
    assert_eq!(
        moves_from(&g, "0.e1"),
        ["0.e1-0.d1", "0.e1-0.d2", "0.e1-0.f1", "0.e1-0.f2"]
    );
    // Attacked now, the king must deal with it: a knight move that ignores it is out.
    let attacked = spec_position_with("0K'@0.e2 3R'@0.e8 0N'@0.a3 3K@3.e1", &[0, 3], check.clone());
    assert!(moves_from(&attacked, "0.a3").is_empty());
    let err = attacked.parse_move("0.a3-0.b5").unwrap_err().to_string();
    assert!(err.contains("king attacked"), "{err}");
    // Castling may not pass an attacked space.
    let castle = "0K@0.e1 0R@0.a1 0R@0.i1 3R'@0.f8 3K@3.e1";
    assert!(moves_from(&spec_position(castle, &[0, 3]), "0.e1").contains(&"0.e1-0.g1".to_string()));
    let g = spec_position_with(castle, &[0, 3], check.clone());
    let k = moves_from(&g, "0.e1");
    assert!(k.contains(&"0.e1-0.c1".to_string()) && !k.contains(&"0.e1-0.g1".to_string()));
    // A kingdom whose turn comes with no legal move while attacked loses its king.
    let mated = "0K'@0.a1 3R'@0.a8 3R'@0.b7 3K@3.e1 4K@4.e1";
    let mut g = spec_position_with(mated, &[0, 3, 4], check.clone());
    g.set_to_move(4);
    g.settle();
    assert_eq!(g.outcome(), None);
    play(&mut g, "4.e1-4.e2");
    // Kingdom 0 came up mated: out, king gone, and kingdom 3 moves.
    assert!(g.is_eliminated(0));
    assert_eq!(g.king(0), None);
    assert_eq!(g.to_move_kingdom(), 3);
    // Without check rules the same kingdom just moves (into capture).
    let mut g = spec_position(mated, &[0, 3, 4]);
    g.set_to_move(4);
    play(&mut g, "4.e1-4.e2");
    assert_eq!(g.to_move_kingdom(), 0);
    assert!(!g.legal_moves().is_empty());
}

#[test]
fn no_legal_move_passes() {
    // Kingdom 0's king is walled in by kingdom 1's neutral pieces, which nobody may take here.
    let walls = HouseRules {
        neutral_pieces: NeutralPieces::Walls,
        ..HouseRules::default()
    };
    let setup = "0K'@0.a1 1P'@0.a2 1P'@0.b2 1B'@0.b1 3K@3.e1";
    let g = spec_position_with(setup, &[0, 1, 3], walls);
    assert_eq!(g.legal_moves(), [Move::Pass]);
    assert_eq!(texts(&g), ["pass"]);
    let mut p = g.clone();
    play(&mut p, "pass");
    assert_eq!(p.to_move_kingdom(), 3);
    assert_eq!(p.quiet_turns(), 1);
    // With capturable neutral pieces the king takes one instead.
    let g = spec_position(setup, &[0, 1, 3]);
    assert_eq!(texts(&g), ["0.a1x0.a2", "0.a1x0.b1", "0.a1x0.b2"]);
    let err = g.parse_move("pass").unwrap_err();
    assert!(matches!(err, PlayError::Illegal(_)));
}

#[test]
fn teams_switch() {
    let teams = |victory| HouseRules {
        teams: vec![
            vec!["kingdom0".into(), "kingdom1".into()],
            vec!["kingdom3".into()],
        ],
        team_victory: victory,
        ..HouseRules::default()
    };
    let setup = "0R'@0.e3 1N'@0.g3 1K@1.e1 3K@3.e1 3N'@0.c3 0K@0.e1";
    let ffa = spec_position(setup, &[0, 1, 3]);
    assert!(moves_from(&ffa, "0.e3").contains(&"0.e3x0.g3".to_string()));
    let g = spec_position_with(setup, &[0, 1, 3], teams(TeamVictory::Shared));
    let rook = moves_from(&g, "0.e3");
    assert!(!rook.contains(&"0.e3x0.g3".to_string()) && rook.contains(&"0.e3x0.c3".to_string()));
    let err = g.parse_move("0.e3x0.g3").unwrap_err().to_string();
    assert!(err.contains("team-mate"), "{err}");
    // Once kingdom 3's king is gone the team shares the win…
    let won = "0R'@3.e3 1K@1.e1 3K@3.e1 0K@0.e1";
    let mut g = spec_position_with(won, &[0, 1, 3], teams(TeamVictory::Shared));
    play(&mut g, "3.e3x3.e1");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winners: vec![Seat(0), Seat(1)],
            reason: "their team overthrew every other kingdom".into()
        })
    );
    // A team-mate already out shares it too.
    let mut g = spec_position_with(
        "0R'@3.e3 1P@1.e2 3K@3.e1 0K@0.e1",
        &[0, 1, 3],
        teams(TeamVictory::Shared),
    );
    assert!(g.is_eliminated(1));
    play(&mut g, "3.e3x3.e1");
    assert!(
        matches!(g.outcome(), Some(Outcome::Win { ref winners, .. }) if winners == &[Seat(0), Seat(1)])
    );
    // …or plays on, free-for-all, team-mates now fair game.
    let mut g = spec_position_with(
        "0R'@3.e3 1K@1.e1 3K@3.e1 0K@0.e1 0Q'@1.e3",
        &[0, 1, 3],
        teams(TeamVictory::PlayOn),
    );
    play(&mut g, "3.e3x3.e1");
    assert_eq!(g.outcome(), None);
    assert_eq!(g.to_move_kingdom(), 1);
    play(&mut g, "1.e1-1.e2");
    assert!(texts(&g).contains(&"1.e3x1.e2".to_string()));
    // Teams must name kingdoms in play, each once, and leave two sides.
    for bad in [
        vec![vec!["kingdom0".to_string(), "kingdom0".to_string()]],
        vec![vec!["kingdom0".to_string()], vec!["kingdom0".to_string()]],
        vec![vec!["kingdom2".to_string()]],
        vec![vec!["nobody".to_string()]],
        vec![vec![]],
        vec![vec!["kingdom0".to_string(), "kingdom3".to_string()]],
    ] {
        let h = HouseRules {
            teams: bad.clone(),
            ..HouseRules::default()
        };
        assert!(Harmegedo::new_game(2, h).is_err(), "{bad:?}");
    }
}

#[test]
fn quiet_turn_limit_draws() {
    let pos = |limit| {
        spec_position_with(
            "0K'@0.a1 3K@3.e1",
            &[0, 3],
            HouseRules {
                quiet_turn_limit: limit,
                threefold_repetition: false,
                ..HouseRules::default()
            },
        )
    };
    let walk = ["0.a1-0.b1", "3.e1-3.d1", "0.b1-0.c1", "3.d1-3.c1"];
    let mut g = pos(1);
    play(&mut g, walk[0]);
    assert_eq!(g.outcome(), None);
    play(&mut g, walk[1]);
    assert!(matches!(g.outcome(), Some(Outcome::Draw { ref seats, .. }) if seats.len() == 2));
    assert!(g.legal_moves().is_empty());
    let mut g = pos(0);
    for m in walk {
        play(&mut g, m);
    }
    assert_eq!(g.outcome(), None);
    assert_eq!(g.quiet_turns(), 4);
    // A pawn move resets the count.
    let mut g = spec_position("0K'@0.a1 0P'@0.e3 3K@3.e1", &[0, 3]);
    play(&mut g, "0.a1-0.b1");
    play(&mut g, "3.e1-3.d1");
    play(&mut g, "0.e3-0.e4");
    assert_eq!(g.quiet_turns(), 0);
}

#[test]
fn threefold_repetition_switch() {
    let shuffle = ["0.a1-0.b1", "3.e1-3.d1", "0.b1-0.a1", "3.d1-3.e1"];
    let run = |h: HouseRules| {
        let mut g = spec_position_with("0K'@0.a1 3K'@3.e1", &[0, 3], h);
        let mut ended = None;
        for i in 0..8 {
            play(&mut g, shuffle[i % 4]);
            if g.outcome().is_some() && ended.is_none() {
                ended = Some(i + 1);
            }
            if ended.is_some() {
                break;
            }
        }
        (ended, g)
    };
    // The start position comes up again after 4 turns and a third time after 8.
    let (ended, g) = run(HouseRules::default());
    assert_eq!(ended, Some(8));
    assert!(matches!(g.outcome(), Some(Outcome::Draw { .. })));
    let (ended, _) = run(HouseRules {
        threefold_repetition: false,
        ..HouseRules::default()
    });
    assert_eq!(ended, None);
    // The history survives JSON.
    let mut g = spec_position("0K'@0.a1 3K'@3.e1", &[0, 3]);
    for m in &shuffle[..] {
        play(&mut g, m);
    }
    for m in &shuffle[..3] {
        play(&mut g, m);
    }
    let mut copy = Harmegedo::from_json(&g.to_json()).unwrap();
    play(&mut copy, shuffle[3]);
    assert!(matches!(copy.outcome(), Some(Outcome::Draw { .. })));
}

#[test]
fn house_rules_json_is_partial_and_strict() {
    let h: HouseRules = serde_json::from_str(r#"{"check_rules": true}"#).unwrap();
    assert!(h.check_rules && h.promotion && h.quiet_turn_limit == 50);
    assert!(serde_json::from_str::<HouseRules>(r#"{"checks": true}"#).is_err());
    let h: HouseRules = serde_json::from_str(r#"{"turn_order": "descending", "seating": "adjacent", "neutral_pieces": "walls", "team_victory": "play_on"}"#).unwrap();
    assert_eq!(h.turn_order, TurnOrder::Descending);
    assert_eq!(h.team_victory, TeamVictory::PlayOn);
}

// ---------------------------------------------------------------- position JSON

#[test]
fn json_round_trips() {
    let mut g = Harmegedo::new_game(
        4,
        HouseRules {
            en_passant: true,
            ..HouseRules::default()
        },
    )
    .unwrap();
    play(&mut g, "0.e2-0.e4");
    play(&mut g, "1.c1-1.b1");
    let json = g.to_json();
    assert!(
        json.contains("\"moved\": true") && json.contains("\"en_passant\": \"0.e3\"")
            || json.contains("\"moved\": true")
    );
    let back = Harmegedo::from_json(&json).unwrap();
    assert_eq!(back.to_json(), json);
    assert_eq!(texts(&back), texts(&g));
    assert_eq!(back.kingdoms(), [0, 1, 3, 4]);
    // Minimal JSON: kingdoms default to all six.
    let g = Harmegedo::from_json(
        r#"{"game":"harmegedo","to_move":"kingdom0","eliminated":["kingdom1","kingdom2","kingdom3","kingdom4"],
            "pieces":[{"cell":"0.e1","owner":"kingdom0","kind":"king"},{"cell":"5.e1","owner":"KINGDOM5","kind":"King"}]}"#,
    )
    .unwrap();
    assert_eq!(g.kingdoms(), [0, 1, 2, 3, 4, 5]);
    assert_eq!(g.to_move(), Some(Seat(0)));
    assert!(g.is_live(5) && !g.is_live(1));
}

#[test]
fn bad_json_is_rejected_with_a_reason() {
    let base = |pieces: &str, extra: &str| {
        format!(
            r#"{{"game":"harmegedo","kingdoms":["kingdom0","kingdom3"],"to_move":"kingdom0","pieces":[{pieces}]{extra}}}"#
        )
    };
    let kings = r#"{"cell":"0.e1","owner":"kingdom0","kind":"king"},{"cell":"3.e1","owner":"kingdom3","kind":"king"}"#;
    let cases = [
        ("not json", "malformed"),
        (&base(kings, r#","bogus":1"#) as &str, "unknown field"),
        (
            r#"{"game":"hexdame","to_move":"kingdom0","pieces":[]}"#,
            "hexdame",
        ),
        (
            &base(
                &format!(r#"{kings},{{"cell":"0.z1","owner":"kingdom0","kind":"pawn"}}"#),
                "",
            ),
            "0.z1",
        ),
        (
            &base(
                &format!(r#"{kings},{{"cell":"0.j1","owner":"kingdom0","kind":"pawn"}}"#),
                "",
            ),
            "0.j1",
        ),
        (
            &base(
                &format!(r#"{kings},{{"cell":"0.e1","owner":"kingdom0","kind":"pawn"}}"#),
                "",
            ),
            "two pieces",
        ),
        (
            &base(
                &format!(r#"{kings},{{"cell":"0.d1","owner":"kingdom0","kind":"king"}}"#),
                "",
            ),
            "two kings",
        ),
        (
            &base(
                &format!(r#"{kings},{{"cell":"0.d1","owner":"kingdom9","kind":"pawn"}}"#),
                "",
            ),
            "kingdom9",
        ),
        (
            &base(
                &format!(r#"{kings},{{"cell":"0.d1","owner":"kingdom1","kind":"pawn"}}"#),
                "",
            ),
            "not in play",
        ),
        (
            &base(
                &format!(r#"{kings},{{"cell":"0.d1","owner":"kingdom0","kind":"archer"}}"#),
                "",
            ),
            "archer",
        ),
        (
            &base(
                &format!(r#"{kings},{{"cell":"0.d1","owner":"kingdom0","kind":"p"}}"#),
                "",
            ),
            "\"p\"",
        ),
        (
            &base(
                &format!(
                    r#"{kings},{{"cell":"0.d1","owner":"kingdom0","kind":"pawn","hatted":true}}"#
                ),
                "",
            ),
            "hatted",
        ),
        (
            &base(
                &format!(r#"{kings},{{"cell":"0.d8","owner":"kingdom0","kind":"pawn"}}"#),
                "",
            ),
            "last rank",
        ),
        (
            &base(r#"{"cell":"0.e1","owner":"kingdom0","kind":"king"}"#, ""),
            "kingdom3 has no king",
        ),
        (
            &base(kings, r#","eliminated":["kingdom3"]"#),
            "eliminated but has a king",
        ),
        (&base(kings, r#","eliminated":["kingdom2"]"#), "not in play"),
        (
            &base(
                r#"{"cell":"0.e1","owner":"kingdom0","kind":"king"}"#,
                r#","eliminated":["kingdom3","kingdom3"]"#,
            ),
            "twice",
        ),
        (
            &base(
                r#"{"cell":"3.e1","owner":"kingdom3","kind":"king"}"#,
                r#","eliminated":["kingdom0"]"#,
            ),
            "to move",
        ),
        (
            &base("", r#","eliminated":["kingdom0","kingdom3"]"#),
            "every kingdom",
        ),
        (
            &base(kings, r#","en_passant":"0.e3""#),
            "house rule en_passant is off",
        ),
        (
            &base(
                kings,
                r#","en_passant":"0.e3","house_rules":{"en_passant":true}"#,
            ),
            "en_passant 0.e3",
        ),
        (&base(kings, r#","history":["xyz"]"#), "hex digits"),
        (
            &base(kings, r#","house_rules":{"teams":[["kingdom1"]]}"#),
            "not in play",
        ),
        (
            r#"{"game":"harmegedo","kingdoms":["kingdom0"],"to_move":"kingdom0","pieces":[]}"#,
            "2 to 6",
        ),
        (
            r#"{"game":"harmegedo","kingdoms":["kingdom0","kingdom0"],"to_move":"kingdom0","pieces":[]}"#,
            "twice",
        ),
    ];
    for (json, needle) in cases {
        let err = Harmegedo::from_json(json).unwrap_err().to_string();
        assert!(
            err.contains(needle),
            "{json}\n→ {err}\n(expected {needle:?})"
        );
    }
}

// ---------------------------------------------------------------- move text

#[test]
fn move_text_syntax_and_rule_errors() {
    let g = Harmegedo::new_game(6, HouseRules::default()).unwrap();
    let syntax = [
        "",
        "e2-e4",
        "0.e2",
        "0.e2-",
        "0.e2-0.e4x",
        "0.e2 0.e4",
        "0.e2?0.e4",
        "0.e2-0.e4=",
        "0.e2-0.e4=Z",
        "0.z2-0.e4",
        "0.e9-0.e4",
        "castle",
        "é",
    ];
    for s in syntax {
        assert!(
            matches!(g.parse_move(s), Err(PlayError::Syntax(_))),
            "{s}: {:?}",
            g.parse_move(s)
        );
    }
    let illegal = [
        ("0.e3-0.e4", "no piece"),
        ("1.e2-1.e4", "kingdom1"),
        ("0.e2-0.e5", "cannot go"),
        ("0.a1-0.a2", "own piece"),
        ("0.e2x0.e3", "nothing to capture"),
        ("0.e2-0.e3=Q", "only a pawn reaching the last rank"),
        ("0.e2-0.e3=K", "queen, rook, bishop or knight"),
        ("pass", "only when you have no move"),
        ("0.e1-0.c1", "own piece"),
    ];
    for (s, needle) in illegal {
        match g.parse_move(s) {
            Err(PlayError::Illegal(e)) => assert!(e.to_string().contains(needle), "{s}: {e}"),
            other => panic!("{s}: {other:?}"),
        }
    }
    // Case and the capture letter are forgiving; the canonical text is what moves print.
    let m = g.parse_move("0.E2-0.E4").unwrap();
    assert_eq!(g.move_text(&m), "0.e2-0.e4");
    assert_eq!(
        g.parse_move(" 0.b1-0.c3 ").map(|m| g.move_text(&m)),
        Ok("0.b1-0.c3".into())
    );
}

// ---------------------------------------------------------------- renderer helpers

#[test]
fn position_stays_small() {
    // `AnyGame` holds a position inline; clippy's large_enum_variant lint fires past ~200 bytes
    // more than the other games', so the big tables live behind boxes.
    assert!(
        std::mem::size_of::<Harmegedo>() <= 160,
        "{}",
        std::mem::size_of::<Harmegedo>()
    );
}

#[test]
fn renderer_helpers() {
    let g = Harmegedo::new_game(3, HouseRules::default()).unwrap();
    let b = g.board();
    assert_eq!(b.cells().count(), 504);
    let e1 = b.parse("2.e1").unwrap();
    assert_eq!(
        g.piece_at(e1),
        Some(Piece {
            kingdom: 2,
            kind: Kind::King,
            moved: false
        })
    );
    assert_eq!(g.king(2), Some(e1));
    assert_eq!(g.kingdoms(), [0, 2, 4]);
    assert_eq!(g.seat_of(4), Some(Seat(2)));
    assert_eq!(g.kingdom_of(Seat(1)), Some(2));
    assert_eq!(b.sector(e1), 2);
    assert_eq!(b.hex(e1), b.hex(b.parse("0.e1").unwrap()).rotate_by(-2));
    let show = g.show();
    assert!(
        show.contains("kingdom0 to move")
            && show.contains("K2")
            && show.contains("sector 1 (empty)")
    );
}

// ---------------------------------------------------------------- independent cross-check

/// A move generator written from the spec's coordinates alone — `(file, rank)` arithmetic with
/// W = 9, C = 2, R = 8, V = 2, set semantics for duplicates, check by generating the opponents'
/// replies — to compare with the engine's tables.
mod naive {
    use super::*;

    pub const FILES: i32 = 66;
    pub const RANKS: i32 = 8;

    pub fn exists(f: i32, r: i32) -> bool {
        (1..=RANKS).contains(&r) && (f.rem_euclid(FILES) % 11 < 9 || r > 2)
    }

    pub fn name(f: i32, r: i32) -> String {
        let f = f.rem_euclid(FILES);
        format!("{}.{}{}", f / 11, (b'a' + (f % 11) as u8) as char, r)
    }

    pub fn coords(name: &str) -> (i32, i32) {
        let (s, rest) = name.split_once('.').unwrap();
        let x = (rest.as_bytes()[0] - b'a') as i32;
        (
            s.parse::<i32>().unwrap() * 11 + x,
            rest[1..].parse().unwrap(),
        )
    }

    #[derive(Clone)]
    pub struct Pos {
        pub pieces: HashMap<(i32, i32), Piece>,
        pub live: HashSet<u8>,
        pub mover: u8,
        pub check_rules: bool,
        pub en_passant: Option<(i32, i32)>,
    }

    pub fn from_game(g: &Harmegedo) -> Pos {
        let s = g.to_setup();
        Pos {
            pieces: s
                .pieces
                .iter()
                .map(|p| {
                    let k = KINGDOM_NAMES.iter().position(|n| *n == p.owner).unwrap() as u8;
                    (
                        coords(&p.cell),
                        Piece {
                            kingdom: k,
                            kind: Kind::parse(&p.kind).unwrap(),
                            moved: p.moved,
                        },
                    )
                })
                .collect(),
            live: g
                .kingdoms()
                .iter()
                .copied()
                .filter(|&k| g.is_live(k))
                .collect(),
            mover: g.to_move_kingdom(),
            check_rules: g.house_rules().check_rules,
            en_passant: s.en_passant.as_deref().map(coords),
        }
    }

    fn norm(f: i32) -> i32 {
        f.rem_euclid(FILES)
    }

    type Sq = (i32, i32);
    type Push<'a> = &'a mut dyn FnMut(&mut Vec<Cand>, Sq, Sq);
    /// (text, from, to, rook move for castling, captured-by-en-passant space)
    type Cand = (
        String,
        (i32, i32),
        (i32, i32),
        Option<((i32, i32), (i32, i32))>,
        Option<(i32, i32)>,
    );

    pub fn pseudo(p: &Pos, k: u8) -> Vec<Cand> {
        let mut out: Vec<Cand> = Vec::new();
        let capturable = |at: (i32, i32)| p.pieces.get(&at).is_some_and(|q| q.kingdom != k);
        let text = |a: (i32, i32), b: (i32, i32), promo: Option<char>| {
            let sep = if p.pieces.contains_key(&(norm(b.0), b.1)) {
                'x'
            } else {
                '-'
            };
            let mut s = format!("{}{sep}{}", name(a.0, a.1), name(b.0, b.1));
            if let Some(c) = promo {
                s.push('=');
                s.push(c);
            }
            s
        };
        let mut push = |out: &mut Vec<Cand>, a: (i32, i32), b: (i32, i32)| {
            let b = (norm(b.0), b.1);
            out.push((text(a, b, None), a, b, None, None));
        };
        for (&at, piece) in &p.pieces {
            if piece.kingdom != k {
                continue;
            }
            let (f, r) = at;
            let king_dirs = [
                (0, 1),
                (1, 1),
                (1, 0),
                (1, -1),
                (0, -1),
                (-1, -1),
                (-1, 0),
                (-1, 1),
            ];
            let slide = |out: &mut Vec<Cand>, dirs: &[(i32, i32)], push: Push| {
                for &(df, dr) in dirs {
                    let (mut cf, mut cr) = (f + df, r + dr);
                    while exists(cf, cr) && !(norm(cf) == f && cr == r) {
                        let t = (norm(cf), cr);
                        if p.pieces.contains_key(&t) {
                            if capturable(t) {
                                push(out, at, t);
                            }
                            break;
                        }
                        push(out, at, t);
                        cf += df;
                        cr += dr;
                    }
                }
            };
            match piece.kind {
                Kind::King => {
                    for (df, dr) in king_dirs {
                        let t = (norm(f + df), r + dr);
                        if exists(t.0, t.1) && (!p.pieces.contains_key(&t) || capturable(t)) {
                            push(&mut out, at, t);
                        }
                    }
                    if !piece.moved {
                        for dir in [-1, 1] {
                            let mut n = 1;
                            while exists(f + dir * n, r)
                                && !p.pieces.contains_key(&(norm(f + dir * n), r))
                                && n < FILES
                            {
                                n += 1;
                            }
                            let rook_at = (norm(f + dir * n), r);
                            if n >= 3
                                && exists(rook_at.0, r)
                                && p.pieces.get(&rook_at).is_some_and(|q| {
                                    q.kingdom == k && q.kind == Kind::Rook && !q.moved
                                })
                            {
                                let to = (norm(f + 2 * dir), r);
                                out.push((
                                    format!("{}-{}", name(f, r), name(to.0, to.1)),
                                    at,
                                    to,
                                    Some((rook_at, (norm(f + dir), r))),
                                    None,
                                ));
                            }
                        }
                    }
                }
                Kind::Queen => slide(&mut out, &king_dirs, &mut push),
                Kind::Rook => slide(&mut out, &[(0, 1), (1, 0), (0, -1), (-1, 0)], &mut push),
                Kind::Bishop => {
                    slide(&mut out, &[(1, 1), (1, -1), (-1, -1), (-1, 1)], &mut push);
                    if !piece.moved {
                        for df in [-1, 1] {
                            let n = (norm(f + df), r);
                            if exists(n.0, r)
                                && p.pieces.get(&n).is_some_and(|q| {
                                    q.kingdom == k && q.kind == Kind::Knight && !q.moved
                                })
                            {
                                out.push((
                                    format!("{}-{}", name(f, r), name(n.0, n.1)),
                                    at,
                                    n,
                                    None,
                                    None,
                                ));
                            }
                        }
                    }
                }
                Kind::Knight => {
                    for (df, dr) in [
                        (1, 2),
                        (2, 1),
                        (2, -1),
                        (1, -2),
                        (-1, -2),
                        (-2, -1),
                        (-2, 1),
                        (-1, 2),
                    ] {
                        let t = (norm(f + df), r + dr);
                        if exists(t.0, t.1) && (!p.pieces.contains_key(&t) || capturable(t)) {
                            push(&mut out, at, t);
                        }
                    }
                }
                Kind::Pawn => {
                    let pawn_to = |out: &mut Vec<Cand>, t: (i32, i32)| {
                        if t.1 == RANKS {
                            for c in ['Q', 'R', 'B', 'N'] {
                                out.push((text(at, t, Some(c)), at, t, None, None));
                            }
                        } else {
                            out.push((text(at, t, None), at, t, None, None));
                        }
                    };
                    let one = (f, r + 1);
                    if exists(one.0, one.1) && !p.pieces.contains_key(&one) {
                        pawn_to(&mut out, one);
                        let two = (f, r + 2);
                        if !piece.moved && exists(two.0, two.1) && !p.pieces.contains_key(&two) {
                            pawn_to(&mut out, two);
                        }
                    }
                    for df in [-1, 1] {
                        let t = (norm(f + df), r + 1);
                        if exists(t.0, t.1) && capturable(t) {
                            pawn_to(&mut out, t);
                        }
                        if exists(t.0, t.1) && p.en_passant == Some(t) && !p.pieces.contains_key(&t)
                        {
                            let v = (t.0, t.1 + 1);
                            if p.pieces
                                .get(&v)
                                .is_some_and(|q| q.kind == Kind::Pawn && q.kingdom != k)
                            {
                                out.push((
                                    format!("{}x{}", name(f, r), name(t.0, t.1)),
                                    at,
                                    t,
                                    None,
                                    Some(v),
                                ));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn apply(p: &Pos, c: &Cand) -> Pos {
        let mut n = p.clone();
        let (text, from, to, rook, ep) = c;
        let mut piece = n.pieces.remove(from).unwrap();
        piece.moved = true;
        if let Some(v) = ep {
            n.pieces.remove(v);
        }
        if let Some(q) = n.pieces.get(to).copied() {
            if q.kingdom == piece.kingdom {
                // The manoeuvre: the knight goes to the bishop's space.
                n.pieces.insert(*from, Piece { moved: true, ..q });
            } else if q.kind == Kind::King {
                n.live.remove(&q.kingdom);
            }
        }
        if let Some(promo) = text.split_once('=').map(|(_, k)| Kind::parse(k).unwrap()) {
            piece.kind = promo;
        }
        n.pieces.insert(*to, piece);
        if let Some((rf, rt)) = rook {
            let mut rp = n.pieces.remove(rf).unwrap();
            rp.moved = true;
            n.pieces.insert(*rt, rp);
        }
        n
    }

    /// Can any live kingdom but `k` move onto `at`?
    fn attacked(p: &Pos, at: (i32, i32), k: u8) -> bool {
        let mut probe = p.clone();
        // A stand-in piece makes the space a capture target for everyone.
        probe.pieces.insert(
            at,
            Piece {
                kingdom: k,
                kind: Kind::Pawn,
                moved: true,
            },
        );
        probe.en_passant = None;
        p.live.iter().filter(|&&o| o != k).any(|&o| {
            pseudo(&probe, o)
                .iter()
                .any(|c| c.2 == at && c.3.is_none() && c.0.contains('x'))
        })
    }

    pub fn legal_texts(p: &Pos) -> BTreeSet<String> {
        let k = p.mover;
        let mut out = BTreeSet::new();
        for c in pseudo(p, k) {
            if p.check_rules {
                if let Some((_, passed)) = c.3
                    && (attacked(p, c.1, k) || attacked(p, passed, k))
                {
                    continue;
                }
                let n = apply(p, &c);
                let king = n
                    .pieces
                    .iter()
                    .find(|(_, q)| q.kingdom == k && q.kind == Kind::King)
                    .map(|(&at, _)| at)
                    .unwrap();
                if attacked(&n, king, k) {
                    continue;
                }
            }
            out.insert(c.0);
        }
        if out.is_empty() {
            out.insert("pass".into());
        }
        out
    }
}

fn check_against_naive(g: &Harmegedo) {
    if g.outcome().is_some() {
        return;
    }
    let engine = g.legal_move_texts();
    let set: BTreeSet<String> = engine.iter().cloned().collect();
    assert_eq!(set.len(), engine.len(), "duplicate moves\n{}", g.show());
    let naive = naive::legal_texts(&naive::from_game(g));
    assert_eq!(set, naive, "\n{}\n{}", g.show(), g.to_json());
}

fn random_playout_positions(
    seed: u64,
    players: usize,
    house: HouseRules,
    plies: usize,
) -> Vec<Harmegedo> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = Harmegedo::new_game(players, house).unwrap();
    let mut out = vec![g.clone()];
    for _ in 0..plies {
        let moves = g.legal_moves();
        // Prefer captures now and then, so that games reach eliminations and open ranks.
        let captures: Vec<&Move> = moves
            .iter()
            .filter(|m| {
                m.to().is_some_and(|t| {
                    g.piece_at(t)
                        .is_some_and(|p| p.kingdom != g.to_move_kingdom())
                })
            })
            .collect();
        let Some(m) = (if !captures.is_empty() && rng.random_range(0..3) > 0 {
            captures.choose(&mut rng).copied()
        } else {
            moves.choose(&mut rng)
        }) else {
            break;
        };
        g.play_unchecked(&m.clone());
        out.push(g.clone());
    }
    out
}

/// Random scattered positions: odd corners of the rules (ring ranks, castling far away, pawns
/// about to promote, unmoved pieces off their home spaces).
fn random_scatter(seed: u64, house: HouseRules) -> Harmegedo {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let b = board();
    let cells: Vec<Cell> = b.cells().collect();
    let players = rng.random_range(2..=6usize);
    let sectors = Seating::Spread.sectors(players).unwrap();
    let mut used = HashSet::new();
    let mut pieces = Vec::new();
    for (i, &s) in sectors.iter().enumerate() {
        // The first kingdom always keeps its king, so somebody is left.
        let has_king = i == 0 || rng.random_range(0..4) > 0;
        let mut kinds = vec![];
        if has_king {
            kinds.push(Kind::King);
        }
        for _ in 0..rng.random_range(0..8) {
            kinds.push(
                *[
                    Kind::Queen,
                    Kind::Rook,
                    Kind::Rook,
                    Kind::Bishop,
                    Kind::Knight,
                    Kind::Pawn,
                    Kind::Pawn,
                ]
                .choose(&mut rng)
                .unwrap(),
            );
        }
        for kind in kinds {
            let c = loop {
                let c = *cells.choose(&mut rng).unwrap();
                // Keep pieces near the action: sector 0's block and its neighbours, sometimes anywhere.
                let pawn_on_last_rank = kind == Kind::Pawn && b.rank(c) == 8;
                if !used.contains(&c)
                    && !pawn_on_last_rank
                    && (rng.random_range(0..4) == 0 || [5, 0, 1].contains(&b.sector(c)))
                {
                    break c;
                }
            };
            used.insert(c);
            pieces.push(PieceText {
                moved: rng.random_range(0..3) == 0,
                ..PieceText::new(b.name(c), KINGDOM_NAMES[s as usize], kind.name())
            });
        }
    }
    let kings: HashSet<&str> = pieces
        .iter()
        .filter(|p| p.kind == "king")
        .map(|p| p.owner.as_str())
        .collect();
    let names: Vec<String> = sectors
        .iter()
        .map(|&s| KINGDOM_NAMES[s as usize].to_string())
        .collect();
    Harmegedo::from_setup(Setup {
        game: "harmegedo".into(),
        eliminated: names
            .iter()
            .filter(|n| !kings.contains(n.as_str()))
            .cloned()
            .collect(),
        kingdoms: names,
        to_move: KINGDOM_NAMES[sectors[0] as usize].into(),
        pieces,
        en_passant: None,
        quiet_turns: 0,
        history: Vec::new(),
        house_rules: house,
        settled: None,
    })
    .unwrap()
}

#[test]
fn engine_agrees_with_naive_generator_on_playouts() {
    let mut checked = 0;
    for seed in 0..6 {
        let players = [2, 3, 4, 5, 6, 6][seed as usize];
        let house = HouseRules {
            en_passant: seed % 2 == 1,
            ..HouseRules::default()
        };
        for g in random_playout_positions(seed, players, house, 160)
            .iter()
            .step_by(3)
        {
            check_against_naive(g);
            checked += 1;
        }
    }
    assert!(checked > 250);
}

#[test]
fn engine_agrees_with_naive_generator_on_scattered_positions() {
    for seed in 0..300 {
        check_against_naive(&random_scatter(seed, HouseRules::default()));
    }
}

#[test]
fn engine_agrees_with_naive_generator_under_check_rules() {
    let check = HouseRules {
        check_rules: true,
        ..HouseRules::default()
    };
    for seed in 0..120 {
        check_against_naive(&random_scatter(1000 + seed, check.clone()));
    }
    for g in random_playout_positions(7, 3, check, 80).iter().step_by(4) {
        check_against_naive(g);
    }
}

/// Perft whose every node's moves come from the naive generator (positions advance through the
/// engine's `play`): an independent count for the perft data file.
fn naive_perft(g: &Harmegedo, depth: u32) -> u64 {
    if g.outcome().is_some() {
        return 0;
    }
    let moves = naive::legal_texts(&naive::from_game(g));
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut n = g.clone();
            play(&mut n, m);
            naive_perft(&n, depth - 1)
        })
        .sum()
}

/// The starred counts of `tests/data/perft_harmegedo.txt`, recounted with the naive generator.
#[test]
fn perft_agrees_with_naive_counter() {
    let start2 = Harmegedo::new_game(2, HouseRules::default()).unwrap();
    assert_eq!(naive_perft(&start2, 3), 16560);
    let file = |json: &str| Harmegedo::from_json(json).unwrap();
    let mid6 = file(include_str!(
        "../../../tests/data/positions/harmegedo_mid6.json"
    ));
    assert_eq!(naive_perft(&mid6, 2), 3918);
    let mid3 = file(include_str!(
        "../../../tests/data/positions/harmegedo_mid3.json"
    ));
    assert!(mid3.is_eliminated(4));
    assert_eq!(naive_perft(&mid3, 3), 117199);
    let mid2 = file(include_str!(
        "../../../tests/data/positions/harmegedo_mid2.json"
    ));
    assert_eq!(naive_perft(&mid2, 2), 14211);
}
