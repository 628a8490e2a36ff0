//! The turn message: the board from the Token holder's side, the caption, the new holder's
//! ping, and the buttons of the turn (pieces, Move…, Type move…, My side). The web board's
//! doors are elsewhere, so they never take a piece's place: the Token holder's own on My side,
//! the spectator's link and the Activity's launch on the status panel (`panel`).

use super::*;
use hexmeros::host::SeenPiece;

/// Attach a board picture to a message: a PNG file, or text in a code block (a file when long).
pub fn with_picture(msg: CreateMessage, content: String, pic: Picture) -> CreateMessage {
    match pic {
        Picture::Png {
            full,
            focus,
            alt,
            outside,
        } => msg
            .content(picture::with_outside(content, &outside))
            .add_files(picture::picture_files(full, focus, &alt)),
        Picture::Text(t) if t.len() + content.len() < 1900 => {
            msg.content(format!("{content}\n```\n{t}\n```"))
        }
        Picture::Text(t) => msg
            .content(content)
            .add_file(CreateAttachment::bytes(t.into_bytes(), "board.txt")),
    }
}

/// The most pieces a turn message carries as buttons: Discord's 25 buttons a message less
/// Move…, Type move… and My side (HexiMeros' 22 movable pieces at the start fit). With more,
/// Move… opens the picker's list.
pub const TURN_PIECE_BUTTONS: usize = 22;

/// The buttons of a turn message, for the Token holder: the pieces that can move, one button
/// each, when there are at most [`TURN_PIECE_BUTTONS`] (a tap opens that piece's targets
/// privately: piece, target, Pass make a move in three taps), then Move…, Type move… and My
/// side, in rows of five. Pass, Take back and Declare Check are on the private preview of each
/// staged move instead: one made before the move was staged would act on a move its presser
/// was not shown, and the host refuses it.
pub fn turn_buttons(game: GameId, version: u64, pieces: &[SeenPiece]) -> Vec<CreateActionRow> {
    let id = |a| ComponentId::new(game, version, a).encode();
    let mut buttons: Vec<CreateButton> = Vec::new();
    if pieces.len() <= TURN_PIECE_BUTTONS {
        buttons.extend(pieces.iter().enumerate().map(|(i, p)| {
            let piece = u16::try_from(i).unwrap_or(u16::MAX);
            CreateButton::new(id(Action::OpenPiece { piece }))
                .label(p.button.clone())
                .style(serenity::ButtonStyle::Secondary)
        }));
    }
    buttons.extend([
        CreateButton::new(id(Action::Pick))
            .label("Move…")
            .style(serenity::ButtonStyle::Primary),
        CreateButton::new(id(Action::TypeMove))
            .label("Type move…")
            .style(serenity::ButtonStyle::Secondary),
        CreateButton::new(id(Action::Board))
            .label("My side")
            .style(serenity::ButtonStyle::Secondary),
    ]);
    buttons
        .chunks(5)
        .map(|row| CreateActionRow::Buttons(row.to_vec()))
        .collect()
}

/// Post the board of a game (as it was at `state`) in its thread as the new turn message: the
/// picture from the Token holder's side, the caption, the buttons, and the new holder's ping (a
/// folded `Ping`: one message per move). The ✅ ↩️ 🔄 reactions are on the status panel.
pub(super) async fn post_turn(
    http: &Http,
    data: &Data,
    entry: &Delivery,
    state: &GameState,
    caption: &str,
    ping: Option<Pinged>,
) -> anyhow::Result<Outcome> {
    let game = state.id();
    let live = matches!(state.status(), Status::HouseRules | Status::Playing);
    let holder = state.holder_player().filter(|_| live);
    let mut content = String::new();
    let mut pinged = Vec::new();
    if let Some(Pinged { player, text }) = ping {
        // First, so that the notification on a phone says it.
        let who = mention(data, player).await;
        let text = with_names(data, &text).await;
        content.push_str(&format!("{who} {text}\n"));
        pinged.push(player);
    }
    content.push_str(&format!("**{}** — {caption}", title(state)));
    if let (Some(seat), Some(p), true) = (state.holder(), holder, pinged.is_empty()) {
        content.push_str(&format!(
            "\n{} ({}) has the Token",
            state.seat_title(seat),
            mention(data, p).await
        ));
    }
    let pic = picture::board(data, state, Some(state.public_side())).await;
    // Only the folded ping pings: the board names others in passing.
    let mut msg =
        with_picture(CreateMessage::new(), content, pic).allowed_mentions(pinging(&pinged));
    if holder.is_some() {
        // The pieces as the holder sees them (the host's projection, which every front end
        // shows), drawn off the async threads.
        let seen = state.clone();
        let pieces = background::run(Work::Pictures, move || seen.seen_by(holder).pieces)
            .await
            .unwrap_or_else(|e| {
                // The turn still works through Move…, which lists the pieces itself.
                tracing::warn!(game, error = %e, "no piece buttons on a turn message");
                Vec::new()
            });
        msg = msg.components(turn_buttons(game, state.version(), &pieces));
    }
    if let Some(&player) = pinged.first() {
        msg = quiet_for(data, player, msg).await;
    }
    let Outcome::Sent(Some(posted)) = to_game(http, data, entry, game, msg).await? else {
        return Ok(Outcome::Dropped("the game has no thread".into()));
    };
    // The turn message before this one loses its buttons, in the background (`strip`); a
    // game no longer played keeps none live.
    if holder.is_some() {
        data.links
            .set_turn(game, posted.get(), state.version())
            .await?;
    } else {
        data.links.retire_turn(game).await?;
    }
    data.strip.wake();
    Ok(Outcome::Sent(Some(posted)))
}
