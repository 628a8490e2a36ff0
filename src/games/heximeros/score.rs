//! Scoring as the game goes (§7): capture, promotion, out order, expulsion, victory, draw and
//! retention points, as events a caller sums. Whether a game is scored, and who forfeits what on
//! resignation, is the host's business; the rules report every event.

use serde::{Deserialize, Serialize};

use super::{HexiMeros, Kind};
use crate::games::{Outcome, Points, Seat};

/// Why points were scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum ScoreReason {
    /// Captured a piece of another player.
    Capture { kind: Kind },
    /// Promoted a Militant to this kind.
    Promotion { kind: Kind },
    /// Went out in this place (1st out … 5th out).
    Out { place: u8 },
    /// Expelled by vote.
    Expelled,
    /// Replaced in the seat after resigning (§8.3 [REC]).
    Replaced,
    /// Last player with a Sovereign on the board.
    Victory,
    /// One of the two drawn players.
    Draw,
    /// Pieces still on the board at the end (half value in a draw).
    Retention,
}

/// Points for one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreEvent {
    pub seat: Seat,
    pub points: i32,
    pub reason: ScoreReason,
}

impl ScoreEvent {
    pub fn capture(seat: Seat, kind: Kind) -> ScoreEvent {
        ScoreEvent {
            seat,
            points: kind.value(),
            reason: ScoreReason::Capture { kind },
        }
    }

    pub fn promotion(seat: Seat, kind: Kind) -> ScoreEvent {
        ScoreEvent {
            seat,
            points: kind.value(),
            reason: ScoreReason::Promotion { kind },
        }
    }

    /// The loss points of the `place`-th player out: −50, −40, −30, −20, −10.
    pub fn out(seat: Seat, place: u8) -> ScoreEvent {
        ScoreEvent {
            seat,
            points: -(60 - 10 * place.clamp(1, 5) as i32),
            reason: ScoreReason::Out { place },
        }
    }

    /// −500 for an expelled player (§8.5).
    pub fn expelled(seat: Seat) -> ScoreEvent {
        ScoreEvent {
            seat,
            points: -500,
            reason: ScoreReason::Expelled,
        }
    }

    /// −50 for a resigner whose seat another player takes over (§8.3 [REC]).
    pub fn replaced(seat: Seat) -> ScoreEvent {
        ScoreEvent {
            seat,
            points: -50,
            reason: ScoreReason::Replaced,
        }
    }

    /// As the host keeps it: a stable reason key, and whether these are loss points (never
    /// forfeited).
    pub fn points(&self) -> Points {
        let reason = match self.reason {
            ScoreReason::Capture { .. } => "capture",
            ScoreReason::Promotion { .. } => "promotion",
            ScoreReason::Out { .. } => "out",
            ScoreReason::Expelled => "expelled",
            ScoreReason::Replaced => "replaced",
            ScoreReason::Victory => "victory",
            ScoreReason::Draw => "draw",
            ScoreReason::Retention => "retention",
        };
        Points {
            seat: self.seat,
            points: self.points,
            reason: reason.into(),
            loss: matches!(
                self.reason,
                ScoreReason::Out { .. } | ScoreReason::Expelled | ScoreReason::Replaced
            ),
        }
    }
}

/// The end-game and retention points for `outcome` (§7).
pub(super) fn end_events(g: &HexiMeros, outcome: &Outcome) -> Vec<ScoreEvent> {
    let mut out = Vec::new();
    let retention = |seat: Seat, half: bool| -> i32 {
        g.pieces()
            .filter(|(_, p)| g.controller(p.colour) == seat && g.conceded & (1 << p.colour) == 0)
            .map(|(_, p)| {
                if half {
                    p.kind.half_value()
                } else {
                    p.kind.value()
                }
            })
            .sum()
    };
    match outcome {
        Outcome::Win { winners, .. } => {
            for &s in winners {
                out.push(ScoreEvent {
                    seat: s,
                    points: 100,
                    reason: ScoreReason::Victory,
                });
                out.push(ScoreEvent {
                    seat: s,
                    points: retention(s, false),
                    reason: ScoreReason::Retention,
                });
            }
        }
        Outcome::Draw { seats, .. } => {
            for &s in seats {
                out.push(ScoreEvent {
                    seat: s,
                    points: 45,
                    reason: ScoreReason::Draw,
                });
                out.push(ScoreEvent {
                    seat: s,
                    points: retention(s, true),
                    reason: ScoreReason::Retention,
                });
            }
        }
    }
    out
}

/// Sum events per seat.
pub fn totals(events: &[ScoreEvent]) -> [i32; 6] {
    let mut t = [0; 6];
    for e in events {
        if let Some(x) = t.get_mut(e.seat.index()) {
            *x += e.points;
        }
    }
    t
}
