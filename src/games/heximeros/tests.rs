//! The test positions of `docs/rules/heximeros.md` §11, the House Rule switches, and procedures.

use super::*;
use crate::games::Rules;

/// Build a position from lines like `"silver sovereign Q26 bonus"` (flags: moved, hatted, bonus).
fn setup(to_move: &str, pieces: &[&str], house: HouseRules) -> Setup {
    Setup {
        game: "heximeros".into(),
        to_move: Some(to_move.into()),
        pieces: pieces
            .iter()
            .map(|line| {
                let w: Vec<&str> = line.split_whitespace().collect();
                let mut p = crate::games::PieceText::new(w[2], w[0], w[1]);
                p.moved = w.contains(&"moved");
                p.hatted = w.contains(&"hatted");
                p.gz_bonus = w.contains(&"bonus");
                p
            })
            .collect(),
        eliminated: vec![],
        checks: vec![],
        halfmove_clock: 0,
        controllers: Default::default(),
        prisoners: vec![],
        conceded: vec![],
        result: None,
        house_rules: house,
    }
}

/// A test position in which only the listed pieces stand (§11 convention): every colour counts
/// as active even without a Sovereign, so nothing is frozen.
fn only(pieces: &[&str]) -> HexiMeros {
    only_with(pieces, HouseRules::default())
}

fn only_with(pieces: &[&str], house: HouseRules) -> HexiMeros {
    let mut g = HexiMeros::from_setup(setup("silver", pieces, house)).unwrap();
    g.active = [true; 6];
    g.out_order.clear();
    g.result = None;
    g.to_move = 0;
    g
}

/// A real position: seats without a Sovereign are out.
fn real(to_move: &str, pieces: &[&str], house: HouseRules) -> HexiMeros {
    HexiMeros::from_setup(setup(to_move, pieces, house)).unwrap()
}

fn cell(name: &str) -> Cell {
    BOARD.geometry.parse(name).unwrap()
}

