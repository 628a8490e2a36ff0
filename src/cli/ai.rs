//! `hexmeros ai`: bot research on the command line: seeded tournaments, search budgets and
//! weight tuning.

use clap::{Args, Subcommand};
use hexmeros::games::{AnyGame, GameKind};

use super::rules::{PositionArg, game_kind, load};

#[derive(Subcommand)]
pub enum AiCommand {
    /// Play seeded games between two levels (colours or seats alternated) and print win/draw/loss
    /// rates and the time per search of each level (a HexiMeros move re-chosen after a Check
    /// declared upon it is two searches, each with its own deadline in the host).
    Tournament(TournamentArgs),
    /// Time the levels' moves in each game's busiest middle game (the position with the most
    /// legal moves met in seeded random playouts, or --position) and print the slowest.
    Budget {
        /// One game, or every game when left out.
        #[arg(long)]
        game: Option<String>,
        /// Number of seats, for games that take a range (Harmegedo: 2–6).
        #[arg(long)]
        players: Option<usize>,
        /// Time this position instead of searching for the busiest one.
        #[arg(long, value_name = "FILE|-")]
        position: Option<String>,
        /// Levels to time, comma-separated.
        #[arg(long, default_value = "normal,hard")]
        levels: String,
        /// Moves timed per level (one search each, with different seeds).
        #[arg(long, default_value_t = 3)]
        seeds: u32,
        /// Random playouts searched for the busiest position.
        #[arg(long, default_value_t = 4)]
        playouts: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cut each search at the level's time cap, as a host does.
        #[arg(long)]
        capped: bool,
        /// Search with three or more seats: paranoid, brs (Best-Reply Search), brs+
        /// (Best-Reply Search whose opponents who do not reply take their best capture) or wary
        /// (brs, paranoid while the bot is hunted);
        /// without it each level's default in each game.
        #[arg(long)]
        search: Option<String>,
    },
    /// Tune HexiMeros evaluation weights by self-play (SPSA): each iteration plays the weights
    /// nudged up against the same nudged down, three seats against three, and moves them
    /// towards the side that finished higher. Prints each iteration and the final weights as a
    /// name=value list (for --weights-a or `Weights::DEFAULT`).
    Tune {
        /// Terms to tune, comma-separated (docs/tournaments.md lists them).
        #[arg(long, default_value = "hunt,net,pressing,mobility")]
        terms: String,
        /// Starting weights, name=value,... over the level's.
        #[arg(long)]
        weights: Option<String>,
        #[arg(long, default_value = "normal")]
        level: String,
        /// paranoid, brs, brs+ or wary; without it the level's default in HexiMeros.
        #[arg(long)]
        search: Option<String>,
        #[arg(long, default_value_t = 10)]
        iterations: u32,
        /// Games per iteration.
        #[arg(long, default_value_t = 4)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A nudge, in percent of each term's size (at least 1).
        #[arg(long, default_value_t = 25)]
        step: u32,
        /// Steps the weights move at most per iteration (when one side takes every top place).
        #[arg(long, default_value_t = 2.0)]
        gain: f64,
        /// Plies after which a game counts as a draw between the seats still in.
        #[arg(long, default_value_t = 2400)]
        max_plies: u32,
        /// Override the level's node budget (per move).
        #[arg(long)]
        nodes: Option<u64>,
    },
}

