//! `games/gomoku-v1`: Gomoku (five in a row) on a 15×15 board.
//!
//! # Task
//! The empty board; X (player 0) moves first. Players take turns placing a
//! stone of their own on any empty point. No chance: with no opening moves
//! every seed gives the same start.
//!
//! # Action
//! An empty point like `h8`: column letter (`a` on the left), then row
//! number (1 at the top). A taken point is refused, and so is text naming
//! two points.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The board (row 1 first, X and O, `.` empty) under the column letters and
//! beside the row numbers, whose turn it is and the empty points. Both
//! players see everything.
//!
//! # Reward
//! +1 to the player who first makes a line of exactly five of their stones
//! (across, down or diagonally), −1 to the other; 0 each for a full board
//! (zero-sum). A line of six or more (an overline) does not win, unless
//! `overlines_win` is set (the freestyle rule of OpenSpiel's `gomoku`).
//! `passed` means a win. Breakdown: `win`, `draw`.
//!
//! # Episode end
//! A winning line, or a full board (at most size² moves).
//!
//! # Parameters
//! `size` (9–19, default 15): the board is size×size. `opening_moves`
//! (0–40, default 0): random moves, none of them winning, already on the
//! board. `overlines_win` (default false): six or more in a row win too.
//! Presets `standard` (empty 15×15 board) and, on the difficulty scale
//! (`LEVELS`), `easy` (40 opening moves), `medium` (16), `hard` (none).
//!
//! # Seeding
//! With no opening moves every seed gives the empty board and matters only
//! to random agents; otherwise the seed picks the opening.
//!
//! # Version history
//! v1: first version.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{
    Search, best_move, evaluation_for, is_zero, standard_then_graded, validate_opening,
    win_block_greedy, win_loss,
};
use crate::rng::Rng;

const MIN_SIZE: usize = 9;
const MAX_SIZE: usize = 19;
const DEFAULT_SIZE: usize = 15;
/// Most random opening moves.
const MAX_OPENING: usize = 40;
/// Stones in a winning line.
const FIVE: usize = 5;
const STONES: [char; 2] = ['X', 'O'];
/// The four line directions as (row, column) steps.
const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
/// Plies the oracle searches, and the candidate points it tries at each.
const ORACLE_DEPTH: u32 = 3;
const BRANCH: usize = 8;
/// Value of an open five-point window holding k stones of one side only,
/// for the position evaluation.
const LINE_VALUE: [i32; FIVE] = [0, 1, 12, 150, 2_000];
/// Move-ordering weights of an empty point in a window of k own stones
/// (attack) or k opposing stones (defence).
const ATTACK: [i32; FIVE] = [1, 4, 40, 500, 100_000];
const DEFENCE: [i32; FIVE] = [1, 3, 30, 400, 50_000];

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GomokuConfig {
    /// Board side, 9–19.
    pub size: usize,
    /// Random moves already on the board at the start (0–40), none of
    /// them a win: the more, the less of the game is left to play.
    #[serde(skip_serializing_if = "is_zero")]
    pub opening_moves: usize,
    /// Whether six or more in a row win as well (freestyle gomoku).
    #[serde(skip_serializing_if = "is_false")]
    pub overlines_win: bool,
}

