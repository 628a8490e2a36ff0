//! Skill ratings: Weng-Lin (the `skillratings` crate) over a game's finishing order, each seat a
//! team of one, per game kind and across all games (`all`). Shown as μ−3σ, a rating the player
//! is very likely above, so a newcomer's one lucky game does not top the table. Each rated game
//! keeps what it changed (`rating_changes`), for its results table.

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use sqlx::{Any, AnyPool, Row, Transaction};

use super::{Backend, StoreError};

/// A player's rating for one kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    pub player: i64,
    pub name: String,
    pub mu: f64,
    pub sigma: f64,
    pub games: i64,
}

impl Rating {
    /// What leaderboards show.
    pub fn shown(&self) -> f64 {
        conservative(self.mu, self.sigma)
    }
}

/// What one game did to one player's rating of one kind.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub player: i64,
    pub mu_before: f64,
    pub sigma_before: f64,
    pub mu_after: f64,
    pub sigma_after: f64,
}

impl RatingChange {
    /// The rating shown before the game (μ−3σ).
    pub fn before(&self) -> f64 {
        conservative(self.mu_before, self.sigma_before)
    }

    /// The rating shown after it.
    pub fn after(&self) -> f64 {
        conservative(self.mu_after, self.sigma_after)
    }
}

/// μ−3σ.
pub fn conservative(mu: f64, sigma: f64) -> f64 {
    mu - 3.0 * sigma
}

async fn get(
    tx: &mut Transaction<'_, Any>,
    player: i64,
    kind: &str,
) -> Result<(WengLinRating, i64), StoreError> {
    let row =
        sqlx::query("SELECT mu, sigma, games FROM ratings WHERE player_id = $1 AND kind = $2")
            .bind(player)
            .bind(kind)
            .fetch_optional(&mut **tx)
            .await?;
    Ok(match row {
        Some(r) => (
            WengLinRating {
                rating: r.try_get(0)?,
                uncertainty: r.try_get(1)?,
            },
            r.try_get(2)?,
        ),
        None => (WengLinRating::new(), 0),
    })
}

/// Rate one finished game: `ranks` are (player, finishing rank, 1 = best; equal ranks drew).
/// What it changed is kept with the game.
///
/// A rating is read, changed and written back, so two games finishing at once with a player in
/// common must not both read the old rating. SQLite has one writer at a time; on PostgreSQL the
/// transaction first takes a lock per player (an advisory lock until it ends, in id order so two
/// of them never wait on each other), which also covers a player with no rating row yet.
pub(super) async fn update(
    tx: &mut Transaction<'_, Any>,
    backend: Backend,
    game: i64,
    kind: &str,
    ranks: &[(i64, usize)],
) -> Result<(), StoreError> {
    if ranks.len() < 2 {
        return Ok(());
    }
    if backend == Backend::Postgres {
        let mut players: Vec<i64> = ranks.iter().map(|&(p, _)| p).collect();
        players.sort_unstable();
        players.dedup();
        for p in players {
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(p)
                .execute(&mut **tx)
                .await?;
        }
    }
    for k in [kind, "all"] {
        let mut old = Vec::with_capacity(ranks.len());
        for &(p, _) in ranks {
            old.push(get(tx, p, k).await?);
        }
        let teams: Vec<[WengLinRating; 1]> = old.iter().map(|(r, _)| [*r]).collect();
        let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(ranks)
            .map(|(t, &(_, rank))| (&t[..], MultiTeamOutcome::new(rank)))
            .collect();
        let new = weng_lin_multi_team(&input, &WengLinConfig::new());
        for ((&(p, _), team), (before, games)) in ranks.iter().zip(new).zip(&old) {
            let Some(r) = team.first() else { continue };
            // A bot in several seats is ranked once (`finish_of`); a repeated player keeps the
            // first change.
            sqlx::query(
                "INSERT INTO rating_changes (game_id, player_id, kind, mu_before, sigma_before, \
                 mu_after, sigma_after) VALUES ($1, $2, $3, $4, $5, $6, $7) \
                 ON CONFLICT (game_id, player_id, kind) DO NOTHING",
            )
            .bind(game)
            .bind(p)
            .bind(k)
            .bind(before.rating)
            .bind(before.uncertainty)
            .bind(r.rating)
            .bind(r.uncertainty)
            .execute(&mut **tx)
            .await?;
            sqlx::query(
                "INSERT INTO ratings (player_id, kind, mu, sigma, games) VALUES ($1, $2, $3, $4, $5) \
                 ON CONFLICT (player_id, kind) DO UPDATE SET mu = $3, sigma = $4, games = $5",
            )
            .bind(p)
            .bind(k)
            .bind(r.rating)
            .bind(r.uncertainty)
            .bind(games + 1)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(())
}

/// What game `game` changed in its players' ratings of `kind` (none for a game rated before
/// changes were kept, or not rated).
pub(super) async fn changes(
    pool: &AnyPool,
    game: i64,
    kind: &str,
) -> Result<Vec<RatingChange>, StoreError> {
    let rows = sqlx::query(
        "SELECT player_id, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes \
         WHERE game_id = $1 AND kind = $2 ORDER BY player_id",
    )
    .bind(game)
    .bind(kind)
    .fetch_all(pool)
    .await?;
    rows.into_iter()
        .map(|r| {
            Ok(RatingChange {
                player: r.try_get(0)?,
                mu_before: r.try_get(1)?,
                sigma_before: r.try_get(2)?,
                mu_after: r.try_get(3)?,
                sigma_after: r.try_get(4)?,
            })
        })
        .collect()
}

pub(super) async fn list(pool: &AnyPool, kind: &str) -> Result<Vec<Rating>, StoreError> {
    let rows = sqlx::query(
        "SELECT r.player_id, COALESCE(p.name, ''), r.mu, r.sigma, r.games FROM ratings r \
         LEFT JOIN players p ON p.id = r.player_id WHERE r.kind = $1",
    )
    .bind(kind)
    .fetch_all(pool)
    .await?;
    let mut out = rows
        .into_iter()
        .map(|r| {
            Ok(Rating {
                player: r.try_get(0)?,
                name: r.try_get(1)?,
                mu: r.try_get(2)?,
                sigma: r.try_get(3)?,
                games: r.try_get(4)?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    out.sort_by(|a, b| b.shown().total_cmp(&a.shown()));
    Ok(out)
}
