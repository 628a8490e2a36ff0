//! A clock read from a file, for end-to-end tests only (`HEXMEROS_CLOCK_FILE`): the test
//! writes a Unix time in milliseconds into the file and the bot's timers, run by the same tick
//! task as in production, see that time. An 18-hour game is tested without sleeping.

use std::path::PathBuf;

use hexmeros::host::{Clock, Millis, SystemClock};

pub struct FileClock {
    path: PathBuf,
}

impl FileClock {
    pub fn new(path: PathBuf) -> FileClock {
        FileClock { path }
    }
}

impl Clock for FileClock {
    fn now(&self) -> Millis {
        // A missing or half-written file falls back to the real time rather than to zero.
        std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or_else(|| SystemClock.now())
    }
}
