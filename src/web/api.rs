//! The board's JSON API: what the page shows (`GET /api/board`), where a piece may go
//! (`GET /api/targets?origin=…`), and what a player does (`POST /api/act`). Every answer is
//! the host's: the page computes no rule, and every action goes through the host's checks
//! (seat, Token, version, staging) exactly as a Discord button does.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Extension, Query, State};
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};

use super::limit::Asker;
use super::pictures::{Drawn, Key};
use super::{ApiError, Client, Viewer, Web};
use crate::games::Seat;
use crate::host::{Actor, Command, GameState, Mark, PlayerId};
use crate::host::{ViewError, ViewOptions, replay_svg};

/// The longest move text or seat name the API reads.
const TEXT_MAX: usize = 64;

/// The picture's long side the SVG is laid out for (its coordinates; the page scales it).
const SVG_SIZE: u32 = 1000;

#[derive(Serialize)]
pub struct Board {
    pub game: i64,
    pub kind: &'static str,
    pub title: String,
    pub version: u64,
    pub over: bool,
    pub you: Option<You>,
    /// The Token holder's seat, as people read it.
    pub holder: Option<String>,
    /// The status lines (the picture's header): turn, Token holder, players.
    pub status: Vec<String>,
    /// The board, drawn from the same scene as the pictures.
    pub svg: String,
    /// The board in words for a screen reader (the host's `alt_text`, as Discord's pictures
    /// carry it): the SVG's title.
    pub alt: String,
    /// Every cell: `[q, r, name]`, as the SVG's `data-q`/`data-r` name them.
    pub cells: Vec<(i32, i32, String)>,
    /// The viewer's staged move, when they hold the Token and staged one.
    pub staged: Option<String>,
    /// The seats the viewer may declare Check on with their staged move.
    pub declarable: Vec<SeatName>,
    /// The viewer's movable pieces, when they hold the Token and nothing is staged.
    pub pieces: Vec<PieceView>,
    /// The game's moves, oldest first.
    pub story: Vec<String>,
    /// The moves of the last round, highlighted on the board.
    pub last: Vec<String>,
    /// What the game asks of the viewer now, in one sentence (the host's projection).
    pub expects: String,
    /// What the rules force on the viewer this turn (a capture, a Check to relieve).
    pub forced: Option<String>,
    /// The viewer's pieces that cannot move this turn, and why.
    pub stuck: Vec<StuckView>,
    /// What the round since the viewer's last turn cost them (pieces taken, Checks on them).
    pub losses: Vec<String>,
}

#[derive(Serialize)]
pub struct StuckView {
    pub cell: String,
    pub why: String,
}

#[derive(Serialize)]
pub struct You {
    pub seat: String,
    pub label: String,
    /// Whether they hold the Token now.
    pub mover: bool,
}

#[derive(Serialize)]
pub struct SeatName {
    /// As commands spell it (`red`).
    pub seat: String,
    /// As people read it (`Red`).
    pub label: String,
}

#[derive(Serialize)]
pub struct PieceView {
    pub origin: String,
    pub label: String,
    pub cell: Option<String>,
}

#[derive(Serialize)]
pub struct TargetView {
    pub number: usize,
    pub cell: String,
    /// `[q, r]` on the SVG; `None` for a word move.
    pub hex: Option<(i32, i32)>,
    pub moves: Vec<String>,
    pub takes: Vec<String>,
    pub checks: Vec<String>,
    pub label: String,
    /// What it does beyond moving, in words (`rams your own Militant`, `gives Check to Red`).
    pub does: Vec<String>,
    /// How it is marked: `move`, `check`, `capture` or `ram`.
    pub mark: &'static str,
}

fn seat_name(state: &GameState, seat: Seat) -> SeatName {
    SeatName {
        seat: state.seat_name(seat).to_string(),
        label: state.seat_label(seat),
    }
}

/// Whose picture rate a viewer's drawings count against (see [`super::limit`]).
fn picture_asker(viewer: Viewer, client: Client) -> Asker {
    match viewer.player {
        Some(p) => Asker::Player(viewer.game, p),
        None => Asker::Watcher(viewer.game, super::limit::bucket_address(client.0)),
    }
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::from(crate::host::HostError::Internal(e.to_string()))
}

