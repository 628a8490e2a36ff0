//! `/hexmeros settings` (issue 22): a person's time zone and quiet hours, whatever game or
//! channel it is used in. In their quiet hours the turn messages and pings that mention them go
//! out silently (`deliver`). The time zone option suggests IANA names as they are typed.

use poise::serenity_prelude as serenity;
use serenity::CreateAutocompleteResponse;

use hexmeros::host::quiet::{self, local_clock};
use hexmeros::host::{Millis, PlayerSettings, SettingsChange};

use super::{Context, player, private};
use crate::discord::{Data, Error};

/// Your time zone, quiet hours (pings in them are silent) and how the picker commits; none shows them
#[poise::command(slash_command)]
pub(super) async fn settings(
    ctx: Context<'_>,
    #[description = "your time zone, e.g. Europe/Berlin"]
    #[autocomplete = "ac_zone"]
    time_zone: Option<String>,
    #[description = "quiet hours start, HH:MM your time (e.g. 22:30)"] quiet_from: Option<String>,
    #[description = "quiet hours end, HH:MM your time (e.g. 07:00)"] quiet_to: Option<String>,
    #[description = "commit a move as soon as you pick its target in the picker (no Pass step)"]
    commit_on_pick: Option<bool>,
    #[description = "forget all your settings (your /hexmeros notify choices too)"] clear: Option<
        bool,
    >,
    #[description = "erase all the bot keeps about you: settings, notes, ratings, DMs (games stay)"]
    forget_me: Option<bool>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    if forget_me == Some(true) {
        let f = ctx.data().host.forget_player(me).await?;
        let text = format!(
            "🗑️ forgotten: your settings and notification choices, your DM state, {} private \
             notes, your ratings ({}) and {} direct messages are erased, and the games you \
             played show you as \"{}\". Those games stay: they are the other players' records \
             too. Using the bot again stores your name and what you then choose.",
            f.notes,
            f.ratings,
            f.messages,
            hexmeros::store::FORGOTTEN_NAME
        );
        return private(ctx, text).await;
    }
    let change = SettingsChange {
        digest: None,
        time_zone,
        quiet_from,
        quiet_to,
        commit_on_pick,
        turn_dm: None,
        nudge: None,
        clear: clear.unwrap_or(false),
    };
    let host = &ctx.data().host;
    let head = if change.clear {
        "your settings are forgotten, your /hexmeros notify choices with them"
    } else if change == SettingsChange::default() {
        "your settings"
    } else {
        "saved"
    };
    let now = host.set_settings(me, &change).await?;
    private(ctx, format!("{head}\n{}", describe(&now, host.now()))).await
}

/// What a player's settings are, at `now`: the zone with the local time, the quiet hours with
/// the window now or next as Discord timestamps (each reader sees them in their own time).
pub fn describe(s: &PlayerSettings, now: Millis) -> String {
    let secs = |t: Millis| t.div_euclid(1000);
    let zone = match s.zone {
        Some(z) => format!(
            "🌍 time zone: {} (your time now: {})",
            z.name(),
            local_clock(z, now)
        ),
        None => "🌍 time zone: not set (time_zone: e.g. Europe/Berlin)".to_string(),
    };
    let quiet = match (s.quiet(), s.window) {
        (Some(q), Some((from, to))) => {
            let when = match q.window_from(now) {
                Some((start, end)) if start <= now => {
                    format!("quiet now, until <t:{}:t> (<t:{}:R>)", secs(end), secs(end))
                }
                Some((start, end)) => {
                    format!("next from <t:{}:f> until <t:{}:t>", secs(start), secs(end))
                }
                None => "no quiet window in the days ahead".to_string(),
            };
            format!("🌙 quiet hours: {from}–{to} your time, pings in them are silent; {when}")
        }
        _ => "🌙 quiet hours: none (quiet_from and quiet_to: e.g. 22:30 and 07:00)".to_string(),
    };
    let commit = if s.commit_on_pick {
        "⚡ commit on pick: on — the picker passes the Token as soon as you pick a target \
         (commit_on_pick: False to have a Pass step)"
    } else {
        "⚡ commit on pick: off — the picker shows your move before you pass the Token \
         (commit_on_pick: True to skip that step)"
    };
    let mut lines = vec![zone, quiet, commit.to_string()];
    if let Some(at) = s.digest {
        lines.push(format!(
            "📬 a daily digest at {at} your time, after your quiet hours if they hold it \
             (/hexmeros notify digest: off to stop)"
        ));
    }
    lines.join("\n")
}

/// IANA zone names containing what was typed, at most 25 (Discord's limit).
pub(super) async fn ac_zone(
    _ctx: poise::ApplicationContext<'_, Data, Error>,
    partial: &str,
) -> CreateAutocompleteResponse {
    let choices = quiet::matching_zones(partial, 25)
        .into_iter()
        .map(|z| serenity::AutocompleteChoice::new(z, z))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}
