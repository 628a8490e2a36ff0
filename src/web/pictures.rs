//! The board's pictures (issue 60): each drawn once per game version and viewer's side, through
//! the process's one picture queue and each viewer's picture rate.
//!
//! * **A cache** of the drawn boards (at most [`CACHE_MOST`], the least recently used
//!   forgotten first), keyed by what the picture shows: the game, its version, the side it is
//!   drawn from and whether a staged move is on it (only its mover sees it); a replay step by
//!   the game, version, step and side. A hundred spectators asking for the same board cost one
//!   drawing, and those who ask while it is drawn wait for it rather than drawing it again.
//! * **The picture queue** ([`PictureQueue`]), the one Discord's pictures take their places
//!   from: a drawing takes a place within the web board's share (half the queue by default),
//!   so Discord's answers always find room; with none free the board answers 503 with a
//!   `Retry-After`, and nothing is spent.
//! * **A picture rate per viewer** ([`super::WebLimits::pictures`]), on the same buckets as the
//!   request limits ([`Asker`]): a player's link, or a spectator's link at its address. Only a
//!   drawing counts; a picture from the cache is free.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use axum::http::StatusCode;
use governor::Quota;
use lru::LruCache;
use tokio::sync::OnceCell;

use super::ApiError;
use super::limit::{self, Asker, Limiter};
use crate::background::{self, PictureQueue, Work};
use crate::games::Seat;
use crate::host::GameId;

/// The most pictures the cache keeps (a board's SVG is tens of kilobytes).
pub const CACHE_MOST: usize = 128;

/// The seconds a viewer is told to wait when the picture queue is full.
pub const BUSY_RETRY_SECS: u64 = 2;

/// The picture queue's size where no other front end shares one (local mode, tests): the
/// default of `HEXMEROS_RENDER_QUEUE`.
pub const QUEUE_DEFAULT: usize = 16;

/// What a picture shows, which two requests share when they ask for the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// The board at `version`, from `side`, with the staged move when `staged`.
    Board {
        game: GameId,
        version: u64,
        side: Seat,
        staged: bool,
    },
    /// The board after the first `at` moves, from `side`, at `version`.
    Replay {
        game: GameId,
        version: u64,
        at: usize,
        side: Seat,
    },
}

/// A drawn picture: its SVG, its status lines (a board's), the story's length (a replay's).
#[derive(Debug, Default)]
pub struct Drawn {
    pub svg: String,
    pub lines: Vec<String>,
    pub of: usize,
}

type Cell = Arc<OnceCell<Arc<Drawn>>>;

/// The board's pictures: cache, queue, rates and how many were drawn.
#[derive(Clone)]
pub struct Pictures {
    queue: PictureQueue,
    rate: Arc<Limiter<Asker>>,
    cells: Arc<Mutex<LruCache<Key, Cell>>>,
    drawn: Arc<AtomicU64>,
}

impl Pictures {
    /// Pictures drawn in `queue`'s web share, at most `per_viewer` for each viewer.
    pub fn new(queue: PictureQueue, per_viewer: Quota) -> Pictures {
        let most = std::num::NonZeroUsize::new(CACHE_MOST).unwrap_or(std::num::NonZeroUsize::MIN);
        Pictures {
            queue,
            rate: Arc::new(limit::limiter(per_viewer, limit::KEYS_MOST)),
            cells: Arc::new(Mutex::new(LruCache::new(most))),
            drawn: Arc::default(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, LruCache<Key, Cell>> {
        self.cells.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many pictures were drawn (not taken from the cache) since the board started.
    pub fn drawn(&self) -> u64 {
        self.drawn.load(Ordering::Relaxed)
    }

    /// The picture `key` names, if it is drawn already.
    pub fn cached(&self, key: &Key) -> Option<Arc<Drawn>> {
        let hit = self.lock().get(key).and_then(|c| c.get().cloned());
        if hit.is_some() {
            metrics::counter!("hexmeros_web_pictures_total", "outcome" => "cached").increment(1);
        }
        hit
    }

    /// The picture `key` names: from the cache, or drawn by `job` for `asker` (once, however
    /// many ask meanwhile), else the refusal (the queue full: 503; past the viewer's rate: 429).
    pub async fn draw<F>(&self, key: Key, asker: Asker, job: F) -> Result<Arc<Drawn>, ApiError>
    where
        F: FnOnce() -> Result<Drawn, ApiError> + Send + 'static,
    {
        let cell = self.lock().get_or_insert(key, Cell::default).clone();
        let drawn = cell.get_or_try_init(|| self.render(asker, job)).await?;
        Ok(drawn.clone())
    }

    /// Draw with `job` in a place of the web's share, within `asker`'s rate.
    async fn render<F>(&self, asker: Asker, job: F) -> Result<Arc<Drawn>, ApiError>
    where
        F: FnOnce() -> Result<Drawn, ApiError> + Send + 'static,
    {
        let Some(slot) = self.queue.web_slot() else {
            metrics::counter!("hexmeros_web_pictures_total", "outcome" => "busy").increment(1);
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the board is busy drawing; try again in a moment",
            )
            .retry_after(BUSY_RETRY_SECS));
        };
        if let Err(not_until) = self.rate.check_key(&asker) {
            use governor::clock::{Clock as _, DefaultClock};
            drop(slot);
            metrics::counter!("hexmeros_web_pictures_total", "outcome" => "too_fast").increment(1);
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many pictures; wait a moment",
            )
            .retry_after(wait.as_millis().div_ceil(1000) as u64));
        }
        let out = background::run(Work::Pictures, job).await;
        drop(slot);
        let drawn =
            out.map_err(|e| ApiError::from(crate::host::HostError::Internal(e.to_string())))??;
        self.drawn.fetch_add(1, Ordering::Relaxed);
        metrics::counter!("hexmeros_web_pictures_total", "outcome" => "drawn").increment(1);
        Ok(Arc::new(drawn))
    }

    /// Forget the viewers whose picture rate is full again.
    pub fn forget_idle(&self) {
        self.rate.retain_recent();
        self.rate.shrink_to_fit();
    }
}
