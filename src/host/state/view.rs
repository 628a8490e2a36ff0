//! Read-only views of a game for front ends: the table's fields, the board as text and as a
//! picture. A front end reads the game through these and never holds the rules position.

use super::super::event::{ChallengePref, GameId, Millis, PlayerId, Setup, Timers};
use super::{GameState, OpenMotion, PointEntry, Record, SeatState, Staged};
use crate::games::{AnyGame, Seat};
use crate::view::{self, ViewError, ViewOptions};

impl GameState {
    pub fn id(&self) -> GameId {
        self.id
    }

    /// How many events have been applied: what a button's id carries.
    pub fn version(&self) -> u64 {
        self.version
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// House rule switches voted or given at creation (only those that differ).
    pub fn house(&self) -> &serde_json::Value {
        &self.house
    }

    pub fn timers(&self) -> &Timers {
        &self.timers
    }

    pub fn seats(&self) -> &[SeatState] {
        &self.seats
    }

    /// The committed moves and table events, oldest first.
    pub fn record(&self) -> &[Record] {
        &self.record
    }

    pub fn staged(&self) -> Option<&Staged> {
        self.staged.as_ref()
    }

    /// The version at which the current move was staged (none staged: `None`). A preview's
    /// controls made before it act on a move their presser has not seen.
    pub fn staged_at(&self) -> Option<u64> {
        self.staged.as_ref().map(|s| s.version)
    }

    /// The version at which the open challenge window opened (with the staging it is about);
    /// `None` when no window waits for anyone.
    pub fn window_at(&self) -> Option<u64> {
        self.staged
            .as_ref()
            .filter(|s| !s.waiting().is_empty())
            .map(|s| s.version)
    }

    /// Seats that declared Check upon the mover this turn.
    pub fn declared_upon(&self) -> &[Seat] {
        &self.declared_upon
    }

    pub fn prefs(&self) -> &[ChallengePref] {
        &self.prefs
    }

    pub fn motions(&self) -> &[OpenMotion] {
        &self.motions
    }

    pub fn points(&self) -> &[PointEntry] {
        &self.points
    }

    /// When the Token holder's turn began.
    pub fn turn_started(&self) -> Millis {
        self.turn_started
    }

    /// The reminder level sent this turn (0: none yet).
    pub fn reminded(&self) -> u8 {
        self.reminded
    }

    /// The Token holder has passed the turn timer.
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// Whether `seat` is stalled: it holds the Token and its turn timer has run out. Only a
    /// stalled seat may be skipped or replaced against its will, or lose on time.
    pub fn stalled(&self, seat: Seat) -> bool {
        self.timed_out && self.holder() == Some(seat)
    }

    pub fn paused_at(&self) -> Option<Millis> {
        self.paused_at
    }

    /// (seat, new player, version) of each takeover.
    pub fn replacements(&self) -> &[(Seat, PlayerId, u64)] {
        &self.replacements
    }

    /// The rules position itself, for the host and the views. Front ends read the game through
    /// the projection (`seen_by`, the lists and pictures here); a tool outside the crate reads
    /// `position_json`.
    pub(crate) fn position(&self) -> &AnyGame {
        &self.game
    }

    /// Every seat of the game, in turn order.
    pub fn all_seats(&self) -> Vec<Seat> {
        (0..self.seats.len() as u8).map(Seat).collect()
    }

    /// The seat called `name` (its colour or kingdom, any case).
    pub fn seat_named(&self, name: &str) -> Option<Seat> {
        self.game.seat_named(name)
    }

    /// The board as text.
    pub fn board_text(&self) -> String {
        self.game.show()
    }

    /// The position as JSON (`hexmeros rules` reads it).
    pub fn position_json(&self) -> String {
        self.game.to_json()
    }

    /// The committed moves, as recorded (`silver K2-H3`), oldest first: departures and other
    /// table lines left out.
    fn moves(&self) -> impl DoubleEndedIterator<Item = &Record> {
        self.record.iter().filter(|r| self.is_move(r))
    }

    /// Whether a record is a committed move (not a departure, skip or draw).
    fn is_move(&self, r: &Record) -> bool {
        r.seat.is_some_and(|s| {
            r.line.split_once(' ').map(|(head, _)| head) == Some(self.seat_name(s))
        })
    }

    /// The moves of the round, oldest first, as recorded (`silver K2-H3`): while the game runs,
    /// those since the Token holder's previous turn (its move or its skipped turn; every move
    /// when it has had none), whatever departures and skips came between; once it is over, the
    /// last move of each seat's worth.
    pub fn last_round(&self) -> Vec<String> {
        if let Some(holder) = self.holder() {
            let name = self.seat_name(holder);
            let own_turn = |r: &Record| {
                r.seat == Some(holder)
                    && r.line.split_once(' ').is_some_and(|(head, _)| {
                        head == name || (head == "skip" && r.line.ends_with(name))
                    })
            };
            let start = self.record.iter().rposition(own_turn).map_or(0, |i| i + 1);
            return self.record[start..]
                .iter()
                .filter(|r| self.is_move(r))
                .map(|r| r.line.clone())
                .collect();
        }
        let n = self.game.seat_count();
        let moves: Vec<&Record> = self.moves().collect();
        moves[moves.len().saturating_sub(n)..]
            .iter()
            .map(|r| r.line.clone())
            .collect()
    }

    /// The game's record as people read it, one round a line: `1. Silver Q8-Q10 · Blue
    /// K44-K42 · …`. A round ends where the turn order starts over (a move by a seat that comes
    /// no later than the one before it); what is not a move (a departure, a skipped turn, a
    /// draw) stands in brackets where it happened.
    pub fn move_list(&self) -> Vec<String> {
        let mut rounds: Vec<Vec<String>> = Vec::new();
        let mut last: Option<Seat> = None;
        for r in &self.record {
            let text = if self.is_move(r) {
                let seat = r.seat.unwrap_or(Seat(0));
                if rounds.is_empty() || last.is_some_and(|l| seat.0 <= l.0) {
                    rounds.push(Vec::new());
                }
                last = Some(seat);
                let (_, mv) = r.line.split_once(' ').unwrap_or(("", &r.line));
                format!("{} {mv}", self.seat_title(seat))
            } else {
                if rounds.is_empty() {
                    rounds.push(Vec::new());
                }
                format!("({})", r.line)
            };
            if let Some(round) = rounds.last_mut() {
                round.push(text);
            }
        }
        rounds
            .iter()
            .enumerate()
            .map(|(i, r)| format!("{}. {}", i + 1, r.join(" · ")))
            .collect()
    }

    /// The moves since `seat` last moved (every move when it never has), oldest first.
    pub fn moves_since(&self, seat: Seat) -> Vec<String> {
        let mut v: Vec<String> = self
            .moves()
            .rev()
            .take_while(|r| r.seat != Some(seat))
            .map(|r| r.line.clone())
            .collect();
        v.reverse();
        v
    }

    /// The number of the turn being played (1 for the first).
    pub fn turn_number(&self) -> u32 {
        self.record.len() as u32 + 1
    }

    /// The close-up of the board as a PNG (see `view::focus`) and, in words, what it leaves
    /// to the full board; `None` where the board needs none. It holds what the viewer (the
    /// side it is seen from) must know first: the Checks, then the round's moves that took
    /// their pieces, then the others. Highlights that no longer fit the position are dropped
    /// rather than costing it.
    pub fn render_focus(
        &self,
        opts: &ViewOptions,
    ) -> Result<Option<view::focus::FocusPng>, ViewError> {
        let opts = ViewOptions {
            costly: self.moves_that_cost(opts.as_seat.or(self.holder()), &opts.last_moves),
            ..opts.clone()
        };
        view::focus::focus_png_told(&self.game, &opts, None).or_else(|_| {
            view::focus::focus_png_told(
                &self.game,
                &ViewOptions {
                    last_moves: Vec::new(),
                    ..opts.clone()
                },
                None,
            )
        })
    }

    /// Of `moves` (as `last_round` gives them), those that took a piece of `seat` since its
    /// last turn (the round's story says which): the close-up shows them first.
    pub fn moves_that_cost(&self, seat: Option<Seat>, moves: &[String]) -> Vec<String> {
        let Some(seat) = seat else {
            return Vec::new();
        };
        let owned = format!("{}'s ", crate::host::story::seat(&self.game, seat));
        let told = crate::host::story::since_parts(&self.told, seat);
        moves
            .iter()
            .filter(|m| {
                let text = m.rsplit(' ').next().unwrap_or(m);
                let took = format!(" {text} took ");
                told.iter().any(|c| {
                    c.split_once(&took)
                        .is_some_and(|(_, what)| what.split(", ").any(|p| p.starts_with(&owned)))
                })
            })
            .cloned()
            .collect()
    }

    /// The board's scene (see `view::scene`), for a front end that draws it itself (the web
    /// board's SVG). Highlights that no longer fit the position are dropped, as for `render`.
    pub fn scene(&self, opts: &ViewOptions) -> Result<hexmeros_render::Scene, ViewError> {
        view::scene(&self.game, opts).or_else(|_| {
            view::scene(
                &self.game,
                &ViewOptions {
                    last_moves: Vec::new(),
                    ..opts.clone()
                },
            )
        })
    }

    /// The board as a PNG (see `view::render_png`). Highlights that no longer fit the position
    /// are dropped rather than costing the picture.
    pub fn render(&self, opts: &ViewOptions) -> Result<Vec<u8>, ViewError> {
        view::render_png(&self.game, opts).or_else(|_| {
            view::render_png(
                &self.game,
                &ViewOptions {
                    last_moves: Vec::new(),
                    ..opts.clone()
                },
            )
        })
    }
}
