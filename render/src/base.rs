//! The board's unchanging layer, kept between pictures.
//!
//! From one turn to the next a board's background, cells, grid, rim and rim labels stay the same;
//! only pieces, highlights, the header and the trays change. The layer under them is painted
//! once per look (page geometry, theme, rotation, cell colours, labels) and copied for each
//! picture, which costs one memory copy instead of hundreds of tile blits and a rim stroke.

use std::sync::{Arc, Mutex, PoisonError};

use tiny_skia::Pixmap;

use crate::layout::Page;
use crate::scene::{Hex, Orientation, Rgba, Scene};
use crate::theme::Theme;

/// Layers kept. A 1600 px layer is about 9 MB; a host shows a handful of games' looks at a time
/// (a kind, a size and a rotation each), and a miss only costs the slower paint.
const KEPT: usize = 8;

/// Everything the layer's pixels depend on, compared in full (no hash collisions possible).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BaseKey {
    size: (u32, u32),
    /// Page scale and origin, theme colours and widths, as bits (f32 has no `Eq`).
    geometry: Vec<u32>,
    orientation: Orientation,
    rotation: u8,
    tiles: Vec<(Hex, Rgba)>,
    labels: Vec<(u32, u32, u32, Rgba, String)>,
}

impl BaseKey {
    pub(crate) fn new(scene: &Scene, theme: &Theme, page: &Page) -> BaseKey {
        let geometry = [
            page.sx,
            page.sy,
            page.origin.0,
            page.origin.1,
            theme.grid_width,
            theme.label_px_max,
        ]
        .iter()
        .map(|f| f.to_bits())
        .chain(
            [theme.background, theme.grid, theme.rim]
                .iter()
                .map(|c| u32::from_be_bytes([c.r, c.g, c.b, c.a])),
        )
        .collect();
        BaseKey {
            size: (page.width, page.height),
            geometry,
            orientation: scene.orientation,
            rotation: scene.rotation,
            tiles: scene.tiles.iter().map(|t| (t.hex, t.fill)).collect(),
            labels: scene
                .labels
                .iter()
                .map(|l| {
                    (
                        l.at.q.to_bits(),
                        l.at.r.to_bits(),
                        l.size.to_bits(),
                        l.colour,
                        l.text.clone(),
                    )
                })
                .collect(),
        }
    }
}

/// The most recently used layers, newest last.
#[derive(Default)]
pub(crate) struct Bases {
    kept: Mutex<Vec<(BaseKey, Arc<Pixmap>)>>,
}

impl Bases {
    /// The layer for `key`, painted by `paint` if it is not kept.
    pub(crate) fn get_or_paint<E>(
        &self,
        key: BaseKey,
        paint: impl FnOnce() -> Result<Pixmap, E>,
    ) -> Result<Arc<Pixmap>, E> {
        {
            let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(i) = kept.iter().position(|(k, _)| *k == key) {
                let hit = kept.remove(i);
                let layer = Arc::clone(&hit.1);
                kept.push(hit);
                return Ok(layer);
            }
        }
        // Painted outside the lock: two threads may paint the same layer once each, which is
        // cheaper than making every other picture wait.
        let layer = Arc::new(paint()?);
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if !kept.iter().any(|(k, _)| *k == key) {
            if kept.len() >= KEPT {
                kept.remove(0);
            }
            kept.push((key, Arc::clone(&layer)));
        }
        Ok(layer)
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::Marker;
    use crate::{Renderer, Theme, sample};

    /// A picture drawn over a kept layer is the picture a fresh renderer draws, and a scene whose
    /// cells differ gets a layer of its own.
    #[test]
    fn a_kept_layer_changes_nothing_and_is_not_reused_for_other_cells() {
        let theme = Theme::new(600);
        let warm = Renderer::new().expect("renderer");
        let a = sample::small_board();
        let mut b = a.clone();
        // Same cells, different pieces and highlights: the layer is reused.
        b.tiles[3].glyph = None;
        b.tiles[5].markers.push(Marker::Check);
        let mut c = a.clone();
        // A cell of another colour: another layer.
        c.tiles[0].fill = crate::Rgba::rgb(200, 30, 30);

        for scene in [&a, &b, &c, &a] {
            let fresh = Renderer::new().expect("renderer");
            assert_eq!(
                warm.render_rgba(scene, &theme).expect("warm"),
                fresh.render_rgba(scene, &theme).expect("fresh"),
            );
        }
        assert_eq!(warm.bases.len(), 2);
        let other = Theme::new(500);
        warm.render_rgba(&a, &other).expect("other size");
        assert_eq!(warm.bases.len(), 3);
    }

    #[test]
    fn old_layers_are_dropped() {
        let warm = Renderer::new().expect("renderer");
        let a = sample::small_board();
        for size in 0..super::KEPT as u32 + 3 {
            warm.render_rgba(&a, &Theme::new(300 + 10 * size))
                .expect("render");
        }
        assert_eq!(warm.bases.len(), super::KEPT);
    }
}
