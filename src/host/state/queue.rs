//! Queued (conditional) moves (issue 22): a waiting player queues a move for their next turn,
//! with conditions. When the turn comes the host checks them against the position and the rules
//! (`queue_event`, driven like a bot's action: `BotAction::Queued`) and either plays the move for
//! the player or drops it with a ping saying why. The queue is private: only its player is told
//! of it, and `export` never writes it (it writes committed lines only).
//!
//! A seat queues one move; a new one replaces it. With two players, moves queued each for a
//! different answer of the opponent's (`if_reply`) are kept side by side as lines, at most
//! [`QUEUE_LINES`], and the first line that holds is played.

use super::super::effect::Effect;
use super::super::error::HostError;
use super::super::event::{Event, Millis, PlayerId, QueueConditions, QueueMiss, QueuedPiece};
use super::{GameState, Refused, say};
use crate::games::{PieceText, PlayError, Seat, Unresolved, notation};

/// The most lines a seat may queue.
pub const QUEUE_LINES: usize = 6;

/// A seat's queued move: its text (canonical when it could be resolved) and conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedMove {
    pub text: String,
    pub conditions: QueueConditions,
}

impl GameState {
    /// The move `seat` has queued for its next turn (its first line), if any. Private to the
    /// seat's player: a front end shows it to nobody else.
    pub fn queued(&self, seat: Seat) -> Option<&QueuedMove> {
        self.queued_lines(seat).first()
    }

    /// Every line `seat` has queued, in the order they are tried.
    pub fn queued_lines(&self, seat: Seat) -> &[QueuedMove] {
        self.queue.get(seat.index()).map_or(&[], Vec::as_slice)
    }

    fn line_told(&self, q: &QueuedMove) -> String {
        say::queue_line(&q.text, &q.conditions, self.game.royal_name())
    }

    /// The seat's queued move in words, for its player.
    pub fn queue_told(&self, seat: Seat) -> Option<String> {
        let lines: Vec<String> = self
            .queued_lines(seat)
            .iter()
            .map(|q| self.line_told(q))
            .collect();
        if lines.is_empty() {
            let why = self
                .queue_missed
                .get(seat.index())
                .and_then(Option::as_ref)?;
            return Some(say::queue_missed_here(why, self.game.royal_name()));
        }
        Some(say::queue_shown(&lines))
    }

    /// The moves `seat` would have if it held the Token in the position as it stands: what a
    /// front end suggests to queue (the position may change before the turn comes). Empty when
    /// the position cannot be read that way.
    pub fn queue_suggestions(&self, seat: Seat) -> Vec<String> {
        let Ok(mut json) = serde_json::from_str::<serde_json::Value>(&self.game.to_json()) else {
            return Vec::new();
        };
        json["to_move"] = serde_json::Value::String(self.seat_name(seat).to_string());
        crate::games::read_position(&json.to_string())
            .map(|g| g.legal_moves())
            .unwrap_or_default()
    }

    /// The lines `seat` keeps once `q` is queued: with an `if_reply`, beside the other lines
    /// that have one (replacing the line for the same reply); otherwise alone.
    fn lines_with(&self, seat: Seat, q: QueuedMove) -> Vec<QueuedMove> {
        let old = self.queued_lines(seat);
        match &q.conditions.if_reply {
            Some(reply) if old.iter().all(|o| o.conditions.if_reply.is_some()) => {
                let mut lines: Vec<QueuedMove> = old
                    .iter()
                    .filter(|o| o.conditions.if_reply.as_ref() != Some(reply))
                    .cloned()
                    .collect();
                lines.push(q);
                lines
            }
            _ => vec![q],
        }
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
        let conditions = QueueConditions {
            piece,
            sovereign_safe,
            if_reply: reply,
        };
        let q = QueuedMove {
            text: canonical.clone(),
            conditions: conditions.clone(),
        };
        if self.lines_with(seat, q).len() > QUEUE_LINES {
            return Err(Refused::QueueFull(QUEUE_LINES));
        }
        Ok(Event::Queued {
            seat,
            text: canonical,
            conditions,
        })
    }

