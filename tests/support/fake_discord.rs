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
//!   `add_guild_channel(guild, name)`, `set_permissions(user, bits)`,
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
//!   [`FakeDiscord::BOT_PERMISSIONS`] (sent as `app_permissions`).
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
//!   which Discord authorises by token) → 401.
//! * [`FakeDiscord::fail_next`] injects failures: 429 comes with `Retry-After`,
//!   `X-RateLimit-*` headers and JSON `retry_after`; others with a Discord-shaped JSON error.
//!   serenity with its rate limiter off (the bot's default behind `DISCORD_API_BASE`) does not
//!   retry a 429 itself; with `HEXMEROS_DISCORD_RATELIMITER=on` it waits `Retry-After` and sends
//!   again. [`FakeDiscord::set_global_limit`] enforces Discord's global limit.
//!   [`FakeDiscord::fail_next_after_doing`] carries a request out and then answers it with a
//!   failure, as when Discord made a message but the answer was lost.
//! * [`FakeDiscord::set_chaos`] injects random faults, from a seed, into the bot's own
//!   `POST`/`PATCH`/`PUT` calls on channels, threads, messages, reactions and DMs (never
//!   interaction callbacks, webhooks or command registration): 500s, 429s with `retry_after`,
//!   "carried out then answered 500", and dropped connections (half of them after the request
//!   was carried out); [`FakeDiscord::set_outage`]`(true)` answers every REST call 503 until set
//!   back. Each is counted in [`FakeDiscord::chaos_stats`]; [`FakeDiscord::made`] lists every
//!   message the fake made (with its nonce), whatever the bot heard back;
//!   [`FakeDiscord::set_keep_files`]`(false)` stops keeping uploads in [`Sent`].
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
#![allow(dead_code)]

