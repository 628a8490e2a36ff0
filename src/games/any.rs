//! `AnyGame`: a position of any of the five games, for callers that choose the game at run time
//! (the CLI, the store, the host). Text in, text out.

use serde::Deserialize;

use super::harmegedo::Harmegedo;
use super::hexaequo::HexaEquo;
use super::hexdame::HexDame;
use super::heximeros::HexiMeros;
use super::hexmeister::Hexmeister;
use super::{
    Departure, GameKind, Outcome, PieceText, PlayError, Points, PositionError, Rules, Seat,
};

/// A position of one of the games.
// One AnyGame is held per game being worked on, never in bulk, so the size of the largest
// variant (HexiMeros' 649-cell board) costs nothing worth a Box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum AnyGame {
    HexiMeros(HexiMeros),
    HexDame(HexDame),
    Hexmeister(Hexmeister),
    HexaEquo(HexaEquo),
    Harmegedo(Harmegedo),
}

/// Run `$body` with `$g` bound to the inner game, whatever its kind.
macro_rules! dispatch {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            AnyGame::HexiMeros($g) => $body,
            AnyGame::HexDame($g) => $body,
            AnyGame::Hexmeister($g) => $body,
            AnyGame::HexaEquo($g) => $body,
            AnyGame::Harmegedo($g) => $body,
        }
    };
}

fn build<R: Rules>(
    players: Option<usize>,
    house_rules: Option<serde_json::Value>,
) -> Result<R, PositionError> {
    let (min, max) = R::KIND.players();
    let n = players.unwrap_or(max);
    if n < min || n > max {
        return Err(PositionError::Invalid(if min == max {
            format!("{} is played by {min} players, not {n}", R::KIND.name())
        } else {
            format!(
                "{} is played by {min} to {max} players, not {n}",
                R::KIND.name()
            )
        }));
    }
    let house = match house_rules {
        None => R::HouseRules::default(),
        Some(v) => serde_json::from_value(v)
            .map_err(|e| PositionError::Invalid(format!("bad house rules: {e}")))?,
    };
    R::new_game(n, house)
}

/// Why move text cannot be staged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unresolved {
    /// Not a move, or not a legal one.
    Play(PlayError),
    /// A legal move (its canonical text) that ignores challenges declared upon the mover.
    Disrespects(String),
}

/// Read position JSON of any game (its `game` field picks the engine): the border where
/// untrusted position text becomes a position.
pub fn read_position(json: &str) -> Result<AnyGame, PositionError> {
    AnyGame::from_json(json)
}

impl GameKind {
    /// Read position JSON that must be of this game.
    pub fn read_position(self, json: &str) -> Result<AnyGame, PositionError> {
        let game = AnyGame::from_json(json)?;
        if game.kind() != self {
            return Err(PositionError::WrongGame {
                expected: self.key(),
                found: game.kind().key().to_string(),
            });
        }
        Ok(game)
    }

    /// The start position of this game for `players` seats under `house_rules` (JSON of the
    /// game's house rules; `None` for the spec's).
    pub fn start(
        self,
        players: Option<usize>,
        house_rules: Option<serde_json::Value>,
    ) -> Result<AnyGame, PositionError> {
        AnyGame::new(self, players, house_rules)
    }
}

#[derive(Deserialize)]
struct Peek {
    game: String,
}

impl AnyGame {
    /// The start position of `kind` (players defaults to the most the game takes).
    pub fn new(
        kind: GameKind,
        players: Option<usize>,
        house_rules: Option<serde_json::Value>,
    ) -> Result<AnyGame, PositionError> {
        Ok(match kind {
            GameKind::HexiMeros => AnyGame::HexiMeros(build(players, house_rules)?),
            GameKind::HexDame => AnyGame::HexDame(build(players, house_rules)?),
            GameKind::Hexmeister => AnyGame::Hexmeister(build(players, house_rules)?),
            GameKind::HexaEquo => AnyGame::HexaEquo(build(players, house_rules)?),
            GameKind::Harmegedo => AnyGame::Harmegedo(build(players, house_rules)?),
        })
    }

