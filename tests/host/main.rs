//! The game host against a real store, one test binary: the scenarios of a table (staging,
//! challenges, votes, timers, restarts), lobbies, bots, clocks, the outbox and its leases, results
//! and the game record. Each module was a test binary of its own (`tests/host_<name>.rs`).
#![allow(clippy::unwrap_used)]

mod bots;
mod browser;
mod cache;
mod challenge;
mod clocks;
mod digest;
mod house_rules;
mod leases;
mod lobby;
mod motions;
mod outbox;
mod panel;
mod queue;
mod record;
mod results;
mod scenarios;
mod seen;
mod settings;
mod web;
mod web_limits;