/// Discord's OAuth2 and the Activity's frame (issue 46).
#[path = "fake_activity.rs"]
pub mod activity;

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
    /// Permission bits by (guild, user).
    permissions: HashMap<(u64, u64), u64>,
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
    /// Discord's global rate limit, if enforced: at most this many calls a second.
    global_limit: Option<GlobalLimit>,
    chaos_stats: ChaosStats,
    made: Vec<Made>,
    /// Keep uploaded files in [`Sent`] (off for a long soak: pictures add up).
    keep_files: bool,
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
            permissions: HashMap::new(),
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
            global_limit: None,
            chaos_stats: ChaosStats::default(),
            made: vec![],
            keep_files: true,
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

    /// Closes every gateway socket (close code 4000) and forgets the live sessions (nothing is
    /// dispatched until a bot connects again; the session ids stay resumable).
    pub async fn drop_gateway(&self) {
        self.close_gateway(4000).await;
    }

    /// Closes every gateway socket with a close frame of `code`. After 4007 (invalid seq) and
    /// 4009 (session timed out) the sessions cannot be resumed, as on Discord; after any other
    /// code they can. Fatal codes (4004, 4010–4014) make serenity stop for good.
    pub async fn close_gateway(&self, code: u16) {
        if matches!(code, 4007 | 4009) {
            self.state().resumable.clear();
        }
        self.end_sockets(Outgoing::Close(code));
    }

    /// Drops every gateway socket without a close frame, as a network failure would. The
    /// sessions stay resumable.
    pub async fn reset_gateway(&self) {
        self.end_sockets(Outgoing::Reset);
    }

    /// Sends RECONNECT (op 7) on every live socket; the sockets stay open.
    pub fn request_reconnect(&self) {
        let mut st = self.state();
        let ids: Vec<u64> = st.sessions.iter().map(|s| s.id).collect();
        for id in ids {
            st.send_to(id, json!({"op": 7, "d": null, "s": null, "t": null}));
        }
        drop(st);
        self.bump();
    }

    /// Forgets every session id: a later RESUME is answered INVALID_SESSION (op 9, `false`).
    pub fn forget_sessions(&self) {
        self.state().resumable.clear();
        self.bump();
    }

    /// While down, new gateway connections are refused with HTTP 503 (REST still works).
    /// Connected sockets are left alone: close or reset them too.
    pub fn set_gateway_down(&self, down: bool) {
        self.state().gateway_down = down;
        self.bump();
    }

    /// The gateway's counters so far.
    pub fn gateway_stats(&self) -> GatewayStats {
        self.state().gateway_stats
    }

    /// Waits until `pred` holds for the gateway's counters; returns them.
    pub async fn wait_gateway(
        &self,
        timeout: Duration,
        what: &str,
        pred: impl Fn(&GatewayStats) -> bool,
    ) -> anyhow::Result<GatewayStats> {
        self.wait_for(timeout, what, |st| {
            pred(&st.gateway_stats).then_some(st.gateway_stats)
        })
        .await
    }

    /// Waits until a bot has a live session again that was established (IDENTIFY, or an
    /// accepted RESUME) after the counters were `since`; returns the counters.
    pub async fn wait_reconnected(
        &self,
        timeout: Duration,
        since: GatewayStats,
    ) -> anyhow::Result<GatewayStats> {
        self.wait_for(timeout, "a bot to identify or resume again", |st| {
            let live = st.sessions.iter().any(|s| s.identified > 0);
            (live && st.gateway_stats.established() > since.established())
                .then_some(st.gateway_stats)
        })
        .await
    }

    /// Ends every live socket with `how` and forgets the live sessions.
    fn end_sockets(&self, how: Outgoing) {
        let sessions = std::mem::take(&mut self.state().sessions);
        for s in sessions {
            let _ = s.tx.send(how.clone());
        }
        self.bump();
    }

    /// Number of live identified gateway sessions.
    pub fn sessions(&self) -> usize {
        self.state()
            .sessions
            .iter()
            .filter(|s| s.identified > 0)
            .count()
    }

    /// Sets the first-response deadline of interactions (Discord: 3 s).
    pub fn set_deadline(&self, deadline: Duration) {
        self.state().deadline = deadline;
    }

    /// Permission bits user `user` has in [`Self::GUILD_ID`] (in every channel); default
    /// [`Self::MEMBER_PERMISSIONS`].
    pub fn set_permissions(&self, user: u64, bits: u64) {
        self.set_guild_permissions(Self::GUILD_ID, user, bits);
    }

    /// Permission bits user `user` has in `guild` (in every channel of it).
    pub fn set_guild_permissions(&self, guild: u64, user: u64, bits: u64) {
        self.state().permissions.insert((guild, user), bits);
    }

    /// From now on, DMs to `user` fail with 403 code 50007.
    pub fn close_dms(&self, user: u64) {
        self.state().closed_dms.insert(user);
    }

    /// Adds a text channel to [`Self::GUILD_ID`]; returns its id.
    pub fn add_channel(&self, name: &str) -> u64 {
        self.add_guild_channel(Self::GUILD_ID, name)
    }

    /// Adds a text channel to `guild` ([`Self::GUILD_ID`], [`Self::OTHER_GUILD_ID`] or one of
    /// [`Self::add_guild`]); returns its id.
    pub fn add_guild_channel(&self, guild: u64, name: &str) -> u64 {
        let mut st = self.state();
        assert!(st.guilds.contains(&guild), "unknown guild {guild}");
        let id = st.snowflake();
        st.channels.insert(
            id,
            FakeChannel {
                name: name.into(),
                guild: Some(guild),
                kind: ChannelKind::Text,
            },
        );
        id
    }

    /// Adds a server `guild` (a snowflake: its shard is `(guild >> 22) % total`, see
    /// [`Self::shard_of`]) with one text channel, whose id is returned; users 1..=MEMBERS are its
    /// members. A connection identified before it was added hears of it on its next IDENTIFY.
    pub fn add_guild(&self, guild: u64) -> u64 {
        {
            let mut st = self.state();
            assert!(!st.guilds.contains(&guild), "guild {guild} exists already");
            st.guilds.push(guild);
        }
        self.add_guild_channel(guild, "games")
    }

    /// The shard of `guild` among `total`, as Discord computes it: `(guild >> 22) % total`.
    pub fn shard_of(guild: u64, total: u64) -> u64 {
        (guild >> 22) % total.max(1)
    }

    /// A guild id of shard `shard` among `total`, the `n`-th such (n ≥ 0), for
    /// [`Self::add_guild`]: distinct from the fixed guilds and from each other.
    pub fn guild_on_shard(shard: u64, total: u64, n: u64) -> u64 {
        let base = (Self::GUILD_ID >> 22) + 1 + n * total;
        let high = base + (shard + total - base % total) % total;
        (high << 22) | 0x0F
    }

    /// The identified gateway connections now, oldest IDENTIFY first.
    pub fn gateway_sessions(&self) -> Vec<GatewaySession> {
        self.state().gateway_sessions()
    }

    /// Waits until `pred` holds for the identified connections (see
    /// [`Self::gateway_sessions`]); returns them.
    pub async fn wait_sessions(
        &self,
        timeout: Duration,
        what: &str,
        pred: impl Fn(&[GatewaySession]) -> bool,
    ) -> anyhow::Result<Vec<GatewaySession>> {
        self.wait_for(timeout, what, |st| {
            let v = st.gateway_sessions();
            pred(&v).then_some(v)
        })
        .await
    }

    /// Adds `n` open public threads under the text channel `parent` of `guild` at once (a load
    /// test's games, made without a REST call each); returns their ids. Each is one map insert:
    /// the fake looks channels up by id, so thousands of threads cost no call anything.
    pub fn add_threads(&self, guild: u64, parent: u64, n: usize) -> Vec<u64> {
        let mut st = self.state();
        assert!(st.guilds.contains(&guild), "unknown guild {guild}");
        assert!(
            matches!(
                st.channels.get(&parent),
                Some(FakeChannel { guild: Some(g), kind: ChannelKind::Text, .. }) if *g == guild
            ),
            "{parent} is no text channel of guild {guild}"
        );
        let created = now_rfc3339();
        (0..n)
            .map(|k| {
                let id = st.snowflake();
                st.channels.insert(
                    id,
                    FakeChannel {
                        name: format!("game {k}"),
                        guild: Some(guild),
                        kind: ChannelKind::Thread {
                            parent,
                            private: false,
                            archived: false,
                            locked: false,
                            auto_archive: 10080,
                            created: created.clone(),
                        },
                    },
                );
                id
            })
            .collect()
    }

    /// Gives each of `threads` a pinned message of the bot's whose id is the thread's own (as a
    /// thread started from a message has): the status panel a load test seeds with its games,
    /// so their first move edits it as any later move does instead of posting, pinning and
    /// reacting to a new one.
    pub fn add_panels(&self, threads: &[u64]) {
        let mut st = self.state();
        for &t in threads {
            let mut m = st.message_json(t, t, json!({"content": "📋"}), vec![], 0);
            m["pinned"] = json!(true);
            st.messages.insert(t, m);
        }
    }

    /// From now on, every REST call the fake records is also sent, as recorded, to the returned
    /// receiver (replacing an earlier tap): a load test follows the calls as they come instead
    /// of scanning [`requests`](Self::requests).
    pub fn tap(&self) -> mpsc::UnboundedReceiver<Sent> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.state().tap = Some(tx);
        rx
    }

    /// Archives a thread (as Discord does after inactivity).
    pub fn archive_thread(&self, thread: u64) {
        if let Some(FakeChannel {
            kind: ChannelKind::Thread { archived, .. },
            ..
        }) = self.state().channels.get_mut(&thread)
        {
            *archived = true;
        }
    }

    /// Archives and locks a thread (as a moderator would): a message no longer reopens it
    /// (400 code 50083); `PATCH /channels/{t}` with `archived: false, locked: false` does.
    pub fn lock_thread(&self, thread: u64) {
        if let Some(FakeChannel {
            kind: ChannelKind::Thread {
                archived, locked, ..
            },
            ..
        }) = self.state().channels.get_mut(&thread)
        {
            *archived = true;
            *locked = true;
        }
    }

    /// Deletes a channel or thread (as a moderator would): every later call on it gets 404 code
    /// 10003, and its messages are gone.
    pub fn delete_channel(&self, channel: u64) {
        self.state().channels.remove(&channel);
    }

    /// Forgets every failure injected and not yet used: Discord is back.
    pub fn clear_failures(&self) {
        self.state().failures.clear();
    }

    /// Whether `thread` is archived now.
    pub fn thread_archived(&self, thread: u64) -> bool {
        matches!(
            self.state().channels.get(&thread),
            Some(FakeChannel {
                kind: ChannelKind::Thread { archived: true, .. },
                ..
            })
        )
    }

    /// Whether `thread` is locked now (by a `PATCH /channels/{t}` with `locked: true`, or
    /// [`FakeDiscord::lock_thread`]).
    pub fn thread_locked(&self, thread: u64) -> bool {
        matches!(
            self.state().channels.get(&thread),
            Some(FakeChannel {
                kind: ChannelKind::Thread { locked: true, .. },
                ..
            })
        )
    }

    /// Injects failures: the next `times` requests whose method is `method` ("*" = any) and
    /// whose path contains `path_contains` get `status` (429 with `Retry-After: retry_after`).
    /// A `path_contains` ending in `$` must end the path (`/channels/5$` is the channel itself,
    /// not its messages).
    pub fn fail_next(
        &self,
        method: &str,
        path_contains: &str,
        status: u16,
        retry_after: Option<f64>,
        times: usize,
    ) {
        self.state().failures.push(Failure {
            method: method.to_ascii_uppercase(),
            path_contains: path_contains.into(),
            status,
            retry_after,
            times,
            after: false,
            hang: None,
        });
    }

    /// Like [`fail_next`](Self::fail_next), but each of those requests is carried out before
    /// its answer is replaced by `status`: the message is made, the bot hears a failure.
    pub fn fail_next_after_doing(
        &self,
        method: &str,
        path_contains: &str,
        status: u16,
        times: usize,
    ) {
        self.state().failures.push(Failure {
            method: method.to_ascii_uppercase(),
            path_contains: path_contains.into(),
            status,
            retry_after: None,
            times,
            after: true,
            hang: None,
        });
    }

    /// Like [`fail_next_after_doing`](Self::fail_next_after_doing), but the answer (a 504) is
    /// held back for `hang`: a client with a shorter timeout hears nothing, as when Discord made
    /// the message and the connection then stalled.
    pub fn hang_next_after_doing(
        &self,
        method: &str,
        path_contains: &str,
        hang: Duration,
        times: usize,
    ) {
        self.state().failures.push(Failure {
            method: method.to_ascii_uppercase(),
            path_contains: path_contains.into(),
            status: 504,
            retry_after: None,
            times,
            after: true,
            hang: Some(hang),
        });
    }

    /// Random faults from now on (`None`: no more). See [`Chaos`].
    pub fn set_chaos(&self, chaos: Option<Chaos>) {
        self.state().chaos = chaos.map(|c| (c, SplitMix(c.seed)));
    }

    /// A full outage: every REST call is answered 503 until set back.
    pub fn set_outage(&self, down: bool) {
        self.state().outage = down;
        self.bump();
    }

    /// Enforce Discord's global rate limit (about 50 calls a second per bot; `None`: off): in
    /// each second, the calls beyond `per_second` that count toward it (any with the bot's
    /// token; not interaction callbacks or webhooks, which Discord does not count) are answered
    /// 429 with `X-RateLimit-Global`, `X-RateLimit-Scope: global`, `Retry-After` (whole
    /// seconds) and a JSON `retry_after` (to the end of the window) and `global: true`, and
    /// nothing is done. Counted in [`chaos_stats`](Self::chaos_stats).
    pub fn set_global_limit(&self, per_second: Option<u32>) {
        self.state().global_limit = per_second.map(|per_second| GlobalLimit {
            per_second,
            window: Instant::now(),
            used: 0,
        });
        self.bump();
    }

    /// Whether uploaded files are kept in the recorded requests (the default); a long soak
    /// turns it off so that board pictures do not fill the memory.
    pub fn set_keep_files(&self, keep: bool) {
        self.state().keep_files = keep;
    }

    /// Counts of the faults injected by [`set_chaos`](Self::set_chaos) and
    /// [`set_outage`](Self::set_outage).
    pub fn chaos_stats(&self) -> ChaosStats {
        self.state().chaos_stats
    }

    // ----- observations -----

    /// Every message the fake made, in order, whatever the bot heard back.
    pub fn made(&self) -> Vec<Made> {
        self.state().made.clone()
    }

    /// Every REST call received, in order.
    pub fn requests(&self) -> Vec<Sent> {
        self.state().requests.clone()
    }

    /// REST calls nobody handles (answered 404 code 0): a bot calling them has a bug.
    pub fn unexpected(&self) -> Vec<Sent> {
        self.state()
            .requests
            .iter()
            .filter(|s| s.status == 404 && s.response["code"] == 0)
            .cloned()
            .collect()
    }

    /// The first request (received so far or later) that satisfies `pred`.
    pub async fn wait_request(
        &self,
        timeout: Duration,
        pred: impl Fn(&Sent) -> bool,
    ) -> anyhow::Result<Sent> {
        self.wait_for(timeout, "a matching REST call", |st| {
            st.requests.iter().find(|s| pred(s)).cloned()
        })
        .await
    }

    /// The first callback (`POST /interactions/{id}/{token}/callback`) of `i`, late or not.
    pub async fn first_response(&self, i: &Interaction, timeout: Duration) -> anyhow::Result<Sent> {
        let path = format!("/interactions/{}/{}/callback", i.id, i.token);
        self.wait_for(
            timeout,
            &format!("the callback of interaction {}", i.id),
            |st| st.requests.iter().find(|s| s.path == path).cloned(),
        )
        .await
    }

    /// Everything sent about `i`: callbacks, followups, reads and edits of its messages.
    pub fn responses(&self, i: &Interaction) -> Vec<Sent> {
        let callback = format!("/interactions/{}/{}/", i.id, i.token);
        let webhook = format!("/webhooks/{}/{}", Self::APP_ID, i.token);
        self.state()
            .requests
            .iter()
            .filter(|s| s.path.starts_with(&callback) || s.path.starts_with(&webhook))
            .cloned()
            .collect()
    }

    /// Waits until `i` has at least `n` responses satisfying `pred`; returns all of them.
    pub async fn wait_responses(
        &self,
        i: &Interaction,
        timeout: Duration,
        n: usize,
        pred: impl Fn(&Sent) -> bool,
    ) -> anyhow::Result<Vec<Sent>> {
        let callback = format!("/interactions/{}/{}/", i.id, i.token);
        let webhook = format!("/webhooks/{}/{}", Self::APP_ID, i.token);
        self.wait_for(
            timeout,
            &format!("{n} responses to interaction {}", i.id),
            |st| {
                let found: Vec<Sent> = st
                    .requests
                    .iter()
                    .filter(|s| {
                        (s.path.starts_with(&callback) || s.path.starts_with(&webhook)) && pred(s)
                    })
                    .cloned()
                    .collect();
                (found.len() >= n).then_some(found)
            },
        )
        .await
    }

    /// Messages posted successfully in a channel, thread or DM (`POST /channels/{id}/messages`).
    pub fn messages(&self, channel: u64) -> Vec<Sent> {
        let path = format!("/channels/{channel}/messages");
        self.state()
            .requests
            .iter()
            .filter(|s| s.method == "POST" && s.path == path && s.status == 200)
            .cloned()
            .collect()
    }

    /// Every message that exists in `channel` now (made by any request, answered or not; edits
    /// applied, deleted ones gone), oldest first.
    pub fn stored_messages(&self, channel: u64) -> Vec<Value> {
        let mut list: Vec<Value> = self
            .state()
            .messages
            .values()
            .filter(|m| id_of(&m["channel_id"]) == Some(channel))
            .cloned()
            .collect();
        list.sort_by_key(|m| id_of(&m["id"]));
        list
    }

    /// When a message whose content contains `needle` was posted to `channel`, looking only at
    /// requests received from `since` on (newest first, nothing copied): cheap enough for a
    /// benchmark with a hundred waiters.
    pub async fn wait_posted(
        &self,
        channel: u64,
        since: Instant,
        needle: &str,
        timeout: Duration,
    ) -> anyhow::Result<Instant> {
        let path = format!("/channels/{channel}/messages");
        self.wait_for(timeout, &format!("a message with {needle:?}"), |st| {
            st.requests
                .iter()
                .rev()
                .take_while(|s| s.at >= since)
                .find(|s| {
                    s.method == "POST"
                        && s.status == 200
                        && s.path == path
                        && s.json
                            .as_ref()
                            .and_then(|j| j["content"].as_str())
                            .is_some_and(|c| c.contains(needle))
                })
                .map(|s| s.at)
        })
        .await
    }

    /// The messages pinned in `channel` (by `PUT /channels/{c}/pins/{m}`), oldest first.
    pub fn pinned(&self, channel: u64) -> Vec<u64> {
        let st = self.state();
        let mut ids: Vec<u64> = st
            .messages
            .values()
            .filter(|m| id_of(&m["channel_id"]) == Some(channel) && m["pinned"] == true)
            .filter_map(|m| id_of(&m["id"]))
            .collect();
        ids.sort_unstable();
        ids
    }

    /// The current state of a message (after edits), as Message JSON; `None` if unknown/deleted.
    pub fn message(&self, id: u64) -> Option<Value> {
        self.state().messages.get(&id).cloned()
    }

    /// Threads created: (thread id, parent channel id, name).
    pub fn threads(&self) -> Vec<(u64, u64, String)> {
        self.state()
            .channels
            .iter()
            .filter_map(|(id, c)| match c.kind {
                ChannelKind::Thread { parent, .. } => Some((*id, parent, c.name.clone())),
                _ => None,
            })
            .collect()
    }

    /// The DM channel opened with `user`, if the bot opened one.
    pub fn dm_channel(&self, user: u64) -> Option<u64> {
        self.state().dm_of_user.get(&user).copied()
    }

    /// The DM channel between the bot and `user`, opened now if there is none (as when the
    /// user writes to the bot first): where a user's DM interactions come from.
    pub fn open_dm(&self, user: u64) -> u64 {
        let id = self.state().dm_with(user);
        self.bump();
        id
    }

    /// First callbacks that came after the deadline (answered 404 code 10062).
    pub fn late_callbacks(&self) -> Vec<Sent> {
        self.state().late.clone()
    }

    /// The last command list the bot registered (`PUT …/commands`).
    pub fn commands(&self) -> Vec<Value> {
        self.state().commands.clone()
    }

    /// Every gateway frame sent to bots (HELLO, READY, dispatches…), in order.
    pub fn dispatched(&self) -> Vec<Value> {
        self.state().dispatched.clone()
    }

    /// Every gateway frame received from bots (IDENTIFY, heartbeats…), in order.
    pub fn gateway_received(&self) -> Vec<Value> {
        self.state().gateway_received.clone()
    }

    // ----- user actions (gateway dispatches) -----

    /// A slash command (interaction type 2). `options` is Discord's options array
    /// (subcommands nest: `[{"type":1,"name":"start","options":[…]}]`); user options (type 6)
    /// may give the id as a number or string and get `resolved.users/members` filled.
    pub async fn slash(&self, user: u64, channel: u64, name: &str, options: Value) -> Interaction {
        let data = self.command_data(channel, name, options);
        self.dispatch_interaction(2, user, channel, data, None)
    }

    /// An autocomplete request (type 4): one option in `options` has `"focused": true`.
    pub async fn autocomplete(
        &self,
        user: u64,
        channel: u64,
        name: &str,
        options: Value,
    ) -> Interaction {
        let data = self.command_data(channel, name, options);
        self.dispatch_interaction(4, user, channel, data, None)
    }

    /// A button press (type 3, component_type 2) on message `message_id`.
    pub async fn button(
        &self,
        user: u64,
        channel: u64,
        message_id: u64,
        custom_id: &str,
    ) -> Interaction {
        let data = json!({"custom_id": custom_id, "component_type": 2});
        self.dispatch_interaction(3, user, channel, data, Some(message_id))
    }

    /// A modal's submission (type 5): the modal `custom_id` with its text inputs, each
    /// `(custom_id, value)`, one to a row as Discord sends them.
    pub async fn modal_submit(
        &self,
        user: u64,
        channel: u64,
        custom_id: &str,
        fields: &[(&str, &str)],
    ) -> Interaction {
        let rows: Vec<Value> = fields
            .iter()
            .map(|(id, value)| {
                json!({"type": 1, "components": [{"type": 4, "custom_id": id, "value": value}]})
            })
            .collect();
        let data = json!({"custom_id": custom_id, "components": rows});
        self.dispatch_interaction(5, user, channel, data, None)
    }

    /// A string select (type 3, component_type 3) with the chosen `values`.
    pub async fn select(
        &self,
        user: u64,
        channel: u64,
        message_id: u64,
        custom_id: &str,
        values: &[&str],
    ) -> Interaction {
        let data = json!({"custom_id": custom_id, "component_type": 3, "values": values});
        self.dispatch_interaction(3, user, channel, data, Some(message_id))
    }

    /// A user adds a unicode reaction: MESSAGE_REACTION_ADD (sent only if the bot asked for
    /// the reaction intent of that kind of channel).
    pub async fn react(&self, user: u64, channel: u64, message_id: u64, emoji: &str) {
        let mut st = self.state();
        let guild = st.guild_of(channel);
        let dm = guild.is_none();
        let mut d = json!({
            "user_id": user.to_string(),
            "channel_id": channel.to_string(),
            "message_id": message_id.to_string(),
            "emoji": {"id": null, "name": emoji},
            "burst": false,
            "burst_colors": [],
            "type": 0,
        });
        if let Some(g) = guild {
            d["guild_id"] = json!(g.to_string());
            d["member"] = st.member_json(user);
        }
        if let Some(author) = st
            .messages
            .get(&message_id)
            .and_then(|m| m["author"]["id"].as_str())
        {
            d["message_author_id"] = json!(author);
        }
        let intent = if dm {
            INTENT_DIRECT_MESSAGE_REACTIONS
        } else {
            INTENT_GUILD_MESSAGE_REACTIONS
        };
        st.dispatch_guild(guild, "MESSAGE_REACTION_ADD", d, Some(intent));
        drop(st);
        self.bump();
    }

    fn command_data(&self, channel: u64, name: &str, options: Value) -> Value {
        let st = self.state();
        let mut options = match options {
            Value::Array(a) => Value::Array(a),
            Value::Null => json!([]),
            other => panic!("options must be a JSON array, got {other}"),
        };
        let mut users = vec![];
        let mut channels = vec![];
        normalize_options(&mut options, &mut users, &mut channels);
        let mut resolved = json!({});
        if !users.is_empty() {
            let mut u = serde_json::Map::new();
            let mut m = serde_json::Map::new();
            for id in users {
                u.insert(id.to_string(), user_json(id));
                let mut member = st.member_json(id);
                if let Some(obj) = member.as_object_mut() {
                    obj.remove("user");
                }
                m.insert(id.to_string(), member);
            }
            resolved["users"] = Value::Object(u);
            resolved["members"] = Value::Object(m);
        }
        if !channels.is_empty() {
            let mut c = serde_json::Map::new();
            for id in channels {
                if let Some(p) = st.partial_channel_json(id) {
                    c.insert(id.to_string(), p);
                }
            }
            resolved["channels"] = Value::Object(c);
        }
        let command_id = st.command_id(name);
        let mut data = json!({
            "id": command_id.to_string(),
            "name": name,
            "type": 1,
            "options": options,
            "resolved": resolved,
        });
        if let Some(g) = st.guild_of(channel) {
            data["guild_id"] = json!(g.to_string());
        }
        data
    }

    /// Like [`slash`](Self::slash), but `None` instead of a panic when no bot is connected (a
    /// soak acts while the gateway may be down).
    pub fn try_slash(
        &self,
        user: u64,
        channel: u64,
        name: &str,
        options: Value,
    ) -> Option<Interaction> {
        let data = self.command_data(channel, name, options);
        self.try_dispatch_interaction(2, user, channel, data, None)
    }

    /// Like [`button`](Self::button), but `None` when no bot is connected.
    pub fn try_button(
        &self,
        user: u64,
        channel: u64,
        message_id: u64,
        custom_id: &str,
    ) -> Option<Interaction> {
        let data = json!({"custom_id": custom_id, "component_type": 2});
        self.try_dispatch_interaction(3, user, channel, data, Some(message_id))
    }

    fn dispatch_interaction(
        &self,
        kind: u8,
        user: u64,
        channel: u64,
        data: Value,
        message_id: Option<u64>,
    ) -> Interaction {
        self.try_dispatch_interaction(kind, user, channel, data, message_id)
            .unwrap_or_else(|| {
                panic!("no bot is connected to the fake gateway (call wait_ready first)")
            })
    }

    fn try_dispatch_interaction(
        &self,
        kind: u8,
        user: u64,
        channel: u64,
        data: Value,
        message_id: Option<u64>,
    ) -> Option<Interaction> {
        let mut st = self.state();
        let id = st.snowflake();
        let token = format!("fake-token-{id}");
        let Some(chan) = st.channels.get(&channel).cloned() else {
            panic!("interaction in unknown channel {channel}: use CHANNEL_ID, a thread or a DM");
        };
        let mut d = json!({
            "id": id.to_string(),
            "application_id": Self::APP_ID.to_string(),
            "type": kind,
            "data": data,
            "channel_id": channel.to_string(),
            "channel": st.partial_channel_json(channel),
            "token": token,
            "version": 1,
            "app_permissions": Self::BOT_PERMISSIONS.to_string(),
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": MAX_UPLOAD,
        });
        match chan.guild {
            None => {
                d["user"] = user_json(user);
                d["context"] = json!(1);
                d["authorizing_integration_owners"] = json!({"1": Self::APP_ID.to_string()});
            }
            Some(guild) => {
                d["guild_id"] = json!(guild.to_string());
                d["guild_locale"] = json!("en-US");
                let mut member = st.member_json(user);
                member["permissions"] = json!(st.permissions_of(guild, user).to_string());
                d["member"] = member;
                d["context"] = json!(0);
                d["authorizing_integration_owners"] = json!({"0": guild.to_string()});
                d["guild"] = json!({"id": guild.to_string(), "locale": "en-US", "features": []});
            }
        }
        if let Some(m) = message_id {
            let message = st.messages.get(&m).cloned().unwrap_or_else(|| {
                // A message the fake never saw (e.g. from before the fake started): a bare one.
                st.message_json(m, channel, json!({}), vec![], 0)
            });
            d["message"] = message;
        }
        let sent_at = Instant::now();
        st.interactions.insert(
            id,
            InteractionState {
                token: token.clone(),
                sent_at,
                channel,
                acked: false,
                original: None,
                component_message: message_id,
            },
        );
        let Some((connection, shard, bot_token)) =
            st.dispatch_guild(chan.guild, "INTERACTION_CREATE", d, None)
        else {
            st.interactions.remove(&id);
            return None;
        };
        drop(st);
        self.bump();
        Some(Interaction {
            id,
            token,
            sent_at,
            kind,
            user,
            channel,
            connection,
            shard,
            bot_token,
        })
    }

    // ----- gateway -----

    async fn gateway_session(self, mut socket: WebSocket) {
        let (tx, mut rx) = mpsc::unbounded_channel::<Outgoing>();
        let session = {
            let mut st = self.state();
            let id = st.next_session;
            st.next_session += 1;
            st.gateway_stats.connections += 1;
            st.sessions.push(Session {
                id,
                tx: tx.clone(),
                seq: 0,
                identified: 0,
                intents: 0,
                session_id: String::new(),
                shard: [0, 1],
                bot_token: String::new(),
            });
            let hello =
                json!({"op": 10, "d": {"heartbeat_interval": 41_250}, "s": null, "t": null});
            st.dispatched.push(hello.clone());
            let _ = tx.send(Outgoing::Frame(hello.to_string()));
            id
        };
        // The session's sender lives in the state; this one would keep `rx` open forever.
        drop(tx);
        self.bump();
        loop {
            tokio::select! {
                out = rx.recv() => match out {
                    Some(Outgoing::Frame(text)) => {
                        if socket.send(WsMessage::Text(text.into())).await.is_err() {
                            break;
                        }
                    }
                    Some(Outgoing::Close(code)) => {
                        let _ = socket
                            .send(WsMessage::Close(Some(CloseFrame {
                                code,
                                reason: "fake discord closed the gateway".into(),
                            })))
                            .await;
                        break;
                    }
                    // Dropping the socket ends the TCP connection without a close frame.
                    Some(Outgoing::Reset) | None => break,
                },
                msg = socket.recv() => match msg {
                    Some(Ok(WsMessage::Text(text))) => {
                        if let Ok(frame) = serde_json::from_str::<Value>(text.as_str()) {
                            self.on_gateway_frame(session, frame);
                        }
                    }
                    Some(Ok(WsMessage::Close(_)) | Err(_)) | None => break,
                    Some(Ok(_)) => {}
                },
            }
        }
        drop(socket);
        self.state().sessions.retain(|s| s.id != session);
        self.bump();
    }

    fn on_gateway_frame(&self, session: u64, frame: Value) {
        let mut st = self.state();
        st.gateway_received.push(frame.clone());
        let op = frame["op"].as_u64();
        match op {
            Some(1) => {
                st.send_to(session, json!({"op": 11, "d": null, "s": null, "t": null}));
            }
            Some(2) => {
                st.gateway_stats.identifies += 1;
                st.identify_count += 1;
                let order = st.identify_count;
                let intents = frame["d"]["intents"].as_u64().unwrap_or(0);
                let sent_shard = match frame["d"]["shard"].as_array().map(Vec::as_slice) {
                    Some([id, total]) => id.as_u64().zip(total.as_u64()),
                    _ => None,
                };
                let shard = sent_shard
                    .filter(|&(id, total)| id < total)
                    .map_or([0, 1], |(id, total)| [id, total]);
                let token = frame["d"]["token"].as_str().unwrap_or("");
                let bot_token = token.strip_prefix("Bot ").unwrap_or(token).to_string();
                let session_id = format!("fake-session-{session}-{order}");
                st.resumable
                    .insert(session_id.clone(), (intents, shard, bot_token.clone()));
                if let Some(s) = st.sessions.iter_mut().find(|s| s.id == session) {
                    s.identified = order;
                    s.intents = intents;
                    s.seq = 0;
                    s.session_id = session_id.clone();
                    s.shard = shard;
                    s.bot_token = bot_token;
                }
                // Discord tells each connection of the guilds of its shard only.
                let guilds: Vec<u64> = st
                    .guilds
                    .iter()
                    .copied()
                    .filter(|&g| Self::shard_of(g, shard[1]) == shard[0])
                    .collect();
                let mut ready = json!({
                    "v": 10,
                    "user": bot_user_json(),
                    "guilds": guilds
                        .iter()
                        .map(|g| json!({"id": g.to_string(), "unavailable": true}))
                        .collect::<Vec<_>>(),
                    "session_id": session_id,
                    "resume_gateway_url": st.ws_url,
                    "application": {"id": Self::APP_ID.to_string(), "flags": 0},
                    "private_channels": [],
                    "relationships": [],
                });
                if sent_shard.is_some() {
                    ready["shard"] = json!(shard);
                }
                st.dispatch_to(session, "READY", ready);
                if intents & INTENT_GUILDS != 0 {
                    for g in guilds {
                        let guild = st.guild_create_json(g);
                        st.dispatch_to(session, "GUILD_CREATE", guild);
                    }
                }
            }
            Some(6) => {
                let session_id = frame["d"]["session_id"].as_str().unwrap_or("").to_string();
                let seq = frame["d"]["seq"].as_u64().unwrap_or(0);
                st.gateway_stats.resumes += 1;
                if let Some((intents, shard, bot_token)) = st.resumable.get(&session_id).cloned() {
                    st.gateway_stats.resumed += 1;
                    st.identify_count += 1;
                    let order = st.identify_count;
                    if let Some(s) = st.sessions.iter_mut().find(|s| s.id == session) {
                        s.identified = order;
                        s.intents = intents;
                        s.seq = seq;
                        s.session_id = session_id;
                        s.shard = shard;
                        s.bot_token = bot_token;
                    }
                    st.dispatch_to(session, "RESUMED", json!({}));
                } else {
                    st.gateway_stats.invalid_sessions += 1;
                    st.send_to(session, json!({"op": 9, "d": false, "s": null, "t": null}));
                }
            }
            _ => {}
        }
        drop(st);
        self.bump();
    }

    // ----- REST -----

    async fn handle_rest(
        &self,
        method: Method,
        uri: Uri,
        headers: HeaderMap,
        body: Bytes,
    ) -> Response {
        let raw_path = uri.path().to_string();
        let path = raw_path
            .strip_prefix("/api/v10")
            .unwrap_or(&raw_path)
            .to_string();
        let query = uri.query().unwrap_or("").to_string();
        let content_type = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let (json, files) = match parse_body(&content_type, body).await {
            Ok(parsed) => parsed,
            Err(why) => (Some(json!({"unparsable body": why})), vec![]),
        };
        let mut sent = Sent {
            method: method.as_str().to_string(),
            path,
            query,
            json,
            files,
            at: Instant::now(),
            status: 0,
            response: Value::Null,
        };
        let bearer = headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::to_string);
        let mut drop_connection = false;
        let ((status, value, extra_headers), hang) = {
            let mut st = self.state();
            let counted = headers.contains_key("authorization")
                && !sent.path.starts_with("/interactions/")
                && !sent.path.starts_with("/webhooks/");
            let limited = if counted {
                st.over_global_limit()
            } else {
                None
            };
            let fault = if limited.is_some() {
                Fault::None
            } else {
                st.chaos_fault(&sent)
            };
            let reply: Reply = if !raw_path.starts_with("/api/v10/") {
                error(404, 0, "404: Not Found (the fake speaks /api/v10 only)")
            } else if let Some(secs) = limited {
                global_429(secs)
            } else if let Fault::Before(status) = fault {
                st.chaos_reply(status)
            } else if fault == (Fault::Drop { after: false }) {
                drop_connection = true;
                (599, json!({"dropped": "before"}), vec![])
            } else if fault != Fault::None {
                let done = st.route(&sent);
                if fault == Fault::After500 {
                    st.chaos_reply(500)
                } else {
                    drop_connection = true;
                    (599, json!({"dropped": "after", "done": done.1}), vec![])
                }
            } else if let Some(reply) = st.injected_failure(&sent, false) {
                reply
            } else if !headers.contains_key("authorization")
                && !sent.path.starts_with("/interactions/")
                && !sent.path.starts_with("/webhooks/")
                // The token endpoint takes the client's id and secret in its body.
                && sent.path != "/oauth2/token"
            {
                error(401, 0, "401: Unauthorized")
            } else {
                let done = match st.oauth.answer(&sent, bearer.as_deref()) {
                    Some(done) => done,
                    None => st.route(&sent),
                };
                st.injected_failure(&sent, true).unwrap_or(done)
            };
            sent.status = reply.0;
            sent.response = reply.1.clone();
            if sent.status == 404
                && sent.response["code"] == 10062
                && sent.path.ends_with("/callback")
                && st.callback_was_late(&sent.path)
            {
                st.late.push(sent.clone());
            }
            if !st.keep_files {
                sent.files.clear();
            }
            if let Some(tap) = &st.tap {
                let _ = tap.send(sent.clone());
            }
            st.requests.push(sent);
            (reply, st.hang.take())
        };
        if let Some(h) = hang {
            tokio::time::sleep(h).await;
        }
        self.bump();
        if drop_connection {
            // A body that fails at once: hyper drops the connection without a whole answer.
            let failing = futures_util::stream::once(async {
                Err::<Bytes, std::io::Error>(std::io::Error::other("connection dropped"))
            });
            return Response::builder()
                .status(StatusCode::OK)
                .header("content-type", "application/json")
                .body(Body::from_stream(failing))
                .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response());
        }
        let mut builder = Response::builder()
            .status(StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR));
        for (k, v) in extra_headers {
            builder = builder.header(k, v);
        }
        let body = if status == 204 {
            Body::empty()
        } else {
            builder = builder.header("content-type", "application/json");
            Body::from(value.to_string())
        };
        builder
            .body(body)
            .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
    }
}

