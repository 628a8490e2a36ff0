//! `hexmeros serve`'s settings, in one place: each is a flag and an environment variable (the
//! flag first; `.env` is read before the command line is), gathered by clap, checked once by
//! [`Settings::resolve`], and handed down. A bad value stops `serve` before anything is opened,
//! in one sentence naming the flag or the variable it came under. The two secrets (the bot
//! token and the OAuth2 client secret) come from the environment only: a flag would show them
//! to anyone who lists the machine's processes.

use std::path::PathBuf;
use std::time::Duration;

use clap::ArgMatches;
use clap::parser::ValueSource;
use poise::serenity_prelude as serenity;

use crate::discord::WebConfig;
use crate::discord::config::{self, Limits, Shards};

/// What `serve --help` says after the flags.
const SECRETS: &str = "\
Secrets come from the environment (or .env) only, never a flag:
  DISCORD_TOKEN          the bot token (required): Developer Portal → Bot → Reset Token
  DISCORD_CLIENT_SECRET  the application's OAuth2 client secret: the web board also runs as a
                         Discord Activity (needs --web)
Every flag may be given as its variable instead (shown as [env: …]); an empty value is unset.
Each one in full: docs/running.md#configuration";

/// The flags and variables of `hexmeros serve`, as given (checked by [`Settings::resolve`]).
#[derive(clap::Args, Clone, Debug, Default)]
#[command(after_help = SECRETS)]
pub struct ServeArgs {
    /// The database: sqlite://FILE or postgres://USER[:PASSWORD]@HOST[:PORT]/DB [default:
    /// sqlite://hexmeros.db]
    #[arg(long, hide_env_values = true, env = "DATABASE_URL", value_name = "URL")]
    pub db: Option<String>,
    /// Serve Prometheus metrics at http://ADDR/metrics (an IP:PORT, as 127.0.0.1:9100)
    /// [default: none]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_METRICS",
        value_name = "ADDR"
    )]
    pub metrics: Option<String>,
    /// The gateway shards this process runs, FIRST-LAST (as 0-3) or one number; needs
    /// --total-shards [default: all of them]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_SHARDS",
        value_name = "FIRST-LAST"
    )]
    pub shards: Option<String>,
    /// How many shards the bot has in all, across its processes [default: one connection,
    /// unsharded]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_TOTAL_SHARDS",
        value_name = "N"
    )]
    pub total_shards: Option<String>,
    /// Serve the interactive web board at ADDR (an IP:PORT, or a port on 127.0.0.1) [default:
    /// not served]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_WEB",
        value_name = "ADDR"
    )]
    pub web: Option<String>,
    /// The address people reach the web board at (the reverse proxy's): the links in Discord
    /// [default: no links]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_PUBLIC_URL",
        value_name = "URL"
    )]
    pub public_url: Option<String>,
    /// How long a web board connection has to send a request's headers (also the wait for a
    /// kept-alive connection's next request), in ms [default: 10000]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_WEB_HEADER_TIMEOUT_MS",
        value_name = "MS"
    )]
    pub web_header_timeout_ms: Option<String>,
    /// How long a web board connection may stay silent (no byte either way) before it is
    /// closed, in ms [default: 60000]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_WEB_IDLE_TIMEOUT_MS",
        value_name = "MS"
    )]
    pub web_idle_timeout_ms: Option<String>,
    /// The web board's open connections at most; more are answered 503 and closed [default:
    /// half the open-file limit, at most 16384]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_WEB_CONNECTIONS",
        value_name = "N"
    )]
    pub web_connections: Option<String>,
    /// The reverse proxies in front of the web board, addresses or networks (127.0.0.1,
    /// 10.0.0.0/8): only a request from one of them has its X-Forwarded-For read, for the
    /// client's address [default: none]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_WEB_TRUSTED_PROXIES",
        value_name = "LIST"
    )]
    pub web_trusted_proxies: Option<String>,
    /// The Activity's sign-ins that may begin (each calls Discord's token endpoint),
    /// COUNT/PERIOD or off [default: 30/1m]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_RATE_SIGN_INS",
        value_name = "RATE"
    )]
    pub rate_sign_ins: Option<String>,
    /// Register the commands in this one server (instant) [default: globally]
    #[arg(long, hide_env_values = true, env = "DEV_GUILD_ID", value_name = "ID")]
    pub dev_guild: Option<String>,
    /// Send REST calls and gateway discovery here instead of discord.com: a test's fake
    /// Discord on this machine [default: discord.com]
    #[arg(
        long,
        hide_env_values = true,
        env = "DISCORD_API_BASE",
        value_name = "URL"
    )]
    pub api_base: Option<String>,
    /// Hours a lobby waits for its players, 1 to 8760 [default: 48]
    #[arg(
        long,
        hide_env_values = true,
        env = "LOBBY_HOURS",
        value_name = "HOURS"
    )]
    pub lobby_hours: Option<String>,
    /// Board pictures one user may ask for, COUNT/PERIOD or off [default: 4/20s]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_RATE_PICTURES",
        value_name = "RATE"
    )]
    pub rate_pictures: Option<String>,
    /// Direct messages sent at one user's request [default: 3/30s]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_RATE_DMS",
        value_name = "RATE"
    )]
    pub rate_dms: Option<String>,
    /// Games one user may start [default: 6/1h]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_RATE_STARTS",
        value_name = "RATE"
    )]
    pub rate_starts: Option<String>,
    /// Times one user may go away or come back [default: 6/1h]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_RATE_AWAY",
        value_name = "RATE"
    )]
    pub rate_away: Option<String>,
    /// Bots one user may seat with their starts [default: 12/1h]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_RATE_BOT_SEATS",
        value_name = "RATE"
    )]
    pub rate_bot_seats: Option<String>,
    /// Unfinished games a user may sit in and still start another [default: 10]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_MAX_ACTIVE_GAMES",
        value_name = "N"
    )]
    pub max_active_games: Option<String>,
    /// Pictures drawing or waiting to be drawn at once [default: 16]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_RENDER_QUEUE",
        value_name = "N"
    )]
    pub render_queue: Option<String>,
    /// Games whose bots think (or wait to) at once [default: 8]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_BOT_QUEUE",
        value_name = "N"
    )]
    pub bot_queue: Option<String>,
    /// The bot's own calls to Discord on its global limit, evenly spaced [default: 45/1s]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_RATE_DISCORD",
        value_name = "RATE"
    )]
    pub rate_discord: Option<String>,
    /// Lock a finished game's thread as well as archiving it: on or off [default: off]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_LOCK_FINISHED",
        value_name = "ON|OFF"
    )]
    pub lock_finished: Option<String>,
    /// How long one Discord request may take before it is tried again, in ms, at least 100
    /// [default: 30000]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_DISCORD_TIMEOUT_MS",
        value_name = "MS"
    )]
    pub discord_timeout_ms: Option<String>,
    /// Tests only: read the clock (Unix milliseconds) from this file [default: the system
    /// clock]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_CLOCK_FILE",
        value_name = "FILE"
    )]
    pub clock_file: Option<String>,
    /// How long Discord may refuse the bot a game's thread (a server that took its access
    /// away) before the game is paused and its players told, in ms, at least 1000; the thread
    /// is tried every sixth of it, at most every 10 minutes [default: 3600000]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_ACCESS_GIVE_UP_MS",
        value_name = "MS"
    )]
    pub access_give_up_ms: Option<String>,
    /// The logs' format on stderr: text (for people) or json (one object a line, for a log
    /// collector) [default: text]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_LOG_FORMAT",
        value_name = "text|json"
    )]
    pub log_format: Option<String>,
    /// Days a person's data is kept after their last game, and the private notes on a game
    /// after it ended (the games stay, as the other players' records), at least 1 [default:
    /// kept for ever]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_RETENTION_DAYS",
        value_name = "DAYS"
    )]
    pub retention_days: Option<String>,
    /// How often the timers run, in ms [default: 30000]
    #[arg(
        long,
        hide_env_values = true,
        env = "HEXMEROS_TICK_MS",
        value_name = "MS"
    )]
    pub tick_ms: Option<String>,
}

