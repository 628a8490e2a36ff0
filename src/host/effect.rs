//! What the host asks a front end to do after a command or a tick. Plain data with player ids and
//! sentences (`words::Sentence`: words and players): the Discord front end maps each to an API
//! call, the terminal prints them.

use serde::{Deserialize, Serialize};

use super::digest::Digest;
use super::event::{GameId, PlayerId};
use super::words::Sentence;
use crate::games::Seat;

/// Stored in the outbox as JSON (`host::outbox`): a variant's name and fields are kept stable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// A new game: open its thread (or the terminal's equivalent).
    OpenThread { game: GameId, title: String },
    /// The game has ended for good (finished or aborted): the thread is closed (archived), after
    /// everything else the game said.
    CloseThread { game: GameId },
    /// Post the board in the game's thread, with a caption.
    Board {
        game: GameId,
        board: String,
        caption: String,
        /// The new Token holder's ping, said in the board's own message: the outbox folds a
        /// `Ping` that follows its board into it (`host::outbox`), so a move costs one message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ping: Option<Pinged>,
    },
    /// A public message in the game's thread.
    Say { game: GameId, text: Sentence },
    /// Mention a player in the game's thread.
    Ping {
        game: GameId,
        player: PlayerId,
        text: Sentence,
    },
    /// A direct message (reminders that escalate), about `game` if it is about one (none in
    /// entries stored before it was carried).
    Dm {
        player: PlayerId,
        text: Sentence,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        about: Option<GameId>,
    },
    /// The Token came to `player` in `game`, who asked to hear of their turns by direct message
    /// too (`/hexmeros notify turn`); once per turn, in their direct messages' lane.
    YourTurn {
        game: GameId,
        player: PlayerId,
        text: Sentence,
    },
    /// Everyone waits on `player` alone in `game` (a motion's last vote), who asked to be told
    /// by direct message (`/hexmeros notify nudge`).
    Nudge {
        game: GameId,
        player: PlayerId,
        text: Sentence,
    },
    /// `player`'s daily digest (`/hexmeros notify digest`), in their direct messages' lane.
    Digest { player: PlayerId, digest: Digest },
    /// A reply only the acting player sees (a preview, a confirmation).
    Private { player: PlayerId, text: Sentence },
    /// Ask a player in a challenge window (§5.4): "Declare Check / Let it stand" buttons whose
    /// ids carry `version`, so a stale button is refused.
    AskChallenge {
        game: GameId,
        player: PlayerId,
        version: u64,
        text: Sentence,
    },
    /// A motion was opened: a ballot with Yes / No buttons in the game's thread, saying the
    /// motion and pinging the players asked to vote, in one message.
    Ballot {
        game: GameId,
        motion: u64,
        /// The motion as announced (`motion #2 by Yellow: …`). Empty in entries stored before
        /// it was carried here: the front end words the ballot from the game's state.
        #[serde(default, skip_serializing_if = "Sentence::is_empty")]
        text: Sentence,
        /// The players asked to vote (pinged by the ballot).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        voters: Vec<PlayerId>,
    },
    /// The Token holder's turn timer ran out (once per turn): the others are offered the choices
    /// of §8 (with two seats left, the waiting player may claim the win on time).
    Stalled {
        game: GameId,
        seat: Seat,
        turn: usize,
    },
    /// The game has finished: its replay (an animated picture) in the thread.
    Replay { game: GameId },
    /// The game's status panel (seats, whose turn since when, timers, house rules, open votes,
    /// the last round: `GameState::panel`) is brought up to date: posted and pinned the first
    /// time, edited afterwards. The outbox adds one after the effects of every event.
    Panel { game: GameId },
    /// The game has finished: its results table (places, §7 points, rating changes; see
    /// `GameHost::results`, which rebuilds it from the store), pinging every player.
    Results { game: GameId },
}

/// A player pinged with a text (a folded [`Effect::Ping`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pinged {
    pub player: PlayerId,
    pub text: Sentence,
}

impl Effect {
    /// The game an effect belongs to, if any.
    pub fn game(&self) -> Option<GameId> {
        match self {
            Effect::OpenThread { game, .. }
            | Effect::CloseThread { game }
            | Effect::Board { game, .. }
            | Effect::Say { game, .. }
            | Effect::Ping { game, .. }
            | Effect::AskChallenge { game, .. }
            | Effect::Ballot { game, .. }
            | Effect::Stalled { game, .. }
            | Effect::Replay { game }
            | Effect::Results { game }
            | Effect::Panel { game } => Some(*game),
            Effect::Dm { .. }
            | Effect::Private { .. }
            | Effect::YourTurn { .. }
            | Effect::Nudge { .. }
            | Effect::Digest { .. } => None,
        }
    }

    /// The outbox lane it goes out in: its game's thread, or the player's direct messages.
    /// Entries of one lane are delivered in order.
    pub fn lane(&self) -> String {
        match (self.game(), self) {
            (Some(g), _) => game_lane(g),
            (
                None,
                Effect::Dm { player, .. }
                | Effect::Private { player, .. }
                | Effect::YourTurn { player, .. }
                | Effect::Nudge { player, .. }
                | Effect::Digest { player, .. },
            ) => {
                format!("p{player}")
            }
            (None, _) => "misc".to_string(),
        }
    }
}

/// The outbox lane of a game's thread: its effects, delivered in order.
pub fn game_lane(game: GameId) -> String {
    format!("g{game}")
}

#[cfg(test)]
mod tests {
    use super::{Effect, Sentence};

    #[test]
    fn an_entry_stored_before_sentences_were_typed_reads_back_with_its_players() {
        let old = r#"{"Say":{"game":3,"text":"motion #1 (player 77000000000000000 takes over gold) passed"}}"#;
        let Effect::Say { game, text } = serde_json::from_str::<Effect>(old).unwrap() else {
            panic!("not a Say")
        };
        assert_eq!(game, 3);
        assert_eq!(text.players().collect::<Vec<_>>(), [77_000_000_000_000_000]);
        // Stored today: the player is a piece of its own, and words stay words.
        let now = Effect::Say {
            game: 3,
            text: Sentence::from("motion #1 (") + Sentence::player(77) + ") player 5",
        };
        let json = serde_json::to_string(&now).unwrap();
        assert_eq!(
            json,
            r#"{"Say":{"game":3,"text":["motion #1 (",{"player":77},") player 5"]}}"#
        );
        assert_eq!(serde_json::from_str::<Effect>(&json).unwrap(), now);
        // A ballot stored before it carried its words still reads (empty words).
        let ballot = r#"{"Ballot":{"game":3,"motion":9}}"#;
        let Effect::Ballot { text, .. } = serde_json::from_str::<Effect>(ballot).unwrap() else {
            panic!("not a Ballot")
        };
        assert!(text.is_empty());
    }
}
