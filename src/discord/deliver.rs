//! Carrying out the host's effects on Discord: threads, turn messages with their buttons and
//! reactions, pings, challenge questions, ballots, direct messages. Also the timer task, and the
//! retry policy for Discord's transient failures (429, 5xx) so that nothing the host decided is
//! lost when Discord hiccups.

use std::collections::BTreeSet;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{
    ChannelId, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateMessage, GuildId, Http, MessageId, ReactionType, UserId,
};

use hexmeros::games::Seat;
use hexmeros::host::{Effect, GameId, GameState, PlayerId, Status};

use super::Data;
use super::ids::{Action, ComponentId, Proposal};
use super::picture::{self, Picture};

/// The reactions put on every turn message: pass, take back, show my side.
pub const PASS: &str = "✅";
pub const TAKE_BACK: &str = "↩️";
pub const MY_SIDE: &str = "🔄";

/// Where a batch of effects comes from: the channel a command was used in (new threads open
/// there) and the player whose private replies are returned rather than sent.
#[derive(Clone, Copy, Debug, Default)]
pub struct Origin {
    pub channel: Option<ChannelId>,
    pub guild: Option<GuildId>,
    pub actor: Option<PlayerId>,
}

/// A Discord user id for a player, if the player is a Discord user. Local and bot players have
/// small ids; every snowflake is above 2^22 (its timestamp part is never zero).
pub fn discord_user(p: PlayerId) -> Option<UserId> {
    (p >= 1 << 22).then(|| UserId::new(p as u64))
}

/// How a player is named in a message: a mention for a Discord user.
pub async fn mention(data: &Data, p: PlayerId) -> String {
    match discord_user(p) {
        Some(u) => format!("<@{u}>"),
        None => match data.host.player_name(p).await {
            Ok(Some(n)) => n,
            _ => format!("player {p}"),
        },
    }
}

/// Where the host's words name a player by id (`player 123`, `player -2`): the byte range of
/// each such name and the id. The host knows no names; the front end puts them in.
fn player_refs(text: &str) -> Vec<(std::ops::Range<usize>, PlayerId)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("player ").map(|i| from + i) {
        let digits_at = at + "player ".len();
        let rest = &text[digits_at..];
        let sign = usize::from(rest.starts_with('-'));
        let len = sign + rest[sign..].bytes().take_while(u8::is_ascii_digit).count();
        let before_ok = !text[..at]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric);
        match rest[..len].parse::<PlayerId>() {
            Ok(id) if len > sign && before_ok => {
                found.push((at..digits_at + len, id));
                from = digits_at + len;
            }
            _ => from = digits_at,
        }
    }
    found
}

/// The host's `text` with every `player <id>` replaced by how the player is named here.
pub async fn with_names(data: &Data, text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (range, id) in player_refs(text) {
        out.push_str(&text[last..range.start]);
        out.push_str(&mention(data, id).await);
        last = range.end;
    }
    out.push_str(&text[last..]);
    out
}

/// The HTTP status and Discord error code of a failed request.
pub fn http_status(e: &serenity::Error) -> Option<(u16, isize)> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            Some((r.status_code.as_u16(), r.error.code))
        }
        _ => None,
    }
}

/// Run a Discord call, retrying rate limits (429) and server errors (5xx) with a growing
/// pause. In production serenity's rate limiter waits out 429s itself; with the limiter off
/// (a proxied API base) its error loses the Retry-After value, so the pause starts at a second,
/// Discord's usual bucket reset.
pub async fn retry<T, F, Fut>(what: &str, mut call: F) -> Result<T, serenity::Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    let mut pause = Duration::from_millis(250);
    let mut attempt = 0;
    loop {
        attempt += 1;
        match call().await {
            Ok(v) => return Ok(v),
            Err(e) => {
                let wait = match http_status(&e) {
                    Some((429, _)) => pause.max(Duration::from_secs(1)),
                    Some((500..=599, _)) => pause,
                    _ => return Err(e),
                };
                if attempt >= 6 {
                    tracing::warn!(what, attempt, error = %e, "a Discord call failed; giving up");
                    return Err(e);
                }
                tracing::warn!(what, attempt, error = %e, "a Discord call failed; retrying");
                tokio::time::sleep(wait).await;
                pause *= 2;
            }
        }
    }
}

