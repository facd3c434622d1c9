//! `games/chess-v1`: chess, FIDE rules.
//!
//! # Task
//! The standard start position; White (player 0) moves first. No chance:
//! with no opening moves every seed gives the same start.
//!
//! # Action
//! One legal move, in UCI (`e2e4`; promotion `e7e8q`; castling as the
//! king's two-square move, `e1g1`; `e2-e4` and `e7e8=Q` are read too) or
//! in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`; piece letters in capitals). An
//! illegal move is refused, and so is SAN that fits two legal moves (`Nd2`
//! when both knights can go there) and a promotion without its piece. Text
//! naming two different moves is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The rules in brief, the position as FEN and as an 8×8 diagram (rank 8
//! at the top, White in capitals, `.` empty), the move number, the side to
//! move, check, the last move, and the legal moves in UCI. Both players see
//! everything.
//!
//! # Reward
//! Checkmate: +1 to the winner, −1 to the loser. Draws, 0 each: stalemate;
//! the fifty-move rule (100 plies in a row without a capture or a pawn
//! move); threefold repetition (the same pieces on the same squares, side
//! to move, castling rights and legal en passant capture, a third time);
//! insufficient material (no pawns, rooks or queens, and at most one minor
//! piece in all or only bishops all on one colour of square); and, with
//! `max_plies` set, reaching that ply. These draws are automatic, as in
//! OpenSpiel's `chess`, not claimed. Zero-sum; `passed` means a win.
//! Breakdown: `win`, `draw`.
//!
//! # Episode end
//! Checkmate or one of the draws. The fifty-move rule bounds a game at
//! 12,700 plies; `max_plies` caps it sooner.
//!
//! # Parameters
//! `max_plies` (0 = no cap, else 20–1000): plies after which an unfinished
//! game is a draw. `opening_moves` (0–20): random plies already played at
//! the start, none of them ending the game. Presets `standard` (the full
//! game, no cap) and, on the difficulty scale (`LEVELS`), `easy` (a draw at
//! ply 60), `medium` (at ply 160) and `hard` (no cap).
//!
//! # Seeding
//! With no opening moves every seed gives the start position and matters
//! only to random agents; otherwise the seed picks the opening.
//!
//! # Version history
//! v1: first version.

mod rules;
mod search;

use cozy_chess::{Board, Color, Move, Piece, Square};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{
    best_move, is_zero, standard_then_graded, validate_opening, win_block_greedy, win_loss,
};
use crate::rng::Rng;
use rules::{End, FIFTY_MOVES, REPETITIONS};

/// The fifty-move rule's bound on a game: at most 126 captures and pawn
/// moves, each after at most 99 other plies.
const MAX_PLIES: usize = 12_700;
/// Largest `max_plies` a config may set (beyond it, use no cap).
const MAX_CAP: usize = 1_000;
const MIN_CAP: usize = 20;
const MAX_OPENING: usize = 20;
/// Plies the oracle searches.
const ORACLE_DEPTH: u32 = 2;
const COLORS: [&str; 2] = ["White", "Black"];

#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ChessConfig {
    /// Plies after which an unfinished game is a draw; 0 for none.
    #[serde(skip_serializing_if = "is_zero")]
    pub max_plies: usize,
    /// Random plies already played at the start (0–20).
    #[serde(skip_serializing_if = "is_zero")]
    pub opening_moves: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChessTask {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub max_plies: usize,
    /// Plies already played from the start position, in UCI.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opening: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Chess {
    board: Board,
    /// Repetition keys of the positions since the last capture or pawn
    /// move, this one last: only those can recur.
    keys: Vec<u64>,
    plies: usize,
    max_plies: usize,
    /// The last move in UCI, by the side not to move.
    last: Option<String>,
    end: Option<End>,
}

impl Chess {
    fn new(board: Board, max_plies: usize) -> Self {
        let mut game = Chess {
            keys: vec![rules::repetition_key(&board)],
            board,
            plies: 0,
            max_plies,
            last: None,
            end: None,
        };
        game.end = game.judge();
        game
    }

    fn to_move(&self) -> Player {
        rules::seat(self.board.side_to_move())
    }

