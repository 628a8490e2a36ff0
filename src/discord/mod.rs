//! The Discord front end: poise slash commands, the component and reaction handler, and the
//! delivery of the host's effects as Discord messages. It parses what a user did, calls the
//! `GameHost` once, and maps the effects it returns to Discord calls; no rule logic lives here.
//! Declared from `main.rs` only, so the library holds no Discord type.
//!
//! One function, [`build_client`], builds the client for production and for the end-to-end
//! tests: with `api_base` set, REST and gateway discovery go to that address (a fake Discord)
//! with serenity's rate limiter off, which is the only way serenity honours a proxy, through the
//! wire's relay (`wire::relay`), which notes what each 429 said to wait.
//!
//! Shards (`serve --shards FIRST-LAST --total-shards N`): a process may run only some of the
//! bot's shards, other processes the rest, all on one database. Discord sends a server's
//! interactions and reactions to its own shard only, so the handlers need nothing for that.
//! What a process does by itself must not assume it sees every server, and nothing here does:
//! there is no READY or GUILD_CREATE handling and no read of serenity's cache (which holds only
//! this process's servers); the framework's setup registers the command list globally (or in
//! `DEV_GUILD_ID`) by REST from each process, an overwrite with the same list; the timers, bot
//! turns and the outbox deliverer run in every process over the shared database, and act on
//! any server's game by REST, each item (a game's timers, its bots, an outbox lane) under its
//! lease (`store::leases`), so two processes never work one item at once; a process holds its
//! leases in the name of its shard range, so when it restarts it takes back at once what it
//! held, and the others take it over if it stays away longer than a lease; lobby expiry goes through the host the same way. A process's own message nonces
//! carry a per-process tag (`deliver`), so two processes never share one; Discord's global
//! rate limit is per token, so each process's `HEXMEROS_RATE_DISCORD` should be its share.

mod clock;
mod config;
mod health;
mod ids;
mod inbound;
mod limits;
mod links;
mod metrics;
mod names;
mod outbound;
mod permissions;
mod register;
mod reply;
pub mod settings;
mod timers;
mod web;
mod wire;

use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use poise::serenity_prelude as serenity;

use hexmeros::host::{Clock, GameHost, SystemClock};
use hexmeros::store::StoreError;

pub use clock::FileClock;
pub use settings::{ServeArgs, Settings};

/// Everything the bot needs to run.
pub struct Config {
    pub token: String,
    /// Send REST calls and gateway discovery here instead of discord.com (tests); only an
    /// address on this machine is accepted (see `config::api_base`).
    pub api_base: Option<String>,
    /// Register the commands in this guild only (instant), else globally.
    pub dev_guild: Option<serenity::GuildId>,
    pub host: Arc<GameHost>,
    /// How often the host's timers run.
    pub tick_every: Duration,
    /// How many hours a lobby waits for its players (`LOBBY_HOURS`).
    pub lobby_hours: u32,
    /// Per-user rates and queue sizes (see `limits`).
    pub limits: config::Limits,
    /// The gateway shards this process runs (`--shards`, `--total-shards`); `None`: one
    /// connection, unsharded.
    pub shards: Option<config::Shards>,
    /// The web board (`--web`, `HEXMEROS_WEB`); `None`: not served.
    pub web: Option<WebConfig>,
    /// How long one Discord request may take (`None`: 30 s).
    pub request_timeout: Option<Duration>,
    /// Lock a finished game's thread as well as archiving it.
    pub lock_finished: bool,
    /// How long a game's thread may be refused before its game is paused.
    pub access_give_up: Duration,
    /// The metrics listener, bound and waiting for the bot's state (`HEXMEROS_METRICS`).
    pub metrics: Option<metrics::Metrics>,
}

