//! `/hexmeros games` everywhere (issue 49): in a DM with the bot or in any server, a user's
//! unfinished games of every server the bot shares with them, most urgent first, each with its
//! server, whose turn, the time left and a jump link; nothing of a server the user left, and
//! nobody else's games; ten to a page, the pages' buttons for the list's own user only.

use hexmeros_testkit::{bot, fake_discord};

use serde_json::json;

use bot::*;
use fake_discord::FakeDiscord as F;

/// A HexDame game of `players` (the first moves first), started from `channel`.
async fn dame(fake: &F, channel: u64, players: &[u64]) -> (i64, u64) {
    start_game_in(
        fake,
        channel,
        players,
        vec![json!({"type": 4, "name": "game", "value": 1})],
    )
    .await
}

/// Where the list names game `id` (its line's start), if it does.
fn at(text: &str, id: i64) -> Option<usize> {
    text.find(&format!("**HexDame #{id}**"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_in_a_dm_lists_two_servers_most_urgent_first_and_nothing_of_a_server_left() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let third = 1_100_000_000_000_000_777;
    let third_channel = fake.add_guild(third);
    // Two turns of user 1's, the earlier one's time running out first; a game where user 3
    // is to move; a game in a third server, which user 1 then leaves; a game without user 1.
    bot.set_clock(START_MS);
    let (a, ta) = dame(&fake, F::CHANNEL_ID, &[u(1), u(2)]).await;
    bot.set_clock(START_MS + HOUR_MS);
    let (b, tb) = dame(&fake, F::OTHER_CHANNEL_ID, &[u(3), u(1)]).await;
    bot.set_clock(START_MS + 2 * HOUR_MS);
    let (c, tc) = dame(&fake, F::OTHER_CHANNEL_ID, &[u(1), u(4)]).await;
    let (d, _) = dame(&fake, third_channel, &[u(1), u(5)]).await;
    let (e, _) = dame(&fake, F::CHANNEL_ID, &[u(6), u(2)]).await;
    fake.remove_member(third, u(1));
    for (game, holder) in [(a, u(1)), (b, u(3)), (c, u(1))] {
        assert_eq!(
            bot.state(game).await.holder_player(),
            Some(holder as i64),
            "game {game}"
        );
    }

    let dm = fake.open_dm(u(1));
    let r = hx(&fake, u(1), dm, "games", json!([])).await;
    assert!(is_private(&r), "{r:?}");
    let text = content(&r);
    let (pa, pb, pc) = (at(&text, a), at(&text, b), at(&text, c));
    assert!(pa.is_some() && pb.is_some() && pc.is_some(), "{text}");
    assert!(
        pa < pc && pc < pb,
        "your turns first, least time left first: {text}"
    );
    assert_eq!(at(&text, d), None, "a game of a server user 1 left: {text}");
    assert_eq!(at(&text, e), None, "someone else's game: {text}");
    assert!(!text.contains(&third.to_string()), "{text}");
    assert!(
        text.starts_with("your games: 3 (2 awaiting your move)"),
        "{text}"
    );
    for (guild, thread) in [
        (F::GUILD_ID, ta),
        (F::OTHER_GUILD_ID, tb),
        (F::OTHER_GUILD_ID, tc),
    ] {
        let link = format!("https://discord.com/channels/{guild}/{thread}");
        assert!(text.contains(&link), "no {link} in {text}");
    }
    assert!(
        text.contains("Hex Test Guild") && text.contains("Other Guild"),
        "{text}"
    );
    // A's time runs out 24 hours after its start (the default turn timer); in B, user 3 is to
    // move, named with their seat.
    let due = (START_MS + 24 * HOUR_MS) / 1000;
    assert!(
        text.contains(&format!("time runs out <t:{due}:R>")),
        "{text}"
    );
    let b_line = text.lines().find(|l| at(l, b).is_some()).unwrap();
    assert!(b_line.contains(" to move, last move <t:"), "{b_line}");
    // Discord was asked whether user 1 is in each server (none is "here" in a DM).
    let asked = |guild: u64, status: u16| {
        fake.requests().iter().any(|s| {
            s.method == "GET"
                && s.path == format!("/guilds/{guild}/members/{}", u(1))
                && s.status == status
        })
    };
    assert!(
        asked(third, 404) && asked(F::OTHER_GUILD_ID, 200),
        "membership not asked"
    );

    // The same list from a server channel; another user sees only their own games.
    let here = content(&hx(&fake, u(1), F::CHANNEL_ID, "games", json!([])).await);
    assert_eq!(here, text);
    // Discord's word on membership is remembered a while: asked once for each server.
    let asked_times = |guild: u64| {
        let path = format!("/guilds/{guild}/members/{}", u(1));
        fake.requests()
            .iter()
            .filter(|s| s.method == "GET" && s.path == path)
            .count()
    };
    assert_eq!((asked_times(third), asked_times(F::OTHER_GUILD_ID)), (1, 1));
    let theirs = content(&hx(&fake, u(2), F::CHANNEL_ID, "games", json!([])).await);
    assert!(
        at(&theirs, a).is_some() && at(&theirs, e).is_some(),
        "{theirs}"
    );
    for g in [b, c, d] {
        assert_eq!(at(&theirs, g), None, "{theirs}");
    }
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_list_comes_in_pages_whose_buttons_are_the_lists_own() {
    let fake = F::start().await;
    let bot = Bot::start_with(
        &fake,
        None,
        &[
            ("HEXMEROS_RATE_STARTS", "50/1h"),
            ("HEXMEROS_MAX_ACTIVE_GAMES", "50"),
        ],
    )
    .await;
    let mut games = Vec::new();
    for n in 0..12 {
        let channel = if n % 2 == 0 {
            F::CHANNEL_ID
        } else {
            F::OTHER_CHANNEL_ID
        };
        games.push(dame(&fake, channel, &[u(2), u(1)]).await.0);
    }
    let dm = fake.open_dm(u(1));
    let first = hx(&fake, u(1), dm, "games", json!([])).await;
    let text = content(&first);
    assert!(text.contains("page 1 of 2"), "{text}");
    let shown = |t: &str| games.iter().filter(|&&g| at(t, g).is_some()).count();
    assert_eq!(shown(&text), 10, "{text}");
    let next = custom_ids(first.json.as_ref().unwrap())
        .into_iter()
        .find(|id| id.ends_with(":mine:0:1"))
        .unwrap_or_else(|| panic!("no Next button: {:?}", first.json));
    let previous = format!("{}:mine:0:0", u(1));
    assert!(
        custom_ids(first.json.as_ref().unwrap()).contains(&previous),
        "{:?}",
        first.json
    );

    // Someone else pressing the button gets no list.
    let stranger = click_answer(&fake, u(3), dm, message_id(&first), &next).await;
    assert!(
        content(&stranger).contains("someone else's"),
        "{stranger:?}"
    );
    assert!(!is_edit(&stranger), "the list itself is left as it was");
    assert_eq!(shown(&content(&stranger)), 0);
    // The list's own user turns the page in place.
    let page = click_answer(&fake, u(1), dm, message_id(&first), &next).await;
    assert!(is_edit(&page), "{page:?}");
    let text2 = content(&page);
    assert!(text2.contains("page 2 of 2"), "{text2}");
    assert_eq!(shown(&text2), 2, "{text2}");
    assert_eq!(shown(&text) + shown(&text2), 12);
    // A forged page number past the end shows the last page.
    let past = next.replace(":mine:0:1", ":mine:0:9");
    let last = click_answer(&fake, u(1), dm, message_id(&first), &past).await;
    assert!(content(&last).contains("page 2 of 2"), "{:?}", last.json);
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_dm_a_command_that_needs_a_server_says_so_and_starts_nothing() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let dm = fake.open_dm(u(1));
    let i = fake
        .slash(
            u(1),
            dm,
            "hexmeros",
            sub("start", json!([user_opt("p1", u(1)), user_opt("p2", u(2))])),
        )
        .await;
    let answer = fake.first_response(&i, T).await.unwrap();
    let body = answer.json.unwrap_or_default();
    assert_eq!(body["data"]["flags"], 64, "private: {body}");
    let text = body["data"]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(text.contains("done in a server's channel"), "{text}");
    // `/hexmeros` is offered in DMs: registered without being limited to servers.
    let commands = fake.commands();
    let hexmeros = commands
        .iter()
        .find(|c| c["name"] == "hexmeros")
        .expect("registered");
    let contexts = &hexmeros["contexts"];
    assert!(
        contexts.is_null() || contexts.as_array().is_some_and(|c| c.contains(&json!(1))),
        "{hexmeros}"
    );
    assert_ne!(hexmeros["dm_permission"], json!(false), "{hexmeros}");
    assert!(fake.threads().is_empty(), "a thread was opened");
    assert_clean(&fake, &bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_discord_cannot_answer_for_is_left_out_and_said_then_listed_later() {
    let fake = F::start().await;
    let bot = Bot::start(&fake).await;
    let (game, _) = dame(&fake, F::OTHER_CHANNEL_ID, &[u(1), u(2)]).await;
    // Every try of the membership question fails (500): the wire gives up after six.
    let members = format!("/guilds/{}/members/", F::OTHER_GUILD_ID);
    fake.fail_next("GET", &members, 500, None, 6);
    let dm = fake.open_dm(u(1));
    let text = content(&hx(&fake, u(1), dm, "games", json!([])).await);
    assert_eq!(at(&text, game), None, "{text}");
    assert!(text.contains("1 server(s) could not be checked"), "{text}");
    assert!(!text.contains("Other Guild"), "{text}");
    // Not remembered as an answer: asked again, Discord answers and the game is listed.
    let text = content(&hx(&fake, u(1), dm, "games", json!([])).await);
    assert!(at(&text, game).is_some(), "{text}");
    assert!(!text.contains("could not be checked"), "{text}");
    assert!(
        bot.log()
            .contains("cannot tell whether a player is in a server")
    );
}
