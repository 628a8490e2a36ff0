//! Errors with two faces. A refusal — something the player did wrong: a [`HostError`] that is
//! not internal, or a [`Refused`] sentence of this front end — is shown privately as its
//! sentence. Every other error (storage, a stored game that no longer replays, a failed Discord
//! call, a bug) is internal: the player reads a short apology with a reference id, and the error
//! is logged at error level with that id and its whole cause chain. No internal error's text
//! (a database message, say) ever reaches a player.
//!
//! Every reply fits Discord's limits ([`fit`]): text over 2,000 characters is cut at a line and
//! sent whole as an attached file; text a user typed is refused when longer than any option
//! this bot reads ([`overlong_option`]) and clipped where it is quoted ([`clip`]).

use std::hash::BuildHasher;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use poise::serenity_prelude as serenity;
use serenity::{CommandDataOption, CommandDataOptionValue, CreateAttachment};

use hexmeros::host::HostError;

/// The most characters of a message's text (Discord's limit).
pub const MAX_CONTENT: usize = 2000;

/// The longest text option any command reads (a move, a colour, a house rule's key or value).
pub const MAX_OPTION: usize = 200;

/// How much of a user's text a sentence quotes.
const QUOTED: usize = 100;

/// `text` fitted to one message: as it is when it fits; else its first lines (or characters)
/// with a note, and the whole text as a file to attach.
pub fn fit(text: String) -> (String, Option<CreateAttachment>) {
    if text.chars().count() <= MAX_CONTENT {
        return (text, None);
    }
    const NOTE: &str = "\n… (the whole text is attached)";
    let room = MAX_CONTENT - NOTE.chars().count();
    let mut head = String::new();
    let mut used = 0;
    for line in text.lines() {
        let n = line.chars().count() + 1;
        if used + n > room {
            break;
        }
        head.push_str(line);
        head.push('\n');
        used += n;
    }
    if head.is_empty() {
        head = text.chars().take(room).collect();
    }
    let head = format!("{}{NOTE}", head.trim_end());
    (
        head,
        Some(CreateAttachment::bytes(text.into_bytes(), "reply.txt")),
    )
}

/// A private reply of `text`, fitted to Discord's limits.
pub fn private(text: String) -> poise::CreateReply {
    fitted(text, true)
}

/// A reply of `text` (private or not), fitted to Discord's limits.
pub fn fitted(text: String, ephemeral: bool) -> poise::CreateReply {
    let (content, file) = fit(text);
    let r = poise::CreateReply::default()
        .content(content)
        .ephemeral(ephemeral);
    match file {
        Some(f) => r.attachment(f),
        None => r,
    }
}

/// A piece of a user's text short enough to quote: its first characters and "…" when longer.
pub fn clip(text: &str) -> String {
    if text.chars().count() <= QUOTED {
        return text.to_string();
    }
    let head: String = text.chars().take(QUOTED).collect();
    format!("{head}…")
}

/// The first text option (nested in subcommands too) longer than [`MAX_OPTION`]: its name and
/// length in characters.
pub fn overlong_option(options: &[CommandDataOption]) -> Option<(String, usize)> {
    options.iter().find_map(|o| match &o.value {
        CommandDataOptionValue::SubCommand(inner)
        | CommandDataOptionValue::SubCommandGroup(inner) => overlong_option(inner),
        CommandDataOptionValue::String(v)
        | CommandDataOptionValue::Autocomplete { value: v, .. } => {
            let n = v.chars().count();
            (n > MAX_OPTION).then(|| (o.name.clone(), n))
        }
        _ => None,
    })
}

/// A refusal by the Discord front end itself (a game it cannot tell, a seat name it does not
/// know): the sentence the player reads.
#[derive(Debug)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// An error that is shown to the player as `sentence`.
pub fn refused(sentence: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Refused(sentence.into()))
}

/// How an error is shown to the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Face {
    /// The player did something wrong: this sentence says what.
    Refused(String),
    /// Our failure: an apology, and a log line.
    Internal,
}

pub fn face(err: &anyhow::Error) -> Face {
    if let Some(r) = err.downcast_ref::<Refused>() {
        return Face::Refused(r.0.clone());
    }
    if let Some(r) = err.downcast_ref::<hexmeros::host::Refused>() {
        return Face::Refused(r.to_string());
    }
    match err.downcast_ref::<HostError>() {
        Some(h) if !h.is_internal() => Face::Refused(h.to_string()),
        _ => Face::Internal,
    }
}

