//! `logic/sokoban-v1`: push every box onto a goal in a small walled room,
//! a few moves per turn, within a move budget.
//!
//! # Task
//! A `height × width` room inside a wall border, with `walls` interior wall
//! cells, `boxes` boxes (1..=3), as many goals, and the player. Levels are
//! made by reverse play, so every level is solvable; a breadth-first search
//! over pushes then records the fewest pushes and one plan. The move budget
//! is twice the plan's moves plus 10.
//!
//! # Action
//! One or more moves per turn as letters `U D L R` (either case), run
//! together or separated by spaces, commas, `;`, `-` or `|` (`LLUR`,
//! `L, L, U, R`), in `\boxed{…}` or as the whole reply. Any other character
//! is an invalid action. A reply with a move into a wall, a push of a box
//! into a wall or another box, or more moves than are left is refused as a
//! whole and nothing is played; so is a reply that goes on after the level is solved.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The rules, the moves used and left, the boxes on goals and the grid:
//! `#` wall, `@` player, `$` box, `.` goal, `*` box on a goal, `+` player
//! on a goal, space floor. Structured: the grid rows, player, boxes, goals
//! (as `[row, col]`) and moves left.
//!
//! # Reward
//! 1 and `passed` when every box is on a goal within the budget, else 0.
//! Breakdown: `correct`, `boxes_on_goals` (share), `moves_used`, `pushes`.
//!
//! # Episode end
//! When every box is on a goal, or when the move budget is spent.
//!
//! # Parameters
//! `width`, `height` (4..=10), `walls` (0..=width·height/4), `boxes`
//! (1..=3), `pulls` (1..=200, reverse-play pulls), `min_pushes` (1..=30).
//!
//! # Seeding
//! From the task rng: interior walls (kept only when the floor stays
//! connected), goals, the player, then `pulls` random legal pulls of boxes
//! off their goals and a random player cell in the final region. Levels the
//! search cannot finish within its state bound, needing fewer than
//! `min_pushes` pushes, or solved by repeating one direction are redrawn.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::answer::final_answer;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;

/// Letters of the four directions, in the order of [`Board::step`].
const LETTERS: [char; 4] = ['U', 'D', 'L', 'R'];
/// Most states one solver call may visit before it gives up.
const STATE_LIMIT: usize = 200_000;
/// Largest move budget a task may have (and so `max_steps`).
const MAX_MOVES: usize = 400;
/// Cells flooded at most over all the levels drawn for one task (see
/// `generate::generate_within`; a flood of a 10x10 board takes about two
/// microseconds, so this is a few seconds). A config whose levels rarely
/// need `min_pushes`, such as `min_pushes: 30`, gives up after this much
/// work instead of searching for half a minute or more, as it did when
/// only solver states counted (3 boxes on 10x10 boards make each state
/// costly). Counted in cells, never time, so the outcome is a pure function
/// of config and seed; every level finds its tasks within a tenth of it
/// (tested).
pub(super) const MAX_WORK: usize = 160_000_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SokobanConfig {
    pub width: usize,
    pub height: usize,
    pub walls: usize,
    pub boxes: usize,
    pub pulls: usize,
    pub min_pushes: usize,
}

