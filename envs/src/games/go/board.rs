//! The 9×9 board on bitboards: stones of each colour as bits of a `u128`
//! (point `row * 9 + col`, row 0 being row `1` at the bottom, as OpenSpiel
//! numbers its actions), placement with captures and the suicide rule, and
//! Tromp-Taylor area. Whole-board positions are plain values, so positional
//! superko compares boards exactly rather than by a hash.

/// Board side and points.
pub const SIZE: usize = 9;
pub const POINTS: usize = SIZE * SIZE;
/// Column letters: Go skips `I`.
pub const COLUMNS: &[u8; SIZE] = b"ABCDEFGHJ";

const ALL: u128 = (1u128 << POINTS) - 1;
/// Column A and column J: a shift across them would wrap to the next row.
const COL_A: u128 = column_mask(0);
const COL_J: u128 = column_mask(SIZE - 1);

const fn column_mask(col: usize) -> u128 {
    let mut mask = 0u128;
    let mut row = 0;
    while row < SIZE {
        mask |= 1u128 << (row * SIZE + col);
        row += 1;
    }
    mask
}

pub fn bit(point: usize) -> u128 {
    1u128 << point
}

/// `b` and every point next to a point of `b`.
pub fn dilate(b: u128) -> u128 {
    (b | (b << SIZE) | (b >> SIZE) | ((b << 1) & !COL_A) | ((b >> 1) & !COL_J)) & ALL
}

/// The points next to `point` (up to four).
pub fn neighbours(point: usize) -> u128 {
    dilate(bit(point)) & !bit(point)
}

/// The points diagonally next to `point` (up to four).
pub fn diagonals(point: usize) -> u128 {
    let (row, col) = ((point / SIZE) as i32, (point % SIZE) as i32);
    let mut mask = 0;
    for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
        let (r, c) = (row + dr, col + dc);
        if (0..SIZE as i32).contains(&r) && (0..SIZE as i32).contains(&c) {
            mask |= bit((r * SIZE as i32 + c) as usize);
        }
    }
    mask
}

/// Everything in `within` connected to `seed` (itself inside `within`).
pub fn flood(seed: u128, within: u128) -> u128 {
    let mut region = seed;
    loop {
        let grown = dilate(region) & within;
        if grown == region {
            return region;
        }
        region = grown;
    }
}

/// The points of `b`, lowest first.
pub fn points(mut b: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let p = b.trailing_zeros() as usize;
            b &= b - 1;
            p
        })
    })
}

/// The groups (connected stones) of `stones`, one mask each.
pub fn groups(mut stones: u128) -> impl Iterator<Item = u128> {
    std::iter::from_fn(move || {
        (stones != 0).then(|| {
            let group = flood(stones & stones.wrapping_neg(), stones);
            stones &= !group;
            group
        })
    })
}

/// A point's name like `D4`.
pub fn point_name(point: usize) -> String {
    format!("{}{}", COLUMNS[point % SIZE] as char, point / SIZE + 1)
}

/// The point a word like `D4` names (any case; no `I` column, no leading
/// zero).
pub fn parse_point(word: &str) -> Option<usize> {
    let (&col, row) = word.as_bytes().split_first()?;
    let col = COLUMNS
        .iter()
        .position(|&c| c == col.to_ascii_uppercase())?;
    if row.is_empty() || row.len() > 2 || row[0] == b'0' || !row.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let row: usize = std::str::from_utf8(row).ok()?.parse().ok()?;
    (1..=SIZE).contains(&row).then(|| (row - 1) * SIZE + col)
}

/// Stones of Black (index 0) and White (index 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    pub stones: [u128; 2],
}

impl Board {
    pub fn empty(&self) -> u128 {
        ALL & !(self.stones[0] | self.stones[1])
    }

    /// The stone on `point`: `Some(colour)` or `None` when empty.
    pub fn at(&self, point: usize) -> Option<usize> {
        (0..2).find(|&c| self.stones[c] & bit(point) != 0)
    }

    /// The board after `colour` plays on `point` and the stones it
    /// captured; `None` when the point is taken or the move is suicide (the
    /// new stone's group is left with no liberty and captures nothing).
    /// Superko is the game's business, not the board's.
    pub fn play(&self, point: usize, colour: usize) -> Option<(Board, u32)> {
        let b = bit(point);
        if (self.stones[0] | self.stones[1]) & b != 0 {
            return None;
        }
        let mut next = *self;
        next.stones[colour] |= b;
        let other = 1 - colour;
        let mut captured = 0;
        let mut touching = neighbours(point) & next.stones[other];
        while touching != 0 {
            let group = flood(touching & touching.wrapping_neg(), next.stones[other]);
            touching &= !group;
            if dilate(group) & next.empty() == 0 {
                next.stones[other] &= !group;
                captured += group.count_ones();
            }
        }
        let mine = flood(b, next.stones[colour]);
        (dilate(mine) & next.empty() != 0).then_some((next, captured))
    }

    /// Each colour's Tromp-Taylor area: its stones plus the empty points
    /// whose region (connected empty points) touches its stones and no
    /// stone of the other colour.
    pub fn area(&self) -> [u32; 2] {
        let empty = self.empty();
        let reach = |c: usize| flood(dilate(self.stones[c]) & empty, empty);
        let (black, white) = (reach(0), reach(1));
        [
            (self.stones[0] | (black & !white)).count_ones(),
            (self.stones[1] | (white & !black)).count_ones(),
        ]
    }

    /// Black's area minus White's, minus the komi, in half points (komi is
    /// a multiple of one half).
    pub fn score2(&self, komi2: i32) -> i32 {
        let [b, w] = self.area();
        2 * (b as i32 - w as i32) - komi2
    }

    /// The rows as text, row 9 first: `X` Black, `O` White, `.` empty.
    pub fn rows(&self) -> Vec<String> {
        (0..SIZE)
            .rev()
            .map(|row| {
                (0..SIZE)
                    .map(|col| match self.at(row * SIZE + col) {
                        Some(0) => 'X',
                        Some(_) => 'O',
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// A board from rows like [`Board::rows`] writes (row 9 first), for
    /// tests and hand-made positions.
    #[cfg(test)]
    pub fn from_rows(rows: &[&str]) -> Board {
        assert_eq!(rows.len(), SIZE);
        let mut board = Board::default();
        for (i, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(cells.len(), SIZE, "{row}");
            for (col, c) in cells.into_iter().enumerate() {
                let point = (SIZE - 1 - i) * SIZE + col;
                match c {
                    'X' => board.stones[0] |= bit(point),
                    'O' => board.stones[1] |= bit(point),
                    _ => {}
                }
            }
        }
        board
    }
}

/// Whether `point` is an eye of `colour`: empty, every neighbour its stone,
/// and at most one diagonal the other colour's (none on the edge), the
/// usual rule for a point that filling would only weaken.
pub fn is_eye(board: &Board, point: usize, colour: usize) -> bool {
    let around = neighbours(point);
    if board.empty() & bit(point) == 0 || around & !board.stones[colour] != 0 {
        return false;
    }
    let diagonal = diagonals(point);
    let enemies = (diagonal & board.stones[1 - colour]).count_ones();
    let on_edge = diagonal.count_ones() < 4;
    enemies == 0 || (!on_edge && enemies == 1)
}