/// Every setting of `serve`, checked.
#[derive(Clone)]
pub struct Settings {
    pub token: String,
    /// The database URL.
    pub db: String,
    pub dev_guild: Option<serenity::GuildId>,
    pub api_base: Option<String>,
    pub lobby_hours: u32,
    pub limits: Limits,
    pub lock_finished: bool,
    pub request_timeout: Option<Duration>,
    /// The metrics address, with the name it came under (for a port that cannot be had).
    pub metrics: Option<(&'static str, std::net::SocketAddr)>,
    pub shards: Option<Shards>,
    pub web: Option<WebConfig>,
    pub clock_file: Option<PathBuf>,
    pub tick_every: Duration,
    /// How long a game's thread may be refused before its game is paused.
    pub access_give_up: Duration,
    /// Logs as JSON lines (`HEXMEROS_LOG_FORMAT=json`), else text.
    pub log_json: bool,
    /// `HEXMEROS_RETENTION_DAYS`: how long people's data is kept (`None`: for ever).
    pub retention_days: Option<u32>,
}

/// One setting: its clap id, its flag and its variable.
struct Named {
    id: &'static str,
    flag: &'static str,
    var: &'static str,
}

/// The settings checked elsewhere by their variable's name (`config::Limits`).
const LIMITS: [Named; 9] = [
    named("rate_pictures", "--rate-pictures", "HEXMEROS_RATE_PICTURES"),
    named("rate_dms", "--rate-dms", "HEXMEROS_RATE_DMS"),
    named("rate_starts", "--rate-starts", "HEXMEROS_RATE_STARTS"),
    named(
        "rate_bot_seats",
        "--rate-bot-seats",
        "HEXMEROS_RATE_BOT_SEATS",
    ),
    named("rate_away", "--rate-away", "HEXMEROS_RATE_AWAY"),
    named(
        "max_active_games",
        "--max-active-games",
        "HEXMEROS_MAX_ACTIVE_GAMES",
    ),
    named("render_queue", "--render-queue", "HEXMEROS_RENDER_QUEUE"),
    named("bot_queue", "--bot-queue", "HEXMEROS_BOT_QUEUE"),
    named("rate_discord", "--rate-discord", "HEXMEROS_RATE_DISCORD"),
];

const fn named(id: &'static str, flag: &'static str, var: &'static str) -> Named {
    Named { id, flag, var }
}

/// Where the settings came from: which were given as flags.
struct Given<'a> {
    matches: Option<&'a ArgMatches>,
}

