//! Gateway events that are not slash commands: component clicks (buttons, select menus) and
//! reactions on turn messages. Both are stateless: a component's id carries the game, the action
//! and the version it was made at; a reaction is matched to a game through the stored turn
//! message. So both keep working after a restart, and an old one is refused politely.

use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::{
    ComponentInteraction, ComponentInteractionDataKind, CreateActionRow, CreateAttachment,
    CreateButton, CreateInteractionResponse, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateMessage, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption, FullEvent, Http, Interaction, Reaction, ReactionType,
};

use hexmeros::ai::Level;
use hexmeros::games::{GameKind, Seat};
use hexmeros::host::{Actor, Command, GameId, GameState, HostError, Motion, PlayerId, Refused};

use super::deliver::{self, Origin};
use super::ids::{Action, ComponentId, Proposal};
use super::limits::Limits;
use super::picture::{self, Picture};
use super::scope::{self, Scope};
use super::{Data, Error};

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
        FullEvent::ReactionAdd { add_reaction } => {
            reaction(http, data, add_reaction, fw.bot_id()).await
        }
        _ => Ok(()),
    }
}

/// A private reply: text, maybe a file, maybe components. Sent as a slash command's reply or a
/// component's followup.
pub struct Reply {
    content: String,
    file: Option<CreateAttachment>,
    components: Vec<CreateActionRow>,
}

impl Reply {
    pub fn text(content: impl Into<String>) -> Reply {
        Reply {
            content: content.into(),
            file: None,
            components: Vec::new(),
        }
    }

