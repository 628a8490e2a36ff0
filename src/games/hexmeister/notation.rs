//! Hexmeister move text and board picture (`docs/notation-hexmeister.md`).
//!
//! * drop: `S@g2` (the spec's own `*g2` is read too);
//! * move: `h3-f1` (captures happen by themselves and are not written);
//! * `pass`: decline a pending bonus action, or pass when nothing else is legal.
//!
//! A bonus action is written like any other action: it is simply the same side moving again.

use super::board::{
    BASE_CELLS, BASE_GATES, BASE_ROW, Bits, GATES, RINGS, bits, board, geometry, neighbours,
};
use super::moves::{effect, security};
use super::{Action, End, Hexmeister, seat_name};
use crate::games::{MoveText, PlayError, Rules, Sep};

pub(crate) fn action_text(a: &Action) -> String {
    let g = geometry();
    match a {
        Action::Drop(c) => format!("S@{}", g.name(*c)),
        Action::Move { from, to } => format!("{}-{}", g.name(*from), g.name(*to)),
        Action::Pass => "pass".to_string(),
    }
}

pub(crate) fn parse_action(game: &Hexmeister, text: &str) -> Result<Action, PlayError> {
    let action = read(text)?;
    if game.legal_moves().contains(&action) {
        Ok(action)
    } else {
        Err(PlayError::illegal(
            &action_text(&action),
            why_illegal(game, &action),
        ))
    }
}

/// Text to an action, without looking at the position.
fn read(text: &str) -> Result<Action, PlayError> {
    let b = board();
    let syntax = |why: &str| PlayError::syntax(text, why);
    let trimmed = text.trim();
    let parsed = match trimmed.strip_prefix('*') {
        Some(rest) => format!("S@{rest}").parse::<MoveText>(),
        None => trimmed.parse::<MoveText>(),
    };
    let mt = parsed.map_err(|e| syntax(&e.reason))?;
    if let Some(word) = &mt.word {
        return if word == "pass" {
            Ok(Action::Pass)
        } else {
            Err(syntax(&format!(
                "unknown word {word:?}: an action is a drop (S@g2), a move (h3-f1) or pass"
            )))
        };
    }
    if mt.promotion.is_some() || !mt.checks.is_empty() {
        return Err(syntax("hexmeister actions take no '=' or '+' suffix"));
    }
    let cell = |name: &str| {
        b.parse(name).map(|x| b.cell(x)).ok_or_else(|| {
            syntax(&format!(
                "there is no cell {name:?} on the hexmeister board (a1 to k11)"
            ))
        })
    };
    if let Some(kind) = &mt.drop {
        if !kind.eq_ignore_ascii_case("s") {
            return Err(syntax(&format!(
                "there is no piece {kind:?}: the only piece is the stone, dropped as S@g2"
            )));
        }
        return Ok(Action::Drop(cell(&mt.cells[0])?));
    }
    if mt.cells.len() != 2 {
        return Err(syntax("a move names two cells, like h3-f1"));
    }
    if mt.seps[0] != Sep::Move {
        return Err(syntax(
            "a move is written from-to, like h3-f1 (captures happen by themselves and are not \
             written)",
        ));
    }
    Ok(Action::Move {
        from: cell(&mt.cells[0])?,
        to: cell(&mt.cells[1])?,
    })
}

fn names(m: Bits) -> String {
    let b = board();
    bits(m).map(|x| b.name(x)).collect::<Vec<_>>().join(" ")
}

