//! Position JSON for HexDame (`docs/notation-hexdame.md`): the shared schema plus what the draw
//! rules need, checked once at the border.
//!
//! Repetition needs the positions since the last capture or man move (no earlier one can recur).
//! Rather than opaque hashes, the JSON carries the king moves that led here from the first of
//! them, `reversible_moves`: a king slide is undone by sliding back, so the earlier positions
//! are rebuilt from the current one, and then replayed forward to prove every move was legal.

use serde::{Deserialize, Serialize};

use super::board::{GEOMETRY, RAYS, bit, bits, name};
use super::moves::{Board, MAX_CAPTURES};
use super::{Colour, DrawReason, HexDame, HouseRules, Kind};
use crate::games::position::{PieceText, expect_game, lookup};
use crate::games::{GameKind, MoveText, Outcome, PositionError, Rules, Sep};

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_spec(h: &HouseRules) -> bool {
    *h == HouseRules::default()
}

/// HexDame position JSON, untrusted until [`HexDame::from_setup`] accepts it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// `"hexdame"`.
    pub game: String,
    /// `"white"` or `"black"`: whose turn it is (or would be, once the game is over).
    pub to_move: String,
    /// Owner `white`/`black`, kind `man`/`king`; no per-piece flags.
    pub pieces: Vec<PieceText>,
    /// The king moves without capture (`a1-b2`) played since the last capture or man move,
    /// oldest first, the last one leading to this position. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reversible_moves: Vec<String>,
    /// The players agreed to a draw (§5). Default: false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub agreed_draw: bool,
    /// A result the players settled (a resignation, an agreed draw): it stands whatever the
    /// board says. Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settled: Option<Outcome>,
    /// The §6 choices in force. Default: the spec's.
    #[serde(default, skip_serializing_if = "is_spec")]
    pub house_rules: HouseRules,
}

pub fn check_house_rules(h: &HouseRules) -> Result<(), PositionError> {
    if h.king_move_limit == Some(0) {
        return Err(PositionError::Invalid(
            "house rule king_move_limit must be at least 1 (or null for no limit)".into(),
        ));
    }
    Ok(())
}

fn colour(name: &str) -> Result<Colour, PositionError> {
    match lookup(&["white", "black"], name) {
        Some(0) => Ok(Colour::White),
        Some(1) => Ok(Colour::Black),
        _ => Err(PositionError::UnknownOwner(name.to_string())),
    }
}

fn cell(text: &str) -> Result<u8, PositionError> {
    GEOMETRY
        .parse(text)
        .map(|c| c.0 as u8)
        .ok_or_else(|| PositionError::UnknownCell(text.to_string()))
}

pub fn from_setup(setup: Setup) -> Result<HexDame, PositionError> {
    expect_game(&setup.game, GameKind::HexDame)?;
    check_house_rules(&setup.house_rules)?;
    let mut board = Board {
        white: 0,
        black: 0,
        kings: 0,
        side: colour(&setup.to_move)?,
    };
    for p in &setup.pieces {
        let c = cell(&p.cell)?;
        let owner = colour(&p.owner)?;
        let kind = match lookup(&["man", "king"], &p.kind) {
            Some(0) => Kind::Man,
            Some(1) => Kind::King,
            _ => return Err(PositionError::UnknownKind(p.kind.clone())),
        };
        p.forbid_flags(false, false, false)?;
        if board.occupied() & bit(c) != 0 {
            return Err(PositionError::TwoPieces(name(c).to_string()));
        }
        match owner {
            Colour::White => board.white |= bit(c),
            Colour::Black => board.black |= bit(c),
        }
        if kind == Kind::King {
            board.kings |= bit(c);
        }
    }
    for side in [Colour::White, Colour::Black] {
        let n = board.own(side).count_ones() as usize;
        // Pieces are never added, so a side has at most its 16 men (§3); this also bounds a
        // capture path.
        if n > MAX_CAPTURES {
            return Err(PositionError::Invalid(format!(
                "{} has {n} pieces; a side has at most 16",
                side.name()
            )));
        }
    }
    let earliest = unwind(board, &setup.reversible_moves)?;
    let mut game = HexDame::from_board(earliest, setup.house_rules);
    for (i, text) in setup.reversible_moves.iter().enumerate() {
        let bad = |why: &str| {
            PositionError::Invalid(format!("reversible_moves: move {} ({text}) {why}", i + 1))
        };
        if game.draw.is_some() {
            return Err(bad("comes after the game was already drawn"));
        }
        let (from, to) = king_move(text).map_err(|e| bad(&e))?;
        let moves = game.legal_moves();
        if moves.iter().any(|m| m.is_capture()) {
            return Err(bad("was not legal: a capture was compulsory"));
        }
        let m = moves
            .into_iter()
            .find(|m| m.from == from && m.to == to)
            .ok_or_else(|| bad("was not legal"))?;
        game.make(&m);
    }
    if setup.agreed_draw {
        game.agree_draw().map_err(|_| {
            PositionError::Invalid(
                "agreed_draw is set but the game was already over by the rules".into(),
            )
        })?;
    }
    Ok(game)
}

