//! Board pictures: turns a position of any game into a [`hexmeros_render::Scene`] and from there
//! into a PNG or a replay GIF. This module owns everything about how a game *looks* (colours,
//! piece shapes, cell tones, rim coordinates, highlights, trays, the header, rotation to a
//! viewer's seat); the `render` crate owns the pixels and knows no game.
//!
//! # API (what the Discord and local front ends call)
//!
//! ```
//! use hexmeros::games::{AnyGame, GameKind};
//! use hexmeros::view::{ViewOptions, render_png};
//!
//! let mut game = AnyGame::new(GameKind::HexDame, None, None)?;
//! game.play("a4-a5")?;
//! let opts = ViewOptions {
//!     last_moves: vec!["a4-a5".into()],
//!     ..ViewOptions::default()
//! };
//! let png = render_png(&game, &opts)?;
//! assert!(png.starts_with(b"\x89PNG"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! * [`scene`]`(game, opts)`: the plain-data scene (for callers that add their own marks).
//! * [`render_png`]`(game, opts)`: the picture as PNG bytes, `opts.size` px on the long side
//!   (default [`DEFAULT_SIZE`]), drawn with [`theme`]`(size)`: rim labels one per board line,
//!   each right beyond one of its line's ends, in one row round the board; up to 2 % of the long
//!   side (8 dp on a phone), smaller where the board's lines need it (HexiMeros, Harmegedo).
//! * [`replay_gif`]`(start, moves, opts)`: an animated GIF, one frame per move (the first frame
//!   the start position), each move highlighted as it is played.
//! * [`replay_gif_from_export`]`(text)`: the same from the host's export text
//!   (`GameHost::export`): its `game`, `seats` and `house` lines and its move lines.
//!
//! [`ViewOptions`] (all fields optional, `Default` = the start-of-turn view from the mover's side):
//! `as_seat` turns the board so that seat sits at the bottom; `last_moves` are the move texts
//! played since the viewer's previous turn (oldest first; each may be prefixed with the mover's
//! seat name as in the export, `blue Q2-Q4`), highlighted one colour per player; `staged` is a
//! move of the player to move drawn as a dashed preview; `players` names the seats in the header;
//! `turn` numbers the turn in the header; `size` is the picture's long side.
//!
//! Bad input (an illegal staged move, a move text that names no cell, a seat that is not in the
//! game) is a [`ViewError`]; no legal position panics.

mod common;
pub mod focus;
mod harmegedo;
mod hexaequo;
mod hexdame;
mod heximeros;
mod hexmeister;
pub mod legend;
#[cfg(test)]
mod palette_tests;
pub mod picker;
pub mod zoom;

use hexmeros_render::{Arrow, GlyphState, HeaderLine, Hex, Marker, Rgba, Scene, Theme};

use crate::games::record::{GameRecord, Line};
use crate::games::{AnyGame, Outcome, Seat};
use common::{GameView, Pic, choose_rotation, move_cells};

pub use common::{PLAYER_COLOURS, SEAT_MARKS, piece_glyph_heximeros};
pub use hexdame::HEXDAME_SIZE;
pub use heximeros::all_piece_glyphs as heximeros_piece_glyphs;

/// The long side of a board picture unless [`ViewOptions::size`] says otherwise: big enough to
/// read a 649-cell board on a phone when zoomed, small enough to post quickly. HexDame's 61
/// cells use [`HEXDAME_SIZE`], and HexaEquo's picture grows with its board up to this size.
pub const DEFAULT_SIZE: u32 = 1600;

/// The long side of replay GIF frames.
pub const REPLAY_SIZE: u32 = 960;

