//! Harmegedo move text (`docs/notation-harmegedo.md`): `0.e2-0.e4`, `0.e4x1.d5`, `0.e7-0.e8=Q`,
//! castling as the king's move `0.e1-0.c1`, the Bishop's Knight Manoeuvre as the bishop onto its
//! knight `0.c1-0.b1`, and `pass`.
//!
//! The shared `MoveText` reads cell tokens as letters then digits, but Harmegedo's names start with
//! the sector number (`0.e1`), so this file reads the few forms itself. Reading is in two steps as
//! everywhere: the text (a `SyntaxError` if it is not a move), then the position (an
//! `IllegalMove` saying why).

use super::{Dir, Harmegedo, KINGDOM_NAMES, Kind, Move};
use crate::games::PlayError;
use crate::hex::Cell;

/// The canonical text of a move of `g`'s side to move.
pub(super) fn move_text(g: &Harmegedo, m: &Move) -> String {
    let b = g.board;
    match *m {
        Move::Pass => "pass".into(),
        Move::Normal {
            from,
            to,
            promotion,
        } => {
            let sep = if g.squares[to.index()] != 0 { 'x' } else { '-' };
            let mut s = format!("{}{sep}{}", b.name(from), b.name(to));
            if let Some(k) = promotion {
                s.push('=');
                s.push(k.letter());
            }
            s
        }
        Move::EnPassant { from, to, .. } => format!("{}x{}", b.name(from), b.name(to)),
        Move::Castle {
            king_from, king_to, ..
        } => format!("{}-{}", b.name(king_from), b.name(king_to)),
        Move::Manoeuvre { bishop, knight } => format!("{}-{}", b.name(bishop), b.name(knight)),
    }
}

/// A move as written, its spaces looked up on the board but not yet in the position.
#[derive(Debug, PartialEq, Eq)]
enum Written {
    Pass,
    Step {
        from: Cell,
        capture: bool,
        to: Cell,
        promotion: Option<Kind>,
    },
}

