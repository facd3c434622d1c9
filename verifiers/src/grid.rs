//! Number grids: lenient reading, strict constraint checks.
//!
//! [`parse_grid`] reads `rows × cols` numbers from text. Separators are free
//! (spaces, commas, `|`, `-`, `+`, brackets, box-drawing lines, LaTeX `&` column and
//! `\\` row separators); rows of single digits may be written run together (`1234`).
//! Content is strict: any other character (a letter, `.`, `?`) or a wrong cell count is
//! an error, so a grid with blanks or extra numbers never passes. Answers taken with
//! [`crate::answer::final_answer`] arrive with fences and LaTeX tables already undone.
//!
//! The checks are pure functions over a row-major `&[u8]` grid.

use thiserror::Error;

/// Why a grid answer could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GridError {
    #[error("answer is {len} bytes, far longer than a grid of {rows} rows of {cols}")]
    TooLong {
        len: usize,
        rows: usize,
        cols: usize,
    },
    #[error("unexpected `{0}` in the grid (write every cell as a number)")]
    UnexpectedChar(char),
    #[error("unexpected `{0}` in the grid (write cells as 0 and 1)")]
    NotBinary(char),
    #[error("expected {} cells ({rows} rows of {cols}), found {found}", rows * cols)]
    WrongCount {
        rows: usize,
        cols: usize,
        found: usize,
    },
    #[error("cell value `{value}` outside 1..={max}")]
    OutOfRange { value: String, max: u8 },
}

/// Characters between cells: spacing, punctuation, brackets, table rules, LaTeX `&`
/// and `\\`, box-drawing lines.
fn is_separator(ch: char) -> bool {
    ch.is_whitespace()
        || matches!(
            ch,
            ',' | ';'
                | '|'
                | '-'
                | '+'
                | '['
                | ']'
                | '('
                | ')'
                | '{'
                | '}'
                | ':'
                | '_'
                | '='
                | '&'
                | '\\'
        )
        || ('\u{2500}'..='\u{257f}').contains(&ch)
}

