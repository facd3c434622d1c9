//! Pieces every game shares: lenient move parsing, two-player results, and a
//! depth-limited alpha-beta search for the board games' oracles.

#[cfg(test)]
use crate::core::{Env, Turn};
use crate::core::{InvalidAction, Player, Preset, Score};
use crate::error::ConfigError;
use crate::rng::Rng;

/// The lowercase alphanumeric words of `text`, in order.
pub fn words(text: &str) -> Vec<String> {
    alnum_words(text).map(str::to_ascii_lowercase).collect()
}

/// The alphanumeric words of `text`, in order, as slices.
fn alnum_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// Finds the one move that `text` names.
///
/// `options` pairs a phrase (matched as whole words, case-insensitively)
/// with the move it means; several phrases may mean the same move. A phrase
/// found inside a longer matched phrase does not count on its own (`bet` in
/// `raise bet`). Text naming two different moves ("3 or 4") is refused, so
/// a hedge never counts as an answer.
///
/// # Errors
/// No move named, or several different ones; `hint` is added to the reason.
pub fn pick<'a, M: PartialEq + Copy>(
    text: &str,
    options: impl IntoIterator<Item = (&'a str, M)>,
    hint: &str,
) -> Result<M, InvalidAction> {
    // Slices, not owned lowercase words, and no per-phrase vectors: this
    // parses every move of every game, and comparisons ignore case anyway.
    let text: Vec<&str> = alnum_words(text).collect();
    let mut found: Vec<(usize, usize, M)> = Vec::new();
    for (phrase, mv) in options {
        let len = alnum_words(phrase).count();
        if len == 0 || len > text.len() {
            continue;
        }
        for start in 0..=text.len() - len {
            if alnum_words(phrase)
                .zip(&text[start..])
                .all(|(p, t)| p.eq_ignore_ascii_case(t))
            {
                found.push((start, start + len, mv));
            }
        }
    }
    let inside = |a: &(usize, usize, M), b: &(usize, usize, M)| {
        b.0 <= a.0 && a.1 <= b.1 && (b.1 - b.0) > (a.1 - a.0)
    };
    // A span can only lie inside one that starts at most `longest` words
    // before it: look there alone, so a reply repeating a move thousands of
    // times stays linear.
    found.sort_by_key(|m| m.0);
    let longest = found.iter().map(|m| m.1 - m.0).max().unwrap_or(0);
    let mut moves: Vec<M> = Vec::new();
    for m in &found {
        let from = found.partition_point(|o| o.0 + longest < m.0);
        let to = found.partition_point(|o| o.0 <= m.0);
        if !found[from..to].iter().any(|o| inside(m, o)) && !moves.contains(&m.2) {
            moves.push(m.2);
        }
    }
    match moves.as_slice() {
        [one] => Ok(*one),
        [] => Err(InvalidAction::new(format!("no legal move found; {hint}"))),
        _ => Err(InvalidAction::new(format!(
            "name exactly one move, not several; {hint}"
        ))),
    }
}

/// A two-player win/draw/loss score: +1 and `passed` for the winner, −1 for
/// the loser, 0 for a draw or an unfinished game.
pub fn win_loss(winner: Option<Player>, over: bool, player: Player) -> Score {
    match winner {
        Some(w) if w == player => Score::default().with(1.0, true).part("win", 1.0),
        Some(_) => Score::default().with(-1.0, false).part("win", 0.0),
        None if over => Score::default().part("draw", 1.0),
        None => Score::default(),
    }
}

/// A score of `margin` for one side of a zero-sum game, `passed` when positive.
pub fn margin_score(margin: f64, name: &str) -> Score {
    Score::default()
        .with(margin, margin > 0.0)
        .part(name, margin)
}

/// For `skip_serializing_if`: a zero count is left out, so configs and
/// tasks from before the field existed keep their hashes.
pub fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Checks a game's `opening_moves` (random moves on the board at the
/// start) against the most it allows.
///
/// # Errors
/// The field, its range and the value.
pub fn validate_opening(moves: usize, most: usize) -> Result<(), ConfigError> {
    if moves <= most {
        Ok(())
    } else {
        Err(format!("opening_moves must be in 0..={most}, got {moves}").into())
    }
}

/// A board game's presets: `standard` (the default config), then the
/// difficulty scale's `easy`, `medium` and `hard` at `levels[0..3]`.
pub const fn standard_then_graded(levels: &'static [&'static str]) -> [Preset; 4] {
    Preset::graded_after::<4>(
        &[Preset {
            name: "standard",
            overrides: "{}",
        }],
        levels,
        [0, 1, 2],
    )
}

/// Value of a won position; wins sooner score higher.
pub const WIN: i32 = 1_000_000;

/// A two-player perfect-information game as alpha-beta sees it. Values are
/// always from player 0's point of view; the mover may move twice in a row
/// (dots and boxes).
pub trait Search: Clone {
    type Move: Copy;
    fn mover(&self) -> Player;
    /// Legal moves, best guesses first (ordering speeds up pruning).
    fn moves(&self) -> Vec<Self::Move>;
    fn play(&mut self, mv: Self::Move);
    /// The winner once the game is over: `Some(Some(p))`, or `Some(None)`
    /// for a draw; `None` while it runs.
    fn outcome(&self) -> Option<Option<Player>>;
    /// Heuristic value for player 0, well inside `±WIN`.
    fn evaluate(&self) -> i32;
}