impl Given<'_> {
    /// The name a setting came under: its flag when given as one, else its variable.
    fn name(&self, n: &Named) -> &'static str {
        let flag = self
            .matches
            .and_then(|m| m.value_source(n.id))
            .is_some_and(|s| s == ValueSource::CommandLine);
        if flag { n.flag } else { n.var }
    }

    /// `check`'s refusal, naming the flag when the value came as one (the checks name the
    /// variable).
    fn checked<T>(&self, n: &Named, check: anyhow::Result<T>) -> anyhow::Result<T> {
        check.map_err(|e| self.renamed(n, e))
    }

    fn renamed(&self, n: &Named, e: anyhow::Error) -> anyhow::Error {
        let name = self.name(n);
        if name == n.var {
            e
        } else {
            anyhow::anyhow!(e.to_string().replacen(n.var, name, 1))
        }
    }
}

/// A value as given, trimmed; an empty one is unset.
fn value(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

impl ServeArgs {
    /// A limit's value by its variable's name.
    fn limit(&self, var: &str) -> Option<&str> {
        let v = match var {
            "HEXMEROS_RATE_PICTURES" => &self.rate_pictures,
            "HEXMEROS_RATE_DMS" => &self.rate_dms,
            "HEXMEROS_RATE_STARTS" => &self.rate_starts,
            "HEXMEROS_RATE_BOT_SEATS" => &self.rate_bot_seats,
            "HEXMEROS_RATE_AWAY" => &self.rate_away,
            "HEXMEROS_MAX_ACTIVE_GAMES" => &self.max_active_games,
            "HEXMEROS_RENDER_QUEUE" => &self.render_queue,
            "HEXMEROS_BOT_QUEUE" => &self.bot_queue,
            "HEXMEROS_RATE_DISCORD" => &self.rate_discord,
            _ => &None,
        };
        value(v)
    }
}

impl Settings {
    /// Check `args` (`matches`: the command line they were parsed from, which tells a flag
    /// from a variable; `secret`: reads a secret from the environment).
    pub fn resolve(
        args: &ServeArgs,
        matches: Option<&ArgMatches>,
        secret: impl Fn(&str) -> Option<String>,
    ) -> anyhow::Result<Settings> {
        let given = Given { matches };
        let token =
            secret("DISCORD_TOKEN").ok_or_else(|| anyhow::anyhow!(crate::discord::NO_TOKEN))?;
        let (shards, metrics) = process(args, &given)?;
        let (dev_guild, api_base, lobby_hours) = discord(args, &given)?;
        let (lock_finished, request_timeout, tick_every) = timing(args, &given)?;
        let access_give_up = give_up(args, &given)?;
        let limits = Limits::from_env(|var| args.limit(var).map(str::to_string)).map_err(|e| {
            let text = e.to_string();
            match LIMITS.iter().find(|n| text.starts_with(n.var)) {
                Some(n) => given.renamed(n, e),
                None => e,
            }
        })?;
        let web = crate::discord::web_config(
            value(&args.web).map(str::to_string),
            value(&args.public_url).map(str::to_string),
            secret("DISCORD_CLIENT_SECRET"),
            crate::discord::WebNames {
                web: given.name(&named("web", "--web", "HEXMEROS_WEB")),
                public_url: given.name(&named("public_url", "--public-url", "HEXMEROS_PUBLIC_URL")),
            },
        )?;
        // Checked even when the board is not served: a bad value is a mistake either way.
        let (web_limits, sign_ins) = web_bounds(args, &given)?;
        let web = web.map(|w| WebConfig {
            limits: web_limits,
            sign_ins,
            ..w
        });
        Ok(Settings {
            token,
            db: value(&args.db)
                .unwrap_or(hexmeros::store::DEFAULT_DATABASE_URL)
                .to_string(),
            dev_guild,
            api_base,
            lobby_hours,
            limits,
            lock_finished,
            request_timeout,
            metrics,
            shards,
            web,
            clock_file: value(&args.clock_file).map(PathBuf::from),
            tick_every,
            access_give_up,
            log_json: log_json(args, &given)?,
            retention_days: retention(args, &given)?,
        })
    }
}

/// `HEXMEROS_LOG_FORMAT`: `text` (the default) or `json`.
fn log_json(args: &ServeArgs, given: &Given) -> anyhow::Result<bool> {
    match value(&args.log_format)
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None | Some("text") => Ok(false),
        Some("json") => Ok(true),
        Some(other) => {
            let name = given.name(&named("log_format", "--log-format", "HEXMEROS_LOG_FORMAT"));
            anyhow::bail!("{name} must be text or json, not {other:?}")
        }
    }
}

