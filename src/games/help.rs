//! Rules help in words (`/hexmeros rules`): each game's pieces with one line on how they move,
//! its key rules in a few lines, and how its cells are named. Every sentence here is checked
//! against `docs/rules/<game>.md`; the pictures that go with it are `view::legend`'s.

use super::GameKind;

/// One kind of piece a player moves, as the rulebook names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceHelp {
    /// The piece's name in position JSON (`"militant"`); see [`PieceHelp::hatted`].
    pub key: &'static str,
    /// The name players read (`"Hatted Militant"`).
    pub name: &'static str,
    /// A HexiMeros Militant wearing the Hat (a militant with `"hatted": true` in JSON).
    pub hatted: bool,
    /// How it moves and captures, in one line.
    pub moves: &'static str,
}

const fn piece(key: &'static str, name: &'static str, moves: &'static str) -> PieceHelp {
    PieceHelp {
        key,
        name,
        hatted: false,
        moves,
    }
}

const HEXIMEROS_PIECES: [PieceHelp; 10] = [
    piece(
        "sovereign",
        "Sovereign",
        "one step in any of the 12 directions (6 flat, 6 line)",
    ),
    piece(
        "regent",
        "Regent",
        "slides any distance in all 12 directions",
    ),
    piece(
        "assassin",
        "Assassin",
        "slides 1 to 3 cells in all 12 directions",
    ),
    piece(
        "archer",
        "Archer",
        "moves 1–2 cells without capturing, or shoots instead: takes the first piece within 3 cells in one of the 12 directions, staying put",
    ),
    piece(
        "prelate",
        "Prelate",
        "slides any distance along the 6 line directions; its first move may be one step to a touching cell",
    ),
    piece(
        "alcazar",
        "Alcazar",
        "slides any distance along the 6 flat directions",
    ),
    piece(
        "cavalier",
        "Cavalier",
        "leaps 2 cells straight then 1 turned 60°, or 3 then 2 (24 targets)",
    ),
    piece(
        "dreadnaught",
        "Dreadnaught",
        "moves 1–4 cells in a flat direction, removing every piece on its path, even its own (never its Sovereign)",
    ),
    piece(
        "militant",
        "Militant",
        "one step forward to an empty cell (two at first); captures on the 4 forward-diagonal cells",
    ),
    PieceHelp {
        key: "militant",
        name: "Hatted Militant",
        hatted: true,
        moves: "moves and captures like a Sovereign (not royal)",
    },
];

const HEXDAME_PIECES: [PieceHelp; 2] = [
    piece(
        "man",
        "Man",
        "steps to an empty cell in its 3 forward directions; captures by jumping a touching enemy piece in any of the 6 directions, and must jump on while it can",
    ),
    piece(
        "king",
        "King",
        "a man that ended on the far back rank: flies any distance along the 6 directions, and captures by jumping an enemy piece at any distance to any empty cell beyond",
    ),
];

const HEXMEISTER_PIECES: [PieceHelp; 1] = [piece(
    "stone",
    "Stone",
    "moves along any path of open cells (empty lanes and gates, your own gates, your base row) to an empty cell the opponent does not secure; a moat cell can be entered but not crossed, a gate only from next to it (or from your base row onto your base gates)",
)];

const HEXAEQUO_PIECES: [PieceHelp; 2] = [
    piece(
        "disc",
        "Disc",
        "steps to a touching empty tile, or jumps in a straight line over touching pieces to empty tiles beyond, capturing the enemy pieces it jumps; it may stop after any jump",
    ),
    piece(
        "ring",
        "Ring",
        "leaps to any tile exactly 2 cells away (12 of them; what lies between does not matter), capturing an enemy piece there",
    ),
];

const HARMEGEDO_PIECES: [PieceHelp; 6] = [
    piece(
        "king",
        "King",
        "one space in any of the 8 directions; castles 2 spaces along the home row towards an unmoved rook",
    ),
    piece(
        "queen",
        "Queen",
        "any distance along ranks, files and diagonals (8 directions)",
    ),
    piece(
        "rook",
        "Rook",
        "any distance along ranks and files; along a rank it may go round the ring",
    ),
    piece("bishop", "Bishop", "any distance along the 4 diagonals"),
    piece(
        "knight",
        "Knight",
        "leaps 2 spaces straight then 1 to the side (8 targets)",
    ),
    piece(
        "pawn",
        "Pawn",
        "one space forward (towards the centre), two on its first move; captures one space diagonally forward; promotes on rank 8",
    ),
];

/// The pieces of a game, in the rulebook's order.
pub fn pieces(kind: GameKind) -> &'static [PieceHelp] {
    match kind {
        GameKind::HexiMeros => &HEXIMEROS_PIECES,
        GameKind::HexDame => &HEXDAME_PIECES,
        GameKind::Hexmeister => &HEXMEISTER_PIECES,
        GameKind::HexaEquo => &HEXAEQUO_PIECES,
        GameKind::Harmegedo => &HARMEGEDO_PIECES,
    }
}

