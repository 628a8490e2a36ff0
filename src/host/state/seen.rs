//! The game as one viewer sees it: told once, here, for every front end (the Discord turn
//! message and picker, the web board, the terminal). What the viewer may move and what each
//! target does (moves, captures whose piece, rams their own, gives Check to whom, relieves
//! their Check, walks into one), why a piece of theirs cannot move, what is forced on them
//! (a capture, a Check to relieve), the staged move and the Checks it may declare, and the
//! round since their last turn with their own losses apart. A front end renders this; it does
//! not work any of it out from the position.

use super::GameState;
use crate::games::{GameKind, Seat};
use crate::host::event::PlayerId;
use crate::view::picker::{self, Taken};

/// One viewer's view of the game at this version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The viewer's seat, if they sit at the table.
    pub seat: Option<Seat>,
    /// Their seat as sentences name it (`Silver`).
    pub you: Option<String>,
    /// Who holds the Token (`Orange`), while the game runs.
    pub holder: Option<String>,
    /// Whether the move is the viewer's to make now (they hold the Token and are its mover).
    pub your_turn: bool,
    /// What the game asks of this viewer now, in one sentence (the page's and the preview's
    /// headline): `Your turn: you are in Check by Orange; a move that relieves it…`.
    pub expects: String,
    /// What is forced on the viewer this turn, if anything.
    pub forced: Option<Forced>,
    /// The pieces the viewer may move now (their turn, nothing staged), in the picker's order.
    pub pieces: Vec<SeenPiece>,
    /// The viewer's pieces that cannot move now, each with why (their turn only).
    pub stuck: Vec<Stuck>,
    /// The staged move (the viewer's, on their turn).
    pub staged: Option<String>,
    /// What the staged move does beyond moving (takes, rams, gives Check, relieves), in the
    /// words its target had before it was staged.
    pub staged_does: Vec<Does>,
    /// The seats the staged move may declare Check on.
    pub declarable: Vec<String>,
    /// What happened since the viewer's previous turn (everything for a spectator's last
    /// round), oldest first, each a short clause.
    pub round: Vec<String>,
    /// The clauses of `round` that cost the viewer: their pieces taken, Checks declared on
    /// them, their seat out.
    pub your_losses: Vec<String>,
}

/// Something the rules force on the mover this turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forced {
    /// HexDame: capturing is compulsory, and of the captures the most pieces (majority rule):
    /// every legal move takes `most`.
    Capture { most: usize },
    /// HexiMeros §5.3: Check was declared on the mover's Sovereign by these seats, and only a
    /// move that relieves it may be made.
    RelieveCheck { by: Vec<String> },
}

impl Forced {
    /// The sentence a front end shows.
    pub fn text(&self) -> String {
        match self {
            Forced::Capture { most: 1 } => {
                "capture is compulsory: every move you may make takes a piece".to_string()
            }
            Forced::Capture { most } => format!(
                "capture is compulsory, and of the captures the most pieces: every move you may \
                 make takes {most}"
            ),
            Forced::RelieveCheck { by } => format!(
                "you are in Check by {}: your move must relieve it if any move can",
                by.join(" and ")
            ),
        }
    }
}

/// A piece the viewer may move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenPiece {
    /// What its moves start with (`N27`), as [`GameState::targets_seen_by`] takes it.
    pub origin: String,
    /// The kind as the rulebook names it (`Regent`).
    pub kind: String,
    /// Its cell (`None`: a placement from the reserve, or a word move).
    pub cell: Option<String>,
    /// How many legal moves start from it.
    pub moves: usize,
    /// The menu line (`Regent · N27 · 12 moves`) and the button (`Regent N27`).
    pub label: String,
    pub button: String,
}

/// A piece of the viewer's that cannot move now, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stuck {
    pub cell: String,
    pub kind: String,
    pub why: String,
}

/// What a target does, beyond moving there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Does {
    /// Takes another seat's piece (`Blue`, `Archer`).
    Captures { whose: String, piece: String },
    /// Removes the mover's own piece (a Dreadnaught's ram, friendly fire).
    Rams { piece: String },
    /// May declare Check on these seats (HexiMeros).
    GivesCheck { on: Vec<String> },
    /// Relieves the Check declared on the mover.
    Relieves,
    /// Leaves the mover's royal piece attacked by these seats (they may declare Check upon
    /// the mover, §5.4).
    Exposes {
        royal: &'static str,
        by: Vec<String>,
    },
}

