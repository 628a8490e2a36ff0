//! The HexiMeros evaluation tuner behind `hexmeros ai tune`: self-play with SPSA (simultaneous
//! perturbation stochastic approximation, Spall 1992), the way chess engines tune their terms
//! by playing games rather than by fitting positions.
//!
//! Each iteration perturbs every tuned term at once by one step, up or down by a seeded coin:
//! side A plays the weights plus the perturbation, side B minus it, in alternate seats (three
//! against three, shifted every game). The side that finished higher on average pulls the
//! weights its way: each term moves by `gain` steps times the difference of the two sides'
//! average places, divided by the greatest difference there can be. A step is a fraction of the
//! term's size (at least 1), so large and small terms move alike.

use super::rng::Rng;
use super::tournament::{self, Bot, Report, Spec};
use super::{AiError, Level, Limits, SearchKind, Weights};
use crate::games::GameKind;

/// What to tune and how.
#[derive(Clone, Debug)]
pub struct TuneSpec {
    /// The starting weights.
    pub start: Weights,
    /// The terms to tune (names of [`Weights::TERMS`]); the others stay as they start.
    pub terms: Vec<String>,
    pub level: Level,
    pub search: SearchKind,
    pub iterations: u32,
    /// Games per iteration (each plays both sides).
    pub games: u32,
    pub seed: u64,
    /// A step, in hundredths of a term's size (a term of 0 steps by 1).
    pub step_percent: u32,
    /// How many steps the winning side's result moves the weights at most.
    pub gain: f64,
    pub max_plies: u32,
    pub limits: Limits,
}

/// One iteration's games and where they left the weights.
#[derive(Clone, Debug)]
pub struct Iteration {
    /// From 1.
    pub number: u32,
    pub plus: Weights,
    pub minus: Weights,
    pub report: Report,
    /// The weights after this iteration.
    pub weights: Weights,
}

/// How far the term `value` steps: `percent` hundredths of its size, at least 1.
pub fn step_of(value: i64, percent: u32) -> i64 {
    (value.saturating_abs().saturating_mul(i64::from(percent)) / 100).max(1)
}

/// `w` with the term `name` moved by `by`, kept within its [`Weights::range`].
fn moved(w: &Weights, name: &str, by: i64) -> Result<Weights, AiError> {
    let mut out = *w;
    let v = w
        .get(name)
        .ok_or_else(|| AiError::Position(format!("unknown term {name:?}")))?;
    let range = Weights::range(name);
    let target = v.saturating_add(by).clamp(*range.start(), *range.end());
    out.set(name, target).map_err(AiError::Position)?;
    Ok(out)
}

/// The SPSA update: each term moves `gain × result × step × sign` (rounded), where `result` is in
/// −1..=1, positive when the plus side did better.
pub fn update(
    w: &Weights,
    terms: &[(String, i64, i64)],
    result: f64,
    gain: f64,
) -> Result<Weights, AiError> {
    let mut out = *w;
    for (name, step, sign) in terms {
        let by = (gain * result * *step as f64 * *sign as f64).round() as i64;
        out = moved(&out, name, by)?;
    }
    Ok(out)
}

/// Run the tuner; `progress` hears about each iteration as it ends (the CLI prints it, so a
/// stopped run still has every finished iteration's weights). Returns the final weights.
pub fn tune(
    spec: &TuneSpec,
    clock: &mut dyn FnMut() -> tournament::Stamp,
    progress: &mut dyn FnMut(&Iteration),
) -> Result<Weights, AiError> {
    if spec.terms.is_empty() {
        return Err(AiError::Position("no term to tune".into()));
    }
    for t in &spec.terms {
        Weights::term(t).map_err(AiError::Position)?;
    }
    if spec.games == 0 || spec.iterations == 0 {
        return Err(AiError::Position(
            "the tuner needs at least one iteration of at least one game".into(),
        ));
    }
    let mut rng = Rng::new(spec.seed);
    let mut w = spec.start;
    for k in 0..spec.iterations {
        let mut plus = w;
        let mut minus = w;
        let mut signs = Vec::with_capacity(spec.terms.len());
        for name in &spec.terms {
            let v = w.get(name).unwrap_or_default();
            let step = step_of(v, spec.step_percent);
            let sign = if rng.below(2) == 0 { 1 } else { -1 };
            plus = moved(&plus, name, step * sign)?;
            minus = moved(&minus, name, -step * sign)?;
            signs.push((name.clone(), step, sign));
        }
        let side = |weights: Weights| Bot {
            level: spec.level,
            search: spec.search,
            weights: Some(weights),
            nodes: None,
        };
        let games = Spec {
            kind: GameKind::HexiMeros,
            players: None,
            a: side(plus),
            b: side(minus),
            games: spec.games,
            first: 0,
            seed: spec.seed.wrapping_add(u64::from(k) + 1),
            max_plies: spec.max_plies,
            limits: spec.limits,
            seating: tournament::Seating::Alternate,
            opening: 0,
        };
        let report = tournament::run(&games, clock, &mut |_, _| {})?;
        // Six seats, three a side: the average places differ by at most 3 (1, 2, 3 against
        // 4, 5, 6).
        let result = (report.b.average_place() - report.a.average_place()) / 3.0;
        w = update(&w, &signs, result, spec.gain)?;
        progress(&Iteration {
            number: k + 1,
            plus,
            minus,
            report,
            weights: w,
        });
    }
    Ok(w)
}
