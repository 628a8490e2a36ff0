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
use hexmeros::host::{Actor, Command, GameId, Motion, PlayerId};

use super::deliver::{self, Origin};
use super::ids::{self, Action, CustomId};
use super::picture::{self, Picture};
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

    pub fn into_poise(self) -> poise::CreateReply {
        let mut r = poise::CreateReply::default()
            .content(self.content)
            .ephemeral(true)
            .components(self.components);
        if let Some(f) = self.file {
            r = r.attachment(f);
        }
        r
    }

    fn into_followup(self) -> CreateInteractionResponseFollowup {
        let mut r = CreateInteractionResponseFollowup::new()
            .content(self.content)
            .ephemeral(true)
            .components(self.components);
        if let Some(f) = self.file {
            r = r.add_file(f);
        }
        r
    }

    fn into_message(self) -> CreateMessage {
        let mut r = CreateMessage::new().content(self.content);
        if let Some(f) = self.file {
            r = r.add_file(f);
        }
        r
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
    let Some(st) = state.staged.as_ref().filter(|s| Some(s.seat) == mine) else {
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
    let pic = picture::preview(&state, mine, &st.text).await;
    let mut reply = picture_reply(text, pic);
    let id = |a| CustomId::new(game, a, state.version).to_string();
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

/// Select menus of at most 25 options each, up to five rows.
fn menus(
    game: GameId,
    action: Action,
    version: u64,
    placeholder: &str,
    options: Vec<(String, String)>,
) -> Vec<CreateActionRow> {
    options
        .chunks(25)
        .take(5)
        .enumerate()
        .map(|(i, chunk)| {
            let opts = chunk
                .iter()
                .map(|(label, value)| CreateSelectMenuOption::new(label, value))
                .collect();
            let id = CustomId::new(game, action, version)
                .arg(i.to_string())
                .to_string();
            CreateActionRow::SelectMenu(
                CreateSelectMenu::new(id, CreateSelectMenuKind::String { options: opts })
                    .placeholder(if chunk.len() < options.len() {
                        format!("{placeholder} ({}/{})", i + 1, options.len().div_ceil(25))
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
    deliver::retry("acknowledging a click", || {
        ci.create_response(http, ack.clone())
    })
    .await?;
    let reply = match click(http, data, ci).await {
        Ok(r) => r,
        Err(e) => Reply::text(super::reply::error_text(&e)),
    };
    deliver::retry("answering a click", || {
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
    let Some(id) = CustomId::parse(&ci.data.custom_id) else {
        return Ok(Reply::text("this control is not one of mine any more"));
    };
    let me = ci.user.id.get() as PlayerId;
    data.host
        .store()
        .ensure_player(me, &ci.user.name, data.host.now())
        .await?;
    let game = id.game;
    let turn_action = matches!(
        id.action,
        Action::Pick
            | Action::From
            | Action::To
            | Action::Pass
            | Action::Back
            | Action::Checks
            | Action::Check
    );
    // A control made before the current turn message belongs to an earlier turn.
    if turn_action
        && let Some(link) = data.links.by_game(game).await?
        && let Some(turn) = link.turn_version
        && id.version < turn
    {
        return Ok(Reply::text(
            "this button is from an earlier turn; use the latest board in the thread",
        ));
    }
    let value = match &ci.data.kind {
        ComponentInteractionDataKind::StringSelect { values } => values.first().cloned(),
        _ => None,
    };
    let origin = Origin {
        channel: Some(ci.channel_id),
        guild: ci.guild_id,
        actor: Some(me),
    };
    let admin = ci
        .member
        .as_ref()
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.manage_guild());
    let actor = Actor { player: me, admin };
    let run = |cmd: Command, expected: Option<u64>| async move {
        let fx = data.host.handle(game, actor, cmd, expected).await?;
        Ok::<_, Error>(deliver::deliver(http, data, fx, origin).await)
    };
    match id.action {
        Action::Pick => {
            let state = data.host.state(game).await?;
            if let Some(e) = super::commands::not_your_turn(&state, me) {
                return Err(e.into());
            }
            let moves = state.game.legal_moves();
            let mut origins: Vec<&str> = moves.iter().map(|m| ids::origin(m)).collect();
            origins.sort();
            origins.dedup();
            let n = origins.len();
            let options = origins
                .into_iter()
                .map(|o| (o.to_string(), o.to_string()))
                .collect();
            let mut r = Reply::text(format!(
                "pick a piece ({n} can move){}",
                if n > 125 {
                    "; more with /hexmeros move"
                } else {
                    ""
                }
            ));
            r.components = menus(game, Action::From, state.version, "piece", options);
            Ok(r)
        }
        Action::From => {
            let from = value.ok_or_else(|| anyhow::anyhow!("no piece was picked"))?;
            let state = data.host.state(game).await?;
            if let Some(e) = super::commands::not_your_turn(&state, me) {
                return Err(e.into());
            }
            let moves: Vec<(String, String)> = state
                .game
                .legal_moves()
                .into_iter()
                .filter(|m| ids::origin(m) == from)
                .map(|m| (m.clone(), m))
                .collect();
            if moves.is_empty() {
                return Ok(Reply::text(format!("{from} has no legal move now")));
            }
            let mut r = Reply::text(format!("{from}: pick a destination"));
            r.components = menus(game, Action::To, state.version, "destination", moves);
            Ok(r)
        }
        Action::To => {
            let text = value.ok_or_else(|| anyhow::anyhow!("no destination was picked"))?;
            let lines = run(
                Command::Move {
                    text,
                    commit: false,
                },
                None,
            )
            .await?;
            staged_reply(data, game, me, lines).await
        }
        Action::Pass => Ok(Reply::text(non_empty(
            run(Command::Pass, None).await?,
            "the Token is passed",
        ))),
        Action::Back => Ok(Reply::text(non_empty(
            run(Command::TakeBack, None).await?,
            "move taken back",
        ))),
        Action::Checks => {
            let state = data.host.state(game).await?;
            if let Some(e) = super::commands::not_your_turn(&state, me) {
                return Err(e.into());
            }
            let st = state
                .staged
                .as_ref()
                .ok_or(hexmeros::host::HostError::NothingStaged)?;
            // The host decides which declarations the staged move may carry.
            let seats: Vec<Seat> = state
                .active()
                .into_iter()
                .filter(|&s| Some(s) != state.holder())
                .filter(|&s| {
                    state
                        .prepare_stage(&format!("{}+{}", st.text, state.seat_name(s)))
                        .is_ok()
                })
                .collect();
            if seats.is_empty() {
                return Ok(Reply::text(format!(
                    "{} attacks no Sovereign: there is no Check to declare",
                    st.text
                )));
            }
            let buttons = seats
                .iter()
                .take(5)
                .map(|&s| {
                    CreateButton::new(
                        CustomId::new(game, Action::Check, state.version)
                            .arg(s.0.to_string())
                            .to_string(),
                    )
                    .label(format!("Check on {}", state.seat_name(s)))
                    .style(serenity::ButtonStyle::Danger)
                })
                .collect();
            let mut r = Reply::text("declare Check on:");
            r.components = vec![CreateActionRow::Buttons(buttons)];
            Ok(r)
        }
        Action::Check => {
            let seat = id
                .arg
                .as_deref()
                .and_then(|a| a.parse().ok())
                .map(Seat)
                .ok_or_else(|| anyhow::anyhow!("this button names no seat"))?;
            let lines = run(Command::Check { seat }, None).await?;
            staged_reply(data, game, me, lines).await
        }
        Action::Challenge => {
            let declare = id.arg.as_deref() == Some("y");
            let lines = run(Command::Challenge { declare }, None).await?;
            Ok(Reply::text(non_empty(
                lines,
                if declare {
                    "you declared Check upon the mover"
                } else {
                    "you let the move stand"
                },
            )))
        }
        Action::Vote => {
            let (motion, yes) = id
                .arg
                .as_deref()
                .and_then(|a| a.split_once('-'))
                .and_then(|(m, y)| Some((m.parse().ok()?, y == "y")))
                .ok_or_else(|| anyhow::anyhow!("this ballot button is damaged"))?;
            let lines = run(
                Command::Vote {
                    motion: Some(motion),
                    yes,
                },
                None,
            )
            .await?;
            Ok(Reply::text(non_empty(
                lines,
                &format!(
                    "you voted {} on motion #{motion}",
                    if yes { "yes" } else { "no" }
                ),
            )))
        }
        Action::Stall => {
            let mut parts = id.arg.as_deref().unwrap_or_default().splitn(3, '-');
            let (what, seat, turn) = (parts.next(), parts.next(), parts.next());
            let (Some(what), Some(Ok(seat)), Some(Ok(turn))) = (
                what,
                seat.map(str::parse::<u8>),
                turn.map(str::parse::<usize>),
            ) else {
                return Err(anyhow::anyhow!("this button names no seat"));
            };
            let seat = Seat(seat);
            let state = data.host.state(game).await?;
            // A button from an earlier turn (even of the same seat, a round later) is stale.
            if state.holder() != Some(seat) || state.record.len() != turn {
                return Ok(Reply::text(format!(
                    "{} no longer holds the Token: nothing to vote on",
                    state.seat_name(seat)
                )));
            }
            let motion = match what {
                "skip" => Motion::Skip { seat },
                "expel" => Motion::Expel { seat },
                "bot" => Motion::Replace {
                    seat,
                    player: data
                        .host
                        .store()
                        .bot_player(Level::Normal, data.host.now())
                        .await?,
                },
                _ => return Err(anyhow::anyhow!("this button proposes nothing I know")),
            };
            let what = deliver::with_names(data, &state.describe(&motion)).await;
            let lines = run(Command::Propose(motion), None).await?;
            Ok(Reply::text(non_empty(
                lines,
                &format!("you proposed: {what}; your vote counts as yes"),
            )))
        }
        Action::Board => {
            let state = data.host.state(game).await?;
            let viewer = state.seat_of(me).or(state.holder());
            let caption = match viewer {
                Some(s) => format!(
                    "{} from {}'s side",
                    deliver::title(&state),
                    state.seat_name(s)
                ),
                None => deliver::title(&state),
            };
            Ok(picture_reply(caption, picture::board(&state, viewer).await))
        }
    }
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
        None => {
            let viewer = state.seat_of(me);
            let caption = match viewer {
                Some(s) => format!(
                    "{} from {}'s side",
                    deliver::title(&state),
                    state.seat_name(s)
                ),
                None => deliver::title(&state),
            };
            picture_reply(caption, picture::board(&state, viewer).await)
        }
    };
    deliver::dm(http, data, me, reply.into_message(), false).await;
    Ok(())
}
