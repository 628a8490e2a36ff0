//! Stateless component ids: `game:action:version[:arg]`. Everything a button or select menu
//! needs is in its id, so the component handler keeps no memory between clicks and a button
//! still works after the bot restarts; the version lets a button from an earlier turn be refused.
//!
//! [`ComponentId`] is the one type of this wire format: [`ComponentId::encode`] makes every
//! `custom_id` the bot posts and [`ComponentId::decode`] reads every one it receives. Buttons
//! already posted in Discord threads carry the text, so the format never changes: each action's
//! key and argument below are exactly what earlier builds posted.

use hexmeros::games::Seat;
use hexmeros::host::GameId;

/// A button or select menu this bot made, as its `custom_id` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComponentId {
    pub game: GameId,
    /// The game's version when the control was made.
    pub version: u64,
    pub action: Action,
}

/// What a component does, with its arguments (the wire key and argument in brackets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Open the move picker in a new private message (turn message) [`pick`].
    Pick,
    /// A piece was picked (the option's value is its origin, `N27` or `D@`): show its zoomed
    /// picture and numbered targets [`from:<menu>`; the picker makes menu 0].
    From { menu: u8 },
    /// A move was picked (the option's value is its text): stage it [`to:<menu>`; the picker
    /// makes menu 0].
    To { menu: u8 },
    /// Page `page` of the picker's pieces, in place [`pieces:<page>`].
    Pieces { page: u8 },
    /// Page `page` of the targets of the picker's piece number `piece`, in place
    /// [`targets:<piece>-<page>`].
    Targets { piece: u16, page: u8 },
    /// A target of piece number `piece` was picked (the option's value is its number): stage
    /// its move or offer its choices, in place [`target:<piece>`].
    Target { piece: u16 },
    /// The picker's piece number `piece` was tapped (a button, where the pieces fit on one
    /// message): its zoomed picture and targets, in place [`piece:<piece>`].
    PieceAt { piece: u16 },
    /// Piece number `piece` was tapped on the turn message itself (its pieces are buttons there
    /// when they fit): the picker opens in a new private message at that piece's targets
    /// [`open:<piece>`].
    OpenPiece { piece: u16 },
    /// Target `target` of piece number `piece` was tapped (a button, where a piece has few
    /// enough targets): stage its move or offer its choices, in place [`tap:<piece>-<target>`].
    Tap { piece: u16, target: u16 },
    /// Page `page` of the moves ending on target `target` of piece number `piece` (a
    /// promotion's pieces), in place [`choices:<piece>-<target>-<page>`].
    Choices { piece: u16, target: u16, page: u8 },
    /// Open a box to type a move in (a modal; its submission carries the same id) [`type`].
    TypeMove,
    /// Pass the Token with the staged move [`pass`].
    Pass,
    /// Take the staged move back [`back`].
    Back,
    /// Offer the Check declarations the staged move can carry [`checks`].
    Checks,
    /// Add a Check declaration on `seat` [`check:<seat>`].
    Check { seat: Seat },
    /// Declare Check on `seat` and pass the Token in one tap [`passcheck:<seat>`].
    PassCheck { seat: Seat },
    /// Answer the challenge window: declare Check upon the mover, or let the move stand
    /// [`chal:y`, `chal:n`].
    Challenge { declare: bool },
    /// Vote on a motion [`vote:<motion>-y`, `vote:<motion>-n`].
    Vote { motion: u64, yes: bool },
    /// With two players left, claim the win on time once the opponent's turn timer ran out
    /// [`claim`].
    Claim,
    /// Show the board from the presser's side, privately [`board`].
    Board,
    /// The status panel's Pass: commit whatever move the presser has staged now (the panel
    /// stays up for the whole game, so its controls carry no turn) [`ppass`].
    PanelPass,
    /// The status panel's Take back: take back whatever move the presser has staged now
    /// [`pback`].
    PanelBack,
    /// Launch the board's Discord Activity in the game's thread [`play`].
    Play,
    /// Propose what to do about the stalled Token holder `seat`; `turn` is the number of record
    /// lines when the turn began [`stall:<skip|expel|bot>-<seat>-<turn>`].
    Stall {
        proposal: Proposal,
        seat: Seat,
        turn: usize,
    },
    /// Take my seat in the lobby whose id stands where a game's would [`ljoin`].
    LobbyJoin,
    /// Decline the lobby whose id stands where a game's would [`ldecline`].
    LobbyDecline,
    /// Pass the Token with the staged move once its challenge window closes with nobody
    /// declaring [`autopass`].
    PassWhenClosed,
    /// Confirm `/hexmeros resign`, naming the replacement the others vote on, if any
    /// [`resign`, `resign:<player>`]. Made at the game's version when asked, it holds while
    /// nothing has happened in the game since.
    Resign { replacement: Option<u64> },
    /// The house rules menu's list of rules, in place [`hrules`].
    HouseRules,
    /// A house rule was picked (the option's value is its key): its values, in place
    /// [`hrule`].
    HouseRule,
    /// A value of the house rules menu's rule number `rule` was picked (the option's value is
    /// its JSON): propose it, in place [`hvalue:<rule>`].
    HouseValue { rule: u8 },
    /// Page `page` of `/hexmeros games`, in place; the user whose list it is stands where a
    /// game's id would [`mine:<page>`].
    Mine { page: u8 },
}

