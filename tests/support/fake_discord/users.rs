//! The fake Discord, users acting: slash commands, autocomplete, buttons, select menus, modals
//! and reactions, dispatched on the gateway.
use super::*;

impl FakeDiscord {
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

    pub(super) fn command_data(&self, channel: u64, name: &str, options: Value) -> Value {
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

    pub(super) fn dispatch_interaction(
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

    pub(super) fn try_dispatch_interaction(
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
            "app_permissions": st.bot_permissions.to_string(),
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
}
