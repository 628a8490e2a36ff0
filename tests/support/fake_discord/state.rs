//! The fake Discord's world: ids, members, channels, messages, nonces, chaos, and the sessions
//! a dispatch goes to.
use super::*;

impl State {
    pub(super) fn snowflake(&mut self) -> u64 {
        self.snowflake_counter += 1;
        (now_ms().saturating_sub(DISCORD_EPOCH_MS) << 22) | (self.snowflake_counter & 0x3F_FFFF)
    }

    pub(super) fn command_id(&self, name: &str) -> u64 {
        // Stable per name, so repeated runs see the same command id.
        let h = name.bytes().fold(0u64, |h, b| {
            h.wrapping_mul(1_099_511_628_211).wrapping_add(u64::from(b))
        });
        1_300_000_000_000_000_000 + h % 1_000_000_000_000
    }

    pub(super) fn permissions_of(&self, guild: u64, user: u64) -> u64 {
        self.permissions
            .get(&(guild, user))
            .copied()
            .unwrap_or(FakeDiscord::MEMBER_PERMISSIONS)
    }

    /// The bot's role in `guild`, with its permissions.
    pub(super) fn bot_role_json(&self, guild: u64) -> Value {
        let mut role = everyone_role_json(guild);
        role["id"] = json!(FakeDiscord::bot_role(guild).to_string());
        role["name"] = json!("hexmeros");
        role["managed"] = json!(true);
        role["position"] = json!(1);
        role["permissions"] = json!(self.bot_permissions.to_string());
        role
    }

