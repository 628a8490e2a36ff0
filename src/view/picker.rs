//! The move picker's contents, pure and front-end neutral: the pieces the side to move can move
//! (grouped by kind in the rulebook's order, each kind's pieces in board order, with how many
//! moves each has), a piece's targets numbered as the zoomed picture numbers them (outward along
//! each line, the lines clockwise from the top of the mover's picture; what each
//! takes, the Checks it may declare), the choices on one target (a promotion), and pages of at
//! most [`PAGE`] entries, so that nothing is ever dropped.
//!
//! ```
//! use hexmeros::games::{AnyGame, GameKind};
//! use hexmeros::view::picker;
//!
//! let game = AnyGame::new(GameKind::HexDame, None, None)?;
//! let pieces = picker::pieces(&game);
//! assert_eq!(pieces[0].label(), "Man · a4 · 2 moves");
//! let targets = picker::targets(&game, &pieces[0].origin);
//! assert_eq!(targets[0].label(), "1 → b5");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::ops::Range;

use hexmeros_render::layout::hex_to_world;
use hexmeros_render::{Hex, HexPoint, Orientation};

use super::common::{self, title_case};
use super::legend;
use crate::games::help;
use crate::games::notation;
use crate::games::{AnyGame, Rules, Seat};

/// Entries on one page of a picker menu: Discord's limit on a select menu's options.
pub const PAGE: usize = 25;

/// One entry of the first step: a piece on the board (or a reserve the player places from).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// What its move texts start with (`N27`, `0.a2`; `D@` for a placement).
    pub origin: String,
    /// The kind's name as the rulebook writes it (`Regent`, `Hatted Militant`, `Disc`).
    pub kind: String,
    /// The cell it stands on; `None` for a placement from the reserve or a word move.
    pub cell: Option<String>,
    /// How many legal moves start from it.
    pub moves: usize,
    /// The kind's place in the rulebook's list of pieces (placements and words after).
    rank: usize,
}

impl Piece {
    /// The menu line: `Regent · N27 · 12 moves`, `Place Disc · 9 cells`.
    pub fn label(&self) -> String {
        match &self.cell {
            Some(cell) => format!("{} · {cell} · {}", self.kind, count(self.moves, "move")),
            None if self.origin.ends_with('@') => {
                format!("Place {} · {}", self.kind, count(self.moves, "cell"))
            }
            None => self.kind.clone(),
        }
    }

    /// The piece's button: its kind and cell (`Regent N27`), or what it places (`Place Disc`).
    pub fn button(&self) -> String {
        match &self.cell {
            Some(cell) => format!("{} {cell}", self.kind),
            None => self.label(),
        }
    }
}

/// A destination of one piece: the cell, its number on the zoomed picture, and the moves that
/// end there (more than one when the move has a choice left, such as a promotion).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// 1, 2, …: the number drawn on the cell.
    pub number: usize,
    /// The cell's name as the moves spell it (`N35`); a word move's text.
    pub cell: String,
    /// The cell on the picture (scene coordinates); `None` for a word move.
    pub hex: Option<Hex>,
    /// Every legal move of the piece that ends here, in the game's order.
    pub moves: Vec<String>,
    /// What the (first) move takes, as `Blue's Archer` (`your own Militant` for a ram).
    pub takes: Vec<String>,
    /// The same pieces, each with its owner and kind apart.
    pub taken: Vec<Taken>,
    /// The seats it may declare Check on (`Red`).
    pub checks: Vec<String>,
    /// The seats whose pieces attack the mover's royal piece once the move is played (`Blue`):
    /// a move that walks into Check (HexiMeros §5.4's challenge).
    pub exposes: Vec<String>,
    /// What the mover's royal piece is called (`Sovereign`, `King`).
    pub royal: &'static str,
}

impl Target {
    /// The menu line: `7 → N35 · takes Blue's Archer · gives Check to Red`, in the words the
    /// host's projection uses (`host::Does`): `rams your own Militant` for a ram.
    pub fn label(&self) -> String {
        let mut s = format!("{} → {}", self.number, self.cell);
        s.push_str(&notes(&self.taken, &self.checks));
        s.push_str(&exposure(self.royal, &self.exposes));
        if self.moves.len() > 1 {
            s.push_str(&format!(" · {} choices", self.moves.len()));
        }
        s
    }
}

