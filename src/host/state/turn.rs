//! The turn (§5): stage a move, the challenge window about it, take it back, commit it.

use super::super::effect::Effect;
use super::super::error::HostError;
use super::super::event::{ChallengePref, Millis, PlayerId};
use super::{GameState, Line, Refused, Staged, Status, say, story};
use crate::games::{AnyGame, PlayError, Seat, Unresolved};

fn play_error(e: PlayError) -> Refused {
    match e {
        PlayError::Syntax(s) => Refused::Syntax(s.to_string()),
        PlayError::Illegal(i) => Refused::Illegal(i.to_string()),
    }
}

impl GameState {
    /// The seat of `player` if they are the Token holder's mover while the game runs (only they
    /// stage, take back, declare, pass and use the move pickers), else why not.
    pub fn require_mover(&self, player: PlayerId) -> Result<Seat, Refused> {
        let seat = self.seat_of(player).ok_or(Refused::NotSeated)?;
        match self.status() {
            Status::Finished | Status::Aborted => return Err(Refused::GameOver),
            Status::Paused => return Err(Refused::Paused),
            _ => {}
        }
        self.require_holder(seat)?;
        if self.player(seat) != player {
            return Err(Refused::NotTeamMover);
        }
        Ok(seat)
    }

    /// A preview control (Pass, Take back, Declare Check) made at version `made` acts only on
    /// the staging it was made for or after: refused when nothing is staged or the staging is
    /// newer than the control.
    pub fn require_preview_since(&self, made: u64) -> Result<(), Refused> {
        match self.staged_at() {
            Some(v) if v <= made => Ok(()),
            _ => Err(Refused::StalePreview),
        }
    }

    /// A challenge button made at version `made` answers only the window it was made for:
    /// refused when no window is open or the open one is newer than the button.
    pub fn require_window_since(&self, made: u64) -> Result<(), Refused> {
        match self.window_at() {
            Some(v) if v <= made => Ok(()),
            _ => Err(Refused::StaleWindow),
        }
    }

    /// Resolve move text for the Token holder against `declarers`' Checks upon the mover.
    fn resolve_with(&self, text: &str, declarers: &[Seat]) -> Result<String, Refused> {
        self.game.resolve(text, declarers).map_err(|e| match e {
            Unresolved::Play(p) => play_error(p),
            Unresolved::Disrespects(canonical) => {
                Refused::Illegal(say::disrespects(&canonical, &self.seat_names(declarers)))
            }
        })
    }

    /// Resolve move text for the Token holder: the canonical text, refusing moves that ignore a
    /// declaration upon the mover (§5.4 step 4; it lapses when no move respects it).
    pub fn resolve(&self, text: &str) -> Result<String, Refused> {
        self.resolve_with(text, &self.declared_upon)
    }

    /// What staging `text` would do: the canonical text and who must be asked in a challenge
    /// window. Standing preferences are applied here: "never" is not asked, "always" refuses
    /// the move at once (unless no move avoids it, when the declaration lapses).
    pub fn prepare_stage(&self, text: &str) -> Result<(String, Vec<Seat>), Refused> {
        let canonical = self.resolve(text)?;
        let challengers = self.game.challengers(&canonical).map_err(play_error)?;
        let pref = |s: &Seat| self.prefs.get(s.index()).copied();
        let always: Vec<Seat> = challengers
            .iter()
            .copied()
            .filter(|s| pref(s) == Some(ChallengePref::AlwaysDeclare))
            .collect();
        if !always.is_empty() {
            let mut declarers = self.declared_upon.clone();
            declarers.extend(always.iter().copied());
            self.resolve_with(&canonical, &declarers)?;
        }
        let asked = challengers
            .into_iter()
            .filter(|s| pref(s) == Some(ChallengePref::Ask) && !self.declared_upon.contains(s))
            .collect();
        Ok((canonical, asked))
    }

    /// The staged move with a Check declared on `target` added (§5.3), as text; refused when the
    /// staged move allows no such declaration.
    pub fn declaration(&self, target: Seat) -> Result<String, Refused> {
        let st = self.staged.as_ref().ok_or(Refused::NothingStaged)?;
        self.game
            .declare(&st.text, target)
            .map_err(play_error)?
            .ok_or_else(|| Refused::NoDeclaration {
                text: st.text.clone(),
                target: self.seat_title(target),
            })
    }

    /// The seats the Token holder may declare Check on with the staged move (none when nothing
    /// is staged).
    pub fn declarable(&self) -> Vec<Seat> {
        self.active()
            .into_iter()
            .filter(|&s| Some(s) != self.holder())
            .filter(|&s| {
                self.declaration(s)
                    .and_then(|t| self.prepare_stage(&t))
                    .is_ok()
            })
            .collect()
    }

