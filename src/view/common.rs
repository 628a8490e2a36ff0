//! What every game's picture shares: the [`GameView`] each game implements, the board being
//! built ([`Pic`]), the palette, rim labels, trays, rotation to a seat and finding the cells a
//! move text names.

use std::collections::HashMap;

use hexmeros_render::layout::hex_to_world;
use hexmeros_render::{
    Arrow, Badges, Glyph, GlyphState, Hex, HexPoint, Label, Orientation, Plate, Rgba, Shape, Theme,
    Tile, Tray, label_width,
};

use crate::games::heximeros::{HexiMeros, Kind as HKind};
use crate::games::{AnyGame, Rules, Seat};

/// The six seats' initials (Silver, Blue, Yellow, Orange, Green, Red), drawn on their pieces'
/// bases and their swatches: a cue besides colour, for colour-blind eyes and grey screens.
pub const SEAT_MARKS: [char; 6] = ['S', 'B', 'Y', 'O', 'G', 'R'];

/// The six seats' shapes, in the same order: each piece stands on its owner's plate and the
/// swatches take its shape, a cue besides colour large enough to read on the full board on a
/// phone (`palette_tests::a_seats_plate_reads_on_the_full_board_on_a_phone`). The seats most
/// alike under colour blindness (Orange with Red, Orange with Green) get the least alike shapes.
pub const SEAT_PLATES: [Plate; 6] = [
    Plate::Circle,
    Plate::Square,
    Plate::TriangleUp,
    Plate::Diamond,
    Plate::TriangleDown,
    Plate::Star,
];

/// The plate of the seat whose initial is `mark` (one of [`SEAT_MARKS`]).
pub fn seat_plate(mark: char) -> Option<Plate> {
    SEAT_MARKS
        .iter()
        .position(|&m| m == mark)
        .map(|i| SEAT_PLATES[i])
}

/// HexiMeros' six colours in seat order (Silver, Blue, Yellow, Orange, Green, Red); Harmegedo's
/// kingdoms use the same six. Chosen apart for colour-blind players (issue 45): a lemon Yellow
/// and a deep Orange, a bluish Green and a dark crimson Red, so that lightness, not hue alone,
/// tells Yellow from Orange and Red from Green. The test
/// `palette_tests::seats_stay_apart_for_colour_blind_eyes` holds every pair at least 10 apart
/// (CIEDE2000) under protanopia, deuteranopia and tritanopia; the closest are Orange and Green
/// under protanopia at 14.8. The earlier palette came to 7.5 for Green and Red.
pub const PLAYER_COLOURS: [Rgba; 6] = [
    Rgba::rgb(202, 222, 226),
    Rgba::rgb(18, 66, 168),
    Rgba::rgb(252, 218, 0),
    Rgba::rgb(208, 120, 6),
    Rgba::rgb(28, 160, 112),
    Rgba::rgb(164, 2, 22),
];

/// Move highlights for the six colours: Silver's own pale grey would vanish on the pale cells,
/// so it is drawn in a dark neutral grey; the others are their colour, a little deeper. Held
/// apart for colour-blind eyes like the pieces.
pub const PLAYER_ACCENTS: [Rgba; 6] = [
    Rgba::rgb(64, 64, 72),
    Rgba::rgb(24, 76, 200),
    Rgba::rgb(230, 190, 0),
    Rgba::rgb(200, 104, 0),
    Rgba::rgb(10, 140, 96),
    Rgba::rgb(150, 0, 20),
];

/// Pale, warm cell tones: the three HexiMeros line classes, and light/mid/dark for other boards.
pub const TONES: [Rgba; 3] = [
    Rgba::rgb(240, 234, 220),
    Rgba::rgb(212, 203, 184),
    Rgba::rgb(180, 169, 148),
];

/// Two-player piece colours.
pub const WHITE: Rgba = Rgba::rgb(246, 243, 236);
pub const BLACK: Rgba = Rgba::rgb(44, 44, 50);
/// Move highlights for white and black pieces (white and black lines would not show on the
/// cells): a blue for the white side, a red-brown for the black side.
pub const WHITE_ACCENT: Rgba = Rgba::rgb(36, 110, 230);
pub const BLACK_ACCENT: Rgba = Rgba::rgb(200, 50, 30);

pub const LABEL: Rgba = Rgba::rgb(214, 210, 200);

