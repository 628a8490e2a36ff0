//! A game belongs to the server it was started in (ARCHITECTURE.md, "A game belongs to one
//! server"). Every game a user names — a command's `game` option, a thread, a button's or select
//! menu's id, a reaction's turn message, an autocomplete — is admitted here first, for the place
//! the user acts from: in a server, only that server's games; in a direct message with the bot,
//! only the games the user plays in. Anything else gets, word for word, the answer a game that
//! does not exist gets, so game ids (which are sequential) tell a stranger nothing.
//!
//! Admin rights follow: an admitted game is one of the server the interaction came from, whose
//! member permissions are then those of the game's own server; a DM carries none.

use poise::serenity_prelude as serenity;

use hexmeros::host::{GameId, HostError, PlayerId, Refused};

use crate::discord::{Data, Error};

/// Where a user acts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A server (any of its channels and threads): that server's games.
    Guild(u64),
    /// A direct message with the bot: the games `player` plays in.
    Dm { player: PlayerId },
}

impl Scope {
    /// The scope of an interaction or reaction: its server, or the user's DM without one.
    pub fn of(guild: Option<serenity::GuildId>, user: serenity::UserId) -> Scope {
        match guild {
            Some(g) => Scope::Guild(g.get()),
            None => Scope::Dm {
                player: user.get() as PlayerId,
            },
        }
    }

    /// Whether a game started in `guild` (none: in no server) and played by `seated` (whether
    /// this scope's DM user has a seat, asked only in a DM) may be named from here.
    fn admits(self, guild: Option<u64>, seated: impl FnOnce(PlayerId) -> bool) -> bool {
        match self {
            Scope::Guild(g) => guild == Some(g),
            Scope::Dm { player } => seated(player),
        }
    }
}

/// The refusal a game that does not exist gets; a game of another server gets the same.
pub fn unknown(game: GameId) -> Error {
    HostError::from(Refused::UnknownGame(game)).into()
}

/// `game`, if it may be named from `scope`; else the unknown game's refusal.
pub async fn admit(data: &Data, scope: Scope, game: GameId) -> Result<GameId, Error> {
    if may_name(data, scope, game).await? {
        Ok(game)
    } else {
        Err(unknown(game))
    }
}

/// Whether `game` exists and may be named from `scope`. An error is our failure only.
pub async fn may_name(data: &Data, scope: Scope, game: GameId) -> Result<bool, Error> {
    Ok(match scope {
        Scope::Guild(_) => {
            let guild = data.links.by_game(game).await?.and_then(|l| l.guild);
            scope.admits(guild, |_| false)
        }
        Scope::Dm { player } => match data.host.state(game).await {
            Ok(state) => {
                scope.admits(None, |p| state.seat_of(p).is_some())
                    && still_in_its_server(data, game, player).await?
            }
            // A refusal here is the unknown game's own.
            Err(e) if !e.is_internal() => false,
            Err(e) => return Err(e.into()),
        },
    })
}

/// Whether `player` is still a member of the server `game` was started in (a game of no
/// server, or one Discord cannot answer for now, admits them): a player who left the server or
/// was banned from it reaches its games from nowhere, a DM included.
pub async fn still_in_its_server(
    data: &Data,
    game: GameId,
    player: PlayerId,
) -> Result<bool, Error> {
    let Some(guild) = data.links.by_game(game).await?.and_then(|l| l.guild) else {
        return Ok(true);
    };
    let (Some(http), Ok(user)) = (data.http.get(), u64::try_from(player)) else {
        return Ok(true);
    };
    let user = serenity::UserId::new(user.max(1));
    let member = super::mine::still_in(http, data, guild, user, false).await;
    Ok(member != Some(false))
}

/// Whether a game whose link names `guild` may be acted on from `scope` without asking the
/// host (reactions, which come only from a server's channels).
pub fn admits_link(scope: Scope, guild: Option<u64>) -> bool {
    scope.admits(guild, |_| false)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: u64 = 1_100_000_000_000_000_003;
    const B: u64 = 1_100_000_000_000_000_005;

    #[test]
    fn a_server_names_only_its_own_games() {
        assert!(admits_link(Scope::Guild(A), Some(A)));
        assert!(!admits_link(Scope::Guild(B), Some(A)));
        assert!(!admits_link(Scope::Guild(A), None), "a game of no server");
    }

    #[test]
    fn a_dm_names_only_the_users_own_games() {
        let me = 7;
        let dm = Scope::Dm { player: me };
        assert!(dm.admits(Some(A), |p| p == me));
        assert!(!dm.admits(Some(A), |p| p != me));
        // A DM has no server: a link alone admits nothing there.
        assert!(!admits_link(dm, Some(A)));
    }

    #[test]
    fn the_scope_of_an_interaction() {
        let user = serenity::UserId::new(9);
        assert_eq!(
            Scope::of(Some(serenity::GuildId::new(A)), user),
            Scope::Guild(A)
        );
        assert_eq!(Scope::of(None, user), Scope::Dm { player: 9 });
    }

    #[test]
    fn a_foreign_game_reads_as_an_unknown_one() {
        assert_eq!(
            crate::discord::reply::report(&unknown(12)).1,
            "⚠️ there is no game #12"
        );
    }
}
