//! HexaEquo position JSON (`docs/notation-hexaequo.md`): the untrusted `Setup`, its validation
//! into a `HexaEquo`, and back.
//!
//! ```json
//! {"game": "hexaequo", "to_move": "black",
//!  "tiles": [{"cell": "I8", "owner": "black"}, …],
//!  "pieces": [{"cell": "J8", "owner": "black", "kind": "disc"}, …],
//!  "reserves": {"black": {"tile": 7, "disc": 5, "ring": 3}, "white": {…}},
//!  "captured": [{"owner": "white", "kind": "disc"}],
//!  "history": ["J8-I8", "H9-I9"],
//!  "house_rules": {…}}
//! ```
//!
//! Reserves follow from the rest (§7), so `reserves` is optional on input and, when given, must
//! agree. `history` (optional) lists the reversible moves since the last tile, placement or
//! capture, oldest first, so that threefold repetition survives a round trip.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::cells::{name, parse_cell};
use super::{
    Colour, DISCS, HexaEquo, HouseRules, Kind, MAX_TILES, Piece, Prisoners, RINGS, Rules, TILES,
    Tile,
};
use crate::games::position::{PieceText, expect_game};
use crate::games::{GameKind, MoveText, Outcome, PositionError};
use crate::hex::Hex;

/// A laid tile as written in position JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileText {
    pub cell: String,
    pub owner: String,
}

/// What one colour has in hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReserveText {
    pub tile: u32,
    pub disc: u32,
    pub ring: u32,
}

/// A captured piece: `owner` is the colour of the piece (so the other colour holds it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapturedText {
    pub owner: String,
    pub kind: String,
}

fn is_default(h: &HouseRules) -> bool {
    *h == HouseRules::default()
}

/// HexaEquo position JSON.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub game: String,
    pub to_move: String,
    #[serde(default)]
    pub tiles: Vec<TileText>,
    #[serde(default)]
    pub pieces: Vec<PieceText>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserves: Option<BTreeMap<String, ReserveText>>,
    #[serde(default)]
    pub captured: Vec<CapturedText>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub house_rules: HouseRules,
    /// A result the players settled (a resignation, an agreed draw): it stands whatever the
    /// board says. Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settled: Option<Outcome>,
}

fn invalid(msg: String) -> PositionError {
    PositionError::Invalid(msg)
}

fn colour(name: &str) -> Result<Colour, PositionError> {
    Colour::from_name(name).ok_or_else(|| PositionError::UnknownOwner(name.to_string()))
}

fn kind(name: &str) -> Result<Kind, PositionError> {
    Kind::from_name(name).ok_or_else(|| PositionError::UnknownKind(name.to_string()))
}

fn cell(text: &str) -> Result<Hex, PositionError> {
    parse_cell(text).ok_or_else(|| PositionError::UnknownCell(text.to_string()))
}

