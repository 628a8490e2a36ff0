//! What a bot seat must do next. The host's `bot_turns` does it and stores it like a person's
//! command.

use super::super::event::Motion;
use super::{GameState, Status};
use crate::ai::{self, Level};
use crate::games::Seat;

/// What a bot seat must do next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotAction {
    /// Answer the challenge window about the staged move (§5.4).
    Answer { seat: Seat, level: Level },
    /// Vote on an open motion.
    Vote {
        motion: u64,
        seat: Seat,
        level: Level,
    },
    /// Pass the Token: the staged move's challenge window has closed.
    Pass { seat: Seat },
    /// Choose a move (respecting Checks declared upon it), stage it and pass if no window opens.
    Move { seat: Seat, level: Level },
    /// Put the vote to abandon a deadlocked table as a draw (`ai::proposes_abandon`).
    Propose { seat: Seat },
    /// A person's turn has come with a queued move (issue 22): play it for them if its
    /// conditions hold, else drop it (`GameState::queue_event`).
    Queued { seat: Seat },
}

impl GameState {
    /// The next thing a bot must do in this game, if any: answers in a challenge window first,
    /// then votes, then the Token holder's move. `None` while people must act. A bot Silver does
    /// not end the House Rules phase while a house-rule ballot is open (it moves once that closes).
    pub fn bot_action(&self) -> Option<BotAction> {
        self.live().ok()?;
        if let Some(st) = &self.staged {
            for seat in st.waiting() {
                if let Some(level) = self.bot(seat) {
                    return Some(BotAction::Answer { seat, level });
                }
            }
        }
        for m in &self.motions {
            for seat in self.voters(&m.motion) {
                if !m.yes.contains(&seat)
                    && !m.no.contains(&seat)
                    && let Some(level) = self.bot(seat)
                {
                    return Some(BotAction::Vote {
                        motion: m.id,
                        seat,
                        level,
                    });
                }
            }
        }
        let seat = self.holder()?;
        if self.staged.is_none() && self.queued(seat).is_some() {
            return Some(BotAction::Queued { seat });
        }
        let level = self.bot(seat)?;
        match &self.staged {
            Some(st) => st.waiting().is_empty().then_some(BotAction::Pass { seat }),
            None => {
                let house_ballot = self.life == Status::HouseRules
                    && self
                        .motions
                        .iter()
                        .any(|m| matches!(m.motion, Motion::HouseRule { .. }));
                if self.abandon_due(seat) {
                    return Some(BotAction::Propose { seat });
                }
                (!house_ballot).then_some(BotAction::Move { seat, level })
            }
        }
    }

    /// Whether the bot holding the Token in `seat` proposes abandoning the game: the table is
    /// deadlocked and it is the moment to ask (`ai::proposes_abandon`), `seat` is the first bot
    /// seat still in (one bot speaks for the bots), no draw vote is open and none was put
    /// since the last move (a table that votes it down is not asked again this turn).
    fn abandon_due(&self, seat: Seat) -> bool {
        let first_bot = self.active().into_iter().find(|&s| self.bot(s).is_some());
        first_bot == Some(seat)
            && self.draw_asked != Some(self.record.len())
            && !self.motions.iter().any(|m| m.motion == Motion::Draw)
            && ai::proposes_abandon(&self.game)
    }
}