impl Does {
    /// The words on a button, a menu line and the preview.
    pub fn text(&self) -> String {
        match self {
            Does::Captures { whose, piece } => format!("takes {whose}'s {piece}"),
            Does::Rams { piece } => format!("rams your own {piece}"),
            Does::GivesCheck { on } => format!("gives Check to {}", on.join(" and ")),
            Does::Relieves => "relieves your Check".to_string(),
            Does::Exposes { royal, by } => {
                format!("leaves your {royal} attacked by {}", by.join(", "))
            }
        }
    }

    /// What a picture's mark shows for it, most telling first: a ram, a capture, a Check.
    pub fn mark(&self) -> Mark {
        match self {
            Does::Rams { .. } => Mark::Ram,
            Does::Captures { .. } => Mark::Capture,
            Does::GivesCheck { .. } => Mark::Check,
            Does::Relieves | Does::Exposes { .. } => Mark::Move,
        }
    }
}

/// How a target is drawn and coloured, the same on every front end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    Move,
    Check,
    Capture,
    Ram,
}

/// One target of a piece: the picker's target (its number, cell and moves, which the zoomed
/// picture draws) and what it does, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenTarget {
    pub target: picker::Target,
    pub does: Vec<Does>,
}

impl SeenTarget {
    /// `7 → N35 · takes Blue's Archer · gives Check to Red`.
    pub fn label(&self) -> String {
        let mut s = format!("{} → {}", self.target.number, self.target.cell);
        for d in &self.does {
            s.push_str(" · ");
            s.push_str(&d.text());
        }
        if self.target.moves.len() > 1 {
            s.push_str(&format!(" · {} choices", self.target.moves.len()));
        }
        s
    }

    /// The strongest mark among what it does (a plain move when it does nothing more).
    pub fn mark(&self) -> Mark {
        self.does.iter().map(Does::mark).max().unwrap_or(Mark::Move)
    }
}

/// Why a target cannot be had: the piece is not one the viewer may move now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotMovable(pub String);

impl std::fmt::Display for NotMovable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl GameState {
    /// The game as `viewer` sees it (`None`: a spectator). See the module's words.
    pub fn seen_by(&self, viewer: Option<PlayerId>) -> Seen {
        let seat = viewer.and_then(|p| self.seat_of(p));
        let holder = self.holder();
        let your_turn = seat.is_some() && holder == seat && self.holder_player() == viewer;
        let staged = self
            .staged()
            .filter(|s| your_turn && Some(s.seat) == seat)
            .map(|s| s.text.clone());
        let forced = if your_turn { self.forced() } else { None };
        let (pieces, stuck) = match (your_turn, &staged) {
            (true, None) => self.movable(seat, forced.as_ref()),
            _ => (Vec::new(), Vec::new()),
        };
        let declarable = match staged {
            Some(_) => self
                .declarable()
                .into_iter()
                .map(|s| self.seat_title(s))
                .collect(),
            None => Vec::new(),
        };
        let staged_does = staged
            .as_deref()
            .map(|m| self.does_of(m, forced.as_ref()))
            .unwrap_or_default();
        let you = seat.map(|s| self.seat_title(s));
        let round = self.round_for(seat.or(holder));
        let your_losses = match &you {
            Some(name) => losses(&round, name),
            None => Vec::new(),
        };
        let holder_name = holder.map(|h| self.seat_title(h));
        let staged_words = staged.as_deref().map(|m| {
            let words: Vec<String> = staged_does.iter().map(Does::text).collect();
            match words.as_slice() {
                [] => m.to_string(),
                w => format!("{m} ({})", w.join(", ")),
            }
        });
        let expects = expects(
            your_turn,
            holder_name.as_deref(),
            staged_words.as_deref(),
            forced.as_ref(),
            &declarable,
            pieces.is_empty(),
        );
        Seen {
            seat,
            you,
            holder: holder_name,
            your_turn,
            expects,
            forced,
            pieces,
            stuck,
            staged,
            staged_does,
            declarable,
            round,
            your_losses,
        }
    }

