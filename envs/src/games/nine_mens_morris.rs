//! `games/nine-mens-morris-v1`: Nine men's morris.
//!
//! # Task
//! The empty board: 24 points on three nested squares whose side midpoints
//! are joined, named like a 7×7 grid (`a1` bottom left, `g7` top right,
//! `d4` the empty centre). W (player 0) moves first; each player has nine
//! men. No chance.
//!
//! # Action
//! While you still have men to place: an empty point, like `d6`. Once all
//! nine are placed: a man and where it goes, like `d6-d5` (or `d6 to d5`),
//! along a line to the adjacent empty point; with exactly three men left a
//! man may fly to any empty point. Three of your men in a line (a mill,
//! one of the 16 rows and columns of three points) made by your placement
//! or move let you remove one of the opponent's men at once, as a turn of
//! its own: its point, like `f4`. Men in a mill may be removed only when all
//! the opponent's men are in mills; with none on the board there is no
//! removal. Anything else, or text naming two moves, is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The board drawn with its lines (W and B men, `.` empty), each side's men
//! left to place and on the board, the turn count, whose turn it is and
//! the legal moves. Both players see everything.
//!
//! # Reward
//! +1 to the winner, −1 to the loser (zero-sum); 0 each for a draw. You
//! lose when reduced to two men, or when you cannot move on your turn. The
//! game is drawn after 200 turns (a removal belongs to the turn that made
//! the mill), as in OpenSpiel's `nine_mens_morris`. `passed` means a win.
//! Breakdown: `win`, `draw`.
//!
//! # Episode end
//! A win or the 200-turn draw (at most 214 actions, counting removals).
//!
//! # Parameters
//! `opening_moves` (0–12, default 0): random placements, none making a
//! mill, already on the board. Presets `standard` (empty board) and, on the
//! difficulty scale (`LEVELS`), `easy` (12 opening placements), `medium`
//! (6), `hard` (none).
//!
//! # Seeding
//! With no opening moves every seed gives the empty board and matters only
//! to random agents; otherwise the seed picks the opening.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{
    Search, best_move, evaluation_for, is_zero, standard_then_graded, validate_opening,
    win_block_greedy, win_loss,
};
use crate::rng::Rng;

const POINTS: usize = 24;
const MEN: u8 = 9;
/// Turns after which the game is drawn.
pub const TURN_LIMIT: usize = 200;
/// Most actions in a game: every turn plus one removal per man taken
/// until a side is down to two.
const MAX_ACTIONS: usize = TURN_LIMIT + 2 * (MEN as usize - 2);
/// Most random opening placements.
const MAX_OPENING: usize = 12;
/// Plies the oracle searches (a removal is a ply of its own).
const ORACLE_DEPTH: u32 = 3;
const MEN_CHARS: [char; 2] = ['W', 'B'];

#[path = "nine_mens_morris_board.rs"]
mod board;
use board::{DRAWING, LINE_MASKS, NAMES, NEIGHBOUR_MASKS, neighbours, partners};

/// One action: a placement, a move (from, to), or the removal after a mill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MorrisMove {
    Place(usize),
    Step(usize, usize),
    Remove(usize),
}

