//! The search shared by every game: iterative-deepening alpha-beta over `Rules`, with a short
//! capture quiescence at the leaves and a node budget.
//!
//! Scores are always from the bot's own seat (`me`): the bot maximises at its own turns and every
//! other seat minimises. For two players that is plain minimax; for three to six it is *paranoid*
//! search (all opponents assumed to gang up), which is cheap and safe at the shallow depths a
//! 649-cell board allows. The evaluations add each game's threat knowledge so the horizon hurts
//! less. Bonus actions (Hexmeister) need nothing special: whoever is to move decides.
//!
//! A game may opt in to three more things (`Engine::prune`, `KILLERS`, `repeats`): selective
//! search below the root, killer moves, and scoring a repeated position as a draw. Only Hexmeister
//! does, whose 400-odd moves a ply otherwise stop the search at two plies.
//!
//! Determinism: the only limits inside are the depth and the node count. An optional wall-clock
//! deadline may be passed in from outside; hitting it makes the answer depend on the machine, so
//! callers wanting reproducible play leave it `None`.

use std::collections::HashMap;
use std::hash::Hash;
use std::time::Instant;

use super::SearchKind;
use super::rng::Rng;
use super::tt::{Probe, Table};
use crate::games::{Outcome, Rules, Seat};

/// A won game, minus the plies it took, so sooner wins score higher.
pub(crate) const WIN: i32 = 1_000_000;
const INF: i32 = i32::MAX / 2;

/// What a game adds to the generic search.
pub(crate) trait Engine: Rules {
    /// Plies of captures searched past the nominal depth (0 turns quiescence off).
    fn quiescence(&self) -> u32;

    /// The static value of the position for `me`: higher is better. Never called on a finished
    /// game.
    fn evaluate(&self, me: Seat) -> i32;

    /// Move-ordering hint, higher first. A positive hint marks a *noisy* move (a capture or a
    /// promotion), the only ones quiescence follows.
    fn hint(&self, m: &Self::Move) -> i32;

    /// Drop moves not worth searching below the root (selective search). The root always sees
    /// every move; by default nothing is dropped.
    fn prune(&self, _moves: &mut Vec<Self::Move>) {}

    /// Whether this position (below the root) repeats one met before under a repetition draw
    /// rule. The search scores it as the draw it can become, as chess engines do: the side
    /// ahead then looks for new positions and the side behind for old ones. Never by default.
    fn repeats(&self) -> bool {
        false
    }

    /// What a draw that `me` shares with `seats` (itself among them) is worth to it, on the
    /// evaluation's scale. 0 by default: the two-seat games score even positions near 0.
    fn draw_score(&self, _seats: &[Seat], _me: Seat) -> i32 {
        0
    }

    /// A pass for the seat to move, if the game has one: what an opponent who does not make
    /// the reply plays in Best-Reply Search (Schadd & Winands' null move). Without one such
    /// an opponent plays its default move instead (BRS+). None by default.
    fn null_move(&self) -> Option<Self::Move> {
        None
    }

    /// The move a greedy opponent who does not reply plays in Best-Reply Search+
    /// ([`non_reply`]): its legal move (pruned) with the highest positive hint, the first
    /// generated among equals, if any. A game may find it without generating every legal move.
    fn best_capture(&self) -> Option<Self::Move> {
        let mut all = self.legal_moves();
        self.prune(&mut all);
        best_hinted(self, &all)
    }

    /// A 64-bit key of the position, the seat to move included, for the transposition table
    /// of the search of three or more seats ([`super::tt`]). None (the default): no table.
    fn tt_key(&self) -> Option<u64> {
        None
    }

    /// A bonus (or, negative, a charge) for `me` on the position after a root move, added to
    /// that move's searched score at every depth: for a term too costly to evaluate at every
    /// leaf. Nothing by default.
    fn root_bias(&self, _me: Seat) -> i32 {
        0
    }

    /// Whether quiet moves that cut the search off are tried first at the same ply elsewhere in
    /// the tree (killer moves). Off by default, so the games tuned without it play as before.
    const KILLERS: bool = false;
}

