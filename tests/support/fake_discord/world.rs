//! The fake Discord, the test's hand on the world: gateway faults, servers, channels,
//! permissions, threads, injected failures and chaos.
use super::*;

impl FakeDiscord {
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
    pub(super) fn end_sockets(&self, how: Outgoing) {
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

    /// `user` leaves `guild`: from now on `GET /guilds/{guild}/members/{user}` answers 404 code
    /// 10007 (Unknown Member).
    pub fn remove_member(&self, guild: u64, user: u64) {
        self.state().left.insert((guild, user));
    }

    /// Server `guild` removes the bot: from now on every call about the server or one of its
    /// channels (threads included) answers 403 code 50001 (Missing Access), its GUILD_CREATE is
    /// no longer sent, and the session of its shard that asked for GUILDS gets a GUILD_DELETE
    /// (`unavailable` absent: removed, not an outage).
    pub fn remove_bot(&self, guild: u64) {
        let mut st = self.state();
        st.removed.insert(guild);
        st.guilds.retain(|&g| g != guild);
        st.dispatch_guild(
            Some(guild),
            "GUILD_DELETE",
            json!({"id": guild.to_string()}),
            Some(INTENT_GUILDS),
        );
    }

    /// Server `guild` refuses the bot every call about it or its channels with 403 code 50001
    /// (Missing Access), as [`Self::remove_bot`] does, but without telling the gateway (a
    /// permission taken away: Discord says nothing of it until a call is refused).
    pub fn forbid_guild(&self, guild: u64) {
        self.state().removed.insert(guild);
    }

    /// Text channel `channel` is hidden from its server's members (an overwrite of @everyone
    /// denies View Channel), but for `allowed` (a member overwrite allows it to each).
    pub fn hide_channel(&self, channel: u64, allowed: &[u64]) {
        self.state()
            .hidden
            .insert(channel, allowed.iter().copied().collect());
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
        self.inject(Failure {
            retry_after,
            ..Failure::new(method, path_contains, status, times)
        });
    }

    /// Like [`fail_next`](Self::fail_next), with Discord's error `code` and `message` (403 code
    /// 50001 "Missing Access": a channel the bot cannot see; 400 code 50024: a channel that
    /// holds no threads).
    pub fn refuse_next(
        &self,
        method: &str,
        path_contains: &str,
        status: u16,
        code: u64,
        message: &str,
        times: usize,
    ) {
        self.inject(Failure {
            code: Some((code, message.into())),
            ..Failure::new(method, path_contains, status, times)
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
        self.inject(Failure {
            after: true,
            ..Failure::new(method, path_contains, status, times)
        });
    }

    /// The next `times` requests matching (as [`fail_next`](Self::fail_next)) are not carried
    /// out, and their answer (a 504) is held back for `hang`: a process killed meanwhile never
    /// hears of them, and nothing was made.
    pub fn hang_next(&self, method: &str, path_contains: &str, hang: Duration, times: usize) {
        self.inject(Failure {
            hang: Some(hang),
            ..Failure::new(method, path_contains, 504, times)
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
        self.inject(Failure {
            after: true,
            hang: Some(hang),
            ..Failure::new(method, path_contains, 504, times)
        });
    }

    fn inject(&self, failure: Failure) {
        self.state().failures.push(failure);
    }

    /// Random faults from now on (`None`: no more). See [`Chaos`].
    pub fn set_chaos(&self, chaos: Option<Chaos>) {
        self.state().chaos = chaos.map(|c| (c, SplitMix(c.seed)));
    }

    /// Discord no longer accepts the bot token `token` (wrong, or reset in the Developer
    /// Portal): every REST call with it is answered 401, and an IDENTIFY with it closed with
    /// 4004 (Authentication failed). `None`: every token is accepted again.
    pub fn refuse_token(&self, token: Option<&str>) {
        self.state().refused_token = token.map(str::to_string);
        self.bump();
    }

    /// The bot's permissions from now on, in every guild: its role's and every interaction's
    /// `app_permissions` (@everyone keeps [`FakeDiscord::MEMBER_PERMISSIONS`]).
    pub fn set_bot_permissions(&self, bits: u64) {
        self.state().bot_permissions = bits;
    }

    /// Gateway discovery (`GET /gateway`, `/gateway/bot`) answered 503 while `refused`.
    pub fn refuse_discovery(&self, refused: bool) {
        self.state().no_discovery = refused;
        self.bump();
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

    /// Keep each request in the record `requests()` reads (on by default; a long load run
    /// follows its requests through the tap instead).
    pub fn set_keep_requests(&self, keep: bool) {
        self.state().keep_requests = keep;
    }

    /// Counts of the faults injected by [`set_chaos`](Self::set_chaos) and
    /// [`set_outage`](Self::set_outage).
    pub fn chaos_stats(&self) -> ChaosStats {
        self.state().chaos_stats
    }

    // ----- observations -----
}
