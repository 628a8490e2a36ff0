//! The slash commands: `/hexmeros …` and `/score`. Each one acknowledges the interaction first
//! (Discord's 3-second rule), parses its options, calls the host once and hands the effects to
//! `deliver`. Errors are answered privately by `on_error`; the host guarantees that a refused
//! command changed nothing.

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use serenity::{CreateAttachment, CreateAutocompleteResponse};

use hexmeros::ai::Level;
use hexmeros::games::{GameKind, Seat};
use hexmeros::host::{
    Actor, AdminAction, ChallengePref, Command, GameId, HostError, Motion, PlayerId, Refused,
    Timers,
};

use super::activity::{self, Outcome};
use super::deliver::{self, Origin};
use super::ids;
use super::picture;
use super::reply;
use super::{Context, Data, Error};

pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![hexmeros(), score()]
}

/// Answer any error privately; the state is unchanged whenever one is returned. A refusal
/// shows its sentence; an internal error an apology with the reference it is logged under.
pub async fn on_error(err: poise::FrameworkError<'_, Data, Error>) {
    match err {
        poise::FrameworkError::Command { error, ctx, .. } => {
            let span = activity::command_span(ctx).await;
            let (outcome, text) = span.in_scope(|| reply::report(&error));
            answer(ctx, outcome, text).await;
        }
        poise::FrameworkError::MissingUserPermissions { ctx, .. } => {
            let text = "⚠️ only members with the Manage Server permission may do that";
            answer(ctx, Outcome::Refused, text.to_string()).await;
        }
        poise::FrameworkError::ArgumentParse { error, ctx, .. } => {
            let text = format!("⚠️ I could not read that: {error}");
            answer(ctx, Outcome::Refused, text).await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!(error = %e, "error while handling an error");
            }
        }
    }
}

/// Send a failed command's private answer, then log its line.
async fn answer(ctx: Context<'_>, outcome: Outcome, text: String) {
    let reply = CreateReply::default().content(text).ephemeral(true);
    if let Err(e) = ctx.send(reply).await {
        tracing::warn!(
            user = ctx.author().id.get(),
            action = %ctx.command().qualified_name,
            error = %e,
            "cannot send an error reply"
        );
    }
    activity::command_finished(ctx, outcome).await;
}

/// The game an option names, else the game of the thread the command is used in, else the
/// caller's only game where it is their turn.
async fn game_for(ctx: Context<'_>, game: Option<i64>) -> Result<GameId, Error> {
    let game = resolve_game(
        ctx.data(),
        ctx.channel_id().get(),
        ctx.author().id.get(),
        game,
    )
    .await?;
    activity::note_game(ctx, game).await;
    Ok(game)
}

async fn resolve_game(
    data: &Data,
    channel: u64,
    user: u64,
    game: Option<i64>,
) -> Result<GameId, Error> {
    if let Some(g) = game {
        return Ok(g);
    }
    if let Some(link) = data.links.by_thread(channel).await? {
        return Ok(link.game);
    }
    let mine = data.host.my_turn(user as PlayerId).await?;
    match mine.as_slice() {
        [one] => Ok(one.id),
        [] => Err(reply::refused(
            "which game? use this in a game's thread, or give the game option",
        )),
        _ => Err(reply::refused(
            "it is your turn in several games: give the game option (see /hexmeros games)",
        )),
    }
}

/// The acting player, recorded with their name for leaderboards.
async fn player(ctx: Context<'_>) -> Result<PlayerId, Error> {
    let u = ctx.author();
    let id = u.id.get() as PlayerId;
    let data = ctx.data();
    data.host
        .store()
        .ensure_player(id, &u.name, data.host.now())
        .await?;
    Ok(id)
}

fn origin(ctx: Context<'_>, actor: PlayerId) -> Origin {
    Origin {
        channel: Some(ctx.channel_id()),
        guild: ctx.guild_id(),
        actor: Some(actor),
    }
}

async fn private(ctx: Context<'_>, text: impl Into<String>) -> Result<(), Error> {
    let text = text.into();
    let text = if text.trim().is_empty() {
        "done".to_string()
    } else {
        text
    };
    ctx.send(CreateReply::default().content(text).ephemeral(true))
        .await?;
    Ok(())
}

/// Run one host command for the caller and reply privately with what the host says to them.
async fn act(ctx: Context<'_>, game: Option<i64>, cmd: Command) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    let game = game_for(ctx, game).await?;
    let actor = Actor {
        player: me,
        admin: is_admin(ctx),
    };
    let fx = ctx.data().host.handle(game, actor, cmd, None).await?;
    let lines = deliver::deliver(
        &ctx.serenity_context().http,
        ctx.data(),
        fx,
        origin(ctx, me),
    )
    .await;
    private(ctx, lines.join("\n")).await
}

