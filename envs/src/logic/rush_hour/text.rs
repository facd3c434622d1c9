//! The lot and the moves as text: the grid shown in the prompt, and the
//! answer format (`A D 2`, `B left`, `XR3`) both ways.

use super::rules::{cell, exit_row};
use super::{Move, RushHourTask};
use crate::core::InvalidAction;

/// Most moves an answer may list (bounded work on hostile input).
pub(super) const MAX_ANSWER_MOVES: usize = 500;

pub(super) fn render(task: &RushHourTask) -> String {
    let n = task.size;
    let mut grid = vec!['.'; n * n];
    for (v, &at) in task.vehicles.iter().zip(&task.start) {
        for k in 0..v.length {
            grid[cell(n, v, at + k)] = v.letter;
        }
    }
    let row = exit_row(n) as usize;
    grid.chunks(n)
        .enumerate()
        .map(|(r, line)| {
            let mut text: String = line.iter().map(|c| format!("{c} ")).collect();
            text.pop();
            if r == row {
                text.push_str("  <- exit");
            }
            text
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub(super) fn move_text(task: &RushHourTask, m: Move) -> String {
    let v = &task.vehicles[m.vehicle];
    let direction = match (v.horizontal, m.delta > 0) {
        (true, true) => 'R',
        (true, false) => 'L',
        (false, true) => 'D',
        (false, false) => 'U',
    };
    format!("{} {direction} {}", v.letter, m.delta.unsigned_abs())
}

/// Reads one move such as `A D 2`, `B left`, `XR3`.
pub(super) fn parse_move(task: &RushHourTask, part: &str) -> Result<Move, InvalidAction> {
    let compact: String = part.chars().filter(|c| !c.is_whitespace()).collect();
    let mut chars = compact.chars();
    let letter = chars
        .next()
        .ok_or_else(|| format!("empty move `{part}`"))?
        .to_ascii_uppercase();
    let vehicle = task
        .vehicles
        .iter()
        .position(|v| v.letter == letter)
        .ok_or_else(|| format!("no vehicle `{letter}` in `{part}`"))?;
    let rest = chars.as_str().to_ascii_lowercase();
    let digits_at = rest
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (word, count) = rest.split_at(digits_at);
    let sign: i8 = match word {
        "u" | "up" | "l" | "left" => -1,
        "d" | "down" | "r" | "right" => 1,
        _ => return Err(format!("no direction (U, D, L, R) in `{part}`").into()),
    };
    let horizontal_word = matches!(word, "l" | "left" | "r" | "right");
    if horizontal_word != task.vehicles[vehicle].horizontal {
        return Err(format!(
            "`{part}`: {letter} moves only {}",
            if task.vehicles[vehicle].horizontal {
                "left or right"
            } else {
                "up or down"
            }
        )
        .into());
    }
    let cells: i8 = if count.is_empty() {
        1
    } else if count.len() <= 2 && count.bytes().all(|b| b.is_ascii_digit()) {
        count
            .parse()
            .map_err(|_| format!("bad count in `{part}`"))?
    } else {
        return Err(format!("bad count in `{part}`").into());
    };
    Ok(Move {
        vehicle,
        delta: sign * cells,
    })
}

pub(super) fn parse_moves(task: &RushHourTask, answer: &str) -> Result<Vec<Move>, InvalidAction> {
    let mut moves = Vec::new();
    for part in answer.split(['\n', ',', ';']) {
        if part.trim().is_empty() {
            continue;
        }
        moves.push(parse_move(task, part.trim())?);
        if moves.len() > MAX_ANSWER_MOVES {
            return Err("too many moves".into());
        }
    }
    Ok(moves)
}