/// Where the web board is served, and the address people reach it at.
#[derive(Clone)]
pub struct WebConfig {
    pub addr: std::net::SocketAddr,
    /// `HEXMEROS_PUBLIC_URL` (the reverse proxy's address): the turn messages' and My side's
    /// links. Without it the board is served but no link is handed out in Discord.
    pub public_url: Option<String>,
    /// `DISCORD_CLIENT_SECRET`: the application's OAuth2 client secret, which the board's
    /// Discord Activity signs its viewers in with. Without it there is no Activity.
    pub client_secret: Option<String>,
    /// The board's connection bounds (`HEXMEROS_WEB_HEADER_TIMEOUT_MS`,
    /// `HEXMEROS_WEB_IDLE_TIMEOUT_MS`, `HEXMEROS_WEB_CONNECTIONS`) and trusted proxies
    /// (`HEXMEROS_WEB_TRUSTED_PROXIES`) with its default rates.
    pub limits: hexmeros::web::WebLimits,
    /// `HEXMEROS_RATE_SIGN_INS`: the Activity's sign-ins that may begin (`None`: off).
    pub sign_ins: Option<config::Rate>,
}

impl std::fmt::Debug for WebConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebConfig")
            .field("addr", &self.addr)
            .field("public_url", &self.public_url)
            .field("client_secret", &self.client_secret.as_ref().map(|_| "…"))
            .field("limits", &self.limits)
            .field("sign_ins", &self.sign_ins)
            .finish()
    }
}

/// What every command and handler shares.
#[derive(Clone)]
pub struct Data {
    pub host: Arc<GameHost>,
    pub links: links::Links,
    /// How many hours a lobby waits for its players.
    pub lobby_hours: u32,
    pub limits: Arc<limits::Limits>,
    /// Delivers the outbox (see `outbox`).
    pub outbox: Arc<outbound::outbox::Deliverer>,
    /// Takes the old turn messages' buttons off (see `strip`).
    pub strip: Arc<outbound::strip::Stripper>,
    /// The client's HTTP once it first connected (for the web board's actions).
    pub http: Arc<std::sync::OnceLock<Arc<serenity::Http>>>,
    /// The web board's links, when it is served at a public address (`HEXMEROS_PUBLIC_URL`):
    /// "Watch the board" on the status panel, "My board" on My side.
    pub board: Option<hexmeros::web::Links>,
    /// Each request's timeout and the bot's pace toward Discord.
    pub wire: Arc<wire::Wire>,
    /// Whether a finished game's thread is locked as well as archived
    /// (`HEXMEROS_LOCK_FINISHED`).
    pub lock_finished: bool,
    /// Whether the board runs as a Discord Activity (`DISCORD_CLIENT_SECRET`): then the status
    /// panel's board button is "Play on the board", which launches it.
    pub activity: bool,
    /// The names of the servers `/hexmeros games` named lately.
    pub servers: Arc<inbound::mine::Servers>,
    /// The gateway connection, for `/readyz`.
    pub health: Arc<health::Health>,
}

impl Data {
    /// What every handler shares, from `config`.
    fn new(config: &Config) -> Data {
        Data {
            links: links::Links::new(config.host.store().writer().clone()),
            host: config.host.clone(),
            lobby_hours: config.lobby_hours,
            limits: Arc::new(limits::Limits::new(config.limits)),
            outbox: Arc::new(outbound::outbox::Deliverer::new(config.access_give_up)),
            strip: Arc::default(),
            http: Arc::default(),
            board: None,
            activity: false,
            wire: Arc::new(wire::Wire::new(
                config.request_timeout,
                config.limits.discord,
            )),
            lock_finished: config.lock_finished,
            servers: Arc::default(),
            health: Arc::default(),
        }
    }
}

pub type Error = anyhow::Error;
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// What to put in `.env` when no token is set.
pub const NO_TOKEN: &str = "\
no bot token: set DISCORD_TOKEN in .env (or the environment). Create an application at \
https://discord.com/developers/applications, add a Bot, press Reset Token and copy it: \
DISCORD_TOKEN=<token>. See .env.example and docs/running.md; \
`hexmeros local` plays on the terminal without a token";

