//! A person's settings (issue 22, `/hexmeros settings`): their time zone and quiet hours, and
//! (issue 45) whether the move picker commits a move when its target is picked. They belong to
//! the person, not to a game. No settings: no quiet hours (reminders and pings go out
//! whatever the hour, as before). What a player types is checked whole before anything is
//! stored; a stored row that no longer reads (a zone this build does not know) is an error for
//! that player alone, which says what is wrong and how to mend it.

use chrono_tz::Tz;
use thiserror::Error;

use super::event::PlayerId;
use super::quiet::{Quiet, QuietError, TimeOfDay, parse_zone};
use super::{GameHost, HostError};
use crate::store::SettingsRow;

/// A player's settings as read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerSettings {
    pub zone: Option<Tz>,
    /// The quiet window, start and end (never equal: equal ends are stored as no window).
    pub window: Option<(TimeOfDay, TimeOfDay)>,
    /// The move picker commits a move when its target is picked (no Pass step).
    pub commit_on_pick: bool,
    /// When the Token comes to them, a direct message too (the ping in the thread stays).
    pub turn_dm: bool,
    /// A direct message when everyone waits on their vote alone.
    pub nudge: bool,
    /// A daily digest by direct message at this local time of day (none: no digest).
    pub digest: Option<TimeOfDay>,
}

impl PlayerSettings {
    /// The player's quiet hours, when they have a zone and a window.
    pub fn quiet(&self) -> Option<Quiet> {
        let (start, end) = self.window?;
        Some(Quiet::new(self.zone?, start, end))
    }
}

/// What a player asks to change, as typed: nothing is given, only what is given changes, or
/// everything is forgotten (`clear`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsChange {
    pub time_zone: Option<String>,
    pub quiet_from: Option<String>,
    pub quiet_to: Option<String>,
    pub commit_on_pick: Option<bool>,
    pub turn_dm: Option<bool>,
    pub nudge: Option<bool>,
    /// The digest's hour as typed (`08:00`, `8`, `7pm`), or `off`.
    pub digest: Option<String>,
    pub clear: bool,
}

impl SettingsChange {
    fn changes_something(&self) -> bool {
        self.time_zone.is_some()
            || self.quiet_from.is_some()
            || self.quiet_to.is_some()
            || self.commit_on_pick.is_some()
            || self.turn_dm.is_some()
            || self.nudge.is_some()
            || self.digest.is_some()
    }
}

/// Settings that cannot be set or read: the sentence the player reads. Nothing was stored.
#[derive(Debug, Error)]
pub enum SettingsError {
    #[error(transparent)]
    Bad(#[from] QuietError),
    #[error("give settings to change or clear:True, not both")]
    ClearAndChange,
    #[error("quiet hours need your time zone: give time_zone too")]
    NoZone,
    #[error(
        "the digest comes at an hour of your time zone: give your time zone first \
         (/hexmeros settings time_zone:…)"
    )]
    DigestNeedsZone,
    #[error("'{0}' is no hour of the day: give one from 0 to 23 (8, 08:00, 7pm) or off")]
    HourOutOfRange(String),
    #[error("'{0}' is not a time for the digest: give an hour (8, 08:00, 7pm) or off")]
    UnknownTime(String),
    #[error(
        "give both ends of your quiet hours, quiet_from and quiet_to (the same time for both \
         means no quiet hours)"
    )]
    HalfWindow,
    /// A stored row that no longer reads.
    #[error("your stored settings cannot be read ({0}): set them again, or clear them")]
    Unreadable(String),
}