/// The board of `state` from `seat`'s side (a spectator's: `None`), with `staged` drawn: from
/// the cache, or drawn for `asker` (see [`super::pictures`]).
async fn board_picture(
    web: &Web,
    state: &GameState,
    seat: Option<Seat>,
    staged: Option<String>,
    asker: Asker,
) -> Result<Arc<Drawn>, ApiError> {
    let side = seat.unwrap_or(state.public_side());
    let key = Key::Board {
        game: state.id(),
        version: state.version(),
        side,
        staged: staged.is_some(),
    };
    if let Some(hit) = web.pictures.cached(&key) {
        return Ok(hit);
    }
    let mut players = Vec::new();
    for s in state.seats() {
        let name = web.host.player_name(s.mover).await?;
        players.push(name.unwrap_or_default());
    }
    let opts = ViewOptions {
        as_seat: Some(side),
        last_moves: state.last_round(),
        staged,
        turn: Some(state.turn_number()),
        players,
        size: Some(SVG_SIZE),
        ..ViewOptions::default()
    };
    let drawn = state.clone();
    web.pictures
        .draw(key, asker, move || {
            let scene = drawn.scene(&opts).map_err(internal)?;
            let theme = drawn.picture_theme(SVG_SIZE);
            let lines = scene.header.iter().map(|h| h.text.clone()).collect();
            let svg = hexmeros_render::render_svg(&scene, &theme).map_err(internal)?;
            Ok(Drawn { svg, lines, of: 0 })
        })
        .await
}

/// `GET /api/board`: the game as the viewer sees it, from their side.
pub async fn board(
    State(web): State<Web>,
    Extension(client): Extension<Client>,
    headers: HeaderMap,
) -> Result<Json<Board>, ApiError> {
    let viewer = web.viewer(&headers).await?;
    let state = web.host.state(viewer.game).await?;
    let seen = state.seen_by(viewer.player);
    let seat = seen.seat;
    let mover = seen.your_turn;
    let staged = seen.staged.clone();
    let asker = picture_asker(viewer, client);
    let drawn = board_picture(&web, &state, seat, staged.clone(), asker).await?;
    let (svg, status) = (drawn.svg.clone(), drawn.lines.clone());
    Ok(Json(Board {
        game: state.id(),
        kind: state.kind().name(),
        title: format!("{} #{}", state.kind().name(), state.id()),
        version: state.version(),
        over: state.holder().is_none(),
        you: seat.map(|s| You {
            seat: state.seat_name(s).to_string(),
            label: state.seat_label(s),
            mover,
        }),
        holder: state.holder().map(|h| state.seat_label(h)),
        status,
        svg,
        alt: state.alt_text(viewer.player),
        cells: state
            .cell_names()
            .into_iter()
            .map(|(h, n)| (h.q, h.r, n))
            .collect(),
        declarable: state
            .declarable()
            .into_iter()
            .filter(|_| staged.is_some())
            .map(|s| seat_name(&state, s))
            .collect(),
        pieces: seen
            .pieces
            .iter()
            .map(|p| PieceView {
                label: p.label.clone(),
                origin: p.origin.clone(),
                cell: p.cell.clone(),
            })
            .collect(),
        staged,
        story: state.record().iter().map(|r| r.line.clone()).collect(),
        last: state.last_round(),
        expects: seen.expects,
        forced: seen.forced.as_ref().map(|f| f.text()),
        stuck: seen
            .stuck
            .into_iter()
            .map(|s| StuckView {
                why: format!("your {} on {} {}", s.kind, s.cell, s.why),
                cell: s.cell,
            })
            .collect(),
        losses: seen.your_losses,
    }))
}

#[derive(Deserialize)]
pub struct TargetsQuery {
    pub origin: String,
}

/// The player a link acts for, or the refusal of a spectator's link.
fn acting(viewer: Viewer) -> Result<PlayerId, ApiError> {
    viewer.player.ok_or_else(|| {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "this is a spectator's link: it shows the board but cannot move",
        )
    })
}

/// The viewer as the Token holder's mover, else the host's refusal.
async fn mover(web: &Web, viewer: Viewer) -> Result<(PlayerId, GameState), ApiError> {
    let player = acting(viewer)?;
    Ok((player, web.host.turn_of(viewer.game, player).await?))
}

fn checked_text<'a>(what: &str, text: &'a str) -> Result<&'a str, ApiError> {
    let text = text.trim();
    if text.is_empty() || text.len() > TEXT_MAX || text.chars().any(char::is_control) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("{what} must be 1 to {TEXT_MAX} printable characters"),
        ));
    }
    Ok(text)
}

/// `GET /api/targets?origin=Q7`: where the viewer's piece may go, numbered as the pictures
/// number them, with what each move takes and the Checks it may declare.
pub async fn targets(
    State(web): State<Web>,
    headers: HeaderMap,
    Query(q): Query<TargetsQuery>,
) -> Result<Json<Vec<TargetView>>, ApiError> {
    let viewer = web.viewer(&headers).await?;
    let origin = checked_text("a piece", &q.origin)?;
    // Not their turn: the host's refusal, as every act gets it.
    let (player, state) = mover(&web, viewer).await?;
    let targets = state
        .targets_seen_by(Some(player), origin)
        .map_err(|why| ApiError::new(StatusCode::BAD_REQUEST, why.to_string()))?;
    Ok(Json(
        targets
            .into_iter()
            .map(|t| TargetView {
                label: t.label(),
                does: t.does.iter().map(|d| d.text()).collect(),
                mark: match t.mark() {
                    Mark::Move => "move",
                    Mark::Check => "check",
                    Mark::Capture => "capture",
                    Mark::Ram => "ram",
                },
                number: t.target.number,
                hex: t.target.hex.map(|h| (h.q, h.r)),
                cell: t.target.cell,
                moves: t.target.moves,
                takes: t.target.takes,
                checks: t.target.checks,
            })
            .collect(),
    ))
}

