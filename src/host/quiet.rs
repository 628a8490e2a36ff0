//! Quiet hours (issue 22, `/hexmeros settings`): a player's IANA time zone and a window of local
//! wall-clock time (22:30–07:00, say) in which the bot does not wake them. Pure functions on an
//! instant (`Millis`, Unix milliseconds): whether it is quiet then ([`Quiet::is_quiet`]) and when
//! the quiet ends ([`Quiet::defer`]), right across daylight-saving changes; and the parsing of
//! what a player types (`HH:MM`, a zone name), with the sentence they read when it is wrong.
//!
//! # Daylight saving: the rule
//! A window that starts on a local date D is quiet from the *first* instant the wall clock shows
//! its start on D until the *last* instant it shows its end (on D, or on D + 1 when the window
//! wraps past midnight). So:
//! * on a fall-back night, a start shown twice counts the first time and an end shown twice the
//!   second time: the window lasts until the clock shows its end the second time (the longer
//!   night);
//! * on a spring-forward night, a start or end that the clocks skip (02:30 when 02:00 jumps to
//!   03:00) falls on the first instant after the skip, the moment the clocks jump; a window that
//!   lies wholly in the skipped hour does not happen that night.
//!
//! Windows never leave a gap: when two of them overlap (possible only around a fall-back), the
//! quiet lasts until the end of the later one.

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
use chrono_tz::{TZ_VARIANTS, Tz};
use thiserror::Error;

use super::event::Millis;

const MINUTES_A_DAY: u16 = 24 * 60;

/// How much of a player's text a sentence quotes.
const QUOTED: usize = 40;

/// What a player typed that is no time of day or no time zone: the sentence they read.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum QuietError {
    #[error("'{0}' is not a time of day (HH:MM, 00:00–23:59)")]
    BadTime(String),
    #[error(
        "'{0}' is not a time zone (an IANA name such as Europe/Berlin, America/New_York or UTC; \
         the time_zone option suggests them as you type)"
    )]
    BadZone(String),
}

/// `text` short enough to quote.
fn clip(text: &str) -> String {
    if text.chars().count() <= QUOTED {
        return text.to_string();
    }
    let head: String = text.chars().take(QUOTED).collect();
    format!("{head}…")
}

/// A local wall-clock time of day to the minute, 00:00–23:59.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TimeOfDay(u16);

impl TimeOfDay {
    /// The time `minutes` after midnight, if that is within a day.
    pub fn from_minutes(minutes: u16) -> Option<TimeOfDay> {
        (minutes < MINUTES_A_DAY).then_some(TimeOfDay(minutes))
    }

    pub fn minutes(self) -> u16 {
        self.0
    }

    fn naive(self) -> NaiveTime {
        NaiveTime::from_hms_opt(u32::from(self.0 / 60), u32::from(self.0 % 60), 0)
            .unwrap_or(NaiveTime::MIN)
    }
}

impl FromStr for TimeOfDay {
    type Err = QuietError;

    /// `H:MM` or `HH:MM`, 00:00–23:59, spaces around ignored.
    fn from_str(text: &str) -> Result<TimeOfDay, QuietError> {
        let bad = || QuietError::BadTime(clip(text.trim()));
        let (h, m) = text.trim().split_once(':').ok_or_else(bad)?;
        let digits = |s: &str, len: std::ops::RangeInclusive<usize>| {
            len.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
        };
        if !digits(h, 1..=2) || !digits(m, 2..=2) {
            return Err(bad());
        }
        let (h, m): (u16, u16) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
        if h >= 24 || m >= 60 {
            return Err(bad());
        }
        TimeOfDay::from_minutes(h * 60 + m).ok_or_else(bad)
    }
}

impl fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}", self.0 / 60, self.0 % 60)
    }
}

