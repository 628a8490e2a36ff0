//! Pixels to files: PNG through the `image` crate's encoder, and the replay GIF with one shared
//! palette and frame differences.
//!
//! A replay's frames differ by a moved piece, an arrow and a header line, so each frame after the
//! first stores only the rectangle that changed, with unchanged pixels in it transparent (long
//! transparent runs cost LZW almost nothing). That is what keeps 300 frames of a 649-cell board
//! to a few MiB.

use std::borrow::Cow;

use image::ImageEncoder;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use tiny_skia::Pixmap;

use crate::RenderError;

/// A PNG larger than this is encoded again with stronger compression: a board picture is
/// fetched on phones, and a busy 1600 px board can pass it at the fast level.
const PNG_BUDGET: usize = 1 << 20;

/// Encodes an opaque pixmap as an 8-bit RGB PNG (the page has no transparency, and dropping the
/// alpha channel saves a quarter of the bytes to compress).
pub(crate) fn png(pm: &Pixmap) -> Result<Vec<u8>, RenderError> {
    let rgb = to_rgb(pm);
    // Fast deflate with the Sub filter: flat board colours compress well even at the fast
    // level. Measured on a 1600 px HexDame board: Sub 3.4 ms, Up 3.2 ms (+2 % bytes), Paeth
    // 5.0 ms (−4 % bytes), adaptive 7.0 ms (−10 %); level 1 halves the bytes at 2.5 times the
    // time.
    let out = encode_png(&rgb, pm, CompressionType::Fast)?;
    if out.len() <= PNG_BUDGET {
        return Ok(out);
    }
    encode_png(&rgb, pm, CompressionType::Level(1))
}

fn encode_png(rgb: &[u8], pm: &Pixmap, level: CompressionType) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::with_capacity(rgb.len() / 8);
    PngEncoder::new_with_quality(&mut out, level, FilterType::Sub)
        .write_image(rgb, pm.width(), pm.height(), image::ExtendedColorType::Rgb8)
        .map_err(|e| RenderError::Png(e.to_string()))?;
    Ok(out)
}

/// RGB bytes of a pixmap drawn over an opaque background (premultiplied equals straight there).
fn to_rgb(pm: &Pixmap) -> Vec<u8> {
    let data = pm.data();
    let mut rgb = vec![0; data.len() / 4 * 3];
    for (d, s) in rgb.chunks_exact_mut(3).zip(data.chunks_exact(4)) {
        if let ([r, g, b], [sr, sg, sb, _]) = (d, s) {
            (*r, *g, *b) = (*sr, *sg, *sb);
        }
    }
    rgb
}

/// Straight-alpha RGBA bytes of a page. A page is opaque (see `draw::paint_scene`), and opaque
/// premultiplied pixels are already straight.
pub(crate) fn to_rgba(pm: Pixmap) -> Vec<u8> {
    pm.take()
}

/// The palette index left for "unchanged since the previous frame".
const TRANSPARENT: u8 = 255;

/// Colour → palette index, filled on demand: 6 bits per channel index a table, and each slot is
/// resolved by a nearest-colour search the first time a pixel lands in it.
struct Mapper {
    palette: Vec<[u8; 3]>,
    table: Vec<u8>,
    known: Vec<bool>,
}

impl Mapper {
    fn new(palette: Vec<[u8; 3]>) -> Mapper {
        Mapper {
            palette,
            table: vec![0; 1 << 18],
            known: vec![false; 1 << 18],
        }
    }

    fn index(&mut self, r: u8, g: u8, b: u8) -> u8 {
        let slot = (usize::from(r >> 2) << 12) | (usize::from(g >> 2) << 6) | usize::from(b >> 2);
        if !self.known[slot] {
            let mut best = (u32::MAX, 0usize);
            for (i, c) in self.palette.iter().enumerate() {
                let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).unsigned_abs();
                // Weighted like the eye: green errors show most, blue least.
                let dist = 3 * d(c[0], r).pow(2) + 4 * d(c[1], g).pow(2) + 2 * d(c[2], b).pow(2);
                if dist < best.0 {
                    best = (dist, i);
                }
            }
            self.table[slot] = best.1 as u8;
            self.known[slot] = true;
        }
        self.table[slot]
    }
}

/// Builds a 255-colour palette from sample frames (NeuQuant), leaving index 255 transparent.
pub(crate) fn palette(samples: &[Pixmap]) -> Vec<[u8; 3]> {
    let mut rgba = Vec::new();
    for pm in samples {
        // Every other pixel is plenty for the quantiser and halves its work.
        for p in pm.pixels().iter().step_by(2) {
            rgba.extend_from_slice(&[p.red(), p.green(), p.blue(), 255]);
        }
    }
    if rgba.is_empty() {
        rgba.extend_from_slice(&[0, 0, 0, 255]);
    }
    let nq = color_quant::NeuQuant::new(10, 255, &rgba);
    nq.color_map_rgb()
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect()
}

