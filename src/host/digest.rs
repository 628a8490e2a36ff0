//! The daily digest (issue 49, `/hexmeros notify digest`): once a day, at a local time of day the
//! player chose, one direct message with what waits on them (their turns with the time left,
//! their votes and answers), the games that finished since the last digest (their place, points
//! and rating change) and the lobbies waiting for their Join. Nothing is sent when there is
//! nothing to say, nor in their quiet hours (it waits for their end).
//!
//! When a digest is next due is stored with the person's settings (`digest_next_at`, indexed):
//! the timer reads only the digests due. Each is claimed with a conditional update in the
//! transaction that puts it in the outbox, so two processes that built the same digest send it
//! once. It goes at the reminders' priority, after everything a game is waiting for.

use serde::{Deserialize, Serialize};

use super::event::{GameId, Millis, PlayerId};
use super::lobby::{Lobby, LobbyId};
use super::outbox::REMINDER;
use super::settings::{PlayerSettings, read_row};
use super::state::{Awaited, Status};
use super::words::Sentence;
use super::{Effect, GameHost, HostError, quiet, to_json};
use crate::games::GameKind;
use crate::store::{DigestDue, NewEntry};

/// How many due digests one tick builds at most (the rest wait for the next tick).
const PER_TICK: i64 = 200;

/// How long a digest that could not be built waits before it is tried again.
const RETRY_MS: Millis = 60_000;

/// A day, in milliseconds.
const DAY: Millis = 24 * 3_600_000;

/// One player's digest.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Digest {
    /// What waits on them, their turns first (least time left first).
    pub awaiting: Vec<Awaiting>,
    /// Games finished since the last digest.
    pub ended: Vec<Ended>,
    /// Lobbies waiting for their Join.
    pub invitations: Vec<Invitation>,
}

/// A game waiting on the player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Awaiting {
    pub game: GameId,
    pub kind: GameKind,
    pub what: Waiting,
}

/// What a game waits on the player for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Waiting {
    /// Their turn; when their time runs out (none: no clock).
    Turn { due: Option<Millis> },
    /// Their vote on a motion (its number).
    Vote { motion: u64 },
    /// Their answer in a challenge window.
    Answer,
}

/// A game finished since the last digest, and how the player did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ended {
    pub game: GameId,
    pub kind: GameKind,
    /// 1 = best.
    pub place: usize,
    /// Of how many seats.
    pub of: usize,
    /// Points and rating change, in the results' words.
    pub summary: String,
}

/// A lobby waiting for the player's Join.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invitation {
    pub lobby: LobbyId,
    pub kind: GameKind,
    pub starter: PlayerId,
    /// When the lobby gives up waiting.
    pub expires: Millis,
}

/// What a digest's line links to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    Game(GameId),
    Lobby(LobbyId),
}

impl Digest {
    /// Nothing to say: no digest is sent.
    pub fn is_empty(&self) -> bool {
        self.awaiting.is_empty() && self.ended.is_empty() && self.invitations.is_empty()
    }

