//! Players and the games they are in: what front ends ask of the host besides commands.

use std::cmp::Ordering;

use super::event::{GameId, Millis, PlayerId};
use super::{GameHost, HostError, Status};
use crate::ai::Level;
use crate::games::GameKind;
use crate::store::{GameSummary, Rating as RatingRow, Standing as StandingRow};

/// A game in a list: its number, its kind and where it is in its life (`None`: a row this build
/// does not read), and whose move it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    pub id: GameId,
    pub kind: Option<GameKind>,
    pub status: Option<Status>,
    pub to_move: Option<PlayerId>,
    pub version: i64,
}

impl From<GameSummary> for Listed {
    fn from(g: GameSummary) -> Listed {
        Listed {
            id: g.id,
            kind: GameKind::from_key(&g.kind),
            status: Status::from_id(g.status),
            to_move: g.to_move,
            version: g.version,
        }
    }
}

impl Listed {
    /// Whether the game is still played (house rules or play; not paused, not over).
    pub fn live(&self) -> bool {
        matches!(self.status, Some(Status::HouseRules | Status::Playing))
    }
}

/// An unfinished game a player sits in, as their list of games shows it
/// ([`GameHost::seated`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Seated {
    pub id: GameId,
    pub kind: GameKind,
    /// Paused by an admin.
    pub paused: bool,
    /// The Token holder: their seat's title and their player (none between turns).
    pub holder: Option<(String, PlayerId)>,
    /// Whether the Token holder is the player whose list this is.
    pub mine: bool,
    /// When the Token holder's time runs out, bank included (none: no timer, paused, away).
    pub due: Option<Millis>,
    /// When the Token holder got the Token: the last move.
    pub since: Millis,
}

/// Which of two games of a player's list is the more urgent: those where it is their turn
/// first, the least time left first (no clock last); then the others, the longest waiting
/// since the last move first; the newer game first when nothing else tells them apart.
pub fn urgency(a: &Seated, b: &Seated) -> Ordering {
    let due = |s: &Seated| (s.due.is_none(), s.due);
    b.mine
        .cmp(&a.mine)
        .then_with(|| {
            if a.mine {
                due(a).cmp(&due(b))
            } else {
                Ordering::Equal
            }
        })
        .then(a.since.cmp(&b.since))
        .then(b.id.cmp(&a.id))
}

/// A player's accumulated points (§7) on a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub player: PlayerId,
    pub name: String,
    pub points: i64,
    pub games: i64,
}

impl From<StandingRow> for Standing {
    fn from(s: StandingRow) -> Standing {
        Standing {
            player: s.player,
            name: s.name,
            points: s.points,
            games: s.games,
        }
    }
}

/// A player's skill rating (μ, σ) on a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    pub player: PlayerId,
    pub name: String,
    pub mu: f64,
    pub sigma: f64,
    pub games: i64,
    shown: f64,
}

impl Rating {
    /// What leaderboards show (a conservative estimate: μ less a few σ).
    pub fn shown(&self) -> f64 {
        self.shown
    }
}

impl From<RatingRow> for Rating {
    fn from(r: RatingRow) -> Rating {
        Rating {
            shown: r.shown(),
            player: r.player,
            name: r.name,
            mu: r.mu,
            sigma: r.sigma,
            games: r.games,
        }
    }
}

/// Rows in the host's own types.
fn answers<R, T: From<R>>(rows: Vec<R>) -> Vec<T> {
    rows.into_iter().map(T::from).collect()
}

/// The player id of the bot of `level`: reserved negative ids (Discord snowflakes and local ids
/// are positive), the same in every database, so whether a seat is a bot follows from its player
/// id alone — also while a game is replayed.
pub const fn bot_id(level: Level) -> PlayerId {
    match level {
        Level::Random => -1,
        Level::Easy => -2,
        Level::Normal => -3,
        Level::Hard => -4,
    }
}

/// The level of the bot with player id `player`, or `None` for a person.
pub fn bot_level(player: PlayerId) -> Option<Level> {
    Level::ALL.into_iter().find(|&l| bot_id(l) == player)
}

impl GameHost {
    /// Make sure a player with a known id (a Discord user) exists, named `name` (renamed when
    /// their name changed since: pictures and tables show it).
    pub async fn ensure_player(&self, id: PlayerId, name: &str) -> Result<(), HostError> {
        // Read first: most calls find the name unchanged and write nothing.
        match self.store.player_name(id).await? {
            Some(known) if known == name => Ok(()),
            Some(_) => Ok(self.store.rename_player(id, name).await?),
            None => Ok(self.store.ensure_player(id, name, self.now()).await?),
        }
    }

    /// The player id of the bot of `level` (created on first use as "Bot (level)"). Seat it
    /// like any player; several seats of one game may hold the same bot.
    pub async fn bot_player(&self, level: Level) -> Result<PlayerId, HostError> {
        let id = bot_id(level);
        self.store
            .add_bot(id, &format!("Bot ({level})"), level.key(), self.now())
            .await?;
        Ok(id)
    }

