//! `/hexmeros start`: open a lobby for the people named (issue 17, consent), or, when nobody but
//! the starter and bots play, create the game at once and post it in its thread. The lobby
//! itself, its buttons and its game's start are `lobby`'s.

use poise::CreateReply;
use poise::serenity_prelude as serenity;

use hexmeros::ai::Level;
use hexmeros::games::{GameKind, house_menu};
use hexmeros::host::{Actor, Effect, GameId, Lobby, LobbySpec, Opened, PlayerId, Timers};

use super::{Context, Error, GameChoice, is_admin, origin, player};
use crate::discord::{
    Data, inbound::activity, inbound::lobby, outbound::deliver, permissions, reply,
};

/// Start a game once everyone named has joined; seat order is colour order (Silver first).
#[poise::command(slash_command, guild_only)]
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
    #[description = "each player's time bank in hours, drained once the turn timer has run (default 0)"]
    bank_hours: Option<u32>,
    #[description = "hours added to a player's bank after each of their moves (default 0)"]
    bank_add_hours: Option<u32>,
    #[description = "days each player may be away in this game, in all (default 7)"]
    away_days: Option<u32>,
    #[description = "HexiMeros: keep score by the points table (default on)"] scored: Option<bool>,
    #[description = "computer players filling the seats after the people"] bots: Option<u8>,
    #[description = "the bots' level (default normal)"] level: Option<LevelChoice>,
    #[description = "leave the seats not named open for anyone here to join (default off)"]
    open: Option<bool>,
    #[description = "with open: how many seats in all (default: the game's most)"] seats: Option<
        u8,
    >,
) -> Result<(), Error> {
    let users: Vec<serenity::User> = [Some(p1), p2, p3, p4, p5, p6]
        .into_iter()
        .flatten()
        .collect();
    let open = open.unwrap_or(false);
    // From the options alone, before anything else: a lobby is answered privately (the lobby
    // message is the public part), a game started at once publicly, as before.
    let me_id = ctx.author().id;
    if open || users.iter().any(|u| u.id != me_id) {
        ctx.defer_ephemeral().await?;
    } else {
        ctx.defer().await?;
    }
    crate::discord::inbound::activity::command_acknowledged(ctx).await;
    // Rates and the active-games limit (issue 17), before anything is stored.
    super::admit_start(ctx, bots).await?;
    let data = ctx.data();
    let kind = game.map(GameChoice::kind).unwrap_or(GameKind::HexiMeros);
    let me = player(ctx).await?;
    let spec = LobbySpec {
        kind,
        starter: Actor {
            player: me,
            admin: is_admin(ctx),
        },
        people: people(data, &users).await?,
        bots: seat_bots(data, bots.unwrap_or(0).min(6), level).await?,
        open,
        seats: seats.map(usize::from),
        // The games say which of the chosen rules they have.
        house_rules: scored.and_then(|s| house_menu::chosen(kind, &[("scored", s.into())])),
        timers: timers(timer_hours, bank_hours, bank_add_hours, away_days),
        hours: data.lobby_hours,
        // The game's thread opens where the lobby was opened.
        origin: Some(deliver::origin_text(ctx.guild_id(), ctx.channel_id())),
    };
    match data.host.open_lobby(spec).await? {
        Opened::Started { game, fx } => started(ctx, kind, me, game, fx).await?,
        Opened::Waiting(l) => waiting(ctx, me, &l).await?,
    }
    Ok(())
}

/// A lobby opened: the starter's private answer first (it takes the place of the deferred
/// answer), then the lobby message, a public followup of its own, which Discord does not count
/// toward the bot's global limit (and, a new message, it pings the people invited).
async fn waiting(ctx: Context<'_>, me: PlayerId, l: &Lobby) -> Result<(), Error> {
    let text = match lacking(ctx).await {
        Some(note) => format!("{}\n\n{note}", l.opened_text()),
        None => l.opened_text(),
    };
    let private = CreateReply::default().content(text).ephemeral(true);
    if let Err(e) = ctx.send(private).await {
        // The lobby stands: its message is what the others need.
        tracing::warn!(lobby = l.id, error = %e, "the starter's answer failed");
    }
    let http = &ctx.serenity_context().http;
    let followup =
        |msg: CreateReply| async move { Ok(ctx.send(msg).await?.message().await?.into_owned()) };
    lobby::post(http, ctx.data(), l, origin(ctx, me), followup).await?;
    Ok(())
}

