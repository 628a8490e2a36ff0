//! hexmeros: rules engines for five hexagonal board games, and (later) the host, store, views and
//! Discord front end that run long asynchronous games of them.
//!
//! `hex` and `games` are pure: no async, no clock, no I/O, no randomness unless a seed is passed.

pub mod ai;
pub mod background;
pub mod backup;
pub mod copy_check;
pub mod games;
pub mod hex;
pub mod host;
pub mod local;
pub mod store;
pub mod view;
pub mod web;
