//! HexaEquo move text (`docs/notation-hexaequo.md`):
//!
//! * `T@H8` lay a tile, `D@I8` place a disc, `R@I8` place a ring;
//! * `J8-I8` a disc's step;
//! * `I8xK8-M8` a disc's jump sequence: every landing cell, `x` before a landing whose jump
//!   captured, `-` before one that jumped a friendly piece;
//! * `I9xK9`, `I9-H8` a ring's leap, with or without a capture.
//!
//! Reading is lenient where nothing is lost: `x` and `-` are interchangeable (what is captured
//! follows from the board), and a jump sequence may be written as just its start and end when
//! only one sequence of that disc ends there.

use super::cells::{self, name, parse_cell};
use super::moves::Move;
use super::{AntiLoop, CaptureRemoval, HexaEquo, Kind, MoveIdentity, Rules};
use crate::games::{MoveText, Outcome, PlayError, Sep};
use crate::hex::Hex;

/// The canonical text of a move.
pub(super) fn move_text(m: &Move) -> String {
    match m {
        Move::Tile(cell) => format!("T@{}", name(*cell)),
        Move::Place { kind, cell } => format!("{}@{}", kind.letter(), name(*cell)),
        Move::Step { from, to } => format!("{}-{}", name(*from), name(*to)),
        Move::Leap { from, to, capture } => {
            format!(
                "{}{}{}",
                name(*from),
                if *capture { 'x' } else { '-' },
                name(*to)
            )
        }
        Move::Jump { path, captured } => {
            let mut s = String::new();
            let mut jumped = Vec::new();
            for (i, cell) in path.iter().enumerate() {
                if i > 0 {
                    // A hop captures the first time it crosses a captured piece's cell (a
                    // captured piece left standing may be crossed again, taking nothing).
                    let over = cells::between(path[i - 1], *cell);
                    let took = over.is_some_and(|m| captured.contains(&m) && !jumped.contains(&m));
                    jumped.extend(over);
                    s.push(if took { 'x' } else { '-' });
                }
                s.push_str(&name(*cell));
            }
            s
        }
    }
}

/// What a `K@cell` text puts down.
enum Placing {
    Tile,
    Piece(Kind),
}

/// Parse move text and resolve it against `g`.
pub(super) fn parse_move(g: &HexaEquo, text: &str) -> Result<Move, PlayError> {
    let mt: MoveText = text.parse().map_err(PlayError::Syntax)?;
    let syntax = |reason: &str| PlayError::syntax(text, reason);
    let illegal = |reason: String| PlayError::illegal(text, reason);
    if mt.promotion.is_some() || !mt.checks.is_empty() {
        return Err(syntax("HexaEquo moves take no '=' or '+' suffix"));
    }
    if let Some(word) = &mt.word {
        return Err(if word == "pass" {
            illegal("there is no passing in HexaEquo: every turn is one action".into())
        } else {
            syntax(
                "a move is a placement like T@H8, D@I8 or R@I8, or a move like J8-I8 or I8xK8-M8",
            )
        });
    }
    if mt.seps.contains(&Sep::Shot) {
        return Err(syntax("HexaEquo has no shots ('*')"));
    }
    let mut path = Vec::with_capacity(mt.cells.len());
    for c in &mt.cells {
        path.push(parse_cell(c).ok_or_else(|| {
            syntax(&format!(
                "there is no cell {c} (a cell is a letter A–Z and a number 1–26, like I8)"
            ))
        })?);
    }
    let placing = match mt.drop.as_deref().map(str::to_ascii_uppercase) {
        None => None,
        Some(k) if k == "T" || k == "TILE" => Some(Placing::Tile),
        Some(k) if k == "D" || k == "DISC" => Some(Placing::Piece(Kind::Disc)),
        Some(k) if k == "R" || k == "RING" => Some(Placing::Piece(Kind::Ring)),
        Some(k) => {
            return Err(syntax(&format!(
                "unknown kind {k:?}: place T (tile), D (disc) or R (ring), like D@I8"
            )));
        }
    };
    if let Some(Outcome::Win { reason, .. } | Outcome::Draw { reason, .. }) = g.outcome() {
        return Err(illegal(format!("the game is over ({reason})")));
    }
    let legal = g.legal_moves();
    let found = |m: &Move| legal.contains(m);
    match placing {
        Some(Placing::Tile) => {
            let m = Move::Tile(path[0]);
            if found(&m) {
                Ok(m)
            } else {
                Err(illegal(why_not_tile(g, path[0])))
            }
        }
        Some(Placing::Piece(kind)) => {
            let m = Move::Place {
                kind,
                cell: path[0],
            };
            if found(&m) {
                Ok(m)
            } else {
                Err(illegal(why_not_place(g, kind, path[0])))
            }
        }
        None => resolve_piece_move(g, &legal, &path).map_err(illegal),
    }
}