/// How a picture is drawn. `Default` is the start-of-turn view from the mover's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewOptions {
    /// Turn the board so that this seat sits at the bottom. `None`: the player to move (for a
    /// finished game seat 0).
    pub as_seat: Option<Seat>,
    /// Move texts played since the viewer's previous turn, oldest first, each applied in order
    /// to reach the game shown. Each is highlighted in its mover's colour. A text may start with
    /// the mover's seat name (`blue Q2-Q4`, as in the host's export); otherwise the mover is the
    /// owner of the piece now on the move's last cell, or else the turn order.
    pub last_moves: Vec<String>,
    /// A staged (not yet committed) move of the player to move, drawn as a preview.
    pub staged: Option<String>,
    /// Of `last_moves`, those that cost the viewer (took their pieces): the close-up
    /// (`focus`) shows them right after the Checks, before the round's other moves.
    pub costly: Vec<String>,
    /// Display names per seat for the header: the Token holder's line names its player, and a
    /// line (three seats a line) tells who plays which colour. Each is cut by [`fit_name`].
    /// Empty (or too short): the seat names alone.
    pub players: Vec<String>,
    /// The turn number for the header.
    pub turn: Option<u32>,
    /// The picture's long side in pixels (`None`: [`DEFAULT_SIZE`]).
    pub size: Option<u32>,
}

/// Why a picture could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    #[error("staged move {text:?}: {reason}")]
    Staged { text: String, reason: String },
    #[error("move {text:?} names no cell of this board")]
    NoCells { text: String },
    #[error("replay move {index} ({text:?}): {reason}")]
    Replay {
        index: usize,
        text: String,
        reason: String,
    },
    #[error("{seat} is not a seat of this game")]
    NoSuchSeat { seat: String },
    #[error("bad export: {0}")]
    Export(String),
    #[error(transparent)]
    Render(#[from] hexmeros_render::RenderError),
}

/// The scene of `game` as `opts` asks.
pub fn scene(game: &AnyGame, opts: &ViewOptions) -> Result<Scene, ViewError> {
    let view = common::view_of(game);
    if let Some(seat) = opts.as_seat
        && seat.index() >= game.seat_count()
    {
        return Err(ViewError::NoSuchSeat {
            seat: format!("seat {}", seat.0),
        });
    }
    let mut pic = view.pic();
    highlight_last_moves(game, view.as_ref(), &mut pic, &opts.last_moves)?;
    if let Some(text) = &opts.staged {
        stage(game, view.as_ref(), &mut pic, text)?;
    }
    for h in view.checks() {
        if let Some(t) = pic.tile_mut(h) {
            t.markers.push(Marker::Check);
        }
    }
    let viewer = opts.as_seat.or_else(|| game.to_move()).unwrap_or(Seat(0));
    // An empty tray is only noise on a phone.
    pic.trays.retain(|t| !t.items.is_empty());
    let rotation = view
        .home(viewer)
        .map_or(0, |home| choose_rotation(pic.orientation, &pic.tiles, home));
    let size = common::rim_label_size(pic.orientation, &pic.tiles);
    let mut labels = common::place_rim_labels(
        pic.orientation,
        rotation,
        &pic.tiles,
        &pic.rim,
        &pic.labels,
        size,
    );
    labels.extend(pic.labels);
    Ok(Scene {
        orientation: pic.orientation,
        rotation,
        header: header(game, view.as_ref(), opts),
        tiles: pic.tiles,
        arrows: pic.arrows,
        labels,
        tags: Vec::new(),
        trays: pic.trays,
    })
}

/// [`theme`] with what `game`'s board needs besides (HexaEquo's light rim round its black
/// tiles).
pub fn game_theme(game: &AnyGame, size: u32) -> Theme {
    let mut theme = theme(size);
    common::view_of(game).adjust_theme(&mut theme);
    theme
}

/// The most characters of a player's name a picture shows; a longer name ends in `…`.
pub const NAME_CHARS: usize = 24;

/// A player's name as a picture shows it: control and text-direction characters taken out
/// (a right-to-left name is drawn as its letters, and cannot turn the rest of the line round),
/// runs of spaces made one, and at most [`NAME_CHARS`] characters, a longer name cut with `…`.
/// Empty when nothing printable is left.
pub fn fit_name(name: &str) -> String {
    let is_format = |c: char| {
        c.is_control()
            || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{061C}' | '\u{FEFF}')
    };
    let words: Vec<String> = name
        .split_whitespace()
        .map(|w| w.chars().filter(|&c| !is_format(c)).collect::<String>())
        .filter(|w| !w.is_empty())
        .collect();
    let clean = words.join(" ");
    if clean.chars().count() <= NAME_CHARS {
        return clean;
    }
    let mut cut: String = clean.chars().take(NAME_CHARS - 1).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('…');
    cut
}