/// Run the bot with `settings` (checked by [`Settings::resolve`]): install what they ask for,
/// open the database, and serve until stopped.
pub async fn serve_with(settings: Settings) -> anyhow::Result<()> {
    let metrics = settings
        .metrics
        .map(|(name, addr)| metrics::install(name, addr))
        .transpose()?;
    let url = &settings.db;
    let store = match hexmeros::store::Store::open(url).await {
        Ok(store) => store,
        Err(e @ (StoreError::Open(_) | StoreError::Url(_))) => return Err(e.into()),
        Err(e) => {
            let url = hexmeros::store::masked(url);
            return Err(anyhow::Error::new(e).context(format!("cannot open the database {url}")));
        }
    };
    // Every connection (Discord's, the database's, the board's) is an open file. Raised once
    // the database answered, so a database that does not is the only line printed.
    hexmeros::web::server::raise_open_files();
    // Tests move time by writing a file the clock reads; production uses the system clock.
    let clock: Arc<dyn Clock> = match &settings.clock_file {
        Some(path) => Arc::new(FileClock::new(path.clone())),
        None => Arc::new(SystemClock),
    };
    // Leases are held in the name of the shard range: a restarted process takes back at once
    // what its predecessor held (two processes must never run one range).
    let owner = match settings.shards {
        Some(s) => format!("serve shards {}-{} of {}", s.first, s.last, s.total),
        None => "serve".to_string(),
    };
    let mut host = GameHost::new(store, clock)
        .with_outbox()
        .with_lease_owner(owner);
    if let Some(days) = settings.retention_days {
        host = host.with_retention(days);
    }
    let host = Arc::new(host);
    if metrics.is_some() {
        tokio::spawn(metrics::gauges(host.clone()));
    }
    serve(Config {
        web: settings.web,
        token: settings.token,
        api_base: settings.api_base,
        dev_guild: settings.dev_guild,
        host,
        tick_every: settings.tick_every,
        lobby_hours: settings.lobby_hours,
        limits: settings.limits,
        shards: settings.shards,
        request_timeout: settings.request_timeout,
        lock_finished: settings.lock_finished,
        access_give_up: settings.access_give_up,
        metrics,
    })
    .await
}

/// What the web board's two settings came as (a flag or a variable), for their errors.
pub(crate) struct WebNames {
    pub web: &'static str,
    pub public_url: &'static str,
}

/// The web board's settings: served at `addr` if given; the public address must be an
/// http(s) URL; the Activity's client secret needs the board and a build with its script.
pub(crate) fn web_config(
    addr: Option<String>,
    public_url: Option<String>,
    client_secret: Option<String>,
    names: WebNames,
) -> anyhow::Result<Option<WebConfig>> {
    let Some(addr) = addr else {
        if client_secret.is_some() {
            anyhow::bail!(
                "DISCORD_CLIENT_SECRET is set for the board's Discord Activity, which is the web \
                 board: serve it too (--web or HEXMEROS_WEB), or remove the secret"
            );
        }
        if public_url.is_some() {
            anyhow::bail!(
                "HEXMEROS_PUBLIC_URL (--public-url) is the web board's public address, but the \
                 board is not served: serve it too (--web or HEXMEROS_WEB), or remove the address"
            );
        }
        return Ok(None);
    };
    if client_secret.is_some() && !hexmeros::web::activity::available() {
        anyhow::bail!(
            "DISCORD_CLIENT_SECRET is set for the board's Discord Activity, but this build has no \
             Activity script ({}): install Node.js and npm, build again, or remove the secret",
            hexmeros::web::activity::SDK_MISSING
        );
    }
    let addr =
        hexmeros::web::parse_addr(&addr).map_err(|e| anyhow::anyhow!("{}: {e}", names.web))?;
    let public_url = public_url
        .map(|u| match url::Url::parse(&u) {
            Ok(p) if matches!(p.scheme(), "http" | "https") && p.host().is_some() => Ok(u),
            _ => Err(anyhow::anyhow!(
                "{} must be the board's http(s) address (https://board.example.org), not {u:?}",
                names.public_url
            )),
        })
        .transpose()?;
    Ok(Some(WebConfig {
        addr,
        public_url,
        client_secret,
        limits: hexmeros::web::WebLimits::default(),
        sign_ins: Some(config::SIGN_INS),
    }))
}

