//! Gateway events that are not slash commands: component clicks (buttons, select menus) and
//! reactions on turn messages. Both are stateless: a component's id carries the game, the action
//! and the version it was made at; a reaction is matched to a game through the stored turn
//! message. So both keep working after a restart, and an old one is refused politely.

pub mod house;
mod picker;
mod staged;
mod typed;

pub use staged::staged_reply;
use staged::{
    on_back, on_check, on_checks, on_panel_back, on_panel_pass, on_pass, on_pass_check,
    on_pass_when_closed, on_to, stage,
};

use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::{
    ComponentInteraction, ComponentInteractionDataKind, CreateActionRow, CreateAttachment,
    CreateButton, CreateInteractionResponse, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateMessage, EditInteractionResponse, FullEvent, Http,
    Interaction, Reaction, ReactionType,
};

use hexmeros::ai::Level;
use hexmeros::games::Seat;
use hexmeros::host::{Actor, Command, GameId, GameState, Motion, PlayerId};

use crate::discord::ids::{Action, ComponentId, Proposal};
use crate::discord::inbound::scope::{self, Scope};
use crate::discord::names;
use crate::discord::outbound::deliver::{self, Origin};
use crate::discord::outbound::picture::{self, Picture, picture_files};
use crate::discord::{Data, Error};