/// The look of a board picture `size` px on its long side: the render crate's default, with rim
/// labels up to [`common::RIM_LABEL_SHARE`] of the long side (32 px at [`DEFAULT_SIZE`], about
/// 8 dp on a phone; the arithmetic is at the constant; `common::place_rim_labels` sets them
/// smaller where one row of them round the board needs it).
pub fn theme(size: u32) -> Theme {
    let mut theme = Theme::new(size);
    theme.label_px_max = (size as f32 * common::RIM_LABEL_SHARE).max(theme.label_px_max);
    theme
}

/// The picture as PNG bytes.
pub fn render_png(game: &AnyGame, opts: &ViewOptions) -> Result<Vec<u8>, ViewError> {
    let scene = scene(game, opts)?;
    let size = opts
        .size
        .or_else(|| common::view_of(game).preferred_size())
        .unwrap_or(DEFAULT_SIZE);
    Ok(hexmeros_render::render_png(
        &scene,
        &game_theme(game, size),
    )?)
}

/// An animated GIF of `moves` played from `start`: the start position, then one frame per move
/// with that move highlighted. `opts.as_seat` fixes the side the board is seen from (default
/// seat 0, so the board does not turn between frames); `opts.players` names the seats;
/// `opts.size` sets the frame size (default [`REPLAY_SIZE`]). Other fields are ignored.
pub fn replay_gif(
    start: &AnyGame,
    moves: &[String],
    opts: &ViewOptions,
) -> Result<Vec<u8>, ViewError> {
    let mut game = start.clone();
    let mut frames = Vec::with_capacity(moves.len() + 1);
    let frame_opts = |last: Vec<String>, turn: usize| ViewOptions {
        as_seat: Some(opts.as_seat.unwrap_or(Seat(0))),
        last_moves: last,
        staged: None,
        players: opts.players.clone(),
        turn: Some(turn as u32),
        size: None,
        costly: Vec::new(),
    };
    frames.push(scene(&game, &frame_opts(Vec::new(), 0))?);
    for (i, text) in moves.iter().enumerate() {
        let played = play_line(&mut game, text).map_err(|reason| ViewError::Replay {
            index: i + 1,
            text: text.clone(),
            reason,
        })?;
        let last = played.into_iter().collect();
        frames.push(scene(&game, &frame_opts(last, i + 1))?);
    }
    let theme = game_theme(start, opts.size.unwrap_or(REPLAY_SIZE));
    // A long game is watched at a brisk pace; a short one slowly enough to follow.
    let delay = if moves.len() > 120 { 250 } else { 600 };
    Ok(hexmeros_render::replay_gif(&frames, &theme, delay)?)
}

/// A replay GIF from the host's export text (see `GameHost::export`): the `game`, `seats` and
/// `house` lines set up the start position; each other non-comment line is `<seat> <move>` or a
/// departure (`resign <seat>`, `concede <seat>`, `expel <seat>`, `skip <seat>`, `draw`).
pub fn replay_gif_from_export(text: &str) -> Result<Vec<u8>, ViewError> {
    let (start, lines) = parse_export(text)?;
    replay_gif(&start, &lines, &ViewOptions::default())
}

/// The start position and the move lines of an export text (see `games::record`).
pub fn parse_export(text: &str) -> Result<(AnyGame, Vec<String>), ViewError> {
    let record = GameRecord::parse(text).map_err(|e| ViewError::Export(e.to_string()))?;
    let start = record
        .start(None)
        .map_err(|e| ViewError::Export(e.to_string()))?;
    Ok((start, record.lines))
}

