//! The staged move's private message: its preview (the close-up and the full board) with Pass
//! Token, Take back, Another piece, Declare Check… and one "Pass + Check on Red" per seat the
//! move may declare Check on; and what those buttons do. A move is staged here for the picker
//! and the typed box alike, or committed at once for a player who set "commit on pick".

use poise::serenity_prelude as serenity;
use serenity::{CreateActionRow, CreateButton};

use hexmeros::games::Seat;
use hexmeros::host::{Command, Does, GameId, GameState, HostError, PlayerId, Refused, Staged};

use super::{Click, Reply, non_empty, picture_reply};
use crate::discord::ids::{Action, ComponentId};
use crate::discord::outbound::picture;
use crate::discord::{Data, Error};

/// The staged move's message: the move and what it does in the words its button had (takes
/// whose piece, rams your own, gives Check to whom, relieves your Check), the host's other
/// lines (`lines` but its staging note, which carries a text board the picture replaces), and
/// an open challenge window's wait.
fn staged_text(state: &GameState, st: &Staged, does: &[Does], lines: &[String]) -> String {
    let what: String = does.iter().map(|d| format!(" · {}", d.text())).collect();
    let mut text = format!(
        "staged **{}**{what} (not committed yet): pass the Token to commit it, or take it back",
        st.text
    );
    for l in lines.iter().filter(|l| !l.starts_with("staged ")) {
        text.push('\n');
        text.push_str(l);
    }
    let waiting = st.waiting();
    if !waiting.is_empty() {
        let names: Vec<String> = waiting.iter().map(|&s| state.seat_title(s)).collect();
        text.push_str(&format!(
            "\nchallenge window open: waiting for {}",
            names.join(", ")
        ));
        if st.pass_when_closed {
            text.push_str("; the Token will be passed when it closes with nobody declaring");
        }
    }
    text
}

