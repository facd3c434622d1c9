//! `games/go-9x9-v1`: Go on a 9×9 board with area (Tromp-Taylor) scoring.
//!
//! # Task
//! The empty board; Black (X, player 0) moves first, White (O, player 1)
//! gets the komi (default 7.5). Each turn the mover places a stone on an
//! empty point or passes. A group (stones joined up, down, left or right)
//! left with no empty point next to it (no liberty) is captured and
//! removed. Suicide (a move that leaves its own group without liberties and
//! captures nothing) is illegal, and so is any move that recreates an
//! earlier whole-board position (positional superko; this covers the
//! immediate ko recapture). No chance: with no opening moves every seed
//! gives the same start.
//!
//! # Action
//! A point like `D4`: column letter `A`–`J` without `I` (A on the left),
//! then row number `1`–`9` (1 at the bottom), any case; or `pass`. An
//! illegal move is refused with the reason (taken, suicide, superko), and
//! so is text naming two different moves.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The rules in brief, the board (row 9 at the top, `X` Black, `O` White,
//! `.` empty) framed by the column letters and row numbers, the ply and
//! the ply cap, the stones each side has captured, the last move, the
//! area score if the game ended now, whose turn it is and the legal moves
//! (pass, and every empty point but the named illegal ones). Both players
//! see everything.
//!
//! # Reward
//! At the end each side's area is its stones plus the empty points whose
//! region touches only its stones (Tromp-Taylor: dead stones are not
//! removed, so capture them before the end); White adds the komi. +1 to
//! the higher total, −1 to the other, 0 each for equal totals (an integer
//! komi) or a superko draw (zero-sum). `passed` means a win. Breakdown:
//! `win`, `draw`, and at the end `margin` (own total minus the other's).
//!
//! # Episode end
//! Two passes in a row, or the ply cap `max_plies` (default 162, twice the
//! points, as OpenSpiel's `max_game_length`): either way the board is
//! scored as it stands. Under `superko: "draw"` also a move that recreates
//! an earlier position, which ends the game as a draw.
//!
//! # Parameters
//! `komi` (−81 to 81 in steps of 0.5, default 7.5). `max_plies` (1–400,
//! default 162), counting the opening moves. `superko`: `"illegal"`
//! (default) or `"draw"`, OpenSpiel's variant: only the immediate ko
//! recapture is illegal, and any other move recreating an earlier position
//! ends the game as a draw. `opening_moves` (0–40, fewer than `max_plies`,
//! default 0): random moves that capture nothing and fill no eye, already
//! on the board. On the difficulty scale (`LEVELS`) the presets `easy` (30
//! opening moves), `medium` (14) and `hard` (the empty board).
//!
//! # Seeding
//! With no opening moves every seed gives the empty board and matters only
//! to random agents; otherwise the seed picks the opening.
//!
//! # Version history
//! v1: first version.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{is_zero, validate_opening, win_loss};
use crate::rng::Rng;

mod board;
mod players;
mod text;

pub use board::Board;
use board::{POINTS, is_eye, parse_point, point_name, points};

/// Most plies a config may allow, and OpenSpiel's default cap (twice the
/// points).
const MAX_PLIES: usize = 400;
const DEFAULT_PLIES: usize = 2 * POINTS;
const MAX_OPENING: usize = 40;
/// Largest komi either way (the whole board).
const MAX_KOMI: f64 = POINTS as f64;
const COLOURS: [&str; 2] = ["Black", "White"];
const STONES: [char; 2] = ['X', 'O'];

/// What a move recreating an earlier whole-board position does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Superko {
    /// Positional superko: the move is illegal.
    #[default]
    Illegal,
    /// OpenSpiel's rule: the immediate ko recapture is illegal; any other
    /// such move is legal and ends the game as a draw.
    Draw,
}