/// The options of `ai tournament`.
#[derive(Args)]
pub struct TournamentArgs {
    #[arg(long)]
    pub game: String,
    /// Level A: random, easy, normal or hard.
    #[arg(long)]
    pub a: String,
    /// Level B.
    #[arg(long)]
    pub b: String,
    /// Search of both sides with three or more seats: paranoid, brs (Best-Reply Search),
    /// brs+ (the opponents who do not reply take their best capture) or wary (brs, but
    /// paranoid while the side is hunted: its Sovereign attacked, or the weakest); without it each
    /// level's default (brs for hard in Harmegedo and for normal and hard in HexiMeros,
    /// else paranoid). --search-a and --search-b set one side.
    #[arg(long)]
    pub search: Option<String>,
    /// Search of side A (overrides --search).
    #[arg(long)]
    pub search_a: Option<String>,
    /// Search of side B (overrides --search).
    #[arg(long)]
    pub search_b: Option<String>,
    /// HexiMeros evaluation weights of side A, as `name=value,...` over its level's
    /// (docs/tournaments.md lists the terms; `ai tune` prints such lists).
    #[arg(long)]
    pub weights_a: Option<String>,
    /// HexiMeros evaluation weights of side B.
    #[arg(long)]
    pub weights_b: Option<String>,
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Number (from 1) of the first game to play: `--from 26 --games 25` plays games 26–50
    /// of the same seed's run, so a long run can be split between processes.
    #[arg(long, default_value_t = 1)]
    pub from: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of seats, for games that take a range (Harmegedo: 2–6).
    #[arg(long)]
    pub players: Option<usize>,
    /// Plies after which an unfinished game counts as a draw (default: per game).
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Override the levels' node budget (per move).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Node budget per move of side A alone (overrides its level's and --nodes).
    #[arg(long)]
    pub nodes_a: Option<u64>,
    /// Node budget per move of side B alone.
    #[arg(long)]
    pub nodes_b: Option<u64>,
    /// How the levels share a table of three or more: `alternate` (A and B in alternate
    /// seats) or `lone` (A in one seat, B in all the others).
    #[arg(long, default_value = "alternate")]
    pub seating: String,
    /// Plies played at random (seeded by each game's seed) before the bots take over, so
    /// games that seat the levels alike do not repeat one another; counted in the cap.
    #[arg(long, default_value_t = 0)]
    pub opening: u32,
    /// Print one line per finished game.
    #[arg(long)]
    pub verbose: bool,
    /// Print each finished game's moves (a line after its --verbose line).
    #[arg(long)]
    pub moves: bool,
}

/// Runs an `ai` verb: its text for stdout.
pub fn ai(cmd: AiCommand) -> anyhow::Result<String> {
    use hexmeros::ai::{Level, Limits, default_search};
    match cmd {
        AiCommand::Tune {
            terms,
            weights,
            level,
            search,
            iterations,
            games,
            seed,
            step,
            gain,
            max_plies,
            nodes,
        } => {
            let level: Level = level.parse()?;
            tune(hexmeros::ai::tune::TuneSpec {
                start: weights_arg("--weights", weights, level)?
                    .unwrap_or(hexmeros::ai::Weights::for_level(level)),
                terms: terms
                    .split(',')
                    .map(|t| t.trim().to_string())
                    .filter(|t| !t.is_empty())
                    .collect(),
                level,
                search: match search {
                    Some(s) => s.parse()?,
                    None => default_search(GameKind::HexiMeros, level),
                },
                iterations,
                games,
                seed,
                step_percent: step,
                gain,
                max_plies,
                limits: Limits {
                    nodes: nodes_arg("--nodes", nodes)?,
                    deadline: None,
                },
            })
        }
        AiCommand::Tournament(args) => tournament(args),
        AiCommand::Budget {
            game,
            players,
            position,
            levels,
            seeds,
            playouts,
            seed,
            capped,
            search,
        } => budget(
            game,
            players,
            position,
            &levels,
            seeds,
            playouts,
            seed,
            capped,
            search.map(|s| s.parse()).transpose()?,
        ),
    }
}

