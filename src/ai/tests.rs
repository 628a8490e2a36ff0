//! Bot tests: legal, deterministic answers in every game and every test position; smoke matches
//! against a random mover; the HexiMeros Check questions.

use super::*;
use crate::games::GameKind;
use crate::games::heximeros::Kind;

fn positions() -> Vec<(String, AnyGame)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/positions");
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for p in paths {
        let text = std::fs::read_to_string(&p).unwrap();
        out.push((p.display().to_string(), AnyGame::from_json(&text).unwrap()));
    }
    for kind in GameKind::ALL {
        out.push((
            kind.key().to_string(),
            AnyGame::new(kind, None, None).unwrap(),
        ));
    }
    out
}

const SMALL: Limits = Limits {
    nodes: Some(400),
    deadline: None,
};

#[test]
fn every_level_answers_a_legal_move_in_every_test_position() {
    for (name, g) in positions() {
        if g.outcome().is_some() {
            continue;
        }
        for level in [Level::Random, Level::Easy, Level::Normal] {
            let choice = choose_with(&g, level, 7, SMALL).unwrap();
            let mut after = g.clone();
            after
                .play(&choice.text)
                .unwrap_or_else(|e| panic!("{name} {level}: {} refused: {e}", choice.text));
            let again = choose_with(&g, level, 7, SMALL).unwrap();
            assert_eq!(choice.text, again.text, "{name} {level}: not deterministic");
        }
    }
}

#[test]
fn unknown_level_is_an_error() {
    assert!("hard".parse::<Level>().is_ok());
    assert!(matches!(
        "grandmaster".parse::<Level>(),
        Err(AiError::UnknownLevel(_))
    ));
}

/// A HexiMeros position from `"owner kind cell"` lines, with `to_move` and declared Checks
/// (`"declarer target"`).
/// Position JSON pieces from "owner kind cell" lines.
fn pieces_json(pieces: &[&str]) -> Vec<serde_json::Value> {
    pieces
        .iter()
        .map(|line| {
            let w: Vec<&str> = line.split_whitespace().collect();
            serde_json::json!({"owner": w[0], "kind": w[1], "cell": w[2]})
        })
        .collect()
}

fn heximeros(to_move: &str, pieces: &[&str], checks: &[&str]) -> HexiMeros {
    let pieces = pieces_json(pieces);
    let checks: Vec<serde_json::Value> = checks
        .iter()
        .map(|line| {
            let w: Vec<&str> = line.split_whitespace().collect();
            serde_json::json!({"declarer": w[0], "target": w[1]})
        })
        .collect();
    let json = serde_json::json!({
        "game": "heximeros",
        "to_move": to_move,
        "pieces": pieces,
        "checks": checks,
    });
    HexiMeros::from_json(&json.to_string()).unwrap()
}

/// The six Sovereigns on their base spaces, plus `extra`.
fn six_sovereigns(extra: &[&'static str]) -> Vec<&'static str> {
    let mut v = vec![
        "silver sovereign Q2",
        "blue sovereign E14",
        "yellow sovereign E38",
        "orange sovereign Q50",
        "green sovereign AC38",
        "red sovereign AC14",
    ];
    v.extend_from_slice(extra);
    v
}

const SILVER: Seat = Seat(0);
const BLUE: Seat = Seat(1);
const RED: Seat = Seat(5);

#[test]
fn a_check_upon_the_mover_is_declared_only_on_a_real_attack_and_not_by_the_next_to_move() {
    // Red's Alcazar on R15 attacks R3 (rules §11, T21): Silver's Sovereign stepping there moves
    // into Red's attack; stepping to P3 does not.
    let g = heximeros("silver", &six_sovereigns(&["red alcazar R15"]), &[]);
    let into = g.parse_move("Q2-R3").unwrap();
    let safe = g.parse_move("Q2-P3").unwrap();
    assert!(
        declare_check_upon(&g, &into, RED),
        "Red moves fifth after Silver: it declares"
    );
    assert!(!declare_check_upon(&g, &safe, RED), "no attack, no Check");
    assert!(
        !declare_check_upon(&g, &into, BLUE),
        "Blue does not attack R3"
    );
    // The same attack by Blue, who moves right after Silver: silent, to capture it itself.
    let g = heximeros("silver", &six_sovereigns(&["blue alcazar R15"]), &[]);
    let into = g.parse_move("Q2-R3").unwrap();
    assert_eq!(g.challengers(&into), [BLUE]);
    assert!(!declare_check_upon(&g, &into, BLUE));
}

#[test]
fn a_sovereign_attacked_by_any_seat_moving_before_the_bot_is_nearly_lost() {
    use super::search::Engine;
    // Blue is to move; Red's Alcazar on Q16 attacks Silver's Sovereign on Q2 down the file, on
    // R15 it attacks nothing. Red plays before Silver does again, so the attack costs Silver
    // nearly a seat, not a nudge, though Blue (to move) does not attack.
    let attacked = heximeros("blue", &six_sovereigns(&["red alcazar Q16"]), &[]);
    let safe = heximeros("blue", &six_sovereigns(&["red alcazar R15"]), &[]);
    assert!(attacked.attacks(RED, attacked.sovereigns_of(SILVER)[0]));
    let cost = safe.evaluate(SILVER) - attacked.evaluate(SILVER);
    assert!(cost >= 10_000, "the attack costs Silver only {cost}");
    // With Silver to move the Sovereign can step away: a far smaller charge.
    let attacked = heximeros("silver", &six_sovereigns(&["red alcazar Q16"]), &[]);
    let safe = heximeros("silver", &six_sovereigns(&["red alcazar R15"]), &[]);
    let cost = safe.evaluate(SILVER) - attacked.evaluate(SILVER);
    assert!((1..10_000).contains(&cost), "with Silver to move: {cost}");
    // A Regent (55 points) Red's Alcazar attacks on R3, Blue to move: a good part of it is
    // charged, not an eighth.
    let attacked = heximeros(
        "blue",
        &six_sovereigns(&["red alcazar R15", "silver regent R3"]),
        &[],
    );
    let safe = heximeros(
        "blue",
        &six_sovereigns(&["red alcazar R15", "silver regent P3"]),
        &[],
    );
    assert!(attacked.attacks(
        RED,
        crate::games::heximeros::BOARD.geometry.parse("R3").unwrap()
    ));
    assert!(!safe.attacks(
        RED,
        crate::games::heximeros::BOARD.geometry.parse("P3").unwrap()
    ));
    let cost = safe.evaluate(SILVER) - attacked.evaluate(SILVER);
    assert!(cost >= 150, "an attacked Regent costs Silver only {cost}");
}

#[test]
fn the_bot_respects_declared_checks_upon_its_move() {
    let g = heximeros("silver", &six_sovereigns(&["red alcazar R15"]), &[]);
    let allowed = g.moves_respecting(&[RED]);
    assert!(
        allowed.len() < g.legal_moves().len(),
        "the declaration binds"
    );
    for level in [Level::Random, Level::Easy, Level::Normal, Level::Hard] {
        for seed in 0..4 {
            let c = choose_heximeros(&g, &[RED], level, seed, SMALL).unwrap();
            let m = g.parse_move(&c.text).unwrap();
            let after = g.after(&m);
            for sov in after.sovereigns_of(SILVER) {
                assert!(
                    !after.attacks(RED, sov),
                    "{level} {seed}: {} walks into Red",
                    c.text
                );
            }
        }
    }
}

#[test]
fn the_bot_relieves_a_check_declared_on_it() {
    // Red declared Check on Silver's Sovereign with the Alcazar on Q16 (same file as Q2).
    let g = heximeros(
        "silver",
        &six_sovereigns(&["red alcazar Q16", "silver militant S4"]),
        &["red Q2"],
    );
    let live = g.live_checks();
    assert_eq!(live.len(), 1, "the Check is live");
    for level in [Level::Random, Level::Easy, Level::Normal, Level::Hard] {
        for seed in 0..4 {
            let c = choose_heximeros(&g, &[], level, seed, SMALL).unwrap();
            let m = g.parse_move(&c.text).unwrap();
            assert!(
                g.relieves(&m, &live),
                "{level} {seed}: {} ignores the Check",
                c.text
            );
        }
    }
}

#[test]
fn the_bot_declares_checks_its_move_gives() {
    // Silver's Alcazar on H9 can reach Blue's Sovereign's lines: some moves give Check. In the
    // second position Blue's Sovereign also attacks a Silver Cavalier beside it.
    let blue = 1u8 << BLUE.0;
    let mut kinds = std::collections::BTreeSet::new();
    for extra in [
        &["silver alcazar H9"][..],
        &["silver alcazar H9", "silver cavalier F15"][..],
    ] {
        let g = heximeros("silver", &six_sovereigns(extra), &[]);
        let giving: Vec<HexiMove> = g
            .legal_moves()
            .into_iter()
            .filter(|m| g.check_targets(m).contains(&BLUE))
            .collect();
        assert!(!giving.is_empty(), "{extra:?}");
        for m in &giving {
            // The easy bot declares every Check it may; the text it plays is legal.
            let checks = declare_checks(&g, m, Level::Easy);
            assert_eq!(checks & blue, blue);
            let mut after = g.clone();
            after
                .play(&g.move_text(&HexiMove { checks, ..*m }))
                .unwrap();
            assert!(!after.check_records().is_empty());
            // Stronger bots declare upon Blue exactly when Blue, after the move, attacks
            // something of Silver's worth protecting (a Sovereign, or at least a Cavalier).
            let next = g.after(m);
            let threatened = next
                .pieces()
                .filter(|(_, p)| next.controller(p.colour) == SILVER)
                .filter(|(_, p)| {
                    p.kind == Kind::Sovereign || p.kind.value() >= Kind::Cavalier.value()
                })
                .any(|(c, _)| next.attacks(BLUE, c));
            let normal = declare_checks(&g, m, Level::Normal);
            assert_eq!(normal & blue != 0, threatened, "{}", g.move_text(m));
            kinds.insert(threatened);
        }
        // A move giving no Check declares none at any level.
        let quiet = g
            .legal_moves()
            .into_iter()
            .find(|m| g.check_targets(m).is_empty())
            .unwrap();
        for level in Level::ALL {
            assert_eq!(declare_checks(&g, &quiet, level), 0);
        }
    }
    assert_eq!(kinds.len(), 2, "both answers are tested");
}

#[test]
fn smoke_match_normal_beats_a_random_mover_at_hexdame() {
    let spec = tournament::Spec {
        kind: GameKind::HexDame,
        players: None,
        a: tournament::Bot::new(Level::Normal),
        b: tournament::Bot::new(Level::Random),
        games: 4,
        first: 0,
        seed: 11,
        max_plies: tournament::default_max_plies(GameKind::HexDame),
        limits: Limits {
            nodes: Some(1500),
            deadline: None,
        },
        seating: tournament::Seating::Alternate,
        opening: 0,
    };
    let report = tournament::run(&spec, &mut Default::default, &mut |_, _| {}).unwrap();
    assert_eq!(report.games, 4);
    assert_eq!(report.a.wins, 4, "{report:?}");
    assert_eq!(report.b.losses, 4);
    assert_eq!(report.capped, 0);
}

#[test]
fn the_harness_times_each_search_of_a_heximeros_turn() {
    // Bots declare Check upon a staged move that leaves a Sovereign of theirs attacked; the mover
    // then searches again, and the host gives that search its own deadline. The harness times
    // each search, so a turn of two searches is two timings, not one of twice the length.
    let start = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
    // Two levels, so the game is not decided before it starts.
    let levels = [Level::Normal, Level::Easy].repeat(3);
    let limits = Limits {
        nodes: Some(300),
        deadline: None,
    };
    let mut searches = 0u32;
    let rec = tournament::play_game(
        start,
        &levels,
        3,
        400,
        limits,
        &mut |_, _| searches += 1,
        &mut Default::default,
    )
    .unwrap();
    assert!(rec.plies > 0);
    assert!(
        searches > rec.plies,
        "{searches} searches in {} plies: no move was re-chosen",
        rec.plies
    );
}

#[test]
fn a_tournament_split_in_parts_plays_the_games_of_the_whole_run() {
    let spec = |games, first| tournament::Spec {
        kind: GameKind::Harmegedo,
        players: Some(3),
        a: tournament::Bot::new(Level::Easy),
        b: tournament::Bot::new(Level::Random),
        games,
        first,
        seed: 5,
        max_plies: 60,
        limits: Limits {
            nodes: Some(200),
            deadline: None,
        },
        seating: tournament::Seating::Lone,
        opening: 0,
    };
    let play = |s: &tournament::Spec| {
        let mut games = Vec::new();
        tournament::run(s, &mut Default::default, &mut |i, rec| {
            games.push((
                i,
                rec.plies,
                rec.places.clone(),
                format!("{:?}", rec.outcome),
            ));
        })
        .unwrap();
        games
    };
    let whole = play(&spec(4, 0));
    let mut parts = play(&spec(1, 0));
    parts.extend(play(&spec(3, 1)));
    assert_eq!(whole.len(), 4);
    assert_eq!(parts, whole);
}

#[test]
fn votes_follow_the_documented_policy() {
    // White has two men against one: ahead. Black is behind.
    let g = AnyGame::from_json(
        r#"{"game":"hexdame","to_move":"white","pieces":[
          {"cell":"e1","owner":"white","kind":"man"},{"cell":"b2","owner":"white","kind":"man"},
          {"cell":"e9","owner":"black","kind":"man"}]}"#,
    )
    .unwrap();
    let (white, black) = (Seat(0), Seat(1));
    assert!(standing(&g, white) > 0 && standing(&g, black) < 0);
    assert!(!vote(&g, white, &Motion::Draw), "ahead: play on");
    assert!(vote(&g, black, &Motion::Draw), "behind: share");
    let skip = |seat, stalled| Motion::SkipStalled { seat, stalled };
    assert!(vote(&g, white, &skip(black, true)));
    assert!(
        !vote(&g, white, &skip(black, false)),
        "not stalled: no skip"
    );
    assert!(!vote(&g, white, &skip(white, true)));
    let abandon = Motion::Expel {
        seat: black,
        stalled: true,
    };
    assert!(vote(&g, white, &abandon));
    assert!(!vote(&g, black, &abandon), "never votes itself out");
    let misconduct = Motion::Expel {
        seat: black,
        stalled: false,
    };
    assert!(!vote(&g, white, &misconduct));
    let replace = |seat, vacated| Motion::Replacement { seat, vacated };
    assert!(vote(&g, white, &replace(black, true)));
    assert!(
        !vote(&g, white, &replace(black, false)),
        "neither resigning nor stalled: no replacement"
    );
    assert!(
        !vote(&g, black, &replace(black, true)),
        "never votes itself out"
    );
    assert!(!vote(&g, white, &Motion::Other));
}