/// A game started at once: post it, answer the starter (publicly, as the game is), and tell
/// them privately what the bot lacks here.
async fn started(
    ctx: Context<'_>,
    kind: GameKind,
    me: PlayerId,
    game: GameId,
    fx: Vec<Effect>,
) -> Result<(), Error> {
    activity::note_game(ctx, game).await;
    // A bot in the first seat moves at once (`deliver` lets the bots play).
    let http = &ctx.serenity_context().http;
    let lines = deliver::deliver(http, ctx.data(), fx, origin(ctx, me)).await;
    let text = lobby::started(ctx.data(), kind, game, lines).await?;
    ctx.send(CreateReply::default().content(text)).await?;
    if let Some(note) = lacking(ctx).await {
        ctx.send(CreateReply::default().content(note).ephemeral(true))
            .await?;
    }
    Ok(())
}

/// What the bot lacks of what it uses in this channel, said to the starter (`None`: nothing,
/// or Discord did not say). Pin Messages is read from the server, since serenity drops it
/// from the interaction's permissions.
async fn lacking(ctx: Context<'_>) -> Option<String> {
    let poise::Context::Application(a) = ctx else {
        return None;
    };
    let mut have = a.interaction.app_permissions?.bits();
    let http = &ctx.serenity_context().http;
    let bot = ctx.framework().bot_id();
    let raw = permissions::raw_in_channel(http, ctx.guild_id()?, ctx.channel_id(), bot).await;
    // Not known: not warned of.
    if raw.is_none_or(|r| r & permissions::PIN_MESSAGES != 0) {
        have |= permissions::PIN_MESSAGES;
    }
    let note = permissions::warning(&permissions::missing(have));
    if let Some(n) = &note {
        tracing::info!(channel = ctx.channel_id().get(), note = %n, "the bot lacks permissions here");
    }
    note
}

/// The people named, as players (a bot user cannot take a seat).
async fn people(data: &Data, users: &[serenity::User]) -> Result<Vec<PlayerId>, Error> {
    let mut players = Vec::new();
    for u in users {
        if u.bot {
            return Err(reply::refused(format!(
                "{} is a bot and cannot take a seat",
                u.name
            )));
        }
        data.host
            .ensure_player(u.id.get() as PlayerId, u.display_name())
            .await?;
        players.push(u.id.get() as PlayerId);
    }
    Ok(players)
}

/// `n` seats for the bot of `level`.
async fn seat_bots(data: &Data, n: u8, level: Option<LevelChoice>) -> Result<Vec<PlayerId>, Error> {
    let level = match level.unwrap_or(LevelChoice::Normal) {
        LevelChoice::Easy => Level::Easy,
        LevelChoice::Normal => Level::Normal,
        LevelChoice::Hard => Level::Hard,
    };
    let mut bots = Vec::new();
    for _ in 0..n {
        bots.push(data.host.bot_player(level).await?);
    }
    Ok(bots)
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

/// The game's clocks from the start options: `None` when none was given (the defaults).
fn timers(
    turn: Option<u32>,
    bank: Option<u32>,
    add: Option<u32>,
    away_days: Option<u32>,
) -> Option<Timers> {
    if turn.is_none() && bank.is_none() && add.is_none() && away_days.is_none() {
        return None;
    }
    let d = Timers::default();
    Some(Timers {
        turn_timer_hours: turn.unwrap_or(d.turn_timer_hours),
        bank_hours: bank.unwrap_or(d.bank_hours),
        bank_add_hours: add.unwrap_or(d.bank_add_hours),
        away_hours: away_days.map_or(d.away_hours, |days| days.saturating_mul(24)),
        ..d
    })
}