/// Why an action that parsed is not legal here, for the player.
fn why_illegal(g: &Hexmeister, a: &Action) -> String {
    if let Some(end) = &g.end {
        return match end {
            End::Win(s, r) => format!("the game is over: {} won by {r}", seat_name(*s)),
            End::Draw(r) => format!("the game is over: drawn ({r})"),
        };
    }
    let b = board();
    let p = g.to_move.index();
    let me = seat_name(g.to_move);
    let them = seat_name(super::other(g.to_move));
    let (own, opp) = (g.stones[p], g.stones[1 - p]);
    let barred = security(opp, own, &g.house);
    match *a {
        Action::Pass => {
            if g.bonus {
                "a bonus action must be taken while one is possible (mandatory_bonus)".into()
            } else {
                "a player may pass only when no drop or move is possible".into()
            }
        }
        Action::Drop(c) => {
            let x: Bits = 1 << b.bit(c);
            let cells = if g.house.drop_on_base_gates {
                BASE_ROW[p]
            } else {
                BASE_CELLS[p]
            };
            if g.reserves[p] == 0 {
                format!("{me} has no stones in reserve")
            } else if x & cells == 0 {
                format!("{me} drops only on {}", names(cells))
            } else if x & (own | opp) != 0 {
                format!("{} is occupied", b.name(b.bit(c)))
            } else if x & barred != 0 {
                format!("{} is secured by {them}", b.name(b.bit(c)))
            } else {
                "not a legal drop".into()
            }
        }
        Action::Move { from, to } => {
            let (f, t): (Bits, Bits) = (1 << b.bit(from), 1 << b.bit(to));
            let (fname, tname) = (b.name(b.bit(from)), b.name(b.bit(to)));
            let gate_ok = neighbours(f)
                | if f & BASE_CELLS[p] != 0 {
                    BASE_GATES[p]
                } else {
                    0
                };
            if f & opp != 0 {
                format!("the stone on {fname} is {them}'s")
            } else if f & own == 0 {
                format!("there is no stone on {fname}")
            } else if t & (own | opp) != 0 {
                format!("{tname} is occupied")
            } else if t & barred != 0 {
                format!("{tname} is secured by {them}")
            } else if t & GATES != 0 && t & gate_ok == 0 {
                format!(
                    "{tname} is a gate: a gate is entered only from a cell next to it (or from \
                     one's base onto one's base gates)"
                )
            } else if self_capture(g, a) {
                format!("it would leave {me}'s stone on f6 secured by {them} (self-capture)")
            } else if g.house.straight_moves {
                format!("{tname} is not reached from {fname} by a straight slide across open cells")
            } else {
                format!(
                    "no open route leads from {fname} to {tname} (ring cells and occupied cells \
                     other than one's own gates cannot be crossed)"
                )
            }
        }
    }
}

/// Whether the action leaves one of the mover's stones on a cell the opponent secures.
fn self_capture(g: &Hexmeister, a: &Action) -> bool {
    let p = g.to_move.index();
    let e = effect(g.stones, p, a, &g.house);
    e.stones[p] & security(e.stones[1 - p], e.stones[p], &g.house) != 0
}

/// The board as in `docs/rules/hexmeister.md` §2.2, one row per line from North's base row down to
/// South's: each cell is its name followed by `S` or `N` for a stone, else `G` (gate), `o` (ring)
/// or `.` (lane).
pub(crate) fn show(g: &Hexmeister) -> String {
    let b = board();
    let mut out = String::new();
    let status = match &g.end {
        Some(End::Win(s, r)) => format!("{} won by {r}", seat_name(*s)),
        Some(End::Draw(r)) => format!("drawn: {r}"),
        None => format!(
            "{} to {}",
            seat_name(g.to_move),
            if g.bonus {
                "take a bonus action (or pass)"
            } else {
                "move"
            }
        ),
    };
    out.push_str(&format!("Hexmeister: {status}\n"));
    out.push_str(&format!(
        "reserves: south {}, north {}\n",
        g.reserves[0], g.reserves[1]
    ));
    for d in (-5..=5).rev() {
        let first_l: i32 = if d >= 0 { 1 } else { 1 - d };
        let last_l: i32 = if d >= 0 { 11 - d } else { 11 };
        let mut line = " ".repeat(3 * d.unsigned_abs() as usize);
        for l in first_l..=last_l {
            let x = super::board::bit(l, l + d);
            let m: Bits = 1 << x;
            let mark = if g.stones[0] & m != 0 {
                'S'
            } else if g.stones[1] & m != 0 {
                'N'
            } else if GATES & m != 0 {
                'G'
            } else if RINGS & m != 0 {
                'o'
            } else {
                '.'
            };
            line.push_str(&format!("{:<6}", format!("{}{mark}", b.name(x))));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