/// The web board's connection bounds and the Activity's sign-in rate.
fn web_bounds(
    args: &ServeArgs,
    given: &Given,
) -> anyhow::Result<(hexmeros::web::WebLimits, Option<config::Rate>)> {
    let mut limits = hexmeros::web::WebLimits::default();
    let mut sign_ins = Some(config::SIGN_INS);
    let header = named(
        "web_header_timeout_ms",
        "--web-header-timeout-ms",
        "HEXMEROS_WEB_HEADER_TIMEOUT_MS",
    );
    if let Some(v) = value(&args.web_header_timeout_ms) {
        limits.header_timeout = given.checked(&header, config::web_timeout(header.var, v))?;
    }
    let idle = named(
        "web_idle_timeout_ms",
        "--web-idle-timeout-ms",
        "HEXMEROS_WEB_IDLE_TIMEOUT_MS",
    );
    if let Some(v) = value(&args.web_idle_timeout_ms) {
        limits.idle_timeout = given.checked(&idle, config::web_timeout(idle.var, v))?;
    }
    if let Some(v) = value(&args.web_connections) {
        let n = named(
            "web_connections",
            "--web-connections",
            "HEXMEROS_WEB_CONNECTIONS",
        );
        limits.connections = Some(given.checked(&n, config::web_connections(v))?);
    }
    if let Some(v) = value(&args.web_trusted_proxies) {
        let n = named(
            "web_trusted_proxies",
            "--web-trusted-proxies",
            "HEXMEROS_WEB_TRUSTED_PROXIES",
        );
        limits.trusted_proxies = given.checked(&n, config::web_trusted_proxies(v))?;
    }
    if let Some(v) = value(&args.rate_sign_ins) {
        let n = named("rate_sign_ins", "--rate-sign-ins", "HEXMEROS_RATE_SIGN_INS");
        sign_ins = given.checked(&n, config::sign_in_rate(v))?;
    }
    Ok((limits, sign_ins))
}