impl MorrisMove {
    fn name(self) -> String {
        match self {
            MorrisMove::Place(p) | MorrisMove::Remove(p) => NAMES[p].to_string(),
            MorrisMove::Step(from, to) => format!("{}-{}", NAMES[from], NAMES[to]),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MorrisConfig {
    /// Random placements already on the board at the start (0–12), none
    /// of them making a mill.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub opening_moves: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MorrisTask {
    /// Points (0–23, in the drawing's order) already placed, alternately from W.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opening: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NineMensMorris {
    board: [Option<Player>; POINTS],
    to_place: [u8; 2],
    /// Men each side still has, placed or not.
    men: [u8; 2],
    mover: Player,
    /// The mover made a mill and now removes a man.
    removing: bool,
    turns: usize,
}

impl NineMensMorris {
    fn new() -> Self {
        NineMensMorris {
            board: [None; POINTS],
            to_place: [MEN; 2],
            men: [MEN; 2],
            mover: 0,
            removing: false,
            turns: 0,
        }
    }

    fn in_mill(&self, p: usize) -> bool {
        self.board[p].is_some() && self.closes_mill(p, self.board[p], None)
    }

    /// Whether a man of `owner` on `p` lies on a full line of `owner`'s men,
    /// with `vacated` (the point a stepping man leaves) counted empty.
    fn closes_mill(&self, p: usize, owner: Option<Player>, vacated: Option<usize>) -> bool {
        partners(p).iter().any(|line| {
            line.iter()
                .all(|&q| Some(q) != vacated && self.board[q] == owner)
        })
    }

    fn on_board(&self, player: Player) -> impl Iterator<Item = usize> + '_ {
        (0..POINTS).filter(move |&p| self.board[p] == Some(player))
    }

    /// Each side's men as bit masks (bit `p` for point `p`).
    fn masks(&self) -> [u32; 2] {
        let mut masks = [0; 2];
        for (p, owner) in self.board.iter().enumerate() {
            if let Some(owner) = owner {
                masks[*owner] |= 1 << p;
            }
        }
        masks
    }

    fn flying(&self, player: Player) -> bool {
        self.to_place[player] == 0 && self.men[player] == 3
    }

    /// The mover's legal actions, sorted; none once the game is over.
    pub fn legal(&self) -> Vec<MorrisMove> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        self.actions()
    }

    fn actions(&self) -> Vec<MorrisMove> {
        let me = self.mover;
        let empty: Vec<usize> = (0..POINTS).filter(|&p| self.board[p].is_none()).collect();
        if self.removing {
            let theirs: Vec<usize> = self.on_board(1 - me).collect();
            let all_in_mills = theirs.iter().all(|&p| self.in_mill(p));
            return theirs
                .into_iter()
                .filter(|&p| all_in_mills || !self.in_mill(p))
                .map(MorrisMove::Remove)
                .collect();
        }
        if self.to_place[me] > 0 {
            return empty.into_iter().map(MorrisMove::Place).collect();
        }
        let flying = self.flying(me);
        let mut moves = Vec::new();
        for from in self.on_board(me) {
            if flying {
                moves.extend(empty.iter().map(|&to| MorrisMove::Step(from, to)));
            } else {
                moves.extend(
                    neighbours(from)
                        .iter()
                        .filter(|&&to| self.board[to].is_none())
                        .map(|&to| MorrisMove::Step(from, to)),
                );
            }
        }
        moves.sort_unstable();
        moves
    }

    /// Whether the mover has any action (cheaper than listing them).
    fn can_act(&self) -> bool {
        let me = self.mover;
        if self.removing || self.to_place[me] > 0 || self.flying(me) {
            return true;
        }
        let masks = self.masks();
        let empty = !(masks[0] | masks[1]) & ((1 << POINTS) - 1);
        let mut men = masks[me];
        while men != 0 {
            let p = men.trailing_zeros() as usize;
            if NEIGHBOUR_MASKS[p] & empty != 0 {
                return true;
            }
            men &= men - 1;
        }
        false
    }

    /// Applies a legal action.
    fn play_move(&mut self, mv: MorrisMove) {
        let me = self.mover;
        let landed = match mv {
            MorrisMove::Place(p) => {
                self.board[p] = Some(me);
                self.to_place[me] -= 1;
                Some(p)
            }
            MorrisMove::Step(from, to) => {
                self.board[from] = None;
                self.board[to] = Some(me);
                Some(to)
            }
            MorrisMove::Remove(p) => {
                self.board[p] = None;
                self.men[1 - me] -= 1;
                self.removing = false;
                None
            }
        };
        if landed.is_some_and(|p| self.in_mill(p)) && self.on_board(1 - me).next().is_some() {
            self.removing = true;
        } else {
            self.mover = 1 - me;
            self.turns += 1;
        }
    }

    /// Why `mv` is illegal now, if it is.
    fn refusal(&self, mv: MorrisMove) -> Option<String> {
        if self.actions().contains(&mv) {
            return None;
        }
        let placing = self.to_place[self.mover] > 0;
        Some(match mv {
            _ if self.removing => "you made a mill: remove one of the opponent's men, \
                 outside mills unless all are in mills"
                .to_string(),
            MorrisMove::Place(p) if placing => format!("{} is taken", NAMES[p]),
            MorrisMove::Step(from, to) if !placing => format!(
                "{}-{} is no legal move: move one of your men to an empty point next to it \
                 along a line (to any empty point once you have three men)",
                NAMES[from], NAMES[to]
            ),
            _ if placing => "you still have men to place: name an empty point".to_string(),
            _ => "all your men are placed: move one, like `d6-d5`".to_string(),
        })
    }

    fn grid(&self) -> String {
        let mut points = self.board.iter();
        let lines: Vec<String> = DRAWING
            .iter()
            .enumerate()
            .map(|(r, line)| {
                let label = if r % 2 == 0 {
                    (7 - r / 2).to_string()
                } else {
                    " ".to_string()
                };
                let row: String = line
                    .chars()
                    .map(|c| match c {
                        '*' => points.next().unwrap().map_or('.', |p| MEN_CHARS[p]),
                        c => c,
                    })
                    .collect();
                format!("{label} {row}")
            })
            .collect();
        format!("{}\n  a   b   c   d   e   f   g", lines.join("\n"))
    }
}

impl Search for NineMensMorris {
    type Move = MorrisMove;

