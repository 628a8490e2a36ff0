use super::*;

fn sample() -> Vec<Hex> {
    Hex::ORIGIN.range(4)
}

#[test]
fn neighbour_of_neighbour_returns() {
    for h in sample() {
        for d in Direction::ALL {
            assert_eq!(h.neighbor(d).neighbor(d.opposite()), h, "{h:?} {d:?}");
        }
    }
}

#[test]
fn ring_and_range_sizes() {
    assert_eq!(Hex::ORIGIN.ring(0), vec![Hex::ORIGIN]);
    for r in 1..6 {
        let ring = Hex::new(2, -1).ring(r);
        assert_eq!(ring.len(), 6 * r as usize);
        assert!(ring.iter().all(|h| h.distance(Hex::new(2, -1)) == r));
    }
    assert_eq!(Hex::ORIGIN.range(3).len(), 1 + 6 + 12 + 18);
}

#[test]
fn rotating_six_times_is_identity_and_preserves_length() {
    for h in sample() {
        assert_eq!(h.rotate_by(6), h);
        assert_eq!(h.rotate_by(-1).rotate(), h);
        assert_eq!(h.rotate().length(), h.length());
    }
}

#[test]
fn rotation_sends_flat_i_to_flat_i_plus_one() {
    for i in 0..6 {
        assert_eq!(
            Direction::flat(i).vector().rotate(),
            Direction::flat(i + 1).vector()
        );
        assert_eq!(
            Direction::line(i).vector().rotate(),
            Direction::line(i + 1).vector()
        );
        assert_eq!(Direction::flat(i).rotate(1), Direction::flat(i + 1));
    }
}

#[test]
fn directions_have_the_spec_vectors_and_distances() {
    // docs/rules/heximeros.md §2.4: N = (0,+1,−1), line NNE = (+1,+1,−2), E = (+2,−1,−1).
    assert_eq!(
        Direction::flat(0).vector(),
        Hex::from_cube(0, 1, -1).unwrap()
    );
    assert_eq!(
        Direction::line(0).vector(),
        Hex::from_cube(1, 1, -2).unwrap()
    );
    assert_eq!(
        Direction::line(1).vector(),
        Hex::from_cube(2, -1, -1).unwrap()
    );
    for d in Direction::FLATS {
        assert_eq!(d.vector().length(), 1);
    }
    for d in Direction::LINES {
        assert_eq!(d.vector().length(), 2);
        let (a, b) = d.flanks().unwrap();
        assert_eq!(a.vector() + b.vector(), d.vector());
    }
    assert_eq!(Direction::line(0).name(), "NNE");
}

#[test]
fn doubled_coordinates_round_trip() {
    for h in sample() {
        let (x, y) = h.to_doubled();
        assert_eq!((x + y).rem_euclid(2), 0);
        assert_eq!(Hex::from_doubled(x, y), Some(h));
    }
    assert_eq!(Hex::from_doubled(1, 0), None);
    // Flat N is display (0, +2), line E is (+2, 0).
    assert_eq!(Direction::flat(0).vector().to_doubled(), (0, 2));
    assert_eq!(Direction::line(1).vector().to_doubled(), (2, 0));
}

#[test]
fn distance_is_a_metric() {
    let s = sample();
    for &a in &s {
        for &b in &s {
            assert_eq!(a.distance(b), b.distance(a));
            assert_eq!(a.distance(b) == 0, a == b);
            for &c in s.iter().step_by(7) {
                assert!(a.distance(c) <= a.distance(b) + b.distance(c));
            }
        }
    }
}

#[test]
fn cellset_operations() {
    let mut a = CellSet::new();
    assert!(a.is_empty());
    for i in [0u16, 63, 64, 200, 648, 703] {
        a.insert(Cell(i));
    }
    assert_eq!(a.len(), 6);
    assert!(a.contains(Cell(648)) && !a.contains(Cell(647)));
    assert_eq!(
        a.iter().map(|c| c.0).collect::<Vec<_>>(),
        vec![0, 63, 64, 200, 648, 703]
    );
    let b: CellSet = [Cell(63), Cell(5)].into_iter().collect();
    assert_eq!(a.intersection(&b).len(), 1);
    assert_eq!(a.union(&b).len(), 7);
    assert_eq!(a.difference(&b).len(), 5);
    assert!(a.intersects(&b));
    a.remove(Cell(63));
    assert!(!a.intersects(&b));
}

#[test]
fn geometry_tables_match_coordinate_math() {
    let hexes = Hex::ORIGIN.range(3);
    let g = Geometry::new(hexes.clone(), |h| format!("c{}_{}", h.q, h.r));
    assert_eq!(g.len(), 37);
    for c in g.cells() {
        let h = g.hex(c);
        assert_eq!(g.parse(g.name(c)), Some(c));
        assert_eq!(g.parse(&g.name(c).to_ascii_uppercase()), Some(c));
        for d in Direction::ALL {
            assert_eq!(
                g.step(c, d).map(|n| g.hex(n)),
                g.cell(h.neighbor(d)).map(|_| h.neighbor(d))
            );
            let ray: Vec<Hex> = g.ray(c, d).iter().map(|&n| g.hex(n)).collect();
            let expect: Vec<Hex> = (1..)
                .map(|k| h + d.vector() * k)
                .take_while(|p| p.length() <= 3)
                .collect();
            assert_eq!(ray, expect);
        }
    }
    // From the centre a flat ray has 3 cells, a line ray 1 (distance 2, then 4 is off-board).
    let o = g.cell(Hex::ORIGIN).unwrap();
    assert_eq!(g.ray(o, Direction::flat(0)).len(), 3);
    assert_eq!(g.ray(o, Direction::line(0)).len(), 1);
    assert_eq!(g.parse("nowhere"), None);
}