/// Read `from-to` of a reversible move.
fn king_move(text: &str) -> Result<(u8, u8), String> {
    let not = || "is not a king move written from-to (like a1-b2)".to_string();
    let mt: MoveText = text.parse().map_err(|_| not())?;
    if mt.cells.len() != 2
        || mt.seps != [Sep::Move]
        || mt.drop.is_some()
        || mt.promotion.is_some()
        || !mt.checks.is_empty()
    {
        return Err(not());
    }
    let from = cell(&mt.cells[0]).map_err(|_| not())?;
    let to = cell(&mt.cells[1]).map_err(|_| not())?;
    Ok((from, to))
}

/// Take back `moves` (newest first) from `board`: each is a king slide, so the king goes back
/// along its line. Returns the position before the first of them.
fn unwind(mut board: Board, moves: &[String]) -> Result<Board, PositionError> {
    for (i, text) in moves.iter().enumerate().rev() {
        let bad = |why: String| {
            PositionError::Invalid(format!("reversible_moves: move {} ({text}) {why}", i + 1))
        };
        let (from, to) = king_move(text).map_err(bad)?;
        let mover = board.side.opponent();
        if board.own(mover) & board.kings & bit(to) == 0 {
            return Err(bad(format!(
                "needs a {} king on {} afterwards",
                mover.name(),
                name(to)
            )));
        }
        let open_line = RAYS[usize::from(from)].iter().any(|ray| {
            let cells = ray.as_slice();
            cells
                .iter()
                .position(|&c| c == to)
                .is_some_and(|j| cells[..j].iter().all(|&c| board.occupied() & bit(c) == 0))
        });
        if board.occupied() & bit(from) != 0 || !open_line {
            return Err(bad("is not a king slide along an open line".into()));
        }
        match mover {
            Colour::White => board.white = (board.white & !bit(to)) | bit(from),
            Colour::Black => board.black = (board.black & !bit(to)) | bit(from),
        }
        board.kings = (board.kings & !bit(to)) | bit(from);
        board.side = mover;
    }
    Ok(board)
}

pub fn to_setup(game: &HexDame) -> Setup {
    let b = &game.board;
    let pieces = bits(b.occupied())
        .map(|c| {
            let owner = if b.white & bit(c) != 0 {
                Colour::White
            } else {
                Colour::Black
            };
            let kind = if b.kings & bit(c) != 0 {
                Kind::King
            } else {
                Kind::Man
            };
            PieceText::new(name(c), owner.name(), kind.name())
        })
        .collect();
    let reversible_moves = game.history[game.window_start..]
        .windows(2)
        .filter_map(|w| {
            // Consecutive positions of the window differ by one king slide of the mover.
            let mover = w[0].side;
            let (before, after) = (w[0].own(mover), w[1].own(mover));
            let from = bits(before & !after).next()?;
            let to = bits(after & !before).next()?;
            Some(format!("{}-{}", name(from), name(to)))
        })
        .collect();
    Setup {
        game: GameKind::HexDame.key().to_string(),
        to_move: b.side.name().to_string(),
        pieces,
        reversible_moves,
        agreed_draw: game.draw == Some(DrawReason::Agreement),
        house_rules: game.house_rules().clone(),
        settled: None,
    }
}
