//! Slow work off the async threads, at a lower CPU priority: board pictures and bot searches.
//!
//! A picture takes milliseconds and a hard bot seconds, while an answer to Discord must go out
//! within three seconds and a move commit takes well under one. With `spawn_blocking`, a burst of
//! pictures (a hundred games moving at once) gets as many threads as it has jobs, and the
//! threads that acknowledge interactions wait for a CPU behind them. Here each kind of work has a
//! pool of one thread per core whose threads run at a lower priority (nice ≈ 9 on Linux): they
//! use every idle cycle, but the async threads go first whenever they have something to do.
//! Pictures and bots have separate pools, so a bot thinking for seconds never holds a picture up.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

use thread_priority::{ThreadPriority, ThreadPriorityValue, set_current_thread_priority};

/// Which pool a job runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// Board pictures and replay GIFs.
    Pictures,
    /// Bot searches.
    Bots,
}

/// A job that could not give its result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackgroundError {
    #[error("the background job panicked")]
    Panicked,
    #[error("the background job was dropped before it finished")]
    Dropped,
}

/// The priority of the pools' threads, on the portable 0–99 scale (99 is the highest): about
/// nice 9 for the normal Linux scheduler, where a thread at nice 0 weighs ten times as much.
const PRIORITY: u8 = 25;

fn pool(work: Work) -> Option<&'static rayon::ThreadPool> {
    static PICTURES: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    static BOTS: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    let (cell, name) = match work {
        Work::Pictures => (&PICTURES, "hexmeros-pictures"),
        Work::Bots => (&BOTS, "hexmeros-bots"),
    };
    cell.get_or_init(|| {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(move |i| format!("{name}-{i}"))
            .start_handler(|_| {
                // Lowering one's own priority needs no privilege; if the platform refuses,
                // the pool still works at normal priority.
                if let Ok(p) = ThreadPriorityValue::try_from(PRIORITY) {
                    let _ = set_current_thread_priority(ThreadPriority::Crossplatform(p));
                }
            })
            .build()
            .ok()
    })
    .as_ref()
}

/// Runs `job` on the pool for `work` and waits for it without blocking the async thread. If the
/// pool could not be made, the job runs on tokio's blocking threads instead.
pub async fn run<T, F>(work: Work, job: F) -> Result<T, BackgroundError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let Some(pool) = pool(work) else {
        return tokio::task::spawn_blocking(job)
            .await
            .map_err(|_| BackgroundError::Panicked);
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    pool.spawn(move || {
        let out = catch_unwind(AssertUnwindSafe(job)).map_err(|_| BackgroundError::Panicked);
        // The caller may have given up waiting; then nobody needs the result.
        let _ = tx.send(out);
    });
    rx.await.map_err(|_| BackgroundError::Dropped)?
}

/// The picture queue one process shares (issue 17, issue 60): pictures drawing or waiting to
/// be drawn, at most its size in all, whichever front end asks (Discord's boards and answers,
/// the web board's); and of them at most the web board's share, so that a flood of web
/// pictures always leaves room for Discord's answers, which are due within three seconds.
#[derive(Clone, Debug)]
pub struct PictureQueue {
    all: std::sync::Arc<tokio::sync::Semaphore>,
    web: std::sync::Arc<tokio::sync::Semaphore>,
    web_share: usize,
}

/// A place in the [`PictureQueue`], given back when dropped.
#[derive(Debug)]
pub struct Slot {
    _all: tokio::sync::OwnedSemaphorePermit,
    _web: Option<tokio::sync::OwnedSemaphorePermit>,
}

impl PictureQueue {
    /// A queue of `size` places (at least 1), half of them (at least 1) the web board's.
    pub fn new(size: usize) -> PictureQueue {
        let size = size.max(1);
        PictureQueue::with_web_share(size, size / 2)
    }

    /// A queue of `size` places of which the web board may take `web_share` (1 to `size`).
    pub fn with_web_share(size: usize, web_share: usize) -> PictureQueue {
        let size = size.max(1);
        let web_share = web_share.clamp(1, size);
        PictureQueue {
            all: std::sync::Arc::new(tokio::sync::Semaphore::new(size)),
            web: std::sync::Arc::new(tokio::sync::Semaphore::new(web_share)),
            web_share,
        }
    }

    /// The web board's share of the places.
    pub fn web_share(&self) -> usize {
        self.web_share
    }

    /// A place, if one is free.
    pub fn slot(&self) -> Option<Slot> {
        let all = self.all.clone().try_acquire_owned().ok()?;
        Some(Slot {
            _all: all,
            _web: None,
        })
    }

    /// A place, waiting for one (work that must not be dropped).
    pub async fn slot_waiting(&self) -> Option<Slot> {
        let all = self.all.clone().acquire_owned().await.ok()?;
        Some(Slot {
            _all: all,
            _web: None,
        })
    }

    /// A place for the web board, if one is free within its share.
    pub fn web_slot(&self) -> Option<Slot> {
        let web = self.web.clone().try_acquire_owned().ok()?;
        let all = self.all.clone().try_acquire_owned().ok()?;
        Some(Slot {
            _all: all,
            _web: Some(web),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_web_takes_at_most_its_share_and_discord_finds_the_rest() {
        let q = PictureQueue::with_web_share(2, 1);
        let web = q.web_slot();
        assert!(web.is_some());
        assert!(q.web_slot().is_none(), "the web's share is taken");
        let discord = q.slot();
        assert!(
            discord.is_some(),
            "a held web picture leaves Discord its place"
        );
        assert!(
            q.slot().is_none() && q.web_slot().is_none(),
            "the queue is full"
        );
        drop(web);
        assert!(q.web_slot().is_some());
        drop(discord);
        // Discord may take every place; the web then finds none.
        let all = (q.slot(), q.slot());
        assert!(all.0.is_some() && all.1.is_some() && q.web_slot().is_none());
        assert_eq!(PictureQueue::new(16).web_share(), 8);
        assert_eq!(PictureQueue::new(1).web_share(), 1);
        assert_eq!(PictureQueue::new(0).web_share(), 1);
    }

    fn thread_name() -> String {
        std::thread::current().name().unwrap_or("").to_string()
    }

    /// The calling thread's nice value, where the system shows it (Linux).
    fn nice() -> Option<i64> {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
        // Fields after the command name (which is in parentheses and may hold spaces): the
        // nice value is field 19 of the line, the 17th after the name.
        let rest = stat.rsplit_once(')')?.1;
        rest.split_whitespace().nth(16)?.parse().ok()
    }

    #[tokio::test]
    async fn jobs_return_their_results_and_panics_are_errors() {
        assert_eq!(run(Work::Pictures, || 6 * 7).await, Ok(42));
        let on = run(Work::Bots, thread_name).await.expect("bot job");
        assert!(on.starts_with("hexmeros-bots-"), "ran on {on:?}");
        let on = run(Work::Pictures, thread_name).await.expect("picture job");
        assert!(on.starts_with("hexmeros-pictures-"), "ran on {on:?}");
        let panicked: Result<(), _> = run(Work::Pictures, || panic!("boom")).await;
        assert_eq!(panicked, Err(BackgroundError::Panicked));
        // The pool survives a panicking job.
        assert_eq!(run(Work::Pictures, || "still here").await, Ok("still here"));
    }

    #[tokio::test]
    async fn pool_threads_run_below_normal_priority() {
        let (Some(here), Ok(Some(there))) = (nice(), run(Work::Pictures, nice).await) else {
            // No /proc: nothing to compare on this system.
            return;
        };
        assert!(there > here, "pool thread nice {there}, caller {here}");
    }
}
