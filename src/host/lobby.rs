//! Lobbies (issue 17, "consent"): a game is not created until every person seated in it has
//! agreed to play. A front end opens a lobby with [`GameHost::open_lobby`]: the starter takes a
//! seat at once (or, as an admin, need not play), bots take theirs at once, each invited person
//! must [`GameHost::join_lobby`] their own seat, and open seats (`open`) are taken by whoever
//! joins first. When the last seat is taken the game is created exactly as `create` does; a
//! lobby that only the starter and bots fill becomes a game at once.
//!
//! Declining ([`GameHost::decline_lobby`]): the starter's Decline cancels the lobby; another
//! player's Decline opens their seat for anyone when the lobby is open, and otherwise cancels
//! it. A lobby waits `hours` (the front end's setting) and then expires
//! ([`GameHost::expire_lobbies`]). Nobody can be penalised in a game they did not join, because
//! the game does not exist before everyone joined.
//!
//! A lobby is stored as JSON and changed with a version check (`store::update_lobby`), retried
//! when another writer came first, so concurrent clicks and processes agree.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::event::{GameId, Millis, PlayerId, Setup, Timers};
use super::words::Sentence;
use super::{Actor, Effect, GameHost, HostError, Refused, bot_level, say, to_json};
use crate::games::GameKind;
use crate::store::{LobbyRow, LobbyWrite};

pub type LobbyId = i64;

/// How many hours a lobby waits for its players unless the front end says otherwise.
pub const LOBBY_HOURS: u32 = 48;

/// How often a lobby change is retried when another writer changed the lobby first.
const ATTEMPTS: usize = 8;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LobbyStatus {
    /// Waiting for players.
    #[default]
    Open,
    /// Every seat was taken: it became this game.
    Started(GameId),
    /// Declined (see the module notes): no game.
    Cancelled,
    /// Its time ran out: no game.
    Expired,
}

impl LobbyStatus {
    /// The id stored in `lobbies.status`.
    pub fn id(self) -> i64 {
        match self {
            LobbyStatus::Open => 0,
            LobbyStatus::Started(_) => 1,
            LobbyStatus::Cancelled => 2,
            LobbyStatus::Expired => 3,
        }
    }

    fn game(self) -> Option<GameId> {
        match self {
            LobbyStatus::Started(g) => Some(g),
            _ => None,
        }
    }

    fn from_row(status: i64, game: Option<GameId>) -> Option<LobbyStatus> {
        Some(match (status, game) {
            (0, _) => LobbyStatus::Open,
            (1, Some(g)) => LobbyStatus::Started(g),
            (2, _) => LobbyStatus::Cancelled,
            (3, _) => LobbyStatus::Expired,
            _ => return None,
        })
    }
}

/// One seat of a lobby, in seat order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chair {
    /// Who sits here; `None`: an open seat nobody has taken.
    pub player: Option<PlayerId>,
    /// Named by the starter: only this player may take the seat.
    pub invited: bool,
    /// The seat is taken (the starter and bots at once, the others when they join).
    pub joined: bool,
}

impl Chair {
    fn joined(player: PlayerId) -> Chair {
        Chair {
            player: Some(player),
            invited: bot_level(player).is_none(),
            joined: true,
        }
    }

    fn open() -> Chair {
        Chair {
            player: None,
            invited: false,
            joined: false,
        }
    }
}

/// A game waiting for its players.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lobby {
    #[serde(skip)]
    pub id: LobbyId,
    #[serde(skip)]
    pub status: LobbyStatus,
    #[serde(skip)]
    version: i64,
    pub kind: GameKind,
    /// Who opened it (seated, or an admin who does not play).
    pub starter: PlayerId,
    pub chairs: Vec<Chair>,
    /// Whether seats not named are open for anyone, and a declined seat becomes open.
    pub open: bool,
    pub house_rules: Option<Value>,
    pub timers: Option<Timers>,
    /// How long it waits, and when that ends.
    pub hours: u32,
    pub expires_at: Millis,
    /// Where a front end opened it (Discord: `guild/channel`); the game starts there.
    #[serde(default)]
    pub origin: Option<String>,
}

impl Lobby {
    /// Every seat is taken.
    pub fn full(&self) -> bool {
        self.chairs.iter().all(|c| c.joined)
    }

    /// The invited people who have not joined yet, in seat order.
    pub fn waiting(&self) -> Vec<PlayerId> {
        self.chairs
            .iter()
            .filter(|c| !c.joined)
            .filter_map(|c| c.player)
            .collect()
    }

    /// Open seats nobody has taken.
    pub fn open_seats(&self) -> usize {
        self.chairs.iter().filter(|c| c.player.is_none()).count()
    }

