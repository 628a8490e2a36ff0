//! Every game's house rules as data, for menus and for the list of rules in force: each rule's
//! key (the field of the game's `HouseRules`, as `/hexmeros vote house-rule` names it), a short
//! name, one line about it, the values it allows and the values a menu offers. Pure: the current
//! value is read from a position ([`current`]), nothing here knows Discord or the host.
//!
//! The lists are checked against the games' `HouseRules` types by the tests below: every field a
//! game accepts is listed, and every value a menu offers starts a game.

use serde::Serialize;
use serde_json::Value;

use super::{AnyGame, GameKind, Rules};

/// The values a house rule allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowed {
    /// On or off (`true`, `false`).
    Bool,
    /// One of these words (the serde names of the rule's enum), the spec's first.
    OneOf(&'static [&'static str]),
    /// A whole number from `min` to `max`; a menu offers `offered`.
    Number {
        min: u32,
        max: u32,
        offered: &'static [u32],
    },
    /// None (`null`) or a whole number from `min` to `max`; a menu offers none and `offered`.
    NoneOrNumber {
        min: u32,
        max: u32,
        offered: &'static [u32],
    },
    /// JSON only, through `/hexmeros vote house-rule` (`example` is one such value): no menu
    /// offers these.
    Json { example: &'static str },
}

/// One house rule of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HouseRule {
    /// The field of the game's house rules (what `/hexmeros vote house-rule` takes).
    pub key: &'static str,
    /// A short name players read.
    pub name: &'static str,
    /// One line about it.
    pub about: &'static str,
    pub allowed: Allowed,
}

impl Allowed {
    /// The values a menu offers, in order (a menu holds at most 25).
    pub fn offered(self) -> Vec<Value> {
        match self {
            Allowed::Bool => vec![Value::Bool(true), Value::Bool(false)],
            Allowed::OneOf(words) => words.iter().map(|w| Value::from(*w)).collect(),
            Allowed::Number { offered, .. } => offered.iter().map(|&n| Value::from(n)).collect(),
            Allowed::NoneOrNumber { offered, .. } => std::iter::once(Value::Null)
                .chain(offered.iter().map(|&n| Value::from(n)))
                .collect(),
            Allowed::Json { .. } => Vec::new(),
        }
    }

    /// Whether `value` is one this rule allows (the game may still refuse a combination).
    pub fn allows(self, value: &Value) -> bool {
        let number = |min: u32, max: u32| {
            value
                .as_u64()
                .is_some_and(|n| n >= u64::from(min) && n <= u64::from(max))
        };
        match self {
            Allowed::Bool => value.is_boolean(),
            Allowed::OneOf(words) => value.as_str().is_some_and(|s| words.contains(&s)),
            Allowed::Number { min, max, .. } => number(min, max),
            Allowed::NoneOrNumber { min, max, .. } => value.is_null() || number(min, max),
            Allowed::Json { .. } => true,
        }
    }

    /// The allowed values in words.
    pub fn describe(self) -> String {
        let range = |min: u32, max: u32| {
            if max == u32::MAX {
                format!("a whole number from {min} up")
            } else {
                format!("a whole number from {min} to {max}")
            }
        };
        match self {
            Allowed::Bool => "on or off".into(),
            Allowed::OneOf(words) => format!("one of {}", words.join(", ")),
            Allowed::Number { min, max, .. } => range(min, max),
            Allowed::NoneOrNumber { min, max, .. } => format!("none, or {}", range(min, max)),
            Allowed::Json { example } => format!("JSON, e.g. {example}"),
        }
    }
}

/// A house rule value as players read it: on/off, none, a word, a number, else compact JSON.
pub fn value_text(value: &Value) -> String {
    match value {
        Value::Bool(true) => "on".into(),
        Value::Bool(false) => "off".into(),
        Value::Null => "none".into(),
        Value::String(s) => s.clone(),
        Value::Array(a) if a.is_empty() => "none".into(),
        other => other.to_string(),
    }
}

const ANY: u32 = u32::MAX;