async fn gateway_upgrade(
    AxumState(fake): AxumState<FakeDiscord>,
    upgrade: WebSocketUpgrade,
) -> Response {
    {
        let mut st = fake.state();
        if st.gateway_down {
            st.gateway_stats.refused += 1;
            drop(st);
            fake.bump();
            return (StatusCode::SERVICE_UNAVAILABLE, "gateway down").into_response();
        }
    }
    upgrade.on_upgrade(move |socket| fake.gateway_session(socket))
}

async fn rest(
    AxumState(fake): AxumState<FakeDiscord>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    fake.handle_rest(method, uri, headers, body).await
}

type Files = Vec<(String, Vec<u8>)>;

/// JSON body, or multipart `payload_json` + `files[n]`.
async fn parse_body(content_type: &str, body: Bytes) -> Result<(Option<Value>, Files), String> {
    if content_type.starts_with("multipart/form-data") {
        let boundary = multer::parse_boundary(content_type).map_err(|e| e.to_string())?;
        let stream = futures_util::stream::once(async move { Ok::<Bytes, Infallible>(body) });
        let mut multipart = multer::Multipart::new(stream, boundary);
        let mut json = None;
        let mut files = vec![];
        while let Some(field) = multipart.next_field().await.map_err(|e| e.to_string())? {
            let name = field.name().unwrap_or("").to_string();
            let filename = field.file_name().unwrap_or("").to_string();
            let bytes = field.bytes().await.map_err(|e| e.to_string())?;
            if name == "payload_json" {
                json = Some(serde_json::from_slice(&bytes).map_err(|e| e.to_string())?);
            } else if name.starts_with("files[") || name.starts_with("file") {
                files.push((filename, bytes.to_vec()));
            }
        }
        Ok((json, files))
    } else if content_type.starts_with("application/x-www-form-urlencoded") {
        // OAuth2's token endpoint: the form's fields as a JSON object.
        let fields: serde_json::Map<String, Value> = url::form_urlencoded::parse(&body)
            .map(|(k, v)| (k.into_owned(), Value::String(v.into_owned())))
            .collect();
        Ok((Some(Value::Object(fields)), vec![]))
    } else if body.is_empty() {
        Ok((None, vec![]))
    } else {
        serde_json::from_slice(&body)
            .map(|v| (Some(v), vec![]))
            .map_err(|e| e.to_string())
    }
}