    /// The players in seat order (open seats left out).
    pub fn players(&self) -> Vec<PlayerId> {
        self.chairs.iter().filter_map(|c| c.player).collect()
    }

    /// The lobby message: the seats and how to answer while it waits, else how it ended.
    pub fn message(&self) -> Sentence {
        say::lobby::message(self)
    }

    /// The public notice of a lobby that ended without a game (cancelled or expired).
    pub fn notice(&self) -> Option<String> {
        match self.status {
            LobbyStatus::Cancelled => Some(say::lobby::cancelled(self)),
            LobbyStatus::Expired => Some(say::lobby::expired(self)),
            LobbyStatus::Open | LobbyStatus::Started(_) => None,
        }
    }

    /// The starter's answer when the lobby waits.
    pub fn opened_text(&self) -> String {
        say::lobby::opened(self)
    }

    /// The answer to a Join that leaves the lobby waiting.
    pub fn joined_text(&self) -> Sentence {
        say::lobby::joined(self)
    }

    /// The answer to a Decline.
    pub fn declined_text(&self, how: Declined) -> String {
        say::lobby::declined(self, how == Declined::Cancelled)
    }

    /// Whether the lobby still takes joins and declines at `now`.
    fn admit(&self, now: Millis) -> Result<(), Refused> {
        match self.status {
            LobbyStatus::Started(game) => Err(Refused::LobbyStarted {
                lobby: self.id,
                game,
            }),
            LobbyStatus::Cancelled => Err(Refused::LobbyCancelled(self.id)),
            LobbyStatus::Expired => Err(Refused::LobbyExpired(self.id)),
            // Its timer may not have run yet: expired all the same.
            LobbyStatus::Open if now >= self.expires_at => Err(Refused::LobbyExpired(self.id)),
            // Full: the game is being created.
            LobbyStatus::Open if self.full() => Err(Refused::LobbyFull(self.id)),
            LobbyStatus::Open => Ok(()),
        }
    }

    /// `player` takes their invited seat, or else the first open seat.
    fn take_seat(&mut self, player: PlayerId) -> Result<(), Refused> {
        if let Some(c) = self.chairs.iter_mut().find(|c| c.player == Some(player)) {
            if c.joined {
                return Err(Refused::AlreadyJoined(self.id));
            }
            c.joined = true;
            return Ok(());
        }
        match self.chairs.iter_mut().find(|c| c.player.is_none()) {
            Some(c) => {
                *c = Chair {
                    player: Some(player),
                    invited: false,
                    joined: true,
                };
                Ok(())
            }
            None if self.open => Err(Refused::LobbyFull(self.id)),
            None => Err(Refused::NotInvited(self.id)),
        }
    }

    /// `player` declines: see the module notes.
    fn leave(&mut self, player: PlayerId) -> Result<Declined, Refused> {
        let seat = self.chairs.iter().position(|c| c.player == Some(player));
        if player == self.starter || (seat.is_some() && !self.open) {
            self.status = LobbyStatus::Cancelled;
            return Ok(Declined::Cancelled);
        }
        let seat = seat.ok_or(Refused::NoLobbySeat(self.id))?;
        self.chairs[seat] = Chair::open();
        Ok(Declined::SeatOpened)
    }

    pub(super) fn from_row(row: LobbyRow) -> Result<Lobby, HostError> {
        let bad = |why: String| HostError::Internal(format!("lobby #{} is corrupt: {why}", row.id));
        let mut lobby: Lobby =
            serde_json::from_str(&row.body).map_err(|e| bad(format!("unreadable: {e}")))?;
        lobby.id = row.id;
        lobby.version = row.version;
        lobby.status = LobbyStatus::from_row(row.status, row.game)
            .ok_or_else(|| bad(format!("unknown status {}", row.status)))?;
        Ok(lobby)
    }
}

/// What a front end asks for when a game is started.
#[derive(Clone, Debug, PartialEq)]
pub struct LobbySpec {
    pub kind: GameKind,
    /// Who starts it; `admin` (Discord: Manage Server) may start a game they do not play in.
    pub starter: Actor,
    /// The people named, in seat order.
    pub people: Vec<PlayerId>,
    /// Bot players, seated after everyone else.
    pub bots: Vec<PlayerId>,
    /// Leave the seats not named open for anyone.
    pub open: bool,
    /// With `open`: how many seats in all (default: the game's most).
    pub seats: Option<usize>,
    pub house_rules: Option<Value>,
    pub timers: Option<Timers>,
    /// How long the lobby waits.
    pub hours: u32,
    /// Where it is opened, in the front end's words (see `Lobby::origin`).
    pub origin: Option<String>,
}

