//! A fake Discord for end-to-end tests of the bot: REST (`/api/v10/...`) and the gateway
//! websocket (`/ws`), served by the test process on one random port of 127.0.0.1.
//!
//! Take it in a test file with `use hexmeros_testkit::fake_discord;` (the testkit crate compiles
//! it once for every test)
//! and point the real client at it (see `notes/discord-testing.md`):
//! `HttpBuilder::new(token).proxy(fake.api_base()).ratelimiter_disabled(true)` and
//! `ClientBuilder::new_with_http(http, intents)`. Any token is accepted.
//!
//! It owns no serenity types: everything it sends is JSON shaped like Discord's, checked against
//! serenity 0.12.5's models by `tests/discord/fake_selftest.rs`.
//!
//! # At a glance
//! * Set-up: `FakeDiscord::start().await`, `api_base()`, `gateway_url()`, `wait_ready(t)`,
//!   `drop_gateway()`, `sessions()`; gateway faults: `close_gateway(code)`, `reset_gateway()`,
//!   `request_reconnect()`, `forget_sessions()`, `set_gateway_down(down)`, `gateway_stats()`,
//!   `wait_reconnected(t, since)`, `wait_gateway(t, what, pred)`; shards: `gateway_sessions()`,
//!   `wait_sessions(t, what, pred)`, `shard_of(guild, total)`, `guild_on_shard(shard, total, n)`,
//!   `add_guild(guild)`; world: `user(n)`, `add_channel(name)`,
//!   `add_guild_channel(guild, name)`, `set_permissions(user, bits)`, `remove_member(guild, user)`,
//!   `set_guild_permissions(guild, user, bits)`, `close_dms(user)`, `archive_thread(t)`, `lock_thread(t)`, `delete_channel(c)`, `set_deadline(d)`,
//!   `fail_next(method, path_contains, status, retry_after, times)`, `hang_next_after_doing(method,
//!   path_contains, hang, times)`, `clear_failures()`.
//! * Users act: `slash`, `autocomplete`, `button`, `select`, `modal_submit` (→ [`Interaction`]), `react`;
//!   `try_slash`, `try_button` (→ `None` when no bot is connected).
//! * Observe: `requests()`, `unexpected()`, `wait_request(t, pred)`, `first_response(i, t)`
//!   (the first callback request, whatever its status), `responses(i)`,
//!   `wait_responses(i, t, n, pred)`, `messages(channel)`, `message(id)` (current state after
//!   edits), `threads()`, `dm_channel(user)`, `open_dm(user)`, `late_callbacks()`, `commands()`,
//!   `dispatched()`, `gateway_received()`, `thread_archived(t)`, `thread_locked(t)`.
//!
//! # The world it pretends to be
//! * Two guilds: [`FakeDiscord::GUILD_ID`] with one text channel [`FakeDiscord::CHANNEL_ID`]
//!   (more with [`FakeDiscord::add_channel`]) and [`FakeDiscord::OTHER_GUILD_ID`] with
//!   [`FakeDiscord::OTHER_CHANNEL_ID`] (more with [`FakeDiscord::add_guild_channel`]); a thread
//!   belongs to its parent's guild, and every interaction, reaction and message carries the
//!   guild of its channel (none in a DM). The bot user [`FakeDiscord::BOT_ID`] of application
//!   [`FakeDiscord::APP_ID`], and test users [`FakeDiscord::user`]`(n)` (n ≥ 1; users 1..=8 are
//!   listed as members of both guilds in GUILD_CREATE, any n works in interactions).
//! * Members have [`FakeDiscord::MEMBER_PERMISSIONS`] in each guild unless
//!   [`FakeDiscord::set_permissions`] (for `GUILD_ID`) or
//!   [`FakeDiscord::set_guild_permissions`] says otherwise (e.g. add
//!   [`FakeDiscord::MANAGE_GUILD`] for admin commands); the bot has
//!   [`FakeDiscord::BOT_PERMISSIONS`] and [`FakeDiscord::PIN_MESSAGES`] (sent as
//!   `app_permissions`, and as the permissions of its role [`FakeDiscord::bot_role`], which
//!   its member has, in `GET /guilds/{g}/roles` and the guild) unless
//!   [`FakeDiscord::set_bot_permissions`] says otherwise.
//!
//! # REST (every call is recorded as a [`Sent`], in order, with the status answered)
//! `Sent.path` is the request path without the `/api/v10` prefix and without the query string
//! (that is in `Sent.query`), e.g. `/channels/123/messages`. JSON bodies are in `Sent.json`;
//! multipart bodies have their `payload_json` in `Sent.json` and each `files[n]` part as
//! `(filename, bytes)` in `Sent.files`.
//! * `GET /gateway`, `/gateway/bot` → the ws URL; `GET /users/@me`, `/users/{id}`,
//!   `/applications/@me`, `/oauth2/applications/@me`, `/guilds/{g}`, `/guilds/{g}/channels`,
//!   `/guilds/{g}/roles`, `/guilds/{g}/members/{u}`, `/guilds/{g}/threads/active`, `/channels/{c}`.
//! * `PUT …/commands` (global or guild) records the list ([`FakeDiscord::commands`]) and answers
//!   `[]`; `POST …/commands` answers the command with ids; `GET` → `[]`; `DELETE` → 204.
//!   Command lists are checked against Discord's limits (≤ 25 options/choices, names) → 400.
//! * `POST /interactions/{id}/{token}/callback` → 204. A first callback later than the deadline
//!   (3 s after dispatch, [`FakeDiscord::set_deadline`]) gets 404 code 10062 and is listed by
//!   [`FakeDiscord::late_callbacks`]; a second callback gets 400 code 40060 (already
//!   acknowledged). Types 4 and 5 create the `@original` message; 6 and 7 make the component's
//!   message the original (7 edits it); 8 (autocomplete) must have ≤ 25 choices; 12
//!   (LAUNCH_ACTIVITY) opens nothing here: Discord's side of an Activity is `activity`'s.
//! * OAuth2 for the Activity (`fake_activity.rs`): `POST /oauth2/token` exchanges a code of
//!   [`FakeDiscord::grant_code`] once, with the client secret; `GET /users/@me` and
//!   `/users/@me/guilds` with the `Bearer` token it gave.
//! * `POST /webhooks/{app}/{token}` (followup), `GET/PATCH/DELETE
//!   /webhooks/{app}/{token}/messages/@original|{id}` → Message JSON; before the interaction was
//!   acknowledged → 404 code 10015 (Unknown Webhook), as Discord does.
//! * `POST /channels/{c}/messages` (JSON or multipart) → Message; `GET/PATCH/DELETE
//!   /channels/{c}/messages/{m}`; `GET /channels/{c}/messages`; a DM to a user whose DMs are
//!   closed ([`FakeDiscord::close_dms`]) → 403 code 50007. Unknown channel → 404 code 10003,
//!   unknown message → 404 code 10008. A message in an archived thread unarchives it (an
//!   ephemeral interaction answer, flags 64, does not). A new message's `flags` (kept in the
//!   stored message and in `Sent.json`) may hold only SUPPRESS_EMBEDS (1 << 2),
//!   SUPPRESS_NOTIFICATIONS (1 << 12, a silent ping), IS_VOICE_MESSAGE and IS_COMPONENTS_V2;
//!   any other → 400 code 50035.
//! * `POST /channels/{c}/threads` and `/channels/{c}/messages/{m}/threads` → thread channel
//!   (type 11, or 12 when asked; a thread started from a message takes the message's id, as on
//!   Discord); `PATCH /channels/{thread}` edits name/archived/locked.
//! * Reactions `PUT/DELETE …/reactions/{emoji}/@me`, `DELETE …/reactions/{emoji}/{user}`,
//!   `DELETE …/reactions[/{emoji}]`, thread members `PUT/DELETE /channels/{t}/thread-members/{u}`,
//!   `POST /channels/{c}/typing` → 204.
//! * Pins: `PUT/DELETE /channels/{c}/pins/{m}` → 204 (the message's `pinned`; unknown message →
//!   404 code 10008), `GET /channels/{c}/pins`.
//! * `POST /users/@me/channels` → DM channel (type 1), one per user.
//! * Messages are checked against Discord's limits (content ≤ 2000, ≤ 10 embeds, ≤ 5 rows of ≤ 5
//!   buttons or 1 select, custom_id ≤ 100 and unique, label ≤ 80, ≤ 25 select options, ≤ 10 files
//!   of ≤ 10 MiB in all) → 400 code 50035 (413 code 40005 for size).
//! * Everything else → 404 JSON (code 0), recorded like the rest, so tests can spot it.
//! * A request without an `Authorization` header (except interaction callbacks and webhooks,
//!   which Discord authorises by token) → 401; so is one with the token
//!   [`FakeDiscord::refuse_token`] names (an IDENTIFY with it is closed with 4004).
//!   [`FakeDiscord::refuse_discovery`] answers `GET /gateway` and `/gateway/bot` 503.
//! * [`FakeDiscord::fail_next`] injects failures: 429 comes with `Retry-After`,
//!   `X-RateLimit-*` headers and JSON `retry_after`; others with a Discord-shaped JSON error.
//!   serenity with its rate limiter off (as behind `DISCORD_API_BASE`) does not retry a 429
//!   itself; the bot's wire does, no sooner than the 429 said (its relay reads the wait).
//!   [`FakeDiscord::set_global_limit`] enforces Discord's global limit.
//!   [`FakeDiscord::fail_next_after_doing`] carries a request out and then answers it with a
//!   failure, as when Discord made a message but the answer was lost.
//! * [`FakeDiscord::set_chaos`] injects random faults, from a seed, into the bot's own
//!   `POST`/`PATCH`/`PUT` calls on channels, threads, messages, reactions and DMs (never
//!   interaction callbacks, webhooks or command registration): 500s, 429s with `retry_after`,
//!   "carried out then answered 500", and dropped connections (half of them after the request
//!   was carried out); [`FakeDiscord::set_outage`]`(true)` answers every REST call 503 until set
//!   back. Each is counted in [`FakeDiscord::chaos_stats`]; [`FakeDiscord::made`] lists every
//!   message the fake made (with its nonce), whatever the bot heard back;
//!   [`FakeDiscord::set_keep_files`]`(false)` stops keeping uploads in [`Sent`], and
//!   [`FakeDiscord::set_keep_requests`]`(false)` stops keeping requests at all (its tap still
//!   gets each one; what waits on the record, `wait_request` and the like, then waits in vain).
//! * `enforce_nonce` is honoured as Discord does: a message whose nonce the bot used in the last
//!   five minutes is not made again; the first one is returned.
//!
//! # Gateway (`ws://127.0.0.1:PORT/ws`, plain JSON text frames)
//! HELLO (op 10) on connect; IDENTIFY (op 2) → READY (+ a GUILD_CREATE per guild with the channels, threads
//! and members, if the GUILDS intent is asked); heartbeat (op 1) → ACK (op 11); RESUME (op 6) of
//! a known session → RESUMED, of an unknown one → INVALID_SESSION (op 9, `false`). Dispatches
//! (INTERACTION_CREATE, MESSAGE_REACTION_ADD) go to the most recently IDENTIFIED live session
//! of the guild's shard, with its increasing `s`; reactions only when its intents include
//! GUILD_MESSAGE_REACTIONS (or DIRECT_MESSAGE_REACTIONS in DMs), as Discord filters them. Every
//! frame sent is kept ([`FakeDiscord::dispatched`]).
//!
//! Shards, as Discord does them: each connection serves the `shard: [id, total]` its IDENTIFY
//! names (none means `[0, 1]`, every guild). Its READY carries that `shard` and lists, like
//! the GUILD_CREATEs after it, only the guilds of that shard, `(guild_id >> 22) % total == id`
//! ([`FakeDiscord::shard_of`]); a guild's dispatches go to a connection of its shard, a DM's to
//! shard 0, and nowhere if that shard has no connection (`try_slash` is then `None`). So one
//! unsharded bot gets every dispatch on its latest connection, as before. More guilds on chosen
//! shards: [`FakeDiscord::add_guild`]`(`[`FakeDiscord::guild_on_shard`]`(shard, total, n))`.
//! [`Interaction`] records the connection, shard and bot token it went to;
//! [`FakeDiscord::gateway_sessions`] and [`FakeDiscord::wait_sessions`] list the identified
//! connections.
//!
//! Gateway faults, for reconnection tests (each counted in [`FakeDiscord::gateway_stats`]:
//! connections, refused upgrades, IDENTIFY and RESUME frames, RESUMED and INVALID_SESSION
//! answers):
//! * [`FakeDiscord::close_gateway`]`(code)` closes every socket with a close frame of that code.
//!   The sessions stay resumable unless the code says they are gone (4007 invalid seq, 4009
//!   session timed out: Discord wants a fresh IDENTIFY then). serenity 0.12.5 resumes after
//!   4000 and any other code it does not know, re-identifies after 4006/4009, and gives up for
//!   good (its `Client::start` returns an error) after 4004, 4013 and 4014.
//! * [`FakeDiscord::reset_gateway`] drops every socket without a close frame, as a network
//!   failure would; the sessions stay resumable.
//! * [`FakeDiscord::request_reconnect`] sends RECONNECT (op 7), as Discord does before it
//!   moves a connection: the client opens a new one and RESUMEs; the old socket is left for the
//!   client to drop.
//! * [`FakeDiscord::forget_sessions`] makes every session unknown, so a RESUME gets
//!   INVALID_SESSION (op 9, `false`) and the client must IDENTIFY again.
//! * [`FakeDiscord::set_gateway_down`]`(true)` refuses new gateway connections (HTTP 503) until
//!   it is set back; REST keeps working.
//!
//! Restarting a bot: shut the old client's shards down (or drop its runtime), call
//! [`FakeDiscord::drop_gateway`] to close the fake's side, start the new client and
//! [`FakeDiscord::wait_ready`] again. Messages, threads and interactions survive: buttons on old
//! messages can be pressed after the restart with [`FakeDiscord::button`].
//!
//! The `slash`/`button`/… helpers panic when no bot is connected: that is a test bug.
//!
//! # Files
//! This file holds the types, the constants and `start`; `fake_discord/` the rest:
//! `world.rs` (the test's set-up and faults), `observe.rs` (what the bot did), `users.rs` (users
//! acting), `gateway.rs`, `rest.rs` (a request's way through the fake, bodies, JSON),
//! `state.rs` (the world's state) and `routes.rs` (what each REST call does);
//! `fake_activity.rs` is Discord's OAuth2 and an Activity's frame.
#![allow(dead_code)]