    /// How the game stands ended, if it has.
    fn judge(&self) -> Option<End> {
        let board = &self.board;
        if !rules::can_move(board) {
            return Some(if board.checkers().is_empty() {
                End::Stalemate
            } else {
                End::Checkmate(1 - self.to_move())
            });
        }
        let key = *self.keys.last().expect("the current position's key");
        if rules::insufficient_material(board) {
            Some(End::Material)
        } else if self.keys.iter().filter(|&&k| k == key).count() >= REPETITIONS {
            Some(End::Repetition)
        } else if board.halfmove_clock() >= FIFTY_MOVES {
            Some(End::FiftyMoves)
        } else if self.max_plies > 0 && self.plies >= self.max_plies {
            Some(End::PlyCap)
        } else {
            None
        }
    }

    /// Plays a legal move.
    fn play_move(&mut self, mv: Move) {
        let board = &self.board;
        let capture = board.colors(!board.side_to_move()).has(mv.to);
        let irreversible = capture || board.piece_on(mv.from) == Some(Piece::Pawn);
        self.last = Some(rules::uci(board, mv));
        self.board.play_unchecked(mv);
        if irreversible {
            self.keys.clear();
        }
        self.keys.push(rules::repetition_key(&self.board));
        self.plies += 1;
        self.end = self.judge();
    }

    /// The legal moves and their UCI names, sorted by name; none once the
    /// game is over.
    fn legal(&self) -> Vec<(String, Move)> {
        if self.end.is_some() {
            return Vec::new();
        }
        let mut moves: Vec<(String, Move)> = rules::legal_moves(&self.board)
            .into_iter()
            .map(|mv| (rules::uci(&self.board, mv), mv))
            .collect();
        moves.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        moves
    }

    /// The board, rank 8 first, White in capitals, `.` empty.
    fn diagram(&self) -> String {
        let mut rows = Vec::with_capacity(9);
        for rank in (0..8).rev() {
            let mut row = format!("{} ", rank + 1);
            for file in 0..8 {
                let sq = Square::index(rank * 8 + file);
                let c = match (self.board.piece_on(sq), self.board.color_on(sq)) {
                    (Some(p), Some(Color::White)) => char::from(p).to_ascii_uppercase(),
                    (Some(p), _) => char::from(p),
                    _ => '.',
                };
                row.push(' ');
                row.push(c);
            }
            rows.push(row);
        }
        rows.push("   a b c d e f g h".to_string());
        rows.join("\n")
    }

    fn status(&self, player: Player, legal: &[String]) -> String {
        match self.end {
            Some(End::Checkmate(w)) if w == player => "Game over: checkmate, you win.".to_string(),
            Some(End::Checkmate(_)) => "Game over: checkmate, you lose.".to_string(),
            Some(end) => format!("Game over: {}.", end.describe()),
            None if self.to_move() == player => format!(
                "Your move: reply with one legal move in UCI like `e2e4` (promotion `e7e8q`, castling `e1g1`) \
                 or in SAN like `Nf3`. Legal moves: {}.",
                legal.join(", ")
            ),
            None => "Waiting for the opponent.".to_string(),
        }
    }
}

