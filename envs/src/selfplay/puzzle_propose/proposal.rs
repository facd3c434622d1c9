//! Reading a `selfplay/puzzle-propose-v1` proposal (the `PUZZLE:` line and the instance
//! in its kind's format), validating it against the task, and grading a solver's answer.

use verigym_verifiers::answer::boxed_contents;
use verigym_verifiers::sat::parse_dimacs;

use super::puzzle::{Puzzle, solutions};
use super::{
    KENKEN_SIDES, MAX_CAGE, MAX_PROPOSAL, MAX_SAT_CLAUSES, MAX_SAT_VARS, NODE_CAP, PuzzleExample,
    PuzzleProposeTask,
};
use crate::logic::kenken::{Cage, KenKenTask, Op};
use crate::logic::sat::{SatTask, core_limit};
use crate::logic::sudoku::SudokuTask;
use crate::selfplay::buffer::{Proposal, normalize_text};
use crate::selfplay::{Rejection, field};

/// The instance lines: those right after the `PUZZLE:` line, up to the first blank line
/// or fence after the instance began (fences before it are skipped).
fn instance_lines(text: &str) -> Vec<&str> {
    let mut lines = text
        .lines()
        .skip_while(|l| field(l, "puzzle").is_none())
        .skip(1);
    let mut out = Vec::new();
    for line in lines.by_ref() {
        let t = line.trim();
        let fence = t.starts_with("```");
        if t.is_empty() || fence {
            if out.is_empty() {
                continue;
            }
            break;
        }
        out.push(t);
    }
    out
}

fn format_error(reason: impl Into<String>) -> Rejection {
    Rejection::new("format", reason)
}

fn parse_sudoku(lines: &[&str]) -> Result<SudokuTask, Rejection> {
    let rows: Vec<Vec<u8>> = lines
        .iter()
        .filter(|l| !l.chars().all(|c| matches!(c, '-' | '+' | '=' | '|' | ' ')))
        .map(|l| {
            l.chars()
                .filter(|c| !matches!(c, ' ' | '|' | '\t'))
                .map(|c| match c {
                    '.' | '0' => Some(0),
                    '1'..='9' => Some(c as u8 - b'0'),
                    _ => None,
                })
                .collect::<Option<Vec<u8>>>()
        })
        .collect::<Option<_>>()
        .ok_or_else(|| format_error("a sudoku row holds only digits and `.` for empty cells"))?;
    let n = rows.len();
    let (box_rows, box_cols) = match n {
        4 => (2, 2),
        6 => (2, 3),
        9 => (3, 3),
        _ => return Err(format_error("a sudoku has 4, 6 or 9 rows")),
    };
    if rows
        .iter()
        .any(|r| r.len() != n || r.iter().any(|&v| v as usize > n))
    {
        return Err(format_error(format!(
            "each of the {n} sudoku rows holds {n} cells with digits 1-{n}"
        )));
    }
    Ok(SudokuTask {
        box_rows,
        box_cols,
        givens: rows.concat(),
        solution: Vec::new(),
    })
}

fn parse_sat(lines: &[&str]) -> Result<SatTask, Rejection> {
    let cnf = parse_dimacs(&lines.join("\n"))
        .map_err(|e| format_error(format!("the formula is not DIMACS CNF: {e}")))?;
    if !(1..=MAX_SAT_VARS).contains(&cnf.num_vars)
        || !(1..=MAX_SAT_CLAUSES).contains(&cnf.clauses.len())
        || cnf.clauses.iter().any(Vec::is_empty)
    {
        return Err(format_error(format!(
            "a formula has 1 to {MAX_SAT_VARS} variables and 1 to {MAX_SAT_CLAUSES} non-empty clauses"
        )));
    }
    Ok(SatTask {
        num_vars: cnf.num_vars,
        core_limit: core_limit(cnf.clauses.len()),
        clauses: cnf.clauses,
        reference: String::new(),
    })
}