/// `digits '.' letters digits`: one space name at the start of `s`, and the rest.
fn split_space(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    let mut i = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if i == 0 || b.get(i) != Some(&b'.') {
        return None;
    }
    i += 1;
    let letters = b[i..]
        .iter()
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    let digits = b[i + letters..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    (letters > 0 && digits > 0).then(|| s.split_at(i + letters + digits))
}

fn read(g: &Harmegedo, input: &str) -> Result<Written, PlayError> {
    let syntax = |reason: String| PlayError::syntax(input, reason);
    let text = input.trim();
    if text.is_empty() {
        return Err(syntax("the move is empty".into()));
    }
    if !text.is_ascii() || text.contains(char::is_whitespace) {
        return Err(syntax(
            "a move is written without spaces, like 0.e2-0.e4".into(),
        ));
    }
    if text.bytes().all(|c| c.is_ascii_alphabetic()) {
        return if text.eq_ignore_ascii_case("pass") {
            Ok(Written::Pass)
        } else {
            Err(syntax(format!(
                "unknown word {text:?}; the only move written as a word is pass"
            )))
        };
    }
    let (body, promotion) = match text.split_once('=') {
        None => (text, None),
        Some((body, name)) => match Kind::parse(name) {
            Some(k) if !name.is_empty() => (body, Some(k)),
            _ => {
                return Err(syntax(format!(
                    "unknown piece {name:?} after '='; write =Q, =R, =B or =N"
                )));
            }
        },
    };
    let space = |name: &str| {
        g.board.parse(name).ok_or_else(|| {
            syntax(format!(
                "there is no space {name} (spaces are named like 0.e1: sector, file a-k, rank 1-{})",
                g.board.shape().ranks
            ))
        })
    };
    let shape_hint = || syntax("a move is written like 0.e2-0.e4, 0.d4x1.c5 or pass".into());
    let (from, rest) = split_space(body).ok_or_else(shape_hint)?;
    let mut chars = rest.chars();
    let capture = match chars.next() {
        Some('-') => false,
        Some('x' | 'X' | ':') => true,
        _ => return Err(shape_hint()),
    };
    let rest = chars.as_str();
    let (to, tail) = split_space(rest).ok_or_else(shape_hint)?;
    if !tail.is_empty() {
        return Err(syntax(format!("unexpected {tail:?} after {to}")));
    }
    Ok(Written::Step {
        from: space(from)?,
        capture,
        to: space(to)?,
        promotion,
    })
}

/// Read move text and find the legal move it names, or say why there is none.
pub(super) fn parse_move(g: &Harmegedo, input: &str) -> Result<Move, PlayError> {
    let written = read(g, input)?;
    let illegal = |reason: String| PlayError::illegal(input.trim(), reason);
    if g.outcome.is_some() {
        return Err(illegal("the game is over".into()));
    }
    let legal = g.legal();
    let Written::Step {
        from,
        capture,
        to,
        promotion,
    } = written
    else {
        return if legal == [Move::Pass] {
            Ok(Move::Pass)
        } else {
            Err(illegal("you may pass only when you have no move".into()))
        };
    };
    let b = g.board;
    let mover = g.to_move;
    let Some(piece) = g.piece_at(from) else {
        return Err(illegal(format!("there is no piece on {}", b.name(from))));
    };
    if piece.kingdom != mover {
        let owner = KINGDOM_NAMES[piece.kingdom as usize];
        return Err(illegal(if g.is_eliminated(piece.kingdom) {
            format!(
                "the piece on {} belongs to {owner}, which is out of the game",
                b.name(from)
            )
        } else {
            format!(
                "the piece on {} belongs to {owner}, but {} is to move",
                b.name(from),
                KINGDOM_NAMES[mover as usize]
            )
        }));
    }
    let names = |m: &Move| match *m {
        // The manoeuvre may be written from either piece.
        Move::Manoeuvre { bishop, knight } => {
            (bishop, knight) == (from, to) || (knight, bishop) == (from, to)
        }
        _ => m.from() == Some(from) && m.to() == Some(to),
    };
    let promotion_of = |m: &Move| match *m {
        Move::Normal { promotion, .. } => promotion,
        _ => None,
    };
    let candidates: Vec<Move> = legal.iter().filter(|m| names(m)).copied().collect();
    if let Some(&m) = candidates.iter().find(|m| promotion_of(m) == promotion) {
        let takes = matches!(m, Move::EnPassant { .. })
            || (matches!(m, Move::Normal { .. }) && g.squares[to.index()] != 0);
        if capture && !takes {
            return Err(illegal(format!(
                "there is nothing to capture on {}",
                b.name(to)
            )));
        }
        return Ok(m);
    }
    let what = piece.kind.name();
    let last_rank = b.rank(to) == b.shape().ranks as usize;
    Err(illegal(match promotion {
        None if !candidates.is_empty() => "a pawn reaching the last rank must become a queen, \
             rook, bishop or knight: add =Q, =R, =B or =N"
            .into(),
        Some(Kind::King | Kind::Pawn) => {
            "a pawn may become a queen, rook, bishop or knight only".into()
        }
        Some(_) if !g.house.promotion && piece.kind == Kind::Pawn && last_rank => {
            "pawns are not promoted under this house rule (promotion is off)".into()
        }
        Some(_) if !candidates.is_empty() || piece.kind != Kind::Pawn || !last_rank => {
            "only a pawn reaching the last rank is promoted".into()
        }
        _ => why_not(g, from, to, what),
    }))
}

/// Why the piece on `from` cannot go to `to`, for a move that is not in the legal list.
fn why_not(g: &Harmegedo, from: Cell, to: Cell, what: &str) -> String {
    let b = g.board;
    let mover = g.to_move;
    if g.house.check_rules {
        let mut pseudo = Vec::new();
        g.pseudo_moves(mover, &mut pseudo);
        if pseudo
            .iter()
            .any(|m| m.from() == Some(from) && m.to() == Some(to))
        {
            return "it would leave your king attacked (house rule check_rules)".into();
        }
    }
    let piece = g.piece_at(from);
    let target = g.piece_at(to);
    let side_by_side = b.rank(from) == b.rank(to)
        && [Dir::Left, Dir::Right]
            .into_iter()
            .any(|d| b.step(from, d) == Some(to));
    let pair = |a: Kind, c: Kind| {
        piece.is_some_and(|p| p.kind == a)
            && target.is_some_and(|q| q.kind == c && q.kingdom == mover)
    };
    if side_by_side && (pair(Kind::Bishop, Kind::Knight) || pair(Kind::Knight, Kind::Bishop)) {
        return "the Bishop's Knight Manoeuvre needs both the bishop and the knight unmoved".into();
    }
    if let Some(q) = target {
        if q.kingdom == mover {
            return format!("your own piece stands on {}", b.name(to));
        }
        if g.is_eliminated(q.kingdom) && !g.neutral_capturable() {
            return format!(
                "the piece on {} is neutral and may not be captured (house rule neutral_pieces)",
                b.name(to)
            );
        }
        if !g.is_eliminated(q.kingdom) && !g.can_capture(mover, q.kingdom) {
            return format!("the piece on {} belongs to a team-mate", b.name(to));
        }
    }
    let two_along = [Dir::Left, Dir::Right]
        .into_iter()
        .any(|d| b.ray(from, d).get(1) == Some(&to));
    if what == "king" && two_along {
        return "castling needs an unmoved king and an unmoved rook at least three spaces along \
                the rank, with nothing between them"
            .into();
    }
    format!("the {what} on {} cannot go to {}", b.name(from), b.name(to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_tokens() {
        assert_eq!(split_space("0.e1-0.e2"), Some(("0.e1", "-0.e2")));
        assert_eq!(split_space("12.ab34x"), Some(("12.ab34", "x")));
        for s in ["e1", "0e1", "0.1", "0.e", ".e1", ""] {
            assert_eq!(split_space(s), None, "{s}");
        }
    }
}