/// A Hexmeister position: `(cell, owner)` stones, South to move, North's reserve given.
fn hexmeister(stones: &[(&str, &str)], north_reserve: u32) -> crate::games::hexmeister::Hexmeister {
    let pieces: Vec<serde_json::Value> = stones
        .iter()
        .map(|(cell, owner)| serde_json::json!({"cell": cell, "owner": owner, "kind": "stone"}))
        .collect();
    let json = serde_json::json!({
        "game": "hexmeister",
        "to_move": "south",
        "pieces": pieces,
        "reserves": {"north": {"stone": north_reserve}},
    });
    crate::games::hexmeister::Hexmeister::from_json(&json.to_string()).unwrap()
}

#[test]
fn hexmeister_leader_values_its_edge_less_as_the_quiet_draw_nears() {
    use search::Engine;
    // South has lost no stone, North six: South is well ahead.
    let g = hexmeister(&[("d4", "south"), ("h8", "north")], 11);
    let fresh = g.evaluate(Seat(0));
    assert!(fresh > 0, "South is ahead: {fresh}");
    // Four quiet moves back to the same board: only the quiet-action count differs.
    let mut later = g.clone();
    for m in ["d4-d5", "h8-h7", "d5-d4", "h7-h8"] {
        let a = later.parse_move(m).unwrap();
        later.play_unchecked(&a);
    }
    assert_eq!(later.quiet_actions(), 4);
    assert_eq!(later.stones(), g.stones());
    let stale = later.evaluate(Seat(0));
    assert!(0 < stale && stale < fresh, "{stale} against {fresh}");
    assert_eq!(later.evaluate(Seat(1)), -stale, "zero-sum for both seats");
}

#[test]
fn hexmeister_counts_stones_one_short_of_capture_as_a_threat() {
    use search::Engine;
    // e4's neighbours are d4, f4, e5, f5, d3, e3: two South stones beside it is a threat.
    let one = hexmeister(&[("d4", "south"), ("g4", "south"), ("e4", "north")], 17);
    let two = hexmeister(&[("d4", "south"), ("f4", "south"), ("e4", "north")], 17);
    assert_eq!(one.stones_one_short_of_capture(Seat(0)), 0);
    assert_eq!(two.stones_one_short_of_capture(Seat(0)), 1);
    assert_eq!(two.stones_one_short_of_capture(Seat(1)), 0);
    assert!(two.evaluate(Seat(0)) > one.evaluate(Seat(0)));
}

#[test]
fn hexmeister_searches_only_the_fight_below_the_root() {
    // e4's neighbours are d4, f4, e5, f5, d3, e3. South d4 and f4 hold North's e4 one stone
    // short of capture; North's h8 and i8 stand beside South's h7; k9 and b2 are far away.
    let g = hexmeister(
        &[
            ("d4", "south"),
            ("f4", "south"),
            ("h7", "south"),
            ("b3", "south"),
            ("e4", "north"),
            ("h8", "north"),
            ("i8", "north"),
            ("k9", "north"),
        ],
        14,
    );
    let legal = g.legal_moves();
    let mut kept = legal.clone();
    g.retain_fighting_actions(&mut kept);
    let is_kept = |m: &str| {
        let a = g.parse_move(m).unwrap();
        assert!(legal.contains(&a), "{m} is legal");
        kept.contains(&a)
    };
    assert!(is_kept("f4-e5"), "the third stone beside e4: a capture");
    assert!(
        is_kept("h7-h6"),
        "h7 stands beside two North stones: an escape"
    );
    assert!(is_kept("b3-c3"), "entering a gate");
    assert!(
        !is_kept("b3-b4"),
        "a stone wandering the lanes far from anything"
    );
    assert!(
        kept.len() < legal.len() / 2,
        "{} of {}",
        kept.len(),
        legal.len()
    );
    assert!(kept.iter().all(|a| legal.contains(a)));
}

#[test]
fn killer_moves_come_first_after_the_noisy_ones() {
    use crate::games::hexmeister::Action;
    let g = hexmeister(&[("d4", "south"), ("h8", "north")], 17);
    let mut moves = g.legal_moves();
    let (a, b) = (moves[7], moves[11]);
    let mut s = search::Searcher::<Action>::new(
        Seat(0),
        search::Budget {
            depth: 1,
            nodes: 1,
            deadline: None,
        },
    );
    s.remember_killer(&a, 2);
    s.remember_killer(&b, 2);
    s.remember_killer(&b, 2); // no duplicate: a stays the second killer
    let before = moves.clone();
    s.killers_first(&g, &mut moves, 2);
    assert_eq!(&moves[..2], &[b, a]);
    assert_eq!(moves.len(), before.len());
    s.killers_first(&g, &mut moves, 5); // no killers at that ply
    assert_eq!(&moves[..2], &[b, a]);
}

