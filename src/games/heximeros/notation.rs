//! HexiMeros move text and the text picture of the board.
//!
//! Moves (ARCHITECTURE.md, `docs/notation.md`): `L1-L9` a move, `N1xN4` a capture (a Dreadnaught
//! ram that removes anything is written with `x`), `N1*N4` an Archer's shot, `N1-N3*N6` move then
//! shoot (house rule), `=Regent` a promotion (the plain move declines it: the Militant gets its
//! Hat when due), `+blue` a Check declared by the mover on Blue's Sovereign(s), `S@Q2` a
//! Resurrected Sovereign placed (house rule), `pass` when no piece can move.

use super::board::BOARD;
use super::{Action, COLOURS, HexiMeros, Kind, Move, seat_name};
use crate::games::notation::{MoveText, Sep};
use crate::games::{PlayError, Seat};
use crate::hex::{Cell, Direction};

fn name(c: Cell) -> &'static str {
    BOARD.geometry.name(c)
}

pub(super) fn move_text(g: &HexiMeros, m: &Move) -> String {
    let mut s = match m.action {
        Action::Pass => return "pass".to_string(),
        Action::Resurrect(_) => format!("S@{}", name(m.to)),
        Action::Shot => format!("{}*{}", name(m.from), name(m.to)),
        Action::MoveShot(t) => format!("{}-{}*{}", name(m.from), name(m.to), name(t)),
        Action::Move => {
            let sep = if g.removed_by(m).is_empty() { '-' } else { 'x' };
            format!("{}{sep}{}", name(m.from), name(m.to))
        }
    };
    if let Some(k) = m.promotion {
        s.push('=');
        s.push_str(k.name());
    }
    for seat in m.declared() {
        s.push('+');
        s.push_str(seat_name(seat));
    }
    s
}

fn cell(text: &str, name: &str) -> Result<Cell, PlayError> {
    BOARD.geometry.parse(name).ok_or_else(|| {
        let why = BOARD.geometry.why_not_a_cell(name).unwrap_or_default();
        PlayError::syntax(
            text,
            format!("{why} (the HexiMeros board has columns A-AG, rows 1-51)"),
        )
    })
}

fn owner_text(g: &HexiMeros, c: Cell) -> String {
    match g.piece(c) {
        Some(p) => format!("{}'s {}", COLOURS[p.colour as usize], p.kind.name()),
        None => "nothing".to_string(),
    }
}

pub(super) fn parse_move(g: &HexiMeros, text: &str) -> Result<Move, PlayError> {
    let mt: MoveText = text.parse()?;
    let promotion = promotion_of(text, &mt)?;
    let checks = checks_of(text, &mt)?;
    if g.result.is_some() {
        return Err(PlayError::illegal(text, "the game is over"));
    }
    let legal = g.legal();
    let mover = COLOURS[g.to_move as usize];
    let wanted: Move = if let Some(w) = &mt.word {
        if w != "pass" {
            return Err(PlayError::syntax(text, "the only word move is pass"));
        }
        Move::PASS
    } else if let Some(k) = &mt.drop {
        placement(g, text, &mt, k, &legal)?
    } else {
        let cells: Vec<Cell> = mt
            .cells
            .iter()
            .map(|n| cell(text, n))
            .collect::<Result<_, _>>()?;
        let action = match (mt.seps.as_slice(), cells.len()) {
            ([Sep::Shot], 2) => Action::Shot,
            ([Sep::Move | Sep::Capture], 2) => Action::Move,
            ([Sep::Move | Sep::Capture, Sep::Shot], 3) => Action::MoveShot(cells[2]),
            _ => {
                return Err(PlayError::syntax(
                    text,
                    "a HexiMeros move names two cells (Q4-Q6, N1xN4, N1*N4), or three for \
                     move-then-shoot (N1-N3*N6)",
                ));
            }
        };
        let (from, to) = match action {
            Action::Shot => (cells[0], cells[1]),
            _ => (cells[0], cells[1]),
        };
        Move {
            from,
            to,
            action,
            promotion,
            checks: 0,
        }
    };
    let base = Move {
        promotion: if matches!(wanted.action, Action::Move | Action::MoveShot(_)) {
            promotion
        } else {
            None
        },
        ..wanted
    };
    if !legal.contains(&base) {
        return Err(PlayError::illegal(text, why_not(g, &base, &legal)));
    }
    if checks != 0 {
        let targets = g.check_targets(&base);
        for s in 0..6u8 {
            if checks & (1 << s) != 0 && !targets.contains(&Seat(s)) {
                let why = match g.house.check_eligibility {
                    super::CheckEligibility::NewAttack => "newly attacked",
                    super::CheckEligibility::AnyAttack => "attacked",
                };
                return Err(PlayError::illegal(
                    text,
                    format!(
                        "{} has no Sovereign {why} by {mover}'s pieces after this move",
                        COLOURS[s as usize]
                    ),
                ));
            }
        }
    }
    Ok(Move { checks, ..base })
}

