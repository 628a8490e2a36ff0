//! House rules from menus (issue 19), through the host on a real SQLite file: every value a menu
//! offers is one the proposal path accepts, the rules in force differing from the defaults are
//! listed for the status panel, and a house rule ballot still open at the first Token pass is
//! closed with a word in the thread, never dropped silently.
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host as support;

use hexmeros::games::GameKind;
use hexmeros::games::house_menu;
use hexmeros::games::house_menu::Allowed;
use hexmeros::host::{Actor, Command, Effect, GameHost, GameId, Motion};
use serde_json::{Value, json};
use support::{act, cmd_move, ensure_players, env, first_move, said, vote};

fn rule(key: &str, value: Value) -> Command {
    Command::Propose(Motion::HouseRule {
        key: key.into(),
        value,
    })
}

async fn game(host: &GameHost, kind: GameKind) -> GameId {
    let (min, _) = kind.players();
    let n = if kind == GameKind::HexiMeros { 6 } else { min };
    ensure_players(host, 1..=6).await;
    let players: Vec<i64> = (1..=n as i64).collect();
    host.create(kind, &players, None, None).await.unwrap().0
}

/// Every value every menu offers, the game's rules and the timers, is accepted as a proposal.
#[tokio::test]
async fn every_value_a_menu_offers_is_a_proposal_the_host_accepts() {
    let e = env().await;
    for kind in GameKind::ALL {
        let g = game(&e.host, kind).await;
        let menu = e.host.state(g).await.unwrap().house_menu();
        assert!(menu.iter().any(|(r, _)| r.key == "ballot_hours"), "{kind}");
        for (r, now) in menu {
            assert!(
                r.allowed.allows(&now) || matches!(r.allowed, Allowed::Json { .. }),
                "{kind} {}: the value in force {now} is allowed",
                r.key
            );
            for v in r.allowed.offered() {
                let res = e
                    .host
                    .handle(g, Actor::player(1), rule(r.key, v.clone()), None)
                    .await;
                assert!(res.is_ok(), "{kind} {} = {v}: {res:?}", r.key);
            }
        }
    }
}

/// Besides the game's own rules, a menu lists exactly the host's timers, with their values.
#[tokio::test]
async fn the_menu_lists_the_hosts_timers() {
    let e = env().await;
    let g = game(&e.host, GameKind::HexDame).await;
    let st = e.host.state(g).await.unwrap();
    let timers = serde_json::to_value(st.timers()).unwrap();
    let mut fields: Vec<&str> = timers
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    fields.sort();
    let menu = st.house_menu();
    let own = house_menu::rules(GameKind::HexDame);
    let mut listed: Vec<&str> = menu
        .iter()
        .filter(|(r, _)| !own.contains(r))
        .map(|(r, _)| r.key)
        .collect();
    listed.sort();
    assert_eq!(listed, fields);
    for (r, now) in &menu {
        if !own.contains(r) {
            assert_eq!(*now, timers[r.key]);
        }
    }
}

/// The status panel's lines: nothing while every rule is the default, then `Name: value` for
/// each voted rule that differs, the timers included.
#[tokio::test]
async fn the_rules_in_force_that_differ_are_listed() {
    let e = env().await;
    let g = game(&e.host, GameKind::HexDame).await;
    assert!(
        e.host.state(g).await.unwrap().house_lines().is_empty(),
        "all defaults"
    );
    act(&e.host, g, 1, rule("threefold_repetition", json!(false))).await;
    act(&e.host, g, 2, vote(true)).await;
    act(&e.host, g, 2, rule("ballot_hours", json!(48))).await;
    act(&e.host, g, 1, vote(true)).await;
    // Voting a rule back to its default takes it off the list.
    act(&e.host, g, 1, rule("king_move_limit", json!(20))).await;
    act(&e.host, g, 2, vote(true)).await;
    act(&e.host, g, 1, rule("king_move_limit", Value::Null)).await;
    act(&e.host, g, 2, vote(true)).await;
    let st = e.host.state(g).await.unwrap();
    assert_eq!(
        st.house_lines(),
        ["Threefold repetition: off", "Ballot length (hours): 48"]
    );
    let (r, now) = st.house_rule("threefold_repetition").unwrap();
    assert_eq!((r.name, now), ("Threefold repetition", json!(false)));
    assert!(st.house_rule("no_such_rule").is_none());
}

/// A ballot open when the first move is played closes with a sentence in the thread; other
/// motions stay open.
#[tokio::test]
async fn an_open_house_rule_ballot_closes_with_a_word_at_the_first_pass() {
    let e = env().await;
    let g = game(&e.host, GameKind::HexDame).await;
    act(&e.host, g, 2, rule("king_move_limit", json!(25))).await;
    act(&e.host, g, 2, Command::Propose(Motion::Draw)).await;
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.motions().len(), 2);
    // Numbered per game from 1, whatever their ids.
    let numbers: Vec<u64> = st.motions().iter().map(|m| m.number).collect();
    assert_eq!(numbers, [1, 2]);
    let fx = act(&e.host, g, 1, cmd_move(&first_move(&e.host, g).await)).await;
    let want = "the vote on King move limit = 25 (motion #1) closed without a decision: the \
                first move was played"
        .to_string();
    assert!(
        fx.iter().any(
            |f| matches!(f, Effect::Say { game, text } if *game == g && text.to_string() == want)
        ),
        "{fx:?}"
    );
    let st = e.host.state(g).await.unwrap();
    assert_eq!(st.motions().len(), 1, "the draw offer stays");
    assert_eq!(st.motions()[0].motion, Motion::Draw);
    assert!(said(&fx, "closed without a decision"));
    // The closing replays from the log.
    assert_eq!(e.host.replay(g).await.unwrap().motions(), st.motions());
}