fn alphabeta<S: Search>(state: &S, depth: u32, ply: i32, mut alpha: i32, mut beta: i32) -> i32 {
    if let Some(outcome) = state.outcome() {
        return match outcome {
            Some(0) => WIN - ply,
            Some(_) => -WIN + ply,
            None => 0,
        };
    }
    if depth == 0 {
        return state.evaluate();
    }
    let maximizing = state.mover() == 0;
    let mut best = if maximizing { i32::MIN } else { i32::MAX };
    for mv in state.moves() {
        let mut next = state.clone();
        next.play(mv);
        let value = alphabeta(&next, depth - 1, ply + 1, alpha, beta);
        if maximizing {
            best = best.max(value);
            alpha = alpha.max(value);
        } else {
            best = best.min(value);
            beta = beta.min(value);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The mover's best move by alpha-beta to `depth` plies (the first of equal
/// ones in `moves` order), or `None` when the game is over.
pub fn best_move<S: Search>(state: &S, depth: u32) -> Option<S::Move> {
    if state.outcome().is_some() {
        return None;
    }
    let sign = if state.mover() == 0 { 1 } else { -1 };
    let mut best: Option<(i32, S::Move)> = None;
    let (mut alpha, beta) = (-WIN - 1, WIN + 1);
    for mv in state.moves() {
        let mut next = state.clone();
        next.play(mv);
        // Search each move with a window just above the best so far.
        let value = if sign == 1 {
            alphabeta(&next, depth.saturating_sub(1), 1, alpha, beta)
        } else {
            -alphabeta(&next, depth.saturating_sub(1), 1, -beta, -alpha)
        };
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, mv));
            alpha = alpha.max(value);
        }
    }
    best.map(|(_, mv)| mv)
}

/// Whether the mover of `state` can win with one move.
fn wins_at_once<S: Search>(state: &S) -> bool {
    let mover = state.mover();
    state.moves().into_iter().any(|mv| {
        let mut next = state.clone();
        next.play(mv);
        next.outcome() == Some(Some(mover))
    })
}

/// The `heuristic` ladder rung for the board games: win at once if a move
/// does; else keep to moves after which the opponent cannot win at once
/// (which blocks its open threats); among those, the one with the best
/// `greedy` score for the mover after it (material, captures, a one-ply
/// look at the oracle's evaluation; a constant for plain win-or-block).
/// Ties go to a random one, so games against the deterministic oracle vary.
/// `None` once the game is over.
pub fn win_block_greedy<S: Search>(
    state: &S,
    rng: &mut Rng,
    greedy: impl Fn(&S, Player) -> i32,
) -> Option<S::Move> {
    if state.outcome().is_some() {
        return None;
    }
    let mover = state.mover();
    let mut moves = state.moves();
    rng.shuffle(&mut moves);
    let mut best: Option<((bool, i32), S::Move)> = None;
    for mv in moves {
        let mut next = state.clone();
        next.play(mv);
        if next.outcome() == Some(Some(mover)) {
            return Some(mv);
        }
        // A mover who keeps the turn (a box completed) is not exposed.
        let safe = next.outcome().is_some() || next.mover() == mover || !wins_at_once(&next);
        let key = (safe, greedy(&next, mover));
        if best.as_ref().is_none_or(|(b, _)| key > *b) {
            best = Some((key, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

/// A [`win_block_greedy`] score: the state's [`Search::evaluate`] seen from
/// `player`'s side.
pub fn evaluation_for<S: Search>(state: &S, player: Player) -> i32 {
    if player == 0 {
        state.evaluate()
    } else {
        -state.evaluate()
    }
}

/// Plays `moves`, as a player would write them, from `game`, each by the
/// player to move: a game's tests set positions up this way. Panics on a
/// refused move or a move after the end.
#[cfg(test)]
pub fn play_moves<E: Env>(mut game: E, moves: &[&str]) -> E {
    for m in moves {
        let Turn::Player(p) = game.turn() else {
            panic!("{m}: the game is over");
        };
        let mv = game.parse_action(p, m).unwrap();
        game.apply(p, mv).unwrap();
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_finds_one_move_and_refuses_hedges() {
        let options = [("check", 0), ("pass", 0), ("bet", 1)];
        assert_eq!(pick("I CHECK.", options, "").unwrap(), 0);
        assert_eq!(pick("pass", options, "").unwrap(), 0);
        assert_eq!(pick("check, I mean pass", options, "").unwrap(), 0);
        assert!(pick("check or bet", options, "").is_err());
        assert!(pick("checkbet", options, "").is_err());
        assert!(pick("", options, "").is_err());
        let numbered = [("take 1 from heap 2", 0), ("take 1 from heap 1", 1)];
        assert_eq!(pick("Take 1 from heap 2", numbered, "").unwrap(), 0);
        assert!(pick("take 1 from heap 12", numbered, "").is_err());
        let nested = [("raise", 0), ("raise bet", 1), ("bet", 2)];
        assert_eq!(pick("raise bet", nested, "").unwrap(), 1);
    }
}