/// `ai tournament`: the spec from its options, checked, then the games.
fn tournament(args: TournamentArgs) -> anyhow::Result<String> {
    use hexmeros::ai::tournament::{self, Bot, Spec};
    use hexmeros::ai::{Level, Limits, SearchKind, default_search};
    let TournamentArgs {
        game,
        a,
        b,
        search,
        search_a,
        search_b,
        weights_a,
        weights_b,
        games,
        from,
        seed,
        players,
        max_plies,
        nodes,
        nodes_a,
        nodes_b,
        seating,
        opening,
        verbose,
        moves,
    } = args;
    let kind = game_kind(&game)?;
    let search: Option<SearchKind> = search.map(|s| s.parse()).transpose()?;
    let (a, b): (Level, Level) = (a.parse()?, b.parse()?);
    let side = |s: Option<String>, level: Level| -> anyhow::Result<SearchKind> {
        Ok(match s {
            Some(s) => s.parse()?,
            None => search.unwrap_or(default_search(kind, level)),
        })
    };
    let (a, b) = (
        Bot {
            level: a,
            search: side(search_a, a)?,
            weights: weights_arg("--weights-a", weights_a, a)?,
            nodes: nodes_arg("--nodes-a", nodes_a)?,
        },
        Bot {
            level: b,
            search: side(search_b, b)?,
            weights: weights_arg("--weights-b", weights_b, b)?,
            nodes: nodes_arg("--nodes-b", nodes_b)?,
        },
    );
    let seating: tournament::Seating = seating.parse()?;
    if games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    if from == 0 {
        anyhow::bail!("--from counts games from 1");
    }
    if max_plies == Some(0) {
        anyhow::bail!("--max-plies must be at least 1");
    }
    let max_plies = max_plies.unwrap_or_else(|| tournament::default_max_plies(kind));
    if opening >= max_plies {
        anyhow::bail!("--opening ({opening}) must be below the ply cap ({max_plies})");
    }
    let spec = Spec {
        kind,
        players,
        a,
        b,
        games,
        first: from - 1,
        seed,
        max_plies,
        limits: Limits {
            nodes: nodes_arg("--nodes", nodes)?,
            deadline: None,
        },
        seating,
        opening,
    };
    tournament_verb(&spec, verbose, moves)
}