    /// Read position JSON of any game; its `game` field picks the engine.
    pub fn from_json(json: &str) -> Result<AnyGame, PositionError> {
        let peek: Peek =
            serde_json::from_str(json).map_err(|e| PositionError::Json(e.to_string()))?;
        let kind = GameKind::from_key(&peek.game)
            .ok_or_else(|| PositionError::UnknownGame(peek.game.clone()))?;
        Ok(match kind {
            GameKind::HexiMeros => AnyGame::HexiMeros(HexiMeros::from_json(json)?),
            GameKind::HexDame => AnyGame::HexDame(HexDame::from_json(json)?),
            GameKind::Hexmeister => AnyGame::Hexmeister(Hexmeister::from_json(json)?),
            GameKind::HexaEquo => AnyGame::HexaEquo(HexaEquo::from_json(json)?),
            GameKind::Harmegedo => AnyGame::Harmegedo(Harmegedo::from_json(json)?),
        })
    }

    pub fn kind(&self) -> GameKind {
        dispatch!(self, g => kind_of(g))
    }

    pub fn to_json(&self) -> String {
        dispatch!(self, g => g.to_json())
    }

    /// The pieces on the board, as the position JSON lists them.
    pub fn piece_texts(&self) -> Vec<PieceText> {
        dispatch!(self, g => g.piece_texts())
    }

    /// Every legal move as text, sorted.
    pub fn legal_moves(&self) -> Vec<String> {
        dispatch!(self, g => g.legal_move_texts())
    }

    /// Play one move given as text; returns its canonical text. Unchanged on error.
    pub fn play(&mut self, text: &str) -> Result<String, PlayError> {
        dispatch!(self, g => {
            let m = g.parse_move(text)?;
            let canonical = g.move_text(&m);
            g.play_unchecked(&m);
            Ok(canonical)
        })
    }

    pub fn perft(&self, depth: u32) -> u64 {
        dispatch!(self, g => g.perft(depth))
    }

    pub fn show(&self) -> String {
        dispatch!(self, g => g.show())
    }

    pub fn to_move(&self) -> Option<Seat> {
        dispatch!(self, g => g.to_move())
    }

    pub fn seat_count(&self) -> usize {
        dispatch!(self, g => g.seat_count())
    }