pub(super) fn from_setup(setup: Setup) -> Result<HexaEquo, PositionError> {
    expect_game(&setup.game, GameKind::HexaEquo)?;
    let house = setup.house_rules;
    if house.board_radius == Some(0) {
        return Err(invalid(
            "board_radius must be at least 1 (the opening block reaches distance 1)".into(),
        ));
    }
    let to_move = colour(&setup.to_move)?;
    // Checked before anything is compared pairwise, so huge input is refused at once.
    if setup.tiles.len() > MAX_TILES || setup.pieces.len() > MAX_TILES {
        return Err(invalid(format!(
            "a board holds at most {MAX_TILES} tiles (9 per colour), each with at most one piece"
        )));
    }

    let mut tiles: Vec<Tile> = Vec::with_capacity(setup.tiles.len());
    for t in &setup.tiles {
        let at = cell(&t.cell)?;
        let owner = colour(&t.owner)?;
        if tiles.iter().any(|x| x.cell == at) {
            return Err(invalid(format!("two tiles on {}", name(at))));
        }
        if !house.on_board(at) {
            return Err(invalid(format!(
                "the tile on {} lies outside the board radius {:?}",
                name(at),
                house.board_radius
            )));
        }
        tiles.push(Tile {
            cell: at,
            owner,
            piece: None,
        });
    }
    for c in Colour::BOTH {
        let n = tiles.iter().filter(|t| t.owner == c).count();
        if n > usize::from(TILES) {
            return Err(invalid(format!(
                "{} has {n} tiles on the board, but only {TILES}",
                c.name()
            )));
        }
    }
    tiles.sort_by_key(|t| t.cell);

    for p in &setup.pieces {
        p.forbid_flags(false, false, false)?;
        let at = cell(&p.cell)?;
        let piece = Piece::new(colour(&p.owner)?, kind(&p.kind)?);
        let Some(t) = tiles.iter_mut().find(|t| t.cell == at) else {
            return Err(invalid(format!(
                "the {} {} on {} stands on no tile",
                piece.owner.name(),
                piece.kind.name(),
                name(at)
            )));
        };
        if t.piece.is_some() {
            return Err(PositionError::TwoPieces(name(at)));
        }
        t.piece = Some(piece);
    }

    let mut prisoners = [Prisoners::default(); 2];
    for c in &setup.captured {
        let owner = colour(&c.owner)?;
        let held = &mut prisoners[owner.other().index()];
        match kind(&c.kind)? {
            Kind::Disc => held.discs = held.discs.saturating_add(1),
            Kind::Ring => held.rings = held.rings.saturating_add(1),
        }
    }

    let g = HexaEquo {
        house,
        tiles,
        prisoners,
        to_move,
        history: Vec::new(),
        settled: None,
    };
    check_material(&g)?;
    if let Some(reserves) = &setup.reserves {
        check_reserves(&g, reserves)?;
    }
    check_reachable(&g)?;
    replay_history(g, &setup.history)
}

/// Each colour owns 6 discs and 3 rings: on the board plus held by the enemy cannot exceed it.
fn check_material(g: &HexaEquo) -> Result<(), PositionError> {
    for c in Colour::BOTH {
        let held = g.prisoners[c.other().index()];
        for (kind, total, captured) in [
            (Kind::Disc, DISCS, held.discs),
            (Kind::Ring, RINGS, held.rings),
        ] {
            let on_board = g
                .pieces()
                .filter(|(_, p)| *p == Piece::new(c, kind))
                .count();
            if on_board + usize::from(captured) > usize::from(total) {
                return Err(invalid(format!(
                    "{} has {on_board} {}s on the board and {captured} captured by {}, but only {total}",
                    c.name(),
                    kind.name(),
                    c.other().name()
                )));
            }
        }
    }
    Ok(())
}

fn check_reserves(
    g: &HexaEquo,
    reserves: &BTreeMap<String, ReserveText>,
) -> Result<(), PositionError> {
    for (owner, given) in reserves {
        let c = colour(owner)?;
        let r = g.reserve(c);
        for (what, want, got) in [
            ("tiles", r.tile, given.tile),
            ("discs", r.disc, given.disc),
            ("rings", r.ring, given.ring),
        ] {
            if u32::from(want) != got {
                return Err(invalid(format!(
                    "{} is said to have {got} {what} in hand, but the board and the captured \
                     pieces leave {want}",
                    c.name()
                )));
            }
        }
    }
    Ok(())
}

/// Reject positions the game can never reach because it would already have ended, with the
/// side to move as the winner (§5.1 is checked after every action, for the player who moved).
fn check_reachable(g: &HexaEquo) -> Result<(), PositionError> {
    let me = g.to_move;
    let held = g.prisoners[me.index()];
    let ended = |why: String| {
        invalid(format!(
            "{why}, so {} would already have won; it cannot be {}'s turn",
            me.name(),
            me.name()
        ))
    };
    if held.discs >= DISCS {
        return Err(ended(format!(
            "{} holds all six {} discs",
            me.name(),
            me.other().name()
        )));
    }
    if held.rings >= RINGS {
        return Err(ended(format!(
            "{} holds all three {} rings",
            me.name(),
            me.other().name()
        )));
    }
    if !g.has_piece_on_board(me.other()) {
        return Err(ended(format!(
            "{} has no piece on the tiles",
            me.other().name()
        )));
    }
    Ok(())
}

