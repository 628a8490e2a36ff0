//! The status panel (issue 19): one message per game thread, pinned, edited after every turn
//! (`Effect::Panel`, which the outbox adds after each event's effects). It is the first thing a
//! returning player reads: each seat (colour, player, in or out, points), whose turn and since
//! when, the turn timer, the house rules in force, open votes and the last round.
//!
//! Posting it pings every seated person once (that is how players 2–6 learn they were seated);
//! later edits ping nobody. While the game is played it carries three buttons, Pass, Take back
//! and My side (and, with the web board served, its door: see `buttons`), which act on the presser's move as it stands (they hold for the whole game; the
//! ✅ ↩️ 🔄 reactions, which the bot no longer adds, still work too). A new game's panel thus
//! costs two requests (post, pin), and a committed move two (the turn message and this edit),
//! none when the panel's text did not change.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, ChannelId, CreateActionRow, CreateAllowedMentions, CreateButton, CreateMessage,
    EditMessage, Http, MessageId,
};

use hexmeros::games::Departure;
use hexmeros::host::Delivery;
use hexmeros::host::{GameId, GameState, Panel, PanelSeat, SeatStanding, Status};

use crate::discord::Data;
use crate::discord::ids::{Action, ComponentId};
use crate::discord::names::{
    MY_SIDE, PASS, TAKE_BACK, discord_user, mention, pinging, title, with_names,
};
use crate::discord::outbound::post::{Outcome, to_game};
use crate::discord::wire::http_status;

/// Discord's limit on a message's text.
const MAX_LEN: usize = 2000;

/// Bring the panel of `game` up to date: post and pin it the first time, edit it when its text
/// changed, nothing otherwise.
pub async fn update(
    http: &Http,
    data: &Data,
    entry: &Delivery,
    game: GameId,
) -> anyhow::Result<Outcome> {
    let Some(link) = data.links.by_game(game).await? else {
        return Ok(Outcome::Dropped("the game has no thread".into()));
    };
    let state = data.host.state(game).await?;
    let text = words(data, &state).await;
    if let Some(panel) = link.panel_message {
        if link.panel_text.as_deref() == Some(text.as_str()) {
            return Ok(Outcome::Sent(None));
        }
        // The buttons too: a panel posted before they existed gets them, a finished game's
        // panel loses them.
        let edit = EditMessage::new()
            .content(text.clone())
            .components(buttons(data, &state))
            .allowed_mentions(CreateAllowedMentions::new());
        let thread = ChannelId::new(link.thread);
        let edited = data
            .wire
            .retry("editing the status panel", || {
                thread.edit_message(http, MessageId::new(panel), edit.clone())
            })
            .await;
        match edited {
            Ok(_) => {
                data.links.set_panel(game, panel, &text).await?;
                return Ok(Outcome::Sent(None));
            }
            // Deleted by someone: a new panel is posted below.
            Err(e) if matches!(http_status(&e), Some((404, _))) => {
                tracing::warn!(game, "the status panel was deleted; posting a new one");
            }
            Err(e) => return Err(e.into()),
        }
    }
    let seated: Vec<_> = state.seats().iter().map(|s| s.player).collect();
    let msg = CreateMessage::new()
        .content(text.clone())
        .components(buttons(data, &state))
        .allowed_mentions(pinging(&seated));
    let Outcome::Sent(Some(posted)) = to_game(http, data, entry, game, msg).await? else {
        return Ok(Outcome::Dropped("the game has no thread".into()));
    };
    // The thread may have moved to the parent channel.
    let thread = match data.links.by_game(game).await? {
        Some(l) => ChannelId::new(l.thread),
        None => ChannelId::new(link.thread),
    };
    // Pinning needs a permission the server may not give: the panel works unpinned too.
    if let Err(e) = data
        .wire
        .retry("pinning the status panel", || {
            http.pin_message(thread, posted, Some("the game's status panel"))
        })
        .await
    {
        tracing::warn!(game, error = %e, "cannot pin the status panel");
    }
    data.links.set_panel(game, posted.get(), &text).await?;
    Ok(Outcome::Sent(Some(posted)))
}