    /// The level of a stored bot player, `None` for a person (or no such player).
    pub async fn player_bot_level(&self, id: PlayerId) -> Result<Option<Level>, HostError> {
        let key = self.store.player_bot_key(id).await?;
        Ok(key.and_then(|l| l.parse().ok()))
    }

    /// The local (terminal) player called `name`, created if there is none.
    pub async fn local_player(&self, name: &str) -> Result<PlayerId, HostError> {
        Ok(self.store.local_player(name, self.now()).await?)
    }

    /// Forget the person `id` (`store::forget`): their settings, notification and DM state,
    /// private notes, ratings and direct messages go, and their name becomes
    /// [`FORGOTTEN_NAME`](crate::store::FORGOTTEN_NAME); the games they played stay, as the
    /// other players' records.
    pub async fn forget_player(&self, id: PlayerId) -> Result<crate::store::Forgotten, HostError> {
        Ok(self.store.forget_player(id).await?)
    }

    /// The player called `name`, if any.
    pub async fn player_named(&self, name: &str) -> Result<Option<PlayerId>, HostError> {
        Ok(self.store.player_named(name).await?)
    }

    /// A player's name, if the player exists.
    pub async fn player_name(&self, id: PlayerId) -> Result<Option<String>, HostError> {
        Ok(self.store.player_name(id).await?)
    }

    /// Remember where a front end shows a game (a Discord thread id).
    pub async fn set_channel(&self, game: GameId, channel: &str) -> Result<(), HostError> {
        Ok(self.store.set_channel(game, channel).await?)
    }

    /// Every game, newest first.
    pub async fn all_games(&self) -> Result<Vec<Listed>, HostError> {
        Ok(answers(self.store.all_games().await?))
    }

    /// The games `player` plays (`only_my_turn`: those where it is their turn).
    pub async fn games_of(
        &self,
        player: PlayerId,
        only_my_turn: bool,
    ) -> Result<Vec<Listed>, HostError> {
        Ok(answers(self.store.games_of(player, only_my_turn).await?))
    }

    /// The unfinished games (house rules, playing, paused) `player` sits in, most urgent first
    /// ([`urgency`]). A game that cannot be read is left out (and logged), not the whole list.
    pub async fn seated(&self, player: PlayerId) -> Result<Vec<Seated>, HostError> {
        let mut out = Vec::new();
        for g in self.games_of(player, false).await? {
            let unfinished = matches!(
                g.status,
                Some(Status::HouseRules | Status::Playing | Status::Paused)
            );
            let Some(kind) = g.kind.filter(|_| unfinished) else {
                continue;
            };
            let state = match self.state(g.id).await {
                Ok(state) => state,
                Err(e) => {
                    tracing::warn!(game = g.id, error = %e, "a game left out of a player's list");
                    continue;
                }
            };
            let turn = state.turn();
            out.push(Seated {
                id: g.id,
                kind,
                paused: state.status() == Status::Paused,
                holder: turn.map(|t| (state.seat_title(t.seat), t.player)),
                mine: turn.is_some_and(|t| t.player == player),
                due: turn.and_then(|t| t.due),
                since: turn.map_or(state.created(), |t| t.since),
            });
        }
        out.sort_by(urgency);
        Ok(out)
    }

    /// Games where it is `player`'s turn.
    pub async fn my_turn(&self, player: PlayerId) -> Result<Vec<Listed>, HostError> {
        self.games_of(player, true).await
    }

    /// Accumulated points (§7) for one game kind or all.
    pub async fn leaderboard(&self, kind: Option<GameKind>) -> Result<Vec<Standing>, HostError> {
        Ok(answers(
            self.store.leaderboard(kind.map(|k| k.key())).await?,
        ))
    }

    /// Skill ratings for one game kind, or across all (`None`).
    pub async fn ratings(&self, kind: Option<GameKind>) -> Result<Vec<Rating>, HostError> {
        let key = kind.map(|k| k.key()).unwrap_or("all");
        Ok(answers(self.store.ratings(key).await?))
    }
}

#[cfg(test)]
mod tests {
    use super::{Seated, urgency};
    use crate::games::GameKind;

    fn game(id: i64, mine: bool, due: Option<i64>, since: i64) -> Seated {
        Seated {
            id,
            kind: GameKind::HexDame,
            paused: false,
            holder: Some(("Gold".into(), if mine { 1 } else { 2 })),
            mine,
            due,
            since,
        }
    }

    #[test]
    fn your_turns_come_first_by_time_left_then_the_longest_waiting() {
        let mut list = [
            game(1, false, Some(50), 300),
            game(2, true, None, 100),
            game(3, true, Some(900), 50),
            game(4, false, None, 200),
            game(5, true, Some(400), 500),
            game(6, false, Some(10), 200),
        ];
        list.sort_by(urgency);
        let ids: Vec<i64> = list.iter().map(|g| g.id).collect();
        // Mine: 5 (400 left), 3 (900), 2 (no clock); then the others by their last move:
        // 6 and 4 (both at 200, the newer game first), 1 (300).
        assert_eq!(ids, [5, 3, 2, 6, 4, 1]);
    }
}
