//! Local mode: a terminal front end on the same host and SQLite file as the bot. Players share
//! the keyboard (hot seat); each line is one command, the same commands as on Discord. A line
//! acts for the Token holder unless it starts with `name:` or `colour:` (`blue: vote yes`).
//! Everything goes through `GameHost`, so a game started here resumes after quitting.
//! A seat named `bot` or `bot:<level>` is played by the computer: after each command (and when a
//! game is started or opened) the bots' turns run and their moves are printed. `show` prints
//! the effects.

mod show;

use std::collections::HashMap;
use std::io::Write;

use thiserror::Error;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

use crate::ai::Level;
use crate::games::{GameKind, Seat};
use crate::host::words::{Part, Sentence};
use crate::host::{
    Actor, AdminAction, ChallengePref, Command, GameHost, GameId, HostError, Motion, PlayerId,
    Refused,
};

#[derive(Debug, Error)]
pub enum LocalError {
    #[error("terminal error: {0}")]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Host(#[from] HostError),
    /// A line the terminal could not read (what to type instead).
    #[error("{0}")]
    Usage(String),
}

impl LocalError {
    fn usage(msg: impl Into<String>) -> LocalError {
        LocalError::Usage(msg.into())
    }
}

/// The text of `help`.
pub const HELP: &str = "\
commands (prefix with `name:` or `colour:` to act as someone other than the Token holder):
  new <game> <name> <name> …      start a game (heximeros takes 6 names; hexdame, hexmeister,
                                  hexaequo 2; harmegedo 2–6); it becomes the current game.
                                  A name bot or bot:easy|normal|hard seats a bot (bot = normal)
  games                           every game, with whose turn it is
  open <id>                       make game <id> current
  board | history | export        the current game's board, move list, replay text
  moves                           the Token holder's legal moves, piece by piece
  preview <move>                  try a move, nothing is stored
  move <move>                     stage a move (Q7-Q9, Q7xQ9+blue, R25-R27=Regent)
  check <colour>                  add a Check declaration to the staged move
  takeback                        take the staged move back
  pass                            pass the Token: commit the staged move
  play <move>                     stage and pass in one step
  queue <move> [safe] [if <reply>]   (name: …) queue a move for your next turn: played for you
                                  if its piece is still there (safe: and nothing attacks your
                                  Sovereign/King; if: two players, the opponent answered <reply>)
  queue | queue clear             (name: …) show or cancel your queued move
  declare | let                   answer a challenge window (as the asked player)
  prefer ask|always|never         standing answer for challenge windows
  resign [replacement]            resign (naming a replacement opens a vote): someone who has
                                  played here, new:<name> for someone new, or bot:<level>
  concede                         concede (only between the last two)
  draw offer | draw accept        offer or accept a draw (three or more: abandon vote)
  vote expel|skip <colour>        call a vote on a player
  vote expel <colour> <name>      expel and seat <name> (new:<name>, bot:<level>) in their place
  vote replace <colour> <name>    vote another player (new:<name>, bot:<level>) into a seat
  vote house-rule <key> <value>   vote a house rule before the first Token pass (value is JSON)
  vote team <colour> <mover> <name> …   a team plays a seat
  vote yes|no [motion]            vote on an open motion
  vote claim                      two left: claim the game when the opponent's timer ran out
  mine <name>                     games where it is <name>'s turn
  away <duration> [reason] | back your clocks stop in all your games (3d, 12h) / you are back
  score [game] | ratings [game]   leaderboards
  tick                            run timers now
  admin abort|pause|resume        admin actions
  help | quit";

/// The terminal session.
pub struct Local<'h, W: Write> {
    host: &'h GameHost,
    out: W,
    current: Option<GameId>,
    names: HashMap<PlayerId, String>,
    /// Where board pictures go after every turn; `None`: text only.
    png_dir: Option<std::path::PathBuf>,
    /// The web board's links (`local --web`), printed for each game's players.
    links: Option<crate::web::Links>,
}

