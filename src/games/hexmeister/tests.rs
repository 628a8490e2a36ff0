//! Hexmeister tests: the board of §2, every test position of §7 (both move readings), each house
//! rule switch, the position JSON, and a slow, literal reference implementation of §4 that the
//! bit-set engine is checked against move by move and by perft.

use super::board::{self as bd, Bits};
use super::*;
use crate::games::position::PieceText;
use crate::hex::Direction;

// ---------------------------------------------------------------- helpers

/// A position from the spec's notation: `"Sd4 Sf4 Ne4"`, side to move, house rules; reserves are
/// 18 minus the stones on the board unless `reserves` says otherwise.
fn pos_with(stones: &str, to_move: &str, house: HouseRules, reserves: &[(&str, u32)]) -> Hexmeister {
    let pieces = stones
        .split_whitespace()
        .map(|t| {
            let owner = if t.starts_with('S') { "south" } else { "north" };
            PieceText::new(&t[1..], owner, "stone")
        })
        .collect();
    let setup = Setup {
        game: "hexmeister".into(),
        to_move: to_move.into(),
        pieces,
        reserves: reserves
            .iter()
            .map(|&(o, n)| (o.to_string(), ReserveText { stone: n }))
            .collect(),
        bonus: false,
        passes: 0,
        history: vec![],
        house_rules: house,
    };
    Hexmeister::from_setup(setup).unwrap()
}

fn pos(stones: &str, to_move: &str, house: HouseRules) -> Hexmeister {
    pos_with(stones, to_move, house, &[])
}

fn free() -> HouseRules {
    HouseRules::default()
}

fn straight() -> HouseRules {
    HouseRules {
        straight_moves: true,
        ..HouseRules::default()
    }
}

fn cell(name: &str) -> Cell {
    geometry().parse(name).unwrap()
}

fn texts(g: &Hexmeister) -> Vec<String> {
    g.legal_move_texts()
}

