//! Move generation and playing (`docs/rules/harmegedo.md` §4, §5): the pieces' moves on the ring board,
//! castling, the Bishop's Knight Manoeuvre, promotion, en passant and passing; king capture and
//! elimination; the turn order; and, under `check_rules`, the check filter and the loss of a king
//! with no legal move.
//!
//! Every kingdom's forward is the board's `Forward`, so generation needs no per-kingdom turning.

use super::board::Dir;
use super::{Harmegedo, Kind, NeutralPieces, Piece};
use crate::hex::Cell;

/// A Harmegedo move. Identity is (from, to, promotion): a space that a slide reaches both ways
/// round a ring rank is one move (§6-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Only when nothing else is legal (§5 "No legal move").
    Pass,
    /// A piece moves to an empty space or captures there; a pawn reaching the last rank names
    /// what it becomes.
    Normal {
        from: Cell,
        to: Cell,
        promotion: Option<Kind>,
    },
    /// The king moves two spaces along the rank towards an unmoved rook, which lands on the
    /// space the king passed.
    Castle {
        king_from: Cell,
        king_to: Cell,
        rook_from: Cell,
        rook_to: Cell,
    },
    /// The Bishop's Knight Manoeuvre: an unmoved bishop and the unmoved knight next to it swap.
    Manoeuvre { bishop: Cell, knight: Cell },
    /// A pawn takes a pawn that has just double-stepped past `to` (house rule `en_passant`).
    EnPassant {
        from: Cell,
        to: Cell,
        captured: Cell,
    },
}

impl Move {
    /// The space the moving piece starts on (the king for castling, the bishop for the
    /// manoeuvre); `None` for a pass.
    pub fn from(&self) -> Option<Cell> {
        match *self {
            Move::Pass => None,
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => Some(from),
            Move::Castle { king_from, .. } => Some(king_from),
            Move::Manoeuvre { bishop, .. } => Some(bishop),
        }
    }

    /// The space the moving piece ends on (the knight's space for the manoeuvre).
    pub fn to(&self) -> Option<Cell> {
        match *self {
            Move::Pass => None,
            Move::Normal { to, .. } | Move::EnPassant { to, .. } => Some(to),
            Move::Castle { king_to, .. } => Some(king_to),
            Move::Manoeuvre { knight, .. } => Some(knight),
        }
    }
}

impl Harmegedo {
    /// The legal moves of the kingdom to move: its pseudo-legal moves, less those that break
    /// `check_rules`; a lone `Pass` when none is left.
    pub(super) fn legal(&self) -> Vec<Move> {
        if self.outcome.is_some() || self.settled.is_some() {
            return Vec::new();
        }
        let mut v = Vec::with_capacity(64);
        self.pseudo_moves(self.to_move, &mut v);
        if self.house.check_rules {
            v.retain(|m| self.obeys_check_rules(self.to_move, m));
        }
        if v.is_empty() {
            v.push(Move::Pass);
        }
        v
    }

    /// Every move of kingdom `k` by §4 alone.
    pub(super) fn pseudo_moves(&self, k: u8, out: &mut Vec<Move>) {
        for c in self.occupied[k as usize].iter() {
            let Some(p) = Piece::from_code(self.squares[c.index()]) else {
                continue;
            };
            match p.kind {
                Kind::King => {
                    for d in Dir::ALL {
                        if let Some(t) = self.board.step(c, d) {
                            self.push_if_free(k, c, t, out);
                        }
                    }
                    if !p.moved {
                        self.castlings(k, c, out);
                    }
                }
                Kind::Queen => self.slides(k, c, &Dir::ALL, out),
                Kind::Rook => self.slides(k, c, &Dir::ORTHOGONAL, out),
                Kind::Bishop => {
                    self.slides(k, c, &Dir::DIAGONAL, out);
                    if !p.moved {
                        for d in [Dir::Left, Dir::Right] {
                            if let Some(n) = self.board.step(c, d)
                                && let Some(q) = Piece::from_code(self.squares[n.index()])
                                && q.kingdom == k
                                && q.kind == Kind::Knight
                                && !q.moved
                            {
                                out.push(Move::Manoeuvre {
                                    bishop: c,
                                    knight: n,
                                });
                            }
                        }
                    }
                }
                Kind::Knight => {
                    for &t in self.board.knight_targets(c) {
                        self.push_if_free(k, c, t, out);
                    }
                }
                Kind::Pawn => self.pawn_moves(k, c, p, out),
            }
        }
    }

    /// A one-step move to `t` if it is empty or holds a piece `k` may capture.
    fn push_if_free(&self, k: u8, from: Cell, t: Cell, out: &mut Vec<Move>) {
        let code = self.squares[t.index()];
        if code == 0 || Piece::from_code(code).is_some_and(|q| self.can_capture(k, q.kingdom)) {
            out.push(Move::Normal {
                from,
                to: t,
                promotion: None,
            });
        }
    }