    pub fn seat_name(&self, seat: Seat) -> &'static str {
        dispatch!(self, g => g.seat_name(seat))
    }

    /// A draw agreed by the players still in the game.
    pub fn agree_draw(&mut self) -> Result<(), PositionError> {
        dispatch!(self, g => g.agree_draw())
    }

    /// A seat leaves before the end (`Rules::depart`).
    pub fn depart(&mut self, seat: Seat, how: Departure) -> Result<(), PositionError> {
        dispatch!(self, g => g.depart(seat, how))
    }

    /// The Token holder's turn is skipped (`Rules::skip_turn`).
    pub fn skip_turn(&mut self) -> Result<(), PositionError> {
        dispatch!(self, g => g.skip_turn())
    }

    pub fn active_seats(&self) -> Vec<Seat> {
        dispatch!(self, g => g.active_seats())
    }

    pub fn out_order(&self) -> Vec<Seat> {
        dispatch!(self, g => g.out_order())
    }

    pub fn scored(&self) -> bool {
        dispatch!(self, g => g.scored())
    }

    pub fn last_points(&self) -> Vec<Points> {
        dispatch!(self, g => g.last_points())
    }

    pub fn takeover_points(&self, seat: Seat, expelled: bool) -> Vec<Points> {
        dispatch!(self, g => g.takeover_points(seat, expelled))
    }

    pub fn binding_challenges(&self) -> Vec<Seat> {
        dispatch!(self, g => g.binding_challenges())
    }

    pub fn declared_checks(&self) -> Vec<(Seat, Seat)> {
        dispatch!(self, g => g.declared_checks())
    }

    pub fn challenge_minutes(&self) -> i64 {
        dispatch!(self, g => g.challenge_minutes())
    }

    /// The seat called `name` (its colour or kingdom, any case).
    pub fn seat_named(&self, name: &str) -> Option<Seat> {
        (0..self.seat_count() as u8)
            .map(Seat)
            .find(|&s| self.seat_name(s).eq_ignore_ascii_case(name.trim()))
    }

    /// Resolve move text of the side to move against the challenges `declarers` made upon it:
    /// the canonical text, or why it is not allowed. `Err(Ok(_))`: the move is legal but does not
    /// respect the challenges (see `Rules::respects`).
    pub fn resolve(&self, text: &str, declarers: &[Seat]) -> Result<String, Unresolved> {
        dispatch!(self, g => {
            let m = g.parse_move(text).map_err(Unresolved::Play)?;
            let canonical = g.move_text(&m);
            if g.respects(&m, declarers) {
                Ok(canonical)
            } else {
                Err(Unresolved::Disrespects(canonical))
            }
        })
    }

    /// The move `text` with a declaration on `target` added (`Rules::declare`): its canonical
    /// text, or `None` when the move allows no such declaration.
    pub fn declare(&self, text: &str, target: Seat) -> Result<Option<String>, PlayError> {
        dispatch!(self, g => {
            let m = g.parse_move(text)?;
            Ok(g.declare(&m, target).map(|d| g.move_text(&d)))
        })
    }

    /// The pieces (or reserves) the side to move can move, as their move texts start
    /// (`origin`), sorted.
    pub fn movable_pieces(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .legal_moves()
            .iter()
            .map(|m| super::notation::origin(m).to_string())
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// The legal moves of the side to move that start from `piece` (see `movable_pieces`).
    pub fn moves_from(&self, piece: &str) -> Vec<String> {
        self.legal_moves()
            .into_iter()
            .filter(|m| super::notation::origin(m) == piece)
            .collect()
    }

    /// The seats that may challenge the move `text` (canonical, of the side to move).
    pub fn challengers(&self, text: &str) -> Result<Vec<Seat>, PlayError> {
        dispatch!(self, g => g.parse_move(text).map(|m| g.challengers(&m)))
    }

    pub fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, g => g.outcome())
    }

    /// Whether something attacks `seat`'s royal piece (HexiMeros: a Sovereign, Harmegedo: the
    /// King); `None` in games without one.
    pub fn royal_attacked(&self, seat: Seat) -> Option<bool> {
        match self {
            AnyGame::HexiMeros(g) => Some(!g.attackers_of_seat(seat).is_empty()),
            AnyGame::Harmegedo(g) => Some(g.king_attacked(seat)),
            AnyGame::HexDame(_) | AnyGame::Hexmeister(_) | AnyGame::HexaEquo(_) => None,
        }
    }

    /// The cells of `seat`'s pieces that another seat attacks, with those seats (HexiMeros, where
    /// every seat's attacks stand at once; empty in the other games, where only the side to
    /// move has moves).
    pub fn attacked_pieces(&self, seat: Seat) -> Vec<(String, Vec<Seat>)> {
        match self {
            AnyGame::HexiMeros(g) => {
                let geo = &crate::games::heximeros::BOARD.geometry;
                g.attacked_pieces(seat)
                    .into_iter()
                    .map(|(c, by)| (geo.name(c).to_string(), by))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// What the royal piece is called (see `royal_attacked`).
    pub fn royal_name(&self) -> &'static str {
        match self {
            AnyGame::Harmegedo(_) => "King",
            _ => "Sovereign",
        }
    }
}

fn kind_of<R: Rules>(_: &R) -> GameKind {
    R::KIND
}