/// Discord's OAuth2 and the Activity's frame (issue 46).
#[path = "fake_activity.rs"]
pub mod activity;
#[path = "fake_discord/gateway.rs"]
mod gateway;
#[path = "fake_discord/observe.rs"]
mod observe;
#[path = "fake_discord/rest.rs"]
mod rest;
#[path = "fake_discord/routes.rs"]
mod routes;
#[path = "fake_discord/state.rs"]
mod state;
#[path = "fake_discord/users.rs"]
mod users;
#[path = "fake_discord/world.rs"]
mod world;
use self::{gateway::*, rest::*, routes::*};

use std::collections::{BTreeMap, HashMap, HashSet};
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, State as AxumState};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

/// One REST call the fake received, with the status it answered.
#[derive(Clone, Debug)]
pub struct Sent {
    pub method: String,
    /// Path without `/api/v10` and without the query, e.g. `/channels/1/messages`.
    pub path: String,
    /// Query string without `?` (empty when none), e.g. `wait=true`.
    pub query: String,
    /// The JSON body, or the multipart `payload_json`.
    pub json: Option<Value>,
    /// Multipart `files[n]` parts as (filename, bytes), in order.
    pub files: Vec<(String, Vec<u8>)>,
    pub at: Instant,
    pub status: u16,
    /// What the fake answered (JSON; `Null` for 204).
    pub response: Value,
}