impl LobbySpec {
    /// The lobby this asks for at `now`, or why not.
    fn plan(&self, now: Millis) -> Result<Lobby, Refused> {
        let me = self.starter.player;
        if let Some(t) = &self.timers {
            t.check()?;
        }
        if !self.people.contains(&me) && !self.starter.admin {
            return Err(Refused::StarterMustPlay);
        }
        let mut people = self.people.clone();
        people.sort();
        people.dedup();
        if people.len() != self.people.len() || self.people.iter().any(|&p| bot_level(p).is_some())
        {
            return Err(Refused::OneSeatEach);
        }
        let named = self.people.len() + self.bots.len();
        let total = match (self.open, self.seats) {
            (false, Some(_)) => return Err(Refused::SeatsNeedOpen),
            (false, None) => named,
            (true, seats) => seats.unwrap_or(self.kind.players().1),
        };
        let (min, max) = self.kind.players();
        if total < named || total < min || total > max {
            let given = total.max(named);
            return Err(Refused::player_count(self.kind.name(), min, max, given));
        }
        let mut chairs: Vec<Chair> = self
            .people
            .iter()
            .map(|&p| Chair {
                player: Some(p),
                invited: true,
                joined: p == me,
            })
            .collect();
        chairs.extend((named..total).map(|_| Chair::open()));
        chairs.extend(self.bots.iter().map(|&b| Chair::joined(b)));
        Ok(Lobby {
            id: 0,
            status: LobbyStatus::Open,
            version: 0,
            kind: self.kind,
            starter: me,
            chairs,
            open: self.open,
            house_rules: self.house_rules.clone(),
            timers: self.timers.clone(),
            hours: self.hours,
            expires_at: now + i64::from(self.hours) * 3_600_000,
            origin: self.origin.clone(),
        })
    }
}

/// What opening a lobby did.
#[derive(Clone, Debug, PartialEq)]
pub enum Opened {
    /// The starter and bots filled every seat: the game exists.
    Started { game: GameId, fx: Vec<Effect> },
    /// Waiting for the others.
    Waiting(Lobby),
}

/// What a Join did.
#[derive(Clone, Debug, PartialEq)]
pub enum Joined {
    /// Seated; others are still missing.
    Waiting(Lobby),
    /// The last seat: the game exists (the lobby says which).
    Started { lobby: Lobby, fx: Vec<Effect> },
}

/// What a Decline did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declined {
    Cancelled,
    /// The seat is open for anyone again.
    SeatOpened,
}

impl GameHost {
    /// Open a lobby for `spec` (refused, and nothing stored, if the table is not a game's);
    /// when nobody but the starter and bots play, the game starts at once.
    pub async fn open_lobby(&self, spec: LobbySpec) -> Result<Opened, HostError> {
        let now = self.now();
        let mut lobby = spec.plan(now)?;
        if lobby.full() {
            let (game, fx) = self.start_lobby_game(&lobby).await?;
            return Ok(Opened::Started { game, fx });
        }
        let body = to_json(&lobby)?;
        lobby.id = self
            .store
            .create_lobby(lobby.status.id(), &body, lobby.expires_at, now)
            .await?;
        Ok(Opened::Waiting(lobby))
    }

    /// A lobby as stored.
    pub async fn lobby(&self, id: LobbyId) -> Result<Lobby, HostError> {
        let row = self
            .store
            .lobby(id)
            .await?
            .ok_or(Refused::UnknownLobby(id))?;
        Lobby::from_row(row)
    }

    /// `player` takes their seat in lobby `id` (their invited seat, or an open one); the last
    /// seat taken starts the game.
    pub async fn join_lobby(&self, id: LobbyId, player: PlayerId) -> Result<Joined, HostError> {
        if bot_level(player).is_some() {
            return Err(Refused::BotSeat.into());
        }
        let (lobby, ()) = self.change_lobby(id, true, |l| l.take_seat(player)).await?;
        if !lobby.full() {
            return Ok(Joined::Waiting(lobby));
        }
        // This join filled the table: only this caller gets here (a full lobby takes no more
        // changes), so the game is created once.
        let (game, fx) = match self.start_lobby_game(&lobby).await {
            Ok(started) => started,
            Err(e) => {
                let undo = self.change_lobby(id, false, |l| {
                    for c in l.chairs.iter_mut().filter(|c| c.player == Some(player)) {
                        c.joined = false;
                    }
                    Ok(())
                });
                if let Err(u) = undo.await {
                    tracing::error!(lobby = id, error = %u, "a failed start left the lobby full");
                }
                return Err(e);
            }
        };
        let (lobby, ()) = self
            .change_lobby(id, false, |l| {
                l.status = LobbyStatus::Started(game);
                Ok(())
            })
            .await?;
        Ok(Joined::Started { lobby, fx })
    }

