//! Proves the fake Discord (tests/support/fake_discord.rs) against a real serenity 0.12.5 client:
//! the client connects, gets READY, answers interactions, uploads files, opens threads and DMs,
//! and sees the failures the fake injects; every gateway frame and REST answer the fake produced
//! deserializes as serenity's own model.
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::fake_discord;

use std::io::Cursor;
use std::sync::Arc;
use std::time::Duration;

use fake_discord::{FakeDiscord, Sent};
use serde_json::{Value, json};
use serenity::all::{
    ButtonStyle, ChannelId, ChannelType, ClientBuilder, CommandDataOptionValue, CommandInteraction,
    ComponentInteractionDataKind, Context, CreateActionRow, CreateAttachment,
    CreateAutocompleteResponse, CreateButton, CreateCommand, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage,
    CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption, CreateThread,
    EditInteractionResponse, EventHandler, GatewayIntents, GuildChannel, GuildId, HttpBuilder,
    Interaction, Message, PrivateChannel, Reaction, Ready, ShardManager,
};
use serenity::async_trait;
use serenity::model::event::GatewayEvent;
use tokio::sync::mpsc;

const WAIT: Duration = Duration::from_secs(10);

/// What the test bot did, reported to the test.
#[derive(Debug)]
struct Report {
    what: String,
    result: Result<String, (u16, isize)>,
}

struct Handler {
    tx: mpsc::UnboundedSender<Report>,
}

fn png() -> Vec<u8> {
    let img = image::RgbaImage::from_pixel(7, 5, image::Rgba([200, 30, 30, 255]));
    let mut out = Vec::new();
    image::DynamicImage::ImageRgba8(img)
        .write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap();
    out
}

/// Status and Discord error code of a failed REST call.
fn failure(e: serenity::Error) -> (u16, isize) {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            (r.status_code.as_u16(), r.error.code)
        }
        other => panic!("not an HTTP failure: {other:?}"),
    }
}

impl Handler {
    fn report<T: std::fmt::Debug>(&self, what: &str, r: serenity::Result<T>) {
        let result = r.map(|v| format!("{v:?}")).map_err(failure);
        let _ = self.tx.send(Report {
            what: what.into(),
            result,
        });
    }