/// How far one search may go.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    pub depth: u32,
    pub nodes: u64,
    pub deadline: Option<Instant>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub(crate) struct Found<M> {
    pub best: M,
    pub score: i32,
    /// The deepest fully searched depth (0: the move came from the static ordering alone).
    pub depth: u32,
    pub nodes: u64,
    /// Nodes answered from the transposition table without a search.
    pub tt_hits: u64,
}

/// The score of the finished position `g` (its outcome `outcome`) for `me`, `ply` plies below
/// the root: a win or loss sooner rather than later, a shared draw as the game values it
/// ([`Engine::draw_score`]).
pub(crate) fn terminal<G: Engine>(g: &G, outcome: &Outcome, me: Seat, ply: u32) -> i32 {
    match outcome {
        Outcome::Win { winners, .. } if winners.contains(&me) => WIN - ply as i32,
        Outcome::Win { .. } => -WIN + ply as i32,
        Outcome::Draw { seats, .. } if seats.contains(&me) => g.draw_score(seats, me),
        Outcome::Draw { .. } => -WIN + ply as i32,
    }
}

pub(crate) struct Searcher<M> {
    me: Seat,
    nodes: u64,
    budget: Budget,
    stopped: bool,
    /// The node count at which the deadline (if any) is next compared with the clock.
    next_clock_check: u64,
    /// Per ply, the last two quiet moves that caused a cut-off there (when the game asks).
    killers: Vec<[Option<M>; 2]>,
    /// Best-Reply Search only: per quiet move, how much it has cut the search off (the history
    /// heuristic), to order quiet moves after the killers.
    history: HashMap<M, u32>,
    /// The transposition table, when the search keeps one (three or more seats, a game with
    /// [`Engine::tt_key`]).
    tt: Option<Table<M>>,
    /// Best-Reply Search: the opponents who do not reply take their best capture when they
    /// have one ([`SearchKind::BrsPlus`]) rather than pass.
    greedy: bool,
}

/// Nodes between two looks at the clock when a deadline is set.
const CLOCK_EVERY: u64 = 32;

impl<M: Clone + PartialEq> Searcher<M> {
    pub(crate) fn new(me: Seat, budget: Budget) -> Self {
        Searcher {
            me,
            nodes: 0,
            budget,
            stopped: false,
            next_clock_check: 0,
            killers: Vec::new(),
            history: HashMap::new(),
            tt: None,
            greedy: false,
        }
    }

