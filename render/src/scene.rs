//! The plain data a board picture is drawn from: a [`Scene`] of hex [`Tile`]s with [`Glyph`]s and
//! [`Marker`]s, [`Arrow`]s, rim [`Label`]s, captured-piece [`Tray`]s and a header.
//!
//! A scene names no game and no rule. The caller (the `view` module of the bot) decides every
//! colour and shape; this crate only decides how they look on the page.
//!
//! # Coordinates
//!
//! Positions are **axial hex coordinates** `(q, r)` (cube `s = -q - r`), the same convention as
//! the bot's `hex::Hex`: with [`Orientation::FlatTop`], `q` grows to the right and `r` grows
//! upward-left so that `(0, 1)` is the neighbour straight above the origin ("north") and `(1, 0)`
//! the one above-right. In hex-radius units (the distance from a hex centre to a corner is 1):
//!
//! * flat-topped: `x = 3/2 q`, `y = √3 (r + q/2)` upward;
//! * pointy-topped: `x = √3 (q + r/2)`, `y = 3/2 r` upward.
//!
//! [`Scene::rotation`] turns the whole board clockwise about `(0, 0)` in sixths of a turn, so a
//! view from another seat is one number; text stays upright. The picture is then scaled to fit
//! the [`crate::Theme`]'s size, so absolute positions do not matter, only relative ones.

/// A colour with straight (not premultiplied) alpha.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rgba {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

impl Rgba {
    pub const BLACK: Rgba = Rgba::rgb(0, 0, 0);
    pub const WHITE: Rgba = Rgba::rgb(255, 255, 255);
    pub const TRANSPARENT: Rgba = Rgba::new(0, 0, 0, 0);

    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
        Rgba { r, g, b, a: 255 }
    }

    pub const fn new(r: u8, g: u8, b: u8, a: u8) -> Rgba {
        Rgba { r, g, b, a }
    }

    /// The same colour with another alpha.
    pub const fn with_alpha(self, a: u8) -> Rgba {
        Rgba { a, ..self }
    }

    /// The colour as it shows laid over the opaque `under` (its alpha blended in).
    pub fn over(self, under: Rgba) -> Rgba {
        let a = f32::from(self.a) / 255.0;
        let ch = |top: u8, bottom: u8| {
            (f32::from(top) * a + f32::from(bottom) * (1.0 - a))
                .round()
                .clamp(0.0, 255.0) as u8
        };
        Rgba::rgb(
            ch(self.r, under.r),
            ch(self.g, under.g),
            ch(self.b, under.b),
        )
    }

    /// Relative luminance in `0.0..=1.0` (sRGB weights, no gamma: enough to pick a contrast).
    pub fn luminance(self) -> f32 {
        (0.2126 * f32::from(self.r) + 0.7152 * f32::from(self.g) + 0.0722 * f32::from(self.b))
            / 255.0
    }

    /// Mix `self` toward `other` by `t` (0 = self, 1 = other), alpha included.
    pub fn mix(self, other: Rgba, t: f32) -> Rgba {
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let m = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * t).round() as u8;
        Rgba {
            r: m(self.r, other.r),
            g: m(self.g, other.g),
            b: m(self.b, other.b),
            a: m(self.a, other.a),
        }
    }

    /// An outline colour that stands out against `self` used as a piece's fill: near-black on
    /// light colours (Silver, Yellow), near-white on dark ones.
    pub fn contrasting_outline(self) -> Rgba {
        if self.luminance() > 0.45 {
            Rgba::rgb(28, 28, 34)
        } else {
            Rgba::rgb(245, 245, 240)
        }
    }
}

/// The casing under every move mark (arrows, cell outlines, dots and rings): an opaque
/// near-black edge showing [`mark_casing_px`] outside the mark's colour, so that a mark of any
/// seat (Yellow's on the pale cells too) keeps WCAG's 3:1 non-text contrast against every cell
/// it crosses (the test `view::palette_tests` of the bot's crate measures it).
pub const MARK_CASING: Rgba = Rgba::rgb(28, 28, 34);