/// The time zone a player names: its IANA name in any case, with spaces for underscores
/// (`america/new york`).
pub fn parse_zone(text: &str) -> Result<Tz, QuietError> {
    let name = text.trim().replace(' ', "_");
    if let Ok(tz) = Tz::from_str(&name) {
        return Ok(tz);
    }
    TZ_VARIANTS
        .iter()
        .copied()
        .find(|tz| tz.name().eq_ignore_ascii_case(&name))
        .ok_or_else(|| QuietError::BadZone(clip(text.trim())))
}

/// Zones offered before anything is typed: where most players live, west to east.
const COMMON_ZONES: [&str; 16] = [
    "America/Los_Angeles",
    "America/Denver",
    "America/Chicago",
    "America/New_York",
    "America/Sao_Paulo",
    "UTC",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Paris",
    "Europe/Moscow",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Pacific/Auckland",
];

/// At most `limit` zone names containing `partial` (any case, spaces for underscores): those
/// whose name or city starts with it first, then the rest, each group in alphabetical order.
/// With nothing typed, the common zones.
pub fn matching_zones(partial: &str, limit: usize) -> Vec<&'static str> {
    let p = partial.trim().replace(' ', "_").to_ascii_lowercase();
    if p.is_empty() {
        return COMMON_ZONES.iter().copied().take(limit).collect();
    }
    let mut found: Vec<(bool, &'static str)> = TZ_VARIANTS
        .iter()
        .map(|tz| tz.name())
        .filter_map(|name| {
            let lower = name.to_ascii_lowercase();
            let city = lower.rsplit('/').next().unwrap_or(&lower);
            let head = lower.starts_with(&p) || city.starts_with(&p);
            (head || lower.contains(&p)).then_some((!head, name))
        })
        .collect();
    found.sort();
    found.into_iter().map(|(_, n)| n).take(limit).collect()
}

/// The wall clock in `zone` at `t` as `HH:MM`, with the weekday (`Thu 23:15`).
pub fn local_clock(zone: Tz, t: Millis) -> String {
    match DateTime::from_timestamp_millis(t) {
        Some(utc) => utc.with_timezone(&zone).format("%a %H:%M").to_string(),
        None => "?".to_string(),
    }
}

/// A player's quiet hours: their time zone and the window of local time, `start` included,
/// `end` excluded, wrapping past midnight when `end` is earlier than `start`; `start == end`
/// means no quiet hours. See the module's doc for daylight saving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quiet {
    zone: Tz,
    start: TimeOfDay,
    end: TimeOfDay,
}

/// Which instant a wall-clock time shown twice (a fall-back) stands for.
#[derive(Clone, Copy)]
enum Pick {
    First,
    Last,
}

impl Quiet {
    pub fn new(zone: Tz, start: TimeOfDay, end: TimeOfDay) -> Quiet {
        Quiet { zone, start, end }
    }

    pub fn zone(&self) -> Tz {
        self.zone
    }

    pub fn start(&self) -> TimeOfDay {
        self.start
    }

    pub fn end(&self) -> TimeOfDay {
        self.end
    }

    /// Whether there is a window at all (`start != end`).
    pub fn has_window(&self) -> bool {
        self.start != self.end
    }

    /// Whether `t` falls in the player's quiet hours.
    pub fn is_quiet(&self, t: Millis) -> bool {
        self.containing(t).is_some()
    }

    /// `t` when it is not quiet then; else the first instant at or after `t` that is not quiet
    /// (the end of the quiet window, in the player's zone).
    pub fn defer(&self, t: Millis) -> Millis {
        let mut at = t;
        // Overlapping windows (only around a fall-back) chain; two or three at most.
        for _ in 0..4 {
            match self.containing(at) {
                Some((_, end)) => at = end,
                None => break,
            }
        }
        at
    }

