//! Computer players for every game: given a position (its House Rules inside), a [`Level`] and a
//! seed, choose a move; for HexiMeros also answer what a human answers around a move (which
//! Checks to declare, whether to declare Check upon a mover, how to vote).
//!
//! Pure like `games`: no async, no I/O, and no clock unless the caller passes a deadline in
//! [`Limits`]. With the default limits (a node budget per level) the same position, level and seed
//! always give the same move, so a replayed bot game replays exactly.
//!
//! One search serves all games (`search.rs`): alpha-beta with iterative deepening, captures first,
//! a short capture quiescence; for three or more players paranoid, or Best-Reply Search
//! ([`SearchKind::Brs`]: hard's default in Harmegedo and normal's in HexiMeros,
//! [`default_search`]). Each game brings its
//! evaluation (`heximeros.rs`, `hexdame.rs`, `hexmeister.rs`, `hexaequo.rs`, `harmegedo.rs`).
//! `tournament.rs` plays seeded bot matches for the CLI's `ai tournament`, and `tune.rs` tunes
//! the HexiMeros evaluation's weights by self-play for `ai tune`.

mod harmegedo;
mod hexaequo;
mod hexdame;
mod heximeros;
mod hexmeister;
mod rng;
mod search;
#[cfg(test)]
mod tests;
pub mod tournament;
mod tt;
pub mod tune;

use std::time::{Duration, Instant};

use crate::games::heximeros::{HexiMeros, Move as HexiMove};
use crate::games::{AnyGame, GameKind, Rules, Seat};

pub use heximeros::{Weights, declare_check_upon, declare_checks, with_weights};

pub use rng::Rng;
use search::{Budget, Engine, Found};

/// How strong a bot plays. `Random` is the baseline the tournament measures against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// A uniformly random legal move (a yardstick, not a level offered to players).
    Random,
    /// One ply and the captures after it, with noise: beatable by a beginner who looks ahead.
    Easy,
    /// A shallow search, answering within about a second.
    Normal,
    /// A deeper search, within about five seconds.
    Hard,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Random, Level::Easy, Level::Normal, Level::Hard];

    /// The longest a bot of this level should think on one move, the budget the node counts
    /// are tuned to stay well inside on a small machine (docs/lab/notes.md, "Bots"). A host
    /// passes it as a deadline ([`Limits::within`]) so a slow or busy machine never keeps
    /// players waiting.
    pub const fn time_cap(self) -> Duration {
        match self {
            Level::Random | Level::Easy | Level::Normal => Duration::from_secs(1),
            Level::Hard => Duration::from_secs(5),
        }
    }

    pub const fn key(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

impl std::str::FromStr for Level {
    type Err = AiError;

    fn from_str(s: &str) -> Result<Level, AiError> {
        let t = s.trim().to_ascii_lowercase();
        Level::ALL
            .into_iter()
            .find(|l| l.key() == t)
            .ok_or_else(|| AiError::UnknownLevel(s.to_string()))
    }
}

/// The tree a searching level (normal, hard) builds with three or more seats. Two seats always
/// search plain alpha-beta, which both kinds are there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SearchKind {
    /// Paranoid alpha-beta: every opponent in turn plays against the bot (the default).
    #[default]
    Paranoid,
    /// Best-Reply Search: between two turns of the bot only the one opponent with the strongest
    /// reply moves (the others play a fixed default move), so the bot's plans go deeper.
    Brs,
    /// Best-Reply Search in which the opponents who do not reply take their best capture when
    /// they have one, instead of passing (the BRS+ idea of Esser et al., 2013, limited to
    /// captures): a move that leaves pieces to two opponents is seen to lose both.
    BrsPlus,
    /// Best-Reply Search, but paranoid while the bot is hunted (HexiMeros: an opponent attacks
    /// one of its Sovereigns, or it is the seat the bots hunt, the fewest Sovereigns and then
    /// the least material; the other games have no hunted seat and search BRS): when several
    /// opponents close in together, BRS, letting only one of them move between two of the
    /// bot's turns, does not see the net they draw.
    Wary,
}

impl SearchKind {
    pub const ALL: [SearchKind; 4] = [
        SearchKind::Paranoid,
        SearchKind::Brs,
        SearchKind::BrsPlus,
        SearchKind::Wary,
    ];