/// The destinations of the piece on `from`: `Q28`, `xQ28` (a capture), `*Q28` (a shot);
/// promotion choices are left out.
fn dests(g: &HexiMeros, from: &str) -> Vec<String> {
    let mut moves = Vec::new();
    g.piece_moves(cell(from), &mut moves);
    let mut v: Vec<String> = moves
        .iter()
        .filter(|m| m.promotion.is_none())
        .map(|m| {
            let to = BOARD.geometry.name(m.to);
            match m.action {
                Action::Shot => format!("*{to}"),
                _ if g.removed_by(m).is_empty() => to.to_string(),
                _ => format!("x{to}"),
            }
        })
        .collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn removed(g: &HexiMeros, from: &str, to: &str) -> Vec<String> {
    let mut moves = Vec::new();
    g.piece_moves(cell(from), &mut moves);
    let m = moves
        .iter()
        .find(|m| m.to == cell(to) && m.promotion.is_none())
        .unwrap_or_else(|| panic!("no move {from}-{to}"));
    let mut v: Vec<String> = g
        .removed_by(m)
        .iter()
        .map(|&c| BOARD.geometry.name(c).to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn board_has_649_cells_and_named_landmarks() {
    assert_eq!(BOARD.geometry.len(), 649);
    assert_eq!(BOARD.geometry.name(BOARD.gz), "Q26");
    assert_eq!(cell("q26"), BOARD.gz);
    let names: Vec<String> = (0..6).map(|k| hex_name(base_space(k))).collect();
    assert_eq!(names, ["Q0", "D13", "D39", "Q52", "AD39", "AD13"]);
    for k in 0..6 {
        assert!(
            BOARD.geometry.cell(base_space(k)).is_none(),
            "base spaces are off the board"
        );
        assert_eq!(BOARD.base_line[k].len(), 17);
    }
    assert!(
        BOARD.geometry.parse("Q27").is_none(),
        "column+row must be odd"
    );
    assert!(BOARD.geometry.parse("A1").is_none(), "outside the hexagon");
}

#[test]
fn t1_sovereign_without_bonus() {
    let g = only(&["silver sovereign Q26"]);
    assert_eq!(
        dests(&g, "Q26"),
        sorted(&[
            "Q28", "R27", "R25", "Q24", "P25", "P27", "R29", "S26", "R23", "P23", "O26", "P29"
        ])
    );
}

#[test]
fn t2_sovereign_with_bonus() {
    let g = only(&["silver sovereign Q26 bonus"]);
    let mut want = vec![
        "Q28", "R27", "R25", "Q24", "P25", "P27", "R29", "S26", "R23", "P23", "O26", "P29",
    ];
    want.extend([
        "Q30", "S28", "S24", "Q22", "O24", "O28", "S32", "U26", "S20", "O20", "M26", "O32",
    ]);
    assert_eq!(dests(&g, "Q26"), sorted(&want));
}

#[test]
fn t3_line_flanks_do_not_block() {
    let g = only(&[
        "silver sovereign Q26 bonus",
        "silver militant Q28 moved",
        "blue militant R27",
    ]);
    let d = dests(&g, "Q26");
    assert_eq!(d.len(), 21);
    for gone in ["Q28", "Q30", "S28"] {
        assert!(!d.contains(&gone.to_string()), "{gone} should be gone");
    }
    for kept in ["xR27", "R29", "S32"] {
        assert!(d.contains(&kept.to_string()), "{kept} should stay");
    }
}

#[test]
fn t4_alcazar_reaches_the_six_sovereign_cells() {
    let g = only(&["silver alcazar Q26"]);
    let d = dests(&g, "Q26");
    assert_eq!(d.len(), 72);
    for end in ["Q50", "AC38", "AC14", "Q2", "E14", "E38"] {
        assert!(d.contains(&end.to_string()));
    }
}

#[test]
fn t5_prelate_range_and_first_move() {
    assert_eq!(dests(&only(&["silver prelate Q26"]), "Q26").len(), 54);
    let d = dests(&only(&["silver prelate Q26 moved"]), "Q26");
    assert_eq!(d.len(), 48);
    for end in ["AG26", "Y50", "I50", "A26", "I2", "Y2"] {
        assert!(d.contains(&end.to_string()), "{end}");
    }
}

#[test]
fn t5b_prelate_line_flanks() {
    let g = only(&[
        "silver prelate Q26 moved",
        "blue militant Q28",
        "blue militant R27",
        "orange militant S32",
    ]);
    let d = dests(&g, "Q26");
    assert_eq!(d.len(), 42);
    assert!(d.contains(&"R29".to_string()) && d.contains(&"xS32".to_string()));
    assert!(!d.contains(&"T35".to_string()));
}

#[test]
fn t6_militant_first_move() {
    let pieces = [
        "blue cavalier P11",
        "red archer R15",
        "silver militant P13 moved",
    ];
    let mut v = vec!["silver militant Q10"];
    v.extend(pieces);
    assert_eq!(
        dests(&only(&v), "Q10"),
        sorted(&["Q12", "Q14", "xP11", "xR15"])
    );
    let mut v = vec!["silver militant Q10 moved"];
    v.extend(pieces);
    assert_eq!(dests(&only(&v), "Q10"), sorted(&["Q12", "xP11"]));
}

#[test]
fn t6c_blocked_forward() {
    let g = only(&[
        "silver militant Q10",
        "blue alcazar Q12",
        "yellow militant R13",
    ]);
    assert_eq!(dests(&g, "Q10"), ["xR13"]);
}

#[test]
fn t7_blue_orientation() {
    let g = only(&["blue militant E14", "orange regent F13"]);
    assert_eq!(dests(&g, "E14"), sorted(&["F15", "G16", "xF13"]));
    let diag: Vec<&str> = board::militant_diagonals(1)
        .iter()
        .map(|&d| {
            BOARD
                .geometry
                .name(BOARD.geometry.step(cell("E14"), d).unwrap())
        })
        .collect();
    assert_eq!(sorted(&diag), sorted(&["F13", "E16", "G14", "F17"]));
}

#[test]
fn t8_cavalier_pattern() {
    let g = only(&["silver cavalier Q26"]);
    let want = "L25 L27 N19 N25 N27 N33 O18 O22 O30 O34 P21 P31 R21 R31 S18 S22 S30 S34 T19 T25 \
                T27 T33 V25 V27";
    assert_eq!(
        dests(&g, "Q26"),
        sorted(&want.split_whitespace().collect::<Vec<_>>())
    );
}

#[test]
fn t9_dreadnaught_ram() {
    let g = only(&[
        "silver dreadnaught Q20",
        "silver militant Q22",
        "blue prelate Q24",
        "silver sovereign Q28",
        "orange militant R21",
        "orange assassin S22",
    ]);
    let d = dests(&g, "Q20");
    assert_eq!(d.len(), 23);
    assert_eq!(removed(&g, "Q20", "Q22"), ["Q22"]);
    assert_eq!(removed(&g, "Q20", "Q24"), ["Q22", "Q24"]);
    assert_eq!(removed(&g, "Q20", "Q26"), ["Q22", "Q24"]);
    assert!(!d.iter().any(|x| x.ends_with("Q28")));
    assert_eq!(removed(&g, "Q20", "R21"), ["R21"]);
    for to in ["S22", "T23", "U24"] {
        assert_eq!(removed(&g, "Q20", to), ["R21", "S22"]);
    }
    for plain in "R19 S18 T17 U16 Q18 Q16 Q14 Q12 P19 O18 N17 M16 P21 O22 N23 M24".split(' ') {
        assert!(d.contains(&plain.to_string()), "{plain}");
    }
}

const T10: [&str; 7] = [
    "silver archer Q20 moved",
    "silver militant Q22",
    "blue regent Q24",
    "green cavalier S20",
    "red alcazar W20",
    "orange militant N17",
    "yellow sovereign T21",
];

#[test]
fn t10_archer() {
    let g = only(&T10);
    let moves = "R21 S22 R19 S18 Q18 Q16 P19 O18 P21 O22 R23 S26 R17 S14 P17 O14 O20 M20 P23 O26";
    let mut want: Vec<&str> = moves.split(' ').collect();
    want.extend(["*S20", "*N17"]);
    assert_eq!(dests(&g, "Q20"), sorted(&want));
}

#[test]
fn t11_assassin() {
    let g = only(&[
        "silver assassin Q20 moved",
        "blue regent Q24",
        "silver militant R21",
        "orange alcazar S26",
    ]);
    let d = dests(&g, "Q20");
    assert_eq!(d.len(), 31);
    for x in ["Q22", "xQ24", "R23", "xS26"] {
        assert!(d.contains(&x.to_string()), "{x}");
    }
    assert!(!d.contains(&"R21".to_string()) && !d.contains(&"Q26".to_string()));
}

#[test]
fn t12_check_relief() {
    let mut g = real(
        "blue",
        &[
            "silver sovereign Q2",
            "silver regent Q20",
            "blue sovereign Q30",
            "blue alcazar U26",
        ],
        HouseRules::default(),
    );
    g.checks.push(CheckRecord {
        declarer: Seat(0),
        target: cell("Q30"),
    });
    assert_eq!(g.live_checks().len(), 1);
    let moves = g.legal_move_texts();
    let want = [
        "U26-Q22", "Q30-O30", "Q30-P27", "Q30-P29", "Q30-P31", "Q30-P33", "Q30-R27", "Q30-R29",
        "Q30-R31", "Q30-R33", "Q30-S30",
    ];
    assert_eq!(moves, sorted(&want));
    let err = g.clone().play("Q30-Q28").unwrap_err().to_string();
    assert!(err.contains("relieve"), "{err}");
    // After Blue's move the record is gone.
    g.play("Q30-S30").unwrap();
    assert!(g.check_records().is_empty());
}

/// Blue's lone Sovereign on Q2, attacked by Silver on every cell it can reach: the Regent holds
/// the Q file, Alcazars the P and R files, the Prelate row 2.
const NOWHERE_TO_GO: [&str; 6] = [
    "silver sovereign A26",
    "silver regent Q10",
    "silver alcazar P21",
    "silver alcazar R21",
    "silver prelate Y2 moved",
    "blue sovereign Q2",
];

#[test]
fn relief_lapses_when_nothing_relieves() {
    // Blue's Sovereign is boxed in by its own pieces and Silver's Regent attacks it: no move
    // relieves the check, so the duty lapses and every move is allowed.
    // Blue's Sovereign on Q10 is fenced in by Blue Militants that only move away from the
    // file, and Silver's Alcazar on Q20 attacks it down the file; Q8 behind it is still attacked.
    let mut g = real(
        "blue",
        &[
            "silver sovereign A26",
            "silver alcazar Q20",
            "blue sovereign Q10",
            "blue militant Q12 moved",
        ],
        HouseRules::default(),
    );
    g.checks.push(CheckRecord {
        declarer: Seat(0),
        target: cell("Q10"),
    });
    let mut pseudo = Vec::new();
    g.seat_moves(Seat(1), &mut pseudo);
    let live = g.live_checks();
    // The Militant on Q12 blocks the file, so the record is not live: nothing to relieve.
    assert!(live.is_empty());
    assert_eq!(g.legal().len(), pseudo.len());
    // Blue's lone Sovereign on Q2 is attacked by Silver (the declarer) on every cell it can
    // reach: the Regent holds the Q file, Alcazars the P and R files, the Prelate row 2. No move
    // relieves the check, so the duty lapses.
    let mut h = real("blue", &NOWHERE_TO_GO, HouseRules::default());
    h.checks.push(CheckRecord {
        declarer: Seat(0),
        target: cell("Q2"),
    });
    let live = h.live_checks();
    assert_eq!(live.len(), 1);
    let mut pseudo = Vec::new();
    h.seat_moves(Seat(1), &mut pseudo);
    assert!(
        pseudo.iter().all(|m| !h.relieves(m, &live)),
        "nothing relieves"
    );
    assert_eq!(h.legal().len(), pseudo.len(), "so the duty lapses");
}

#[test]
fn t13_militant_on_ground_zero() {
    let g = only(&[
        "silver militant Q26 bonus",
        "orange militant Q28",
        "green prelate S28",
        "blue archer P25",
    ]);
    assert_eq!(
        dests(&g, "Q26"),
        sorted(&[
            "R27", "R25", "S24", "Q24", "Q22", "P27", "O28", "xQ28", "xP25"
        ])
    );
    let mut moves = Vec::new();
    g.piece_moves(cell("Q26"), &mut moves);
    assert!(
        moves.iter().all(|m| m.promotion.is_none()),
        "no promotion leaving GZ"
    );
    let mut after = g.clone();
    after.play("Q26-Q22").unwrap();
    assert_eq!(after.piece(cell("Q22")).unwrap().kind, Kind::HattedMilitant);
    let mut no_direct = g.clone();
    no_direct.house.gz_militant_direct_capture = false;
    // Neither Q28 nor P25 lies on a step-then-diagonal route, so both captures need the rule.
    assert_eq!(
        dests(&no_direct, "Q26"),
        sorted(&["R27", "R25", "S24", "Q24", "Q22", "P27", "O28"])
    );
}

#[test]
fn t14_center_line_crossing_offers_promotion() {
    let g = only(&[
        "silver militant R25 moved",
        "blue militant S26",
        "red cavalier Q26",
        "yellow archer S28",
        "orange regent Q28",
    ]);
    assert_eq!(
        dests(&g, "R25"),
        sorted(&["R27", "xS26", "xQ26", "xS28", "xQ28"])
    );
    let mut moves = Vec::new();
    g.piece_moves(cell("R25"), &mut moves);
    assert_eq!(moves.len(), 5 * 8, "each move: decline or seven promotions");
    // Declining gives the Hat, except on Ground Zero.
    let mut a = g.clone();
    a.play("R25-R27").unwrap();
    assert_eq!(a.piece(cell("R27")).unwrap().kind, Kind::HattedMilitant);
    let mut b = g.clone();
    b.play("R25xQ26").unwrap();
    let p = b.piece(cell("Q26")).unwrap();
    assert_eq!((p.kind, p.bonus), (Kind::Militant, true));
    let mut c = g.clone();
    c.play("R25xQ26=Cavalier").unwrap();
    let p = c.piece(cell("Q26")).unwrap();
    assert_eq!((p.kind, p.bonus), (Kind::Cavalier, true), "bonus inherited");
    let mut d = g.clone();
    d.play("R25xQ26=Regent").unwrap();
    assert!(
        !d.piece(cell("Q26")).unwrap().bonus,
        "a Regent never gets the bonus"
    );
    let mut e = g.clone();
    e.play("R25-R27=Prelate").unwrap();
    let p = e.piece(cell("R27")).unwrap();
    assert_eq!(
        (p.kind, p.moved),
        (Kind::Prelate, false),
        "a new Prelate has its first move"
    );
}

#[test]
fn t15_prelate_along_the_edge() {
    let g = only(&["silver prelate P1 moved"]);
    let d = dests(&g, "P1");
    assert_eq!(d.len(), 32);
    for c in [
        "R1", "T1", "V1", "X1", "N1", "L1", "J1", "Q4", "AC40", "O4", "D37",
    ] {
        assert!(d.contains(&c.to_string()), "{c}");
    }
}

#[test]
fn t16_cavalier_route_in_bounds() {
    let g = only(&["silver cavalier Q2"]);
    assert_eq!(
        dests(&g, "Q2"),
        sorted(&[
            "R7", "S10", "P7", "O10", "S6", "T3", "T9", "V3", "O6", "N3", "N9", "L3"
        ])
    );
}

#[test]
fn t17_prelate_first_move() {
    let g = only(&[
        "silver prelate O2",
        "silver militant O4",
        "silver militant P3",
        "silver dreadnaught M2",
        "silver sovereign Q2",
        "silver regent P1",
        "silver archer N1",
        "blue militant N3",
    ]);
    let d = dests(&g, "O2");
    assert_eq!(d.len(), 25);
    assert!(d.contains(&"xN3".to_string()) && d.contains(&"AB41".to_string()));
    assert!(d.contains(&"D35".to_string()) && d.contains(&"P5".to_string()));
    let mut off = g.clone();
    off.house.prelate_first_move = false;
    assert_eq!(dests(&off, "O2").len(), 24);
}

#[test]
fn t18_dreadnaught_with_bonus() {
    let g = only(&[
        "silver dreadnaught Q26 bonus",
        "blue militant Q22",
        "silver sovereign Q14",
    ]);
    let d = dests(&g, "Q26");
    assert_eq!(d.len(), 45);
    assert!(d.contains(&"Q24".to_string()));
    for to in ["Q22", "Q20", "Q18", "Q16"] {
        assert_eq!(removed(&g, "Q26", to), ["Q22"]);
    }
    assert!(!d.iter().any(|x| x.ends_with("Q14")));
}

#[test]
fn t19_initial_position() {
    let g = HexiMeros::start(HouseRules::default());
    assert_eq!(g.pieces().count(), 132);
    for colour in 0..6u8 {
        let mut moves = Vec::new();
        g.seat_moves(Seat(colour), &mut moves);
        assert_eq!(moves.len(), 84, "{}", COLOURS[colour as usize]);
        for m in &moves {
            for c in g.removed_by(m) {
                assert_eq!(
                    g.piece(c).unwrap().colour,
                    colour,
                    "no cross-capture at the start"
                );
            }
        }
    }
    assert_eq!(dests(&g, "Q2"), sorted(&["P3", "R3"]));
    let mut moves = Vec::new();
    g.piece_moves(cell("M2"), &mut moves);
    assert_eq!(moves.len(), 14);
    assert_eq!(
        moves.iter().filter(|m| !g.removed_by(m).is_empty()).count(),
        5
    );
    assert_eq!(g.legal_moves().len(), 84);
    assert_eq!(g.to_move(), Some(Seat(0)));
    // Each colour's layout sits in its own Base Line, Militants outside it.
    for (c, p) in g.pieces() {
        let in_base = BOARD.base_line[p.colour as usize].contains(c);
        assert_eq!(
            in_base,
            p.kind != Kind::Militant,
            "{}",
            BOARD.geometry.name(c)
        );
    }
}

#[test]
fn start_position_cells_match_the_spec_tables() {
    let g = HexiMeros::start(HouseRules::default());
    let at = |c: &str| {
        let p = g.piece(cell(c)).unwrap();
        (COLOURS[p.colour as usize], p.kind)
    };
    assert_eq!(at("Q2"), ("silver", Kind::Sovereign));
    assert_eq!(at("D15"), ("blue", Kind::Regent));
    assert_eq!(at("E38"), ("yellow", Kind::Sovereign));
    assert_eq!(at("P51"), ("orange", Kind::Assassin));
    assert_eq!(at("AF29"), ("green", Kind::Cavalier));
    assert_eq!(at("AD23"), ("red", Kind::Militant));
    assert_eq!(at("Q50"), ("orange", Kind::Sovereign));
}

#[test]
fn t20_scoring_walk_through() {
    let mut g = real(
        "silver",
        &[
            "silver sovereign Q2",
            "silver militant R25 moved",
            "silver dreadnaught C20 moved",
            "silver militant C22 moved",
            "blue sovereign E14",
            "blue archer R35",
            "blue alcazar C24",
            "blue militant H5 moved",
            "yellow sovereign E38",
            "orange sovereign Q50",
            "orange alcazar E30",
            "green sovereign AC38",
            "red sovereign AC14",
        ],
        HouseRules::default(),
    );
    let mut events = Vec::new();
    let script = [
        "R25-R27=Regent",
        "H5-I6",
        "E38-E40",
        "Q50-R49",
        "AC38-AC40",
        "AC14-AC16",
        "R27xR35",
        "I6-J7",
        "E40-E38",
        "E30xE14",
        "AC40-AC38",
        "AC16-AC14",
        "C20xC24",
        "E38-E40",
        "E14-E16",
        "AC38-AC40",
        "AC14-AC16",
        "R35xR49",
    ];
    for m in script {
        g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        events.extend_from_slice(g.last_events());
    }
    assert_eq!(g.out_order(), [Seat(1), Seat(3)]);
    for seat in [2, 4, 5] {
        g.resign(Seat(seat)).unwrap();
        events.extend_from_slice(g.last_events());
    }
    assert!(matches!(g.outcome(), Some(Outcome::Win { ref winners, .. }) if winners == &[Seat(0)]));
    let t = totals(&events);
    // Silver: +55 promotion, +40 Archer, +30 frozen Alcazar (own Militant 0), +75 Sovereign,
    // +100 victory, retention Sovereign 75 + Regent 55 + Dreadnaught 15.
    assert_eq!(t[0], 55 + 40 + 30 + 75 + 100 + 145);
    assert_eq!(t[1], -50, "Blue 1st out");
    assert_eq!(
        t[3],
        75 - 40,
        "Orange captured Blue's Sovereign, then went out 2nd"
    );
    assert_eq!((t[2], t[4], t[5]), (-30, -20, -10));
}

fn six_sovereigns(extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "silver sovereign Q2",
        "blue sovereign E14",
        "yellow sovereign E38",
        "orange sovereign Q50",
        "green sovereign AC38",
        "red sovereign AC14",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn real_v(to_move: &str, pieces: &[String], house: HouseRules) -> HexiMeros {
    let refs: Vec<&str> = pieces.iter().map(|s| s.as_str()).collect();
    real(to_move, &refs, house)
}

#[test]
fn t21_check_upon_the_mover() {
    let pieces = six_sovereigns(&["red alcazar R15"]);
    let g = real_v("silver", &pieces, HouseRules::default());
    let m = g.parse_move("Q2-R3").unwrap();
    assert_eq!(g.challengers(&m), [Seat(5)]);
    let safe = g.parse_move("Q2-P3").unwrap();
    assert!(g.challengers(&safe).is_empty());
    // Red declares: Silver must choose a move that leaves no Sovereign attacked by Red.
    let allowed = g.moves_respecting(&[Seat(5)]);
    assert!(!allowed.contains(&m) && allowed.contains(&safe));
    // Red lets it stand: the move commits, and Red captures the Sovereign on its turn.
    let mut g2 = g.clone();
    for mv in ["Q2-R3", "E14-E16", "E38-E40", "Q50-Q48", "AC38-AC40"] {
        g2.play(mv).unwrap();
    }
    g2.play("R15xR3").unwrap();
    assert_eq!(g2.out_order(), [Seat(0)]);
    assert_eq!(totals(g2.last_events())[0], -50);
    // auto_declare: moving into attack is illegal; never_declare: nobody is asked.
    let auto = real_v(
        "silver",
        &pieces,
        HouseRules {
            check_upon_mover: CheckUponMover::AutoDeclare,
            ..HouseRules::default()
        },
    );
    assert!(auto.parse_move("Q2-R3").is_err());
    assert!(auto.parse_move("Q2-P3").is_ok());
    let never = real_v(
        "silver",
        &pieces,
        HouseRules {
            check_upon_mover: CheckUponMover::NeverDeclare,
            ..HouseRules::default()
        },
    );
    assert!(
        never
            .challengers(&never.parse_move("Q2-R3").unwrap())
            .is_empty()
    );
}

#[test]
fn check_declared_by_the_mover() {
    // Silver's Alcazar moves onto Blue's Sovereign's file: a new attack, so Silver may declare.
    let pieces = six_sovereigns(&["silver alcazar H9"]);
    let g = real_v("silver", &pieces, HouseRules::default());
    let m = g
        .parse_move("H9-E12")
        .unwrap_or_else(|_| g.parse_move("H9-H13").unwrap());
    let _ = m;
    let to_file = g.parse_move("H9-E6").ok();
    let candidates: Vec<Move> = g
        .legal()
        .into_iter()
        .filter(|m| g.check_targets(m).contains(&Seat(1)))
        .collect();
    assert!(
        !candidates.is_empty(),
        "some Alcazar move attacks Blue's Sovereign"
    );
    let _ = to_file;
    let m = candidates[0];
    let text = format!("{}+blue", g.move_text(&m));
    let mut after = g.clone();
    after.play(&text).unwrap();
    assert_eq!(after.check_records().len(), 1);
    assert_eq!(after.check_records()[0].declarer, Seat(0));
    // Declaring on a Sovereign that is not attacked is refused.
    let quiet = g
        .legal()
        .into_iter()
        .find(|m| g.check_targets(m).is_empty())
        .unwrap();
    let err = g
        .parse_move(&format!("{}+blue", g.move_text(&quiet)))
        .unwrap_err();
    assert!(err.to_string().contains("blue has no Sovereign"), "{err}");
}

#[test]
fn check_eligibility_new_attack_or_any_attack() {
    // Silver's Alcazar already attacks Blue's Sovereign on E14 along the file; a Sovereign step
    // adds no new attack.
    let pieces = six_sovereigns(&["silver alcazar E20"]);
    let g = real_v("silver", &pieces, HouseRules::default());
    assert!(g.attacks(Seat(0), cell("E14")));
    let step = g.parse_move("Q2-P3").unwrap();
    assert!(g.check_targets(&step).is_empty());
    let any = real_v(
        "silver",
        &pieces,
        HouseRules {
            check_eligibility: CheckEligibility::AnyAttack,
            ..HouseRules::default()
        },
    );
    assert!(any.check_targets(&step).contains(&Seat(1)));
}

#[test]
fn archer_house_rules() {
    let base = dests(&only(&T10), "Q20");
    // (b) arrows fly over pieces: W20 behind S20 and Q24 behind Silver's own Militant.
    let fly = only_with(
        &T10,
        HouseRules {
            archer: ArcherRule::FlyOver,
            ..HouseRules::default()
        },
    );
    let d = dests(&fly, "Q20");
    assert_eq!(d.len(), base.len() + 2);
    assert!(d.contains(&"*W20".to_string()) && d.contains(&"*Q24".to_string()));
    // (c) shooting only after a first move.
    let mut unmoved: Vec<&str> = T10.to_vec();
    unmoved[0] = "silver archer Q20";
    let c = only_with(
        &unmoved,
        HouseRules {
            archer: ArcherRule::ShootAfterMoving,
            ..HouseRules::default()
        },
    );
    assert_eq!(dests(&c, "Q20").len(), 20);
    // (a) move, then shoot from the new cell.
    let a = only_with(
        &T10,
        HouseRules {
            archer: ArcherRule::MoveThenShoot,
            ..HouseRules::default()
        },
    );
    let mut moves = Vec::new();
    a.piece_moves(cell("Q20"), &mut moves);
    let texts: Vec<String> = moves.iter().map(|m| a.move_text(m)).collect();
    // From R21 the Yellow Sovereign on T21 is two steps E.
    assert!(texts.contains(&"Q20-R21*T21".to_string()), "{texts:?}");
    let mut played = a.clone();
    played.play("Q20-R21*T21").unwrap();
    assert!(played.piece(cell("T21")).is_none());
    assert_eq!(played.piece(cell("R21")).unwrap().kind, Kind::Archer);
}

#[test]
fn dreadnaught_exactly_four() {
    let g = only_with(
        &["silver dreadnaught Q20"],
        HouseRules {
            dreadnaught: DreadnaughtRange::ExactlyFour,
            ..HouseRules::default()
        },
    );
    assert_eq!(
        dests(&g, "Q20"),
        sorted(&["Q28", "U24", "U16", "Q12", "M16", "M24"])
    );
}

#[test]
fn base_line_promotion_switch() {
    // A hatted Militant steps onto Orange's Base Line (row 50).
    let pieces = ["silver militant Q48 hatted moved"];
    let g = only(&pieces);
    let mut moves = Vec::new();
    g.piece_moves(cell("Q48"), &mut moves);
    assert!(
        moves
            .iter()
            .any(|m| m.promotion == Some(Kind::Regent) && m.to == cell("Q50"))
    );
    let off = only_with(
        &pieces,
        HouseRules {
            base_line_promotion: false,
            ..HouseRules::default()
        },
    );
    let mut moves = Vec::new();
    off.piece_moves(cell("Q48"), &mut moves);
    assert!(moves.iter().all(|m| m.promotion.is_none()));
}

#[test]
fn frozen_pieces_never_move_and_attack_nothing() {
    // Blue has no Sovereign: out, its Regent frozen, still capturable.
    let g = real(
        "silver",
        &six_sovereigns(&["blue regent Q10", "silver alcazar Q6"])
            .iter()
            .filter(|s| !s.starts_with("blue sovereign"))
            .map(|s| s.as_str())
            .collect::<Vec<_>>(),
        HouseRules::default(),
    );
    assert!(!g.is_active(Seat(1)));
    assert!(dests(&g, "Q10").is_empty());
    assert!(!g.attacks(Seat(1), cell("Q6")));
    assert!(g.legal_move_texts().contains(&"Q6xQ10".to_string()));
    // Turn order skips Blue.
    let mut g2 = g.clone();
    g2.play("Q2-P3").unwrap();
    assert_eq!(g2.to_move(), Some(Seat(2)));
}

#[test]
fn repetition_draw_switch() {
    let pieces = [
        "silver sovereign Q2",
        "orange sovereign Q50",
        "silver regent A26",
    ];
    let shuffle = ["Q2-P3", "Q50-P49", "P3-Q2", "P49-Q50"];
    let mut off = real("silver", &pieces, HouseRules::default());
    for _ in 0..3 {
        for m in shuffle {
            off.play(m).unwrap();
        }
    }
    assert!(off.outcome().is_none());
    let mut on = real(
        "silver",
        &pieces,
        HouseRules {
            repetition_draw: true,
            ..HouseRules::default()
        },
    );
    for m in shuffle.iter().chain(shuffle.iter()) {
        on.play(m).unwrap();
    }
    assert!(matches!(on.outcome(), Some(Outcome::Draw { .. })));
}

#[test]
fn quiet_rounds_and_bare_sovereigns_draws() {
    let mut g = real(
        "silver",
        &[
            "silver sovereign Q2",
            "orange sovereign Q50",
            "silver regent A26",
        ],
        HouseRules {
            quiet_rounds_draw: 2,
            ..HouseRules::default()
        },
    );
    for m in ["Q2-P3", "Q50-P49", "P3-Q2"] {
        g.play(m).unwrap();
        assert!(g.outcome().is_none());
    }
    g.play("P49-Q50").unwrap();
    assert!(
        matches!(g.outcome(), Some(Outcome::Draw { .. })),
        "2 quiet rounds"
    );
    let bare = real(
        "silver",
        &["silver sovereign Q2", "orange sovereign Q50"],
        HouseRules::default(),
    );
    assert!(matches!(bare.outcome(), Some(Outcome::Draw { .. })));
    let no_rule = real(
        "silver",
        &["silver sovereign Q2", "orange sovereign Q50"],
        HouseRules {
            bare_sovereigns_draw: false,
            ..HouseRules::default()
        },
    );
    assert!(no_rule.outcome().is_none());
}

#[test]
fn resurrection_switch() {
    let pieces = six_sovereigns(&["blue regent I10"]);
    let pieces: Vec<String> = pieces
        .into_iter()
        .filter(|p| !p.starts_with("blue sov"))
        .collect();
    let mut s = {
        let refs: Vec<&str> = pieces.iter().map(|s| s.as_str()).collect();
        setup("silver", &refs, HouseRules::default())
    };
    s.prisoners.push(setup::PrisonerText {
        holder: "silver".into(),
        colour: "blue".into(),
    });
    let off = HexiMeros::from_setup(s.clone()).unwrap();
    let err = off.parse_move("S@E14").unwrap_err().to_string();
    assert!(err.contains("house rule"), "{err}");
    s.house_rules.resurrection = true;
    let mut on = HexiMeros::from_setup(s).unwrap();
    assert!(on.legal_move_texts().contains(&"S@E14".to_string()));
    on.play("S@E14").unwrap();
    assert_eq!(on.controller(1), Seat(0));
    assert!(
        !on.is_frozen(on.piece(cell("I10")).unwrap()),
        "Blue's pieces unfreeze"
    );
    assert!(on.prisoners().is_empty());
    let json = on.to_json();
    let back = HexiMeros::from_json(&json).unwrap();
    assert_eq!(back.controller(1), Seat(0));
}

#[test]
fn capture_ban_by_control_or_colour() {
    let pieces = six_sovereigns(&["silver regent Q20", "blue militant Q24"]);
    let mut s = {
        let refs: Vec<&str> = pieces.iter().map(|s| s.as_str()).collect();
        setup("silver", &refs, HouseRules::default())
    };
    s.pieces.retain(|p| p.cell != "E14");
    s.pieces
        .push(crate::games::PieceText::new("E12", "blue", "sovereign"));
    s.controllers.insert("blue".into(), "silver".into());
    let g = HexiMeros::from_setup(s.clone()).unwrap();
    assert!(!dests(&g, "Q20").contains(&"xQ24".to_string()));
    s.house_rules.capture_ban = CaptureBan::Colour;
    let lit = HexiMeros::from_setup(s).unwrap();
    assert!(dests(&lit, "Q20").contains(&"xQ24".to_string()));
}

#[test]
fn concession_and_agreed_draw() {
    let pieces = [
        "silver sovereign Q2",
        "orange sovereign Q50",
        "orange regent A26",
    ];
    let mut g = real("silver", &pieces, HouseRules::default());
    g.concede(Seat(3)).unwrap();
    let t = totals(g.last_events());
    assert_eq!(
        t[0],
        100 + 75,
        "the conceder's Regent does not count in retention"
    );
    assert!(matches!(g.outcome(), Some(Outcome::Win { .. })));
    let mut d = real("silver", &pieces, HouseRules::default());
    d.agree_draw().unwrap();
    let t = totals(d.last_events());
    assert_eq!((t[0], t[3]), (45 + 37, 45 + 37 + 27));
    let mut six = HexiMeros::start(HouseRules::default());
    assert!(
        six.concede(Seat(0)).is_err(),
        "concession only between the last two"
    );
    six.expel(Seat(2)).unwrap();
    assert_eq!(totals(six.last_events())[2], -500 - 50);
    assert!(!six.is_active(Seat(2)));
}

#[test]
fn pass_only_without_moves() {
    // Silver's Sovereign on Q50 at the north edge, walled in by Silver Militants that face the
    // edge or each other and have nothing to capture: no piece can move, so Silver passes.
    let mut g = real(
        "silver",
        &[
            "silver sovereign Q50",
            "silver militant R51 moved",
            "silver militant P51 moved",
            "silver militant S50 moved",
            "silver militant O50 moved",
            "silver militant R49 moved",
            "silver militant P49 moved",
            "silver militant Q48 moved",
            "silver militant R47 moved",
            "silver militant P47 moved",
            "orange sovereign Q2",
        ],
        HouseRules::default(),
    );
    assert_eq!(g.legal_move_texts(), ["pass"]);
    g.play("pass").unwrap();
    assert_eq!(g.to_move(), Some(Seat(3)));
    let err = g.clone().play("pass").unwrap_err().to_string();
    assert!(err.contains("pass only when none can"), "{err}");
}

#[test]
fn json_round_trip_and_validation() {
    let g = HexiMeros::start(HouseRules::default());
    let json = g.to_json();
    let back = HexiMeros::from_json(&json).unwrap();
    assert_eq!(back.to_json(), json);
    for (bad, why) in [
        (
            r#"{"game":"heximeros","to_move":"silver","pieces":[{"cell":"Z99","owner":"silver","kind":"regent"}]}"#,
            "unknown cell",
        ),
        (
            r#"{"game":"heximeros","to_move":"silver","pieces":[{"cell":"Q2","owner":"purple","kind":"regent"}]}"#,
            "unknown colour",
        ),
        (
            r#"{"game":"heximeros","to_move":"silver","pieces":[{"cell":"Q2","owner":"silver","kind":"queen"}]}"#,
            "unknown piece kind",
        ),
        (
            r#"{"game":"heximeros","to_move":"silver","pieces":[{"cell":"Q2","owner":"silver","kind":"regent"},{"cell":"q2","owner":"blue","kind":"regent"}]}"#,
            "two pieces",
        ),
        (
            r#"{"game":"heximeros","to_move":"silver","pieces":[{"cell":"Q2","owner":"silver","kind":"regent","gz_bonus":true}]}"#,
            "Ground Zero",
        ),
        (
            r#"{"game":"heximeros","to_move":"silver","pieces":[{"cell":"Q2","owner":"silver","kind":"regent","hatted":true}]}"#,
            "Hat",
        ),
        (r#"{"game":"hexdame","pieces":[]}"#, "not heximeros"),
        (
            r#"{"game":"heximeros","pieces":[], "colour":"x"}"#,
            "unknown field",
        ),
        ("{", "malformed"),
    ] {
        let err = HexiMeros::from_json(bad).unwrap_err().to_string();
        assert!(err.contains(why), "{bad}: {err}");
    }
}

#[test]
fn move_errors_say_why() {
    let g = HexiMeros::start(HouseRules::default());
    let cases = [
        ("Q4-Q10", "cannot move to Q10"),
        ("L1-L9", "blocked by silver's Militant on L5"),
        ("E14-E16", "belongs to blue"),
        ("Q20-Q22", "no piece on Q20"),
        ("Z99-Q4", "not a cell"),
        ("Q4", "start and a destination"),
        ("pass", "pass only when none can"),
        ("Q4-Q6=Queen", "not a promotion"),
        ("Q4-Q6=Regent", "cannot be promoted"),
        ("Q4-Q6+mauve", "Check is declared on a colour"),
        ("N1*N3", "nothing to shoot"),
        ("Q2-Q4", "occupied by your own Militant"),
    ];
    for (text, why) in cases {
        let err = g.parse_move(text).unwrap_err().to_string();
        assert!(err.contains(why), "{text}: {err}");
    }
    assert!(matches!(g.parse_move("Z99-Q4"), Err(PlayError::Syntax(_))));
    assert!(matches!(g.parse_move("Q4-Q10"), Err(PlayError::Illegal(_))));
    // Case and ':' for a capture are accepted.
    assert!(g.parse_move("q4-q6").is_ok());
}

#[test]
fn engine_agrees_with_a_naive_generator_on_random_positions() {
    // A tiny deterministic generator (no rand in the library's unit tests' dependencies needed).
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut compared = 0;
    for game in 0..4 {
        let mut g = HexiMeros::start(HouseRules::default());
        for ply in 0..160 {
            if g.outcome().is_some() {
                break;
            }
            let seat = g.to_move().unwrap();
            let mut engine: Vec<String> = Vec::new();
            for colour in 0..6u8 {
                if g.controller(colour) == seat {
                    let mut ms = Vec::new();
                    for c in g.by_colour[colour as usize].iter() {
                        g.piece_moves(c, &mut ms);
                    }
                    engine.extend(ms.iter().map(|m| g.move_text(m)));
                    let mut e: Vec<String> = ms.iter().map(|m| g.move_text(m)).collect();
                    e.sort();
                    let n: Vec<String> = naive::moves(&g, colour).into_iter().collect();
                    assert_eq!(e, n, "game {game} ply {ply} colour {colour}\n{}", g.show());
                    compared += 1;
                }
            }
            let moves = g.legal_moves();
            let caps: Vec<&Move> = moves
                .iter()
                .filter(|m| !g.removed_by(m).is_empty())
                .collect();
            let m = if !caps.is_empty() && next(2) == 0 {
                *caps[next(caps.len())]
            } else {
                moves[next(moves.len())]
            };
            g.play_unchecked(&m);
        }
    }
    assert!(compared > 400);
}

/// A seeded generator of numbers below `n` (a linear congruential one: enough for random games).
fn below(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n
    }
}

/// `g` with Check declared upon the mover's Sovereigns by every seat that attacks them.
fn checked_by_every_attacker(g: &HexiMeros) -> HexiMeros {
    let me = Seat(g.to_move);
    let mut checked = g.clone();
    for s in g.attackers_of_seat(me) {
        for target in g.sovereigns_of(me) {
            if g.attacks(s, target) {
                checked.checks.push(CheckRecord {
                    declarer: s,
                    target,
                });
            }
        }
    }
    checked
}

#[test]
fn relieving_many_moves_at_once_agrees_with_asking_move_by_move() {
    // `legal` filters by `relieving`, which asks the pieces that attacked a target before the
    // move first; `relieves` asks every piece. Over random games, with Check declared by every
    // seat attacking the mover's Sovereign, both must keep the same moves: relief by capturing
    // the attacker (its cell then holds the mover's piece), by blocking, by stepping away.
    let mut next = below(0x5eed);
    let (mut positions, mut kept, mut dropped) = (0, 0, 0);
    for _ in 0..6 {
        let mut g = HexiMeros::start(HouseRules::default());
        for _ in 0..400 {
            if g.outcome().is_some() {
                break;
            }
            let me = Seat(g.to_move);
            let checked = checked_by_every_attacker(&g);
            let live = checked.live_checks();
            if !live.is_empty() {
                let mut pseudo = Vec::new();
                checked.seat_moves(me, &mut pseudo);
                let one_by_one: Vec<Move> = pseudo
                    .iter()
                    .copied()
                    .filter(|m| checked.relieves(m, &live))
                    .collect();
                assert_eq!(checked.relieving(&pseudo, &live), one_by_one);
                positions += 1;
                kept += one_by_one.len();
                dropped += pseudo.len() - one_by_one.len();
            }
            let moves = g.legal();
            let m = moves[next(moves.len())];
            g.play_unchecked(&m);
        }
    }
    assert!(positions >= 10, "only {positions} positions with a Check");
    assert!(kept > 0 && dropped > 0, "kept {kept}, dropped {dropped}");
}

/// The legal move `rank` puts highest above 0, the first among equals, found the plain way.
fn best_legal_plainly(g: &HexiMeros, rank: &dyn Fn(&Move) -> i32) -> Option<Move> {
    let mut best: Option<(i32, Move)> = None;
    for m in g.legal() {
        let r = rank(&m);
        if r > 0 && best.is_none_or(|(b, _)| r > b) {
            best = Some((r, m));
        }
    }
    best.map(|(_, m)| m)
}

#[test]
fn best_legal_move_agrees_with_searching_every_legal_move() {
    // `best_legal_by` asks the ranked moves whether they relieve from the best down, and the
    // others only when none does. Over random games with Check declared upon the mover by every
    // seat attacking it, and with two rankings (the captures', as a bot's hint, and an arbitrary
    // one with many ties that ranks quiet moves too), it must pick what filtering every legal
    // move picks, under both the default rules and `auto_declare`.
    let mut next = below(0xbe57);
    let (mut checked_positions, mut duty_changed, mut duty_excluded) = (0, 0, 0);
    for game in 0..6 {
        let mut house = HouseRules::default();
        if game % 3 == 2 {
            house.check_upon_mover = CheckUponMover::AutoDeclare;
        }
        let mut g = HexiMeros::start(house);
        for ply in 0..300 {
            if g.outcome().is_some() {
                break;
            }
            let me = Seat(g.to_move);
            let checked = checked_by_every_attacker(&g);
            let captures = |m: &Move| {
                10 * checked.removed(m).count() as i32 + i32::from(m.promotion.is_some())
            };
            let arbitrary = |m: &Move| (m.to.0 as i32 * 7 + m.from.0 as i32) % 5 - 2;
            for rank in [&captures as &dyn Fn(&Move) -> i32, &arbitrary] {
                let plain = best_legal_plainly(&checked, rank);
                let lazy = checked.best_legal_by(rank);
                assert_eq!(lazy, plain, "game {game} ply {ply}\n{}", checked.show());
                if !checked.live_checks().is_empty() {
                    checked_positions += 1;
                    let mut pseudo = Vec::new();
                    checked.seat_moves(me, &mut pseudo);
                    let unfiltered = pseudo
                        .iter()
                        .filter(|m| rank(m) > 0)
                        .max_by_key(|m| rank(m));
                    if unfiltered.is_some() && plain.is_none() {
                        duty_excluded += 1;
                    } else if unfiltered.map(rank) != plain.map(|m| rank(&m)) {
                        duty_changed += 1;
                    }
                }
            }
            let moves = g.legal();
            let m = moves[next(moves.len())];
            g.play_unchecked(&m);
        }
    }
    assert!(
        checked_positions >= 20,
        "{checked_positions} positions with a Check"
    );
    assert!(duty_changed > 0, "the duty never changed the best move");
    assert!(
        duty_excluded > 0,
        "the duty never excluded every ranked move"
    );

    // When nothing relieves, the duty lapses and the best capture stands: Blue's lone
    // Sovereign on Q2 is attacked by Silver on every cell it can reach (see
    // `relief_lapses_when_nothing_relieves`), and Blue's Cavalier far away can take a Silver
    // Militant on one of its cells (the first that keeps every move from relieving).
    let pieces = [&NOWHERE_TO_GO[..], &["blue cavalier AB23"]].concat();
    let reach = dests(&real("blue", &pieces, HouseRules::default()), "AB23");
    let mut lapses = 0;
    for d in &reach {
        let militant = format!("silver militant {d} moved");
        let mut with = pieces.clone();
        with.push(&militant);
        let mut h = real("blue", &with, HouseRules::default());
        h.checks.push(CheckRecord {
            declarer: Seat(0),
            target: cell("Q2"),
        });
        let live = h.live_checks();
        let mut pseudo = Vec::new();
        h.seat_moves(Seat(1), &mut pseudo);
        if live.len() != 1 || pseudo.iter().any(|m| h.relieves(m, &live)) {
            continue;
        }
        let captures = |m: &Move| 10 * h.removed(m).count() as i32;
        let lapsed = h.best_legal_by(captures);
        assert_eq!(lapsed.map(|m| h.move_text(&m)), Some(format!("AB23x{d}")));
        assert_eq!(lapsed, best_legal_plainly(&h, &captures));
        lapses += 1;
    }
    assert!(lapses > 0, "no cell of {reach:?} keeps the duty lapsed");
}

/// Issue 45: a refused cell name says the real reason. Column Q holds only even rows, so `Q9`
/// is refused for that, not for the board's size; a column that does not exist and a name that
/// is not a column and a row are told apart.
#[test]
fn a_refused_cell_name_says_why() {
    let g = HexiMeros::start(HouseRules::default());
    let err = |text: &str| g.parse_move(text).unwrap_err().to_string();
    let q9 = err("Q9-Q11");
    assert!(
        q9.contains("Q9 is not a cell: column Q has only even rows, 2 to 50"),
        "{q9}"
    );
    let zz = err("ZZ4-Q2");
    assert!(
        zz.contains("ZZ4 is not a cell: there is no column ZZ"),
        "{zz}"
    );
    let odd = BOARD.geometry.why_not_a_cell("4Q").unwrap();
    assert!(odd.contains("4Q is not a cell name"), "{odd}");
    // A real cell is never refused this way.
    assert_eq!(BOARD.geometry.why_not_a_cell("q2"), None);
}
