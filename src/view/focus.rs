//! The focus picture: a close-up of what a turn is about, posted before the full board so that
//! a phone shows something readable first. It is the turn picture's own scene (the same
//! rotation, highlights, arrows and Check rings) cut down to the cells around, in order of
//! concern: a staged move (with what it takes and the royal pieces it attacks), the declared
//! Checks, the Token holder's royal pieces under attack, and the round's moves, newest first.
//! The first is taken while the crop draws a cell at least [`MIN_CELL_PX`] wide at
//! [`FOCUS_SIZE`], each further one while cells stay 36 px wide; what does not fit is on the
//! full board. There is no focus picture when there
//! is nothing to show (a game's first turn) or when the crop would be most of the board anyway
//! (a small board such as HexDame's is its own close-up).
//!
//! ```
//! use hexmeros::games::{AnyGame, GameKind};
//! use hexmeros::view::{ViewOptions, focus};
//!
//! let mut game = AnyGame::new(GameKind::HexiMeros, None, None)?;
//! let first = game.legal_moves()[0].clone();
//! game.play(&first)?;
//! let opts = ViewOptions { last_moves: vec![first], ..ViewOptions::default() };
//! let png = focus::focus_png(&game, &opts, None)?.expect("a move to show");
//! assert!(png.starts_with(b"\x89PNG"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashSet;

use hexmeros_render::layout::{hex_to_world, round_hex};
use hexmeros_render::{HeaderLine, Hex, HexPoint, Marker, Rgba, Scene, Tag, Theme};

use super::common::{self, GameView, move_cells};
use super::{ViewError, ViewOptions, game_theme, scene, split_seat};
use crate::games::{AnyGame, Seat};

/// The focus picture's long side: as the move picker's, small enough to post fast.
pub const FOCUS_SIZE: u32 = 720;

/// The narrowest a cell may be drawn in the focus picture, in pixels (its inner width, √3 hex
/// radii): a phone shows the 720 px picture about 390 points wide, so a cell is at least 15
/// points, a piece's shape plain to see (the full 1600 px board gives about 7).
pub const MIN_CELL_PX: f32 = 28.0;

/// The narrowest cell a concern after the first may bring the picture to: a second move far
/// across the board is left to the full board rather than shrink the first to a strip.
const GROW_CELL_PX: f32 = 36.0;

/// Cells shown around each cell of concern.
const MARGIN: i32 = 2;

/// No focus picture when the crop keeps this share of the board's cells or more.
const MOST_OF_THE_BOARD: f32 = 0.7;

/// No focus picture when the whole board drawn at [`FOCUS_SIZE`] already has cells this wide
/// (HexDame's 61 cells: 70 px, Hexmeister's 91: 55 px; HexiMeros' and Harmegedo's: 16 px).
const READABLE_CELL_PX: f32 = 40.0;

/// The least capital height of a cell name, in pixels at [`FOCUS_SIZE`].
const NAME_PX: f32 = 9.0;

/// The colour of the close-up line's swatch: the picker's blue.
const SWATCH: Rgba = Rgba::rgb(24, 120, 230);

