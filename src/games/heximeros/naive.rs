//! An independent, deliberately naive move generator for the default rules, written from
//! `docs/rules/heximeros.md` §4 and Appendix A with plain coordinate arithmetic (no tables, no
//! bitsets). Tests compare it with the engine on random positions.

use std::collections::{BTreeSet, HashMap};

use super::{HexiMeros, Kind, hex_name};
use crate::hex::Hex;

const F: [(i32, i32); 6] = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)];

fn flat(i: usize) -> Hex {
    let (q, r) = F[i % 6];
    Hex::new(q, r)
}

fn line(i: usize) -> Hex {
    flat(i) + flat(i + 1)
}

fn all12() -> Vec<Hex> {
    (0..6).map(flat).chain((0..6).map(line)).collect()
}

fn on_board(h: Hex) -> bool {
    let (q, r, s) = (h.q, h.r, h.s());
    (q - r).abs() <= 25 && (r - s).abs() <= 25 && (s - q).abs() <= 25
}

fn fwd(colour: u8, h: Hex) -> i32 {
    let v = flat(colour as usize);
    // cube dot product
    h.q * v.q + h.r * v.r + h.s() * v.s()
}

type P = (u8, Kind, bool, bool);

/// Pseudo-legal move texts of every piece of `colour` (which must not be frozen).
pub fn moves(g: &HexiMeros, colour: u8) -> BTreeSet<String> {
    let geo = &super::BOARD.geometry;
    let board: HashMap<Hex, P> = g
        .pieces()
        .map(|(c, p)| (geo.hex(c), (p.colour, p.kind, p.moved, p.bonus)))
        .collect();
    let mut out = BTreeSet::new();
    for (&from, &p) in board.iter().filter(|(_, p)| p.0 == colour) {
        piece_moves(&board, from, p, &mut out);
    }
    out
}

fn piece_moves(b: &HashMap<Hex, P>, from: Hex, p: P, out: &mut BTreeSet<String>) {
    let (colour, kind, moved, bonus) = p;
    let name = hex_name;
    let enemy = |h: Hex| b.get(&h).is_some_and(|t| t.0 != colour);
    let mut simple: Vec<(Hex, bool)> = Vec::new(); // (to, captures)
    let slide = |dirs: &[Hex], lim: i32, simple: &mut Vec<(Hex, bool)>| {
        for &d in dirs {
            for k in 1..=lim {
                let c = from + d * k;
                if !on_board(c) {
                    break;
                }
                match b.get(&c) {
                    None => simple.push((c, false)),
                    Some(t) => {
                        if t.0 != colour {
                            simple.push((c, true));
                        }
                        break;
                    }
                }
            }
        }
    };
    let flats: Vec<Hex> = (0..6).map(flat).collect();
    let lines: Vec<Hex> = (0..6).map(line).collect();
    match kind {
        Kind::Sovereign | Kind::HattedMilitant => {
            slide(&all12(), if bonus { 2 } else { 1 }, &mut simple)
        }
        Kind::Regent => slide(&all12(), 99, &mut simple),
        Kind::Alcazar => slide(&flats, 99, &mut simple),
        Kind::Prelate => {
            slide(&lines, 99, &mut simple);
            if !moved {
                slide(&flats, 1, &mut simple);
            }
        }
        Kind::Assassin => slide(&all12(), if bonus { 6 } else { 3 }, &mut simple),
        Kind::Cavalier => {
            for i in 0..6 {
                for turn in [1, 5] {
                    let (d, d2) = (flat(i), flat(i + turn));
                    let mut pats = vec![(2, 1), (3, 2)];
                    if bonus {
                        pats.extend([(4, 2), (6, 4)]);
                    }
                    for (a, bb) in pats {
                        let route_ok = (1..=a).all(|k| on_board(from + d * k))
                            && (1..=bb).all(|k| on_board(from + d * a + d2 * k));
                        let to = from + d * a + d2 * bb;
                        if route_ok && (b.get(&to).is_none() || enemy(to)) {
                            simple.push((to, b.contains_key(&to)));
                        }
                    }
                }
            }
        }
        Kind::Dreadnaught => {
            for d in &flats {
                let mut any = false;
                for k in 1..=(if bonus { 8 } else { 4 }) {
                    let c = from + *d * k;
                    if !on_board(c) {
                        break;
                    }
                    if let Some(t) = b.get(&c) {
                        if t.0 == colour && t.1 == Kind::Sovereign {
                            break;
                        }
                        any = true;
                    }
                    simple.push((c, any));
                }
            }
        }
        Kind::Archer => {
            for d in all12() {
                for k in 1..=(if bonus { 4 } else { 2 }) {
                    let c = from + d * k;
                    if !on_board(c) || b.contains_key(&c) {
                        break;
                    }
                    simple.push((c, false));
                }
                for k in 1..=(if bonus { 6 } else { 3 }) {
                    let c = from + d * k;
                    if !on_board(c) {
                        break;
                    }
                    if b.contains_key(&c) {
                        if enemy(c) {
                            out.insert(format!("{}*{}", name(from), name(c)));
                        }
                        break;
                    }
                }
            }
        }
        Kind::Militant => militant_moves(b, from, colour, moved, &mut simple),
    }
    for (to, cap) in simple {
        let base = format!("{}{}{}", name(from), if cap { 'x' } else { '-' }, name(to));
        out.insert(base.clone());
        let is_militant = matches!(kind, Kind::Militant | Kind::HattedMilitant);
        let centre = kind == Kind::Militant && from != Hex::ORIGIN && fwd(colour, to) >= 0;
        let base_line = (0..6u8).any(|j| j != colour && fwd(j, to) <= -24);
        if is_militant && (centre || base_line) {
            for k in Kind::PROMOTIONS {
                out.insert(format!("{base}={}", k.name()));
            }
        }
    }
}

/// A Militant's steps and captures from `from` (forward one, two from its start, diagonal
/// captures; every way from Ground Zero), as (to, captures).
fn militant_moves(
    b: &HashMap<Hex, P>,
    from: Hex,
    colour: u8,
    moved: bool,
    simple: &mut Vec<(Hex, bool)>,
) {
    let enemy = |h: Hex| b.get(&h).is_some_and(|t| t.0 != colour);
    let k = colour as usize;
    let diags = |d: usize| [flat(d + 1), flat(d + 5), line(d), line(d + 5)];
    if from == Hex::ORIGIN {
        for t in all12() {
            if enemy(from + t) && on_board(from + t) {
                simple.push((from + t, true));
            }
        }
        for i in 0..6 {
            let one = from + flat(i);
            if b.contains_key(&one) {
                continue;
            }
            simple.push((one, false));
            let two = one + flat(i);
            if !b.contains_key(&two) {
                simple.push((two, false));
            }
            for dd in diags(i) {
                if enemy(one + dd) {
                    simple.push((one + dd, true));
                }
            }
        }
    } else {
        for dd in diags(k) {
            if enemy(from + dd) {
                simple.push((from + dd, true));
            }
        }
        let one = from + flat(k);
        if on_board(one) && !b.contains_key(&one) {
            simple.push((one, false));
            if !moved {
                let two = one + flat(k);
                if on_board(two) && !b.contains_key(&two) {
                    simple.push((two, false));
                }
                for dd in diags(k) {
                    if enemy(one + dd) {
                        simple.push((one + dd, true));
                    }
                }
            }
        }
    }
}