fn is_admin(ctx: Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(a) => a
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild()),
        poise::Context::Prefix(_) => false,
    }
}

/// The seat of a colour name in a game.
fn seat_named(state: &hexmeros::host::GameState, name: &str) -> Result<Seat, Error> {
    (0..state.seats().len() as u8)
        .map(Seat)
        .find(|&s| state.seat_name(s).eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| {
            let names: Vec<&str> = (0..state.seats().len() as u8)
                .map(|i| state.seat_name(Seat(i)))
                .collect();
            reply::refused(format!(
                "no seat called {name:?} (seats: {})",
                names.join(", ")
            ))
        })
}

fn seat_of_user(state: &hexmeros::host::GameState, user: &serenity::User) -> Result<Seat, Error> {
    state.seat_of(user.id.get() as PlayerId).ok_or_else(|| {
        reply::refused(format!(
            "{} is not playing in game #{}",
            user.name,
            state.id()
        ))
    })
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum GameChoice {
    #[name = "HexiMeros (6 players)"]
    HexiMeros,
    #[name = "HexDame (2)"]
    HexDame,
    #[name = "Hexmeister (2)"]
    Hexmeister,
    #[name = "HexaEquo (2)"]
    HexaEquo,
    #[name = "Harmegedo (2-6)"]
    Harmegedo,
}

impl GameChoice {
    fn kind(self) -> GameKind {
        match self {
            GameChoice::HexiMeros => GameKind::HexiMeros,
            GameChoice::HexDame => GameKind::HexDame,
            GameChoice::Hexmeister => GameKind::Hexmeister,
            GameChoice::HexaEquo => GameKind::HexaEquo,
            GameChoice::Harmegedo => GameKind::Harmegedo,
        }
    }
}

/// Hexagonal board games: start, move, vote, look at boards.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "start",
        "move_",
        "pass",
        "takeback",
        "check",
        "challenge",
        "prefer",
        "resign",
        "concede",
        "draw",
        "vote",
        "board",
        "history",
        "games",
        "notify",
        "admin"
    ),
    subcommand_required
)]
pub async fn hexmeros(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Start a game in a new thread; seat order is colour order (Silver first).
#[poise::command(slash_command)]
#[allow(clippy::too_many_arguments)]
async fn start(
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
    let data = ctx.data();
    let now = data.host.now();
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
            .store()
            .ensure_player(u.id.get() as PlayerId, &u.name, now)
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

/// The value of a (possibly nested) option of the interaction, as text.
fn option_text(options: &[serenity::CommandDataOption], name: &str) -> Option<String> {
    for o in options {
        match &o.value {
            serenity::CommandDataOptionValue::SubCommand(inner)
            | serenity::CommandDataOptionValue::SubCommandGroup(inner) => {
                if let Some(v) = option_text(inner, name) {
                    return Some(v);
                }
            }
            v if o.name == name => {
                return match v {
                    serenity::CommandDataOptionValue::String(s) => Some(s.clone()),
                    serenity::CommandDataOptionValue::Integer(i) => Some(i.to_string()),
                    serenity::CommandDataOptionValue::Autocomplete { value, .. } => {
                        Some(value.clone())
                    }
                    _ => None,
                };
            }
            _ => {}
        }
    }
    None
}

/// The legal moves the caller could stage now, or none when it is not their turn.
async fn my_moves(ctx: poise::ApplicationContext<'_, Data, Error>) -> Vec<String> {
    let i = ctx.interaction;
    let game = option_text(&i.data.options, "game").and_then(|g| g.parse().ok());
    let data = ctx.data();
    let Ok(game) = resolve_game(data, i.channel_id.get(), i.user.id.get(), game).await else {
        return Vec::new();
    };
    let Ok(state) = data.host.state(game).await else {
        return Vec::new();
    };
    if state.holder_player() != Some(i.user.id.get() as PlayerId) {
        return Vec::new();
    }
    state.position().legal_moves()
}

async fn ac_from(
    ctx: poise::ApplicationContext<'_, Data, Error>,
    partial: &str,
) -> CreateAutocompleteResponse {
    let moves = my_moves(ctx).await;
    let mut origins: Vec<&str> = moves.iter().map(|m| ids::origin(m)).collect();
    origins.dedup();
    origins.sort();
    origins.dedup();
    let p = partial.trim().to_ascii_lowercase();
    let choices = origins
        .into_iter()
        .filter(|o| o.to_ascii_lowercase().starts_with(&p))
        .take(25)
        .map(|o| serenity::AutocompleteChoice::new(o, o))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

async fn ac_to(
    ctx: poise::ApplicationContext<'_, Data, Error>,
    partial: &str,
) -> CreateAutocompleteResponse {
    let from = option_text(&ctx.interaction.data.options, "from").unwrap_or_default();
    let moves = my_moves(ctx).await;
    let p = partial.trim().to_ascii_lowercase();
    let choices = moves
        .iter()
        .filter(|m| from.is_empty() || ids::origin(m).eq_ignore_ascii_case(from.trim()))
        .filter(|m| m.to_ascii_lowercase().contains(&p))
        .take(25)
        .map(|m| serenity::AutocompleteChoice::new(m.as_str(), m.as_str()))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// Stage a move (a private preview); pass the Token with /hexmeros pass or pass:True.
#[poise::command(slash_command, rename = "move")]
async fn move_(
    ctx: Context<'_>,
    #[description = "the piece's cell (or the whole move, e.g. Q4-Q8)"]
    #[autocomplete = "ac_from"]
    from: String,
    #[description = "where to (a cell or a listed move)"]
    #[autocomplete = "ac_to"]
    to: Option<String>,
    #[description = "declare Check on this colour with the move"] check: Option<String>,
    #[description = "pass the Token at once"] pass: Option<bool>,
    #[description = "game number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    let game = game_for(ctx, game).await?;
    let from = from.trim();
    let mut text = match to.as_deref().map(str::trim) {
        Some(to) if ids::origin(to).eq_ignore_ascii_case(from) && to.len() > from.len() => {
            to.to_string()
        }
        Some(to) => format!("{from}-{to}"),
        None => from.to_string(),
    };
    if let Some(c) = check {
        text.push('+');
        text.push_str(c.trim());
    }
    let cmd = Command::Move {
        text,
        commit: pass.unwrap_or(false),
    };
    let data = ctx.data();
    let fx = data.host.handle(game, Actor::player(me), cmd, None).await?;
    let lines = deliver::deliver(&ctx.serenity_context().http, data, fx, origin(ctx, me)).await;
    let reply = super::events::staged_reply(data, game, me, lines).await?;
    ctx.send(reply.into_poise()).await?;
    Ok(())
}

/// Pass the Token: commit your staged move.
#[poise::command(slash_command)]
async fn pass(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Pass).await
}

/// Take your staged move back.
#[poise::command(slash_command)]
async fn takeback(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::TakeBack).await
}

/// Declare Check on a colour with your staged move.
#[poise::command(slash_command)]
async fn check(
    ctx: Context<'_>,
    #[description = "the colour whose Sovereign your move attacks"] colour: String,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    let g = game_for(ctx, game).await?;
    let state = ctx.data().host.state(g).await?;
    let seat = seat_named(&state, &colour)?;
    let fx = ctx
        .data()
        .host
        .handle(g, Actor::player(me), Command::Check { seat }, None)
        .await?;
    let lines = deliver::deliver(
        &ctx.serenity_context().http,
        ctx.data(),
        fx,
        origin(ctx, me),
    )
    .await;
    let reply = super::events::staged_reply(ctx.data(), g, me, lines).await?;
    ctx.send(reply.into_poise()).await?;
    Ok(())
}

/// Answer a challenge window: declare Check upon the mover, or let the move stand.
#[poise::command(slash_command)]
async fn challenge(
    ctx: Context<'_>,
    #[description = "true: declare Check upon the mover"] declare: bool,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Challenge { declare }).await
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

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum PrefChoice {
    #[name = "ask me each time"]
    Ask,
    #[name = "always declare"]
    Always,
    #[name = "never declare"]
    Never,
}

/// Your standing answer to challenge windows.
#[poise::command(slash_command)]
async fn prefer(
    ctx: Context<'_>,
    #[description = "what to answer"] answer: PrefChoice,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    let pref = match answer {
        PrefChoice::Ask => ChallengePref::Ask,
        PrefChoice::Always => ChallengePref::AlwaysDeclare,
        PrefChoice::Never => ChallengePref::NeverDeclare,
    };
    act(ctx, game, Command::Prefer(pref)).await
}

/// Resign; naming a replacement opens a vote on them.
#[poise::command(slash_command)]
async fn resign(
    ctx: Context<'_>,
    #[description = "who takes over your seat (the others vote)"] replacement: Option<
        serenity::User,
    >,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    if let Some(u) = &replacement {
        ctx.data()
            .host
            .store()
            .ensure_player(u.id.get() as PlayerId, &u.name, ctx.data().host.now())
            .await?;
    }
    let replacement = replacement.map(|u| u.id.get() as PlayerId);
    act(ctx, game, Command::Resign { replacement }).await
}

/// Concede (only between the last two).
#[poise::command(slash_command)]
async fn concede(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Concede).await
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum DrawChoice {
    #[name = "offer"]
    Offer,
    #[name = "accept"]
    Accept,
}

/// Offer or accept a draw (with three or more players: a vote to abandon as a draw).
#[poise::command(slash_command)]
async fn draw(
    ctx: Context<'_>,
    #[description = "offer or accept"] action: DrawChoice,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    let cmd = match action {
        DrawChoice::Offer => Command::Propose(Motion::Draw),
        DrawChoice::Accept => Command::Vote {
            motion: None,
            yes: true,
        },
    };
    act(ctx, game, cmd).await
}

/// Votes: house rules, expulsion, skipping or replacing a player, yes/no on a motion.
#[poise::command(
    slash_command,
    subcommands("house_rule", "expel", "skip", "replace", "yes", "no"),
    subcommand_required
)]
async fn vote(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Propose a house rule before the first Token pass (value: JSON or a word).
#[poise::command(slash_command, rename = "house-rule")]
async fn house_rule(
    ctx: Context<'_>,
    #[description = "the rule's key (see rules/heximeros.md), e.g. archer, scored"] key: String,
    #[description = "its value, e.g. fly_over, false, 12"] value: String,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    // Bare words are strings: `archer fly_over`.
    let value = serde_json::from_str(value.trim())
        .unwrap_or_else(|_| serde_json::Value::String(value.trim().to_string()));
    let cmd = Command::Propose(Motion::HouseRule {
        key: key.trim().to_string(),
        value,
    });
    act(ctx, game, cmd).await
}

/// Seat-naming motions need the game's state to turn a user into a seat.
async fn seat_motion(
    ctx: Context<'_>,
    game: Option<i64>,
    user: &serenity::User,
    make: impl FnOnce(Seat) -> Motion,
) -> Result<(), Error> {
    let g = game_for(ctx, game).await?;
    let state = ctx.data().host.state(g).await?;
    let seat = seat_of_user(&state, user)?;
    act(ctx, Some(g), Command::Propose(make(seat))).await
}

/// Propose to expel a player (unanimous; −500 when scored).
#[poise::command(slash_command)]
async fn expel(
    ctx: Context<'_>,
    #[description = "the player"] player: serenity::User,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    seat_motion(ctx, game, &player, |seat| Motion::Expel { seat }).await
}

/// Propose to pass a stalled player's Token without a move.
#[poise::command(slash_command)]
async fn skip(
    ctx: Context<'_>,
    #[description = "the stalled player"] player: serenity::User,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    seat_motion(ctx, game, &player, |seat| Motion::Skip { seat }).await
}

/// Propose that someone takes over a player's seat.
#[poise::command(slash_command)]
async fn replace(
    ctx: Context<'_>,
    #[description = "the player to replace"] player: serenity::User,
    #[description = "who takes over"] by: serenity::User,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.data()
        .host
        .store()
        .ensure_player(by.id.get() as PlayerId, &by.name, ctx.data().host.now())
        .await?;
    let newcomer = by.id.get() as PlayerId;
    seat_motion(ctx, game, &player, move |seat| Motion::Replace {
        seat,
        player: newcomer,
    })
    .await
}

/// Vote yes on an open motion.
#[poise::command(slash_command)]
async fn yes(
    ctx: Context<'_>,
    #[description = "motion number (default: the one open to you)"] motion: Option<u64>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Vote { motion, yes: true }).await
}

/// Vote no on an open motion.
#[poise::command(slash_command)]
async fn no(
    ctx: Context<'_>,
    #[description = "motion number (default: the one open to you)"] motion: Option<u64>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Vote { motion, yes: false }).await
}

/// Show the board privately, from any colour's side.
#[poise::command(slash_command)]
async fn board(
    ctx: Context<'_>,
    #[description = "the colour whose side to look from (default: yours)"]
    #[rename = "as"]
    as_: Option<String>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let g = game_for(ctx, game).await?;
    let state = ctx.data().host.state(g).await?;
    let viewer = match as_ {
        Some(c) => Some(seat_named(&state, &c)?),
        None => state
            .seat_of(ctx.author().id.get() as PlayerId)
            .or(state.holder()),
    };
    let caption = match viewer {
        Some(s) => format!(
            "{} from {}'s side",
            deliver::title(&state),
            state.seat_name(s)
        ),
        None => deliver::title(&state),
    };
    let pic = picture::board(&state, viewer).await;
    ctx.send(super::events::picture_reply(caption, pic).into_poise())
        .await?;
    Ok(())
}

/// The game's record as a file (the replay text `hexmeros import` reads).
#[poise::command(slash_command)]
async fn history(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let g = game_for(ctx, game).await?;
    let text = ctx.data().host.export(g).await?;
    let moves = ctx.data().host.state(g).await?.record().len();
    ctx.send(
        CreateReply::default()
            .content(format!("game #{g}: {moves} moves"))
            .attachment(CreateAttachment::bytes(
                text.into_bytes(),
                format!("hexmeros-{g}.txt"),
            ))
            .ephemeral(true),
    )
    .await?;
    Ok(())
}

/// Games where it is your turn.
#[poise::command(slash_command)]
async fn games(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    let data = ctx.data();
    let mut lines = Vec::new();
    for g in data.host.my_turn(me).await? {
        let name = GameKind::from_key(&g.kind).map(|k| k.name()).unwrap_or("?");
        let place = match data.links.by_game(g.id).await? {
            Some(l) => format!(" — <#{}>", l.thread),
            None => String::new(),
        };
        lines.push(format!("{name} #{}{place}", g.id));
    }
    if lines.is_empty() {
        lines.push("it is not your turn in any game".into());
    } else {
        lines.insert(0, "your turn in:".into());
    }
    private(ctx, lines.join("\n")).await
}

/// Reminders by direct message (off by default).
#[poise::command(slash_command)]
async fn notify(
    ctx: Context<'_>,
    #[description = "send turn reminders to me by DM"] dm: bool,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    ctx.data()
        .links
        .set_dm_opt_in(ctx.author().id.get(), dm)
        .await?;
    private(
        ctx,
        if dm {
            "turn reminders will also come by direct message"
        } else {
            "no more reminders by direct message"
        },
    )
    .await
}

/// Server admin: abort, pause or resume a game (Manage Server).
#[poise::command(
    slash_command,
    subcommands("abort", "pause", "resume"),
    subcommand_required,
    required_permissions = "MANAGE_GUILD"
)]
async fn admin(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Abort a game for good.
#[poise::command(slash_command, required_permissions = "MANAGE_GUILD")]
async fn abort(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Admin(AdminAction::Abort)).await
}

