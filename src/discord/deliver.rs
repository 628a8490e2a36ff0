//! Carrying out the host's effects on Discord: threads, turn messages with their buttons and
//! reactions, pings, challenge questions, ballots, direct messages; and the timer task. Requests
//! go out through `wire` (retries, timeouts, nonces), so that nothing the host decided is lost
//! when Discord hiccups; players are named through `names`.

use std::collections::BTreeSet;
use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::{
    ChannelId, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateMessage, GuildId, Http, MessageId, ReactionType, UserId,
};

use hexmeros::background::{self, Work};
use hexmeros::games::Seat;
use hexmeros::host::Delivery;
use hexmeros::host::{Effect, GameId, GameState, Pinged, PlayerId, Status, is_reply};
use hexmeros::view::picker::{self, Piece};

use super::Data;
use super::ids::{Action, ComponentId, Proposal};
use super::names::{discord_user, mention, pinging, quiet_for, title, with_names};
use super::picture::{self, Picture};
use super::post::{Outcome, nonce_of, to_game};
use super::wire::{fresh_nonce, http_status};

/// Where a batch of effects comes from: the channel a command was used in (new threads open
/// there) and the player whose private replies are returned rather than sent.
#[derive(Clone, Copy, Debug, Default)]
pub struct Origin {
    pub channel: Option<ChannelId>,
    pub guild: Option<GuildId>,
    pub actor: Option<PlayerId>,
}

/// Attach a board picture to a message: a PNG file, or text in a code block (a file when long).
pub fn with_picture(msg: CreateMessage, content: String, pic: Picture) -> CreateMessage {
    match pic {
        Picture::Png { full, focus } => msg
            .content(content)
            .add_files(picture::picture_files(full, focus)),
        Picture::Text(t) if t.len() + content.len() < 1900 => {
            msg.content(format!("{content}\n```\n{t}\n```"))
        }
        Picture::Text(t) => msg
            .content(content)
            .add_file(CreateAttachment::bytes(t.into_bytes(), "board.txt")),
    }
}

