//! [`Theme`]: picture size, page colours and type sizes; everything about a picture that is not
//! in the [`crate::Scene`].

use crate::RenderError;
use crate::scene::Rgba;

/// Smallest and largest accepted long side, in pixels. Below 64 nothing is legible; above 8192
/// one RGBA frame passes 256 MiB, which a bot should never be asked to allocate.
pub const MIN_SIZE: u32 = 64;
pub const MAX_SIZE: u32 = 8192;

/// Page settings. Sizes are in pixels; [`Theme::new`] scales them all from the long side.
#[derive(Clone, Debug, PartialEq)]
pub struct Theme {
    /// The picture's long side.
    pub size: u32,
    pub background: Rgba,
    /// Header and tray captions.
    pub text: Rgba,
    /// Lines between cells.
    pub grid: Rgba,
    /// The board's outer edge.
    pub rim: Rgba,
    /// Space around the page's content.
    pub margin: f32,
    /// Capital height of the header's first line.
    pub title_px: f32,
    /// Capital height of the other header lines and of tray captions.
    pub text_px: f32,
    /// Upper bound on a rim label's capital height (labels are sized in hex radii).
    pub label_px_max: f32,
    /// Lower bound on a tag's capital height: a target number stays readable in a crowded crop.
    pub tag_px_min: f32,
    /// Lower bound on a Check badge's diameter: 7 points on a phone showing the picture 390
    /// points wide, the full board's badge too.
    pub badge_px_min: f32,
    /// A light band round every mark's near-black casing (`scene::MARK_CASING`), as wide again,
    /// for a board whose cells are dark and light (HexaEquo's black and white tiles): on the
    /// light cells the casing shows, on the dark ones the band. `None`: the casing alone.
    pub mark_halo: Option<Rgba>,
    /// Box size of a piece in a tray.
    pub tray_px: f32,
    /// Box size of a piece on the board, in hex radii (the inner circle of a hex is √3 ≈ 1.73
    /// across).
    pub glyph_scale: f32,
    /// Width of the lines between cells, in hex radii (never thinner than one pixel).
    pub grid_width: f32,
}

impl Theme {
    /// The default look at `size` pixels on the long side. Out-of-range sizes are reported when
    /// rendering, not here, so a theme can be built and adjusted freely.
    pub fn new(size: u32) -> Theme {
        let s = size as f32;
        Theme {
            size,
            background: Rgba::rgb(38, 41, 46),
            text: Rgba::rgb(236, 236, 230),
            grid: Rgba::rgb(70, 64, 56),
            rim: Rgba::rgb(20, 20, 22),
            margin: (s * 0.018).max(4.0),
            title_px: (s * 0.017).max(7.0),
            text_px: (s * 0.0125).max(6.0),
            label_px_max: (s * 0.0135).max(6.0),
            // 18 px at the move picker's 720: digits a phone shows at about 9 dp.
            tag_px_min: (s * 0.025).max(6.0),
            badge_px_min: (s * 7.0 / 390.0).max(8.0),
            mark_halo: None,
            tray_px: (s * 0.032).max(12.0),
            glyph_scale: 1.62,
            grid_width: 0.045,
        }
    }

    /// A smaller page for animation frames: GIF pixels are expensive, a replay is watched, not
    /// studied.
    pub fn replay() -> Theme {
        Theme::new(960)
    }

    pub(crate) fn validate(&self) -> Result<(), RenderError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&self.size) {
            return Err(RenderError::BadSize {
                size: self.size,
                min: MIN_SIZE,
                max: MAX_SIZE,
            });
        }
        let lengths = [
            ("margin", self.margin),
            ("title_px", self.title_px),
            ("text_px", self.text_px),
            ("label_px_max", self.label_px_max),
            ("tray_px", self.tray_px),
            ("glyph_scale", self.glyph_scale),
            ("grid_width", self.grid_width),
        ];
        let limit = self.size as f32;
        for (name, v) in lengths {
            if !(v.is_finite() && (0.0..=limit).contains(&v)) {
                return Err(RenderError::BadTheme(name));
            }
        }
        Ok(())
    }
}

impl Default for Theme {
    fn default() -> Theme {
        Theme::new(1600)
    }
}