/// Send a message, retrying transient failures. The message carries a nonce that Discord is
/// asked to enforce, the same on every attempt: when an attempt did reach Discord but its answer
/// was lost (a 5xx after the message was made, a timeout), the retry gets the message already
/// made instead of posting it twice.
pub async fn send(
    http: &Http,
    channel: ChannelId,
    msg: CreateMessage,
) -> Result<serenity::Message, serenity::Error> {
    let msg = msg.nonce(fresh_nonce()).enforce_nonce(true);
    retry("sending a message", || {
        channel.send_message(http, msg.clone())
    })
    .await
}

/// A nonce no other message of this bot has had in the last minutes (Discord keeps them a few
/// minutes): when this process started, in milliseconds, and a counter, in at most 25 characters.
fn fresh_nonce() -> serenity::Nonce {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering};
    static BOOT: OnceLock<u128> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let boot = BOOT.get_or_init(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0)
    });
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    serenity::Nonce::String(format!("{boot:x}.{n:x}"))
}

/// A mention that pings exactly these users.
pub fn pinging(users: &[PlayerId]) -> CreateAllowedMentions {
    CreateAllowedMentions::new().users(users.iter().filter_map(|&p| discord_user(p)))
}

/// Attach a board picture to a message: a PNG file, or text in a code block (a file when long).
pub fn with_picture(msg: CreateMessage, content: String, pic: Picture) -> CreateMessage {
    match pic {
        Picture::Png(png) => msg
            .content(content)
            .add_file(CreateAttachment::bytes(png, "board.png")),
        Picture::Text(t) if t.len() + content.len() < 1900 => {
            msg.content(format!("{content}\n```\n{t}\n```"))
        }
        Picture::Text(t) => msg
            .content(content)
            .add_file(CreateAttachment::bytes(t.into_bytes(), "board.txt")),
    }
}

/// The buttons of a turn message, for the Token holder. Pass, Take back and Declare Check are
/// on the private preview of each staged move instead: one made before the move was staged
/// would act on a move its presser was not shown, and the host refuses it.
pub fn turn_buttons(game: GameId, version: u64) -> Vec<CreateActionRow> {
    let id = |a| ComponentId::new(game, version, a).encode();
    vec![CreateActionRow::Buttons(vec![
        CreateButton::new(id(Action::Pick))
            .label("Move…")
            .style(serenity::ButtonStyle::Primary),
        CreateButton::new(id(Action::Board))
            .label("My side")
            .style(serenity::ButtonStyle::Secondary),
    ])]
}

/// Carry out a batch of effects. Returns the private texts meant for `origin.actor`, which the
/// caller sends as its ephemeral reply.
pub async fn deliver(
    http: &Arc<Http>,
    data: &Data,
    fx: Vec<Effect>,
    origin: Origin,
) -> Vec<String> {
    let mut private = Vec::new();
    let mut games = BTreeSet::new();
    for e in fx {
        let game = e.game();
        games.extend(game);
        if let Err(err) = one(http, data, e, origin, &mut private).await {
            tracing::error!(game, error = %format_args!("{err:#}"), "an effect could not be delivered");
        }
    }
    for &g in &games {
        if let Err(err) = follow_up(http, data, g).await {
            tracing::error!(game = g, error = %format_args!("{err:#}"), "a ballot, stall notice or replay could not be posted");
        }
    }
    // Bots act after a person: in their own task, so the person's reply does not wait for them.
    if origin.actor.is_some() {
        for g in games {
            bots(http, data, g);
        }
    }
    private
}

/// Let the game's bots play until a person must act, delivering what they do, if the bot queue
/// has room. Else the game is left to the timers: a game waiting on a bot is due at once, so
/// the next tick drives its bots (no bot turn is lost, and the queue does not grow).
pub fn bots(http: &Arc<Http>, data: &Data, game: GameId) {
    let Some(slot) = data.limits.bot_slot() else {
        tracing::info!(
            game,
            "the bot queue is full; the timers will drive this game's bots"
        );
        return;
    };
    let http = http.clone();
    let data = data.clone();
    tokio::spawn(async move {
        let _slot = slot;
        match data.host.bot_turns(game).await {
            Ok(fx) if !fx.is_empty() => {
                Box::pin(deliver(&http, &data, fx, Origin::default())).await;
            }
            Ok(_) => {}
            Err(e) => tracing::error!(game, error = %e, "bots failed"),
        }
    });
}

async fn thread_of(data: &Data, game: GameId) -> anyhow::Result<Option<ChannelId>> {
    Ok(data
        .links
        .by_game(game)
        .await?
        .map(|l| ChannelId::new(l.thread)))
}