pub async fn handle(
    fw: poise::FrameworkContext<'_, Data, Error>,
    ev: &FullEvent,
) -> Result<(), Error> {
    let http = &fw.serenity_context.http;
    let data = fw.user_data;
    match ev {
        FullEvent::InteractionCreate {
            interaction: Interaction::Component(ci),
        } => component(http, data, ci).await,
        FullEvent::InteractionCreate {
            interaction: Interaction::Modal(mi),
        } => typed::submitted(http, data, mi).await,
        FullEvent::ReactionAdd { add_reaction } => {
            reaction(http, data, add_reaction, fw.bot_id()).await
        }
        // Removed from a server (not a server that is only unavailable for a while): its games
        // are paused and their players told by DM, in a task of its own (one DM per player of
        // every game there).
        FullEvent::GuildDelete { incomplete, .. } if !incomplete.unavailable => {
            let (http, data, guild) = (http.clone(), data.clone(), incomplete.id);
            tokio::spawn(async move { removed_from(&http, &data, guild).await });
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The bot was removed from server `guild`: each of its unfinished games is paused, its
/// players are told by DM, and what waited for its thread is given up (`deliver::lost_place`).
async fn removed_from(http: &Arc<Http>, data: &Data, guild: serenity::GuildId) {
    let games = match data.links.games_in_guild(guild.get()).await {
        Ok(g) => g,
        Err(e) => {
            tracing::error!(guild = guild.get(), error = %e, "removed from a server; its games cannot be read");
            return;
        }
    };
    tracing::warn!(
        guild = guild.get(),
        games = games.len(),
        "removed from a server: its games are paused"
    );
    for game in games {
        let why = "I was removed from the server";
        if let Err(e) = deliver::lost_place(http, data, game, why, None).await {
            tracing::warn!(game, error = %format_args!("{e:#}"), "a game of a server that removed the bot cannot be paused");
        }
    }
}

/// A private reply: text, maybe a file, maybe components. Sent as a slash command's reply, a
/// component's followup, or (the move picker) an edit of the message the component sits on.
pub struct Reply {
    content: String,
    /// Pictures in the order Discord shows them (a board's close-up first).
    files: Vec<CreateAttachment>,
    components: Vec<CreateActionRow>,
    /// As an edit without a file: keep the message's picture (a page of the same piece's
    /// targets) rather than remove it.
    keep_file: bool,
    /// A step of the move picker: it edits the click's own private message (the first step,
    /// from a turn message, the deferred answer's), where other replies are followups.
    edit: bool,
}

impl Reply {
    /// Words with controls.
    pub fn new(content: impl Into<String>, components: Vec<CreateActionRow>) -> Reply {
        Reply {
            components,
            ..Reply::text(content)
        }
    }

    pub fn text(content: impl Into<String>) -> Reply {
        Reply {
            content: content.into(),
            files: Vec::new(),
            components: Vec::new(),
            keep_file: false,
            edit: false,
        }
    }

    /// The text within Discord's limits, and the files: the reply's, and the whole text when
    /// it had to be cut (see `reply::fit`).
    fn fitted(self) -> (String, Vec<CreateAttachment>, Vec<CreateActionRow>) {
        let (content, whole) = crate::discord::reply::fit(self.content);
        let files = self.files.into_iter().chain(whole).collect();
        (content, files, self.components)
    }

    pub fn into_poise(self) -> poise::CreateReply {
        let (content, files, components) = self.fitted();
        let mut r = poise::CreateReply::default()
            .content(content)
            .ephemeral(true)
            .components(components);
        for f in files {
            r = r.attachment(f);
        }
        r
    }

    fn into_followup(self) -> CreateInteractionResponseFollowup {
        let (content, files, components) = self.fitted();
        CreateInteractionResponseFollowup::new()
            .content(content)
            .ephemeral(true)
            .components(components)
            .add_files(files)
    }

    /// The reply as an edit of the interaction's original message: its text, components and
    /// files replace the message's (its picture stays when `keep_file` and there is no file).
    fn into_edit(self) -> EditInteractionResponse {
        let keep = self.keep_file;
        let (content, files, components) = self.fitted();
        let mut e = EditInteractionResponse::new()
            .content(content)
            .components(components);
        if files.is_empty() {
            if !keep {
                e = e.clear_attachments();
            }
        } else {
            for f in files {
                e = e.new_attachment(f);
            }
        }
        e
    }

    fn into_message(self) -> CreateMessage {
        let (content, files, _) = self.fitted();
        CreateMessage::new().content(content).add_files(files)
    }
}

/// A board picture as a private reply.
pub fn picture_reply(caption: String, pic: Picture) -> Reply {
    match pic {
        Picture::Png {
            full,
            focus,
            alt,
            outside,
        } => Reply {
            content: crate::discord::outbound::picture::with_outside(caption, &outside),
            files: picture_files(full, focus, &alt),
            components: Vec::new(),
            keep_file: false,
            edit: false,
        },
        Picture::Text(t) if t.len() + caption.len() < 1900 => {
            Reply::text(format!("{caption}\n```\n{t}\n```"))
        }
        Picture::Text(t) => Reply {
            content: caption,
            files: vec![CreateAttachment::bytes(t.into_bytes(), "board.txt")],
            components: Vec::new(),
            keep_file: false,
            edit: false,
        },
    }
}

async fn component(http: &Arc<Http>, data: &Data, ci: &ComponentInteraction) -> Result<(), Error> {
    let decoded = ComponentId::decode(&ci.data.custom_id).ok();
    // Type move… is answered with its box, which cannot follow an acknowledgement.
    if let Some(id) = decoded.filter(|id| id.action == Action::TypeMove) {
        return typed::open(http, data, ci, id).await;
    }
    // Play on the board is answered with the Activity's launch, which cannot follow one either.
    if let Some(id) = decoded.filter(|id| id.action == Action::Play) {
        return play(http, data, ci, id.game).await;
    }
    let action = decoded.map(|id| id.action);
    // A step of the move picker updates its own private message; every other control answers
    // with a new private message (the picker's first step too: its deferred answer is edited
    // into the picker, and a refusal is a followup as for any control).
    // Pass too answers in place: the staged move's message becomes what was committed.
    let passing = |a: Action| matches!(a, Action::Pass | Action::PassCheck { .. });
    let in_place = action.is_some_and(|a| a.in_place() || passing(a));
    // A lobby's Join and Decline update the lobby message through the interaction (`lobby`),
    // which Discord does not count toward the bot's global limit; the answer is private.
    let lobby = action.is_some_and(|a| a.lobby_join().is_some());
    // Acknowledge first: everything after may take longer than Discord's three seconds.
    let ack = if in_place || lobby {
        CreateInteractionResponse::Acknowledge
    } else {
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true))
    };
    data.wire
        .retry_answer("acknowledging a click", || {
            ci.create_response(http, ack.clone())
        })
        .await?;
    crate::discord::inbound::activity::acknowledged();
    let (reply, refused) = match click(http, data, ci).await {
        Ok(r) => (r, false),
        Err(e) => (
            Reply::text(crate::discord::inbound::activity::error_text(&e)),
            true,
        ),
    };
    // A refused Pass leaves the staged move's message as it was (its controls still work): the
    // refusal comes as a private message of its own.
    // A page of someone else's `/hexmeros games` is not theirs to turn: the refusal comes as
    // its own message too.
    let keep_message =
        refused && action.is_some_and(|a| passing(a) || matches!(a, Action::Mine { .. }));
    if reply.edit || (in_place && !keep_message) {
        data.wire
            .retry_answer("updating a picker", || {
                ci.edit_response(http, reply_clone(&reply).into_edit())
            })
            .await?;
    } else {
        data.wire
            .retry_answer("answering a click", || {
                ci.create_followup(http, reply_clone(&reply).into_followup())
            })
            .await?;
    }
    Ok(())
}

/// Play on the board: the Activity opens in the game's thread, for a game of this server (or a
/// DM game of the presser's) while the bot runs the Activity; otherwise a private word why not.
async fn play(
    http: &Arc<Http>,
    data: &Data,
    ci: &ComponentInteraction,
    game: GameId,
) -> Result<(), Error> {
    let refusal = match scope::admit(data, Scope::of(ci.guild_id, ci.user.id), game).await {
        Err(e) => Some(crate::discord::inbound::activity::error_text(&e)),
        // A button from before the operator turned the Activity off.
        Ok(_) if !data.activity => Some(
            "the board is no longer offered as a Discord Activity here; use My side".to_string(),
        ),
        Ok(_) => None,
    };
    match refusal {
        None => crate::discord::inbound::embedded::launch(http, data, ci).await,
        Some(text) => {
            let answer = CreateInteractionResponse::Message(
                CreateInteractionResponseMessage::new()
                    .content(text)
                    .ephemeral(true),
            );
            data.wire
                .retry_answer("refusing Play on the board", || {
                    ci.create_response(http, answer.clone())
                })
                .await?;
            Ok(())
        }
    }
}

fn reply_clone(r: &Reply) -> Reply {
    Reply {
        content: r.content.clone(),
        files: r.files.clone(),
        components: r.components.clone(),
        keep_file: r.keep_file,
        edit: r.edit,
    }
}

/// What a click does; the returned reply is sent privately to the clicker.
async fn click(http: &Arc<Http>, data: &Data, ci: &ComponentInteraction) -> Result<Reply, Error> {
    let Ok(id) = ComponentId::decode(&ci.data.custom_id) else {
        return Ok(Reply::text("this control is not one of mine any more"));
    };
    // A page of `/hexmeros games` names its user, not a game.
    if let Action::Mine { page } = id.action {
        let p = crate::discord::inbound::mine::click(
            http,
            data,
            id.game,
            ci.user.id,
            ci.guild_id,
            page,
        )
        .await?;
        return Ok(Reply::new(p.text, p.buttons));
    }
    // A lobby's buttons name a lobby, not a game (its server's own: see `lobby`).
    if let Some(join) = id.action.lobby_join() {
        return crate::discord::inbound::lobby::click(http, data, ci, id.game, join)
            .await
            .map(Reply::text);
    }
    // A game of another server, or in a DM one the clicker does not play in, is unknown here
    // (before anything else, so nothing tells it from a game that does not exist).
    scope::admit(data, Scope::of(ci.guild_id, ci.user.id), id.game).await?;
    let me = ci.user.id.get() as PlayerId;
    data.host.ensure_player(me, ci.user.display_name()).await?;
    // A control made before the current turn message belongs to an earlier turn; but Move…
    // opens the current turn from any turn message of the game (a phone's thread is often
    // scrolled to an older one), for its Token holder alone, as the current message's would.
    if id.action.of_turn()
        && id.action != Action::Pick
        && let Some(link) = data.links.by_game(id.game).await?
        && let Some(turn) = link.turn_version
        && id.version < turn
    {
        // A refusal: a Pass replayed on a committed move's message gets its own private
        // answer, and the message keeps saying what was committed.
        return Err(crate::discord::reply::refused(
            "this button is from an earlier turn; use the latest board in the thread",
        ));
    }
    let c = Click::new(http, data, ci, id.game, me, id.version);
    act(&c, id.action).await
}

/// What the control of a click does, once it is known to be this game's and current.
async fn act(c: &Click<'_>, action: Action) -> Result<Reply, Error> {
    match action {
        Action::Pick | Action::Pieces { .. } => {
            let page = match action {
                Action::Pieces { page } => usize::from(page),
                _ => 0,
            };
            picker::pieces(c, page).await
        }
        Action::From { .. } => picker::picked_piece(c).await,
        Action::Targets { piece, page } => {
            picker::targets(c, usize::from(piece), usize::from(page)).await
        }
        Action::Target { piece } => picker::picked_target(c, usize::from(piece)).await,
        Action::PieceAt { piece } | Action::OpenPiece { piece } => {
            picker::tapped_piece(c, usize::from(piece)).await
        }
        Action::Tap { piece, target } => {
            picker::tapped_target(c, usize::from(piece), usize::from(target)).await
        }
        Action::Choices {
            piece,
            target,
            page,
        } => {
            picker::choices(
                c,
                usize::from(piece),
                usize::from(target),
                usize::from(page),
            )
            .await
        }
        Action::To { .. } => on_to(c).await,
        Action::Pass => on_pass(c).await,
        Action::PassWhenClosed => on_pass_when_closed(c).await,
        Action::Back => on_back(c).await,
        Action::Checks => on_checks(c).await,
        Action::Check { seat } => on_check(c, seat).await,
        Action::PassCheck { seat } => on_pass_check(c, seat).await,
        Action::Challenge { declare } => on_challenge(c, declare).await,
        Action::Vote { motion, yes } => on_vote(c, motion, yes).await,
        Action::Claim => on_claim(c).await,
        Action::Resign { replacement } => on_resign(c, replacement).await,
        Action::Stall {
            proposal,
            seat,
            turn,
        } => on_stall(c, proposal, seat, turn).await,
        Action::Board => on_board(c).await,
        Action::PanelPass => on_panel_pass(c).await,
        Action::PanelBack => on_panel_back(c).await,
        Action::LobbyJoin | Action::LobbyDecline => Err(anyhow::anyhow!("a lobby button")),
        Action::Mine { .. } => Err(anyhow::anyhow!("a page of a player's games")),
        Action::Play => Err(anyhow::anyhow!("Play on the board launches before this")),
        Action::TypeMove => Err(anyhow::anyhow!("Type move… opens its box before this")),
        Action::HouseRules => house::rules(c).await,
        Action::HouseRule => house::picked_rule(c).await,
        Action::HouseValue { rule } => house::picked_value(c, rule).await,
    }
}

/// A click: who made it, where, on which game, the version the control was made at, and the
/// option picked from a select menu.
struct Click<'a> {
    http: &'a Arc<Http>,
    data: &'a Data,
    game: GameId,
    me: PlayerId,
    made: u64,
    actor: Actor,
    origin: Origin,
    value: Option<String>,
}