/// Pause a game's timers and moves.
#[poise::command(slash_command, required_permissions = "MANAGE_GUILD")]
async fn pause(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Admin(AdminAction::Pause)).await
}

/// Resume a paused game.
#[poise::command(slash_command, required_permissions = "MANAGE_GUILD")]
async fn resume(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Admin(AdminAction::Resume)).await
}

/// Leaderboards: HexiMeros points and skill ratings.
#[poise::command(slash_command)]
async fn score(
    ctx: Context<'_>,
    #[description = "one game (default: all)"] game: Option<GameChoice>,
) -> Result<(), Error> {
    ctx.defer().await?;
    let kind = game.map(GameChoice::kind);
    let host = &ctx.data().host;
    let mut text = format!(
        "**Leaderboard — {}**\n",
        kind.map(|k| k.name()).unwrap_or("all games")
    );
    let standings = host.leaderboard(kind).await?;
    if standings.is_empty() {
        text.push_str("no scored games yet\n");
    }
    for (i, s) in standings.iter().take(20).enumerate() {
        text.push_str(&format!(
            "{}. {} — {} points ({} games)\n",
            i + 1,
            s.name,
            s.points,
            s.games
        ));
    }
    let ratings = host.ratings(kind).await?;
    if !ratings.is_empty() {
        text.push_str("**Ratings**\n");
        for (i, r) in ratings.iter().take(20).enumerate() {
            text.push_str(&format!(
                "{}. {} — {:.1} ({} games)\n",
                i + 1,
                r.name,
                r.shown(),
                r.games
            ));
        }
    }
    ctx.send(
        CreateReply::default()
            .content(text)
            .allowed_mentions(serenity::CreateAllowedMentions::new()),
    )
    .await?;
    Ok(())
}

// `HostError` is re-exported for the component handler's messages.
pub fn not_your_turn(state: &hexmeros::host::GameState, me: PlayerId) -> Option<HostError> {
    match (state.seat_of(me), state.holder()) {
        (None, _) => Some(Refused::NotSeated.into()),
        (Some(s), Some(h)) if s == h && state.holder_player() == Some(me) => None,
        (Some(_), Some(h)) => Some(
            Refused::NotYourTurn {
                holder: state.seat_name(h).to_string(),
            }
            .into(),
        ),
        (Some(_), None) => Some(Refused::GameOver.into()),
    }
}
