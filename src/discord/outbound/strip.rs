//! Old turn messages lose their buttons: at most one turn message of a thread keeps live
//! controls. When a game's next turn message is recorded (or the game ends), the one before it
//! is written down in the store (`links::Links::set_turn`, in the same transaction), and this
//! background job edits it to carry no components, at the lowest priority of all:
//!
//! * only while the deliverer is delivering no lane and the game's own outbox lane is empty, so
//!   a move's urgent path (the turn message and the panel's edit) never waits for it;
//! * each edit at [`CLEANUP`] on the bot's pace (after every urgent call, in the reminders'
//!   half-rate bucket);
//! * a 404 or 403 (the message was deleted, the thread is out of reach) forgets the message;
//!   a 5xx, a 429 or a lost answer tries it again later, backing off as the outbox does;
//! * the rows live in the store, so a restart (even after a kill) cleans what was left; of
//!   several processes sharing the database one cleans at a time, under the lease [`LEASE`]
//!   (a restarted process takes back its predecessor's at once).

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{ChannelId, EditMessage, Http, MessageId};
use tokio::sync::Notify;

use hexmeros::host::{GameId, game_lane, wall_now};

use crate::discord::Data;
use crate::discord::links::Stale;
use crate::discord::outbound::failure::{Failure, backoff, classify};
use crate::discord::wire::pace::{CLEANUP, Urgency, with_priority};

/// The lease the job works under.
pub const LEASE: &str = "strip";

/// How often the job looks when nothing wakes it (another process's messages, a retry due).
const POLL: Duration = Duration::from_secs(30);

/// How long the job waits while the outbox is busy before it looks again.
const YIELD: Duration = Duration::from_millis(200);

/// The job's bell: rung when a turn message was replaced.
#[derive(Debug, Default)]
pub struct Stripper {
    wake: Notify,
}

impl Stripper {
    pub fn wake(&self) {
        self.wake.notify_one();
    }
}

/// What became of one old message.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// Nothing due now.
    Idle,
    /// The outbox has work: wait for it.
    Yield,
    /// Another process cleans (or the lease cannot be had now).
    Elsewhere,
    /// An old message was handled (stripped, gone, or waiting for a retry).
    Done,
}

/// Run the job until the deliverer stops.
pub async fn run(http: Arc<Http>, data: Data) {
    while !data.outbox.stopping() {
        let pause = match step(&http, &data).await {
            Ok(Step::Done) => continue,
            Ok(Step::Yield) => YIELD,
            Ok(Step::Elsewhere) => POLL,
            Ok(Step::Idle) => idle_pause(&data).await,
            Err(e) => {
                tracing::warn!(error = %e, "old turn messages cannot be read");
                POLL
            }
        };
        tokio::select! {
            _ = data.strip.wake.notified() => {}
            _ = tokio::time::sleep(pause) => {}
        }
    }
}

/// How long to sleep when nothing is due: until the next message falls due, at most `POLL`.
async fn idle_pause(data: &Data) -> Duration {
    match data.links.next_stale_at().await {
        Ok(Some(at)) => {
            let wait = u64::try_from(at - wall_now()).unwrap_or(0);
            Duration::from_millis(wait.max(50)).min(POLL)
        }
        _ => POLL,
    }
}

/// Take the next old message's buttons off, if the outbox lets it.
async fn step(http: &Http, data: &Data) -> Result<Step, sqlx::Error> {
    if data.outbox.busy() {
        return Ok(Step::Yield);
    }
    let now = wall_now();
    let Some(stale) = data.links.next_stale(now).await? else {
        return Ok(Step::Idle);
    };
    match data.host.outbox_head(&game_lane(stale.game)).await {
        Ok(None) => {}
        // The game's lane has something to say first (its new turn, the panel): this message
        // waits a little, the others go on.
        Ok(Some(_)) => {
            let later = now + i64::try_from(YIELD.as_millis()).unwrap_or(0) * 5;
            data.links.postpone_stale(&stale, later).await?;
            return Ok(Step::Done);
        }
        Err(e) => {
            tracing::warn!(error = %e, "the outbox cannot be read");
            return Ok(Step::Yield);
        }
    }
    match data.host.claim_lease(LEASE).await {
        Ok(Some(_)) => {}
        // Another process cleans: this one looks again in a while.
        Ok(None) => return Ok(Step::Elsewhere),
        Err(e) => {
            tracing::warn!(error = %e, "the lease of old turn messages cannot be claimed");
            return Ok(Step::Elsewhere);
        }
    }
    let edited = with_priority(Urgency::new(CLEANUP), strip(http, data, &stale)).await;
    settle(data, &stale, edited).await?;
    Ok(Step::Done)
}

/// The game is over: its last turn message's buttons come off now, before its results and the
/// thread's closing (an archived thread's messages cannot be edited), at the priority of the
/// delivery that calls it. A failure leaves the message to the job.
pub async fn retire_now(http: &Http, data: &Data, game: GameId) -> Result<(), sqlx::Error> {
    let Some(link) = data.links.by_game(game).await? else {
        return Ok(());
    };
    data.links.retire_turn(game).await?;
    let Some(message) = link.turn_message else {
        return Ok(());
    };
    let stale = Stale {
        message,
        game,
        channel: link.thread,
        tries: 0,
    };
    let edited = strip(http, data, &stale).await;
    settle(data, &stale, edited).await
}

/// What an edit's answer leaves of the old message's row: gone once edited or out of reach,
/// waiting for its next try after a transient failure.
async fn settle(
    data: &Data,
    stale: &Stale,
    edited: Result<(), serenity::Error>,
) -> Result<(), sqlx::Error> {
    match edited.map_err(anyhow::Error::from) {
        Ok(()) => data.links.stale_done(stale).await?,
        Err(e) => match classify(&e) {
            Failure::Transient => {
                let tries = u32::try_from(stale.tries + 1).unwrap_or(u32::MAX);
                let wait = i64::try_from(backoff(tries).as_millis()).unwrap_or(i64::MAX);
                tracing::info!(message = stale.message, error = %e, "an old turn message keeps its buttons for now");
                data.links
                    .stale_failed(stale, wall_now().saturating_add(wait))
                    .await?;
            }
            // Deleted, out of reach, or refused: nothing to clean any more.
            Failure::Blocked | Failure::Permanent => {
                tracing::info!(message = stale.message, error = %e, "an old turn message is out of reach; forgotten");
                data.links.stale_done(stale).await?;
            }
        },
    }
    Ok(())
}

/// Edit the old message to carry no components (its text and pictures stay).
async fn strip(http: &Http, data: &Data, stale: &Stale) -> Result<(), serenity::Error> {
    if stale.channel == 0 || stale.message == 0 {
        // A row no message can have (snowflakes are never 0): Discord would answer 404.
        return Err(serenity::Error::Other("no such message"));
    }
    let channel = ChannelId::new(stale.channel);
    let message = MessageId::new(stale.message);
    let edit = EditMessage::new().components(Vec::new());
    data.wire
        .retry("taking an old turn message's buttons off", || {
            channel.edit_message(http, message, edit.clone())
        })
        .await
        .map(|_| ())
}