const HEXIMEROS: &[HouseRule] = &[
    HouseRule {
        key: "archer",
        name: "Archer",
        about: "how an Archer captures: move or shoot (the spec), move then shoot, arrows fly over, shoot only after moving",
        allowed: Allowed::OneOf(&[
            "move_or_shoot",
            "move_then_shoot",
            "fly_over",
            "shoot_after_moving",
        ]),
    },
    HouseRule {
        key: "dreadnaught",
        name: "Dreadnaught range",
        about: "1 to 4 flats (the spec) or exactly 4",
        allowed: Allowed::OneOf(&["up_to_four", "exactly_four"]),
    },
    HouseRule {
        key: "check_eligibility",
        name: "Check eligibility",
        about: "Check may be declared only with a new attack on the Sovereign (the spec), or with any",
        allowed: Allowed::OneOf(&["new_attack", "any_attack"]),
    },
    HouseRule {
        key: "check_upon_mover",
        name: "Check upon the mover",
        about: "a challenge window (the spec), moving into attack illegal, or never declared",
        allowed: Allowed::OneOf(&["window", "auto_declare", "never_declare"]),
    },
    HouseRule {
        key: "check_window_minutes",
        name: "Challenge window (minutes)",
        about: "how long the challenge window about a move stays open",
        allowed: Allowed::Number {
            min: 0,
            max: ANY,
            offered: &[2, 5, 10, 15, 30, 60, 120, 240, 720, 1440],
        },
    },
    HouseRule {
        key: "prelate_first_move",
        name: "Prelate first move",
        about: "the Prelate's one-flat first move",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "base_line_promotion",
        name: "Base Line promotion",
        about: "a Militant may promote on reaching another colour's Base Line",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "gz_militant_direct_capture",
        name: "Ground Zero Militant capture",
        about: "a Militant on Ground Zero may capture any adjacent or line-diagonal cell",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "bare_sovereigns_draw",
        name: "Bare Sovereigns draw",
        about: "a draw when each of the last two players has only Sovereigns left",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "quiet_rounds_draw",
        name: "Quiet rounds draw",
        about: "a draw after this many quiet rounds of the last two players (0: never)",
        allowed: Allowed::Number {
            min: 0,
            max: ANY,
            offered: &[0, 10, 20, 30, 50, 75, 100, 150, 200],
        },
    },
    HouseRule {
        key: "repetition_draw",
        name: "Repetition draw",
        about: "a draw on the third repetition of a position and Token holder",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "resurrection",
        name: "Resurrected Sovereign",
        about: "the provisional Resurrected Sovereign rule",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "capture_ban",
        name: "Capture ban",
        about: "no capturing any piece one controls (the spec), or only one's own colour",
        allowed: Allowed::OneOf(&["controlled", "colour"]),
    },
    HouseRule {
        key: "scored",
        name: "Scored",
        about: "whether the game keeps the points table",
        allowed: Allowed::Bool,
    },
];

const HEXDAME: &[HouseRule] = &[
    HouseRule {
        key: "threefold_repetition",
        name: "Threefold repetition",
        about: "the third occurrence of a position is a draw",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "distinct_capture_paths",
        name: "Distinct capture paths",
        about: "capture paths taking the same pieces to the same cell are separate moves",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "king_move_limit",
        name: "King move limit",
        about: "a draw after this many capture-free king moves by each side (none: no limit)",
        allowed: Allowed::NoneOrNumber {
            min: 1,
            max: ANY,
            offered: &[10, 15, 20, 25, 30, 50],
        },
    },
];

