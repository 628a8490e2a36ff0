//! Rules-help pictures (`/hexmeros rules`): a game's **legend** (every piece's glyph beside its
//! name) and a piece's **moves** from one cell on an otherwise empty board.
//!
//! Both are drawn from real positions through the game's own [`GameView`], so a glyph here is
//! the glyph on the board, on the cell it stands on: the legend is a small position of each
//! game whose tiles are lifted off the board picture and set in columns with their names; a
//! moves picture is the board of a position holding the piece (and only what the game needs to
//! be running, such as the two Sovereigns of HexiMeros), its legal targets marked with dots
//! (rings where something would be taken).
//!
//! ```
//! use hexmeros::games::GameKind;
//! use hexmeros::view::legend;
//!
//! let png = legend::legend_png(GameKind::HexDame, None)?;
//! assert!(png.starts_with(b"\x89PNG"));
//! let moves = legend::piece_moves(GameKind::HexDame, "king", Some("e5"), None)?;
//! assert_eq!(moves.targets.len(), 24);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use hexmeros_render::layout::{hex_to_world, world_to_hex};
use hexmeros_render::{
    HeaderLine, Hex, HexPoint, Label, Marker, Orientation, Rgba, Scene, Theme, Tile,
};
use serde_json::{Value, json};

use super::common::{self, GameView, LABEL};
use super::{ViewError, ViewOptions};
use crate::games::help::{self, PieceHelp};
use crate::games::{AnyGame, GameKind, PositionError};

/// The long side of a legend picture unless the caller chooses one.
pub const LEGEND_SIZE: u32 = 800;
/// The long side of a moves picture unless the caller chooses one (HexaEquo's small board
/// takes its own, smaller size).
pub const MOVES_SIZE: u32 = 1200;

/// The colour of a piece's cell and its targets in a moves picture: a blue that no game uses
/// for its cells; a capture is ringed in red.
const TARGET: Rgba = Rgba::rgb(24, 120, 230);
const CAPTURE: Rgba = Rgba::rgb(214, 38, 40);

