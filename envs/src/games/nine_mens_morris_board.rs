//! The nine men's morris board: point names, lines, neighbours, drawing.

use std::sync::OnceLock;

use super::POINTS;

/// Point names in OpenSpiel's order: row by row from the top, left to right.
pub const NAMES: [&str; POINTS] = [
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
    "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
];

/// The 16 lines of three points (rows, then columns), flat; neighbours on
/// a line are adjacent.
#[rustfmt::skip]
pub const LINES: [usize; 48] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
    0, 9, 21, 3, 10, 18, 6, 11, 15, 1, 4, 7, 16, 19, 22, 8, 12, 17, 5, 13, 20, 2, 14, 23,
];

pub fn mills() -> impl Iterator<Item = &'static [usize]> {
    LINES.chunks(3)
}

/// The board drawing; `*` marks the points in [`NAMES`] order.
pub const DRAWING: [&str; 13] = [
    "*-----------*-----------*",
    "|           |           |",
    "|   *-------*-------*   |",
    "|   |       |       |   |",
    "|   |   *---*---*   |   |",
    "|   |   |       |   |   |",
    "*---*---*       *---*---*",
    "|   |   |       |   |   |",
    "|   |   *---*---*   |   |",
    "|   |       |       |   |",
    "|   *-------*-------*   |",
    "|           |           |",
    "*-----------*-----------*",
];

/// Each point's neighbours along the lines: its next points in [`LINES`].
pub fn neighbours(p: usize) -> &'static [usize] {
    static ALL: OnceLock<Vec<Vec<usize>>> = OnceLock::new();
    &ALL.get_or_init(|| {
        let mut all = vec![Vec::new(); POINTS];
        for m in mills() {
            for w in m.windows(2) {
                all[w[0]].push(w[1]);
                all[w[1]].push(w[0]);
            }
        }
        all
    })[p]
}

#[cfg(test)]
pub fn adjacent(a: usize, b: usize) -> bool {
    neighbours(a).contains(&b)
}