const HEXMEISTER: &[HouseRule] = &[
    HouseRule {
        key: "straight_moves",
        name: "Straight moves",
        about: "a stone slides along one of the six lines instead of following a free path",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "first_player",
        name: "First player",
        about: "who moves first",
        allowed: Allowed::OneOf(&["south", "north"]),
    },
    HouseRule {
        key: "drop_on_base_gates",
        name: "Drops on base gates",
        about: "drops may also go onto one's two base gates",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "mandatory_bonus",
        name: "Mandatory bonus",
        about: "a bonus action must be taken when there is one",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "cross_opponent_gates",
        name: "Cross opponent gates",
        about: "gates held by the opponent are open routes too",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "allow_self_capture",
        name: "Self-capture",
        about: "a move may leave one's stone on a cell the opponent secures",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "centre_counts_for_eight",
        name: "Centre counts for eight",
        about: "the centre f6 counts towards the eight gates that cancel centre triangulation",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "stalemate",
        name: "Stalemate",
        about: "a player with no legal action passes (the spec) or loses",
        allowed: Allowed::OneOf(&["pass", "lose"]),
    },
    HouseRule {
        key: "repetition_draw",
        name: "Repetition draw",
        about: "the third occurrence of a position is a draw",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "quiet_limit",
        name: "Quiet action limit",
        about: "a draw after this many actions in a row without a drop or a capture (0: never)",
        allowed: Allowed::Number {
            min: 0,
            max: ANY,
            offered: &[0, 50, 100, 150, 200, 300],
        },
    },
];

const HEXAEQUO: &[HouseRule] = &[
    HouseRule {
        key: "board_radius",
        name: "Board radius",
        about: "tiles only within this distance of I8 (none: no edge)",
        allowed: Allowed::NoneOrNumber {
            min: 1,
            max: 255,
            offered: &[4, 5, 6, 7, 8, 10, 12],
        },
    },
    HouseRule {
        key: "anti_loop",
        name: "Anti-loop rule",
        about: "a disc may not land where it stood since its last capture (the spec), or may not jump a friend twice",
        allowed: Allowed::OneOf(&["since_last_capture", "no_friend_twice"]),
    },
    HouseRule {
        key: "capture_removal",
        name: "Capture removal",
        about: "captured pieces leave at once (the spec) or at the end of the move",
        allowed: Allowed::OneOf(&["immediate", "end_of_move"]),
    },
    HouseRule {
        key: "move_identity",
        name: "Move identity",
        about: "jump chains are one move by the set (the spec) or the order of their captures",
        allowed: Allowed::OneOf(&["capture_set", "capture_order"]),
    },
    HouseRule {
        key: "ring_over_gap",
        name: "Ring over gaps",
        about: "a ring may leap over missing cells",
        allowed: Allowed::Bool,
    },
];

const HARMEGEDO: &[HouseRule] = &[
    HouseRule {
        key: "check_rules",
        name: "Check rules",
        about: "no move may leave one's king attacked; a king with no escape is lost",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "promotion",
        name: "Promotion",
        about: "a pawn reaching the inner rim becomes a queen, rook, bishop or knight",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "en_passant",
        name: "En passant",
        about: "en passant, for the next kingdom to move only",
        allowed: Allowed::Bool,
    },
    HouseRule {
        key: "turn_order",
        name: "Turn order",
        about: "kingdoms move in ascending (the spec) or descending order",
        allowed: Allowed::OneOf(&["ascending", "descending"]),
    },
    HouseRule {
        key: "seating",
        name: "Seating",
        about: "fewer than six players spread round the board (the spec) or sit side by side",
        allowed: Allowed::OneOf(&["spread", "adjacent"]),
    },
    HouseRule {
        key: "neutral_pieces",
        name: "Neutral pieces",
        about: "an eliminated kingdom's pieces may be captured (the spec) or are walls",
        allowed: Allowed::OneOf(&["capturable", "walls"]),
    },
    HouseRule {
        key: "teams",
        name: "Teams",
        about: "teams of kingdoms that do not capture each other (none: free-for-all)",
        allowed: Allowed::Json {
            example: r#"[["kingdom0","kingdom3"]]"#,
        },
    },
    HouseRule {
        key: "team_victory",
        name: "Team victory",
        about: "a team alone on the board shares the win (the spec) or plays on",
        allowed: Allowed::OneOf(&["shared", "play_on"]),
    },
    HouseRule {
        key: "quiet_turn_limit",
        name: "Quiet turn limit",
        about: "a draw after this many quiet turns per surviving kingdom (0: never)",
        allowed: Allowed::Number {
            min: 0,
            max: ANY,
            offered: &[0, 20, 30, 50, 75, 100, 150],
        },
    },
    HouseRule {
        key: "threefold_repetition",
        name: "Threefold repetition",
        about: "the third occurrence of a position is a draw",
        allowed: Allowed::Bool,
    },
];