/// Why a help picture cannot be made: the player's words, or (never expected) the drawing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HelpError {
    #[error("{game} has no piece called {piece:?} (its pieces: {known})")]
    UnknownPiece {
        game: &'static str,
        piece: String,
        known: String,
    },
    #[error(
        "{cell:?} is not a cell of the {game} board (see /hexmeros rules for how its cells are named)"
    )]
    NotACell { game: &'static str, cell: String },
    #[error("a {piece} cannot stand on {cell}: {reason}")]
    CannotStand {
        piece: &'static str,
        cell: String,
        reason: String,
    },
    #[error(transparent)]
    View(#[from] ViewError),
}

/// A piece's moves picture and what it shows.
#[derive(Clone, Debug)]
pub struct PieceMoves {
    pub piece: &'static PieceHelp,
    /// The cell the piece stands on, as the game writes it.
    pub cell: String,
    /// The cells it can reach in one move, as the game writes them, sorted.
    pub targets: Vec<String>,
    pub png: Vec<u8>,
}

impl PieceMoves {
    /// The line of text that goes with the picture.
    pub fn line(&self, kind: GameKind) -> String {
        help::moves_line(kind, self.piece, &self.cell, self.targets.len())
    }
}

// ---------------------------------------------------------------------------------------------
// The legend.

/// One entry of a legend: its name and the cell of the legend position it is lifted from.
struct Entry {
    name: String,
    cell: &'static str,
}

fn entry(name: impl Into<String>, cell: &'static str) -> Entry {
    Entry {
        name: name.into(),
        cell,
    }
}

fn p(cell: &str, owner: &str, kind: &str) -> Value {
    json!({"cell": cell, "owner": owner, "kind": kind})
}

/// The position a game's legend is lifted from, and its entries.
fn legend_position(kind: GameKind) -> (Value, Vec<Entry>) {
    match kind {
        GameKind::HexiMeros => {
            let cells = [
                "Q4", "Q6", "Q8", "Q10", "Q12", "Q14", "Q16", "Q18", "Q20", "Q22",
            ];
            let mut pieces = Vec::new();
            let mut entries = Vec::new();
            for (piece, cell) in help::pieces(kind).iter().zip(cells) {
                let mut v = p(cell, "silver", piece.key);
                if piece.hatted {
                    v["hatted"] = json!(true);
                }
                pieces.push(v);
                entries.push(entry(piece.name, cell));
            }
            let mut star = p("Q26", "silver", "cavalier");
            star["gz_bonus"] = json!(true);
            pieces.push(star);
            pieces.push(p("E20", "blue", "militant"));
            pieces.push(p("Q50", "orange", "sovereign"));
            entries.push(entry("★ Ground Zero bonus (Q26)", "Q26"));
            entries.push(entry("frozen: its player is out", "E20"));
            let position = json!({
                "game": "heximeros", "to_move": "silver", "pieces": pieces,
                "eliminated": ["blue"],
            });
            (position, entries)
        }
        GameKind::HexDame => (
            json!({"game": "hexdame", "to_move": "white", "pieces": [
                p("e3", "white", "man"), p("e4", "white", "king"),
                p("e6", "black", "man"), p("e7", "black", "king"),
            ]}),
            vec![
                entry("White man", "e3"),
                entry("White king", "e4"),
                entry("Black man", "e6"),
                entry("Black king", "e7"),
            ],
        ),
        GameKind::Hexmeister => (
            json!({"game": "hexmeister", "to_move": "south", "pieces": [
                p("d4", "south", "stone"), p("g8", "north", "stone"),
            ]}),
            vec![
                entry("South's stone", "d4"),
                entry("North's stone", "g8"),
                entry("gate", "f6"),
                entry("moat cell: enter, never cross", "e5"),
                entry("lane", "d5"),
                entry("South's drop cell", "h3"),
            ],
        ),
        GameKind::HexaEquo => (
            json!({"game": "hexaequo", "to_move": "black",
            "tiles": [
                {"cell": "I8", "owner": "black"}, {"cell": "J8", "owner": "black"},
                {"cell": "J7", "owner": "black"}, {"cell": "H9", "owner": "white"},
                {"cell": "I9", "owner": "white"}, {"cell": "H10", "owner": "white"},
            ],
            "pieces": [
                p("I8", "black", "disc"), p("J8", "black", "ring"),
                p("H9", "white", "disc"), p("I9", "white", "ring"),
            ]}),
            vec![
                entry("Black disc", "I8"),
                entry("Black ring", "J8"),
                entry("White disc", "H9"),
                entry("White ring", "I9"),
                entry("Black tile", "J7"),
                entry("White tile", "H10"),
            ],
        ),
        GameKind::Harmegedo => {
            let cells = ["0.e1", "0.d1", "0.a1", "0.c1", "0.b1", "0.e2"];
            let mut pieces = Vec::new();
            let mut entries = Vec::new();
            for (piece, cell) in help::pieces(kind).iter().zip(cells) {
                pieces.push(p(cell, "kingdom0", piece.key));
                entries.push(entry(piece.name, cell));
            }
            pieces.push(p("4.e1", "kingdom4", "king"));
            pieces.push(p("2.e3", "kingdom2", "pawn"));
            entries.push(entry("a fallen kingdom's piece", "2.e3"));
            let position = json!({
                "game": "harmegedo", "to_move": "kingdom0",
                "kingdoms": ["kingdom0", "kingdom2", "kingdom4"],
                "eliminated": ["kingdom2"], "pieces": pieces,
            });
            (position, entries)
        }
    }
}

/// The legend of a game as a scene: every piece's tile, as the board draws it, beside its name.
pub fn legend_scene(kind: GameKind) -> Result<Scene, HelpError> {
    let (position, entries) = legend_position(kind);
    let game = read(&position).map_err(|e| ViewError::Export(e.to_string()))?;
    let view = common::view_of(&game);
    let mut board = view.pic();
    let orientation = board.orientation;
    let mut lifted = Vec::with_capacity(entries.len());
    for e in entries {
        let tile = view
            .locate(e.cell)
            .and_then(|h| board.tile_mut(h))
            .map(|t| t.clone())
            .ok_or_else(|| ViewError::NoCells {
                text: e.cell.to_string(),
            })?;
        lifted.push((e.name, tile));
    }
    let (tiles, labels) = set_in_columns(orientation, lifted)?;
    Ok(Scene {
        orientation,
        rotation: 0,
        header: vec![
            HeaderLine::new(format!("{} · the pieces", kind.name())),
            HeaderLine::new("as drawn on the board"),
        ],
        tiles,
        arrows: Vec::new(),
        labels,
        tags: Vec::new(),
        trays: Vec::new(),
    })
}

/// The legend picture as PNG bytes, `size` px on its long side (default [`LEGEND_SIZE`]).
pub fn legend_png(kind: GameKind, size: Option<u32>) -> Result<Vec<u8>, HelpError> {
    let scene = legend_scene(kind)?;
    let size = size.unwrap_or(LEGEND_SIZE);
    let mut theme = Theme::new(size);
    // Names are set beside their tiles by their width in hex radii: not capped small as rim
    // labels are, so they are drawn as wide as they were measured (and readable).
    theme.label_px_max = size as f32;
    // The board's own look (HexaEquo's light edge round its black tiles).
    if let Ok(game) = AnyGame::new(kind, None, None) {
        common::view_of(&game).adjust_theme(&mut theme);
    }
    Ok(hexmeros_render::render_png(&scene, &theme).map_err(ViewError::from)?)
}

/// Cap height of a legend name, in hex radii.
const NAME_SIZE: f32 = 0.5;

/// Lays `(name, tile)` entries out top to bottom in one or two columns, each name to the right
/// of its tile. Tiles sit on whole hexes of the board's own lattice: a flat-topped column
/// touches (one cell under the other), a pointy-topped one skips a row (cells under each other
/// are two rows apart there).
fn set_in_columns(
    orientation: Orientation,
    entries: Vec<(String, Tile)>,
) -> Result<(Vec<Tile>, Vec<Label>), ViewError> {
    let per_column = if entries.len() > 3 {
        entries.len().div_ceil(2)
    } else {
        entries.len()
    };
    let widths = entries
        .iter()
        .map(|(n, _)| hexmeros_render::label_width(n, NAME_SIZE))
        .collect::<Result<Vec<f32>, _>>()?;
    let first_width = widths.iter().take(per_column).copied().fold(0.0, f32::max);
    // From a tile's centre: its half, the gap, the name, a margin, the next tile's half.
    let needed = 1.0 + 0.3 + first_width + 1.5 + 1.0;
    let (down, across) = match orientation {
        Orientation::FlatTop => {
            let w = ((needed / 1.5).ceil() as i32 + 1) & !1;
            (Hex::new(0, -1), Hex::new(w, -w / 2))
        }
        Orientation::PointyTop => {
            let w = (needed / 3f32.sqrt()).ceil() as i32;
            (Hex::new(1, -2), Hex::new(w, 0))
        }
    };
    let mut tiles = Vec::new();
    let mut labels = Vec::new();
    for (i, ((name, mut tile), width)) in entries.into_iter().zip(widths).enumerate() {
        let (col, row) = ((i / per_column) as i32, (i % per_column) as i32);
        tile.hex = Hex::new(col * across.q + row * down.q, col * across.r + row * down.r);
        let (x, y) = hex_to_world(orientation, 0, HexPoint::from(tile.hex));
        tiles.push(tile);
        let at = world_to_hex(orientation, 0, (x + 1.3 + width / 2.0, y));
        labels.push(Label {
            at,
            text: name,
            size: NAME_SIZE,
            colour: LABEL,
        });
    }
    Ok((tiles, labels))
}

// ---------------------------------------------------------------------------------------------
// A piece's moves.

fn read(position: &Value) -> Result<AnyGame, PositionError> {
    AnyGame::from_json(&position.to_string())
}

/// The cell as the game writes it, if it is one of the board.
fn board_cell(kind: GameKind, cell: &str) -> Option<String> {
    let cell = cell.trim();
    let name = match kind {
        GameKind::HexiMeros | GameKind::HexaEquo => cell.to_ascii_uppercase(),
        _ => cell.to_ascii_lowercase(),
    };
    let start = AnyGame::new(kind, None, None).ok()?;
    common::view_of(&start).locate(&name).map(|_| name)
}

/// The first of `candidates` that is not `cell`.
fn elsewhere<'a>(cell: &str, candidates: &[&'a str]) -> &'a str {
    candidates
        .iter()
        .copied()
        .find(|c| !c.eq_ignore_ascii_case(cell))
        .unwrap_or(candidates[0])
}

