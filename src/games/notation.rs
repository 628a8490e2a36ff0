//! Move text shared by all games (ARCHITECTURE.md "Text formats"), parsed without a position:
//!
//! * `from-to`, `fromxto` (capture; a chain `d4xf6xh8`), `from*target` (an Archer's shot);
//! * `=Kind` promotion suffix (`=Regent`), `K@cell` drop or placement (kind letters first);
//! * `+colour` suffixes: Check declared by the mover on that colour (HexiMeros);
//! * a bare word (`pass`, or a game's own special such as castling) is kept as `word`.
//!
//! A cell token is letters followed by digits (`Q26`, `AD13`, `d4`), so the `x` of a capture is
//! never mistaken for a column: it always follows a digit.

use super::error::SyntaxError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sep {
    /// `-`: a plain move.
    Move,
    /// `x`: a capture.
    Capture,
    /// `*`: a shot (the piece stays).
    Shot,
}

impl Sep {
    pub fn as_char(self) -> char {
        match self {
            Sep::Move => '-',
            Sep::Capture => 'x',
            Sep::Shot => '*',
        }
    }
}

/// A move as written, before it is resolved against a position.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MoveText {
    /// `K@cell`: the kind letters of a drop.
    pub drop: Option<String>,
    /// The cell names in order (one for a drop).
    pub cells: Vec<String>,
    /// The separators between consecutive cells (`cells.len() - 1` of them).
    pub seps: Vec<Sep>,
    /// The kind named after `=`.
    pub promotion: Option<String>,
    /// The names after each `+`.
    pub checks: Vec<String>,
    /// A bare word such as `pass`.
    pub word: Option<String>,
}

fn split_cell(s: &str) -> Option<(&str, &str)> {
    let letters = s.bytes().take_while(u8::is_ascii_alphabetic).count();
    let digits = s[letters..].bytes().take_while(u8::is_ascii_digit).count();
    (letters > 0 && digits > 0).then(|| s.split_at(letters + digits))
}

impl std::str::FromStr for MoveText {
    type Err = SyntaxError;

    fn from_str(input: &str) -> Result<MoveText, SyntaxError> {
        let err = |reason: &str| SyntaxError {
            text: input.to_string(),
            reason: reason.to_string(),
        };
        let text = input.trim();
        if text.is_empty() {
            return Err(err("the move is empty"));
        }
        if !text.is_ascii() || text.contains(char::is_whitespace) {
            return Err(err("a move is written without spaces, like Q4-Q6 or N1xN4"));
        }
        let mut out = MoveText::default();
        // Suffixes: everything from the first '=' or '+'.
        let body_end = text.find(['=', '+']).unwrap_or(text.len());
        let (body, mut suffix) = text.split_at(body_end);
        while !suffix.is_empty() {
            let (tag, rest) = suffix.split_at(1);
            let end = rest.find(['=', '+']).unwrap_or(rest.len());
            let (name, next) = rest.split_at(end);
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphabetic()) {
                return Err(err(&format!("expected a name after {tag:?}")));
            }
            if tag == "=" {
                if out.promotion.is_some() {
                    return Err(err("more than one promotion"));
                }
                out.promotion = Some(name.to_string());
            } else {
                out.checks.push(name.to_string());
            }
            suffix = next;
        }
        if body.bytes().all(|b| b.is_ascii_alphabetic()) {
            if !out.checks.is_empty() || out.promotion.is_some() {
                return Err(err("a word move takes no suffix"));
            }
            out.word = Some(body.to_ascii_lowercase());
            return Ok(out);
        }
        let mut rest = body;
        if let Some(at) = body.find('@') {
            let kind = &body[..at];
            if kind.is_empty() || !kind.bytes().all(|b| b.is_ascii_alphabetic()) {
                return Err(err(
                    "a drop is written as kind letter, '@', cell, like S@b3",
                ));
            }
            out.drop = Some(kind.to_string());
            rest = &body[at + 1..];
        }
        loop {
            let Some((cell, tail)) = split_cell(rest) else {
                return Err(err(&format!(
                    "expected a cell name (letters then digits) at {:?}",
                    if rest.is_empty() { "the end" } else { rest }
                )));
            };
            out.cells.push(cell.to_string());
            let mut chars = tail.chars();
            match chars.next() {
                None => break,
                Some(c) => {
                    let sep = match c {
                        '-' => Sep::Move,
                        'x' | 'X' | ':' => Sep::Capture,
                        '*' => Sep::Shot,
                        _ => return Err(err(&format!("unexpected {c:?} after {cell}"))),
                    };
                    if out.drop.is_some() {
                        return Err(err("a drop names one cell"));
                    }
                    out.seps.push(sep);
                    rest = chars.as_str();
                }
            }
        }
        if out.drop.is_none() && out.cells.len() < 2 {
            return Err(err(
                "a move names a start and a destination cell, like Q4-Q6",
            ));
        }
        Ok(out)
    }
}