/// What a stalled-player button puts to the vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proposal {
    /// Pass the stalled player's Token without a move.
    Skip,
    /// Expel the stalled player.
    Expel,
    /// A bot takes the stalled player's seat.
    Bot,
}

/// Why a `custom_id` is not one this bot makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadId {
    #[error("a component id is `game:action:version[:arg]`")]
    Shape,
    #[error("a component id names no action I know")]
    UnknownAction,
    #[error("a component id has the wrong argument for its action")]
    Argument,
}

impl ComponentId {
    pub fn new(game: GameId, version: u64, action: Action) -> ComponentId {
        ComponentId {
            game,
            version,
            action,
        }
    }

    /// The `custom_id` text: `game:action:version[:arg]`.
    pub fn encode(&self) -> String {
        let head = format!("{}:{}:{}", self.game, self.action.key(), self.version);
        match self.action.arg() {
            Some(arg) => format!("{head}:{arg}"),
            None => head,
        }
    }

    /// Read a `custom_id`. Only the exact text [`encode`](Self::encode) makes is accepted, so
    /// every control has one spelling and anything else is refused.
    pub fn decode(s: &str) -> Result<ComponentId, BadId> {
        let mut parts = s.splitn(4, ':');
        let game = parts
            .next()
            .and_then(|g| g.parse().ok())
            .ok_or(BadId::Shape)?;
        let key = parts.next().ok_or(BadId::Shape)?;
        let version = parts
            .next()
            .and_then(|v| v.parse().ok())
            .ok_or(BadId::Shape)?;
        let id = ComponentId::new(game, version, Action::decode(key, parts.next())?);
        if id.encode() != s {
            // `+7`, `007`: a number spelled otherwise than the bot spells it.
            return Err(BadId::Shape);
        }
        Ok(id)
    }
}

/// The actions without an argument, by key.
const BARE: [(&str, Action); 15] = [
    ("pick", Action::Pick),
    ("pass", Action::Pass),
    ("type", Action::TypeMove),
    ("back", Action::Back),
    ("checks", Action::Checks),
    ("board", Action::Board),
    ("play", Action::Play),
    ("claim", Action::Claim),
    ("ljoin", Action::LobbyJoin),
    ("ldecline", Action::LobbyDecline),
    ("autopass", Action::PassWhenClosed),
    ("hrules", Action::HouseRules),
    ("hrule", Action::HouseRule),
    ("ppass", Action::PanelPass),
    ("pback", Action::PanelBack),
];

