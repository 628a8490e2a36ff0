//! Queued (conditional) moves (issue 22): a waiting player queues a move for their next turn,
//! with conditions. When the turn comes the host checks them against the position and the rules
//! (`queue_event`, driven like a bot's action: `BotAction::Queued`) and either plays the move for
//! the player or drops it with a ping saying why. The queue is private: only its player is told
//! of it, and `export` never writes it (it writes committed lines only).

use super::super::effect::Effect;
use super::super::error::HostError;
use super::super::event::{Event, Millis, PlayerId, QueueConditions, QueueMiss, QueuedPiece};
use super::{GameState, Refused, say};
use crate::games::{PieceText, PlayError, Seat, Unresolved, notation};

/// A seat's queued move: its text (canonical when it could be resolved) and conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedMove {
    pub text: String,
    pub conditions: QueueConditions,
}

impl GameState {
    /// The move `seat` has queued for its next turn, if any. Private to the seat's player: a
    /// front end shows it to nobody else.
    pub fn queued(&self, seat: Seat) -> Option<&QueuedMove> {
        self.queue.get(seat.index()).and_then(Option::as_ref)
    }

    /// The seat's queued move in words, for its player.
    pub fn queue_told(&self, seat: Seat) -> Option<String> {
        self.queued(seat)
            .map(|q| say::queued(&q.text, &q.conditions, self.game.royal_name()))
    }

    fn piece_on(&self, cell: &str) -> Option<PieceText> {
        self.game
            .piece_texts()
            .into_iter()
            .find(|p| p.cell.eq_ignore_ascii_case(cell))
    }

    /// The event that queues `text` for `player`'s next turn, checked: a seated player still in
    /// the game, its team's mover, not holding the Token, move text the game's notation reads,
    /// starting from a piece of theirs; `sovereign_safe` only in games with a Sovereign or King;
    /// `if_reply` only with two players left, a move the opponent may make now, after which the
    /// queued move must be legal.
    pub(crate) fn prepare_queue(
        &self,
        player: PlayerId,
        text: &str,
        sovereign_safe: bool,
        if_reply: Option<&str>,
    ) -> Result<Event, Refused> {
        if self.over() || self.outcome().is_some() {
            return Err(Refused::GameOver);
        }
        let seat = self.seat_of(player).ok_or(Refused::NotSeated)?;
        self.require_active(seat)?;
        if self.player(seat) != player {
            return Err(Refused::NotTeamMover);
        }
        if self.holder() == Some(seat) {
            return Err(Refused::QueueOwnTurn);
        }
        let text = text.trim();
        // Read with the game's own notation: only a syntax error counts now, as the move is
        // for a later position (its legality is checked when it is played).
        if let Err(Unresolved::Play(PlayError::Syntax(e))) = self.game.resolve(text, &[]) {
            return Err(Refused::Syntax(e.to_string()));
        }
        if sovereign_safe && self.game.royal_attacked(seat).is_none() {
            return Err(Refused::QueueNoSovereign(self.kind().name()));
        }
        let mut canonical = text.to_string();
        let mut reply = None;
        if let Some(r) = if_reply.map(str::trim).filter(|r| !r.is_empty()) {
            self.opponent(seat).ok_or(Refused::QueueReplyNeedsTwo)?;
            let (r, mut after) = self.preview(r).map_err(|e| Refused::QueueBadReply {
                reply: r.to_string(),
                reason: e.to_string(),
            })?;
            // The queued move is checked in full where the reply hands the turn over.
            if after.to_move() == Some(seat) {
                canonical = after.play(text).map_err(|e| Refused::QueueIllegalAfter {
                    reply: r.clone(),
                    reason: e.to_string(),
                })?;
            }
            reply = Some(r);
        }
        // A move from a cell (not a drop, nor a word such as pass) needs a piece of theirs there.
        let from = notation::origin(&canonical);
        let piece = if from.is_empty() || from.ends_with('@') || from == canonical {
            None
        } else {
            let p = self
                .piece_on(from)
                .filter(|p| p.owner.eq_ignore_ascii_case(self.seat_name(seat)))
                .ok_or_else(|| Refused::QueueNotYourPiece(from.to_string()))?;
            Some(QueuedPiece {
                cell: p.cell,
                owner: p.owner,
                kind: p.kind,
            })
        };
        Ok(Event::Queued {
            seat,
            text: canonical,
            conditions: QueueConditions {
                piece,
                sovereign_safe,
                if_reply: reply,
            },
        })
    }

