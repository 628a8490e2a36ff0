//! `/hexmeros games`: the games a user sits in, in every server the bot shares with them, most
//! urgent first (`host::urgency`), ten to a page, each with its game, its server, whose turn,
//! the time left and a link to its thread. It answers the same in a DM with the bot as in any
//! server, and only ever to the user who asked.
//!
//! A game of a server the user is no longer in is left out: Discord is asked whether they are a
//! member (`GET /guilds/{g}/members/{u}`; the server the command comes from needs no asking), so
//! the list never names a server the user is not in. A server Discord cannot answer for now is
//! left out too, and the list says so.

use std::collections::{BTreeSet, HashMap};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use serenity::{CreateActionRow, CreateButton, GuildId, Http, UserId};

use hexmeros::host::{PlayerId, Seated};

use crate::discord::ids::{Action, ComponentId};
use crate::discord::wire::http_status;
use crate::discord::{Data, Error};

/// Games on a page of the list.
pub const PER_PAGE: usize = 10;

/// How long a server's name is remembered.
const NAME_KEPT: Duration = Duration::from_secs(3600);

/// How long Discord's word on whether a user is in a server is remembered (a list asked again
/// and again costs Discord no more calls).
const MEMBER_KEPT: Duration = Duration::from_secs(600);

/// The names of the servers games were listed from, remembered for an hour, and who is in them,
/// for ten minutes.
#[derive(Debug, Default)]
pub struct Servers {
    names: Mutex<HashMap<u64, (String, Instant)>>,
    members: Mutex<HashMap<(u64, u64), (bool, Instant)>>,
}

impl Servers {
    fn member(&self, guild: u64, user: u64) -> Option<bool> {
        let members = self.members.lock().unwrap_or_else(|e| e.into_inner());
        members
            .get(&(guild, user))
            .filter(|(_, at)| at.elapsed() < MEMBER_KEPT)
            .map(|(m, _)| *m)
    }

    fn remember_member(&self, guild: u64, user: u64, member: bool) {
        let mut members = self.members.lock().unwrap_or_else(|e| e.into_inner());
        members.retain(|_, (_, at)| at.elapsed() < MEMBER_KEPT);
        members.insert((guild, user), (member, Instant::now()));
    }

    fn known(&self, guild: u64) -> Option<String> {
        let names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        names
            .get(&guild)
            .filter(|(_, at)| at.elapsed() < NAME_KEPT)
            .map(|(n, _)| n.clone())
    }

    fn remember(&self, guild: u64, name: &str) {
        let mut names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        names.retain(|_, (_, at)| at.elapsed() < NAME_KEPT);
        names.insert(guild, (name.to_owned(), Instant::now()));
    }
}

/// A page of the list: its words, and its buttons to the other pages.
pub struct Page {
    pub text: String,
    pub buttons: Vec<CreateActionRow>,
}

/// A server as the list shows it.
enum Server {
    /// The user is in it: its name.
    Shared(String),
    /// The user is not in it (or the bot no longer is).
    Foreign,
    /// Discord could not say now.
    Unknown,
}

/// Page `page` (from 0) of `user`'s list, asked from the server `here` (none: a DM).
pub async fn page(
    http: &Http,
    data: &Data,
    user: UserId,
    here: Option<GuildId>,
    page: usize,
) -> Result<Page, Error> {
    let me = user.get() as PlayerId;
    let mut games = Vec::new();
    for s in data.host.seated(me).await? {
        if let Some(link) = data.links.by_game(s.id).await? {
            games.push((s, link.guild, link.thread));
        }
    }
    // A server id of 0 (a row no snowflake wrote) names no server the user could be in.
    let guilds: BTreeSet<u64> = games
        .iter()
        .filter_map(|g| g.1)
        .filter(|&g| g != 0)
        .collect();
    let mut servers = HashMap::new();
    for g in guilds {
        let here = here.is_some_and(|h| h.get() == g);
        servers.insert(g, server(http, data, g, user, here).await);
    }
    let unknown = servers
        .values()
        .filter(|s| matches!(s, Server::Unknown))
        .count();
    let mut lines = Vec::new();
    for (s, guild, thread) in &games {
        let place = match guild.map(|g| servers.get(&g)) {
            Some(Some(Server::Shared(name))) => Some(name.as_str()),
            None => None,
            Some(None | Some(Server::Foreign | Server::Unknown)) => continue,
        };
        lines.push(line(data, s, place, *guild, *thread).await);
    }
    Ok(listing(me, &lines, unknown, page))
}

