//! The Harmegedo board of `docs/rules/harmegedo.md` §2: a **reconstruction**, kept as data.
//!
//! The source fixes only that the board is locally a chequered square grid (forward, back, left,
//! right, and an X of diagonals) with six kingdoms round a hexagon. §2.2 models it as a ring of
//! `F = 6·(W + C)` files and `R` ranks: rank 1 is the outer rim, rank `R` the inner rim next to the
//! void centre, and the `C` corner files between two kingdoms are void on their outer `V` ranks.
//! [`BoardShape`] holds `W`, `C`, `R` and `V`; [`Board::new`] builds every table the move generator
//! walks (steps in the 8 directions, slides, knight leaps), so the real board, once known, only
//! replaces this file's shape (or, if it is no ring at all, this file).
//!
//! Every kingdom's forward is towards the centre (`r + 1`) and its right is increasing file, so the
//! directions here are the same for all kingdoms.
//!
//! Cells also get a [`Hex`] for drawing: rank `r` lies on the hexagonal ring of radius
//! `W + C + (R − r)` round the void centre, each sector on one side of it (see [`Board::hex`]).

use std::collections::HashMap;

use crate::hex::{Cell, CellSet, Direction, Hex};

/// The kingdoms (sectors) round the board: "up to 6 players".
pub const SECTORS: usize = 6;

/// The ranks and files of the reconstructed board (`docs/rules/harmegedo.md` §2.2). Only these numbers
/// change if the real board turns out to be a ring of other dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardShape {
    /// `W`: files of one kingdom (the home row of 9: R N B Q K Q B N R).
    pub kingdom_files: u8,
    /// `C`: files between two neighbouring kingdoms.
    pub corner_files: u8,
    /// `R`: ranks from the outer rim (1) to the inner rim.
    pub ranks: u8,
    /// `V`: outer ranks that do not exist in the corner files.
    pub void_corner_ranks: u8,
}

impl BoardShape {
    /// §2.2's defaults: W = 9, C = 2, R = 8, V = 2 (504 spaces).
    pub const RECONSTRUCTION: BoardShape = BoardShape {
        kingdom_files: 9,
        corner_files: 2,
        ranks: 8,
        void_corner_ranks: 2,
    };

    /// `W + C`: files per sector.
    pub const fn sector_width(self) -> usize {
        self.kingdom_files as usize + self.corner_files as usize
    }

    /// `F = 6·(W + C)`: files round the ring.
    pub const fn files(self) -> usize {
        SECTORS * self.sector_width()
    }

    /// Whether `(sector-local file x, rank r)` is a space (corner files are void near the rim).
    pub const fn exists(self, x: usize, rank: usize) -> bool {
        rank >= 1
            && rank <= self.ranks as usize
            && (x < self.kingdom_files as usize || rank > self.void_corner_ranks as usize)
    }
}

/// The 8 directions of the local square grid, named from any kingdom's seat (all share them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    Forward,
    ForwardRight,
    Right,
    BackRight,
    Back,
    BackLeft,
    Left,
    ForwardLeft,
}

impl Dir {
    pub const ALL: [Dir; 8] = [
        Dir::Forward,
        Dir::ForwardRight,
        Dir::Right,
        Dir::BackRight,
        Dir::Back,
        Dir::BackLeft,
        Dir::Left,
        Dir::ForwardLeft,
    ];
    pub const ORTHOGONAL: [Dir; 4] = [Dir::Forward, Dir::Right, Dir::Back, Dir::Left];
    pub const DIAGONAL: [Dir; 4] = [
        Dir::ForwardRight,
        Dir::BackRight,
        Dir::BackLeft,
        Dir::ForwardLeft,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// `(Δfile, Δrank)`.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::Forward => (0, 1),
            Dir::ForwardRight => (1, 1),
            Dir::Right => (1, 0),
            Dir::BackRight => (1, -1),
            Dir::Back => (0, -1),
            Dir::BackLeft => (-1, -1),
            Dir::Left => (-1, 0),
            Dir::ForwardLeft => (-1, 1),
        }
    }

    pub const fn is_diagonal(self) -> bool {
        (self as usize) % 2 == 1
    }
}

