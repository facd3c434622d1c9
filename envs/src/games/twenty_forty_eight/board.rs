//! The 2048 board as 16 four-bit cells in a `u64`, slides by row tables,
//! new tiles, and the built-in players' move choices.

use std::sync::OnceLock;

use crate::rng::Rng;

/// Probability that a new tile is a 2 (else a 4).
pub const TWO: f64 = 0.9;
/// Moves in OpenSpiel's order: up, right, down, left.
pub const DIRECTIONS: [&str; 4] = ["up", "right", "down", "left"];

/// A board: 16 four-bit cells, row `r` column `c` at bits `16r + 4c`,
/// each holding a tile's exponent (0 empty, 1 for a 2, 2 for a 4, ...).
pub type Board = u64;

/// Per-row tables over all 65536 rows: the row slid left and right, the
/// points either slide scores, and the oracle's row evaluation.
struct Tables {
    left: Vec<u16>,
    right: Vec<u16>,
    left_points: Vec<u32>,
    right_points: Vec<u32>,
    value: Vec<f32>,
}

fn cells(row: u16) -> [u8; 4] {
    [0, 1, 2, 3].map(|c| ((row >> (4 * c)) & 0xF) as u8)
}

fn row_of(cells: [u8; 4]) -> u16 {
    cells
        .iter()
        .enumerate()
        .map(|(c, &v)| u16::from(v) << (4 * c))
        .sum()
}

fn reverse(row: u16) -> u16 {
    let [a, b, c, d] = cells(row);
    row_of([d, c, b, a])
}

/// Slides one row toward column 0: tiles close up, then equal neighbours
/// merge pairwise from the wall outwards, each tile once.
fn slide_row(row: u16) -> (u16, u32) {
    let tiles: Vec<u8> = cells(row).into_iter().filter(|&v| v > 0).collect();
    let (mut out, mut points) = ([0u8; 4], 0u32);
    let (mut i, mut k) = (0, 0);
    while i < tiles.len() {
        if i + 1 < tiles.len() && tiles[i] == tiles[i + 1] && tiles[i] < 15 {
            out[k] = tiles[i] + 1;
            points += 1 << out[k];
            i += 2;
        } else {
            out[k] = tiles[i];
            i += 1;
        }
        k += 1;
    }
    (row_of(out), points)
}

/// The oracle's view of one row (a well-known 2048 evaluation): empty
/// squares and mergeable neighbours are good, large tiles out of order
/// (not monotone along the row) and large tile mass are bad.
fn row_value(row: u16) -> f32 {
    let ranks = cells(row);
    let (mut empty, mut merges, mut counter, mut previous) = (0.0, 0.0, 0.0, 0u8);
    let mut mass = 0.0f32;
    for &rank in &ranks {
        mass += f32::from(rank).powf(3.5);
        if rank == 0 {
            empty += 1.0;
        } else {
            if previous == rank {
                counter += 1.0;
            } else if counter > 0.0 {
                merges += 1.0 + counter;
                counter = 0.0;
            }
            previous = rank;
        }
    }
    if counter > 0.0 {
        merges += 1.0 + counter;
    }
    let (mut falling, mut rising) = (0.0f32, 0.0f32);
    for pair in ranks.windows(2) {
        let (a, b) = (f32::from(pair[0]).powi(4), f32::from(pair[1]).powi(4));
        if a > b {
            falling += a - b;
        } else {
            rising += b - a;
        }
    }
    200_000.0 + 270.0 * empty + 700.0 * merges - 47.0 * falling.min(rising) - 11.0 * mass
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let rows = 0..=u16::MAX;
        let slid: Vec<(u16, u32)> = rows.clone().map(slide_row).collect();
        let reversed: Vec<(u16, u32)> = rows.clone().map(|r| slid[reverse(r) as usize]).collect();
        Tables {
            left: slid.iter().map(|s| s.0).collect(),
            left_points: slid.iter().map(|s| s.1).collect(),
            right: reversed.iter().map(|s| reverse(s.0)).collect(),
            right_points: reversed.iter().map(|s| s.1).collect(),
            value: rows.map(row_value).collect(),
        }
    })
}

/// Rows become columns: cell (r, c) moves to (c, r).
pub fn transpose(b: Board) -> Board {
    let a1 = b & 0xF0F0_0F0F_F0F0_0F0F;
    let a2 = b & 0x0000_F0F0_0000_F0F0;
    let a3 = b & 0x0F0F_0000_0F0F_0000;
    let a = a1 | (a2 << 12) | (a3 >> 12);
    let b1 = a & 0xFF00_FF00_00FF_00FF;
    let b2 = a & 0x00FF_00FF_0000_0000;
    let b3 = a & 0x0000_0000_FF00_FF00;
    b1 | (b2 >> 24) | (b3 << 24)
}

fn slide_rows(b: Board, table: &[u16], points: &[u32]) -> (Board, u32) {
    (0..4).fold((0, 0), |(out, sum), r| {
        let row = ((b >> (16 * r)) & 0xFFFF) as usize;
        (out | (u64::from(table[row]) << (16 * r)), sum + points[row])
    })
}

