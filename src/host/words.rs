//! How the host's sentences name players. The host knows ids, not names: a [`Sentence`] holds
//! words and players as typed pieces, and a front end reads it as [`Part`]s to name each player
//! its own way: a mention in Discord, a name in local mode. Stored (in the outbox) as a list of
//! pieces, a string for words and `{"player": id}` for a player; an entry stored before
//! sentences were typed holds a plain string, which names players as `player 123` and is read
//! back by [`parts`].

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::event::PlayerId;

/// A piece of a host sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part<'a> {
    /// Words, as they are.
    Text(&'a str),
    /// A player, for the front end to name.
    Player(PlayerId),
    /// Words a player wrote (an away reason): shown as written, never read as markup (a
    /// front end whose text has markup escapes it).
    Quoted(&'a str),
}

/// What the host says: words and players, in order. Built from words (`From<String>`, `From<&str>`)
/// and players ([`Sentence::player`]) joined with `+`; shown plainly (`Display`) with players
/// as `player 123`, as in logs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sentence(Vec<Piece>);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
enum Piece {
    Text(String),
    Player { player: PlayerId },
    Quoted { quoted: String },
}

impl Sentence {
    /// A sentence that is one player.
    pub fn player(p: PlayerId) -> Sentence {
        Sentence(vec![Piece::Player { player: p }])
    }

    /// Words a player wrote, shown as written ([`Part::Quoted`]).
    pub fn quoted(words: &str) -> Sentence {
        Sentence(vec![Piece::Quoted {
            quoted: words.to_owned(),
        }])
    }

    /// Its pieces in order; words next to each other are one piece.
    pub fn parts(&self) -> impl Iterator<Item = Part<'_>> {
        self.0.iter().map(|p| match p {
            Piece::Text(t) => Part::Text(t),
            Piece::Player { player } => Part::Player(*player),
            Piece::Quoted { quoted } => Part::Quoted(quoted),
        })
    }

    /// The players it names, in order.
    pub fn players(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.parts().filter_map(|p| match p {
            Part::Player(id) => Some(id),
            Part::Text(_) | Part::Quoted(_) => None,
        })
    }

    /// Whether it says nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Add words to its end.
    pub fn push_str(&mut self, words: &str) {
        if words.is_empty() {
            return;
        }
        match self.0.last_mut() {
            Some(Piece::Text(t)) => t.push_str(words),
            _ => self.0.push(Piece::Text(words.to_owned())),
        }
    }

    /// Add another sentence to its end.
    pub fn push(&mut self, other: Sentence) {
        for piece in other.0 {
            match piece {
                Piece::Text(t) => self.push_str(&t),
                p @ (Piece::Player { .. } | Piece::Quoted { .. }) => self.0.push(p),
            }
        }
    }

    /// The sentence and the others, with `between` between each two.
    pub fn join(all: impl IntoIterator<Item = Sentence>, between: &str) -> Sentence {
        let mut out = Sentence::default();
        for (i, s) in all.into_iter().enumerate() {
            if i > 0 {
                out.push_str(between);
            }
            out.push(s);
        }
        out
    }
}

impl From<&str> for Sentence {
    fn from(words: &str) -> Sentence {
        let mut s = Sentence::default();
        s.push_str(words);
        s
    }
}

impl From<String> for Sentence {
    fn from(words: String) -> Sentence {
        if words.is_empty() {
            Sentence::default()
        } else {
            Sentence(vec![Piece::Text(words)])
        }
    }
}

impl From<&String> for Sentence {
    fn from(words: &String) -> Sentence {
        Sentence::from(words.as_str())
    }
}

impl<T: Into<Sentence>> std::ops::Add<T> for Sentence {
    type Output = Sentence;
    fn add(mut self, rest: T) -> Sentence {
        self.push(rest.into());
        self
    }
}

impl<T: Into<Sentence>> std::ops::AddAssign<T> for Sentence {
    fn add_assign(&mut self, rest: T) {
        self.push(rest.into());
    }
}

impl fmt::Display for Sentence {
    /// Players as `player 123`: the plain form, for logs and tests.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for part in self.parts() {
            match part {
                Part::Text(t) | Part::Quoted(t) => f.write_str(t)?,
                Part::Player(p) => write!(f, "player {p}")?,
            }
        }
        Ok(())
    }
}

