//! What the terminal shows of the host's effects: each as a line (or a picture file), a
//! digest as a plain text with clock times in UTC.

use std::io::Write;

use super::{Local, LocalError};
use crate::host::{Digest, Effect, GameId, Millis, Pinged, fit_digest};

impl<W: Write> Local<'_, W> {
    /// With a picture directory set, writes the board picture (the moves since the mover's
    /// previous turn highlighted, from the mover's side) to `<dir>/hexmeros-game-<id>.png`
    /// after every turn and says where. A picture that cannot be made is reported, not fatal.
    async fn write_png(&mut self, game: GameId) -> Result<(), LocalError> {
        let Some(dir) = self.png_dir.clone() else {
            return Ok(());
        };
        let st = self.host.state(game).await?;
        // The moves since the mover last moved, from the mover's side.
        let last = match st.holder() {
            Some(mover) => st.moves_since(mover),
            None => st.last_round(),
        };
        let path = dir.join(format!("hexmeros-game-{game}.png"));
        let opts = crate::host::ViewOptions {
            last_moves: last,
            turn: Some(st.turn_number()),
            ..crate::host::ViewOptions::default()
        };
        let drawn =
            crate::background::run(crate::background::Work::Pictures, move || st.render(&opts))
                .await
                .map_err(|e| e.to_string())
                .and_then(|r| r.map_err(|e| e.to_string()))
                .and_then(|png| std::fs::write(&path, png).map_err(|e| e.to_string()));
        match drawn {
            Ok(()) => writeln!(self.out, "board picture: {}", path.display())?,
            Err(e) => writeln!(self.out, "could not draw the board picture: {e}")?,
        }
        Ok(())
    }

    pub(super) async fn show(&mut self, fx: Vec<Effect>) -> Result<(), LocalError> {
        for e in fx {
            match e {
                Effect::OpenThread { game, title } => {
                    writeln!(self.out, "== {title} (#{game}) ==")?
                }
                Effect::CloseThread { game } => writeln!(self.out, "== game #{game} closed ==")?,
                Effect::Board {
                    game,
                    caption,
                    board,
                    ping,
                } => {
                    writeln!(self.out, "{caption}\n{board}")?;
                    self.write_png(game).await?;
                    if let Some(Pinged { player, text }) = ping {
                        let (n, text) = (self.name(player).await, self.named(&text).await);
                        writeln!(self.out, "[#{game}] @{n}: {text}")?
                    }
                }
                // The terminal shows the game's state on request (`status`), not as a panel.
                Effect::Panel { .. } => {}
                Effect::Say { game, text } => {
                    let text = self.named(&text).await;
                    writeln!(self.out, "[#{game}] {text}")?
                }
                Effect::Ping { game, player, text } => {
                    let (n, text) = (self.name(player).await, self.named(&text).await);
                    writeln!(self.out, "[#{game}] @{n}: {text}")?
                }
                Effect::Dm { player, text, .. }
                | Effect::YourTurn { player, text, .. }
                | Effect::Nudge { player, text, .. } => {
                    let (n, text) = (self.name(player).await, self.named(&text).await);
                    writeln!(self.out, "(message to {n}) {text}")?
                }
                Effect::Private { player, text } => {
                    let (n, text) = (self.name(player).await, self.named(&text).await);
                    writeln!(self.out, "(to {n}) {text}")?
                }
                Effect::Digest { player, digest } => {
                    let n = self.name(player).await;
                    let text = self.digest_text(&digest).await;
                    writeln!(self.out, "(message to {n}) {text}")?
                }
                Effect::AskChallenge {
                    game, player, text, ..
                } => {
                    let (n, text) = (self.name(player).await, self.named(&text).await);
                    writeln!(
                        self.out,
                        "[#{game}] @{n}: {text} (answer `{n}: declare` or `{n}: let`)"
                    )?
                }
                // Buttons on Discord; here the motion is said and `vote yes #n` is typed.
                Effect::Ballot {
                    game, text, voters, ..
                } => {
                    let text = self.named(&text).await;
                    writeln!(self.out, "[#{game}] {text}")?;
                    let mut names = Vec::new();
                    for p in voters {
                        names.push(format!("@{}", self.name(p).await));
                    }
                    if !names.is_empty() {
                        writeln!(self.out, "[#{game}] {}: your vote, please", names.join(" "))?;
                    }
                }
                // An animation and buttons on Discord; here the host's words already told of
                // the stalled seat.
                Effect::Stalled { .. } | Effect::Replay { .. } => {}
                Effect::Results { game } => match self.host.results(game).await {
                    Ok(r) => {
                        writeln!(self.out, "[#{game}] results: {}", r.outcome)?;
                        for p in &r.places {
                            let n = self.name(p.player).await;
                            writeln!(self.out, "  {}. {} {n}: {}", p.place, p.colour, p.summary())?;
                        }
                    }
                    Err(e) => writeln!(self.out, "[#{game}] no results: {e}")?,
                },
            }
        }
        Ok(())
    }

    /// A digest as the terminal shows it: clock times in UTC, no links.
    async fn digest_text(&mut self, digest: &Digest) -> String {
        let when = |t: Millis| {
            chrono::DateTime::from_timestamp_millis(t)
                .map_or_else(String::new, |d| d.format("%Y-%m-%d %H:%M UTC").to_string())
        };
        let mut sections = Vec::new();
        for (head, lines) in digest.sections(&when, &|_| String::new()) {
            let mut named = Vec::new();
            for l in &lines {
                named.push(self.named(l).await);
            }
            sections.push((head, named));
        }
        fit_digest("your digest", &sections, usize::MAX, "/games")
    }
}