/// The board after sliding in direction `d` (an index into
/// [`DIRECTIONS`]) and the points its merges score.
pub fn slide(b: Board, d: usize) -> (Board, u32) {
    let t = tables();
    match d {
        0 | 2 => {
            let (table, points) = if d == 0 {
                (&t.left, &t.left_points)
            } else {
                (&t.right, &t.right_points)
            };
            let (moved, p) = slide_rows(transpose(b), table, points);
            (transpose(moved), p)
        }
        1 => slide_rows(b, &t.right, &t.right_points),
        _ => slide_rows(b, &t.left, &t.left_points),
    }
}

/// The directions (indices into [`DIRECTIONS`]) that change the board.
pub fn legal_moves(b: Board) -> Vec<usize> {
    (0..4).filter(|&d| slide(b, d).0 != b).collect()
}

pub fn can_move(b: Board) -> bool {
    (0..4).any(|d| slide(b, d).0 != b)
}

/// The exponent in cell `i` (row-major, 0–15).
pub fn exponent(b: Board, i: usize) -> u8 {
    ((b >> (4 * i)) & 0xF) as u8
}

pub fn largest_exponent(b: Board) -> u8 {
    (0..16).map(|i| exponent(b, i)).max().unwrap_or(0)
}

pub fn empty_cells(b: Board) -> Vec<usize> {
    (0..16).filter(|&i| exponent(b, i) == 0).collect()
}

/// Puts a new tile on a uniformly random empty square: a 2 with probability
/// [`TWO`], else a 4 (OpenSpiel's chance node). Returns the square and value.
pub fn spawn(b: &mut Board, rng: &mut Rng) -> Option<(usize, u32)> {
    let empty = (0..16).filter(|&i| exponent(*b, i) == 0);
    let count = empty.clone().count();
    if count == 0 {
        return None;
    }
    let i = empty.clone().nth(rng.below(count as u64) as usize)?;
    let e = if rng.chance(TWO) { 1 } else { 2 };
    *b |= e << (4 * i);
    Some((i, 1 << e))
}

fn board_value(b: Board) -> f32 {
    let t = tables();
    let rows = |x: Board| -> f32 {
        (0..4)
            .map(|r| t.value[((x >> (16 * r)) & 0xFFFF) as usize])
            .sum()
    };
    rows(b) + rows(transpose(b))
}

/// Expected value of the board after the chance tile, looking `depth` more
/// moves ahead (0: the evaluation itself, updated for the new tile's row
/// and column alone; a board the new tile leaves without a move is worth 0).
fn chance_value(b: Board, depth: u32) -> f32 {
    let t = tables();
    let columns = transpose(b);
    let line = |x: Board, k: usize| ((x >> (16 * k)) & 0xFFFF) as u16;
    let base: f32 = (0..4)
        .map(|k| t.value[line(b, k) as usize] + t.value[line(columns, k) as usize])
        .sum();
    let (mut total, mut empty) = (0.0, 0u32);
    // The new tile fills the last empty square: a dead board is worth nothing.
    let full_after = empty_cells(b).len() == 1;
    for i in 0..16 {
        if exponent(b, i) != 0 {
            continue;
        }
        empty += 1;
        let (r, c) = (i / 4, i % 4);
        let (row, column) = (line(b, r), line(columns, c));
        for (e, p) in [(1u16, 0.9f32), (2, 0.1)] {
            let spawned = b | u64::from(e) << (4 * i);
            total += p * if full_after && !can_move(spawned) {
                0.0
            } else if depth == 0 {
                let (new_row, new_column) = (row | e << (4 * c), column | e << (4 * r));
                base - t.value[row as usize] - t.value[column as usize]
                    + t.value[new_row as usize]
                    + t.value[new_column as usize]
            } else {
                best_value(spawned, depth)
            };
        }
    }
    if empty == 0 {
        base
    } else {
        total / empty as f32
    }
}

/// The value of the mover's best slide, `depth` moves deep; a dead board
/// is worth nothing.
fn best_value(b: Board, depth: u32) -> f32 {
    if depth == 0 {
        return board_value(b);
    }
    (0..4)
        .filter_map(|d| {
            let (after, _) = slide(b, d);
            (after != b).then(|| chance_value(after, depth - 1))
        })
        .fold(0.0, f32::max)
}

/// The oracle's move: expectimax over the next tile (and, on a crowded
/// board of four or fewer empty squares, over one more move and tile), the
/// target tile at once when a move makes it.
pub fn expectimax_move(b: Board, target_exponent: u8) -> Option<usize> {
    let legal = legal_moves(b);
    if let Some(&d) = legal
        .iter()
        .find(|&&d| largest_exponent(slide(b, d).0) >= target_exponent)
    {
        return Some(d);
    }
    let depth = if empty_cells(b).len() <= 4 { 2 } else { 1 };
    let mut best: Option<(f32, usize)> = None;
    for d in legal {
        let value = chance_value(slide(b, d).0, depth - 1);
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, d));
        }
    }
    best.map(|(_, d)| d)
}

/// The heuristic's move, the corner rule: never `up` unless forced; else
/// the slide that scores the most points, ties to `down`, then `left`,
/// then `right`.
pub fn corner_move(b: Board) -> Option<usize> {
    let legal = legal_moves(b);
    [2, 3, 1]
        .into_iter()
        .filter(|d| legal.contains(d))
        .map(|d| (slide(b, d).1, d))
        .reduce(|best, next| if next.0 > best.0 { next } else { best })
        .map(|(_, d)| d)
        .or_else(|| legal.first().copied())
}
