//! What asks the players: a challenge window's question, a motion's ballot, the notice of a
//! stalled Token holder and the claim of a win on time.

use super::*;

/// The question to a player in a challenge window, with buttons, and the picture of what is
/// challenged: the board from the asked player's side with the staged move drawn as a preview
/// (the game as it was when the window opened, `version`). The text names the move, its mover
/// (whose Sovereign is attacked) and the asked player (the attacker). Without the picture (the
/// staging is gone from the log, or the asked player is over their picture rate: a text board)
/// the question is asked all the same.
pub(super) async fn ask_challenge(
    data: &Data,
    game: GameId,
    player: PlayerId,
    version: u64,
    text: &Sentence,
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
    let content = format!("{who} {}", with_names(data, text).await);
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

/// A ballot message with Yes / No buttons for motion `motion`, while it is open: the motion as
/// the host announced it (`text`) with the pings of the players asked to vote (`voters`), one
/// message; or, for an entry stored before the host carried them, worded from the state.
pub(super) async fn ballot(
    data: &Data,
    state: &GameState,
    motion: u64,
    text: &Sentence,
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
pub(super) async fn stalled(
    data: &Data,
    state: &GameState,
    seat: Seat,
    turn: usize,
) -> Option<CreateMessage> {
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
pub(super) fn stall_notice(state: &GameState, seat: Seat) -> CreateMessage {
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
pub(super) async fn claim_notice(
    data: &Data,
    state: &GameState,
    stalled: Seat,
) -> Option<CreateMessage> {
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
