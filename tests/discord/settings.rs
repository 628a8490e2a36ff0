#![allow(clippy::unwrap_used)]
//! End-to-end test of `/hexmeros settings` (issue 22): a player sets their time zone and quiet
//! hours, sees them privately with the window as Discord timestamps; bad zones and times are
//! refused and change nothing; the time zone option suggests matching IANA names; and a turn
//! message or reminder that pings a player in their quiet hours goes out silently (Discord's
//! SUPPRESS_NOTIFICATIONS flag), one to a player outside them rings. The real `hexmeros serve`
//! binary against the fake Discord; its clock starts at 2026-01-01 00:00 UTC (`START_MS`),
//! which is 01:00 in Berlin and 19:00 the evening before in New York.

use hexmeros_testkit::{bot, fake_discord};

use fake_discord::{FakeDiscord as F, Sent};
use hexmeros::games::{AnyGame, GameKind};
use serde_json::{Value, json};

use bot::*;

const SILENT: u64 = 1 << 12;

fn private_text(s: &Sent) -> String {
    assert!(is_private(s), "{s:?}");
    assert!(!content(s).starts_with("⚠️"), "{s:?}");
    content(s)
}

fn flags(s: &Sent) -> u64 {
    s.json
        .as_ref()
        .and_then(|j| j["flags"].as_u64())
        .unwrap_or(0)
}

/// A message's text and flags, for a failure (not its picture's bytes).
fn seen(s: &Sent) -> String {
    format!("{:?} flags {}", content(s), flags(s))
}

/// A Discord timestamp of `ms` after `START_MS` in `style`.
fn stamp(ms: i64, style: char) -> String {
    format!("<t:{}:{style}>", (START_MS + ms) / 1000)
}