    /// Slides in `dirs`. Along a ring rank the two ways round meet: if the right-hand slide meets
    /// no piece it has covered the whole rank, and if both ways stop at the same piece its capture
    /// is one move.
    fn slides(&self, k: u8, from: Cell, dirs: &[Dir], out: &mut Vec<Move>) {
        let ring = self.board.rank_is_ring(self.board.rank(from));
        let mut right_stop: Option<Option<Cell>> = None;
        for &d in dirs {
            if ring && d == Dir::Left && right_stop == Some(None) {
                continue;
            }
            let mut stop = None;
            for &t in self.board.ray(from, d) {
                let code = self.squares[t.index()];
                if code == 0 {
                    out.push(Move::Normal {
                        from,
                        to: t,
                        promotion: None,
                    });
                    continue;
                }
                stop = Some(t);
                let twice = ring && d == Dir::Left && right_stop == Some(Some(t));
                if !twice && Piece::from_code(code).is_some_and(|q| self.can_capture(k, q.kingdom))
                {
                    out.push(Move::Normal {
                        from,
                        to: t,
                        promotion: None,
                    });
                }
                break;
            }
            if d == Dir::Right {
                right_stop = Some(stop);
            }
        }
    }

    fn castlings(&self, k: u8, king: Cell, out: &mut Vec<Move>) {
        for d in [Dir::Left, Dir::Right] {
            let ray = self.board.ray(king, d);
            let Some(i) = ray.iter().position(|t| self.squares[t.index()] != 0) else {
                continue;
            };
            // The rook must be at least three spaces away, or the king would land on it.
            if i < 2 {
                continue;
            }
            if let Some(q) = Piece::from_code(self.squares[ray[i].index()])
                && q.kingdom == k
                && q.kind == Kind::Rook
                && !q.moved
            {
                out.push(Move::Castle {
                    king_from: king,
                    king_to: ray[1],
                    rook_from: ray[i],
                    rook_to: ray[0],
                });
            }
        }
    }

    fn pawn_moves(&self, k: u8, from: Cell, p: Piece, out: &mut Vec<Move>) {
        let b = self.board;
        if let Some(one) = b.step(from, Dir::Forward)
            && self.squares[one.index()] == 0
        {
            self.push_pawn(from, one, out);
            if !p.moved
                && let Some(two) = b.step(one, Dir::Forward)
                && self.squares[two.index()] == 0
            {
                self.push_pawn(from, two, out);
            }
        }
        for d in [Dir::ForwardLeft, Dir::ForwardRight] {
            let Some(t) = b.step(from, d) else { continue };
            match Piece::from_code(self.squares[t.index()]) {
                Some(q) if self.can_capture(k, q.kingdom) => self.push_pawn(from, t, out),
                Some(_) => {}
                None => {
                    if self.en_passant == Some(t)
                        && let Some(v) = b.step(t, Dir::Forward)
                        && let Some(q) = Piece::from_code(self.squares[v.index()])
                        && q.kind == Kind::Pawn
                        && self.can_capture(k, q.kingdom)
                    {
                        out.push(Move::EnPassant {
                            from,
                            to: t,
                            captured: v,
                        });
                    }
                }
            }
        }
    }

    /// A pawn move, one per promotion choice when it reaches the last rank.
    fn push_pawn(&self, from: Cell, to: Cell, out: &mut Vec<Move>) {
        if self.house.promotion && self.board.rank(to) == self.board.shape().ranks as usize {
            for kind in Kind::PROMOTIONS {
                out.push(Move::Normal {
                    from,
                    to,
                    promotion: Some(kind),
                });
            }
        } else {
            out.push(Move::Normal {
                from,
                to,
                promotion: None,
            });
        }
    }

    /// Whether a live kingdom other than `victim` and not its active team-mate could capture on
    /// `target` next move (§6-1). Neutral pieces never move, so they attack nothing.
    pub(super) fn attacked(&self, target: Cell, victim: u8) -> bool {
        let hostile = |q: Piece| {
            q.kingdom != victim
                && self.is_live(q.kingdom)
                && !(self.teams_apart
                    && self.team_of[q.kingdom as usize] == self.team_of[victim as usize])
        };
        for d in Dir::ALL {
            for (i, &t) in self.board.ray(target, d).iter().enumerate() {
                let Some(q) = Piece::from_code(self.squares[t.index()]) else {
                    continue;
                };
                if hostile(q) {
                    let near = i == 0;
                    let hits = match q.kind {
                        Kind::Queen => true,
                        Kind::Rook => !d.is_diagonal(),
                        Kind::Bishop => d.is_diagonal(),
                        Kind::King => near,
                        // A pawn takes diagonally forward, so it stands diagonally behind.
                        Kind::Pawn => near && matches!(d, Dir::BackLeft | Dir::BackRight),
                        Kind::Knight => false,
                    };
                    if hits {
                        return true;
                    }
                }
                break;
            }
        }
        self.board.knight_targets(target).iter().any(|&t| {
            Piece::from_code(self.squares[t.index()])
                .is_some_and(|q| q.kind == Kind::Knight && hostile(q))
        })
    }

