//! The outbound wing: what the bot sends Discord of its own. The outbox deliverer (`outbox`)
//! drains the host's effects lane by lane; `deliver` hands each to what delivers it (a game's
//! thread, the turn message, votes, direct messages), with the status panel (`panel`), the
//! results (`finish`), how a failure is treated (`failure`), the pictures (`picture`), a message into a game's thread (`post`), and
//! the old turn messages' buttons taken off (`strip`). It
//! imports nothing of the inbound wing; every request goes through the wire.

pub(super) mod deliver;
pub(super) mod failure;
pub(super) mod finish;
pub(super) mod outbox;
pub(super) mod panel;
pub(super) mod picture;
pub(super) mod post;
pub(super) mod strip;