/// The reply after staging: the preview picture of the staged move with Pass / Take back /
/// Another piece / Declare Check buttons; or the host's words when nothing is staged (the move was passed).
pub async fn staged_reply(
    data: &Data,
    game: GameId,
    me: PlayerId,
    lines: Vec<String>,
) -> Result<Reply, Error> {
    let state = data.host.state(game).await?;
    let mine = state.seat_of(me);
    let Some(st) = state.staged().filter(|s| Some(s.seat) == mine) else {
        return Ok(Reply::text(if lines.is_empty() {
            "done".to_string()
        } else {
            lines.join("\n")
        }));
    };
    let text = staged_text(&state, st, &state.staged_does(Some(me)), &lines);
    let waiting = st.waiting();
    let pic = picture::preview(data, me, &state, mine, &st.text).await;
    let mut reply = picture_reply(text, pic);
    let id = |a| ComponentId::new(game, state.version(), a).encode();
    let mut buttons = vec![
        CreateButton::new(id(Action::Pass))
            .label("Pass Token")
            .style(serenity::ButtonStyle::Success),
        CreateButton::new(id(Action::Back))
            .label("Take back")
            .style(serenity::ButtonStyle::Secondary),
        CreateButton::new(id(Action::Pieces { page: 0 }))
            .label("Another piece")
            .style(serenity::ButtonStyle::Primary),
    ];
    // Check in one tap: a "Pass + Check on Red" per seat the move may declare Check on; the
    // step-by-step Declare Check… stays for declaring on several at once, or without passing.
    let checkable = if state.kind().declares_check() {
        data.host
            .declarable_checks(game, me)
            .await
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    if state.kind().declares_check() {
        buttons.push(
            CreateButton::new(id(Action::Checks))
                .label("Declare Check…")
                .style(serenity::ButtonStyle::Danger),
        );
    }
    let pass_checks: Vec<CreateButton> = checkable
        .iter()
        .take(5)
        .map(|&seat| {
            CreateButton::new(id(Action::PassCheck { seat }))
                .label(format!("Pass + Check on {}", state.seat_title(seat)))
                .style(serenity::ButtonStyle::Danger)
        })
        .collect();
    // A challenge window opened: the mover need not come back to pass once it closes.
    if !waiting.is_empty() && !st.pass_when_closed {
        buttons.push(
            CreateButton::new(id(Action::PassWhenClosed))
                .label("Pass when the window closes")
                .style(serenity::ButtonStyle::Success),
        );
    }
    reply.components = vec![CreateActionRow::Buttons(buttons)];
    if !pass_checks.is_empty() {
        reply.components.push(CreateActionRow::Buttons(pass_checks));
    }
    Ok(reply)
}

/// A move was picked: stage it and show the preview.
pub(super) async fn on_to(c: &Click<'_>) -> Result<Reply, Error> {
    let text = c.picked("move")?;
    stage(c, text).await
}

/// Stage move `text` through the host, as `/hexmeros move` does, and show the preview; or, for
/// a player who set "commit on pick", commit it at once (a move that opens a challenge window
/// stays staged, and its preview is shown).
pub(super) async fn stage(c: &Click<'_>, text: String) -> Result<Reply, Error> {
    let commit = c
        .data
        .host
        .settings(c.me)
        .await
        .is_ok_and(|s| s.commit_on_pick);
    let lines = c
        .run(Command::Move {
            text: text.clone(),
            commit,
        })
        .await?;
    if commit && !still_staged(c).await? {
        return Ok(committed(format!("✅ committed **{text}**"), lines));
    }
    staged_reply(c.data, c.game, c.me, lines).await
}

/// Whether the clicker still has a move staged (a commit that opened a challenge window).
async fn still_staged(c: &Click<'_>) -> Result<bool, Error> {
    let state = c.data.host.state(c.game).await?;
    Ok(state
        .staged()
        .is_some_and(|s| state.seat_of(c.me) == Some(s.seat)))
}

/// The staged move's message after its commit: `done` and the host's words, the picture kept,
/// no controls, so that it cannot read as still pending.
fn committed(done: String, lines: Vec<String>) -> Reply {
    let mut r = Reply::text(format!(
        "{done}; {}",
        non_empty(lines, "the Token is passed")
    ));
    r.keep_file = true;
    r.edit = true;
    r
}

/// Pass: the staged move is committed, and the private message it was shown in ends clean
/// (what was played, its picture, no controls), so that it cannot read as still pending.
pub(super) async fn on_pass(c: &Click<'_>) -> Result<Reply, Error> {
    pass(c, true).await
}

/// The status panel's Pass: the move the presser has staged now is committed (as their ✅ on the
/// panel does), whichever preview staged it; the answer is a private message of its own.
pub(super) async fn on_panel_pass(c: &Click<'_>) -> Result<Reply, Error> {
    let mut r = pass(c, false).await?;
    r.keep_file = false;
    r.edit = false;
    Ok(r)
}

/// Commit the staged move: `made`, only if it is the one the control was made for.
async fn pass(c: &Click<'_>, made: bool) -> Result<Reply, Error> {
    let staged = c
        .data
        .host
        .state(c.game)
        .await?
        .staged()
        .map(|s| s.text.clone());
    let lines = match made {
        true => c.press(Command::Pass).await?,
        false => c.run(Command::Pass).await?,
    };
    let done = match staged {
        Some(m) => format!("✅ committed **{m}**"),
        None => "✅ committed".to_string(),
    };
    Ok(committed(done, lines))
}

/// Pass + Check on a seat: the declaration added and the Token passed in one tap. The preview's
/// message ends clean as after Pass; where the declared move opens a challenge window it stays
/// staged, and the message shows its new preview.
pub(super) async fn on_pass_check(c: &Click<'_>, seat: Seat) -> Result<Reply, Error> {
    let state = c.data.host.state(c.game).await?;
    let staged = state.staged().map(|s| s.text.clone());
    let lines = c.press(Command::CheckAndPass { seat }).await?;
    if still_staged(c).await? {
        let mut r = staged_reply(c.data, c.game, c.me, lines).await?;
        r.edit = true;
        return Ok(r);
    }
    let who = state.seat_title(seat);
    let done = match staged {
        Some(m) => format!("✅ committed **{m}** with Check on {who}"),
        None => format!("✅ committed with Check on {who}"),
    };
    Ok(committed(done, lines))
}

/// Pass when the window closes: the host passes the Token by itself once the staged move's
/// challenge window closes with nobody declaring.
pub(super) async fn on_pass_when_closed(c: &Click<'_>) -> Result<Reply, Error> {
    let lines = c.press(Command::PassWhenClosed).await?;
    Ok(Reply::text(non_empty(
        lines,
        "the Token will be passed when the challenge window closes",
    )))
}

pub(super) async fn on_back(c: &Click<'_>) -> Result<Reply, Error> {
    let lines = c.press(Command::TakeBack).await?;
    Ok(Reply::text(non_empty(lines, "move taken back")))
}

/// The status panel's Take back: whatever move the presser has staged now.
pub(super) async fn on_panel_back(c: &Click<'_>) -> Result<Reply, Error> {
    let lines = c.run(Command::TakeBack).await?;
    Ok(Reply::text(non_empty(lines, "move taken back")))
}

/// Declare Check…: a button per seat the staged move may declare Check on.
pub(super) async fn on_checks(c: &Click<'_>) -> Result<Reply, Error> {
    // The host decides which declarations the staged move may carry (and refuses anyone but
    // the mover, or when nothing is staged).
    let state = c.data.host.state(c.game).await?;
    state
        .require_preview_since(c.made)
        .map_err(HostError::from)?;
    let seats = c.data.host.declarable_checks(c.game, c.me).await?;
    let st = state
        .staged()
        .ok_or(HostError::from(Refused::NothingStaged))?;
    if seats.is_empty() {
        return Ok(Reply::text(format!(
            "{} attacks no Sovereign: there is no Check to declare",
            st.text
        )));
    }
    let buttons = seats
        .iter()
        .take(5)
        .map(|&seat| {
            CreateButton::new(
                ComponentId::new(c.game, state.version(), Action::Check { seat }).encode(),
            )
            .label(format!("Check on {}", state.seat_title(seat)))
            .style(serenity::ButtonStyle::Danger)
        })
        .collect();
    let mut r = Reply::text("declare Check on:");
    r.components = vec![CreateActionRow::Buttons(buttons)];
    Ok(r)
}

pub(super) async fn on_check(c: &Click<'_>, seat: Seat) -> Result<Reply, Error> {
    let lines = c.press(Command::Check { seat }).await?;
    staged_reply(c.data, c.game, c.me, lines).await
}