/// The piece of `kind` a player names (its name or JSON key, any case, `_` or `-` for a space):
/// `hatted militant`, `Hatted_Militant`, `regent`.
pub fn find_piece(kind: GameKind, name: &str) -> Option<&'static PieceHelp> {
    let wanted: String = name
        .trim()
        .chars()
        .map(|c| if c == '_' || c == '-' { ' ' } else { c })
        .collect::<String>()
        .to_ascii_lowercase();
    let wanted = wanted.split_whitespace().collect::<Vec<_>>().join(" ");
    let list = pieces(kind);
    list.iter()
        .find(|p| p.name.eq_ignore_ascii_case(&wanted))
        .or_else(|| list.iter().find(|p| !p.hatted && p.key == wanted))
}

/// The game's key rules, a line each: who plays, how to win, what is special.
pub fn key_rules(kind: GameKind) -> &'static [&'static str] {
    match kind {
        GameKind::HexiMeros => &[
            "Six players, Silver, Blue, Yellow, Orange, Green, Red, in that order.",
            "Win: be the last with a Sovereign. Sovereigns are captured, not mated; a player without one is out, their pieces frozen (grey).",
            "Token: stage moves and take them back freely; nothing counts until you pass the Token. One piece moves, at most one capture.",
            "Check: if your staged move attacks a Sovereign you may declare Check; its player must relieve it next turn. If your move leaves your Sovereign attacked, that attacker may declare Check upon you and you must change it.",
            "Flat directions: the 6 touching cells. Line directions: between two of them to the cell beyond (same shade).",
            "A Militant reaching its Center Line may become any piece but a Sovereign, else it gets the Hat. Ground Zero (Q26): a piece stopping there moves doubled next time (★; not a Regent, Prelate or Alcazar).",
        ],
        GameKind::HexDame => &[
            "Two players, White and Black; White starts. Draughts on 61 hexagonal cells.",
            "Win by leaving the opponent no legal move (all their pieces taken or blocked). A position seen three times is a draw.",
            "Capturing is compulsory, and you must take the most pieces possible; the pieces jumped leave the board after the move.",
            "A man that ends its move on the opponent's back rank (the two edges at their corner) becomes a king.",
        ],
        GameKind::Hexmeister => &[
            "Two players, South (light stones) and North (dark); South starts. Each has 18 stones off the board.",
            "A turn: drop a stone on an empty drop cell of your base (South g2 h3 i4 j5, North b7 c8 d9 e10), or move a stone.",
            "Win by holding 5 gates in a line through the centre, or all 6 gates of the middle ring, or all 6 of the outer ring.",
            "You secure a cell when 3 of its neighbours hold your stones, or (a gate) when you hold the other 4 gates of its triangle; enemy stones on cells you secure are removed.",
            "A capture, or a move onto a gate, earns a bonus action in the same turn.",
        ],
        GameKind::HexaEquo => &[
            "Two players, Black and White; Black starts. Each has 9 tiles, 6 discs and 3 rings; the board is built from the tiles as you play.",
            "A turn: lay a tile of yours next to at least 2 tiles; or put a disc on an empty tile of your colour (a ring needs a captured enemy disc, which goes back to its owner); or move a piece.",
            "Win by capturing all 6 enemy discs, or all 3 enemy rings, or leaving the opponent no piece on the board. No legal action, or a position seen three times, is a draw.",
        ],
        GameKind::Harmegedo => &[
            "Chess for 2 to 6 kingdoms around a ring-shaped board with a void centre; kingdom 0 starts, then in number order.",
            "Every kingdom's forward is towards the centre. Kings are captured, not mated: the last king standing wins, and a fallen kingdom's pieces stay as grey obstacles.",
            "Castling, and the Bishop's Knight Manoeuvre: swap an unmoved bishop with the unmoved knight beside it, once per side.",
        ],
    }
}

/// How a cell of the game is named, in a line or two.
pub fn cell_names(kind: GameKind) -> &'static str {
    match kind {
        GameKind::HexiMeros => {
            "Column letters + row number, like N27: columns A…Z, AA…AG west to east (Q in the middle), rows 1 (Silver's edge) to 51 (Orange's). A column holds every other row: north of Q26 is Q28, north-east R27, south-east R25."
        }
        GameKind::HexDame => {
            "Cells are a letter a–i and a number 1–9, like e4: a1 is White's corner at the bottom, i9 Black's at the top, e5 the centre. One step up-right adds a letter (e5 → f5), up-left adds a number (e5 → e6), straight up adds both (e5 → f6)."
        }
        GameKind::Hexmeister => {
            "Cells are a letter a–k and a number 1–11, like e4; f6 is the central gate. Along a row both grow by one to the right (f6 → g7); up-right adds a number (f6 → f7), up-left takes a letter away (f6 → e6). North's base row is a6…f11 on top, South's f1…k6 at the bottom."
        }
        GameKind::HexaEquo => {
            "Tiles lie on an open grid, so cells are named from where the first tiles went: a letter and a number, like I8 (the first black tile). The letter grows one step to the right (I8 → J8) and the number one step down-right (I8 → I9); down-left is H9."
        }
        GameKind::Harmegedo => {
            "Spaces are named kingdom.file+rank, like 0.e4: the kingdom number 0–5 whose side the space is on (drawn in the centre), a file letter a–i across that kingdom (j and k are the two corner files before the next kingdom; letters are on the rim), and the rank 1–8 counted from the rim inwards. 0.e1 is kingdom 0's king square, 0.e2 the space in front of it."
        }
    }
}