    /// Look the node up in the transposition table: its key (None without a table or a key)
    /// and what the table says.
    fn tt_lookup<G: Engine<Move = M>>(
        &mut self,
        g: &G,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> (Option<u64>, Probe<M>) {
        let Some(t) = self.tt.as_mut() else {
            return (None, Probe::Search(None));
        };
        let Some(key) = g.tt_key() else {
            return (None, Probe::Search(None));
        };
        (Some(key), t.lookup(key, depth, ply, alpha, beta))
    }

    /// Keep a node's finding in the table, unless the budget cut its search short.
    #[allow(clippy::too_many_arguments)] // one node's findings, passed as they are
    fn tt_store(
        &mut self,
        key: Option<u64>,
        depth: u32,
        ply: u32,
        alpha0: i32,
        beta0: i32,
        score: i32,
        best: Option<M>,
    ) {
        if self.stopped || score.abs() >= INF {
            return;
        }
        if let (Some(k), Some(t)) = (key, self.tt.as_mut()) {
            t.store(k, depth, ply, alpha0, beta0, score, best);
        }
    }

    /// Bring the table's move, if legal here, to the front.
    fn tt_first(moves: &mut Vec<M>, tt_move: Option<M>) {
        if let Some(m) = tt_move
            && let Some(i) = moves.iter().position(|x| *x == m)
        {
            let m = moves.remove(i);
            moves.insert(0, m);
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.budget.nodes {
            self.stopped = true;
        } else if let Some(d) = self.budget.deadline
            && self.nodes >= self.next_clock_check
        {
            // Reading the clock costs little next to a HexiMeros evaluation, but a check per
            // node would still show in the cheap games; leaves count nodes without coming
            // here, so the check is due by count, not on exact multiples.
            self.next_clock_check = self.nodes + CLOCK_EVERY;
            self.stopped = Instant::now() >= d;
        }
        self.stopped
    }

    fn ordered<G: Engine<Move = M>>(g: &G, moves: &mut [M]) {
        // Stable: equal hints keep the caller's (seeded) order.
        moves.sort_by_cached_key(|m| -g.hint(m));
    }

    /// Bring this ply's killer moves, where legal here, to just after the noisy moves.
    pub(crate) fn killers_first<G: Engine<Move = M>>(&self, g: &G, moves: &mut Vec<M>, ply: u32) {
        let Some(ks) = self.killers.get(ply as usize) else {
            return;
        };
        let front = moves.iter().take_while(|m| g.hint(m) > 0).count();
        for k in ks.iter().rev().flatten() {
            if let Some(i) = moves[front..].iter().position(|m| m == k) {
                let m = moves.remove(front + i);
                moves.insert(front, m);
            }
        }
    }

    pub(crate) fn remember_killer(&mut self, m: &M, ply: u32) {
        let p = ply as usize;
        if self.killers.len() <= p {
            self.killers.resize(p + 1, [None, None]);
        }
        let slot = &mut self.killers[p];
        if slot[0].as_ref() != Some(m) {
            slot[1] = slot[0].take();
            slot[0] = Some(m.clone());
        }
    }

    /// Count a node and score it at once if it is settled: the game over, a repetition (a draw),
    /// or nobody to move; otherwise the seat to move.
    fn enter<G: Engine<Move = M>>(&mut self, g: &G, ply: u32) -> Result<Seat, i32> {
        self.nodes += 1;
        if let Some(o) = g.outcome() {
            return Err(terminal(g, &o, self.me, ply));
        }
        if g.repeats() {
            return Err(0);
        }
        g.to_move().ok_or_else(|| g.evaluate(self.me))
    }

    pub(crate) fn alphabeta<G: Engine<Move = M>>(
        &mut self,
        g: &G,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: u32,
    ) -> i32 {
        let to = match self.enter(g, ply) {
            Ok(to) => to,
            Err(score) => return score,
        };
        if depth == 0 {
            return self.quiesce(g, alpha, beta, ply, g.quiescence());
        }
        if self.out_of_budget() {
            return g.evaluate(self.me);
        }
        let (alpha0, beta0) = (alpha, beta);
        let (key, tt_move) = match self.tt_lookup(g, depth, ply, alpha, beta) {
            (_, Probe::Cut(v)) => return v,
            (key, Probe::Search(m)) => (key, m),
        };
        let mut moves = g.legal_moves();
        g.prune(&mut moves);
        Self::ordered(g, &mut moves);
        if G::KILLERS {
            self.killers_first(g, &mut moves, ply);
        }
        Self::tt_first(&mut moves, tt_move);
        let maximising = to == self.me;
        let mut best = if maximising { -INF } else { INF };
        let mut best_move = None;
        for m in &moves {
            let mut child = g.clone();
            child.play_unchecked(m);
            let v = self.alphabeta(&child, depth - 1, alpha, beta, ply + 1);
            if (maximising && v > best) || (!maximising && v < best) {
                best = v;
                best_move = Some(m);
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                if G::KILLERS && !self.stopped && g.hint(m) <= 0 {
                    self.remember_killer(m, ply);
                }
                break;
            }
            if self.stopped {
                break;
            }
        }
        self.tt_store(key, depth, ply, alpha0, beta0, best, best_move.cloned());
        best
    }

    fn quiesce<G: Engine<Move = M>>(
        &mut self,
        g: &G,
        mut alpha: i32,
        mut beta: i32,
        ply: u32,
        left: u32,
    ) -> i32 {
        let stand = g.evaluate(self.me);
        if left == 0 || self.out_of_budget() {
            return stand;
        }
        let Some(to) = g.to_move() else {
            return stand;
        };
        let maximising = to == self.me;
        // Standing pat: the side to move may decline every capture.
        if maximising {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        let mut moves: Vec<G::Move> = g
            .legal_moves()
            .into_iter()
            .filter(|m| g.hint(m) > 0)
            .collect();
        Self::ordered(g, &mut moves);
        let mut best = stand;
        for m in &moves {
            self.nodes += 1;
            let mut child = g.clone();
            child.play_unchecked(m);
            let v = match child.outcome() {
                Some(o) => terminal(&child, &o, self.me, ply + 1),
                None => self.quiesce(&child, alpha, beta, ply + 1, left - 1),
            };
            if maximising {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta || self.stopped {
                break;
            }
        }
        best
    }
}

impl<M: Clone + Eq + Hash> Searcher<M> {
    /// Best-Reply Search (Schadd & Winands, 2011) for three or more seats: between two turns of
    /// the bot, exactly one opponent's moves are searched, all of them, the one that does the
    /// bot the most harm counting; every other opponent of that layer passes
    /// ([`Engine::null_move`]) or, in a game without a pass, plays its *default* move (its best
    /// capture, else the first move generated: see [`default_move`]; the BRS+ form of Esser et
    /// al., 2013). A layer of opponents therefore
    /// costs one ply of depth, not one per opponent, and the bot's own plans are searched
    /// deeper than in the paranoid tree, where every opponent gangs up on it in turn.
    ///
    /// `replied`: an opponent of the current layer has already made the searched reply, so the
    /// seat to move (if an opponent) plays its default move without branching or using depth.
    /// Quiet moves that cut the search off are remembered as killers and in a history table,
    /// and tried early elsewhere.
    pub(crate) fn brs<G: Engine<Move = M>>(
        &mut self,
        g: &G,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: u32,
        replied: bool,
    ) -> i32 {
        let to = match self.enter(g, ply) {
            Ok(to) => to,
            Err(score) => return score,
        };
        // A layer whose reply is made is played out to the bot's turn (the others pass or play
        // their default moves) before the leaf is scored, so every leaf past a reply is scored with the bot to
        // move: the evaluations weigh threats by who moves next, and leaves scored with
        // different seats to move do not compare.
        let finishing = replied && to != self.me;
        if depth == 0 && !finishing {
            return self.quiesce(g, alpha, beta, ply, g.quiescence());
        }
        if self.out_of_budget() {
            return g.evaluate(self.me);
        }
        if finishing {
            // Not the searched reply: the seats left in the layer pass, or play their default
            // moves, up to the bot's turn. At most one round of them: a bot knocked out in the
            // layer never moves again, and the position is then scored as it stands.
            let mut pos = g.clone();
            let mut plies = 0;
            for _ in 0..g.seat_count() {
                match pos.to_move() {
                    Some(t) if t != self.me && pos.outcome().is_none() => {}
                    _ => break,
                }
                let Some(m) = non_reply(&pos, None, self.greedy) else {
                    break;
                };
                pos.play_unchecked(&m);
                self.nodes += 1;
                plies += 1;
            }
            if pos.to_move() != Some(self.me) && pos.outcome().is_none() {
                return pos.evaluate(self.me);
            }
            return self.brs(&pos, depth, alpha, beta, ply + plies, false);
        }
        // Past the `finishing` branch `replied` is false or the bot is to move, where it plays
        // no part: the node's score depends on the position alone, the table's key.
        let (alpha0, beta0) = (alpha, beta);
        let (key, tt_move) = match self.tt_lookup(g, depth, ply, alpha, beta) {
            (_, Probe::Cut(v)) => return v,
            (key, Probe::Search(m)) => (key, m),
        };
        let mut moves = g.legal_moves();
        g.prune(&mut moves);
        let fallback = if to == self.me {
            None
        } else {
            non_reply(g, Some(&moves), self.greedy)
        };
        self.brs_order(g, &mut moves, ply);
        Self::tt_first(&mut moves, tt_move);
        let maximising = to == self.me;
        let mut best = if maximising { -INF } else { INF };
        let mut best_move = None;
        let mut settled = false;
        for m in &moves {
            let child = after(g, m);
            let v = self.brs(&child, depth - 1, alpha, beta, ply + 1, !maximising);
            if (maximising && v > best) || (!maximising && v < best) {
                best = v;
                best_move = Some(m);
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                self.cut(g, m, ply, depth);
                settled = true;
                break;
            }
            if self.stopped {
                return best;
            }
        }
        // Or the reply is left to a later opponent of this layer: this one passes or plays its
        // default move. (The last opponent before the bot cannot leave it: one of them replies.)
        if !settled && let Some(m) = fallback {
            let child = after(g, &m);
            if child.outcome().is_none() && child.to_move().is_some_and(|t| t != self.me) {
                let v = self.brs(&child, depth, alpha, beta, ply + 1, false);
                best = best.min(v);
            }
        }
        self.tt_store(key, depth, ply, alpha0, beta0, best, best_move.cloned());
        best
    }

    /// Noisy moves first (by hint), then this ply's killers, then quiet moves by history.
    fn brs_order<G: Engine<Move = M>>(&self, g: &G, moves: &mut Vec<M>, ply: u32) {
        moves.sort_by_cached_key(|m| {
            let h = g.hint(m);
            let hist = if h > 0 {
                0
            } else {
                self.history.get(m).copied().unwrap_or(0)
            };
            (-h, std::cmp::Reverse(hist))
        });
        self.killers_first(g, moves, ply);
    }

    fn cut<G: Engine<Move = M>>(&mut self, g: &G, m: &M, ply: u32, depth: u32) {
        if self.stopped || g.hint(m) > 0 {
            return;
        }
        self.remember_killer(m, ply);
        *self.history.entry(m.clone()).or_insert(0) += depth * depth;
    }
}

/// The move of an opponent who does not make the searched reply of its Best-Reply Search
/// layer: its best capture when `greedy` ([`SearchKind::BrsPlus`]) and it has one, else a pass
/// ([`Engine::null_move`]), else its default move ([`default_move`]). `moves`: its legal moves,
/// pruned, when the caller has them (generated here only when needed).
pub(crate) fn non_reply<G: Engine>(
    g: &G,
    moves: Option<&[G::Move]>,
    greedy: bool,
) -> Option<G::Move> {
    if greedy {
        let capture = match moves {
            Some(all) => best_hinted(g, all),
            None => g.best_capture(),
        };
        if capture.is_some() {
            return capture;
        }
    }
    if let Some(m) = g.null_move() {
        return Some(m);
    }
    match moves {
        Some(all) => default_move(g, all),
        None => {
            let mut all = g.legal_moves();
            g.prune(&mut all);
            default_move(g, &all)
        }
    }
}

/// The move of `moves` with the highest positive hint (the first among equals), if any.
pub(crate) fn best_hinted<G: Engine>(g: &G, moves: &[G::Move]) -> Option<G::Move> {
    default_move(g, moves).filter(|m| g.hint(m) > 0)
}

/// The move a non-replying opponent plays in Best-Reply Search: its most valuable capture (the
/// highest positive hint, the first generated among equals), else its first move generated. A
/// fixed, cheap choice: no search, and the same in every line.
fn default_move<G: Engine>(g: &G, moves: &[G::Move]) -> Option<G::Move> {
    crate::games::first_best(moves, |m| g.hint(m)).map(|(_, m)| m.clone())
}

fn after<G: Rules>(g: &G, m: &G::Move) -> G {
    let mut c = g.clone();
    c.play_unchecked(m);
    c
}

/// Search `root` (the moves to consider, in the caller's seeded order) for `me`, deepening one
/// ply at a time until the depth or the node budget runs out. The move of the last completed
/// depth is returned, or a better one found by a partial deeper pass (its first move is the
/// previous best, so anything that beats it there is a real improvement).
///
/// `kind` chooses the tree below the root: paranoid alpha-beta, or Best-Reply Search (see
/// [`Searcher::brs`]). The root, the iterative deepening and the budget are the same.
pub(crate) fn search<G: Engine>(
    g: &G,
    me: Seat,
    root: Vec<G::Move>,
    budget: Budget,
    kind: SearchKind,
) -> Option<Found<G::Move>> {
    search_with(g, me, root, budget, kind, true)
}

/// [`search`], with the transposition table (`table`) on or off. The table is kept only with
/// three or more seats and a game that gives its positions a key ([`Engine::tt_key`]): the
/// two-seat games search exactly as they were tuned.
pub(crate) fn search_with<G: Engine>(
    g: &G,
    me: Seat,
    mut root: Vec<G::Move>,
    budget: Budget,
    kind: SearchKind,
    table: bool,
) -> Option<Found<G::Move>> {
    Searcher::<G::Move>::ordered(g, &mut root);
    let first = root.first()?.clone();
    let mut found = Found {
        best: first,
        score: 0,
        depth: 0,
        nodes: 0,
        tt_hits: 0,
    };
    if root.len() == 1 {
        return Some(found);
    }
    let children: Vec<G> = root
        .iter()
        .map(|m| {
            let mut c = g.clone();
            c.play_unchecked(m);
            c
        })
        .collect();
    // Asked before the search and not counted in its nodes, so a deadline already passed
    // (a loaded machine) leaves the rest of the root uncharged rather than late.
    let bias: Vec<i32> = children
        .iter()
        .map(|c| {
            let late = budget.deadline.is_some_and(|d| Instant::now() >= d);
            if late || c.outcome().is_some() {
                0
            } else {
                c.root_bias(me)
            }
        })
        .collect();
    let mut order: Vec<usize> = (0..root.len()).collect();
    let mut s = Searcher::new(me, budget);
    s.greedy = kind == SearchKind::BrsPlus;
    if table && g.seat_count() > 2 && g.tt_key().is_some() {
        s.tt = Some(Table::new(budget.nodes));
    }
    for depth in 1..=budget.depth.max(1) {
        let mut alpha = -INF;
        let mut best: Option<usize> = None;
        let mut scores: Vec<(usize, i32)> = Vec::with_capacity(order.len());
        for &i in &order {
            // The child is searched for its own score above what the bias leaves to beat.
            let floor = alpha.saturating_sub(bias[i]).max(-INF);
            let v = match kind {
                SearchKind::Paranoid => s.alphabeta(&children[i], depth - 1, floor, INF, 1),
                // Wary is resolved to one of the others before a search ([`SearchKind::tree`]).
                SearchKind::Brs | SearchKind::BrsPlus | SearchKind::Wary => {
                    s.brs(&children[i], depth - 1, floor, INF, 1, false)
                }
            }
            .saturating_add(bias[i]);
            if s.stopped {
                break;
            }
            scores.push((i, v));
            if v > alpha {
                alpha = v;
                best = Some(i);
            }
        }
        if let Some(b) = best
            && (!s.stopped || b != order[0])
        {
            found.best = root[b].clone();
            found.score = alpha;
            if !s.stopped {
                found.depth = depth;
            }
        }
        if s.stopped {
            break;
        }
        // Next pass: best first, then by this pass's scores (failed-low moves keep their order).
        scores.sort_by_key(|&(_, v)| -v);
        order = scores.into_iter().map(|(i, _)| i).collect();
        if alpha >= WIN - 1000 || alpha <= -WIN + 1000 {
            break; // a forced result: deeper search changes nothing worth the time
        }
    }
    found.nodes = s.nodes;
    found.tt_hits = s.tt.as_ref().map_or(0, |t| t.hits);
    Some(found)
}

/// The easy level: one ply plus the captures that follow, with noise large enough that it often
/// plays a second-best move, but not so large that it leaves a queen hanging on purpose.
pub(crate) fn greedy<G: Engine>(
    g: &G,
    me: Seat,
    root: Vec<G::Move>,
    noise: i32,
    rng: &mut Rng,
) -> Option<Found<G::Move>> {
    let mut s = Searcher::new(
        me,
        Budget {
            depth: 1,
            nodes: 20_000,
            deadline: None,
        },
    );
    let mut best: Option<(i32, G::Move)> = None;
    for m in root {
        let mut c = g.clone();
        c.play_unchecked(&m);
        let v = match c.outcome() {
            Some(o) => terminal(&c, &o, me, 1),
            None => s.quiesce(&c, -INF, INF, 1, c.quiescence().min(2)),
        };
        let v = v.saturating_add(rng.below(noise.max(1) as u64) as i32);
        if best.as_ref().is_none_or(|(b, _)| v > *b) {
            best = Some((v, m));
        }
    }
    best.map(|(score, best)| Found {
        best,
        score,
        depth: 1,
        nodes: s.nodes,
        tt_hits: 0,
    })
}
