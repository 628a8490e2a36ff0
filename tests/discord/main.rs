//! The real `hexmeros serve` against the fake Discord, one test binary: each module is a
//! Discord suite that was a test binary of its own (`tests/discord_<name>.rs`), plus the fake's
//! own self-test and the load benchmark's support.
#![allow(clippy::unwrap_used)]

mod activity;
mod away;
mod challenge;
mod connect;
mod digest;
mod doors;
mod e2e;
mod fake_selftest;
mod games_list;
mod gateway;
mod history;
mod house_rules;
mod labels;
mod metrics;
mod notes;
mod notify;
mod panel;
mod pass_check;
mod picker;
mod pictures;
mod queue;
mod ratelimit;
mod results;
mod rules;
mod scale_support;
mod settings;
mod shards;
mod soak;
mod starts;
mod story;
mod strip;
mod try_move;
mod typed;
mod web;
