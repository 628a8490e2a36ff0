//! `hexmeros-render`: board pictures for the hexmeros bot. It draws a plain-data [`Scene`] (hex
//! tiles, pieces, markers, arrows, labels, trays and a header) and knows no game: the bot's
//! `view` module turns a position into a scene.
//!
//! Drawing uses `tiny-skia` (anti-aliased paths), text and chess figures come from the embedded
//! DejaVu Sans fonts through `ab_glyph`, PNGs are written by the `image` crate and replays by the
//! `gif` crate. A [`Renderer`] keeps glyph outlines and piece sprites between pictures; the free
//! functions [`render_png`], [`render_rgba`] and [`replay_gif`] share one renderer per process.
//! [`render_svg`] writes the board alone (no header, no trays) as an SVG document for a web
//! page, in the PNG's pixel coordinates ([`board_layout`] gives them).
//!
//! ```
//! use hexmeros_render::{Glyph, Rgba, Scene, Shape, Theme, Tile, render_png};
//!
//! let mut scene = Scene::default();
//! for q in -1..=1 {
//!     scene.tiles.push(Tile::new((q, 0), Rgba::rgb(230, 220, 200)));
//! }
//! scene.tiles[1].glyph = Some(Glyph::new(Shape::Crown, Rgba::rgb(40, 90, 200)));
//! let png = render_png(&scene, &Theme::new(400))?;
//! assert!(png.starts_with(b"\x89PNG"));
//! # Ok::<(), hexmeros_render::RenderError>(())
//! ```

mod base;
mod draw;
mod encode;
pub mod layout;
pub mod sample;
pub mod scene;
mod shapes;
mod sprite;
pub mod svg;
mod text;
pub mod theme;

use std::sync::OnceLock;

use tiny_skia::Pixmap;

pub use layout::BoardLayout;
pub use scene::{
    Arrow, Badges, Glyph, GlyphState, HeaderLine, Hex, HexPoint, Label, MARK_CASING, Marker,
    Orientation, Plate, Rgba, Scene, Shape, Tag, Tile, Tray, mark_casing_px,
};
pub use theme::Theme;

/// Why a picture could not be made. Bad input is reported, never a panic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    #[error("picture size {size} px is outside {min}..={max} px")]
    BadSize { size: u32, min: u32, max: u32 },
    #[error("theme field `{0}` must be a finite length between 0 and the picture size")]
    BadTheme(&'static str),
    #[error("the embedded font {0} could not be read")]
    Font(&'static str),
    #[error("a replay needs at least one frame")]
    NoFrames,
    #[error("png encoding failed: {0}")]
    Png(String),
    #[error("gif encoding failed: {0}")]
    Gif(String),
}

/// A rendered picture: `width × height` pixels, 4 bytes each (straight RGBA, row by row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// Draws scenes, keeping the fonts, glyph outlines and piece sprites it builds for the next
/// picture. It is `Send + Sync`: share one (e.g. in an `Arc`) between threads.
pub struct Renderer {
    fonts: text::Fonts,
    sprites: sprite::Sprites,
    bases: base::Bases,
}

impl Renderer {
    pub fn new() -> Result<Renderer, RenderError> {
        Ok(Renderer {
            fonts: text::Fonts::new()?,
            sprites: sprite::Sprites::new(),
            bases: base::Bases::default(),
        })
    }

    fn page(&self, needs: &layout::Needs, theme: &Theme) -> Result<layout::Page, RenderError> {
        theme.validate()?;
        Ok(layout::Page::fit(needs, theme))
    }

    /// The page of a picture of `scene` alone (not a replay).
    fn page_of(&self, scene: &Scene, theme: &Theme) -> Result<layout::Page, RenderError> {
        self.page(&layout::Needs::of(scene, &self.fonts), theme)
    }

    fn paint(
        &self,
        scene: &Scene,
        theme: &Theme,
        page: &layout::Page,
    ) -> Result<Pixmap, RenderError> {
        let ctx = draw::Ctx {
            fonts: &self.fonts,
            sprites: &self.sprites,
            bases: &self.bases,
            theme,
            page,
        };
        draw::paint_scene(&ctx, scene)
    }

    fn pixmap(&self, scene: &Scene, theme: &Theme) -> Result<Pixmap, RenderError> {
        let page = self.page_of(scene, theme)?;
        self.paint(scene, theme, &page)
    }

    /// Pixels per hex radius when `scene` is drawn with `theme` (a cell's inner width is √3
    /// times this): for a caller that crops a board until its cells are big enough to read.
    pub fn hex_radius_px(&self, scene: &Scene, theme: &Theme) -> Result<f32, RenderError> {
        Ok(self.page_of(scene, theme)?.scale())
    }

    /// Where `scene`'s board lands on its PNG of `theme`: the hex radius and every tile's centre
    /// in the PNG's pixels. The PNG is painted from this very layout, and [`Renderer::render_svg`]
    /// writes in its coordinates.
    pub fn board_layout(&self, scene: &Scene, theme: &Theme) -> Result<BoardLayout, RenderError> {
        Ok(self.page_of(scene, theme)?.board(scene))
    }

    /// The board of `scene` (tiles, markers, pieces, arrows, labels and tags; not the header
    /// or the trays) as a standalone SVG document in the PNG's pixel coordinates, its `viewBox`
    /// cropped to the board; one `<g class="cell" data-q data-r data-x data-y>` per tile. See
    /// [`svg`] for its structure.
    pub fn render_svg(&self, scene: &Scene, theme: &Theme) -> Result<String, RenderError> {
        let board = self.board_layout(scene, theme)?;
        Ok(svg::write(
            &svg::Tools {
                fonts: &self.fonts,
                sprites: &self.sprites,
                theme,
                board: &board,
            },
            scene,
        ))
    }

    /// The picture as straight RGBA pixels. Its long side is `theme.size`; the other side
    /// follows the board's shape, the header and the trays.
    pub fn render_rgba(&self, scene: &Scene, theme: &Theme) -> Result<Picture, RenderError> {
        let pm = self.pixmap(scene, theme)?;
        Ok(Picture {
            width: pm.width(),
            height: pm.height(),
            rgba: encode::to_rgba(pm),
        })
    }

    /// The picture as a PNG file (8-bit RGB).
    pub fn render_png(&self, scene: &Scene, theme: &Theme) -> Result<Vec<u8>, RenderError> {
        encode::png(&self.pixmap(scene, theme)?)
    }

    /// An animated GIF, one frame per scene, looping. Every frame shares one layout (the union
    /// of all frames' boards, headers and trays), so nothing jumps. Each frame shows for
    /// `delay_ms` (rounded to GIF's 10 ms steps), the last for at least 2.5 s so the final
    /// position can be read. Use a small theme ([`Theme::replay`]): frames are palette images
    /// of at most 255 colours.
    pub fn replay_gif(
        &self,
        frames: &[Scene],
        theme: &Theme,
        delay_ms: u32,
    ) -> Result<Vec<u8>, RenderError> {
        let (first, last) = match (frames.first(), frames.last()) {
            (Some(f), Some(l)) => (f, l),
            _ => return Err(RenderError::NoFrames),
        };
        let needs = frames
            .iter()
            .map(|s| layout::Needs::of(s, &self.fonts))
            .reduce(layout::Needs::merge)
            .unwrap_or_default();
        let page = self.page(&needs, theme)?;
        // The palette is learnt from a few frames spread over the game, so colours that only
        // appear later (checks, late arrows) still get entries.
        let mut samples = vec![self.paint(first, theme, &page)?];
        for i in [frames.len() / 3, 2 * frames.len() / 3] {
            if let Some(s) = frames.get(i).filter(|_| i > 0) {
                samples.push(self.paint(s, theme, &page)?);
            }
        }
        if frames.len() > 1 {
            samples.push(self.paint(last, theme, &page)?);
        }
        let mut gif = encode::Gif::new(page.width, page.height, encode::palette(&samples))?;
        drop(samples);
        let cs = |ms: u32| u16::try_from(ms.div_ceil(10)).unwrap_or(u16::MAX).max(2);
        for (i, scene) in frames.iter().enumerate() {
            let delay = if i + 1 == frames.len() {
                cs(delay_ms.max(2500))
            } else {
                cs(delay_ms)
            };
            gif.push(self.paint(scene, theme, &page)?, delay)?;
        }
        gif.finish()
    }
}

/// The process-wide renderer behind the free functions.
fn shared() -> Result<&'static Renderer, RenderError> {
    static SHARED: OnceLock<Option<Renderer>> = OnceLock::new();
    SHARED
        .get_or_init(|| Renderer::new().ok())
        .as_ref()
        .ok_or(RenderError::Font("DejaVu Sans"))
}