async fn one(
    http: &Http,
    data: &Data,
    e: Effect,
    origin: Origin,
    private: &mut Vec<String>,
) -> anyhow::Result<()> {
    match e {
        Effect::OpenThread { game, title } => open_thread(http, data, game, &title, origin).await?,
        Effect::CloseThread { game } => {
            if let Some(t) = thread_of(data, game).await? {
                send(
                    http,
                    t,
                    CreateMessage::new()
                        .content("this game is closed; the thread stays as its record"),
                )
                .await?;
            }
        }
        Effect::Board { game, caption, .. } => post_turn(http, data, game, &caption).await?,
        Effect::Say { game, text } => {
            if let Some(t) = thread_of(data, game).await? {
                let text = with_names(data, &text).await;
                // Players named in passing are not pinged.
                let msg = CreateMessage::new()
                    .content(text)
                    .allowed_mentions(CreateAllowedMentions::new());
                send(http, t, msg).await?;
            }
        }
        Effect::Ping { game, player, text } => {
            if let Some(t) = thread_of(data, game).await? {
                let who = mention(data, player).await;
                let text = with_names(data, &text).await;
                send(
                    http,
                    t,
                    CreateMessage::new()
                        .content(format!("{who} {text}"))
                        .allowed_mentions(pinging(&[player])),
                )
                .await?;
            }
        }
        Effect::AskChallenge {
            game,
            player,
            version,
            text,
        } => ask_challenge(http, data, game, player, version, &text).await?,
        Effect::Private { player, text } => {
            let text = with_names(data, &text).await;
            if Some(player) == origin.actor {
                private.push(text);
            } else {
                dm(http, data, player, CreateMessage::new().content(text), true).await;
            }
        }
        Effect::Dm { player, text } => {
            let text = with_names(data, &text).await;
            dm(http, data, player, CreateMessage::new().content(text), true).await;
        }
    }
    Ok(())
}

/// Open the game's thread in the channel the game was started in, and link the two. Without the
/// permission to open threads, the game lives in the channel itself.
async fn open_thread(
    http: &Http,
    data: &Data,
    game: GameId,
    title: &str,
    origin: Origin,
) -> anyhow::Result<()> {
    let Some(parent) = origin.channel else {
        return Ok(());
    };
    let body = serde_json::json!({
        "name": title,
        "type": 11, // a public thread
        "auto_archive_duration": 10080,
    });
    let thread = match retry("opening a thread", || {
        http.create_thread(parent, &body, None)
    })
    .await
    {
        Ok(t) => t.id,
        Err(err) => {
            tracing::warn!(game, error = %err, "no thread; the game uses the channel");
            parent
        }
    };
    data.links
        .insert(
            game,
            origin.guild.map(|g| g.get()),
            parent.get(),
            thread.get(),
        )
        .await?;
    data.host
        .set_channel(game, &thread.get().to_string())
        .await?;
    Ok(())
}

/// Ask a player in the game's thread whether to declare Check upon the mover, with buttons.
async fn ask_challenge(
    http: &Http,
    data: &Data,
    game: GameId,
    player: PlayerId,
    version: u64,
    text: &str,
) -> anyhow::Result<()> {
    if let Some(t) = thread_of(data, game).await? {
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
        send(
            http,
            t,
            CreateMessage::new()
                .content(format!("{who} {text}"))
                .components(vec![row])
                .allowed_mentions(pinging(&[player])),
        )
        .await?;
    }
    Ok(())
}

/// Post the board of a game in its thread as the new turn message: the picture from the Token
/// holder's side, the caption, the buttons, and the three reactions.
pub async fn post_turn(
    http: &Http,
    data: &Data,
    game: GameId,
    caption: &str,
) -> anyhow::Result<()> {
    let Some(link) = data.links.by_game(game).await? else {
        return Ok(());
    };
    let state = data.host.state(game).await?;
    let thread = ChannelId::new(link.thread);
    let mut content = format!("**{}** — {caption}", title(&state));
    let live = matches!(state.status(), Status::HouseRules | Status::Playing);
    let holder = state.holder_player().filter(|_| live);
    if let (Some(seat), Some(p)) = (state.holder(), holder) {
        content.push_str(&format!(
            "\n{} ({}) has the Token",
            state.seat_name(seat),
            mention(data, p).await
        ));
    }
    let pic = picture::board(&data.limits, &state, state.holder()).await;
    let mut msg = with_picture(CreateMessage::new(), content, pic)
        // The holder is pinged by its own message; the board itself pings nobody.
        .allowed_mentions(CreateAllowedMentions::new());
    if holder.is_some() {
        msg = msg.components(turn_buttons(game, state.version()));
    }
    let posted = send(http, thread, msg).await?;
    if holder.is_some() {
        data.links
            .set_turn(game, posted.id.get(), state.version())
            .await?;
        for r in [PASS, TAKE_BACK, MY_SIDE] {
            let emoji = ReactionType::Unicode(r.to_string());
            if let Err(e) = retry("adding a reaction", || {
                http.create_reaction(thread, posted.id, &emoji)
            })
            .await
            {
                tracing::warn!(game, reaction = r, error = %e, "cannot react to the turn message");
            }
        }
    }
    Ok(())
}

