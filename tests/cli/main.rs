//! The command line, one test binary: each game's `rules` verbs, `render`, `ai`, `admin`,
//! `db copy`, `local` and `serve`'s start-up checks. Each module was a test binary of its own
//! (`tests/<name>_cli.rs`).
#![allow(clippy::unwrap_used)]

mod admin;
mod ai;
mod backup;
mod database;
mod db_copy;
mod harmegedo;
mod hexaequo;
mod hexdame;
mod heximeros;
mod hexmeister;
mod local;
mod render;
mod serve;