    /// What the host does with `seat`'s queued move now that its turn has come: play it, or drop
    /// it with the first condition that fails. `None` when the seat has nothing queued.
    pub(crate) fn queue_event(&self, seat: Seat) -> Option<Event> {
        let q = self.queued(seat)?;
        let drop = |why| Some(Event::QueueDropped { seat, why });
        if let Some(p) = &q.conditions.piece {
            let still = self
                .piece_on(&p.cell)
                .is_some_and(|now| now.owner == p.owner && now.kind == p.kind);
            if !still {
                return drop(QueueMiss::PieceGone {
                    cell: p.cell.clone(),
                });
            }
        }
        if let Some(expected) = &q.conditions.if_reply {
            let played = self
                .last_move
                .as_ref()
                .filter(|(s, _)| *s != seat)
                .map(|(_, t)| t.clone());
            if played.as_deref() != Some(expected.as_str()) {
                return drop(QueueMiss::OtherReply {
                    expected: expected.clone(),
                    played,
                });
            }
        }
        if q.conditions.sovereign_safe && self.game.royal_attacked(seat) == Some(true) {
            return drop(QueueMiss::SovereignAttacked);
        }
        match self.prepare_stage(&q.text) {
            Ok((text, asked)) => Some(Event::QueuePlayed { seat, text, asked }),
            Err(e) => drop(QueueMiss::Refused {
                reason: e.to_string(),
            }),
        }
    }

    /// Forget `seat`'s queued move (its player acted, left or was replaced).
    pub(super) fn forget_queue(&mut self, seat: Seat) {
        if let Some(q) = self.queue.get_mut(seat.index()) {
            *q = None;
        }
    }

    pub(super) fn queue_move(
        &mut self,
        seat: Seat,
        text: &str,
        conditions: &QueueConditions,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        if self.over() {
            return Err(Refused::GameOver.into());
        }
        self.require_active(seat)?;
        if self.holder() == Some(seat) {
            return Err(Refused::QueueOwnTurn.into());
        }
        let q = QueuedMove {
            text: text.to_string(),
            conditions: conditions.clone(),
        };
        fx.push(Effect::Private {
            player: self.player(seat),
            text: say::queued(&q.text, &q.conditions, self.game.royal_name()),
        });
        if let Some(slot) = self.queue.get_mut(seat.index()) {
            *slot = Some(q);
        }
        Ok(())
    }

    pub(super) fn clear_queue(
        &mut self,
        seat: Seat,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        let q = self
            .queue
            .get_mut(seat.index())
            .and_then(Option::take)
            .ok_or(Refused::NothingQueued)?;
        fx.push(Effect::Private {
            player: self.player(seat),
            text: say::queue_cleared(&q.text),
        });
        Ok(())
    }

    /// The queued move failed a condition: cleared, and the player is pinged for the turn with
    /// the reason (the turn's ping waited for this, see `announce_turn`).
    pub(super) fn drop_queue(
        &mut self,
        seat: Seat,
        why: &QueueMiss,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.live()?;
        self.require_holder(seat)?;
        self.queue
            .get_mut(seat.index())
            .and_then(Option::take)
            .ok_or(Refused::NothingQueued)?;
        let by = self.seat_names(&self.game.binding_challenges());
        fx.push(Effect::Ping {
            game: self.id,
            player: self.player(seat),
            text: format!(
                "{}; {}",
                say::your_token(self.seat_name(seat), &by),
                say::queue_missed(why, self.game.royal_name())
            ),
        });
        Ok(())
    }

    /// The queued move held: staged for the player as if they had staged it, and passed at once
    /// when nobody is asked, else as soon as the challenge window closes with nobody declaring.
    pub(super) fn play_queue(
        &mut self,
        seat: Seat,
        text: &str,
        asked: &[Seat],
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.live()?;
        self.require_holder(seat)?;
        if self.queued(seat).is_none() {
            return Err(Refused::NothingQueued.into());
        }
        let mut staged = Vec::new();
        self.stage(seat, text, asked, at, &mut staged)?;
        // The player did not ask for a preview: the table is told instead.
        staged.retain(|e| !matches!(e, Effect::Private { .. }));
        fx.append(&mut staged);
        let Some(st) = self.staged.as_mut() else {
            return Err(Refused::NothingStaged.into());
        };
        st.queued = true;
        let canonical = st.text.clone();
        if asked.is_empty() {
            self.commit(seat, &canonical, at, fx)
        } else {
            st.pass_when_closed = true;
            Ok(())
        }
    }
}