    async fn command(&self, ctx: &Context, cmd: &CommandInteraction) {
        let http = &ctx.http;
        match cmd.data.name.as_str() {
            "ping" => {
                let defer =
                    CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new());
                self.report("defer", cmd.create_response(http, defer).await);
                let followup = CreateInteractionResponseFollowup::new()
                    .content("pong")
                    .add_file(CreateAttachment::bytes(png(), "board.png"));
                let m = cmd.create_followup(http, followup).await;
                self.report("followup", m.map(|m| (m.id.get(), m.attachments.len())));
                let edit = EditInteractionResponse::new().content("edited original");
                self.report(
                    "edit",
                    cmd.edit_response(http, edit).await.map(|m| m.content),
                );
            }
            "echo" => {
                // Subcommand "say" with a string and a user option, resolved by the fake.
                let mut text = String::new();
                if let Some(sub) = cmd.data.options.first()
                    && let CommandDataOptionValue::SubCommand(opts) = &sub.value
                {
                    for o in opts {
                        match &o.value {
                            CommandDataOptionValue::String(s) => text.push_str(s),
                            CommandDataOptionValue::User(u) => {
                                let user = cmd.data.resolved.users.get(u).unwrap();
                                text.push_str(&format!(" to {}", user.name));
                            }
                            _ => {}
                        }
                    }
                }
                let row = CreateActionRow::Buttons(vec![
                    CreateButton::new("again")
                        .label("Again")
                        .style(ButtonStyle::Primary),
                ]);
                let select = CreateActionRow::SelectMenu(CreateSelectMenu::new(
                    "pick",
                    CreateSelectMenuKind::String {
                        options: vec![
                            CreateSelectMenuOption::new("A1", "a1"),
                            CreateSelectMenuOption::new("B2", "b2"),
                        ],
                    },
                ));
                let msg = CreateInteractionResponseMessage::new()
                    .content(text)
                    .components(vec![row, select]);
                let r = cmd
                    .create_response(http, CreateInteractionResponse::Message(msg))
                    .await;
                self.report("echo", r);
                let original = cmd.get_response(http).await;
                self.report(
                    "original",
                    original.map(|m| (m.id.get(), m.components.len())),
                );
            }
            "slow" => {
                tokio::time::sleep(Duration::from_millis(900)).await;
                let msg = CreateInteractionResponseMessage::new().content("too late");
                let r = cmd
                    .create_response(http, CreateInteractionResponse::Message(msg))
                    .await;
                self.report("slow", r);
            }
            "limited" => {
                let msg = CreateInteractionResponseMessage::new().content("one");
                let first = cmd
                    .create_response(http, CreateInteractionResponse::Message(msg.clone()))
                    .await;
                self.report("limited-1", first);
                let second = cmd
                    .create_response(http, CreateInteractionResponse::Message(msg))
                    .await;
                self.report("limited-2", second);
                let third = cmd
                    .create_response(
                        http,
                        CreateInteractionResponse::Message(
                            CreateInteractionResponseMessage::new().content("again"),
                        ),
                    )
                    .await;
                self.report("limited-3", third);
            }
            "post" => {
                let channel = cmd.channel_id;
                let ack = CreateInteractionResponse::Defer(
                    CreateInteractionResponseMessage::new().ephemeral(true),
                );
                self.report("post-defer", cmd.create_response(http, ack).await);
                let board = CreateMessage::new()
                    .content("board")
                    .add_file(CreateAttachment::bytes(png(), "board.png"))
                    .add_file(CreateAttachment::bytes(b"1. L1-L5".to_vec(), "moves.txt"))
                    .components(vec![CreateActionRow::Buttons(vec![
                        CreateButton::new("pass").label("Pass Token"),
                    ])]);
                let m = channel.send_message(http, board).await;
                let m = match m {
                    Ok(m) => m,
                    Err(e) => return self.report::<()>("board", Err(e)),
                };
                self.report("board", Ok::<_, serenity::Error>(m.id.get()));
                let thread = channel
                    .create_thread_from_message(http, m.id, CreateThread::new("game 1"))
                    .await;
                let thread = match thread {
                    Ok(thread) => thread,
                    Err(e) => return self.report::<()>("thread", Err(e)),
                };
                self.report(
                    "thread",
                    Ok::<_, serenity::Error>((thread.id.get(), thread.kind)),
                );
                let turn = thread.id.say(http, "your turn").await;
                self.report("thread-message", turn.map(|m| m.channel_id.get()));
                let loose = channel
                    .create_thread(
                        http,
                        CreateThread::new("game 2").kind(ChannelType::PublicThread),
                    )
                    .await;
                self.report(
                    "thread-2",
                    loose.map(|t: GuildChannel| t.parent_id.map(|p| p.get())),
                );
                let done = EditInteractionResponse::new().content("posted");
                self.report("post-edit", cmd.edit_response(http, done).await.map(|_| ()));
                let react = m.react(http, '👍').await;
                self.report("react", react.map(|_| ()));
            }
            "dm" => {
                let ack = CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new());
                self.report("dm-defer", cmd.create_response(http, ack).await);
                let Some(CommandDataOptionValue::User(user)) =
                    cmd.data.options.first().map(|o| &o.value)
                else {
                    return;
                };
                let dm = user.create_dm_channel(http).await;
                let dm: PrivateChannel = match dm {
                    Ok(dm) => dm,
                    Err(e) => return self.report::<()>("dm-open", Err(e)),
                };
                self.report("dm-open", Ok::<_, serenity::Error>(dm.id.get()));
                self.report(
                    "dm-send",
                    dm.id.say(http, "your turn").await.map(|m| m.id.get()),
                );
            }
            "broken" => {
                // The fake answers 500 / 403 as injected by the test.
                let r = cmd.channel_id.say(http, "hello").await;
                self.report("broken-1", r.map(|m| m.id));
                let r = cmd.channel_id.say(http, "hello").await;
                self.report("broken-2", r.map(|m| m.id));
                let r = cmd.channel_id.say(http, "hello").await;
                self.report("broken-3", r.map(|m| m.id));
            }
            "twice" => {
                let msg = CreateInteractionResponseMessage::new().content("one");
                let early = cmd
                    .create_followup(http, CreateInteractionResponseFollowup::new().content("x"))
                    .await;
                self.report("followup-before-ack", early.map(|m| m.id));
                self.report(
                    "twice-1",
                    cmd.create_response(http, CreateInteractionResponse::Message(msg.clone()))
                        .await,
                );
                self.report(
                    "twice-2",
                    cmd.create_response(http, CreateInteractionResponse::Message(msg))
                        .await,
                );
            }
            other => panic!("unexpected command {other}"),
        }
    }
}

#[async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        let commands = vec![
            CreateCommand::new("ping").description("Ping the bot"),
            CreateCommand::new("echo").description("Echo"),
        ];
        let r = GuildId::new(FakeDiscord::GUILD_ID)
            .set_commands(&ctx.http, commands)
            .await;
        self.report("commands", r.map(|c| c.len()));
        self.report("ready", Ok::<_, serenity::Error>(ready.user.id));
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        match interaction {
            Interaction::Command(cmd) => self.command(&ctx, &cmd).await,
            Interaction::Component(c) => {
                let picked = match &c.data.kind {
                    ComponentInteractionDataKind::StringSelect { values } => values.join(","),
                    _ => String::new(),
                };
                let content = format!("pressed {} {picked} by {}", c.data.custom_id, c.user.id);
                let update = CreateInteractionResponse::UpdateMessage(
                    CreateInteractionResponseMessage::new().content(content),
                );
                self.report("component", c.create_response(&ctx.http, update).await);
            }
            Interaction::Autocomplete(a) => {
                let n: usize = a
                    .data
                    .autocomplete()
                    .and_then(|f| f.value.parse().ok())
                    .unwrap_or(3);
                let mut choices = CreateAutocompleteResponse::new();
                for i in 0..n {
                    choices = choices.add_string_choice(format!("L{i}"), format!("l{i}"));
                }
                let r = a
                    .create_response(&ctx.http, CreateInteractionResponse::Autocomplete(choices))
                    .await;
                self.report("autocomplete", r);
            }
            other => panic!("unexpected interaction {other:?}"),
        }
    }

    async fn reaction_add(&self, ctx: Context, reaction: Reaction) {
        let r = reaction
            .channel_id
            .say(
                &ctx.http,
                format!("{} reacted {}", reaction.user_id.unwrap(), reaction.emoji),
            )
            .await;
        self.report("reaction", r.map(|m| m.id));
    }
}

struct Bot {
    reports: mpsc::UnboundedReceiver<Report>,
    /// Reports received while waiting for another one.
    pending: Vec<Report>,
    shards: Arc<ShardManager>,
}