    /// The board after `text`, for a free preview (§5.1): nothing is stored.
    pub fn preview(&self, text: &str) -> Result<(String, AnyGame), Refused> {
        let canonical = self.resolve(text)?;
        let mut next = self.game.clone();
        next.play(&canonical).map_err(play_error)?;
        Ok((canonical, next))
    }

    pub(super) fn stage(
        &mut self,
        seat: Seat,
        text: &str,
        asked: &[Seat],
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.live()?;
        self.require_holder(seat)?;
        let (canonical, board) = self.preview(text)?;
        fx.push(Effect::Private {
            player: self.player(seat),
            text: say::staged_preview(&canonical, &board.show()).into(),
        });
        if !asked.is_empty() {
            let mover = self.seat_title(seat);
            fx.push(Effect::Say {
                game: self.id,
                text: say::window_opened(&mover, &self.seat_names(asked), self.window_minutes())
                    .into(),
            });
            for &s in asked {
                fx.push(Effect::AskChallenge {
                    game: self.id,
                    player: self.player(s),
                    version: self.version,
                    text: say::ask_challenge(&mover, &canonical, &self.seat_title(s)).into(),
                });
            }
        }
        self.staged = Some(Staged {
            seat,
            text: canonical,
            version: self.version,
            opened: at,
            asked: asked.to_vec(),
            answered: Vec::new(),
            closed: false,
            pass_when_closed: false,
            queued: false,
        });
        // The player acts for this turn: a move queued for it is moot.
        self.forget_queue(seat);
        Ok(())
    }

    pub(super) fn take_back(&mut self, seat: Seat, fx: &mut Vec<Effect>) -> Result<(), HostError> {
        self.live()?;
        self.require_holder(seat)?;
        let st = self.staged.take().ok_or(Refused::NothingStaged)?;
        fx.push(Effect::Private {
            player: self.player(seat),
            text: if st.pass_when_closed {
                say::TAKEN_BACK_NO_AUTO_PASS.into()
            } else {
                say::TAKEN_BACK.into()
            },
        });
        Ok(())
    }

    /// The Token holder asks that the staged move be passed as soon as its challenge window
    /// closes with nobody declaring (see `pass_on_close`).
    pub(super) fn pass_when_closed(
        &mut self,
        seat: Seat,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.live()?;
        self.require_holder(seat)?;
        let st = self.staged.as_mut().ok_or(Refused::NothingStaged)?;
        if st.waiting().is_empty() {
            return Err(Refused::NoWindowToWaitFor.into());
        }
        if st.pass_when_closed {
            return Err(Refused::AlreadyPassingWhenClosed.into());
        }
        st.pass_when_closed = true;
        let waiting = st.waiting();
        fx.push(Effect::Private {
            player: self.player(seat),
            text: say::will_pass_when_closed(&self.seat_names(&waiting)).into(),
        });
        Ok(())
    }

    /// The window closed with nobody declaring (`at`): when the mover asked for it, the staged
    /// move is committed on his behalf, as an ordinary pass, and the thread is told; else (or if
    /// that commit is refused) the mover is pinged with `ping` to pass himself.
    fn pass_on_close(&mut self, ping: &str, at: Millis, fx: &mut Vec<Effect>) {
        let Some(st) = self.staged.as_ref() else {
            return;
        };
        let (mover, text) = (st.seat, st.text.clone());
        if st.pass_when_closed {
            // Tried on a copy: a refused commit must not leave the state half-changed (and
            // the answer or the timer that closed the window still counts).
            let mut next = self.clone();
            let mut passed = vec![Effect::Say {
                game: self.id,
                text: say::passed_automatically(&self.seat_title(mover), &text).into(),
            }];
            if next.commit(mover, &text, at, &mut passed).is_ok() {
                *self = next;
                fx.append(&mut passed);
                return;
            }
        }
        fx.push(Effect::Ping {
            game: self.id,
            player: self.player(mover),
            text: ping.into(),
        });
    }