fn why_not_tile(g: &HexaEquo, cell: Hex) -> String {
    let me = g.to_move;
    if g.reserve(me).tile == 0 {
        return format!("{} has no tile left in hand", me.name());
    }
    if g.tile(cell).is_some() {
        return format!("{} already holds a tile", name(cell));
    }
    let touching = cells::neighbours(cell)
        .iter()
        .filter(|&&n| g.tile(n).is_some())
        .count();
    if touching < 2 {
        return format!(
            "a tile must touch at least two tiles, and {} touches {touching}",
            name(cell)
        );
    }
    format!(
        "{} is outside the board (radius {:?} around I8)",
        name(cell),
        g.house.board_radius
    )
}

fn why_not_place(g: &HexaEquo, kind: Kind, cell: Hex) -> String {
    let me = g.to_move;
    let Some(t) = g.tile(cell) else {
        return format!("there is no tile on {}", name(cell));
    };
    if t.owner != me {
        return format!(
            "{} is a {} tile; pieces go on tiles of their own colour",
            name(cell),
            t.owner.name()
        );
    }
    if t.piece.is_some() {
        return format!("{} is not empty", name(cell));
    }
    let hand = g.reserve(me);
    match kind {
        Kind::Disc => format!("{} has no disc left in hand", me.name()),
        Kind::Ring if hand.ring == 0 => format!("{} has no ring left in hand", me.name()),
        Kind::Ring => format!(
            "placing a ring costs a captured {} disc, and {} holds none",
            me.other().name(),
            me.name()
        ),
    }
}

/// Resolve `path` (the written cells) to a disc or ring move of `legal`, or say why not.
fn resolve_piece_move(g: &HexaEquo, legal: &[Move], path: &[Hex]) -> Result<Move, String> {
    let me = g.to_move;
    let from = path[0];
    let to = path[path.len() - 1];
    let Some(t) = g.tile(from) else {
        return Err(format!("there is no tile on {}", name(from)));
    };
    let Some(piece) = t.piece else {
        return Err(format!("there is no piece on {}", name(from)));
    };
    if piece.owner != me {
        return Err(format!(
            "the {} on {} is {}'s",
            piece.kind.name(),
            name(from),
            piece.owner.name()
        ));
    }
    let from_here = |m: &&Move| m.from() == Some(from) && m.to() == Some(to);
    if piece.kind == Kind::Ring {
        if path.len() > 2 {
            return Err("a ring makes a single leap".into());
        }
        if let Some(m) = legal.iter().find(from_here) {
            return Ok(m.clone());
        }
        return Err(if from.distance(to) != 2 {
            format!(
                "a ring leaps to a tile exactly two cells away, and {} is not",
                name(to)
            )
        } else if g.tile(to).is_none() {
            format!("there is no tile on {}", name(to))
        } else if g
            .tile(to)
            .and_then(|t| t.piece)
            .is_some_and(|p| p.owner == me)
        {
            format!(
                "a ring may not land on its own side's piece on {}",
                name(to)
            )
        } else {
            format!(
                "a ring may not leap over a gap (house rule), and nothing between {} and {} is a tile",
                name(from),
                name(to)
            )
        });
    }
    if path.len() == 2 && from.distance(to) == 1 {
        let m = Move::Step { from, to };
        if legal.contains(&m) {
            return Ok(m);
        }
        return Err(if g.tile(to).is_none() {
            format!("there is no tile on {}", name(to))
        } else {
            format!("{} is not empty", name(to))
        });
    }
    let written = match follow_jumps(g, path) {
        Ok(captured) => captured,
        Err(why) if path.len() == 2 => {
            // Shorthand: start and end of a longer sequence.
            let chains: Vec<&Move> = legal
                .iter()
                .filter(from_here)
                .filter(|m| matches!(m, Move::Jump { .. }))
                .collect();
            return match chains.as_slice() {
                [] => Err(why),
                [one] => Ok((*one).clone()),
                [first, ..] => Err(format!(
                    "{} jump sequences of the disc on {} end on {}; write the whole path, e.g. {}",
                    chains.len(),
                    name(from),
                    name(to),
                    move_text(first)
                )),
            };
        }
        Err(why) => return Err(why),
    };
    legal
        .iter()
        .find(|m| match m {
            Move::Jump { path: p, captured } => {
                p.first() == Some(&from)
                    && p.last() == Some(&to)
                    && same_captures(g, captured, &written)
            }
            _ => false,
        })
        .cloned()
        .ok_or_else(|| "that jump sequence is not allowed here".to_string())
}