    /// `player` declines lobby `id`: see the module notes.
    pub async fn decline_lobby(
        &self,
        id: LobbyId,
        player: PlayerId,
    ) -> Result<(Lobby, Declined), HostError> {
        self.change_lobby(id, true, |l| l.leave(player)).await
    }

    /// Expire every open lobby whose time has run out; the lobbies expired now.
    pub async fn expire_lobbies(&self) -> Result<Vec<Lobby>, HostError> {
        let now = self.now();
        let mut expired = Vec::new();
        for row in self.store.lobbies_due(LobbyStatus::Open.id(), now).await? {
            let id = row.id;
            let expire = |l: &mut Lobby| match l.status {
                // A full lobby is becoming a game.
                LobbyStatus::Open if !l.full() => {
                    l.status = LobbyStatus::Expired;
                    Ok(true)
                }
                _ => Ok(false),
            };
            match self.change_lobby(id, false, expire).await {
                Ok((lobby, true)) => expired.push(lobby),
                Ok(_) => {}
                Err(e) => tracing::warn!(lobby = id, error = %e, "a lobby did not expire"),
            }
        }
        Ok(expired)
    }

    /// Create the lobby's game, as `create` does, where the lobby was opened.
    async fn start_lobby_game(&self, lobby: &Lobby) -> Result<(GameId, Vec<Effect>), HostError> {
        let setup = Setup {
            kind: lobby.kind,
            players: lobby.players(),
            house_rules: lobby
                .house_rules
                .clone()
                .unwrap_or_else(super::event::empty_object),
            timers: lobby.timers.clone().unwrap_or_default(),
            position: None,
        };
        self.open(setup, lobby.origin.as_deref()).await
    }

    /// Apply `f` to lobby `id` and store the result if the lobby did not move meanwhile (else
    /// read it again and retry). With `admit`, a lobby that no longer takes players is refused
    /// first. Nothing is stored when `f` refuses.
    async fn change_lobby<R>(
        &self,
        id: LobbyId,
        admit: bool,
        f: impl Fn(&mut Lobby) -> Result<R, Refused>,
    ) -> Result<(Lobby, R), HostError> {
        for _ in 0..ATTEMPTS {
            let mut lobby = self.lobby(id).await?;
            let now = self.now();
            if admit {
                lobby.admit(now)?;
            }
            let r = f(&mut lobby)?;
            let body = to_json(&lobby)?;
            let w = LobbyWrite {
                id,
                expected: lobby.version,
                status: lobby.status.id(),
                body: &body,
                game: lobby.status.game(),
                now,
            };
            if self.store.update_lobby(&w).await? {
                lobby.version += 1;
                return Ok((lobby, r));
            }
        }
        Err(HostError::Internal(format!(
            "lobby #{id} kept changing under {ATTEMPTS} attempts"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(people: &[PlayerId], bots: usize) -> LobbySpec {
        LobbySpec {
            kind: GameKind::HexiMeros,
            starter: Actor::player(people[0]),
            people: people.to_vec(),
            bots: vec![-3; bots],
            open: false,
            seats: None,
            house_rules: None,
            timers: None,
            hours: 48,
            origin: None,
        }
    }

    #[test]
    fn the_starter_is_seated_at_once_and_bots_need_no_consent() {
        let l = spec(&[10, 11], 4).plan(0).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(l.players(), [10, 11, -3, -3, -3, -3]);
        assert_eq!(l.waiting(), [11]);
        assert!(!l.full());
        assert_eq!(l.expires_at, 48 * 3_600_000);
    }

    #[test]
    fn open_seats_fill_the_table_to_the_games_most() {
        let mut s = spec(&[10], 1);
        s.open = true;
        let l = s.plan(0).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(l.open_seats(), 4);
        s.seats = Some(7);
        assert_eq!(s.plan(0), Err(Refused::player_count("HexiMeros", 6, 6, 7)));
        s.open = false;
        assert_eq!(s.plan(0), Err(Refused::SeatsNeedOpen));
    }

    #[test]
    fn a_stranger_may_not_start_unless_admin() {
        let mut s = spec(&[10, 11], 4);
        s.starter = Actor::player(99);
        assert_eq!(s.plan(0), Err(Refused::StarterMustPlay));
        s.starter.admin = true;
        let l = s.plan(0).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(l.waiting(), [10, 11]);
    }

    #[test]
    fn a_seat_is_taken_once_and_only_by_its_guest() {
        let mut l = spec(&[10, 11], 4).plan(0).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(l.take_seat(12), Err(Refused::NotInvited(0)));
        assert_eq!(l.take_seat(10), Err(Refused::AlreadyJoined(0)));
        assert_eq!(l.take_seat(11), Ok(()));
        assert!(l.full());
        assert_eq!(l.admit(1), Err(Refused::LobbyFull(0)));
    }
}