fn parse_kenken(lines: &[&str]) -> Result<KenKenTask, Rejection> {
    let (cage_lines, map_lines): (Vec<&str>, Vec<&str>) =
        lines.iter().copied().partition(|l| l.contains(':'));
    let map: Vec<Vec<char>> = map_lines
        .iter()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect())
        .collect();
    let n = map.len();
    if !KENKEN_SIDES.contains(&n)
        || map
            .iter()
            .any(|r| r.len() != n || !r.iter().all(char::is_ascii_alphabetic))
    {
        return Err(format_error(
            "a KenKen map has 3 to 6 rows of as many letters (one per cell)",
        ));
    }
    let mut cages = Vec::new();
    let mut labels = Vec::new();
    for line in cage_lines {
        let (name, rule) = line.split_once(':').unwrap_or_default();
        let name = name.trim();
        let rule: String = rule.chars().filter(|c| !c.is_whitespace()).collect();
        let digits = rule.chars().take_while(char::is_ascii_digit).count();
        let op = match &rule[digits..] {
            "" => Op::Given,
            "+" => Op::Add,
            "-" => Op::Sub,
            "x" | "X" | "*" | "×" => Op::Mul,
            "/" => Op::Div,
            other => return Err(format_error(format!("unknown cage operation `{other}`"))),
        };
        let (Some(letter), 1) = (name.chars().next(), name.chars().count()) else {
            return Err(format_error(
                "a cage line starts with its one letter: `A: 6+`",
            ));
        };
        let target: u32 = rule[..digits]
            .parse()
            .map_err(|_| format_error("a cage's target is a number below 4,000,000,000"))?;
        let cells: Vec<usize> = (0..n * n)
            .filter(|&c| map[c / n][c % n] == letter)
            .collect();
        if cells.is_empty() || cells.len() > MAX_CAGE || labels.contains(&letter) {
            return Err(format_error(format!(
                "cage {letter}: each cage line names a letter of the map once, with 1 to {MAX_CAGE} cells"
            )));
        }
        labels.push(letter);
        cages.push(Cage { cells, op, target });
    }
    if map.iter().flatten().any(|c| !labels.contains(c)) {
        return Err(format_error("every letter of the map needs a cage line"));
    }
    Ok(KenKenTask {
        n,
        cages,
        solution: Vec::new(),
    })
}

/// The kind and instance of a proposal, read (no solving).
fn parse_puzzle(text: &str) -> Result<Puzzle, Rejection> {
    let kind = field(text, "puzzle")
        .unwrap_or_default()
        .to_ascii_lowercase();
    let lines = instance_lines(text);
    Ok(match kind.trim_matches(['*', '`', '.']) {
        "sudoku" => Puzzle::Sudoku(parse_sudoku(&lines)?),
        "sat" | "cnf" => Puzzle::Sat(parse_sat(&lines)?),
        "kenken" => Puzzle::KenKen(parse_kenken(&lines)?),
        _ => {
            return Err(format_error(
                "start with a `PUZZLE: sudoku`, `PUZZLE: sat` or `PUZZLE: kenken` line, the instance right after it",
            ));
        }
    })
}

/// Reads and validates a proposal against the task's reference puzzles.
///
/// # Errors
/// The [`Rejection`]: `size`, `format`, `copy`, `trivial`, `unsolvable`, `not_unique` or
/// `undecided`, with the reason.
pub fn validate_proposal(task: &PuzzleProposeTask, text: &str) -> Result<Puzzle, Rejection> {
    if text.len() > MAX_PROPOSAL {
        return Err(Rejection::new(
            "size",
            format!("the proposal is over {MAX_PROPOSAL} bytes"),
        ));
    }
    let mut puzzle = parse_puzzle(text)?;
    let example = puzzle.example();
    // References compared in canonical form (a pool entry may be written otherwise).
    let canonical = |r: &PuzzleExample| {
        parse_puzzle(&proposal_text(r)).map_or_else(|_| r.key(), |p| p.example().key())
    };
    if let Some(i) = task
        .references
        .iter()
        .position(|r| canonical(r) == example.key())
    {
        return Err(Rejection::new(
            "copy",
            format!("the puzzle copies reference puzzle {i}: propose a new one"),
        ));
    }
    if let Puzzle::Sudoku(t) = &puzzle
        && t.givens.iter().filter(|&&g| g == 0).count() < t.side()
    {
        return Err(Rejection::new(
            "trivial",
            "leave at least as many empty cells as the grid's side",
        ));
    }
    match solutions(&mut puzzle) {
        Some(1) => Ok(puzzle),
        Some(0) => Err(Rejection::new("unsolvable", "the puzzle has no solution")),
        Some(_) => Err(Rejection::new(
            "not_unique",
            "the puzzle has more than one solution: add a clue or a constraint",
        )),
        None => Err(Rejection::new(
            "undecided",
            format!(
                "the solver could not decide uniqueness within {NODE_CAP} steps: propose a more constrained puzzle"
            ),
        )),
    }
}

/// The proposer's action text for an example.
pub fn proposal_text(example: &PuzzleExample) -> String {
    format!("PUZZLE: {}\n{}\n", example.kind, example.instance)
}

/// Verifies one solver reply: the one `\boxed{}` content (boxes that disagree fail),
/// else the whole visible reply, by the logic env's check.
pub fn verify_answer(puzzle: &Puzzle, answer: &str) -> (bool, String) {
    let boxes = boxed_contents(answer).unwrap_or_default();
    let mut distinct: Vec<String> = boxes.iter().map(|b| normalize_text(b)).collect();
    distinct.dedup();
    let text = match (boxes.first(), distinct.len()) {
        (Some(_), n) if n > 1 => return (false, "boxes that disagree are a hedge".into()),
        (Some(one), _) => *one,
        (None, _) => answer,
    };
    if puzzle.check(text) {
        (true, "solves the puzzle".into())
    } else {
        (false, "not the solution".into())
    }
}