impl Default for GomokuConfig {
    fn default() -> Self {
        GomokuConfig {
            size: DEFAULT_SIZE,
            opening_moves: 0,
            overlines_win: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GomokuTask {
    pub size: usize,
    #[serde(default, skip_serializing_if = "is_false")]
    pub overlines_win: bool,
    /// Points (row-major indices) already played, alternately from X.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opening: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gomoku {
    size: usize,
    overlines_win: bool,
    board: Vec<Option<Player>>,
    moves: usize,
    winner: Option<Player>,
}

/// Every five-point line on a size×size board, by size.
fn windows(size: usize) -> &'static [[u16; FIVE]] {
    static ALL: OnceLock<Vec<Vec<[u16; FIVE]>>> = OnceLock::new();
    &ALL.get_or_init(|| (0..=MAX_SIZE).map(build_windows).collect())[size]
}

fn build_windows(size: usize) -> Vec<[u16; FIVE]> {
    let n = size as i32;
    let mut all = Vec::new();
    for r in 0..n {
        for c in 0..n {
            for (dr, dc) in DIRECTIONS {
                let (er, ec) = (r + 4 * dr, c + 4 * dc);
                if (0..n).contains(&er) && (0..n).contains(&ec) {
                    all.push(std::array::from_fn(|k| {
                        ((r + k as i32 * dr) * n + c + k as i32 * dc) as u16
                    }));
                }
            }
        }
    }
    all
}

fn point_name(size: usize, i: usize) -> String {
    format!("{}{}", (b'a' + (i % size) as u8) as char, i / size + 1)
}

/// The point a word like `h8` names on a size×size board (any case, no
/// leading zero).
fn parse_point(size: usize, word: &str) -> Option<usize> {
    let (&col, row) = word.as_bytes().split_first()?;
    let c = usize::from(col.to_ascii_lowercase().checked_sub(b'a')?);
    if c >= size || row.first() == Some(&b'0') || row.len() > 2 {
        return None;
    }
    let r: usize = std::str::from_utf8(row).ok()?.parse().ok()?;
    (1..=size).contains(&r).then(|| (r - 1) * size + c)
}

impl Gomoku {
    fn new(size: usize, overlines_win: bool) -> Self {
        Gomoku {
            size,
            overlines_win,
            board: vec![None; size * size],
            moves: 0,
            winner: None,
        }
    }

    fn to_move(&self) -> Player {
        self.moves % 2
    }

    fn over(&self) -> bool {
        self.winner.is_some() || self.moves == self.board.len()
    }

    /// Stones of `player` in the line through point `i` along `(dr, dc)`,
    /// counting `i` itself as theirs.
    fn run(&self, i: usize, (dr, dc): (i32, i32), player: Player) -> usize {
        let n = self.size as i32;
        let (r, c) = ((i / self.size) as i32, (i % self.size) as i32);
        let mut len = 1;
        for sign in [1, -1] {
            let (mut rr, mut cc) = (r + sign * dr, c + sign * dc);
            while (0..n).contains(&rr)
                && (0..n).contains(&cc)
                && self.board[(rr * n + cc) as usize] == Some(player)
            {
                len += 1;
                rr += sign * dr;
                cc += sign * dc;
            }
        }
        len
    }

    /// Whether a stone of `player` on point `i` would make a winning line.
    fn wins_at(&self, i: usize, player: Player) -> bool {
        DIRECTIONS.iter().any(|&d| {
            let len = self.run(i, d, player);
            len == FIVE || (self.overlines_win && len > FIVE)
        })
    }

    /// Places the mover's stone on the empty point `i`.
    fn place(&mut self, i: usize) {
        let p = self.to_move();
        if self.wins_at(i, p) {
            self.winner = Some(p);
        }
        self.board[i] = Some(p);
        self.moves += 1;
    }

    /// Empty points in row-major order; none once the game is over.
    fn legal(&self) -> Vec<usize> {
        if self.over() {
            return Vec::new();
        }
        (0..self.board.len())
            .filter(|&i| self.board[i].is_none())
            .collect()
    }

    /// Stones of each player in window `w`.
    fn counts(&self, w: &[u16; FIVE]) -> [usize; 2] {
        let mut counts = [0; 2];
        for &i in w {
            if let Some(p) = self.board[i as usize] {
                counts[p] += 1;
            }
        }
        counts
    }

    fn grid(&self) -> String {
        let rows: Vec<String> = self
            .board
            .chunks(self.size)
            .map(|row| {
                row.iter()
                    .map(|c| c.map_or('.', |p| STONES[p]).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        rows.join("\n")
    }
}

impl Search for Gomoku {
    type Move = usize;

    fn mover(&self) -> Player {
        self.to_move()
    }

    /// The [`BRANCH`] empty points that take part in the most promising
    /// lines for either side (a point completing or blocking a five always
    /// leads), nearer the centre first among equals.
    fn moves(&self) -> Vec<usize> {
        if self.over() {
            return Vec::new();
        }
        let me = self.to_move();
        let mut value = vec![0i32; self.board.len()];
        for w in windows(self.size) {
            let [mine, theirs] = {
                let c = self.counts(w);
                [c[me], c[1 - me]]
            };
            // A full window is part of an overline under the exact-five
            // rule: no use to either side.
            let v = match (mine, theirs) {
                (k, 0) if k < FIVE => ATTACK[k],
                (0, k) if k < FIVE => DEFENCE[k],
                _ => continue,
            };
            for &i in w {
                if self.board[i as usize].is_none() {
                    value[i as usize] += v;
                }
            }
        }
        let mid = (self.size as i32 - 1) / 2;
        let mut moves = self.legal();
        moves.sort_by_key(|&i| {
            let (r, c) = ((i / self.size) as i32, (i % self.size) as i32);
            (-value[i], (r - mid).abs() + (c - mid).abs(), i)
        });
        moves.truncate(BRANCH);
        moves
    }

    fn play(&mut self, i: usize) {
        self.place(i);
    }

    fn outcome(&self) -> Option<Option<Player>> {
        match self.winner {
            Some(w) => Some(Some(w)),
            None if self.over() => Some(None),
            None => None,
        }
    }

    /// Open five-point windows weighted by how full they are.
    fn evaluate(&self) -> i32 {
        windows(self.size)
            .iter()
            .map(|w| match self.counts(w) {
                [a, 0] if a < FIVE => LINE_VALUE[a],
                [0, b] if b < FIVE => -LINE_VALUE[b],
                _ => 0,
            })
            .sum()
    }
}

impl Env for Gomoku {
    type Config = GomokuConfig;
    type Task = GomokuTask;
    type Action = usize;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/gomoku-v1",
        kind: EnvKind::Game,
        description: "Gomoku on a 15x15 board, exactly five wins; alpha-beta oracle (3 plies over 8 candidate points)",
        players: 2,
        max_steps: MAX_SIZE * MAX_SIZE,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &standard_then_graded(Self::LEVELS),
    };

    /// Fewer random opening moves, more game to play.
    const LEVELS: &'static [&'static str] =
        &[r#"{"opening_moves": 40}"#, r#"{"opening_moves": 16}"#, "{}"];

    /// Points left to fill times the points each move may choose from.
    fn effort(task: &GomokuTask) -> Option<f64> {
        let cells = task.size * task.size;
        Some(((cells - task.opening.len()) * cells) as f64)
    }

    fn validate(config: &GomokuConfig) -> Result<(), ConfigError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&config.size) {
            return Err(format!(
                "size must be in {MIN_SIZE}..={MAX_SIZE}, got {}",
                config.size
            )
            .into());
        }
        validate_opening(config.opening_moves, MAX_OPENING)
    }

    fn generate(config: &GomokuConfig, rng: &mut Rng) -> GomokuTask {
        let mut game = Gomoku::new(config.size, config.overlines_win);
        let mut opening = Vec::new();
        while opening.len() < config.opening_moves {
            let mover = game.to_move();
            let quiet: Vec<usize> = game
                .legal()
                .into_iter()
                .filter(|&i| !game.wins_at(i, mover))
                .collect();
            let Some(&i) = rng.choose(&quiet) else {
                break;
            };
            game.place(i);
            opening.push(i);
        }
        GomokuTask {
            size: config.size,
            overlines_win: config.overlines_win,
            opening,
        }
    }

    fn reset(task: &GomokuTask, _rng: Rng) -> Self {
        let mut game = Gomoku::new(task.size, task.overlines_win);
        for &i in &task.opening {
            game.place(i);
        }
        game
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Player(self.to_move())
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let n = self.size;
        let letters: Vec<String> = (0..n)
            .map(|c| ((b'a' + c as u8) as char).to_string())
            .collect();
        let rows: Vec<String> = self
            .grid()
            .lines()
            .enumerate()
            .map(|(r, line)| format!("{:>2} {line}", r + 1))
            .collect();
        let legal: Vec<String> = if self.to_move() == player {
            self.legal().into_iter().map(|i| point_name(n, i)).collect()
        } else {
            Vec::new()
        };
        let rule = if self.overlines_win {
            "a line of five or more"
        } else {
            "a line of exactly five (six or more in a row do not count)"
        };
        let status = match self.winner {
            Some(w) if w == player => "Game over: you win.".to_string(),
            Some(_) => "Game over: you lose.".to_string(),
            None if self.over() => "Game over: draw.".to_string(),
            None if self.to_move() == player => {
                "Your move: reply with one empty point like `h8`.".to_string()
            }
            None => "Waiting for the opponent.".to_string(),
        };
        Observation {
            text: format!(
                "Gomoku {n}x{n}. You play {}; X moves first. Take turns placing a stone on an empty \
                 point; the first to make {rule} of their stones across, down or diagonally \
                 wins.\n   {}\n{}\n{status}",
                STONES[player],
                letters.join(" "),
                rows.join("\n"),
            ),
            structured: json!({
                "rows": self.board.chunks(n).map(|row| row.iter().map(|c| c.map_or('.', |p| STONES[p])).collect::<String>()).collect::<Vec<_>>(),
                "you": STONES[player].to_string(),
                "to_move": if self.over() { json!(null) } else { json!(self.to_move()) },
            }),
            legal_actions: Some(legal),
        }
    }

    /// The one point the words of `text` name; two different ones are a
    /// hedge. Reads each word once: no scan per point name.
    fn parse_action(&self, _player: Player, text: &str) -> Result<usize, InvalidAction> {
        let hint = "reply with one point like `h8`";
        let mut found = None;
        for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
            match (found, parse_point(self.size, word)) {
                (Some(f), Some(i)) if f != i => {
                    return Err(InvalidAction::new(format!(
                        "name exactly one move, not several; {hint}"
                    )));
                }
                (_, Some(i)) => found = Some(i),
                _ => {}
            }
        }
        found.ok_or_else(|| InvalidAction::new(format!("no legal move found; {hint}")))
    }

    fn apply(&mut self, _player: Player, i: usize) -> Result<Vec<String>, InvalidAction> {
        if self.board[i].is_some() {
            return Err(InvalidAction::new(format!(
                "{} is taken",
                point_name(self.size, i)
            )));
        }
        self.place(i);
        Ok(match self.winner {
            Some(w) => vec![format!("{} wins", STONES[w])],
            None if self.over() => vec!["draw".to_string()],
            None => Vec::new(),
        })
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner, self.over(), player)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        best_move(self, ORACLE_DEPTH).map(|i| point_name(self.size, i))
    }

    /// Win or block, else the candidate point with the best line count one
    /// move on (random among equals).
    fn heuristic(&self, _player: Player, rng: &mut Rng) -> Option<String> {
        win_block_greedy(self, rng, evaluation_for).map(|i| point_name(self.size, i))
    }

    fn render(&self) -> String {
        self.grid()
    }
}

#[cfg(test)]
#[path = "gomoku_tests.rs"]
mod tests;
