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

/// Each line as a bit mask of its points (bit `p` for point `p`).
pub const LINE_MASKS: [u32; 16] = {
    let mut masks = [0; 16];
    let mut i = 0;
    while i < 16 {
        masks[i] = 1 << LINES[3 * i] | 1 << LINES[3 * i + 1] | 1 << LINES[3 * i + 2];
        i += 1;
    }
    masks
};

/// Each point's neighbours along the lines as a bit mask.
pub const NEIGHBOUR_MASKS: [u32; POINTS] = {
    let mut masks = [0; POINTS];
    let mut i = 0;
    while i < 16 {
        let (a, b, c) = (LINES[3 * i], LINES[3 * i + 1], LINES[3 * i + 2]);
        masks[a] |= 1 << b;
        masks[b] |= 1 << a | 1 << c;
        masks[c] |= 1 << b;
        i += 1;
    }
    masks
};

/// For each point, the other two points of each of the two lines through it
/// (every point lies on exactly one row and one column).
pub fn partners(p: usize) -> &'static [[usize; 2]; 2] {
    static ALL: OnceLock<Vec<[[usize; 2]; 2]>> = OnceLock::new();
    &ALL.get_or_init(|| {
        (0..POINTS)
            .map(|p| {
                let mut lines = mills().filter(|m| m.contains(&p)).map(|m| {
                    let mut others = m.iter().copied().filter(|&q| q != p);
                    [others.next().unwrap(), others.next().unwrap()]
                });
                [lines.next().unwrap(), lines.next().unwrap()]
            })
            .collect()
    })[p]
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
