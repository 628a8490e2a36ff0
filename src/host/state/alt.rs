//! A board picture in words, for a screen reader: Discord's attachment `description` (at most
//! [`ALT_MAX`] characters) and the web board's SVG title, made from the same projection the
//! front ends show (`seen`). Told in the third person, naming seats: a turn message is read by
//! every player of the thread, not only the one whose side it shows.

use super::GameState;
use super::seen::Forced;
use crate::games::Seat;
use crate::host::event::PlayerId;

/// Discord's limit on an attachment's description.
pub const ALT_MAX: usize = 1024;

impl GameState {
    /// The picture of the board from `viewer`'s side in words: the game and turn, whose turn it
    /// is and what the rules force on them, what the last round cost the viewer's seat (first),
    /// the round's moves, and the viewer's pieces that are attacked now. At most [`ALT_MAX`]
    /// characters.
    pub fn alt_text(&self, viewer: Option<PlayerId>) -> String {
        let seen = self.seen_by(viewer);
        let side = seen.seat.or(self.holder());
        let mut parts = vec![match &seen.you {
            Some(you) => format!(
                "{} board, turn {}, from {you}'s side.",
                self.kind().name(),
                self.turn_number()
            ),
            None => format!("{} board, turn {}.", self.kind().name(), self.turn_number()),
        }];
        match &seen.holder {
            Some(h) => parts.push(format!("{h} has the Token.")),
            None => parts.push("The game is over.".to_string()),
        }
        if let (Some(h), Some(f)) = (&seen.holder, self.forced()) {
            parts.push(match f {
                Forced::RelieveCheck { by } => format!(
                    "{h} is in Check by {} and must relieve it.",
                    by.join(" and ")
                ),
                Forced::Capture { most: 1 } => format!("{h} must capture."),
                Forced::Capture { most } => format!("{h} must capture, {most} pieces."),
            });
        }
        if let Some(you) = &seen.you
            && !seen.your_losses.is_empty()
        {
            parts.push(format!("Against {you}: {}.", seen.your_losses.join("; ")));
        }
        if !seen.round.is_empty() {
            parts.push(format!("Last round: {}.", seen.round.join("; ")));
        }
        if let Some(seat) = side {
            parts.extend(self.attacked_words(seat));
        }
        clip(parts.join(" "), ALT_MAX)
    }

    /// `Silver's pieces attacked: Archer on N35 by Blue; Sovereign on M30 by Blue and Red.`
    fn attacked_words(&self, seat: Seat) -> Option<String> {
        let game = self.position();
        let attacked = game.attacked_pieces(seat);
        if attacked.is_empty() {
            return None;
        }
        let pieces = game.piece_texts();
        let known = crate::games::help::pieces(game.kind());
        let words: Vec<String> = attacked
            .iter()
            .map(|(cell, by)| {
                let kind = pieces
                    .iter()
                    .find(|p| p.cell.eq_ignore_ascii_case(cell))
                    .map(|p| {
                        known
                            .iter()
                            .find(|k| k.key == p.kind && k.hatted == p.hatted)
                            .or_else(|| known.iter().find(|k| k.key == p.kind))
                            .map_or_else(|| p.kind.clone(), |k| k.name.to_string())
                    })
                    .unwrap_or_else(|| "piece".to_string());
                let by: Vec<String> = by.iter().map(|&s| self.seat_title(s)).collect();
                format!("{kind} on {cell} by {}", by.join(" and "))
            })
            .collect();
        Some(format!(
            "{}'s pieces attacked: {}.",
            self.seat_title(seat),
            words.join("; ")
        ))
    }
}

/// `text` cut to at most `max` characters (not bytes), ending in `…` when cut.
pub fn clip(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::clip;

    #[test]
    fn clipping_counts_characters_and_says_it_cut() {
        assert_eq!(clip("abc".into(), 3), "abc");
        assert_eq!(clip("abcd".into(), 3), "ab…");
        assert_eq!(clip("ééé€".into(), 3).chars().count(), 3);
    }
}
