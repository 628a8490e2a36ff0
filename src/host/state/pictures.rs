//! What a viewer is shown besides the projection's words (`seen`): the picker's lists and
//! close-ups, seat labels and cell names, the pictures' theme. The front ends (Discord, the web
//! board, the terminal) draw the game only through these and `seen`, never from the rules
//! position (`tests/rules/purity.rs` holds them to it).

use hexmeros_render::{Hex, Theme};

use super::GameState;
use crate::games::Seat;
use crate::view::picker::{self, Choice, Piece, Target};
use crate::view::{self, ViewError, zoom};

impl GameState {
    /// The pieces the player to move may move, in the picker's order (`view::picker`).
    pub fn pick_pieces(&self) -> Vec<Piece> {
        picker::pieces(&self.game)
    }

    /// The numbered targets of the piece whose moves start with `origin`.
    pub fn pick_targets(&self, origin: &str) -> Vec<Target> {
        picker::targets(&self.game, origin)
    }

    /// The moves that end on `target` (a promotion's pieces, a word move's words), each with
    /// its menu line.
    pub fn pick_choices(&self, origin: &str, target: &Target) -> Vec<Choice> {
        picker::choices(&self.game, origin, target)
    }

    /// The close-up of `piece` and `targets` as a PNG, seen from `viewer`'s side, the players
    /// named per seat; `size` px on its long side (the picker's default when `None`).
    pub fn zoom_png(
        &self,
        viewer: Option<Seat>,
        players: &[String],
        piece: &Piece,
        targets: &[Target],
        size: Option<u32>,
    ) -> Result<Vec<u8>, ViewError> {
        zoom::zoom_png_named(&self.game, viewer, players, piece, targets, size)
    }

    /// A seat as pictures and pages name it (`Silver`, `White`).
    pub fn seat_label(&self, seat: Seat) -> String {
        view::seat_label(&self.game, seat)
    }

    /// Every cell's name with its place on the picture.
    pub fn cell_names(&self) -> Vec<(Hex, String)> {
        view::cell_names(&self.game)
    }

    /// The theme of this game's picture `size` px on its long side.
    pub fn picture_theme(&self, size: u32) -> Theme {
        view::game_theme(&self.game, size)
    }
}

/// Step `at` of a game's replay (`export`, as `GameHost::export` writes it) as an SVG seen from
/// `side`, its move highlighted, `size` px on its long side: the SVG and how many steps the
/// replay has. A bad export is [`ViewError::Export`].
pub fn replay_svg(
    export: &str,
    at: usize,
    side: Seat,
    size: u32,
) -> Result<(String, usize), ViewError> {
    let (game, last, of) = view::replay_at(export, at)?;
    let opts = view::ViewOptions {
        as_seat: Some(side),
        last_moves: last.into_iter().collect(),
        size: Some(size),
        ..view::ViewOptions::default()
    };
    let scene = view::scene(&game, &opts)?;
    let theme = view::game_theme(&game, size);
    Ok((hexmeros_render::render_svg(&scene, &theme)?, of))
}