impl<'a> Click<'a> {
    fn new(
        http: &'a Arc<Http>,
        data: &'a Data,
        ci: &ComponentInteraction,
        game: GameId,
        me: PlayerId,
        made: u64,
    ) -> Click<'a> {
        let value = match &ci.data.kind {
            ComponentInteractionDataKind::StringSelect { values } => values.first().cloned(),
            _ => None,
        };
        let admin = ci
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild());
        Click {
            http,
            data,
            game,
            me,
            made,
            actor: Actor { player: me, admin },
            origin: Origin {
                channel: Some(ci.channel_id),
                guild: ci.guild_id,
                actor: Some(me),
            },
            value,
        }
    }

    /// Run a command as the clicker and deliver its effects; the clicker's private lines.
    async fn run(&self, cmd: Command) -> Result<Vec<String>, Error> {
        let fx = self
            .data
            .host
            .handle(self.game, self.actor, cmd, None)
            .await?
            .effects;
        Ok(deliver::deliver(self.http, self.data, fx, self.origin).await)
    }

    /// Run the command of this control: the host refuses it, changing nothing, when what the
    /// control was made for has gone (an earlier preview, challenge window or vote).
    async fn press(&self, cmd: Command) -> Result<Vec<String>, Error> {
        let fx = self
            .data
            .host
            .press(self.game, self.actor, cmd, self.made)
            .await?
            .effects;
        Ok(deliver::deliver(self.http, self.data, fx, self.origin).await)
    }

    /// The option picked from a select menu of `what`.
    fn picked(&self, what: &str) -> Result<String, Error> {
        self.value
            .clone()
            .ok_or_else(|| anyhow::anyhow!("no {what} was picked"))
    }
}