    pub const fn key(self) -> &'static str {
        match self {
            SearchKind::Paranoid => "paranoid",
            SearchKind::Brs => "brs",
            SearchKind::BrsPlus => "brs+",
            SearchKind::Wary => "wary",
        }
    }

    /// The tree this kind searches: [`SearchKind::Wary`] becomes paranoid while the bot is
    /// `hunted` and BRS otherwise; the others stay as they are. Only wary asks `hunted` (it
    /// costs every opponent's moves).
    pub fn tree(self, hunted: impl FnOnce() -> bool) -> SearchKind {
        match self {
            SearchKind::Wary if hunted() => SearchKind::Paranoid,
            SearchKind::Wary => SearchKind::Brs,
            k => k,
        }
    }
}

impl std::fmt::Display for SearchKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

impl std::str::FromStr for SearchKind {
    type Err = AiError;

    fn from_str(s: &str) -> Result<SearchKind, AiError> {
        let t = s.trim().to_ascii_lowercase();
        SearchKind::ALL
            .into_iter()
            .find(|k| k.key() == t)
            .ok_or_else(|| AiError::UnknownSearch(s.to_string()))
    }
}

/// The search a level plays by default with three or more seats: Best-Reply Search for hard in
/// Harmegedo (alone against five normal bots it won 10 of 20 games against paranoid's 3), and
/// for both searching levels in HexiMeros (three against three paranoid normal bots, BRS normal
/// won more games and placed better; alone against five of them, hard with BRS's deeper budget
/// won far more than with Best-Reply Search+), paranoid everywhere else, where it measured
/// stronger (docs/tournaments.md).
pub fn default_search(kind: GameKind, level: Level) -> SearchKind {
    match (kind, level) {
        (GameKind::Harmegedo, Level::Hard) | (GameKind::HexiMeros, Level::Normal | Level::Hard) => {
            SearchKind::Brs
        }
        _ => SearchKind::Paranoid,
    }
}

/// What can go wrong asking a bot.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    #[error("the game is over: there is no move to choose")]
    GameOver,
    #[error("unknown level {0:?} (expected random, easy, normal or hard)")]
    UnknownLevel(String),
    #[error("unknown search {0:?} (expected paranoid, brs, brs+ or wary)")]
    UnknownSearch(String),
    /// A position or move the bot was handed (or produced) did not hold up; a bug if it happens.
    #[error("{0}")]
    Position(String),
}

/// Limits on one search beyond the level's own. The defaults (both `None`) keep play
/// deterministic; a deadline trades that for a bound on wall-clock time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Replace the level's node budget (tests use small ones).
    pub nodes: Option<u64>,
    /// Stop searching at this instant and play the best move found so far.
    pub deadline: Option<Instant>,
}

impl Limits {
    /// The level's node budget, cut short at `now` plus the level's [`Level::time_cap`]: what a
    /// host passes so a bot never thinks longer than its level promises. On an idle machine
    /// the node budget ends the search first and the move is the deterministic one.
    pub fn within(level: Level, now: Instant) -> Limits {
        Limits {
            nodes: None,
            deadline: Some(now + level.time_cap()),
        }
    }
}

/// A chosen move with what the search saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Canonical move text, including HexiMeros Check declarations (`+blue`).
    pub text: String,
    /// The score for the mover (game-specific units; ±1,000,000 is a forced win/loss).
    pub score: i32,
    /// The deepest fully searched depth.
    pub depth: u32,
    pub nodes: u64,
}

/// Choose a move for the player to move: its canonical text. The simple entry point for the
/// host.
pub fn choose(game: &AnyGame, level: Level, seed: u64) -> Result<String, AiError> {
    choose_with(game, level, seed, Limits::default()).map(|c| c.text)
}

/// [`choose`] with explicit limits, returning the search's figures too.
pub fn choose_with(
    game: &AnyGame,
    level: Level,
    seed: u64,
    limits: Limits,
) -> Result<Choice, AiError> {
    choose_searching(
        game,
        level,
        default_search(game.kind(), level),
        seed,
        limits,
    )
}

/// [`choose_with`] with the search kind chosen (it matters only with three or more seats).
pub fn choose_searching(
    game: &AnyGame,
    level: Level,
    search: SearchKind,
    seed: u64,
    limits: Limits,
) -> Result<Choice, AiError> {
    match game {
        AnyGame::HexiMeros(g) => choose_heximeros_searching(g, &[], level, search, seed, limits),
        AnyGame::HexDame(g) => choose_generic(g, level, search, seed, limits),
        AnyGame::Hexmeister(g) => choose_generic(g, level, search, seed, limits),
        AnyGame::HexaEquo(g) => choose_generic(g, level, search, seed, limits),
        AnyGame::Harmegedo(g) => choose_generic(g, level, search, seed, limits),
    }
}

