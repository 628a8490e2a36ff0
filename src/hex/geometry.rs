//! `Geometry`: one board's playing cells, their names, and neighbour and ray tables built once.
//!
//! Move generation on a fixed board never does coordinate arithmetic: it walks these tables. A line
//! step's table entry only asks whether the landing cell is on the board; the two flanking cells
//! never matter (`docs/rules/heximeros.md` §2.3, and the same in every game with line moves).

use std::collections::HashMap;

use super::{Cell, CellSet, Direction, Hex};

const NONE: u16 = u16::MAX;

/// The cells of one board. Build it once per game kind (e.g. in a `LazyLock`).
#[derive(Debug)]
pub struct Geometry {
    hexes: Vec<Hex>,
    index: HashMap<Hex, Cell>,
    names: Vec<String>,
    by_name: HashMap<String, Cell>,
    /// `neighbors[cell * 12 + dir]`, `NONE` when the step leaves the board.
    neighbors: Vec<u16>,
    /// `rays[ray_start[cell * 12 + dir] .. ray_start[cell * 12 + dir + 1]]`: the on-board cells
    /// `cell + k·dir` for k = 1, 2, … until the first step off the board.
    rays: Vec<Cell>,
    ray_start: Vec<u32>,
    all: CellSet,
}

impl Geometry {
    /// Build from the playing cells (in the order cells are to be numbered) and a naming function.
    /// Panics only on a programming error in a board definition: duplicate cells or names, or more
    /// cells than a `CellSet` holds.
    pub fn new(hexes: Vec<Hex>, name: impl Fn(Hex) -> String) -> Geometry {
        assert!(
            hexes.len() <= CellSet::CAPACITY,
            "board larger than CellSet"
        );
        let mut index = HashMap::with_capacity(hexes.len());
        let mut names = Vec::with_capacity(hexes.len());
        let mut by_name = HashMap::with_capacity(hexes.len());
        for (i, &h) in hexes.iter().enumerate() {
            let c = Cell(i as u16);
            assert!(index.insert(h, c).is_none(), "duplicate cell {h:?}");
            let n = name(h);
            assert!(
                by_name.insert(n.to_ascii_lowercase(), c).is_none(),
                "duplicate name {n}"
            );
            names.push(n);
        }
        let mut neighbors = vec![NONE; hexes.len() * 12];
        for (i, &h) in hexes.iter().enumerate() {
            for d in Direction::ALL {
                if let Some(c) = index.get(&h.neighbor(d)) {
                    neighbors[i * 12 + d.index()] = c.0;
                }
            }
        }
        let mut rays = Vec::new();
        let mut ray_start = Vec::with_capacity(hexes.len() * 12 + 1);
        for i in 0..hexes.len() {
            for d in Direction::ALL {
                ray_start.push(rays.len() as u32);
                let mut cur = i;
                loop {
                    let n = neighbors[cur * 12 + d.index()];
                    if n == NONE {
                        break;
                    }
                    rays.push(Cell(n));
                    cur = n as usize;
                }
            }
        }
        ray_start.push(rays.len() as u32);
        let all = (0..hexes.len()).map(|i| Cell(i as u16)).collect();
        Geometry {
            hexes,
            index,
            names,
            by_name,
            neighbors,
            rays,
            ray_start,
            all,
        }
    }

    pub fn len(&self) -> usize {
        self.hexes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.hexes.is_empty()
    }

    /// Every playing cell, in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.hexes.len()).map(|i| Cell(i as u16))
    }

    pub fn all(&self) -> &CellSet {
        &self.all
    }

    pub fn hex(&self, c: Cell) -> Hex {
        self.hexes[c.index()]
    }

    pub fn cell(&self, h: Hex) -> Option<Cell> {
        self.index.get(&h).copied()
    }

    pub fn name(&self, c: Cell) -> &str {
        &self.names[c.index()]
    }

    /// Look a cell up by name, ignoring ASCII case.
    pub fn parse(&self, name: &str) -> Option<Cell> {
        self.by_name.get(&name.trim().to_ascii_lowercase()).copied()
    }

    /// Why `name` names no cell, for a board whose cells are named by a column's letters and a
    /// row's number (`Q2`, `e5`): no such column, or the rows that column has (a HexiMeros
    /// column holds only even or only odd rows, so `Q9` is refused for that, not for its size).
    /// `None` when `name` is a cell.
    pub fn why_not_a_cell(&self, name: &str) -> Option<String> {
        let name = name.trim();
        if self.parse(name).is_some() {
            return None;
        }
        let split = |n: &str| -> Option<(String, u32)> {
            let (col, row) = n.split_at(n.find(|ch: char| ch.is_ascii_digit())?);
            if col.is_empty() || !col.chars().all(|ch| ch.is_ascii_alphabetic()) {
                return None;
            }
            Some((col.to_ascii_uppercase(), row.parse().ok()?))
        };
        let shown = if name.is_empty() {
            "an empty name"
        } else {
            name
        };
        let Some((col, _)) = split(name) else {
            return Some(format!(
                "{shown} is not a cell name: a column's letters, then a row's number"
            ));
        };
        let mut rows: Vec<u32> = self
            .names
            .iter()
            .filter_map(|n| split(n))
            .filter(|(c, _)| *c == col)
            .map(|(_, r)| r)
            .collect();
        rows.sort_unstable();
        let (Some(&first), Some(&last)) = (rows.first(), rows.last()) else {
            return Some(format!("{shown} is not a cell: there is no column {col}"));
        };
        let every_other = rows.windows(2).all(|w| w[1] - w[0] == 2);
        Some(if every_other && rows.len() > 1 {
            let parity = if first % 2 == 0 { "even" } else { "odd" };
            format!("{shown} is not a cell: column {col} has only {parity} rows, {first} to {last}")
        } else {
            format!("{shown} is not a cell: column {col} runs from row {first} to row {last}")
        })
    }

    /// One step in `d`, if it lands on a playing cell.
    pub fn step(&self, c: Cell, d: Direction) -> Option<Cell> {
        let n = self.neighbors[c.index() * 12 + d.index()];
        (n != NONE).then_some(Cell(n))
    }

    /// The cells reached by 1, 2, … steps in `d` until the board ends (pieces not considered).
    pub fn ray(&self, c: Cell, d: Direction) -> &[Cell] {
        let k = c.index() * 12 + d.index();
        &self.rays[self.ray_start[k] as usize..self.ray_start[k + 1] as usize]
    }

    pub fn distance(&self, a: Cell, b: Cell) -> i32 {
        self.hex(a).distance(self.hex(b))
    }
}
