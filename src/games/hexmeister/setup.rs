//! Hexmeister's position JSON (`docs/notation-hexmeister.md`): the shared `game`/`to_move`/
//! `pieces` plus `reserves`, the bonus-action state, the pass count, the repetition history and
//! the house rules; and its validation into a position.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::board::{ALIGNMENTS, Bits, MIDDLE_RING, NORTH, OUTER_RING, SOUTH, bits, board};
use super::moves::security;
use super::{Hexmeister, History, HouseRules, Key, STONES, seat_name};
use crate::games::position::{PieceText, expect_game, lookup};
use crate::games::{GameKind, Outcome, PositionError, Seat};

const OWNERS: [&str; 2] = ["south", "north"];

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn is_default(h: &HouseRules) -> bool {
    *h == HouseRules::default()
}

/// A player's stones in reserve: `{"stone": n}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReserveText {
    pub stone: u32,
}

/// The untrusted position JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub game: String,
    /// `south` or `north`: whose action it is (once the game is over, the side that would have
    /// been next; it no longer matters).
    pub to_move: String,
    /// Stones on the board: `{"cell": "d4", "owner": "south", "kind": "stone"}`.
    #[serde(default)]
    pub pieces: Vec<PieceText>,
    /// `{"south": {"stone": 15}, …}`; an owner left out has 18 minus their stones on the board.
    #[serde(default)]
    pub reserves: BTreeMap<String, ReserveText>,
    /// The side to move is taking a bonus action (it may `pass` to end its turn).
    #[serde(default, skip_serializing_if = "is_false")]
    pub bonus: bool,
    /// Forced passes in succession so far (two end the game in a draw).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub passes: u8,
    /// The positions since the last drop or capture, oldest first, each written as
    /// `"Sd4 Ne4 | 15 17 | north"` (stones, South and North reserves, side to move, then ` bonus`
    /// if a bonus action was pending). Used by the repetition rule; its length is the quiet-action
    /// count.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub house_rules: HouseRules,
    /// A result the players settled (a resignation, an agreed draw): it stands whatever the
    /// board says. Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settled: Option<Outcome>,
}

fn seat(name: &str) -> Result<Seat, PositionError> {
    lookup(&OWNERS, name)
        .map(|i| Seat(i as u8))
        .ok_or_else(|| PositionError::UnknownOwner(name.to_string()))
}

/// A history entry as text.
pub(crate) fn key_text(k: &Key) -> String {
    let b = board();
    let mut cells: Vec<(u32, char)> = bits(k.stones[0])
        .map(|x| (x, 'S'))
        .chain(bits(k.stones[1]).map(|x| (x, 'N')))
        .collect();
    cells.sort();
    let stones: Vec<String> = cells
        .iter()
        .map(|&(x, o)| format!("{o}{}", b.name(x)))
        .collect();
    format!(
        "{} | {} {} | {}{}",
        if stones.is_empty() {
            "-".to_string()
        } else {
            stones.join(" ")
        },
        k.reserves[0],
        k.reserves[1],
        OWNERS[usize::from(k.to_move & 1)],
        if k.bonus { " bonus" } else { "" }
    )
}

fn parse_key(text: &str) -> Result<Key, PositionError> {
    let bad = |why: &str| PositionError::Invalid(format!("bad history entry {text:?}: {why}"));
    let parts: Vec<&str> = text.split('|').map(str::trim).collect();
    let [stones_text, reserves_text, turn_text] = parts[..] else {
        return Err(bad("expected stones | reserves | side to move"));
    };
    let mut stones: [Bits; 2] = [0, 0];
    if stones_text != "-" {
        for token in stones_text.split_whitespace() {
            let owner = match token.get(..1) {
                Some("S" | "s") => 0,
                Some("N" | "n") => 1,
                _ => return Err(bad(&format!("{token:?} is not S or N and a cell"))),
            };
            let x = board()
                .parse(&token[1..])
                .ok_or_else(|| bad(&format!("unknown cell in {token:?}")))?;
            if (stones[0] | stones[1]) >> x & 1 == 1 {
                return Err(bad(&format!("two stones on {}", &token[1..])));
            }
            stones[owner] |= 1 << x;
        }
    }
    let mut reserves = [0u8; 2];
    let counts: Vec<&str> = reserves_text.split_whitespace().collect();
    if counts.len() != 2 {
        return Err(bad("expected two reserve counts"));
    }
    for (i, c) in counts.iter().enumerate() {
        reserves[i] = c
            .parse()
            .ok()
            .filter(|&n| n <= STONES)
            .ok_or_else(|| bad(&format!("reserve {c:?} is not a number from 0 to 18")))?;
    }
    let mut words = turn_text.split_whitespace();
    let to_move = words
        .next()
        .and_then(|w| lookup(&OWNERS, w))
        .ok_or_else(|| bad("expected south or north to move"))?;
    let bonus = match words.next() {
        None => false,
        Some(w) if w.eq_ignore_ascii_case("bonus") => true,
        Some(w) => return Err(bad(&format!("unexpected {w:?}"))),
    };
    if words.next().is_some() {
        return Err(bad("unexpected text after the side to move"));
    }
    Ok(Key {
        stones,
        reserves,
        to_move: to_move as u8,
        bonus,
    })
}

