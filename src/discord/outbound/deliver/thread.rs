//! A game's place on Discord: its thread opened where it was started (once, also after a lost
//! answer or a crash; in the channel itself without the permission to open threads; a start
//! abandoned, its players told, where Discord refuses the thread for good), and the word to a
//! server whose channel the bot may no longer use.

use super::*;

/// Where a front end started a game (`guild/channel`, as `origin_text` writes it).
pub(super) fn parse_origin(text: &str) -> Option<(Option<GuildId>, ChannelId)> {
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

/// A game whose thread Discord will no longer let the bot reach (`why`: the bot was removed
/// from its server, or refused access for an hour; `entry`: the refused entry, whose nonces the
/// DMs carry, none for a removal): its players are told by DM where it stands, then the game is
/// paused and its lane's entries given up (`GameHost::lose_place`). Told first: a process that
/// dies in between tells again (with the same nonces) and then pauses. A game paused or over
/// already is not told again; only its entries are given up.
pub async fn lost_place(
    http: &Http,
    data: &Data,
    game: GameId,
    why: &str,
    entry: Option<&Delivery>,
) -> anyhow::Result<()> {
    let state = data.host.state(game).await?;
    if matches!(state.status(), Status::HouseRules | Status::Playing) {
        let link = data.links.by_game(game).await?;
        let place = link.map_or(String::new(), |l| {
            format!(" ({})", crate::discord::links::jump_url(l.guild, l.thread))
        });
        let text = format!(
            "{} is paused: Discord no longer lets me post in its thread{place} ({why}). Its \
             clocks are stopped and nothing played is lost. Once I may post there again (I am \
             invited back, or given View Channel, Send Messages and Send Messages in Threads), a \
             server admin goes on with `/hexmeros admin resume game:{game}` in the thread.",
            title(&state)
        );
        for (i, p) in discord_players(&state).into_iter().enumerate() {
            let msg = CreateMessage::new()
                .content(text.clone())
                .allowed_mentions(CreateAllowedMentions::new());
            let nonce = match entry {
                Some(e) => nonce_of(e, 20u8.saturating_add(i as u8)),
                None => serenity::Nonce::String(format!("hxlost{game}.{i}")),
            };
            if let Err(e) = dm(http, data, p, msg, false, None, nonce).await {
                tracing::warn!(game, player = p, error = %format_args!("{e:#}"), "not told by DM that the game is paused");
            }
        }
    }
    data.host.lose_place(game, why).await?;
    Ok(())
}

/// The Discord users who play `state`'s seats (movers and team members), each once, in seat
/// order: whom a game that lost its place tells.
fn discord_players(state: &GameState) -> Vec<PlayerId> {
    let mut players: Vec<PlayerId> = Vec::new();
    for seat in state.seats() {
        for p in std::iter::once(seat.player).chain(seat.team.iter().copied()) {
            if discord_user(p).is_some() && !players.contains(&p) {
                players.push(p);
            }
        }
    }
    players
}

/// Open the game's thread in the channel the game was started in, and link the two. Without the
/// permission to open threads, the game lives in the channel itself. A thread already linked (a
/// retry after a crash) is not opened twice.
pub(super) async fn open_thread(
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
        Err(err) if matches!(http_status(&err), Some((403, MISSING_PERMISSIONS))) => {
            tracing::warn!(game, error = %err, "no thread; the game uses the channel");
            parent
        }
        Err(err) if refused_for_good(&err) => {
            return abandon(http, data, entry, game, parent, &err).await;
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

/// Discord's code for a permission the bot lacks (here: Create Public Threads), where the
/// channel itself can still be used.
const MISSING_PERMISSIONS: isize = 50013;

/// Whether Discord refused a thread for good: the channel cannot be reached (a 403 other than
/// a missing permission: Missing Access), is gone (404), or holds no such thread (400: a thread
/// or a forum, too many active threads). A retry would be refused the same way.
fn refused_for_good(e: &serenity::Error) -> bool {
    matches!(http_status(e), Some((400 | 403 | 404, _)))
}

/// A start Discord will not give a thread to: its players are told, in the channel it was
/// started in or (when that cannot be reached either) each by DM, then the game is abandoned
/// (`GameHost::abandon_start`: aborted, nothing more sent for it). Told first: a process that
/// dies in between tells again on its retry, with the same nonces, and then abandons.
async fn abandon(
    http: &Http,
    data: &Data,
    entry: &Delivery,
    game: GameId,
    parent: ChannelId,
    err: &serenity::Error,
) -> anyhow::Result<Outcome> {
    let state = data.host.state(game).await?;
    let players = discord_players(&state);
    let why = match err {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            r.error.message.clone()
        }
        _ => err.to_string(),
    };
    let mut who = String::new();
    for &p in &players {
        who.push_str(&mention(data, p).await);
        who.push(' ');
    }
    let text = format!(
        "{who}{} could not start: Discord would not let me open its thread in <#{parent}> \
         ({why}). Nothing was played and no game is left open. Give me View Channel, Send \
         Messages and Create Public Threads in a text channel, and start it again there.",
        title(&state)
    );
    let notice = CreateMessage::new()
        .content(text.clone())
        .allowed_mentions(pinging(&players));
    if let Err(e) = data
        .wire
        .send_with(http, parent, notice, nonce_of(entry, 3))
        .await
    {
        tracing::warn!(game, error = %e, "the channel cannot be told; telling the players by DM");
        for (i, &p) in players.iter().enumerate() {
            let msg = CreateMessage::new().content(text.clone());
            let nonce = nonce_of(entry, 10u8.saturating_add(i as u8));
            if let Err(e) = dm(http, data, p, msg, false, None, nonce).await {
                tracing::warn!(game, player = p, error = %format_args!("{e:#}"), "not told by DM");
            }
        }
    }
    tracing::warn!(game, error = %err, "Discord refused the game's thread for good; abandoned");
    data.host.abandon_start(game, &why).await?;
    Ok(Outcome::Dropped(format!("the game could not start: {why}")))
}