impl Action {
    fn key(self) -> &'static str {
        match self {
            Action::Pick => "pick",
            Action::From { .. } => "from",
            Action::To { .. } => "to",
            Action::Pieces { .. } => "pieces",
            Action::Targets { .. } => "targets",
            Action::Target { .. } => "target",
            Action::PieceAt { .. } => "piece",
            Action::OpenPiece { .. } => "open",
            Action::Tap { .. } => "tap",
            Action::Choices { .. } => "choices",
            Action::Pass => "pass",
            Action::TypeMove => "type",
            Action::Back => "back",
            Action::Checks => "checks",
            Action::Check { .. } => "check",
            Action::PassCheck { .. } => "passcheck",
            Action::Challenge { .. } => "chal",
            Action::Vote { .. } => "vote",
            Action::Claim => "claim",
            Action::Board => "board",
            Action::PanelPass => "ppass",
            Action::PanelBack => "pback",
            Action::Play => "play",
            Action::Stall { .. } => "stall",
            Action::LobbyJoin => "ljoin",
            Action::LobbyDecline => "ldecline",
            Action::PassWhenClosed => "autopass",
            Action::HouseRules => "hrules",
            Action::HouseRule => "hrule",
            Action::HouseValue { .. } => "hvalue",
            Action::Resign { .. } => "resign",
            Action::Mine { .. } => "mine",
        }
    }

    fn arg(self) -> Option<String> {
        match self {
            Action::Pick
            | Action::TypeMove
            | Action::Pass
            | Action::Back
            | Action::Checks
            | Action::Claim
            | Action::Board
            | Action::PanelPass
            | Action::PanelBack
            | Action::Play
            | Action::LobbyJoin
            | Action::LobbyDecline
            | Action::PassWhenClosed
            | Action::HouseRules
            | Action::HouseRule => None,
            Action::From { menu } | Action::To { menu } => Some(menu.to_string()),
            Action::Pieces { page } | Action::Mine { page } => Some(page.to_string()),
            Action::Targets { piece, page } => Some(format!("{piece}-{page}")),
            Action::Target { piece } | Action::PieceAt { piece } | Action::OpenPiece { piece } => {
                Some(piece.to_string())
            }
            Action::Tap { piece, target } => Some(format!("{piece}-{target}")),
            Action::Choices {
                piece,
                target,
                page,
            } => Some(format!("{piece}-{target}-{page}")),
            Action::Check { seat } | Action::PassCheck { seat } => Some(seat.0.to_string()),
            Action::Challenge { declare } => Some(yes_no(declare).to_string()),
            Action::Vote { motion, yes } => Some(format!("{motion}-{}", yes_no(yes))),
            Action::Stall {
                proposal,
                seat,
                turn,
            } => Some(format!("{}-{}-{turn}", proposal.key(), seat.0)),
            Action::HouseValue { rule } => Some(rule.to_string()),
            Action::Resign { replacement } => replacement.map(|p| p.to_string()),
        }
    }

    fn decode(key: &str, arg: Option<&str>) -> Result<Action, BadId> {
        match BARE.iter().find(|(k, _)| *k == key) {
            // An action without an argument takes none.
            Some(&(_, action)) => arg.map_or(Ok(action), |_| Err(BadId::Argument)),
            None if key == "mine" => Ok(Action::Mine {
                page: number(arg.ok_or(BadId::Argument)?)?,
            }),
            None => Self::decode_with_arg(key, arg),
        }
    }

    /// [`Action::decode`] for the actions that carry an argument (`resign`'s is optional).
    fn decode_with_arg(key: &str, arg: Option<&str>) -> Result<Action, BadId> {
        let optional = arg;
        let arg = || arg.ok_or(BadId::Argument);
        Ok(match key {
            "from" => Action::From {
                menu: number(arg()?)?,
            },
            "to" => Action::To {
                menu: number(arg()?)?,
            },
            "pieces" => Action::Pieces {
                page: number(arg()?)?,
            },
            "target" => Action::Target {
                piece: number(arg()?)?,
            },
            "piece" => Action::PieceAt {
                piece: number(arg()?)?,
            },
            "open" => Action::OpenPiece {
                piece: number(arg()?)?,
            },
            "tap" => {
                let (piece, target) = arg()?.split_once('-').ok_or(BadId::Argument)?;
                Action::Tap {
                    piece: number(piece)?,
                    target: number(target)?,
                }
            }
            "targets" => {
                let (piece, page) = arg()?.split_once('-').ok_or(BadId::Argument)?;
                Action::Targets {
                    piece: number(piece)?,
                    page: number(page)?,
                }
            }
            "choices" => {
                let mut parts = arg()?.splitn(3, '-');
                let mut next = || parts.next().ok_or(BadId::Argument);
                Action::Choices {
                    piece: number(next()?)?,
                    target: number(next()?)?,
                    page: number(next()?)?,
                }
            }
            "check" => Action::Check {
                seat: Seat(number(arg()?)?),
            },
            "passcheck" => Action::PassCheck {
                seat: Seat(number(arg()?)?),
            },
            "chal" => Action::Challenge {
                declare: from_yes_no(arg()?)?,
            },
            "vote" => {
                let (motion, yes) = arg()?.split_once('-').ok_or(BadId::Argument)?;
                Action::Vote {
                    motion: number(motion)?,
                    yes: from_yes_no(yes)?,
                }
            }
            "stall" => {
                let mut parts = arg()?.splitn(3, '-');
                let mut next = || parts.next().ok_or(BadId::Argument);
                Action::Stall {
                    proposal: Proposal::from_key(next()?)?,
                    seat: Seat(number(next()?)?),
                    turn: number(next()?)?,
                }
            }
            "resign" => Action::Resign {
                replacement: optional.map(number).transpose()?,
            },
            "hvalue" => Action::HouseValue {
                rule: number(arg()?)?,
            },
            _ => return Err(BadId::UnknownAction),
        })
    }

    /// For a lobby's button (its id names a lobby, not a game): whether it joins.
    pub fn lobby_join(self) -> Option<bool> {
        match self {
            Action::LobbyJoin => Some(true),
            Action::LobbyDecline => Some(false),
            _ => None,
        }
    }

    /// Whether the action is a step of the move picker after its first: its answer updates the
    /// private message the control sits on instead of adding one.
    pub fn in_place(self) -> bool {
        matches!(
            self,
            Action::From { .. }
                | Action::To { .. }
                | Action::Pieces { .. }
                | Action::Targets { .. }
                | Action::Target { .. }
                | Action::PieceAt { .. }
                | Action::Tap { .. }
                | Action::Choices { .. }
                | Action::HouseRules
                | Action::HouseRule
                | Action::Mine { .. }
                | Action::HouseValue { .. }
        )
    }

    /// Whether the action belongs to a turn message (or a reply to one), so that a control made
    /// before the current turn message is stale.
    pub fn of_turn(self) -> bool {
        matches!(
            self,
            Action::Pick
                | Action::TypeMove
                | Action::From { .. }
                | Action::To { .. }
                | Action::Pieces { .. }
                | Action::Targets { .. }
                | Action::Target { .. }
                | Action::PieceAt { .. }
                | Action::OpenPiece { .. }
                | Action::Tap { .. }
                | Action::Choices { .. }
                | Action::Pass
                | Action::Back
                | Action::Checks
                | Action::Check { .. }
                | Action::PassCheck { .. }
                | Action::PassWhenClosed
        )
    }
}