    /// §6-1: the move does not leave `k`'s king attacked, and a castling king neither starts on
    /// nor passes an attacked space.
    pub(super) fn obeys_check_rules(&self, k: u8, m: &Move) -> bool {
        if let Move::Castle {
            king_from, rook_to, ..
        } = *m
            && (self.attacked(king_from, k) || self.attacked(rook_to, k))
        {
            return false;
        }
        let mut next = self.clone();
        next.history.clear();
        next.apply(m);
        next.kings[k as usize].is_none_or(|c| !next.attacked(c, k))
    }

    /// Move the pieces; returns whether the move was a capture or a pawn move (which resets the
    /// draw counters). Eliminates a kingdom whose king it captures.
    fn apply(&mut self, m: &Move) -> bool {
        let moved = |p: Piece| Piece { moved: true, ..p };
        match *m {
            Move::Pass => false,
            Move::Normal {
                from,
                to,
                promotion,
            } => {
                let Some(p) = self.take(from) else {
                    return false;
                };
                let captured = self.take(to);
                if let Some(q) = captured
                    && q.kind == Kind::King
                {
                    self.eliminate(q.kingdom);
                }
                let kind = promotion.unwrap_or(p.kind);
                self.put(to, moved(Piece { kind, ..p }));
                captured.is_some() || p.kind == Kind::Pawn
            }
            Move::Castle {
                king_from,
                king_to,
                rook_from,
                rook_to,
            } => {
                if let Some(king) = self.take(king_from) {
                    self.put(king_to, moved(king));
                }
                if let Some(rook) = self.take(rook_from) {
                    self.put(rook_to, moved(rook));
                }
                false
            }
            Move::Manoeuvre { bishop, knight } => {
                let b = self.take(bishop);
                let n = self.take(knight);
                if let (Some(b), Some(n)) = (b, n) {
                    self.put(knight, moved(b));
                    self.put(bishop, moved(n));
                }
                false
            }
            Move::EnPassant { from, to, captured } => {
                self.take(captured);
                if let Some(p) = self.take(from) {
                    self.put(to, moved(p));
                }
                true
            }
        }
    }

    /// Play a move of the kingdom to move and pass the turn on (§5).
    pub(super) fn play_move(&mut self, m: &Move) {
        let mover = self.to_move;
        let before = self.hash;
        let irreversible = self.apply(m);
        // A double step opens en passant for the next kingdom's turn only.
        let skipped = match *m {
            Move::Normal { from, to, .. }
                if self.house.en_passant
                    && self.board.rank(to) == self.board.rank(from) + 2
                    && self.piece_at(to).is_some_and(|p| p.kind == Kind::Pawn)
                    && self.board.file(to) == self.board.file(from) =>
            {
                self.board.step(from, Dir::Forward)
            }
            _ => None,
        };
        self.set_en_passant(skipped);
        if irreversible {
            self.quiet_turns = 0;
            self.history.clear();
        } else {
            self.quiet_turns = self.quiet_turns.saturating_add(1);
            if self.house.threefold_repetition {
                self.history.push(before);
            }
        }
        let next = self.next_live(mover);
        self.set_to_move(next);
        self.settle();
    }

    /// Bring the position to rest after a turn: under `check_rules`, a kingdom whose turn comes
    /// with no legal move while its king is attacked loses that king (§6-1), and the turn passes
    /// on; then the result, if any, is recorded.
    pub(super) fn settle(&mut self) {
        self.outcome = self.compute_outcome().map(Box::new);
        if !self.house.check_rules {
            return;
        }
        while self.outcome.is_none() {
            let k = self.to_move;
            let Some(king) = self.kings[k as usize] else {
                return;
            };
            if !self.attacked(king, k) || self.has_legal_move(k) {
                return;
            }
            self.take(king);
            self.eliminate(k);
            self.quiet_turns = 0;
            self.history.clear();
            let next = self.next_live(k);
            self.set_to_move(next);
            self.outcome = self.compute_outcome().map(Box::new);
        }
    }

    fn has_legal_move(&self, k: u8) -> bool {
        let mut v = Vec::new();
        self.pseudo_moves(k, &mut v);
        v.iter().any(|m| self.obeys_check_rules(k, m))
    }

    /// Whether the eliminated kingdoms' pieces may be taken (for move explanations).
    pub(super) fn neutral_capturable(&self) -> bool {
        self.house.neutral_pieces == NeutralPieces::Capturable
    }
}