/// This process's place: its shards and its metrics address.
type Process = (Option<Shards>, Option<(&'static str, std::net::SocketAddr)>);

fn process(args: &ServeArgs, given: &Given) -> anyhow::Result<Process> {
    let shards = config::shards(
        value(&args.shards).map(|s| {
            let n = named("shards", "--shards", "HEXMEROS_SHARDS");
            (given.name(&n), s)
        }),
        value(&args.total_shards).map(|t| {
            let n = named("total_shards", "--total-shards", "HEXMEROS_TOTAL_SHARDS");
            (given.name(&n), t)
        }),
    )?;
    let metrics = value(&args.metrics)
        .map(|m| {
            let name = given.name(&named("metrics", "--metrics", "HEXMEROS_METRICS"));
            config::metrics_addr(name, m).map(|a| (name, a))
        })
        .transpose()?;
    Ok((shards, metrics))
}

/// Where on Discord: the one server to register in, the API's address, a lobby's hours.
fn discord(
    args: &ServeArgs,
    given: &Given,
) -> anyhow::Result<(Option<serenity::GuildId>, Option<String>, u32)> {
    let dev_guild = value(&args.dev_guild)
        .map(|g| {
            let n = named("dev_guild", "--dev-guild", "DEV_GUILD_ID");
            given.checked(&n, config::dev_guild(g))
        })
        .transpose()?;
    let api_base = value(&args.api_base)
        .map(|b| {
            let n = named("api_base", "--api-base", "DISCORD_API_BASE");
            given.checked(&n, config::api_base(b))
        })
        .transpose()?;
    let lobby_hours = match value(&args.lobby_hours) {
        Some(h) => {
            let n = named("lobby_hours", "--lobby-hours", "LOBBY_HOURS");
            given.checked(&n, config::lobby_hours(h))?
        }
        None => hexmeros::host::LOBBY_HOURS,
    };
    Ok((dev_guild, api_base, lobby_hours))
}

/// How long a game's thread may be refused before its game is paused (`--access-give-up-ms`).
fn give_up(args: &ServeArgs, given: &Given) -> anyhow::Result<Duration> {
    let Some(raw) = value(&args.access_give_up_ms) else {
        return Ok(crate::discord::outbound::outbox::BLOCKED_GIVE_UP);
    };
    let name = given.name(&named(
        "access_give_up_ms",
        "--access-give-up-ms",
        "HEXMEROS_ACCESS_GIVE_UP_MS",
    ));
    match raw.trim().parse::<u64>() {
        Ok(ms) if ms >= 1000 => Ok(Duration::from_millis(ms)),
        Ok(ms) => anyhow::bail!("{name} must be at least 1000 (a second), not {ms}"),
        Err(_) => anyhow::bail!("{name} must be milliseconds, not {raw:?}"),
    }
}

/// `HEXMEROS_RETENTION_DAYS`: whole days, at least one (none: everything is kept).
fn retention(args: &ServeArgs, given: &Given) -> anyhow::Result<Option<u32>> {
    let Some(raw) = value(&args.retention_days) else {
        return Ok(None);
    };
    let name = given.name(&named(
        "retention_days",
        "--retention-days",
        "HEXMEROS_RETENTION_DAYS",
    ));
    match raw.trim().parse::<u32>() {
        Ok(days) if days >= 1 => Ok(Some(days)),
        _ => anyhow::bail!("{name} must be a whole number of days, at least 1, not {raw:?}"),
    }
}

/// Finished threads locked or not, a request's timeout, the timers' period.
fn timing(args: &ServeArgs, given: &Given) -> anyhow::Result<(bool, Option<Duration>, Duration)> {
    let lock_finished = value(&args.lock_finished)
        .map(|v| {
            let n = named("lock_finished", "--lock-finished", "HEXMEROS_LOCK_FINISHED");
            given.checked(&n, config::lock_finished(v))
        })
        .transpose()?
        .unwrap_or(false);
    let request_timeout = value(&args.discord_timeout_ms)
        .map(|t| {
            let n = named(
                "discord_timeout_ms",
                "--discord-timeout-ms",
                "HEXMEROS_DISCORD_TIMEOUT_MS",
            );
            given.checked(&n, config::request_timeout(t))
        })
        .transpose()?;
    let tick_ms = match value(&args.tick_ms) {
        Some(t) => t.parse::<u64>().map_err(|_| {
            let name = given.name(&named("tick_ms", "--tick-ms", "HEXMEROS_TICK_MS"));
            anyhow::anyhow!("{name} must be milliseconds, not {t:?}")
        })?,
        None => 30_000,
    };
    Ok((
        lock_finished,
        request_timeout,
        Duration::from_millis(tick_ms.max(10)),
    ))
}