fn same_captures(g: &HexaEquo, a: &[Hex], b: &[Hex]) -> bool {
    match g.house.move_identity {
        MoveIdentity::CaptureOrder => a == b,
        MoveIdentity::CaptureSet => {
            let (mut a, mut b) = (a.to_vec(), b.to_vec());
            a.sort_unstable();
            b.sort_unstable();
            a == b
        }
    }
}

/// Follow a written jump sequence hop by hop under §4.3 and the house rules; the cells of the
/// pieces it captures, or why a hop is not allowed.
fn follow_jumps(g: &HexaEquo, path: &[Hex]) -> Result<Vec<Hex>, String> {
    let me = g.to_move;
    let start = path[0];
    let mut captured: Vec<Hex> = Vec::new();
    let mut jumped: Vec<Hex> = Vec::new();
    let mut window = 0;
    // What stands on `c` now: the disc has left its start; captured pieces are gone, or (taken
    // at the end of the move) still there as hurdles.
    let piece_on = |c: Hex, captured: &[Hex]| {
        if c == start
            || (captured.contains(&c) && g.house.capture_removal == CaptureRemoval::Immediate)
        {
            return None;
        }
        g.tile(c).and_then(|t| t.piece)
    };
    for i in 1..path.len() {
        let (a, b) = (path[i - 1], path[i]);
        let Some(over) = cells::between(a, b) else {
            return Err(format!(
                "{} to {} is not a jump: a disc jumps in a straight line to the second cell",
                name(a),
                name(b)
            ));
        };
        if g.tile(b).is_none() {
            return Err(format!("there is no tile on {} to land on", name(b)));
        }
        if piece_on(b, &captured).is_some() {
            return Err(format!("{} is not empty", name(b)));
        }
        let Some(piece) = piece_on(over, &captured) else {
            return Err(format!("there is no piece on {} to jump over", name(over)));
        };
        let takes = piece.owner != me && !captured.contains(&over);
        match g.house.anti_loop {
            AntiLoop::SinceLastCapture => {
                if path[window..i].contains(&b) {
                    return Err(format!(
                        "the disc has already stood on {} since its last capture (or the start)",
                        name(b)
                    ));
                }
            }
            AntiLoop::NoFriendTwice => {
                if !takes && jumped.contains(&over) {
                    return Err(format!(
                        "the piece on {} has already been jumped (house rule)",
                        name(over)
                    ));
                }
                if b == start && captured.is_empty() {
                    return Err("the disc may not return to its start without capturing".into());
                }
            }
        }
        jumped.push(over);
        if takes {
            captured.push(over);
            window = i;
        }
    }
    Ok(captured)
}
