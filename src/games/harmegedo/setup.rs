//! Harmegedo position JSON (ARCHITECTURE.md "Positions", `docs/notation-harmegedo.md`): the
//! untrusted [`Setup`], its validation into a [`Harmegedo`], and back.

use serde::{Deserialize, Serialize};

use super::board::SECTORS;
use super::{Harmegedo, HouseRules, KINGDOM_NAMES, Kind, Piece, en_passant_key};
use crate::games::position::{expect_game, lookup};
use crate::games::{GameKind, Outcome, PieceText, PositionError};

fn all_kingdoms() -> Vec<String> {
    KINGDOM_NAMES.iter().map(|s| s.to_string()).collect()
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_default(h: &HouseRules) -> bool {
    *h == HouseRules::default()
}

/// A Harmegedo position as JSON. Only `game`, `to_move` and `pieces` are required.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub game: String,
    /// The kingdoms in play (the seats), by name; default all six.
    #[serde(default = "all_kingdoms")]
    pub kingdoms: Vec<String>,
    /// The kingdom whose turn it is (after the game ends: the one that would have been next).
    pub to_move: String,
    /// Kingdoms whose king has been captured; their pieces are neutral.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub eliminated: Vec<String>,
    /// Each piece: `cell`, `owner` (a kingdom), `kind` (king, queen, rook, bishop, knight, pawn),
    /// `moved` (default false).
    pub pieces: Vec<PieceText>,
    /// The space a pawn skipped with a double step on the last turn (house rule `en_passant`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub en_passant: Option<String>,
    /// Consecutive turns without a capture or a pawn move.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub quiet_turns: u32,
    /// For the repetition rule: the engine's hashes (16 hex digits) of the positions since the
    /// last capture or pawn move, oldest first. Copy them as they are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub house_rules: HouseRules,
    /// A result the players settled (a resignation, an agreed draw): it stands whatever the
    /// board says. Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settled: Option<Outcome>,
}

fn kingdom(name: &str) -> Result<u8, PositionError> {
    lookup(&KINGDOM_NAMES, name)
        .map(|i| i as u8)
        .ok_or_else(|| PositionError::UnknownOwner(name.to_string()))
}

/// Team number per sector from the house rules; kingdoms not listed play alone. Teams may name
/// only kingdoms in play (`in_play` bitmask), each once, and must leave at least two sides.
pub(super) fn team_table(house: &HouseRules, in_play: u8) -> Result<[u8; SECTORS], PositionError> {
    // Alone, kingdom k is team 8 + k; listed teams are 0, 1, ….
    let mut team_of: [u8; SECTORS] = std::array::from_fn(|k| 8 + k as u8);
    let mut listed = 0u8;
    for (t, team) in house.teams.iter().enumerate() {
        if team.is_empty() {
            return Err(PositionError::Invalid("a team lists no kingdom".into()));
        }
        for name in team {
            let k = kingdom(name).map_err(|_| {
                PositionError::Invalid(format!("unknown kingdom {name:?} in teams"))
            })?;
            if listed & (1 << k) != 0 {
                return Err(PositionError::Invalid(format!(
                    "{} is in more than one team",
                    KINGDOM_NAMES[k as usize]
                )));
            }
            if in_play & (1 << k) == 0 {
                return Err(PositionError::Invalid(format!(
                    "{} is in a team but not in play",
                    KINGDOM_NAMES[k as usize]
                )));
            }
            listed |= 1 << k;
            team_of[k as usize] = t as u8;
        }
    }
    if !house.teams.is_empty() {
        let mut sides: Vec<u8> = (0..SECTORS)
            .filter(|&k| in_play & (1 << k) != 0)
            .map(|k| team_of[k])
            .collect();
        sides.sort_unstable();
        sides.dedup();
        if sides.len() < 2 {
            return Err(PositionError::Invalid(
                "the teams leave nobody to play against".into(),
            ));
        }
    }
    Ok(team_of)
}

pub(super) fn from_setup(setup: Setup) -> Result<Harmegedo, PositionError> {
    expect_game(&setup.game, GameKind::Harmegedo)?;
    let sectors = setup
        .kingdoms
        .iter()
        .map(|n| kingdom(n))
        .collect::<Result<Vec<u8>, _>>()?;
    let mut g = Harmegedo::empty(setup.house_rules, &sectors)?;
    for name in &setup.eliminated {
        let k = kingdom(name)?;
        if g.in_play & (1 << k) == 0 {
            return Err(PositionError::Invalid(format!(
                "{name} is eliminated but not in play"
            )));
        }
        if g.is_eliminated(k) {
            return Err(PositionError::Invalid(format!(
                "{name} is listed twice in eliminated"
            )));
        }
        g.eliminate(k);
    }
    if !g.kingdoms().iter().any(|&k| g.is_live(k)) {
        return Err(PositionError::Invalid(
            "every kingdom is eliminated; at least one king must be left".into(),
        ));
    }
    let to_move = kingdom(&setup.to_move)?;
    if !g.is_live(to_move) {
        return Err(PositionError::Invalid(format!(
            "{} is to move but is not in play or is eliminated",
            KINGDOM_NAMES[to_move as usize]
        )));
    }
    g.set_to_move(to_move);
    for p in &setup.pieces {
        place(&mut g, p)?;
    }
    for &k in g.kingdoms() {
        if g.is_live(k) && g.kings[k as usize].is_none() {
            return Err(PositionError::Invalid(format!(
                "{} has no king; a kingdom without one must be listed in eliminated",
                KINGDOM_NAMES[k as usize]
            )));
        }
    }
    if let Some(name) = &setup.en_passant {
        set_en_passant(&mut g, name)?;
    }
    g.quiet_turns = setup.quiet_turns;
    for h in &setup.history {
        let v = (h.len() == 16 && h.bytes().all(|c| c.is_ascii_hexdigit()))
            .then(|| u64::from_str_radix(h, 16).ok())
            .flatten()
            .ok_or_else(|| {
                PositionError::Invalid(format!("history entry {h:?} is not 16 hex digits"))
            })?;
        g.history.push(v);
    }
    g.settle();
    Ok(g)
}