impl<'h, W: Write> Local<'h, W> {
    pub fn new(host: &'h GameHost, out: W) -> Local<'h, W> {
        Local {
            host,
            out,
            current: None,
            names: HashMap::new(),
            png_dir: None,
            links: None,
        }
    }

    /// Print a board link for each player of a game when it starts or is opened.
    pub fn with_links(mut self, links: Option<crate::web::Links>) -> Self {
        self.links = links;
        self
    }

    /// Each person's link to `game`'s board (bots need none), when the board is served.
    async fn print_links(&mut self, game: GameId) -> Result<(), LocalError> {
        let Some(links) = self.links.clone() else {
            return Ok(());
        };
        let st = self.host.state(game).await?;
        for s in st.seats() {
            if crate::host::bot_level(s.mover).is_none() {
                let name = self.name(s.mover).await;
                let link = links.player(game, s.mover, self.host.now());
                writeln!(self.out, "board for {name}: {link}")?;
            }
        }
        Ok(())
    }

    /// Write the board picture into `dir` after every turn (`None`: text boards only).
    pub fn with_png_dir(mut self, dir: Option<std::path::PathBuf>) -> Self {
        self.png_dir = dir;
        self
    }

    /// Read commands until `quit` or the end of input. The most recent unfinished game is
    /// opened first, so quitting and starting again resumes it.
    pub async fn run<R: AsyncBufRead + Unpin>(&mut self, input: R) -> Result<(), LocalError> {
        writeln!(self.out, "hexmeros local mode: type help for the commands")?;
        let games = self.host.all_games().await?;
        if let Some(g) = games.iter().find(|g| g.live()) {
            writeln!(self.out, "resuming game #{}", g.id)?;
            self.line(&format!("open {}", g.id)).await?;
        }
        let mut lines = input.lines();
        loop {
            write!(self.out, "> ")?;
            self.out.flush()?;
            let Some(line) = lines.next_line().await? else {
                break;
            };
            if matches!(line.trim(), "quit" | "exit") {
                break;
            }
            self.line(&line).await?;
        }
        Ok(())
    }

    /// Run one line, printing the result or the error. Only terminal failures are returned.
    pub async fn line(&mut self, line: &str) -> Result<(), LocalError> {
        let line = line.trim();
        if line.is_empty() {
            return Ok(());
        }
        match self.command(line).await {
            Ok(()) => Ok(()),
            Err(e @ (LocalError::Host(_) | LocalError::Usage(_))) => {
                writeln!(self.out, "error: {e}")?;
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    async fn name(&mut self, p: PlayerId) -> String {
        if let Some(n) = self.names.get(&p) {
            return n.clone();
        }
        let n = match self.host.player_name(p).await {
            Ok(Some(n)) => n,
            _ => format!("player {p}"),
        };
        self.names.insert(p, n.clone());
        n
    }

    /// The host's `text` with every player it names given their name here.
    async fn named(&mut self, text: &Sentence) -> String {
        let mut out = String::new();
        for part in text.parts() {
            match part {
                Part::Text(t) | Part::Quoted(t) => out.push_str(t),
                Part::Player(p) => out.push_str(&self.name(p).await),
            }
        }
        out
    }

    fn game(&self) -> Result<GameId, LocalError> {
        self.current
            .ok_or_else(|| LocalError::usage("no current game: start one with new, or open <id>"))
    }

    /// `who` is a player name or a seat colour of the current game.
    async fn actor_named(&mut self, who: &str) -> Result<PlayerId, LocalError> {
        if let Some(g) = self.current {
            let st = self.host.state(g).await?;
            if let Some(i) = (0..st.seats().len() as u8)
                .find(|&i| st.seat_name(Seat(i)).eq_ignore_ascii_case(who))
                && let Some(s) = st.seats().get(i as usize)
            {
                return Ok(s.mover);
            }
        }
        self.host
            .player_named(who)
            .await?
            .ok_or_else(|| LocalError::usage(format!("nobody is called {who}")))
    }

    /// The id of the game's motion `#n` (as the game numbers its motions, from 1).
    async fn motion_numbered(&self, text: &str) -> Result<u64, LocalError> {
        let n: u64 = text
            .trim_start_matches('#')
            .parse()
            .map_err(|_| LocalError::usage(format!("a motion's number, such as 1, not {text}")))?;
        let st = self.host.state(self.game()?).await?;
        st.motion_by_number(n)
            .ok_or_else(|| HostError::from(Refused::NoSuchMotion(n)).into())
    }

    async fn seat_named(&self, colour: &str) -> Result<Seat, LocalError> {
        let st = self.host.state(self.game()?).await?;
        (0..st.seats().len() as u8)
            .map(Seat)
            .find(|&s| st.seat_name(s).eq_ignore_ascii_case(colour))
            .ok_or_else(|| LocalError::usage(format!("no seat called {colour}")))
    }

    async fn command(&mut self, line: &str) -> Result<(), LocalError> {
        // `name: command` acts as that player.
        let (who, rest) = match line.split_once(':') {
            Some((w, r)) if !w.trim().contains(' ') && !w.trim().is_empty() => {
                (Some(w.trim().to_string()), r.trim())
            }
            _ => (None, line),
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        let Some((&verb, args)) = words.split_first() else {
            return Ok(());
        };
        no_more_words(verb, args)?;
        match verb {
            "help" => writeln!(self.out, "{HELP}")?,
            "new" => self.new_game(args).await?,
            "games" => self.games().await?,
            "open" => self.open(args).await?,
            "board" => {
                let st = self.host.state(self.game()?).await?;
                writeln!(self.out, "{}", st.board_text())?;
                self.status_line().await?;
            }
            "moves" => self.moves(who.as_deref()).await?,
            "history" => {
                let st = self.host.state(self.game()?).await?;
                for (i, r) in st.record().iter().enumerate() {
                    writeln!(self.out, "{}. {}", i + 1, r.line)?;
                }
            }
            "export" => {
                let text = self.host.export(self.game()?).await?;
                write!(self.out, "{text}")?;
            }
            "mine" => {
                let name = args
                    .first()
                    .ok_or_else(|| LocalError::usage("mine <name>"))?;
                let p = self.actor_named(name).await?;
                for g in self.host.my_turn(p).await? {
                    writeln!(self.out, "#{} {}", g.id, key(g.kind))?;
                }
            }
            "score" => {
                let kind = args.first().map(|k| game_kind(k)).transpose()?;
                for s in self.host.leaderboard(kind).await? {
                    writeln!(self.out, "{:>6}  {} ({} games)", s.points, s.name, s.games)?;
                }
            }
            "ratings" => self.ratings(args).await?,
            "tick" => {
                let fx = self.host.tick().await?;
                self.show(fx).await?;
            }
            "away" | "back" => self.away_or_back(verb, who.as_deref(), args).await?,
            "queue" if args.is_empty() => {
                let game = self.game()?;
                let actor = self.actor(who.as_deref()).await?;
                let told = self.host.queued_move(game, actor).await?;
                writeln!(
                    self.out,
                    "{}",
                    told.unwrap_or_else(|| "no queued move".to_string())
                )?;
            }
            "preview" => {
                let game = self.game()?;
                let actor = self.actor(who.as_deref()).await?;
                let (text, board) = self
                    .host
                    .preview(game, Actor::player(actor), &args.join(" "))
                    .await?;
                writeln!(self.out, "preview of {text} (not stored):\n{board}")?;
            }
            _ => self.play(verb, args, who.as_deref()).await?,
        }
        Ok(())
    }

    /// `new <game> <name> …`: start a game of those players and make it the current one.
    async fn new_game(&mut self, args: &[&str]) -> Result<(), LocalError> {
        let (kind, names) = args
            .split_first()
            .ok_or_else(|| LocalError::usage("new <game> <name> <name> …"))?;
        let kind = game_kind(kind)?;
        let mut players = Vec::new();
        for (i, n) in names.iter().enumerate() {
            // A bot may take several seats; a person one.
            if !is_bot(n) && names[..i].iter().any(|m| m.eq_ignore_ascii_case(n)) {
                return Err(LocalError::usage(format!(
                    "{n} is named twice: each seat needs its own player"
                )));
            }
            players.push(self.player_for(n).await?);
        }
        let (id, fx) = self.host.create(kind, &players, None, None).await?;
        self.current = Some(id);
        self.show(fx).await?;
        self.print_links(id).await?;
        self.bots(id).await?;
        Ok(())
    }

    /// `games`: every game, with whose move it is.
    async fn games(&mut self) -> Result<(), LocalError> {
        let games = self.host.all_games().await?;
        if games.is_empty() {
            writeln!(self.out, "no games yet: start one with new")?;
        }
        for g in games {
            let turn = match g.to_move {
                Some(p) => format!(", {} to move", self.name(p).await),
                None => String::new(),
            };
            let status = g.status.map(|s| s.name()).unwrap_or("?");
            writeln!(self.out, "#{} {} ({status}{turn})", g.id, key(g.kind))?;
        }
        Ok(())
    }

    /// `open <id>`: make a game the current one and show it.
    async fn open(&mut self, args: &[&str]) -> Result<(), LocalError> {
        let id: GameId = args
            .first()
            .and_then(|a| a.trim_start_matches('#').parse().ok())
            .ok_or_else(|| LocalError::usage("open <game id>"))?;
        let st = self.host.state(id).await?;
        self.current = Some(id);
        writeln!(self.out, "{}", st.board_text())?;
        self.status_line().await?;
        self.print_links(id).await?;
        // A game left waiting on a bot (quit while it thought) carries on.
        self.bots(id).await?;
        Ok(())
    }

    /// `moves`: each movable piece's legal moves.
    async fn moves(&mut self, who: Option<&str>) -> Result<(), LocalError> {
        let game = self.game()?;
        let player = self.actor(who).await?;
        let pieces = self.host.movable_pieces(game, player).await?;
        if pieces.is_empty() {
            writeln!(self.out, "no legal move")?;
        }
        for piece in pieces {
            let moves = self.host.piece_moves(game, player, &piece).await?;
            writeln!(self.out, "{piece}: {}", moves.join(" "))?;
        }
        Ok(())
    }

    /// `ratings [game]`: the skill ratings.
    async fn ratings(&mut self, args: &[&str]) -> Result<(), LocalError> {
        let kind = args.first().map(|k| game_kind(k)).transpose()?;
        for r in self.host.ratings(kind).await? {
            writeln!(
                self.out,
                "{:>7.2}  {} (μ {:.2}, σ {:.2}, {} games)",
                r.shown(),
                r.name,
                r.mu,
                r.sigma,
                r.games
            )?;
        }
        Ok(())
    }

    /// `away <duration> [reason]` / `back`: in every game of the player.
    async fn away_or_back(
        &mut self,
        verb: &str,
        who: Option<&str>,
        args: &[&str],
    ) -> Result<(), LocalError> {
        let actor = self.actor(who).await?;
        let report = if verb == "back" {
            self.host.back(actor).await?
        } else {
            let (d, reason) = args
                .split_first()
                .ok_or_else(|| LocalError::usage("away <duration> [reason], e.g. away 3d"))?;
            let ms = humantime::parse_duration(d)
                .ok()
                .and_then(|d| i64::try_from(d.as_millis()).ok())
                .ok_or_else(|| {
                    LocalError::usage(format!("{d:?} is not a length of time (3d, 12h)"))
                })?;
            let reason = Some(reason.join(" ")).filter(|r| !r.is_empty());
            self.host.away(actor, ms, reason.as_deref(), &[]).await?
        };
        for g in &report.games {
            let what = match (&g.refused, g.until) {
                (Some(why), _) => format!("not changed: {why}"),
                (None, Some(_)) => "away".to_string(),
                (None, None) => "back".to_string(),
            };
            writeln!(self.out, "#{} {}: {what}", g.game, g.kind)?;
        }
        self.show(report.effects).await?;
        Ok(())
    }

    /// Any other verb is a command of the current game (`move`, `pass`, `vote` …), stored.
    async fn play(
        &mut self,
        verb: &str,
        args: &[&str],
        who: Option<&str>,
    ) -> Result<(), LocalError> {
        let cmd = self.parse(verb, args).await?;
        let game = self.game()?;
        let actor = Actor {
            player: self.actor(who).await?,
            // The terminal belongs to whoever runs it: local players may use admin.
            admin: true,
        };
        let done = self.host.handle(game, actor, cmd, None).await?;
        self.show(done.effects).await?;
        // Stored: what a crash after this line cannot lose.
        let turn = done.state.turn_number();
        writeln!(self.out, "saved (game #{game}, turn {turn})")?;
        self.bots(game).await?;
        Ok(())
    }

    /// A player by name: `bot` or `bot:<level>` is that level's bot, any other name a local
    /// player (created on first use).
    async fn player_for(&self, name: &str) -> Result<PlayerId, LocalError> {
        let lower = name.to_ascii_lowercase();
        let level = match lower.as_str() {
            "bot" => Some(Level::Normal),
            _ => match lower.strip_prefix("bot:") {
                Some(l) => Some(
                    l.parse::<Level>()
                        .map_err(|e| LocalError::usage(e.to_string()))?,
                ),
                None => None,
            },
        };
        Ok(match level {
            Some(level) => self.host.bot_player(level).await?,
            None => self.host.local_player(name).await?,
        })
    }

    /// A replacement named in a command (`resign NAME`, `vote replace|expel COLOUR NAME`): a
    /// bot (`bot`, `bot:LEVEL`), someone who has played here, or someone new said so
    /// (`new:NAME`); never a new player made of a stray word.
    async fn replacement(&self, name: &str) -> Result<PlayerId, LocalError> {
        if is_bot(name) {
            return self.player_for(name).await;
        }
        if let Some(new) = name.strip_prefix("new:") {
            if new.is_empty() || is_bot(new) {
                return Err(LocalError::usage("new: needs a name (new:zed)"));
            }
            return self.player_for(new).await;
        }
        self.host.player_named(name).await?.ok_or_else(|| {
            LocalError::usage(format!(
                "nobody is called {name}: a replacement is someone who has played here, someone \
                 new (new:{name}) or a bot (bot, bot:LEVEL); nothing was done"
            ))
        })
    }

    /// Let the bots of `game` act, printing what they did.
    async fn bots(&mut self, game: GameId) -> Result<(), LocalError> {
        let fx = self.host.bot_turns(game).await?;
        if !fx.is_empty() {
            self.show(fx).await?;
            self.status_line().await?;
        }
        Ok(())
    }

    /// The acting player: named, or the Token holder.
    async fn actor(&mut self, who: Option<&str>) -> Result<PlayerId, LocalError> {
        if let Some(w) = who {
            return self.actor_named(w).await;
        }
        let st = self.host.state(self.game()?).await?;
        st.holder_player()
            .ok_or_else(|| LocalError::usage("nobody holds the Token: say who acts (name: …)"))
    }

    async fn parse(&mut self, verb: &str, args: &[&str]) -> Result<Command, LocalError> {
        let arg = |i: usize| -> Result<&str, LocalError> {
            args.get(i)
                .copied()
                .ok_or_else(|| LocalError::usage(format!("{verb}: missing argument")))
        };
        Ok(match verb {
            "move" => Command::Move {
                text: args.join(" "),
                commit: false,
            },
            "play" => Command::Move {
                text: args.join(" "),
                commit: true,
            },
            "queue" => queue_command(args)?,
            "check" => Command::Check {
                seat: self.seat_named(arg(0)?).await?,
            },
            "takeback" => Command::TakeBack,
            "pass" => Command::Pass,
            "declare" => Command::Challenge { declare: true },
            "let" => Command::Challenge { declare: false },
            "prefer" => Command::Prefer(match arg(0)? {
                "ask" => ChallengePref::Ask,
                "always" => ChallengePref::AlwaysDeclare,
                "never" => ChallengePref::NeverDeclare,
                other => {
                    return Err(LocalError::usage(format!(
                        "prefer ask|always|never, not {other}"
                    )));
                }
            }),
            "resign" => Command::Resign {
                replacement: match args.first() {
                    Some(n) => Some(self.replacement(n).await?),
                    None => None,
                },
            },
            "concede" => Command::Concede,
            "draw" => match arg(0)? {
                "offer" => Command::Propose(Motion::Draw),
                "accept" => Command::AcceptDraw,
                other => {
                    return Err(LocalError::usage(format!("draw offer|accept, not {other}")));
                }
            },
            "vote" => self.vote(args).await?,
            "admin" => Command::Admin(match arg(0)? {
                "abort" => AdminAction::Abort,
                "pause" => AdminAction::Pause,
                "resume" => AdminAction::Resume,
                other => {
                    return Err(LocalError::usage(format!(
                        "admin abort|pause|resume, not {other}"
                    )));
                }
            }),
            other => {
                return Err(LocalError::usage(format!(
                    "unknown command {other} (type help)"
                )));
            }
        })
    }

    /// `vote claim|yes|no [motion]|expel|skip|replace|house-rule|team …`: the vote or motion.
    async fn vote(&mut self, args: &[&str]) -> Result<Command, LocalError> {
        let arg = |i: usize| -> Result<&str, LocalError> {
            args.get(i)
                .copied()
                .ok_or_else(|| LocalError::usage("vote: missing argument"))
        };
        let most = match arg(0)? {
            "claim" => 1,
            "yes" | "no" | "skip" => 2,
            "expel" | "replace" => 3,
            _ => usize::MAX,
        };
        if let Some(extra) = args.get(most..).filter(|x| !x.is_empty()) {
            return Err(too_many(&format!("vote {}", args[0]), extra));
        }
        Ok(match arg(0)? {
            "claim" => Command::ClaimTime,
            "yes" | "no" => Command::Vote {
                motion: match args.get(1) {
                    Some(m) => Some(self.motion_numbered(m).await?),
                    None => None,
                },
                yes: arg(0)? == "yes",
            },
            "expel" => {
                let seat = self.seat_named(arg(1)?).await?;
                // `vote expel red bot:easy`: expel and seat a replacement (§8.5).
                match args.get(2) {
                    Some(n) => Command::Propose(Motion::ExpelFor {
                        seat,
                        player: self.replacement(n).await?,
                    }),
                    None => Command::Propose(Motion::Expel { seat }),
                }
            }
            "skip" => Command::Propose(Motion::Skip {
                seat: self.seat_named(arg(1)?).await?,
            }),
            "replace" => Command::Propose(Motion::Replace {
                seat: self.seat_named(arg(1)?).await?,
                player: self.replacement(arg(2)?).await?,
            }),
            "house-rule" => {
                let raw = args.get(2..).unwrap_or_default().join(" ");
                // Bare words are strings: `vote house-rule archer fly_over`.
                let value =
                    serde_json::from_str(&raw).unwrap_or(serde_json::Value::String(raw.clone()));
                Command::Propose(Motion::HouseRule {
                    key: arg(1)?.to_string(),
                    value,
                })
            }
            "team" => {
                let seat = self.seat_named(arg(1)?).await?;
                let mut members = Vec::new();
                for n in args.get(2..).unwrap_or_default() {
                    members.push(self.host.local_player(n).await?);
                }
                let mover = *members
                    .first()
                    .ok_or_else(|| LocalError::usage("vote team <colour> <mover> <name> …"))?;
                Command::Propose(Motion::Team {
                    seat,
                    members,
                    mover,
                })
            }
            other => return Err(LocalError::usage(format!("unknown vote {other}"))),
        })
    }

    async fn status_line(&mut self) -> Result<(), LocalError> {
        let st = self.host.state(self.game()?).await?;
        let line = match (st.outcome(), st.holder(), st.holder_player()) {
            (Some(o), _, _) => format!("game over: {}", st.outcome_text(&o)),
            (None, Some(seat), Some(p)) => {
                format!(
                    "{} ({}) has the Token",
                    st.seat_title(seat),
                    self.name(p).await
                )
            }
            _ => format!("game is {}", st.status().name()),
        };
        writeln!(self.out, "{line}")?;
        // The round's moves under the board: what changed since the Token holder last moved.
        let round = st.last_round();
        if !round.is_empty() {
            writeln!(self.out, "since then: {}", round.join(", "))?;
        }
        Ok(())
    }
}

/// How many words at most a verb takes after it, where that is fixed (a move's text, a queue,
/// a vote and a reason are read by their own parsers).
fn most_words(verb: &str) -> Option<usize> {
    Some(match verb {
        "help" | "games" | "board" | "moves" | "history" | "export" | "tick" | "takeback"
        | "pass" | "declare" | "let" | "concede" | "back" => 0,
        "open" | "mine" | "check" | "prefer" | "draw" | "admin" | "score" | "ratings"
        | "resign" => 1,
        _ => return None,
    })
}

/// Refuse words after a command that takes none (or fewer): `pass now please` is not a pass.
fn no_more_words(verb: &str, args: &[&str]) -> Result<(), LocalError> {
    match most_words(verb).and_then(|n| args.get(n..)) {
        Some(extra) if !extra.is_empty() => Err(too_many(verb, extra)),
        _ => Ok(()),
    }
}

fn too_many(verb: &str, extra: &[&str]) -> LocalError {
    LocalError::usage(format!(
        "{verb} takes no more words: {:?} is not understood, and nothing was done (type help)",
        extra.join(" ")
    ))
}

fn is_bot(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower == "bot" || lower.starts_with("bot:")
}

/// A game's key as typed (`hexdame`), or what the keys are.
fn game_kind(key: &str) -> Result<GameKind, LocalError> {
    GameKind::from_key(key).ok_or_else(|| {
        let keys: Vec<&str> = GameKind::ALL.iter().map(|k| k.key()).collect();
        LocalError::usage(format!("unknown game {key} (one of {})", keys.join(", ")))
    })
}

/// A listed game's kind as commands spell it (`?` for a kind this build does not know).
fn key(kind: Option<GameKind>) -> &'static str {
    kind.map_or("?", |k| k.key())
}

/// `queue <move> [safe] [if <reply>]` or `queue clear`.
fn queue_command(args: &[&str]) -> Result<Command, LocalError> {
    Ok(match args {
        ["clear"] => Command::ClearQueue,
        [text, rest @ ..] => {
            let mut sovereign_safe = false;
            let mut if_reply = None;
            let mut rest = rest.iter();
            while let Some(&word) = rest.next() {
                match word {
                    "safe" => sovereign_safe = true,
                    "if" => {
                        let reply = rest
                            .next()
                            .ok_or_else(|| LocalError::usage("queue: if <reply>"))?;
                        if_reply = Some(reply.to_string());
                    }
                    other => {
                        return Err(LocalError::usage(format!(
                            "queue <move> [safe] [if <reply>], not {other}"
                        )));
                    }
                }
            }
            Command::Queue {
                text: text.to_string(),
                sovereign_safe,
                if_reply,
            }
        }
        [] => return Err(LocalError::usage("queue <move> [safe] [if <reply>]")),
    })
}