/// Choose a move for the side to move that respects the challenges `declarers` made upon it
/// (HexiMeros: Checks declared upon the mover; declarers no longer in the game, or the mover
/// itself, are ignored). Other games have no such challenges.
pub fn choose_respecting(
    game: &AnyGame,
    declarers: &[Seat],
    level: Level,
    seed: u64,
    limits: Limits,
) -> Result<Choice, AiError> {
    match game {
        AnyGame::HexiMeros(g) => {
            let me = g.to_move();
            let declarers: Vec<Seat> = declarers
                .iter()
                .copied()
                .filter(|&d| Some(d) != me && g.is_active(d))
                .collect();
            choose_heximeros(g, &declarers, level, seed, limits)
        }
        other => choose_with(other, level, seed, limits),
    }
}

/// Whether the bot in seat `me` challenges the staged move `staged` (HexiMeros: declares Check
/// upon the mover, §5.4). Never in the other games, which have no challenge.
pub fn answer_challenge(game: &AnyGame, staged: &str, me: Seat) -> bool {
    match game {
        AnyGame::HexiMeros(g) => g
            .parse_move(staged)
            .map(|m| declare_check_upon(g, &m, me))
            .unwrap_or(false),
        _ => false,
    }
}

/// HexiMeros: choose a move that respects the Checks `declarers` declared upon the bot's staged
/// move (§5.4 step 4; empty for a fresh turn), with the bot's own Check declarations added.
pub fn choose_heximeros(
    g: &HexiMeros,
    declarers: &[Seat],
    level: Level,
    seed: u64,
    limits: Limits,
) -> Result<Choice, AiError> {
    let search = default_search(GameKind::HexiMeros, level);
    choose_heximeros_searching(g, declarers, level, search, seed, limits)
}

/// [`choose_heximeros`] with the search kind chosen.
pub fn choose_heximeros_searching(
    g: &HexiMeros,
    declarers: &[Seat],
    level: Level,
    search: SearchKind,
    seed: u64,
    limits: Limits,
) -> Result<Choice, AiError> {
    let me = g.to_move().ok_or(AiError::GameOver)?;
    let root = if declarers.is_empty() {
        g.legal_moves()
    } else {
        g.moves_respecting(declarers)
    };
    // The weights asked for (the harness's, the tuner's), or the level's own. Easy plays
    // material and threats only: the hunt and the urge to make progress are plans, for the
    // searching levels.
    let w = heximeros::asked().unwrap_or(Weights::for_level(level));
    let w = if level == Level::Easy {
        Weights {
            hunt: 0,
            net: 0,
            restless: 0,
            ..w
        }
    } else {
        w
    };
    let found = with_weights(w, || run(g, me, root, level, search, seed, limits))?;
    let m = HexiMove {
        checks: declare_checks(g, &found.best, level),
        ..found.best
    };
    Ok(Choice {
        text: g.move_text(&m),
        score: found.score,
        depth: found.depth,
        nodes: found.nodes,
    })
}

fn choose_generic<G: Engine + Tuning>(
    g: &G,
    level: Level,
    search: SearchKind,
    seed: u64,
    limits: Limits,
) -> Result<Choice, AiError> {
    let me = g.to_move().ok_or(AiError::GameOver)?;
    let found = run(g, me, g.legal_moves(), level, search, seed, limits)?;
    Ok(Choice {
        text: g.move_text(&found.best),
        score: found.score,
        depth: found.depth,
        nodes: found.nodes,
    })
}

/// Per game and level: (depth, nodes) for the searching levels, and the easy level's noise.
pub(crate) trait Tuning {
    fn budget(level: Level) -> (u32, u64);
    /// The budget of Best-Reply Search, when a game gives it one of its own: its nodes are
    /// cheaper than paranoid's (most leaves follow a layer of passes) and its opponent layers
    /// wider, so the same count reaches less deep. The paranoid budget by default.
    fn brs_budget(level: Level) -> (u32, u64) {
        Self::budget(level)
    }
    /// The budget of [`SearchKind::BrsPlus`]: its non-replying opponents' moves are generated at
    /// every layer, so a node costs more than in plain Best-Reply Search. BRS's by default.
    fn brs_plus_budget(level: Level) -> (u32, u64) {
        Self::brs_budget(level)
    }
    const EASY_NOISE: i32;
    /// Whether `me` is hunted, which [`SearchKind::Wary`] searches paranoid. No seat is by
    /// default.
    fn hunted(&self, _me: Seat) -> bool {
        false
    }
}