/// The confirmation of `/hexmeros resign`: resign now (the host refuses it when the game moved
/// on since the question, or when the clicker sits in no seat).
async fn on_resign(c: &Click<'_>, replacement: Option<u64>) -> Result<Reply, Error> {
    let replacement = replacement.map(|p| p as PlayerId);
    let lines = c.press(Command::Resign { replacement }).await?;
    Ok(Reply::text(non_empty(lines, "you resigned")))
}

/// The answer to a challenge window.
async fn on_challenge(c: &Click<'_>, declare: bool) -> Result<Reply, Error> {
    let lines = c.press(Command::Challenge { declare }).await?;
    Ok(Reply::text(non_empty(
        lines,
        if declare {
            "you declared Check upon the mover"
        } else {
            "you let the move stand"
        },
    )))
}

/// A ballot's Yes or No.
async fn on_vote(c: &Click<'_>, motion: u64, yes: bool) -> Result<Reply, Error> {
    let lines = c
        .press(Command::Vote {
            motion: Some(motion),
            yes,
        })
        .await?;
    let number = c.data.host.state(c.game).await?.motion_number(motion);
    Ok(Reply::text(non_empty(
        lines,
        &format!(
            "you voted {} on motion #{number}",
            if yes { "yes" } else { "no" }
        ),
    )))
}