/// Turns user/channel ids given as numbers into Discord's strings and collects them for
/// `resolved`.
fn normalize_options(options: &mut Value, users: &mut Vec<u64>, channels: &mut Vec<u64>) {
    let Some(list) = options.as_array_mut() else {
        return;
    };
    for o in list {
        match o["type"].as_u64() {
            Some(1) | Some(2) => {
                if o.get("options").is_none() {
                    o["options"] = json!([]);
                }
                normalize_options(&mut o["options"], users, channels);
            }
            Some(6) | Some(9) => {
                if let Some(id) = id_of(&o["value"]) {
                    o["value"] = json!(id.to_string());
                    // A mentionable may also be a role; only users are resolved here.
                    users.push(id);
                }
            }
            Some(7) => {
                if let Some(id) = id_of(&o["value"]) {
                    o["value"] = json!(id.to_string());
                    channels.push(id);
                }
            }
            _ => {}
        }
    }
}

fn user_json(id: u64) -> Value {
    let n = id.saturating_sub(FakeDiscord::user(0));
    json!({
        "id": id.to_string(),
        "username": format!("player{n}"),
        "global_name": format!("Player {n}"),
        "discriminator": "0",
        "avatar": null,
        "bot": false,
        "public_flags": 0,
    })
}

fn bot_user_json() -> Value {
    json!({
        "id": FakeDiscord::BOT_ID.to_string(),
        "username": "hexmeros",
        "global_name": null,
        "discriminator": "0",
        "avatar": null,
        "bot": true,
        "verified": true,
        "mfa_enabled": false,
        "flags": 0,
        "public_flags": 0,
    })
}