impl Bot {
    /// Starts a serenity client against the fake, as the real bot does, and waits for READY.
    async fn start(fake: &FakeDiscord) -> Bot {
        let http = HttpBuilder::new("fake-token")
            .proxy(fake.api_base())
            .ratelimiter_disabled(true)
            .build();
        let intents = GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGE_REACTIONS;
        let (tx, rx) = mpsc::unbounded_channel();
        let mut client = ClientBuilder::new_with_http(http, intents)
            .event_handler(Handler { tx })
            .await
            .unwrap();
        let shards = client.shard_manager.clone();
        tokio::spawn(async move { client.start().await });
        fake.wait_ready(WAIT).await.unwrap();
        let mut bot = Bot {
            reports: rx,
            pending: vec![],
            shards,
        };
        bot.expect("ready").await.unwrap();
        bot
    }

    /// The next report named `what` (others are kept for later).
    async fn expect(&mut self, what: &str) -> Result<String, (u16, isize)> {
        if let Some(i) = self.pending.iter().position(|r| r.what == what) {
            return self.pending.remove(i).result;
        }
        loop {
            let r = tokio::time::timeout(WAIT, self.reports.recv())
                .await
                .unwrap_or_else(|_| panic!("no report {what:?} in time"))
                .unwrap();
            if r.what == what {
                return r.result;
            }
            self.pending.push(r);
        }
    }
}

/// Every JSON the fake produced deserializes as serenity's model for it.
fn assert_shapes(fake: &FakeDiscord) {
    for frame in fake.dispatched() {
        serde_json::from_value::<GatewayEvent>(frame.clone())
            .unwrap_or_else(|e| panic!("gateway frame is not a serenity event ({e}): {frame}"));
        if frame["t"] == "INTERACTION_CREATE" {
            serde_json::from_value::<Interaction>(frame["d"].clone())
                .unwrap_or_else(|e| panic!("not an Interaction ({e}): {}", frame["d"]));
        }
    }
    for s in fake.requests().iter().filter(|s| s.status < 300) {
        let r = s.response.clone();
        let seg: Vec<&str> = s.path.split('/').collect();
        let is_message =
            (seg.contains(&"messages") && s.method != "DELETE" && !s.path.ends_with("/threads"))
                || (s.path.starts_with("/webhooks/") && s.method == "POST");
        let checked = if s.path.ends_with("/threads") {
            serde_json::from_value::<GuildChannel>(r.clone()).map(|_| ())
        } else if s.path == "/users/@me/channels" {
            serde_json::from_value::<PrivateChannel>(r.clone()).map(|_| ())
        } else if is_message && r.is_array() {
            serde_json::from_value::<Vec<Message>>(r.clone()).map(|_| ())
        } else if is_message && !s.path.contains("/reactions/") {
            serde_json::from_value::<Message>(r.clone()).map(|_| ())
        } else {
            Ok(())
        };
        checked.unwrap_or_else(|e| {
            panic!(
                "{} {}: answer not a serenity model ({e}): {r}",
                s.method, s.path
            )
        });
    }
}