impl Proposal {
    fn key(self) -> &'static str {
        match self {
            Proposal::Skip => "skip",
            Proposal::Expel => "expel",
            Proposal::Bot => "bot",
        }
    }

    fn from_key(key: &str) -> Result<Proposal, BadId> {
        match key {
            "skip" => Ok(Proposal::Skip),
            "expel" => Ok(Proposal::Expel),
            "bot" => Ok(Proposal::Bot),
            _ => Err(BadId::Argument),
        }
    }
}

fn yes_no(yes: bool) -> &'static str {
    if yes { "y" } else { "n" }
}

fn from_yes_no(s: &str) -> Result<bool, BadId> {
    match s {
        "y" => Ok(true),
        "n" => Ok(false),
        _ => Err(BadId::Argument),
    }
}

fn number<T: std::str::FromStr>(s: &str) -> Result<T, BadId> {
    s.parse().map_err(|_| BadId::Argument)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn id(game: GameId, version: u64, action: Action) -> Result<ComponentId, BadId> {
        Ok(ComponentId::new(game, version, action))
    }

    /// Every action with arbitrary arguments.
    fn any_action() -> impl Strategy<Value = Action> {
        let seat = any::<u8>().prop_map(Seat);
        let proposal = prop_oneof![
            Just(Proposal::Skip),
            Just(Proposal::Expel),
            Just(Proposal::Bot)
        ];
        prop_oneof![
            Just(Action::Pick),
            any::<u8>().prop_map(|menu| Action::From { menu }),
            any::<u8>().prop_map(|menu| Action::To { menu }),
            any::<u8>().prop_map(|page| Action::Pieces { page }),
            any::<u8>().prop_map(|page| Action::Mine { page }),
            (any::<u16>(), any::<u8>()).prop_map(|(piece, page)| Action::Targets { piece, page }),
            any::<u16>().prop_map(|piece| Action::Target { piece }),
            any::<u16>().prop_map(|piece| Action::PieceAt { piece }),
            any::<u16>().prop_map(|piece| Action::OpenPiece { piece }),
            (any::<u16>(), any::<u16>()).prop_map(|(piece, target)| Action::Tap { piece, target }),
            (any::<u16>(), any::<u16>(), any::<u8>()).prop_map(|(piece, target, page)| {
                Action::Choices {
                    piece,
                    target,
                    page,
                }
            }),
            Just(Action::Pass),
            Just(Action::TypeMove),
            Just(Action::Back),
            Just(Action::Checks),
            seat.clone().prop_map(|seat| Action::Check { seat }),
            seat.clone().prop_map(|seat| Action::PassCheck { seat }),
            any::<bool>().prop_map(|declare| Action::Challenge { declare }),
            (any::<u64>(), any::<bool>()).prop_map(|(motion, yes)| Action::Vote { motion, yes }),
            Just(Action::Claim),
            Just(Action::Board),
            Just(Action::PanelPass),
            Just(Action::PanelBack),
            Just(Action::Play),
            (proposal, seat, any::<usize>()).prop_map(|(proposal, seat, turn)| Action::Stall {
                proposal,
                seat,
                turn
            }),
            Just(Action::LobbyJoin),
            Just(Action::LobbyDecline),
            Just(Action::PassWhenClosed),
            Just(Action::HouseRules),
            Just(Action::HouseRule),
            any::<u8>().prop_map(|rule| Action::HouseValue { rule }),
        ]
    }

    proptest! {
        #[test]
        fn every_id_round_trips(game: GameId, version: u64, action in any_action()) {
            let id = ComponentId::new(game, version, action);
            let text = id.encode();
            // Discord's limit on a custom_id.
            prop_assert!(text.len() <= 100, "{text} is too long");
            prop_assert_eq!(ComponentId::decode(&text), Ok(id));
        }

        /// Near misses too: a number spelled `+7` or `07`, a stray argument, a wrong one.
        #[test]
        fn only_encoded_text_decodes(
            s in "[-+0]?[0-9]{1,3}:(pick|from|to|pass|check|chal|vote|stall|fly):[+0]?[0-9]{1,3}\
                  (:(skip-|bot-|[+0])?[-0-9yn]{0,6})?"
        ) {
            if let Ok(id) = ComponentId::decode(&s) {
                prop_assert_eq!(id.encode(), s);
            }
        }
    }

    #[test]
    fn todays_ids_decode() {
        let cases = [
            ("12:pick:7", id(12, 7, Action::Pick)),
            ("12:from:7:0", id(12, 7, Action::From { menu: 0 })),
            ("12:to:7:4", id(12, 7, Action::To { menu: 4 })),
            ("3:pass:9", id(3, 9, Action::Pass)),
            ("3:type:9", id(3, 9, Action::TypeMove)),
            ("3:back:9", id(3, 9, Action::Back)),
            ("3:ppass:9", id(3, 9, Action::PanelPass)),
            ("3:pback:9", id(3, 9, Action::PanelBack)),
            ("3:resign:9", id(3, 9, Action::Resign { replacement: None })),
            (
                "3:resign:9:42",
                id(
                    3,
                    9,
                    Action::Resign {
                        replacement: Some(42),
                    },
                ),
            ),
            ("3:checks:9", id(3, 9, Action::Checks)),
            ("3:piece:9:21", id(3, 9, Action::PieceAt { piece: 21 })),
            ("3:open:9:4", id(3, 9, Action::OpenPiece { piece: 4 })),
            (
                "3:tap:9:4-17",
                id(
                    3,
                    9,
                    Action::Tap {
                        piece: 4,
                        target: 17,
                    },
                ),
            ),
            ("3:check:9:5", id(3, 9, Action::Check { seat: Seat(5) })),
            (
                "3:passcheck:9:2",
                id(3, 9, Action::PassCheck { seat: Seat(2) }),
            ),
            ("3:chal:9:y", id(3, 9, Action::Challenge { declare: true })),
            ("3:chal:9:n", id(3, 9, Action::Challenge { declare: false })),
            (
                "3:vote:9:2-y",
                id(
                    3,
                    9,
                    Action::Vote {
                        motion: 2,
                        yes: true,
                    },
                ),
            ),
            (
                "3:vote:9:2-n",
                id(
                    3,
                    9,
                    Action::Vote {
                        motion: 2,
                        yes: false,
                    },
                ),
            ),
            ("3:board:9", id(3, 9, Action::Board)),
            ("3:play:9", id(3, 9, Action::Play)),
            ("3:pieces:9:1", id(3, 9, Action::Pieces { page: 1 })),
            (
                "3:targets:9:4-2",
                id(3, 9, Action::Targets { piece: 4, page: 2 }),
            ),
            ("3:target:9:4", id(3, 9, Action::Target { piece: 4 })),
            (
                "3:choices:9:4-7-0",
                id(
                    3,
                    9,
                    Action::Choices {
                        piece: 4,
                        target: 7,
                        page: 0,
                    },
                ),
            ),
            ("3:claim:9", id(3, 9, Action::Claim)),
            ("4:ljoin:0", id(4, 0, Action::LobbyJoin)),
            ("4:ldecline:0", id(4, 0, Action::LobbyDecline)),
            ("3:autopass:9", id(3, 9, Action::PassWhenClosed)),
            ("5:hrules:2", id(5, 2, Action::HouseRules)),
            ("5:hrule:2", id(5, 2, Action::HouseRule)),
            ("5:hvalue:2:13", id(5, 2, Action::HouseValue { rule: 13 })),
        ];
        for (text, want) in cases {
            assert_eq!(ComponentId::decode(text), want, "{text}");
        }
        for (text, proposal) in [
            ("3:stall:9:skip-0-4", Proposal::Skip),
            ("3:stall:9:expel-0-4", Proposal::Expel),
            ("3:stall:9:bot-0-4", Proposal::Bot),
        ] {
            let stall = Action::Stall {
                proposal,
                seat: Seat(0),
                turn: 4,
            };
            assert_eq!(ComponentId::decode(text), id(3, 9, stall), "{text}");
        }
    }

    #[test]
    fn malformed_ids_are_refused() {
        let cases = [
            ("", BadId::Shape),
            ("3:pass", BadId::Shape),
            ("x:pass:9", BadId::Shape),
            ("3:pass:v9", BadId::Shape),
            ("3:pass:+9", BadId::Shape),
            ("03:pass:9", BadId::Shape),
            ("3:to:9:01", BadId::Shape),
            ("3:fly:9", BadId::UnknownAction),
            ("3:pass:9:x", BadId::Argument),
            ("3:claim:9:y", BadId::Argument),
            ("3:to:9", BadId::Argument),
            ("3:to:9:0.a2-0.a3", BadId::Argument),
            ("3:check:9:256", BadId::Argument),
            ("3:chal:9:maybe", BadId::Argument),
            ("3:vote:9:2", BadId::Argument),
            ("3:vote:9:x-y", BadId::Argument),
            ("3:stall:9:nap-0-4", BadId::Argument),
            ("3:stall:9:skip-0", BadId::Argument),
            ("3:stall:9:skip-0-4-1", BadId::Argument),
            ("4:ljoin:0:1", BadId::Argument),
            ("3:autopass:9:y", BadId::Argument),
            ("3:pieces:9", BadId::Argument),
            ("3:targets:9:4", BadId::Argument),
            ("3:choices:9:4-7", BadId::Argument),
            ("3:target:9:70000", BadId::Argument),
            ("5:hrule:2:0", BadId::Argument),
            ("5:hvalue:2", BadId::Argument),
            ("5:hvalue:2:256", BadId::Argument),
        ];
        for (text, want) in cases {
            assert_eq!(ComponentId::decode(text), Err(want), "{text}");
        }
    }
}