fn sorted(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

/// The moves of the stone on `from`, as destination cell names.
fn dests(g: &Hexmeister, from: &str) -> Vec<String> {
    let f = cell(from);
    let mut v: Vec<String> = g
        .legal_moves()
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { from, to } if from == f => Some(geometry().name(to).to_string()),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

/// The board as in §2.2, one character a cell: `S`/`N` stones, `x` a destination of the stone on
/// `from`, else `G` gate, `o` ring, `.` lane.
fn picture(g: &Hexmeister, from: &str) -> String {
    let d = dests(g, from);
    let mut out = String::new();
    for row in (-5..=5).rev() {
        let (first, last) = if row >= 0 { (1, 11 - row) } else { (1 - row, 11) };
        let mut line = " ".repeat((row as i32).unsigned_abs() as usize);
        for l in first..=last {
            let c = geometry()
                .cells()
                .find(|&c| coordinates(c) == (l, l + row))
                .unwrap();
            let ch = match g.stone_at(c) {
                Some(s) if s == Seat(0) => 'S',
                Some(_) => 'N',
                None if d.iter().any(|n| n == geometry().name(c)) => 'x',
                None => match role(c) {
                    CellRole::Gate => 'G',
                    CellRole::Ring => 'o',
                    CellRole::Lane => '.',
                },
            };
            line.push(ch);
            line.push(' ');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn assert_picture(g: &Hexmeister, from: &str, want: &str) {
    let want: String = want
        .lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    let got: String = picture(g, from)
        .lines()
        .map(|l| format!("{}\n", l.trim()))
        .collect();
    assert_eq!(got, want, "\ngot:\n{}", picture(g, from));
}

/// Play `text` and return the position after it.
fn after(g: &Hexmeister, text: &str) -> Hexmeister {
    let mut next = g.clone();
    next.play(text).unwrap();
    next
}

/// Whether playing `text` captured, and whether the same side is to move again (a bonus).
fn played(g: &Hexmeister, text: &str) -> (u32, bool) {
    let n = after(g, text);
    let before = g.stones[0].count_ones() + g.stones[1].count_ones();
    let now = n.stones[0].count_ones() + n.stones[1].count_ones();
    let added = u32::from(text.contains('@'));
    (before + added - now, n.bonus_pending())
}

fn illegal(g: &Hexmeister, text: &str) -> String {
    match g.clone().play(text) {
        Err(PlayError::Illegal(e)) => e.reason,
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    }
}

// ---------------------------------------------------------------- §2 the board

#[test]
fn the_board_has_91_cells_13_gates_42_rings_36_lanes() {
    let g = geometry();
    assert_eq!(g.len(), 91);
    let count = |r| g.cells().filter(|&c| role(c) == r).count();
    assert_eq!(count(CellRole::Gate), 13);
    assert_eq!(count(CellRole::Ring), 42);
    assert_eq!(count(CellRole::Lane), 36);
    assert_eq!(bd::ON_BOARD.count_ones(), 91);
    assert_eq!(g.parse("F6"), g.parse("f6"));
    assert!(g.parse("a7").is_none() && g.parse("f12").is_none() && g.parse("l6").is_none());
}

#[test]
fn roles_match_the_source_diagram_string() {
    // §2.2: João Neto's hex2diag string, one row per '/', top (N − L = 5) to bottom.
    let diagram = "6,11,6,:;;;;:/;.....;/;.:;;:.;/;.;...;.;/;.;.;;.;.;/:.:.;:;.:.:/\
                   ;.;.;;.;.;/;.;...;.;/;.:;;:.;/;.....;/:;;;;:";
    let rows: Vec<&str> = diagram.splitn(4, ',').nth(3).unwrap().split('/').collect();
    assert_eq!(rows.len(), 11);
    for (i, row) in rows.iter().enumerate() {
        let d = 5 - i as i32;
        let first = if d >= 0 { 1 } else { 1 - d };
        for (k, ch) in row.chars().enumerate() {
            let l = first + k as i32;
            let name = format!("{}{}", char::from(b'a' + (l - 1) as u8), l + d);
            let want = match ch {
                ':' => CellRole::Gate,
                ';' => CellRole::Ring,
                _ => CellRole::Lane,
            };
            assert_eq!(role(cell(&name)), want, "{name}");
        }
    }
}

#[test]
fn shift_neighbours_agree_with_the_geometry_and_never_wrap() {
    let b = bd::board();
    for c in geometry().cells() {
        let mut want: Bits = 0;
        for d in Direction::FLATS {
            if let Some(n) = geometry().step(c, d) {
                want |= 1 << b.bit(n);
            }
        }
        assert_eq!(bd::neighbours(1 << b.bit(c)), want, "{}", geometry().name(c));
        let (l, n) = coordinates(c);
        let spec: Vec<(i32, i32)> = [(1, 1), (-1, -1), (0, 1), (-1, 0), (1, 0), (0, -1)]
            .iter()
            .map(|(dl, dn)| (l + dl, n + dn))
            .filter(|&(l, n)| (1..=11).contains(&l) && (1..=11).contains(&n) && (n - l).abs() <= 5)
            .collect();
        assert_eq!(want.count_ones() as usize, spec.len(), "{}", geometry().name(c));
    }
}

#[test]
fn named_sets_are_the_spec_lists() {
    let names = |s: &CellSet| {
        let mut v: Vec<&str> = s.iter().map(|c| geometry().name(c)).collect();
        v.sort();
        v.join(" ")
    };
    assert_eq!(names(&gates()), "a1 a6 c3 c6 f1 f11 f3 f6 f9 i6 i9 k11 k6");
    let [middle, outer] = gate_rings();
    assert_eq!(names(&middle), "c3 c6 f3 f9 i6 i9");
    assert_eq!(names(&outer), "a1 a6 f1 f11 k11 k6");
    let lines: Vec<String> = alignment_lines().iter().map(names).collect();
    assert_eq!(lines, ["a1 c3 f6 i9 k11", "f1 f11 f3 f6 f9", "a6 c6 f6 i6 k6"]);
    let tri: Vec<String> = segmental_triangles().iter().map(names).collect();
    assert_eq!(
        tri,
        [
            "a1 a6 c3 c6 f6",
            "a6 c6 f11 f6 f9",
            "f11 f6 f9 i9 k11",
            "f6 i6 i9 k11 k6",
            "f1 f3 f6 i6 k6",
            "a1 c3 f1 f3 f6"
        ]
    );
    for gate in gates().iter() {
        let n = segmental_triangles()
            .iter()
            .filter(|t| t.contains(gate))
            .count();
        assert_eq!(n, if geometry().name(gate) == "f6" { 6 } else { 2 });
    }
    assert_eq!(names(&base_row(Seat(0))), "f1 g2 h3 i4 j5 k6");
    assert_eq!(names(&base_row(Seat(1))), "a6 b7 c8 d9 e10 f11");
    assert_eq!(names(&base_gates(Seat(0))), "f1 k6");
    assert_eq!(names(&base_gates(Seat(1))), "a6 f11");
    assert_eq!(names(&drop_cells(Seat(0))), "g2 h3 i4 j5");
    assert_eq!(names(&drop_cells(Seat(1))), "b7 c8 d9 e10");
    assert_eq!(base_owner(cell("h3")), Some(Seat(0)));
    assert_eq!(base_owner(cell("a6")), Some(Seat(1)));
    assert_eq!(base_owner(cell("f6")), None);
}

#[test]
fn show_draws_the_spec_map() {
    let g = Hexmeister::new_game(2, free()).unwrap();
    let s = g.show();
    assert!(s.starts_with("Hexmeister: south to move\nreserves: south 18, north 18\n"));
    let rows: Vec<String> = s
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(rows[0], "a6G b7o c8o d9o e10o f11G");
    assert_eq!(rows[5], "a1G b2. c3G d4. e5o f6G g7o h8. i9G j10. k11G");
    assert_eq!(rows[10], "f1G g2o h3o i4o j5o k6G");
    let g = pos("Sd4 Ne4", "north", free());
    let s = g.show();
    assert!(s.contains("d4S ") && s.contains("e4N ") && s.contains("north to move"));
}

// ---------------------------------------------------------------- §7 test positions

#[test]
fn hm1_empty_board_four_drops() {
    for house in [free(), straight()] {
        let g = Hexmeister::new_game(2, house).unwrap();
        assert_eq!(texts(&g), sorted("S@g2 S@h3 S@i4 S@j5"));
        assert_eq!(g.reserve(Seat(0)), 18);
        assert_eq!(g.to_move(), Some(Seat(0)));
    }
}

#[test]
fn hm2_one_stone_on_h3_free() {
    let g = pos("Sh3", "south", free());
    assert_eq!(g.reserve(Seat(0)), 17);
    let all = texts(&g);
    assert_eq!(all.len(), 82);
    assert_eq!(all.iter().filter(|t| t.starts_with("S@")).count(), 3);
    // Every lane and every ring cell but h3, and the two base gates: 36 + 41 + 2.
    assert_picture(
        &g,
        "h3",
        "     G x x x x G
              x x x x x x x
             x x G x x G x x
            x x x x x x x x x
           x x x x x x x x x x
          G x G x x G x x G x G
           x x x x x x x x x x
            x x x x x x x x x
             x x G x x G x x
              x x x x x x x
               x x S x x x",
    );
}

#[test]
fn hm2_one_stone_on_h3_straight() {
    let g = pos("Sh3", "south", straight());
    assert_eq!(
        texts(&g),
        sorted("S@g2 S@i4 S@j5 h3-g2 h3-f1 h3-i4 h3-j5 h3-k6 h3-h4 h3-h5 h3-g3 h3-e3")
    );
}

#[test]
fn hm3_one_stone_on_d4() {
    let g = pos("Sd4", "south", free());
    let all = texts(&g);
    assert_eq!(all.len(), 82);
    assert_eq!(all.iter().filter(|t| t.starts_with("S@")).count(), 4);
    // 35 other lanes, all 42 ring cells, and the adjacent gate c3.
    assert_picture(
        &g,
        "d4",
        "     G x x x x G
              x x x x x x x
             x x G x x G x x
            x x x x x x x x x
           x x x x x x x x x x
          G x x S x G x x G x G
           x x x x x x x x x x
            x x x x x x x x x
             x x G x x G x x
              x x x x x x x
               G x x x x G",
    );
    let s = pos("Sd4", "south", straight());
    assert_eq!(
        texts(&s),
        sorted(
            "S@g2 S@h3 S@i4 S@j5 d4-e5 d4-c3 d4-b2 d4-d5 d4-d6 d4-d7 d4-d3 d4-e4 d4-f4 \
             d4-g4 d4-c4"
        )
    );
    // Both readings: d4-c3 (a gate entered from the board) is the only move earning a bonus.
    for g in [g, s] {
        for a in g.legal_moves() {
            let t = g.move_text(&a);
            let (_, bonus) = played(&g, &t);
            assert_eq!(bonus, t == "d4-c3", "{t}");
        }
    }
}

#[test]
fn hm4_proximity_capture() {
    let stones = "Sd4 Sf4 Se2 Ne4";
    let g = pos(stones, "south", free());
    assert_eq!(g.reserve(Seat(0)), 15);
    assert_eq!(texts(&g).len(), 229);
    let capturing: Vec<String> = texts(&g)
        .into_iter()
        .filter(|t| played(&g, t).0 > 0)
        .collect();
    assert_eq!(capturing, sorted("e2-e3 e2-d3 e2-e5 e2-f5"));
    for t in &capturing {
        let n = after(&g, t);
        assert_eq!(n.stone_at(cell("e4")), None, "{t}");
        assert!(n.bonus_pending() && n.to_move() == Some(Seat(0)), "{t}");
    }
    let s = pos(stones, "south", straight());
    assert_eq!(texts(&s).len(), 31);
    let capturing: Vec<String> = texts(&s)
        .into_iter()
        .filter(|t| played(&s, t).0 > 0)
        .collect();
    assert_eq!(capturing, ["e2-e3"]);
    assert_eq!(played(&s, "e2-e3"), (1, true));
}

#[test]
fn hm5_a_secured_cell_can_be_crossed_but_not_entered() {
    let stones = "Sd3 Se3 Se5 Nd4";
    for house in [free(), straight()] {
        let g = pos(stones, "north", house);
        assert_eq!(g.reserve(Seat(1)), 17);
        assert!(g.secured_by(Seat(0)).contains(cell("e4")));
        assert!(illegal(&g, "d4-e4").contains("secured by south"));
        assert!(g.clone().play("d4-f4").is_ok() && g.clone().play("d4-g4").is_ok());
        // Only two South stones touch d4: it is not captured (the position is valid).
        assert!(!g.secured_by(Seat(0)).contains(cell("d4")));
    }
    let s = pos(stones, "north", straight());
    assert_eq!(
        texts(&s),
        sorted("S@b7 S@c8 S@d9 S@e10 d4-b2 d4-c3 d4-c4 d4-d5 d4-d6 d4-d7 d4-f4 d4-g4")
    );
    assert_eq!(played(&s, "d4-c3"), (0, true));
    assert_eq!(texts(&pos(stones, "north", free())).len(), 78);
}

#[test]
fn hm6_triangulation_capture() {
    let stones = "Sc3 Sa1 Sf3 Sf5 Nf1";
    let g = pos(stones, "south", free());
    assert_eq!(g.reserve(Seat(0)), 14);
    assert_eq!(texts(&g).len(), 313);
    assert_eq!(texts(&pos(stones, "south", straight())).len(), 36);
    for house in [free(), straight()] {
        let g = pos(stones, "south", house);
        let n = after(&g, "f5-f6");
        assert_eq!(n.stone_at(cell("f1")), None);
        // One bonus for the gate and the capture together: South acts once more, then North.
        assert!(n.bonus_pending() && n.to_move() == Some(Seat(0)));
        let m = after(&n, "S@g2");
        assert_eq!(m.to_move(), Some(Seat(1)));
        assert!(!m.bonus_pending());
    }
}

#[test]
fn hm7_alignment_win() {
    for house in [free(), straight()] {
        let g = pos("Sa1 Sc3 Si9 Sk11 Se5", "south", house);
        assert_eq!(g.reserve(Seat(0)), 13);
        let n = after(&g, "e5-f6");
        assert_eq!(
            n.outcome(),
            Some(Outcome::Win {
                winners: vec![Seat(0)],
                reason: "alignment a1-c3-f6-i9-k11".into()
            })
        );
        assert_eq!(n.to_move(), None);
        assert!(n.legal_moves().is_empty());
        assert!(illegal(&n, "S@g2").contains("the game is over"));
    }
}

#[test]
fn hm8_encirclement_win() {
    for house in [free(), straight()] {
        let g = pos("Sc3 Sc6 Sf9 Si9 Si6 Sf4", "south", house);
        assert_eq!(g.reserve(Seat(0)), 12);
        let n = after(&g, "f4-f3");
        assert_eq!(
            n.outcome(),
            Some(Outcome::Win {
                winners: vec![Seat(0)],
                reason: "encirclement of the middle ring".into()
            })
        );
    }
}

#[test]
fn hm9_centre_triangulation_and_the_eight_gate_nullification() {
    let south = "Sc3 Sa1 Sc6 Sa6";
    let north8 = "Nf1 Nf3 Nf9 Nf11 Ni9 Nk11 Ni6 Nk6 Ne5";
    for house in [free(), straight()] {
        let g = pos(&format!("{south} {north8}"), "north", house);
        assert_eq!(g.reserve(Seat(1)), 9);
        assert!(!g.secured_by(Seat(0)).contains(cell("f6")));
        let n = after(&g, "e5-f6");
        assert_eq!(
            n.outcome(),
            Some(Outcome::Win {
                winners: vec![Seat(1)],
                reason: "alignment f1-f3-f6-f9-f11".into()
            })
        );
        // HM9b: without Nk6, North holds 7 gates and South's triangulation stands.
        let b = pos(&format!("{south} {}", north8.replace(" Nk6", "")), "north", house);
        assert_eq!(b.reserve(Seat(1)), 10);
        assert!(b.secured_by(Seat(0)).contains(cell("f6")));
        assert!(illegal(&b, "e5-f6").contains("f6 is secured by south"));
    }
}

#[test]
fn hm10_the_source_capture_example() {
    for house in [free(), straight()] {
        let g = pos("Sb6 Sd8 Sd6 Nc7", "south", house);
        assert_eq!(g.reserve(Seat(0)), 15);
        let n = after(&g, "d6-c6");
        assert_eq!(n.stone_at(cell("c7")), None);
        assert!(n.bonus_pending());
        assert!(illegal(&g, "d8-c6").contains("gate"));
    }
}

#[test]
fn hm11_base_gate_exception() {
    let stones = "Sh3 Sf2";
    for house in [free(), straight()] {
        let g = pos(stones, "south", house);
        assert_eq!(g.reserve(Seat(0)), 16);
        assert_eq!(played(&g, "h3-f1"), (0, false));
        assert_eq!(played(&g, "h3-k6"), (0, false));
        assert_eq!(played(&g, "f2-f1"), (0, true));
        assert_eq!(played(&g, "f2-f3"), (0, true));
    }
    assert_eq!(texts(&pos(stones, "south", free())).len(), 159);
    assert_eq!(texts(&pos(stones, "south", straight())).len(), 28);
}

#[test]
fn hm12_drop_blocked_by_security() {
    for house in [free(), straight()] {
        let g = pos("Nf1 Nf2 Ng3", "south", house);
        assert_eq!((g.reserve(Seat(0)), g.reserve(Seat(1))), (18, 15));
        assert_eq!(texts(&g), sorted("S@h3 S@i4 S@j5"));
        assert!(illegal(&g, "S@g2").contains("g2 is secured by north"));
    }
}