/// A piece a move removes or takes over: whose (as sentences name the seat), what kind, and
/// whether it is the mover's own (a ram: HexiMeros' Dreadnaught, friendly fire).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taken {
    pub owner: String,
    pub kind: String,
    pub own: bool,
}

impl Taken {
    /// `Blue's Archer`, or `your own Militant`.
    pub fn text(&self) -> String {
        match self.own {
            true => format!("your own {}", self.kind),
            false => format!("{}'s {}", self.owner, self.kind),
        }
    }
}

/// One of several moves that end on the same target: its menu line (a promotion's piece
/// first) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub label: String,
    pub text: String,
}

/// `takes …` and `Check on …` notes, each after ` · `.
fn notes(taken: &[Taken], checks: &[String]) -> String {
    let mut s = String::new();
    let (own, others): (Vec<&Taken>, Vec<&Taken>) = taken.iter().partition(|t| t.own);
    if !others.is_empty() {
        let names: Vec<String> = others.iter().map(|t| t.text()).collect();
        s.push_str(" · takes ");
        s.push_str(&names.join(", "));
    }
    if !own.is_empty() {
        let kinds: Vec<&str> = own.iter().map(|t| t.kind.as_str()).collect();
        s.push_str(" · rams your own ");
        s.push_str(&kinds.join(", "));
    }
    if !checks.is_empty() {
        s.push_str(" · gives Check to ");
        s.push_str(&checks.join(" and "));
    }
    s
}

/// ` · leaves your Sovereign attacked by Blue`, when the move does.
fn exposure(royal: &str, by: &[String]) -> String {
    if by.is_empty() {
        return String::new();
    }
    format!(" · leaves your {royal} attacked by {}", by.join(", "))
}

/// The seats that attack the mover's royal piece after `m` (title-cased).
fn exposed_to(game: &AnyGame, m: &str) -> Vec<String> {
    game.challengers(m)
        .unwrap_or_default()
        .into_iter()
        .map(|s| super::seat_label(game, s))
        .collect()
}

fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// A page of a list: which page (clamped to the last), how many there are, and the range of
/// entries on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paged {
    pub page: usize,
    pub pages: usize,
    pub range: Range<usize>,
}

/// Page `page` of a list of `len` entries, [`PAGE`] a page. An empty list has one empty page.
pub fn page(len: usize, page: usize) -> Paged {
    let pages = len.div_ceil(PAGE).max(1);
    let page = page.min(pages - 1);
    let start = page * PAGE;
    Paged {
        page,
        pages,
        range: start..(start + PAGE).min(len),
    }
}

/// A cell name's sort key (see [`board_order`]): its runs of letters and of digits.
pub type BoardOrder = Vec<(u8, u64, String)>;

/// A sort key for cell names in board order: files then ranks as the board names them, numbers
/// compared as numbers and letter runs by length first (`K2` < `K10` < `AA10`, `0.b1` < `1.a1`).
pub fn board_order(name: &str) -> BoardOrder {
    let mut key = Vec::new();
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        let digit = c.is_ascii_digit();
        let end = rest
            .find(|x: char| x.is_ascii_digit() != digit)
            .unwrap_or(rest.len());
        let (run, tail) = rest.split_at(end);
        key.push(if digit {
            (1, run.parse().unwrap_or(u64::MAX), String::new())
        } else {
            (0, run.len() as u64, run.to_ascii_lowercase())
        });
        rest = tail;
    }
    key
}

/// A piece as the position JSON lists it: owner and the name of its kind.
struct Occupant {
    owner: String,
    kind: String,
}

/// The pieces on the board by lower-case cell name, and each kind's rank in the rulebook's
/// list, as the position JSON lists them (the one shape every game shares).
fn occupants(game: &AnyGame) -> HashMap<String, (Occupant, usize)> {
    let known = help::pieces(game.kind());
    let mut out = HashMap::new();
    for p in game.piece_texts() {
        let found = known
            .iter()
            .position(|k| k.key == p.kind && k.hatted == p.hatted)
            .or_else(|| known.iter().position(|k| k.key == p.kind));
        let (rank, name) = match found {
            Some(i) => (i, known[i].name.to_string()),
            None => (known.len(), title_case(&p.kind)),
        };
        // The owner as sentences name its seat (`Kingdom of Silver`, not `kingdom0`).
        let owner = (0..game.seat_count())
            .map(|i| Seat(i as u8))
            .find(|&s| game.seat_name(s) == p.owner)
            .map_or_else(|| title_case(&p.owner), |s| super::seat_label(game, s));
        out.insert(
            p.cell.to_ascii_lowercase(),
            (Occupant { owner, kind: name }, rank),
        );
    }
    out
}