impl Env for Chess {
    type Config = ChessConfig;
    type Task = ChessTask;
    type Action = Move;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/chess-v1",
        kind: EnvKind::Game,
        description: "Chess, FIDE rules (castling, en passant, promotion; fifty-move, threefold and dead-position draws); alpha-beta oracle (2 plies, material + mobility)",
        players: 2,
        max_steps: MAX_PLIES,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &standard_then_graded(Self::LEVELS),
    };

    /// A later ply cap, then none: more of the game to play.
    const LEVELS: &'static [&'static str] =
        &[r#"{"max_plies": 60}"#, r#"{"max_plies": 160}"#, "{}"];

    /// Plies the game may last.
    fn effort(task: &ChessTask) -> Option<f64> {
        let cap = if task.max_plies == 0 {
            MAX_PLIES
        } else {
            task.max_plies
        };
        Some(cap.saturating_sub(task.opening.len()) as f64)
    }

    fn validate(config: &ChessConfig) -> Result<(), ConfigError> {
        if config.max_plies != 0 && !(MIN_CAP..=MAX_CAP).contains(&config.max_plies) {
            return Err(format!(
                "max_plies must be 0 (no cap) or in {MIN_CAP}..={MAX_CAP}, got {}",
                config.max_plies
            )
            .into());
        }
        validate_opening(config.opening_moves, MAX_OPENING)
    }

    fn generate(config: &ChessConfig, rng: &mut Rng) -> ChessTask {
        let mut game = Chess::new(Board::default(), 0);
        let mut opening = Vec::new();
        while opening.len() < config.opening_moves {
            let quiet: Vec<(String, Move)> = game
                .legal()
                .into_iter()
                .filter(|(_, mv)| {
                    let mut next = game.clone();
                    next.play_move(*mv);
                    next.end.is_none()
                })
                .collect();
            let Some((name, mv)) = rng.choose(&quiet).cloned() else {
                break;
            };
            game.play_move(mv);
            opening.push(name);
        }
        ChessTask {
            max_plies: config.max_plies,
            opening,
        }
    }

    fn reset(task: &ChessTask, _rng: Rng) -> Self {
        let mut game = Chess::new(Board::default(), task.max_plies);
        for name in &task.opening {
            let mv = rules::read_move(&game.board, name).expect("a card's opening is legal");
            game.play_move(mv);
        }
        game
    }

    fn turn(&self) -> Turn {
        if self.end.is_some() {
            Turn::Over
        } else {
            Turn::Player(self.to_move())
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let legal: Vec<String> = if self.to_move() == player {
            self.legal().into_iter().map(|(name, _)| name).collect()
        } else {
            Vec::new()
        };
        let cap = if self.max_plies > 0 {
            format!(", and reaching ply {}", self.max_plies)
        } else {
            String::new()
        };
        let mover = match self.end {
            Some(_) => String::new(),
            None if self.board.checkers().is_empty() => {
                format!(": {} to move", COLORS[self.to_move()])
            }
            None => format!(": {} to move (in check)", COLORS[self.to_move()]),
        };
        let last = self.last.as_deref().map_or(String::new(), |m| {
            format!(" Last move: {m} by {}.", COLORS[1 - self.to_move()])
        });
        let side = if player == 0 {
            "White (capital letters, moving up from rank 1)"
        } else {
            "Black (small letters, moving down from rank 8)"
        };
        let fen = self.board.to_string();
        Observation {
            text: format!(
                "Chess, FIDE rules. You play {side}; White moves first. K king, Q queen, R rook, B bishop, \
                 N knight, P pawn. Castling, en passant and promotion are allowed; checkmate wins. Draws: \
                 stalemate, 50 moves by each side without a capture or a pawn move, the same position for \
                 the third time, too little material to mate{cap}.\nFEN: {fen}\n{}\nPly {}, move {}{mover}.{last}\n{}",
                self.diagram(),
                self.plies + 1,
                self.board.fullmove_number(),
                self.status(player, &legal),
            ),
            structured: json!({
                "fen": fen,
                "you": COLORS[player].to_lowercase(),
                "to_move": if self.end.is_some() { json!(null) } else { json!(self.to_move()) },
                "plies": self.plies,
                "last_move": self.last,
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Move, InvalidAction> {
        rules::read_move(&self.board, text)
    }

    fn apply(&mut self, _player: Player, mv: Move) -> Result<Vec<String>, InvalidAction> {
        if self.end.is_some() || !self.board.is_legal(mv) {
            return Err(InvalidAction::new(format!("{mv} is not a legal move now")));
        }
        let mover = COLORS[self.to_move()];
        self.play_move(mv);
        let name = self.last.clone().unwrap_or_default();
        let mut events = vec![format!("{mover} plays {name}")];
        match self.end {
            Some(end) => events.push(end.describe().to_string()),
            None if !self.board.checkers().is_empty() => events.push("check".to_string()),
            None => {}
        }
        Ok(events)
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.end.and_then(End::winner), self.end.is_some(), player)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        best_move(self, ORACLE_DEPTH).map(|mv| rules::uci(&self.board, mv))
    }

    /// Mate at once if a move does; else keep to moves after which the
    /// opponent cannot mate at once; among those the most material for
    /// the mover (random among equals).
    fn heuristic(&self, _player: Player, rng: &mut Rng) -> Option<String> {
        let mv = win_block_greedy(
            self,
            rng,
            |s, p| {
                if p == 0 { s.material() } else { -s.material() }
            },
        )?;
        Some(rules::uci(&self.board, mv))
    }

    /// A uniformly random legal move, without building the observation.
    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let moves = rules::legal_moves(&self.board);
        match rng.choose(&moves) {
            Some(&mv) if self.end.is_none() => rules::uci(&self.board, mv),
            _ => String::new(),
        }
    }

    fn render(&self) -> String {
        format!("{}\n{}", self.board, self.diagram())
    }
}

#[cfg(test)]
mod tests;