/// `ai tournament`: one line per game on stderr as it ends (`--verbose`, `--moves`), the table
/// on stdout.
fn tournament_verb(
    spec: &hexmeros::ai::tournament::Spec,
    verbose: bool,
    moves: bool,
) -> anyhow::Result<String> {
    use hexmeros::ai::tournament::{self, Bot, Spec, Tally};
    let &Spec {
        kind,
        a,
        b,
        seed,
        players,
        seating,
        opening,
        ..
    } = spec;
    let start = std::time::Instant::now();
    let report = tournament::run(spec, &mut || stamp(start), &mut |i, rec| {
        if verbose {
            let result = match &rec.outcome {
                Some(o) => format!("{o:?}"),
                None if rec.capped => "capped: a draw".to_string(),
                None => "decided: one side left".to_string(),
            };
            let places: Vec<String> = rec
                .bots
                .iter()
                .zip(&rec.places)
                .map(|(bot, p)| format!("{} {p}", bot.name()))
                .collect();
            eprintln!(
                "game {}: {} plies ({} rounds), {result}; places by seat: {}",
                i + 1,
                rec.plies,
                rec.rounds,
                places.join(", ")
            );
        }
        if moves {
            eprintln!("game {} moves: {}", i + 1, rec.moves.join(" "));
        }
    })?;
    // The same bot on both sides: its rows tell the two sets of seats apart.
    let label = |bot: Bot, side: &str| {
        if a == b {
            format!("{} {side}", bot.name())
        } else {
            bot.name()
        }
    };
    let row = |name: String, t: &Tally| {
        let n = (t.wins + t.draws + t.losses).max(1) as f64;
        format!(
            "{:<15} {:>5.1}% {:>5.1}% {:>5.1}%  {:>5.2}  {:>10.1} {:>10.1} {:>10.1}",
            name,
            100.0 * t.wins as f64 / n,
            100.0 * t.draws as f64 / n,
            100.0 * t.losses as f64 / n,
            t.average_place(),
            ms(t.average_time().cpu),
            ms(t.max_time.cpu),
            ms(t.max_time.wall),
        )
    };
    let seats = players.unwrap_or(kind.players().1);
    let table = match (seats > 2, seating) {
        (false, _) => "colours alternated",
        (true, tournament::Seating::Alternate) => "alternate seats",
        (true, tournament::Seating::Lone) => "A in one seat",
    };
    let table = if opening > 0 {
        format!("{table}, {opening} random plies first")
    } else {
        table.to_string()
    };
    let mut out = format!(
        "{} ({seats} seats, {table}): {} vs {}, {} games, seed {seed}, {} capped at {} plies, {:.0} plies/game, {:.1} s\n",
        kind.name(),
        a.name(),
        b.name(),
        report.games,
        report.capped,
        spec.max_plies,
        report.plies as f64 / report.games.max(1) as f64,
        start.elapsed().as_secs_f64(),
    );
    out.push_str("bot               win   draw   loss  place  avg cpu ms max cpu ms max wall ms\n");
    out.push_str(&row(label(a, "A"), &report.a));
    out.push('\n');
    out.push_str(&row(label(b, "B"), &report.b));
    // Three or more seats: each side's place in each seat it sat in (Silver, Blue, ...).
    if seats > 2 {
        let table = AnyGame::new(kind, players, None)?;
        for (name, t) in [(label(a, "A"), &report.a), (label(b, "B"), &report.b)] {
            let by_seat: Vec<String> = t
                .place_by_seat()
                .iter()
                .enumerate()
                .filter_map(|(s, p)| {
                    let (place, n) = (*p)?;
                    let seat = table.seat_name(hexmeros::games::Seat(s as u8));
                    Some(format!("{seat} {place:.2} ({n})"))
                })
                .collect();
            out.push_str(&format!("\n{name} place by seat: {}", by_seat.join(", ")));
        }
    }
    let (median_plies, median_rounds) = report.median_length();
    out.push_str(&format!(
        "\ngames: {} won, {} drawn ({} of them abandoned, deadlocked), {} capped, {} stopped with one side left; median {median_plies} plies, {median_rounds} rounds",
        report.games - report.drawn - report.capped - report.decided,
        report.drawn,
        report.abandoned,
        report.capped,
        report.decided,
    ));
    Ok(out)
}

/// `ai tune`: one line per iteration on stderr as it ends, the final weights on stdout.
fn tune(spec: hexmeros::ai::tune::TuneSpec) -> anyhow::Result<String> {
    if spec.level < hexmeros::ai::Level::Normal {
        anyhow::bail!("--level must be normal or hard: the weights are the searching levels'");
    }
    if !(spec.gain.is_finite() && spec.gain > 0.0) {
        anyhow::bail!("--gain must be a number above 0");
    }
    if spec.max_plies == 0 {
        anyhow::bail!("--max-plies must be at least 1");
    }
    let start = std::time::Instant::now();
    let terms = spec.terms.clone();
    let w = hexmeros::ai::tune::tune(&spec, &mut || stamp(start), &mut |it| {
        let now: Vec<String> = terms
            .iter()
            .map(|t| format!("{t}={}", it.weights.get(t).unwrap_or_default()))
            .collect();
        eprintln!(
            "iteration {}: plus {:.2}, minus {:.2} (average place), {} capped of {}; now {} ({:.0} s)",
            it.number,
            it.report.a.average_place(),
            it.report.b.average_place(),
            it.report.capped,
            it.report.games,
            now.join(","),
            start.elapsed().as_secs_f64(),
        );
    })?;
    Ok(w.to_string())
}