/// The piece a move's `=Kind` promotes to, if it names one.
fn promotion_of(text: &str, mt: &MoveText) -> Result<Option<Kind>, PlayError> {
    Ok(match &mt.promotion {
        None => None,
        Some(p) => Some(
            Kind::parse(p)
                .filter(|k| Kind::PROMOTIONS.contains(k))
                .ok_or_else(|| {
                    PlayError::syntax(
                        text,
                        format!(
                            "{p} is not a promotion (Regent, Assassin, Archer, Prelate, \
                         Alcazar, Cavalier or Dreadnaught)"
                        ),
                    )
                })?,
        ),
    })
}

/// The seats a move's `+colour` declarations name, as a bit set.
fn checks_of(text: &str, mt: &MoveText) -> Result<u8, PlayError> {
    let mut checks = 0u8;
    for c in &mt.checks {
        let s = crate::games::position::lookup(&COLOURS, c).ok_or_else(|| {
            PlayError::syntax(
                text,
                format!("+{c}: Check is declared on a colour, like +blue"),
            )
        })?;
        checks |= 1 << s;
    }
    Ok(checks)
}

/// A placement `S@cell` (a Resurrected Sovereign): the legal one it names, or why it is not.
fn placement(
    g: &HexiMeros,
    text: &str,
    mt: &MoveText,
    k: &str,
    legal: &[Move],
) -> Result<Move, PlayError> {
    let mover = COLOURS[g.to_move as usize];
    if Kind::parse(k) != Some(Kind::Sovereign) {
        return Err(PlayError::syntax(
            text,
            "only a Sovereign is placed (S@cell, the Resurrected Sovereign house rule)",
        ));
    }
    let to = cell(text, &mt.cells[0])?;
    let found = legal
        .iter()
        .find(|m| matches!(m.action, Action::Resurrect(_)) && m.to == to);
    match found {
        Some(m) => Ok(*m),
        None if !g.house.resurrection => Err(PlayError::illegal(
            text,
            "Sovereigns are placed only under the Resurrected Sovereign house rule",
        )),
        None => Err(PlayError::illegal(
            text,
            format!(
                "{mover} holds no captured Sovereign whose Base Line has an empty {}",
                name(to)
            ),
        )),
    }
}