fn run<G: Engine + Tuning>(
    g: &G,
    me: Seat,
    mut root: Vec<G::Move>,
    level: Level,
    search: SearchKind,
    seed: u64,
    limits: Limits,
) -> Result<Found<G::Move>, AiError> {
    if root.is_empty() {
        return Err(AiError::GameOver);
    }
    let mut rng = Rng::new(seed);
    // Seeded order first: the search keeps it among equal moves, so different seeds vary the
    // play without weakening it.
    rng.shuffle(&mut root);
    let found = match level {
        Level::Random => {
            let i = rng.below(root.len() as u64) as usize;
            Some(Found {
                best: root.swap_remove(i),
                score: 0,
                depth: 0,
                nodes: 0,
                tt_hits: 0,
            })
        }
        Level::Easy => search::greedy(g, me, root, G::EASY_NOISE, &mut rng),
        Level::Normal | Level::Hard => {
            // Best-Reply Search needs opponents to choose among; with two seats the trees are
            // the same and the paranoid one has the games' own hooks tuned.
            let kind = if g.seat_count() > 2 {
                search.tree(|| g.hunted(me))
            } else {
                SearchKind::Paranoid
            };
            let (depth, nodes) = match kind {
                SearchKind::Paranoid => G::budget(level),
                SearchKind::Brs | SearchKind::Wary => G::brs_budget(level),
                SearchKind::BrsPlus => G::brs_plus_budget(level),
            };
            let budget = Budget {
                depth,
                nodes: limits.nodes.unwrap_or(nodes),
                deadline: limits.deadline,
            };
            search::search(g, me, root, budget, kind)
        }
    };
    found.ok_or(AiError::GameOver)
}

/// A yes/no motion put to the players (the host words and counts them; the bot only answers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// End the game as a draw (an offer between the last two, or an abandon vote).
    Draw,
    /// Skip the Token holder's turn; `stalled` when its turn timer has run out.
    SkipStalled { seat: Seat, stalled: bool },
    /// Expel a player; `stalled` when the ground is abandonment (no move for days).
    Expel { seat: Seat, stalled: bool },
    /// Seat a replacement player; `vacated` when the seat resigned asking for one or is stalled.
    Replacement { seat: Seat, vacated: bool },
    /// Approve a team, or change a House Rule.
    Other,
}

/// How a bot in `me` votes. A draw is accepted when the bot is behind (it would rather share
/// than lose), and an abandon vote when the table is [`deadlocked`]. Against another seat it votes yes only when the rules' condition holds: a
/// stalled player is skipped and, for abandonment only, expelled; a replacement is welcome in a
/// seat that was vacated (resigned asking for one, or stalled), as a person filling it keeps the
/// game alive. Anything else, and anything against itself: no, so the game stands as it is.
pub fn vote(game: &AnyGame, me: Seat, motion: &Motion) -> bool {
    match *motion {
        Motion::Draw => standing(game, me) < 0 || deadlocked(game),
        Motion::SkipStalled { seat, stalled } | Motion::Expel { seat, stalled } => {
            stalled && seat != me
        }
        Motion::Replacement { seat, vacated } => vacated && seat != me,
        Motion::Other => false,
    }
}

/// Whether three or more players are left in a game none of them can end (HexiMeros: the
/// draw tests of the last two hold for everyone left, §6): the rules leave only the unanimous
/// vote to abandon it as a draw, and a bot votes for that.
pub fn deadlocked(game: &AnyGame) -> bool {
    match game {
        AnyGame::HexiMeros(g) => g.deadlocked(),
        _ => false,
    }
}

/// Whether a deadlocked table is to be asked now to abandon the game: when the deadlock sets
/// in (the first round after the capture that left only Sovereigns) and at every multiple of
/// the quiet-rounds count after the last progress (fifty rounds of everyone left by default),
/// so a table that votes it down is asked again only fifty rounds later. The host has the
/// first bot seat still in propose it when it holds the Token (`GameState::bot_action`).
pub fn proposes_abandon(game: &AnyGame) -> bool {
    let AnyGame::HexiMeros(g) = game else {
        return false;
    };
    if !g.deadlocked() {
        return false;
    }
    let seats = g.active_seats().len() as u32;
    let rounds = match g.house_rules().quiet_rounds_draw {
        0 => 50,
        r => r,
    };
    g.halfmove_clock() % rounds.saturating_mul(seats).max(1) < seats
}

/// How `me` stands: positive ahead, negative behind (material against the average opponent).
pub fn standing(game: &AnyGame, me: Seat) -> i32 {
    match game {
        AnyGame::HexiMeros(g) => heximeros::standing(g, me),
        AnyGame::HexDame(g) => g.evaluate(me),
        AnyGame::Hexmeister(g) => g.evaluate(me),
        AnyGame::HexaEquo(g) => g.evaluate(me),
        AnyGame::Harmegedo(g) => harmegedo::standing(g, me),
    }
}
