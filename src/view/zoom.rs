//! The move picker's picture: the board around one piece, drawn by the game's own view (the
//! same tiles, glyphs and rotation to the viewer's seat as the turn picture), cropped to the
//! piece and its targets, with every cell's name inside it and each target carrying its number
//! from [`picker::targets`](super::picker::targets) (outlined in red where the move takes
//! something).
//!
//! ```
//! use hexmeros::games::{AnyGame, GameKind};
//! use hexmeros::view::{picker, zoom};
//!
//! let game = AnyGame::new(GameKind::HexDame, None, None)?;
//! let piece = &picker::pieces(&game)[0];
//! let targets = picker::targets(&game, &piece.origin);
//! let png = zoom::zoom_png(&game, None, piece, &targets, None)?;
//! assert!(png.starts_with(b"\x89PNG"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use hexmeros_render::layout::world_to_hex;
use hexmeros_render::{HeaderLine, Hex, HexPoint, Marker, Rgba, Scene, Tag, Theme, Tile};

use super::common;
use super::picker::{self, Piece, Target};
use super::{ViewError, ViewOptions};
use crate::games::{AnyGame, Seat};

/// The long side of a zoomed picture unless the caller chooses one: small enough to post fast,
/// big enough that a cell name reads on a phone.
pub const ZOOM_SIZE: u32 = 720;

/// The piece's cell and the targets' wash (the rules-help blue), a capture's outline.
pub(crate) const TARGET: Rgba = Rgba::rgb(24, 120, 230);
pub(crate) const CAPTURE: Rgba = Rgba::rgb(214, 38, 40);
/// A ram (a move that removes the mover's own piece): amber, lettered dark, so that it is told
/// from a capture's red and a move's navy by lightness too, under any colour vision.
pub(crate) const RAM: Rgba = Rgba::rgb(236, 176, 20);
const RAM_INK: Rgba = Rgba::rgb(28, 28, 34);
/// A target that may give Check: a red "+" disc at its upper right, as the Check badge.
const CHECK_FILL: Rgba = Rgba::rgb(230, 30, 24);
/// Cell names: a dark grey on light cells, a light grey on dark ones; target numbers: white on
/// a deep blue disc.
const NAME_DARK: Rgba = Rgba::rgb(70, 64, 58);
const NAME_LIGHT: Rgba = Rgba::rgb(228, 222, 210);
const NUMBER: Rgba = Rgba::rgb(10, 30, 90);

/// Cells shown around each target.
const MARGIN: i32 = 1;
/// The fewest cells shown on each side of the piece.
const MIN_RADIUS: i32 = 2;

