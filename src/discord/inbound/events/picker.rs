//! The move picker, one private message updated in place: the caller's pieces by kind (paged),
//! then the zoomed picture of one piece with its numbered targets (paged), then a choice among
//! the moves ending on one target when there is one (a promotion), then the staged preview.
//! What is listed, how it is labelled and the picture come from the host (`GameState::
//! pick_pieces`, `targets_seen_by`, `zoom_png`). Every control names the piece and target by their place in those lists, which
//! stay the same for the whole turn (the position only changes when the Token passes, and a
//! control from an earlier turn is refused before it gets here).

use poise::serenity_prelude as serenity;
use serenity::{
    CreateActionRow, CreateAttachment, CreateButton, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption,
};

use hexmeros::background::{self, Work};
use hexmeros::host::{self, GameState, Mark, Piece, SeenTarget, Target};

use super::{Click, Reply};
use crate::discord::Error;
use crate::discord::ids::{Action, ComponentId};
use crate::discord::outbound::picture;

/// Discord's limit on a select option's label and value.
const OPTION_MAX: usize = 100;

/// Buttons in a row and rows in a message, Discord's limits.
const ROW: usize = 5;
const ROWS: usize = 5;

/// The most targets shown as buttons (four rows; the fifth holds Another piece): one tap each,
/// where a select menu costs two on a phone and hides the picture while open.
pub const TARGET_BUTTONS: usize = 20;

/// Buttons in rows of five.
fn button_rows(buttons: Vec<CreateButton>) -> Vec<CreateActionRow> {
    let mut rows = Vec::new();
    let mut it = buttons.into_iter().peekable();
    while it.peek().is_some() {
        rows.push(CreateActionRow::Buttons(it.by_ref().take(ROW).collect()));
    }
    rows
}

/// `text` cut to Discord's limit on an option's label.
fn fit(text: &str) -> String {
    if text.chars().count() <= OPTION_MAX {
        return text.to_string();
    }
    let mut s: String = text.chars().take(OPTION_MAX - 1).collect();
    s.push('…');
    s
}

/// The game as the caller, who must hold the Token, sees it now.
async fn turn(c: &Click<'_>) -> Result<GameState, Error> {
    Ok(c.data.host.turn_of(c.game, c.me).await?)
}

/// Ask the host's lists and pictures of the game off the async threads (listing and labelling
/// a 649-cell board's moves plays each of them once).
async fn on_state<T: Send + 'static>(
    state: &GameState,
    job: impl FnOnce(&GameState) -> T + Send + 'static,
) -> Result<T, Error> {
    let state = state.clone();
    Ok(background::run(Work::Pictures, move || job(&state)).await?)
}

fn id(c: &Click<'_>, state: &GameState, action: Action) -> String {
    ComponentId::new(c.game, state.version(), action).encode()
}

/// A select menu of `(label, value)` options.
fn menu(custom_id: String, placeholder: &str, options: &[(String, String)]) -> CreateActionRow {
    let opts = options
        .iter()
        .map(|(label, value)| CreateSelectMenuOption::new(fit(label), value.clone()))
        .collect();
    CreateActionRow::SelectMenu(
        CreateSelectMenu::new(custom_id, CreateSelectMenuKind::String { options: opts })
            .placeholder(placeholder),
    )
}

/// Prev / Next buttons for page `page` of `pages` (none when there is one page), then `more`.
fn nav(
    page: usize,
    pages: usize,
    to: impl Fn(u8) -> String,
    more: Vec<CreateButton>,
) -> Option<CreateActionRow> {
    let mut buttons = Vec::new();
    if pages > 1 {
        let prev = page.saturating_sub(1);
        let next = (page + 1).min(pages - 1);
        buttons.push(
            CreateButton::new(to(u8::try_from(prev).unwrap_or(u8::MAX)))
                .label("◀ Prev")
                .style(serenity::ButtonStyle::Secondary)
                .disabled(page == 0),
        );
        buttons.push(
            CreateButton::new(to(u8::try_from(next).unwrap_or(u8::MAX)))
                .label("Next ▶")
                .style(serenity::ButtonStyle::Secondary)
                .disabled(page + 1 >= pages),
        );
    }
    buttons.extend(more);
    (!buttons.is_empty()).then_some(CreateActionRow::Buttons(buttons))
}