    /// The targets of the viewer's piece `origin`, labelled; or why that piece cannot move
    /// now (not their turn, not their piece, blocked, a capture or a Check elsewhere…).
    pub fn targets_seen_by(
        &self,
        viewer: Option<PlayerId>,
        origin: &str,
    ) -> Result<Vec<SeenTarget>, NotMovable> {
        let seen = self.seen_by(viewer);
        if !seen.your_turn {
            return Err(NotMovable(match seen.holder {
                Some(h) if seen.seat.is_some() => format!("it is {h}'s turn, not yours"),
                Some(h) => format!("you are watching: it is {h}'s turn"),
                None => "the game is over".to_string(),
            }));
        }
        if let Some(staged) = &seen.staged {
            return Err(NotMovable(format!(
                "{staged} is staged: pass it, or take it back to choose another move"
            )));
        }
        if !seen
            .pieces
            .iter()
            .any(|p| p.origin.eq_ignore_ascii_case(origin))
        {
            let why = seen
                .stuck
                .iter()
                .find(|s| s.cell.eq_ignore_ascii_case(origin))
                .map(|s| format!("your {} on {} {}", s.kind, s.cell, s.why))
                .unwrap_or_else(|| format!("{origin} is not a piece you can move now"));
            return Err(NotMovable(why));
        }
        let relieving = matches!(seen.forced, Some(Forced::RelieveCheck { .. }));
        Ok(picker::targets(self.position(), origin)
            .into_iter()
            .map(|t| {
                let does = does(&t, relieving);
                SeenTarget { target: t, does }
            })
            .collect())
    }

    /// What the viewer's staged move does (takes, rams, gives Check, relieves), in the words its
    /// target had before it was staged: the preview says it as the button did. Empty when
    /// nothing of theirs is staged, or it does nothing more than move.
    pub fn staged_does(&self, viewer: Option<PlayerId>) -> Vec<Does> {
        self.seen_by(viewer).staged_does
    }

    /// What move `staged` does, found among its piece's targets (`forced`: what the rules
    /// force on its mover now, which tells a relief).
    fn does_of(&self, staged: &str, forced: Option<&Forced>) -> Vec<Does> {
        let relieving = matches!(forced, Some(Forced::RelieveCheck { .. }));
        let origin = staged.split(['-', 'x', '*']).next().unwrap_or_default();
        picker::targets(self.position(), origin)
            .into_iter()
            .find(|t| t.moves.iter().any(|m| m.eq_ignore_ascii_case(staged)))
            .map(|t| does(&t, relieving))
            .unwrap_or_default()
    }

    /// What the rules force on the Token holder now.
    pub(crate) fn forced(&self) -> Option<Forced> {
        let game = self.position();
        let by = game.binding_challenges();
        if !by.is_empty() {
            return Some(Forced::RelieveCheck {
                by: by.into_iter().map(|s| self.seat_title(s)).collect(),
            });
        }
        if self.kind() == GameKind::HexDame {
            let moves = game.legal_moves();
            let takes = |m: &String| m.matches('x').count();
            if !moves.is_empty() && moves.iter().all(|m| takes(m) > 0) {
                let most = moves.iter().map(takes).max().unwrap_or(1);
                return Some(Forced::Capture { most });
            }
        }
        None
    }

    /// The pieces `seat` may move, and those of its pieces that cannot, with why.
    fn movable(&self, seat: Option<Seat>, forced: Option<&Forced>) -> (Vec<SeenPiece>, Vec<Stuck>) {
        let game = self.position();
        let pieces: Vec<SeenPiece> = picker::pieces(game)
            .into_iter()
            .map(|p| SeenPiece {
                label: p.label(),
                button: p.button(),
                origin: p.origin,
                kind: p.kind,
                cell: p.cell,
                moves: p.moves,
            })
            .collect();
        let Some(seat) = seat else {
            return (pieces, Vec::new());
        };
        let owner = game.seat_name(seat);
        let why = match forced {
            Some(Forced::Capture { most }) => format!(
                "cannot move: capture is compulsory, and only a capture of {most} may be made"
            ),
            Some(Forced::RelieveCheck { by }) => format!(
                "cannot move: none of its moves relieves the Check by {}",
                by.join(" and ")
            ),
            None => "cannot move: it has no legal move (blocked, or frozen)".to_string(),
        };
        let known = crate::games::help::pieces(game.kind());
        let stuck = game
            .piece_texts()
            .into_iter()
            .filter(|p| p.owner == owner)
            .filter(|p| {
                !pieces.iter().any(|m| {
                    m.cell
                        .as_deref()
                        .is_some_and(|c| c.eq_ignore_ascii_case(&p.cell))
                })
            })
            .map(|p| Stuck {
                kind: known
                    .iter()
                    .find(|k| k.key == p.kind && k.hatted == p.hatted)
                    .or_else(|| known.iter().find(|k| k.key == p.kind))
                    .map_or_else(|| p.kind.clone(), |k| k.name.to_string()),
                cell: p.cell,
                why: why.clone(),
            })
            .collect();
        (pieces, stuck)
    }