    pub(super) fn member_json(&self, user: u64) -> Value {
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

    /// A text channel's permission overwrites: none, or those of [`FakeDiscord::hide_channel`]
    /// (View Channel is bit 10).
    fn overwrites(&self, id: u64, guild: Option<u64>) -> Value {
        let Some(allowed) = self.hidden.get(&id) else {
            return json!([]);
        };
        let everyone = guild.unwrap_or(FakeDiscord::GUILD_ID).to_string();
        let mut list = vec![json!({"id": everyone, "type": 0, "allow": "0", "deny": "1024"})];
        list.extend(
            allowed
                .iter()
                .map(|u| json!({"id": u.to_string(), "type": 1, "allow": "1024", "deny": "0"})),
        );
        json!(list)
    }

    pub(super) fn channel_json(&self, id: u64) -> Option<Value> {
        let c = self.channels.get(&id)?;
        Some(match &c.kind {
            ChannelKind::Text => json!({
                "id": id.to_string(),
                "type": 0,
                "guild_id": c.guild.unwrap_or(FakeDiscord::GUILD_ID).to_string(),
                "name": c.name,
                "position": 0,
                "permission_overwrites": self.overwrites(id, c.guild),
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

    pub(super) fn partial_channel_json(&self, id: u64) -> Option<Value> {
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
                json!(self.bot_permissions.to_string()),
            );
        }
        Some(full)
    }

    /// The DM channel with `user` (one per user), opened now if there is none.
    pub(super) fn dm_with(&mut self, user: u64) -> u64 {
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
    pub(super) fn guild_of(&self, channel: u64) -> Option<u64> {
        self.channels.get(&channel).and_then(|c| c.guild)
    }

    pub(super) fn guild_create_json(&self, guild: u64) -> Value {
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
    pub(super) fn message_json(
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

    pub(super) fn attachments_from(&mut self, channel: u64, files: &Files) -> Vec<Value> {
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
    pub(super) fn create_message(
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
    pub(super) fn over_global_limit(&mut self) -> Option<f64> {
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
    pub(super) fn chaos_fault(&mut self, sent: &Sent) -> Fault {
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

    pub(super) fn chaos_reply(&self, status: u16) -> Reply {
        match status {
            429 => route_429(self.chaos.as_ref().map_or(1.0, |(c, _)| c.retry_after)),
            503 => error(503, 0, "503: Service Unavailable"),
            s => error(s, 0, "500: Internal Server Error"),
        }
    }

    /// Discord's `enforce_nonce`: a message with the nonce of one the same author made in the
    /// last few minutes is not made again; the first one is returned.
    pub(super) fn enforced_nonce(&self, body: &Value) -> Option<Value> {
        if body["enforce_nonce"] != json!(true) {
            return None;
        }
        let (id, at) = self.nonces.get(&nonce_key(body)?)?;
        (at.elapsed() < Duration::from_secs(300))
            .then(|| self.messages.get(id).cloned())
            .flatten()
    }

    pub(super) fn remember_nonce(&mut self, body: &Value, m: &Value) {
        if let (Some(key), Some(id)) = (nonce_key(body), id_of(&m["id"])) {
            self.nonces.insert(key, (id, Instant::now()));
        }
    }

    /// Applies a PATCH body to a stored message.
    pub(super) fn edit_message(&mut self, id: u64, body: &Value, files: &Files) -> Option<Value> {
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

    pub(super) fn injected_failure(&mut self, sent: &Sent, after: bool) -> Option<Reply> {
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
        let (status, retry_after, code) = (f.status, f.retry_after, f.code.clone());
        if let Some(h) = f.hang {
            self.hang = Some(h);
        }
        self.failures.retain(|f| f.times > 0);
        if let Some((code, message)) = code {
            return Some(error(status, code, &message));
        }
        Some(match status {
            429 => route_429(retry_after.unwrap_or(1.0)),
            403 => error(403, 50013, "Missing Permissions"),
            404 => error(404, 10003, "Unknown Channel"),
            500 => error(500, 0, "500: Internal Server Error"),
            502 => error(502, 0, "502: Bad Gateway"),
            s => error(s, 0, "injected failure"),
        })
    }

    pub(super) fn callback_was_late(&self, path: &str) -> bool {
        let parts: Vec<&str> = path.split('/').collect();
        let Some(id) = parts.get(2).and_then(|s| s.parse::<u64>().ok()) else {
            return false;
        };
        self.interactions
            .get(&id)
            .is_some_and(|i| i.sent_at.elapsed() > self.deadline && !i.acked)
    }

    pub(super) fn send_to(&mut self, session: u64, frame: Value) {
        self.dispatched.push(frame.clone());
        if let Some(s) = self.sessions.iter().find(|s| s.id == session) {
            let _ = s.tx.send(Outgoing::Frame(frame.to_string()));
        }
    }

    pub(super) fn dispatch_to(&mut self, session: u64, t: &str, d: Value) {
        let Some(s) = self.sessions.iter_mut().find(|s| s.id == session) else {
            return;
        };
        s.seq += 1;
        let frame = json!({"op": 0, "t": t, "s": s.seq, "d": d});
        let _ = s.tx.send(Outgoing::Frame(frame.to_string()));
        self.dispatched.push(frame);
    }

    pub(super) fn gateway_sessions(&self) -> Vec<GatewaySession> {
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
    pub(super) fn session_for(&self, guild: Option<u64>) -> Option<&Session> {
        self.sessions
            .iter()
            .filter(|s| s.identified > 0)
            .filter(|s| guild.map_or(0, |g| FakeDiscord::shard_of(g, s.shard[1])) == s.shard[0])
            .max_by_key(|s| s.identified)
    }

    /// Dispatches to the session of `guild`'s shard (see [`State::session_for`]): that session,
    /// or `None` if no connection has that shard. With `intent`, a session that did not ask for
    /// it gets nothing (it is still returned).
    pub(super) fn dispatch_guild(
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

    /// Whether `path` is about a guild that removed the bot, or a channel of one.
    pub(super) fn in_removed_guild(&self, path: &str) -> bool {
        if self.removed.is_empty() {
            return false;
        }
        let segs: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let id = |s: &str| s.parse::<u64>().ok();
        match segs.as_slice() {
            ["guilds", g, ..] => id(g).is_some_and(|g| self.removed.contains(&g)),
            ["channels", c, ..] => id(c)
                .and_then(|c| self.channels.get(&c))
                .and_then(|ch| ch.guild)
                .is_some_and(|g| self.removed.contains(&g)),
            _ => false,
        }
    }
}
