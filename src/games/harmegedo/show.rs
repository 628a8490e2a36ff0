//! The text picture of a Harmegedo position (`hexmeros rules show`): the ring cut open into its
//! six sectors, three side by side, inner rim at the top. A piece is its letter and its kingdom's
//! number (`Q3`); an eliminated kingdom's pieces are lower case (`q3`); `.` is an empty space and
//! a blank a void one.

use super::board::SECTORS;
use super::{Harmegedo, KINGDOM_NAMES, Rules};
use crate::games::Outcome;

pub(super) fn show(g: &Harmegedo) -> String {
    let b = g.board;
    let shape = b.shape();
    let sw = shape.sector_width();
    let mut out = String::new();
    let status = match g.outcome() {
        None => format!("{} to move", KINGDOM_NAMES[g.to_move as usize]),
        Some(Outcome::Win { winners, reason }) => {
            let names: Vec<&str> = winners.iter().map(|&s| g.seat_name(s)).collect();
            format!("{} won: {reason}", names.join(" and "))
        }
        Some(Outcome::Draw { reason, .. }) => format!("drawn: {reason}"),
    };
    let out_names: Vec<&str> = g
        .kingdoms()
        .iter()
        .filter(|&&k| g.is_eliminated(k))
        .map(|&k| KINGDOM_NAMES[k as usize])
        .collect();
    out.push_str(&format!("Harmegedo: {status}"));
    if !out_names.is_empty() {
        out.push_str(&format!("; out: {}", out_names.join(", ")));
    }
    out.push('\n');
    for row in [0..3, 3..SECTORS] {
        let mut lines = vec![String::new(); shape.ranks as usize + 2];
        for s in row {
            let title = if g.in_play & (1 << s) == 0 {
                format!("sector {s} (empty)")
            } else {
                format!("sector {s}: {}", KINGDOM_NAMES[s])
            };
            lines[0].push_str(&format!("   {title:<width$}   ", width = sw * 3));
            for (i, line) in lines.iter_mut().enumerate().skip(1) {
                if i > shape.ranks as usize {
                    line.push_str("   ");
                    for x in 0..sw {
                        line.push_str(&format!(" {} ", (b'a' + x as u8) as char));
                    }
                    line.push_str("   ");
                    continue;
                }
                let rank = shape.ranks as usize + 1 - i;
                line.push_str(&format!("{rank:>2} "));
                for x in 0..sw {
                    let cell = match b.cell_at(s, x, rank) {
                        None => "   ".to_string(),
                        Some(c) => match g.piece_at(c) {
                            None => " . ".to_string(),
                            Some(p) => {
                                let l = p.kind.letter();
                                let l = if g.is_eliminated(p.kingdom) {
                                    l.to_ascii_lowercase()
                                } else {
                                    l
                                };
                                format!("{l}{} ", p.kingdom)
                            }
                        },
                    };
                    line.push_str(&cell);
                }
                line.push_str("   ");
            }
        }
        for line in lines {
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}