impl Default for SokobanConfig {
    fn default() -> Self {
        SokobanConfig {
            width: 6,
            height: 6,
            walls: 4,
            boxes: 2,
            pulls: 30,
            min_pushes: 6,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SokobanTask {
    /// The level, one string per row, in the observation's notation.
    pub rows: Vec<String>,
    /// The fewest pushes that solve it.
    pub optimal_pushes: usize,
    /// The solver's plan as move letters.
    pub solution: String,
    pub max_moves: usize,
}

fn parse_level(rows: &[String]) -> (Board, usize, Vec<usize>) {
    let cols = rows[0].len();
    let mut board = Board {
        cols,
        walls: Vec::new(),
        goals: Vec::new(),
    };
    let (mut player, mut boxes) = (0, Vec::new());
    for (i, ch) in rows.iter().flat_map(|r| r.bytes()).enumerate() {
        board.walls.push(ch == b'#');
        board.goals.push(matches!(ch, b'.' | b'*' | b'+'));
        if matches!(ch, b'@' | b'+') {
            player = i;
        }
        if matches!(ch, b'$' | b'*') {
            boxes.push(i);
        }
    }
    (board, player, boxes)
}

fn draw(board: &Board, player: usize, boxes: &[usize]) -> Vec<String> {
    let cells: Vec<char> = (0..board.walls.len())
        .map(|c| {
            match (
                board.walls[c],
                board.goals[c],
                boxes.contains(&c),
                c == player,
            ) {
                (true, ..) => '#',
                (_, true, true, _) => '*',
                (_, false, true, _) => '$',
                (_, true, _, true) => '+',
                (_, false, _, true) => '@',
                (_, true, ..) => '.',
                _ => ' ',
            }
        })
        .collect();
    cells
        .chunks(board.cols)
        .map(|r| r.iter().collect())
        .collect()
}

/// Whether repeating one direction (skipping refused moves) solves the level.
fn one_direction_solves(board: &Board, player: usize, boxes: &[usize], budget: usize) -> bool {
    (0..4).any(|dir| {
        let (mut p, mut b) = (player, boxes.to_vec());
        for _ in 0..budget {
            match play_moves(board, p, b.clone(), &[dir]) {
                Ok((np, nb, 1, _)) => (p, b) = (np, nb),
                _ => break,
            }
        }
        board.solved(&b)
    })
}

fn parse_moves(text: &str) -> Result<Vec<usize>, InvalidAction> {
    let answer = final_answer(text).map_err(|e| e.to_string())?;
    let mut moves = Vec::new();
    for ch in answer.chars() {
        match ch.to_ascii_uppercase() {
            'U' => moves.push(0),
            'D' => moves.push(1),
            'L' => moves.push(2),
            'R' => moves.push(3),
            c if c.is_whitespace() || ",;-|".contains(c) => {}
            _ => {
                return Err(format!(
                    "`{ch}` is not a move: reply with the letters U, D, L, R only"
                )
                .into());
            }
        }
    }
    if moves.is_empty() {
        return Err("reply with at least one move, e.g. LLUR".into());
    }
    Ok(moves)
}

#[derive(Clone, Debug)]
pub struct SokobanEnv {
    task: SokobanTask,
    board: Board,
    player: usize,
    boxes: Vec<usize>,
    moves_used: usize,
    pushes: usize,
}

impl SokobanEnv {
    fn on_goals(&self) -> usize {
        self.boxes.iter().filter(|&&b| self.board.goals[b]).count()
    }

    fn moves_left(&self) -> usize {
        self.task.max_moves - self.moves_used
    }

    fn cell_at(&self, cell: usize) -> [usize; 2] {
        [cell / self.board.cols, cell % self.board.cols]
    }
}

impl Env for SokobanEnv {
    type Config = SokobanConfig;
    type Task = SokobanTask;
    type Action = Vec<usize>;

    const SPEC: EnvSpec = EnvSpec {
        id: "logic/sokoban-v1",
        kind: EnvKind::MultiTurn,
        description: "Push every box onto a goal in a small Sokoban room, a few moves per turn, within a move budget",
        players: 1,
        max_steps: MAX_MOVES,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 3]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"width":5,"height":5,"walls":2,"boxes":1,"pulls":20,"min_pushes":3}"#,
        r#"{"width":6,"height":5,"walls":3,"boxes":2,"pulls":25,"min_pushes":4}"#,
        "{}",
        r#"{"width":7,"height":7,"walls":6,"boxes":3,"pulls":40,"min_pushes":9}"#,
        r#"{"width":8,"height":8,"walls":8,"boxes":3,"pulls":60,"min_pushes":12}"#,
    ];

    fn effort(task: &SokobanTask) -> Option<f64> {
        Some(task.optimal_pushes as f64)
    }

    fn validate(config: &SokobanConfig) -> Result<(), ConfigError> {
        if !(4..=10).contains(&config.width) || !(4..=10).contains(&config.height) {
            return Err("width and height must be 4..=10".into());
        }
        if config.walls > config.width * config.height / 4 {
            return Err("walls must be at most width*height/4".into());
        }
        if !(1..=3).contains(&config.boxes) {
            return Err("boxes must be 1..=3".into());
        }
        if !(1..=200).contains(&config.pulls) || !(1..=30).contains(&config.min_pushes) {
            return Err("pulls must be 1..=200 and min_pushes 1..=30".into());
        }
        Ok(())
    }

    fn generate(config: &SokobanConfig, rng: &mut Rng) -> SokobanTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(config: &SokobanConfig, rng: &mut Rng) -> Result<SokobanTask, NoTask> {
        generate::generate_within(config, rng, MAX_WORK)
    }

    fn reference(task: &SokobanTask) -> Option<Value> {
        Some(json!(task.solution))
    }

    fn reset(task: &SokobanTask, _rng: Rng) -> Self {
        let (board, player, boxes) = parse_level(&task.rows);
        SokobanEnv {
            task: task.clone(),
            board,
            player,
            boxes,
            moves_used: 0,
            pushes: 0,
        }
    }

    fn turn(&self) -> Turn {
        if self.board.solved(&self.boxes) || self.moves_left() == 0 {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn observe(&self, _player: Player) -> Observation {
        let grid = draw(&self.board, self.player, &self.boxes);
        let mut text = format!(
            "Sokoban: push every box onto a goal. Legend: # wall, @ you, $ box, . goal, * box on a goal, \
             + you on a goal, space floor.\nReply with one or more moves, each U (up), D (down), L (left) or \
             R (right), e.g. LLUR. Walking into a box pushes it one cell if the cell beyond is free; you cannot \
             pull boxes, push two boxes at once or walk through walls, and a reply with such a move is refused \
             and nothing is played. You have {} moves in all.\nMoves used: {}, left: {}. Boxes on goals: {} of {}.\n",
            self.task.max_moves,
            self.moves_used,
            self.moves_left(),
            self.on_goals(),
            self.boxes.len()
        );
        for row in &grid {
            text.push_str(row);
            text.push('\n');
        }
        if self.board.solved(&self.boxes) {
            text.push_str("Solved.\n");
        }
        let cells = |list: Vec<usize>| {
            list.into_iter()
                .map(|c| self.cell_at(c))
                .collect::<Vec<_>>()
        };
        let goals = (0..self.board.goals.len())
            .filter(|&c| self.board.goals[c])
            .collect();
        Observation {
            text,
            structured: json!({
                "grid": grid,
                "player": self.cell_at(self.player),
                "boxes": cells(self.boxes.clone()),
                "goals": cells(goals),
                "moves_left": self.moves_left(),
            }),
            legal_actions: None,
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Vec<usize>, InvalidAction> {
        let moves = parse_moves(text)?;
        if moves.len() > self.moves_left() {
            return Err(InvalidAction::new(format!(
                "{} moves sent but only {} are left",
                moves.len(),
                self.moves_left()
            )));
        }
        Ok(moves)
    }

    fn apply(&mut self, _player: Player, moves: Vec<usize>) -> Result<Vec<String>, InvalidAction> {
        let (player, boxes, played, pushes) =
            play_moves(&self.board, self.player, self.boxes.clone(), &moves)?;
        (self.player, self.boxes) = (player, boxes);
        self.moves_used += played;
        self.pushes += pushes;
        let letters: String = moves[..played].iter().map(|&d| LETTERS[d]).collect();
        let mut note = format!(
            "{letters}: {pushes} push(es), {} of {} boxes on goals",
            self.on_goals(),
            self.boxes.len()
        );
        if self.board.solved(&self.boxes) {
            note.push_str("; solved");
        }
        Ok(vec![note])
    }

    fn score(&self, _player: Player) -> Score {
        Score::binary(self.board.solved(&self.boxes))
            .part(
                "boxes_on_goals",
                self.on_goals() as f64 / self.boxes.len() as f64,
            )
            .part("moves_used", self.moves_used as f64)
            .part("pushes", self.pushes as f64)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        match solve(&self.board, self.player, &self.boxes, STATE_LIMIT) {
            Solution::Pushes(p) if !p.is_empty() => {
                let plan = plan_moves(&self.board, self.player, &self.boxes, &p);
                (plan.len() <= self.moves_left()).then_some(plan)
            }
            _ => None,
        }
        .or_else(|| Some(self.random_action(0, &mut Rng::from_seed(0))))
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let legal: Vec<char> = (0..4)
            .filter(|&d| play_moves(&self.board, self.player, self.boxes.clone(), &[d]).is_ok())
            .map(|d| LETTERS[d])
            .collect();
        rng.choose(&legal).copied().unwrap_or('U').to_string()
    }

    fn render(&self) -> String {
        format!(
            "moves={}/{} pushes={} optimal={} |{}|",
            self.moves_used,
            self.task.max_moves,
            self.pushes,
            self.task.optimal_pushes,
            draw(&self.board, self.player, &self.boxes).join("|")
        )
    }
}

mod board;
use board::*;
mod generate;

#[cfg(test)]
mod tests;