/// The first pause before a new client after a fatal gateway error; it doubles on each failure.
const RESTART_FIRST: Duration = Duration::from_secs(1);
/// The longest pause; a client that ran this long starts the pauses over.
const RESTART_LONGEST: Duration = Duration::from_secs(300);

/// Run the bot until it is shut down on purpose.
///
/// serenity reconnects by itself after a dropped connection, a resumable close or a session
/// that must identify again, but its client stops for good after a close it deems fatal (4004
/// authentication failed, 4013/4014 intents) and `start` returns the error. Discord has sent
/// such closes during its own incidents, so rather than leaving every game silent until
/// someone restarts the process, this logs the error and starts a new client after a pause
/// (1 s, doubling up to 5 min). The clients share one `Data`, one timer loop and one outbox
/// deliverer.
pub async fn serve(mut config: Config) -> anyhow::Result<()> {
    let data = Data::new(&config);
    if let Some(m) = config.metrics.take() {
        metrics::serve(m, data.health.clone(), data.host.clone())?;
    }
    if !data.host.uses_outbox() {
        anyhow::bail!("the Discord front end needs a host that writes to the outbox");
    }
    let (data, _web) = serve_web(&config, data).await?;
    // With a proxied API base, serenity's requests go through the wire's relay, which notes what
    // each 429 said to wait (`wire::relay`).
    let proxy = match &config.api_base {
        Some(base) => Some(
            wire::relay::start(&config::api_base(base)?, data.wire.told())
                .await?
                .proxy,
        ),
        None => None,
    };
    let timers = Arc::new(Once::new());
    let mut pause = RESTART_FIRST;
    let stop = stop_signal();
    tokio::pin!(stop);
    loop {
        let mut client =
            build_client(&config, proxy.as_deref(), data.clone(), timers.clone()).await?;
        let began = Instant::now();
        let manager = client.shard_manager.clone();
        data.health.watch(manager.clone());
        if let Err(e) = preflight(&client, config.api_base.as_deref()).await {
            if e.fatal {
                return Err(e.error);
            }
            tracing::error!(error = %e.error, retry_in = ?pause, "not connecting to Discord");
            tokio::spawn(async move { manager.shutdown_all().await });
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(RESTART_LONGEST);
            continue;
        }
        let started = tokio::select! {
            r = start(&mut client, config.shards) => r,
            () = &mut stop => {
                stop_gracefully(&data, &manager).await;
                return Ok(());
            }
        };
        let Err(e) = started else {
            return Ok(());
        };
        if began.elapsed() >= RESTART_LONGEST {
            pause = RESTART_FIRST;
        }
        tracing::error!(
            error = %e,
            retry_in = ?pause,
            "the Discord gateway connection failed for good (check DISCORD_TOKEN and the \
             intents); a new client starts after the pause"
        );
        // The stopped client's shard queuer and manager hold each other: without a shutdown
        // its task would outlive the client. The shutdown waits 5 s for the dead shard, so it
        // runs beside the pause.
        let manager = client.shard_manager.clone();
        drop(client);
        tokio::spawn(async move { manager.shutdown_all().await });
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(RESTART_LONGEST);
    }
}

/// Why the bot does not connect: `fatal` when trying again cannot help (Discord refused the
/// token), else it tries again after a pause.
struct NotConnecting {
    fatal: bool,
    error: anyhow::Error,
}