    /// The round's clauses as `seat` sees it: since its previous turn.
    fn round_for(&self, seat: Option<Seat>) -> Vec<String> {
        let Some(seat) = seat else {
            return Vec::new();
        };
        crate::host::story::since_parts(&self.told, seat)
    }
}

/// What a picker target does, from what the picker found.
fn does(t: &picker::Target, relieving: bool) -> Vec<Does> {
    let mut out: Vec<Does> = t
        .taken
        .iter()
        .map(|Taken { owner, kind, own }| match own {
            true => Does::Rams {
                piece: kind.clone(),
            },
            false => Does::Captures {
                whose: owner.clone(),
                piece: kind.clone(),
            },
        })
        .collect();
    if !t.checks.is_empty() {
        out.push(Does::GivesCheck {
            on: t.checks.clone(),
        });
    }
    if relieving {
        out.push(Does::Relieves);
    }
    if !t.exposes.is_empty() {
        out.push(Does::Exposes {
            royal: t.royal,
            by: t.exposes.clone(),
        });
    }
    out
}

/// The clauses of `round` that cost the seat called `you`: its pieces taken (`… took
/// Silver's Archer, Blue's Man`), a Check declared on it (`… declared Check on Blue and
/// Silver`), its seat out (`Silver is out`). Names are matched whole.
fn losses(round: &[String], you: &str) -> Vec<String> {
    let owned = format!("{you}'s ");
    round
        .iter()
        .filter(|c| {
            let took = c
                .split_once(" took ")
                .is_some_and(|(_, what)| what.split(", ").any(|p| p.starts_with(&owned)));
            let checked = c
                .split_once("declared Check on ")
                .is_some_and(|(_, on)| on.split(" and ").any(|s| s == you));
            took || checked || c.as_str() == format!("{you} is out")
        })
        .cloned()
        .collect()
}

/// The headline: what the game asks of the viewer now.
fn expects(
    your_turn: bool,
    holder: Option<&str>,
    staged: Option<&str>,
    forced: Option<&Forced>,
    declarable: &[String],
    nothing_to_move: bool,
) -> String {
    let Some(holder) = holder else {
        return "The game is over.".to_string();
    };
    if !your_turn {
        return format!("{holder} has the Token.");
    }
    if let Some(staged) = staged {
        let check = match declarable {
            [] => String::new(),
            seats => format!(" You may declare Check on {} first.", seats.join(" or ")),
        };
        return format!("Your move {staged} is staged: Pass to make it, or take it back.{check}");
    }
    let forced = forced.map(|f| format!(" {}.", capitalized(&f.text())));
    match (forced, nothing_to_move) {
        (_, true) => "Your turn: you have no move to make; Pass the Token.".to_string(),
        (Some(f), false) => format!("Your turn.{f} Tap a piece that may move."),
        (None, false) => "Your turn: tap a piece to move.".to_string(),
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seats_losses_are_the_clauses_that_cost_it() {
        let round = [
            "Orange N1xN4 took Silver's Archer".to_string(),
            "Orange declared Check on Blue and Silver".to_string(),
            "Blue Q4-Q8".to_string(),
            "Red K2xK5 took Blue's Militant, Silver's Regent".to_string(),
            "Silver is out".to_string(),
            "Green declared Check on Silverine".to_string(),
        ];
        assert_eq!(
            losses(&round, "Silver"),
            [
                round[0].clone(),
                round[1].clone(),
                round[3].clone(),
                round[4].clone()
            ]
        );
        assert!(losses(&round, "Yellow").is_empty());
    }

    #[test]
    fn the_headline_says_what_the_game_expects() {
        assert_eq!(
            expects(false, Some("Orange"), None, None, &[], true),
            "Orange has the Token."
        );
        assert_eq!(
            expects(
                true,
                Some("Silver"),
                Some("Q4-Q8"),
                None,
                &["Red".into()],
                true
            ),
            "Your move Q4-Q8 is staged: Pass to make it, or take it back. You may declare \
             Check on Red first."
        );
        let check = Forced::RelieveCheck {
            by: vec!["Orange".into()],
        };
        assert_eq!(
            expects(true, Some("Silver"), None, Some(&check), &[], false),
            "Your turn. You are in Check by Orange: your move must relieve it if any move can. \
             Tap a piece that may move."
        );
        assert_eq!(
            expects(true, Some("Silver"), None, None, &[], false),
            "Your turn: tap a piece to move."
        );
    }
}
