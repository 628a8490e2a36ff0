//! How the host's sentences name players. The host knows ids, not names: a sentence names a
//! player as [`player`] writes it, and a front end reads a sentence back as [`parts`] (words and
//! players) to name each player its own way: a mention in Discord, a name in local mode. Only
//! this file knows how a player is written into a sentence.

use super::event::PlayerId;

/// A piece of a host sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part<'a> {
    /// Words, as they are.
    Text(&'a str),
    /// A player, for the front end to name.
    Player(PlayerId),
}

/// How a host sentence names `player` (`player 123`, a bot `player -2`).
pub fn player(p: PlayerId) -> String {
    format!("player {p}")
}

/// A host sentence in its pieces, in order; words next to each other stay one piece.
pub fn parts(text: &str) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    let mut last = 0;
    let mut from = 0;
    while let Some(at) = text[from..].find("player ").map(|i| from + i) {
        let digits_at = at + "player ".len();
        let rest = &text[digits_at..];
        let sign = usize::from(rest.starts_with('-'));
        let len = sign + rest[sign..].bytes().take_while(u8::is_ascii_digit).count();
        let own_word = !text[..at]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric);
        match rest[..len].parse::<PlayerId>() {
            Ok(id) if len > sign && own_word => {
                if last < at {
                    out.push(Part::Text(&text[last..at]));
                }
                out.push(Part::Player(id));
                from = digits_at + len;
                last = from;
            }
            _ => from = digits_at,
        }
    }
    if last < text.len() {
        out.push(Part::Text(&text[last..]));
    }
    out
}

/// The players a host sentence names, in order.
pub fn players(text: &str) -> impl Iterator<Item = PlayerId> + '_ {
    parts(text).into_iter().filter_map(|p| match p {
        Part::Player(id) => Some(id),
        Part::Text(_) => None,
    })
}

#[cfg(test)]
mod tests {
    use super::{Part, parts, player, players};

    #[test]
    fn a_sentence_reads_back_as_words_and_the_players_written_into_it() {
        let text = format!(
            "motion #3: {} takes over yellow; {} too",
            player(1_200_000_000_000_000_007),
            player(-2)
        );
        assert_eq!(
            parts(&text),
            [
                Part::Text("motion #3: "),
                Part::Player(1_200_000_000_000_000_007),
                Part::Text(" takes over yellow; "),
                Part::Player(-2),
                Part::Text(" too"),
            ]
        );
        // Not a player: no digits, a word ending in "player", a lone minus sign.
        for text in [
            "the player to move",
            "multiplayer 12",
            "player - 3",
            "player",
        ] {
            assert_eq!(parts(text), [Part::Text(text)], "{text}");
        }
        assert_eq!(players("player 5, player 6").collect::<Vec<_>>(), [5, 6]);
        assert_eq!(parts(""), []);
        assert_eq!(parts(&player(7)), [Part::Player(7)]);
    }
}