/// Put a position's piece `p` on the board, refusing what a game could not have reached.
fn place(g: &mut Harmegedo, p: &PieceText) -> Result<(), PositionError> {
    let b = g.board;
    p.forbid_flags(true, false, false)?;
    let c = b
        .parse(&p.cell)
        .ok_or_else(|| PositionError::UnknownCell(p.cell.clone()))?;
    let k = kingdom(&p.owner)?;
    let kind = Kind::parse(&p.kind)
        .filter(|_| p.kind.len() > 1)
        .ok_or_else(|| PositionError::UnknownKind(p.kind.clone()))?;
    if g.in_play & (1 << k) == 0 {
        return Err(PositionError::Invalid(format!(
            "the piece on {} belongs to {}, which is not in play",
            b.name(c),
            KINGDOM_NAMES[k as usize]
        )));
    }
    if g.squares[c.index()] != 0 {
        return Err(PositionError::TwoPieces(b.name(c).to_string()));
    }
    if kind == Kind::King {
        if g.is_eliminated(k) {
            return Err(PositionError::Invalid(format!(
                "{} is eliminated but has a king on {}",
                KINGDOM_NAMES[k as usize],
                b.name(c)
            )));
        }
        if let Some(other) = g.kings[k as usize] {
            return Err(PositionError::Invalid(format!(
                "{} has two kings, on {} and {}",
                KINGDOM_NAMES[k as usize],
                b.name(other),
                b.name(c)
            )));
        }
    }
    if kind == Kind::Pawn && g.house.promotion && b.rank(c) == b.shape().ranks as usize {
        return Err(PositionError::Invalid(format!(
            "a pawn on {} stands on the last rank, where it would have been promoted",
            b.name(c)
        )));
    }
    g.put(
        c,
        Piece {
            kingdom: k,
            kind,
            moved: p.moved,
        },
    );
    Ok(())
}

/// Set the en-passant space `name`, refusing one no double step could have left.
fn set_en_passant(g: &mut Harmegedo, name: &str) -> Result<(), PositionError> {
    let b = g.board;
    if !g.house.en_passant {
        return Err(PositionError::Invalid(
            "en_passant is set but the house rule en_passant is off".into(),
        ));
    }
    let c = b
        .parse(name)
        .ok_or_else(|| PositionError::UnknownCell(name.to_string()))?;
    let pawn_beyond = b
        .step(c, super::Dir::Forward)
        .and_then(|v| g.piece_at(v))
        .is_some_and(|p| p.kind == Kind::Pawn);
    let start_empty = b
        .step(c, super::Dir::Back)
        .is_some_and(|s| g.squares[s.index()] == 0);
    if g.squares[c.index()] != 0 || !pawn_beyond || !start_empty {
        return Err(PositionError::Invalid(format!(
            "en_passant {name} must be an empty space between an empty space and a pawn that just double-stepped"
        )));
    }
    g.en_passant = Some(c);
    g.hash ^= en_passant_key(c);
    Ok(())
}

pub(super) fn to_setup(g: &Harmegedo) -> Setup {
    let b = g.board;
    let names = |ks: &mut dyn Iterator<Item = u8>| -> Vec<String> {
        ks.map(|k| KINGDOM_NAMES[k as usize].to_string()).collect()
    };
    let mut sectors: Vec<u8> = g.kingdoms().to_vec();
    sectors.sort_unstable();
    Setup {
        game: GameKind::Harmegedo.key().into(),
        kingdoms: names(&mut sectors.iter().copied()),
        to_move: KINGDOM_NAMES[g.to_move as usize].into(),
        eliminated: names(&mut sectors.iter().copied().filter(|&k| g.is_eliminated(k))),
        pieces: g
            .pieces()
            .map(|(c, p)| PieceText {
                moved: p.moved,
                ..PieceText::new(b.name(c), KINGDOM_NAMES[p.kingdom as usize], p.kind.name())
            })
            .collect(),
        en_passant: g.en_passant.map(|c| b.name(c).to_string()),
        quiet_turns: g.quiet_turns,
        history: g.history.iter().map(|h| format!("{h:016x}")).collect(),
        house_rules: (*g.house).clone(),
        settled: None,
    }
}
