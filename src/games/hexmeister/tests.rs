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
fn pos_with(
    stones: &str,
    to_move: &str,
    house: HouseRules,
    reserves: &[(&str, u32)],
) -> Hexmeister {
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
        settled: None,
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
    for row in (-5i32..=5).rev() {
        let (first, last) = if row >= 0 {
            (1, 11 - row)
        } else {
            (1 - row, 11)
        };
        let mut line = " ".repeat(row.unsigned_abs() as usize);
        for l in first..=last {
            let c = geometry()
                .cells()
                .find(|&c| coordinates(c) == (l, l + row))
                .unwrap();
            let ch = match g.stone_at(c) {
                Some(Seat(0)) => 'S',
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
        assert_eq!(
            bd::neighbours(1 << b.bit(c)),
            want,
            "{}",
            geometry().name(c)
        );
        let (l, n) = coordinates(c);
        let spec: Vec<(i32, i32)> = [(1, 1), (-1, -1), (0, 1), (-1, 0), (1, 0), (0, -1)]
            .iter()
            .map(|(dl, dn)| (l + dl, n + dn))
            .filter(|&(l, n)| (1..=11).contains(&l) && (1..=11).contains(&n) && (n - l).abs() <= 5)
            .collect();
        assert_eq!(
            want.count_ones() as usize,
            spec.len(),
            "{}",
            geometry().name(c)
        );
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
    assert_eq!(
        lines,
        ["a1 c3 f6 i9 k11", "f1 f11 f3 f6 f9", "a6 c6 f6 i6 k6"]
    );
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
    assert_eq!(map_position(cell("a6")), (5, 0));
    assert_eq!(map_position(cell("f6")), (10, 5));
    assert_eq!(map_position(cell("k6")), (15, 10));
    assert_eq!(map_position(cell("a1")), (0, 5));
    assert_eq!(cells().count(), 91);
    assert_eq!(cells().filter(|(_, r)| *r == CellRole::Gate).count(), 13);
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
        let b = pos(
            &format!("{south} {}", north8.replace(" Nk6", "")),
            "north",
            house,
        );
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

// ---------------------------------------------------------------- turns, bonus actions, the end

#[test]
fn bonus_actions_chain_and_may_be_declined() {
    // d4-c3 enters a gate (+B); c3-b2 does not; S@g2 does not.
    let g = pos("Sd4 Sf4 Nh8", "south", free());
    let a = after(&g, "d4-c3");
    assert!(a.bonus_pending() && a.to_move() == Some(Seat(0)));
    assert!(texts(&a).contains(&"pass".to_string()));
    // f4-f3 enters another gate: a second bonus in the same turn (no limit on chaining).
    let b = after(&a, "f4-f3");
    assert!(b.bonus_pending() && b.to_move() == Some(Seat(0)));
    let c = after(&b, "pass");
    assert!(!c.bonus_pending() && c.to_move() == Some(Seat(1)));
    // A pass is only for declining a bonus, or for a player with nothing else to do.
    assert!(illegal(&g, "pass").contains("only when no drop or move"));
    // The bonus action may be a drop.
    let d = after(&a, "S@h3");
    assert_eq!(d.to_move(), Some(Seat(1)));
    // Perft counts a bonus action as a ply of its own.
    assert_eq!(a.perft(1), a.legal_moves().len() as u64);
}

#[test]
fn a_capture_can_cascade_through_the_eight_gate_count() {
    // North holds 8 gates with f6, so South's T-W/NW triangulation of f6 is cancelled. j7-j6
    // takes Nk6 by proximity; North is down to 7 gates and loses f6 as well, in the same action.
    let g = pos(
        "Sc3 Sa1 Sc6 Sa6 Sj5 Sk7 Sj7 Nf6 Nf3 Nf9 Nf11 Ni9 Nk11 Ni6 Nk6",
        "south",
        free(),
    );
    assert_eq!(g.stone_at(cell("f6")), Some(Seat(1)));
    let n = after(&g, "j7-j6");
    assert_eq!(n.stone_at(cell("k6")), None);
    assert_eq!(n.stone_at(cell("f6")), None);
    assert_eq!(n.stones_of(Seat(1)).len(), 6);
    assert!(n.bonus_pending());
    assert_eq!(n.quiet_actions(), 0);
}

#[test]
fn captured_stones_leave_the_game() {
    let g = pos("Sd4 Sf4 Se2 Ne4", "south", free());
    let n = after(&g, "e2-e3");
    assert_eq!(n.reserve(Seat(1)), 17);
    assert_eq!(n.stones_of(Seat(1)).len(), 0);
}

#[test]
fn two_forced_passes_draw() {
    let g = pos_with("", "south", free(), &[("south", 0), ("north", 0)]);
    assert_eq!(texts(&g), ["pass"]);
    let a = after(&g, "pass");
    assert_eq!(a.to_move(), Some(Seat(1)));
    assert_eq!(a.to_setup().passes, 1);
    let b = after(&a, "pass");
    assert_eq!(
        b.outcome(),
        Some(Outcome::Draw {
            seats: vec![Seat(0), Seat(1)],
            reason: "both players had to pass in succession".into()
        })
    );
    // Any drop or move in between starts the count again.
    let g = pos_with("", "south", free(), &[("south", 0), ("north", 1)]);
    let c = after(&after(&after(&g, "pass"), "S@c8"), "pass");
    assert!(c.outcome().is_none());
    assert_eq!(c.to_setup().passes, 1);
}

#[test]
fn threefold_repetition_draws() {
    let g = pos("Sd4 Nh8", "south", free());
    let mut n = g.clone();
    for t in ["d4-d5", "h8-h7", "d5-d4", "h8-h7"].iter().take(3) {
        n.play(t).unwrap();
    }
    n.play("h7-h8").unwrap(); // back to the start: second occurrence
    assert!(n.outcome().is_none());
    assert_eq!(n.quiet_actions(), 4);
    for t in ["d4-d5", "h8-h7", "d5-d4"] {
        n.play(t).unwrap();
        assert!(n.outcome().is_none());
    }
    n.play("h7-h8").unwrap(); // third occurrence
    assert_eq!(
        n.outcome(),
        Some(Outcome::Draw {
            seats: vec![Seat(0), Seat(1)],
            reason: "the same position occurred a third time".into()
        })
    );
}

#[test]
fn the_quiet_limit_draws() {
    let house = HouseRules {
        quiet_limit: 3,
        ..free()
    };
    let g = pos("Sd4 Nh8", "south", house);
    let n = after(&after(&g, "d4-d5"), "h8-h7");
    assert!(n.outcome().is_none());
    let n = after(&n, "d5-e4");
    assert_eq!(
        n.outcome(),
        Some(Outcome::Draw {
            seats: vec![Seat(0), Seat(1)],
            reason: "3 actions in a row without a drop or a capture".into()
        })
    );
    // A drop resets the count.
    let m = after(&after(&after(&g, "d4-d5"), "h8-h7"), "S@g2");
    assert_eq!(m.quiet_actions(), 0);
    assert!(m.outcome().is_none());
}

// ---------------------------------------------------------------- house rules, one test each

#[test]
fn switch_straight_moves() {
    assert_eq!(texts(&pos("Sh3", "south", free())).len(), 82);
    assert_eq!(texts(&pos("Sh3", "south", straight())).len(), 12);
}

#[test]
fn switch_first_player() {
    let h = HouseRules {
        first_player: FirstPlayer::North,
        ..free()
    };
    let g = Hexmeister::new_game(2, h).unwrap();
    assert_eq!(g.to_move(), Some(Seat(1)));
    assert_eq!(texts(&g), sorted("S@b7 S@c8 S@d9 S@e10"));
    assert_eq!(
        Hexmeister::new_game(2, free()).unwrap().to_move(),
        Some(Seat(0))
    );
}

#[test]
fn switch_drop_on_base_gates() {
    let h = HouseRules {
        drop_on_base_gates: true,
        ..free()
    };
    let g = Hexmeister::new_game(2, h).unwrap();
    assert_eq!(texts(&g), sorted("S@f1 S@g2 S@h3 S@i4 S@j5 S@k6"));
    // Dropping onto a gate is not a move onto it "from the grid": no bonus.
    assert_eq!(after(&g, "S@f1").to_move(), Some(Seat(1)));
    assert!(illegal(&Hexmeister::new_game(2, free()).unwrap(), "S@f1").contains("drops only on"));
}

#[test]
fn switch_mandatory_bonus() {
    let g = pos("Sd4 Nh8", "south", free());
    assert!(texts(&after(&g, "d4-c3")).contains(&"pass".to_string()));
    let h = HouseRules {
        mandatory_bonus: true,
        ..free()
    };
    let m = after(&pos("Sd4 Nh8", "south", h), "d4-c3");
    assert!(m.bonus_pending());
    assert!(!texts(&m).contains(&"pass".to_string()));
    assert!(illegal(&m, "pass").contains("must be taken"));
}

#[test]
fn switch_cross_opponent_gates() {
    // Sliding from d4 towards b2 crosses c3, held by North.
    let g = pos("Sd4 Nc3", "south", straight());
    assert!(!dests(&g, "d4").contains(&"b2".to_string()));
    let h = HouseRules {
        cross_opponent_gates: true,
        ..straight()
    };
    assert!(dests(&pos("Sd4 Nc3", "south", h), "d4").contains(&"b2".to_string()));
    // Free path: a stone walled in by ring cells and an opponent gate.
    // b2's way out is c3 (a North gate), b3 and c2 (occupied lanes) or the dead end a1 (a gate
    // whose other neighbours are ring cells).
    let walled = "Sb2 Nc3 Nb3 Sc2";
    let g = pos(walled, "south", free());
    let h = HouseRules {
        cross_opponent_gates: true,
        ..free()
    };
    assert_eq!(dests(&g, "b2"), ["a1", "a2", "b1"]);
    let d = dests(&pos(walled, "south", h), "b2");
    assert!(d.len() > 60 && d.contains(&"d4".to_string()), "{d:?}");
}

#[test]
fn switch_allow_self_capture() {
    // North holds f6 and seven more gates, which cancels South's triangulation of f6. Leaving k6
    // would bring North down to seven gates and expose its own f6 stone.
    let stones = "Sc3 Sa1 Sc6 Sa6 Nf6 Nf3 Nf9 Nf11 Ni9 Nk11 Ni6 Nk6";
    let g = pos(stones, "north", free());
    assert!(illegal(&g, "k6-j6").contains("self-capture"));
    assert!(!dests(&g, "k6").contains(&"j6".to_string()));
    let h = HouseRules {
        allow_self_capture: true,
        ..free()
    };
    let g = pos(stones, "north", h);
    let n = after(&g, "k6-j6");
    assert_eq!(n.stone_at(cell("f6")), Some(Seat(1)));
    // South's next action, any action, takes it, and earns a bonus.
    let m = after(&n, "S@g2");
    assert_eq!(m.stone_at(cell("f6")), None);
    assert!(m.bonus_pending());
}

#[test]
fn switch_centre_counts_for_eight() {
    // North: f6 + 7 gates. South completes T-W/NW with b6-a6.
    let stones = "Sc3 Sa1 Sc6 Sb6 Nf6 Nf3 Nf9 Nf11 Ni9 Nk11 Ni6 Nk6";
    let g = pos(stones, "south", free());
    assert_eq!(after(&g, "b6-a6").stone_at(cell("f6")), Some(Seat(1)));
    let h = HouseRules {
        centre_counts_for_eight: false,
        ..free()
    };
    let g = pos(stones, "south", h);
    assert_eq!(after(&g, "b6-a6").stone_at(cell("f6")), None);
}

#[test]
fn switch_stalemate() {
    let g = pos_with("Nh8", "south", free(), &[("south", 0)]);
    assert_eq!(texts(&g), ["pass"]);
    assert!(g.outcome().is_none());
    let h = HouseRules {
        stalemate: Stalemate::Lose,
        ..free()
    };
    let g = pos_with("Nh8", "south", h, &[("south", 0)]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winners: vec![Seat(1)],
            reason: "south has no legal action".into()
        })
    );
    assert!(g.legal_moves().is_empty());
}

#[test]
fn switch_repetition_draw() {
    let h = HouseRules {
        repetition_draw: false,
        ..free()
    };
    let mut n = pos("Sd4 Nh8", "south", h);
    for _ in 0..3 {
        for t in ["d4-d5", "h8-h7", "d5-d4", "h7-h8"] {
            n.play(t).unwrap();
        }
    }
    assert!(n.outcome().is_none());
}

#[test]
fn switch_quiet_limit_off_and_default() {
    let mut n = pos(
        "Sd4 Nh8",
        "south",
        HouseRules {
            quiet_limit: 0,
            repetition_draw: false,
            ..free()
        },
    );
    for _ in 0..60 {
        for t in ["d4-d5", "h8-h7", "d5-d4", "h7-h8"] {
            n.play(t).unwrap();
        }
    }
    assert!(n.outcome().is_none());
    assert_eq!(n.quiet_actions(), 240);
    let mut n = pos(
        "Sd4 Nh8",
        "south",
        HouseRules {
            repetition_draw: false,
            ..free()
        },
    );
    for i in 0..100 {
        assert!(n.outcome().is_none(), "{i}");
        let t = ["d4-d5", "h8-h7", "d5-d4", "h7-h8"][i % 4];
        n.play(t).unwrap();
    }
    assert!(matches!(n.outcome(), Some(Outcome::Draw { .. })));
}

// ---------------------------------------------------------------- text and JSON

#[test]
fn move_text_forms() {
    let g = pos("Sh3 Nd4", "south", free());
    assert_eq!(g.parse_move("S@g2").unwrap(), Action::Drop(cell("g2")));
    assert_eq!(g.parse_move("s@G2").unwrap(), Action::Drop(cell("g2")));
    assert_eq!(g.parse_move("*g2").unwrap(), Action::Drop(cell("g2")));
    assert_eq!(
        g.parse_move("H3-F1").unwrap(),
        Action::Move {
            from: cell("h3"),
            to: cell("f1")
        }
    );
    for bad in [
        "", "h3", "h3xf1", "h3-f1-f2", "K@g2", "z9-f1", "h3-f1=Q", "hop", "*", "S@",
    ] {
        assert!(
            matches!(g.parse_move(bad), Err(PlayError::Syntax(_))),
            "{bad:?}"
        );
    }
    assert!(illegal(&g, "d4-d5").contains("north's"));
    assert!(illegal(&g, "e4-e5").contains("no stone on e4"));
    assert!(illegal(&g, "h3-d4").contains("occupied"));
    assert!(illegal(&g, "h3-f6").contains("gate"));
    assert!(illegal(&g, "S@b7").contains("drops only on g2 h3 i4 j5"));
    assert!(illegal(&g, "S@h3").contains("occupied"));
    let walled = pos("Sb2 Nc3 Nb3 Sc2", "south", free());
    assert!(illegal(&walled, "b2-d4").contains("no open route"));
    let none = pos_with("Sd4", "south", free(), &[("south", 0)]);
    assert!(illegal(&none, "S@g2").contains("no stones in reserve"));
    for a in g.legal_moves() {
        assert_eq!(g.parse_move(&g.move_text(&a)).unwrap(), a);
    }
}

#[test]
fn json_round_trips_with_every_field() {
    let h = HouseRules {
        quiet_limit: 50,
        ..free()
    };
    let g = pos("Sd4 Nh8", "south", h);
    let n = after(&after(&g, "d4-c3"), "c3-b2");
    let json = n.to_json();
    assert!(json.contains("\"reserves\""), "{json}");
    assert!(json.contains("\"quiet_limit\": 50"), "{json}");
    assert!(json.contains("Sd4 Nh8 | 17 17 | south"), "{json}");
    assert!(json.contains("Sc3 Nh8 | 17 17 | south bonus"), "{json}");
    let back = Hexmeister::from_json(&json).unwrap();
    assert_eq!(back.to_json(), json);
    assert_eq!(back.legal_move_texts(), n.legal_move_texts());
    assert_eq!(back.quiet_actions(), 2);
    let bonus = after(&g, "d4-c3");
    let back = Hexmeister::from_json(&bonus.to_json()).unwrap();
    assert!(back.bonus_pending());
    assert_eq!(back.to_json(), bonus.to_json());
    // A finished game stays finished.
    let won = after(&pos("Sa1 Sc3 Si9 Sk11 Se5", "south", free()), "e5-f6");
    assert_eq!(
        Hexmeister::from_json(&won.to_json()).unwrap().outcome(),
        won.outcome()
    );
}

#[test]
fn bad_positions_are_rejected_with_a_reason() {
    let ok = r#"{"game":"hexmeister","to_move":"south","pieces":[{"cell":"d4","owner":"south","kind":"stone"}]}"#;
    let g = Hexmeister::from_json(ok).unwrap();
    assert_eq!(g.reserve(Seat(0)), 17);
    let cases = [
        (r#"{"game":"hexdame","to_move":"south"}"#, "not hexmeister"),
        (
            r#"{"game":"hexmeister","to_move":"east"}"#,
            "unknown colour",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","pieces":[{"cell":"z1","owner":"south","kind":"stone"}]}"#,
            "unknown cell",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","pieces":[{"cell":"d4","owner":"red","kind":"stone"}]}"#,
            "unknown colour",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","pieces":[{"cell":"d4","owner":"south","kind":"king"}]}"#,
            "unknown piece kind",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","pieces":[{"cell":"d4","owner":"south","kind":"stone","moved":true}]}"#,
            "does not use",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","pieces":[{"cell":"d4","owner":"south","kind":"stone"},{"cell":"D4","owner":"north","kind":"stone"}]}"#,
            "two pieces on d4",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","reserves":{"south":{"stone":19}}}"#,
            "a player has 18",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","reserves":{"south":{"disc":1}}}"#,
            "malformed",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","reserves":{"west":{"stone":1}}}"#,
            "unknown colour",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","passes":3}"#,
            "at most 2",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","passes":1,"bonus":true}"#,
            "bonus",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","history":["nonsense"]}"#,
            "bad history entry",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","history":["Sd4 | 17 | south"]}"#,
            "two reserve counts",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","history":["Xd4 | 17 18 | south"]}"#,
            "bad history entry",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","history":["- | 17 18 | up"]}"#,
            "bad history entry",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","house_rules":{"gravity":true}}"#,
            "malformed",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","colour":"red"}"#,
            "malformed",
        ),
        (
            r#"{"game":"hexmeister","to_move":"south","pieces":[{"cell":"e4","owner":"north","kind":"stone"},{"cell":"d4","owner":"south","kind":"stone"},{"cell":"f4","owner":"south","kind":"stone"},{"cell":"e3","owner":"south","kind":"stone"}]}"#,
            "secured by south",
        ),
        ("[1,2", "malformed"),
    ];
    for (json, want) in cases {
        let e = Hexmeister::from_json(json).unwrap_err().to_string();
        assert!(e.contains(want), "{json}: {e}");
        assert!(e.starts_with(|c: char| c.is_ascii_lowercase()), "{e}");
    }
    let both = "Sa1 Sc3 Sf6 Si9 Sk11 Nf1 Nf3 Nf9 Nf11 Na6";
    let pieces: Vec<PieceText> = both
        .split_whitespace()
        .map(|t| {
            PieceText::new(
                &t[1..],
                if t.starts_with('S') { "south" } else { "north" },
                "stone",
            )
        })
        .collect();
    let setup = Setup {
        game: "hexmeister".into(),
        to_move: "south".into(),
        pieces,
        reserves: Default::default(),
        bonus: false,
        passes: 0,
        history: vec![],
        house_rules: free(),
        settled: None,
    };
    // South holds A1 (and f6 blocks North's A2): only South has won.
    let g = Hexmeister::from_setup(setup).unwrap();
    assert!(matches!(g.outcome(), Some(Outcome::Win { winners, .. }) if winners == vec![Seat(0)]));
    assert!(Hexmeister::new_game(3, free()).is_err());
}

// ---------------------------------------------------------------- a literal reference engine

/// §4 written out cell by cell with the shared `Geometry` and the spec's lists as text, sharing
/// nothing with the bit-set engine but cell roles (checked against the diagram above). Slow.
mod reference {
    use super::*;

    const TRIANGLES: [&str; 6] = [
        "f6 c3 a1 c6 a6",
        "f6 c6 a6 f9 f11",
        "f6 f9 f11 i9 k11",
        "f6 i9 k11 i6 k6",
        "f6 i6 k6 f3 f1",
        "f6 f3 f1 c3 a1",
    ];
    const WINS: [&str; 5] = [
        "a1 c3 f6 i9 k11",
        "f1 f3 f6 f9 f11",
        "a6 c6 f6 i6 k6",
        "c3 c6 f9 i9 i6 f3",
        "a1 a6 f11 k11 k6 f1",
    ];
    const BASE: [&str; 2] = ["f1 g2 h3 i4 j5 k6", "a6 b7 c8 d9 e10 f11"];

    fn list(s: &str) -> Vec<Cell> {
        s.split_whitespace().map(cell).collect()
    }

    struct Tables {
        nbrs: Vec<Vec<Cell>>,
        triangles: Vec<Vec<Cell>>,
        wins: Vec<Vec<Cell>>,
        base: [Vec<Cell>; 2],
    }

    static TABLES: std::sync::LazyLock<Tables> = std::sync::LazyLock::new(|| Tables {
        nbrs: geometry()
            .cells()
            .map(|c| {
                Direction::FLATS
                    .iter()
                    .filter_map(|&d| geometry().step(c, d))
                    .collect()
            })
            .collect(),
        triangles: TRIANGLES.iter().map(|t| list(t)).collect(),
        wins: WINS.iter().map(|t| list(t)).collect(),
        base: BASE.map(list),
    });

    fn nbrs(c: Cell) -> &'static [Cell] {
        &TABLES.nbrs[c.index()]
    }

    fn is_gate(c: Cell) -> bool {
        role(c) == CellRole::Gate
    }

    fn base_gate(p: usize, c: Cell) -> bool {
        let row = &TABLES.base[p];
        c == row[0] || c == row[5]
    }

    fn base_cell(p: usize, c: Cell) -> bool {
        TABLES.base[p].contains(&c) && !is_gate(c)
    }

    #[derive(Clone, Debug)]
    pub struct Ref {
        pub at: Vec<Option<usize>>,
        pub reserves: [u8; 2],
        pub to_move: usize,
        pub bonus: bool,
        pub passes: u8,
        pub house: HouseRules,
        pub over: bool,
    }

    impl Ref {
        pub fn of(g: &Hexmeister) -> Ref {
            let mut at = vec![None; 91];
            for (c, s) in g.stones() {
                at[c.index()] = Some(s.index());
            }
            Ref {
                at,
                reserves: [g.reserve(Seat(0)), g.reserve(Seat(1))],
                to_move: g.seat_on_turn().index(),
                bonus: g.bonus_pending(),
                passes: g.to_setup().passes,
                house: *g.house_rules(),
                over: g.outcome().is_some(),
            }
        }

        fn gates_held(&self, q: usize) -> usize {
            geometry()
                .cells()
                .filter(|&c| is_gate(c) && self.at[c.index()] == Some(q))
                .filter(|&c| self.house.centre_counts_for_eight || geometry().name(c) != "f6")
                .count()
        }

        /// Whether `q` secures `x` (§4.3).
        pub fn secures(&self, q: usize, x: Cell) -> bool {
            let prox = nbrs(x)
                .iter()
                .filter(|n| self.at[n.index()] == Some(q))
                .count()
                >= 3;
            let tri = is_gate(x)
                && TABLES.triangles.iter().any(|t| {
                    t.contains(&x)
                        && t.iter()
                            .filter(|&&g| g != x)
                            .all(|g| self.at[g.index()] == Some(q))
                });
            if prox {
                return true;
            }
            tri && !(geometry().name(x) == "f6" && self.gates_held(1 - q) >= 8)
        }

        fn open(&self, p: usize, c: Cell) -> bool {
            match self.at[c.index()] {
                None => role(c) != CellRole::Ring || TABLES.base[p].contains(&c),
                Some(o) => is_gate(c) && (o == p || self.house.cross_opponent_gates),
            }
        }

        /// The cells a stone on `s` can reach along a path (any type; the destination rules are
        /// checked elsewhere).
        fn reach(&self, p: usize, s: Cell) -> Vec<bool> {
            let mut out = vec![false; 91];
            if self.house.straight_moves {
                for &dir in &Direction::FLATS {
                    for &c in geometry().ray(s, dir) {
                        out[c.index()] = true;
                        if !self.open(p, c) {
                            break;
                        }
                    }
                }
                return out;
            }
            // Depth-first over open intermediate cells.
            let mut seen = [false; 91];
            let mut stack = vec![s];
            seen[s.index()] = true;
            while let Some(c) = stack.pop() {
                for &n in nbrs(c) {
                    out[n.index()] = true;
                    if !seen[n.index()] && self.open(p, n) {
                        seen[n.index()] = true;
                        stack.push(n);
                    }
                }
            }
            out
        }

        /// Apply a drop or move with its captures; returns captured count and gate bonus.
        fn apply(&mut self, a: &Action) -> (usize, bool) {
            let p = self.to_move;
            let gate_bonus = match *a {
                Action::Drop(c) => {
                    self.at[c.index()] = Some(p);
                    self.reserves[p] -= 1;
                    false
                }
                Action::Move { from, to } => {
                    self.at[from.index()] = None;
                    self.at[to.index()] = Some(p);
                    is_gate(to) && !(base_cell(p, from) && base_gate(p, to))
                }
                Action::Pass => false,
            };
            let mut taken = 0;
            loop {
                let hit: Vec<Cell> = geometry()
                    .cells()
                    .filter(|&c| self.at[c.index()] == Some(1 - p) && self.secures(p, c))
                    .collect();
                if hit.is_empty() {
                    break;
                }
                for c in hit {
                    self.at[c.index()] = None;
                    taken += 1;
                }
            }
            (taken, gate_bonus)
        }

        fn legal_drop(&self, c: Cell) -> bool {
            let p = self.to_move;
            let cells_ok = if self.house.drop_on_base_gates {
                TABLES.base[p].contains(&c)
            } else {
                base_cell(p, c)
            };
            self.reserves[p] > 0
                && cells_ok
                && self.at[c.index()].is_none()
                && !self.secures(1 - p, c)
        }

        fn legal_move(&self, s: Cell, d: Cell, reach: &[bool]) -> bool {
            let p = self.to_move;
            if self.at[s.index()] != Some(p) || s == d || self.at[d.index()].is_some() {
                return false;
            }
            if self.secures(1 - p, d) {
                return false;
            }
            if is_gate(d) && !nbrs(s).contains(&d) && !(base_cell(p, s) && base_gate(p, d)) {
                return false;
            }
            if !reach[d.index()] {
                return false;
            }
            if !self.house.allow_self_capture {
                let mut next = self.clone();
                next.apply(&Action::Move { from: s, to: d });
                if geometry()
                    .cells()
                    .any(|c| next.at[c.index()] == Some(p) && next.secures(1 - p, c))
                {
                    return false;
                }
            }
            true
        }

        pub fn actions(&self) -> Vec<Action> {
            if self.over {
                return vec![];
            }
            let mut v = Vec::new();
            for c in geometry().cells() {
                if self.legal_drop(c) {
                    v.push(Action::Drop(c));
                }
            }
            for s in geometry().cells() {
                if self.at[s.index()] != Some(self.to_move) {
                    continue;
                }
                let reach = self.reach(self.to_move, s);
                for d in geometry().cells() {
                    if self.legal_move(s, d, &reach) {
                        v.push(Action::Move { from: s, to: d });
                    }
                }
            }
            if v.is_empty() || (self.bonus && !self.house.mandatory_bonus) {
                v.push(Action::Pass);
            }
            v
        }

        pub fn play(&mut self, a: &Action) {
            let p = self.to_move;
            if *a == Action::Pass {
                if !self.bonus {
                    self.passes += 1;
                }
                self.bonus = false;
                self.to_move = 1 - p;
            } else {
                let (taken, gate_bonus) = self.apply(a);
                self.passes = 0;
                self.bonus = taken > 0 || gate_bonus;
                if !self.bonus {
                    self.to_move = 1 - p;
                }
            }
            let won = (0..2).any(|q| {
                TABLES
                    .wins
                    .iter()
                    .any(|w| w.iter().all(|c| self.at[c.index()] == Some(q)))
            });
            self.over = won || self.passes >= 2;
        }

        pub fn perft(&self, depth: u32) -> u64 {
            let moves = self.actions();
            if depth == 1 {
                return moves.len() as u64;
            }
            moves
                .iter()
                .map(|m| {
                    let mut n = self.clone();
                    n.play(m);
                    n.perft(depth - 1)
                })
                .sum()
        }
    }
}

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::Ref;

fn sorted_actions(mut v: Vec<Action>) -> Vec<Action> {
    v.sort_by_key(|a| match *a {
        Action::Drop(c) => (0, c.0, 0),
        Action::Move { from, to } => (1, from.0, to.0),
        Action::Pass => (2, 0, 0),
    });
    v
}

/// A random valid position: stones sprinkled with gates favoured (so triangulation and the
/// eight-gate rule come up), random side to move, bonus state and reserves.
/// With `centre_fight`, one side triangulates f6 while the other holds f6 and 6 to 8 more gates,
/// so the eight-gate rule, cascades and self-capture come up.
fn random_position(
    rng: &mut ChaCha8Rng,
    house: HouseRules,
    centre_fight: bool,
) -> Option<Hexmeister> {
    let side = |i: usize| if i == 0 { "south" } else { "north" };
    let mut owner: Vec<Option<usize>> = vec![None; 91];
    if centre_fight {
        let attacker = rng.random_range(0..2);
        let t = &segmental_triangles()[rng.random_range(0..6)];
        let f6 = cell("f6");
        for c in t.iter().filter(|&c| c != f6) {
            owner[c.index()] = Some(attacker);
        }
        owner[f6.index()] = Some(1 - attacker);
        let mut others: Vec<Cell> = gates().iter().filter(|&c| !t.contains(c)).collect();
        let keep = rng.random_range(6..=8);
        while others.len() > keep {
            others.remove(rng.random_range(0..others.len()));
        }
        for c in others {
            owner[c.index()] = Some(1 - attacker);
        }
    }
    for c in geometry().cells() {
        let p = match (role(c), centre_fight) {
            (CellRole::Gate, true) => 0,
            (CellRole::Gate, false) => 55,
            (_, true) => 12,
            (_, false) => 18,
        };
        if owner[c.index()].is_none() && rng.random_range(0..100) < p {
            owner[c.index()] = Some(rng.random_range(0..2));
        }
    }
    let pieces = geometry()
        .cells()
        .filter_map(|c| {
            owner[c.index()].map(|o| PieceText::new(geometry().name(c), side(o), "stone"))
        })
        .collect();
    let reserves = [
        ("south", rng.random_range(0..3)),
        ("north", rng.random_range(0..3)),
    ]
    .iter()
    .map(|&(o, n)| (o.to_string(), ReserveText { stone: n }))
    .collect();
    let setup = Setup {
        game: "hexmeister".into(),
        to_move: if rng.random_range(0..2) == 0 {
            "south"
        } else {
            "north"
        }
        .into(),
        pieces,
        reserves,
        bonus: rng.random_range(0..4) == 0,
        passes: 0,
        history: vec![],
        house_rules: house,
        settled: None,
    };
    Hexmeister::from_setup(setup)
        .ok()
        .filter(|g| g.outcome().is_none())
}

fn random_house(rng: &mut ChaCha8Rng) -> HouseRules {
    HouseRules {
        straight_moves: rng.random_range(0..3) == 0,
        drop_on_base_gates: rng.random_range(0..4) == 0,
        mandatory_bonus: rng.random_range(0..4) == 0,
        cross_opponent_gates: rng.random_range(0..4) == 0,
        allow_self_capture: rng.random_range(0..4) == 0,
        centre_counts_for_eight: rng.random_range(0..4) != 0,
        ..HouseRules::default()
    }
}

#[test]
fn engine_agrees_with_the_reference_on_random_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x4e58);
    let (mut checked, mut self_capture_cuts, mut cascades) = (0, 0, 0);
    while checked < 150 {
        let house = random_house(&mut rng);
        let Some(g) = random_position(&mut rng, house, checked % 2 == 1) else {
            continue;
        };
        checked += 1;
        let r = Ref::of(&g);
        let want = sorted_actions(r.actions());
        let got = sorted_actions(g.legal_moves());
        assert_eq!(got, want, "{}", g.show());
        if !house.allow_self_capture {
            let mut loose = r.clone();
            loose.house.allow_self_capture = true;
            self_capture_cuts += loose.actions().len() - want.len();
        }
        for a in &got {
            let mut n = g.clone();
            n.play_unchecked(a);
            let mut rn = r.clone();
            rn.play(a);
            let before = g.stones().len() + usize::from(matches!(a, Action::Drop(_)));
            if before >= n.stones().len() + 2 {
                cascades += 1;
            }
            let mine: Vec<Option<usize>> = geometry()
                .cells()
                .map(|c| n.stone_at(c).map(|s| s.index()))
                .collect();
            assert_eq!(mine, rn.at, "{} after {}", g.show(), g.move_text(a));
            assert_eq!(n.bonus_pending(), rn.bonus, "{}", g.move_text(a));
            assert_eq!(n.seat_on_turn().index(), rn.to_move, "{}", g.move_text(a));
            assert_eq!(n.outcome().is_some(), rn.over, "{}", g.move_text(a));
        }
    }
    // The rare rules did come up.
    assert!(self_capture_cuts > 0, "no self-capture case was generated");
    assert!(cascades > 0, "no multiple capture was generated");
}