    /// The quiet window `t` is in (its start, and when the quiet ends: `defer(t)`), else the
    /// next one to come; `None` without quiet hours.
    pub fn window_from(&self, t: Millis) -> Option<(Millis, Millis)> {
        if let Some((start, _)) = self.containing(t) {
            return Some((start, self.defer(t)));
        }
        let day = self.local_date(t)?;
        let start = (-1..=3)
            .filter_map(|k| self.window_of(day + Duration::days(k)))
            .map(|(s, _)| s)
            .filter(|&s| s > t)
            .min()?;
        Some((start, self.defer(start)))
    }

    /// Of the windows that contain `t`, the one that ends last.
    fn containing(&self, t: Millis) -> Option<(Millis, Millis)> {
        let day = self.local_date(t)?;
        (-2..=1)
            .filter_map(|k| self.window_of(day + Duration::days(k)))
            .filter(|&(s, e)| s <= t && t < e)
            .max_by_key(|&(_, e)| e)
    }

    /// The local date in the player's zone at `t`.
    fn local_date(&self, t: Millis) -> Option<NaiveDate> {
        let utc = DateTime::from_timestamp_millis(t)?;
        Some(utc.with_timezone(&self.zone).date_naive())
    }

    /// The window that starts on local date `day`, as instants; `None` when the clocks skip it
    /// whole (or the date is out of range).
    fn window_of(&self, day: NaiveDate) -> Option<(Millis, Millis)> {
        if !self.has_window() {
            return None;
        }
        let start = self.instant(day.and_time(self.start.naive()), Pick::First)?;
        let end_day = if self.start < self.end {
            day
        } else {
            day.succ_opt()?
        };
        let end = self.instant(end_day.and_time(self.end.naive()), Pick::Last)?;
        (start < end).then_some((start, end))
    }

    /// The instant a wall-clock time stands for (see the module's doc).
    fn instant(&self, local: NaiveDateTime, pick: Pick) -> Option<Millis> {
        instant(self.zone, local, pick)
    }
}

/// The instant a wall-clock time of `zone` stands for (see the module's doc).
fn instant(zone: Tz, local: NaiveDateTime, pick: Pick) -> Option<Millis> {
    let mut at = local;
    // A skipped time: the first valid minute after it is the moment the clocks jumped
    // (transitions fall on whole minutes). No zone skips more than a day.
    for _ in 0..=2 * usize::from(MINUTES_A_DAY) {
        let found = zone.from_local_datetime(&at);
        let t = match pick {
            Pick::First => found.earliest(),
            Pick::Last => found.latest(),
        };
        if let Some(t) = t {
            return Some(t.timestamp_millis());
        }
        at += Duration::minutes(1);
    }
    None
}