fn user_or_bot_json(id: u64) -> Value {
    if id == FakeDiscord::BOT_ID {
        bot_user_json()
    } else {
        user_json(id)
    }
}

/// The @everyone role of `guild` (its id is the guild's).
fn everyone_role_json(guild: u64) -> Value {
    json!({
        "id": guild.to_string(),
        "name": "@everyone",
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
        "hoist": false,
        "managed": false,
        "mentionable": false,
        "permissions": FakeDiscord::MEMBER_PERMISSIONS.to_string(),
        "position": 0,
        "flags": 0,
        "icon": null,
        "unicode_emoji": null,
    })
}

fn guild_base_json(guild: u64) -> Value {
    json!({
        "id": guild.to_string(),
        "name": if guild == FakeDiscord::GUILD_ID { "Hex Test Guild" } else { "Other Guild" },
        "icon": null,
        "icon_hash": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": FakeDiscord::user(1).to_string(),
        "afk_channel_id": null,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [everyone_role_json(guild)],
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": null,
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": null,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "safety_alerts_channel_id": null,
    })
}

/// Checks a message body against Discord's limits.
fn validate_message(body: &Value, files: &Files) -> Result<(), Reply> {
    let fail = |why: String| Err(invalid_form(&why));
    if let Some(content) = body["content"].as_str()
        && content.chars().count() > 2000
    {
        return fail(format!("content: {} chars > 2000", content.chars().count()));
    }
    if let Some(embeds) = body["embeds"].as_array()
        && embeds.len() > 10
    {
        return fail(format!("embeds: {} > 10", embeds.len()));
    }
    if let Some(rows) = body["components"].as_array() {
        if rows.len() > 5 {
            return fail(format!("components: {} action rows > 5", rows.len()));
        }
        let mut ids = HashSet::new();
        for (r, row) in rows.iter().enumerate() {
            if row["type"] != 1 {
                return fail(format!("components[{r}]: top level must be an action row"));
            }
            let inner = row["components"].as_array().cloned().unwrap_or_default();
            if inner.is_empty() || inner.len() > 5 {
                return fail(format!(
                    "components[{r}]: {} components (1..=5 allowed)",
                    inner.len()
                ));
            }
            let selects = inner.iter().filter(|c| c["type"] != 2).count();
            if selects > 0 && inner.len() > 1 {
                return fail(format!(
                    "components[{r}]: a select menu must be alone in its row"
                ));
            }
            for (i, c) in inner.iter().enumerate() {
                if let Some(id) = c["custom_id"].as_str() {
                    if id.is_empty() || id.chars().count() > 100 {
                        return fail(format!("components[{r}][{i}].custom_id: length 1..=100"));
                    }
                    if !ids.insert(id.to_string()) {
                        return fail(format!("components[{r}][{i}].custom_id {id:?} duplicated"));
                    }
                } else if c["type"] != 2 || c["style"] != 5 {
                    return fail(format!("components[{r}][{i}]: custom_id missing"));
                }
                if let Some(label) = c["label"].as_str()
                    && label.chars().count() > 80
                {
                    return fail(format!("components[{r}][{i}].label > 80 chars"));
                }
                if let Some(opts) = c["options"].as_array()
                    && (opts.is_empty() || opts.len() > 25)
                {
                    return fail(format!(
                        "components[{r}][{i}].options: {} (1..=25 allowed)",
                        opts.len()
                    ));
                }
            }
        }
    }
    if files.len() > 10 {
        return fail(format!("files: {} > 10", files.len()));
    }
    let total: usize = files.iter().map(|(_, b)| b.len()).sum();
    if total > MAX_UPLOAD {
        return Err(error(413, 40005, "Request entity too large"));
    }
    Ok(())
}

/// Checks a command list against Discord's limits.
fn validate_commands(commands: &[Value]) -> Result<(), Reply> {
    fn name_ok(name: &str) -> bool {
        !name.is_empty()
            && name.chars().count() <= 32
            && name
                .chars()
                .all(|c| c == '-' || c == '_' || c.is_numeric() || c.is_lowercase())
    }
    fn check_options(path: &str, options: &[Value]) -> Result<(), String> {
        if options.len() > 25 {
            return Err(format!("{path}: {} options > 25", options.len()));
        }
        let mut seen_optional = false;
        for o in options {
            let name = o["name"].as_str().unwrap_or("");
            let p = format!("{path} {name}");
            if !name_ok(name) {
                return Err(format!("{p}: invalid option name"));
            }
            let desc = o["description"].as_str().unwrap_or("").chars().count();
            if desc == 0 || desc > 100 {
                return Err(format!("{p}: description length {desc} (1..=100)"));
            }
            if let Some(choices) = o["choices"].as_array()
                && choices.len() > 25
            {
                return Err(format!("{p}: {} choices > 25", choices.len()));
            }
            if o["required"] == true && seen_optional {
                return Err(format!("{p}: required option after an optional one"));
            }
            if matches!(o["type"].as_u64(), Some(1) | Some(2)) {
                check_options(&p, o["options"].as_array().map_or(&[], |v| v))?;
            } else if o["required"] != true {
                seen_optional = true;
            }
        }
        Ok(())
    }
    if commands.len() > 100 {
        return Err(invalid_form("more than 100 commands"));
    }
    for c in commands {
        let name = c["name"].as_str().unwrap_or("");
        let slash = c["type"].as_u64().unwrap_or(1) == 1;
        if slash {
            if !name_ok(name) {
                return Err(invalid_form(&format!("command name {name:?} invalid")));
            }
            let desc = c["description"].as_str().unwrap_or("").chars().count();
            if desc == 0 || desc > 100 {
                return Err(invalid_form(&format!(
                    "/{name}: description length {desc} (1..=100)"
                )));
            }
        }
        check_options(
            &format!("/{name}"),
            c["options"].as_array().map_or(&[], |v| v),
        )
        .map_err(|why| invalid_form(&why))?;
    }
    Ok(())
}

impl State {
    fn snowflake(&mut self) -> u64 {
        self.snowflake_counter += 1;
        (now_ms().saturating_sub(DISCORD_EPOCH_MS) << 22) | (self.snowflake_counter & 0x3F_FFFF)
    }

    fn command_id(&self, name: &str) -> u64 {
        // Stable per name, so repeated runs see the same command id.
        let h = name.bytes().fold(0u64, |h, b| {
            h.wrapping_mul(1_099_511_628_211).wrapping_add(u64::from(b))
        });
        1_300_000_000_000_000_000 + h % 1_000_000_000_000
    }

    fn permissions_of(&self, guild: u64, user: u64) -> u64 {
        self.permissions
            .get(&(guild, user))
            .copied()
            .unwrap_or(FakeDiscord::MEMBER_PERMISSIONS)
    }

    fn member_json(&self, user: u64) -> Value {
        json!({
            "user": user_or_bot_json(user),
            "nick": null,
            "avatar": null,
            "banner": null,
            "roles": [],
            "joined_at": "2026-01-01T00:00:00.000000+00:00",
            "premium_since": null,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "communication_disabled_until": null,
        })
    }