    fn mover(&self) -> Player {
        self.mover
    }

    /// Legal actions, those that make a mill first.
    fn moves(&self) -> Vec<MorrisMove> {
        let mut moves = self.legal();
        let me = Some(self.mover);
        moves.sort_by_key(|&mv| match mv {
            MorrisMove::Place(p) => !self.closes_mill(p, me, None),
            MorrisMove::Step(from, to) => !self.closes_mill(to, me, Some(from)),
            MorrisMove::Remove(_) => true,
        });
        moves
    }

    fn play(&mut self, mv: MorrisMove) {
        self.play_move(mv);
    }

    fn outcome(&self) -> Option<Option<Player>> {
        if let Some(p) = (0..2).find(|&p| self.men[p] <= 2) {
            return Some(Some(1 - p));
        }
        if !self.can_act() {
            return Some(Some(1 - self.mover));
        }
        (self.turns >= TURN_LIMIT).then_some(None)
    }

    /// Men (a pending removal counting as made), then half-made mills
    /// (two men and an empty point), then mobility.
    fn evaluate(&self) -> i32 {
        let mut score = 100 * (i32::from(self.men[0]) - i32::from(self.men[1]));
        if self.removing {
            score += if self.mover == 0 { 100 } else { -100 };
        }
        let [white, black] = self.masks();
        let empty = !(white | black) & ((1 << POINTS) - 1);
        for line in LINE_MASKS {
            match ((white & line).count_ones(), (black & line).count_ones()) {
                (2, 0) => score += 10,
                (0, 2) => score -= 10,
                _ => {}
            }
        }
        let mobility = |mut men: u32| {
            let mut moves = 0;
            while men != 0 {
                let p = men.trailing_zeros() as usize;
                moves += (NEIGHBOUR_MASKS[p] & empty).count_ones() as i32;
                men &= men - 1;
            }
            moves
        };
        score + 2 * (mobility(white) - mobility(black))
    }
}

impl Env for NineMensMorris {
    type Config = MorrisConfig;
    type Task = MorrisTask;
    type Action = MorrisMove;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/nine-mens-morris-v1",
        kind: EnvKind::Game,
        description: "Nine men's morris (placing, moving, flying, mills); alpha-beta oracle (3 plies, men, half-mills, mobility)",
        players: 2,
        max_steps: MAX_ACTIONS,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &standard_then_graded(Self::LEVELS),
    };

