//! Text from the embedded DejaVu Sans fonts: glyph outlines become `tiny-skia` paths once, then
//! labels, headers, captions and letter pieces are laid out from those cached paths.
//!
//! The fonts come from the `dejavu` crate (Bitstream Vera / DejaVu licence, see the crate's
//! README), so no picture depends on the fonts installed on the machine.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use ab_glyph::{Font as _, FontRef, GlyphId, OutlineCurve};
use tiny_skia::{Path, PathBuilder, Transform};

use crate::RenderError;

/// DejaVu Sans capital height in em (1493 / 2048 font units): labels are sized by their capitals,
/// which is what a reader sees as "the size" of `Q26`.
pub(crate) const CAP_HEIGHT_EM: f32 = 0.729;

/// Glyph outlines by face and glyph; `None` for glyphs without one (a space).
type OutlineCache = HashMap<(Face, GlyphId), Option<Arc<Path>>>;

/// Which of the two embedded faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Face {
    Regular,
    Bold,
}

/// The two faces and every glyph outline built so far, in em units with y pointing down and the
/// origin on the baseline at the pen position.
pub(crate) struct Fonts {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
    // Shared by all renders; a glyph is converted once per face for the life of the renderer.
    outlines: Mutex<OutlineCache>,
}

/// Text laid out on one line: a path in pixels with its origin on the baseline at the left end.
pub(crate) struct Line {
    pub path: Option<Path>,
    pub width: f32,
}

impl Fonts {
    pub(crate) fn new() -> Result<Fonts, RenderError> {
        let load = |bytes: &'static [u8]| {
            FontRef::try_from_slice(bytes).map_err(|_| RenderError::Font("DejaVu Sans"))
        };
        Ok(Fonts {
            regular: load(dejavu::sans::regular())?,
            bold: load(dejavu::sans::bold())?,
            outlines: Mutex::new(HashMap::new()),
        })
    }

    pub(crate) fn font_ref(&self, face: Face) -> &FontRef<'static> {
        match face {
            Face::Regular => &self.regular,
            Face::Bold => &self.bold,
        }
    }

    fn units(&self, face: Face) -> f32 {
        self.font_ref(face)
            .units_per_em()
            .unwrap_or(2048.0)
            .max(1.0)
    }

    /// The outline of `id` in em units (y down), built on first use.
    pub(crate) fn glyph_path(&self, face: Face, id: GlyphId) -> Option<Arc<Path>> {
        // A poisoned lock only means another render panicked mid-insert; the map is still valid.
        let mut cache = self.outlines.lock().unwrap_or_else(PoisonError::into_inner);
        cache
            .entry((face, id))
            .or_insert_with(|| {
                let font = self.font_ref(face);
                let outline = font.outline(id)?;
                outline_to_path(&outline.curves, 1.0 / self.units(face)).map(Arc::new)
            })
            .clone()
    }

    /// Width of `text` in em units, kerning included.
    pub(crate) fn measure_em(&self, face: Face, text: &str) -> f32 {
        let font = self.font_ref(face);
        let units = self.units(face);
        let mut width = 0.0;
        let mut prev: Option<GlyphId> = None;
        for c in text.chars() {
            let id = font.glyph_id(c);
            if let Some(p) = prev {
                width += font.kern_unscaled(p, id);
            }
            width += font.h_advance_unscaled(id);
            prev = Some(id);
        }
        width / units
    }

    /// Lays `text` out at `em_px` pixels per em.
    pub(crate) fn line(&self, face: Face, text: &str, em_px: f32) -> Line {
        let font = self.font_ref(face);
        let units = self.units(face);
        let mut builder = PathBuilder::new();
        let mut pen = 0.0f32;
        let mut prev: Option<GlyphId> = None;
        for c in text.chars() {
            let id = font.glyph_id(c);
            if let Some(p) = prev {
                pen += font.kern_unscaled(p, id) / units;
            }
            if let Some(glyph) = self.glyph_path(face, id) {
                let ts = Transform::from_row(em_px, 0.0, 0.0, em_px, pen * em_px, 0.0);
                if let Some(placed) = (*glyph).clone().transform(ts) {
                    builder.push_path(&placed);
                }
            }
            pen += font.h_advance_unscaled(id) / units;
            prev = Some(id);
        }
        Line {
            path: builder.finish(),
            width: pen * em_px,
        }
    }
}

/// Converts a font outline (y up, font units) to a path in em units with y down.
pub(crate) fn outline_to_path(curves: &[OutlineCurve], scale: f32) -> Option<Path> {
    let mut b = PathBuilder::new();
    let mut last: Option<ab_glyph::Point> = None;
    let p = |pt: ab_glyph::Point| (pt.x * scale, -pt.y * scale);
    for curve in curves {
        let start = match curve {
            OutlineCurve::Line(a, _) | OutlineCurve::Quad(a, _, _) | OutlineCurve::Cubic(a, ..) => {
                *a
            }
        };
        // ab_glyph flattens contours into one list of curves; a new contour starts wherever a
        // curve does not begin at the previous curve's end.
        if last != Some(start) {
            if last.is_some() {
                b.close();
            }
            let (x, y) = p(start);
            b.move_to(x, y);
        }
        let end = match *curve {
            OutlineCurve::Line(_, e) => {
                let (x, y) = p(e);
                b.line_to(x, y);
                e
            }
            OutlineCurve::Quad(_, c, e) => {
                let ((cx, cy), (x, y)) = (p(c), p(e));
                b.quad_to(cx, cy, x, y);
                e
            }
            OutlineCurve::Cubic(_, c1, c2, e) => {
                let ((ax, ay), (bx, by), (x, y)) = (p(c1), p(c2), p(e));
                b.cubic_to(ax, ay, bx, by, x, y);
                e
            }
        };
        last = Some(end);
    }
    if last.is_some() {
        b.close();
    }
    b.finish()
}
