//! Live updates: every open board learns its game's new version as soon as an event is stored,
//! whichever front end made it, and fetches the board again. Events of this process come from
//! the host's change feed at once; another process's (two bots on one PostgreSQL database) are
//! found by asking the store for the open games' versions every [`POLL`].
//!
//! The stream is server-sent events (`GET /api/live`): `event: version`, `data: <n>`. Streams
//! are bounded per game ([`PER_GAME`]) and in all (at most [`IN_ALL`], and at most half the
//! board's connection cap: see `web::start_with`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use tokio::sync::watch;

use super::{ApiError, Web};
use crate::host::{GameHost, GameId};

/// Open streams one game may have.
pub const PER_GAME: usize = 256;

/// Open streams in all, at most (the board's connection cap may allow fewer).
pub const IN_ALL: usize = 4096;

/// How often the store is asked for the open games' versions (another process's moves).
pub const POLL: Duration = Duration::from_secs(2);

struct Watched {
    version: watch::Sender<u64>,
    streams: usize,
}

/// The open boards' games and their latest versions.
#[derive(Clone)]
pub struct Live {
    games: Arc<Mutex<HashMap<GameId, Watched>>>,
    /// Open streams in all, at most.
    in_all: usize,
}

impl Default for Live {
    fn default() -> Live {
        Live {
            games: Arc::default(),
            in_all: IN_ALL,
        }
    }
}

/// One open stream; leaving closes its place.
struct Place {
    live: Live,
    game: GameId,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut games = self.live.lock();
        if let Some(w) = games.get_mut(&self.game) {
            w.streams -= 1;
            if w.streams == 0 {
                games.remove(&self.game);
            }
        }
    }
}

impl Live {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Watched>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A hub fed by `host`'s changes and, for other processes' moves, by the store, with at
    /// most `in_all` streams open.
    pub fn start(host: Arc<GameHost>, in_all: usize) -> Live {
        let live = Live {
            in_all,
            ..Live::default()
        };
        let mut changes = host.changes();
        let fed = live.clone();
        let feeder = host.clone();
        tokio::spawn(async move {
            loop {
                match changes.recv().await {
                    Ok(c) => fed.saw(c.game, c.version),
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        fed.ask_store(&feeder).await;
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                }
            }
        });
        let polled = live.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(POLL);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                polled.ask_store(&host).await;
            }
        });
        live
    }

    /// `game` is at `version` (or later).
    pub fn saw(&self, game: GameId, version: u64) {
        if let Some(w) = self.lock().get(&game) {
            w.version.send_if_modified(|v| {
                let newer = version > *v;
                if newer {
                    *v = version;
                }
                newer
            });
        }
    }

    /// Ask the store for every open game's version.
    async fn ask_store(&self, host: &GameHost) {
        let open: Vec<GameId> = self.lock().keys().copied().collect();
        for game in open {
            match host.stored_version(game).await {
                Ok(Some(v)) => self.saw(game, v),
                Ok(None) => {}
                Err(e) => tracing::warn!(game, error = %e, "live board: no version"),
            }
        }
    }

    /// How many streams are open, in all.
    pub fn open(&self) -> usize {
        self.lock().values().map(|w| w.streams).sum()
    }

    /// A place for one more stream on `game`, which stands at `version`.
    fn join(&self, game: GameId, version: u64) -> Result<(Place, watch::Receiver<u64>), ApiError> {
        let busy = || {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "too many boards are open; reload in a while",
            )
        };
        let mut games = self.lock();
        if games.values().map(|w| w.streams).sum::<usize>() >= self.in_all {
            return Err(busy());
        }
        let w = games.entry(game).or_insert_with(|| Watched {
            version: watch::channel(version).0,
            streams: 0,
        });
        if w.streams >= PER_GAME {
            return Err(busy());
        }
        w.streams += 1;
        let rx = w.version.subscribe();
        Ok((
            Place {
                live: self.clone(),
                game,
            },
            rx,
        ))
    }
}

/// `GET /api/live`: the viewer's game's versions as server-sent events, the current one first.
pub async fn stream(
    State(web): State<Web>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, std::convert::Infallible>>>, ApiError> {
    let viewer = web.viewer(&headers).await?;
    let version = web.host.state(viewer.game).await?.version();
    let (place, rx) = web.live.join(viewer.game, version)?;
    let events =
        futures_util::stream::unfold((place, rx, true), |(place, mut rx, first)| async move {
            if !first && rx.changed().await.is_err() {
                return None;
            }
            let v = *rx.borrow_and_update();
            let event = Event::default().event("version").data(v.to_string());
            Some((Ok(event), (place, rx, false)))
        });
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_bounded_per_game_and_a_place_is_freed_when_one_closes() {
        let live = Live::default();
        let mut open: Vec<_> = (0..PER_GAME)
            .map(|_| live.join(7, 1).expect("room"))
            .collect();
        let refused = live.join(7, 1).err().expect("one game is full");
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        // Another game still has room, and a closed stream frees its place.
        let other = live.join(8, 1).expect("another game has room");
        open.pop();
        let again = live.join(7, 1).expect("a place was freed");
        assert_eq!(live.open(), PER_GAME + 1);
        drop((other, again, open));
        assert_eq!(live.open(), 0, "every place is given back");
    }

    #[test]
    fn a_newer_version_reaches_the_streams_and_an_older_one_does_not() {
        let live = Live::default();
        let (_place, mut rx) = live.join(3, 5).expect("room");
        live.saw(3, 4);
        assert!(!rx.has_changed().expect("open"));
        live.saw(3, 6);
        assert!(rx.has_changed().expect("open"));
        assert_eq!(*rx.borrow_and_update(), 6);
        // A game nobody watches is not kept.
        live.saw(9, 1);
        assert_eq!(live.open(), 1);
    }
}