/// Whether `user` is still in server `guild` (`here`: the command came from it, which says
/// so), as Discord said within ten minutes or says now (`GET /guilds/{g}/members/{u}`); `None`
/// when it cannot say now. A server that removed the bot counts as one the user is not in.
pub async fn still_in(
    http: &Http,
    data: &Data,
    guild: u64,
    user: UserId,
    here: bool,
) -> Option<bool> {
    if here {
        data.servers.remember_member(guild, user.get(), true);
        return Some(true);
    }
    if let Some(known) = data.servers.member(guild, user.get()) {
        return Some(known);
    }
    let member = data
        .wire
        .retry("checking a server's member", || {
            http.get_member(GuildId::new(guild), user)
        })
        .await;
    let member = match member {
        Ok(_) => true,
        // Unknown Member, or a server the bot was removed from.
        Err(e) if matches!(http_status(&e), Some((403 | 404, _))) => false,
        Err(e) => {
            tracing::warn!(guild, error = %e, "cannot tell whether a player is in a server");
            return None;
        }
    };
    data.servers.remember_member(guild, user.get(), member);
    Some(member)
}

/// The games of `seated` (`user`'s) in servers the user is no longer in, asked from `here`:
/// no command may reach them any more (a user who left or was banned posts nothing there
/// through the bot). A server Discord cannot answer for now does not exclude its games.
pub async fn left_behind(
    http: &Http,
    data: &Data,
    user: UserId,
    here: Option<GuildId>,
    seated: &[hexmeros::host::GameId],
) -> Result<Vec<hexmeros::host::GameId>, Error> {
    let mut out = Vec::new();
    for &game in seated {
        let Some(guild) = data.links.by_game(game).await?.and_then(|l| l.guild) else {
            continue;
        };
        let here = here.is_some_and(|h| h.get() == guild);
        if still_in(http, data, guild, user, here).await == Some(false) {
            out.push(game);
        }
    }
    Ok(out)
}

/// Whether `user` is in server `guild` (`here`: the command came from it), and its name.
async fn server(http: &Http, data: &Data, guild: u64, user: UserId, here: bool) -> Server {
    let id = GuildId::new(guild);
    match still_in(http, data, guild, user, here).await {
        Some(true) => {}
        Some(false) => return Server::Foreign,
        None => return Server::Unknown,
    }
    if let Some(name) = data.servers.known(guild) {
        return Server::Shared(name);
    }
    match data
        .wire
        .retry("reading a server's name", || http.get_guild(id))
        .await
    {
        Ok(g) => {
            data.servers.remember(guild, &g.name);
            Server::Shared(g.name)
        }
        Err(e) => {
            tracing::warn!(guild, error = %e, "cannot read a server's name");
            Server::Shared(format!("server {guild}"))
        }
    }
}

/// One game's line: its game, server, whose turn and since or until when, and its thread.
async fn line(
    data: &Data,
    s: &Seated,
    server: Option<&str>,
    guild: Option<u64>,
    thread: u64,
) -> String {
    let mut parts = vec![format!("**{} #{}**", s.kind.name(), s.id)];
    if let Some(name) = server {
        parts.push(short(name, 40));
    }
    let turn = match (&s.holder, s.mine) {
        _ if s.paused => "paused by an admin".to_string(),
        (Some(_), true) => match s.due {
            Some(due) => format!("⏳ **your turn**, time runs out {}", stamp(due)),
            None => "⏳ **your turn**".to_string(),
        },
        (Some((seat, player)), false) => {
            let who = match data.host.player_name(*player).await {
                Ok(Some(n)) => format!("{seat} ({})", short(&n, 32)),
                _ => seat.clone(),
            };
            format!("{who} to move, last move {}", stamp(s.since))
        }
        (None, _) => format!("last move {}", stamp(s.since)),
    };
    parts.push(turn);
    parts.push(crate::discord::links::jump_url(guild, thread));
    parts.join(" · ")
}