impl Serialize for Sentence {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Sentence {
    /// A list of pieces, or a plain string as stored before sentences were typed (players in it
    /// written `player 123`).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Sentence, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Stored {
            Pieces(Vec<Piece>),
            Plain(String),
        }
        Ok(match Stored::deserialize(d)? {
            Stored::Pieces(pieces) => {
                let mut s = Sentence::default();
                for p in pieces {
                    match p {
                        Piece::Text(t) => s.push_str(&t),
                        p @ (Piece::Player { .. } | Piece::Quoted { .. }) => s.0.push(p),
                    }
                }
                s
            }
            Stored::Plain(text) => {
                let mut s = Sentence::default();
                for part in parts(&text) {
                    match part {
                        Part::Text(t) | Part::Quoted(t) => s.push_str(t),
                        Part::Player(p) => s.0.push(Piece::Player { player: p }),
                    }
                }
                s
            }
        })
    }
}

/// A plain host sentence (one stored before sentences were typed) in its pieces, in order;
/// words next to each other stay one piece.
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

#[cfg(test)]
mod tests {
    use super::{Part, Sentence, parts};

    #[test]
    fn a_sentence_holds_words_and_players_as_pieces() {
        let s = Sentence::from("motion #3: ")
            + Sentence::player(1_200_000_000_000_000_007)
            + " takes over yellow; "
            + Sentence::player(-2)
            + String::from(" too");
        assert_eq!(
            s.parts().collect::<Vec<_>>(),
            [
                Part::Text("motion #3: "),
                Part::Player(1_200_000_000_000_000_007),
                Part::Text(" takes over yellow; "),
                Part::Player(-2),
                Part::Text(" too"),
            ]
        );
        assert_eq!(
            s.players().collect::<Vec<_>>(),
            [1_200_000_000_000_000_007, -2]
        );
        assert_eq!(
            s.to_string(),
            "motion #3: player 1200000000000000007 takes over yellow; player -2 too"
        );
        // Words a player typed are words, even when they look like the plain form of a player.
        let typed = Sentence::from("can't read player 5");
        assert_eq!(typed.players().count(), 0);
        let back: Sentence = serde_json::from_value(serde_json::to_value(&typed).unwrap()).unwrap();
        assert_eq!(back, typed);
        let joined = Sentence::join([Sentence::player(1), "x".into(), Sentence::player(2)], ", ");
        assert_eq!(joined.to_string(), "player 1, x, player 2");
        assert!(Sentence::from("").is_empty() && Sentence::from(String::new()).is_empty());
    }

    #[test]
    fn a_sentence_is_stored_as_pieces_and_read_back_from_a_plain_string_too() {
        let s = Sentence::player(7) + " takes over gold";
        let stored = serde_json::to_value(&s).unwrap();
        assert_eq!(
            stored,
            serde_json::json!([{"player": 7}, " takes over gold"])
        );
        assert_eq!(serde_json::from_value::<Sentence>(stored).unwrap(), s);
        // An outbox entry stored before sentences were typed.
        let old: Sentence = serde_json::from_str(r#""player 7 takes over gold""#).unwrap();
        assert_eq!(old, s);
        assert!(serde_json::from_str::<Sentence>("12").is_err());
        assert!(serde_json::from_str::<Sentence>(r#"[{"player": "x"}]"#).is_err());
    }

    #[test]
    fn words_a_player_wrote_stay_apart_from_the_hosts_and_are_stored_so() {
        let s = Sentence::from("Gold is away (") + Sentence::quoted("[x](https://e.example)") + ")";
        assert_eq!(
            s.parts().collect::<Vec<_>>(),
            [
                Part::Text("Gold is away ("),
                Part::Quoted("[x](https://e.example)"),
                Part::Text(")"),
            ]
        );
        assert_eq!(s.to_string(), "Gold is away ([x](https://e.example))");
        let stored = serde_json::to_value(&s).unwrap();
        assert_eq!(
            stored,
            serde_json::json!(["Gold is away (", {"quoted": "[x](https://e.example)"}, ")"])
        );
        assert_eq!(serde_json::from_value::<Sentence>(stored).unwrap(), s);
        assert_eq!(s.players().count(), 0);
    }

    #[test]
    fn a_plain_sentence_reads_back_as_words_and_the_players_written_into_it() {
        let text = "motion #3: player 1200000000000000007 takes over yellow; player -2 too";
        assert_eq!(
            parts(text),
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
        assert_eq!(parts(""), []);
        assert_eq!(parts("player 7"), [Part::Player(7)]);
    }
}