/// The house rules of a game, in the order its rules text gives them.
pub fn rules(kind: GameKind) -> &'static [HouseRule] {
    match kind {
        GameKind::HexiMeros => HEXIMEROS,
        GameKind::HexDame => HEXDAME,
        GameKind::Hexmeister => HEXMEISTER,
        GameKind::HexaEquo => HEXAEQUO,
        GameKind::Harmegedo => HARMEGEDO,
    }
}

/// The house rule `key` of a game.
pub fn find(kind: GameKind, key: &str) -> Option<&'static HouseRule> {
    rules(kind).iter().find(|r| r.key == key)
}

/// The house-rule values of `chosen` (key, value) that `kind` has and allows, as the JSON a
/// new game takes; `None` when none applies (a rule another game has is left out).
///
/// ```
/// use hexmeros::games::{GameKind, house_menu::chosen};
/// let scored = [("scored", serde_json::json!(false))];
/// assert_eq!(chosen(GameKind::HexiMeros, &scored), Some(serde_json::json!({"scored": false})));
/// assert_eq!(chosen(GameKind::HexDame, &scored), None);
/// ```
pub fn chosen(kind: GameKind, chosen: &[(&str, Value)]) -> Option<Value> {
    let rules: serde_json::Map<String, Value> = chosen
        .iter()
        .filter(|(key, value)| find(kind, key).is_some_and(|r| r.allowed.allows(value)))
        .map(|(key, value)| (key.to_string(), value.clone()))
        .collect();
    (!rules.is_empty()).then_some(Value::Object(rules))
}

fn json<T: Serialize>(t: &T) -> Value {
    serde_json::to_value(t).unwrap_or(Value::Null)
}

/// The spec's house rules of a game (every field), as JSON.
pub fn defaults(kind: GameKind) -> Value {
    fn of<R: Rules>() -> Value {
        json(&R::HouseRules::default())
    }
    match kind {
        GameKind::HexiMeros => of::<super::heximeros::HexiMeros>(),
        GameKind::HexDame => of::<super::hexdame::HexDame>(),
        GameKind::Hexmeister => of::<super::hexmeister::Hexmeister>(),
        GameKind::HexaEquo => of::<super::hexaequo::HexaEquo>(),
        GameKind::Harmegedo => of::<super::harmegedo::Harmegedo>(),
    }
}