/// The cell a piece's moves are shown from when the player names none: central, with room to
/// move in every direction.
pub fn default_cell(kind: GameKind) -> &'static str {
    match kind {
        GameKind::HexiMeros => "Q20",
        GameKind::HexDame => "e5",
        GameKind::Hexmeister => "e4",
        GameKind::HexaEquo => "I8",
        GameKind::Harmegedo => "0.e4",
    }
}

/// The whole help text of a game: key rules, the pieces a line each, and the cell names.
pub fn summary(kind: GameKind) -> String {
    let mut text = format!("**{} — rules in brief**\n", kind.name());
    for line in key_rules(kind) {
        text.push_str("• ");
        text.push_str(line);
        text.push('\n');
    }
    text.push_str("**Pieces**\n");
    for p in pieces(kind) {
        text.push_str(&format!("• {}: {}\n", p.name, p.moves));
    }
    text.push_str("**Cell names**\n");
    text.push_str(cell_names(kind));
    text
}

/// The line that goes with a piece's moves picture.
pub fn moves_line(kind: GameKind, piece: &PieceHelp, cell: &str, targets: usize) -> String {
    let plural = if targets == 1 { "" } else { "s" };
    format!(
        "{} {} on {cell}: {} ({targets} target{plural} marked).",
        kind.name(),
        piece.name,
        piece.moves
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_pieces_rules_and_cell_names() {
        for kind in GameKind::ALL {
            assert!(!pieces(kind).is_empty(), "{kind}");
            assert!(key_rules(kind).len() >= 3, "{kind}");
            assert!(cell_names(kind).contains(default_cell(kind)) || kind == GameKind::HexiMeros);
            let text = summary(kind);
            for p in pieces(kind) {
                assert!(text.contains(p.name), "{kind}: {}", p.name);
            }
            // A Discord message holds 2000 characters; the summary must fit in one.
            assert!(text.chars().count() < 2000, "{kind}: {}", text.len());
        }
    }

    #[test]
    fn pieces_are_found_by_name_or_key_in_any_case() {
        let h = GameKind::HexiMeros;
        assert_eq!(find_piece(h, "REGENT").map(|p| p.name), Some("Regent"));
        assert_eq!(
            find_piece(h, "hatted_militant").map(|p| p.name),
            Some("Hatted Militant")
        );
        assert_eq!(
            find_piece(h, " Hatted  Militant ").map(|p| p.hatted),
            Some(true)
        );
        assert_eq!(find_piece(h, "militant").map(|p| p.hatted), Some(false));
        assert_eq!(find_piece(h, "queen"), None);
        assert_eq!(
            find_piece(GameKind::Harmegedo, "Queen").map(|p| p.key),
            Some("queen")
        );
        assert_eq!(find_piece(GameKind::HexDame, "stone"), None);
    }

    #[test]
    fn the_heximeros_cell_names_match_the_board() {
        let geo = &super::super::heximeros::BOARD.geometry;
        let text = cell_names(GameKind::HexiMeros);
        for name in ["N27", "Q26", "Q28", "R27", "R25"] {
            assert!(text.contains(name));
            assert!(geo.parse(name).is_some(), "{name}");
        }
        let step = |a: &str, b: &str| {
            let (a, b) = (geo.parse(a).unwrap(), geo.parse(b).unwrap());
            geo.hex(b) - geo.hex(a)
        };
        // North is the flat step (0, +1); NE (+1, 0); SE (+1, −1) (rules §2.4).
        assert_eq!(step("Q26", "Q28"), crate::hex::Hex::new(0, 1));
        assert_eq!(step("Q26", "R27"), crate::hex::Hex::new(1, 0));
        assert_eq!(step("Q26", "R25"), crate::hex::Hex::new(1, -1));
    }

    #[test]
    fn a_moves_line_names_the_piece_cell_and_count() {
        let p = find_piece(GameKind::HexDame, "king").unwrap();
        let line = moves_line(GameKind::HexDame, p, "e5", 24);
        assert!(line.starts_with("HexDame King on e5: a man"), "{line}");
        assert!(line.contains("24 targets"));
        assert!(moves_line(GameKind::HexDame, p, "a1", 1).contains("1 target "));
    }
}