/// The panel's buttons while the game is played (none once it is over): Pass and Take back act
/// on the presser's staged move, My side shows them the board from their side, privately (with
/// their own web board's link). With the web board served, the panel also carries its door for
/// everyone: "Play on the board" (the Activity, which admits a player to their own board and
/// anyone else as a spectator) or else "Watch the board", a spectator's link, renewed at each
/// edit. The turn message carries neither, so the door never takes a piece button's place.
fn buttons(data: &Data, state: &GameState) -> Vec<CreateActionRow> {
    if !matches!(state.status(), Status::HouseRules | Status::Playing) {
        return Vec::new();
    }
    let id = |a| ComponentId::new(state.id(), state.version(), a).encode();
    let mut row = vec![
        CreateButton::new(id(Action::PanelPass))
            .label("Pass Token")
            .emoji(serenity::ReactionType::Unicode(PASS.into()))
            .style(ButtonStyle::Success),
        CreateButton::new(id(Action::PanelBack))
            .label("Take back")
            .emoji(serenity::ReactionType::Unicode(TAKE_BACK.into()))
            .style(ButtonStyle::Secondary),
        CreateButton::new(id(Action::Board))
            .label("My side")
            .emoji(serenity::ReactionType::Unicode(MY_SIDE.into()))
            .style(ButtonStyle::Secondary),
    ];
    if data.activity {
        row.push(
            CreateButton::new(id(Action::Play))
                .label("Play on the board")
                .style(ButtonStyle::Success),
        );
    } else if let Some(links) = &data.board {
        row.push(
            CreateButton::new_link(links.watch(state.id(), data.host.now()))
                .label("Watch the board"),
        );
    }
    vec![CreateActionRow::Buttons(row)]
}

/// The panel's text, with people named as Discord shows them.
async fn words(data: &Data, state: &GameState) -> String {
    let p = state.panel();
    let mut lines = vec![format!("📋 **{}** · {}", title(state), status_line(&p))];
    for s in &p.seats {
        lines.push(seat_line(data, s, &p).await);
    }
    if let Some(t) = &p.turn {
        let who = mention(data, t.player).await;
        let mut line = format!(
            "▶️ Turn {}: **{}** ({who}) holds the Token since {}",
            t.number,
            state.seat_title(t.seat),
            stamp(t.since)
        );
        let away = p.seats.iter().any(|s| s.seat == t.seat && s.away.is_some());
        match t.due {
            Some(due) => line.push_str(&format!("; their time runs out {}", stamp(due))),
            None if p.paused => line.push_str("; the clock is stopped"),
            None if away => line.push_str("; their clock is stopped while they are away"),
            None => line.push_str("; no turn timer"),
        }
        lines.push(line);
    }
    lines.push(if p.house.is_empty() {
        "House rules: as written".to_string()
    } else {
        format!("House rules: {}", p.house.join("; "))
    });
    for (what, closes) in &p.votes {
        let what = with_names(data, what).await;
        lines.push(format!("🗳️ Open vote {what}: closes {}", stamp(*closes)));
    }
    if !p.last_round.is_empty() {
        lines.push(format!("Last round: {}", p.last_round));
    }
    fit(lines.join("\n"))
}

fn status_line(p: &Panel) -> String {
    match (p.status, &p.result) {
        (_, Some(r)) => format!("finished: {r}"),
        (Status::Aborted, None) => "aborted".into(),
        _ if p.paused => "⏸️ paused by an admin".into(),
        (Status::HouseRules, None) => "house rules may be voted until the first Token pass".into(),
        _ => "playing".into(),
    }
}

