//! HexiMeros position JSON (ARCHITECTURE.md "Positions"): the untrusted `Setup`, its validation
//! into a position, and back.
//!
//! Fields beyond the shared ones, all optional: `eliminated` (colours out, in out order),
//! `checks` (`[{"declarer": "silver", "target": "E14"}]`: the declarer and the checked
//! Sovereign's cell), `halfmove_clock`, `controllers` (`{"blue": "silver"}`, only where a colour is
//! moved by another seat), `prisoners` (`[{"holder": "silver", "colour": "blue"}]`), `conceded`
//! (colours handed over by a concession), `result` (the outcome once the game is over) and
//! `house_rules`. A colour with no Sovereign on the board that `eliminated` does not name is taken
//! as out, after the named ones, in colour order.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::board::BOARD;
use super::{COLOURS, CheckRecord, HexiMeros, HouseRules, Kind, Piece};
use crate::games::position::{PieceText, expect_game, lookup};
use crate::games::{GameKind, Outcome, PositionError, Seat};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckText {
    pub declarer: String,
    pub target: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrisonerText {
    pub holder: String,
    pub colour: String,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_default(h: &HouseRules) -> bool {
    *h == HouseRules::default()
}

/// The position as written in JSON. Untrusted until `from_setup` accepts it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub game: String,
    /// The colour holding the Token; `null` once the game is over.
    #[serde(default)]
    pub to_move: Option<String>,
    pub pieces: Vec<PieceText>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub eliminated: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<CheckText>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub halfmove_clock: u32,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub controllers: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prisoners: Vec<PrisonerText>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conceded: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Outcome>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub house_rules: HouseRules,
}

fn colour(name: &str) -> Result<u8, PositionError> {
    lookup(&COLOURS, name)
        .map(|i| i as u8)
        .ok_or_else(|| PositionError::UnknownOwner(name.to_string()))
}

fn kind_of(piece: &PieceText) -> Result<Kind, PositionError> {
    let k = Kind::PROMOTIONS
        .into_iter()
        .chain([Kind::Sovereign, Kind::Militant])
        .find(|k| k.name().eq_ignore_ascii_case(piece.kind.trim()))
        .ok_or_else(|| {
            PositionError::UnknownKind(format!(
                "{} (expected sovereign, regent, assassin, archer, prelate, alcazar, cavalier, \
                 dreadnaught or militant; a Hatted Militant is a militant with \"hatted\": true)",
                piece.kind
            ))
        })?;
    Ok(if piece.hatted {
        if k != Kind::Militant {
            return Err(PositionError::Invalid(format!(
                "the {} on {} cannot be hatted: only a Militant wears the Hat",
                k.name(),
                piece.cell
            )));
        }
        Kind::HattedMilitant
    } else {
        k
    })
}

pub(super) fn from_setup(setup: Setup) -> Result<HexiMeros, PositionError> {
    expect_game(&setup.game, GameKind::HexiMeros)?;
    let geo = &BOARD.geometry;
    let mut g = HexiMeros::empty(setup.house_rules.clone());
    for piece in &setup.pieces {
        let cell = geo
            .parse(&piece.cell)
            .ok_or_else(|| PositionError::UnknownCell(piece.cell.clone()))?;
        let colour = colour(&piece.owner)?;
        let kind = kind_of(piece)?;
        if piece.gz_bonus {
            if cell != BOARD.gz {
                return Err(PositionError::Invalid(format!(
                    "the piece on {} has gz_bonus, but only a piece on Ground Zero (Q26) can",
                    piece.cell
                )));
            }
            if !kind.gets_gz_bonus() {
                return Err(PositionError::Invalid(format!(
                    "a {} never gets the Ground Zero bonus",
                    kind.name()
                )));
            }
        }
        if g.board[cell.index()].is_some() {
            return Err(PositionError::TwoPieces(geo.name(cell).to_string()));
        }
        g.put(
            cell,
            Piece {
                colour,
                kind,
                moved: piece.moved,
                bonus: piece.gz_bonus,
            },
        );
    }
    for (c, s) in &setup.controllers {
        g.controller[colour(c)? as usize] = colour(s)?;
    }
    for p in &setup.prisoners {
        g.prisoners.push((colour(&p.holder)?, colour(&p.colour)?));
    }
    for c in &setup.conceded {
        g.conceded |= 1 << colour(c)?;
    }
    g.active = [false; 6];
    for seat in 0..6u8 {
        g.active[seat as usize] = !g.sovereigns_of(Seat(seat)).is_empty();
    }
    for name in &setup.eliminated {
        let s = colour(name)?;
        if g.active[s as usize] {
            return Err(PositionError::Invalid(format!(
                "{name} is listed as eliminated but has a Sovereign on the board"
            )));
        }
        if g.out_order.contains(&s) {
            return Err(PositionError::Invalid(format!(
                "{name} is listed as eliminated twice"
            )));
        }
        g.out_order.push(s);
    }
    for s in 0..6u8 {
        if !g.active[s as usize] && !g.out_order.contains(&s) {
            g.out_order.push(s);
        }
    }
    for ch in &setup.checks {
        let declarer = colour(&ch.declarer)?;
        let target = geo
            .parse(&ch.target)
            .ok_or_else(|| PositionError::UnknownCell(ch.target.clone()))?;
        match g.board[target.index()] {
            Some(p) if p.kind == Kind::Sovereign => {}
            _ => {
                return Err(PositionError::Invalid(format!(
                    "a check names {} as its target, but no Sovereign stands there",
                    ch.target
                )));
            }
        }
        g.checks.push(CheckRecord {
            declarer: Seat(declarer),
            target,
        });
    }
    g.halfmove_clock = setup.halfmove_clock;
    g.result = setup.result;
    match (&setup.to_move, &g.result) {
        (Some(name), None) => {
            let s = colour(name)?;
            if !g.active[s as usize] && g.active_seats().len() > 1 {
                return Err(PositionError::Invalid(format!(
                    "{name} is to move but has no Sovereign on the board"
                )));
            }
            g.to_move = s;
        }
        (None, None) => {
            let first = g.active_seats().first().map(|s| s.0).unwrap_or(0);
            g.to_move = first;
        }
        (_, Some(_)) => {}
    }
    g.record_history();
    g.settle();
    g.events.clear();
    Ok(g)
}

pub(super) fn to_setup(g: &HexiMeros) -> Setup {
    let geo = &BOARD.geometry;
    let pieces = g
        .pieces()
        .map(|(c, p)| PieceText {
            cell: geo.name(c).to_string(),
            owner: COLOURS[p.colour as usize].to_string(),
            kind: if p.kind == Kind::HattedMilitant {
                "militant".to_string()
            } else {
                p.kind.name().to_ascii_lowercase()
            },
            moved: p.moved,
            hatted: p.kind == Kind::HattedMilitant,
            gz_bonus: p.bonus,
        })
        .collect();
    Setup {
        game: GameKind::HexiMeros.key().to_string(),
        to_move: g
            .result
            .is_none()
            .then(|| COLOURS[g.to_move as usize].to_string()),
        pieces,
        eliminated: g
            .out_order
            .iter()
            .map(|&s| COLOURS[s as usize].to_string())
            .collect(),
        checks: g
            .checks
            .iter()
            .map(|r| CheckText {
                declarer: COLOURS[r.declarer.index()].to_string(),
                target: geo.name(r.target).to_string(),
            })
            .collect(),
        halfmove_clock: g.halfmove_clock,
        controllers: (0..6)
            .filter(|&c| g.controller[c] as usize != c)
            .map(|c| {
                (
                    COLOURS[c].to_string(),
                    COLOURS[g.controller[c] as usize].to_string(),
                )
            })
            .collect(),
        prisoners: g
            .prisoners
            .iter()
            .map(|&(h, c)| PrisonerText {
                holder: COLOURS[h as usize].to_string(),
                colour: COLOURS[c as usize].to_string(),
            })
            .collect(),
        conceded: (0..6)
            .filter(|c| g.conceded & (1 << c) != 0)
            .map(|c| COLOURS[c].to_string())
            .collect(),
        result: g.result.clone(),
        house_rules: g.house.clone(),
    }
}