    /// Fewer random opening placements, more game to play.
    const LEVELS: &'static [&'static str] =
        &[r#"{"opening_moves": 12}"#, r#"{"opening_moves": 6}"#, "{}"];

    /// Turns left before the draw times the points a move may choose from.
    fn effort(task: &MorrisTask) -> Option<f64> {
        Some(((TURN_LIMIT - task.opening.len()) * POINTS) as f64)
    }

    fn validate(config: &MorrisConfig) -> Result<(), ConfigError> {
        validate_opening(config.opening_moves, MAX_OPENING)
    }

    fn generate(config: &MorrisConfig, rng: &mut Rng) -> MorrisTask {
        let mut game = NineMensMorris::new();
        let mut opening = Vec::new();
        while opening.len() < config.opening_moves {
            // Empty points where the mover's man makes no mill.
            let quiet: Vec<usize> = (0..POINTS)
                .filter(|&p| game.board[p].is_none())
                .filter(|&p| {
                    let mut next = game.clone();
                    next.board[p] = Some(next.mover);
                    !next.in_mill(p)
                })
                .collect();
            let Some(&p) = rng.choose(&quiet) else {
                break;
            };
            game.play_move(MorrisMove::Place(p));
            opening.push(p);
        }
        MorrisTask { opening }
    }

    fn reset(task: &MorrisTask, _rng: Rng) -> Self {
        let mut game = NineMensMorris::new();
        for &p in &task.opening {
            game.play_move(MorrisMove::Place(p));
        }
        game
    }

    fn turn(&self) -> Turn {
        if self.outcome().is_some() {
            Turn::Over
        } else {
            Turn::Player(self.mover)
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let me = MEN_CHARS[player];
        let legal: Vec<String> = if self.mover == player {
            self.legal().into_iter().map(MorrisMove::name).collect()
        } else {
            Vec::new()
        };
        let status = match self.outcome() {
            Some(Some(w)) if w == player => "Game over: you win.".to_string(),
            Some(Some(_)) => "Game over: you lose.".to_string(),
            Some(None) => "Game over: draw.".to_string(),
            None if self.mover != player => "Waiting for the opponent.".to_string(),
            None if self.removing => format!(
                "You made a mill: remove one of {}'s men. Reply with its point; you may remove: {}.",
                MEN_CHARS[1 - player],
                legal.join(", ")
            ),
            None if self.to_place[player] > 0 => format!(
                "Your move: place a man on an empty point, like `{}`.",
                legal[0]
            ),
            None => format!(
                "Your move: {}, like `{}`. Legal moves: {}.",
                if self.flying(player) {
                    "you have three men, so move one to any empty point"
                } else {
                    "move a man along a line to the next empty point"
                },
                legal[0],
                legal.join(", ")
            ),
        };
        let side = |p: Player| {
            format!(
                "{}: {} to place, {} on the board",
                MEN_CHARS[p],
                self.to_place[p],
                self.men[p] - self.to_place[p]
            )
        };
        Observation {
            text: format!(
                "Nine men's morris. You play {me}; W moves first. Place your nine men, then move \
                 them along the lines; three in a line (a mill) removes an opponent's man. Two men \
                 left or no move loses; {TURN_LIMIT} turns draw.\n{}\n{}; {}. Turn {} of {TURN_LIMIT}.\n{status}",
                self.grid(),
                side(0),
                side(1),
                self.turns + 1,
            ),
            structured: json!({
                "points": NAMES.iter().zip(&self.board).map(|(n, c)| (n.to_string(), c.map_or('.', |p| MEN_CHARS[p]).to_string())).collect::<std::collections::BTreeMap<_, _>>(),
                "you": me.to_string(),
                "to_place": self.to_place,
                "removing": self.removing,
                "to_move": if self.outcome().is_some() { json!(null) } else { json!(self.mover) },
            }),
            legal_actions: Some(legal),
        }
    }

    /// The one action the words of `text` name: a point, or in the moving
    /// phase two points in a row (`d6 d5`, `d6-d5`, `d6 to d5`). Two
    /// different actions are a hedge. Reads each word once.
    fn parse_action(&self, player: Player, text: &str) -> Result<MorrisMove, InvalidAction> {
        let words: Vec<&str> = text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let point = |k: usize| {
            let w = words.get(k)?;
            NAMES.iter().position(|n| n.eq_ignore_ascii_case(w))
        };
        let moving = !self.removing && self.to_place[player] == 0;
        let mut found: Vec<MorrisMove> = Vec::new();
        for k in 0..words.len() {
            let Some(a) = point(k) else { continue };
            let mut named = Vec::new();
            if !moving {
                named.push(if self.removing {
                    MorrisMove::Remove(a)
                } else {
                    MorrisMove::Place(a)
                });
            } else {
                let to = words
                    .get(k + 1)
                    .is_some_and(|w| w.eq_ignore_ascii_case("to"));
                named.extend(
                    point(k + 1)
                        .filter(|&b| b != a)
                        .map(|b| MorrisMove::Step(a, b)),
                );
                named.extend(
                    point(k + 2)
                        .filter(|&b| to && b != a)
                        .map(|b| MorrisMove::Step(a, b)),
                );
            }
            for mv in named {
                if !found.contains(&mv) {
                    found.push(mv);
                }
            }
        }
        let hint = if moving {
            "reply with one move like `d6-d5`"
        } else {
            "reply with one point like `d6`"
        };
        match found.as_slice() {
            [one] => Ok(*one),
            [] => Err(InvalidAction::new(format!("no legal move found; {hint}"))),
            _ => Err(InvalidAction::new(format!(
                "name exactly one move, not several; {hint}"
            ))),
        }
    }

    fn apply(&mut self, _player: Player, mv: MorrisMove) -> Result<Vec<String>, InvalidAction> {
        if let Some(why) = self.refusal(mv) {
            return Err(InvalidAction::new(why));
        }
        let me = self.mover;
        self.play_move(mv);
        let mut events = Vec::new();
        if self.removing {
            events.push(format!("{} made a mill", MEN_CHARS[me]));
        }
        if let MorrisMove::Remove(p) = mv {
            events.push(format!("{} removed the man on {}", MEN_CHARS[me], NAMES[p]));
        }
        match self.outcome() {
            Some(Some(w)) => events.push(format!("{} wins", MEN_CHARS[w])),
            Some(None) => events.push("draw".to_string()),
            None => {}
        }
        Ok(events)
    }

    fn score(&self, player: Player) -> Score {
        let outcome = self.outcome();
        win_loss(outcome.flatten(), outcome.is_some(), player)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        best_move(self, ORACLE_DEPTH).map(MorrisMove::name)
    }

    /// Take a win, avoid handing one over, else the action best for men,
    /// half-made mills and mobility one ply on (random among equals).
    fn heuristic(&self, _player: Player, rng: &mut Rng) -> Option<String> {
        win_block_greedy(self, rng, evaluation_for).map(MorrisMove::name)
    }

    fn render(&self) -> String {
        self.grid()
    }
}

#[cfg(test)]
#[path = "nine_mens_morris_tests.rs"]
mod tests;
