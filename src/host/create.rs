//! Starting a game: from the start position or a position, its seats checked (one each for a
//! person, a bot may take several), stored with what it first says (its thread, its first
//! words, the board, the first Token holder's ping) in one transaction.

use serde_json::Value;

use super::{
    Effect, GameHost, GameId, GameState, HostError, PlayerId, Refused, Setup, Timers, bot_level,
    event, house_json, outbox, say, to_json,
};
use crate::games::GameKind;
use crate::store::{NewGame, StoreError};

impl GameHost {
    /// Start a game: one seat per player in seat order (HexiMeros: Silver first).
    pub async fn create(
        &self,
        kind: GameKind,
        players: &[PlayerId],
        house_rules: Option<Value>,
        timers: Option<Timers>,
    ) -> Result<(GameId, Vec<Effect>), HostError> {
        let setup = Setup {
            kind,
            players: players.to_vec(),
            house_rules: house_rules.unwrap_or_else(event::empty_object),
            timers: timers.unwrap_or_default(),
            position: None,
        };
        self.open(setup, None).await
    }

    /// Start a game from a position (position JSON: its `game` picks the game, its house rules
    /// are the game's) instead of the start position: a scenario, an endgame study, a game moved
    /// from elsewhere. The game is under way at once (no House Rules phase).
    pub async fn create_from_position(
        &self,
        players: &[PlayerId],
        position: &str,
        timers: Option<Timers>,
    ) -> Result<(GameId, Vec<Effect>), HostError> {
        let game =
            crate::games::read_position(position).map_err(|e| Refused::Rules(e.to_string()))?;
        let json: Value =
            serde_json::from_str(position).map_err(|e| Refused::Rules(e.to_string()))?;
        let setup = Setup {
            kind: game.kind(),
            players: players.to_vec(),
            house_rules: event::empty_object(),
            timers: timers.unwrap_or_default(),
            position: Some(json),
        };
        self.open(setup, None).await
    }

    /// Store a new game from `setup` and say so. `origin` is where the front end started it
    /// (kept as the game's channel until its thread is known).
    pub(super) async fn open(
        &self,
        setup: Setup,
        origin: Option<&str>,
    ) -> Result<(GameId, Vec<Effect>), HostError> {
        setup.timers.check()?;
        let kind = setup.kind;
        let players = setup.players.clone();
        let players = players.as_slice();
        // One bot player may take several seats; a person only one.
        let mut seen: Vec<PlayerId> = players
            .iter()
            .copied()
            .filter(|&p| bot_level(p).is_none())
            .collect();
        let people = seen.len();
        seen.sort();
        seen.dedup();
        if seen.len() != people {
            return Err(Refused::OneSeatEach.into());
        }
        let (min, max) = kind.players();
        if players.len() < min || players.len() > max {
            return Err(Refused::player_count(kind.name(), min, max, players.len()).into());
        }

        let now = self.now();
        let mut state = GameState::new(0, setup.clone(), now)?;
        let turn_dm = self.with_quiet(&mut state).await;
        let setup_json = to_json(&setup)?;
        let row = NewGame {
            kind: kind.key(),
            status: state.status().id(),
            setup: &setup_json,
            house_rules: &house_json(&state),
            players,
            to_move: state.holder_player(),
            next_due: state.next_due(),
            channel: origin,
            now,
        };
        let id = self
            .store
            .create_game(&row, |id| {
                if !self.outbox {
                    return Ok(Vec::new());
                }
                outbox::entries(id, &opening(&state, id, turn_dm), None, None, 0)
                    .map_err(|e| StoreError::Encode(e.to_string()))
            })
            .await?;
        let mut state = state;
        state.set_id(id);
        let fx = opening(&state, id, turn_dm);
        *self.slot(id).lock().await = Some(state);
        Ok((id, fx))
    }
}

/// What a new game says: its thread, the board with its first words, and the first Token
/// holder's ping (a person's): one message after the thread; and their DM if they asked for
/// one on their turn (`turn_dm`).
fn opening(state: &GameState, id: GameId, turn_dm: bool) -> Vec<Effect> {
    let name = state.kind().name();
    let mut fx = vec![
        Effect::OpenThread {
            game: id,
            title: say::thread_title(name, id),
        },
        Effect::Board {
            game: id,
            board: state.position().show(),
            caption: say::START_POSITION.into(),
            ping: None,
        },
    ];
    if let (Some(seat), Some(player)) = (state.holder(), state.holder_player())
        && bot_level(player).is_none()
    {
        fx.push(Effect::Ping {
            game: id,
            player,
            text: say::your_token(&state.seat_title(seat), state.forced().as_ref()).into(),
        });
    }
    if turn_dm {
        fx.extend(super::notify::your_turn(state, id));
    }
    fx
}