fn another_piece(c: &Click<'_>, state: &GameState) -> CreateButton {
    CreateButton::new(id(c, state, Action::Pieces { page: 0 }))
        .label("Another piece")
        .style(serenity::ButtonStyle::Primary)
}

fn page_note(page: usize, pages: usize) -> String {
    if pages > 1 {
        format!(" · page {}/{pages}", page + 1)
    } else {
        String::new()
    }
}

/// Step 1: page `page` of the pieces the caller can move.
pub(super) async fn pieces(c: &Click<'_>, page: usize) -> Result<Reply, Error> {
    let state = turn(c).await?;
    let pieces = on_state(&state, GameState::pick_pieces).await?;
    let n = pieces.len();
    if n == 0 {
        return Ok(Reply::text("you have no legal move now"));
    }
    // Every piece as a button of its own where they fit on the message: one tap.
    if n <= ROW * ROWS {
        let mut r = Reply::text(format!("**Move**: pick a piece ({n} can move)"));
        let buttons = pieces
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let piece = u16::try_from(i).unwrap_or(u16::MAX);
                CreateButton::new(id(c, &state, Action::PieceAt { piece }))
                    .label(fit(&p.button()))
                    .style(serenity::ButtonStyle::Secondary)
            })
            .collect();
        r.components = button_rows(buttons);
        r.edit = true;
        return Ok(r);
    }
    let pg = host::page(n, page);
    let options: Vec<(String, String)> = pieces[pg.range.clone()]
        .iter()
        .map(|p| (p.label(), p.origin.clone()))
        .collect();
    let mut r = Reply::text(format!(
        "**Move**: pick a piece ({n} can move{})",
        page_note(pg.page, pg.pages)
    ));
    r.components = vec![menu(
        id(c, &state, Action::From { menu: 0 }),
        "piece",
        &options,
    )];
    let to = |p| id(c, &state, Action::Pieces { page: p });
    r.components.extend(nav(pg.page, pg.pages, to, Vec::new()));
    r.edit = true;
    Ok(r)
}

/// A piece was tapped (step 1's buttons, or the turn message's: then its answer is a new
/// private message, as Move…'s is).
pub(super) async fn tapped_piece(c: &Click<'_>, index: usize) -> Result<Reply, Error> {
    let mut r = targets(c, index, 0).await?;
    r.edit = true;
    Ok(r)
}

/// The piece the picked origin names, with its place in the list, or the refusal.
async fn piece_at(
    state: &GameState,
    which: impl Fn(usize, &Piece) -> bool + Send + 'static,
) -> Result<(usize, Piece), Error> {
    on_state(state, move |g| {
        g.pick_pieces()
            .into_iter()
            .enumerate()
            .find(|(i, p)| which(*i, p))
    })
    .await?
    .ok_or_else(|| crate::discord::reply::refused("that piece has no legal move now"))
}

/// The targets of `origin` as the host tells them to this player: what each does, in its
/// words; or why the piece cannot move.
async fn seen_targets(
    c: &Click<'_>,
    state: &GameState,
    origin: &str,
) -> Result<Vec<SeenTarget>, Error> {
    let (state, origin, me) = (state.clone(), origin.to_string(), c.me);
    background::run(Work::Pictures, move || {
        state.targets_seen_by(Some(me), &origin)
    })
    .await?
    .map_err(|why| crate::discord::reply::refused(why.to_string()))
}

/// A target's button: its number and cell as on the picture, and what it does beyond moving
/// (a capture, a ram, a Check given, a relief) in the very words of the menu, the zoom's
/// description, the preview and the web board (`Does::text`); fitted to a button's 80
/// characters by the caller.
fn target_button(t: &SeenTarget) -> String {
    let mut s = format!("{} · {}", t.target.number, t.target.cell);
    for d in &t.does {
        s.push_str(" · ");
        s.push_str(&d.text());
    }
    s
}

/// A piece was picked from step 1's menu.
pub(super) async fn picked_piece(c: &Click<'_>) -> Result<Reply, Error> {
    let origin = c.picked("piece")?;
    let state = turn(c).await?;
    let (index, _) = piece_at(&state, move |_, p| p.origin.eq_ignore_ascii_case(&origin)).await?;
    targets(c, index, 0).await
}