/// A rim label's capital height as a share of the picture's long side (the cap the picture's
/// theme puts on label sizes, see `view::theme`). Phone arithmetic: the default picture is
/// [`super::DEFAULT_SIZE`] = 1600 px on its long side, so a label is 1600 × 0.02 = 32 px tall;
/// a phone shows the opened picture about 400 dp wide, a scale of at most 400 / 1600 = 1/4 (the
/// picture's width is at most its long side), so the label is at least 32 / 4 = 8 dp tall.
/// HexDame's 1200 px (24 px labels) and HexaEquo's 560 px and up keep the same 8 dp.
pub const RIM_LABEL_SHARE: f32 = 0.02;

/// The least share of the picture's long side the board (tiles) takes: header, trays, margins
/// and the labels themselves take the rest. Rim labels are sized in hex radii from it so that
/// their capital height reaches [`RIM_LABEL_SHARE`] of the picture (the theme caps it there).
const BOARD_SHARE: f32 = 0.62;

/// A coordinate label beyond one end of a board line: `at` is where it goes if there is room,
/// `out` the direction (scene hex steps) pointing away from the board along the line; `alt` the
/// same for the line's other end, taken when the first is crowded (see [`place_rim_labels`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RimLabel {
    pub at: HexPoint,
    pub text: String,
    pub out: HexPoint,
    pub alt: Option<(HexPoint, HexPoint)>,
}

/// A board picture being built: tiles (with an index by hex), arrows, rim labels (one per board
/// line the cell names use), other labels (drawn as given), trays.
pub struct Pic {
    pub orientation: Orientation,
    pub tiles: Vec<Tile>,
    index: HashMap<Hex, usize>,
    pub arrows: Vec<Arrow>,
    pub rim: Vec<RimLabel>,
    pub labels: Vec<Label>,
    pub trays: Vec<Tray>,
}

impl Pic {
    pub fn new(orientation: Orientation, tiles: Vec<Tile>) -> Pic {
        let index = tiles.iter().enumerate().map(|(i, t)| (t.hex, i)).collect();
        Pic {
            orientation,
            tiles,
            index,
            arrows: Vec::new(),
            rim: Vec::new(),
            labels: Vec::new(),
            trays: Vec::new(),
        }
    }

    pub fn tile_mut(&mut self, h: Hex) -> Option<&mut Tile> {
        let i = *self.index.get(&h)?;
        self.tiles.get_mut(i)
    }

    pub fn push(&mut self, tile: Tile) {
        self.index.insert(tile.hex, self.tiles.len());
        self.tiles.push(tile);
    }
}

/// What a game tells the picture. Hexes are the scene's (see `hexmeros_render::scene`).
pub trait GameView {
    /// The board with its pieces, rim labels and trays (no highlights).
    fn pic(&self) -> Pic;
    /// The scene hex of a cell name, if the name is a cell of this board.
    fn locate(&self, name: &str) -> Option<Hex>;
    /// The name of the cell at `h`, if `h` is a cell this board names.
    fn name_at(&self, h: Hex) -> Option<String>;
    /// The seat whose piece stands on `h`.
    fn owner_at(&self, h: Hex) -> Option<Seat>;
    /// The seat that moved before `seat` in turn order.
    fn previous_seat(&self, seat: Seat) -> Seat;
    /// The colour of the seat's pieces (header swatch).
    fn swatch(&self, seat: Seat) -> Rgba;
    /// The letter on the seat's swatch and its pieces (six-colour games: [`SEAT_MARKS`]).
    fn mark(&self, _seat: Seat) -> Option<char> {
        None
    }
    /// The shape of the seat's plate and swatch: that of its [`GameView::mark`].
    fn plate(&self, seat: Seat) -> Option<Plate> {
        self.mark(seat).and_then(seat_plate)
    }
    /// The seat as people read it, where the game's seat name is notation (Harmegedo's
    /// `kingdom0`); `None`: the seat name, title-cased.
    fn seat_label(&self, _seat: Seat) -> Option<String> {
        None
    }
    /// The colour its moves are highlighted in.
    fn accent(&self, seat: Seat) -> Rgba;
    /// Where the seat sits (its home cells' middle): turned to the bottom for its view.
    fn home(&self, seat: Seat) -> Option<HexPoint>;
    /// Cells of Sovereigns / kings in declared check.
    fn checks(&self) -> Vec<Hex> {
        Vec::new()
    }
    /// Cells of the seat's royal pieces (HexiMeros' Sovereigns, Harmegedo's King); none in
    /// games without one.
    fn royals(&self, _seat: Seat) -> Vec<Hex> {
        Vec::new()
    }
    /// The picture's long side when the caller does not choose one (HexaEquo's grows with its
    /// board).
    fn preferred_size(&self) -> Option<u32> {
        None
    }
    /// Changes to the page's look this board needs (HexaEquo's black tiles want a light rim).
    fn adjust_theme(&self, _theme: &mut Theme) {}
    /// More to say in the header (eliminated players, reserves).
    fn status(&self) -> Vec<String> {
        Vec::new()
    }
}