/// A position in which the first seat's `piece` stands on `cell` (named as the game writes it)
/// with the first seat to move, and nothing else but what the game needs to be running.
fn lone_piece(kind: GameKind, piece: &PieceHelp, cell: &str) -> Result<Value, HelpError> {
    let mut me = p(cell, "", piece.key);
    Ok(match kind {
        GameKind::HexiMeros => {
            me["owner"] = json!("silver");
            if piece.hatted {
                me["hatted"] = json!(true);
            }
            // A game runs while two players have a Sovereign: Silver's own (unless it is the
            // piece shown) on its start cell, and Orange's far away on its own.
            let mut pieces = vec![me];
            if piece.key != "sovereign" {
                pieces.push(p(elsewhere(cell, &["Q2", "O2"]), "silver", "sovereign"));
            }
            // Orange keeps a Militant too: two lone Sovereigns are a dead draw (rules §6).
            pieces.push(p(elsewhere(cell, &["Q50", "S50"]), "orange", "sovereign"));
            pieces.push(p(elsewhere(cell, &["Q48", "S48"]), "orange", "militant"));
            json!({"game": "heximeros", "to_move": "silver", "pieces": pieces})
        }
        GameKind::HexDame => {
            me["owner"] = json!("white");
            json!({"game": "hexdame", "to_move": "white", "pieces": [me]})
        }
        GameKind::Hexmeister => {
            me["owner"] = json!("south");
            json!({"game": "hexmeister", "to_move": "south", "pieces": [me],
                "reserves": {"south": {"stone": 0}, "north": {"stone": 0}}})
        }
        GameKind::HexaEquo => {
            me["owner"] = json!("black");
            let (tiles, white) = hexaequo_tiles(piece, cell)?;
            json!({"game": "hexaequo", "to_move": "black", "pieces": [me, white],
                "tiles": tiles})
        }
        GameKind::Harmegedo => {
            me["owner"] = json!("kingdom0");
            let mut pieces = vec![me];
            if piece.key != "king" {
                pieces.push(p(elsewhere(cell, &["0.a1", "0.i1"]), "kingdom0", "king"));
            }
            pieces.push(p(elsewhere(cell, &["3.e1", "3.a1"]), "kingdom3", "king"));
            json!({"game": "harmegedo", "to_move": "kingdom0",
                "kingdoms": ["kingdom0", "kingdom3"], "pieces": pieces})
        }
    })
}