/// Before connecting: Discord must accept the token (a 401 is final, and names
/// `DISCORD_TOKEN`), and a configured API base must answer gateway discovery itself: serenity
/// would otherwise connect to Discord's own gateway, sending the token there.
async fn preflight(client: &serenity::Client, api_base: Option<&str>) -> Result<(), NotConnecting> {
    use serenity::{Error as Se, HttpError};
    let again = |error| NotConnecting {
        fatal: false,
        error,
    };
    match client.http.get_current_user().await {
        Ok(_) => {}
        Err(Se::Http(HttpError::UnsuccessfulRequest(r))) if r.status_code.as_u16() == 401 => {
            return Err(NotConnecting {
                fatal: true,
                error: anyhow::anyhow!(
                    "Discord refused DISCORD_TOKEN (401 Unauthorized): the token is wrong or was \
                     reset. Copy the bot's current token from the Developer Portal (Bot, Reset \
                     Token) into DISCORD_TOKEN in .env; see docs/running.md"
                ),
            });
        }
        Err(e) => return Err(again(anyhow::anyhow!("Discord does not answer: {e}"))),
    }
    if let Some(base) = api_base {
        match client.http.get_gateway().await {
            Ok(g) => *client.ws_url.lock().await = g.url,
            Err(e) => {
                return Err(again(anyhow::anyhow!(
                    "the API base {base} does not answer gateway discovery (GET /gateway: {e}); \
                     the bot never falls back to Discord's own gateway"
                )));
            }
        }
    }
    Ok(())
}

/// Start the web board when `config` asks for it, with the links Discord hands out; the server
/// runs until the returned task is dropped with the process.
async fn serve_web(
    config: &Config,
    mut data: Data,
) -> anyhow::Result<(Data, Option<hexmeros::web::Running>)> {
    let Some(w) = &config.web else {
        return Ok((data, None));
    };
    let keys = hexmeros::web::keys(&data.host).await?;
    data.board = w
        .public_url
        .as_deref()
        .map(|u| hexmeros::web::Links::new(keys.clone(), u));
    data.activity = w.client_secret.is_some();
    let activity = w
        .client_secret
        .clone()
        .map(|secret| {
            inbound::embedded::SignIn::new(
                data.clone(),
                data.http.clone(),
                config.api_base.as_deref(),
                secret,
                w.sign_ins,
            )
        })
        .transpose()?
        .map(|s| Arc::new(s) as Arc<dyn hexmeros::web::activity::Activity>);
    let front = Arc::new(web::DiscordFront {
        data: data.clone(),
        http: data.http.clone(),
        activity,
    });
    let running =
        hexmeros::web::start_with(data.host.clone(), keys, w.addr, front, w.limits.clone())
            .await
            .with_context(|| format!("cannot serve the web board at {}", w.addr))?;
    Ok((data, Some(running)))
}

/// Connect the client's shards: `shards`' range, or one unsharded connection (shard 0 of 1).
async fn start(
    client: &mut serenity::Client,
    shards: Option<config::Shards>,
) -> serenity::Result<()> {
    match shards {
        // serenity 0.12's range is read as first..=end: `4..7` runs shards 4, 5, 6 and 7.
        Some(s) => client.start_shard_range(s.first..s.last, s.total).await,
        None => client.start().await,
    }
}

/// The longest a stop waits for the work in flight.
const STOP_GRACE: Duration = Duration::from_secs(20);