/// The knight's 8 offsets `(Δfile, Δrank)`: 2 orthogonal + 1 perpendicular.
pub const KNIGHT_OFFSETS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

const NONE: u16 = u16::MAX;

/// One board's spaces, names and move tables, built once from a [`BoardShape`].
#[derive(Debug)]
pub struct Board {
    shape: BoardShape,
    /// `(global file, rank)` of each cell.
    coords: Vec<(u16, u8)>,
    /// `grid[file * R + rank - 1]`: the cell there, or `NONE` for a void space.
    grid: Vec<u16>,
    names: Vec<String>,
    by_name: HashMap<String, Cell>,
    hexes: Vec<Hex>,
    by_hex: HashMap<Hex, Cell>,
    /// `steps[cell * 8 + dir]`.
    steps: Vec<u16>,
    /// `rays[ray_start[cell * 8 + dir] .. ray_start[cell * 8 + dir + 1]]`: a slide's spaces in order,
    /// ending before a missing space or before coming back round to the start.
    rays: Vec<Cell>,
    ray_start: Vec<u32>,
    knights: Vec<Cell>,
    knight_start: Vec<u32>,
    /// `rank_is_ring[rank - 1]`: the rank runs all the way round (no void corner cells on it).
    rank_is_ring: Vec<bool>,
    all: CellSet,
}

