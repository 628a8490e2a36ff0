//! The fake Discord's gateway: a session's frames (HELLO, IDENTIFY, RESUME, heartbeats) and
//! the websocket upgrade.
use super::*;

impl FakeDiscord {
    pub(super) async fn gateway_session(self, mut socket: WebSocket) {
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

    pub(super) fn on_gateway_frame(&self, session: u64, frame: Value) {
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
                if st.refused_token.as_deref() == Some(bot_token.as_str()) {
                    if let Some(s) = st.sessions.iter().find(|s| s.id == session) {
                        let _ = s.tx.send(Outgoing::Close(4004));
                    }
                    return;
                }
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
}

pub(super) async fn gateway_upgrade(
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