/// A short reference for one internal error (six hex digits): what the player quotes, and what
/// the log line carries. Random per process, so references of two runs do not repeat.
pub fn new_ref() -> String {
    static KEYS: OnceLock<std::collections::hash_map::RandomState> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let h = KEYS.get_or_init(Default::default).hash_one(n);
    format!("{:06x}", h & 0xff_ffff)
}

/// What an internal error is shown as.
pub fn apology(reference: &str) -> String {
    format!("⚠️ Sorry, something went wrong on our side (ref {reference}). It has been logged.")
}

/// How an interaction ended. Ordered: the worst outcome noted while handling one wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    Ok,
    Refused,
    Error,
}

impl Outcome {
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Refused => "refused",
            Outcome::Error => "error",
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// The outcome of `err` and the text its player reads. An internal error is logged here (in
/// the caller's span, which names the game, user and action), with its reference.
pub fn report(err: &anyhow::Error) -> (Outcome, String) {
    match face(err) {
        Face::Refused(sentence) => (Outcome::Refused, format!("⚠️ {sentence}")),
        Face::Internal => {
            let reference = new_ref();
            tracing::error!(
                reference = %reference,
                error = %format_args!("{err:#}"),
                "internal error"
            );
            (Outcome::Error, apology(&reference))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexmeros::store::StoreError;

    #[test]
    fn an_internal_error_is_an_apology_with_a_reference_and_no_database_text() {
        let db = sqlx::Error::Protocol("no such table: games (SQLITE_ERROR)".into());
        for err in [
            anyhow::Error::from(HostError::Store(StoreError::Db(db))),
            anyhow::Error::from(HostError::Corrupt {
                game: 3,
                reason: "line 7: Q4-Q40 is illegal".into(),
            }),
            anyhow::anyhow!("HTTP 500 from discord.com").context("sending a message"),
        ] {
            assert_eq!(face(&err), Face::Internal, "{err:#}");
            let (outcome, text) = report(&err);
            assert_eq!(outcome, Outcome::Error);
            assert!(text.starts_with("⚠️ Sorry, something went wrong"), "{text}");
            for leak in ["table", "SQLITE", "Q4-Q40", "corrupt", "HTTP", "sending"] {
                assert!(!text.contains(leak), "{text} shows {leak}");
            }
            let reference = text
                .split("(ref ")
                .nth(1)
                .and_then(|r| r.split(')').next())
                .unwrap_or_default();
            assert_eq!(reference.len(), 6, "{text}");
            assert!(reference.chars().all(|c| c.is_ascii_hexdigit()), "{text}");
        }
    }

    #[test]
    fn a_refusal_shows_its_sentence() {
        let cases = [
            (
                anyhow::Error::from(HostError::from(hexmeros::host::Refused::NotSeated)),
                "⚠️ you are not playing in this game",
            ),
            (
                anyhow::Error::from(hexmeros::host::Refused::NotYourTurn {
                    holder: "Gold".into(),
                }),
                "⚠️ it is not your turn: Gold has the Token",
            ),
            (refused("which game?"), "⚠️ which game?"),
        ];
        for (err, shown) in cases {
            assert_eq!(report(&err), (Outcome::Refused, shown.to_string()));
        }
    }

    #[test]
    fn long_text_is_cut_at_a_line_and_attached_whole() {
        let short = "your turn in:\nHexDame #1".to_string();
        let (same, file) = fit(short.clone());
        assert!(same == short && file.is_none());
        let list: String = (1..=300)
            .map(|i| format!("HexDame #{i} — <#{i}>\n"))
            .collect();
        let (head, file) = fit(list.clone());
        assert!(head.chars().count() <= MAX_CONTENT, "{}", head.len());
        assert!(head.starts_with("HexDame #1 — <#1>\nHexDame #2"), "{head}");
        assert!(head.ends_with("(the whole text is attached)"), "{head}");
        assert!(file.is_some());
        // One long line: cut by characters (not bytes: no char is split).
        let (head, file) = fit("é".repeat(3000));
        assert!(head.chars().count() <= MAX_CONTENT && file.is_some());
    }

    #[test]
    fn quoted_text_is_clipped() {
        assert_eq!(clip("Q4-Q8"), "Q4-Q8");
        let long = "x".repeat(1500);
        assert_eq!(clip(&long).chars().count(), QUOTED + 1);
    }

    #[test]
    fn references_differ() {
        let refs: std::collections::BTreeSet<String> = (0..50).map(|_| new_ref()).collect();
        assert!(refs.len() > 45, "{refs:?}");
    }
}