/// Why the first seat's `piece` is never found on `cell` in a game, where the position rules
/// accept it (a piece that would have been promoted on its way there).
fn never_there(kind: GameKind, piece: &PieceHelp, cell: &str) -> Option<&'static str> {
    match (kind, piece.key, piece.hatted) {
        (GameKind::HexDame, "man", _) => {
            use crate::games::hexdame::{Colour, HexDame};
            let c = HexDame::geometry().parse(cell)?;
            HexDame::back_rank(Colour::Black)
                .contains(c)
                .then_some("a White man ending there is crowned king (Black's back rank)")
        }
        (GameKind::HexiMeros, "militant", false) => {
            use crate::games::heximeros::BOARD;
            let c = BOARD.geometry.parse(cell)?;
            // Silver's forward coordinate is the display row (rules §2.4); its Center Line is
            // row 26.
            (BOARD.geometry.hex(c).to_doubled().1 >= 0).then_some(
                "a Militant reaching its Center Line (row 26) is promoted or gets the Hat",
            )
        }
        _ => None,
    }
}

/// HexaEquo's board is its tiles: a disc is shown on its tile and the six around it, a ring on
/// every tile it could reach (the 12 at distance 2) with only four of the six between, to show
/// that a missing tile does not stop it. Black and white tiles alternate (9 of each at most).
/// White needs a piece on the board (else Black has already won): a disc out of reach. Returns
/// the tiles and that disc.
fn hexaequo_tiles(piece: &PieceHelp, cell: &str) -> Result<(Vec<Value>, Value), HelpError> {
    use crate::games::hexaequo::{cell_name, parse_cell};
    use crate::hex::Hex as EHex;
    let centre = parse_cell(cell).ok_or_else(|| HelpError::NotACell {
        game: GameKind::HexaEquo.name(),
        cell: cell.to_string(),
    })?;
    let near = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
    let mut offsets: Vec<(i32, i32)> = vec![(0, 0)];
    let white_disc = if piece.key == "ring" {
        offsets.extend(near.iter().skip(2));
        offsets.extend([
            (2, 0),
            (2, -2),
            (0, -2),
            (-2, 0),
            (-2, 2),
            (0, 2),
            (2, -1),
            (1, -2),
            (-1, -1),
            (-2, 1),
            (-1, 2),
            (1, 1),
        ]);
        (3, 0)
    } else {
        offsets.extend(near);
        (2, 0)
    };
    let name = |(dq, dr): (i32, i32)| {
        cell_name(centre + EHex::new(dq, dr)).ok_or_else(|| HelpError::CannotStand {
            piece: piece.name,
            cell: cell.to_string(),
            reason: "it is too near the edge of the named cells to show its moves".into(),
        })
    };
    let mut tiles = offsets
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            let owner = if i % 2 == 0 { "black" } else { "white" };
            Ok(json!({"cell": name(d)?, "owner": owner}))
        })
        .collect::<Result<Vec<Value>, HelpError>>()?;
    let far = name(white_disc)?;
    tiles.push(json!({"cell": far, "owner": "white"}));
    Ok((tiles, p(&far, "white", "disc")))
}