    /// A player asked in the challenge window answers: declare Check upon the mover, or not.
    pub(super) fn answer(
        &mut self,
        seat: Seat,
        declare: bool,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.live()?;
        let st = self.staged.as_mut().ok_or(Refused::NothingStaged)?;
        if !st.waiting().contains(&seat) {
            return Err(Refused::NotAsked.into());
        }
        if !declare {
            st.answered.push(seat);
        }
        let mover = st.seat;
        let auto = st.pass_when_closed;
        let all_answered = st.waiting().is_empty();
        if declare {
            self.staged = None;
            self.declared_upon.push(seat);
            fx.push(Effect::Say {
                game: self.id,
                text: say::declared_upon(&self.seat_title(seat), &self.seat_title(mover)).into(),
            });
            let declarer = &self.seat_title(seat);
            fx.push(Effect::Ping {
                game: self.id,
                player: self.player(mover),
                text: if auto {
                    say::declared_upon_you_no_auto_pass(declarer).into()
                } else {
                    say::declared_upon_you(declarer).into()
                },
            });
        } else if all_answered {
            self.pass_on_close(say::NOBODY_DECLARED, at, fx);
        }
        Ok(())
    }

    pub(super) fn close_window(
        &mut self,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        let st = self.staged.as_mut().ok_or(Refused::NothingStaged)?;
        if st.waiting().is_empty() {
            return Err(Refused::NoWindow.into());
        }
        st.closed = true;
        self.pass_on_close(say::WINDOW_CLOSED, at, fx);
        Ok(())
    }

    /// Pass the Token: the move is played and the next seat has the turn.
    pub(super) fn commit(
        &mut self,
        seat: Seat,
        text: &str,
        at: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<(), HostError> {
        self.live()?;
        self.require_holder(seat)?;
        if let Some(st) = &self.staged
            && st.text == text
            && !st.waiting().is_empty()
        {
            let names = self.seat_names(&st.waiting()).join(", ");
            return Err(Refused::WindowOpen(names).into());
        }
        let canonical = self.resolve(text)?;
        let line = Line::Move {
            seat: Some(seat),
            text: canonical.clone(),
        };
        let queued = self
            .staged
            .as_ref()
            .is_some_and(|st| st.queued && st.seat == seat && st.text == canonical);
        let before = self.game.clone();
        line.apply(&mut self.game)
            .map_err(|e| Refused::Illegal(e.to_string()))?;
        self.forget_queue(seat);
        self.last_move = Some((seat, canonical.clone()));
        self.note(Some(seat), line, at);
        self.tell(story::told_move(&before, seat, &canonical, &self.game));
        self.take_points();
        if self.life == Status::HouseRules {
            self.life = Status::Playing;
            // House rule ballots end with the phase, each with a word in the thread.
            self.close_house_ballots(fx);
        }
        self.spend(seat, at, true);
        self.new_turn(at, fx);
        fx.push(Effect::Board {
            game: self.id,
            board: self.game.show(),
            caption: self.turn_caption(seat, &canonical, queued),
            ping: None,
        });
        self.announce_turn(fx);
        Ok(())
    }

    /// The turn message's caption after `seat` played `text`: that move on the first line, then
    /// what happened since the new Token holder's previous turn (or, when the game is over, the
    /// last move's consequences).
    fn turn_caption(&self, seat: Seat, text: &str, queued: bool) -> String {
        let played = if queued {
            say::played_queued(&self.seat_title(seat), text)
        } else {
            say::played(&self.seat_title(seat), text)
        };
        match self.holder() {
            Some(next) => {
                let since = if self.told.iter().any(|t| t.turn_of == Some(next)) {
                    say::Since::Turn(&self.seat_title(next))
                } else {
                    say::Since::Start
                };
                say::with_story(&played, since, &self.story_since(next))
            }
            None => {
                let last = self.told.len().saturating_sub(1);
                say::with_story(&played, say::Since::Move, &story::line(&self.told[last..]))
            }
        }
    }

    /// A new turn: nothing staged, nobody declared, the clock restarts.
    pub(super) fn new_turn(&mut self, at: Millis, fx: &mut Vec<Effect>) {
        self.staged = None;
        self.declared_upon.clear();
        self.restart_clock(at, fx);
    }

    /// The Token holder's turn timer and reminders start afresh (a new turn, or a new player
    /// in the holder's seat): nobody is stalled, so motions about the last stall lapse.
    pub(super) fn restart_clock(&mut self, at: Millis, fx: &mut Vec<Effect>) {
        self.lapse_stall_motions(fx);
        self.turn_started = at;
        self.reminded = 0;
        self.timed_out = false;
    }

    /// Tell the Token holder it is their turn (and which Checks bind them). A holder with a
    /// queued move is told only if it is dropped (`drop_queue`): when it is played, the turn is
    /// already over.
    pub(super) fn announce_turn(&self, fx: &mut Vec<Effect>) {
        let Some(next) = self.holder() else { return };
        if self.queued(next).is_some() {
            return;
        }
        fx.push(Effect::Ping {
            game: self.id,
            player: self.player(next),
            text: say::your_token(&self.seat_title(next), self.forced().as_ref()).into(),
        });
    }
}
