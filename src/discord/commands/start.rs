//! `/hexmeros start`: seat the people and the bots, create the game and post it in its thread.

use poise::CreateReply;
use poise::serenity_prelude as serenity;

use hexmeros::ai::Level;
use hexmeros::games::GameKind;
use hexmeros::host::{PlayerId, Timers};

use super::super::{activity, deliver, reply};
use super::{Context, Error, GameChoice, origin, player};

/// Start a game in a new thread; seat order is colour order (Silver first).
#[poise::command(slash_command)]
#[allow(clippy::too_many_arguments)]
pub(super) async fn start(
    ctx: Context<'_>,
    #[description = "first seat (Silver in HexiMeros)"] p1: serenity::User,
    #[description = "second seat"] p2: Option<serenity::User>,
    #[description = "third seat"] p3: Option<serenity::User>,
    #[description = "fourth seat"] p4: Option<serenity::User>,
    #[description = "fifth seat"] p5: Option<serenity::User>,
    #[description = "sixth seat"] p6: Option<serenity::User>,
    #[description = "the game (default HexiMeros)"] game: Option<GameChoice>,
    #[description = "hours without a move before the others may vote (0: off; default 24)"]
    timer_hours: Option<u32>,
    #[description = "HexiMeros: keep score by the points table (default on)"] scored: Option<bool>,
    #[description = "computer players filling the seats after the people"] bots: Option<u8>,
    #[description = "the bots' level (default normal)"] level: Option<LevelChoice>,
) -> Result<(), Error> {
    ctx.defer().await?;
    super::admit_start(ctx, bots).await?; // issue 17: rates and the active-games limit
    let data = ctx.data();
    let kind = game.map(GameChoice::kind).unwrap_or(GameKind::HexiMeros);
    let users: Vec<serenity::User> = [Some(p1), p2, p3, p4, p5, p6]
        .into_iter()
        .flatten()
        .collect();
    let mut players = Vec::new();
    for u in &users {
        if u.bot {
            return Err(reply::refused(format!(
                "{} is a bot and cannot take a seat",
                u.name
            )));
        }
        data.host
            .ensure_player(u.id.get() as PlayerId, &u.name)
            .await?;
        players.push(u.id.get() as PlayerId);
    }
    for _ in 0..bots.unwrap_or(0).min(6) {
        let level = match level.unwrap_or(LevelChoice::Normal) {
            LevelChoice::Easy => Level::Easy,
            LevelChoice::Normal => Level::Normal,
            LevelChoice::Hard => Level::Hard,
        };
        players.push(data.host.bot_player(level).await?);
    }
    let me = player(ctx).await?;
    let house = match (kind, scored) {
        (GameKind::HexiMeros, Some(s)) => Some(serde_json::json!({ "scored": s })),
        _ => None,
    };
    let timers = timer_hours.map(|h| Timers {
        turn_timer_hours: h,
        ..Timers::default()
    });
    let (id, fx) = data.host.create(kind, &players, house, timers).await?;
    activity::note_game(ctx, id).await;
    let lines = deliver::deliver(&ctx.serenity_context().http, data, fx, origin(ctx, me)).await;
    // A bot in the first seat moves at once.
    deliver::bots(&ctx.serenity_context().http, data, id);
    let place = match data.links.by_game(id).await? {
        Some(l) => format!(" in <#{}>", l.thread),
        None => String::new(),
    };
    let mut text = format!("{} #{id} started{place}", kind.name());
    for l in lines {
        text.push('\n');
        text.push_str(&l);
    }
    ctx.send(CreateReply::default().content(text)).await?;
    Ok(())
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum LevelChoice {
    #[name = "easy"]
    Easy,
    #[name = "normal"]
    Normal,
    #[name = "hard"]
    Hard,
}