/// The mid-game positions of `tests/data/perft_hexmeister.txt`.
const DATA_POSITIONS: [(&str, &str); 5] = [
    (
        "mid1",
        include_str!("../../../tests/data/positions/hexmeister_mid1.json"),
    ),
    (
        "mid2",
        include_str!("../../../tests/data/positions/hexmeister_mid2.json"),
    ),
    (
        "bonus",
        include_str!("../../../tests/data/positions/hexmeister_bonus.json"),
    ),
    (
        "straight",
        include_str!("../../../tests/data/positions/hexmeister_straight.json"),
    ),
    (
        "hm9",
        include_str!("../../../tests/data/positions/hexmeister_hm9.json"),
    ),
];

/// The independent check of the perft data file: the reference engine counts depth 2 of every
/// data position (depth 3 is `reference_perft_depth_3`, ignored by default for its run time).
#[test]
fn perft_data_agrees_with_the_reference() {
    for (name, json) in DATA_POSITIONS {
        let g = Hexmeister::from_json(json).unwrap();
        let r = Ref::of(&g);
        assert_eq!(r.perft(1), g.perft(1), "{name}");
        assert_eq!(r.perft(2), g.perft(2), "{name}");
    }
}

#[test]
#[ignore = "slow: the reference engine at depth 3 (run with --ignored --release)"]
fn reference_perft_depth_3() {
    let g = Hexmeister::new_game(2, free()).unwrap();
    assert_eq!(Ref::of(&g).perft(4), 104_912);
    for (name, json) in DATA_POSITIONS {
        let g = Hexmeister::from_json(json).unwrap();
        assert_eq!(Ref::of(&g).perft(3), g.perft(3), "{name}");
    }
}

#[test]
fn engine_perft_agrees_with_the_reference() {
    let g = Hexmeister::new_game(2, free()).unwrap();
    assert_eq!(Ref::of(&g).perft(3), g.perft(3));
    for (stones, to_move) in [
        ("Sd4 Sf4 Se2 Ne4", "south"),
        ("Sc3 Sa1 Sf3 Sf5 Nf1", "south"),
        (
            "Sc3 Sa1 Sc6 Sa6 Nf1 Nf3 Nf9 Nf11 Ni9 Nk11 Ni6 Nk6 Ne5",
            "north",
        ),
    ] {
        for house in [free(), straight()] {
            let g = pos(stones, to_move, house);
            assert_eq!(Ref::of(&g).perft(2), g.perft(2), "{stones}");
        }
    }
}