/// A stored row as settings, or what is wrong with it.
pub(super) fn read_row(row: &SettingsRow) -> Result<PlayerSettings, SettingsError> {
    let unreadable = |what: String| SettingsError::Unreadable(what);
    let zone = match &row.time_zone {
        Some(name) => Some(parse_zone(name).map_err(|e| unreadable(e.to_string()))?),
        None => None,
    };
    let minute = |m: i64| {
        u16::try_from(m)
            .ok()
            .and_then(TimeOfDay::from_minutes)
            .ok_or_else(|| unreadable(format!("{m} is no minute of a day")))
    };
    let window = match (row.quiet_start, row.quiet_end) {
        (None, None) => None,
        (Some(s), Some(e)) => Some((minute(s)?, minute(e)?)),
        _ => return Err(unreadable("quiet hours with one end".to_string())),
    };
    Ok(PlayerSettings {
        zone,
        window,
        commit_on_pick: row.commit_on_pick,
        turn_dm: row.turn_dm,
        nudge: row.nudge,
        digest: row.digest_at.map(minute).transpose()?,
    })
}

fn row_of(settings: &PlayerSettings) -> SettingsRow {
    SettingsRow {
        time_zone: settings.zone.map(|z| z.name().to_string()),
        quiet_start: settings.window.map(|(s, _)| i64::from(s.minutes())),
        quiet_end: settings.window.map(|(_, e)| i64::from(e.minutes())),
        commit_on_pick: settings.commit_on_pick,
        turn_dm: settings.turn_dm,
        nudge: settings.nudge,
        digest_at: settings.digest.map(|t| i64::from(t.minutes())),
        digest_next_at: None,
        digest_since: None,
    }
}

/// Whether the digest comes at the same instants under `a` as under `b`.
fn same_time(a: &PlayerSettings, b: &PlayerSettings) -> bool {
    (a.digest, a.zone, a.window) == (b.digest, b.zone, b.window)
}

/// The digest's time of day as typed: `off` (none), an hour (`8`, `08`, `7pm`, `12am`) or an
/// hour and minutes (`08:30`, `7:30pm`).
pub(super) fn digest_time(text: &str) -> Result<Option<TimeOfDay>, SettingsError> {
    let typed = text.trim().to_ascii_lowercase();
    if matches!(typed.as_str(), "off" | "none" | "no") {
        return Ok(None);
    }
    let clipped = || typed.chars().take(40).collect::<String>();
    let unknown = || SettingsError::UnknownTime(clipped());
    let (clock, half) = match (typed.strip_suffix("am"), typed.strip_suffix("pm")) {
        (Some(c), _) => (c.trim_end(), Some(0)),
        (_, Some(c)) => (c.trim_end(), Some(12)),
        _ => (typed.as_str(), None),
    };
    let (h, m) = clock.split_once(':').unwrap_or((clock, "00"));
    let digits = |t: &str| !t.is_empty() && t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(h) || !digits(m) || m.len() != 2 {
        return Err(unknown());
    }
    let (h, m): (u16, u16) = (
        h.parse().map_err(|_| unknown())?,
        m.parse().map_err(|_| unknown())?,
    );
    let hour = match half {
        Some(_) if !(1..=12).contains(&h) => None,
        Some(add) => Some(h % 12 + add),
        None => Some(h),
    };
    match hour.filter(|&h| h < 24).zip(Some(m).filter(|&m| m < 60)) {
        Some((h, m)) => Ok(TimeOfDay::from_minutes(h * 60 + m)),
        None => Err(SettingsError::HourOutOfRange(clipped())),
    }
}

impl GameHost {
    /// `player`'s settings (the defaults, no zone and no quiet hours, if they set none).
    pub async fn settings(&self, player: PlayerId) -> Result<PlayerSettings, HostError> {
        match self.store.player_settings(player).await? {
            Some(row) => Ok(read_row(&row)?),
            None => Ok(PlayerSettings::default()),
        }
    }