/// How far a mark's casing shows outside its colour, for hex radius `r` pixels: 2.25 to 4 px,
/// at least half a point on a phone showing a 1600-px picture 390 points wide, and never a
/// heavy frame round a big close-up's marks.
pub fn mark_casing_px(r: f32) -> f32 {
    (0.06 * r).clamp(2.25, 4.0)
}

/// An integer hex position in axial coordinates (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Hex {
    pub q: i32,
    pub r: i32,
}

impl Hex {
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }
}

impl From<(i32, i32)> for Hex {
    fn from((q, r): (i32, i32)) -> Hex {
        Hex { q, r }
    }
}

/// A fractional position in the same axial coordinates, for labels that sit between or beyond
/// cells (half a cell outside the rim, say).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct HexPoint {
    pub q: f32,
    pub r: f32,
}

impl HexPoint {
    pub const fn new(q: f32, r: f32) -> HexPoint {
        HexPoint { q, r }
    }
}

impl From<Hex> for HexPoint {
    fn from(h: Hex) -> HexPoint {
        HexPoint {
            q: h.q as f32,
            r: h.r as f32,
        }
    }
}

/// Which way the hexes point. HexiMeros is flat-topped (its files run up and down);
/// a board whose rows run left to right is pointy-topped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Orientation {
    #[default]
    FlatTop,
    PointyTop,
}

/// Everything on one picture.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    pub orientation: Orientation,
    /// Sixths of a turn clockwise, applied to every position (tiles, arrows, labels) about
    /// `(0, 0)`. Any value is accepted; it is taken modulo 6.
    pub rotation: u8,
    /// Header lines above the board; the first is drawn larger (the game's name, say), the rest
    /// as normal text (turn, Token holder).
    pub header: Vec<HeaderLine>,
    pub tiles: Vec<Tile>,
    /// Drawn above the pieces, in the order given.
    pub arrows: Vec<Arrow>,
    pub labels: Vec<Label>,
    /// Drawn last, over the pieces and arrows: what must never hide under a piece.
    pub tags: Vec<Tag>,
    /// Shown under the board, left to right then top to bottom, up to three per row.
    pub trays: Vec<Tray>,
}

/// One header line, with an optional colour swatch before the text (the Token holder's colour)
/// and a letter on it (the colour's initial, a cue besides colour).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct HeaderLine {
    pub text: String,
    pub swatch: Option<Rgba>,
    pub mark: Option<char>,
    /// The swatch drawn in this shape (the seat's [`Plate`], so the header teaches it) rather
    /// than as a disc.
    pub plate: Option<Plate>,
}

impl HeaderLine {
    pub fn new(text: impl Into<String>) -> HeaderLine {
        HeaderLine {
            text: text.into(),
            ..HeaderLine::default()
        }
    }

    pub fn with_swatch(text: impl Into<String>, swatch: Rgba) -> HeaderLine {
        HeaderLine {
            text: text.into(),
            swatch: Some(swatch),
            ..HeaderLine::default()
        }
    }

    /// The line with `mark` drawn on its swatch.
    pub fn with_mark(mut self, mark: Option<char>) -> HeaderLine {
        self.mark = mark;
        self
    }

    /// The line with its swatch drawn as `plate`.
    pub fn with_plate(mut self, plate: Option<Plate>) -> HeaderLine {
        self.plate = plate;
        self
    }
}

/// A seat's shape: the plate a piece stands on and its owner's swatch, a cue besides colour
/// that stays large enough to read on the full board on a phone (where the mark's letter is a
/// few points high). Six shapes told apart by their outline alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Plate {
    Circle,
    /// Upright, its sides level.
    Square,
    /// A square on its corner.
    Diamond,
    /// Point up.
    TriangleUp,
    /// Point down.
    TriangleDown,
    /// A five-pointed star.
    Star,
}