fn decode_png(bytes: &[u8]) -> image::DynamicImage {
    image::load_from_memory_with_format(bytes, image::ImageFormat::Png).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ready_registers_commands_and_defers_then_follows_up_with_a_png() {
    let fake = FakeDiscord::start().await;
    let mut bot = Bot::start(&fake).await;
    assert_eq!(bot.expect("commands").await, Ok("0".into()));
    let names: Vec<Value> = fake.commands().iter().map(|c| c["name"].clone()).collect();
    assert_eq!(names, vec![json!("ping"), json!("echo")]);

    let i = fake
        .slash(
            FakeDiscord::user(1),
            FakeDiscord::CHANNEL_ID,
            "ping",
            json!([]),
        )
        .await;
    let callback = fake.first_response(&i, WAIT).await.unwrap();
    assert_eq!(callback.status, 204);
    assert_eq!(callback.json.as_ref().unwrap()["type"], 5, "deferred");
    assert!(callback.at.duration_since(i.sent_at) < Duration::from_secs(3));
    assert!(bot.expect("defer").await.is_ok());
    assert!(bot.expect("followup").await.unwrap().ends_with(", 1)"));
    assert_eq!(bot.expect("edit").await, Ok("\"edited original\"".into()));

    let responses = fake.responses(&i);
    let followup = responses
        .iter()
        .find(|s| s.method == "POST" && s.path.starts_with("/webhooks/"))
        .unwrap();
    assert_eq!(followup.json.as_ref().unwrap()["content"], "pong");
    assert_eq!(followup.files.len(), 1);
    assert_eq!(followup.files[0].0, "board.png");
    let img = decode_png(&followup.files[0].1);
    assert_eq!((img.width(), img.height()), (7, 5));
    let edit = responses
        .iter()
        .find(|s| s.method == "PATCH" && s.path.ends_with("/messages/@original"))
        .unwrap();
    assert_eq!(edit.status, 200);
    assert!(fake.late_callbacks().is_empty());
    assert!(fake.unexpected().is_empty(), "{:?}", fake.unexpected());
    assert_shapes(&fake);
    bot.shards.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn options_resolve_and_components_update_the_message() {
    let fake = FakeDiscord::start().await;
    let mut bot = Bot::start(&fake).await;
    let options = json!([{"type": 1, "name": "say", "options": [
        {"type": 3, "name": "text", "value": "hi"},
        {"type": 6, "name": "who", "value": FakeDiscord::user(2)},
    ]}]);
    let i = fake
        .slash(
            FakeDiscord::user(1),
            FakeDiscord::CHANNEL_ID,
            "echo",
            options,
        )
        .await;
    assert!(bot.expect("echo").await.is_ok());
    let original = bot.expect("original").await.unwrap();
    assert!(original.ends_with(", 2)"), "two rows read back: {original}");
    let callback = fake.first_response(&i, WAIT).await.unwrap();
    assert_eq!(
        callback.json.as_ref().unwrap()["data"]["content"],
        "hi to player2"
    );
    let get = fake
        .responses(&i)
        .into_iter()
        .find(|s| s.method == "GET")
        .unwrap();
    let message_id: u64 = get.response["id"].as_str().unwrap().parse().unwrap();

    let b = fake
        .button(
            FakeDiscord::user(3),
            FakeDiscord::CHANNEL_ID,
            message_id,
            "again",
        )
        .await;
    assert!(bot.expect("component").await.is_ok());
    let update = fake.first_response(&b, WAIT).await.unwrap();
    assert_eq!(update.json.as_ref().unwrap()["type"], 7);
    let now = fake.message(message_id).unwrap();
    let expected = format!("pressed again  by {}", FakeDiscord::user(3));
    assert_eq!(now["content"], expected.as_str());
    assert_eq!(
        now["components"].as_array().unwrap().len(),
        2,
        "kept its rows"
    );

    let s = fake
        .select(
            FakeDiscord::user(4),
            FakeDiscord::CHANNEL_ID,
            message_id,
            "pick",
            &["b2"],
        )
        .await;
    assert!(bot.expect("component").await.is_ok());
    fake.first_response(&s, WAIT).await.unwrap();
    let expected = format!("pressed pick b2 by {}", FakeDiscord::user(4));
    assert_eq!(
        fake.message(message_id).unwrap()["content"],
        expected.as_str()
    );

    let a = fake
        .autocomplete(
            FakeDiscord::user(1),
            FakeDiscord::CHANNEL_ID,
            "ping",
            json!([
                {"type": 3, "name": "cell", "value": "4", "focused": true}
            ]),
        )
        .await;
    assert!(bot.expect("autocomplete").await.is_ok());
    let r = fake.first_response(&a, WAIT).await.unwrap();
    assert_eq!(
        r.json.as_ref().unwrap()["data"]["choices"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    let a = fake
        .autocomplete(
            FakeDiscord::user(1),
            FakeDiscord::CHANNEL_ID,
            "ping",
            json!([
                {"type": 3, "name": "cell", "value": "26", "focused": true}
            ]),
        )
        .await;
    assert_eq!(
        bot.expect("autocomplete").await,
        Err((400, 50035)),
        "26 choices refused"
    );
    assert_eq!(fake.first_response(&a, WAIT).await.unwrap().status, 400);

    fake.react(
        FakeDiscord::user(5),
        FakeDiscord::CHANNEL_ID,
        message_id,
        "👍",
    )
    .await;
    assert!(bot.expect("reaction").await.is_ok());
    let said = fake.messages(FakeDiscord::CHANNEL_ID);
    let expected = format!("{} reacted 👍", FakeDiscord::user(5));
    assert_eq!(
        said.last().unwrap().json.as_ref().unwrap()["content"],
        expected.as_str()
    );
    assert!(fake.unexpected().is_empty(), "{:?}", fake.unexpected());
    assert_shapes(&fake);
    bot.shards.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_callback_gets_10062_and_is_recorded() {
    let fake = FakeDiscord::start().await;
    // The handler sleeps 0.9 s; a 0.3 s deadline makes that late without a slow test.
    fake.set_deadline(Duration::from_millis(300));
    let mut bot = Bot::start(&fake).await;
    let i = fake
        .slash(
            FakeDiscord::user(1),
            FakeDiscord::CHANNEL_ID,
            "slow",
            json!([]),
        )
        .await;
    assert_eq!(bot.expect("slow").await, Err((404, 10062)));
    let late = fake.late_callbacks();
    assert_eq!(late.len(), 1);
    assert_eq!(
        late[0].path,
        format!("/interactions/{}/{}/callback", i.id, i.token)
    );
    assert_eq!(fake.first_response(&i, WAIT).await.unwrap().status, 404);
    bot.shards.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn injected_429_500_403_and_protocol_errors_reach_the_bot() {
    let fake = FakeDiscord::start().await;
    let mut bot = Bot::start(&fake).await;

    fake.fail_next("POST", "/callback", 429, Some(0.25), 1);
    let i = fake
        .slash(
            FakeDiscord::user(1),
            FakeDiscord::CHANNEL_ID,
            "limited",
            json!([]),
        )
        .await;
    // Serenity without its rate limiter reports the 429; a retry goes through; a third
    // callback is refused as already acknowledged.
    assert_eq!(bot.expect("limited-1").await, Err((429, 0)));
    assert!(bot.expect("limited-2").await.is_ok());
    assert_eq!(bot.expect("limited-3").await, Err((400, 40060)));
    let statuses: Vec<u16> = fake.responses(&i).iter().map(|s| s.status).collect();
    assert_eq!(statuses, vec![429, 204, 400]);
    let limited: Sent = fake.responses(&i).remove(0);
    assert_eq!(limited.response["retry_after"], 0.25);

    fake.fail_next("POST", "/messages", 500, None, 1);
    fake.fail_next(
        "*",
        &format!("/channels/{}/", FakeDiscord::CHANNEL_ID),
        403,
        None,
        1,
    );
    fake.slash(
        FakeDiscord::user(1),
        FakeDiscord::CHANNEL_ID,
        "broken",
        json!([]),
    )
    .await;
    assert_eq!(bot.expect("broken-1").await, Err((500, 0)));
    assert_eq!(bot.expect("broken-2").await, Err((403, 50013)));
    assert!(bot.expect("broken-3").await.is_ok(), "failures are used up");

    fake.slash(
        FakeDiscord::user(1),
        FakeDiscord::CHANNEL_ID,
        "twice",
        json!([]),
    )
    .await;
    assert_eq!(bot.expect("followup-before-ack").await, Err((404, 10015)));
    assert!(bot.expect("twice-1").await.is_ok());
    assert_eq!(bot.expect("twice-2").await, Err((400, 40060)));
    bot.shards.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn multipart_messages_threads_dms_and_reactions() {
    let fake = FakeDiscord::start().await;
    let mut bot = Bot::start(&fake).await;
    fake.slash(
        FakeDiscord::user(1),
        FakeDiscord::CHANNEL_ID,
        "post",
        json!([]),
    )
    .await;
    assert!(bot.expect("post-defer").await.is_ok());
    let board_id: u64 = bot.expect("board").await.unwrap().parse().unwrap();
    let thread = bot.expect("thread").await.unwrap();
    assert_eq!(
        thread,
        format!("({board_id}, PublicThread)"),
        "thread takes the message id"
    );
    assert_eq!(bot.expect("thread-message").await, Ok(board_id.to_string()));
    assert_eq!(
        bot.expect("thread-2").await,
        Ok(format!("Some({})", FakeDiscord::CHANNEL_ID))
    );
    assert!(bot.expect("post-edit").await.is_ok());
    assert!(bot.expect("react").await.is_ok());

    let posted = fake.messages(FakeDiscord::CHANNEL_ID);
    assert_eq!(posted.len(), 1);
    let board = &posted[0];
    assert_eq!(board.json.as_ref().unwrap()["content"], "board");
    let names: Vec<&str> = board.files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, vec!["board.png", "moves.txt"]);
    assert_eq!(decode_png(&board.files[0].1).width(), 7);
    assert_eq!(board.files[1].1, b"1. L1-L5");
    assert_eq!(board.response["attachments"].as_array().unwrap().len(), 2);

    let threads = fake.threads();
    assert_eq!(threads.len(), 2);
    assert_eq!(
        threads[0],
        (board_id, FakeDiscord::CHANNEL_ID, "game 1".into())
    );
    assert_eq!(fake.messages(board_id).len(), 1);
    assert!(
        fake.requests()
            .iter()
            .any(|s| s.method == "PUT" && s.path.contains("/reactions/") && s.status == 204)
    );

    // Buttons in a thread, after the bot posted there.
    let b = fake
        .button(FakeDiscord::user(2), board_id, board_id, "pass")
        .await;
    assert!(bot.expect("component").await.is_ok());
    assert_eq!(fake.first_response(&b, WAIT).await.unwrap().status, 204);

    // DMs: open, then closed.
    let user = FakeDiscord::user(3);
    let dm = json!([{"type": 6, "name": "who", "value": user.to_string()}]);
    fake.slash(
        FakeDiscord::user(1),
        FakeDiscord::CHANNEL_ID,
        "dm",
        dm.clone(),
    )
    .await;
    let dm_id: u64 = bot.expect("dm-open").await.unwrap().parse().unwrap();
    assert_eq!(fake.dm_channel(user), Some(dm_id));
    assert!(bot.expect("dm-send").await.is_ok());
    assert_eq!(fake.messages(dm_id).len(), 1);
    fake.close_dms(user);
    fake.slash(FakeDiscord::user(1), FakeDiscord::CHANNEL_ID, "dm", dm)
        .await;
    assert!(bot.expect("dm-open").await.is_ok());
    assert_eq!(bot.expect("dm-send").await, Err((403, 50007)));

    assert!(fake.unexpected().is_empty(), "{:?}", fake.unexpected());
    assert_shapes(&fake);
    bot.shards.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_bot_answers_buttons_on_old_messages() {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake).await;
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);
    // A message posted by the first bot.
    let http = HttpBuilder::new("fake-token")
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    let m = channel
        .send_message(
            &http,
            CreateMessage::new()
                .content("turn")
                .components(vec![CreateActionRow::Buttons(vec![
                    CreateButton::new("pass").label("Pass"),
                ])]),
        )
        .await
        .unwrap();
    bot.shards.shutdown_all().await;
    fake.drop_gateway().await;
    assert_eq!(fake.sessions(), 0);

    let mut bot = Bot::start(&fake).await;
    assert_eq!(fake.sessions(), 1);
    let b = fake
        .button(
            FakeDiscord::user(1),
            FakeDiscord::CHANNEL_ID,
            m.id.get(),
            "pass",
        )
        .await;
    assert!(bot.expect("component").await.is_ok());
    assert_eq!(fake.first_response(&b, WAIT).await.unwrap().status, 204);
    assert_eq!(
        fake.message(m.id.get()).unwrap()["content"],
        format!("pressed pass  by {}", FakeDiscord::user(1)).as_str()
    );
    assert_shapes(&fake);
    bot.shards.shutdown_all().await;
}

#[tokio::test]
async fn unknown_routes_and_missing_auth_are_recorded() {
    let fake = FakeDiscord::start().await;
    let http = HttpBuilder::new("fake-token")
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    // An endpoint the fake does not speak: 404 code 0, listed as unexpected.
    let r = http
        .get_guild_webhooks(GuildId::new(FakeDiscord::GUILD_ID))
        .await;
    assert_eq!(failure(r.unwrap_err()), (404, 0));
    assert_eq!(fake.unexpected().len(), 1);
    // Unknown channel and message are Discord's codes.
    let r = ChannelId::new(42).say(&http, "x").await;
    assert_eq!(failure(r.unwrap_err()), (404, 10003));
    let r = ChannelId::new(FakeDiscord::CHANNEL_ID)
        .message(&http, serenity::all::MessageId::new(42))
        .await;
    assert_eq!(failure(r.unwrap_err()), (404, 10008));
    // Limits: duplicated custom ids and over-long content.
    let dup = CreateMessage::new()
        .content("x")
        .components(vec![CreateActionRow::Buttons(vec![
            CreateButton::new("a"),
            CreateButton::new("a"),
        ])]);
    let r = ChannelId::new(FakeDiscord::CHANNEL_ID)
        .send_message(&http, dup)
        .await;
    assert_eq!(failure(r.unwrap_err()), (400, 50035));
    // Commands over Discord's limits are refused.
    http.set_application_id(serenity::all::ApplicationId::new(FakeDiscord::APP_ID));
    let bad = vec![CreateCommand::new("Bad Name").description("x")];
    let r = GuildId::new(FakeDiscord::GUILD_ID)
        .set_commands(&http, bad)
        .await;
    assert_eq!(failure(r.unwrap_err()), (400, 50035));
    let good = vec![CreateCommand::new("good").description("x")];
    let r = GuildId::new(FakeDiscord::GUILD_ID)
        .set_commands(&http, good)
        .await;
    assert!(r.unwrap().is_empty());
    assert_eq!(fake.commands().len(), 1);
    // Without a token the fake refuses, as Discord does.
    let anonymous = get_without_token(&fake.api_base(), "/api/v10/users/@me").await;
    assert_eq!(anonymous, 401);
}

/// Status of a GET without an Authorization header (plain HTTP/1.1 over a TCP socket).
async fn get_without_token(base: &str, path: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = base.trim_start_matches("http://");
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    tcp.read_to_string(&mut out).await.unwrap();
    out.split(' ').nth(1).unwrap().parse().unwrap()
}

// ----- the same fake under poise 0.7, as the real bot uses it -----

type PoiseError = Box<dyn std::error::Error + Send + Sync>;
type PoiseContext<'a> = poise::Context<'a, (), PoiseError>;

/// Show a board
#[poise::command(slash_command)]
async fn board(ctx: PoiseContext<'_>) -> Result<(), PoiseError> {
    ctx.defer().await?;
    let reply = poise::CreateReply::default()
        .content("board")
        .attachment(CreateAttachment::bytes(png(), "board.png"));
    ctx.send(reply).await?;
    Ok(())
}

/// Abort a game
#[poise::command(slash_command, required_permissions = "MANAGE_GUILD")]
async fn abort(ctx: PoiseContext<'_>) -> Result<(), PoiseError> {
    ctx.say("aborted").await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_poise_bot_registers_defers_sends_files_and_checks_permissions() {
    let fake = FakeDiscord::start().await;
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![board(), abort()],
            ..Default::default()
        })
        .initialize_owners(false)
        .setup(|ctx, _ready, framework| {
            Box::pin(async move {
                let guild = GuildId::new(FakeDiscord::GUILD_ID);
                poise::builtins::register_in_guild(ctx, &framework.options().commands, guild)
                    .await?;
                Ok(())
            })
        })
        .build();
    let http = HttpBuilder::new("fake-token")
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    let mut client = ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
        .framework(framework)
        .await
        .unwrap();
    let shards = client.shard_manager.clone();
    tokio::spawn(async move { client.start().await });
    fake.wait_ready(WAIT).await.unwrap();
    fake.wait_request(WAIT, |s| s.method == "PUT" && s.path.ends_with("/commands"))
        .await
        .unwrap();
    let names: Vec<Value> = fake.commands().iter().map(|c| c["name"].clone()).collect();
    assert_eq!(names, vec![json!("board"), json!("abort")]);

    let i = fake
        .slash(
            FakeDiscord::user(1),
            FakeDiscord::CHANNEL_ID,
            "board",
            json!([]),
        )
        .await;
    assert_eq!(
        fake.first_response(&i, WAIT).await.unwrap().json.unwrap()["type"],
        5
    );
    let sent = fake
        .wait_responses(&i, WAIT, 1, |s| s.path.starts_with("/webhooks/"))
        .await
        .unwrap();
    assert_eq!(sent[0].status, 200);
    assert_eq!(decode_png(&sent[0].files[0].1).height(), 5);

    // Without Manage Server poise refuses, privately; with it the command runs.
    let i = fake
        .slash(
            FakeDiscord::user(2),
            FakeDiscord::CHANNEL_ID,
            "abort",
            json!([]),
        )
        .await;
    let refused = fake.first_response(&i, WAIT).await.unwrap().json.unwrap();
    assert_eq!(refused["data"]["flags"], 64, "ephemeral: {refused}");
    assert!(
        refused["data"]["content"]
            .as_str()
            .unwrap()
            .contains("lacking permissions")
    );
    fake.set_permissions(
        FakeDiscord::user(2),
        FakeDiscord::MEMBER_PERMISSIONS | FakeDiscord::MANAGE_GUILD,
    );
    let i = fake
        .slash(
            FakeDiscord::user(2),
            FakeDiscord::CHANNEL_ID,
            "abort",
            json!([]),
        )
        .await;
    let done = fake.first_response(&i, WAIT).await.unwrap().json.unwrap();
    assert_eq!(done["data"]["content"], "aborted");
    assert!(fake.late_callbacks().is_empty());
    assert!(fake.unexpected().is_empty(), "{:?}", fake.unexpected());
    assert_shapes(&fake);
    shards.shutdown_all().await;
}

/// What a sharded test bot saw, by the shard that saw it.
#[derive(Debug)]
enum ShardSaw {
    Ready {
        shard: Option<(u32, u32)>,
        guilds: Vec<u64>,
    },
    GuildCreate {
        shard: u32,
        guild: u64,
    },
    Interaction {
        shard: u32,
        guild: Option<u64>,
        deferred: bool,
    },
    Reaction {
        shard: u32,
        guild: Option<u64>,
    },
}

struct ShardHandler {
    tx: mpsc::UnboundedSender<ShardSaw>,
}

#[async_trait]
impl EventHandler for ShardHandler {
    async fn ready(&self, _ctx: Context, ready: Ready) {
        let _ = self.tx.send(ShardSaw::Ready {
            shard: ready.shard.map(|s| (s.id.0, s.total)),
            guilds: ready.guilds.iter().map(|g| g.id.get()).collect(),
        });
    }

    async fn guild_create(&self, ctx: Context, guild: serenity::all::Guild, _is_new: Option<bool>) {
        let _ = self.tx.send(ShardSaw::GuildCreate {
            shard: ctx.shard_id.0,
            guild: guild.id.get(),
        });
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        if let Interaction::Command(cmd) = interaction {
            let defer = CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new());
            let deferred = cmd.create_response(&ctx.http, defer).await.is_ok();
            let _ = self.tx.send(ShardSaw::Interaction {
                shard: ctx.shard_id.0,
                guild: cmd.guild_id.map(GuildId::get),
                deferred,
            });
        }
    }

    async fn reaction_add(&self, ctx: Context, reaction: Reaction) {
        let _ = self.tx.send(ShardSaw::Reaction {
            shard: ctx.shard_id.0,
            guild: reaction.guild_id.map(GuildId::get),
        });
    }
}

/// A serenity client with `token` running shard `shard` of `total`, as one process of a
/// sharded bot: what it saw, and its shard manager.
async fn start_shard(
    fake: &FakeDiscord,
    token: &str,
    shard: u32,
    total: u32,
) -> (mpsc::UnboundedReceiver<ShardSaw>, Arc<ShardManager>) {
    let http = HttpBuilder::new(token)
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    let intents = GatewayIntents::GUILDS
        | GatewayIntents::GUILD_MESSAGE_REACTIONS
        | GatewayIntents::DIRECT_MESSAGE_REACTIONS;
    let (tx, rx) = mpsc::unbounded_channel();
    let mut client = ClientBuilder::new_with_http(http, intents)
        .event_handler(ShardHandler { tx })
        .await
        .unwrap();
    let manager = client.shard_manager.clone();
    tokio::spawn(async move { client.start_shard(shard, total).await });
    fake.wait_sessions(WAIT, "the shard to identify", |s| {
        s.iter()
            .any(|s| s.shard == [u64::from(shard), u64::from(total)] && s.bot_token == token)
    })
    .await
    .unwrap();
    (rx, manager)
}

/// The next thing `rx` saw that `pick` keeps.
async fn next_saw<T>(
    rx: &mut mpsc::UnboundedReceiver<ShardSaw>,
    mut pick: impl FnMut(ShardSaw) -> Option<T>,
) -> T {
    loop {
        let saw = tokio::time::timeout(WAIT, rx.recv())
            .await
            .expect("the shard saw nothing more in time")
            .expect("the shard's client stopped");
        if let Some(t) = pick(saw) {
            return t;
        }
    }
}

/// The shard and the guilds of the next READY `rx` saw.
async fn saw_ready(rx: &mut mpsc::UnboundedReceiver<ShardSaw>) -> (Option<(u32, u32)>, Vec<u64>) {
    next_saw(rx, |s| match s {
        ShardSaw::Ready { shard, mut guilds } => {
            guilds.sort_unstable();
            Some((shard, guilds))
        }
        _ => None,
    })
    .await
}

/// The shard and the guild of the next GUILD_CREATE `rx` saw.
async fn saw_guild_create(rx: &mut mpsc::UnboundedReceiver<ShardSaw>) -> (u32, u64) {
    next_saw(rx, |s| match s {
        ShardSaw::GuildCreate { shard, guild } => Some((shard, guild)),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_shard_gets_the_guilds_and_dispatches_of_its_own_servers() {
    let fake = FakeDiscord::start().await;
    // Both fixed guilds are on shard 1 of 2; one more on each shard.
    assert_eq!(FakeDiscord::shard_of(FakeDiscord::GUILD_ID, 2), 1);
    assert_eq!(FakeDiscord::shard_of(FakeDiscord::OTHER_GUILD_ID, 2), 1);
    let g0 = FakeDiscord::guild_on_shard(0, 2, 0);
    let g1 = FakeDiscord::guild_on_shard(1, 2, 0);
    assert_eq!((g0 >> 22) % 2, 0);
    assert_eq!((g1 >> 22) % 2, 1);
    assert_ne!(FakeDiscord::guild_on_shard(0, 2, 1), g0);
    let c0 = fake.add_guild(g0);
    let c1 = fake.add_guild(g1);

    // Two processes, told apart by their tokens: shard 0 of 2, and shard 1 of 2.
    let (mut a, manager_a) = start_shard(&fake, "token-a", 0, 2).await;
    let (mut b, manager_b) = start_shard(&fake, "token-b", 1, 2).await;
    assert_eq!(saw_ready(&mut a).await, (Some((0, 2)), vec![g0]));
    let mut of_b = vec![FakeDiscord::GUILD_ID, FakeDiscord::OTHER_GUILD_ID, g1];
    of_b.sort_unstable();
    assert_eq!(saw_ready(&mut b).await, (Some((1, 2)), of_b.clone()));
    assert_eq!(saw_guild_create(&mut a).await, (0, g0));
    let mut seen_b = vec![];
    for _ in 0..3 {
        let (shard, guild) = saw_guild_create(&mut b).await;
        assert_eq!(shard, 1);
        seen_b.push(guild);
    }
    seen_b.sort_unstable();
    assert_eq!(seen_b, of_b);

    let sessions = fake.gateway_sessions();
    assert_eq!(sessions.len(), 2, "{sessions:?}");
    let conn = |token: &str| {
        sessions
            .iter()
            .find(|s| s.bot_token == token)
            .map(|s| s.connection)
            .unwrap()
    };

    // Each guild's interactions go to its shard's connection; a DM's to shard 0.
    let dm = fake.open_dm(FakeDiscord::user(1));
    for (channel, guild, token, shard, to_a) in [
        (c0, Some(g0), "token-a", 0, true),
        (c1, Some(g1), "token-b", 1, false),
        (
            FakeDiscord::CHANNEL_ID,
            Some(FakeDiscord::GUILD_ID),
            "token-b",
            1,
            false,
        ),
        (dm, None, "token-a", 0, true),
    ] {
        let i = fake
            .slash(FakeDiscord::user(1), channel, "ping", json!([]))
            .await;
        assert_eq!(i.bot_token, token, "channel {channel}");
        assert_eq!(i.shard, [shard, 2]);
        assert_eq!(i.connection, conn(token));
        let rx = if to_a { &mut a } else { &mut b };
        let saw = next_saw(rx, |s| match s {
            ShardSaw::Interaction {
                shard,
                guild,
                deferred,
            } => Some((shard, guild, deferred)),
            _ => None,
        })
        .await;
        assert_eq!(saw, (shard as u32, guild, true));
        assert_eq!(fake.first_response(&i, WAIT).await.unwrap().status, 204);
    }

    // Reactions too.
    let http = HttpBuilder::new("token-a")
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    let m = ChannelId::new(c1).say(&http, "react here").await.unwrap();
    fake.react(FakeDiscord::user(2), c1, m.id.get(), "👍").await;
    let saw = next_saw(&mut b, |s| match s {
        ShardSaw::Reaction { shard, guild } => Some((shard, guild)),
        _ => None,
    })
    .await;
    assert_eq!(saw, (1, Some(g1)));

    // With shard 1's process gone, its servers' interactions go nowhere; shard 0's still work.
    manager_b.shutdown_all().await;
    fake.wait_sessions(WAIT, "shard 1 to be gone", |s| {
        s.iter().all(|s| s.shard != [1, 2])
    })
    .await
    .unwrap();
    assert!(
        fake.try_slash(FakeDiscord::user(1), c1, "ping", json!([]))
            .is_none()
    );
    assert!(
        fake.try_slash(
            FakeDiscord::user(1),
            FakeDiscord::CHANNEL_ID,
            "ping",
            json!([])
        )
        .is_none()
    );
    let i = fake
        .slash(FakeDiscord::user(1), c0, "ping", json!([]))
        .await;
    assert_eq!(i.shard, [0, 2]);
    assert_eq!(fake.first_response(&i, WAIT).await.unwrap().status, 204);
    assert!(fake.unexpected().is_empty(), "{:?}", fake.unexpected());
    assert_shapes(&fake);
    manager_a.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unsharded_bot_gets_every_guild_on_its_latest_connection() {
    let fake = FakeDiscord::start().await;
    let g0 = FakeDiscord::guild_on_shard(0, 4, 0);
    let c0 = fake.add_guild(g0);
    // `Client::start` identifies as shard [0, 1]: every guild is its.
    let mut bot = Bot::start(&fake).await;
    let sessions = fake.gateway_sessions();
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0].shard, [0, 1]);
    let ready = fake
        .dispatched()
        .into_iter()
        .find(|f| f["t"] == "READY")
        .unwrap();
    assert_eq!(ready["d"]["shard"], json!([0, 1]));
    assert_eq!(ready["d"]["guilds"].as_array().unwrap().len(), 3);
    let creates = fake
        .dispatched()
        .iter()
        .filter(|f| f["t"] == "GUILD_CREATE")
        .count();
    assert_eq!(creates, 3);
    for channel in [c0, FakeDiscord::CHANNEL_ID, FakeDiscord::OTHER_CHANNEL_ID] {
        let i = fake
            .slash(FakeDiscord::user(1), channel, "ping", json!([]))
            .await;
        assert_eq!(i.connection, sessions[0].connection);
        assert_eq!(fake.first_response(&i, WAIT).await.unwrap().status, 204);
        assert!(bot.expect("followup").await.is_ok());
    }
    assert_shapes(&fake);
    bot.shards.shutdown_all().await;
}