/// Rebuild the repetition record from `history`: undo the listed moves back to the earliest
/// position, then play them forward again, each of which must be a legal move that captures
/// nothing.
fn replay_history(current: HexaEquo, history: &[String]) -> Result<HexaEquo, PositionError> {
    if history.is_empty() {
        return Ok(current);
    }
    let mut moves = Vec::with_capacity(history.len());
    for (i, text) in history.iter().enumerate() {
        let bad = |why: &str| invalid(format!("history move {} ({text}): {why}", i + 1));
        let mt: MoveText = text
            .parse()
            .map_err(|_| bad("write it as start-end, like J8-I8"))?;
        if mt.drop.is_some() || mt.cells.len() != 2 || mt.word.is_some() {
            return Err(bad(
                "the history holds only piece moves that capture nothing, written start-end",
            ));
        }
        let from = parse_cell(&mt.cells[0]).ok_or_else(|| bad("unknown cell"))?;
        let to = parse_cell(&mt.cells[1]).ok_or_else(|| bad("unknown cell"))?;
        moves.push((from, to));
    }
    let mut earliest = current.clone();
    for (i, &(from, to)) in moves.iter().enumerate().rev() {
        let mover = earliest.to_move.other();
        let bad = |why: String| invalid(format!("history move {} ({}): {why}", i + 1, history[i]));
        let Some(ti) = earliest.tile_index(to) else {
            return Err(bad(format!("there is no tile on {}", name(to))));
        };
        let piece = earliest.tiles[ti].piece;
        if piece.is_none_or(|p| p.owner != mover) {
            return Err(bad(format!(
                "{} should hold the {} piece that made it",
                name(to),
                mover.name()
            )));
        }
        let Some(fi) = earliest.tile_index(from) else {
            return Err(bad(format!("there is no tile on {}", name(from))));
        };
        if from == to || earliest.tiles[fi].piece.is_some() {
            return Err(bad(format!("{} should be empty before it", name(from))));
        }
        earliest.tiles[ti].piece = None;
        earliest.tiles[fi].piece = piece;
        earliest.to_move = mover;
    }
    let mut g = earliest;
    for (i, &(from, to)) in moves.iter().enumerate() {
        let m = g
            .legal_moves()
            .into_iter()
            .find(|m| m.captures() == 0 && m.from() == Some(from) && m.to() == Some(to))
            .ok_or_else(|| {
                invalid(format!(
                    "history move {} ({}) is not a legal move that captures nothing in the \
                     position before it",
                    i + 1,
                    history[i]
                ))
            })?;
        g.play_unchecked(&m);
    }
    Ok(g)
}

pub(super) fn to_setup(g: &HexaEquo) -> Setup {
    let tiles = g
        .tiles
        .iter()
        .map(|t| TileText {
            cell: name(t.cell),
            owner: t.owner.name().to_string(),
        })
        .collect();
    let pieces = g
        .pieces()
        .map(|(at, p)| PieceText::new(&name(at), p.owner.name(), p.kind.name()))
        .collect();
    let reserves = Colour::BOTH
        .iter()
        .map(|&c| {
            let r = g.reserve(c);
            (
                c.name().to_string(),
                ReserveText {
                    tile: r.tile.into(),
                    disc: r.disc.into(),
                    ring: r.ring.into(),
                },
            )
        })
        .collect();
    let mut captured = Vec::new();
    for holder in Colour::BOTH {
        let held = g.prisoners[holder.index()];
        for (kind, n) in [(Kind::Disc, held.discs), (Kind::Ring, held.rings)] {
            for _ in 0..n {
                captured.push(CapturedText {
                    owner: holder.other().name().to_string(),
                    kind: kind.name().to_string(),
                });
            }
        }
    }
    Setup {
        game: GameKind::HexaEquo.key().to_string(),
        to_move: g.to_move.name().to_string(),
        tiles,
        pieces,
        reserves: Some(reserves),
        captured,
        history: g
            .history
            .iter()
            .map(|e| format!("{}-{}", name(e.from), name(e.to)))
            .collect(),
        house_rules: g.house.clone(),
        settled: None,
    }
}