/// Writes frames as they come; each must have the size given to [`Gif::new`].
pub(crate) struct Gif {
    encoder: gif::Encoder<Vec<u8>>,
    mapper: Mapper,
    previous: Option<Pixmap>,
    width: u16,
    height: u16,
    indices: Vec<u8>,
}

fn gif_err(e: gif::EncodingError) -> RenderError {
    RenderError::Gif(e.to_string())
}

impl Gif {
    pub(crate) fn new(width: u32, height: u32, palette: Vec<[u8; 3]>) -> Result<Gif, RenderError> {
        let w = u16::try_from(width).map_err(|_| RenderError::Gif("frame too wide".into()))?;
        let h = u16::try_from(height).map_err(|_| RenderError::Gif("frame too tall".into()))?;
        let mut flat: Vec<u8> = palette.iter().flatten().copied().collect();
        flat.resize(256 * 3, 0);
        let mut encoder = gif::Encoder::new(Vec::new(), w, h, &flat).map_err(gif_err)?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(gif_err)?;
        Ok(Gif {
            encoder,
            mapper: Mapper::new(palette),
            previous: None,
            width: w,
            height: h,
            indices: Vec::new(),
        })
    }

    /// Adds a frame shown for `delay_cs` hundredths of a second.
    pub(crate) fn push(&mut self, pm: Pixmap, delay_cs: u16) -> Result<(), RenderError> {
        if pm.width() != u32::from(self.width) || pm.height() != u32::from(self.height) {
            return Err(RenderError::Gif("frame size changed".into()));
        }
        let w = usize::from(self.width);
        let px = pm.pixels();
        // The rectangle that differs from the previous frame (all of it for the first frame).
        let rect = match &self.previous {
            None => Some((0, 0, w, usize::from(self.height))),
            Some(prev) => changed_rect(prev.pixels(), px, w),
        };
        let (x0, y0, x1, y1) = rect.unwrap_or((0, 0, 1, 1));
        self.indices.clear();
        for y in y0..y1 {
            for x in x0..x1 {
                let i = y * w + x;
                let p = px[i];
                let same = match (&self.previous, rect) {
                    (_, None) => true,
                    (Some(prev), _) => prev.pixels()[i] == p,
                    (None, _) => false,
                };
                self.indices.push(if same {
                    TRANSPARENT
                } else {
                    self.mapper.index(p.red(), p.green(), p.blue())
                });
            }
        }
        let frame = gif::Frame {
            left: x0 as u16,
            top: y0 as u16,
            width: (x1 - x0) as u16,
            height: (y1 - y0) as u16,
            buffer: Cow::Borrowed(&self.indices),
            transparent: self.previous.as_ref().map(|_| TRANSPARENT),
            delay: delay_cs,
            dispose: gif::DisposalMethod::Keep,
            ..gif::Frame::default()
        };
        self.encoder.write_frame(&frame).map_err(gif_err)?;
        self.previous = Some(pm);
        Ok(())
    }

    pub(crate) fn finish(self) -> Result<Vec<u8>, RenderError> {
        self.encoder
            .into_inner()
            .map_err(|e| RenderError::Gif(e.to_string()))
    }
}

/// Bounding box `(x0, y0, x1, y1)` (exclusive ends) of the pixels that differ, if any do.
fn changed_rect<T: PartialEq>(a: &[T], b: &[T], w: usize) -> Option<(usize, usize, usize, usize)> {
    if w == 0 {
        return None;
    }
    let mut rect: Option<(usize, usize, usize, usize)> = None;
    for (y, (ra, rb)) in a.chunks_exact(w).zip(b.chunks_exact(w)).enumerate() {
        if ra == rb {
            continue;
        }
        let first = ra.iter().zip(rb).position(|(p, q)| p != q).unwrap_or(0);
        let last = ra
            .iter()
            .zip(rb)
            .rposition(|(p, q)| p != q)
            .unwrap_or(w - 1);
        rect = Some(match rect {
            None => (first, y, last + 1, y + 1),
            Some((x0, y0, x1, _)) => (x0.min(first), y0, x1.max(last + 1), y + 1),
        });
    }
    rect
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_rect_bounds_the_differences() {
        let a = vec![0u8; 20];
        let mut b = a.clone();
        assert_eq!(changed_rect(&a, &b, 5), None);
        b[5 + 1] = 1; // (1, 1)
        b[3 * 5 + 3] = 1; // (3, 3)
        assert_eq!(changed_rect(&a, &b, 5), Some((1, 1, 4, 4)));
    }

    #[test]
    fn mapper_finds_exact_palette_colours() {
        let mut m = Mapper::new(vec![[0, 0, 0], [250, 10, 10], [12, 200, 40]]);
        assert_eq!(m.index(250, 10, 10), 1);
        assert_eq!(m.index(12, 200, 40), 2);
        assert_eq!(m.index(3, 2, 1), 0);
    }
}
