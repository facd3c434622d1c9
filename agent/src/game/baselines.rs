//! Scripted opponents the envs crate does not ship: Connect Four's
//! win-or-block rule (win now if possible, else block the opponent's
//! immediate win, else a random legal column).

use verigym_envs::{Agent, AgentTurn, Rng};

const ROWS: usize = 6;
const COLS: usize = 7;

/// Connect Four board as `board[row][col]`, row 0 at the top.
type Board = [[u8; COLS]; ROWS];

fn parse_rows(structured: &serde_json::Value) -> Option<Board> {
    let rows = structured["rows"].as_array()?;
    let mut board = [[b'.'; COLS]; ROWS];
    for (r, row) in rows.iter().take(ROWS).enumerate() {
        for (c, ch) in row.as_str()?.bytes().take(COLS).enumerate() {
            board[r][c] = ch;
        }
    }
    Some(board)
}

/// The row a piece dropped in `col` lands on, if the column has room.
fn landing_row(board: &Board, col: usize) -> Option<usize> {
    (0..ROWS).rev().find(|&r| board[r][col] == b'.')
}

/// Whether a piece `mark` at `(row, col)` makes four in a row.
fn makes_four(board: &Board, row: usize, col: usize, mark: u8) -> bool {
    let directions = [(0i32, 1i32), (1, 0), (1, 1), (1, -1)];
    directions.iter().any(|&(dr, dc)| {
        let count_from = |sign: i32| {
            let mut n = 0;
            let (mut r, mut c) = (row as i32 + sign * dr, col as i32 + sign * dc);
            while (0..ROWS as i32).contains(&r)
                && (0..COLS as i32).contains(&c)
                && board[r as usize][c as usize] == mark
            {
                n += 1;
                r += sign * dr;
                c += sign * dc;
            }
            n
        };
        1 + count_from(1) + count_from(-1) >= 4
    })
}

/// The win-or-block choice for `mine` against `theirs`, given the legal
/// columns (0-based); `None` when neither a win nor a block exists.
pub fn win_or_block(board: &Board, mine: u8, theirs: u8) -> Option<usize> {
    for mark in [mine, theirs] {
        for col in 0..COLS {
            if let Some(row) = landing_row(board, col)
                && makes_four(board, row, col, mark)
            {
                return Some(col);
            }
        }
    }
    None
}

/// Tactical features per column, from the mover's view: dropping here wins
/// now; dropping here is the opponent's immediate win (a block); dropping
/// here lets the opponent win on the cell just above. All 0 for a full
/// column. The policy net reads these next to the raw board, so it need
/// not learn four-in-a-row geometry from scratch within a CPU budget.
pub fn column_tactics(structured: &serde_json::Value) -> [[f32; 3]; COLS] {
    let mut out = [[0.0; 3]; COLS];
    let Some(board) = parse_rows(structured) else {
        return out;
    };
    let mine = match structured["you"].as_str() {
        Some("O") => b'O',
        _ => b'X',
    };
    let theirs = if mine == b'X' { b'O' } else { b'X' };
    for (col, features) in out.iter_mut().enumerate() {
        let Some(row) = landing_row(&board, col) else {
            continue;
        };
        let mut after = board;
        after[row][col] = mine;
        *features = [
            f32::from(u8::from(makes_four(&board, row, col, mine))),
            f32::from(u8::from(makes_four(&board, row, col, theirs))),
            f32::from(u8::from(
                row > 0 && makes_four(&after, row - 1, col, theirs),
            )),
        ];
    }
    out
}

/// Plays Connect Four by the win-or-block rule, random otherwise.
pub struct WinOrBlockAgent {
    rng: Rng,
}

impl WinOrBlockAgent {
    pub fn new(seed: u64) -> Self {
        WinOrBlockAgent {
            rng: Rng::from_seed(seed),
        }
    }

    /// The column text to play for an observation.
    pub fn choose(&mut self, observation: &verigym_envs::Observation) -> String {
        let legal = observation.legal_actions.clone().unwrap_or_default();
        let s = &observation.structured;
        let mine = s["you"].as_str().and_then(|m| m.bytes().next());
        if let (Some(board), Some(mine)) = (parse_rows(s), mine) {
            let theirs = if mine == b'X' { b'O' } else { b'X' };
            if let Some(col) = win_or_block(&board, mine, theirs) {
                return (col + 1).to_string();
            }
        }
        match self.rng.choose(&legal) {
            Some(a) => a.clone(),
            None => String::new(),
        }
    }
}

impl Agent for WinOrBlockAgent {
    fn name(&self) -> String {
        "win-or-block".into()
    }
    fn start_episode(&mut self, seed: u64) {
        self.rng = Rng::from_seed(seed);
    }
    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        self.choose(turn.observation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use verigym_envs::{DriverConfig, Registry, run_episode};

    fn board(rows: [&str; ROWS]) -> Board {
        let mut b = [[b'.'; COLS]; ROWS];
        for (r, row) in rows.iter().enumerate() {
            b[r].copy_from_slice(row.as_bytes());
        }
        b
    }

    #[test]
    fn takes_a_win_before_a_block() {
        let b = board([
            ".......", ".......", ".......", "O......", "OX.....", "OXXX...",
        ]);
        assert_eq!(win_or_block(&b, b'X', b'O'), Some(4), "X wins on column 5");
        assert_eq!(win_or_block(&b, b'O', b'X'), Some(0), "O wins on column 1");
        let quiet = board([
            ".......", ".......", ".......", ".......", ".......", "...X...",
        ]);
        assert_eq!(win_or_block(&quiet, b'O', b'X'), None);
    }

    #[test]
    fn beats_random_most_of_the_time() {
        let registry = Registry::builtin();
        let mut env = registry.make("games/connect-four-v1", None).unwrap();
        let mut wins = 0;
        for seed in 0..40 {
            let card = env.generate(seed);
            let mut me = WinOrBlockAgent::new(seed);
            let mut other = verigym_envs::driver::RandomAgent::new(seed + 1000);
            let r = run_episode(
                env.as_mut(),
                &card,
                &mut [&mut me, &mut other],
                &DriverConfig::default(),
            )
            .unwrap();
            wins += usize::from(r.returns[0] > 0.0);
        }
        assert!(wins >= 32, "{wins}/40");
    }
}