/// The zones the time_zone option suggests for `typed`.
async fn suggested(fake: &F, typed: &str) -> Vec<String> {
    let focused = json!({"type": 3, "name": "time_zone", "value": typed, "focused": true});
    let i = fake
        .autocomplete(
            u(1),
            F::CHANNEL_ID,
            "hexmeros",
            sub("settings", json!([focused])),
        )
        .await;
    let s = fake.first_response(&i, T).await.unwrap();
    let body: &Value = s.json.as_ref().unwrap();
    assert_eq!(body["type"], 8, "{s:?}");
    body["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_are_private_checked_suggested_and_make_pings_in_quiet_hours_silent() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let c = F::CHANNEL_ID;

    // Nothing set yet: the defaults, privately.
    let r = hx(&fake, u(1), c, "settings", json!([])).await;
    let text = private_text(&r);
    assert!(text.contains("time zone: not set"), "{text}");
    assert!(text.contains("quiet hours: none"), "{text}");

    // Berlin, 22:00–07:00: 01:00 there now, so quiet until 07:00 CET (06:00 UTC).
    let r = hx(
        &fake,
        u(1),
        c,
        "settings",
        json!([
            str_opt("time_zone", "europe/berlin"),
            str_opt("quiet_from", "22:00"),
            str_opt("quiet_to", "7:00"),
        ]),
    )
    .await;
    let text = private_text(&r);
    assert!(text.starts_with("saved"), "{text}");
    assert!(
        text.contains("Europe/Berlin (your time now: Thu 01:00)"),
        "{text}"
    );
    assert!(text.contains("quiet hours: 22:00–07:00"), "{text}");
    assert!(
        text.contains(&format!("quiet now, until {}", stamp(6 * HOUR_MS, 't'))),
        "{text}"
    );

    // New York, 22:00–07:00: 19:00 there, so the next window is 03:00–12:00 UTC.
    let r = hx(
        &fake,
        u(2),
        c,
        "settings",
        json!([
            str_opt("time_zone", "America/New_York"),
            str_opt("quiet_from", "22:00"),
            str_opt("quiet_to", "07:00"),
        ]),
    )
    .await;
    let text = private_text(&r);
    assert!(text.contains("your time now: Wed 19:00"), "{text}");
    assert!(
        text.contains(&format!(
            "next from {} until {}",
            stamp(3 * HOUR_MS, 'f'),
            stamp(12 * HOUR_MS, 't')
        )),
        "{text}"
    );

    // Refused, changing nothing: an unknown zone, a time that is none, one end with clear.
    let shown = private_text(&hx(&fake, u(1), c, "settings", json!([])).await);
    assert!(shown.starts_with("your settings"), "{shown}");
    let r = hx(
        &fake,
        u(1),
        c,
        "settings",
        json!([
            str_opt("time_zone", "Mars/Base"),
            str_opt("quiet_from", "20:00")
        ]),
    )
    .await;
    assert_refused(&r, "'Mars/Base' is not a time zone");
    let r = hx(
        &fake,
        u(1),
        c,
        "settings",
        json!([str_opt("time_zone", "UTC"), str_opt("quiet_to", "25:00")]),
    )
    .await;
    assert_refused(&r, "'25:00' is not a time of day (HH:MM, 00:00–23:59)");
    let r = hx(
        &fake,
        u(1),
        c,
        "settings",
        json!([str_opt("quiet_to", "06:00"), bool_opt("clear", true)]),
    )
    .await;
    assert_refused(&r, "not both");
    let again = private_text(&hx(&fake, u(1), c, "settings", json!([])).await);
    assert_eq!(again, shown, "a refusal changed the settings");

    // The time zone option suggests matching names, at most 25.
    assert_eq!(suggested(&fake, "berl").await, ["Europe/Berlin"]);
    let europe = suggested(&fake, "Europe/").await;
    assert_eq!(europe.len(), 25);
    assert!(
        europe.iter().all(|z| z.starts_with("Europe/")),
        "{europe:?}"
    );
    assert!(suggested(&fake, "").await.contains(&"UTC".to_string()));
    assert!(suggested(&fake, "mars").await.is_empty());

    // A game: Berlin's player holds the Token first, in their quiet hours: a silent ping.
    let (_, t) = start_game(
        &fake,
        &[u(1), u(2)],
        vec![json!({"type": 4, "name": "game", "value": 1})],
    )
    .await;
    let first = wait_message(&fake, t, 0, "you have the Token").await;
    assert!(
        content(&first).starts_with(&format!("<@{}>", u(1))),
        "{}",
        seen(&first)
    );
    assert_eq!(flags(&first) & SILENT, SILENT, "{}", seen(&first));

    // New York's player is pinged in their evening: the ping rings.
    let mv = AnyGame::new(GameKind::HexDame, None, None)
        .unwrap()
        .legal_moves()[0]
        .clone();
    let before = fake.messages(t).len();
    let r = hx(
        &fake,
        u(1),
        t,
        "move",
        json!([str_opt("from", &mv), bool_opt("pass", true)]),
    )
    .await;
    assert!(!content(&r).starts_with("⚠️"), "{}", seen(&r));
    let turn = wait_message(&fake, t, before, &format!("played {mv}")).await;
    assert!(
        content(&turn).starts_with(&format!("<@{}>", u(2))),
        "{}",
        seen(&turn)
    );
    assert_eq!(flags(&turn) & SILENT, 0, "{}", seen(&turn));

    // Reminders are pings too: at 20:01 in New York it rings; the next one would fall at 23:00,
    // in the quiet hours, so it waits for their end, 07:00 (12:00 UTC), and rings then.
    let before = fake.messages(t).len();
    bot.set_clock(START_MS + HOUR_MS + 60_000);
    let m = wait_message(&fake, t, before, "for 1 hours").await;
    assert!(
        content(&m).starts_with(&format!("<@{}>", u(2))),
        "{}",
        seen(&m)
    );
    assert_eq!(flags(&m) & SILENT, 0, "{}", seen(&m));
    // The game is due again only then (the reminder's event was stored before its message).
    let store = hexmeros::store::Store::open(&bot.db_url()).await.unwrap();
    assert_eq!(
        store.next_due(1).await.unwrap(),
        Some(START_MS + 12 * HOUR_MS)
    );
    store.close().await;
    let before = fake.messages(t).len();
    bot.set_clock(START_MS + 12 * HOUR_MS + 60_000);
    let m = wait_message(&fake, t, before, "for 12 hours").await;
    assert!(
        content(&m).starts_with(&format!("<@{}>", u(2))),
        "{}",
        seen(&m)
    );
    assert_eq!(flags(&m) & SILENT, 0, "{}", seen(&m));
    assert!(
        !fake
            .messages(t)
            .iter()
            .any(|m| content(m).contains("for 4 hours")),
        "the 4-hour reminder fell in the quiet hours: it waited"
    );

    // Cleared: no quiet hours any more.
    let r = hx(&fake, u(2), t, "settings", json!([bool_opt("clear", true)])).await;
    let text = private_text(&r);
    assert!(text.starts_with("your settings are forgotten"), "{text}");
    assert!(text.contains("quiet hours: none"), "{text}");
    assert_clean(&fake, &bot);
}

/// `/hexmeros settings forget_me:True` (issue 61) erases what the bot keeps about the user
/// alone, privately, and says what stays (the games, the others' records); another user's
/// settings are untouched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forget_me_erases_the_users_own_data_and_says_what_stays() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let c = F::CHANNEL_ID;
    for user in [u(1), u(2)] {
        let r = hx(
            &fake,
            user,
            c,
            "settings",
            json!([str_opt("time_zone", "Europe/Berlin")]),
        )
        .await;
        assert!(private_text(&r).starts_with("saved"), "{r:?}");
    }
    let r = hx(
        &fake,
        u(1),
        c,
        "settings",
        json!([bool_opt("forget_me", true)]),
    )
    .await;
    assert!(is_private(&r), "{r:?}");
    let text = private_text(&r);
    assert!(text.starts_with("🗑️ forgotten"), "{text}");
    assert!(text.contains("\"a former player\""), "{text}");
    assert!(text.contains("Those games stay"), "{text}");
    let shown = private_text(&hx(&fake, u(1), c, "settings", json!([])).await);
    assert!(shown.contains("time zone: not set"), "{shown}");
    let other = private_text(&hx(&fake, u(2), c, "settings", json!([])).await);
    assert!(other.contains("Europe/Berlin"), "{other}");
    drop(bot);
}
