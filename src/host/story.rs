//! The round story: what happened since a player's previous turn, in words, for the turn
//! message ("Red N1xN4 took Silver's Archer · Red declared Check on Blue · Green is out").
//!
//! Each committed move, departure, skip and takeover is told once, when it happens, from the
//! positions before and after it ([`told_move`] and friends: pure functions of the game); the
//! host keeps the told lines with the seat whose turn each ended, and [`since`] picks those after
//! a seat's previous turn. Pieces and seats are named as the game names them (the rulebook's
//! piece names, the seats' colours or kingdoms).

use crate::games::notation::MoveText;
use crate::games::{AnyGame, Departure, Outcome, Seat};
use crate::view::picker;

/// How long a story may grow in a turn message (Discord allows 2000 characters a message; the
/// title, the first line and the Token line need the rest). Older parts give way first.
pub const MAX_STORY: usize = 1500;

/// One thing that happened, told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Told {
    /// The seat whose own turn this ended (a move or a skip); `None` for what happens between
    /// turns (a resignation, a takeover).
    pub turn_of: Option<Seat>,
    /// The parts, each a short clause (`Red N1xN4 took Silver's Archer`, `Green is out`).
    pub parts: Vec<String>,
}

/// A seat's name as a player reads it in a sentence, as the pictures name it: `Red`,
/// `Kingdom of Silver`.
pub(crate) fn seat(game: &AnyGame, s: Seat) -> String {
    crate::view::seat_label(game, s)
}

/// An outcome in a sentence, its seats named as [`seat`] names them, in the reason too:
/// `White won (Black lost on time)`, `Silver and Red drew (agreed)`.
pub(crate) fn outcome(game: &AnyGame, outcome: &Outcome) -> String {
    let names = |s: &[Seat]| -> String {
        s.iter()
            .map(|&x| seat(game, x))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    let (seats, verb, reason) = match outcome {
        Outcome::Win { winners, reason } => (names(winners), "won", reason),
        Outcome::Draw { seats, reason } => (names(seats), "drew", reason),
    };
    // The reason names seats in the game's notation (`black lost on time`): each whole word
    // that is a seat's name is written as the sentence names the seat.
    let mut told = String::with_capacity(reason.len());
    let mut word = String::new();
    let flush = |word: &mut String, told: &mut String| {
        let named = (0..game.seat_count())
            .map(|i| Seat(i as u8))
            .find(|&s| game.seat_name(s) == word.as_str());
        match named {
            Some(s) => told.push_str(&seat(game, s)),
            None => told.push_str(word),
        }
        word.clear();
    };
    for c in reason.chars() {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut told);
            told.push(c);
        }
    }
    flush(&mut word, &mut told);
    format!("{seats} {verb} ({told})")
}