    /// What the host does with `seat`'s queued move now that its turn has come: play the first
    /// line that holds, or drop them all with why the line the opponent's answer chose (else the
    /// first line) failed. `None` when the seat has nothing queued.
    pub(crate) fn queue_event(&self, seat: Seat) -> Option<Event> {
        let lines = self.queued_lines(seat);
        let mut first = None;
        let mut chosen = None;
        for q in lines {
            match self.line_event(seat, q) {
                Ok(ev) => return Some(ev),
                Err(why) => {
                    if chosen.is_none() && !matches!(why, QueueMiss::OtherReply { .. }) {
                        chosen = Some(why.clone());
                    }
                    first.get_or_insert(why);
                }
            }
        }
        let why = chosen.or(first)?;
        Some(Event::QueueDropped { seat, why })
    }

    /// The event of one queued line if its conditions hold and the rules take it, else why not.
    fn line_event(&self, seat: Seat, q: &QueuedMove) -> Result<Event, QueueMiss> {
        // The opponent's answer first: it says which line was meant.
        if let Some(expected) = &q.conditions.if_reply {
            let played = self
                .last_move
                .as_ref()
                .filter(|(s, _)| *s != seat)
                .map(|(_, t)| t.clone());
            if played.as_deref() != Some(expected.as_str()) {
                return Err(QueueMiss::OtherReply {
                    expected: expected.clone(),
                    played,
                });
            }
        }
        if let Some(p) = &q.conditions.piece {
            let still = self
                .piece_on(&p.cell)
                .is_some_and(|now| now.owner == p.owner && now.kind == p.kind);
            if !still {
                return Err(QueueMiss::PieceGone {
                    cell: p.cell.clone(),
                });
            }
        }
        if q.conditions.sovereign_safe && self.game.royal_attacked(seat) == Some(true) {
            return Err(QueueMiss::SovereignAttacked);
        }
        match self.prepare_stage(&q.text) {
            Ok((text, asked)) => Ok(Event::QueuePlayed { seat, text, asked }),
            Err(e) => Err(QueueMiss::Refused {
                reason: e.to_string(),
            }),
        }
    }

    /// Forget `seat`'s queued move (its player acted, left or was replaced).
    pub(super) fn forget_queue(&mut self, seat: Seat) {
        if let Some(q) = self.queue.get_mut(seat.index()) {
            q.clear();
        }
    }

    /// Take `seat`'s queued lines away (refused when there are none).
    fn take_queue(&mut self, seat: Seat) -> Result<Vec<QueuedMove>, Refused> {
        let lines = self
            .queue
            .get_mut(seat.index())
            .map(std::mem::take)
            .unwrap_or_default();
        if lines.is_empty() {
            return Err(Refused::NothingQueued);
        }
        Ok(lines)
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
        if let Some(m) = self.queue_missed.get_mut(seat.index()) {
            *m = None;
        }
        let q = QueuedMove {
            text: text.to_string(),
            conditions: conditions.clone(),
        };
        let told = self.line_told(&q);
        let lines = self.lines_with(seat, q);
        fx.push(Effect::Private {
            player: self.player(seat),
            text: say::queued(&told, lines.len()).into(),
        });
        if let Some(slot) = self.queue.get_mut(seat.index()) {
            *slot = lines;
        }
        Ok(())
    }

    pub(super) fn clear_queue(
        &mut self,
        seat: Seat,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        let lines = self.take_queue(seat)?;
        let texts: Vec<String> = lines.into_iter().map(|q| q.text).collect();
        fx.push(Effect::Private {
            player: self.player(seat),
            text: say::queue_cleared(&texts).into(),
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
        self.take_queue(seat)?;
        if let Some(m) = self.queue_missed.get_mut(seat.index()) {
            *m = Some(why.clone());
        }
        let forced = self.forced();
        // The table learns only that a queued move was not played; what it was and why goes to
        // the player alone (the queue is private).
        fx.push(Effect::Ping {
            game: self.id,
            player: self.player(seat),
            text: format!(
                "{}; {}",
                say::your_token(&self.seat_title(seat), forced.as_ref()),
                say::QUEUE_NOT_PLAYED
            )
            .into(),
        });
        fx.push(Effect::Private {
            player: self.player(seat),
            text: say::queue_missed(self.id, why, self.game.royal_name()).into(),
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