pub fn view_of(game: &AnyGame) -> Box<dyn GameView + '_> {
    match game {
        AnyGame::HexiMeros(g) => Box::new(super::heximeros::View(g)),
        AnyGame::HexDame(g) => Box::new(super::hexdame::View(g)),
        AnyGame::Hexmeister(g) => Box::new(super::hexmeister::View(g)),
        AnyGame::HexaEquo(g) => Box::new(super::hexaequo::View(g)),
        AnyGame::Harmegedo(g) => Box::new(super::harmegedo::View(g)),
    }
}

/// `silver` → `Silver`.
pub fn title_case(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The rotation (sixths of a turn clockwise) that puts `home` nearest the bottom of the board.
pub fn choose_rotation(orientation: Orientation, tiles: &[Tile], home: HexPoint) -> u8 {
    let n = tiles.len().max(1) as f32;
    let centre = HexPoint::new(
        tiles.iter().map(|t| t.hex.q as f32).sum::<f32>() / n,
        tiles.iter().map(|t| t.hex.r as f32).sum::<f32>() / n,
    );
    let v = HexPoint::new(home.q - centre.q, home.r - centre.r);
    (0..6u8)
        .max_by(|&a, &b| {
            let ya = hex_to_world(orientation, a, v);
            let yb = hex_to_world(orientation, b, v);
            // Lowest on the page (y grows downward), then the most centred.
            (ya.1 - ya.0.abs() * 0.01).total_cmp(&(yb.1 - yb.0.abs() * 0.01))
        })
        .unwrap_or(0)
}

/// The cells a move text names, in order (`d4xf6xh8` → d4, f6, h8; `D@I8` → I8): maximal runs
/// of name characters, split greedily into the longest cell names the board knows.
pub fn move_cells(view: &dyn GameView, text: &str) -> Vec<Hex> {
    let chars: Vec<char> = text.chars().collect();
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '.';
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !is_name(chars[i]) {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < chars.len() && is_name(chars[end]) && end - i < 12 {
            end += 1;
        }
        let found = (i + 1..=end).rev().find_map(|j| {
            let s: String = chars[i..j].iter().collect();
            view.locate(&s).map(|h| (h, j))
        });
        match found {
            Some((h, j)) => {
                out.push(h);
                i = j;
            }
            None => i += 1,
        }
    }
    out
}

/// Rim labels for a board whose cell names are `<letters><number>`: each letter file and each
/// number file gets its name just beyond one end. `letter_dir` / `number_dir` are the scene
/// steps along which a letter file / number file runs, pointing *away* from the end that gets
/// the label (like a chess board's letters under the first rank); `gap` how far (in steps)
/// beyond the last cell the label sits.
pub fn rim_labels(
    orientation: Orientation,
    cells: &[(Hex, String)],
    letter_dir: Hex,
    number_dir: Hex,
    gap: f32,
) -> Vec<RimLabel> {
    let mut letters: HashMap<String, Vec<Hex>> = HashMap::new();
    let mut numbers: HashMap<String, Vec<Hex>> = HashMap::new();
    for (h, name) in cells {
        let split = name
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(name.len());
        let (l, n) = name.split_at(split);
        letters.entry(l.to_string()).or_default().push(*h);
        numbers.entry(n.to_string()).or_default().push(*h);
    }
    let world = |h: Hex| hex_to_world(orientation, 0, HexPoint::from(h));
    let mut labels = Vec::new();
    for (groups, dir) in [(letters, letter_dir), (numbers, number_dir)] {
        let d = world(dir);
        let along = |h: &&Hex| {
            let w = world(**h);
            w.0 * d.0 + w.1 * d.1
        };
        let mut groups: Vec<_> = groups.into_iter().collect();
        // Files in board order (a, b, … z, aa; 1, 2, … 10), so crowded neighbours alternate.
        groups.sort_by(|a, b| (a.0.len(), &a.0).cmp(&(b.0.len(), &b.0)));
        for (text, hexes) in groups {
            let by_along = |a: &&Hex, b: &&Hex| along(a).total_cmp(&along(b));
            let (Some(end), Some(other)) =
                (hexes.iter().min_by(by_along), hexes.iter().max_by(by_along))
            else {
                continue;
            };
            labels.push(RimLabel {
                at: HexPoint::new(
                    end.q as f32 - gap * dir.q as f32,
                    end.r as f32 - gap * dir.r as f32,
                ),
                text,
                out: HexPoint::new(-dir.q as f32, -dir.r as f32),
                alt: Some((
                    HexPoint::new(
                        other.q as f32 + gap * dir.q as f32,
                        other.r as f32 + gap * dir.r as f32,
                    ),
                    HexPoint::new(dir.q as f32, dir.r as f32),
                )),
            });
        }
    }
    labels
}

/// The rim labels' capital height in hex radii for a board of `tiles`: [`RIM_LABEL_SHARE`] of
/// the picture's long side when the board takes [`BOARD_SHARE`] of it (more when it takes more;
/// the theme's cap then keeps the label at the share).
pub fn rim_label_size(orientation: Orientation, tiles: &[Tile]) -> f32 {
    let mut b = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
    for t in tiles {
        let (x, y) = hex_to_world(orientation, 0, HexPoint::from(t.hex));
        b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
    }
    // A turned board is as wide as its widest way round: the larger of its two extents, plus a
    // cell each side.
    let extent = ((b[2] - b[0]).max(b[3] - b[1]) + 2.0).max(2.0);
    RIM_LABEL_SHARE * extent / BOARD_SHARE
}

/// The least share of the asked size [`place_rim_labels`] shrinks the labels to, to set each
/// right at one end of its line; below it, labels move out along their lines instead.
const RIM_LABEL_LEAST: f32 = 0.5;

/// Sets the rim labels of a board turned by `rotation` into plain labels: each right beyond one
/// end of its line, just clear of the cells (its [`RimLabel::at`], or where that is crowded,
/// its line's other end), crowding no label placed before it nor any of `fixed` (labels drawn
/// where the game put them). The labels are `size` hex radii tall where they all fit so, else
/// as much smaller as it takes (a 51-row board has two line ends to a rim cell, so its labels
/// must be about a cell wide). Below [`RIM_LABEL_LEAST`] of `size` they stay that size, and a
/// label with no room at either end moves further out along its line. None is left out.
pub fn place_rim_labels(
    orientation: Orientation,
    rotation: u8,
    tiles: &[Tile],
    rim: &[RimLabel],
    fixed: &[Label],
    size: f32,
) -> Vec<Label> {
    let room = Room::new(orientation, rotation, tiles, fixed);
    let mut s = size;
    while s >= size * RIM_LABEL_LEAST {
        if let Some(labels) = room.at_ends(rim, s) {
            return labels;
        }
        s *= 0.95;
    }
    room.pushed_out_all(rim, size * RIM_LABEL_LEAST)
}

/// The labels of `rim` at the spots `taken` (one each, in order), `size` hex radii tall.
fn labels(rim: &[RimLabel], taken: &[Spot], size: f32) -> Vec<Label> {
    rim.iter()
        .zip(taken)
        .map(|(l, s)| Label {
            at: s.at,
            text: l.text.clone(),
            size,
            colour: LABEL,
        })
        .collect()
}

/// The [`ROOM_GRID`] square a point falls in.
fn square(x: f32, y: f32) -> (i32, i32) {
    (
        (x / ROOM_GRID).floor() as i32,
        (y / ROOM_GRID).floor() as i32,
    )
}

/// A label's box in the turned board's world: `[left, top, right, bottom]`.
type Bounds = [f32; 4];

fn overlap(a: &Bounds, b: &Bounds) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// The side of the squares [`Room`] files the cells' centres in, in hex radii.
const ROOM_GRID: f32 = 2.0;

/// Where rim labels may go on a turned board: the cells' centres (filed by the
/// [`ROOM_GRID`] square they fall in, so that a box is checked against the few near it) and the
/// fixed labels' boxes.
struct Room {
    orientation: Orientation,
    rotation: u8,
    centres: HashMap<(i32, i32), Vec<(f32, f32)>>,
    fixed: Vec<Bounds>,
}

/// A spot a rim label may take: where, and its box there.
#[derive(Clone, Copy)]
struct Spot {
    at: HexPoint,
    bounds: Bounds,
}

impl Room {
    fn new(orientation: Orientation, rotation: u8, tiles: &[Tile], fixed: &[Label]) -> Self {
        let world = |p: HexPoint| hex_to_world(orientation, rotation, p);
        let mut centres: HashMap<(i32, i32), Vec<(f32, f32)>> = HashMap::new();
        for t in tiles {
            let (x, y) = world(HexPoint::from(t.hex));
            centres.entry(square(x, y)).or_default().push((x, y));
        }
        let fixed = fixed
            .iter()
            .map(|l| {
                let (x, y) = world(l.at);
                let half_w = label_width(&l.text, l.size).unwrap_or(l.size) / 2.0;
                let half_h = l.size / 2.0;
                [x - half_w, y - half_h, x + half_w, y + half_h]
            })
            .collect();
        Room {
            orientation,
            rotation,
            centres,
            fixed,
        }
    }

    /// `label`'s box at `at` when `size` hex radii tall, with a little air round it.
    fn bounds(&self, label: &RimLabel, size: f32, at: HexPoint) -> Bounds {
        let pad = size * 0.12;
        let half_w =
            label_width(&label.text, size).unwrap_or(size * label.text.len() as f32) / 2.0 + pad;
        let half_h = size / 2.0 + pad;
        let (x, y) = hex_to_world(self.orientation, self.rotation, at);
        [x - half_w, y - half_h, x + half_w, y + half_h]
    }

    /// Whether a box covers a cell (comes nearer its centre than about its inner circle,
    /// √3 / 2).
    fn covers(&self, b: &Bounds) -> bool {
        let reach = 0.8;
        let (lo, hi) = (
            square(b[0] - reach, b[1] - reach),
            square(b[2] + reach, b[3] + reach),
        );
        (lo.0..=hi.0)
            .flat_map(|x| (lo.1..=hi.1).map(move |y| (x, y)))
            .filter_map(|sq| self.centres.get(&sq))
            .flatten()
            .any(|&(cx, cy)| {
                let dx = cx - cx.clamp(b[0], b[2]);
                let dy = cy - cy.clamp(b[1], b[3]);
                dx.hypot(dy) < reach
            })
    }

    /// The spots along a line from `at` out by `dir`, `t` hex radii on, in quarter radii from
    /// a radius short of `at` (so a label hugs an edge whose cells leave it room) to sixteen
    /// beyond.
    fn along(&self, at: HexPoint, dir: HexPoint) -> impl Iterator<Item = HexPoint> {
        let (ux, uy) = hex_to_world(self.orientation, self.rotation, dir);
        let len = ux.hypot(uy);
        let step = if len > 1e-6 {
            HexPoint::new(dir.q / len, dir.r / len)
        } else {
            HexPoint::new(0.0, 0.0)
        };
        (-4..=64).map(move |i| {
            let t = i as f32 * 0.25;
            HexPoint::new(at.q + t * step.q, at.r + t * step.r)
        })
    }

    /// A label's spots: at each end of its line, just clear of the cells or up to half a radius
    /// further (a nudge, less than a label's height: never a row behind another label).
    fn spots(&self, label: &RimLabel, size: f32) -> Vec<Spot> {
        let ends = std::iter::once((label.at, label.out)).chain(label.alt);
        let mut spots = Vec::new();
        for (at, dir) in ends {
            let clear = self
                .along(at, dir)
                .map(|p| (p, self.bounds(label, size, p)))
                .skip_while(|(_, b)| self.covers(b))
                .take(5);
            spots.extend(clear.map(|(at, bounds)| Spot { at, bounds }));
        }
        spots
    }

    /// Every label of `rim` `size` tall at the first of its spots where it crowds no label
    /// placed before it, or `None` if one has no such spot.
    fn at_ends(&self, rim: &[RimLabel], size: f32) -> Option<Vec<Label>> {
        let mut taken: Vec<Spot> = Vec::with_capacity(rim.len());
        for label in rim {
            let free = |s: &Spot| {
                !self.fixed.iter().any(|f| overlap(f, &s.bounds))
                    && !taken.iter().any(|t| overlap(&t.bounds, &s.bounds))
            };
            let spot = self.spots(label, size).into_iter().find(free)?;
            taken.push(spot);
        }
        Some(labels(rim, &taken, size))
    }

    /// Every label of `rim` `size` tall as [`Room::at_ends`] sets them, except that one with no
    /// free spot at either end moves out along its first end's line as far as it takes.
    fn pushed_out_all(&self, rim: &[RimLabel], size: f32) -> Vec<Label> {
        let mut taken: Vec<Spot> = Vec::with_capacity(rim.len());
        for label in rim {
            let free = |s: &Spot| {
                !self.fixed.iter().any(|f| overlap(f, &s.bounds))
                    && !taken.iter().any(|t| overlap(&t.bounds, &s.bounds))
            };
            let spot = match self.spots(label, size).into_iter().find(free) {
                Some(spot) => spot,
                None => self.pushed_out(label, size, &taken),
            };
            taken.push(spot);
        }
        labels(rim, &taken, size)
    }

    /// `label`'s spot `size` tall at its first end, moved out along its line as far as it takes
    /// to crowd none of the labels `taken` and cover no cell (or sixteen radii out).
    fn pushed_out(&self, label: &RimLabel, size: f32, taken: &[Spot]) -> Spot {
        let spot = |at: HexPoint| Spot {
            at,
            bounds: self.bounds(label, size, at),
        };
        let mut last = spot(label.at);
        for at in self.along(label.at, label.out) {
            last = spot(at);
            let crowds = self.fixed.iter().any(|f| overlap(f, &last.bounds))
                || taken.iter().any(|t| overlap(&t.bounds, &last.bounds));
            if !crowds && !self.covers(&last.bounds) {
                break;
            }
        }
        last
    }
}

/// A tray of glyphs with counts: `(glyph, how many)`, the count shown as a badge when above 1.
pub fn tray(caption: String, swatch: Option<Rgba>, items: Vec<(Glyph, u16)>) -> Tray {
    Tray {
        caption,
        swatch,
        mark: None,
        plate: None,
        items: items
            .into_iter()
            .filter(|&(_, n)| n > 0)
            .map(|(g, n)| {
                g.with_badges(Badges {
                    count: (n > 1).then_some(n),
                    ..g.badges
                })
            })
            .collect(),
    }
}

/// The HexiMeros piece of `kind` in colour `colour` (0–5): its shape, the Hat, the Ground-Zero
/// bonus star and, for an eliminated player's frozen piece, the grey.
pub fn piece_glyph_heximeros(kind: HKind, colour: u8, bonus: bool, frozen: bool) -> Glyph {
    let shape = match kind {
        HKind::Sovereign => Shape::Crown,
        HKind::Regent => Shape::Diadem,
        HKind::Assassin => Shape::Dagger,
        HKind::Archer => Shape::Bow,
        HKind::Prelate => Shape::Mitre,
        HKind::Alcazar => Shape::Tower,
        HKind::Cavalier => Shape::Horse,
        HKind::Dreadnaught => Shape::Ship,
        HKind::Militant => Shape::Pawn,
        HKind::HattedMilitant => Shape::HattedPawn,
    };
    let fill = PLAYER_COLOURS[usize::from(colour) % 6];
    let mut g = Glyph::new(shape, fill).with_badges(Badges {
        star: bonus,
        mark: Some(SEAT_MARKS[usize::from(colour) % 6]),
        plate: Some(SEAT_PLATES[usize::from(colour) % 6]),
        ..Badges::default()
    });
    if frozen {
        g.state = GlyphState::Frozen;
    }
    g
}

/// Material taken from each colour: the start set minus what is on the board, with promoted
/// pieces counted back as the pawns they were. `start` and `now` count pieces per kind index;
/// `pawn` is the pawn kind's index and `promoted` the kinds a pawn can become.
pub fn missing(start: &[u16], now: &[u16], pawn: usize, promoted: &[usize]) -> Vec<u16> {
    let mut lost: Vec<u16> = start
        .iter()
        .zip(now)
        .map(|(&s, &n)| s.saturating_sub(n))
        .collect();
    let extra: u16 = promoted
        .iter()
        .map(|&k| now[k].saturating_sub(start[k]))
        .sum();
    if let Some(p) = lost.get_mut(pawn) {
        *p = p.saturating_sub(extra);
    }
    lost
}

/// `HexiMeros` start set for trays.
pub fn heximeros_start(g: &HexiMeros) -> HexiMeros {
    HexiMeros::start(g.house_rules().clone())
}