/// What a placement's kind letter (`D` of `D@I8`) puts down.
fn placed_kind(game: &AnyGame, letter: &str) -> String {
    if letter.eq_ignore_ascii_case("t") && game.kind() == crate::games::GameKind::HexaEquo {
        return "Tile".into();
    }
    help::pieces(game.kind())
        .iter()
        .find(|p| {
            !p.hatted
                && p.name
                    .get(..letter.len())
                    .is_some_and(|n| n.eq_ignore_ascii_case(letter))
        })
        .map_or_else(|| letter.to_string(), |p| p.name.to_string())
}

/// The pieces the side to move can move: grouped by kind in the rulebook's order, each kind's
/// in board order, placements after the pieces, then word moves. Every legal move starts from
/// exactly one entry.
pub fn pieces(game: &AnyGame) -> Vec<Piece> {
    let moves = game.legal_moves();
    let mut counts: Vec<(String, usize)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for m in &moves {
        let o = notation::origin(m).to_string();
        match index.get(&o) {
            Some(&i) => counts[i].1 += 1,
            None => {
                index.insert(o.clone(), counts.len());
                counts.push((o, 1));
            }
        }
    }
    let on_board = occupants(game);
    let after_pieces = help::pieces(game.kind()).len() + 1;
    let mut out: Vec<Piece> = counts
        .into_iter()
        .map(|(origin, moves)| {
            if let Some(letter) = origin.strip_suffix('@') {
                Piece {
                    kind: placed_kind(game, letter),
                    cell: None,
                    moves,
                    rank: after_pieces,
                    origin,
                }
            } else if let Some((o, rank)) = on_board.get(&origin.to_ascii_lowercase()) {
                Piece {
                    kind: o.kind.clone(),
                    cell: Some(origin.clone()),
                    moves,
                    rank: *rank,
                    origin,
                }
            } else if origin.bytes().any(|b| b.is_ascii_digit()) {
                // A cell the position does not list (never expected): named by its cell.
                Piece {
                    kind: "Piece".into(),
                    cell: Some(origin.clone()),
                    moves,
                    rank: after_pieces - 1,
                    origin,
                }
            } else {
                Piece {
                    kind: title_case(&origin),
                    cell: None,
                    moves,
                    rank: after_pieces + 1,
                    origin,
                }
            }
        })
        .collect();
    out.sort_by_cached_key(|p| (p.rank, p.kind.clone(), board_order(&p.origin)));
    out
}

/// The targets of the piece `origin` (as [`pieces`] names it), each with the moves that end
/// there, numbered 1, 2, … outward along each line the piece moves on (the nearest cell of a
/// line first), the lines clockwise from the top of the board as the game draws it; a
/// placement's cells and word moves in board order.
pub fn targets(game: &AnyGame, origin: &str) -> Vec<Target> {
    let view = common::view_of(game);
    let before = occupants(game);
    let mut out: Vec<Target> = Vec::new();
    for m in game.moves_from(origin) {
        let cells = common::move_cells(view.as_ref(), &m);
        let (hex, cell) = match cells.last() {
            Some(&h) => (Some(h), legend::target_name(view.as_ref(), &m, h)),
            None => (None, m.clone()),
        };
        match out.iter_mut().find(|t| t.cell.eq_ignore_ascii_case(&cell)) {
            Some(t) => t.moves.push(m),
            None => {
                let taken = taken(game, &m, origin, &before);
                let checks = check_targets(game, &m);
                let exposes = exposed_to(game, &m);
                out.push(Target {
                    number: 0,
                    cell,
                    hex,
                    moves: vec![m],
                    takes: taken.iter().map(Taken::text).collect(),
                    taken,
                    checks,
                    exposes,
                    royal: game.royal_name(),
                });
            }
        }
    }
    let from = view.locate(origin);
    // The board as the mover's picture turns it, so that the first line is the one pointing up
    // on the zoomed picture.
    let pic = view.pic();
    let rotation = game.to_move().and_then(|s| view.home(s)).map_or(0, |home| {
        common::choose_rotation(pic.orientation, &pic.tiles, home)
    });
    let turn = (pic.orientation, rotation);
    out.sort_by_cached_key(|t| match (from, t.hex) {
        (Some(a), Some(b)) => {
            let (line, steps) = line_of(turn, a, b);
            (0, line, steps, board_order(&t.cell))
        }
        _ => (1, 0, 0, board_order(&t.cell)),
    });
    for (i, t) in out.iter_mut().enumerate() {
        t.number = i + 1;
    }
    out
}