/// The house rules a position is played under (every field), as JSON.
pub fn current(game: &AnyGame) -> Value {
    match game {
        AnyGame::HexiMeros(g) => json(g.house_rules()),
        AnyGame::HexDame(g) => json(g.house_rules()),
        AnyGame::Hexmeister(g) => json(g.house_rules()),
        AnyGame::HexaEquo(g) => json(g.house_rules()),
        AnyGame::Harmegedo(g) => json(g.house_rules()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn players(kind: GameKind) -> std::ops::RangeInclusive<usize> {
        let (min, max) = kind.players();
        min..=max
    }

    /// The keys the proposal path accepts are exactly the fields of the game's house rules
    /// (they deny unknown fields): every one is listed, once, and nothing else.
    #[test]
    fn every_rule_a_game_accepts_is_listed() {
        for kind in GameKind::ALL {
            let fields: Vec<String> = defaults(kind)
                .as_object()
                .expect("house rules are an object")
                .keys()
                .cloned()
                .collect();
            let mut listed: Vec<String> = rules(kind).iter().map(|r| r.key.to_string()).collect();
            listed.sort();
            let mut want = fields.clone();
            want.sort();
            assert_eq!(listed, want, "{kind}");
            for f in &fields {
                assert!(
                    kind.start(None, Some(json!({ f.as_str(): defaults(kind)[f] })))
                        .is_ok(),
                    "{kind} {f}"
                );
            }
            // And a key not listed is refused.
            assert!(
                kind.start(None, Some(json!({"no_such_rule": true})))
                    .is_err()
            );
        }
    }

    /// Every value a menu offers (and each end of a number's range) starts the game, for every
    /// number of players it takes: the menu never offers a value the proposal refuses.
    #[test]
    fn every_offered_value_is_accepted() {
        for kind in GameKind::ALL {
            for rule in rules(kind) {
                let mut values = rule.allowed.offered();
                if let Allowed::Number { min, max, .. } | Allowed::NoneOrNumber { min, max, .. } =
                    rule.allowed
                {
                    values.push(json!(min));
                    values.push(json!(max));
                }
                assert!(values.len() <= 25, "{kind} {}: a menu holds 25", rule.key);
                for v in values {
                    assert!(rule.allowed.allows(&v), "{kind} {} {v}", rule.key);
                    for n in players(kind) {
                        let r = kind.start(Some(n), Some(json!({ rule.key: v.clone() })));
                        assert!(r.is_ok(), "{kind} {} = {v} ({n} players): {r:?}", rule.key);
                    }
                }
            }
        }
    }

    /// The spec's own value is always among those offered, so a menu can go back to it.
    #[test]
    fn the_default_is_offered() {
        for kind in GameKind::ALL {
            let d = defaults(kind);
            for rule in rules(kind) {
                if matches!(rule.allowed, Allowed::Json { .. }) {
                    continue;
                }
                assert!(
                    rule.allowed.offered().contains(&d[rule.key]),
                    "{kind} {}: {}",
                    rule.key,
                    d[rule.key]
                );
            }
        }
    }

    /// An enum's words are all of it: a word that is not one is refused by the game.
    #[test]
    fn words_outside_the_list_are_refused() {
        for kind in GameKind::ALL {
            for rule in rules(kind) {
                if let Allowed::OneOf(_) = rule.allowed {
                    let bad = json!({ rule.key: "no_such_value" });
                    assert!(kind.start(None, Some(bad)).is_err(), "{kind} {}", rule.key);
                    assert!(!rule.allowed.allows(&json!("no_such_value")));
                }
            }
        }
    }

    #[test]
    fn out_of_range_numbers_are_not_allowed() {
        let r = find(GameKind::HexDame, "king_move_limit").expect("listed");
        assert!(!r.allowed.allows(&json!(0)));
        assert!(r.allowed.allows(&json!(1)));
        assert!(r.allowed.allows(&Value::Null));
        assert!(
            GameKind::HexDame
                .start(None, Some(json!({"king_move_limit": 0})))
                .is_err()
        );
        let r = find(GameKind::HexaEquo, "board_radius").expect("listed");
        assert!(!r.allowed.allows(&json!(256)));
        assert!(!r.allowed.allows(&json!(-1)));
        assert!(!r.allowed.allows(&json!("5")));
    }

    #[test]
    fn the_current_rules_of_a_position() {
        let g = GameKind::Hexmeister
            .start(None, Some(json!({"stalemate": "lose", "quiet_limit": 7})))
            .expect("starts");
        let c = current(&g);
        assert_eq!(c["stalemate"], "lose");
        assert_eq!(c["quiet_limit"], 7);
        assert_eq!(c["repetition_draw"], true);
        assert_eq!(
            current(&GameKind::Harmegedo.start(Some(3), None).expect("starts")),
            defaults(GameKind::Harmegedo)
        );
    }

    #[test]
    fn values_in_words() {
        assert_eq!(value_text(&json!(true)), "on");
        assert_eq!(value_text(&json!(false)), "off");
        assert_eq!(value_text(&Value::Null), "none");
        assert_eq!(value_text(&json!("fly_over")), "fly_over");
        assert_eq!(value_text(&json!(12)), "12");
        assert_eq!(value_text(&json!([])), "none");
        assert_eq!(
            value_text(&json!([["kingdom0", "kingdom3"]])),
            r#"[["kingdom0","kingdom3"]]"#
        );
        assert_eq!(
            Allowed::NoneOrNumber {
                min: 1,
                max: u32::MAX,
                offered: &[]
            }
            .describe(),
            "none, or a whole number from 1 up"
        );
    }
}
