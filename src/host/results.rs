//! A finished game's results (issue 19, end of game): each seat's place, its §7 points when the
//! game is scored, and what the game changed in its player's rating. Rebuilt from the store
//! whenever asked (the final state from the log, the rating changes as the game's own
//! transaction stored them), so a results message delivered late shows the same table.

use super::event::{GameId, PlayerId};
use super::say::Refused;
use super::state::Status;
use super::{GameHost, HostError};
use crate::games::{GameKind, Seat};
use crate::store::RatingChange;

/// The results table of a finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    pub game: GameId,
    pub kind: GameKind,
    /// How it ended, in the game record's words ("silver won").
    pub outcome: String,
    /// Whether the game is scored (§7): the places carry points.
    pub scored: bool,
    /// Best place first; seats that drew share a place.
    pub places: Vec<Place>,
}

/// One seat's line of the results.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    /// 1 = best.
    pub place: usize,
    pub seat: Seat,
    /// The seat's colour or name ("silver", "white").
    pub colour: &'static str,
    /// Who held the seat at the end.
    pub player: PlayerId,
    /// Team members besides the player (§8.4).
    pub team: Vec<PlayerId>,
    /// The player's §7 points in this game (forfeits applied), when scored.
    pub points: Option<i32>,
    /// What the game did to the player's rating of this game kind; `None` for a game finished
    /// before changes were kept.
    pub rating: Option<RatingChange>,
}

impl Place {
    /// The line after the place, colour and player: points and rating change.
    pub fn summary(&self) -> String {
        super::say::result_line(
            self.points,
            self.rating.as_ref().map(|r| (r.before(), r.after())),
        )
    }
}

impl Results {
    /// Every person who played (seat holders and team members, bots left out), each once, in
    /// place order: whom the results message pings.
    pub fn people(&self) -> Vec<PlayerId> {
        let mut out: Vec<PlayerId> = Vec::new();
        for p in &self.places {
            for &q in std::iter::once(&p.player).chain(&p.team) {
                if super::bot_level(q).is_none() && !out.contains(&q) {
                    out.push(q);
                }
            }
        }
        out
    }
}

impl GameHost {
    /// The results of a finished game; refused while it is not finished (an aborted game has
    /// none).
    pub async fn results(&self, game: GameId) -> Result<Results, HostError> {
        let st = self.state(game).await?;
        if st.status() != Status::Finished {
            return Err(Refused::NotOver(game).into());
        }
        let kind = st.kind();
        let changes = self.store.rating_changes(game, kind.key()).await?;
        let points = st.player_points();
        let mut ranks = st.finishing_ranks();
        ranks.sort_by_key(|&(s, r)| (r, s.0));
        let places = ranks
            .into_iter()
            .filter_map(|(seat, place)| {
                let s = st.seats().get(seat.index())?;
                Some(Place {
                    place,
                    seat,
                    colour: st.seat_name(seat),
                    player: s.player,
                    team: s.team.clone(),
                    points: st
                        .scored()
                        .then(|| points.iter().find(|&&(p, _)| p == s.player))
                        .map(|found| found.map_or(0, |&(_, n)| n)),
                    rating: changes.iter().find(|c| c.player == s.player).cloned(),
                })
            })
            .collect();
        let outcome = st
            .outcome()
            .map(|o| st.outcome_text(&o))
            .unwrap_or_default();
        Ok(Results {
            game,
            kind,
            outcome,
            scored: st.scored(),
            places,
        })
    }
}