#[test]
fn hexmeister_search_scores_a_repeated_position_as_the_draw_it_can_become() {
    use search::Engine;
    let g = hexmeister(&[("d4", "south"), ("h8", "north")], 11);
    assert!(!g.repeats());
    let mut later = g.clone();
    for (i, m) in ["d4-d5", "h8-h7", "d5-d4", "h7-h8"].into_iter().enumerate() {
        let a = later.parse_move(m).unwrap();
        later.play_unchecked(&a);
        assert_eq!(later.repeats(), i == 3, "after {m}");
    }
    // South is well ahead, so North would welcome the draw a third occurrence can bring:
    // the search scores the repeated position 0, not North's static deficit.
    let mut s = search::Searcher::<crate::games::hexmeister::Action>::new(
        Seat(1),
        search::Budget {
            depth: 1,
            nodes: 1000,
            deadline: None,
        },
    );
    assert_eq!(s.alphabeta(&later, 0, -1_000_000_000, 1_000_000_000, 1), 0);
    assert!(later.evaluate(Seat(1)) < 0, "North is behind on material");
    // Without the repetition rule, nothing repeats.
    let mut json = serde_json::to_value(g.to_setup()).unwrap();
    json["house_rules"] = serde_json::json!({"repetition_draw": false});
    let off = crate::games::hexmeister::Hexmeister::from_json(&json.to_string()).unwrap();
    let mut off_later = off.clone();
    for m in ["d4-d5", "h8-h7", "d5-d4", "h7-h8"] {
        let a = off_later.parse_move(m).unwrap();
        off_later.play_unchecked(&a);
    }
    assert!(!off_later.repeats());
}

// ---- Best-Reply Search

/// The HexiMeros position where Red's Alcazar on Q16 attacks Silver's Sovereign on Q2 down the
/// file, Silver to move with a Militant to spare.
fn silver_attacked_by_red() -> HexiMeros {
    heximeros(
        "silver",
        &six_sovereigns(&["red alcazar Q16", "silver militant S4"]),
        &[],
    )
}

#[test]
fn best_reply_search_sees_the_reply_of_an_opponent_who_is_not_next() {
    use super::search::{Budget, Searcher, WIN};
    let g = silver_attacked_by_red();
    let q2 = crate::games::heximeros::BOARD.geometry.parse("Q2").unwrap();
    // A Militant move that leaves the Sovereign where Red (fifth after Silver) takes it, and the
    // Sovereign's step out of the file.
    let stay = stay_move(&g);
    assert!(g.after(&stay).attacks(RED, q2));
    let away = g.parse_move("Q2-P3").unwrap();
    let budget = Budget {
        depth: 1,
        nodes: 1_000_000,
        deadline: None,
    };
    // One opponent layer: Blue, Yellow and Orange play their default moves, Red replies.
    let value = |m: &HexiMove| {
        let mut s = Searcher::new(SILVER, budget);
        s.brs(&g.after(m), 1, -2 * WIN, 2 * WIN, 1, false)
    };
    let (stay_brs, away_brs) = (value(&stay), value(&away));
    assert!(
        stay_brs <= -WIN / 4,
        "Red's capture is not seen: {stay_brs}"
    );
    assert!(
        away_brs > -WIN / 4,
        "the escape is scored as lost: {away_brs}"
    );
    // Paranoid search to the same depth sees only Blue, who attacks nothing.
    let mut s = Searcher::new(SILVER, budget);
    let stay_paranoid = s.alphabeta(&g.after(&stay), 1, -2 * WIN, 2 * WIN, 1);
    assert!(stay_paranoid > -WIN / 4, "{stay_paranoid}");
}

/// A move of Silver's other than the Sovereign's, leaving Q2 attacked by Red.
fn stay_move(g: &HexiMeros) -> HexiMove {
    let q2 = crate::games::heximeros::BOARD.geometry.parse("Q2").unwrap();
    g.legal_moves()
        .into_iter()
        .find(|m| m.from != q2 && g.after(m).attacks(RED, q2))
        .unwrap()
}

#[test]
fn best_reply_search_saves_a_sovereign_from_an_opponent_moving_before_it() {
    let g = silver_attacked_by_red();
    let limits = Limits {
        nodes: Some(2_000),
        deadline: None,
    };
    for level in [Level::Normal, Level::Hard] {
        for seed in 0..2 {
            let c =
                choose_heximeros_searching(&g, &[], level, SearchKind::Brs, seed, limits).unwrap();
            let after = g.after(&g.parse_move(&c.text).unwrap());
            for sov in after.sovereigns_of(SILVER) {
                assert!(
                    !after.attacks(RED, sov),
                    "{level} {seed}: {} leaves the Sovereign to Red",
                    c.text
                );
            }
        }
    }
}

#[test]
fn best_reply_search_takes_a_sovereign_on_offer() {
    // Red to move, its Alcazar on Q16 attacks Silver's Sovereign down the file and Orange's up
    // it: taking either puts a seat out. With an Orange Militant shielding Q50, taking the
    // Militant instead attacks both Sovereigns at once (one reply cannot save both): the
    // evaluation before issue 21's fix banked a Sovereign on offer above one taken, and BRS
    // took the Militant.
    for extra in [&[][..], &["orange militant Q40"][..]] {
        let mut pieces = vec!["red alcazar Q16"];
        pieces.extend_from_slice(extra);
        let g = heximeros("red", &six_sovereigns(&pieces), &[]);
        for level in [Level::Normal, Level::Hard] {
            let c = choose_heximeros_searching(&g, &[], level, SearchKind::Brs, 3, SMALL).unwrap();
            let after = g.after(&g.parse_move(&c.text).unwrap());
            assert_eq!(
                after.active_seats().len(),
                5,
                "{level} {extra:?}: {} takes no Sovereign",
                c.text
            );
        }
    }
}

#[test]
fn best_reply_search_answers_legal_deterministic_moves_in_every_test_position() {
    for (name, g) in positions() {
        if g.outcome().is_some() {
            continue;
        }
        let choice = choose_searching(&g, Level::Normal, SearchKind::Brs, 7, SMALL).unwrap();
        let mut after = g.clone();
        after
            .play(&choice.text)
            .unwrap_or_else(|e| panic!("{name}: {} refused: {e}", choice.text));
        let again = choose_searching(&g, Level::Normal, SearchKind::Brs, 7, SMALL).unwrap();
        assert_eq!(choice.text, again.text, "{name}: not deterministic");
    }
}

#[test]
fn a_wary_bot_searches_paranoid_while_it_is_hunted_and_brs_otherwise() {
    let limits = Limits {
        nodes: Some(3_000),
        deadline: None,
    };
    let choose = |g: &AnyGame, kind| choose_searching(g, Level::Hard, kind, 4, limits).unwrap();
    // At the start every seat holds the same, so the bots hunt the first seat: Silver, who
    // moves first. After its move Blue moves, and Blue is not the prey.
    let start = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
    let mut after = start.clone();
    after.play(&choose(&start, SearchKind::Brs).text).unwrap();
    let AnyGame::HexiMeros(first) = &start else {
        unreachable!()
    };
    let AnyGame::HexiMeros(second) = &after else {
        unreachable!()
    };
    assert!(first.hunted(SILVER) && !first.hunted(BLUE));
    assert!(!second.hunted(BLUE) && second.hunted(SILVER));
    for (g, hunted) in [(&start, true), (&after, false)] {
        let paranoid = choose(g, SearchKind::Paranoid);
        let brs = choose(g, SearchKind::Brs);
        // The two trees differ here (or the test could not tell which one wary searched).
        assert_ne!(paranoid, brs);
        let wary = choose(g, SearchKind::Wary);
        assert_eq!(
            wary,
            if hunted { paranoid } else { brs },
            "hunted: {hunted}"
        );
    }
    // The prey is the fewest Sovereigns first, then the least material: Red with a piece less
    // than the others is hunted even though Silver comes first.
    let mut pieces = six_sovereigns(&[
        "silver militant Q4",
        "blue militant F15",
        "yellow militant F37",
        "orange militant Q48",
        "green militant AB37",
    ]);
    let g = heximeros("red", &pieces, &[]);
    assert!(g.hunted(RED) && !g.hunted(SILVER));
    pieces.push("red militant AB15");
    let g = heximeros("red", &pieces, &[]);
    assert!(!g.hunted(RED) && g.hunted(SILVER));
    // A seat whose Sovereign an opponent attacks is hunted too: Red's Alcazar on Q16 attacks
    // Orange's up the file (and Silver's down it), and Red now has the most material.
    let g = heximeros("red", &six_sovereigns(&["red alcazar Q16"]), &[]);
    assert!(g.hunted(Seat(3)) && g.hunted(SILVER), "Orange, Silver");
    assert!(!g.hunted(BLUE) && !g.hunted(RED));
    // Games without a hunted seat search BRS.
    let harmegedo = AnyGame::new(GameKind::Harmegedo, None, None).unwrap();
    assert_eq!(
        choose(&harmegedo, SearchKind::Wary),
        choose(&harmegedo, SearchKind::Brs)
    );
    assert_eq!("wary".parse::<SearchKind>(), Ok(SearchKind::Wary));
}

#[test]
fn search_kinds_parse_and_a_bad_one_is_an_error() {
    assert_eq!("brs".parse::<SearchKind>(), Ok(SearchKind::Brs));
    assert_eq!("BRS+".parse::<SearchKind>(), Ok(SearchKind::BrsPlus));
    assert_eq!(" Paranoid ".parse::<SearchKind>(), Ok(SearchKind::Paranoid));
    assert_eq!(SearchKind::default(), SearchKind::Paranoid);
    let err = "maxn".parse::<SearchKind>().unwrap_err();
    assert_eq!(err, AiError::UnknownSearch("maxn".into()));
    assert!(
        err.to_string()
            .contains("expected paranoid, brs, brs+ or wary"),
        "{err}"
    );
}