impl Board {
    /// Build the tables for `shape`. Panics only on a programming error in a shape: fewer than 9
    /// kingdom files or 3 ranks, more than 26 files per sector (names use one letter), or more
    /// spaces than a `CellSet` holds.
    pub fn new(shape: BoardShape) -> Board {
        let sw = shape.sector_width();
        let ranks = shape.ranks as usize;
        assert!(shape.kingdom_files >= 9, "a home row needs 9 files");
        assert!(ranks >= 3, "a board needs 3 ranks");
        assert!(sw <= 26, "file letters run a to z");
        let files = shape.files();
        let mut coords = Vec::new();
        let mut grid = vec![NONE; files * ranks];
        for f in 0..files {
            for r in 1..=ranks {
                if shape.exists(f % sw, r) {
                    grid[f * ranks + r - 1] = coords.len() as u16;
                    coords.push((f as u16, r as u8));
                }
            }
        }
        assert!(
            coords.len() <= CellSet::CAPACITY,
            "board larger than CellSet"
        );
        let at = |f: i32, r: i32| -> Option<u16> {
            if r < 1 || r > ranks as i32 {
                return None;
            }
            let f = f.rem_euclid(files as i32) as usize;
            let c = grid[f * ranks + r as usize - 1];
            (c != NONE).then_some(c)
        };
        let mut names = Vec::with_capacity(coords.len());
        let mut by_name = HashMap::new();
        let mut hexes = Vec::with_capacity(coords.len());
        let mut by_hex = HashMap::new();
        for (i, &(f, r)) in coords.iter().enumerate() {
            let (f, r) = (f as usize, r as usize);
            let name = format!("{}.{}{}", f / sw, (b'a' + (f % sw) as u8) as char, r);
            by_name.insert(name.clone(), Cell(i as u16));
            names.push(name);
            let h = display_hex(shape, f, r);
            assert!(
                by_hex.insert(h, Cell(i as u16)).is_none(),
                "two cells on one hex"
            );
            hexes.push(h);
        }
        let mut steps = vec![NONE; coords.len() * 8];
        let mut rays = Vec::new();
        let mut ray_start = Vec::with_capacity(coords.len() * 8 + 1);
        let mut knights = Vec::new();
        let mut knight_start = Vec::with_capacity(coords.len() + 1);
        for (i, &(f, r)) in coords.iter().enumerate() {
            let (f, r) = (f as i32, r as i32);
            for d in Dir::ALL {
                let (df, dr) = d.delta();
                if let Some(n) = at(f + df, r + dr) {
                    steps[i * 8 + d.index()] = n;
                }
                ray_start.push(rays.len() as u32);
                let (mut cf, mut cr) = (f + df, r + dr);
                // A slide along a ring rank stops before it would come back to its start (§2.2).
                while let Some(n) = at(cf, cr) {
                    if n as usize == i {
                        break;
                    }
                    rays.push(Cell(n));
                    cf += df;
                    cr += dr;
                }
            }
            knight_start.push(knights.len() as u32);
            for (df, dr) in KNIGHT_OFFSETS {
                if let Some(n) = at(f + df, r + dr) {
                    // Only on a ring of fewer than 5 files could two offsets land alike.
                    if !knights[knight_start[i] as usize..].contains(&Cell(n)) {
                        knights.push(Cell(n));
                    }
                }
            }
        }
        ray_start.push(rays.len() as u32);
        knight_start.push(knights.len() as u32);
        let rank_is_ring = (1..=ranks)
            .map(|r| (0..files).all(|f| grid[f * ranks + r - 1] != NONE))
            .collect();
        let all = (0..coords.len()).map(|i| Cell(i as u16)).collect();
        Board {
            shape,
            coords,
            grid,
            names,
            by_name: by_name
                .into_iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), v))
                .collect(),
            hexes,
            by_hex,
            steps,
            rays,
            ray_start,
            knights,
            knight_start,
            rank_is_ring,
            all,
        }
    }

    pub fn shape(&self) -> BoardShape {
        self.shape
    }

    /// The number of spaces (504 on the reconstruction).
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// Every space, in index order (by global file, then rank).
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.coords.len()).map(|i| Cell(i as u16))
    }

    pub fn all(&self) -> &CellSet {
        &self.all
    }

    /// The spec's name, `s.<letter><rank>` (e.g. `0.e1`).
    pub fn name(&self, c: Cell) -> &str {
        &self.names[c.index()]
    }

    /// Look a space up by name, ignoring ASCII case.
    pub fn parse(&self, name: &str) -> Option<Cell> {
        self.by_name.get(&name.trim().to_ascii_lowercase()).copied()
    }

    /// Global file `f = (W + C)·sector + x`, `0..F`.
    pub fn file(&self, c: Cell) -> usize {
        self.coords[c.index()].0 as usize
    }

    /// Rank, 1 (outer rim) ..= R (inner rim).
    pub fn rank(&self, c: Cell) -> usize {
        self.coords[c.index()].1 as usize
    }

    /// The sector (kingdom number) whose block holds the space.
    pub fn sector(&self, c: Cell) -> usize {
        self.file(c) / self.shape.sector_width()
    }

    /// The file within its sector: `0..W` the kingdom's files a…, then the corner files.
    pub fn local_file(&self, c: Cell) -> usize {
        self.file(c) % self.shape.sector_width()
    }

    /// The space at `(sector, local file, rank)`, if it exists.
    pub fn cell_at(&self, sector: usize, x: usize, rank: usize) -> Option<Cell> {
        let sw = self.shape.sector_width();
        let ranks = self.shape.ranks as usize;
        if sector >= SECTORS || x >= sw || rank < 1 || rank > ranks {
            return None;
        }
        let c = self.grid[(sector * sw + x) * ranks + rank - 1];
        (c != NONE).then_some(Cell(c))
    }

    /// Light or dark: dark iff `file + rank` is even (§2.2). Orthogonal steps change colour,
    /// diagonal steps keep it.
    pub fn is_light(&self, c: Cell) -> bool {
        (self.file(c) + self.rank(c)) % 2 == 1
    }

    /// The hex a renderer draws the space on. Rank `r` lies on the hexagonal ring of radius
    /// `W + C + (R − r)` about the origin (so the void centre is the hexagon inside the inner rim).
    /// Sector 0 lies on the ring's side from corner `ρ·SW` to corner `ρ·S` (flat directions 4
    /// and 3), files increasing towards `S`; sector `s` is sector 0 turned by `−60°·s`
    /// (`Hex::rotate_by(-s)`), so turning the picture by `60°·s` puts kingdom `s` where kingdom 0
    /// was. Each side holds its kingdom's files centred, with the corner files split across the
    /// hexagon's corner; outer ranks, being on longer rings, leave gaps at the corners.
    pub fn hex(&self, c: Cell) -> Hex {
        self.hexes[c.index()]
    }

    /// The space drawn on `h`, if any.
    pub fn cell_at_hex(&self, h: Hex) -> Option<Cell> {
        self.by_hex.get(&h).copied()
    }

    /// One step in `d`, if that space exists.
    pub fn step(&self, c: Cell, d: Dir) -> Option<Cell> {
        let n = self.steps[c.index() * 8 + d.index()];
        (n != NONE).then_some(Cell(n))
    }

    /// The spaces a slide in `d` passes, nearest first (pieces not considered).
    pub fn ray(&self, c: Cell, d: Dir) -> &[Cell] {
        let k = c.index() * 8 + d.index();
        &self.rays[self.ray_start[k] as usize..self.ray_start[k + 1] as usize]
    }

    /// The spaces a knight on `c` may land on (it leaps; only the landing space must exist).
    pub fn knight_targets(&self, c: Cell) -> &[Cell] {
        &self.knights
            [self.knight_start[c.index()] as usize..self.knight_start[c.index() + 1] as usize]
    }

    /// Whether the rank runs all the way round, so that a slide along it can reach a space from
    /// either side.
    pub fn rank_is_ring(&self, rank: usize) -> bool {
        self.rank_is_ring
            .get(rank.wrapping_sub(1))
            .copied()
            .unwrap_or(false)
    }
}