pub(crate) fn from_setup(setup: Setup) -> Result<Hexmeister, PositionError> {
    expect_game(&setup.game, GameKind::Hexmeister)?;
    let b = board();
    let to_move = seat(&setup.to_move)?;
    let mut stones: [Bits; 2] = [0, 0];
    for p in &setup.pieces {
        let x = b
            .parse(&p.cell)
            .ok_or_else(|| PositionError::UnknownCell(p.cell.clone()))?;
        let owner = seat(&p.owner)?;
        if !p.kind.trim().eq_ignore_ascii_case("stone") {
            return Err(PositionError::UnknownKind(p.kind.clone()));
        }
        p.forbid_flags(false, false, false)?;
        if (stones[0] | stones[1]) >> x & 1 == 1 {
            return Err(PositionError::TwoPieces(b.name(x).to_string()));
        }
        stones[owner.index()] |= 1 << x;
    }
    let mut reserves = [0u8; 2];
    for s in [SOUTH, NORTH] {
        let on_board = stones[s.index()].count_ones();
        if on_board > u32::from(STONES) {
            return Err(PositionError::Invalid(format!(
                "{} has {on_board} stones on the board (a player has 18)",
                seat_name(s)
            )));
        }
        reserves[s.index()] = (u32::from(STONES) - on_board) as u8;
    }
    for (name, r) in &setup.reserves {
        let s = seat(name)?;
        let on_board = stones[s.index()].count_ones();
        if r.stone + on_board > u32::from(STONES) {
            return Err(PositionError::Invalid(format!(
                "{} has {on_board} stones on the board and {} in reserve (a player has 18)",
                seat_name(s),
                r.stone
            )));
        }
        reserves[s.index()] = r.stone as u8;
    }
    if setup.passes > 2 {
        return Err(PositionError::Invalid(format!(
            "passes is {}: at most 2 (two passes in succession end the game)",
            setup.passes
        )));
    }
    if setup.bonus && setup.passes > 0 {
        return Err(PositionError::Invalid(
            "a bonus action cannot be pending after a forced pass".into(),
        ));
    }
    let house = setup.house_rules;
    if !house.allow_self_capture {
        // Captures happen after every action, so (with self-capture illegal) no stone can stand
        // where its opponent secures: such a position cannot arise.
        for s in [SOUTH, NORTH] {
            let (own, opp) = (stones[s.index()], stones[1 - s.index()]);
            if let Some(x) = bits(own & security(opp, own, &house)).next() {
                return Err(PositionError::Invalid(format!(
                    "the {} stone on {} stands on a cell secured by {}, so it would have been \
                     captured",
                    seat_name(s),
                    b.name(x),
                    seat_name(Seat(1 - s.0))
                )));
            }
        }
    }
    let wins = |own: Bits| {
        ALIGNMENTS.iter().any(|(_, l)| own & l == *l)
            || own & MIDDLE_RING == MIDDLE_RING
            || own & OUTER_RING == OUTER_RING
    };
    if wins(stones[0]) && wins(stones[1]) {
        return Err(PositionError::Invalid(
            "both south and north hold a winning set of gates".into(),
        ));
    }
    let mut history = History::default();
    for entry in &setup.history {
        history.push(parse_key(entry)?);
    }
    let mut game = Hexmeister {
        house,
        stones,
        reserves,
        to_move,
        bonus: setup.bonus,
        passes: setup.passes,
        history,
        end: None,
        settled: None,
    };
    game.end = game.judge();
    Ok(game)
}

pub(crate) fn to_setup(g: &Hexmeister) -> Setup {
    let b = board();
    let pieces = g
        .stones()
        .into_iter()
        .map(|(c, s)| PieceText::new(b.name(b.bit(c)), seat_name(s), "stone"))
        .collect();
    let reserves = [SOUTH, NORTH]
        .into_iter()
        .map(|s| {
            (
                seat_name(s).to_string(),
                ReserveText {
                    stone: u32::from(g.reserves[s.index()]),
                },
            )
        })
        .collect();
    Setup {
        game: GameKind::Hexmeister.key().to_string(),
        to_move: seat_name(g.to_move).to_string(),
        pieces,
        reserves,
        bonus: g.bonus,
        passes: g.passes,
        history: g.history.keys().iter().map(key_text).collect(),
        house_rules: g.house,
        settled: None,
    }
}