pub fn title(state: &GameState) -> String {
    format!("{} #{}", state.kind().name(), state.id())
}

/// After a batch: a ballot message with Yes/No buttons for every motion not yet given one, and
/// the replay GIF once the game has finished.
async fn follow_up(http: &Http, data: &Data, game: GameId) -> anyhow::Result<()> {
    let Some(thread) = thread_of(data, game).await? else {
        return Ok(());
    };
    let state = data.host.state(game).await?;
    if state.status() == Status::Finished && data.links.claim_gif(game).await? {
        let export = data.host.export(game).await?;
        if let Some(gif) = picture::replay(&data.limits, export).await {
            send(
                http,
                thread,
                CreateMessage::new()
                    .content(format!("{}: the replay", title(&state)))
                    .add_file(CreateAttachment::bytes(gif, format!("hexmeros-{game}.gif"))),
            )
            .await?;
        }
    }
    stalled(http, data, thread, &state).await?;
    for m in state.motions() {
        if !data.links.claim_ballot(game, m.id).await? {
            continue;
        }
        let id = |yes| {
            ComponentId::new(game, state.version(), Action::Vote { motion: m.id, yes }).encode()
        };
        let row = CreateActionRow::Buttons(vec![
            CreateButton::new(id(true))
                .label("Yes")
                .style(serenity::ButtonStyle::Success),
            CreateButton::new(id(false))
                .label("No")
                .style(serenity::ButtonStyle::Danger),
        ]);
        send(
            http,
            thread,
            CreateMessage::new()
                .content(format!(
                    "ballot on motion #{}: {}",
                    m.id,
                    with_names(data, &state.describe(&m.motion)).await
                ))
                .components(vec![row])
                // The newcomer is named, not pinged: he is told if he is elected.
                .allowed_mentions(CreateAllowedMentions::new()),
        )
        .await?;
    }
    Ok(())
}

/// A Token holder past the turn timer is named once a turn, with buttons to vote on what to do.
/// With two players left there is no vote: the opponent gets a button to claim the win on time.
async fn stalled(
    http: &Http,
    data: &Data,
    thread: ChannelId,
    state: &GameState,
) -> anyhow::Result<()> {
    if state.timed_out()
        && matches!(state.status(), Status::HouseRules | Status::Playing)
        && let Some(seat) = state.holder()
        && state.bot(seat).is_none()
        && data
            .links
            .claim_stall(state.id(), state.record().len())
            .await?
    {
        if state.active().len() > 2 {
            stall_notice(http, thread, state, seat).await?;
        } else {
            claim_notice(http, data, thread, state, seat).await?;
        }
    }
    Ok(())
}

/// A Token holder past the turn timer: one message per turn with buttons that put the
/// choices (§8: skip, replace by a bot, expel) to the vote, so nobody has to type them.
async fn stall_notice(
    http: &Http,
    thread: ChannelId,
    state: &GameState,
    seat: Seat,
) -> anyhow::Result<()> {
    let name = state.seat_name(seat);
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
    send(
        http,
        thread,
        CreateMessage::new()
            .content(format!(
                "{name} is stalled: propose a vote (or /hexmeros vote replace to name a person)"
            ))
            .components(vec![row]),
    )
    .await?;
    Ok(())
}