/// The game of an export text as it stood after its first `at` lines (moves and departures),
/// with the last of them to highlight when it was a move, and how many lines there are: a step
/// of the story, move by move. `at` past the end is an error naming the count.
pub fn replay_at(text: &str, at: usize) -> Result<(AnyGame, Option<String>, usize), ViewError> {
    let (mut game, lines) = parse_export(text)?;
    if at > lines.len() {
        return Err(ViewError::Export(format!(
            "the game has {} moves, not {at}",
            lines.len()
        )));
    }
    let mut last = None;
    for (i, line) in lines[..at].iter().enumerate() {
        last = play_line(&mut game, line).map_err(|reason| ViewError::Replay {
            index: i + 1,
            text: line.clone(),
            reason,
        })?;
    }
    Ok((game, last, lines.len()))
}

/// Plays one record line (`games::record::Line`). Returns the move text to highlight (prefixed
/// with its seat), if the line was a move.
fn play_line(game: &mut AnyGame, line: &str) -> Result<Option<String>, String> {
    Line::parse(game, line)
        .and_then(|l| l.apply(game))
        .map_err(|e| e.to_string())
}

/// Outlines every cell a move touched and draws its arrow, in the mover's colour.
fn highlight_last_moves(
    game: &AnyGame,
    view: &dyn GameView,
    pic: &mut Pic,
    moves: &[String],
) -> Result<(), ViewError> {
    // Work out the movers newest first: the newest move's piece still stands where it went,
    // older ones may since have been taken.
    let mut parsed = Vec::with_capacity(moves.len());
    for text in moves {
        let (seat, body) = split_seat(game, text);
        let cells = move_cells(view, body);
        if cells.is_empty() {
            return Err(ViewError::NoCells { text: text.clone() });
        }
        parsed.push((seat, cells));
    }
    let mut movers = vec![Seat(0); parsed.len()];
    let mut next_mover = game.to_move();
    let mut touched: Vec<Hex> = Vec::new();
    for (i, (seat, cells)) in parsed.iter().enumerate().rev() {
        let last = cells[cells.len() - 1];
        let guess = seat.or_else(|| {
            (!touched.contains(&last))
                .then(|| view.owner_at(last).or_else(|| view.owner_at(cells[0])))
                .flatten()
        });
        let mover = guess
            .or_else(|| next_mover.map(|s| view.previous_seat(s)))
            .unwrap_or(Seat(0));
        movers[i] = mover;
        next_mover = Some(mover);
        touched.extend(cells.iter().copied());
    }
    // Several moves are numbered in the order they were played (one move needs no number).
    let numbered = parsed.len() > 1;
    for (i, ((_, cells), mover)) in parsed.iter().zip(movers).enumerate() {
        let colour = view.accent(mover);
        let number = numbered.then(|| u16::try_from(i + 1).unwrap_or(u16::MAX));
        mark_move(pic, cells, colour, false, number);
    }
    Ok(())
}

/// The seat named at the start of a move text (`blue Q2-Q4`), and the rest.
fn split_seat<'a>(game: &AnyGame, text: &'a str) -> (Option<Seat>, &'a str) {
    let text = text.trim();
    if let Some((head, rest)) = text.split_once(' ') {
        let seat = (0..game.seat_count() as u8)
            .map(Seat)
            .find(|&s| game.seat_name(s).eq_ignore_ascii_case(head));
        if seat.is_some() {
            return (seat, rest.trim());
        }
    }
    (None, text)
}

/// Outlines `cells` and draws the arrows between them; `number` badges the move's first arrow.
fn mark_move(pic: &mut Pic, cells: &[Hex], colour: Rgba, dashed: bool, number: Option<u16>) {
    for &h in cells {
        if let Some(t) = pic.tile_mut(h)
            && !t.markers.contains(&Marker::Outline(colour))
        {
            t.markers.push(Marker::Outline(colour));
        }
    }
    let mut number = number;
    for w in cells.windows(2) {
        if w[0] != w[1] {
            pic.arrows.push(Arrow {
                from: w[0],
                to: w[1],
                colour: colour.with_alpha(if dashed { 235 } else { 205 }),
                dashed,
                number: number.take(),
            });
        }
    }
}