fn distance(a: Hex, b: Hex) -> i32 {
    let (dq, dr) = (a.q - b.q, a.r - b.r);
    (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
}

/// The zoomed scene of `piece` (an entry of `picker::pieces(game)`) and its `targets`, seen
/// from `viewer`'s side (the player to move's when `None`).
pub fn zoom_scene(
    game: &AnyGame,
    viewer: Option<Seat>,
    piece: &Piece,
    targets: &[Target],
) -> Result<Scene, ViewError> {
    zoom_scene_named(game, viewer, &[], piece, targets)
}

/// [`zoom_scene`] with the players' names per seat (as [`ViewOptions::players`]): the header
/// names the player to move with their colour (`Alice (White) · 3 targets …`).
pub fn zoom_scene_named(
    game: &AnyGame,
    viewer: Option<Seat>,
    players: &[String],
    piece: &Piece,
    targets: &[Target],
) -> Result<Scene, ViewError> {
    let view = common::view_of(game);
    let mut scene = super::scene(
        game,
        &ViewOptions {
            as_seat: viewer,
            ..ViewOptions::default()
        },
    )?;
    let from = piece.cell.as_deref().and_then(|c| view.locate(c));
    let hexes: Vec<Hex> = targets.iter().filter_map(|t| t.hex).collect();
    // The middle: the piece, or for a placement the middle of its cells.
    let centre = from.unwrap_or_else(|| {
        let n = hexes.len().max(1) as f32;
        let q = hexes.iter().map(|h| h.q as f32).sum::<f32>() / n;
        let r = hexes.iter().map(|h| h.r as f32).sum::<f32>() / n;
        let c = Hex::new(q.round() as i32, r.round() as i32);
        hexes
            .iter()
            .copied()
            .min_by_key(|&h| distance(h, c))
            .unwrap_or(c)
    });
    // The piece's neighbourhood and every target's: a tight crop even where targets lie far
    // apart (a Harmegedo Queen reaching into the next kingdom).
    scene.tiles.retain(|t| {
        distance(t.hex, centre) <= MIN_RADIUS || hexes.iter().any(|&h| distance(t.hex, h) <= MARGIN)
    });
    // A cell a move lays (a HexaEquo tile) is not on the board yet: a pale cell of its own.
    for &h in &hexes {
        if !scene.tiles.iter().any(|t| t.hex == h) {
            scene.tiles.push(Tile::new(h, Rgba::rgb(226, 226, 222)));
        }
    }
    scene.arrows.clear();
    scene.trays.clear();
    scene.labels.clear();
    let (up, down) = (offset(&scene, -0.58), offset(&scene, 0.5));
    let mut names = Vec::new();
    for t in &mut scene.tiles {
        t.markers.retain(|m| matches!(m, Marker::Check));
        if Some(t.hex) == from {
            t.markers.insert(0, Marker::Outline(TARGET));
        }
        if let Some(name) = view.name_at(t.hex) {
            // Over the piece, on a pill of the cell's own colour: a name never hides under a
            // piece standing on its cell.
            names.push(Tag {
                at: HexPoint::new(t.hex.q as f32 + up.q, t.hex.r as f32 + up.r),
                text: name,
                size: 0.2,
                floor: false,
                fill: t.fill.with_alpha(215),
                ink: if t.fill.luminance() < 0.45 {
                    NAME_LIGHT
                } else {
                    NAME_DARK
                },
            });
        }
    }
    scene.tags = names;
    let corner = offset_by(&scene, (0.66, -0.1));
    for target in targets {
        let Some(h) = target.hex else { continue };
        let kind = TargetKind::of(target);
        if let Some(t) = scene.tiles.iter_mut().find(|t| t.hex == h) {
            t.markers.insert(0, Marker::Tint(TARGET.with_alpha(110)));
            if let Some(c) = kind.outline() {
                t.markers.push(Marker::Outline(c));
            }
        }
        // The number over the piece's foot on a disc of its own (red where the move takes
        // something, amber where it rams the mover's own), at least 18 px tall at the
        // picker's size.
        let (fill, ink) = kind.disc();
        scene.tags.push(Tag {
            at: HexPoint::new(h.q as f32 + down.q, h.r as f32 + down.r),
            text: target.number.to_string(),
            size: 0.34,
            floor: true,
            fill,
            ink,
        });
        if !target.checks.is_empty() {
            scene.tags.push(Tag {
                at: HexPoint::new(h.q as f32 + corner.q, h.r as f32 + corner.r),
                text: "+".into(),
                size: 0.26,
                floor: true,
                fill: CHECK_FILL,
                ink: Rgba::WHITE,
            });
        }
    }
    let mut second = targets_line(game, piece, targets);
    if let Some(s) = game.to_move() {
        let label = super::seat_label(game, s);
        let who = match players.get(s.index()).map(|n| super::fit_name(n)) {
            Some(name) if !name.is_empty() => format!("{name} ({label})"),
            _ => label,
        };
        second = format!("{who} · {second}");
    }
    scene.header = vec![
        HeaderLine::new(format!("{} · {}", game.kind().name(), piece.label())),
        HeaderLine::with_swatch(second, TARGET),
    ];
    scene.header.extend(key(targets));
    Ok(scene)
}

/// What a target's move does, as the close-up draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TargetKind {
    Moves,
    Captures,
    /// Every piece it removes is the mover's own.
    Rams,
}

impl TargetKind {
    fn of(t: &Target) -> TargetKind {
        match () {
            _ if t.taken.is_empty() && t.takes.is_empty() => TargetKind::Moves,
            _ if !t.taken.is_empty() && t.taken.iter().all(|p| p.own) => TargetKind::Rams,
            _ => TargetKind::Captures,
        }
    }

    fn outline(self) -> Option<Rgba> {
        match self {
            TargetKind::Moves => None,
            TargetKind::Captures => Some(CAPTURE),
            TargetKind::Rams => Some(RAM),
        }
    }

    /// The number disc's fill and ink.
    fn disc(self) -> (Rgba, Rgba) {
        match self {
            TargetKind::Moves => (NUMBER, Rgba::WHITE),
            TargetKind::Captures => (CAPTURE, Rgba::WHITE),
            TargetKind::Rams => (RAM, RAM_INK),
        }
    }
}

/// The close-up's key, one line, for what its targets hold beyond moves: captures, rams and
/// Checks, each with its colour (none when every target only moves).
fn key(targets: &[Target]) -> Option<HeaderLine> {
    let kinds: Vec<TargetKind> = targets.iter().map(TargetKind::of).collect();
    let mut words = Vec::new();
    let mut swatch = None;
    if kinds.contains(&TargetKind::Captures) {
        words.push("red: takes a piece");
        swatch = swatch.or(Some(CAPTURE));
    }
    if kinds.contains(&TargetKind::Rams) {
        words.push("amber: rams your own piece");
        swatch = swatch.or(Some(RAM));
    }
    if targets.iter().any(|t| !t.checks.is_empty()) {
        words.push("+: may give Check");
        swatch = swatch.or(Some(CHECK_FILL));
    }
    Some(HeaderLine::with_swatch(words.join(" · "), swatch?))
}

