//! The fake Discord's REST: one request's way through it (global limit, chaos, injected
//! failures, authorisation, the route), request bodies, and the JSON Discord answers with.
use super::*;

impl FakeDiscord {
    pub(super) async fn handle_rest(
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
            let refused_token = st.refused_token.as_ref().is_some_and(|t| {
                headers.get("authorization").and_then(|v| v.to_str().ok())
                    == Some(format!("Bot {t}").as_str())
            });
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
            } else if st.in_removed_guild(&sent.path) {
                error(403, 50001, "Missing Access")
            } else if refused_token
                || (!headers.contains_key("authorization")
                    && !sent.path.starts_with("/interactions/")
                    && !sent.path.starts_with("/webhooks/")
                    // The token endpoint takes the client's id and secret in its body.
                    && sent.path != "/oauth2/token")
            {
                // No token where one is needed, or one Discord no longer accepts.
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
            if st.keep_requests {
                st.requests.push(sent);
            }
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

pub(super) async fn rest(
    AxumState(fake): AxumState<FakeDiscord>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    fake.handle_rest(method, uri, headers, body).await
}

pub(super) type Files = Vec<(String, Vec<u8>)>;

/// JSON body, or multipart `payload_json` + `files[n]`.
pub(super) async fn parse_body(
    content_type: &str,
    body: Bytes,
) -> Result<(Option<Value>, Files), String> {
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
pub(super) fn normalize_options(
    options: &mut Value,
    users: &mut Vec<u64>,
    channels: &mut Vec<u64>,
) {
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

pub(super) fn user_json(id: u64) -> Value {
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

pub(super) fn bot_user_json() -> Value {
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

pub(super) fn user_or_bot_json(id: u64) -> Value {
    if id == FakeDiscord::BOT_ID {
        bot_user_json()
    } else {
        user_json(id)
    }
}

/// The @everyone role of `guild` (its id is the guild's).
pub(super) fn everyone_role_json(guild: u64) -> Value {
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

pub(super) fn guild_base_json(guild: u64) -> Value {
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
pub(super) fn validate_message(body: &Value, files: &Files) -> Result<(), Reply> {
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
pub(super) fn validate_commands(commands: &[Value]) -> Result<(), Reply> {
    pub(super) fn name_ok(name: &str) -> bool {
        !name.is_empty()
            && name.chars().count() <= 32
            && name
                .chars()
                .all(|c| c == '-' || c == '_' || c.is_numeric() || c.is_lowercase())
    }
    pub(super) fn check_options(path: &str, options: &[Value]) -> Result<(), String> {
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