/// Which line from `a` the cell `b` lies on, and how many steps along it: the line's place
/// clockwise from the top of the board drawn as `(orientation, rotation)` say (in thousandths
/// of a turn) and the steps. A line is a direction of whole hex steps (`(2, -2)` lies on
/// `(1, -1)`, two steps out); a jump off every line (a knight's) is a line of its own, one step
/// long.
fn line_of((orientation, rotation): (Orientation, u8), a: Hex, b: Hex) -> (u32, i32) {
    let (dq, dr) = (b.q - a.q, b.r - a.r);
    let gcd = |mut x: i32, mut y: i32| {
        (x, y) = (x.abs(), y.abs());
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x.max(1)
    };
    let steps = gcd(dq, dr);
    let unit = HexPoint::new((dq / steps) as f32, (dr / steps) as f32);
    let (x, y) = hex_to_world(orientation, rotation, unit);
    let turn = x.atan2(-y).rem_euclid(std::f32::consts::TAU) / std::f32::consts::TAU;
    ((turn * 1000.0).round() as u32 % 1000, steps)
}

/// The moves of one target as choices: a promotion names its piece (`Promote to Regent`), the
/// move without one says so; any other move is its own text. Each notes what it takes.
pub fn choices(game: &AnyGame, origin: &str, target: &Target) -> Vec<Choice> {
    let before = occupants(game);
    let promotes = target.moves.iter().any(|m| m.contains('='));
    target
        .moves
        .iter()
        .map(|m| {
            let head = match m.split_once('=') {
                Some((_, kind)) => format!("Promote to {}", kind.split('+').next().unwrap_or(kind)),
                None if promotes => "No promotion".to_string(),
                None => m.clone(),
            };
            let takes = taken(game, m, origin, &before);
            let checks = check_targets(game, m);
            let exposes = exposure(game.royal_name(), &exposed_to(game, m));
            Choice {
                label: format!("{head} · {m}{}{exposes}", notes(&takes, &checks)),
                text: m.clone(),
            }
        })
        .collect()
}

/// The pieces move `m` (from `origin`) removes or takes over, as `Blue's Archer`.
fn taken(
    game: &AnyGame,
    m: &str,
    origin: &str,
    before: &HashMap<String, (Occupant, usize)>,
) -> Vec<Taken> {
    let mut after = game.clone();
    if after.play(m).is_err() {
        return Vec::new();
    }
    let mover = game.to_move().map(|s| super::seat_label(game, s));
    taken_from(before, &occupants(&after), origin, mover.as_deref())
}