/// How wide a [`Label`] of `text` at `size` (its cap height in hex radii) is drawn, in world
/// units (hex radius 1): for a caller that sets a label beside something (the bot's legend
/// puts a piece's name to the right of its tile) rather than centred on a point.
pub fn label_width(text: &str, size: f32) -> Result<f32, RenderError> {
    let fonts = &shared()?.fonts;
    let size = layout::label_size(size);
    Ok(fonts.measure_em(text::Face::Bold, text) * size / text::CAP_HEIGHT_EM)
}

/// [`Renderer::hex_radius_px`] on the shared renderer.
pub fn hex_radius_px(scene: &Scene, theme: &Theme) -> Result<f32, RenderError> {
    shared()?.hex_radius_px(scene, theme)
}

/// The least width (across or down, edge included) in pixels of a seat's plate under a piece
/// on a board whose hex radius is `radius_px` pixels: what a player sees of the owner's shape.
pub fn plate_px(plate: Plate, theme: &Theme, radius_px: f32) -> f32 {
    let (cx, cy, r) = sprite::PLATE_AT;
    let Some(path) = shapes::plate(plate, (cx, cy), r) else {
        return 0.0;
    };
    let b = path.bounds();
    let units = b.width().min(b.height()) + sprite::PLATE_EDGE_W;
    f32::from(draw::glyph_px(theme, radius_px)) * units / 100.0
}

/// [`Renderer::board_layout`] on the shared renderer.
pub fn board_layout(scene: &Scene, theme: &Theme) -> Result<BoardLayout, RenderError> {
    shared()?.board_layout(scene, theme)
}

/// [`Renderer::render_svg`] on the shared renderer.
pub fn render_svg(scene: &Scene, theme: &Theme) -> Result<String, RenderError> {
    shared()?.render_svg(scene, theme)
}

/// [`Renderer::render_png`] on the shared renderer.
pub fn render_png(scene: &Scene, theme: &Theme) -> Result<Vec<u8>, RenderError> {
    shared()?.render_png(scene, theme)
}

/// [`Renderer::render_rgba`] on the shared renderer.
pub fn render_rgba(scene: &Scene, theme: &Theme) -> Result<Picture, RenderError> {
    shared()?.render_rgba(scene, theme)
}

/// [`Renderer::replay_gif`] on the shared renderer.
pub fn replay_gif(frames: &[Scene], theme: &Theme, delay_ms: u32) -> Result<Vec<u8>, RenderError> {
    shared()?.replay_gif(frames, theme, delay_ms)
}