fn harmegedo_spec(
    a: Level,
    b: Level,
    search_a: SearchKind,
    search_b: SearchKind,
) -> tournament::Spec {
    tournament::Spec {
        kind: GameKind::Harmegedo,
        players: Some(3),
        a: tournament::Bot {
            search: search_a,
            ..tournament::Bot::new(a)
        },
        b: tournament::Bot {
            search: search_b,
            ..tournament::Bot::new(b)
        },
        games: 2,
        first: 0,
        seed: 4,
        max_plies: 30,
        limits: Limits {
            nodes: Some(150),
            deadline: None,
        },
        seating: tournament::Seating::Alternate,
        opening: 0,
    }
}

#[test]
fn a_table_of_one_bot_plays_on_to_the_end() {
    // Before, a table of one level stopped at once, "decided" with no move played.
    let spec = harmegedo_spec(
        Level::Easy,
        Level::Easy,
        SearchKind::Paranoid,
        SearchKind::Paranoid,
    );
    let mut plies = Vec::new();
    let report = tournament::run(&spec, &mut Default::default, &mut |_, rec| {
        plies.push(rec.plies);
        assert!(rec.outcome.is_some() || rec.capped, "{rec:?}");
    })
    .unwrap();
    assert_eq!(report.games, 2);
    assert_eq!(report.decided, 0, "{report:?}");
    assert!(plies.iter().all(|&p| p > 0), "{plies:?}");
    assert_eq!(report.lengths.len(), 2);
    // Both sets of seats are tallied: three seats a game, 2 and 1 alternately.
    assert_eq!(report.a.seats + report.b.seats, 6);
    assert!(report.median_length().0 > 0);
}

/// Four games of three-seat Harmegedo, both sides paranoid, A alone at the table.
fn harmegedo_lone(a: Level, b: Level) -> tournament::Spec {
    tournament::Spec {
        seating: tournament::Seating::Lone,
        games: 4,
        ..harmegedo_spec(a, b, SearchKind::Paranoid, SearchKind::Paranoid)
    }
}

#[test]
fn a_tally_has_each_sides_place_in_each_seat() {
    // Three seats, A alone, four games: A sits in seats 0, 1, 2 and 0 again, B in the others.
    let spec = harmegedo_lone(Level::Easy, Level::Normal);
    let mut expect = [[(0.0, 0u32); 3]; 2];
    let report = tournament::run(&spec, &mut Default::default, &mut |i, rec| {
        assert_eq!(rec.bots.len(), 3);
        for (s, &p) in rec.places.iter().enumerate() {
            let side = usize::from(s != i as usize % 3);
            expect[side][s].0 += p;
            expect[side][s].1 += 1;
        }
    })
    .unwrap();
    for (t, e) in [(&report.a, expect[0]), (&report.b, expect[1])] {
        assert_eq!(t.seat_places, e.to_vec(), "{report:?}");
        // The seats' places add up to the side's, and each seat's average is its own.
        let sum: f64 = t.seat_places.iter().map(|p| p.0).sum();
        assert!((sum - t.place_sum).abs() < 1e-9, "{report:?}");
        for (s, p) in t.place_by_seat().into_iter().enumerate() {
            let (total, n) = e[s];
            assert_eq!(p, (n > 0).then(|| (total / f64::from(n), n)));
        }
    }
    assert_eq!(
        report.a.seat_places.iter().map(|p| p.1).collect::<Vec<_>>(),
        [2, 1, 1]
    );
    assert_eq!(
        report.b.seat_places.iter().map(|p| p.1).collect::<Vec<_>>(),
        [2, 3, 3]
    );
}

#[test]
fn smoke_match_best_reply_against_paranoid_at_harmegedo() {
    let spec = harmegedo_spec(
        Level::Normal,
        Level::Normal,
        SearchKind::Brs,
        SearchKind::Paranoid,
    );
    let mut searches = Vec::new();
    let report = tournament::run(&spec, &mut Default::default, &mut |_, rec| {
        searches.push(rec.bots.iter().map(|b| b.search).collect::<Vec<_>>());
    })
    .unwrap();
    assert_eq!(report.games, 2);
    for t in [&report.a, &report.b] {
        assert_eq!(t.wins + t.draws + t.losses, 2, "{report:?}");
        assert!(t.searches > 0);
    }
    assert!(searches[0].contains(&SearchKind::Brs) && searches[0].contains(&SearchKind::Paranoid));
    // Seeded: the same games again.
    let again = tournament::run(&spec, &mut Default::default, &mut |_, _| {}).unwrap();
    assert_eq!(again.lengths, report.lengths);
}

#[test]
fn a_side_searches_with_its_own_node_budget_over_the_tables() {
    let base = harmegedo_spec(
        Level::Normal,
        Level::Normal,
        SearchKind::Paranoid,
        SearchKind::Paranoid,
    );
    let games = |spec: &tournament::Spec| {
        let mut moves = Vec::new();
        tournament::run(spec, &mut Default::default, &mut |_, rec| {
            moves.push(rec.moves.clone());
        })
        .unwrap();
        moves
    };
    let with = |a: Option<u64>, b: Option<u64>, table: Option<u64>| {
        let mut spec = base.clone();
        spec.a.nodes = a;
        spec.b.nodes = b;
        spec.limits.nodes = table;
        spec
    };
    let played = games(&base);
    // Side A starved to one node a move plays other moves than at the table's 150.
    assert_ne!(games(&with(Some(1), None, Some(150))), played);
    // A side's own budget replaces the table's: 150 each over a table of 1 is the table of 150.
    assert_eq!(games(&with(Some(150), Some(150), Some(1))), played);
    // And the same budget given to a side is the table's.
    assert_eq!(games(&with(Some(150), None, Some(150))), played);
    // The side's name says its budget.
    assert_eq!(with(Some(1), None, None).a.name(), "normal@1");
    assert_eq!(base.a.name(), "normal");
}

#[test]
fn a_random_opening_sets_games_of_the_same_seating_apart() {
    // Three seats, A alone: games 1 and 4 seat A alike.
    let mut spec = harmegedo_lone(Level::Normal, Level::Normal);
    let games = |spec: &tournament::Spec| {
        let mut recs = Vec::new();
        tournament::run(spec, &mut Default::default, &mut |_, rec| {
            recs.push((rec.plies, rec.rounds, rec.moves.clone()))
        })
        .unwrap();
        recs
    };
    let plain = games(&spec);
    spec.opening = 4;
    let opened = games(&spec);
    for ((plies, rounds, moves), (p0, r0, m0)) in opened.iter().zip(&plain) {
        // The opening's plies count towards the cap and are in the moves, which replay.
        assert_eq!(*plies as usize, moves.len());
        assert!(*plies <= spec.max_plies && *p0 <= spec.max_plies);
        assert_ne!(moves[..4], m0[..4], "the opening is not the bots' play");
        assert!(*rounds >= 2 && *r0 >= 1, "{rounds} {r0}");
        let mut g = AnyGame::new(GameKind::Harmegedo, Some(3), None).unwrap();
        for m in moves {
            g.play(m).unwrap();
        }
    }
    // Each game's own seed: games 1 and 4 open differently, and the same run plays them again.
    assert_ne!(opened[0].2[..4], opened[3].2[..4]);
    assert_eq!(games(&spec), opened);
    // An opening as long as the cap leaves no game to play.
    spec.opening = spec.max_plies;
    let err = tournament::run(&spec, &mut Default::default, &mut |_, _| {}).unwrap_err();
    assert!(err.to_string().contains("an opening of 30 plies"), "{err}");
}

#[test]
fn an_opponent_who_does_not_reply_passes_in_brs_and_takes_its_best_capture_in_brs_plus() {
    use super::search::non_reply;
    use crate::games::heximeros::Move as HexiMove;
    // Red to move; its Sovereign on AC14 attacks the Blue Cavalier on AB13 and Regent on AB15.
    let red = |pieces: &[&'static str]| {
        HexiMeros::from_json(
            &serde_json::json!({
                "game": "heximeros",
                "to_move": "red",
                "pieces": pieces_json(&six_sovereigns(pieces)),
            })
            .to_string(),
        )
        .unwrap()
    };
    let g = red(&["blue cavalier AB13", "blue regent AB15"]);
    let text = |m: Option<HexiMove>| g.move_text(&m.unwrap());
    assert_eq!(non_reply(&g, None, false), Some(HexiMove::PASS));
    assert_eq!(text(non_reply(&g, None, true)), "AC14xAB15");
    // With the moves handed over, the same choice.
    let moves = g.legal_moves();
    assert_eq!(text(non_reply(&g, Some(&moves), true)), "AC14xAB15");
    // Nothing to take: it passes in both forms.
    let quiet = red(&["blue cavalier W14"]);
    assert_eq!(non_reply(&quiet, None, true), Some(HexiMove::PASS));
    assert_eq!(non_reply(&quiet, None, false), Some(HexiMove::PASS));
    // And the search of that form runs, seeded, and plays a legal move.
    let start = HexiMeros::new_game(6, Default::default()).unwrap();
    let any = AnyGame::HexiMeros(start.clone());
    let a = choose_searching(&any, Level::Normal, SearchKind::BrsPlus, 3, SMALL).unwrap();
    let b = choose_searching(&any, Level::Normal, SearchKind::BrsPlus, 3, SMALL).unwrap();
    assert_eq!(a, b);
    assert!(start.legal_move_texts().contains(&a.text), "{a:?}");
}