/// The first instant after `after` at which the wall clock of `zone` shows `time` (the first
/// time it does so on a fall-back night; when the clocks jump at a spring-forward night's
/// skipped time).
pub fn next_local(zone: Tz, time: TimeOfDay, after: Millis) -> Option<Millis> {
    let day = DateTime::from_timestamp_millis(after)?
        .with_timezone(&zone)
        .date_naive();
    (0..=2)
        .filter_map(|k| {
            instant(
                zone,
                (day + Duration::days(k)).and_time(time.naive()),
                Pick::First,
            )
        })
        .find(|&t| t > after)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An instant written in UTC, `2026-03-29T01:00`.
    fn utc(s: &str) -> Millis {
        let t = NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M").unwrap();
        t.and_utc().timestamp_millis()
    }

    fn quiet(zone: &str, from: &str, to: &str) -> Quiet {
        Quiet::new(
            parse_zone(zone).unwrap(),
            from.parse().unwrap(),
            to.parse().unwrap(),
        )
    }

    const MINUTE: Millis = 60_000;

    /// Over every minute from `from` for `hours`: `defer` is never quiet, never earlier, and
    /// every minute it skips is quiet.
    fn assert_consistent(q: &Quiet, from: Millis, hours: i64) {
        let mut t = from;
        while t < from + hours * 60 * MINUTE {
            let d = q.defer(t);
            assert!(d >= t && !q.is_quiet(d), "{q:?} at {t}: defer {d}");
            assert_eq!(d == t, !q.is_quiet(t), "{q:?} at {t}");
            let mut x = t;
            while x < d {
                assert!(q.is_quiet(x), "{q:?}: {x} between {t} and {d}");
                x += 7 * MINUTE;
            }
            t += 7 * MINUTE;
        }
    }

    #[test]
    fn times_of_day_parse_and_print() {
        assert_eq!("07:00".parse::<TimeOfDay>().unwrap().minutes(), 420);
        assert_eq!("7:05".parse::<TimeOfDay>().unwrap().minutes(), 425);
        assert_eq!(" 22:30 ".parse::<TimeOfDay>().unwrap().to_string(), "22:30");
        assert_eq!("00:00".parse::<TimeOfDay>().unwrap().minutes(), 0);
        assert_eq!("23:59".parse::<TimeOfDay>().unwrap().to_string(), "23:59");
        for bad in [
            "25:00", "24:00", "12:60", "7", "ab:cd", "12:5", "", "-1:00", "1:000",
        ] {
            let e = bad.parse::<TimeOfDay>().unwrap_err();
            assert_eq!(e, QuietError::BadTime(bad.trim().to_string()), "{bad}");
        }
        assert_eq!(
            "25:00".parse::<TimeOfDay>().unwrap_err().to_string(),
            "'25:00' is not a time of day (HH:MM, 00:00–23:59)"
        );
        assert_eq!(TimeOfDay::from_minutes(1440), None);
    }

    #[test]
    fn zones_parse_in_any_case_and_unknown_ones_are_refused() {
        assert_eq!(parse_zone("Europe/Berlin").unwrap(), Tz::Europe__Berlin);
        assert_eq!(parse_zone(" europe/berlin ").unwrap(), Tz::Europe__Berlin);
        assert_eq!(
            parse_zone("America/New York").unwrap(),
            Tz::America__New_York
        );
        assert_eq!(parse_zone("utc").unwrap(), Tz::UTC);
        let e = parse_zone("Mars/Base").unwrap_err();
        assert!(
            e.to_string().starts_with("'Mars/Base' is not a time zone"),
            "{e}"
        );
        assert!(parse_zone("").is_err());
        let long = "x".repeat(300);
        assert!(parse_zone(&long).unwrap_err().to_string().len() < 250);
    }

    #[test]
    fn zones_match_by_substring_city_first_at_most_the_limit() {
        assert_eq!(matching_zones("berlin", 25), vec!["Europe/Berlin"]);
        let york = matching_zones("new y", 25);
        assert_eq!(york.first(), Some(&"America/New_York"), "{york:?}");
        let europe = matching_zones("europe", 25);
        assert_eq!(europe.len(), 25);
        assert!(
            europe.iter().all(|z| z.starts_with("Europe/")),
            "{europe:?}"
        );
        let kol = matching_zones("KOLK", 25);
        assert_eq!(kol, vec!["Asia/Kolkata"]);
        assert!(matching_zones("mars", 25).is_empty());
        let common = matching_zones("", 25);
        assert!(common.contains(&"UTC") && common.len() <= 25);
        assert!(common.iter().all(|z| parse_zone(z).is_ok()));
        // A city that starts with the text ranks before a name that only contains it.
        let ka = matching_zones("ka", 25);
        let pos = |z: &str| ka.iter().position(|x| *x == z).unwrap();
        assert!(pos("Asia/Karachi") < pos("Asia/Dhaka"), "{ka:?}");
    }

    #[test]
    fn a_window_past_midnight_has_exact_boundaries() {
        // January in Berlin: CET, UTC+1.
        let q = quiet("Europe/Berlin", "22:30", "07:00");
        assert!(!q.is_quiet(utc("2026-01-15T21:29")));
        assert!(q.is_quiet(utc("2026-01-15T21:30")), "the start is quiet");
        assert!(q.is_quiet(utc("2026-01-15T23:59")));
        assert!(q.is_quiet(utc("2026-01-16T05:59")));
        assert!(!q.is_quiet(utc("2026-01-16T06:00")), "the end is not");
        assert!(!q.is_quiet(utc("2026-01-16T12:00")));
        assert_eq!(q.defer(utc("2026-01-15T21:29")), utc("2026-01-15T21:29"));
        assert_eq!(q.defer(utc("2026-01-15T21:30")), utc("2026-01-16T06:00"));
        assert_eq!(q.defer(utc("2026-01-16T03:17")), utc("2026-01-16T06:00"));
        assert_eq!(q.defer(utc("2026-01-16T05:59")), utc("2026-01-16T06:00"));
        assert_eq!(q.defer(utc("2026-01-16T06:00")), utc("2026-01-16T06:00"));
        assert_consistent(&q, utc("2026-01-15T00:00"), 48);
    }

    #[test]
    fn a_window_within_a_day() {
        let q = quiet("UTC", "13:00", "14:15");
        assert!(!q.is_quiet(utc("2026-05-01T12:59")));
        assert!(q.is_quiet(utc("2026-05-01T13:00")));
        assert!(q.is_quiet(utc("2026-05-01T14:14")));
        assert!(!q.is_quiet(utc("2026-05-01T14:15")));
        assert!(!q.is_quiet(utc("2026-05-01T23:00")));
        assert_eq!(q.defer(utc("2026-05-01T13:30")), utc("2026-05-01T14:15"));
        assert_eq!(
            q.window_from(utc("2026-05-01T15:00")),
            Some((utc("2026-05-02T13:00"), utc("2026-05-02T14:15")))
        );
        assert_eq!(
            q.window_from(utc("2026-05-01T13:30")),
            Some((utc("2026-05-01T13:00"), utc("2026-05-01T14:15")))
        );
        assert_consistent(&q, utc("2026-05-01T00:00"), 30);
    }

    #[test]
    fn start_equal_to_end_is_never_quiet() {
        let q = quiet("Europe/Berlin", "08:00", "08:00");
        assert!(!q.has_window());
        for h in 0..48 {
            let t = utc("2026-01-15T00:00") + h * 60 * MINUTE;
            assert!(!q.is_quiet(t));
            assert_eq!(q.defer(t), t);
        }
        assert_eq!(q.window_from(utc("2026-01-15T00:00")), None);
    }

    #[test]
    fn berlin_spring_forward_ends_a_skipped_end_when_the_clocks_jump() {
        // 2026-03-29: 02:00 CET (01:00 UTC) jumps to 03:00 CEST; 02:30 never shows.
        let q = quiet("Europe/Berlin", "22:00", "02:30");
        assert!(q.is_quiet(utc("2026-03-28T21:00")), "22:00 CET");
        assert!(q.is_quiet(utc("2026-03-29T00:59")), "01:59 CET");
        assert!(!q.is_quiet(utc("2026-03-29T01:00")), "03:00 CEST");
        assert_eq!(q.defer(utc("2026-03-28T22:00")), utc("2026-03-29T01:00"));
        // The next night is in summer time: 22:00 CEST is 20:00 UTC, 02:30 CEST 00:30 UTC.
        assert!(q.is_quiet(utc("2026-03-29T20:00")));
        assert_eq!(q.defer(utc("2026-03-29T20:00")), utc("2026-03-30T00:30"));
        // A usual end on that night: 07:00 CEST.
        let q7 = quiet("Europe/Berlin", "22:00", "07:00");
        assert_eq!(q7.defer(utc("2026-03-28T23:00")), utc("2026-03-29T05:00"));
        // A start in the skipped hour starts when the clocks jump.
        let late = quiet("Europe/Berlin", "02:30", "06:00");
        assert!(!late.is_quiet(utc("2026-03-29T00:59")));
        assert!(late.is_quiet(utc("2026-03-29T01:00")));
        assert_eq!(late.defer(utc("2026-03-29T01:00")), utc("2026-03-29T04:00"));
        // A window wholly in the skipped hour does not happen that night.
        let gone = quiet("Europe/Berlin", "02:10", "02:50");
        assert!(!gone.is_quiet(utc("2026-03-29T01:00")));
        assert!(!gone.is_quiet(utc("2026-03-29T00:59")));
        assert!(
            gone.is_quiet(utc("2026-03-28T01:20")),
            "the night before, CET"
        );
        for q in [q, q7, late, gone] {
            assert_consistent(&q, utc("2026-03-28T12:00"), 36);
        }
    }

    #[test]
    fn berlin_fall_back_lasts_until_the_end_shows_the_second_time() {
        // 2026-10-25: 03:00 CEST (01:00 UTC) falls back to 02:00 CET; 02:00–03:00 shows twice.
        let q = quiet("Europe/Berlin", "22:00", "02:30");
        assert!(q.is_quiet(utc("2026-10-24T20:00")), "22:00 CEST");
        assert!(
            q.is_quiet(utc("2026-10-25T00:30")),
            "the first 02:30 (CEST)"
        );
        assert!(
            q.is_quiet(utc("2026-10-25T00:45")),
            "02:45 CEST, before the fall-back"
        );
        assert!(q.is_quiet(utc("2026-10-25T01:29")), "02:29 CET");
        assert!(
            !q.is_quiet(utc("2026-10-25T01:30")),
            "the second 02:30 (CET)"
        );
        assert_eq!(q.defer(utc("2026-10-24T21:00")), utc("2026-10-25T01:30"));
        // A start shown twice starts the first time.
        let late = quiet("Europe/Berlin", "02:30", "06:00");
        assert!(!late.is_quiet(utc("2026-10-25T00:29")));
        assert!(late.is_quiet(utc("2026-10-25T00:30")), "the first 02:30");
        assert_eq!(late.defer(utc("2026-10-25T00:30")), utc("2026-10-25T05:00"));
        // Two windows that overlap on that night: the quiet lasts to the later end.
        let long = quiet("Europe/Berlin", "02:45", "02:15");
        assert!(
            long.is_quiet(utc("2026-10-25T00:20")),
            "02:20 CEST, before the second 02:15"
        );
        assert_eq!(long.defer(utc("2026-10-25T00:20")), utc("2026-10-26T01:15"));
        for q in [q, late, long] {
            assert_consistent(&q, utc("2026-10-24T12:00"), 36);
        }
    }

    #[test]
    fn new_york_spring_forward_and_fall_back() {
        // 2026-03-08: 02:00 EST (07:00 UTC) jumps to 03:00 EDT.
        let q = quiet("America/New_York", "23:00", "02:30");
        assert!(q.is_quiet(utc("2026-03-08T04:00")), "23:00 EST");
        assert!(q.is_quiet(utc("2026-03-08T06:59")));
        assert!(!q.is_quiet(utc("2026-03-08T07:00")), "03:00 EDT");
        assert_eq!(q.defer(utc("2026-03-08T05:00")), utc("2026-03-08T07:00"));
        // 2026-11-01: 02:00 EDT (06:00 UTC) falls back to 01:00 EST; 01:30 shows twice.
        let q = quiet("America/New_York", "23:00", "01:30");
        assert!(q.is_quiet(utc("2026-11-01T03:00")), "23:00 EDT");
        assert!(q.is_quiet(utc("2026-11-01T05:30")), "the first 01:30 (EDT)");
        assert!(q.is_quiet(utc("2026-11-01T06:29")), "01:29 EST");
        assert!(
            !q.is_quiet(utc("2026-11-01T06:30")),
            "the second 01:30 (EST)"
        );
        assert_eq!(q.defer(utc("2026-11-01T03:00")), utc("2026-11-01T06:30"));
        assert_consistent(&q, utc("2026-10-31T12:00"), 36);
        assert_consistent(&q, utc("2026-03-07T12:00"), 36);
    }

    #[test]
    fn zones_far_from_utc() {
        // January in Auckland: NZDT, UTC+13; 22:00 on the 15th is 09:00 UTC the same day.
        let q = quiet("Pacific/Auckland", "22:00", "07:00");
        assert!(!q.is_quiet(utc("2026-01-15T08:59")));
        assert!(q.is_quiet(utc("2026-01-15T09:00")));
        assert_eq!(q.defer(utc("2026-01-15T09:00")), utc("2026-01-15T18:00"));
        assert!(!q.is_quiet(utc("2026-01-15T18:00")));
        // July: NZST, UTC+12.
        assert_eq!(q.defer(utc("2026-07-15T10:00")), utc("2026-07-15T19:00"));
        assert_consistent(&q, utc("2026-04-04T00:00"), 48); // NZDT ends on 2026-04-05
        assert_consistent(&q, utc("2026-09-26T00:00"), 48); // NZST ends on 2026-09-27
        // Kolkata: UTC+05:30 all year.
        let q = quiet("Asia/Kolkata", "23:30", "06:30");
        assert!(!q.is_quiet(utc("2026-06-01T17:59")));
        assert!(q.is_quiet(utc("2026-06-01T18:00")), "23:30 IST");
        assert!(q.is_quiet(utc("2026-06-02T00:59")));
        assert!(!q.is_quiet(utc("2026-06-02T01:00")), "06:30 IST");
        assert_eq!(q.defer(utc("2026-06-01T18:00")), utc("2026-06-02T01:00"));
        assert_eq!(
            q.window_from(utc("2026-06-01T12:00")),
            Some((utc("2026-06-01T18:00"), utc("2026-06-02T01:00")))
        );
        assert_eq!(local_clock(q.zone(), utc("2026-06-01T18:00")), "Mon 23:30");
    }

    #[test]
    fn quiet_is_cheap_to_copy_and_compare() {
        let a = quiet("Asia/Kolkata", "23:30", "06:30");
        let b = a;
        assert_eq!(a, b);
        assert_ne!(a, quiet("Asia/Kolkata", "23:30", "06:31"));
        assert_eq!(a.start().to_string(), "23:30");
        assert_eq!(a.end().to_string(), "06:30");
    }

    #[test]
    fn the_next_time_the_clock_shows_a_time_of_day_across_daylight_saving() {
        let berlin = parse_zone("Europe/Berlin").unwrap();
        let eight: TimeOfDay = "08:00".parse().unwrap();
        // Winter: 08:00 CET is 07:00 UTC; just before it, that day; at it, the next day's.
        let at = utc("2026-03-27T07:00");
        assert_eq!(next_local(berlin, eight, at - 60_000), Some(at));
        assert_eq!(next_local(berlin, eight, at), Some(utc("2026-03-28T07:00")));
        // Spring forward on the 29th: 08:00 CEST is 06:00 UTC.
        assert_eq!(
            next_local(berlin, eight, utc("2026-03-28T12:00")),
            Some(utc("2026-03-29T06:00"))
        );
        // A skipped time (02:30 on the 29th) comes when the clocks jump.
        let skipped: TimeOfDay = "02:30".parse().unwrap();
        assert_eq!(
            next_local(berlin, skipped, utc("2026-03-28T12:00")),
            Some(utc("2026-03-29T01:00"))
        );
        // Fall back on 2026-10-25: 02:30 is shown twice; the first is the one.
        assert_eq!(
            next_local(berlin, skipped, utc("2026-10-24T12:00")),
            Some(utc("2026-10-25T00:30"))
        );
        // Late in the evening: tomorrow's, whatever the zone's offset.
        let tokyo = parse_zone("Asia/Tokyo").unwrap();
        assert_eq!(
            next_local(tokyo, eight, utc("2026-06-01T23:30")),
            Some(utc("2026-06-02T23:00"))
        );
    }
}