/// Why `m` is not among the legal moves, in words a player understands.
fn why_not(g: &HexiMeros, m: &Move, legal: &[Move]) -> String {
    let mover = COLOURS[g.to_move as usize];
    if m.action == Action::Pass {
        return format!("{mover} has a piece that can move; pass only when none can");
    }
    let Some(p) = g.piece(m.from) else {
        return format!("there is no piece on {}", name(m.from));
    };
    let desc = format!("the {} on {}", p.kind.name(), name(m.from));
    if g.controller(p.colour).0 != g.to_move {
        return format!(
            "{desc} belongs to {}, and {mover} is to move",
            COLOURS[p.colour as usize]
        );
    }
    if g.is_frozen(p) {
        return format!("{desc} is frozen");
    }
    if m.action == Action::Shot && p.kind != Kind::Archer {
        return format!("only an Archer shoots; {desc} is not one");
    }
    let mut pseudo = Vec::new();
    g.piece_moves(m.from, &mut pseudo);
    let same_cells = |x: &Move| x.from == m.from && x.to == m.to && x.action == m.action;
    if legal.iter().any(same_cells) {
        return match m.promotion {
            Some(k) => format!(
                "{desc} cannot be promoted to {} on {}: promotion comes on reaching its own \
                 Center Line or another colour's Base Line",
                k.name(),
                name(m.to)
            ),
            None => format!("{desc} must choose: add =Regent (or another piece) to promote"),
        };
    }
    if pseudo.iter().any(same_cells) {
        if !g.live_checks().is_empty() {
            return format!(
                "{mover} must relieve the Check declared on their Sovereign, and this move does \
                 not"
            );
        }
        return "it would leave your Sovereign under attack (auto_declare house rule)".to_string();
    }
    if m.action == Action::Shot {
        return match g.piece(m.to) {
            None => format!("there is nothing to shoot on {}", name(m.to)),
            Some(_) => format!(
                "{desc} cannot shoot {} on {}: not in range on a clear axis",
                owner_text(g, m.to),
                name(m.to)
            ),
        };
    }
    if let Some(t) = g.piece(m.to)
        && g.controller(t.colour) == g.controller(p.colour)
        && p.kind != Kind::Dreadnaught
    {
        return format!("{} is occupied by your own {}", name(m.to), t.kind.name());
    }
    if let Some(b) = blocker(g, m.from, m.to) {
        return format!("{desc} is blocked by {} on {}", owner_text(g, b), name(b));
    }
    format!("{desc} cannot move to {}", name(m.to))
}

/// The first piece between `from` and `to` when they lie on one ray.
fn blocker(g: &HexiMeros, from: Cell, to: Cell) -> Option<Cell> {
    for d in Direction::ALL {
        let ray = BOARD.geometry.ray(from, d);
        if let Some(i) = ray.iter().position(|&c| c == to) {
            return ray[..i].iter().copied().find(|&c| g.piece(c).is_some());
        }
    }
    None
}

/// A text picture: north (Orange) at the top, one row per half-row, three characters per
/// column. A piece is its colour's letter (s b y o g r) and its kind letter (S R A B P Z C D M
/// H); `*` after it marks a pending Ground Zero bonus, `~` a frozen piece. `@` is an empty Ground
/// Zero, `.` an empty cell.
pub(super) fn show(g: &HexiMeros) -> String {
    let geo = &BOARD.geometry;
    let mut out = String::new();
    let header: String = (-16..=16)
        .map(|x| {
            let n = super::board::hex_name(crate::hex::Hex::new(x, 0));
            let letters: String = n.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
            format!("{letters:<3}")
        })
        .collect();
    out.push_str(&format!("    {}\n", header.trim_end()));
    for y in (-25..=25).rev() {
        let mut line = format!("{:>3} ", y + 26);
        for x in -16..=16 {
            let c = crate::hex::Hex::from_doubled(x, y).and_then(|h| geo.cell(h));
            let s = match c {
                None => "   ".to_string(),
                Some(c) => match g.piece(c) {
                    None if c == BOARD.gz => "@  ".to_string(),
                    None => ".  ".to_string(),
                    Some(p) => {
                        let mark = if p.bonus {
                            '*'
                        } else if g.is_frozen(p) {
                            '~'
                        } else {
                            ' '
                        };
                        format!(
                            "{}{}{mark}",
                            COLOURS[p.colour as usize].chars().next().unwrap_or('?'),
                            p.kind.letter()
                        )
                    }
                },
            };
            line.push_str(&s);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    match &g.result {
        Some(r) => out.push_str(&format!("game over: {r:?}\n")),
        None => out.push_str(&format!("{} to move\n", COLOURS[g.to_move as usize])),
    }
    if !g.out_order.is_empty() {
        let names: Vec<&str> = g.out_order.iter().map(|&s| COLOURS[s as usize]).collect();
        out.push_str(&format!("out: {}\n", names.join(", ")));
    }
    for r in &g.checks {
        out.push_str(&format!(
            "check: {} on the Sovereign on {}\n",
            seat_name(r.declarer),
            name(r.target)
        ));
    }
    out
}