fn title(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `mover` played `text` on `before`, giving `after`: the move with what it took and what the
/// piece became, the Checks it declared, and who went out.
pub fn told_move(before: &AnyGame, mover: Seat, text: &str, after: &AnyGame) -> Told {
    let who = seat(before, mover);
    let done = picker::played(before, text, after);
    let mut head = format!("{who} {text}");
    if !done.took.is_empty() {
        head.push_str(&format!(" took {}", done.took.join(", ")));
    }
    if let Some((was, kind)) = &done.became {
        let joint = if done.took.is_empty() { "," } else { " and" };
        // A piece that keeps its kind under a new name (a Militant gets its Hat) is not
        // promoted.
        if kind.ends_with(was.as_str()) {
            head.push_str(&format!("{joint} now a {kind}"));
        } else {
            head.push_str(&format!("{joint} promoted to {kind}"));
        }
    }
    let mut parts = vec![head];
    let declared: Vec<String> = text
        .parse::<MoveText>()
        .map(|t| t.checks)
        .unwrap_or_default()
        .iter()
        .map(|c| title(c))
        .collect();
    if !declared.is_empty() {
        parts.push(format!(
            "{who} declared Check on {}",
            declared.join(" and ")
        ));
    }
    parts.extend(gone_out(before, after, None));
    Told {
        turn_of: Some(mover),
        parts,
    }
}

/// The seats in `before` and not in `after`, `except` the one that left by itself. Nobody when
/// the game ended (the game-over line says how).
fn gone_out(before: &AnyGame, after: &AnyGame, except: Option<Seat>) -> Vec<String> {
    if after.outcome().is_some() {
        return Vec::new();
    }
    let now = after.active_seats();
    before
        .active_seats()
        .into_iter()
        .filter(|s| !now.contains(s) && Some(*s) != except)
        .map(|s| format!("{} is out", seat(before, s)))
        .collect()
}

/// `who` left the game `how` (resigned, conceded, was expelled, lost on time); anyone else its
/// departure put out is told too.
pub fn told_departure(before: &AnyGame, who: Seat, how: Departure, after: &AnyGame) -> Told {
    let mut parts = vec![format!("{} {}", seat(before, who), how.verb())];
    parts.extend(gone_out(before, after, Some(who)));
    Told {
        turn_of: None,
        parts,
    }
}

/// `who`'s turn was skipped (by vote).
pub fn told_skip(game: &AnyGame, who: Seat) -> Told {
    Told {
        turn_of: Some(who),
        parts: vec![format!("{}'s turn was skipped", seat(game, who))],
    }
}

/// Someone else now plays `who`: a bot, or a new player.
pub fn told_takeover(game: &AnyGame, who: Seat, bot: bool) -> Told {
    let name = seat(game, who);
    Told {
        turn_of: None,
        parts: vec![if bot {
            format!("a bot now plays {name}")
        } else {
            format!("a new player now plays {name}")
        }],
    }
}

/// What happened since `viewer`'s previous turn (everything when it has had none), oldest
/// first, as one line: the parts joined by ` · `, the oldest dropped for `…` past
/// [`MAX_STORY`] characters. Empty when nothing happened.
pub fn since(told: &[Told], viewer: Seat) -> String {
    let start = told
        .iter()
        .rposition(|t| t.turn_of == Some(viewer))
        .map_or(0, |i| i + 1);
    line(&told[start..])
}

/// What happened since `viewer`'s previous turn, oldest first, clause by clause (none
/// dropped: a front end chooses what fits).
pub fn since_parts(told: &[Told], viewer: Seat) -> Vec<String> {
    let start = told
        .iter()
        .rposition(|t| t.turn_of == Some(viewer))
        .map_or(0, |i| i + 1);
    told[start..]
        .iter()
        .flat_map(|t| t.parts.iter().cloned())
        .collect()
}

/// The parts of `told` on one line, capped at [`MAX_STORY`] characters (oldest dropped).
pub fn line(told: &[Told]) -> String {
    let parts: Vec<&str> = told
        .iter()
        .flat_map(|t| t.parts.iter().map(String::as_str))
        .collect();
    let mut kept: Vec<&str> = Vec::new();
    let mut len = 0;
    for p in parts.iter().rev() {
        let extra = p.chars().count() + if kept.is_empty() { 0 } else { 3 };
        if len + extra > MAX_STORY - 2 {
            break;
        }
        len += extra;
        kept.push(p);
    }
    kept.reverse();
    let mut out = kept.join(" · ");
    if kept.len() < parts.len() {
        out = if out.is_empty() {
            "…".to_string()
        } else {
            format!("… · {out}")
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use serde_json::{Value, json};

    fn from_json(v: Value) -> AnyGame {
        AnyGame::from_json(&v.to_string()).unwrap()
    }

    /// Plays `text` on `game` and tells it.
    fn tell(game: &mut AnyGame, text: &str) -> Told {
        let before = game.clone();
        let mover = game.to_move().unwrap();
        let canonical = game.play(text).unwrap();
        told_move(&before, mover, &canonical, game)
    }

    /// The pieces of a position as (cell, owner, kind) from its JSON.
    fn pieces(game: &AnyGame) -> Vec<(String, String, String)> {
        let v: Value = serde_json::from_str(&game.to_json()).unwrap();
        v["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let s = |k: &str| p[k].as_str().unwrap().to_string();
                (s("cell"), s("owner"), s("kind"))
            })
            .collect()
    }

    /// A seeded playout of `kind` until a move removes a piece of another seat; returns the
    /// position before it, the move, and the removed piece (owner, kind) from the JSON.
    fn first_capture(kind: GameKind, players: Option<usize>) -> (AnyGame, String, String) {
        let mut game = AnyGame::new(kind, players, None).unwrap();
        let mut s: u64 = 11;
        for _ in 0..400 {
            let mover = game.seat_name(game.to_move().unwrap()).to_string();
            let moves = game.legal_moves();
            let before = pieces(&game);
            for m in &moves {
                let mut next = game.clone();
                next.play(m).unwrap();
                let after = pieces(&next);
                let lost: Vec<&(String, String, String)> = before
                    .iter()
                    .filter(|p| p.1 != mover)
                    .filter(|p| !after.iter().any(|q| q.0 == p.0 && q.1 == p.1))
                    .collect();
                if let [(_, owner, kind)] = lost[..] {
                    let name = crate::games::help::pieces(game.kind())
                        .iter()
                        .find(|h| h.key == kind && !h.hatted)
                        .unwrap()
                        .name;
                    let who = (0..game.seat_count())
                        .map(|i| Seat(i as u8))
                        .find(|&s| game.seat_name(s) == owner)
                        .map_or_else(|| title(owner), |s| seat(&game, s));
                    return (game, m.clone(), format!("{who}'s {name}"));
                }
            }
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = moves[(s >> 33) as usize % moves.len()].clone();
            game.play(&m).unwrap();
        }
        panic!("{kind:?}: no capture in 400 plies");
    }

    #[test]
    fn a_capture_names_the_piece_taken_in_every_game() {
        for (kind, players) in [
            (GameKind::HexiMeros, None),
            (GameKind::HexDame, None),
            (GameKind::Hexmeister, None),
            (GameKind::HexaEquo, None),
            (GameKind::Harmegedo, Some(3)),
        ] {
            let (mut game, m, taken) = first_capture(kind, players);
            let mover = seat(&game, game.to_move().unwrap());
            let told = tell(&mut game, &m);
            assert!(
                told.parts[0].starts_with(&format!("{mover} ")),
                "{kind:?}: {told:?}"
            );
            assert!(
                told.parts[0].contains(&format!(" took {taken}")),
                "{kind:?}: {told:?} should take {taken}"
            );
        }
    }

    /// A Silver Regent on Q20 looks north along the file at a Blue Archer, Blue's only
    /// Sovereign behind it; Red's Sovereign is far away. Three seats: Silver, Blue, Red.
    fn heximeros_file() -> AnyGame {
        from_json(json!({
            "game": "heximeros", "to_move": "silver",
            "pieces": [
                {"cell": "Q2", "owner": "silver", "kind": "sovereign"},
                {"cell": "Q20", "owner": "silver", "kind": "regent"},
                {"cell": "Q24", "owner": "blue", "kind": "archer"},
                {"cell": "Q30", "owner": "blue", "kind": "sovereign"},
                {"cell": "E14", "owner": "red", "kind": "sovereign"},
            ]
        }))
    }

    #[test]
    fn heximeros_capture_and_check_declared() {
        let mut game = heximeros_file();
        let blue = game.seat_named("blue").unwrap();
        let text = game.declare("Q20xQ24", blue).unwrap().unwrap();
        assert_eq!(text, "Q20xQ24+blue");
        let told = tell(&mut game, &text);
        assert_eq!(told.turn_of, game.seat_named("silver"));
        assert_eq!(
            told.parts,
            [
                "Silver Q20xQ24+blue took Blue's Archer",
                "Silver declared Check on Blue"
            ]
        );
    }

    #[test]
    fn heximeros_a_sovereign_taken_puts_its_seat_out() {
        let mut game = from_json(json!({
            "game": "heximeros", "to_move": "silver",
            "pieces": [
                {"cell": "Q2", "owner": "silver", "kind": "sovereign"},
                {"cell": "Q20", "owner": "silver", "kind": "regent"},
                {"cell": "Q24", "owner": "blue", "kind": "sovereign"},
                {"cell": "Q30", "owner": "blue", "kind": "archer"},
                {"cell": "E14", "owner": "red", "kind": "sovereign"},
            ]
        }));
        let told = tell(&mut game, "Q20xQ24");
        assert_eq!(
            told.parts,
            ["Silver Q20xQ24 took Blue's Sovereign", "Blue is out"]
        );
    }

    #[test]
    fn heximeros_a_plain_move_is_told_alone() {
        let mut game = heximeros_file();
        let told = tell(&mut game, "Q20-Q22");
        assert_eq!(told.parts, ["Silver Q20-Q22"]);
    }

    #[test]
    fn hexdame_promotions() {
        let quiet = json!({"game": "hexdame", "to_move": "white", "pieces": [
            {"cell": "g8", "owner": "white", "kind": "man"},
            {"cell": "a1", "owner": "black", "kind": "man"},
        ]});
        let mut game = from_json(quiet);
        assert_eq!(
            tell(&mut game, "g8-g9").parts,
            ["White g8-g9, promoted to King"]
        );
        let capture = json!({"game": "hexdame", "to_move": "black", "pieces": [
            {"cell": "c3", "owner": "black", "kind": "man"},
            {"cell": "b2", "owner": "white", "kind": "man"},
        ]});
        let mut game = from_json(capture);
        let told = tell(&mut game, "c3xa1");
        assert_eq!(
            told.parts[0],
            "Black c3xa1 took White's Man and promoted to King"
        );
        // White has no piece left: the game is over (the game-over line tells it), not a seat
        // out of many.
        assert!(game.outcome().is_some());
        assert_eq!(told.parts.len(), 1);
    }

    #[test]
    fn departures_skips_and_takeovers() {
        let before = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
        let green = before.seat_named("blue").unwrap();
        let mut after = before.clone();
        after.depart(green, Departure::Resign).unwrap();
        let told = told_departure(&before, green, Departure::Resign, &after);
        assert_eq!(told.parts, ["Blue resigned"]);
        assert_eq!(told.turn_of, None);
        let silver = before.to_move().unwrap();
        assert_eq!(
            told_skip(&before, silver).parts,
            ["Silver's turn was skipped"]
        );
        assert_eq!(told_skip(&before, silver).turn_of, Some(silver));
        assert_eq!(
            told_takeover(&before, silver, true).parts,
            ["a bot now plays Silver"]
        );
        assert_eq!(
            told_takeover(&before, silver, false).parts,
            ["a new player now plays Silver"]
        );
    }

    fn t(turn_of: Option<u8>, part: &str) -> Told {
        Told {
            turn_of: turn_of.map(Seat),
            parts: vec![part.to_string()],
        }
    }

    #[test]
    fn the_story_starts_after_the_viewers_previous_turn() {
        let told = [
            t(Some(0), "Silver A1-A2"),
            t(Some(1), "Blue B1-B2"),
            t(Some(2), "Red C1xC2 took Silver's Archer"),
            t(None, "Blue resigned"),
            t(Some(0), "Silver A2-A3"),
            t(Some(2), "Red's turn was skipped"),
        ];
        assert_eq!(since(&told, Seat(0)), "Red's turn was skipped");
        assert_eq!(since(&told, Seat(2)), "");
        assert_eq!(
            since(&told, Seat(1)),
            "Red C1xC2 took Silver's Archer · Blue resigned · Silver A2-A3 · Red's turn was skipped"
        );
        // A seat that has had no turn yet reads everything.
        assert_eq!(since(&told, Seat(5)).matches(" · ").count(), 5);
    }

    #[test]
    fn a_long_story_keeps_its_newest_parts() {
        let told: Vec<Told> = (0..400)
            .map(|i| t(Some(1), &format!("Blue move number {i}")))
            .collect();
        let story = line(&told);
        assert!(story.chars().count() <= MAX_STORY, "{}", story.len());
        assert!(story.starts_with("… · "), "{story}");
        assert!(story.ends_with("Blue move number 399"), "{story}");
    }
    #[test]
    fn heximeros_a_militant_promoted_at_the_center_line() {
        let game = from_json(json!({
            "game": "heximeros", "to_move": "silver",
            "pieces": [
                {"cell": "Q2", "owner": "silver", "kind": "sovereign"},
                {"cell": "Q24", "owner": "silver", "kind": "militant"},
                {"cell": "E14", "owner": "red", "kind": "sovereign"},
            ]
        }));
        let moves = game.moves_from("Q24");
        let regent = moves
            .iter()
            // Off Ground Zero (Q26), whose own rules keep a Militant that declines bare.
            .find(|m| m.ends_with("=Regent") && !m.contains("Q26"))
            .unwrap_or_else(|| panic!("{moves:?}"));
        let mut g = game.clone();
        let told = tell(&mut g, regent);
        assert_eq!(told.parts, [format!("Silver {regent}, promoted to Regent")]);
        // Declining the promotion gives the Militant its Hat.
        let plain = regent.trim_end_matches("=Regent");
        let mut g = game.clone();
        let told = tell(&mut g, plain);
        assert_eq!(
            told.parts,
            [format!("Silver {plain}, now a Hatted Militant")]
        );
    }

    #[test]
    fn an_outcome_names_its_seats_as_sentences_do_in_the_reason_too() {
        let dame = AnyGame::new(GameKind::HexDame, None, None).unwrap();
        let win = Outcome::Win {
            winners: vec![Seat(0)],
            reason: "black lost on time".into(),
        };
        assert_eq!(outcome(&dame, &win), "White won (Black lost on time)");
        // A word that merely contains a seat's name stays as it is.
        let draw = Outcome::Draw {
            seats: vec![Seat(0), Seat(1)],
            reason: "agreed; blackish whitewash".into(),
        };
        assert_eq!(
            outcome(&dame, &draw),
            "White and Black drew (agreed; blackish whitewash)"
        );
        let harm = AnyGame::new(GameKind::Harmegedo, None, None).unwrap();
        let first = harm.seat_name(Seat(0)).to_string();
        let win = Outcome::Win {
            winners: vec![Seat(1)],
            reason: format!("{first} resigned"),
        };
        assert_eq!(
            outcome(&harm, &win),
            format!(
                "{} won ({} resigned)",
                seat(&harm, Seat(1)),
                seat(&harm, Seat(0))
            )
        );
        assert_ne!(
            seat(&harm, Seat(0)),
            first,
            "the sentence's name differs from the notation"
        );
        // As the pictures name it.
        assert_eq!(seat(&harm, Seat(0)), "Kingdom of Silver");
        assert_eq!(seat(&dame, Seat(1)), "Black");
    }
}