    /// The text within Discord's limits, and the files: the reply's, and the whole text when
    /// it had to be cut (see `reply::fit`).
    fn fitted(self) -> (String, Vec<CreateAttachment>, Vec<CreateActionRow>) {
        let (content, whole) = super::reply::fit(self.content);
        let files = self.file.into_iter().chain(whole).collect();
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

    fn into_message(self) -> CreateMessage {
        let (content, files, _) = self.fitted();
        CreateMessage::new().content(content).add_files(files)
    }
}

/// A board picture as a private reply.
pub fn picture_reply(caption: String, pic: Picture) -> Reply {
    match pic {
        Picture::Png(png) => Reply {
            content: caption,
            file: Some(CreateAttachment::bytes(png, "board.png")),
            components: Vec::new(),
        },
        Picture::Text(t) if t.len() + caption.len() < 1900 => {
            Reply::text(format!("{caption}\n```\n{t}\n```"))
        }
        Picture::Text(t) => Reply {
            content: caption,
            file: Some(CreateAttachment::bytes(t.into_bytes(), "board.txt")),
            components: Vec::new(),
        },
    }
}

/// The reply after staging: the preview picture of the staged move with Pass / Take back /
/// Declare Check buttons; or the host's words when nothing is staged (the move was passed).
pub async fn staged_reply(
    data: &Data,
    game: GameId,
    me: PlayerId,
    lines: Vec<String>,
) -> Result<Reply, Error> {
    let state = data.host.state(game).await?;
    let mine = state.seat_of(me);
    let Some(st) = state.staged().filter(|s| Some(s.seat) == mine) else {
        return Ok(Reply::text(if lines.is_empty() {
            "done".to_string()
        } else {
            lines.join("\n")
        }));
    };
    // The host's own staging note carries a text board; the picture replaces it here.
    let mut text = format!(
        "staged **{}** (not committed yet): pass the Token to commit it, or take it back",
        st.text
    );
    for l in lines.iter().filter(|l| !l.starts_with("staged ")) {
        text.push('\n');
        text.push_str(l);
    }
    let waiting = st.waiting();
    if !waiting.is_empty() {
        let names: Vec<&str> = waiting.iter().map(|&s| state.seat_name(s)).collect();
        text.push_str(&format!(
            "\nchallenge window open: waiting for {}",
            names.join(", ")
        ));
    }
    let pic = picture::preview(&data.limits, me, &state, mine, &st.text).await;
    let mut reply = picture_reply(text, pic);
    let id = |a| ComponentId::new(game, state.version(), a).encode();
    let mut buttons = vec![
        CreateButton::new(id(Action::Pass))
            .label("Pass Token")
            .style(serenity::ButtonStyle::Success),
        CreateButton::new(id(Action::Back))
            .label("Take back")
            .style(serenity::ButtonStyle::Secondary),
        CreateButton::new(id(Action::Pick))
            .label("Another move…")
            .style(serenity::ButtonStyle::Primary),
    ];
    if state.kind() == GameKind::HexiMeros {
        buttons.push(
            CreateButton::new(id(Action::Checks))
                .label("Declare Check…")
                .style(serenity::ButtonStyle::Danger),
        );
    }
    reply.components = vec![CreateActionRow::Buttons(buttons)];
    Ok(reply)
}

/// Select menus of at most 25 options each, up to five rows; `action` makes menu number `i`'s
/// action.
fn menus(
    game: GameId,
    version: u64,
    action: impl Fn(u8) -> Action,
    placeholder: &str,
    options: Vec<(String, String)>,
) -> Vec<CreateActionRow> {
    let pages = options.len().div_ceil(25);
    (0u8..5)
        .zip(options.chunks(25))
        .map(|(i, chunk)| {
            let opts = chunk
                .iter()
                .map(|(label, value)| CreateSelectMenuOption::new(label, value))
                .collect();
            let id = ComponentId::new(game, version, action(i)).encode();
            CreateActionRow::SelectMenu(
                CreateSelectMenu::new(id, CreateSelectMenuKind::String { options: opts })
                    .placeholder(if chunk.len() < options.len() {
                        format!("{placeholder} ({}/{pages})", i + 1)
                    } else {
                        placeholder.to_string()
                    }),
            )
        })
        .collect()
}

async fn component(http: &Arc<Http>, data: &Data, ci: &ComponentInteraction) -> Result<(), Error> {
    // Acknowledge first: everything after may take longer than Discord's three seconds.
    let ack =
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
    deliver::retry_answer("acknowledging a click", || {
        ci.create_response(http, ack.clone())
    })
    .await?;
    let reply = match click(http, data, ci).await {
        Ok(r) => r,
        Err(e) => Reply::text(super::reply::error_text(&e)),
    };
    deliver::retry_answer("answering a click", || {
        ci.create_followup(http, reply_clone(&reply))
    })
    .await?;
    Ok(())
}

fn reply_clone(r: &Reply) -> CreateInteractionResponseFollowup {
    Reply {
        content: r.content.clone(),
        file: r.file.clone(),
        components: r.components.clone(),
    }
    .into_followup()
}

/// What a click does; the returned reply is sent privately to the clicker.
async fn click(http: &Arc<Http>, data: &Data, ci: &ComponentInteraction) -> Result<Reply, Error> {
    let Ok(id) = ComponentId::decode(&ci.data.custom_id) else {
        return Ok(Reply::text("this control is not one of mine any more"));
    };
    // A lobby's buttons name a lobby, not a game (its server's own: see `lobby`).
    if let Some(join) = id.action.lobby_join() {
        return super::lobby::click(http, data, ci, id.game, join)
            .await
            .map(Reply::text);
    }
    // A game of another server, or in a DM one the clicker does not play in, is unknown here
    // (before anything else, so nothing tells it from a game that does not exist).
    scope::admit(data, Scope::of(ci.guild_id, ci.user.id), id.game).await?;
    let me = ci.user.id.get() as PlayerId;
    data.host.ensure_player(me, &ci.user.name).await?;
    // A control made before the current turn message belongs to an earlier turn.
    if id.action.of_turn()
        && let Some(link) = data.links.by_game(id.game).await?
        && let Some(turn) = link.turn_version
        && id.version < turn
    {
        return Ok(Reply::text(
            "this button is from an earlier turn; use the latest board in the thread",
        ));
    }
    let c = Click::new(http, data, ci, id.game, me, id.version);
    match id.action {
        Action::Pick => on_pick(&c).await,
        Action::From { .. } => on_from(&c).await,
        Action::To { .. } => on_to(&c).await,
        Action::Pass => on_pass(&c).await,
        Action::Back => on_back(&c).await,
        Action::Checks => on_checks(&c).await,
        Action::Check { seat } => on_check(&c, seat).await,
        Action::Challenge { declare } => on_challenge(&c, declare).await,
        Action::Vote { motion, yes } => on_vote(&c, motion, yes).await,
        Action::Claim => on_claim(&c).await,
        Action::Stall {
            proposal,
            seat,
            turn,
        } => on_stall(&c, proposal, seat, turn).await,
        Action::Board => on_board(&c).await,
        Action::LobbyJoin | Action::LobbyDecline => Err(anyhow::anyhow!("a lobby button")),
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
            .await?;
        Ok(deliver::deliver(self.http, self.data, fx, self.origin).await)
    }

    /// Run the command of this control: the host refuses it, changing nothing, when what the
    /// control was made for has gone (an earlier preview, challenge window or vote).
    async fn press(&self, cmd: Command) -> Result<Vec<String>, Error> {
        let fx = self
            .data
            .host
            .press(self.game, self.actor, cmd, self.made)
            .await?;
        Ok(deliver::deliver(self.http, self.data, fx, self.origin).await)
    }

    /// The option picked from a select menu of `what`.
    fn picked(&self, what: &str) -> Result<String, Error> {
        self.value
            .clone()
            .ok_or_else(|| anyhow::anyhow!("no {what} was picked"))
    }
}

/// Move…: a select menu of the pieces that can move.
async fn on_pick(c: &Click<'_>) -> Result<Reply, Error> {
    // The host answers only the Token holder's mover; anyone else reads why not.
    let pieces = c.data.host.movable_pieces(c.game, c.me).await?;
    let state = c.data.host.state(c.game).await?;
    let n = pieces.len();
    let options = pieces.into_iter().map(|p| (p.clone(), p)).collect();
    let mut r = Reply::text(format!(
        "pick a piece ({n} can move){}",
        if n > 125 {
            "; more with /hexmeros move"
        } else {
            ""
        }
    ));
    let from = |menu| Action::From { menu };
    r.components = menus(c.game, state.version(), from, "piece", options);
    Ok(r)
}

/// A piece was picked: a select menu of its moves.
async fn on_from(c: &Click<'_>) -> Result<Reply, Error> {
    let from = c.picked("piece")?;
    let moves: Vec<(String, String)> = c
        .data
        .host
        .piece_moves(c.game, c.me, &from)
        .await?
        .into_iter()
        .map(|m| (m.clone(), m))
        .collect();
    let state = c.data.host.state(c.game).await?;
    if moves.is_empty() {
        return Ok(Reply::text(format!("{from} has no legal move now")));
    }
    let mut r = Reply::text(format!("{from}: pick a destination"));
    let to = |menu| Action::To { menu };
    r.components = menus(c.game, state.version(), to, "destination", moves);
    Ok(r)
}

/// A move was picked: stage it and show the preview.
async fn on_to(c: &Click<'_>) -> Result<Reply, Error> {
    let text = c.picked("destination")?;
    let lines = c
        .run(Command::Move {
            text,
            commit: false,
        })
        .await?;
    staged_reply(c.data, c.game, c.me, lines).await
}

async fn on_pass(c: &Click<'_>) -> Result<Reply, Error> {
    let lines = c.press(Command::Pass).await?;
    Ok(Reply::text(non_empty(lines, "the Token is passed")))
}

async fn on_back(c: &Click<'_>) -> Result<Reply, Error> {
    let lines = c.press(Command::TakeBack).await?;
    Ok(Reply::text(non_empty(lines, "move taken back")))
}

/// Declare Check…: a button per seat the staged move may declare Check on.
async fn on_checks(c: &Click<'_>) -> Result<Reply, Error> {
    // The host decides which declarations the staged move may carry (and refuses anyone but
    // the mover, or when nothing is staged).
    let state = c.data.host.state(c.game).await?;
    state
        .require_preview_since(c.made)
        .map_err(HostError::from)?;
    let seats = c.data.host.declarable_checks(c.game, c.me).await?;
    let st = state
        .staged()
        .ok_or(HostError::from(Refused::NothingStaged))?;
    if seats.is_empty() {
        return Ok(Reply::text(format!(
            "{} attacks no Sovereign: there is no Check to declare",
            st.text
        )));
    }
    let buttons = seats
        .iter()
        .take(5)
        .map(|&seat| {
            CreateButton::new(
                ComponentId::new(c.game, state.version(), Action::Check { seat }).encode(),
            )
            .label(format!("Check on {}", state.seat_name(seat)))
            .style(serenity::ButtonStyle::Danger)
        })
        .collect();
    let mut r = Reply::text("declare Check on:");
    r.components = vec![CreateActionRow::Buttons(buttons)];
    Ok(r)
}

async fn on_check(c: &Click<'_>, seat: Seat) -> Result<Reply, Error> {
    let lines = c.press(Command::Check { seat }).await?;
    staged_reply(c.data, c.game, c.me, lines).await
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
    Ok(Reply::text(non_empty(
        lines,
        &format!(
            "you voted {} on motion #{motion}",
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
            state.seat_name(seat)
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
    let what = deliver::with_names(c.data, &state.describe(&motion)).await;
    let lines = c.run(Command::Propose(motion)).await?;
    Ok(Reply::text(non_empty(
        lines,
        &format!("you proposed: {what}; your vote counts as yes"),
    )))
}

/// My side: the board from the clicker's seat (or the Token holder's), privately.
async fn on_board(c: &Click<'_>) -> Result<Reply, Error> {
    c.data.limits.picture(c.me)?;
    let state = c.data.host.state(c.game).await?;
    let viewer = state.seat_of(c.me).or(state.holder());
    board_reply(&c.data.limits, &state, viewer).await
}

/// The board from `viewer`'s side as a private reply, if the picture queue has room (the
/// caller checks the user's picture rate).
pub async fn board_reply(
    limits: &Limits,
    state: &GameState,
    viewer: Option<Seat>,
) -> Result<Reply, Error> {
    let caption = match viewer {
        Some(s) => format!(
            "{} from {}'s side",
            deliver::title(state),
            state.seat_name(s)
        ),
        None => deliver::title(state),
    };
    let pic = picture::asked_board(limits, state, viewer).await?;
    Ok(picture_reply(caption, pic))
}

fn non_empty(lines: Vec<String>, default: &str) -> String {
    if lines.is_empty() {
        default.to_string()
    } else {
        lines.join("\n")
    }
}

/// A reaction on a turn message: the Token holder's ✅ passes, ↩️ takes back; 🔄 sends any
/// seated player the board from their side by DM (reactions have no private reply). Every other
/// reaction is removed, and so is an acted-on one, so it can be used again.
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
    let Some(link) = data.links.by_turn_message(r.message_id.get()).await? else {
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
        deliver::PASS if holder => Some(Command::Pass),
        deliver::TAKE_BACK if holder => Some(Command::TakeBack),
        deliver::MY_SIDE if seated => None,
        _ => {
            deliver::remove_reaction(http, r.channel_id, r.message_id, user, &r.emoji).await;
            return Ok(());
        }
    };
    deliver::remove_reaction(http, r.channel_id, r.message_id, user, &r.emoji).await;
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
                Ok(fx) => {
                    let lines = deliver::deliver(http, data, fx, origin).await;
                    if lines.is_empty() {
                        return Ok(());
                    }
                    Reply::text(format!("game #{game}: {}", lines.join("\n")))
                }
                Err(e) => Reply::text(format!(
                    "game #{game}: {}",
                    super::reply::error_text(&e.into())
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

/// The board from `me`'s side, to send by DM at their request: none over their picture rate
/// or when the picture queue is full (a reaction has no private answer to refuse with).
async fn my_side(data: &Data, state: &GameState, me: PlayerId) -> Option<Reply> {
    data.limits.picture(me).ok()?;
    board_reply(&data.limits, state, state.seat_of(me))
        .await
        .ok()
}