/// The moves of `piece` (a name or key of the game's pieces) from `cell` (default: the game's
/// [`help::default_cell`]) on an otherwise empty board: the picture, `size` px on its long side,
/// and the targets.
pub fn piece_moves(
    kind: GameKind,
    piece: &str,
    cell: Option<&str>,
    size: Option<u32>,
) -> Result<PieceMoves, HelpError> {
    let found = help::find_piece(kind, piece).ok_or_else(|| HelpError::UnknownPiece {
        game: kind.name(),
        piece: piece.trim().to_string(),
        known: help::pieces(kind)
            .iter()
            .map(|p| p.name)
            .collect::<Vec<_>>()
            .join(", "),
    })?;
    let asked = cell.unwrap_or(help::default_cell(kind));
    let cell = board_cell(kind, asked).ok_or_else(|| HelpError::NotACell {
        game: kind.name(),
        cell: asked.trim().to_string(),
    })?;
    if let Some(reason) = never_there(kind, found, &cell) {
        return Err(HelpError::CannotStand {
            piece: found.name,
            cell,
            reason: reason.into(),
        });
    }
    let position = lone_piece(kind, found, &cell)?;
    let game = read(&position).map_err(|e| HelpError::CannotStand {
        piece: found.name,
        cell: cell.clone(),
        reason: e.to_string(),
    })?;
    let view = common::view_of(&game);
    let from = view.locate(&cell).ok_or_else(|| HelpError::NotACell {
        game: kind.name(),
        cell: cell.clone(),
    })?;
    let origin = game
        .movable_pieces()
        .into_iter()
        .find(|o| o.eq_ignore_ascii_case(&cell));
    let moves = origin.map(|o| game.moves_from(&o)).unwrap_or_default();
    let mut targets: Vec<(Hex, String)> = Vec::new();
    for m in &moves {
        let cells = common::move_cells(view.as_ref(), m);
        if let Some(&to) = cells.last()
            && to != from
            && !targets.iter().any(|(h, _)| *h == to)
        {
            // The target's name is the last cell name the move text spells.
            let name = target_name(view.as_ref(), m, to);
            targets.push((to, name));
        }
    }
    let mut scene = super::scene(&game, &ViewOptions::default())?;
    for t in &mut scene.tiles {
        if t.hex == from {
            t.markers.push(Marker::Outline(TARGET));
        } else if targets.iter().any(|(h, _)| *h == t.hex) {
            // A wash as well as the dot: a dot alone is lost on a 649-cell board.
            t.markers.push(Marker::Tint(TARGET.with_alpha(120)));
            let taken = view.owner_at(t.hex).is_some();
            t.markers.push(if taken {
                Marker::Ring(CAPTURE)
            } else {
                Marker::Dot(TARGET)
            });
        }
    }
    let count = targets.len();
    scene.header = vec![
        HeaderLine::new(format!("{} · {} on {cell}", kind.name(), found.name)),
        HeaderLine::with_swatch(
            format!("{count} target{} marked", if count == 1 { "" } else { "s" }),
            TARGET,
        ),
    ];
    // What the position is missing from a full game is no loss worth a tray here.
    scene.trays.clear();
    let size = size.unwrap_or_else(|| view.preferred_size().unwrap_or(MOVES_SIZE).min(MOVES_SIZE));
    let png = hexmeros_render::render_png(&scene, &super::game_theme(&game, size))
        .map_err(ViewError::from)?;
    let mut names: Vec<String> = targets.into_iter().map(|(_, n)| n).collect();
    names.sort();
    Ok(PieceMoves {
        piece: found,
        cell,
        targets: names,
        png,
    })
}

