//! Live updates: every open board learns its game's new version as soon as an event is stored,
//! whichever front end made it, and fetches the board again. Events of this process come from
//! the host's change feed at once; another process's (two bots on one PostgreSQL database) are
//! found by asking the store for the open games' versions every [`POLL`].
//!
//! The stream is server-sent events (`GET /api/live`): `event: version`, `data: <n>`. Streams
//! are bounded per game ([`PER_GAME`]) and in all (at most [`IN_ALL`], and at most half the
//! board's connection cap: see `web::start_with`); within a game, each player's link at most
//! [`PER_PLAYER`] and the spectators' (whose link is public on every turn message) at most
//! [`SPECTATORS`], so a crowd with a spectator's link never takes the players' places. A stream
//! ends when its link does: when it expires, or (a player's) once the player no longer sits in
//! the game (resigned, replaced), checked at every change of the game.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use tokio::sync::watch;

use super::{ApiError, Web};
use crate::host::{GameHost, GameId, PlayerId};

/// Open streams one game may have.
pub const PER_GAME: usize = 256;

/// Open streams one player's link may have in a game (tabs, a phone and a computer).
pub const PER_PLAYER: usize = 8;

/// Open streams the spectators of a game may have in all: the game's places but those of six
/// players' links.
pub const SPECTATORS: usize = PER_GAME - 6 * PER_PLAYER;

/// Open streams in all, at most (the board's connection cap may allow fewer).
pub const IN_ALL: usize = 4096;

/// How often the store is asked for the open games' versions (another process's moves).
pub const POLL: Duration = Duration::from_secs(2);

struct Watched {
    version: watch::Sender<u64>,
    streams: usize,
    /// The open streams of spectators' links.
    spectators: usize,
    /// The open streams of each player's link.
    players: HashMap<PlayerId, usize>,
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

/// One open stream, of a player's link or a spectator's (`None`); leaving closes its place.
struct Place {
    live: Live,
    game: GameId,
    player: Option<PlayerId>,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut games = self.live.lock();
        if let Some(w) = games.get_mut(&self.game) {
            w.streams -= 1;
            match self.player {
                None => w.spectators -= 1,
                Some(p) => {
                    if let Some(n) = w.players.get_mut(&p) {
                        *n -= 1;
                        if *n == 0 {
                            w.players.remove(&p);
                        }
                    }
                }
            }
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

    /// A place for one more stream on `game`, which stands at `version`, for `player`'s link
    /// (`None`: a spectator's).
    fn join(
        &self,
        game: GameId,
        version: u64,
        player: Option<PlayerId>,
    ) -> Result<(Place, watch::Receiver<u64>), ApiError> {
        let busy = |why: &str| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, why);
        let mut games = self.lock();
        if games.values().map(|w| w.streams).sum::<usize>() >= self.in_all {
            return Err(busy("too many boards are open; reload in a while"));
        }
        let w = games.entry(game).or_insert_with(|| Watched {
            version: watch::channel(version).0,
            streams: 0,
            spectators: 0,
            players: HashMap::new(),
        });
        if w.streams >= PER_GAME {
            return Err(busy("too many boards are open; reload in a while"));
        }
        match player {
            None if w.spectators >= SPECTATORS => {
                return Err(busy(
                    "too many people are watching this game live; reload in a while",
                ));
            }
            None => w.spectators += 1,
            Some(p) => {
                let n = w.players.entry(p).or_insert(0);
                if *n >= PER_PLAYER {
                    return Err(busy(
                        "your link has too many boards open; close one and reload",
                    ));
                }
                *n += 1;
            }
        }
        w.streams += 1;
        let rx = w.version.subscribe();
        Ok((
            Place {
                live: self.clone(),
                game,
                player,
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
    let (place, rx) = web.live.join(viewer.game, version, viewer.player)?;
    let host = web.host.clone();
    let start = (place, rx, true, host, viewer);
    let events = futures_util::stream::unfold(start, |(place, mut rx, first, host, viewer)| {
        async move {
            if !first {
                // The link's end: its expiry (the host's clock, slept in real time).
                let left = (viewer.expires - host.now()).max(0) as u64;
                tokio::select! {
                    changed = rx.changed() => changed.ok()?,
                    _ = tokio::time::sleep(Duration::from_millis(left)) => return None,
                }
                if !still_admitted(&host, &viewer).await {
                    return None;
                }
            }
            let v = *rx.borrow_and_update();
            let event = Event::default().event("version").data(v.to_string());
            Some((Ok(event), (place, rx, false, host, viewer)))
        }
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

/// Whether the link `viewer` came with still admits them once the game changed: a player's ends
/// once they no longer sit in the game (resigned, replaced), as the link's requests do.
async fn still_admitted(host: &GameHost, viewer: &super::Viewer) -> bool {
    if viewer.expires <= host.now() {
        return false;
    }
    let Some(p) = viewer.player else {
        return true;
    };
    match host.state(viewer.game).await {
        Ok(state) => super::still_plays(&state, p),
        // The game cannot be read now: the stream stays, its next request will tell.
        Err(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_bounded_per_game_and_a_place_is_freed_when_one_closes() {
        let live = Live::default();
        let players = (PER_GAME / PER_PLAYER) as PlayerId;
        let mut open: Vec<_> = (1..=players)
            .flat_map(|p| std::iter::repeat_n(p, PER_PLAYER))
            .map(|p| live.join(7, 1, Some(p)).expect("room"))
            .collect();
        let refused = live.join(7, 1, Some(999)).err().expect("one game is full");
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        // Another game still has room, and a closed stream frees its place.
        let other = live.join(8, 1, Some(1)).expect("another game has room");
        open.pop();
        let again = live.join(7, 1, Some(999)).expect("a place was freed");
        assert_eq!(live.open(), PER_GAME + 1);
        drop((other, again, open));
        assert_eq!(live.open(), 0, "every place is given back");
    }

    #[test]
    fn a_spectators_link_never_takes_the_players_places_nor_one_player_all_of_them() {
        let live = Live::default();
        let crowd: Vec<_> = (0..SPECTATORS)
            .map(|_| live.join(7, 1, None).expect("room"))
            .collect();
        let refused = live
            .join(7, 1, None)
            .err()
            .expect("the spectators' share is full");
        assert!(refused.message.contains("watching"), "{}", refused.message);
        // Each of six players still opens as many boards as a link may.
        let mine: Vec<_> = (1..=6)
            .flat_map(|p| std::iter::repeat_n(p, PER_PLAYER))
            .map(|p| live.join(7, 1, Some(p)).expect("a player's place"))
            .collect();
        let refused = live.join(8, 1, Some(1)).map(|_| ()).err();
        assert!(refused.is_none(), "another game is another count");
        let mut two: Vec<_> = (0..PER_PLAYER)
            .map(|_| live.join(9, 1, Some(2)).expect("room"))
            .collect();
        let refused = live.join(9, 1, Some(2)).err().expect("one link's share");
        assert!(refused.message.contains("your link"), "{}", refused.message);
        two.pop();
        assert!(
            live.join(9, 1, Some(2)).is_ok(),
            "a closed board frees its place"
        );
        drop((crowd, mine, two));
        assert_eq!(live.open(), 0);
    }

    #[test]
    fn a_newer_version_reaches_the_streams_and_an_older_one_does_not() {
        let live = Live::default();
        let (_place, mut rx) = live.join(3, 5, None).expect("room");
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