#[test]
fn brs_plus_searches_within_its_own_smaller_node_budget() {
    use crate::games::heximeros::HexiMeros;
    for level in [Level::Normal, Level::Hard] {
        let (_, plus) = HexiMeros::brs_plus_budget(level);
        let (_, brs) = HexiMeros::brs_budget(level);
        assert!(plus * 2 < brs, "{level}: {plus} against BRS's {brs}");
    }
    // The opening with no node limit given: the level's BRS+ budget, not BRS's, stops it.
    let (depth, nodes) = HexiMeros::brs_plus_budget(Level::Normal);
    let any = AnyGame::HexiMeros(HexiMeros::new_game(6, Default::default()).unwrap());
    let c = choose_searching(
        &any,
        Level::Normal,
        SearchKind::BrsPlus,
        1,
        Limits::default(),
    )
    .unwrap();
    assert!(
        c.depth < depth,
        "the budget should stop it before depth {depth}: {c:?}"
    );
    assert!(c.nodes >= nodes && c.nodes <= nodes + 10, "{c:?}");
}

#[test]
fn normal_plays_its_default_search_and_two_seats_ignore_the_search_kind() {
    let mut brs_default = 0;
    for (name, g) in positions() {
        if g.outcome().is_some() {
            continue;
        }
        let search = super::default_search(g.kind(), Level::Normal);
        let default = choose_with(&g, Level::Normal, 5, SMALL).unwrap();
        let asked = choose_searching(&g, Level::Normal, search, 5, SMALL).unwrap();
        assert_eq!(default, asked, "{name}");
        if search != SearchKind::Paranoid && g.seat_count() > 2 {
            brs_default += 1;
        }
        if g.seat_count() == 2 {
            let paranoid =
                choose_searching(&g, Level::Normal, SearchKind::Paranoid, 5, SMALL).unwrap();
            let brs = choose_searching(&g, Level::Normal, SearchKind::Brs, 5, SMALL).unwrap();
            assert_eq!(brs, paranoid, "{name}: two seats search alike");
            assert_eq!(default, paranoid, "{name}: two seats search alike");
        }
    }
    assert!(
        brs_default > 0,
        "no position where normal's default is not paranoid"
    );
}

/// A fixed-depth search of `g` for the seat to move, with or without the transposition table,
/// that no node budget stops.
fn fixed_depth<G: search::Engine>(
    g: &G,
    depth: u32,
    kind: SearchKind,
    table: bool,
) -> search::Found<G::Move> {
    let me = g.to_move().unwrap();
    let budget = search::Budget {
        depth,
        nodes: u64::MAX,
        deadline: None,
    };
    search::search_with(g, me, g.legal_moves(), budget, kind, table).unwrap()
}

/// The trees a search builds: [`SearchKind::Wary`] is one of them, chosen at the root.
const TREES: [SearchKind; 3] = [SearchKind::Paranoid, SearchKind::Brs, SearchKind::BrsPlus];

// One test per tree and game, so that the test harness runs them side by side (together, the
// longest test of the crate).
#[test]
fn the_transposition_table_keeps_every_fixed_depth_answer_and_cuts_searches_short_paranoid() {
    let f = the_transposition_table_keeps_every_fixed_depth_answer_and_cuts_searches_short;
    f(TREES[0], GameKind::Harmegedo);
    f(TREES[0], GameKind::HexiMeros);
}

#[test]
fn the_transposition_table_keeps_every_fixed_depth_answer_and_cuts_searches_short_brs_harmegedo() {
    the_transposition_table_keeps_every_fixed_depth_answer_and_cuts_searches_short(
        TREES[1],
        GameKind::Harmegedo,
    );
}

#[test]
fn the_transposition_table_keeps_every_fixed_depth_answer_and_cuts_searches_short_brs_heximeros() {
    the_transposition_table_keeps_every_fixed_depth_answer_and_cuts_searches_short(
        TREES[1],
        GameKind::HexiMeros,
    );
}

#[test]
fn the_transposition_table_keeps_every_fixed_depth_answer_and_cuts_searches_short_brs_plus_harmegedo()
 {
    the_transposition_table_keeps_every_fixed_depth_answer_and_cuts_searches_short(
        TREES[2],
        GameKind::Harmegedo,
    );
}

#[test]
fn the_transposition_table_keeps_every_fixed_depth_answer_and_cuts_searches_short_brs_plus_heximeros()
 {
    the_transposition_table_keeps_every_fixed_depth_answer_and_cuts_searches_short(
        TREES[2],
        GameKind::HexiMeros,
    );
}

/// The positions of `game` searched with `tree` at fixed depths, with and without the table.
fn the_transposition_table_keeps_every_fixed_depth_answer_and_cuts_searches_short(
    tree: SearchKind,
    game: GameKind,
) {
    let mut hits = std::collections::HashMap::new();
    for (name, g) in positions() {
        if g.outcome().is_some() || g.seat_count() < 3 || g.kind() != game {
            continue;
        }
        for kind in [tree] {
            // Depths at which a position recurs in the tree (own moves swapped around a reply),
            // kept small for the test build.
            let (with, without, nodes) = match &g {
                AnyGame::Harmegedo(h) => {
                    let depth = match kind {
                        SearchKind::Brs | SearchKind::BrsPlus | SearchKind::Wary
                            if h.seat_count() == 3 =>
                        {
                            4
                        }
                        SearchKind::Brs | SearchKind::BrsPlus | SearchKind::Wary => 3,
                        SearchKind::Paranoid if h.seat_count() == 3 => 5,
                        SearchKind::Paranoid => 2,
                    };
                    // The two searches side by side: this is the crate's longest test.
                    let (a, b) = rayon::join(
                        || fixed_depth(h, depth, kind, true),
                        || fixed_depth(h, depth, kind, false),
                    );
                    (
                        (h.move_text(&a.best), a.score, a.depth, a.tt_hits),
                        (h.move_text(&b.best), b.score, b.depth, b.tt_hits),
                        (a.nodes, b.nodes),
                    )
                }
                AnyGame::HexiMeros(h) => {
                    let depth = match kind {
                        SearchKind::Brs | SearchKind::BrsPlus | SearchKind::Wary => 3,
                        SearchKind::Paranoid => 2,
                    };
                    // The two searches side by side: this is the crate's longest test.
                    let (a, b) = rayon::join(
                        || fixed_depth(h, depth, kind, true),
                        || fixed_depth(h, depth, kind, false),
                    );
                    (
                        (h.move_text(&a.best), a.score, a.depth, a.tt_hits),
                        (h.move_text(&b.best), b.score, b.depth, b.tt_hits),
                        (a.nodes, b.nodes),
                    )
                }
                _ => continue,
            };
            eprintln!("{name} {kind}: with {with:?} without {without:?} nodes {nodes:?}");
            assert_eq!(without.3, 0, "{name} {kind}: hits without a table");
            assert_eq!(
                (&with.0, with.1, with.2),
                (&without.0, without.1, without.2),
                "{name} {kind}: the table changed the answer"
            );
            *hits.entry((g.kind(), kind)).or_insert(0) += with.3;
        }
    }
    eprintln!("{hits:?}");
    for kind in [tree].into_iter().filter(|_| game == GameKind::Harmegedo) {
        assert!(
            hits.get(&(GameKind::Harmegedo, kind)).copied().unwrap_or(0) > 0,
            "Harmegedo {kind}: the table never answered a node"
        );
    }
}

#[test]
fn a_sovereign_taken_scores_above_one_on_offer() {
    // Red to move; its Alcazar on Q16 attacks Silver's lone Sovereign down the file, and up it
    // an Orange Militant on Q40 shields Orange's. Taken, Silver is out; the turn then comes
    // back round to Red (the others pass) with only Militants on offer (a Blue one on K8
    // shields Blue's Sovereign from Q2).
    let shields = ["red alcazar Q16", "orange militant Q40", "blue militant K8"];
    let offer = heximeros("red", &six_sovereigns(&shields), &[]);
    let mut taken = offer.after(&offer.parse_move("Q16xQ2").unwrap());
    assert!(!taken.is_active(SILVER));
    while taken.to_move() != Some(RED) {
        taken.play_unchecked(&crate::games::heximeros::Move::PASS);
    }
    let (before, after) = (offer.evaluate(RED), taken.evaluate(RED));
    assert!(
        after > before,
        "Silver out scores {after}, Silver's Sovereign on offer {before}"
    );
    // And for Silver, whose Sovereign hangs with Red to move: worse than any position it is
    // still safe in, better than being out.
    let safe = heximeros("red", &six_sovereigns(&shields[1..]), &[]);
    let silver = offer.evaluate(SILVER);
    assert!(silver < safe.evaluate(SILVER), "{silver}");
    assert!(silver > taken.evaluate(SILVER), "{silver}");
}

/// What the hunt and net terms add to `me`'s evaluation of `g`.
fn hunt_part(g: &HexiMeros, me: Seat) -> i32 {
    use super::heximeros::{Weights, evaluate_with};
    let off = Weights {
        hunt: 0,
        net: 0,
        ..Weights::DEFAULT
    };
    evaluate_with(g, me, &Weights::DEFAULT) - evaluate_with(g, me, &off)
}

#[test]
fn the_bot_closes_in_on_the_weakest_seats_sovereign() {
    // Red's Regent four steps from Silver's Sovereign (Q2), or far from every Sovereign.
    let near = heximeros("blue", &six_sovereigns(&["red regent Q10"]), &[]);
    let far = heximeros("blue", &six_sovereigns(&["red regent Y26"]), &[]);
    let (n, f) = (hunt_part(&near, RED), hunt_part(&far, RED));
    assert!(n > f, "near {n}, far {f}");
    // With all seats equal the prey is the first (Silver); give Silver a Militant and Blue
    // is the weakest, so the same Regent near Silver hunts nothing.
    let silver_stronger = heximeros(
        "blue",
        &six_sovereigns(&["red regent Q10", "silver militant AA8"]),
        &[],
    );
    let near_blue = heximeros(
        "blue",
        &six_sovereigns(&["red regent I14", "silver militant AA8"]),
        &[],
    );
    let (s, b) = (hunt_part(&silver_stronger, RED), hunt_part(&near_blue, RED));
    assert!(b > s, "near Blue {b}, near Silver {s}");
}