/// Two players left and the Token holder past the turn timer: the waiting player is pinged with
/// a button to claim the win on time (the host refuses it before the timer ran out).
async fn claim_notice(
    http: &Http,
    data: &Data,
    thread: ChannelId,
    state: &GameState,
    stalled: Seat,
) -> anyhow::Result<()> {
    // A bot opponent presses no buttons.
    let Some(waiting) = state
        .active()
        .into_iter()
        .find(|&s| s != stalled && state.bot(s).is_none())
    else {
        return Ok(());
    };
    let Some(player) = state.seats().get(waiting.index()).map(|s| s.mover) else {
        return Ok(());
    };
    let id = ComponentId::new(state.id(), state.version(), Action::Claim).encode();
    let row = CreateActionRow::Buttons(vec![
        CreateButton::new(id)
            .label("Claim the win on time")
            .style(serenity::ButtonStyle::Success),
    ]);
    let who = mention(data, player).await;
    send(
        http,
        thread,
        CreateMessage::new()
            .content(format!(
                "{who} {}'s turn timer has run out: you may claim the win on time",
                state.seat_name(stalled)
            ))
            .components(vec![row])
            .allowed_mentions(pinging(&[player])),
    )
    .await?;
    Ok(())
}

/// Send a direct message. With `opt_in`, only to players who asked for DMs. A DM found closed
/// (403, code 50007) is remembered and never tried again: repeated 403s get a bot banned.
pub async fn dm(http: &Http, data: &Data, player: PlayerId, msg: CreateMessage, opt_in: bool) {
    let Some(user) = discord_user(player) else {
        return;
    };
    let allowed = if opt_in {
        data.links.dm_open(user.get()).await
    } else {
        data.links.dm_closed(user.get()).await.map(|c| !c)
    };
    if !matches!(allowed, Ok(true)) {
        return;
    }
    let body = serde_json::json!({ "recipient_id": user.get().to_string() });
    let sent = async {
        let ch = retry("opening a DM", || http.create_private_channel(&body)).await?;
        send(http, ch.id, msg.clone()).await
    }
    .await;
    if let Err(e) = sent {
        match http_status(&e) {
            Some((403, 50007)) | Some((403, _)) => {
                tracing::info!(user = user.get(), error = %e, "DMs closed; not tried again");
                if let Err(e) = data.links.mark_dm_closed(user.get(), data.host.now()).await {
                    tracing::error!(user = user.get(), error = %e, "cannot remember a closed DM");
                }
            }
            _ => tracing::warn!(user = user.get(), error = %e, "a DM failed"),
        }
    }
}

/// Run the host's timers every `every`, delivering what they produce.
pub async fn tick_loop(http: Arc<Http>, data: Data, every: Duration) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        data.limits.forget_idle();
        match data.host.tick().await {
            Ok(fx) if !fx.is_empty() => {
                deliver(&http, &data, fx, Origin::default()).await;
            }
            Ok(_) => {}
            Err(e) => tracing::error!(error = %e, "timers failed"),
        }
        super::lobby::expire(&http, &data).await;
    }
}

/// Remove a user's reaction from a message (someone else's, or one already acted on).
pub async fn remove_reaction(
    http: &Http,
    channel: ChannelId,
    message: MessageId,
    user: UserId,
    emoji: &ReactionType,
) {
    if let Err(e) = retry("removing a reaction", || {
        http.delete_reaction(channel, message, user, emoji)
    })
    .await
    {
        tracing::warn!(user = user.get(), error = %e, "cannot remove a reaction");
    }
}

#[cfg(test)]
mod tests {
    use super::{fresh_nonce, player_refs, serenity};

    #[test]
    fn player_ids_in_the_hosts_words_are_found() {
        let text = "motion #3: player 1200000000000000007 takes over yellow; player -2 too";
        let refs = player_refs(text);
        assert_eq!(refs.len(), 2);
        assert_eq!(&text[refs[0].0.clone()], "player 1200000000000000007");
        assert_eq!(refs[0].1, 1_200_000_000_000_000_007);
        assert_eq!(&text[refs[1].0.clone()], "player -2");
        assert_eq!(refs[1].1, -2);
        // Not a player's id: no digits, a word ending in "player", a lone minus sign.
        for text in [
            "the player to move",
            "multiplayer 12",
            "player - 3",
            "player",
        ] {
            assert!(player_refs(text).is_empty(), "{text}");
        }
        assert_eq!(player_refs("player 5, player 6")[1].1, 6);
    }

    #[test]
    fn nonces_differ_and_fit_discords_25_characters() {
        let text = |n| match n {
            serenity::Nonce::String(s) => s,
            serenity::Nonce::Number(n) => n.to_string(),
        };
        let a = text(fresh_nonce());
        let b = text(fresh_nonce());
        assert_ne!(a, b);
        assert!(a.len() <= 25 && b.len() <= 25, "{a} {b}");
    }
}