/// SIGTERM (a service manager stopping the bot) or Ctrl-C.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "SIGTERM cannot be caught; only Ctrl-C stops cleanly");
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Stop without losing anything: close the gateway (no new interactions), let the commands in
/// flight finish and the deliverer finish the entry it is sending (it starts no other: what is
/// left stays in the outbox for the next process), then close the database cleanly.
async fn stop_gracefully(data: &Data, manager: &Arc<serenity::ShardManager>) {
    tracing::info!("stopping: no new interactions; finishing the work in flight");
    data.outbox.stop();
    manager.shutdown_all().await;
    let deadline = Instant::now() + STOP_GRACE;
    while data.host.busy() || data.outbox.busy() {
        if Instant::now() >= deadline {
            tracing::warn!("stopping with work still in flight after the grace period");
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    data.host.store().close().await;
    tracing::info!("stopped cleanly");
}

/// The intents the bot needs: none privileged (no message content). The bot acts on
/// interactions (which need no intent), reactions, and its removal from a server (GUILDS:
/// `GUILD_DELETE`, which pauses the server's games). GUILDS also brings a GUILD_CREATE per
/// server at each connection, with every active thread (about 50,000 threads in the load
/// benchmark: most of a restart's second and a half), which nothing here reads (serenity's
/// cache is off); a deleted thread is found when a message to it is refused.
pub fn intents() -> serenity::GatewayIntents {
    serenity::GatewayIntents::GUILDS
        | serenity::GatewayIntents::GUILD_MESSAGE_REACTIONS
        | serenity::GatewayIntents::DIRECT_MESSAGES
        | serenity::GatewayIntents::DIRECT_MESSAGE_REACTIONS
}

/// Every gateway event goes to `events`; a component click or a user's reaction is timed and
/// logged when it finishes (see `activity`).
async fn handle_event(
    fw: poise::FrameworkContext<'_, Data, Error>,
    ev: &serenity::FullEvent,
) -> Result<(), Error> {
    health::observe(ev);
    match inbound::activity::Event::of(ev, fw.bot_id()) {
        Some(event) => event.run(inbound::events::handle(fw, ev)).await,
        None => inbound::events::handle(fw, ev).await,
    }
}

/// Build the client: the HTTP client (pointed at `proxy` if given: the relay to the API base),
/// the poise framework with every command, the event handler for components and reactions, the
/// timer task and the outbox deliverer (both started when the first of the clients sharing `timers` is ready; they
/// keep that client's HTTP client, which does not depend on the gateway).
pub async fn build_client(
    config: &Config,
    proxy: Option<&str>,
    data: Data,
    timers: Arc<Once>,
) -> anyhow::Result<serenity::Client> {
    let http = match proxy {
        Some(proxy) => serenity::HttpBuilder::new(&config.token)
            .proxy(proxy)
            .ratelimiter_disabled(true)
            .build(),
        None => serenity::HttpBuilder::new(&config.token).build(),
    };
    let dev_guild = config.dev_guild;
    let tick_every = config.tick_every;
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: inbound::commands::all(),
            on_error: |e| Box::pin(inbound::commands::on_error(e)),
            command_check: Some(|ctx| Box::pin(inbound::commands::guard(ctx))),
            pre_command: |ctx| Box::pin(inbound::commands::acknowledge(ctx)),
            post_command: |ctx| Box::pin(inbound::activity::post_command(ctx)),
            event_handler: |fw, ev| Box::pin(handle_event(fw, ev)),
            ..Default::default()
        })
        .initialize_owners(false)
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                // Nothing here may fail: a failed setup leaves poise without its data, the
                // process connected but dead (see `register`).
                let cmds =
                    poise::builtins::create_application_commands(&framework.options().commands);
                register::spawn(ctx.http.clone(), data.clone(), cmds, dev_guild);
                timers.call_once(|| {
                    let _ = data.http.set(ctx.http.clone());
                    tokio::spawn(outbound::outbox::run(ctx.http.clone(), data.clone()));
                    tokio::spawn(outbound::strip::run(ctx.http.clone(), data.clone()));
                    tokio::spawn(timers::tick_loop(
                        ctx.http.clone(),
                        data.clone(),
                        tick_every,
                    ));
                });
                Ok(data)
            })
        })
        .build();
    // Nothing here reads serenity's cache (see the module notes; poise's slash commands take
    // permissions from the interaction), so it keeps no guilds, channels, threads, users or
    // messages: left on, it held every active thread of every server (about 4 KiB a game,
    // never evicted) and grew with the games.
    let mut cache = serenity::cache::Settings::default();
    cache.max_messages = 0;
    cache.cache_guilds = false;
    cache.cache_channels = false;
    cache.cache_users = false;
    serenity::ClientBuilder::new_with_http(http, intents())
        .cache_settings(cache)
        .framework(framework)
        .await
        .context("cannot build the Discord client")
}