#[test]
fn covering_the_cells_round_the_prey_sovereign_counts() {
    // Two Red Alcazars two steps from Silver's Sovereign, on the same file or beside it: the
    // terms differ by the cells round Q2 each covers, and a Silver piece on a cell round it
    // (its own, not an escape) takes that cell out of the net.
    let g = heximeros("blue", &six_sovereigns(&["red alcazar S6"]), &[]);
    let blocked = heximeros(
        "blue",
        &six_sovereigns(&["red alcazar S6", "silver militant R3"]),
        &[],
    );
    let (open, shut) = (hunt_part(&g, RED), hunt_part(&blocked, RED));
    assert!(open > 0, "{open}");
    assert_ne!(
        open, shut,
        "the Silver piece on a cell round its Sovereign changed nothing"
    );
}

#[test]
fn weights_read_and_write_as_name_value_lists() {
    use super::heximeros::Weights;
    let w: Weights = "hunt=4, net=0,pressing=-5".parse().unwrap();
    assert_eq!((w.hunt, w.net, w.pressing), (4, 0, -5));
    assert_eq!(w.sovereign, Weights::DEFAULT.sovereign);
    assert_eq!(w.to_string().parse::<Weights>().unwrap(), w);
    assert_eq!("".parse::<Weights>().unwrap(), Weights::DEFAULT);
    assert_eq!(
        Weights::TERMS.len(),
        Weights::DEFAULT.to_string().split(',').count()
    );
    for bad in [
        "hunt",
        "hunt=x",
        "hunted=1",
        "attacked_share=0",
        "hunt=99999999999",
        "hunt=1000001",
        "pressing=-1000001",
    ] {
        assert!(bad.parse::<Weights>().is_err(), "{bad}");
    }
    let w: Weights = "hunt=1000000,pressing=-1000000".parse().unwrap();
    assert_eq!((w.hunt, w.pressing), (Weights::LIMIT, -Weights::LIMIT));
}

#[test]
fn the_evaluation_neither_overflows_nor_scores_a_win_at_the_weights_limits() {
    // Every term at its limit, one way or the other (divisors at 1 or at the limit): the
    // evaluation and the draw score sum in i64 (an overflow panics in this build) and stay
    // within half a won game, in every stored HexiMeros position and a long random game.
    use super::heximeros::{Weights, draw_score_with, evaluate_with};
    let extreme = |sign: i64, divisor: i64| {
        let mut w = Weights::DEFAULT;
        for (name, _) in Weights::TERMS {
            let range = Weights::range(name);
            let v = if *range.start() == 1 {
                divisor
            } else {
                sign * Weights::LIMIT
            };
            w.set(name, v).unwrap();
        }
        w
    };
    let all = [
        extreme(1, 1),
        extreme(-1, 1),
        extreme(1, Weights::LIMIT),
        extreme(-1, Weights::LIMIT),
    ];
    let mut games: Vec<HexiMeros> = positions()
        .into_iter()
        .filter_map(|(_, g)| match g {
            AnyGame::HexiMeros(h) => Some(h),
            _ => None,
        })
        .collect();
    let mut g = HexiMeros::new_game(6, Default::default()).unwrap();
    let mut rng = super::rng::Rng::new(11);
    for _ in 0..400 {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        g.play_unchecked(&moves[rng.below(moves.len() as u64) as usize]);
        games.push(g.clone());
    }
    let mut at_limit = 0;
    for h in &games {
        for w in &all {
            for seat in 0..6 {
                let v = evaluate_with(h, Seat(seat), w);
                assert!(v.abs() <= search::WIN / 2, "{v}");
                at_limit += usize::from(v.abs() == search::WIN / 2);
                let d = draw_score_with(h, &h.active_seats(), Seat(seat), w);
                assert!(d.abs() <= search::WIN / 2, "{d}");
            }
        }
    }
    assert!(
        games.len() > 100 && at_limit > 0,
        "{} positions",
        games.len()
    );
}

#[test]
fn with_weights_changes_what_the_evaluation_plays_and_then_restores_it() {
    use super::heximeros::{Weights, evaluate_with};
    let g = heximeros("blue", &six_sovereigns(&["red regent Q10"]), &[]);
    let off = Weights {
        hunt: 0,
        net: 0,
        ..Weights::DEFAULT
    };
    let default = g.evaluate(RED);
    let inside = super::with_weights(off, || g.evaluate(RED));
    assert_eq!(inside, evaluate_with(&g, RED, &off));
    assert_ne!(inside, default);
    assert_eq!(g.evaluate(RED), default, "restored after");
}

fn tune_spec(terms: &[&str]) -> super::tune::TuneSpec {
    super::tune::TuneSpec {
        start: super::Weights::DEFAULT,
        terms: terms.iter().map(|t| t.to_string()).collect(),
        level: Level::Normal,
        search: SearchKind::Paranoid,
        iterations: 2,
        games: 1,
        seed: 3,
        step_percent: 50,
        gain: 2.0,
        max_plies: 12,
        limits: Limits {
            nodes: Some(120),
            deadline: None,
        },
    }
}

#[test]
fn the_tuner_moves_each_term_towards_the_side_that_finished_higher() {
    use super::tune::{step_of, update};
    let w = super::Weights::DEFAULT;
    assert_eq!(step_of(400, 25), 100);
    assert_eq!(step_of(0, 25), 1, "a term of 0 still steps");
    assert_eq!(step_of(-8, 50), 4);
    let signs = vec![("hunt".to_string(), 2, 1), ("net".to_string(), 10, -1)];
    // The plus side (hunt up, net down) took the top places: the weights go its way.
    let up = update(&w, &signs, 1.0, 1.0).unwrap();
    assert_eq!((up.hunt, up.net), (w.hunt + 2, w.net - 10));
    let down = update(&w, &signs, -0.5, 2.0).unwrap();
    assert_eq!((down.hunt, down.net), (w.hunt - 2, w.net + 10));
    assert_eq!(
        update(&w, &signs, 0.0, 2.0).unwrap(),
        w,
        "a tie moves nothing"
    );
    // A dividing term never reaches 0.
    let share = vec![("rival_share".to_string(), 50, -1)];
    assert_eq!(update(&w, &share, 1.0, 1.0).unwrap().rival_share, 1);
}

#[test]
fn a_tuning_run_plays_its_iterations_and_touches_only_the_terms_named() {
    let spec = tune_spec(&["hunt", "pressing"]);
    let mut seen = Vec::new();
    let w = super::tune::tune(&spec, &mut Default::default, &mut |it| {
        assert_eq!(it.report.games, 1);
        assert_ne!(it.plus, it.minus, "the two sides play different weights");
        seen.push(it.weights);
    })
    .unwrap();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen.last(), Some(&w));
    let d = super::Weights::DEFAULT;
    assert_eq!(
        super::Weights {
            hunt: d.hunt,
            pressing: d.pressing,
            ..w
        },
        d,
        "only hunt and pressing may move"
    );
    // Seeded: the same run again.
    let again = super::tune::tune(&spec, &mut Default::default, &mut |_| {}).unwrap();
    assert_eq!(again, w);
}

#[test]
fn the_tuner_refuses_what_it_cannot_tune() {
    let run = |spec: super::tune::TuneSpec| {
        super::tune::tune(&spec, &mut Default::default, &mut |_| panic!("played"))
            .unwrap_err()
            .to_string()
    };
    assert!(run(tune_spec(&["hunted"])).contains("unknown HexiMeros evaluation term \"hunted\""));
    assert!(run(tune_spec(&[])).contains("no term to tune"));
    let none = super::tune::TuneSpec {
        games: 0,
        ..tune_spec(&["hunt"])
    };
    assert!(run(none).contains("at least one iteration of at least one game"));
}

/// What the terms `on` (over the defaults) add to `me`'s evaluation of `g` against the same
/// terms at 0.
fn terms_part(g: &HexiMeros, me: Seat, on: &str, off: &str) -> i32 {
    use super::heximeros::evaluate_with;
    let (on, off): (super::Weights, super::Weights) = (on.parse().unwrap(), off.parse().unwrap());
    evaluate_with(g, me, &on) - evaluate_with(g, me, &off)
}

#[test]
fn a_bot_minds_the_net_round_its_own_sovereign_and_being_the_prey() {
    // Silver's Alcazar two steps from Red's Sovereign (AC14) covers cells round it.
    let near = heximeros("blue", &six_sovereigns(&["silver alcazar AA18"]), &[]);
    let guard = terms_part(&near, RED, "guard=10", "guard=0");
    assert!(guard < 0 && guard % 10 == 0, "{guard}");
    let far = heximeros("blue", &six_sovereigns(&["silver alcazar Q10"]), &[]);
    assert_eq!(terms_part(&far, RED, "guard=10", "guard=0"), 0);
    // Every seat but Red has a Militant: Red is the weakest, the one the others hunt.
    let extra = [
        "silver militant Q4",
        "blue militant I14",
        "yellow militant I38",
        "orange militant Q48",
        "green militant Y38",
    ];
    let weakest = heximeros("blue", &six_sovereigns(&extra), &[]);
    assert_eq!(terms_part(&weakest, RED, "prey=250", "prey=0"), -250);
    assert_eq!(terms_part(&weakest, BLUE, "prey=250", "prey=0"), 0);
}