/// Claim the win on time: the host refuses it unless the opponent's turn timer ran out.
async fn on_claim(c: &Click<'_>) -> Result<Reply, Error> {
    let lines = c.run(Command::ClaimTime).await?;
    Ok(Reply::text(non_empty(
        lines,
        "you claimed the game on time",
    )))
}

/// A stalled-player button: propose the skip, bot or expulsion, if the turn is still the one the
/// button was made for.
async fn on_stall(
    c: &Click<'_>,
    proposal: Proposal,
    seat: Seat,
    turn: usize,
) -> Result<Reply, Error> {
    let state = c.data.host.state(c.game).await?;
    // A button from an earlier turn (even of the same seat, a round later) is stale.
    if state.holder() != Some(seat) || state.record().len() != turn {
        return Ok(Reply::text(format!(
            "{} no longer holds the Token: nothing to vote on",
            state.seat_title(seat)
        )));
    }
    let motion = match proposal {
        Proposal::Skip => Motion::Skip { seat },
        Proposal::Expel => Motion::Expel { seat },
        Proposal::Bot => Motion::Replace {
            seat,
            player: c.data.host.bot_player(Level::Normal).await?,
        },
    };
    let what = names::with_names(c.data, &state.describe(&motion)).await;
    let lines = c.run(Command::Propose(motion)).await?;
    Ok(Reply::text(non_empty(
        lines,
        &format!("you proposed: {what}; your vote counts as yes"),
    )))
}

/// My side: the board from the clicker's seat (a spectator's: the public side), privately.
async fn on_board(c: &Click<'_>) -> Result<Reply, Error> {
    c.data.limits.picture(c.me)?;
    let state = c.data.host.state(c.game).await?;
    let viewer = Some(state.seat_of(c.me).unwrap_or(state.public_side()));
    let mut reply = board_reply(c.data, &state, viewer, c.me).await?;
    // With the web board served: a link that lets this player, and only them, play from it.
    let mut doors = Vec::new();
    if let (Some(links), Some(_)) = (&c.data.board, state.seat_of(c.me)) {
        let url = links.player(c.game, c.me, c.data.host.now());
        doors.push(CreateButton::new_link(url).label("My board"));
    }
    // With the Activity: Discord's deep link to it for this game, which opens it wherever the
    // player is (where a thread cannot hold an Activity, its parent channel does).
    if c.data.activity
        && let Some(app) = c.http.application_id()
    {
        doors.push(
            CreateButton::new_link(crate::discord::inbound::embedded::deep_link(
                app.get(),
                c.game,
            ))
            .label("Play in Discord"),
        );
    }
    if !doors.is_empty() {
        reply.components.push(CreateActionRow::Buttons(doors));
    }
    Ok(reply)
}

/// The board from `viewer`'s side as a private reply to `me`, with `me`'s private notes on the
/// game and queued move under it, if the picture queue has room (the caller checks the user's picture rate).
pub async fn board_reply(
    data: &Data,
    state: &GameState,
    viewer: Option<Seat>,
    me: PlayerId,
) -> Result<Reply, Error> {
    let mut caption = match viewer {
        Some(s) => format!(
            "{} from {}'s side",
            names::title(state),
            state.seat_title(s)
        ),
        None => names::title(state),
    };
    let notes = data.host.notes(state.id(), me).await?;
    caption.push_str(&notes_text(&notes));
    // `me`'s queued move (issue 22), theirs alone to see.
    if let Some(told) = state.seat_of(me).and_then(|s| state.queue_told(s)) {
        caption.push_str(&format!("\n⏳ {told} (only you see it)"));
    }
    let pic = picture::asked_board(data, state, viewer).await?;
    Ok(picture_reply(caption, pic))
}