/// The scene offset that moves a label `(dx, dy)` hex radii across and down the page.
fn offset_by(scene: &Scene, (dx, dy): (f32, f32)) -> HexPoint {
    world_to_hex(scene.orientation, scene.rotation, (dx, dy))
}

/// The zoom's count of targets: `24 targets, …`, or for a page of a piece's targets (their
/// numbers are the piece's) which of how many, `targets 26–33 of 33, …`.
fn targets_line(game: &AnyGame, piece: &Piece, targets: &[Target]) -> String {
    let n = targets.len();
    // Only a full page or a later one can be part of more: the piece's targets are listed
    // again only then.
    let first = targets.iter().map(|t| t.number).min().unwrap_or(1);
    let last = targets.iter().map(|t| t.number).max().unwrap_or(0);
    let all = if first > 1 || n >= picker::PAGE {
        picker::targets(game, &piece.origin).len()
    } else {
        n
    };
    if n < all {
        format!("targets {first}–{last} of {all}, numbered clockwise from the top, nearest first")
    } else {
        format!(
            "{n} target{}, numbered clockwise from the top, nearest first",
            if n == 1 { "" } else { "s" }
        )
    }
}

/// The scene offset that moves a label `dy` hex radii down the page (up when negative),
/// whatever the board's orientation and rotation.
pub(super) fn offset(scene: &Scene, dy: f32) -> HexPoint {
    world_to_hex(scene.orientation, scene.rotation, (0.0, dy))
}

/// The theme of a zoomed picture `size` px on its long side: labels may be larger than rim
/// labels (they sit inside cells that are large here) and glyphs a little smaller, so that a
/// cell's name and number show above and below its piece.
pub fn zoom_theme(size: u32) -> Theme {
    let mut theme = Theme::new(size);
    theme.label_px_max = (size as f32 * 0.05).max(8.0);
    theme.glyph_scale *= 0.78;
    theme
}

/// The zoomed picture as PNG bytes, `size` px on its long side (default [`ZOOM_SIZE`]).
pub fn zoom_png(
    game: &AnyGame,
    viewer: Option<Seat>,
    piece: &Piece,
    targets: &[Target],
    size: Option<u32>,
) -> Result<Vec<u8>, ViewError> {
    zoom_png_named(game, viewer, &[], piece, targets, size)
}

