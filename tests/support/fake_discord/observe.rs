//! The fake Discord, what the bot did as the test reads it: requests, answers, messages,
//! threads, pins, gateway frames.
use super::*;

impl FakeDiscord {
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

    /// Messages posted successfully in a channel, thread or DM (`POST /channels/{id}/messages`),
    /// and the public followups of interactions there (`POST /webhooks/…`, not ephemeral), as
    /// everyone in the channel sees them.
    pub fn messages(&self, channel: u64) -> Vec<Sent> {
        let path = format!("/channels/{channel}/messages");
        let public_followup = |s: &Sent| {
            s.path.starts_with("/webhooks/")
                && id_of(&s.response["channel_id"]) == Some(channel)
                && s.response["flags"].as_u64().unwrap_or(0) & 64 == 0
        };
        self.state()
            .requests
            .iter()
            .filter(|s| s.method == "POST" && s.status == 200)
            .filter(|s| s.path == path || public_followup(s))
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
}