/// The name of the target cell `to` in move text `m`: its last maximal run of name characters
/// that the board locates at `to` (`Q20-Q24` → `Q24`, `d4xf6xh8` → `h8`).
pub(super) fn target_name(view: &dyn GameView, m: &str, to: Hex) -> String {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '.';
    m.split(|c: char| !is_name(c))
        .rev()
        .flat_map(|run| {
            // A run may join two names (`Q20xQ24` splits on `x` only when `x` is no cell
            // letter); try its suffixes, longest first.
            (0..run.len()).filter_map(move |i| run.get(i..))
        })
        .find(|s| !s.is_empty() && view.locate(s) == Some(to))
        .map_or_else(|| format!("{},{}", to.q, to.r), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> image::RgbaImage {
        image::load_from_memory_with_format(png, image::ImageFormat::Png)
            .unwrap()
            .to_rgba8()
    }

    #[test]
    fn every_legend_lifts_every_entry_with_its_glyph_and_name() {
        for kind in GameKind::ALL {
            let scene = legend_scene(kind).unwrap();
            assert_eq!(scene.tiles.len(), scene.labels.len(), "{kind}");
            for piece in help::pieces(kind) {
                let i = scene
                    .labels
                    .iter()
                    .position(|l| l.text.to_lowercase().contains(&piece.name.to_lowercase()))
                    .unwrap_or_else(|| panic!("{kind}: no {} in the legend", piece.name));
                assert!(scene.tiles[i].glyph.is_some(), "{kind} {}", piece.name);
            }
            // No two entries on one hex.
            let mut hexes: Vec<_> = scene.tiles.iter().map(|t| (t.hex.q, t.hex.r)).collect();
            hexes.sort();
            hexes.dedup();
            assert_eq!(hexes.len(), scene.tiles.len(), "{kind}");
        }
    }

    #[test]
    fn the_legend_glyph_is_the_board_glyph() {
        // The Regent in the legend is the Regent of the start position's board picture.
        let start = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
        let view = common::view_of(&start);
        let mut pic = view.pic();
        let regent = pic
            .tile_mut(view.locate("P1").unwrap())
            .unwrap()
            .glyph
            .unwrap();
        let scene = legend_scene(GameKind::HexiMeros).unwrap();
        let i = scene
            .labels
            .iter()
            .position(|l| l.text == "Regent")
            .unwrap();
        assert_eq!(scene.tiles[i].glyph, Some(regent));
        let i = scene
            .labels
            .iter()
            .position(|l| l.text == "Hatted Militant")
            .unwrap();
        assert!(scene.tiles[i].glyph.unwrap().shape != regent.shape);
    }

    #[test]
    fn a_legend_picture_is_a_png_of_the_asked_size() {
        let png = legend_png(GameKind::Harmegedo, Some(400)).unwrap();
        let img = decode(&png);
        assert_eq!(img.width().max(img.height()), 400);
    }

    #[test]
    fn a_hexdame_king_in_the_centre_reaches_24_cells() {
        let m = piece_moves(GameKind::HexDame, "King", None, Some(300)).unwrap();
        assert_eq!(m.cell, "e5");
        assert_eq!(m.targets.len(), 24);
        assert!(m.targets.contains(&"a1".to_string()));
        assert!(m.targets.contains(&"i9".to_string()));
        assert!(m.line(GameKind::HexDame).contains("24 targets"));
    }

    #[test]
    fn the_moves_of_each_piece_of_each_game_are_marked() {
        for kind in GameKind::ALL {
            for piece in help::pieces(kind) {
                let m = piece_moves(kind, piece.name, None, Some(256))
                    .unwrap_or_else(|e| panic!("{kind} {}: {e}", piece.name));
                assert!(!m.targets.is_empty(), "{kind} {}", piece.name);
                assert!(m.png.starts_with(b"\x89PNG"));
            }
        }
    }

    #[test]
    fn known_move_counts() {
        let n = |kind, piece, cell| {
            piece_moves(kind, piece, Some(cell), Some(256))
                .unwrap()
                .targets
        };
        // Cavalier: 12 + 12 targets from the middle of the board (rules §4.6).
        assert_eq!(n(GameKind::HexiMeros, "cavalier", "q20").len(), 24);
        // An unmoved Militant: one or two steps forward.
        assert_eq!(n(GameKind::HexiMeros, "militant", "Q20"), ["Q22", "Q24"]);
        // A man steps in its three forward directions.
        assert_eq!(n(GameKind::HexDame, "man", "E5"), ["e6", "f5", "f6"]);
        // A ring reaches the 12 cells at distance 2, whatever lies between.
        assert_eq!(n(GameKind::HexaEquo, "ring", "I8").len(), 12);
        assert_eq!(n(GameKind::HexaEquo, "disc", "I8").len(), 6);
        // A knight in the open has its 8 leaps.
        assert_eq!(n(GameKind::Harmegedo, "knight", "0.e4").len(), 8);
    }

    #[test]
    fn the_marked_cells_differ_from_a_plain_board() {
        let m = piece_moves(GameKind::HexDame, "man", Some("e5"), Some(300)).unwrap();
        let img = decode(&m.png);
        assert_eq!(img.width().max(img.height()), 300);
        let game = read(&lone_piece(GameKind::HexDame, m.piece, "e5").unwrap()).unwrap();
        let plain = super::super::render_png(
            &game,
            &ViewOptions {
                size: Some(300),
                ..ViewOptions::default()
            },
        )
        .unwrap();
        assert_ne!(decode(&plain).as_raw(), img.as_raw());
    }

    /// Where `to` lies from `from` in the moves picture of a piece on `from` (turned as it is
    /// drawn): "up", "up-right", "right", … (y grows downward).
    fn drawn_direction(kind: GameKind, from: &str, to: &str) -> &'static str {
        let piece = &help::pieces(kind)[0];
        let game = read(&lone_piece(kind, piece, from).unwrap()).unwrap();
        let view = common::view_of(&game);
        let scene = super::super::scene(&game, &ViewOptions::default()).unwrap();
        let world = |name: &str| {
            let h = view.locate(name).unwrap();
            hex_to_world(scene.orientation, scene.rotation, HexPoint::from(h))
        };
        let ((x0, y0), (x1, y1)) = (world(from), world(to));
        let (dx, dy) = (x1 - x0, y1 - y0);
        let flat = |d: f32| d.abs() < 0.3;
        match (flat(dx), flat(dy), dx > 0.0, dy > 0.0) {
            (true, _, _, false) => "up",
            (true, _, _, true) => "down",
            (_, true, true, _) => "right",
            (_, true, false, _) => "left",
            (_, _, true, false) => "up-right",
            (_, _, false, false) => "up-left",
            (_, _, true, true) => "down-right",
            (_, _, false, true) => "down-left",
        }
    }

    #[test]
    fn the_cell_names_text_tells_the_directions_the_picture_shows() {
        let claims = [
            (GameKind::HexiMeros, "Q26", "Q28", "up"),
            (GameKind::HexiMeros, "Q26", "R27", "up-right"),
            (GameKind::HexiMeros, "Q26", "R25", "down-right"),
            (GameKind::HexDame, "e5", "f5", "up-right"),
            (GameKind::HexDame, "e5", "e6", "up-left"),
            (GameKind::HexDame, "e5", "f6", "up"),
            (GameKind::Hexmeister, "f6", "g7", "right"),
            (GameKind::Hexmeister, "f6", "f7", "up-right"),
            (GameKind::Hexmeister, "f6", "e6", "up-left"),
            (GameKind::HexaEquo, "I8", "J8", "right"),
            (GameKind::HexaEquo, "I8", "I9", "down-right"),
            (GameKind::HexaEquo, "I8", "H9", "down-left"),
            // "In front" on the bent ring is towards the centre: up, one way or the other.
            (GameKind::Harmegedo, "0.e1", "0.e2", "up*"),
        ];
        for (kind, from, to, said) in claims {
            let text = help::cell_names(kind);
            assert!(text.contains(to), "{kind}: the text does not name {to}");
            let drawn = drawn_direction(kind, from, to);
            match said.strip_suffix('*') {
                Some(prefix) => assert!(drawn.starts_with(prefix), "{kind} {from} → {to}: {drawn}"),
                None => assert_eq!(drawn, said, "{kind} {from} → {to}"),
            }
        }
    }

    #[test]
    fn bad_input_is_named() {
        assert!(matches!(
            piece_moves(GameKind::HexDame, "queen", None, None),
            Err(HelpError::UnknownPiece { .. })
        ));
        let e = piece_moves(GameKind::HexiMeros, "regent", Some("Q21"), None).unwrap_err();
        assert!(matches!(e, HelpError::NotACell { .. }), "{e}");
        assert!(e.to_string().contains("\"Q21\""), "{e}");
        assert!(matches!(
            piece_moves(GameKind::Harmegedo, "pawn", Some("0.e8"), None),
            Err(HelpError::CannotStand { .. })
        ));
        assert!(matches!(
            piece_moves(GameKind::HexDame, "king", Some("z9"), None),
            Err(HelpError::NotACell { .. })
        ));
        // Pieces that would have been promoted on their way there.
        let e = piece_moves(GameKind::HexDame, "man", Some("i9"), None).unwrap_err();
        assert!(e.to_string().contains("crowned"), "{e}");
        assert!(piece_moves(GameKind::HexDame, "man", Some("h8"), None).is_ok());
        let e = piece_moves(GameKind::HexiMeros, "militant", Some("Q26"), None).unwrap_err();
        assert!(e.to_string().contains("Center Line"), "{e}");
        assert!(piece_moves(GameKind::HexiMeros, "militant", Some("Q24"), None).is_ok());
        assert!(piece_moves(GameKind::HexiMeros, "hatted militant", Some("Q50"), None).is_ok());
    }
}