impl std::fmt::Display for MoveText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(w) = &self.word {
            return f.write_str(w);
        }
        if let Some(k) = &self.drop {
            write!(f, "{k}@")?;
        }
        for (i, c) in self.cells.iter().enumerate() {
            if i > 0 {
                write!(f, "{}", self.seps[i - 1].as_char())?;
            }
            f.write_str(c)?;
        }
        if let Some(p) = &self.promotion {
            write!(f, "={p}")?;
        }
        for c in &self.checks {
            write!(f, "+{c}")?;
        }
        Ok(())
    }
}

/// The piece (or reserve) a move text starts from: `Q4` of `Q4xQ8=Regent`, `S@` of `S@g2`,
/// `0.a2` of `0.a2-0.a3`. Pickers group a game's legal moves by it.
pub fn origin(mv: &str) -> &str {
    if let Some(i) = mv.find('@') {
        return &mv[..=i];
    }
    let end = mv.find(['-', 'x', '*']).unwrap_or(mv.len());
    &mv[..end]
}

/// The move text a picker's or a slash command's parts spell, as the player gave them: `from` alone
/// (a whole move), `from-to`, or `to` when it is a whole move of that piece (as autocomplete
/// lists them); a Check option is added as `+colour`.
pub fn compose(from: &str, to: Option<&str>, check: Option<&str>) -> String {
    let from = from.trim();
    let mut text = match to.map(str::trim) {
        Some(to) if origin(to).eq_ignore_ascii_case(from) && to.len() > from.len() => {
            to.to_string()
        }
        Some(to) => format!("{from}-{to}"),
        None => from.to_string(),
    };
    if let Some(c) = check {
        text.push('+');
        text.push_str(c.trim());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> MoveText {
        s.parse().unwrap()
    }

    #[test]
    fn parses_every_form() {
        let m = p("L1-L9");
        assert_eq!(m.cells, ["L1", "L9"]);
        assert_eq!(m.seps, [Sep::Move]);
        let m = p("N1xX1=Regent+blue+red");
        assert_eq!(m.cells, ["N1", "X1"]);
        assert_eq!(m.seps, [Sep::Capture]);
        assert_eq!(m.promotion.as_deref(), Some("Regent"));
        assert_eq!(m.checks, ["blue", "red"]);
        assert_eq!(p("d4xf6xh8").cells.len(), 3);
        assert_eq!(p("N1*N4").seps, [Sep::Shot]);
        let m = p("S@b3");
        assert_eq!((m.drop.as_deref(), m.cells.len()), (Some("S"), 1));
        assert_eq!(p("pass").word.as_deref(), Some("pass"));
        for s in [
            "L1-L9",
            "N1xX1=Regent+blue",
            "d4xf6xh8",
            "S@b3",
            "N1*N4",
            "pass",
        ] {
            assert_eq!(p(s).to_string(), s);
        }
    }

    #[test]
    fn rejects_malformed_text_with_a_reason() {
        for s in [
            "", "L1", "L1-", "L1-9", "1-L9", "L1 L9", "L1?L9", "L1-L9=", "S@", "S@b3-b4", "é",
        ] {
            let e = s.parse::<MoveText>().unwrap_err();
            assert!(!e.reason.is_empty(), "{s}");
        }
    }

    #[test]
    fn composed_moves_of_every_notation() {
        assert_eq!(compose("Q4-Q8", None, None), "Q4-Q8");
        assert_eq!(compose(" Q4 ", Some(" Q8 "), None), "Q4-Q8");
        assert_eq!(compose("q4", Some("Q4-Q8"), None), "Q4-Q8");
        assert_eq!(compose("K2", Some("K2xH3=Regent"), None), "K2xH3=Regent");
        assert_eq!(compose("S@", Some("S@g2"), None), "S@g2");
        assert_eq!(compose("0.a2", Some("0.a2-0.a3"), None), "0.a2-0.a3");
        assert_eq!(compose("d4", Some("d4xf6xh8"), None), "d4xf6xh8");
        assert_eq!(compose("J8", Some("J8*J12"), None), "J8*J12");
        // A cell that begins like the piece's is a destination, not a whole move.
        assert_eq!(compose("K1", Some("K12"), None), "K1-K12");
        assert_eq!(compose("K2", Some("H3"), Some(" red ")), "K2-H3+red");
    }

    #[test]
    fn the_origin_of_every_notation() {
        assert_eq!(origin("Q4xQ8=Regent"), "Q4");
        assert_eq!(origin("S@g2"), "S@");
        assert_eq!(origin("0.a2-0.a3"), "0.a2");
        assert_eq!(origin("J8*J12"), "J8");
        assert_eq!(origin("pass"), "pass");
    }
}