#[test]
fn easy_plays_no_hunt_whatever_the_weights() {
    // The hunt pulls a searching level's pieces towards the weakest Sovereign, `restless`
    // towards any progress; easy plays material and threats only, so any such weights give it
    // the same moves.
    let g = AnyGame::HexiMeros(heximeros("red", &six_sovereigns(&["red regent Y26"]), &[]));
    let big = super::Weights {
        hunt: 500,
        net: 500,
        restless: 5000,
        ..super::Weights::DEFAULT
    };
    // Blue, 300 quiet moves on, with only a Dreadnaught that reaches nothing: every line is
    // quiet, so `restless` would charge every score (the choice carries its score).
    let stale = AnyGame::HexiMeros(quiet_for(
        300,
        &six_sovereigns(&["blue dreadnaught Y26"]),
        &[],
    ));
    for g in [&g, &stale] {
        for seed in 0..4 {
            let plain = choose_with(g, Level::Easy, seed, Limits::default()).unwrap();
            let hunting = super::with_weights(big, || {
                choose_with(g, Level::Easy, seed, Limits::default()).unwrap()
            });
            assert_eq!(plain, hunting, "seed {seed}");
        }
    }
    // While normal follows them (the Regent heads for Silver's Sovereign).
    let n = |w| {
        super::with_weights(w, || {
            choose_with(&g, Level::Normal, 1, Limits::default()).unwrap()
        })
    };
    assert_ne!(n(big), n(super::Weights::DEFAULT));
}

#[test]
fn best_reply_search_is_the_default_where_it_measured_stronger() {
    use super::default_search;
    let best_reply = [
        (GameKind::Harmegedo, Level::Hard, SearchKind::Brs),
        (GameKind::HexiMeros, Level::Hard, SearchKind::Brs),
        (GameKind::HexiMeros, Level::Normal, SearchKind::Brs),
    ];
    for (kind, level, search) in best_reply {
        assert_eq!(default_search(kind, level), search, "{kind:?} {level}");
    }
    for kind in GameKind::ALL {
        for level in [Level::Easy, Level::Normal, Level::Hard] {
            if !best_reply.iter().any(|&(k, l, _)| k == kind && l == level) {
                assert_eq!(
                    default_search(kind, level),
                    SearchKind::Paranoid,
                    "{kind:?} {level}"
                );
            }
        }
    }
    for (kind, level, search) in best_reply {
        let mut seen = 0;
        for (name, g) in positions() {
            if g.kind() != kind || g.seat_count() < 3 || g.outcome().is_some() {
                continue;
            }
            let default = choose_with(&g, level, 5, SMALL).unwrap();
            let asked = choose_searching(&g, level, search, 5, SMALL).unwrap();
            assert_eq!(default, asked, "{name} {level}");
            seen += 1;
        }
        assert!(seen > 0, "no {kind:?} position of three or more seats");
    }
}

/// Blue to move with `pieces` and the seats `out` eliminated, after `clock` moves without a
/// capture, an unhatted Militant move or a promotion.
fn quiet_for(clock: u32, pieces: &[&str], out: &[&str]) -> HexiMeros {
    let json = serde_json::json!({
        "game": "heximeros",
        "to_move": "blue",
        "pieces": pieces_json(pieces),
        "eliminated": out,
        "halfmove_clock": clock,
    });
    HexiMeros::from_json(&json.to_string()).unwrap()
}

#[test]
fn the_rounds_without_progress_are_charged_up_to_their_limit() {
    use super::heximeros::{Weights, evaluate_with};
    let w = Weights {
        restless: 7,
        restless_rounds: 20,
        ..Weights::DEFAULT
    };
    let off = Weights { restless: 0, ..w };
    let part = |g: &HexiMeros| evaluate_with(g, RED, &w) - evaluate_with(g, RED, &off);
    let six = |clock| quiet_for(clock, &six_sovereigns(&["red regent Y26"]), &[]);
    // Six seats in: a round is six moves; the charge counts whole rounds, up to 20 of them.
    assert_eq!(part(&six(0)), 0);
    assert_eq!(part(&six(5)), 0);
    assert_eq!(part(&six(60)), -70);
    assert_eq!(part(&six(125)), -140);
    assert_eq!(part(&six(6000)), -140);
    // With three seats out a round is three moves.
    let three = quiet_for(
        30,
        &[
            "silver sovereign Q2",
            "blue sovereign E14",
            "red sovereign AC14",
            "red regent Y26",
        ],
        &["yellow", "orange", "green"],
    );
    assert_eq!(part(&three), -70);
    // The default plays it.
    let quiet_off = Weights {
        restless: 0,
        ..Weights::DEFAULT
    };
    let g = six(600);
    assert!(evaluate_with(&g, RED, &Weights::DEFAULT) < evaluate_with(&g, RED, &quiet_off));
}

#[test]
fn a_bot_to_move_saves_one_attacked_piece_and_is_charged_for_the_others() {
    use super::heximeros::{Weights, evaluate_with};
    let w = Weights {
        unsaved_tenths: 5,
        ..Weights::DEFAULT
    };
    let off = Weights {
        unsaved_tenths: 0,
        ..w
    };
    let part = |g: &HexiMeros, me| evaluate_with(g, me, &w) - evaluate_with(g, me, &off);
    // The red Sovereign on AC14 attacks AB13 and AB15 (two of its steps); Blue is to move.
    let both = quiet_for(
        0,
        &six_sovereigns(&["blue regent AB13", "blue cavalier AB15"]),
        &[],
    );
    // Blue steps away with the Regent (550); the Cavalier (250) is charged half its value.
    assert_eq!(part(&both, BLUE), -125);
    // One attacked piece: it steps away, nothing charged.
    let one = quiet_for(
        0,
        &six_sovereigns(&["blue regent AB13", "blue cavalier W14"]),
        &[],
    );
    assert_eq!(part(&one, BLUE), 0);
    // Three: all but the most valuable.
    let three = quiet_for(
        0,
        &six_sovereigns(&[
            "blue regent AB13",
            "blue cavalier AB15",
            "blue militant AC16",
        ]),
        &[],
    );
    assert_eq!(part(&three, BLUE), -150);
    // Not to move: the seats before it are charged as before, this term not at all.
    assert_eq!(part(&both, RED), 0);
    let red_to_move = HexiMeros::from_json(
        &serde_json::json!({
            "game": "heximeros",
            "to_move": "red",
            "pieces": pieces_json(&six_sovereigns(&["blue regent AB13", "blue cavalier AB15"])),
        })
        .to_string(),
    )
    .unwrap();
    assert_eq!(part(&red_to_move, BLUE), 0);
    // The default leaves it off.
    assert_eq!(Weights::DEFAULT.unsaved_tenths, 0);
}

/// Three seats left (Silver, Blue, Red), the others out, Blue to move after `clock` quiet moves.
fn three_left(clock: u32, extra: &[&str]) -> HexiMeros {
    let mut pieces = vec![
        "silver sovereign Q2",
        "blue sovereign E14",
        "red sovereign AC14",
    ];
    pieces.extend_from_slice(extra);
    quiet_for(clock, &pieces, &["yellow", "orange", "green"])
}

#[test]
fn a_table_of_three_or_more_is_deadlocked_by_the_last_twos_draw_tests() {
    // Only Sovereigns left: deadlocked at once.
    assert!(three_left(0, &[]).deadlocked());
    // A Regent left: not until 50 full rounds of the three without progress (150 moves).
    assert!(!three_left(0, &["red regent Y26"]).deadlocked());
    assert!(!three_left(149, &["red regent Y26"]).deadlocked());
    assert!(three_left(150, &["red regent Y26"]).deadlocked());
    // Six seats in: 300 moves.
    let six = |clock| quiet_for(clock, &six_sovereigns(&["red regent Y26"]), &[]);
    assert!(!six(299).deadlocked());
    assert!(six(300).deadlocked());
    // The house rules switch the tests off with the draws they are taken from.
    let with_rules = |g: HexiMeros, rules: serde_json::Value| {
        let mut json: serde_json::Value = serde_json::from_str(&g.to_json()).unwrap();
        json["house_rules"] = rules;
        HexiMeros::from_json(&json.to_string()).unwrap()
    };
    let stale = || three_left(600, &["red regent Y26"]);
    assert!(!with_rules(stale(), serde_json::json!({"quiet_rounds_draw": 0})).deadlocked());
    assert!(!with_rules(stale(), serde_json::json!({"quiet_rounds_draw": 300})).deadlocked());
    let bare = with_rules(
        three_left(0, &[]),
        serde_json::json!({"bare_sovereigns_draw": false}),
    );
    assert!(!bare.deadlocked());
    // Over, or two left: the rules' own draws apply, not the vote.
    let two = quiet_for(
        600,
        &[
            "silver sovereign Q2",
            "blue sovereign E14",
            "red regent Y26",
        ],
        &["yellow", "orange", "green", "red"],
    );
    assert!(!two.deadlocked());
}

#[test]
fn bots_vote_to_abandon_a_deadlocked_table_and_only_that() {
    // Three bare Sovereigns: no one is behind, yet every bot votes to abandon.
    let dead = AnyGame::HexiMeros(three_left(0, &[]));
    for s in [SILVER, BLUE, RED] {
        assert!(vote(&dead, s, &Motion::Draw), "{s:?}");
    }
    // The same table with Red a Regent up and progress made: Red plays on.
    let live = AnyGame::HexiMeros(three_left(10, &["red regent Y26"]));
    assert!(!deadlocked(&live));
    assert!(!vote(&live, RED, &Motion::Draw));
    // Fifty rounds later, Red too would rather end it.
    let stale = AnyGame::HexiMeros(three_left(150, &["red regent Y26"]));
    assert!(vote(&stale, RED, &Motion::Draw));
}