/// See [`Board::hex`].
fn display_hex(shape: BoardShape, f: usize, r: usize) -> Hex {
    let sw = shape.sector_width();
    let w = shape.kingdom_files as usize;
    let c = shape.corner_files as usize;
    let (sector, x) = (f / sw, f % sw);
    // The first ⌈C/2⌉ corner files stay on their sector's side; the rest start the next side.
    let stay = c - c / 2;
    let (side, k) = if x < w + stay {
        (sector, x + c / 2)
    } else {
        ((sector + 1) % SECTORS, x - w - stay)
    };
    let rho = (sw + shape.ranks as usize - r) as i32;
    let t = (k + (rho as usize - sw) / 2) as i32;
    let h = Direction::flat(4).vector() * rho + Direction::flat(2).vector() * t;
    h.rotate_by(-(side as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board {
        Board::new(BoardShape::RECONSTRUCTION)
    }

    #[test]
    fn reconstruction_has_504_spaces_named_as_the_spec() {
        let b = board();
        assert_eq!(b.len(), 504);
        assert_eq!(b.shape().files(), 66);
        for (name, (f, r)) in [("0.e1", (4, 1)), ("3.c2", (35, 2)), ("1.j5", (20, 5))] {
            let c = b.parse(name).unwrap();
            assert_eq!((b.file(c), b.rank(c)), (f, r), "{name}");
            assert_eq!(b.name(c), name);
        }
        assert_eq!(b.parse("0.E1"), b.parse("0.e1"));
        // Corner files are void on ranks 1 and 2.
        for name in ["0.j1", "0.k2", "5.j2", "0.l3", "6.a1", "0.a9", "0.a0"] {
            assert_eq!(b.parse(name), None, "{name}");
        }
        assert!(b.parse("0.j3").is_some());
    }

    #[test]
    fn colours_alternate_orthogonally_and_hold_diagonally() {
        let b = board();
        for c in b.cells() {
            for d in Dir::ALL {
                if let Some(n) = b.step(c, d) {
                    assert_eq!(b.is_light(n) == b.is_light(c), d.is_diagonal());
                }
            }
        }
        // Kingdoms 0, 2, 4 start with both bishops on light; 1, 3, 5 on dark.
        for s in 0..SECTORS {
            for x in [2, 6] {
                let c = b.cell_at(s, x, 1).unwrap();
                assert_eq!(b.is_light(c), s % 2 == 0, "{}", b.name(c));
            }
        }
    }

    #[test]
    fn steps_are_reversible_and_wrap_round_the_ring() {
        let b = board();
        let opposite = |d: Dir| Dir::ALL[(d.index() + 4) % 8];
        for c in b.cells() {
            for d in Dir::ALL {
                if let Some(n) = b.step(c, d) {
                    assert_eq!(b.step(n, opposite(d)), Some(c));
                }
            }
        }
        let a3 = b.parse("0.a3").unwrap();
        assert_eq!(b.name(b.step(a3, Dir::Left).unwrap()), "5.k3");
        let a1 = b.parse("0.a1").unwrap();
        assert_eq!(b.step(a1, Dir::Left), None);
        assert_eq!(b.step(a1, Dir::ForwardLeft), None);
        assert_eq!(b.step(b.parse("0.e8").unwrap(), Dir::Forward), None);
    }

    #[test]
    fn slides_along_a_ring_rank_stop_before_their_start() {
        let b = board();
        assert!(!b.rank_is_ring(1) && !b.rank_is_ring(2) && b.rank_is_ring(3));
        let e3 = b.parse("0.e3").unwrap();
        assert_eq!(b.ray(e3, Dir::Right).len(), 65);
        assert_eq!(b.ray(e3, Dir::Left).len(), 65);
        assert_eq!(b.name(b.ray(e3, Dir::Right)[0]), "0.f3");
        assert_eq!(b.name(b.ray(e3, Dir::Left)[0]), "0.d3");
        let a1 = b.parse("0.a1").unwrap();
        let names: Vec<&str> = b.ray(a1, Dir::Right).iter().map(|&c| b.name(c)).collect();
        assert_eq!(
            names,
            [
                "0.b1", "0.c1", "0.d1", "0.e1", "0.f1", "0.g1", "0.h1", "0.i1"
            ]
        );
        assert_eq!(b.ray(b.parse("0.e4").unwrap(), Dir::ForwardRight).len(), 4);
    }

    #[test]
    fn knights_leap_to_existing_spaces_only() {
        let b = board();
        let names = |c: &str| {
            let mut v: Vec<&str> = b
                .knight_targets(b.parse(c).unwrap())
                .iter()
                .map(|&n| b.name(n))
                .collect();
            v.sort();
            v
        };
        assert_eq!(names("0.b1"), ["0.a3", "0.c3", "0.d2"]);
        assert_eq!(names("0.a1"), ["0.b3", "0.c2", "5.k3"]);
        assert_eq!(names("0.e4").len(), 8);
    }

    #[test]
    fn display_hexes_are_distinct_and_forward_steps_are_hex_neighbours() {
        let b = board();
        for c in b.cells() {
            assert_eq!(b.cell_at_hex(b.hex(c)), Some(c));
            if let Some(n) = b.step(c, Dir::Forward) {
                assert_eq!(b.hex(c).distance(b.hex(n)), 1, "{}", b.name(c));
            }
            if let Some(n) = b.step(c, Dir::Right)
                && b.sector(n) == b.sector(c)
                && b.local_file(c) < 9
            {
                assert_eq!(b.hex(c).distance(b.hex(n)), 1, "{}", b.name(c));
            }
        }
        // The inner rim fills the ring of radius W + C = 11 exactly.
        let inner: Vec<Hex> = b
            .cells()
            .filter(|&c| b.rank(c) == 8)
            .map(|c| b.hex(c))
            .collect();
        assert_eq!(inner.len(), 66);
        assert!(inner.iter().all(|h| h.length() == 11));
        // Sector s is sector 0 turned by -60°·s.
        let e1 = b.parse("0.e1").unwrap();
        for s in 0..SECTORS {
            let c = b.cell_at(s, 4, 1).unwrap();
            assert_eq!(b.hex(c), b.hex(e1).rotate_by(-(s as i32)));
        }
    }

    #[test]
    fn other_shapes_build_too() {
        for shape in [
            BoardShape {
                kingdom_files: 9,
                corner_files: 0,
                ranks: 10,
                void_corner_ranks: 0,
            },
            BoardShape {
                kingdom_files: 11,
                corner_files: 3,
                ranks: 6,
                void_corner_ranks: 1,
            },
        ] {
            let b = Board::new(shape);
            let expected = shape.files() * shape.ranks as usize
                - SECTORS * shape.corner_files as usize * shape.void_corner_ranks as usize;
            assert_eq!(b.len(), expected);
            for c in b.cells() {
                assert_eq!(b.parse(b.name(c)), Some(c));
            }
        }
    }
}
