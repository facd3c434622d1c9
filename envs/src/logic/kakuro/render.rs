//! The prompt: the grid with its clue cells, and the same runs as a list.

use super::KakuroTask;

/// The full prompt of a task.
pub(super) fn prompt(task: &KakuroTask) -> String {
    let (rows, cols) = (task.rows, task.cols);
    // The shown grid has the clue row and column: play cell (r, c) is at (r + 1, c + 1).
    let mut tokens = vec![vec![(None, None); cols + 1]; rows + 1];
    for clue in &task.across {
        tokens[clue.row + 1][clue.col].1 = Some(clue.sum);
    }
    for clue in &task.down {
        tokens[clue.row][clue.col + 1].0 = Some(clue.sum);
    }
    let show = |s: Option<usize>| s.map_or(String::new(), |s| s.to_string());
    let grid: Vec<String> = (0..=rows)
        .map(|r| {
            (0..=cols)
                .map(|c| {
                    let token = if r > 0 && c > 0 && task.solution[(r - 1) * cols + c - 1] != 0 {
                        "_".to_string()
                    } else {
                        match tokens[r][c] {
                            (None, None) => "#".to_string(),
                            (down, across) => format!("{}\\{}", show(down), show(across)),
                        }
                    };
                    format!("{token:>6}")
                })
                .collect::<String>()
        })
        .collect();
    let mut runs = Vec::new();
    for clue in &task.across {
        runs.push(format!(
            "across: row {}, columns {}-{}, sum {}",
            clue.row + 2,
            clue.col + 2,
            clue.col + clue.len + 1,
            clue.sum
        ));
    }
    for clue in &task.down {
        runs.push(format!(
            "down: column {}, rows {}-{}, sum {}",
            clue.col + 2,
            clue.row + 2,
            clue.row + clue.len + 1,
            clue.sum
        ));
    }
    format!(
        "Kakuro. Write a digit from 1 to 9 in every white cell (_) of the grid below. A black cell \
         written D\\R holds clues: D is the sum of the run of white cells directly below it, R the sum \
         of the run directly to its right (a missing number means no run on that side); # is a black \
         cell without clues. The digits of each run must add up to its clue, and no digit may appear \
         twice in a run. The solution is unique.\n\n{}\n\nThe same runs (rows and columns of the grid \
         above, counted from 1 at its top-left corner):\n{}\n\nAnswer with the {} digits of the white \
         cells only, row by row from top to bottom and left to right within a row, one line per row, \
         inside \\boxed{{}}.",
        grid.join("\n"),
        runs.join("\n"),
        task.whites().len()
    )
}