#[test]
fn the_harness_ends_a_deadlocked_table_by_the_bots_vote() {
    let limits = Limits {
        nodes: Some(200),
        deadline: None,
    };
    let play = |g: HexiMeros| {
        tournament::play_game(
            AnyGame::HexiMeros(g),
            &[Level::Normal; 6],
            1,
            400,
            limits,
            &mut |_, _| {},
            &mut Default::default,
        )
        .unwrap()
    };
    // Blue to move: Blue and Red move, then Silver, the first seat still in, proposes while
    // the deadlock is a round old, and all three vote for it.
    let rec = play(three_left(0, &[]));
    assert_eq!(rec.plies, 2);
    assert!(rec.abandoned && !rec.capped);
    match &rec.outcome {
        Some(crate::games::Outcome::Draw { seats, reason }) => {
            assert_eq!(seats, &vec![SILVER, BLUE, RED]);
            assert!(reason.contains("abandoned"), "{reason}");
        }
        o => panic!("{o:?}"),
    }
    // Four moves short of fifty quiet rounds of the three, with only a Dreadnaught that
    // reaches nothing: played until they run out and Silver's turn comes (move 151).
    let rec = play(three_left(146, &["red dreadnaught Y26"]));
    assert_eq!((rec.plies, rec.abandoned, rec.capped), (5, true, false));
    assert!(matches!(
        rec.outcome,
        Some(crate::games::Outcome::Draw { ref seats, .. }) if seats.len() == 3
    ));
}

#[test]
fn a_deadlocked_table_is_asked_when_it_sets_in_and_every_fifty_rounds() {
    let asked = |g: HexiMeros| proposes_abandon(&AnyGame::HexiMeros(g));
    // Only Sovereigns: in the first round after the capture that left them (three moves).
    assert!(asked(three_left(0, &[])));
    assert!(asked(three_left(2, &[])));
    assert!(!asked(three_left(3, &[])));
    assert!(!asked(three_left(149, &[])));
    assert!(asked(three_left(150, &[])));
    // With a Regent: only once fifty rounds have run out, for one round, then fifty later.
    let regent = |clock| three_left(clock, &["red regent Y26"]);
    assert!(!asked(regent(0)));
    assert!(!asked(regent(149)));
    assert!(asked(regent(150)) && asked(regent(152)));
    assert!(!asked(regent(153)) && !asked(regent(299)));
    assert!(asked(regent(300)));
    // Six seats in: fifty rounds are 300 moves; not deadlocked before, never asked.
    let six = |clock| quiet_for(clock, &six_sovereigns(&["red regent Y26"]), &[]);
    assert!(!asked(six(299)));
    assert!(asked(six(300)) && asked(six(305)) && !asked(six(306)));
    // Other games are never deadlocked this way.
    assert!(!proposes_abandon(
        &AnyGame::new(GameKind::HexDame, None, None).unwrap()
    ));
}

#[test]
fn a_shared_draw_scores_as_an_even_position_of_its_seats_when_asked() {
    use super::heximeros::{Weights, draw_score_with, with_weights};
    let on = Weights {
        draw_tenths: 10,
        ..Weights::DEFAULT
    };
    let half = Weights {
        draw_tenths: 5,
        ..Weights::DEFAULT
    };
    let g = blue_ahead_one_quiet_move_from_a_draw();
    let duel = [SILVER, BLUE];
    // An even position of two seats: one opponent's life (3000) and 49 rounds' restless charge.
    assert_eq!(draw_score_with(&g, &duel, BLUE, &on), -3000 - 40 * 49);
    assert_eq!(
        draw_score_with(&g, &duel, BLUE, &half),
        (-3000 - 40 * 49) / 2
    );
    assert_eq!(draw_score_with(&g, &duel, BLUE, &Weights::DEFAULT), 0);
    assert_eq!(
        draw_score_with(&g, &[SILVER], BLUE, &on),
        0,
        "not in the draw"
    );
    // The seat ahead: a quiet move draws, a Militant move or a capture goes on.
    let draws = |m: &HexiMove| draws_at_once(&g, m);
    let moves = g.legal_moves();
    assert!(moves.iter().any(draws) && !moves.iter().all(draws));
    assert!(
        moves.iter().all(|m| search::Engine::hint(&g, m) == 0),
        "nothing to take"
    );
    let any = AnyGame::HexiMeros(g.clone());
    let pick = |w: Weights| {
        let c = with_weights(w, || {
            choose_searching(&any, Level::Normal, SearchKind::Paranoid, 1, SMALL).unwrap()
        });
        g.parse_move(&c.text).unwrap()
    };
    // Scored 0, the draw beats every position with Silver still in: Blue takes it.
    let taken = pick(Weights::DEFAULT);
    assert!(draws(&taken), "{}", g.move_text(&taken));
    // Scored as an even position, Blue, ahead, plays on.
    assert!(!draws(&pick(on)));
}

/// The last two (Silver and Blue), Blue a Cavalier and a Militant up; one more quiet move makes
/// 50 rounds without progress.
fn blue_ahead_one_quiet_move_from_a_draw() -> HexiMeros {
    let pieces = [
        "silver sovereign Q2",
        "blue sovereign E14",
        "blue cavalier AA40",
        "blue militant K20",
    ];
    let out = ["yellow", "orange", "green", "red"];
    quiet_for(99, &pieces, &out)
}

/// Whether `m` ends `g` in a draw.
fn draws_at_once(g: &HexiMeros, m: &HexiMove) -> bool {
    let mut c = g.clone();
    c.play_unchecked(m);
    matches!(c.outcome(), Some(crate::games::Outcome::Draw { .. }))
}

#[test]
fn each_level_plays_its_own_weights_unless_others_are_asked() {
    use super::heximeros::{Weights, with_weights};
    assert_eq!(Weights::for_level(Level::Hard).draw_tenths, 10);
    assert_eq!(
        Weights::for_level(Level::Hard),
        Weights {
            draw_tenths: 10,
            guard: 10,
            prey: 300,
            exposed: 2000,
            ..Weights::DEFAULT
        },
        "hard differs from the default in draw_tenths, guard, prey and exposed only"
    );
    for level in [Level::Random, Level::Easy, Level::Normal] {
        assert_eq!(Weights::for_level(level), Weights::DEFAULT, "{level:?}");
    }
    let g = blue_ahead_one_quiet_move_from_a_draw();
    let any = AnyGame::HexiMeros(g.clone());
    let pick = |level: Level| {
        let c = choose_searching(&any, level, SearchKind::Paranoid, 1, SMALL).unwrap();
        g.parse_move(&c.text).unwrap()
    };
    // With nothing asked each level plays its own weights: normal (draw_tenths 0) takes the
    // draw, hard, ahead, plays on ...
    assert!(draws_at_once(&g, &pick(Level::Normal)));
    assert!(!draws_at_once(&g, &pick(Level::Hard)));
    // ... and weights asked for (the harness's, the tuner's) replace the level's.
    assert!(draws_at_once(
        &g,
        &with_weights(Weights::DEFAULT, || pick(Level::Hard))
    ));
    // So does a hard bot through the host's entry point, with its default search.
    let c = choose_respecting(&any, &[], Level::Hard, 1, SMALL).unwrap();
    assert!(!draws_at_once(&g, &g.parse_move(&c.text).unwrap()));
}

#[test]
fn exposure_counts_each_seat_that_attacks_or_could_attack_a_sovereign() {
    use super::heximeros::checking_moves;
    let count = |extra: &[&'static str]| {
        checking_moves(&heximeros("blue", &six_sovereigns(extra), &[]), RED)
    };
    // Sovereigns on their base spaces, far apart: no seat can reach Red's.
    assert_eq!(count(&[]), [0; 6]);
    // A Militant far off cannot either.
    assert_eq!(count(&["silver militant Q4"]), [0; 6]);
    // Silver's Alcazar near Red's Sovereign attacks it, or can with a move; Blue's Cavalier can
    // with a leap. No one else can.
    let near = count(&["silver alcazar AA18", "blue cavalier W22"]);
    assert!(
        near[SILVER.index()] > 0 && near[BLUE.index()] > 0,
        "{near:?}"
    );
    assert_eq!(near[2..], [0; 4], "{near:?}");
    // A seat out counts for nothing, and neither does a bot without a Sovereign.
    let alone = heximeros("blue", &["red sovereign AC14", "blue sovereign E14"], &[]);
    assert_eq!(checking_moves(&alone, SILVER), [0; 6]);
}

#[test]
fn hard_charges_at_the_root_the_seats_that_could_check_its_sovereign() {
    use super::heximeros::{Weights, checking_moves, with_weights};
    use super::search::Engine;
    let json = include_str!("../../tests/data/positions/heximeros_exposed.json");
    let AnyGame::HexiMeros(g) = AnyGame::from_json(json).unwrap() else {
        panic!("a HexiMeros position");
    };
    let me = g.to_move().unwrap();
    let per_seat = checking_moves(&g, me);
    let seats = per_seat.iter().filter(|&&n| n > 0).count() as i32;
    let moves: usize = per_seat.iter().sum();
    assert!(seats >= 2, "{per_seat:?}");
    // The charge is the weights times the seats beyond the first and the moves, and nothing
    // at all with both terms at 0 (every level but hard).
    let bias = |w: &str| with_weights(w.parse().unwrap(), || g.root_bias(me));
    assert_eq!(bias("exposed=0,exposed_moves=0"), 0);
    assert_eq!(bias("exposed=100,exposed_moves=0"), -100 * (seats - 1));
    assert_eq!(bias("exposed=0,exposed_moves=7"), -7 * moves as i32);
    // The search adds it to each root move's score: Orange (game 34 of the hard-alone run,
    // ply 9) plays a move that leaves fewer of its opponents' moves on its Sovereign.
    let exposure = |w: &str| {
        let weights = Weights::for_level(Level::Normal).with_pairs(w).unwrap();
        let text = with_weights(weights, || {
            choose(&AnyGame::HexiMeros(g.clone()), Level::Normal, 1).unwrap()
        });
        let m = g.parse_move(&text).unwrap();
        checking_moves(&g.after(&m), me).iter().sum::<usize>()
    };
    let (plain, charged) = (exposure(""), exposure("exposed=2000,exposed_moves=200"));
    assert!(charged < plain, "{charged} against {plain}");
}