/// An interaction the fake dispatched.
#[derive(Clone, Debug)]
pub struct Interaction {
    pub id: u64,
    pub token: String,
    pub sent_at: Instant,
    /// 2 slash command, 3 component, 4 autocomplete.
    pub kind: u8,
    pub user: u64,
    pub channel: u64,
    /// The gateway connection it was dispatched on (see [`FakeDiscord::gateway_sessions`]).
    pub connection: u64,
    /// That connection's shard, `[id, total]` (`[0, 1]` for an unsharded one).
    pub shard: [u64; 2],
    /// The bot token that connection identified with (without serenity's `Bot ` prefix): which
    /// bot process got the interaction.
    pub bot_token: String,
}

/// One identified gateway connection (see [`FakeDiscord::gateway_sessions`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GatewaySession {
    /// The connection's id, as in [`Interaction::connection`].
    pub connection: u64,
    /// The `shard` its IDENTIFY asked for, `[id, total]`; `[0, 1]` when it sent none.
    pub shard: [u64; 2],
    /// The token it identified with (without serenity's `Bot ` prefix).
    pub bot_token: String,
    /// The order of its IDENTIFY (or accepted RESUME) among all, from 1.
    pub order: u64,
}

/// Clone-able handle on a running fake Discord.
#[derive(Clone)]
pub struct FakeDiscord {
    inner: Arc<Inner>,
}