/// A `--weights-*` option: HexiMeros evaluation weights over the level's (None: not given, so
/// the level's own).
fn weights_arg(
    option: &str,
    text: Option<String>,
    level: hexmeros::ai::Level,
) -> anyhow::Result<Option<hexmeros::ai::Weights>> {
    let Some(text) = text else {
        return Ok(None);
    };
    hexmeros::ai::Weights::for_level(level)
        .with_pairs(&text)
        .map(Some)
        .map_err(|e| anyhow::anyhow!("{option} {text:?}: {e}"))
}

/// A node budget given on the command line: at least one node, or the search has nothing to
/// play.
fn nodes_arg(option: &str, nodes: Option<u64>) -> anyhow::Result<Option<u64>> {
    match nodes {
        Some(0) => anyhow::bail!("{option} must be at least 1"),
        n => Ok(n),
    }
}

/// `ai budget`: the slowest move of each level in each game's busiest middle game.
#[allow(clippy::too_many_arguments)] // the verb's options, passed straight through
fn budget(
    game: Option<String>,
    players: Option<usize>,
    position: Option<String>,
    levels: &str,
    seeds: u32,
    playouts: u32,
    seed: u64,
    capped: bool,
    search: Option<hexmeros::ai::SearchKind>,
) -> anyhow::Result<String> {
    use hexmeros::ai::tournament;
    use hexmeros::ai::{Level, Limits, default_search};
    if seeds == 0 {
        anyhow::bail!("--seeds must be at least 1");
    }
    let levels = levels
        .split(',')
        .map(str::parse)
        .collect::<Result<Vec<Level>, _>>()?;
    let kinds = match (&game, &position) {
        (Some(g), _) => vec![game_kind(g)?],
        (None, None) => GameKind::ALL.to_vec(),
        (None, Some(_)) => Vec::new(),
    };
    let mut positions = Vec::new();
    if position.is_some() {
        let g = load(&PositionArg {
            position,
            game: "heximeros".into(),
        })?;
        let n = g.legal_moves().len();
        positions.push((g, n));
    } else {
        for kind in kinds {
            let (plies, skip) = match kind {
                GameKind::HexiMeros | GameKind::Harmegedo => (160, 30),
                _ => (120, 16),
            };
            positions.push(tournament::busiest(
                kind, players, seed, playouts, skip, plies,
            )?);
        }
    }
    let start = std::time::Instant::now();
    let mut out = String::from(
        "game       seats moves level   search   depth  max nodes avg cpu ms max cpu ms max wall ms cap ms\n",
    );
    for (g, n) in &positions {
        for &level in &levels {
            let mut limits = || {
                if capped {
                    Limits::within(level, std::time::Instant::now())
                } else {
                    Limits::default()
                }
            };
            let search = search.unwrap_or(default_search(g.kind(), level));
            let t =
                tournament::time_moves(g, level, search, seeds, &mut limits, &mut || stamp(start))?;
            // Two seats search plain alpha-beta whatever is asked.
            let kind = if g.seat_count() > 2 {
                search.key()
            } else {
                "-"
            };
            out.push_str(&format!(
                "{:<10} {:>5} {:>5} {:<7} {:<8} {:>5} {:>10} {:>10.1} {:>10.1} {:>11.1} {:>6}\n",
                g.kind().key(),
                g.seat_count(),
                n,
                level.key(),
                kind,
                t.min_depth,
                t.max_nodes,
                ms(t.total.per(t.moves as u64).cpu),
                ms(t.max.cpu),
                ms(t.max.wall),
                level.time_cap().as_millis(),
            ));
        }
    }
    Ok(out)
}

/// The clocks lent to the tournament harness: wall time since `start` and this thread's CPU
/// time (zero where the platform cannot tell, which only blanks that column).
fn stamp(start: std::time::Instant) -> hexmeros::ai::tournament::Stamp {
    hexmeros::ai::tournament::Stamp {
        wall: start.elapsed(),
        cpu: cpu_time::ThreadTime::try_now()
            .map(|t| t.as_duration())
            .unwrap_or_default(),
    }
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
