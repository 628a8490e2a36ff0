//! The command line's verbs, one module each; `main.rs` parses and dispatches. `anyhow` lives
//! here, at the edge.

pub mod admin;
pub mod ai;
pub mod db;
pub mod local;
pub mod render;
pub mod rules;
pub mod serve;