struct Inner {
    port: u16,
    state: Mutex<State>,
    /// Bumped on every change, so waiters never miss one.
    changed: watch::Sender<u64>,
}

#[derive(Clone, Debug)]
enum ChannelKind {
    Text,
    Thread {
        parent: u64,
        private: bool,
        archived: bool,
        locked: bool,
        auto_archive: u64,
        created: String,
    },
    Dm {
        user: u64,
    },
}

#[derive(Clone, Debug)]
struct FakeChannel {
    name: String,
    /// The guild of a text channel or thread; none for a DM.
    guild: Option<u64>,
    kind: ChannelKind,
}

struct InteractionState {
    token: String,
    sent_at: Instant,
    channel: u64,
    acked: bool,
    /// The `@original` message once there is one.
    original: Option<u64>,
    /// The message a component sits on.
    component_message: Option<u64>,
}

struct Session {
    id: u64,
    tx: mpsc::UnboundedSender<Outgoing>,
    seq: u64,
    /// Order of IDENTIFY (0 = not identified); a guild's dispatches go to the highest of the
    /// sessions of its shard.
    identified: u64,
    intents: u64,
    session_id: String,
    /// `[id, total]` from IDENTIFY (`[0, 1]` when none was sent).
    shard: [u64; 2],
    bot_token: String,
}