impl Plate {
    pub const ALL: [Plate; 6] = [
        Plate::Circle,
        Plate::Square,
        Plate::Diamond,
        Plate::TriangleUp,
        Plate::TriangleDown,
        Plate::Star,
    ];
}

/// One cell of the board. A hex listed twice is drawn twice (the later on top).
#[derive(Clone, Debug, PartialEq)]
pub struct Tile {
    pub hex: Hex,
    pub fill: Rgba,
    pub glyph: Option<Glyph>,
    /// Drawn in the order given: tints and outlines under the glyph, the rest as documented on
    /// [`Marker`].
    pub markers: Vec<Marker>,
}

impl Tile {
    pub fn new(hex: impl Into<Hex>, fill: Rgba) -> Tile {
        Tile {
            hex: hex.into(),
            fill,
            glyph: None,
            markers: Vec::new(),
        }
    }

    pub fn with_glyph(mut self, glyph: Glyph) -> Tile {
        self.glyph = Some(glyph);
        self
    }

    pub fn with_marker(mut self, marker: Marker) -> Tile {
        self.markers.push(marker);
        self
    }
}

/// Something drawn on a tile besides its fill and glyph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Marker {
    /// A translucent wash over the whole cell (last-move squares). Under the glyph.
    Tint(Rgba),
    /// A thick hex outline just inside the cell edge (a highlighted move, one colour per player).
    /// Several outlines on one tile nest inward. Under the glyph.
    Outline(Rgba),
    /// A red glow and a ring on a black halo around the glyph, and a red "+" badge at its upper
    /// right over it: the piece on this cell is in check.
    Check,
    /// A small dot in the middle (a legal destination). Over the glyph.
    Dot(Rgba),
    /// A circle around the middle (a capture destination, a board feature). Over the glyph.
    Ring(Rgba),
}

/// A piece (or any emblem) standing on a tile or in a tray.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Glyph {
    pub shape: Shape,
    pub fill: Rgba,
    /// The piece's edge and inner lines; choose it to contrast with `fill`
    /// ([`Glyph::new`] does, via [`Rgba::contrasting_outline`]).
    pub outline: Rgba,
    pub state: GlyphState,
    pub badges: Badges,
}

impl Glyph {
    /// A glyph whose outline contrasts with its fill.
    pub fn new(shape: Shape, fill: Rgba) -> Glyph {
        Glyph {
            shape,
            fill,
            outline: fill.contrasting_outline(),
            state: GlyphState::Normal,
            badges: Badges::default(),
        }
    }

    pub fn with_outline(mut self, outline: Rgba) -> Glyph {
        self.outline = outline;
        self
    }

    pub fn with_state(mut self, state: GlyphState) -> Glyph {
        self.state = state;
        self
    }

    pub fn with_badges(mut self, badges: Badges) -> Glyph {
        self.badges = badges;
        self
    }
}

/// How a glyph is drawn apart from its colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GlyphState {
    #[default]
    Normal,
    /// Greyed out: the piece of an eliminated player, still on the board.
    Frozen,
    /// Half transparent: a staged move's preview (where the piece would go).
    Ghost,
}

/// Small marks on a glyph's corners.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Badges {
    /// A small top hat at the upper right (a hatted piece of any shape).
    pub hat: bool,
    /// A gold star at the upper left (a bonus, e.g. HexiMeros' Ground Zero doubling).
    pub star: bool,
    /// A number at the lower right (a stack height, a count in a tray); `None` or 0..=1 shows none.
    pub count: Option<u16>,
    /// A letter on a disc of the piece's colour at the lower left: its owner's initial, a cue
    /// besides colour for colour-blind eyes.
    pub mark: Option<char>,
    /// The owner's shape, drawn under the piece in the outline colour.
    pub plate: Option<Plate>,
}