/// A player's notes as lines under a private board: the newest that fit in a message beside
/// the caption (older ones are counted, not shown).
pub fn notes_text(notes: &[hexmeros::host::Note]) -> String {
    const ROOM: usize = 1500;
    if notes.is_empty() {
        return String::new();
    }
    let mut shown: Vec<String> = Vec::new();
    let mut used = 0;
    for n in notes.iter().rev() {
        let line = format!("\n• {} (<t:{}:R>)", n.text, n.at.div_euclid(1000));
        if used + line.chars().count() > ROOM {
            break;
        }
        used += line.chars().count();
        shown.push(line);
    }
    let hidden = notes.len() - shown.len();
    let mut out = String::from("\n📝 your notes (only you see them):");
    if hidden > 0 {
        out.push_str(&format!("\n• … {hidden} older"));
    }
    out.extend(shown.into_iter().rev());
    out
}

fn non_empty(lines: Vec<String>, default: &str) -> String {
    if lines.is_empty() {
        default.to_string()
    } else {
        lines.join("\n")
    }
}

/// A reaction on a turn message or on the status panel (which carries the three): the Token
/// holder's ✅ passes, ↩️ takes back; 🔄 sends any seated player the board from their side by DM
/// (reactions have no private reply). An acted-on reaction is removed, so it can be used
/// again; any other is left as it is.
async fn reaction(
    http: &Arc<Http>,
    data: &Data,
    r: &Reaction,
    bot: serenity::UserId,
) -> Result<(), Error> {
    let Some(user) = r.user_id else {
        return Ok(());
    };
    if user == bot {
        return Ok(());
    }
    let Some(link) = data.links.by_reactable(r.message_id.get()).await? else {
        return Ok(());
    };
    // A turn message seen from anywhere but its game's server is no turn message.
    if !scope::admits_link(Scope::of(r.guild_id, user), link.guild) {
        return Ok(());
    }
    let game = link.game;
    let me = user.get() as PlayerId;
    let emoji = match &r.emoji {
        ReactionType::Unicode(s) => s.as_str(),
        _ => "",
    };
    let state = data.host.state(game).await?;
    let holder = state.holder_player() == Some(me);
    let seated = state.seat_of(me).is_some();
    let cmd = match emoji {
        names::PASS if holder => Some(Command::Pass),
        names::TAKE_BACK if holder => Some(Command::TakeBack),
        names::MY_SIDE if seated => None,
        // Anyone else's reaction is left as it is: removing each would cost a call to Discord,
        // and a crowd's reactions would then hold up every game's boards.
        _ => return Ok(()),
    };
    tidy(http, data, r, user);
    let reply = match cmd {
        Some(cmd) => {
            let origin = Origin {
                channel: Some(r.channel_id),
                guild: r.guild_id,
                actor: Some(me),
            };
            match data.host.handle(game, Actor::player(me), cmd, None).await {
                // Success shows in the thread (the new board); only the host's private words
                // go by DM.
                Ok(done) => {
                    let lines = deliver::deliver(http, data, done.effects, origin).await;
                    if lines.is_empty() {
                        return Ok(());
                    }
                    Reply::text(format!("game #{game}: {}", lines.join("\n")))
                }
                Err(e) => Reply::text(format!(
                    "game #{game}: {}",
                    crate::discord::inbound::activity::error_text(&e.into())
                )),
            }
        }
        None => match my_side(data, &state, me).await {
            Some(r) => r,
            None => return Ok(()),
        },
    };
    if data.limits.dm_allowed(me) {
        deliver::dm_now(http, data, me, reply.into_message()).await;
    }
    Ok(())
}

/// Remove a reaction the bot acted on (so it can be made again), later and at the lowest
/// priority (a move's board goes first), at most a few a minute per user: beyond that it stays.
fn tidy(http: &Arc<Http>, data: &Data, r: &Reaction, user: serenity::UserId) {
    if !data.limits.reaction_removal(user.get() as PlayerId) {
        return;
    }
    let (http, data) = (http.clone(), data.clone());
    let (channel, message, emoji) = (r.channel_id, r.message_id, r.emoji.clone());
    tokio::spawn(async move {
        let low = crate::discord::wire::pace::Urgency::new(hexmeros::host::REMINDER);
        let remove = deliver::remove_reaction(&http, &data, channel, message, user, &emoji);
        crate::discord::wire::pace::with_priority(low, remove).await;
    });
}

/// The board from `me`'s side, to send by DM at their request: none over their picture rate
/// or when the picture queue is full (a reaction has no private answer to refuse with).
async fn my_side(data: &Data, state: &GameState, me: PlayerId) -> Option<Reply> {
    data.limits.picture(me).ok()?;
    board_reply(data, state, state.seat_of(me), me).await.ok()
}
