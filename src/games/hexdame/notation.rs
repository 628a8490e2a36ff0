//! HexDame move text (`docs/notation-hexdame.md`) and the board picture.
//!
//! A step or slide is `from-to` (`d4-e5`); a capture is its whole path, `from` then every landing
//! cell, joined by `x` (`d4xf6xh8`). Promotion is not written (it is never a choice), though
//! `=K` is accepted on a move that promotes. When several paths make the same move (§6-2), the
//! canonical text is the least path in name order, and any of the paths is read as that move;
//! `fromxto` alone is read when only one capture goes from `from` to `to`.

use super::board::{GEOMETRY, XY, bit, name};
use super::moves::{MAX_CAPTURES, Move, hop};
use super::{HexDame, Kind};
use crate::games::position::lookup;
use crate::games::{MoveText, Outcome, PlayError, Rules, Sep};

pub fn move_text(m: &Move) -> String {
    let mut s = String::from(name(m.from));
    if m.is_capture() {
        for &c in m.landings() {
            s.push('x');
            s.push_str(name(c));
        }
    } else {
        s.push('-');
        s.push_str(name(m.to));
    }
    s
}

const FORMS: &str = "a HexDame move is from-to (d4-e5) or a capture path (d4xf6xh8)";

pub fn parse_move(game: &HexDame, text: &str) -> Result<Move, PlayError> {
    let mt: MoveText = text.parse().map_err(PlayError::Syntax)?;
    let syntax = |why: &str| PlayError::syntax(text, why);
    let illegal = |why: String| PlayError::illegal(text, why);
    if let Some(word) = &mt.word {
        return Err(if word == "pass" {
            illegal("a player must move; there is no passing in HexDame".into())
        } else {
            syntax(FORMS)
        });
    }
    if mt.drop.is_some() || mt.seps.contains(&Sep::Shot) || !mt.checks.is_empty() {
        return Err(syntax(FORMS));
    }
    let wants_king = match &mt.promotion {
        None => false,
        Some(k) if lookup(&["k", "king"], k).is_some() => true,
        Some(_) => return Err(syntax("a man can only become a king (=K)")),
    };
    let capture = mt.seps.iter().all(|&s| s == Sep::Capture);
    if !capture && mt.seps != [Sep::Move] {
        return Err(syntax(
            "a step or slide names two cells (d4-e5); a capture puts x between all its cells \
             (d4xf6xh8)",
        ));
    }
    if mt.cells.len() > MAX_CAPTURES + 1 {
        return Err(syntax("a capture takes at most 16 pieces"));
    }
    let mut cells = Vec::with_capacity(mt.cells.len());
    for c in &mt.cells {
        let cell = GEOMETRY.parse(c).ok_or_else(|| {
            syntax(&format!(
                "there is no cell {c} on the HexDame board (a1 … i9)"
            ))
        })?;
        cells.push(cell.0 as u8);
    }

    if let Some(outcome) = game.outcome() {
        let why = match outcome {
            Outcome::Win { reason, .. } | Outcome::Draw { reason, .. } => reason,
        };
        return Err(illegal(format!("the game is over ({why})")));
    }
    let side = game.board.side;
    let from = cells[0];
    let piece = game
        .piece_at(crate::hex::Cell(u16::from(from)))
        .ok_or_else(|| illegal(format!("there is no piece on {}", name(from))))?;
    if piece.colour != side {
        return Err(illegal(format!(
            "the piece on {} is {}'s and {} is to move",
            name(from),
            piece.colour.name(),
            side.name()
        )));
    }
    let all = game.all_paths();
    let m = if capture {
        resolve_capture(game, &all, &cells, piece.kind == Kind::King)
    } else {
        resolve_quiet(game, &all, from, cells[1], piece.kind == Kind::King)
    }
    .map_err(illegal)?;
    if wants_king && !m.promotes {
        return Err(illegal("this move does not make a king".into()));
    }
    Ok(m)
}

/// The least text among captures, to show an example.
fn example(all: &[Move]) -> String {
    all.iter().map(move_text).min().unwrap_or_default()
}

