//! The timers: every due game's challenge windows, ballots, reminders and turn timeouts, run
//! under the game's lease, then the bots of games waiting on one.

use super::{Effect, GameHost, GameId, HostError, Lease, Millis, bots, timers_lease};

impl GameHost {
    /// Run every timer that is due: close challenge windows and ballots, remind, time out turns.
    /// Each timer event is stored like a command (with a version check), so two hosts ticking at
    /// once cannot both act; and a game's timers run only under its lease, so processes sharing
    /// a database do not even try at once (one that died holding it leaves them to the others
    /// after [`LEASE_MS`]), and a process paused past the lease writes nothing once another
    /// took it over (each event is stored under it: `Lease::fence`).
    pub async fn tick(&self) -> Result<Vec<Effect>, HostError> {
        let now = self.now();
        let mut fx = Vec::new();
        let mut bots = Vec::new();
        for game in self.store.due_games(now).await? {
            let lease = match self.claim_lease(&timers_lease(game)).await {
                Ok(Some(lease)) => lease,
                // Another process runs them.
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!(game, error = %e, "timers: the lease cannot be claimed");
                    continue;
                }
            };
            let ran = self.tick_game(game, &lease, now, &mut fx).await;
            self.release_lease(&lease).await;
            match ran {
                Ok(true) => bots.push(game),
                Ok(false) => {}
                Err(e) => tracing::warn!(game, error = %e, "timers failed"),
            }
        }
        // Games waiting on a bot (one a front end did not drive, or one left thinking when the
        // process stopped): the bots act now. One game's failure does not stop the others.
        // A bounded share per game and tick, so one game cannot hold up the others' timers.
        for game in bots {
            if let Ok(mut more) = self.drive_bots(game, bots::BOT_TICK_MAX).await {
                fx.append(&mut more);
            }
        }
        // The daily digests due (after the games: a digest tells of them as they now stand).
        match self.digests().await {
            Ok(mut more) => fx.append(&mut more),
            Err(e) => tracing::warn!(error = %e, "digests failed"),
        }
        self.retention_due().await;
        Ok(fx)
    }

    /// Run `game`'s due timers under its `lease` (`claim_lease(&timers_lease(game))`), adding
    /// their effects to `fx`: what [`GameHost::tick`] does for each due game. Returns whether a
    /// bot has something to do in it. Once another process has taken the lease over, nothing
    /// is stored (and `Ok(false)`).
    pub async fn tick_game(
        &self,
        game: GameId,
        lease: &Lease,
        now: Millis,
        fx: &mut Vec<Effect>,
    ) -> Result<bool, HostError> {
        let slot = self.slot(game);
        let mut cached = slot.lock().await;
        let mut state = match self.load(game, &mut cached).await {
            Ok(state) => state,
            Err(e) => {
                // A corrupt game cannot run timers: it is taken off the timer list (its
                // commands keep reporting the corruption) instead of failing every tick.
                tracing::error!(game, error = %e, "timers: the game does not load; its timers stop");
                if matches!(e, HostError::Corrupt { .. }) {
                    self.store.stop_timers(game).await?;
                }
                return Ok(false);
            }
        };
        self.with_quiet(&mut state).await;
        let before = state.version();
        // Each event can change what is due next (a closed ballot, a passed turn).
        for _ in 0..16 {
            let Some(ev) = state.due_events(now).into_iter().next() else {
                break;
            };
            match self.commit(&mut state, ev, None, Some(lease)).await {
                Ok(mut more) => fx.append(&mut more),
                // Another process took the lease over meanwhile (this one was paused past it):
                // nothing was written, the timers are theirs now.
                Err(e) if e.lease_lost() => {
                    tracing::info!(game, "timers: the lease passed to another process");
                    *cached = None;
                    return Ok(false);
                }
                Err(e) => {
                    tracing::warn!(game, error = %e, "timers: a due event was not stored");
                    *cached = None;
                    break;
                }
            }
        }
        // Due, but nothing to do (a reminder waiting for the end of quiet hours): the game
        // is due again when that comes, not at every tick until then.
        if state.version() == before && cached.is_some() && state.bot_action().is_none() {
            // A reminder that fell due just before the quiet hours began (a tick runs late)
            // waits for their end too; anything else past due and not done is looked at
            // again in a minute rather than at every tick.
            let due = state.next_due().map(|d| match d > now {
                true => d,
                false => state.quiet_end(now).unwrap_or(now + 60_000),
            });
            if let Err(e) = self.store.set_next_due(game, before as i64, due).await {
                tracing::warn!(game, error = %e, "timers: the next due time was not stored");
            }
        }
        let bots = state.bot_action().is_some();
        if cached.is_some() || state.version() > 0 {
            self.keep(game, &mut cached, &state);
        }
        Ok(bots)
    }
}