/// The web board's door on a turn message: the Activity (launched in the thread) when the bot
/// runs one, else a spectator's link to the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardButton {
    Link(String),
    Activity,
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
pub fn turn_buttons(
    game: GameId,
    version: u64,
    pieces: &[Piece],
    board: Option<BoardButton>,
) -> Vec<CreateActionRow> {
    let id = |a| ComponentId::new(game, version, a).encode();
    let mut buttons: Vec<CreateButton> = Vec::new();
    // The board's link takes a piece's place: Discord allows 25 buttons a message.
    let room = TURN_PIECE_BUTTONS - usize::from(board.is_some());
    if pieces.len() <= room {
        buttons.extend(pieces.iter().enumerate().map(|(i, p)| {
            let piece = u16::try_from(i).unwrap_or(u16::MAX);
            CreateButton::new(id(Action::OpenPiece { piece }))
                .label(p.button())
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
    match board {
        Some(BoardButton::Link(url)) => {
            buttons.push(CreateButton::new_link(url).label("Open the board"));
        }
        Some(BoardButton::Activity) => buttons.push(
            CreateButton::new(id(Action::Play))
                .label("Play on the board")
                .style(serenity::ButtonStyle::Success),
        ),
        None => {}
    }
    buttons
        .chunks(5)
        .map(|row| CreateActionRow::Buttons(row.to_vec()))
        .collect()
}

/// Carry out a batch of effects: the host has written them to the outbox with their event; the
/// lanes they belong to are delivered now, so the player's answer follows the board. Returns the
/// private texts meant for `origin.actor`, which the caller sends as its ephemeral reply.
pub async fn deliver(
    http: &Arc<Http>,
    data: &Data,
    fx: Vec<Effect>,
    origin: Origin,
) -> Vec<String> {
    let mut private = Vec::new();
    let mut games = BTreeSet::new();
    let mut lanes = BTreeSet::new();
    for e in fx {
        games.extend(e.game());
        if is_reply(&e, origin.actor) {
            if let Effect::Private { text, .. } = &e {
                private.push(with_names(data, text).await);
            }
            continue;
        }
        lanes.insert(e.lane());
    }
    let mut left = false;
    for lane in &lanes {
        left |= !data.outbox.drain(http, data, lane).await;
    }
    // Whatever is left (a lane waiting after a failure) is the background task's.
    if left {
        data.outbox.wake();
    }
    // Bots act after a person: in their own task, so the person's reply does not wait for them.
    if origin.actor.is_some() {
        for g in games {
            bots(http, data, g);
        }
    }
    private
}
/// Let the game's bots play until a person must act, one action the table is told of at a time:
/// each is delivered before the next is made (the host makes none while the game's lane holds
/// anything undelivered), so bots play no faster than the thread shows their moves. If the lane
/// cannot be delivered now, the deliverer calls this again once it has delivered it. Each
/// action takes a place in the bot queue; when the queue is full the game is left to the timers:
/// a game waiting on a bot is due at once, so the next tick drives its bots (no bot turn is
/// lost, and the queue does not grow).
pub fn bots(http: &Arc<Http>, data: &Data, game: GameId) {
    let http = http.clone();
    let data = data.clone();
    tokio::spawn(async move {
        loop {
            let Some(slot) = data.limits.bot_slot() else {
                tracing::info!(
                    game,
                    "the bot queue is full; the timers will drive this game's bots"
                );
                return;
            };
            let fx = match data.host.bot_turns(game).await {
                Ok(fx) => fx,
                Err(e) => {
                    tracing::error!(game, error = %e, "bots failed");
                    return;
                }
            };
            drop(slot);
            if fx.is_empty() {
                return;
            }
            Box::pin(deliver(&http, &data, fx, Origin::default())).await;
        }
    });
}

/// Where a front end started a game (`guild/channel`, as `origin_text` writes it).
fn parse_origin(text: &str) -> Option<(Option<GuildId>, ChannelId)> {
    let (guild, channel) = text.split_once('/')?;
    let channel = channel.parse::<u64>().ok().filter(|&c| c != 0)?;
    let guild = match guild {
        "" => None,
        g => Some(GuildId::new(g.parse::<u64>().ok().filter(|&g| g != 0)?)),
    };
    Some((guild, ChannelId::new(channel)))
}

/// How a game's starting place is kept with the game (see `parse_origin`).
pub fn origin_text(guild: Option<GuildId>, channel: ChannelId) -> String {
    match guild {
        Some(g) => format!("{g}/{channel}"),
        None => format!("/{channel}"),
    }
}

/// Deliver one outbox entry. Boards, ballots and stall notices are drawn from the game as it was
/// at the entry's version, so an entry delivered late shows what it was made for.
pub async fn entry(
    http: &Arc<Http>,
    data: &Data,
    entry: &Delivery,
    effect: Effect,
) -> anyhow::Result<Outcome> {
    let nonce = nonce_of(entry, 0);
    let version = entry.version.map(|v| v as u64);
    match effect {
        Effect::OpenThread { game, title } => open_thread(http, data, entry, game, &title).await,
        Effect::CloseThread { game } => super::finish::close(http, data, entry, game).await,
        Effect::Board {
            game,
            caption,
            ping,
            ..
        } => {
            let state = match version {
                Some(v) => data.host.state_at(game, v).await?,
                None => data.host.state(game).await?,
            };
            post_turn(http, data, entry, &state, &caption, ping).await
        }
        Effect::Panel { game } => super::panel::update(http, data, entry, game).await,
        Effect::Say { game, text } => {
            let msg = say(data, &text).await;
            to_game(http, data, entry, game, msg).await
        }
        Effect::Ping { game, player, text } => {
            let msg = ping(data, player, &text).await;
            to_game(http, data, entry, game, msg).await
        }
        Effect::AskChallenge {
            game,
            player,
            version,
            text,
        } => {
            let msg = ask_challenge(data, game, player, version, &text).await;
            to_game(http, data, entry, game, msg).await
        }
        // A private text for someone other than the actor goes by DM, as a DM does.
        Effect::Private { player, text } | Effect::Dm { player, text } => {
            let text = with_names(data, &text).await;
            dm(
                http,
                data,
                player,
                CreateMessage::new().content(text),
                true,
                nonce,
            )
            .await
        }
        Effect::Ballot {
            game,
            motion,
            text,
            voters,
        } => {
            let state = data.host.state(game).await?;
            match ballot(data, &state, motion, &text, &voters).await {
                Some(msg) => to_game(http, data, entry, game, msg).await,
                None => Ok(Outcome::Dropped(format!("motion #{motion} is settled"))),
            }
        }
        Effect::Stalled { game, seat, turn } => {
            let state = data.host.state(game).await?;
            match stalled(data, &state, seat, turn).await {
                Some(msg) => to_game(http, data, entry, game, msg).await,
                None => Ok(Outcome::Dropped("no longer stalled".into())),
            }
        }
        Effect::Replay { game } => match replay(data, game).await? {
            Some(msg) => to_game(http, data, entry, game, msg).await,
            None => Ok(Outcome::Dropped("no replay picture".into())),
        },
        Effect::Results { game } => super::finish::results(http, data, entry, game).await,
    }
}

/// Words for the game's thread, its players named (in passing: not pinged).
async fn say(data: &Data, text: &str) -> CreateMessage {
    let text = with_names(data, text).await;
    CreateMessage::new()
        .content(text)
        .allowed_mentions(CreateAllowedMentions::new())
}

/// A ping of `player` in the game's thread (silent in their quiet hours).
async fn ping(data: &Data, player: PlayerId, text: &str) -> CreateMessage {
    let who = mention(data, player).await;
    let text = with_names(data, text).await;
    let msg = CreateMessage::new()
        .content(format!("{who} {text}"))
        .allowed_mentions(pinging(&[player]));
    quiet_for(data, player, msg).await
}

/// The finished game's replay GIF, if it can be drawn now.
async fn replay(data: &Data, game: GameId) -> anyhow::Result<Option<CreateMessage>> {
    let state = data.host.state(game).await?;
    let export = data.host.export(game).await?;
    Ok(picture::replay(&data.limits, export).await.map(|gif| {
        CreateMessage::new()
            .content(format!("{}: the replay", title(&state)))
            .add_file(CreateAttachment::bytes(gif, format!("hexmeros-{game}.gif")))
    }))
}

/// Discord refused an entry for lack of access: tell the game's server once, in the channel it
/// was started in (the thread is what cannot be reached), how to fix it.
pub async fn tell_blocked(http: &Http, data: &Data, entry: &Delivery, err: &anyhow::Error) {
    let Some(game) = entry.game else {
        return;
    };
    let Ok(Some(link)) = data.links.by_game(game).await else {
        return;
    };
    if !matches!(
        data.links.claim_access_warning(game, data.host.now()).await,
        Ok(true)
    ) {
        return;
    }
    let text = format!(
        "I cannot post in <#{}> (game #{game}): Discord says {}. Give me View Channel, Send \
         Messages and Send Messages in Threads there; the game's messages wait and go out as \
         soon as I can.",
        link.thread,
        err.root_cause()
    );
    let msg = CreateMessage::new()
        .content(text)
        .allowed_mentions(CreateAllowedMentions::new());
    if let Err(e) = data
        .wire
        .send_with(http, ChannelId::new(link.parent), msg, nonce_of(entry, 2))
        .await
    {
        tracing::warn!(game, error = %e, "cannot tell the server that access is missing");
    }
}

/// Open the game's thread in the channel the game was started in, and link the two. Without the
/// permission to open threads, the game lives in the channel itself. A thread already linked (a
/// retry after a crash) is not opened twice.
async fn open_thread(
    http: &Http,
    data: &Data,
    entry: &Delivery,
    game: GameId,
    title: &str,
) -> anyhow::Result<Outcome> {
    if data.links.by_game(game).await?.is_some() {
        return Ok(Outcome::Sent(None));
    }
    let origin = data.host.origin(game).await?;
    let Some((guild, parent)) = origin.as_deref().and_then(parse_origin) else {
        return Ok(Outcome::Dropped(
            "the game was not started in a channel".into(),
        ));
    };
    let body = serde_json::json!({
        "name": title,
        "type": 11, // a public thread
        "auto_archive_duration": 10080,
    });
    // Thread creation carries no nonce: when an attempt's answer was lost (a 5xx after Discord
    // opened it, a dropped connection, a crash), the thread may exist already. An attempt that
    // may have been made before (a retry, or an entry a process tried before it died) looks for
    // it first (its title names the game, so it is unique); a first attempt asks for nothing but
    // the thread, as a server's list of active threads is long where many games are played.
    let tried_before = entry.tried_at.is_some();
    data.host.outbox_trying(entry.id).await?;
    let body = &body;
    let mut attempt = 0;
    let thread = match data
        .wire
        .retry("opening a thread", || {
            attempt += 1;
            let look = tried_before || attempt > 1;
            async move {
                if let (Some(g), true) = (guild, look) {
                    let active = http.get_guild_active_threads(g).await?;
                    if let Some(t) = active
                        .threads
                        .iter()
                        .find(|t| t.parent_id == Some(parent) && t.name == title)
                    {
                        return Ok(t.id);
                    }
                }
                http.create_thread(parent, body, None).await.map(|t| t.id)
            }
        })
        .await
    {
        Ok(t) => t,
        Err(err) if matches!(http_status(&err), Some((403, _))) => {
            tracing::warn!(game, error = %err, "no thread; the game uses the channel");
            parent
        }
        Err(err) => return Err(err.into()),
    };
    data.links
        .insert(game, guild.map(|g| g.get()), parent.get(), thread.get())
        .await?;
    data.host
        .set_channel(game, &thread.get().to_string())
        .await?;
    Ok(Outcome::Sent(None))
}

/// The question to a player in a challenge window, with buttons, and the picture of what is
/// challenged: the board from the asked player's side with the staged move drawn as a preview
/// (the game as it was when the window opened, `version`). The text names the move, its mover
/// (whose Sovereign is attacked) and the asked player (the attacker). Without the picture (the
/// staging is gone from the log, or the asked player is over their picture rate: a text board)
/// the question is asked all the same.
async fn ask_challenge(
    data: &Data,
    game: GameId,
    player: PlayerId,
    version: u64,
    text: &str,
) -> CreateMessage {
    let who = mention(data, player).await;
    let id = |declare| ComponentId::new(game, version, Action::Challenge { declare }).encode();
    let row = CreateActionRow::Buttons(vec![
        CreateButton::new(id(true))
            .label("Declare Check")
            .style(serenity::ButtonStyle::Danger),
        CreateButton::new(id(false))
            .label("Let it stand")
            .style(serenity::ButtonStyle::Secondary),
    ]);
    let content = format!("{who} {text}");
    let msg = CreateMessage::new()
        .components(vec![row])
        .allowed_mentions(pinging(&[player]));
    let state = match data.host.state_at(game, version).await {
        Ok(state) => state,
        Err(e) => {
            tracing::warn!(game, version, error = %e, "no picture for a challenge question");
            return msg.content(content);
        }
    };
    let Some(staged) = state.staged() else {
        return msg.content(content);
    };
    let pic = picture::preview(data, player, &state, state.seat_of(player), &staged.text).await;
    with_picture(msg, content, pic)
}

/// Post the board of a game (as it was at `state`) in its thread as the new turn message: the
/// picture from the Token holder's side, the caption, the buttons, and the new holder's ping (a
/// folded `Ping`: one message per move). The ✅ ↩️ 🔄 reactions are on the status panel.
async fn post_turn(
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
        let position = state.position().clone();
        let pieces = background::run(Work::Pictures, move || picker::pieces(&position))
            .await
            .unwrap_or_else(|e| {
                // The turn still works through Move…, which lists the pieces itself.
                tracing::warn!(game, error = %e, "no piece buttons on a turn message");
                Vec::new()
            });
        let board = if data.activity {
            Some(BoardButton::Activity)
        } else {
            data.board
                .as_ref()
                .map(|b| BoardButton::Link(b.watch(game, data.host.now())))
        };
        msg = msg.components(turn_buttons(game, state.version(), &pieces, board));
    }
    if let Some(&player) = pinged.first() {
        msg = quiet_for(data, player, msg).await;
    }
    let Outcome::Sent(Some(posted)) = to_game(http, data, entry, game, msg).await? else {
        return Ok(Outcome::Dropped("the game has no thread".into()));
    };
    if holder.is_some() {
        data.links
            .set_turn(game, posted.get(), state.version())
            .await?;
    }
    Ok(Outcome::Sent(Some(posted)))
}

/// A ballot message with Yes / No buttons for motion `motion`, while it is open: the motion as
/// the host announced it (`text`) with the pings of the players asked to vote (`voters`), one
/// message; or, for an entry stored before the host carried them, worded from the state.
async fn ballot(
    data: &Data,
    state: &GameState,
    motion: u64,
    text: &str,
    voters: &[PlayerId],
) -> Option<CreateMessage> {
    let m = state.motions().iter().find(|m| m.id == motion)?;
    let game = state.id();
    let id = |yes| ComponentId::new(game, state.version(), Action::Vote { motion, yes }).encode();
    let row = CreateActionRow::Buttons(vec![
        CreateButton::new(id(true))
            .label("Yes")
            .style(serenity::ButtonStyle::Success),
        CreateButton::new(id(false))
            .label("No")
            .style(serenity::ButtonStyle::Danger),
    ]);
    let content = if text.is_empty() {
        format!(
            "ballot on motion #{}: {}",
            m.number,
            with_names(data, &state.describe(&m.motion)).await
        )
    } else {
        let mut c = format!("🗳️ ballot on {}", with_names(data, text).await);
        let mut asked = Vec::new();
        for &p in voters {
            asked.push(mention(data, p).await);
        }
        if !asked.is_empty() {
            c.push_str(&format!("\n{}: your vote, please", asked.join(" ")));
        }
        c
    };
    Some(
        CreateMessage::new()
            .content(content)
            .components(vec![row])
            // The voters are pinged; a newcomer named in the motion is not (he is told if he
            // is elected).
            .allowed_mentions(pinging(voters)),
    )
}

/// The stall notice of `seat` in turn `turn`, while that seat is still stalled in that turn:
/// with three or more seats buttons that put the choices to the vote; with two, a button for
/// the waiting player to claim the win on time.
async fn stalled(data: &Data, state: &GameState, seat: Seat, turn: usize) -> Option<CreateMessage> {
    let live = matches!(state.status(), Status::HouseRules | Status::Playing);
    if !live || !state.stalled(seat) || state.record().len() != turn {
        return None;
    }
    if state.active().len() > 2 {
        Some(stall_notice(state, seat))
    } else {
        claim_notice(data, state, seat).await
    }
}

/// A Token holder past the turn timer: one message per turn with buttons that put the
/// choices (§8: skip, replace by a bot, expel) to the vote, so nobody has to type them.
fn stall_notice(state: &GameState, seat: Seat) -> CreateMessage {
    let name = state.seat_title(seat);
    let turn = state.record().len();
    let id = |proposal| {
        ComponentId::new(
            state.id(),
            state.version(),
            Action::Stall {
                proposal,
                seat,
                turn,
            },
        )
        .encode()
    };
    let row = CreateActionRow::Buttons(vec![
        CreateButton::new(id(Proposal::Skip))
            .label(format!("Vote: skip {name}'s turn"))
            .style(serenity::ButtonStyle::Primary),
        CreateButton::new(id(Proposal::Bot))
            .label(format!("Vote: a bot plays {name}"))
            .style(serenity::ButtonStyle::Secondary),
        CreateButton::new(id(Proposal::Expel))
            .label(format!("Vote: expel {name}"))
            .style(serenity::ButtonStyle::Danger),
    ]);
    CreateMessage::new()
        .content(format!(
            "{name} is stalled: propose a vote (or /hexmeros vote replace to name a person)"
        ))
        .components(vec![row])
}

/// Two players left and the Token holder past the turn timer: the waiting player is pinged with
/// a button to claim the win on time (the host refuses it before the timer ran out).
async fn claim_notice(data: &Data, state: &GameState, stalled: Seat) -> Option<CreateMessage> {
    // A bot opponent presses no buttons.
    let waiting = state
        .active()
        .into_iter()
        .find(|&s| s != stalled && state.bot(s).is_none())?;
    let player = state.seats().get(waiting.index()).map(|s| s.mover)?;
    let id = ComponentId::new(state.id(), state.version(), Action::Claim).encode();
    let row = CreateActionRow::Buttons(vec![
        CreateButton::new(id)
            .label("Claim the win on time")
            .style(serenity::ButtonStyle::Success),
    ]);
    let who = mention(data, player).await;
    Some(
        CreateMessage::new()
            .content(format!(
                "{who} {}'s turn timer has run out: you may claim the win on time",
                state.seat_title(stalled)
            ))
            .components(vec![row])
            .allowed_mentions(pinging(&[player])),
    )
}

/// Send a direct message. With `opt_in`, only to players who asked for DMs. A DM found closed
/// (403, code 50007) is remembered and never tried again: repeated 403s get a bot banned.
pub async fn dm(
    http: &Http,
    data: &Data,
    player: PlayerId,
    msg: CreateMessage,
    opt_in: bool,
    nonce: serenity::Nonce,
) -> anyhow::Result<Outcome> {
    let Some(user) = discord_user(player) else {
        return Ok(Outcome::Dropped("not a Discord user".into()));
    };
    let allowed = if opt_in {
        data.links.dm_open(user.get()).await?
    } else {
        !data.links.dm_closed(user.get()).await?
    };
    if !allowed {
        return Ok(Outcome::Dropped("no direct messages to this user".into()));
    }
    let body = serde_json::json!({ "recipient_id": user.get().to_string() });
    let sent = async {
        let ch = data
            .wire
            .retry("opening a DM", || http.create_private_channel(&body))
            .await?;
        data.wire.send_with(http, ch.id, msg.clone(), nonce).await
    }
    .await;
    match sent {
        Ok(m) => Ok(Outcome::Sent(Some(m.id))),
        Err(e) if matches!(http_status(&e), Some((403, _))) => {
            tracing::info!(user = user.get(), error = %e, "DMs closed; not tried again");
            data.links
                .mark_dm_closed(user.get(), data.host.now())
                .await?;
            Ok(Outcome::Dropped("direct messages are closed".into()))
        }
        Err(e) => Err(e.into()),
    }
}

/// A direct message at the user's own request (not through the outbox: nothing is lost if it
/// fails, the user asks again), logged if it fails.
pub async fn dm_now(http: &Http, data: &Data, player: PlayerId, msg: CreateMessage) {
    if let Err(e) = dm(http, data, player, msg, false, fresh_nonce()).await {
        tracing::warn!(player, error = %format_args!("{e:#}"), "a DM failed");
    }
}

/// Remove a user's reaction from a message (someone else's, or one already acted on).
pub async fn remove_reaction(
    http: &Http,
    data: &Data,
    channel: ChannelId,
    message: MessageId,
    user: UserId,
    emoji: &ReactionType,
) {
    if let Err(e) = data
        .wire
        .retry("removing a reaction", || {
            http.delete_reaction(channel, message, user, emoji)
        })
        .await
    {
        tracing::warn!(user = user.get(), error = %e, "cannot remove a reaction");
    }
}