/// The pieces on the board before and not after (or after in another player's hands, or
/// replaced by another piece: a ram that ends on the mover's own piece), the piece that left
/// `origin` excepted, as `Blue's Archer`, or `your own Alcazar` for the `mover`'s, in board
/// order.
fn taken_from(
    before: &HashMap<String, (Occupant, usize)>,
    now: &HashMap<String, (Occupant, usize)>,
    origin: &str,
    mover: Option<&str>,
) -> Vec<Taken> {
    let from = origin.to_ascii_lowercase();
    let mut out: Vec<(BoardOrder, Taken)> = before
        .iter()
        .filter(|(cell, _)| **cell != from)
        .filter(|(cell, (o, _))| {
            now.get(*cell)
                .is_none_or(|(n, _)| n.owner != o.owner || n.kind != o.kind)
        })
        .map(|(cell, (o, _))| {
            let taken = Taken {
                owner: o.owner.clone(),
                kind: o.kind.clone(),
                own: Some(o.owner.as_str()) == mover,
            };
            (board_order(cell), taken)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.into_iter().map(|(_, t)| t).collect()
}

/// What one played move did to the pieces, read from the positions before and after it (for
/// the round story): what it took, as `Blue's Archer`, and what the moved piece was and
/// became when its kind changed (a promotion: `Militant` to `Regent`, `Man` to `King`,
/// `Militant` to `Hatted Militant`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Played {
    pub took: Vec<String>,
    pub became: Option<(String, String)>,
}

/// What move `m` did, `before` being the position it was played on and `after` the result.
pub fn played(before: &AnyGame, m: &str, after: &AnyGame) -> Played {
    let origin = notation::origin(m);
    let (was, now) = (occupants(before), occupants(after));
    let took = taken_from(&was, &now, origin, None)
        .iter()
        .map(Taken::text)
        .collect();
    let became = was
        .get(&origin.to_ascii_lowercase())
        .and_then(|(moved, _)| {
            // The moved piece stands where its path ends: the last cell before a shot, a
            // promotion or a declaration.
            let path = m.split(['*', '=', '+']).next().unwrap_or(m);
            let last = path.rsplit(['-', 'x']).next()?;
            let (arrived, _) = now.get(&last.to_ascii_lowercase())?;
            (arrived.owner == moved.owner && arrived.kind != moved.kind)
                .then(|| (moved.kind.clone(), arrived.kind.clone()))
        });
    Played { took, became }
}

/// The seats move `m` may declare Check on, where the game knows Checks (HexiMeros).
fn check_targets(game: &AnyGame, m: &str) -> Vec<String> {
    match game {
        AnyGame::HexiMeros(g) => g
            .parse_move(m)
            .map(|mv| g.check_targets(&mv))
            .unwrap_or_default()
            .into_iter()
            .map(|s| super::seat_label(game, s))
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;

    fn start(kind: GameKind) -> AnyGame {
        AnyGame::new(kind, None, None).unwrap()
    }

    #[test]
    fn pages_hold_every_entry_once() {
        for len in [0, 1, 24, 25, 26, 49, 50, 51, 130] {
            let first = page(len, 0);
            let mut seen = Vec::new();
            for p in 0..first.pages {
                let pg = page(len, p);
                assert_eq!(pg.page, p);
                assert!(pg.range.len() <= PAGE);
                seen.extend(pg.range);
            }
            assert_eq!(seen, (0..len).collect::<Vec<_>>(), "{len}");
        }
        // A page past the end shows the last one.
        assert_eq!(page(26, 9), page(26, 1));
        assert_eq!(page(0, 3).range, 0..0);
    }

    #[test]
    fn targets_are_numbered_outward_along_each_line_and_line_by_line() {
        let position = r#"{"game": "heximeros", "to_move": "silver", "pieces": [
            {"cell": "Q2", "owner": "silver", "kind": "sovereign"},
            {"cell": "Q20", "owner": "silver", "kind": "regent"},
            {"cell": "Q50", "owner": "orange", "kind": "sovereign"}]}"#;
        let game = AnyGame::from_json(position).unwrap();
        let view = common::view_of(&game);
        let from = view.locate("Q20").unwrap();
        let ts = targets(&game, "Q20");
        assert!(ts.len() > 100, "{}", ts.len());
        let scene = crate::view::scene(&game, &Default::default()).unwrap();
        let turn = (scene.orientation, scene.rotation);
        let lines: Vec<(u32, i32)> = ts
            .iter()
            .map(|t| line_of(turn, from, t.hex.unwrap()))
            .collect();
        // Each line's targets are numbered in one run, nearest first, one step apart.
        let mut seen = Vec::new();
        for (i, (line, steps)) in lines.iter().enumerate() {
            if i > 0 && lines[i - 1].0 == *line {
                assert_eq!(*steps, lines[i - 1].1 + 1, "{:?}", ts[i].cell);
            } else {
                assert!(!seen.contains(line), "line {line} numbered in two runs");
                assert_eq!(*steps, 1, "{} starts a line", ts[i].cell);
                seen.push(*line);
            }
        }
        // A Regent moves along the six lines and the six diagonals.
        assert_eq!(seen.len(), 12, "{seen:?}");
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "clockwise: {seen:?}");
        // The first line points up on the mover's picture (within a twelfth of a turn).
        assert!(seen[0] < 84 || seen[0] > 916, "{seen:?}");
    }

    #[test]
    fn board_order_is_not_text_order() {
        let mut cells = vec![
            "AA10", "K10", "K2", "B7", "AD13", "0.b1", "1.a1", "0.a12", "0.a2",
        ];
        cells.sort_by_key(|c| board_order(c));
        assert_eq!(
            cells,
            [
                "B7", "K2", "K10", "AA10", "AD13", "0.a2", "0.a12", "0.b1", "1.a1"
            ]
        );
    }

    #[test]
    fn every_legal_move_is_under_one_piece_and_one_target() {
        for kind in GameKind::ALL {
            let game = start(kind);
            let legal = game.legal_moves();
            let pieces = pieces(&game);
            let mut all: Vec<String> = Vec::new();
            let mut total = 0;
            for p in &pieces {
                let ts = targets(&game, &p.origin);
                let n: usize = ts.iter().map(|t| t.moves.len()).sum();
                assert_eq!(n, p.moves, "{kind:?} {}", p.origin);
                total += p.moves;
                for (i, t) in ts.iter().enumerate() {
                    assert_eq!(t.number, i + 1);
                    all.extend(t.moves.iter().cloned());
                }
            }
            assert_eq!(total, legal.len(), "{kind:?}");
            all.sort();
            assert_eq!(all, legal, "{kind:?}");
        }
    }

    #[test]
    fn heximeros_pieces_are_grouped_by_kind_in_board_order() {
        let game = start(GameKind::HexiMeros);
        let pieces = pieces(&game);
        let ranks: Vec<usize> = pieces.iter().map(|p| p.rank).collect();
        assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
        for w in pieces.windows(2) {
            if w[0].rank == w[1].rank {
                assert!(board_order(&w[0].origin) < board_order(&w[1].origin));
            }
        }
        let militant = pieces.iter().find(|p| p.kind == "Militant").unwrap();
        assert!(
            militant
                .label()
                .starts_with(&format!("Militant · {} · ", militant.origin)),
            "{}",
            militant.label()
        );
        assert!(militant.label().ends_with(" moves"));
    }

    #[test]
    fn placements_are_their_own_entries() {
        let game = start(GameKind::HexaEquo);
        let labels: Vec<String> = pieces(&game).iter().map(Piece::label).collect();
        assert!(
            labels.iter().any(|l| l.starts_with("Place Disc · ")),
            "{labels:?}"
        );
        assert!(
            labels.iter().any(|l| l.starts_with("Place Tile · ")),
            "{labels:?}"
        );
        assert!(
            labels.iter().any(|l| l.starts_with("Disc · J8 · ")),
            "{labels:?}"
        );
        let game = start(GameKind::Hexmeister);
        let labels: Vec<String> = pieces(&game).iter().map(Piece::label).collect();
        assert!(labels[0].starts_with("Place Stone · "), "{labels:?}");
    }

    #[test]
    fn captures_and_checks_are_named() {
        // A Silver Regent looks north along a file at a Blue Archer, Blue's Sovereign behind.
        let game = start(GameKind::HexiMeros);
        let view = common::view_of(&game);
        let at = |name: &str| view.locate(name).unwrap();
        let from = at("Q20");
        let north = |n: i32| view.name_at(Hex::new(from.q, from.r + n)).unwrap();
        let (archer, sovereign) = (north(3), north(6));
        let json = serde_json::json!({
            "game": "heximeros", "to_move": "silver",
            "pieces": [
                {"cell": "Q2", "owner": "silver", "kind": "sovereign"},
                {"cell": "Q20", "owner": "silver", "kind": "regent"},
                {"cell": archer, "owner": "blue", "kind": "archer"},
                {"cell": sovereign, "owner": "blue", "kind": "sovereign"},
            ]
        });
        let game = AnyGame::from_json(&json.to_string()).unwrap();
        let regent = pieces(&game)
            .into_iter()
            .find(|p| p.kind == "Regent")
            .unwrap();
        let ts = targets(&game, &regent.origin);
        let take = ts.iter().find(|t| t.cell == archer).unwrap();
        assert_eq!(take.takes, ["Blue's Archer"]);
        assert!(
            take.label()
                .starts_with(&format!("{} → {archer} · takes Blue's Archer", take.number)),
            "{}",
            take.label()
        );
        assert!(ts.iter().any(|t| t.checks == ["Blue"]), "{ts:?}");
        assert!(
            ts.iter()
                .filter(|t| t.cell != archer)
                .all(|t| t.takes.is_empty())
        );
    }

    /// Issue 45: a label tells the whole move. A piece of the mover's own that the move
    /// destroys (a ram ending on it) is named as such, and so is a move that leaves the mover's
    /// Sovereign attacked.
    #[test]
    fn labels_name_own_losses_and_a_sovereign_left_attacked() {
        let occupant = |owner: &str, kind: &str| {
            (
                Occupant {
                    owner: owner.into(),
                    kind: kind.into(),
                },
                0,
            )
        };
        let before = HashMap::from([
            ("l3".to_string(), occupant("Silver", "Dreadnaught")),
            ("l1".to_string(), occupant("Silver", "Alcazar")),
        ]);
        let after = HashMap::from([("l1".to_string(), occupant("Silver", "Dreadnaught"))]);
        let texts = |t: Vec<Taken>| t.iter().map(Taken::text).collect::<Vec<_>>();
        let rammed = taken_from(&before, &after, "L3", Some("Silver"));
        assert_eq!(texts(rammed.clone()), ["your own Alcazar"]);
        assert!(rammed[0].own && rammed[0].owner == "Silver" && rammed[0].kind == "Alcazar");
        // The story, told to everyone, names the owner.
        assert_eq!(
            texts(taken_from(&before, &after, "L3", None)),
            ["Silver's Alcazar"]
        );

        // Silver's Alcazar stands between his Sovereign and Blue's Regent on one line: every
        // move off the line leaves the Sovereign attacked by Blue, and says so.
        let board = start(GameKind::HexiMeros);
        let view = common::view_of(&board);
        let from = view.locate("Q20").unwrap();
        let north = |n: i32| view.name_at(Hex::new(from.q, from.r + n)).unwrap();
        let json = serde_json::json!({
            "game": "heximeros", "to_move": "silver",
            "pieces": [
                {"cell": "Q20", "owner": "silver", "kind": "sovereign"},
                {"cell": north(2), "owner": "silver", "kind": "alcazar"},
                {"cell": north(5), "owner": "blue", "kind": "regent"},
                {"cell": "E14", "owner": "blue", "kind": "sovereign"},
            ]
        });
        let game = AnyGame::from_json(&json.to_string()).unwrap();
        let ts = targets(&game, &north(2));
        let (on_line, off_line): (Vec<&Target>, Vec<&Target>) = ts
            .iter()
            .partition(|t| [north(1), north(3), north(4), north(5)].contains(&t.cell));
        assert!(!on_line.is_empty() && !off_line.is_empty(), "{ts:?}");
        for t in off_line {
            assert_eq!(t.exposes, ["Blue"], "{t:?}");
            assert!(
                t.label().contains("leaves your Sovereign attacked by Blue"),
                "{}",
                t.label()
            );
        }
        for t in on_line {
            assert!(t.exposes.is_empty(), "{t:?}");
        }
    }

    #[test]
    fn a_promotion_is_a_choice() {
        let target = Target {
            number: 3,
            cell: "N35".into(),
            hex: None,
            moves: vec!["N34-N35".into(), "N34-N35=Regent".into()],
            takes: vec!["Blue's Archer".into()],
            taken: vec![Taken {
                owner: "Blue".into(),
                kind: "Archer".into(),
                own: false,
            }],
            checks: vec!["Red".into()],
            exposes: Vec::new(),
            royal: "Sovereign",
        };
        assert_eq!(
            target.label(),
            "3 → N35 · takes Blue's Archer · gives Check to Red · 2 choices"
        );
        let game = start(GameKind::HexiMeros);
        let c = choices(&game, "N34", &target);
        assert_eq!(c[0].label, "No promotion · N34-N35");
        assert_eq!(c[1].label, "Promote to Regent · N34-N35=Regent");
        assert_eq!(c[1].text, "N34-N35=Regent");
    }
}