    fn channel_json(&self, id: u64) -> Option<Value> {
        let c = self.channels.get(&id)?;
        Some(match &c.kind {
            ChannelKind::Text => json!({
                "id": id.to_string(),
                "type": 0,
                "guild_id": c.guild.unwrap_or(FakeDiscord::GUILD_ID).to_string(),
                "name": c.name,
                "position": 0,
                "permission_overwrites": [],
                "nsfw": false,
                "topic": null,
                "last_message_id": null,
                "parent_id": null,
                "rate_limit_per_user": 0,
                "flags": 0,
            }),
            ChannelKind::Thread {
                parent,
                private,
                archived,
                locked,
                auto_archive,
                created,
            } => json!({
                "id": id.to_string(),
                "type": if *private { 12 } else { 11 },
                "guild_id": c.guild.unwrap_or(FakeDiscord::GUILD_ID).to_string(),
                "parent_id": parent.to_string(),
                "owner_id": FakeDiscord::BOT_ID.to_string(),
                "name": c.name,
                "last_message_id": null,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": archived,
                    "auto_archive_duration": auto_archive,
                    "archive_timestamp": created,
                    "locked": locked,
                    "create_timestamp": created,
                },
            }),
            ChannelKind::Dm { user } => json!({
                "id": id.to_string(),
                "type": 1,
                "last_message_id": null,
                "recipients": [user_json(*user)],
                "flags": 0,
            }),
        })
    }

    fn partial_channel_json(&self, id: u64) -> Option<Value> {
        let mut full = self.channel_json(id)?;
        let obj = full.as_object_mut()?;
        let keep = [
            "id",
            "type",
            "name",
            "parent_id",
            "thread_metadata",
            "guild_id",
            "flags",
        ];
        obj.retain(|k, _| keep.contains(&k.as_str()));
        if !matches!(self.channels.get(&id)?.kind, ChannelKind::Dm { .. }) {
            obj.insert(
                "permissions".into(),
                json!(FakeDiscord::BOT_PERMISSIONS.to_string()),
            );
        }
        Some(full)
    }

    /// The DM channel with `user` (one per user), opened now if there is none.
    fn dm_with(&mut self, user: u64) -> u64 {
        if let Some(id) = self.dm_of_user.get(&user) {
            return *id;
        }
        let id = self.snowflake();
        self.dm_of_user.insert(user, id);
        self.channels.insert(
            id,
            FakeChannel {
                name: String::new(),
                guild: None,
                kind: ChannelKind::Dm { user },
            },
        );
        id
    }

    /// The guild of a text channel or thread; none for a DM or an unknown channel.
    fn guild_of(&self, channel: u64) -> Option<u64> {
        self.channels.get(&channel).and_then(|c| c.guild)
    }

    fn guild_create_json(&self, guild: u64) -> Value {
        let mut g = guild_base_json(guild);
        let mut channels = vec![];
        let mut threads = vec![];
        for (id, c) in self.channels.iter().filter(|(_, c)| c.guild == Some(guild)) {
            match c.kind {
                ChannelKind::Text => channels.extend(self.channel_json(*id)),
                ChannelKind::Thread {
                    archived: false, ..
                } => threads.extend(self.channel_json(*id)),
                _ => {}
            }
        }
        let mut members: Vec<Value> = (1..=FakeDiscord::MEMBERS)
            .map(|n| self.member_json(FakeDiscord::user(n)))
            .collect();
        members.push(self.member_json(FakeDiscord::BOT_ID));
        let extra = json!({
            "joined_at": "2026-01-01T00:00:00.000000+00:00",
            "large": false,
            "unavailable": false,
            "member_count": members.len(),
            "voice_states": [],
            "members": members,
            "channels": channels,
            "threads": threads,
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        });
        if let (Some(g), Some(extra)) = (g.as_object_mut(), extra.as_object()) {
            g.extend(extra.clone());
        }
        g
    }

    /// Message JSON as Discord answers it (author = the bot).
    fn message_json(
        &mut self,
        id: u64,
        channel: u64,
        body: Value,
        attachments: Vec<Value>,
        kind: u8,
    ) -> Value {
        let mut m = json!({
            "id": id.to_string(),
            "channel_id": channel.to_string(),
            "author": bot_user_json(),
            "content": body["content"].as_str().unwrap_or(""),
            "timestamp": now_rfc3339(),
            "edited_timestamp": null,
            "tts": body["tts"].as_bool().unwrap_or(false),
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": body["embeds"].as_array().cloned().unwrap_or_default(),
            "components": body["components"].as_array().cloned().unwrap_or_default(),
            "pinned": false,
            "type": kind,
            "flags": body["flags"].as_u64().unwrap_or(0),
        });
        if let Some(g) = self.guild_of(channel) {
            // Gateway messages carry guild_id; REST ones do not, but it does no harm.
            m["guild_id"] = json!(g.to_string());
        }
        m
    }

    fn attachments_from(&mut self, channel: u64, files: &Files) -> Vec<Value> {
        files
            .iter()
            .map(|(name, bytes)| {
                let id = self.snowflake();
                let content_type = if name.ends_with(".png") {
                    json!("image/png")
                } else if name.ends_with(".gif") {
                    json!("image/gif")
                } else if name.ends_with(".txt") {
                    json!("text/plain; charset=utf-8")
                } else {
                    Value::Null
                };
                let url = format!("https://cdn.fake/attachments/{channel}/{id}/{name}");
                json!({
                    "id": id.to_string(),
                    "filename": name,
                    "size": bytes.len(),
                    "url": url,
                    "proxy_url": url,
                    "content_type": content_type,
                })
            })
            .collect()
    }

    /// Creates and stores a message from a request body.
    fn create_message(
        &mut self,
        channel: u64,
        body: &Value,
        files: &Files,
        kind: u8,
        webhook: bool,
    ) -> Value {
        let id = self.snowflake();
        let attachments = self.attachments_from(channel, files);
        let mut m = self.message_json(id, channel, body.clone(), attachments, kind);
        if webhook {
            m["webhook_id"] = json!(FakeDiscord::APP_ID.to_string());
            m["application_id"] = json!(FakeDiscord::APP_ID.to_string());
        }
        let ephemeral = body["flags"].as_u64().is_some_and(|f| f & 64 != 0);
        if let Some(FakeChannel {
            kind: ChannelKind::Thread { archived, .. },
            ..
        }) = self.channels.get_mut(&channel)
            && !ephemeral
        {
            // A message from the bot unarchives a thread; an ephemeral answer, which only its
            // user sees, is no message in the thread and does not.
            *archived = false;
        }
        self.messages.insert(id, m.clone());
        self.made.push(Made {
            id,
            channel,
            nonce: nonce_key(body),
            content: body["content"].as_str().unwrap_or("").to_string(),
            at: Instant::now(),
        });
        m
    }

    /// With the global limit on: `Some(seconds to the end of the window)` if this call is one
    /// too many in its second (counted), else `None` (counted as let through).
    fn over_global_limit(&mut self) -> Option<f64> {
        let g = self.global_limit.as_mut()?;
        let now = Instant::now();
        if now.duration_since(g.window) >= Duration::from_secs(1) {
            g.window = now;
            g.used = 0;
        }
        if g.used >= g.per_second {
            self.chaos_stats.global429 += 1;
            let left = Duration::from_secs(1).saturating_sub(now.duration_since(g.window));
            return Some(left.as_secs_f64().max(0.001));
        }
        g.used += 1;
        self.chaos_stats.global_passed += 1;
        None
    }

    /// The fault the chaos (or an outage) picks for a call, counted.
    fn chaos_fault(&mut self, sent: &Sent) -> Fault {
        if self.outage {
            self.chaos_stats.outage503 += 1;
            return Fault::Before(503);
        }
        let eligible = matches!(sent.method.as_str(), "POST" | "PATCH" | "PUT")
            && (sent.path.starts_with("/channels/") || sent.path == "/users/@me/channels");
        let Some((c, rng)) = self.chaos.as_mut().filter(|_| eligible) else {
            return Fault::None;
        };
        self.chaos_stats.eligible += 1;
        let r = rng.next_f64();
        let mut edge = c.p500;
        if r < edge {
            self.chaos_stats.e500 += 1;
            return Fault::Before(500);
        }
        edge += c.p429;
        if r < edge {
            self.chaos_stats.e429 += 1;
            return Fault::Before(429);
        }
        edge += c.p_after;
        if r < edge {
            self.chaos_stats.after500 += 1;
            return Fault::After500;
        }
        edge += c.p_drop;
        if r < edge {
            let after = rng.next_f64() < 0.5;
            self.chaos_stats.dropped += 1;
            self.chaos_stats.dropped_after += u64::from(after);
            return Fault::Drop { after };
        }
        Fault::None
    }

    fn chaos_reply(&self, status: u16) -> Reply {
        match status {
            429 => route_429(self.chaos.as_ref().map_or(1.0, |(c, _)| c.retry_after)),
            503 => error(503, 0, "503: Service Unavailable"),
            s => error(s, 0, "500: Internal Server Error"),
        }
    }

    /// Discord's `enforce_nonce`: a message with the nonce of one the same author made in the
    /// last few minutes is not made again; the first one is returned.
    fn enforced_nonce(&self, body: &Value) -> Option<Value> {
        if body["enforce_nonce"] != json!(true) {
            return None;
        }
        let (id, at) = self.nonces.get(&nonce_key(body)?)?;
        (at.elapsed() < Duration::from_secs(300))
            .then(|| self.messages.get(id).cloned())
            .flatten()
    }

    fn remember_nonce(&mut self, body: &Value, m: &Value) {
        if let (Some(key), Some(id)) = (nonce_key(body), id_of(&m["id"])) {
            self.nonces.insert(key, (id, Instant::now()));
        }
    }

    /// Applies a PATCH body to a stored message.
    fn edit_message(&mut self, id: u64, body: &Value, files: &Files) -> Option<Value> {
        let channel = id_of(&self.messages.get(&id)?["channel_id"])?;
        let new_attachments = self.attachments_from(channel, files);
        let m = self.messages.get_mut(&id)?;
        for key in ["content", "embeds", "components", "flags"] {
            if let Some(v) = body.get(key) {
                m[key] = if v.is_null() && key != "content" {
                    json!([])
                } else if v.is_null() {
                    json!("")
                } else {
                    v.clone()
                };
            }
        }
        let mut attachments: Vec<Value> = m["attachments"].as_array().cloned().unwrap_or_default();
        if let Some(keep) = body["attachments"].as_array() {
            let keep_ids: HashSet<String> = keep
                .iter()
                .filter_map(|a| id_of(&a["id"]).map(|i| i.to_string()))
                .collect();
            attachments.retain(|a| a["id"].as_str().is_some_and(|i| keep_ids.contains(i)));
        }
        attachments.extend(new_attachments);
        m["attachments"] = json!(attachments);
        m["edited_timestamp"] = json!(now_rfc3339());
        Some(m.clone())
    }

    fn injected_failure(&mut self, sent: &Sent, after: bool) -> Option<Reply> {
        let f = self.failures.iter_mut().find(|f| {
            f.times > 0
                && f.after == after
                && (f.method == "*" || f.method == sent.method)
                && match f.path_contains.strip_suffix('$') {
                    Some(end) => sent.path.ends_with(end),
                    None => sent.path.contains(&f.path_contains),
                }
        })?;
        f.times -= 1;
        let (status, retry_after) = (f.status, f.retry_after);
        if let Some(h) = f.hang {
            self.hang = Some(h);
        }
        self.failures.retain(|f| f.times > 0);
        Some(match status {
            429 => route_429(retry_after.unwrap_or(1.0)),
            403 => error(403, 50013, "Missing Permissions"),
            404 => error(404, 10003, "Unknown Channel"),
            500 => error(500, 0, "500: Internal Server Error"),
            502 => error(502, 0, "502: Bad Gateway"),
            s => error(s, 0, "injected failure"),
        })
    }

    fn callback_was_late(&self, path: &str) -> bool {
        let parts: Vec<&str> = path.split('/').collect();
        let Some(id) = parts.get(2).and_then(|s| s.parse::<u64>().ok()) else {
            return false;
        };
        self.interactions
            .get(&id)
            .is_some_and(|i| i.sent_at.elapsed() > self.deadline && !i.acked)
    }

    fn send_to(&mut self, session: u64, frame: Value) {
        self.dispatched.push(frame.clone());
        if let Some(s) = self.sessions.iter().find(|s| s.id == session) {
            let _ = s.tx.send(Outgoing::Frame(frame.to_string()));
        }
    }

    fn dispatch_to(&mut self, session: u64, t: &str, d: Value) {
        let Some(s) = self.sessions.iter_mut().find(|s| s.id == session) else {
            return;
        };
        s.seq += 1;
        let frame = json!({"op": 0, "t": t, "s": s.seq, "d": d});
        let _ = s.tx.send(Outgoing::Frame(frame.to_string()));
        self.dispatched.push(frame);
    }

    fn gateway_sessions(&self) -> Vec<GatewaySession> {
        let mut v: Vec<GatewaySession> = self
            .sessions
            .iter()
            .filter(|s| s.identified > 0)
            .map(|s| GatewaySession {
                connection: s.id,
                shard: s.shard,
                bot_token: s.bot_token.clone(),
                order: s.identified,
            })
            .collect();
        v.sort_by_key(|s| s.order);
        v
    }

    /// The session a dispatch about `guild` goes to, as Discord routes it: the identified
    /// sessions of shard `(guild >> 22) % total` (shard 0 for a DM, `guild` none), the most
    /// recently identified of them. An unsharded session (`[0, 1]`) is of every guild's shard,
    /// so one unsharded bot gets everything, its latest connection after a reconnect.
    fn session_for(&self, guild: Option<u64>) -> Option<&Session> {
        self.sessions
            .iter()
            .filter(|s| s.identified > 0)
            .filter(|s| guild.map_or(0, |g| FakeDiscord::shard_of(g, s.shard[1])) == s.shard[0])
            .max_by_key(|s| s.identified)
    }

    /// Dispatches to the session of `guild`'s shard (see [`State::session_for`]): that session,
    /// or `None` if no connection has that shard. With `intent`, a session that did not ask for
    /// it gets nothing (it is still returned).
    fn dispatch_guild(
        &mut self,
        guild: Option<u64>,
        t: &str,
        d: Value,
        intent: Option<u64>,
    ) -> Option<(u64, [u64; 2], String)> {
        let (id, intents, shard, token) = self
            .session_for(guild)
            .map(|s| (s.id, s.intents, s.shard, s.bot_token.clone()))?;
        if intent.is_none_or(|i| intents & i != 0) {
            self.dispatch_to(id, t, d);
        }
        Some((id, shard, token))
    }

    fn route(&mut self, sent: &Sent) -> Reply {
        let segs: Vec<&str> = sent.path.trim_start_matches('/').split('/').collect();
        let body = sent.json.clone().unwrap_or(Value::Null);
        let files = &sent.files;
        let num = |s: &str| s.parse::<u64>().ok();
        match (sent.method.as_str(), segs.as_slice()) {
            ("GET", ["gateway"]) => ok(json!({"url": self.ws_url})),
            ("GET", ["gateway", "bot"]) => ok(json!({
                "url": self.ws_url,
                "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
            })),
            ("GET", ["users", "@me"]) => ok(bot_user_json()),
            ("GET", ["users", id]) => match num(id) {
                Some(id) => ok(user_or_bot_json(id)),
                None => error(404, 10013, "Unknown User"),
            },
            ("GET", ["applications", "@me"]) | ("GET", ["oauth2", "applications", "@me"]) => {
                ok(json!({
                    "id": FakeDiscord::APP_ID.to_string(),
                    "name": "hexmeros",
                    "icon": null,
                    "description": "hex games",
                    "rpc_origins": [],
                    "bot_public": true,
                    "bot_require_code_grant": false,
                    "owner": user_json(FakeDiscord::user(1)),
                    "verify_key": "0000",
                    "team": null,
                    "flags": 0,
                    "bot": bot_user_json(),
                }))
            }
            (method, ["applications", app, rest @ ..])
                if rest.last() == Some(&"commands")
                    || rest.iter().rev().nth(1) == Some(&"commands") =>
            {
                if num(app) != Some(FakeDiscord::APP_ID) {
                    return error(403, 50001, "Missing Access (wrong application id)");
                }
                let guild = match rest {
                    ["commands", ..] => None,
                    ["guilds", g, "commands", ..] => Some(*g),
                    _ => return error(404, 0, "404: Not Found"),
                };
                if guild.is_some_and(|g| !num(g).is_some_and(|g| self.guilds.contains(&g))) {
                    return error(404, 10004, "Unknown Guild");
                }
                match (method, rest.last() == Some(&"commands")) {
                    ("PUT", true) => {
                        let list = body.as_array().cloned().unwrap_or_default();
                        if let Err(reply) = validate_commands(&list) {
                            return reply;
                        }
                        self.commands = list;
                        ok(json!([]))
                    }
                    ("GET", true) => ok(json!([])),
                    ("POST", true) => {
                        if let Err(reply) = validate_commands(std::slice::from_ref(&body)) {
                            return reply;
                        }
                        let name = body["name"].as_str().unwrap_or("");
                        let mut c = body.clone();
                        c["id"] = json!(self.command_id(name).to_string());
                        c["application_id"] = json!(FakeDiscord::APP_ID.to_string());
                        c["version"] = json!("1");
                        if c.get("type").is_none() {
                            c["type"] = json!(1);
                        }
                        if let Some(g) = guild {
                            c["guild_id"] = json!(g);
                        }
                        self.commands.retain(|o| o["name"] != body["name"]);
                        self.commands.push(body);
                        ok(c)
                    }
                    ("DELETE", false) => no_content(),
                    _ => error(404, 0, "404: Not Found"),
                }
            }
            ("POST", ["interactions", id, token, "callback"]) => {
                self.callback(num(id), token, &body, files)
            }
            (method, ["webhooks", app, token, rest @ ..]) => {
                if num(app) != Some(FakeDiscord::APP_ID) {
                    return error(404, 10015, "Unknown Webhook");
                }
                self.webhook(method, token, rest, &body, files)
            }
            (_, ["guilds", g, ..]) if !num(g).is_some_and(|g| self.guilds.contains(&g)) => {
                error(404, 10004, "Unknown Guild")
            }
            ("GET", ["guilds", g]) => ok(guild_base_json(num(g).unwrap_or_default())),
            ("GET", ["guilds", g, "channels"]) => {
                let guild = num(g);
                let list: Vec<Value> = self
                    .channels
                    .iter()
                    .filter(|(_, c)| matches!(c.kind, ChannelKind::Text) && c.guild == guild)
                    .filter_map(|(id, _)| self.channel_json(*id))
                    .collect();
                ok(json!(list))
            }
            ("GET", ["guilds", g, "roles"]) => {
                ok(json!([everyone_role_json(num(g).unwrap_or_default())]))
            }
            ("GET", ["guilds", _, "members", u]) => match num(u) {
                Some(u) => ok(self.member_json(u)),
                None => error(404, 10013, "Unknown User"),
            },
            ("GET", ["guilds", g, "threads", "active"]) => {
                let guild = num(g);
                let threads: Vec<Value> = self
                    .channels
                    .iter()
                    .filter(|(_, c)| {
                        c.guild == guild
                            && matches!(
                                c.kind,
                                ChannelKind::Thread {
                                    archived: false,
                                    ..
                                }
                            )
                    })
                    .filter_map(|(id, _)| self.channel_json(*id))
                    .collect();
                ok(json!({"threads": threads, "members": []}))
            }
            ("POST", ["users", "@me", "channels"]) => {
                let Some(user) = id_of(&body["recipient_id"]) else {
                    return invalid_form("recipient_id missing");
                };
                let id = self.dm_with(user);
                ok(self.channel_json(id).unwrap_or(Value::Null))
            }
            (method, ["channels", c, rest @ ..]) => match num(c) {
                Some(c) if self.channels.contains_key(&c) => {
                    self.channel_route(method, c, rest, &body, files)
                }
                _ => error(404, 10003, "Unknown Channel"),
            },
            _ => error(404, 0, "404: Not Found"),
        }
    }

    fn channel_route(
        &mut self,
        method: &str,
        channel: u64,
        rest: &[&str],
        body: &Value,
        files: &Files,
    ) -> Reply {
        let num = |s: &str| s.parse::<u64>().ok();
        let in_channel = |st: &State, m: u64| {
            st.messages
                .get(&m)
                .is_some_and(|v| id_of(&v["channel_id"]) == Some(channel))
        };
        match (method, rest) {
            ("GET", []) => ok(self.channel_json(channel).unwrap_or(Value::Null)),
            ("PATCH", []) => {
                let Some(c) = self.channels.get_mut(&channel) else {
                    return error(404, 10003, "Unknown Channel");
                };
                if let Some(name) = body["name"].as_str() {
                    c.name = name.into();
                }
                if let ChannelKind::Thread {
                    archived, locked, ..
                } = &mut c.kind
                {
                    if let Some(a) = body["archived"].as_bool() {
                        *archived = a;
                    }
                    if let Some(l) = body["locked"].as_bool() {
                        *locked = l;
                    }
                }
                ok(self.channel_json(channel).unwrap_or(Value::Null))
            }
            ("POST", ["messages"]) => {
                if let Some(ChannelKind::Dm { user }) = self.channels.get(&channel).map(|c| &c.kind)
                    && self.closed_dms.contains(user)
                {
                    return error(403, 50007, "Cannot send messages to this user");
                }
                // Only someone who may manage threads reopens a locked one; a message does not.
                if let Some(ChannelKind::Thread {
                    archived: true,
                    locked: true,
                    ..
                }) = self.channels.get(&channel).map(|c| &c.kind)
                {
                    return error(400, 50083, "Thread is archived");
                }
                if let Err(reply) = validate_message(body, files) {
                    return reply;
                }
                if let Some(f) = body["flags"]
                    .as_u64()
                    .filter(|f| f & !NEW_MESSAGE_FLAGS != 0)
                {
                    return invalid_form(&format!(
                        "flags: {f} has a flag a new message cannot set"
                    ));
                }
                if body["content"].as_str().unwrap_or("").is_empty()
                    && body["embeds"].as_array().is_none_or(|e| e.is_empty())
                    && body["components"].as_array().is_none_or(|e| e.is_empty())
                    && files.is_empty()
                    && body.get("sticker_ids").is_none()
                    && body.get("poll").is_none()
                {
                    return error(400, 50006, "Cannot send an empty message");
                }
                if let Some(first) = self.enforced_nonce(body) {
                    self.chaos_stats.nonce_answered += 1;
                    return ok(first);
                }
                let m = self.create_message(channel, body, files, 0, false);
                self.remember_nonce(body, &m);
                ok(m)
            }
            ("GET", ["messages"]) => {
                let mut list: Vec<Value> = self
                    .messages
                    .values()
                    .filter(|m| id_of(&m["channel_id"]) == Some(channel))
                    .cloned()
                    .collect();
                list.sort_by_key(|m| std::cmp::Reverse(id_of(&m["id"])));
                ok(json!(list))
            }
            (_, ["messages", m, ..]) if num(m).is_none_or(|m| !in_channel(self, m)) => {
                error(404, 10008, "Unknown Message")
            }
            ("GET", ["messages", m]) => ok(num(m)
                .and_then(|m| self.messages.get(&m).cloned())
                .unwrap_or(Value::Null)),
            ("PATCH", ["messages", m]) => {
                if let Err(reply) = validate_message(body, files) {
                    return reply;
                }
                match num(m).and_then(|m| self.edit_message(m, body, files)) {
                    Some(v) => ok(v),
                    None => error(404, 10008, "Unknown Message"),
                }
            }
            ("DELETE", ["messages", m]) => {
                if let Some(m) = num(m) {
                    self.messages.remove(&m);
                }
                no_content()
            }
            ("PUT" | "DELETE", ["messages", _, "reactions", _, _]) => no_content(),
            ("DELETE", ["messages", _, "reactions", ..]) => no_content(),
            ("GET", ["pins"]) => {
                let mut list: Vec<Value> = self
                    .messages
                    .values()
                    .filter(|m| id_of(&m["channel_id"]) == Some(channel) && m["pinned"] == true)
                    .cloned()
                    .collect();
                list.sort_by_key(|m| std::cmp::Reverse(id_of(&m["id"])));
                ok(json!(list))
            }
            ("PUT" | "DELETE", ["pins", m]) => match num(m).filter(|&m| in_channel(self, m)) {
                Some(m) => {
                    if let Some(v) = self.messages.get_mut(&m) {
                        v["pinned"] = json!(method == "PUT");
                    }
                    no_content()
                }
                None => error(404, 10008, "Unknown Message"),
            },
            ("POST", ["messages", m, "threads"]) => {
                let Some(m) = num(m) else {
                    return error(404, 10008, "Unknown Message");
                };
                if self.channels.contains_key(&m) {
                    return error(
                        400,
                        160004,
                        "A thread has already been created for this message",
                    );
                }
                self.create_thread(m, channel, body, false)
            }
            ("POST", ["threads"]) => {
                let id = self.snowflake();
                let private = body["type"].as_u64() == Some(12);
                self.create_thread(id, channel, body, private)
            }
            ("PUT" | "DELETE", ["thread-members", _]) => no_content(),
            ("POST", ["typing"]) => no_content(),
            _ => error(404, 0, "404: Not Found"),
        }
    }

    fn create_thread(&mut self, id: u64, parent: u64, body: &Value, private: bool) -> Reply {
        if !matches!(
            self.channels.get(&parent).map(|c| &c.kind),
            Some(ChannelKind::Text)
        ) {
            return invalid_form("threads can only be created in a guild text channel");
        }
        let Some(name) = body["name"].as_str().filter(|n| !n.is_empty()) else {
            return invalid_form("name: required");
        };
        if name.chars().count() > 100 {
            return invalid_form("name: must be 1..=100 chars");
        }
        let auto_archive = body["auto_archive_duration"].as_u64().unwrap_or(4320);
        if ![60, 1440, 4320, 10080].contains(&auto_archive) {
            return invalid_form("auto_archive_duration: one of 60, 1440, 4320, 10080");
        }
        let guild = self.guild_of(parent);
        self.channels.insert(
            id,
            FakeChannel {
                name: name.into(),
                guild,
                kind: ChannelKind::Thread {
                    parent,
                    private,
                    archived: false,
                    locked: false,
                    auto_archive,
                    created: now_rfc3339(),
                },
            },
        );
        // The starter message shows its thread.
        if let Some(thread) = self.channel_json(id)
            && let Some(stored) = self.messages.get_mut(&id)
        {
            stored["thread"] = thread;
        }
        // Discord answers 201 Created for new threads.
        (201, self.channel_json(id).unwrap_or(Value::Null), vec![])
    }

    fn callback(&mut self, id: Option<u64>, token: &str, body: &Value, files: &Files) -> Reply {
        let unknown = || error(404, 10062, "Unknown interaction");
        let Some(id) = id else { return unknown() };
        let deadline = self.deadline;
        let Some(ix) = self.interactions.get(&id) else {
            return unknown();
        };
        if ix.token != token {
            return unknown();
        }
        if ix.acked {
            return error(400, 40060, "Interaction has already been acknowledged.");
        }
        if ix.sent_at.elapsed() > deadline {
            return unknown();
        }
        let kind = body["type"].as_u64().unwrap_or(0);
        let data = body.get("data").cloned().unwrap_or(json!({}));
        if let Err(reply) = validate_message(&data, files) {
            return reply;
        }
        let (channel, component_message) = (ix.channel, ix.component_message);
        let original = match kind {
            4 | 5 => {
                let mut d = data.clone();
                if kind == 5 {
                    // "Bot is thinking…": empty until the original is edited.
                    d = json!({"flags": data["flags"].as_u64().unwrap_or(0) | 128});
                }
                let m = self.create_message(channel, &d, files, 20, true);
                id_of(&m["id"])
            }
            6 => component_message,
            7 => {
                if let Some(m) = component_message {
                    self.edit_message(m, &data, files);
                }
                component_message
            }
            8 => {
                let n = data["choices"].as_array().map_or(0, |c| c.len());
                if n > 25 {
                    return invalid_form(&format!("data.choices: {n} > 25"));
                }
                None
            }
            // A modal opens; LAUNCH_ACTIVITY opens the app's Activity in the channel.
            9 | 12 => None,
            other => return invalid_form(&format!("type: unknown callback type {other}")),
        };
        if let Some(ix) = self.interactions.get_mut(&id) {
            ix.acked = true;
            ix.original = original;
        }
        no_content()
    }

    fn webhook(
        &mut self,
        method: &str,
        token: &str,
        rest: &[&str],
        body: &Value,
        files: &Files,
    ) -> Reply {
        let unknown = || error(404, 10015, "Unknown Webhook");
        let Some((_, ix)) = self.interactions.iter().find(|(_, i)| i.token == token) else {
            return unknown();
        };
        if !ix.acked {
            return unknown();
        }
        let (channel, original) = (ix.channel, ix.original);
        let num = |s: &str| s.parse::<u64>().ok();
        match (method, rest) {
            ("POST", []) => {
                if let Err(reply) = validate_message(body, files) {
                    return reply;
                }
                ok(self.create_message(channel, body, files, 0, true))
            }
            (_, ["messages", which]) => {
                let target = if *which == "@original" {
                    original
                } else {
                    num(which)
                };
                let Some(target) = target.filter(|m| self.messages.contains_key(m)) else {
                    return error(404, 10008, "Unknown Message");
                };
                match method {
                    "GET" => ok(self.messages.get(&target).cloned().unwrap_or(Value::Null)),
                    "PATCH" => {
                        if let Err(reply) = validate_message(body, files) {
                            return reply;
                        }
                        let mut b = body.clone();
                        if *which == "@original" {
                            // Editing a deferred reply replaces the "thinking" state.
                            if let Some(m) = self.messages.get_mut(&target)
                                && let Some(f) = m["flags"].as_u64()
                            {
                                m["flags"] = json!(f & !128);
                            }
                            if let Some(o) = b.as_object_mut() {
                                o.remove("flags");
                            }
                        }
                        match self.edit_message(target, &b, files) {
                            Some(v) => ok(v),
                            None => error(404, 10008, "Unknown Message"),
                        }
                    }
                    "DELETE" => {
                        self.messages.remove(&target);
                        no_content()
                    }
                    _ => error(404, 0, "404: Not Found"),
                }
            }
            _ => error(404, 0, "404: Not Found"),
        }
    }
}

/// A message body's nonce (a string or a number, as Discord takes either), as text.
fn nonce_key(body: &Value) -> Option<String> {
    match &body["nonce"] {
        Value::String(n) => Some(n.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}