async fn seat_line(data: &Data, s: &PanelSeat, p: &Panel) -> String {
    let who = match (s.bot, discord_user(s.player)) {
        (Some(level), _) => format!("bot ({level})"),
        (None, Some(u)) => format!("<@{u}>"),
        (None, None) => mention(data, s.player).await,
    };
    let standing = match s.standing {
        SeatStanding::In if p.turn.is_some_and(|t| t.seat == s.seat) => "in · holds the Token",
        SeatStanding::In => "in",
        SeatStanding::Out => "out",
        SeatStanding::Left(Departure::Resign) => "resigned",
        SeatStanding::Left(Departure::Expel) => "expelled",
        SeatStanding::Left(Departure::Concede) => "conceded",
        SeatStanding::Left(Departure::TimeOut) => "lost on time",
        SeatStanding::Won => "🏆 won",
        SeatStanding::Drew => "drew",
    };
    let mut line = format!("{} **{}** {who} · {standing}", swatch(&s.name), s.name);
    if let Some(n) = s.points {
        line.push_str(&format!(" · {n} pts"));
    }
    if !s.checked_by.is_empty() {
        line.push_str(&format!(
            " · 🚨 **in Check** (declared by {})",
            s.checked_by.join(", ")
        ));
    }
    if s.standing == SeatStanding::In {
        if let Some(bank) = s.bank {
            line.push_str(&format!(" · bank {}", duration(bank)));
        }
        if let Some(a) = &s.away {
            line.push_str(&format!(" · 💤 away until {}", stamp(a.until)));
            if let Some(r) = &a.reason {
                line.push_str(&format!(" ({})", crate::discord::names::plain(r)));
            }
        }
    }
    line
}

/// A length of time in days, hours and minutes, the largest two that are not zero
/// (`2 d 4 h`, `5 h 30 min`, `0 min`).
pub(in crate::discord) fn duration(ms: i64) -> String {
    let minutes = ms.max(0) / 60_000;
    let parts = [
        (minutes / 1440, "d"),
        (minutes / 60 % 24, "h"),
        (minutes % 60, "min"),
    ];
    let shown: Vec<String> = parts
        .iter()
        .skip_while(|(n, _)| *n == 0)
        .take(2)
        .filter(|(n, _)| *n > 0)
        .map(|(n, unit)| format!("{n} {unit}"))
        .collect();
    if shown.is_empty() {
        "0 min".into()
    } else {
        shown.join(" ")
    }
}

/// A coloured disc for a seat named after a colour; a plain hexagon otherwise.
fn swatch(name: &str) -> &'static str {
    let n = name.to_lowercase();
    let colours = [
        ("red", "🔴"),
        ("blue", "🔵"),
        ("green", "🟢"),
        ("yellow", "🟡"),
        ("orange", "🟠"),
        ("purple", "🟣"),
        ("violet", "🟣"),
        ("brown", "🟤"),
        ("black", "⚫"),
        ("white", "⚪"),
        ("silver", "⚪"),
    ];
    colours
        .iter()
        .find(|(c, _)| n.contains(c))
        .map_or("⬢", |(_, e)| e)
}

/// A Discord timestamp: each reader sees it in their own time zone, as "3 hours ago".
fn stamp(ms: i64) -> String {
    format!("<t:{}:R>", ms.div_euclid(1000))
}

/// The text cut to Discord's limit, on a character boundary, marked as cut.
fn fit(text: String) -> String {
    if text.chars().count() <= MAX_LEN {
        return text;
    }
    let mut cut: String = text.chars().take(MAX_LEN - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_panel_is_cut_to_discords_limit_on_a_character_boundary() {
        let long = "é".repeat(3000);
        let cut = fit(long);
        assert_eq!(cut.chars().count(), MAX_LEN);
        assert!(cut.ends_with('…'));
        assert_eq!(fit("short".into()), "short");
    }

    #[test]
    fn durations_show_their_two_largest_units() {
        assert_eq!(duration(0), "0 min");
        assert_eq!(duration(59_999), "0 min");
        assert_eq!(duration(90 * 60_000), "1 h 30 min");
        assert_eq!(duration((2 * 1440 + 4 * 60 + 7) * 60_000), "2 d 4 h");
        assert_eq!(duration(2 * 1440 * 60_000 + 7 * 60_000), "2 d");
        assert_eq!(duration(-5), "0 min");
    }

    #[test]
    fn seats_named_after_colours_get_their_colour() {
        assert_eq!(swatch("Red"), "🔴");
        assert_eq!(swatch("Silver"), "⚪");
        assert_eq!(swatch("Kingdom0"), "⬢");
    }
}