/// [`zoom_png`] with the players' names per seat (see [`zoom_scene_named`]).
pub fn zoom_png_named(
    game: &AnyGame,
    viewer: Option<Seat>,
    players: &[String],
    piece: &Piece,
    targets: &[Target],
    size: Option<u32>,
) -> Result<Vec<u8>, ViewError> {
    let scene = zoom_scene_named(game, viewer, players, piece, targets)?;
    let mut theme = zoom_theme(size.unwrap_or(ZOOM_SIZE));
    common::view_of(game).adjust_theme(&mut theme);
    Ok(hexmeros_render::render_png(&scene, &theme)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use crate::view::picker;

    #[test]
    fn every_target_is_numbered_once_on_the_picture() {
        for kind in GameKind::ALL {
            let game = AnyGame::new(kind, None, None).unwrap();
            for piece in picker::pieces(&game) {
                let targets = picker::targets(&game, &piece.origin);
                let scene = zoom_scene(&game, None, &piece, &targets).unwrap();
                for t in &targets {
                    let n = t.number.to_string();
                    // Over the pieces (a tag), held at least at the theme's floor.
                    let numbered = scene.tags.iter().filter(|l| l.text == n && l.floor).count();
                    assert_eq!(numbered, 1, "{kind:?} {} target {n}", piece.origin);
                    let h = t.hex.unwrap();
                    assert!(scene.tiles.iter().any(|x| x.hex == h));
                }
            }
        }
    }

    /// A Dreadnaught beside its own Militant (issue 62): the ram is drawn apart from a capture
    /// (amber disc, dark digits, amber outline), a target that may give Check carries a "+",
    /// and the header's key says what each means.
    #[test]
    fn a_ram_and_a_check_are_drawn_apart_from_a_capture() {
        let json = serde_json::json!({"game": "heximeros", "to_move": "silver", "pieces": [
            {"cell": "Q20", "owner": "silver", "kind": "dreadnaught", "moved": true},
            {"cell": "Q24", "owner": "silver", "kind": "militant", "moved": true},
            {"cell": "Q2", "owner": "silver", "kind": "sovereign", "moved": true},
            {"cell": "Q30", "owner": "blue", "kind": "sovereign", "moved": true}]});
        let game = crate::games::read_position(&json.to_string()).unwrap();
        let piece = picker::pieces(&game)
            .into_iter()
            .find(|p| p.origin == "Q20")
            .unwrap();
        let targets = picker::targets(&game, "Q20");
        let scene = zoom_scene(&game, None, &piece, &targets).unwrap();
        let disc = |t: &Target| {
            let n = t.number.to_string();
            scene
                .tags
                .iter()
                .find(|g| g.text == n && g.floor)
                .map(|g| (g.fill, g.ink))
                .unwrap()
        };
        let ram = targets
            .iter()
            .find(|t| TargetKind::of(t) == TargetKind::Rams)
            .expect("a ram on the Militant");
        assert_eq!(disc(ram), (RAM, RAM_INK));
        let tile = scene.tiles.iter().find(|x| Some(x.hex) == ram.hex).unwrap();
        assert!(tile.markers.contains(&Marker::Outline(RAM)), "{tile:?}");
        let mover = targets
            .iter()
            .find(|t| TargetKind::of(t) == TargetKind::Moves)
            .unwrap();
        assert_eq!(disc(mover), (NUMBER, Rgba::WHITE));
        let checking: Vec<&Target> = targets.iter().filter(|t| !t.checks.is_empty()).collect();
        assert!(!checking.is_empty(), "a move that gives Check to Blue");
        let pluses = scene.tags.iter().filter(|g| g.text == "+").count();
        assert_eq!(pluses, checking.len());
        let key = &scene.header.last().unwrap().text;
        assert!(key.contains("amber: rams your own piece"), "{key}");
        assert!(key.contains("+: may give Check"), "{key}");
        assert!(!key.contains("red: takes"), "nothing is captured: {key}");
    }

    #[test]
    fn the_picture_is_a_crop_around_the_piece() {
        let game = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
        let full = crate::view::scene(&game, &ViewOptions::default()).unwrap();
        let piece = picker::pieces(&game)
            .into_iter()
            .find(|p| p.kind == "Militant")
            .unwrap();
        let targets = picker::targets(&game, &piece.origin);
        let scene = zoom_scene(&game, None, &piece, &targets).unwrap();
        assert!(
            scene.tiles.len() < full.tiles.len() / 10,
            "{}",
            scene.tiles.len()
        );
        assert_eq!(scene.rotation, full.rotation);
        let cell = piece.cell.clone().unwrap();
        assert!(scene.tags.iter().any(|l| l.text == cell));
    }

    #[test]
    fn the_header_names_the_player_to_move() {
        let game = AnyGame::new(GameKind::HexDame, None, None).unwrap();
        let piece = &picker::pieces(&game)[0];
        let targets = picker::targets(&game, &piece.origin);
        let players = vec!["Alice".to_string(), "Bob".to_string()];
        let scene = zoom_scene_named(&game, None, &players, piece, &targets).unwrap();
        assert!(
            scene.header[1].text.starts_with("Alice (White) · "),
            "{}",
            scene.header[1].text
        );
        let long = vec!["\u{202E}".to_string() + &"z".repeat(300), "Bob".to_string()];
        let scene = zoom_scene_named(&game, None, &long, piece, &targets).unwrap();
        assert!(
            scene.header[1]
                .text
                .starts_with(&format!("{}…", "z".repeat(23)))
        );
        let scene = zoom_scene(&game, None, piece, &targets).unwrap();
        assert!(
            scene.header[1].text.starts_with("White · "),
            "{}",
            scene.header[1].text
        );
    }

    #[test]
    fn every_named_cell_of_every_games_zoom_carries_its_name_inside_it() {
        for kind in GameKind::ALL {
            let game = AnyGame::new(kind, None, None).unwrap();
            let view = common::view_of(&game);
            let piece = &picker::pieces(&game)[0];
            let targets = picker::targets(&game, &piece.origin);
            let scene = zoom_scene(&game, None, piece, &targets).unwrap();
            let mut named = 0;
            for t in &scene.tiles {
                let Some(name) = view.name_at(t.hex) else {
                    continue;
                };
                named += 1;
                // Within the cell: less than a hex radius from its centre.
                let inside = scene.tags.iter().any(|l| {
                    l.text == name && (l.at.q - t.hex.q as f32).hypot(l.at.r - t.hex.r as f32) < 1.0
                });
                assert!(inside, "{kind}: {name} has no name inside its cell");
            }
            assert!(named >= 3, "{kind}: {named} named cells");
        }
    }
}