fn distance(a: Hex, b: Hex) -> i32 {
    let (dq, dr) = (a.q - b.q, a.r - b.r);
    (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
}

/// The hexes on the straight way from `a` to `b`, both included.
fn line(a: Hex, b: Hex) -> Vec<Hex> {
    let n = distance(a, b);
    if n == 0 {
        return vec![a];
    }
    (0..=n)
        .map(|i| {
            let t = i as f32 / n as f32;
            // A hair off the middle so that a line along a cell edge rounds one way throughout.
            let q = a.q as f32 + (b.q - a.q) as f32 * t + 1e-3;
            let r = a.r as f32 + (b.r - a.r) as f32 * t + 2e-3;
            round_hex(HexPoint::new(q, r))
        })
        .collect()
}

/// The cells a move text names with the ways between them (a ram's or a slide's path).
fn move_path(view: &dyn GameView, text: &str) -> Vec<Hex> {
    let cells = move_cells(view, text);
    let mut out = Vec::new();
    for w in cells.windows(2) {
        out.extend(line(w[0], w[1]));
    }
    if cells.len() == 1 {
        out.push(cells[0]);
    }
    out
}

/// One thing to show: its cells, the cells to name, whether it is a move of the round, and
/// in words what it is (said when it does not fit the close-up).
struct Concern {
    cells: Vec<Hex>,
    named: Vec<Hex>,
    round_move: bool,
    what: String,
}

/// The close-up and, in words, what it leaves to the full board (most pressing first).
pub struct Focus {
    pub scene: Scene,
    pub outside: Vec<String>,
}

/// What the picture for `opts` is about, most pressing first.
fn concerns(game: &AnyGame, view: &dyn GameView, opts: &ViewOptions) -> Vec<Concern> {
    let mut out = Vec::new();
    let holder = game.to_move();
    if let (Some(text), Some(mover)) = (&opts.staged, holder) {
        let mut cells = move_path(view, text);
        let mut after = game.clone();
        if after.play(text).is_ok() {
            // What the move changes (the pieces it takes) and the royal pieces it newly attacks.
            let (was, now) = (view.pic(), common::view_of(&after).pic());
            for t in &now.tiles {
                if was
                    .tiles
                    .iter()
                    .any(|b| b.hex == t.hex && b.glyph != t.glyph)
                {
                    cells.push(t.hex);
                }
            }
            for s in (0..game.seat_count() as u8)
                .map(Seat)
                .filter(|&s| s != mover)
            {
                if after.royal_attacked(s) == Some(true) && game.royal_attacked(s) != Some(true) {
                    cells.extend(view.royals(s));
                }
            }
        }
        let named = move_cells(view, text).last().copied().into_iter().collect();
        out.push(Concern {
            cells,
            named,
            round_move: false,
            what: format!("your move {text}"),
        });
    }
    let name = |h: Hex| view.name_at(h).unwrap_or_default();
    for h in view.checks() {
        out.push(Concern {
            cells: vec![h],
            named: vec![h],
            round_move: false,
            what: format!("the Check at {}", name(h)),
        });
    }
    if let Some(s) = holder
        && game.royal_attacked(s) == Some(true)
    {
        for h in view.royals(s) {
            out.push(Concern {
                cells: vec![h],
                named: vec![h],
                round_move: false,
                what: format!("your attacked {} at {}", game.royal_name(), name(h)),
            });
        }
    }
    // The moves that cost the viewer first, then the rest of the round, newest first.
    let costly = |t: &String| opts.costly.iter().any(|c| c == t);
    let round = opts.last_moves.iter().rev();
    for full in round
        .clone()
        .filter(|t| costly(t))
        .chain(round.filter(|t| !costly(t)))
    {
        let (_, text) = split_seat(game, full);
        let cells = move_path(view, text);
        if cells.is_empty() {
            continue;
        }
        let named = move_cells(view, text).last().copied().into_iter().collect();
        out.push(Concern {
            cells,
            named,
            round_move: true,
            what: full.clone(),
        });
    }
    out
}

/// The focus scene of `game` drawn as `opts` asks (see the module doc), or `None` when there is
/// nothing to focus on or the close-up would be most of the board.
pub fn focus_scene(game: &AnyGame, opts: &ViewOptions) -> Result<Option<Scene>, ViewError> {
    Ok(focus_told(game, opts)?.map(|f| f.scene))
}

/// [`focus_scene`] with what it leaves out, in words.
pub fn focus_told(game: &AnyGame, opts: &ViewOptions) -> Result<Option<Focus>, ViewError> {
    let view = common::view_of(game);
    let full = scene(game, opts)?;
    let theme = game_theme(game, FOCUS_SIZE);
    if hexmeros_render::hex_radius_px(&full, &theme)? * 3f32.sqrt() >= READABLE_CELL_PX {
        return Ok(None);
    }
    let on_board: HashSet<Hex> = full.tiles.iter().map(|t| t.hex).collect();
    let world = |h: Hex| hex_to_world(full.orientation, full.rotation, HexPoint::from(h));
    // Every cell of the board inside the box round the cells of concern (a map, not islands:
    // the picture is as large either way), MARGIN cells beyond them.
    let crop = |cells: &HashSet<Hex>| -> Scene {
        let pad = MARGIN as f32 * 3f32.sqrt() + 0.1;
        let mut b = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
        for &h in cells {
            let (x, y) = world(h);
            b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
        }
        let inside = |h: Hex| {
            let (x, y) = world(h);
            x >= b[0] - pad && x <= b[2] + pad && y >= b[1] - pad && y <= b[3] + pad
        };
        let mut header: Vec<HeaderLine> = full.header.iter().take(1).cloned().collect();
        header.push(HeaderLine::new(String::new()));
        Scene {
            orientation: full.orientation,
            rotation: full.rotation,
            header,
            tiles: full
                .tiles
                .iter()
                .filter(|t| inside(t.hex))
                .cloned()
                .collect(),
            arrows: Vec::new(),
            labels: Vec::new(),
            tags: Vec::new(),
            trays: Vec::new(),
        }
    };
    let (mut chosen, mut named): (HashSet<Hex>, Vec<Hex>) = (HashSet::new(), Vec::new());
    let (mut moves_shown, mut moves) = (0, 0);
    let mut outside = Vec::new();
    for c in concerns(game, view.as_ref(), opts) {
        moves += usize::from(c.round_move);
        let cells: Vec<Hex> = c
            .cells
            .into_iter()
            .filter(|h| on_board.contains(h))
            .collect();
        if cells.is_empty() {
            outside.push(c.what);
            continue;
        }
        let mut wider = chosen.clone();
        wider.extend(cells.iter().copied());
        let r = hexmeros_render::hex_radius_px(&crop(&wider), &theme)?;
        // The first concern as long as it reads at all; more only while the picture stays a
        // close-up (a strip across the board reads little better than the board).
        let floor = if chosen.is_empty() {
            MIN_CELL_PX
        } else {
            GROW_CELL_PX
        };
        if r * 3f32.sqrt() + 1e-3 < floor {
            outside.push(c.what);
            continue;
        }
        chosen = wider;
        for h in c.named {
            if !named.contains(&h) {
                named.push(h);
            }
        }
        moves_shown += usize::from(c.round_move);
    }
    if chosen.is_empty() {
        return Ok(None);
    }
    let mut focus = crop(&chosen);
    if focus.tiles.len() as f32 >= MOST_OF_THE_BOARD * full.tiles.len() as f32 {
        return Ok(None);
    }
    let kept: HashSet<Hex> = focus.tiles.iter().map(|t| t.hex).collect();
    focus.arrows = full
        .arrows
        .iter()
        .filter(|a| kept.contains(&a.from) && kept.contains(&a.to))
        .cloned()
        .collect();
    name_cells(&mut focus, view.as_ref(), named, &theme)?;
    let checks = focus
        .tiles
        .iter()
        .filter(|t| t.markers.contains(&Marker::Check))
        .count();
    let line = close_up_line(opts.staged.is_some(), moves_shown, moves, checks);
    if let Some(last) = focus.header.last_mut() {
        *last = HeaderLine::with_swatch(line, SWATCH);
    }
    Ok(Some(Focus {
        scene: focus,
        outside,
    }))
}

/// Cell names over the top of the `named` cells, as in the move picker, where they can be read
/// (at least 9 px) without covering much of the piece.
fn name_cells(
    focus: &mut Scene,
    view: &dyn GameView,
    named: Vec<Hex>,
    theme: &Theme,
) -> Result<(), ViewError> {
    let r = hexmeros_render::hex_radius_px(focus, theme)?;
    // Every close-up names its cells of concern: where cells are small the name reaches over
    // the cell's top, still at least NAME_PX tall.
    let size = (NAME_PX / r.max(1.0)).min(0.7);
    let up = super::zoom::offset(focus, -0.6);
    for h in named {
        let (Some(name), Some(t)) = (view.name_at(h), focus.tiles.iter().find(|t| t.hex == h))
        else {
            continue;
        };
        let tag = Tag {
            at: HexPoint::new(h.q as f32 + up.q, h.r as f32 + up.r),
            text: name,
            size: size.max(0.2),
            floor: false,
            fill: t.fill.with_alpha(225),
            ink: if t.fill.luminance() < 0.45 {
                Rgba::rgb(236, 232, 222)
            } else {
                Rgba::rgb(40, 36, 32)
            },
        };
        focus.tags.push(tag);
    }
    Ok(())
}

/// The close-up's header line: what it shows of the round (`shown` of its `moves`), or the
/// staged move, and whether Checks are in it.
fn close_up_line(staged: bool, shown: usize, moves: usize, checks: usize) -> String {
    let mut line = if staged {
        "Close-up of your move".to_string()
    } else if shown == moves {
        match moves {
            0 => "Close-up".to_string(),
            1 => "Close-up of the last move".to_string(),
            n => format!("Close-up of the round's {n} moves"),
        }
    } else {
        format!("Close-up of {shown} of the round's {moves} moves (all on the full board)")
    };
    if checks > 0 {
        line.push_str(if checks == 1 {
            " · a Check"
        } else {
            " · Checks"
        });
    }
    line
}

/// The focus picture as PNG bytes (see [`focus_scene`]), [`FOCUS_SIZE`] px on its long side
/// unless `size` says otherwise (the crop is chosen at [`FOCUS_SIZE`] whatever the size).
pub fn focus_png(
    game: &AnyGame,
    opts: &ViewOptions,
    size: Option<u32>,
) -> Result<Option<Vec<u8>>, ViewError> {
    Ok(focus_png_told(game, opts, size)?.map(|f| f.png))
}

/// A drawn close-up and, in words, what it leaves to the full board.
pub struct FocusPng {
    pub png: Vec<u8>,
    pub outside: Vec<String>,
}

/// [`focus_png`] with what the close-up leaves to the full board, in words.
pub fn focus_png_told(
    game: &AnyGame,
    opts: &ViewOptions,
    size: Option<u32>,
) -> Result<Option<FocusPng>, ViewError> {
    let Some(focus) = focus_told(game, opts)? else {
        return Ok(None);
    };
    let png =
        hexmeros_render::render_png(&focus.scene, &game_theme(game, size.unwrap_or(FOCUS_SIZE)))?;
    Ok(Some(FocusPng {
        png,
        outside: focus.outside,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;

    fn played(kind: GameKind, plies: usize) -> (AnyGame, Vec<String>) {
        let mut game = AnyGame::new(kind, None, None).unwrap();
        let mut moves = Vec::new();
        for i in 0..plies {
            let legal = game.legal_moves();
            let m = legal[(i * 7) % legal.len()].clone();
            game.play(&m).unwrap();
            moves.push(m);
        }
        (game, moves)
    }

    fn cell_px(game: &AnyGame, s: &Scene) -> f32 {
        hexmeros_render::hex_radius_px(s, &game_theme(game, FOCUS_SIZE)).unwrap() * 3f32.sqrt()
    }

    #[test]
    fn a_heximeros_round_is_shown_close_up_with_every_move_cell() {
        let (game, moves) = played(GameKind::HexiMeros, 6);
        let opts = ViewOptions {
            last_moves: moves.clone(),
            ..ViewOptions::default()
        };
        let full = scene(&game, &opts).unwrap();
        let focus = focus_scene(&game, &opts).unwrap().expect("a close-up");
        assert!(
            focus.tiles.len() * 10 < full.tiles.len() * 7,
            "{}",
            focus.tiles.len()
        );
        assert!(cell_px(&game, &focus) >= MIN_CELL_PX);
        assert_eq!(focus.rotation, full.rotation);
        let view = common::view_of(&game);
        let shown: HashSet<Hex> = focus.tiles.iter().map(|t| t.hex).collect();
        let mut all = true;
        for m in &moves {
            all &= move_cells(view.as_ref(), m)
                .iter()
                .all(|h| shown.contains(h));
        }
        let line = &focus.header[1].text;
        if all {
            assert_eq!(line, "Close-up of the round's 6 moves");
        } else {
            assert!(line.contains("of the round's 6 moves (all on"), "{line}");
        }
        // The newest move is always in.
        let last = move_cells(view.as_ref(), &moves[5]);
        assert!(last.iter().all(|h| shown.contains(h)));
    }

    #[test]
    fn moves_far_apart_keep_cells_readable_by_leaving_some_out() {
        // Every round move of a game's first round: six seats around a 649-cell board.
        let (game, moves) = played(GameKind::HexiMeros, 6);
        let opts = ViewOptions {
            last_moves: moves,
            ..ViewOptions::default()
        };
        let focus = focus_scene(&game, &opts).unwrap().unwrap();
        assert!(cell_px(&game, &focus) >= MIN_CELL_PX);
    }

    /// Issue 62: a move that cost the viewer comes into the close-up before the round's
    /// others, what does not fit is said in words, and the close-up names its cells.
    #[test]
    fn a_costly_move_is_shown_first_and_what_is_left_out_is_told() {
        let (game, moves) = played(GameKind::HexiMeros, 6);
        let opts = ViewOptions {
            last_moves: moves.clone(),
            ..ViewOptions::default()
        };
        let plain = focus_told(&game, &opts).unwrap().unwrap();
        assert!(
            !plain.outside.is_empty(),
            "six moves around the board do not fit one close-up"
        );
        for o in &plain.outside {
            assert!(moves.contains(o), "{o} is none of {moves:?}");
        }
        let left = plain.outside.last().unwrap().clone();
        let costly = ViewOptions {
            costly: vec![left.clone()],
            ..opts
        };
        let told = focus_told(&game, &costly).unwrap().unwrap();
        assert!(!told.outside.contains(&left), "{:?}", told.outside);
        let view = common::view_of(&game);
        let shown: HashSet<Hex> = told.scene.tiles.iter().map(|t| t.hex).collect();
        let cells = move_cells(view.as_ref(), &left);
        assert!(cells.iter().all(|h| shown.contains(h)), "{left}");
        let name = view.name_at(*cells.last().unwrap()).unwrap();
        assert!(
            told.scene.tags.iter().any(|t| t.text == name),
            "{name} is named on the close-up"
        );
    }

    #[test]
    fn nothing_to_show_or_a_small_board_gives_no_close_up() {
        let game = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
        assert!(
            focus_scene(&game, &ViewOptions::default())
                .unwrap()
                .is_none()
        );
        for kind in [GameKind::HexDame, GameKind::Hexmeister] {
            let (game, moves) = played(kind, 2);
            let opts = ViewOptions {
                last_moves: moves,
                ..ViewOptions::default()
            };
            assert!(focus_scene(&game, &opts).unwrap().is_none(), "{kind}");
        }
        let (game, moves) = played(GameKind::Harmegedo, 2);
        let opts = ViewOptions {
            last_moves: moves,
            ..ViewOptions::default()
        };
        assert!(focus_scene(&game, &opts).unwrap().is_some());
    }

    #[test]
    fn a_staged_move_is_the_close_up() {
        let game = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
        let m = game.legal_moves()[3].clone();
        let opts = ViewOptions {
            staged: Some(m.clone()),
            ..ViewOptions::default()
        };
        let focus = focus_scene(&game, &opts).unwrap().unwrap();
        assert_eq!(focus.header[1].text, "Close-up of your move");
        let view = common::view_of(&game);
        let cells = move_cells(view.as_ref(), &m);
        let shown: HashSet<Hex> = focus.tiles.iter().map(|t| t.hex).collect();
        assert!(cells.iter().all(|h| shown.contains(h)));
        assert!(focus.arrows.iter().all(|a| a.dashed));
        // Cells large enough to carry the target's name.
        let name = view.name_at(*cells.last().unwrap()).unwrap();
        assert!(focus.tags.iter().any(|t| t.text == name), "{name}");
        assert!(!focus.arrows.is_empty());
    }

    #[test]
    fn the_line_between_two_cells_is_unbroken() {
        let (a, b) = (Hex::new(0, 0), Hex::new(5, -3));
        let l = line(a, b);
        assert_eq!(l.first(), Some(&a));
        assert_eq!(l.last(), Some(&b));
        assert!(l.windows(2).all(|w| distance(w[0], w[1]) == 1));
    }
}
