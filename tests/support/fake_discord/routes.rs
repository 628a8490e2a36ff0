//! The fake Discord's REST routes: what each call does to the world, and its answer.
use super::*;

impl State {
    pub(super) fn route(&mut self, sent: &Sent) -> Reply {
        let segs: Vec<&str> = sent.path.trim_start_matches('/').split('/').collect();
        let body = sent.json.clone().unwrap_or(Value::Null);
        let files = &sent.files;
        let num = |s: &str| s.parse::<u64>().ok();
        match (sent.method.as_str(), segs.as_slice()) {
            ("GET", ["gateway"] | ["gateway", "bot"]) if self.no_discovery => {
                error(503, 0, "503: Service Unavailable")
            }
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
            ("GET", ["guilds", g]) => {
                let g = num(g).unwrap_or_default();
                let mut guild = guild_base_json(g);
                guild["roles"] = json!([everyone_role_json(g), self.bot_role_json(g)]);
                ok(guild)
            }
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
                let g = num(g).unwrap_or_default();
                ok(json!([everyone_role_json(g), self.bot_role_json(g)]))
            }
            ("GET", ["guilds", g, "members", u]) => match (num(g), num(u)) {
                (Some(g), Some(u)) if self.left.contains(&(g, u)) => {
                    error(404, 10007, "Unknown Member")
                }
                (Some(g), Some(u)) if u == FakeDiscord::BOT_ID => {
                    let mut member = self.member_json(u);
                    member["roles"] = json!([FakeDiscord::bot_role(g).to_string()]);
                    ok(member)
                }
                (_, Some(u)) => ok(self.member_json(u)),
                (_, None) => error(404, 10013, "Unknown User"),
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

    pub(super) fn channel_route(
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

    pub(super) fn create_thread(
        &mut self,
        id: u64,
        parent: u64,
        body: &Value,
        private: bool,
    ) -> Reply {
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

    pub(super) fn callback(
        &mut self,
        id: Option<u64>,
        token: &str,
        body: &Value,
        files: &Files,
    ) -> Reply {
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

    pub(super) fn webhook(
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
pub(super) fn nonce_key(body: &Value) -> Option<String> {
    match &body["nonce"] {
        Value::String(n) => Some(n.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}