#[derive(Clone)]
enum Outgoing {
    Frame(String),
    /// A close frame with this code, then the connection is dropped.
    Close(u16),
    /// The connection is dropped without a close frame.
    Reset,
}

/// What happened on the fake gateway so far (see [`FakeDiscord::gateway_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GatewayStats {
    /// Websocket connections accepted.
    pub connections: u64,
    /// Connection attempts refused while the gateway was down.
    pub refused: u64,
    /// IDENTIFY frames (op 2) received.
    pub identifies: u64,
    /// RESUME frames (op 6) received.
    pub resumes: u64,
    /// RESUMEs answered with RESUMED.
    pub resumed: u64,
    /// RESUMEs answered with INVALID_SESSION (op 9, `false`).
    pub invalid_sessions: u64,
}

impl GatewayStats {
    /// Sessions established: IDENTIFYs plus accepted RESUMEs.
    pub fn established(&self) -> u64 {
        self.identifies + self.resumed
    }
}

struct Failure {
    method: String,
    path_contains: String,
    status: u16,
    retry_after: Option<f64>,
    times: usize,
    /// The request is carried out first and only its answer is replaced by the failure, as
    /// when Discord made the message but the response was lost.
    after: bool,
    /// The answer is held back this long (the client gives up first: a read timeout).
    hang: Option<Duration>,
    /// Discord's error code and message, instead of the usual one for `status`.
    code: Option<(u64, String)>,
}

impl Failure {
    /// `status` for the next `times` requests of `method` whose path contains `path_contains`,
    /// answered at once, nothing carried out.
    fn new(method: &str, path_contains: &str, status: u16, times: usize) -> Failure {
        Failure {
            method: method.to_ascii_uppercase(),
            path_contains: path_contains.into(),
            status,
            retry_after: None,
            times,
            after: false,
            hang: None,
            code: None,
        }
    }
}

/// Random fault rates (each a probability per eligible REST call) for [`FakeDiscord::set_chaos`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Chaos {
    pub seed: u64,
    /// HTTP 500, nothing done.
    pub p500: f64,
    /// HTTP 429 with `retry_after`, nothing done.
    pub p429: f64,
    /// The request is carried out, then answered 500 (the answer was lost).
    pub p_after: f64,
    /// The connection is dropped without an answer (half the time after carrying it out).
    pub p_drop: f64,
    /// `retry_after` of the 429s, in seconds.
    pub retry_after: f64,
}

/// What [`FakeDiscord::set_chaos`] and [`FakeDiscord::set_outage`] did.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChaosStats {
    /// REST calls chaos could have hit.
    pub eligible: u64,
    pub e500: u64,
    pub e429: u64,
    pub after500: u64,
    pub dropped: u64,
    /// Of `dropped`, those carried out before the connection was dropped.
    pub dropped_after: u64,
    /// Calls answered 503 by an outage.
    pub outage503: u64,
    /// Messages asked for again with an enforced nonce, answered with the one already made.
    pub nonce_answered: u64,
    /// Calls answered 429 by the global rate limit ([`FakeDiscord::set_global_limit`]).
    pub global429: u64,
    /// Calls the global rate limit let through.
    pub global_passed: u64,
}

