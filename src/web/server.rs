//! The board's accept loop (issue 60): hyper's HTTP/1 connections, served with bounds that
//! `axum::serve` does not set, so that idle or half-sent connections cannot hold the process's
//! open files.
//!
//! * **Headers in time** ([`Served::header_timeout`], 10 s by default): a connection must send
//!   a whole request head within it, on a new connection and between the requests of a kept-alive
//!   one (hyper's `header_read_timeout`, which it starts whenever it waits for a request), else
//!   hyper answers 408 and closes it. So a kept-alive connection with no next request is closed
//!   after it too.
//! * **No silence** ([`Served::idle_timeout`], 60 s by default): a connection on which no byte
//!   moved either way for that long is closed, whatever it was doing (a request body that stalls,
//!   an answer its client does not read). A live stream is not silent: it sends a keep-alive
//!   comment every 15 s.
//! * **Connections in all** ([`Served::connections`]): beyond it a new connection is answered 503
//!   at once (without waiting, in one write) and closed. By default it is half the process's
//!   open-file limit (at most [`CONNECTIONS_MOST`]); [`raise_open_files`] first raises that limit
//!   (the soft `RLIMIT_NOFILE`) to the hard one where the system allows.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::Instant;

/// How long a connection has to send a request's headers.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a connection may stay silent (no byte read or written).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// The most connections the default allows, however high the open-file limit.
pub const CONNECTIONS_MOST: usize = 16_384;

/// How the server treats its connections (see the module's words).
#[derive(Clone, Copy, Debug)]
pub struct Served {
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
    /// Open connections at most.
    pub connections: usize,
}

/// What is answered to a connection beyond the cap, before it is closed.
const FULL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
retry-after: 5\r\nconnection: close\r\ncontent-length: 62\r\n\r\n\
{\"error\":\"the board has too many connections; try again soon\"}";

/// The process's open-file limit now (its soft `RLIMIT_NOFILE`), if the system tells.
pub fn open_files() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only writes the struct it is given.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } == 0 {
            return Some(files(lim.rlim_cur));
        }
        None
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Raise the soft open-file limit to the hard one where the system allows (once per process,
/// logged), and answer the limit then.
pub fn raise_open_files() -> Option<u64> {
    static RAISED: std::sync::Once = std::sync::Once::new();
    RAISED.call_once(|| {
        #[cfg(unix)]
        raise();
    });
    open_files()
}

/// A limit as a number of files (`rlim_t` is not `u64` everywhere).
#[cfg(unix)]
#[allow(clippy::unnecessary_cast)]
fn files(v: libc::rlim_t) -> u64 {
    v as u64
}

#[cfg(unix)]
fn raise() {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        tracing::warn!("the open-file limit cannot be read; the web board's cap assumes 1024");
        return;
    }
    let before = lim.rlim_cur;
    // An unlimited hard limit cannot be the soft one on Linux (fs.nr_open bounds it): try its
    // usual value then.
    let wanted = if lim.rlim_max == libc::RLIM_INFINITY {
        1 << 20
    } else {
        lim.rlim_max
    };
    if wanted > before {
        let next = libc::rlimit {
            rlim_cur: wanted,
            rlim_max: lim.rlim_max,
        };
        // SAFETY: setrlimit only reads the struct it is given.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &next) } == 0 {
            tracing::info!(
                from = files(before),
                to = files(wanted),
                "open files: the soft limit was raised to the hard one"
            );
            return;
        }
        tracing::warn!(
            soft = files(before),
            hard = files(lim.rlim_max),
            "open files: the soft limit could not be raised"
        );
        return;
    }
    tracing::info!(
        limit = files(before),
        "open files: the soft limit is already the hard one"
    );
}

/// The default connection cap for an open-file limit: half of it (the rest is the database's,
/// Discord's, the logs'), at least 16, at most [`CONNECTIONS_MOST`].
pub fn default_connections(open_files: Option<u64>) -> usize {
    let files = open_files.unwrap_or(1024);
    usize::try_from(files / 2)
        .unwrap_or(CONNECTIONS_MOST)
        .clamp(16, CONNECTIONS_MOST)
}

/// Serve `app` on `listener` with `served`'s bounds, until the task is dropped.
pub async fn serve(listener: TcpListener, app: axum::Router, served: Served) {
    let places = Arc::new(Semaphore::new(served.connections));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(served.header_timeout);
    let mut told_full: Option<Instant> = None;
    let mut refused: u64 = 0;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(s) => s,
            Err(e) => {
                // Out of files (EMFILE, ENFILE) or a connection that went away before it was
                // taken: wait a little, as axum does, so the loop does not spin.
                tracing::warn!(error = %e, "the web board could not take a connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(place) = places.clone().try_acquire_owned() else {
            // One write that never waits: the answer if the socket takes it, else nothing.
            let _ = stream.try_write(FULL);
            drop(stream);
            refused += 1;
            if told_full.is_none_or(|t| t.elapsed() >= Duration::from_secs(10)) {
                tracing::warn!(
                    cap = served.connections,
                    refused,
                    "the web board is at its connection cap: new connections are refused \
                     (HEXMEROS_WEB_CONNECTIONS)"
                );
                told_full = Some(Instant::now());
            }
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let http = http.clone();
        tokio::spawn(async move {
            connection(stream, peer, app, http, served.idle_timeout).await;
            drop(place);
        });
    }
}

/// One connection, until it ends or stays silent for `idle`.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    app: axum::Router,
    http: hyper::server::conn::http1::Builder,
    idle: Duration,
) {
    let began = Instant::now();
    let moved = Arc::new(AtomicU64::new(0));
    let io = TokioIo::new(Watched {
        inner: stream,
        began,
        moved: moved.clone(),
    });
    let service =
        hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            let mut app = app.clone();
            async move {
                let res: Result<axum::response::Response, Infallible> =
                    tower_service::Service::call(&mut app, req).await;
                res
            }
        });
    let conn = http.serve_connection(io, service);
    tokio::pin!(conn);
    loop {
        let last = began + Duration::from_millis(moved.load(Ordering::Relaxed));
        tokio::select! {
            done = conn.as_mut() => {
                if let Err(e) = done {
                    tracing::debug!(error = %e, "a web board connection ended");
                }
                return;
            }
            _ = tokio::time::sleep_until(last + idle) => {
                let last = began + Duration::from_millis(moved.load(Ordering::Relaxed));
                if last + idle <= Instant::now() {
                    tracing::debug!(%peer, "a silent web board connection was closed");
                    return;
                }
            }
        }
    }
}

/// A connection's socket that notes when a byte last moved, in ms since `began`.
struct Watched {
    inner: TcpStream,
    began: Instant,
    moved: Arc<AtomicU64>,
}

impl Watched {
    fn saw(&self) {
        let ms = u64::try_from(self.began.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.moved.store(ms, Ordering::Relaxed);
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.saw();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            this.saw();
        }
        polled
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            this.saw();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_cap_is_half_the_open_files_within_bounds() {
        assert_eq!(default_connections(Some(1024)), 512);
        assert_eq!(default_connections(Some(20_000)), 10_000);
        assert_eq!(default_connections(Some(1 << 20)), CONNECTIONS_MOST);
        assert_eq!(default_connections(Some(8)), 16);
        assert_eq!(default_connections(None), 512);
    }

    #[test]
    fn the_full_answer_is_whole() {
        let text = std::str::from_utf8(FULL).unwrap();
        let (_, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(text.contains(&format!("content-length: {}\r\n", body.len())));
        assert!(serde_json::from_str::<serde_json::Value>(body).is_ok());
    }
}