/// The built-in piece silhouettes, drawn as vector paths (the chess set uses DejaVu Sans' chess
/// figures), plus any character of the font.
///
/// Names describe the look, not a game's piece: the view maps, say, a HexiMeros Sovereign to
/// [`Shape::Crown`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A wide three-pointed crown with a band.
    Crown,
    /// A tall five-pointed crown with orbs on the points (queen-like).
    Diadem,
    /// An upright dagger.
    Dagger,
    /// A drawn bow with its string and an arrow.
    Bow,
    /// A bishop's mitre with a cross.
    Mitre,
    /// A battlemented tower.
    Tower,
    /// A horse's head.
    Horse,
    /// A sailing warship's hull with a mast and sail.
    Ship,
    /// A simple pawn.
    Pawn,
    /// The pawn wearing a top hat.
    HattedPawn,
    /// A draughts man: a disc with a rim.
    Disc,
    /// A draughts king: a disc with a crown on it.
    KingDisc,
    /// An open ring.
    Ring,
    /// A smooth go-like stone with a highlight.
    Stone,
    ChessKing,
    ChessQueen,
    ChessRook,
    ChessBishop,
    ChessKnight,
    ChessPawn,
    /// A character from the font, drawn bold in the fill colour with an outline.
    Letter(char),
}

impl Shape {
    /// Every built-in shape except [`Shape::Letter`].
    pub const ALL: [Shape; 20] = [
        Shape::Crown,
        Shape::Diadem,
        Shape::Dagger,
        Shape::Bow,
        Shape::Mitre,
        Shape::Tower,
        Shape::Horse,
        Shape::Ship,
        Shape::Pawn,
        Shape::HattedPawn,
        Shape::Disc,
        Shape::KingDisc,
        Shape::Ring,
        Shape::Stone,
        Shape::ChessKing,
        Shape::ChessQueen,
        Shape::ChessRook,
        Shape::ChessBishop,
        Shape::ChessKnight,
        Shape::ChessPawn,
    ];
}

/// An arrow from one cell's centre toward another's (a move, a shot).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrow {
    pub from: Hex,
    pub to: Hex,
    /// Use some transparency (alpha ~200) so the pieces under the shaft stay visible.
    pub colour: Rgba,
    /// Dashed, for a staged move that is not yet played.
    pub dashed: bool,
    /// Its place in move order (1, 2, …), drawn as a numbered badge in the arrow's colour at
    /// its start; `None`: no badge.
    pub number: Option<u16>,
}

/// Text at a position in hex coordinates, centred there and kept upright under rotation.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub at: HexPoint,
    pub text: String,
    /// Height of a capital letter, in hex radii (0.5 is about right for rim coordinates). The
    /// pixel size is capped by [`crate::Theme::label_px_max`] so a small board does not shout.
    pub size: f32,
    pub colour: Rgba,
}

/// Text on a filled pill (a disc for one or two characters) at a position in hex coordinates,
/// drawn over the pieces: a target's number in the move picker, a cell's name over a piece.
#[derive(Clone, Debug, PartialEq)]
pub struct Tag {
    pub at: HexPoint,
    pub text: String,
    /// Capital height in hex radii, at most [`crate::Theme::label_px_max`] pixels.
    pub size: f32,
    /// Held at least at [`crate::Theme::tag_px_min`] pixels however small the cells (a
    /// target's number), or free to shrink with its cell (a cell's name).
    pub floor: bool,
    pub fill: Rgba,
    pub ink: Rgba,
}

/// A caption and a row (or rows) of small glyphs: the pieces one player has captured.
#[derive(Clone, Debug, PartialEq)]
pub struct Tray {
    pub caption: String,
    /// Drawn as a swatch before the caption (the capturing player's colour).
    pub swatch: Option<Rgba>,
    /// A letter on the swatch (the colour's initial).
    pub mark: Option<char>,
    /// The swatch drawn in this shape.
    pub plate: Option<Plate>,
    pub items: Vec<Glyph>,
}