fn resolve_quiet(
    game: &HexDame,
    all: &[Move],
    from: u8,
    to: u8,
    king: bool,
) -> Result<Move, String> {
    if all.iter().any(Move::is_capture) {
        return Err(format!(
            "capturing is compulsory (for example {})",
            example(all)
        ));
    }
    if let Some(m) = all.iter().find(|m| m.from == from && m.to == to) {
        return Ok(*m);
    }
    Err(if game.board.occupied() & bit(to) != 0 {
        format!("{} is not empty", name(to))
    } else if king {
        "a king slides along one of the six lines over empty cells".into()
    } else {
        "a man steps to an empty neighbouring cell straight or obliquely forward".into()
    })
}

/// The move a path stands for: itself, or under §6-2 the kept path of the same capture.
fn canonical(game: &HexDame, all: &[Move], m: &Move) -> Move {
    if game.house.distinct_capture_paths {
        return *m;
    }
    all.iter()
        .filter(|e| e.same_capture(m))
        .min_by_key(|e| e.landings())
        .copied()
        .unwrap_or(*m)
}

fn resolve_capture(game: &HexDame, all: &[Move], cells: &[u8], king: bool) -> Result<Move, String> {
    let from = cells[0];
    let best = all.first().map_or(0, Move::capture_count);
    if best == 0 {
        return Err("there is nothing to capture".into());
    }
    if let Some(m) = all
        .iter()
        .find(|m| m.from == from && m.landings() == &cells[1..])
    {
        return Ok(canonical(game, all, m));
    }
    if let [_, to] = cells {
        let mut found: Vec<Move> = Vec::new();
        for m in all.iter().filter(|m| m.from == from && m.to == *to) {
            let c = canonical(game, all, m);
            if !found.contains(&c) {
                found.push(c);
            }
        }
        match found.as_slice() {
            [one] => return Ok(*one),
            [] => {}
            many => {
                let mut texts: Vec<String> = many.iter().map(move_text).collect();
                texts.sort();
                return Err(format!(
                    "more than one capture goes from {} to {}; write the whole path: {}",
                    name(from),
                    name(*to),
                    texts.join(", ")
                ));
            }
        }
    }
    // Explain: replay the written path hop by hop.
    let b = &game.board;
    let enemy = b.own(b.side.opponent());
    let occupied = b.occupied() & !bit(from);
    let mut captured = 0;
    let mut at = from;
    for &land in &cells[1..] {
        match hop(king, at, land, enemy, occupied, captured) {
            Some(victim) => captured |= bit(victim),
            None => {
                return Err(format!(
                    "the {} on {} cannot capture from {} to {}",
                    if king { "king" } else { "man" },
                    name(from),
                    name(at),
                    name(land)
                ));
            }
        }
        at = land;
    }
    let can_go_on =
        (0..XY.len() as u8).any(|c| hop(king, at, c, enemy, occupied, captured).is_some());
    Err(if can_go_on {
        format!("the capture must go on from {}", name(at))
    } else {
        format!(
            "the majority rule requires capturing {best} pieces (for example {}); this takes {}",
            example(all),
            cells.len() - 1
        )
    })
}

/// The board as the spec draws it (§2.2): flat-topped cells, White's corner a1 at the bottom,
/// each cell as its name and `W`/`B` (man), `WK`/`BK` (king) or `.`; then whose turn it is.
pub fn show(game: &HexDame) -> String {
    let b = &game.board;
    let mut out = String::new();
    // Screen row x + y (top = 16), column x − y (left = −4), four characters per column.
    for row in (0..=16u8).rev() {
        let mut line = String::new();
        for (i, &(x, y)) in XY.iter().enumerate() {
            if x + y != row {
                continue;
            }
            let col = 4 * (i32::from(x) - i32::from(y) + 4) as usize;
            while line.len() < col {
                line.push(' ');
            }
            let c = i as u8;
            line.push_str(name(c));
            let code = match (b.white & bit(c) != 0, b.black & bit(c) != 0) {
                (true, _) => "W",
                (_, true) => "B",
                _ => ".",
            };
            line.push_str(code);
            if b.kings & bit(c) != 0 {
                line.push('K');
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    match game.outcome() {
        None => out.push_str(&format!("{} to move", b.side.name())),
        Some(Outcome::Win { winners, reason }) => {
            let winner = winners.first().map_or("nobody", |&s| game.seat_name(s));
            out.push_str(&format!("{winner} wins: {reason}"));
        }
        Some(Outcome::Draw { reason, .. }) => out.push_str(&format!("draw: {reason}")),
    }
    out
}
