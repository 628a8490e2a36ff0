//! `/hexmeros rules [game] [piece] [cell]`: rules help, privately. Without a piece, the game's
//! legend picture (every piece's glyph and name) with its key rules and cell names in words;
//! with a piece, a picture of its moves from a cell. The words are `games::help`'s, the
//! pictures the host's (`host::legend`); this only picks the game, checks the caller's picture rate and
//! draws off the async threads.

use std::time::Duration;

use poise::serenity_prelude as serenity;
use poise::{ChoiceParameter, CreateReply};
use serenity::{CreateAttachment, CreateAutocompleteResponse};

use hexmeros::background::{self, Work};
use hexmeros::games::{GameKind, help};
use hexmeros::host::PlayerId;
use hexmeros::host::legend::{self, HelpError};

use super::autocomplete::option_text;
use super::{Context, Error, GameChoice};
use crate::discord::limits::BUSY;
use crate::discord::outbound::picture;
use crate::discord::{Data, reply};

/// Rules help: a game's pieces, key rules and cell names, or one piece's moves.
#[poise::command(slash_command)]
pub(super) async fn rules(
    ctx: Context<'_>,
    #[description = "which game (default: this thread's game, else HexiMeros)"] game: Option<
        GameChoice,
    >,
    #[description = "show this piece's moves"]
    #[autocomplete = "ac_piece"]
    piece: Option<String>,
    #[description = "the cell to show the moves from (default: a central cell)"] cell: Option<
        String,
    >,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let kind = match game {
        Some(g) => g.kind(),
        None => thread_kind(data, ctx.channel_id().get())
            .await?
            .unwrap_or(GameKind::HexiMeros),
    };
    if let Some(p) = &piece
        && help::find_piece(kind, p).is_none()
    {
        return Err(refusal(unknown_piece(kind, p)));
    }
    if piece.is_none() && cell.is_some() {
        return Err(reply::refused(
            "give a piece too: the cell is where its moves are shown from",
        ));
    }
    data.limits.picture(ctx.author().id.get() as PlayerId)?;
    let slot = data
        .limits
        .render_slot()
        .ok_or_else(|| reply::refused(BUSY))?;
    let answer = match piece {
        None => {
            let png = background::run(Work::Pictures, move || legend::legend_png(kind, None))
                .await?
                .map_err(refusal)?;
            let name = format!("rules-{}.png", kind.key());
            let alt =
                picture::described("The board and pieces of the game. ", &help::summary(kind));
            reply::private(help::summary(kind))
                .attachment(CreateAttachment::bytes(png, name).description(alt))
        }
        Some(piece) => {
            let moves = background::run(Work::Pictures, move || {
                legend::piece_moves(kind, &piece, cell.as_deref(), None)
            })
            .await?
            .map_err(refusal)?;
            let name = format!("moves-{}-{}.png", kind.key(), moves.cell.replace('.', "-"));
            let mut text = moves.line(kind);
            if !moves.targets.is_empty() {
                text.push_str("\nTargets: ");
                text.push_str(&moves.targets.join(" "));
            }
            let alt = picture::described("Where the piece moves. ", &text);
            reply::private(text)
                .attachment(CreateAttachment::bytes(moves.png, name).description(alt))
        }
    };
    drop(slot);
    send(ctx, answer).await
}

async fn send(ctx: Context<'_>, answer: CreateReply) -> Result<(), Error> {
    ctx.send(answer.allowed_mentions(serenity::CreateAllowedMentions::new()))
        .await?;
    Ok(())
}

fn unknown_piece(kind: GameKind, piece: &str) -> HelpError {
    HelpError::UnknownPiece {
        game: kind.name(),
        piece: reply::clip(piece.trim()),
        known: help::pieces(kind)
            .iter()
            .map(|p| p.name)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// What the player asked wrong is a refusal in its own words; a picture that cannot be drawn
/// is an internal error.
fn refusal(e: HelpError) -> Error {
    match e {
        HelpError::View(e) => anyhow::Error::new(e),
        other => reply::refused(other.to_string()),
    }
}

/// The game of the thread `channel` is, if it is a game's thread.
async fn thread_kind(data: &Data, channel: u64) -> Result<Option<GameKind>, Error> {
    let Some(link) = data.links.by_thread(channel).await? else {
        return Ok(None);
    };
    Ok(Some(data.host.state(link.game).await?.kind()))
}

/// How long the piece autocomplete may look up the thread's game before it offers HexiMeros'.
const LOOKUP: Duration = Duration::from_millis(1500);

/// The pieces of the game the command names (or the thread's, or HexiMeros), those whose name
/// starts with what was typed.
async fn ac_piece(
    ctx: poise::ApplicationContext<'_, Data, Error>,
    partial: &str,
) -> CreateAutocompleteResponse {
    let i = ctx.interaction;
    let named = option_text(&i.data.options, "game")
        .and_then(|v| v.parse::<usize>().ok())
        .and_then(GameChoice::from_index)
        .map(GameChoice::kind);
    let kind = match named {
        Some(k) => k,
        None => tokio::time::timeout(LOOKUP, thread_kind(ctx.data(), i.channel_id.get()))
            .await
            .ok()
            .and_then(Result::ok)
            .flatten()
            .unwrap_or(GameKind::HexiMeros),
    };
    let typed = partial.trim().to_ascii_lowercase();
    let choices = help::pieces(kind)
        .iter()
        .filter(|p| p.name.to_ascii_lowercase().starts_with(&typed))
        .map(|p| serenity::AutocompleteChoice::new(p.name, p.name))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}