/// `name` in at most `most` characters (a ten-line page stays within a message).
fn short(name: &str, most: usize) -> String {
    if name.chars().count() <= most {
        return name.to_owned();
    }
    let mut cut: String = name.chars().take(most - 1).collect();
    cut.push('…');
    cut
}

/// A time as Discord shows it to each reader, relative to now ("in 5 hours", "2 days ago").
fn stamp(ms: i64) -> String {
    format!("<t:{}:R>", ms.div_euclid(1000))
}

/// The page's text and, past ten games, its buttons to the other pages (their ids name the
/// user, so nobody else's click reads them).
fn listing(me: PlayerId, lines: &[String], unknown: usize, page: usize) -> Page {
    let pages = lines.len().div_ceil(PER_PAGE).max(1);
    let page = page.min(pages - 1);
    let mine = lines.iter().filter(|l| l.contains("**your turn**")).count();
    let mut text = if lines.is_empty() {
        "you sit in no unfinished game".to_string()
    } else {
        format!(
            "your games: {} ({mine} awaiting your move){}",
            lines.len(),
            if pages > 1 {
                format!(" — page {} of {pages}", page + 1)
            } else {
                String::new()
            }
        )
    };
    for (i, l) in lines
        .iter()
        .enumerate()
        .skip(page * PER_PAGE)
        .take(PER_PAGE)
    {
        text.push_str(&format!("\n{}. {l}", i + 1));
    }
    if unknown > 0 {
        text.push_str(&format!(
            "\n(the games of {unknown} server(s) could not be checked just now; ask again later)"
        ));
    }
    let mut components = Vec::new();
    if pages > 1 {
        let to = |p: usize, label: &str| {
            let id = ComponentId::new(me, 0, Action::Mine { page: p as u8 });
            CreateButton::new(id.encode())
                .label(label)
                .style(serenity::ButtonStyle::Secondary)
                .disabled(p == page)
        };
        components.push(CreateActionRow::Buttons(vec![
            to(page.saturating_sub(1), "◀ Previous"),
            to((page + 1).min(pages - 1), "Next ▶"),
        ]));
    }
    Page {
        text,
        buttons: components,
    }
}

/// A page button of a list: only the list's own user reads it.
pub async fn click(
    http: &Http,
    data: &Data,
    owner: PlayerId,
    clicker: UserId,
    here: Option<GuildId>,
    page: u8,
) -> Result<Page, Error> {
    if owner != clicker.get() as PlayerId {
        return Err(crate::discord::reply::refused(
            "this list is someone else's; /hexmeros games shows yours",
        ));
    }
    self::page(http, data, clicker, here, usize::from(page)).await
}

#[cfg(test)]
mod tests {
    use super::{listing, short};

    #[test]
    fn long_names_are_cut() {
        assert_eq!(short("Hex Test Guild", 40), "Hex Test Guild");
        assert_eq!(short("ééééé", 3), "éé…");
    }

    #[test]
    fn a_long_list_comes_in_pages_of_ten_with_buttons() {
        let lines: Vec<String> = (1..=23).map(|i| format!("game {i}")).collect();
        let first = listing(7, &lines, 0, 0);
        let text = &first.text;
        assert!(
            text.starts_with("your games: 23 (0 awaiting your move) — page 1 of 3"),
            "{text}"
        );
        assert!(
            text.contains("\n1. game 1\n") && text.contains("\n10. game 10"),
            "{text}"
        );
        assert!(!text.contains("game 11"), "{text}");
        let last = listing(7, &lines, 1, 9);
        let text = &last.text;
        assert!(
            text.contains("page 3 of 3") && text.contains("\n23. game 23"),
            "{text}"
        );
        assert!(text.contains("1 server(s) could not be checked"), "{text}");
        let short = listing(7, &lines[..3], 0, 0);
        assert!(!short.text.contains("page"), "{}", short.text);
        assert_eq!(listing(7, &[], 0, 0).text, "you sit in no unfinished game");
    }
}