/// Step 2: the zoomed picture of page `page` of piece number `index`'s numbered targets, and
/// those targets.
pub(super) async fn targets(c: &Click<'_>, index: usize, page: usize) -> Result<Reply, Error> {
    let state = turn(c).await?;
    let (_, piece) = piece_at(&state, move |i, _| i == index).await?;
    let seen = seen_targets(c, &state, &piece.origin).await?;
    let targets: Vec<Target> = seen.iter().map(|t| t.target.clone()).collect();
    let pg = host::page(targets.len(), page);
    let options: Vec<(String, String)> = seen[pg.range.clone()]
        .iter()
        .map(|t| (t.label(), t.target.number.to_string()))
        .collect();
    let mut text = format!(
        "**{}**: pick a target by its number on the picture ({} target{}{})",
        piece.label(),
        targets.len(),
        if targets.len() == 1 { "" } else { "s" },
        page_note(pg.page, pg.pages)
    );
    let mut files = Vec::new();
    // One picture a page: the page's targets only, so that a 30-target piece's numbers
    // are not drawn all at once.
    let shown = targets[pg.range.clone()].to_vec();
    let label = piece.label();
    match zoom_picture(c, &state, piece, shown).await {
        Some(png) => files.push(zoom_file(png, &label, &options)),
        None => text.push_str("\n(no picture now: the numbers follow board order)"),
    }
    let mut r = Reply::text(text);
    r.files = files;
    let index = u16::try_from(index).unwrap_or(u16::MAX);
    if targets.len() <= TARGET_BUTTONS {
        // One tap a target: its number as on the picture and its cell, red where it takes.
        let buttons = seen
            .iter()
            .map(|t| {
                let target = u16::try_from(t.target.number).unwrap_or(u16::MAX);
                CreateButton::new(id(
                    c,
                    &state,
                    Action::Tap {
                        piece: index,
                        target,
                    },
                ))
                .label(fit(&target_button(t)))
                .style(match t.mark() {
                    Mark::Ram => serenity::ButtonStyle::Secondary,
                    Mark::Capture => serenity::ButtonStyle::Danger,
                    Mark::Check => serenity::ButtonStyle::Success,
                    Mark::Move => serenity::ButtonStyle::Primary,
                })
            })
            .collect();
        r.components = button_rows(buttons);
        r.components
            .push(CreateActionRow::Buttons(vec![another_piece(c, &state)]));
        return Ok(r);
    }
    r.components = vec![menu(
        id(c, &state, Action::Target { piece: index }),
        "target",
        &options,
    )];
    let to = |p| {
        id(
            c,
            &state,
            Action::Targets {
                piece: index,
                page: p,
            },
        )
    };
    r.components
        .extend(nav(pg.page, pg.pages, to, vec![another_piece(c, &state)]));
    Ok(r)
}

/// The zoomed picture, if the caller is within their picture rate and the queue has room.
async fn zoom_picture(
    c: &Click<'_>,
    state: &GameState,
    piece: Piece,
    targets: Vec<Target>,
) -> Option<Vec<u8>> {
    let slot = c.data.limits.render_slot()?;
    if !c.data.limits.picture_allowed(c.me) {
        return None;
    }
    let viewer = state.seat_of(c.me);
    let players = crate::discord::outbound::picture::seat_names(c.data, state).await;
    let drawn = on_state(state, move |g| {
        g.zoom_png(viewer, &players, &piece, &targets, None)
    })
    .await;
    drop(slot);
    match drawn {
        Ok(Ok(png)) => Some(png),
        Ok(Err(e)) => {
            tracing::warn!(game = c.game, error = %e, "no zoomed picture");
            None
        }
        Err(e) => {
            tracing::error!(game = c.game, error = %e, "drawing the zoomed picture failed");
            None
        }
    }
}

/// A target was picked from step 2's menu: stage its move, or offer its choices.
pub(super) async fn picked_target(c: &Click<'_>, index: usize) -> Result<Reply, Error> {
    let number: usize = c
        .picked("target")?
        .parse()
        .map_err(|_| anyhow::anyhow!("a target menu's value is its number"))?;
    tapped_target(c, index, number).await
}