fn is_illegal(s: &Superko) -> bool {
    *s == Superko::Illegal
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GoConfig {
    /// Points White adds to its area, a multiple of 0.5 in −81..=81.
    pub komi: f64,
    /// Plies (opening moves included) after which the board is scored as it
    /// stands, 1..=400.
    pub max_plies: usize,
    #[serde(skip_serializing_if = "is_illegal")]
    pub superko: Superko,
    /// Random moves already on the board (0–40): no capture, no eye filled.
    #[serde(skip_serializing_if = "is_zero")]
    pub opening_moves: usize,
}

impl Default for GoConfig {
    fn default() -> Self {
        GoConfig {
            komi: 7.5,
            max_plies: DEFAULT_PLIES,
            superko: Superko::Illegal,
            opening_moves: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoTask {
    pub komi: f64,
    pub max_plies: usize,
    #[serde(default, skip_serializing_if = "is_illegal")]
    pub superko: Superko,
    /// Points (`row * 9 + col`, row 0 at the bottom) played alternately
    /// from Black before the episode starts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opening: Vec<usize>,
}

/// A parsed move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Pass,
    Place(usize),
}

fn move_name(mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Place(p) => point_name(p),
    }
}

/// Why a placement is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Illegal {
    Taken,
    Suicide,
    Superko,
    Ko,
}

/// One episode.
#[derive(Clone, Debug)]
pub struct Go {
    board: Board,
    to_move: Player,
    /// Komi in half points.
    komi2: i32,
    max_plies: usize,
    superko: Superko,
    plies: usize,
    /// Passes in a row just played.
    passes: usize,
    /// Stones each colour has captured.
    captures: [u32; 2],
    /// Every whole-board position so far, the current one included.
    seen: HashSet<Board>,
    /// The board before the last ply (the immediate ko recapture would
    /// recreate it).
    previous: Board,
    last: Option<Move>,
    /// A superko repetition ended the game (`Superko::Draw`).
    repeated: bool,
}

impl Go {
    fn new(komi: f64, max_plies: usize, superko: Superko) -> Self {
        Go {
            board: Board::default(),
            to_move: 0,
            komi2: (komi * 2.0).round() as i32,
            max_plies,
            superko,
            plies: 0,
            passes: 0,
            captures: [0; 2],
            seen: HashSet::from([Board::default()]),
            previous: Board::default(),
            last: None,
            repeated: false,
        }
    }

    fn over(&self) -> bool {
        self.repeated || self.passes >= 2 || self.plies >= self.max_plies
    }

    /// The board after the mover plays `point` and the stones captured, or
    /// why it is illegal. Under `Superko::Draw` a repetition other than
    /// the immediate recapture is legal (it ends the game).
    fn placement(&self, point: usize) -> Result<(Board, u32), Illegal> {
        if self.board.at(point).is_some() {
            return Err(Illegal::Taken);
        }
        let (next, captured) = self
            .board
            .play(point, self.to_move)
            .ok_or(Illegal::Suicide)?;
        match self.superko {
            Superko::Illegal if self.seen.contains(&next) => Err(Illegal::Superko),
            Superko::Draw if next == self.previous => Err(Illegal::Ko),
            _ => Ok((next, captured)),
        }
    }

    /// Legal points in order (pass is always legal too); none once over.
    fn legal_points(&self) -> Vec<usize> {
        if self.over() {
            return Vec::new();
        }
        points(self.board.empty())
            .filter(|&p| self.placement(p).is_ok())
            .collect()
    }

    /// Plays a legal move.
    fn play(&mut self, mv: Move) {
        let before = self.board;
        match mv {
            Move::Pass => self.passes += 1,
            Move::Place(p) => {
                let (next, captured) = self.placement(p).expect("a legal move");
                self.board = next;
                self.captures[self.to_move] += captured;
                self.passes = 0;
                self.repeated = !self.seen.insert(next);
            }
        }
        self.previous = before;
        self.last = Some(mv);
        self.plies += 1;
        self.to_move = 1 - self.to_move;
    }

    /// The winner if the game ended now (`None` for equal totals).
    fn leader(&self) -> Option<Player> {
        match self.board.score2(self.komi2) {
            s if s > 0 => Some(0),
            s if s < 0 => Some(1),
            _ => None,
        }
    }

    fn winner(&self) -> Option<Player> {
        if self.over() && !self.repeated {
            self.leader()
        } else {
            None
        }
    }
}

impl Env for Go {
    type Config = GoConfig;
    type Task = GoTask;
    type Action = Move;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/go-9x9-v1",
        kind: EnvKind::Game,
        description: "Go on a 9x9 board, area scoring, komi 7.5, positional superko; 2-ply search oracle (influence and atari evaluation)",
        players: 2,
        max_steps: MAX_PLIES,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &Preset::graded(Self::LEVELS, [0, 1, 2]),
    };

    /// Fewer random opening moves, more game to play.
    const LEVELS: &'static [&'static str] =
        &[r#"{"opening_moves": 30}"#, r#"{"opening_moves": 14}"#, "{}"];

    /// Plies left to play times the points each may choose from.
    fn effort(task: &GoTask) -> Option<f64> {
        Some(((task.max_plies - task.opening.len().min(task.max_plies)) * POINTS) as f64)
    }

    fn validate(config: &GoConfig) -> Result<(), ConfigError> {
        let komi = config.komi;
        if !komi.is_finite() || komi.abs() > MAX_KOMI || (komi * 2.0).fract() != 0.0 {
            return Err(format!(
                "komi must be a multiple of 0.5 in -{MAX_KOMI}..={MAX_KOMI}, got {komi}"
            )
            .into());
        }
        if !(1..=MAX_PLIES).contains(&config.max_plies) {
            return Err(format!(
                "max_plies must be in 1..={MAX_PLIES}, got {}",
                config.max_plies
            )
            .into());
        }
        validate_opening(config.opening_moves, MAX_OPENING)?;
        if config.opening_moves >= config.max_plies {
            return Err(format!(
                "opening_moves must be fewer than max_plies ({}), got {}",
                config.max_plies, config.opening_moves
            )
            .into());
        }
        Ok(())
    }

    fn generate(config: &GoConfig, rng: &mut Rng) -> GoTask {
        let mut game = Go::new(config.komi, config.max_plies, config.superko);
        let mut opening = Vec::new();
        while opening.len() < config.opening_moves {
            let me = game.to_move;
            let quiet: Vec<usize> = points(game.board.empty())
                .filter(|&p| !is_eye(&game.board, p, me) && matches!(game.placement(p), Ok((_, 0))))
                .collect();
            let Some(&p) = rng.choose(&quiet) else {
                break;
            };
            game.play(Move::Place(p));
            opening.push(p);
        }
        GoTask {
            komi: config.komi,
            max_plies: config.max_plies,
            superko: config.superko,
            opening,
        }
    }

    fn reset(task: &GoTask, _rng: Rng) -> Self {
        let mut game = Go::new(task.komi, task.max_plies, task.superko);
        for &p in &task.opening {
            game.play(Move::Place(p));
        }
        game
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let legal: Vec<String> = if self.to_move == player && !self.over() {
            let mut legal: Vec<String> = self.legal_points().into_iter().map(point_name).collect();
            legal.push("pass".to_string());
            legal
        } else {
            Vec::new()
        };
        let last = match self.last {
            None => "none".to_string(),
            Some(mv) => format!("{} {}", COLOURS[1 - self.to_move], move_name(mv)),
        };
        let text = format!(
            "Go on a 9x9 board, area scoring, komi {}. You play {} ({}); Black (X) moves first \
             and White (O) gets the komi. {}\n{}\nPly {} of at most {}. Captured: Black has \
             taken {} stones, White {}. Last move: {last}.\nScore if the game ended now: {}.\n{}",
            self.komi_text(),
            COLOURS[player],
            STONES[player],
            self.rules(),
            self.grid(),
            self.plies,
            self.max_plies,
            self.captures[0],
            self.captures[1],
            self.totals(),
            self.status(player),
        );
        Observation {
            text,
            structured: json!({
                "rows": self.board.rows(),
                "you": COLOURS[player],
                "to_move": if self.over() { json!(null) } else { json!(self.to_move) },
                "komi": f64::from(self.komi2) / 2.0,
                "ply": self.plies,
                "max_plies": self.max_plies,
                "captures": self.captures,
                "area": self.board.area(),
                "last_move": self.last.map(move_name),
            }),
            legal_actions: Some(legal),
        }
    }

    /// The one move the words of `text` name; two different ones are a
    /// hedge. Reads each word once.
    fn parse_action(&self, _player: Player, text: &str) -> Result<Move, InvalidAction> {
        let hint = "reply with one point like `D4` (columns A-J without I, rows 1-9), or `pass`";
        let mut found = None;
        for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
            let mv = if word.eq_ignore_ascii_case("pass") {
                Some(Move::Pass)
            } else {
                parse_point(word).map(Move::Place)
            };
            match (found, mv) {
                (Some(f), Some(m)) if f != m => {
                    return Err(InvalidAction::new(format!(
                        "name exactly one move, not several; {hint}"
                    )));
                }
                (_, Some(m)) => found = Some(m),
                _ => {}
            }
        }
        found.ok_or_else(|| InvalidAction::new(format!("no move found; {hint}")))
    }

    fn apply(&mut self, _player: Player, mv: Move) -> Result<Vec<String>, InvalidAction> {
        if let Move::Place(p) = mv {
            let name = point_name(p);
            match self.placement(p) {
                Ok(_) => {}
                Err(Illegal::Taken) => return Err(format!("{name} is taken").into()),
                Err(Illegal::Suicide) => {
                    return Err(format!(
                        "{name} is suicide: your group there would have no liberty and capture nothing"
                    )
                    .into());
                }
                Err(Illegal::Superko) => {
                    return Err(format!(
                        "{name} recreates an earlier whole-board position (superko)"
                    )
                    .into());
                }
                Err(Illegal::Ko) => {
                    return Err(format!("{name} retakes the ko at once").into());
                }
            }
        }
        let mover = self.to_move;
        let captured_before = self.captures[mover];
        self.play(mv);
        let mut events = Vec::new();
        let captured = self.captures[mover] - captured_before;
        if captured > 0 {
            events.push(format!(
                "{} {} captures {captured} stone{}",
                COLOURS[mover],
                move_name(mv),
                if captured == 1 { "" } else { "s" }
            ));
        }
        if self.over() {
            events.push(match self.winner() {
                Some(w) => format!("{} wins: {}", COLOURS[w], self.totals()),
                None if self.repeated => "draw: a position repeated".to_string(),
                None => format!("draw: {}", self.totals()),
            });
        }
        Ok(events)
    }

    fn score(&self, player: Player) -> Score {
        let score = win_loss(self.winner(), self.over(), player);
        if self.over() && !self.repeated {
            let margin = f64::from(self.board.score2(self.komi2)) / 2.0;
            score.part("margin", if player == 0 { margin } else { -margin })
        } else {
            score
        }
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        players::oracle(self).map(move_name)
    }

    /// Capture, else save a group in atari, else a random move that fills
    /// no own eye and is no self-atari; pass when nothing is left.
    fn heuristic(&self, _player: Player, rng: &mut Rng) -> Option<String> {
        players::heuristic(self, rng).map(move_name)
    }

    fn render(&self) -> String {
        format!("{}\n{}", self.grid(), self.status(self.to_move))
    }
}

#[cfg(test)]
mod tests;