/// Reads exactly `rows * cols` numbers in `1..=max_value`.
///
/// # Errors
/// Unknown characters, a wrong count, or a value out of range.
pub fn parse_grid(
    text: &str,
    rows: usize,
    cols: usize,
    max_value: u8,
) -> Result<Vec<u8>, GridError> {
    let cells = rows * cols;
    if text.len() > 64 * cells + 256 {
        return Err(GridError::TooLong {
            len: text.len(),
            rows,
            cols,
        });
    }
    // Byte ranges of the digit runs.
    let mut runs: Vec<(usize, usize)> = Vec::with_capacity(cells);
    let mut start = None;
    for (i, ch) in text.char_indices() {
        if ch.is_ascii_digit() {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take() {
            runs.push((s, i));
        }
        if !is_separator(ch) {
            return Err(GridError::UnexpectedChar(ch));
        }
    }
    if let Some(s) = start {
        runs.push((s, text.len()));
    }
    let digits: usize = runs.iter().map(|(s, e)| e - s).sum();
    let out_of_range = |run: &str| GridError::OutOfRange {
        value: run.chars().take(12).collect(),
        max: max_value,
    };
    if runs.len() == cells {
        runs.iter()
            .map(|&(s, e)| {
                let run = &text[s..e];
                // At most three digits: `007` is 7, a longer run is no cell value.
                let value = (run.len() <= 3)
                    .then(|| run.bytes().fold(0u16, |v, d| v * 10 + u16::from(d - b'0')))
                    .filter(|v| (1..=u16::from(max_value)).contains(v));
                value.map(|v| v as u8).ok_or_else(|| out_of_range(run))
            })
            .collect()
    } else if max_value <= 9 && digits == cells {
        // Rows of run-together digits: `1234`.
        runs.iter()
            .flat_map(|&(s, e)| text[s..e].bytes())
            .map(|d| {
                let value = d - b'0';
                if (1..=max_value).contains(&value) {
                    Ok(value)
                } else {
                    Err(out_of_range(&(value.to_string())))
                }
            })
            .collect()
    } else {
        Err(GridError::WrongCount {
            rows,
            cols,
            found: runs.len(),
        })
    }
}

/// Reads exactly `rows * cols` binary cells written as `0`/`1` (separators free).
///
/// # Errors
/// Other characters or a wrong count.
pub fn parse_binary_grid(text: &str, rows: usize, cols: usize) -> Result<Vec<u8>, GridError> {
    let mut cells = Vec::with_capacity(rows * cols);
    for ch in text.chars() {
        match ch {
            '0' | '1' => cells.push(ch as u8 - b'0'),
            c if c.is_whitespace() || ",;|[]&\\".contains(c) => {}
            c => return Err(GridError::NotBinary(c)),
        }
        if cells.len() > rows * cols {
            break;
        }
    }
    if cells.len() != rows * cols {
        return Err(GridError::WrongCount {
            rows,
            cols,
            found: cells.len(),
        });
    }
    Ok(cells)
}

/// Every row and column of the `n × n` grid holds `1..=n` once each.
pub fn is_latin_square(grid: &[u8], n: usize) -> bool {
    if grid.len() != n * n || n > 32 {
        return false;
    }
    let full: u64 = ((1u64 << n) - 1) << 1;
    (0..n).all(|i| {
        let (mut row, mut col) = (0u64, 0u64);
        for j in 0..n {
            row |= 1 << grid[i * n + j];
            col |= 1 << grid[j * n + i];
        }
        row == full && col == full
    })
}

/// A latin square whose `box_rows × box_cols` boxes also hold `1..=n` once.
pub fn is_sudoku_solution(grid: &[u8], box_rows: usize, box_cols: usize) -> bool {
    let n = box_rows * box_cols;
    if !is_latin_square(grid, n) {
        return false;
    }
    let full: u64 = ((1u64 << n) - 1) << 1;
    (0..n).all(|b| {
        let (r0, c0) = ((b / box_rows) * box_rows, (b % box_rows) * box_cols);
        let mut seen = 0u64;
        for r in r0..r0 + box_rows {
            for c in c0..c0 + box_cols {
                seen |= 1 << grid[r * n + c];
            }
        }
        seen == full
    })
}

/// Every non-zero given equals the grid's cell.
pub fn respects_givens(grid: &[u8], givens: &[u8]) -> bool {
    grid.len() == givens.len()
        && grid
            .iter()
            .zip(givens)
            .all(|(&g, &given)| given == 0 || g == given)
}

/// Every `(a, b)` pair of cell indices has `grid[a] < grid[b]`.
pub fn respects_less_than(grid: &[u8], pairs: &[(usize, usize)]) -> bool {
    pairs
        .iter()
        .all(|&(a, b)| a < grid.len() && b < grid.len() && grid[a] < grid[b])
}

/// How many buildings are visible along `line` (taller ones hide shorter).
pub fn visible_count(line: impl Iterator<Item = u8>) -> u8 {
    let mut tallest = 0;
    let mut seen = 0;
    for h in line {
        if h > tallest {
            tallest = h;
            seen += 1;
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SOLVED_4: [u8; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];

    #[test]
    fn reads_grids_in_common_layouts() {
        let want = SOLVED_4.to_vec();
        for text in [
            "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1",
            "1234\n3412\n2143\n4321",
            "[[1,2,3,4],[3,4,1,2],[2,1,4,3],[4,3,2,1]]",
            "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1",
            "1 & 2 & 3 & 4 \\\\ 3 & 4 & 1 & 2 \\\\ 2 & 1 & 4 & 3 \\\\ 4 & 3 & 2 & 1",
            "1234 \\\\ 3412 \\\\ 2143 \\\\ 4321",
        ] {
            assert_eq!(parse_grid(text, 4, 4, 4).unwrap(), want, "{text:?}");
        }
        assert_eq!(
            parse_grid("10 2\n3 4", 2, 2, 10).unwrap(),
            vec![10, 2, 3, 4]
        );
    }

    #[test]
    fn rejects_blanks_extra_cells_words_and_out_of_range_values() {
        for bad in [
            "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 .",
            "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1 1",
            "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2",
            "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 5",
            "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 0",
            "1 2 3 4 or 3 4 1 2\n2 1 4 3\n4 3 2 1",
            "",
            "1 2 3 4 \\\\ 3 4 1 2 \\\\hline 2 1 4 3 \\\\ 4 3 2 1",
        ] {
            assert!(parse_grid(bad, 4, 4, 4).is_err(), "{bad:?}");
        }
        assert_eq!(
            parse_grid("1 2 3", 2, 2, 4),
            Err(GridError::WrongCount {
                rows: 2,
                cols: 2,
                found: 3
            })
        );
        assert_eq!(
            parse_grid("1 2 3 x", 2, 2, 4),
            Err(GridError::UnexpectedChar('x'))
        );
        assert_eq!(
            parse_binary_grid("0 1 \\\\ 1 & 0", 2, 2).unwrap(),
            vec![0, 1, 1, 0]
        );
        assert_eq!(
            parse_binary_grid("0 1 2", 1, 3),
            Err(GridError::NotBinary('2'))
        );
    }

    proptest! {
        /// Arbitrary and structure-aware text never panics; a grid that reads has exactly
        /// the asked cell count, each in range, and errors stay short.
        #[test]
        fn reading_never_panics_and_is_bounded(
            text in prop_oneof![
                any::<String>(),
                prop::collection::vec(
                    prop::sample::select(&["1", "2", "10", " ", "\n", "&", "\\\\", "|", "x", ".", "é", "0"][..]),
                    0..40,
                ).prop_map(|f| f.concat()),
            ],
            rows in 1usize..6,
            cols in 1usize..6,
        ) {
            match parse_grid(&text, rows, cols, 9) {
                Ok(grid) => prop_assert!(grid.len() == rows * cols && grid.iter().all(|v| (1..=9).contains(v))),
                Err(e) => prop_assert!(e.to_string().len() < 120),
            }
            if let Ok(grid) = parse_binary_grid(&text, rows, cols) {
                prop_assert!(grid.len() == rows * cols && grid.iter().all(|&v| v <= 1));
            }
        }
    }

    #[test]
    fn constraint_checks_catch_each_kind_of_violation() {
        assert!(is_latin_square(&SOLVED_4, 4));
        assert!(is_sudoku_solution(&SOLVED_4, 2, 2));
        let mut swapped = SOLVED_4;
        swapped.swap(0, 1);
        assert!(!is_latin_square(&swapped, 4));
        // A latin square that breaks the 2x2 boxes.
        let latin_not_sudoku = [1, 2, 3, 4, 2, 3, 4, 1, 3, 4, 1, 2, 4, 1, 2, 3];
        assert!(is_latin_square(&latin_not_sudoku, 4));
        assert!(!is_sudoku_solution(&latin_not_sudoku, 2, 2));
        assert!(respects_givens(
            &SOLVED_4,
            &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
        ));
        assert!(!respects_givens(
            &SOLVED_4,
            &[2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        ));
        assert!(respects_less_than(&SOLVED_4, &[(0, 1)]));
        assert!(!respects_less_than(&SOLVED_4, &[(1, 0)]));
        assert_eq!(visible_count([1, 3, 2, 4].into_iter()), 3);
        assert_eq!(parse_binary_grid("01\n10", 2, 2).unwrap(), vec![0, 1, 1, 0]);
        assert!(parse_binary_grid("012", 1, 3).is_err());
    }
}