/// Draws a staged move as a preview: the position after it, with the cells that change holding
/// half-transparent pieces, outlined, and a dashed arrow.
fn stage(game: &AnyGame, view: &dyn GameView, pic: &mut Pic, text: &str) -> Result<(), ViewError> {
    let mover = game.to_move().ok_or_else(|| ViewError::Staged {
        text: text.to_string(),
        reason: "the game is over".into(),
    })?;
    let mut after = game.clone();
    after.play(text).map_err(|e| ViewError::Staged {
        text: text.to_string(),
        reason: e.to_string(),
    })?;
    let after_view = common::view_of(&after);
    let after_pic = after_view.pic();
    for t in &after_pic.tiles {
        let before = pic.tile_mut(t.hex);
        match before {
            Some(b) if b.glyph != t.glyph => {
                b.glyph = t.glyph.map(|g| g.with_state(GlyphState::Ghost)).or(b.glyph);
                if t.glyph.is_none()
                    && let Some(g) = &mut b.glyph
                {
                    // A piece that leaves (or is taken) is shown faded where it stood.
                    g.state = GlyphState::Ghost;
                }
            }
            Some(_) => {}
            None => {
                // A tile the move lays (HexaEquo): shown as a preview too.
                let mut tile = t.clone();
                tile.glyph = tile.glyph.map(|g| g.with_state(GlyphState::Ghost));
                tile.fill = tile.fill.mix(Rgba::rgb(128, 128, 128), 0.35);
                pic.push(tile);
            }
        }
    }
    let cells = move_cells(view, text);
    let cells = if cells.is_empty() {
        move_cells(after_view.as_ref(), text)
    } else {
        cells
    };
    mark_move(pic, &cells, view.accent(mover), true, None);
    Ok(())
}

/// Every cell of `game`'s board with its name as the moves spell it (`a4`, `Q7`), in the scene's
/// coordinates: what a front end that draws the board itself (the web board's SVG) maps taps
/// with.
pub fn cell_names(game: &AnyGame) -> Vec<(Hex, String)> {
    let view = common::view_of(game);
    let mut seen = std::collections::BTreeSet::new();
    view.pic()
        .tiles
        .iter()
        .filter(|t| seen.insert((t.hex.q, t.hex.r)))
        .filter_map(|t| view.name_at(t.hex).map(|n| (t.hex, n)))
        .collect()
}

/// A seat as the pictures, the panel and every sentence name it: the game's seat name
/// title-cased (`Red`, `White`), or where that name is notation, the view's (`Kingdom of
/// Silver` for Harmegedo's `kingdom0`).
pub fn seat_label(game: &AnyGame, seat: Seat) -> String {
    common::view_of(game)
        .seat_label(seat)
        .unwrap_or_else(|| common::title_case(game.seat_name(seat)))
}

fn header(game: &AnyGame, view: &dyn GameView, opts: &ViewOptions) -> Vec<HeaderLine> {
    let seat_label = |s: Seat| -> String {
        view.seat_label(s)
            .unwrap_or_else(|| common::title_case(game.seat_name(s)))
    };
    let name = |s: Seat| -> String {
        opts.players
            .get(s.index())
            .map(|n| fit_name(n))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| seat_label(s))
    };
    let mut title = game.kind().name().to_string();
    if let Some(turn) = opts.turn {
        title.push_str(&format!(" · turn {turn}"));
    }
    let mut lines = vec![HeaderLine::new(title)];
    let mut status = match (game.outcome(), game.to_move()) {
        (Some(Outcome::Win { winners, reason }), _) => {
            let names: Vec<String> = winners.iter().map(|&s| name(s)).collect();
            let text = format!("{} won · {reason}", names.join(" & "));
            match winners.first() {
                Some(&s) => HeaderLine::with_swatch(text, view.swatch(s))
                    .with_mark(view.mark(s))
                    .with_plate(view.plate(s)),
                None => HeaderLine::new(text),
            }
        }
        (Some(Outcome::Draw { reason, .. }), _) => HeaderLine::new(format!("Drawn · {reason}")),
        (None, Some(s)) => {
            let who = name(s);
            let colour = seat_label(s);
            let text = if who == colour {
                format!("{who} holds the Token")
            } else {
                format!("{who} ({colour}) holds the Token")
            };
            HeaderLine::with_swatch(text, view.swatch(s))
                .with_mark(view.mark(s))
                .with_plate(view.plate(s))
        }
        (None, None) => HeaderLine::new("Game over"),
    };
    for extra in view.status() {
        status.text.push_str(" · ");
        status.text.push_str(&extra);
    }
    lines.push(status);
    // A Check is said in words too, on its own line in the checked seat's colour: the ring on
    // the board is easy to miss on a phone.
    for (checked, declarer) in game.declared_checks() {
        lines.push(
            HeaderLine::with_swatch(
                format!(
                    "{} is in Check (declared by {})",
                    seat_label(checked),
                    seat_label(declarer)
                ),
                view.swatch(checked),
            )
            .with_mark(view.mark(checked))
            .with_plate(view.plate(checked)),
        );
    }
    // Who plays which colour, when the caller knows the players: three seats a line, so that a
    // six-player line stays readable on a phone.
    let named: Vec<String> = (0..game.seat_count() as u8)
        .map(Seat)
        .filter_map(|s| {
            let n = opts.players.get(s.index()).map(|n| fit_name(n))?;
            (!n.is_empty()).then(|| format!("{}: {n}", seat_label(s)))
        })
        .collect();
    for chunk in named.chunks(PLAYERS_PER_LINE) {
        lines.push(HeaderLine::new(chunk.join(" · ")));
    }
    lines
}

