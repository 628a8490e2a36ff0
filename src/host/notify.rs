//! The direct messages a player asked for (`/hexmeros notify`): their turn (`turn`), and a
//! nudge when everyone else has voted on a motion and only their vote is missing (`nudge`).
//! Made with the event that causes them, so they go out through the outbox once.

use super::state::{Awaited, GameState};
use super::{Effect, GameHost, GameId, bot_level, say};

/// The DM of a Token holder who asked to hear of their turns that way (`GameHost::commit` and
/// a new game's opening), for a person holding the Token of `game`.
pub(super) fn your_turn(state: &GameState, game: GameId) -> Option<Effect> {
    let (seat, player) = (state.holder()?, state.holder_player()?);
    bot_level(player).is_none().then(|| Effect::YourTurn {
        game,
        player,
        text: say::your_turn_dm(state.kind().name(), game, &state.seat_title(seat)).into(),
    })
}

impl GameHost {
    /// A DM to the one person something now waits on alone (a motion's last vote, a challenge
    /// window's last answer), when the event that turned `before` into `after` made them the
    /// last (it waited on more before) and they asked for such nudges. A person's settings that
    /// cannot be read count as not asked.
    pub(super) async fn nudges(&self, before: &GameState, after: &GameState) -> Vec<Effect> {
        let was = before.awaited();
        let mut fx = Vec::new();
        for (what, waiting) in after.awaited() {
            let [player] = waiting[..] else {
                continue;
            };
            if !was.iter().any(|(w, p)| *w == what && p.len() > 1) {
                continue;
            }
            if !self.settings(player).await.is_ok_and(|s| s.nudge) {
                continue;
            }
            let (game, name) = (after.id(), after.kind().name());
            let text = match what {
                Awaited::Vote(id) => {
                    let Some(m) = after.motions().iter().find(|m| m.id == id) else {
                        continue;
                    };
                    say::nudge(name, game, &format!("your vote on motion #{}", m.number))
                        + after.describe(&m.motion)
                        + ")"
                }
                Awaited::Window(_) => {
                    let Some(st) = after.staged() else {
                        continue;
                    };
                    let mover = after.seat_title(st.seat);
                    say::nudge(name, game, &format!("your answer on {mover}'s {}", st.text)) + ")"
                }
            };
            fx.push(Effect::Nudge { game, player, text });
        }
        fx
    }
}