    /// The digest in words: each section's heading and lines. `when` words an instant (a
    /// Discord timestamp, a clock), `link` what follows the line of a game or a lobby (a jump
    /// link, or nothing).
    pub fn sections(
        &self,
        when: &dyn Fn(Millis) -> String,
        link: &dyn Fn(Link) -> String,
    ) -> Vec<(String, Vec<Sentence>)> {
        let game = |kind: GameKind, id: GameId| format!("{} #{id}", kind.name());
        let awaiting = self.awaiting.iter().map(|a| {
            let what = match a.what {
                Waiting::Turn { due: Some(t) } => {
                    format!("your turn, your time runs out {}", when(t))
                }
                Waiting::Turn { due: None } => "your turn (no clock)".to_string(),
                Waiting::Vote { motion } => format!("your vote on motion #{motion}"),
                Waiting::Answer => "your answer in a challenge window".to_string(),
            };
            let line = format!(
                "{}: {what}{}",
                game(a.kind, a.game),
                link(Link::Game(a.game))
            );
            Sentence::from(line.as_str())
        });
        let ended = self.ended.iter().map(|e| {
            let line = format!(
                "{}: {} of {} · {}{}",
                game(e.kind, e.game),
                ordinal(e.place),
                e.of,
                e.summary,
                link(Link::Game(e.game))
            );
            Sentence::from(line.as_str())
        });
        let invitations = self.invitations.iter().map(|i| {
            Sentence::from(format!("{} lobby #{} by ", i.kind.name(), i.lobby).as_str())
                + Sentence::player(i.starter)
                + format!(", closes {}{}", when(i.expires), link(Link::Lobby(i.lobby))).as_str()
        });
        [
            ("⏳ waiting on you", awaiting.collect::<Vec<_>>()),
            ("🏁 finished since your last digest", ended.collect()),
            ("✉️ lobbies waiting for your Join", invitations.collect()),
        ]
        .into_iter()
        .filter(|(_, lines)| !lines.is_empty())
        .map(|(head, lines)| (head.to_string(), lines))
        .collect()
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, …
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The digest's words as one message of at most `limit` characters: its title, then each
/// section's heading and lines. When they do not fit, the longest section shows fewer lines
/// and says how many more there are (`more`: where to see them all).
pub fn fit(title: &str, sections: &[(String, Vec<String>)], limit: usize, more: &str) -> String {
    let mut shown: Vec<usize> = sections.iter().map(|(_, l)| l.len()).collect();
    loop {
        let text = render(title, sections, &shown, more);
        if text.chars().count() <= limit {
            return text;
        }
        // The section showing the most lines gives one up; with none left, the text is cut.
        let Some((i, _)) = shown
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .max_by_key(|(i, n)| (**n, usize::MAX - i))
        else {
            return text.chars().take(limit).collect();
        };
        shown[i] -= 1;
    }
}

fn render(title: &str, sections: &[(String, Vec<String>)], shown: &[usize], more: &str) -> String {
    let mut out = vec![title.to_string()];
    for ((head, lines), &n) in sections.iter().zip(shown) {
        out.push(String::new());
        out.push(head.clone());
        out.extend(lines.iter().take(n).map(|l| format!("• {l}")));
        if n < lines.len() {
            out.push(format!("• …and {} more ({more})", lines.len() - n));
        }
    }
    out.join("\n")
}

/// When `settings`' digest is next due after `now`: the first time their wall clock shows the
/// digest's time, or the end of their quiet hours when that falls in them. None without a
/// digest or a time zone.
pub(super) fn next_due(settings: &PlayerSettings, now: Millis) -> Option<Millis> {
    let at = quiet::next_local(settings.zone?, settings.digest?, now)?;
    Some(settings.quiet().map_or(at, |q| q.defer(at)))
}

impl GameHost {
    /// `player`'s digest of what happened since `since`, among the open lobbies `lobbies`.
    /// A game that cannot be read is left out (and logged), not the whole digest.
    pub async fn digest_of(
        &self,
        player: PlayerId,
        since: Millis,
        lobbies: &[Lobby],
    ) -> Result<Digest, HostError> {
        let mut digest = Digest::default();
        for g in self.store.digest_games(player, since).await? {
            let Some(kind) = GameKind::from_key(&g.kind) else {
                continue;
            };
            let read = match Status::from_id(g.status) {
                Some(Status::Finished) => self.ended(player, g.id, kind, &mut digest).await,
                Some(Status::HouseRules | Status::Playing) => {
                    self.awaiting(player, g.id, kind, &mut digest).await
                }
                _ => continue,
            };
            if let Err(e) = read {
                tracing::warn!(game = g.id, error = %e, "a game left out of a digest");
            }
        }
        digest.awaiting.sort_by_key(|a| match a.what {
            Waiting::Turn { due } => (0, due.is_none(), due, a.game),
            Waiting::Vote { .. } | Waiting::Answer => (1, false, None, a.game),
        });
        digest.invitations = lobbies
            .iter()
            .filter(|l| l.waiting().contains(&player))
            .map(|l| Invitation {
                lobby: l.id,
                kind: l.kind,
                starter: l.starter,
                expires: l.expires_at,
            })
            .collect();
        Ok(digest)
    }

    /// What `game` waits on `player` for, added to `digest`.
    async fn awaiting(
        &self,
        player: PlayerId,
        game: GameId,
        kind: GameKind,
        digest: &mut Digest,
    ) -> Result<(), HostError> {
        let state = self.state(game).await?;
        let mut add = |what| digest.awaiting.push(Awaiting { game, kind, what });
        if let Some(turn) = state.turn().filter(|t| t.player == player) {
            add(Waiting::Turn { due: turn.due });
        }
        for (what, waiting) in state.awaited() {
            if !waiting.contains(&player) {
                continue;
            }
            match what {
                Awaited::Vote(id) => {
                    if let Some(m) = state.motions().iter().find(|m| m.id == id) {
                        add(Waiting::Vote { motion: m.number });
                    }
                }
                Awaited::Window(_) => add(Waiting::Answer),
            }
        }
        Ok(())
    }

    /// How `player` did in the finished `game`, added to `digest`.
    async fn ended(
        &self,
        player: PlayerId,
        game: GameId,
        kind: GameKind,
        digest: &mut Digest,
    ) -> Result<(), HostError> {
        let results = self.results(game).await?;
        let of = results.places.len();
        let mine = results.places.iter();
        if let Some(p) = mine
            .into_iter()
            .find(|p| p.player == player || p.team.contains(&player))
        {
            digest.ended.push(Ended {
                game,
                kind,
                place: p.place,
                of,
                summary: p.summary(),
            });
        }
        Ok(())
    }

    /// Build and queue every digest due now (at most [`PER_TICK`]): each once, in the outbox at
    /// the reminders' priority. Returns them (a front end without an outbox shows them).
    pub async fn digests(&self) -> Result<Vec<Effect>, HostError> {
        let now = self.now();
        let due = self.store.digests_due(now, PER_TICK).await?;
        if due.is_empty() {
            return Ok(Vec::new());
        }
        let lobbies = self.open_lobbies().await?;
        let mut fx = Vec::new();
        for d in due {
            let (player, was, since) =
                (d.player, d.settings.digest_next_at, d.settings.digest_since);
            match self.digest_due(d, &lobbies, now).await {
                Ok(Some(e)) => fx.push(e),
                Ok(None) => {}
                Err(e) => {
                    // Tried again in a minute, so digests that fail cannot keep the others
                    // waiting behind them.
                    tracing::warn!(player, error = %e, "a digest was not built");
                    if let (Some(was), Some(since)) = (was, since) {
                        let later = Some(now + RETRY_MS);
                        let put_off = self.store.claim_digest(player, was, later, since, &[], now);
                        if let Err(e) = put_off.await {
                            tracing::warn!(player, error = %e, "a digest was not put off");
                        }
                    }
                }
            }
        }
        Ok(fx)
    }

    /// One due digest: claimed (put off to the end of quiet hours, or to its next day), and
    /// queued when there is something to say and the claim was this process's.
    async fn digest_due(
        &self,
        due: DigestDue,
        lobbies: &[Lobby],
        now: Millis,
    ) -> Result<Option<Effect>, HostError> {
        let (player, row) = (due.player, &due.settings);
        let Some(was) = row.digest_next_at else {
            return Ok(None);
        };
        let since = row.digest_since.unwrap_or(was - DAY);
        let settings = match read_row(row) {
            Ok(s) => s,
            Err(e) => {
                // Tried again a day later: settings set again are read then.
                tracing::warn!(player, error = %e, "unreadable settings: no digest today");
                let claim = self
                    .store
                    .claim_digest(player, was, Some(now + DAY), since, &[], now);
                claim.await?;
                return Ok(None);
            }
        };
        if let Some(end) = settings
            .quiet()
            .filter(|q| q.is_quiet(now))
            .map(|q| q.defer(now))
        {
            self.store
                .claim_digest(player, was, Some(end), since, &[], now)
                .await?;
            return Ok(None);
        }
        let digest = self.digest_of(player, since, lobbies).await?;
        let next = next_due(&settings, now);
        let effect = (!digest.is_empty()).then_some(Effect::Digest { player, digest });
        let entries = match (&effect, self.outbox) {
            (Some(e), true) => vec![NewEntry {
                lane: e.lane(),
                game: None,
                version: None,
                priority: REMINDER,
                body: to_json(e)?,
            }],
            _ => Vec::new(),
        };
        let claimed = self
            .store
            .claim_digest(player, was, next, now, &entries, now)
            .await?;
        Ok(effect.filter(|_| claimed))
    }

    /// The lobbies waiting for players now (a lobby that does not read is left out, logged).
    pub async fn open_lobbies(&self) -> Result<Vec<Lobby>, HostError> {
        let rows = self.store.open_lobbies().await?;
        Ok(rows
            .into_iter()
            .filter_map(|row| {
                let id = row.id;
                Lobby::from_row(row)
                    .inspect_err(|e| tracing::warn!(lobby = id, error = %e, "a lobby left out"))
                    .ok()
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: usize, width: usize) -> Vec<String> {
        (0..n).map(|i| format!("{i:0width$}")).collect()
    }

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111]
            .map(ordinal)
            .into();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
                "111th"
            ]
        );
    }

    #[test]
    fn a_digest_that_fits_is_whole() {
        let sections = vec![
            ("A".to_string(), lines(2, 3)),
            ("B".to_string(), lines(1, 3)),
        ];
        let text = fit("T", &sections, 2000, "more");
        assert_eq!(text, "T\n\nA\n• 000\n• 001\n\nB\n• 000");
    }

    #[test]
    fn a_long_digest_shows_fewer_lines_of_its_longest_section_and_counts_the_rest() {
        let sections = vec![
            ("turns".to_string(), lines(80, 60)),
            ("ended".to_string(), lines(3, 60)),
            ("lobbies".to_string(), lines(2, 60)),
        ];
        let text = fit("title", &sections, 2000, "/hexmeros games");
        assert!(
            text.chars().count() <= 2000,
            "{} characters",
            text.chars().count()
        );
        // The short sections are whole; the long one says how many it leaves out, and shows
        // as many as fit.
        let shown = text.lines().filter(|l| l.starts_with("• 0")).count();
        assert!(shown >= 25, "{shown} lines shown");
        let left = 85 - shown;
        assert!(
            text.contains(&format!("…and {left} more (/hexmeros games)")),
            "{text}"
        );
        let after = |head: &str| text.split(head).nth(1).unwrap_or("").lines().nth(1);
        assert_eq!(after("ended").map(|l| l.chars().count()), Some(2 + 60));
        assert_eq!(text.lines().filter(|l| l.contains("more")).count(), 1);
    }

    #[test]
    fn lines_too_long_for_any_message_are_cut_to_the_limit() {
        let sections = vec![("a".to_string(), vec!["x".repeat(5000)])];
        let text = fit("t", &sections, 2000, "m");
        assert!(text.chars().count() <= 2000);
    }
}