/// Seats named on one header line.
const PLAYERS_PER_LINE: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;

    #[test]
    fn a_name_is_cut_to_its_most_characters_with_an_ellipsis() {
        assert_eq!(fit_name("alice"), "alice");
        let long = "x".repeat(100);
        let cut = fit_name(&long);
        assert_eq!(cut.chars().count(), NAME_CHARS);
        assert!(cut.ends_with('…'));
        // Emoji count as characters and are kept.
        let emoji = "🐉".repeat(40);
        let cut = fit_name(&emoji);
        assert_eq!(cut.chars().count(), NAME_CHARS);
        assert!(cut.starts_with("🐉🐉"));
        // No space before the ellipsis.
        let spaced = format!("{} tail", "a".repeat(NAME_CHARS - 2));
        assert_eq!(
            fit_name(&spaced),
            format!("{}…", "a".repeat(NAME_CHARS - 2))
        );
    }

    #[test]
    fn a_name_loses_its_control_and_direction_characters() {
        // A right-to-left override would turn the rest of the header line round.
        assert_eq!(fit_name("\u{202E}evil\u{202C} name"), "evil name");
        assert_eq!(fit_name("שלום\u{200F}"), "שלום");
        assert_eq!(fit_name("a\n\tb   c"), "a b c");
        assert_eq!(fit_name("\u{200B}\u{0007} "), "");
    }

    #[test]
    fn the_header_names_the_holder_and_never_grows_past_the_cut() {
        let game = AnyGame::new(GameKind::HexDame, None, None).unwrap();
        let view = common::view_of(&game);
        let opts = ViewOptions {
            players: vec!["B".repeat(100), "bob".into()],
            ..ViewOptions::default()
        };
        let lines = header(&game, view.as_ref(), &opts);
        let status = &lines[1].text;
        assert!(
            status.starts_with(&format!("{}…", "B".repeat(NAME_CHARS - 1))),
            "{status}"
        );
        assert!(status.contains("(White) holds the Token"), "{status}");
        let name = status.split(" (White)").next().unwrap_or_default();
        assert_eq!(name.chars().count(), NAME_CHARS, "{status}");
        // A name with nothing printable falls back to the seat's name.
        let opts = ViewOptions {
            players: vec!["\u{202E}".into(), "bob".into()],
            ..ViewOptions::default()
        };
        let lines = header(&game, view.as_ref(), &opts);
        assert!(
            lines[1].text.starts_with("White holds the Token"),
            "{}",
            lines[1].text
        );
        // Odd names draw.
        for name in ["🐉".repeat(100), "مرحبا بالعالم".into(), "x".repeat(1000)] {
            let opts = ViewOptions {
                players: vec![name, "bob".into()],
                size: Some(200),
                ..ViewOptions::default()
            };
            assert!(render_png(&game, &opts).is_ok());
        }
    }
}
