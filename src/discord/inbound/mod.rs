//! The inbound wing: what Discord sends the bot. Slash commands (`commands`), clicks, select
//! menus, modals and reactions (`events`), a lobby's Join and Decline (`lobby`), the Activity's
//! sign-in (`embedded`): each is parsed, checked against its server (`scope`), handed to the
//! host, and answered (`reply`); `activity` logs each one with its outcome. What the host decided
//! goes out through the outbound wing, every request through the wire.

pub(super) mod activity;
pub(super) mod commands;
pub(super) mod embedded;
pub(super) mod events;
pub(super) mod lobby;
pub(super) mod mine;
pub(super) mod scope;