/// What a player does on the board, at the version of the board they saw.
#[derive(Debug, Deserialize)]
pub struct ActBody {
    pub version: u64,
    #[serde(flatten)]
    pub act: Act,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Act {
    /// Stage a move (nothing is final until Pass).
    Stage { text: String },
    /// Commit the staged move.
    Pass,
    /// Add a Check declaration on `seat` to the staged move.
    Check { seat: String },
    /// Declare Check on `seat` and pass at once.
    CheckPass { seat: String },
    /// Take the staged move back.
    TakeBack,
}

#[derive(Serialize)]
pub struct Acted {
    pub version: u64,
    /// What the host said to the player privately (a challenge window still open, say).
    pub said: Vec<String>,
}

fn command(state: &GameState, act: Act) -> Result<Command, ApiError> {
    let seat = |name: &str| -> Result<Seat, ApiError> {
        let name = checked_text("a seat", name)?;
        state.seat_named(name).ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("{name} is not a seat of this game"),
            )
        })
    };
    Ok(match act {
        Act::Stage { text } => Command::Move {
            text: checked_text("a move", &text)?.to_string(),
            commit: false,
        },
        Act::Pass => Command::Pass,
        Act::Check { seat: s } => Command::Check { seat: seat(&s)? },
        Act::CheckPass { seat: s } => Command::CheckAndPass { seat: seat(&s)? },
        Act::TakeBack => Command::TakeBack,
    })
}

/// `POST /api/act`: one action of the viewer's, refused unless the game is still at the
/// version their board showed.
pub async fn act(
    State(web): State<Web>,
    headers: HeaderMap,
    body: Result<Json<ActBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<Acted>, ApiError> {
    let viewer = web.viewer(&headers).await?;
    // A body over the limit keeps its own status (413), anything else unreadable is a 400.
    let Json(body) = body.map_err(|e| {
        ApiError::new(
            match e.status() {
                StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
                _ => StatusCode::BAD_REQUEST,
            },
            format!("not an action the board knows: {}", e.body_text()),
        )
    })?;
    let player = acting(viewer)?;
    if web.per_player.check_key(&(viewer.game, player)).is_err() {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many actions; wait a moment",
        ));
    }
    let state = web.host.state(viewer.game).await?;
    let cmd = command(&state, body.act)?;
    let done = web
        .host
        .handle(viewer.game, Actor::player(player), cmd, Some(body.version))
        .await?;
    let version = done.state.version();
    // The board shows the position itself: of what the host says privately, the first line
    // (a challenge window still open, say), not the text board some answers carry.
    let said = web
        .front
        .acted(viewer.game, player, done.effects)
        .await
        .into_iter()
        .filter_map(|t| t.lines().next().map(str::to_string))
        .collect();
    Ok(Json(Acted { version, said }))
}

#[derive(Deserialize)]
pub struct ReplayQuery {
    pub at: usize,
}

/// One step of the story: the board after its first `at` moves.
#[derive(Serialize)]
pub struct Step {
    pub at: usize,
    /// How many moves (and departures) the story has.
    pub of: usize,
    pub svg: String,
}

/// `GET /api/replay?at=N`: the board as it stood after the first `N` moves, from the viewer's
/// side, the `N`th highlighted (any viewer, spectators too: the moves are public).
pub async fn replay(
    State(web): State<Web>,
    Extension(client): Extension<Client>,
    headers: HeaderMap,
    Query(q): Query<ReplayQuery>,
) -> Result<Json<Step>, ApiError> {
    let viewer = web.viewer(&headers).await?;
    let state = web.host.state(viewer.game).await?;
    let seat = viewer
        .player
        .and_then(|p| state.seat_of(p))
        .unwrap_or(state.public_side());
    let at = q.at;
    let key = Key::Replay {
        game: viewer.game,
        version: state.version(),
        at,
        side: seat,
    };
    let drawn = match web.pictures.cached(&key) {
        Some(hit) => hit,
        None => {
            let export = web.host.export(viewer.game).await?;
            let job = move || {
                let (svg, of) = replay_svg(&export, at, seat, SVG_SIZE).map_err(|e| match e {
                    ViewError::Export(why) => ApiError::new(StatusCode::BAD_REQUEST, why),
                    e => internal(e),
                })?;
                Ok(Drawn {
                    svg,
                    lines: Vec::new(),
                    of,
                })
            };
            let asker = picture_asker(viewer, client);
            web.pictures.draw(key, asker, job).await?
        }
    };
    Ok(Json(Step {
        at,
        of: drawn.of,
        svg: drawn.svg.clone(),
    }))
}