/// Target `number` of piece `index` was chosen (a button, or step 2's menu): stage its move, or
/// offer its choices.
pub(super) async fn tapped_target(
    c: &Click<'_>,
    index: usize,
    number: usize,
) -> Result<Reply, Error> {
    let state = turn(c).await?;
    let target = target_of(&state, index, number).await?;
    match target.moves.as_slice() {
        [one] => super::stage(c, one.clone()).await,
        _ => choices(c, index, number, 0).await,
    }
}

async fn target_of(state: &GameState, index: usize, number: usize) -> Result<Target, Error> {
    let (_, piece) = piece_at(state, move |i, _| i == index).await?;
    on_state(state, move |g| {
        g.pick_targets(&piece.origin)
            .into_iter()
            .find(|t| t.number == number)
    })
    .await?
    .ok_or_else(|| crate::discord::reply::refused("that target is gone"))
}

/// Step 3: the moves that end on target `number` of piece `index` (a promotion's pieces).
pub(super) async fn choices(
    c: &Click<'_>,
    index: usize,
    number: usize,
    page: usize,
) -> Result<Reply, Error> {
    let state = turn(c).await?;
    let (_, piece) = piece_at(&state, move |i, _| i == index).await?;
    let origin = piece.origin.clone();
    let choices = on_state(&state, move |g| {
        g.pick_targets(&origin)
            .into_iter()
            .find(|t| t.number == number)
            .map(|t| (t.cell.clone(), g.pick_choices(&origin, &t)))
    })
    .await?;
    let Some((cell, choices)) = choices else {
        return Err(crate::discord::reply::refused("that target is gone"));
    };
    let pg = host::page(choices.len(), page);
    let options: Vec<(String, String)> = choices[pg.range.clone()]
        .iter()
        .map(|ch| (ch.label.clone(), ch.text.clone()))
        .collect();
    let mut r = Reply::text(format!(
        "**{}** to **{cell}** (target {number}): pick one of {} moves{}",
        piece.label(),
        choices.len(),
        page_note(pg.page, pg.pages)
    ));
    r.keep_file = true;
    r.components = vec![menu(
        id(c, &state, Action::To { menu: 0 }),
        "move",
        &options,
    )];
    let (p, t) = (
        u16::try_from(index).unwrap_or(u16::MAX),
        u16::try_from(number).unwrap_or(u16::MAX),
    );
    let to = |pg| {
        id(
            c,
            &state,
            Action::Choices {
                piece: p,
                target: t,
                page: pg,
            },
        )
    };
    r.components
        .extend(nav(pg.page, pg.pages, to, vec![another_piece(c, &state)]));
    Ok(r)
}

/// The zoom picture's attachment, described by its piece and its targets' words (a screen
/// reader hears what the buttons say).
fn zoom_file(png: Vec<u8>, piece: &str, options: &[(String, String)]) -> CreateAttachment {
    let words: Vec<&str> = options.iter().map(|(label, _)| label.as_str()).collect();
    let alt = format!(
        "Close-up of {piece} with its targets numbered: {}.",
        words.join("; ")
    );
    CreateAttachment::bytes(png, "zoom.png").description(picture::described("", &alt))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexmeros::host::Does;

    fn seen(does: Vec<Does>) -> SeenTarget {
        SeenTarget {
            target: Target {
                number: 12,
                cell: "AC18".into(),
                hex: None,
                moves: vec!["Q20-AC18".into()],
                takes: Vec::new(),
                taken: Vec::new(),
                checks: Vec::new(),
                exposes: Vec::new(),
                royal: "Sovereign",
            },
            does,
        }
    }

    /// A target's button says a ram and a Check in the words the menu and the page use.
    #[test]
    fn a_targets_button_names_a_ram_and_a_check() {
        let check = seen(vec![Does::GivesCheck {
            on: vec!["Orange".into()],
        }]);
        assert_eq!(target_button(&check), "12 · AC18 · gives Check to Orange");
        assert_eq!(check.mark(), Mark::Check);
        let ram = seen(vec![Does::Rams {
            piece: "Militant".into(),
        }]);
        assert_eq!(target_button(&ram), "12 · AC18 · rams your own Militant");
        assert_eq!(ram.mark(), Mark::Ram);
        assert_eq!(ram.label(), "12 → AC18 · rams your own Militant");
        let plain = seen(Vec::new());
        assert_eq!(target_button(&plain), "12 · AC18");
        assert_eq!(plain.mark(), Mark::Move);
    }
}