/// The global rate limit's count in the current one-second window.
#[derive(Clone, Copy, Debug)]
struct GlobalLimit {
    per_second: u32,
    window: Instant,
    used: u32,
}

/// A message the fake made (posted, by the bot or a webhook), as it was made.
#[derive(Clone, Debug)]
pub struct Made {
    pub id: u64,
    pub channel: u64,
    pub nonce: Option<String>,
    pub content: String,
    pub at: Instant,
}

/// What the chaos decided for one call.
#[derive(Clone, Copy, PartialEq)]
enum Fault {
    None,
    Before(u16),
    After500,
    Drop { after: bool },
}

/// A small seeded generator (splitmix64), so the fake needs no extra crate.
struct SplitMix(u64);

impl SplitMix {
    fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

struct State {
    ws_url: String,
    requests: Vec<Sent>,
    late: Vec<Sent>,
    failures: Vec<Failure>,
    /// The answer now being made is held back this long (see `hang_next_after_doing`).
    hang: Option<Duration>,
    /// Message nonces the bot asked Discord to enforce: nonce → (message id, when).
    nonces: HashMap<String, (u64, Instant)>,
    interactions: HashMap<u64, InteractionState>,
    channels: BTreeMap<u64, FakeChannel>,
    messages: HashMap<u64, Value>,
    dm_of_user: HashMap<u64, u64>,
    closed_dms: HashSet<u64>,
    /// (guild, user) of the users who left a guild ([`FakeDiscord::remove_member`]).
    left: HashSet<(u64, u64)>,
    /// Permission bits by (guild, user).
    permissions: HashMap<(u64, u64), u64>,
    /// Guilds that removed the bot ([`FakeDiscord::remove_bot`]): their channels answer 403.
    removed: HashSet<u64>,
    /// Text channels hidden from @everyone ([`FakeDiscord::hide_channel`]), each with the users
    /// a member overwrite lets see it.
    hidden: HashMap<u64, HashSet<u64>>,
    /// The guilds, [`FakeDiscord::GUILDS`] and those of [`FakeDiscord::add_guild`].
    guilds: Vec<u64>,
    sessions: Vec<Session>,
    next_session: u64,
    identify_count: u64,
    /// Session ids that may RESUME, with their intents, shard and token.
    resumable: HashMap<String, (u64, [u64; 2], String)>,
    oauth: activity::OAuth,
    gateway_down: bool,
    gateway_stats: GatewayStats,
    dispatched: Vec<Value>,
    gateway_received: Vec<Value>,
    commands: Vec<Value>,
    snowflake_counter: u64,
    deadline: Duration,
    chaos: Option<(Chaos, SplitMix)>,
    outage: bool,
    /// The bot's permissions: its role's and its `app_permissions`
    /// ([`FakeDiscord::set_bot_permissions`]).
    bot_permissions: u64,
    /// A bot token Discord no longer accepts ([`FakeDiscord::refuse_token`]).
    refused_token: Option<String>,
    /// Gateway discovery refused ([`FakeDiscord::refuse_discovery`]).
    no_discovery: bool,
    /// Discord's global rate limit, if enforced: at most this many calls a second.
    global_limit: Option<GlobalLimit>,
    chaos_stats: ChaosStats,
    made: Vec<Made>,
    /// Keep uploaded files in [`Sent`] (off for a long soak: pictures add up).
    keep_files: bool,
    /// Keep every request in `requests` (off for a long load run: the tap still sees them).
    keep_requests: bool,
    /// Where every recorded REST call is copied as it is recorded ([`FakeDiscord::tap`]).
    tap: Option<mpsc::UnboundedSender<Sent>>,
}

type Reply = (u16, Value, Vec<(&'static str, String)>);

const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;
const MAX_UPLOAD: usize = 10 * 1024 * 1024;
/// The flags a new channel message may carry (SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS,
/// IS_VOICE_MESSAGE, IS_COMPONENTS_V2); the message keeps them in its `flags`.
const NEW_MESSAGE_FLAGS: u64 = (1 << 2) | (1 << 12) | (1 << 13) | (1 << 15);
// Gateway intents (Discord's bit numbers).
const INTENT_GUILDS: u64 = 1 << 0;
const INTENT_GUILD_MESSAGE_REACTIONS: u64 = 1 << 10;
const INTENT_DIRECT_MESSAGE_REACTIONS: u64 = 1 << 13;

fn ok(v: Value) -> Reply {
    (200, v, vec![])
}

fn no_content() -> Reply {
    (204, Value::Null, vec![])
}

/// Discord's answer to a call beyond its route's rate limit.
fn route_429(secs: f64) -> Reply {
    (
        429,
        json!({"message": "You are being rate limited.", "retry_after": secs, "global": false, "code": 0}),
        vec![
            ("retry-after", format!("{}", secs.ceil() as u64)),
            ("x-ratelimit-limit", "5".into()),
            ("x-ratelimit-remaining", "0".into()),
            ("x-ratelimit-reset-after", format!("{secs:.3}")),
            ("x-ratelimit-bucket", "fake-bucket".into()),
            ("x-ratelimit-scope", "user".into()),
        ],
    )
}

/// Discord's answer to a call beyond the global rate limit.
fn global_429(secs: f64) -> Reply {
    (
        429,
        json!({"message": "You are being rate limited.", "retry_after": secs, "global": true, "code": 0}),
        vec![
            ("retry-after", format!("{}", secs.ceil() as u64)),
            ("x-ratelimit-global", "true".into()),
            ("x-ratelimit-scope", "global".into()),
        ],
    )
}

fn error(status: u16, code: u64, message: &str) -> Reply {
    (status, json!({"code": code, "message": message}), vec![])
}

fn invalid_form(why: &str) -> Reply {
    (
        400,
        json!({"code": 50035, "message": "Invalid Form Body", "errors": {"_errors": [{"code": "BASE_TYPE_INVALID", "message": why}]}}),
        vec![],
    )
}

/// A snowflake-ish id out of a JSON string or number.
fn id_of(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

/// RFC 3339 of a Unix time in milliseconds (civil-from-days, H. Hinnant).
fn rfc3339(unix_ms: u64) -> String {
    let secs = unix_ms / 1000;
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}000+00:00",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        unix_ms % 1000
    )
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(DISCORD_EPOCH_MS)
}

fn now_rfc3339() -> String {
    rfc3339(now_ms())
}

impl FakeDiscord {
    pub const APP_ID: u64 = 1_100_000_000_000_000_001;
    pub const BOT_ID: u64 = 1_100_000_000_000_000_002;
    pub const GUILD_ID: u64 = 1_100_000_000_000_000_003;
    pub const CHANNEL_ID: u64 = 1_100_000_000_000_000_004;
    /// A second server, with its own text channel: games of one server are none of the other's.
    pub const OTHER_GUILD_ID: u64 = 1_100_000_000_000_000_005;
    pub const OTHER_CHANNEL_ID: u64 = 1_100_000_000_000_000_006;
    pub const GUILDS: [u64; 2] = [Self::GUILD_ID, Self::OTHER_GUILD_ID];
    /// Test users 1..=MEMBERS are listed in GUILD_CREATE.
    pub const MEMBERS: u64 = 8;

    pub const VIEW_CHANNEL: u64 = 1 << 10;
    pub const SEND_MESSAGES: u64 = 1 << 11;
    pub const MANAGE_GUILD: u64 = 1 << 5;
    pub const ADMINISTRATOR: u64 = 1 << 3;
    /// What an ordinary member may do: view, send, embed, attach, history, react, external emoji,
    /// use application commands, create public threads, send in threads.
    pub const MEMBER_PERMISSIONS: u64 = (1 << 6)
        | (1 << 10)
        | (1 << 11)
        | (1 << 14)
        | (1 << 15)
        | (1 << 16)
        | (1 << 18)
        | (1 << 31)
        | (1 << 35)
        | (1 << 38);
    /// The bot: a member plus manage messages/threads, create private threads, mention everyone.
    pub const BOT_PERMISSIONS: u64 =
        Self::MEMBER_PERMISSIONS | (1 << 13) | (1 << 17) | (1 << 34) | (1 << 36);
    pub const EMBED_LINKS: u64 = 1 << 14;
    /// Pin Messages (2026), which serenity 0.12 does not know: the bot has it by default, in
    /// its role ([`FakeDiscord::bot_role`]) as in its `app_permissions`.
    pub const PIN_MESSAGES: u64 = 1 << 51;

    /// The id of the bot's own role in `guild` (Discord makes one when a bot joins).
    pub fn bot_role(guild: u64) -> u64 {
        guild + 500
    }

    /// Id of test user `n` (1, 2, …).
    pub fn user(n: u64) -> u64 {
        1_200_000_000_000_000_000 + n
    }

    /// Serves the fake on 127.0.0.1 on a free port, in the current tokio runtime.
    pub async fn start() -> FakeDiscord {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0 for the fake Discord");
        let port = listener.local_addr().expect("local addr").port();
        let mut channels = BTreeMap::new();
        channels.insert(
            Self::CHANNEL_ID,
            FakeChannel {
                name: "hexmeros".into(),
                guild: Some(Self::GUILD_ID),
                kind: ChannelKind::Text,
            },
        );
        channels.insert(
            Self::OTHER_CHANNEL_ID,
            FakeChannel {
                name: "games".into(),
                guild: Some(Self::OTHER_GUILD_ID),
                kind: ChannelKind::Text,
            },
        );
        let state = State {
            ws_url: format!("ws://127.0.0.1:{port}/ws"),
            requests: vec![],
            late: vec![],
            failures: vec![],
            hang: None,
            nonces: HashMap::new(),
            interactions: HashMap::new(),
            channels,
            messages: HashMap::new(),
            dm_of_user: HashMap::new(),
            closed_dms: HashSet::new(),
            left: HashSet::new(),
            permissions: HashMap::new(),
            removed: HashSet::new(),
            hidden: HashMap::new(),
            guilds: Self::GUILDS.to_vec(),
            sessions: vec![],
            next_session: 1,
            identify_count: 0,
            resumable: HashMap::new(),
            oauth: activity::OAuth::default(),
            gateway_down: false,
            gateway_stats: GatewayStats::default(),
            dispatched: vec![],
            gateway_received: vec![],
            commands: vec![],
            snowflake_counter: 0,
            deadline: Duration::from_secs(3),
            chaos: None,
            outage: false,
            bot_permissions: Self::BOT_PERMISSIONS | Self::PIN_MESSAGES,
            refused_token: None,
            no_discovery: false,
            global_limit: None,
            chaos_stats: ChaosStats::default(),
            made: vec![],
            keep_files: true,
            keep_requests: true,
            tap: None,
        };
        let (changed, _) = watch::channel(0);
        let fake = FakeDiscord {
            inner: Arc::new(Inner {
                port,
                state: Mutex::new(state),
                changed,
            }),
        };
        let app = Router::new()
            .route("/ws", get(gateway_upgrade))
            .fallback(rest)
            .layer(DefaultBodyLimit::max(64 * 1024 * 1024))
            .with_state(fake.clone());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        fake
    }

    /// `http://127.0.0.1:PORT`: the bot's API base (serenity's `HttpBuilder::proxy`).
    pub fn api_base(&self) -> String {
        format!("http://127.0.0.1:{}", self.inner.port)
    }

    /// `ws://127.0.0.1:PORT/ws`, what `GET /gateway` answers.
    pub fn gateway_url(&self) -> String {
        format!("ws://127.0.0.1:{}/ws", self.inner.port)
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn bump(&self) {
        self.inner.changed.send_modify(|n| *n += 1);
    }

    /// Waits until `check` finds something in the state (checked at once, then on each change).
    async fn wait_for<T>(
        &self,
        timeout: Duration,
        what: &str,
        mut check: impl FnMut(&State) -> Option<T>,
    ) -> anyhow::Result<T> {
        let mut rx = self.inner.changed.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            rx.borrow_and_update();
            if let Some(found) = check(&self.state()) {
                return Ok(found);
            }
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                let seen: Vec<String> = self
                    .state()
                    .requests
                    .iter()
                    .map(|s| format!("{} {} -> {}", s.method, s.path, s.status))
                    .collect();
                anyhow::bail!(
                    "timed out after {timeout:?} waiting for {what}; REST calls so far: {seen:#?}"
                );
            }
        }
    }

    // ----- test controls -----

    /// Waits until a bot has IDENTIFIED on a live gateway connection and got READY.
    pub async fn wait_ready(&self, timeout: Duration) -> anyhow::Result<()> {
        self.wait_for(timeout, "a bot to identify on the gateway", |st| {
            st.sessions.iter().any(|s| s.identified > 0).then_some(())
        })
        .await
    }
}
