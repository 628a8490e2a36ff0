//! `/hexmeros away`: stop your clocks in all your games for a while (issue 22), or come back.

use hexmeros::host::{AWAY_MAX, AwayGame, AwayReport};

use super::{Context, Error, origin, player, private};
use crate::discord::inbound::mine;
use crate::discord::{outbound::deliver, reply};

/// Away for a while: your clocks and reminders stop in all your games (or come back early)
#[poise::command(slash_command)]
pub(super) async fn away(
    ctx: Context<'_>,
    #[description = "how long, e.g. 3d, 12h, 2days 6h (none: show where you are away)"]
    duration: Option<String>,
    #[description = "a word for the others (shown on the status panel)"] reason: Option<String>,
    #[description = "come back now in all your games"] back: Option<bool>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    let host = &ctx.data().host;
    let back = back.unwrap_or(false);
    let report = match (duration, back) {
        (Some(_), true) => {
            return Err(reply::refused(
                "give a duration to go away or back:True to come back, not both",
            ));
        }
        (None, false) => {
            if reason.is_some() {
                return Err(reply::refused("a reason goes with a duration (e.g. 3d)"));
            }
            let games = host.away_status(me).await?;
            return private(ctx, status_text(&games)).await;
        }
        (None, true) => {
            ctx.data().limits.away(me)?;
            host.back(me).await?
        }
        (Some(d), false) => {
            let ms = parse_duration(&d)?;
            ctx.data().limits.away(me)?;
            // Not in the games of a server the player has left (or was banned from): what
            // they write is never posted there.
            let seated: Vec<_> = host.seated(me).await?.iter().map(|s| s.id).collect();
            let http = &ctx.serenity_context().http;
            let left =
                mine::left_behind(http, ctx.data(), ctx.author().id, ctx.guild_id(), &seated)
                    .await?;
            host.away(me, ms, reason.as_deref(), &left).await?
        }
    };
    let AwayReport { games, effects } = report;
    let http = &ctx.serenity_context().http;
    let mut lines = deliver::deliver(http, ctx.data(), effects, origin(ctx, me)).await;
    lines.insert(0, report_text(&games, back));
    private(ctx, lines.join("\n")).await
}

/// `3d`, `12h`, `2days 6h`, `90min`: a length of time, at most [`AWAY_MAX`].
fn parse_duration(text: &str) -> Result<i64, Error> {
    let bad = || {
        reply::refused(format!(
            "{:?} is not a length of time: write e.g. 3d, 12h or 2days 6h (at most {} days)",
            reply::clip(text),
            AWAY_MAX / 86_400_000
        ))
    };
    let d = humantime::parse_duration(text.trim()).map_err(|_| bad())?;
    let ms = i64::try_from(d.as_millis()).map_err(|_| bad())?;
    if ms <= 0 || ms > AWAY_MAX {
        return Err(bad());
    }
    Ok(ms)
}

fn stamp(ms: i64) -> String {
    format!("<t:{}:f>", ms.div_euclid(1000))
}

fn hours(ms: i64) -> i64 {
    ms / 3_600_000
}

fn status_text(games: &[AwayGame]) -> String {
    if games.is_empty() {
        return "you play in no game under way".into();
    }
    let mut lines = vec!["Your games (away with /hexmeros away duration:3d):".to_string()];
    for g in games {
        let now = match g.until {
            Some(u) => format!("away until {}", stamp(u)),
            None => "here".into(),
        };
        lines.push(format!(
            "• #{} {}: {now}; {} hours of away time left",
            g.game,
            g.kind,
            hours(g.left)
        ));
    }
    lines.join("\n")
}

fn report_text(games: &[AwayGame], back: bool) -> String {
    if games.is_empty() {
        return if back {
            "you were not away in any game".into()
        } else {
            "you play in no game under way: nothing to stop".into()
        };
    }
    let lines: Vec<String> = games
        .iter()
        .map(|g| match (&g.refused, g.until) {
            (Some(why), _) => format!("• #{} {}: not changed: {why}", g.game, g.kind),
            (None, Some(u)) => format!(
                "• #{} {}: away until {} ({} hours of away time left after that)",
                g.game,
                g.kind,
                stamp(u),
                hours(g.left)
            ),
            (None, None) => format!("• #{} {}: back", g.game, g.kind),
        })
        .collect();
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_read_in_human_units_and_bounded() {
        assert_eq!(parse_duration("3d").ok(), Some(3 * 86_400_000));
        assert_eq!(parse_duration(" 12h ").ok(), Some(12 * 3_600_000));
        assert_eq!(
            parse_duration("2days 6h").ok(),
            Some(2 * 86_400_000 + 6 * 3_600_000)
        );
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("31d").is_err());
        assert!(parse_duration("").is_err());
    }
}