    /// Change `player`'s settings (`/hexmeros settings`): every option given is checked before
    /// anything is stored, and a refusal changes nothing. An option not given keeps its value;
    /// one end of the quiet hours may be moved alone once both are set; the same time for both
    /// ends removes the quiet hours; `clear` forgets everything. The settings now come back.
    pub async fn set_settings(
        &self,
        player: PlayerId,
        change: &SettingsChange,
    ) -> Result<PlayerSettings, HostError> {
        if change.clear {
            if change.changes_something() {
                return Err(SettingsError::ClearAndChange.into());
            }
            self.store.clear_player_settings(player).await?;
            self.refresh_due(player).await?;
            return Ok(PlayerSettings::default());
        }
        // What was typed, in the order of the options, before the stored row is looked at.
        let zone = (change.time_zone.as_deref().map(parse_zone).transpose())
            .map_err(SettingsError::from)?;
        let time = |t: &Option<String>| -> Result<Option<TimeOfDay>, SettingsError> {
            Ok(t.as_deref().map(str::parse).transpose()?)
        };
        let (from, to) = (time(&change.quiet_from)?, time(&change.quiet_to)?);
        let digest = change.digest.as_deref().map(digest_time).transpose()?;
        let stored = self.store.player_settings(player).await?;
        if !change.changes_something() {
            return Ok(match stored {
                Some(row) => read_row(&row)?,
                None => PlayerSettings::default(),
            });
        }
        // The stored values that stay must read; those replaced need not.
        let mut kept = stored.unwrap_or_default();
        let schedule = (kept.digest_next_at, kept.digest_since);
        if zone.is_some() {
            kept.time_zone = None;
        }
        if from.is_some() && to.is_some() {
            (kept.quiet_start, kept.quiet_end) = (None, None);
        }
        let kept = read_row(&kept)?;
        let window = match (from, to, kept.window) {
            (Some(s), Some(e), _) => Some((s, e)),
            (Some(s), None, Some((_, e))) => Some((s, e)),
            (None, Some(e), Some((s, _))) => Some((s, e)),
            (None, None, w) => w,
            (Some(_), None, None) | (None, Some(_), None) => {
                return Err(SettingsError::HalfWindow.into());
            }
        };
        let next = PlayerSettings {
            zone: zone.or(kept.zone),
            window: window.filter(|(s, e)| s != e),
            commit_on_pick: change.commit_on_pick.unwrap_or(kept.commit_on_pick),
            turn_dm: change.turn_dm.unwrap_or(kept.turn_dm),
            nudge: change.nudge.unwrap_or(kept.nudge),
            digest: digest.unwrap_or(kept.digest),
        };
        if next.window.is_some() && next.zone.is_none() {
            return Err(SettingsError::NoZone.into());
        }
        if next.digest.is_some() && next.zone.is_none() {
            return Err(SettingsError::DigestNeedsZone.into());
        }
        let now = self.now();
        let mut row = row_of(&next);
        // When the digest comes follows from its hour, the zone and the quiet hours: kept as
        // stored while none of them changed (a digest due and not yet sent is not skipped, one
        // claimed meanwhile is not made due again).
        let keep = next.digest.is_some() && schedule.0.is_some() && same_time(&kept, &next);
        if keep {
            (row.digest_next_at, row.digest_since) = schedule;
        } else if next.digest.is_some() {
            row.digest_next_at = super::digest::next_due(&next, now);
            row.digest_since = schedule.1.or(Some(now));
        }
        self.store
            .set_player_settings(player, &row, keep, now)
            .await?;
        self.refresh_due(player).await?;
        Ok(next)
    }

    /// `player`'s quiet hours, if they set a zone and a window.
    pub async fn quiet_of(&self, player: PlayerId) -> Result<Option<Quiet>, HostError> {
        Ok(self.settings(player).await?.quiet())
    }

    /// The quiet hours of each of `players`, in their order (for reminders to a game's seats).
    /// A player whose stored row no longer reads counts as having none (as before quiet hours
    /// existed), logged, so one bad row never holds up the others; only a storage failure is
    /// an error.
    pub async fn quiet_of_many(
        &self,
        players: &[PlayerId],
    ) -> Result<Vec<Option<Quiet>>, HostError> {
        let rows = self.store.players_settings(players).await?;
        Ok(players
            .iter()
            .map(|p| {
                let (_, row) = rows.iter().find(|(q, _)| q == p)?;
                match read_row(row) {
                    Ok(s) => s.quiet(),
                    Err(e) => {
                        tracing::warn!(player = p, error = %e, "unreadable settings: no quiet hours");
                        None
                    }
                }
            })
            .collect())
    }
}
