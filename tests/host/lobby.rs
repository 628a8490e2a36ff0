//! Lobbies through the host (issue 17, consent): a game exists only once everyone seated in it
//! joined; who may start, join and decline; open seats; expiry with the test clock; a restart.
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host as support;

use hexmeros::ai::Level;
use hexmeros::games::GameKind;
use hexmeros::host::{
    Actor, Declined, GameHost, HostError, Joined, Lobby, LobbySpec, LobbyStatus, Opened, Refused,
    bot_id,
};
use support::{Env, ensure_players, host_on};

const HOUR: i64 = 60;

async fn env() -> Env {
    let e = support::env().await;
    ensure_players(&e.host, 1..=9).await;
    e
}

/// A HexDame table of `people` started by the first of them.
fn spec(kind: GameKind, people: &[i64]) -> LobbySpec {
    LobbySpec {
        kind,
        starter: Actor::player(people[0]),
        people: people.to_vec(),
        bots: vec![],
        open: false,
        seats: None,
        house_rules: None,
        timers: None,
        hours: 48,
        origin: None,
    }
}

fn refusal<T: std::fmt::Debug>(r: Result<T, HostError>) -> Refused {
    match r {
        Err(HostError::Refused(r)) => r,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

async fn waiting(host: &GameHost, s: LobbySpec) -> Lobby {
    match host.open_lobby(s).await.unwrap() {
        Opened::Waiting(l) => l,
        other => panic!("expected a waiting lobby, got {other:?}"),
    }
}

async fn games(host: &GameHost) -> usize {
    host.all_games().await.unwrap().len()
}

#[tokio::test]
async fn a_game_exists_only_after_every_invited_player_joined() {
    let e = env().await;
    let h = &e.host;
    let lobby = waiting(h, spec(GameKind::HexDame, &[1, 2])).await;
    assert_eq!(lobby.waiting(), [2]);
    assert!(
        lobby.message().to_string().contains("player 2 (invited)"),
        "{}",
        lobby.message()
    );
    assert_eq!(games(h).await, 0);
    // A stranger, the starter again: refused, nothing changes.
    assert_eq!(
        refusal(h.join_lobby(lobby.id, 3).await),
        Refused::NotInvited(lobby.id)
    );
    assert_eq!(
        refusal(h.join_lobby(lobby.id, 1).await),
        Refused::AlreadyJoined(lobby.id)
    );
    assert_eq!(h.lobby(lobby.id).await.unwrap(), lobby);
    assert_eq!(games(h).await, 0);
    let Joined::Started { lobby: done, fx } = h.join_lobby(lobby.id, 2).await.unwrap() else {
        panic!("the last join starts the game");
    };
    let LobbyStatus::Started(game) = done.status else {
        panic!("{:?}", done.status);
    };
    assert!(support::said(&fx, "begins"), "{fx:?}");
    let st = h.state(game).await.unwrap();
    let seated: Vec<i64> = st.seats().iter().map(|s| s.player).collect();
    assert_eq!(seated, [1, 2]);
    assert_eq!(games(h).await, 1);
    // Once started: refused, still one game.
    assert_eq!(
        refusal(h.join_lobby(lobby.id, 2).await),
        Refused::LobbyStarted {
            lobby: lobby.id,
            game
        }
    );
    assert_eq!(
        refusal(h.decline_lobby(lobby.id, 2).await),
        Refused::LobbyStarted {
            lobby: lobby.id,
            game
        }
    );
    assert_eq!(games(h).await, 1);
    assert_eq!(
        refusal(h.join_lobby(999, 2).await),
        Refused::UnknownLobby(999)
    );
}

#[tokio::test]
async fn a_stranger_cannot_start_but_an_admin_need_not_play() {
    let e = env().await;
    let h = &e.host;
    let mut s = spec(GameKind::HexDame, &[1, 2]);
    s.starter = Actor::player(9);
    assert_eq!(
        refusal(h.open_lobby(s.clone()).await),
        Refused::StarterMustPlay
    );
    assert_eq!(refusal(h.lobby(1).await), Refused::UnknownLobby(1));
    s.starter.admin = true;
    let lobby = waiting(h, s).await;
    assert_eq!(lobby.waiting(), [1, 2]);
    // The admin who does not play cancels with Decline.
    let (l, how) = h.decline_lobby(lobby.id, 9).await.unwrap();
    assert_eq!(
        (l.status, how),
        (LobbyStatus::Cancelled, Declined::Cancelled)
    );
    assert!(l.notice().unwrap().contains("cancelled"));
    assert_eq!(
        refusal(h.join_lobby(lobby.id, 1).await),
        Refused::LobbyCancelled(lobby.id)
    );
    assert_eq!(games(h).await, 0);
}

#[tokio::test]
async fn the_starter_and_bots_start_at_once_and_bad_tables_are_refused() {
    let e = env().await;
    let h = &e.host;
    let mut s = spec(GameKind::HexDame, &[1]);
    s.bots = vec![h.bot_player(Level::Easy).await.unwrap()];
    let Opened::Started { game, .. } = h.open_lobby(s.clone()).await.unwrap() else {
        panic!("no one to wait for");
    };
    let st = h.state(game).await.unwrap();
    assert_eq!(st.seats()[1].player, bot_id(Level::Easy));
    s.bots.push(bot_id(Level::Easy));
    assert_eq!(
        refusal(h.open_lobby(s).await),
        Refused::player_count("HexDame", 2, 2, 3)
    );
    let s = spec(GameKind::HexDame, &[1, 1]);
    assert_eq!(refusal(h.open_lobby(s).await), Refused::OneSeatEach);
    assert_eq!(games(h).await, 1);
    assert_eq!(refusal(h.lobby(1).await), Refused::UnknownLobby(1));
}

#[tokio::test]
async fn decline_cancels_a_closed_table_and_opens_the_seat_of_an_open_one() {
    let e = env().await;
    let h = &e.host;
    let lobby = waiting(h, spec(GameKind::Harmegedo, &[1, 2, 3])).await;
    assert_eq!(
        refusal(h.decline_lobby(lobby.id, 4).await),
        Refused::NoLobbySeat(lobby.id)
    );
    let (l, how) = h.decline_lobby(lobby.id, 3).await.unwrap();
    assert_eq!(
        (l.status, how),
        (LobbyStatus::Cancelled, Declined::Cancelled)
    );
    assert_eq!(
        refusal(h.join_lobby(lobby.id, 2).await),
        Refused::LobbyCancelled(lobby.id)
    );

    // Open: seats 3 and 4 are anyone's; a decline opens the seat; the table fills and starts.
    let mut s = spec(GameKind::Harmegedo, &[1, 2]);
    s.open = true;
    s.seats = Some(4);
    let lobby = waiting(h, s).await;
    assert_eq!(lobby.open_seats(), 2);
    let (l, how) = h.decline_lobby(lobby.id, 2).await.unwrap();
    assert_eq!((l.status, how), (LobbyStatus::Open, Declined::SeatOpened));
    assert_eq!(l.open_seats(), 3);
    for p in [5, 6] {
        assert!(matches!(
            h.join_lobby(lobby.id, p).await.unwrap(),
            Joined::Waiting(_)
        ));
    }
    assert_eq!(
        refusal(h.join_lobby(lobby.id, 6).await),
        Refused::AlreadyJoined(lobby.id)
    );
    let Joined::Started { lobby: done, .. } = h.join_lobby(lobby.id, 7).await.unwrap() else {
        panic!("the table is full");
    };
    let LobbyStatus::Started(game) = done.status else {
        panic!("{:?}", done.status);
    };
    let seated: Vec<i64> = h
        .state(game)
        .await
        .unwrap()
        .seats()
        .iter()
        .map(|s| s.player)
        .collect();
    assert_eq!(seated, [1, 5, 6, 7]);
    assert_eq!(
        refusal(h.join_lobby(lobby.id, 8).await).to_string(),
        format!(
            "lobby #{} has already started: it is game #{game}",
            lobby.id
        )
    );
}

#[tokio::test]
async fn an_open_table_refuses_a_joiner_when_full_and_a_lobby_expires_after_its_hours() {
    let e = env().await;
    let mut s = spec(GameKind::HexiMeros, &[1, 2]);
    s.open = true;
    s.bots = vec![bot_id(Level::Easy); 3];
    s.hours = 48;
    let lobby = waiting(&e.host, s).await;
    assert_eq!(lobby.open_seats(), 1);
    // A restart: the lobby is stored.
    let h = host_on(&e.url, &e.clock).await;
    assert_eq!(h.lobby(lobby.id).await.unwrap(), lobby);
    assert!(matches!(
        h.join_lobby(lobby.id, 5).await.unwrap(),
        Joined::Waiting(_)
    ));
    assert_eq!(
        refusal(h.join_lobby(lobby.id, 6).await),
        Refused::LobbyFull(lobby.id)
    );

    e.clock.advance_minutes(47 * HOUR);
    assert!(h.expire_lobbies().await.unwrap().is_empty());
    e.clock.advance_minutes(HOUR);
    // Past its time a Join is refused even before the timer ran.
    assert_eq!(
        refusal(h.join_lobby(lobby.id, 2).await),
        Refused::LobbyExpired(lobby.id)
    );
    let expired = h.expire_lobbies().await.unwrap();
    assert_eq!(expired.len(), 1);
    assert_eq!(expired[0].status, LobbyStatus::Expired);
    assert!(
        expired[0]
            .notice()
            .unwrap()
            .contains("expired after 48 hours")
    );
    assert!(h.expire_lobbies().await.unwrap().is_empty(), "expired once");
    assert_eq!(
        refusal(h.join_lobby(lobby.id, 2).await),
        Refused::LobbyExpired(lobby.id)
    );
    assert_eq!(games(&h).await, 0);
}
