//! `games/backgammon-v1`: backgammon for two players with dice, as
//! OpenSpiel's `backgammon` (win/loss scoring, no doubling cube).
//!
//! # Task
//! The standard start (each side 2 checkers on its 24-point, 5 on 13, 3 on
//! 8, 5 on 6), or that position after some random opening turns; who moves
//! first and their opening roll. The first player is drawn at random and
//! opens with a non-double (as OpenSpiel's first chance node, which draws
//! one of the 30 ordered non-doubles).
//!
//! # Action
//! A whole turn in standard notation, each checker's move as `from/to`
//! from your own side (you move from 24 down to 1; `bar` is your bar,
//! `off` bears off): `13/7 8/7`, `bar/22 24/18`, `6/off 5/off`, `8/4(2)
//! 6/2(2)` for a double, `13/7*` marking a hit, `13/7/5` or `13/5` for one
//! checker using both dice. The moves may come in any order and separated
//! by spaces, commas or `and`; a play is read as the checkers it leaves
//! where, so `13/7` and `13/8/7` are one play, and the `*` marks choose
//! between plays that reach the same points hitting on different ones.
//! `pass` when no play is legal. Rules as OpenSpiel's: use both dice if
//! you can, else the larger one if either alone can be used; a double is
//! played as two pairs of moves, each using both of its dice if it can
//! (so the first pair need not leave the second one playable); checkers
//! on the bar enter first; bearing off once all 15 are home, with a larger
//! die only from the highest occupied point. Anything not legal is
//! refused with the reason, and so is text naming two different plays.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The rules in brief, the board drawn from the seat's own side (its points
//! 13–24 on top, 12–1 below, each with the checkers on it, `X3` or `O2`),
//! both bars, both trays, both pip counts, the turn number, the opponent's
//! last play, the dice and, for the player to move, every legal play.
//! Nothing is hidden but the dice to come.
//!
//! # Reward
//! The first side to bear off all 15 checkers wins: +1, the other −1
//! (OpenSpiel's `winloss_scoring`: gammons count as single games). A draw,
//! 0 each, when 501 turns end without a winner (OpenSpiel's
//! `max_player_turns=500`). `passed` means a win. Breakdown: `win`/`draw`,
//! `borne_off`.
//!
//! # Episode end
//! All 15 of one side's checkers borne off, or the turn cap.
//!
//! # Parameters
//! `opening_turns` (0–60, default 0): random turns already played (none of
//! them ending the game). Presets `standard` (the start) and, on the
//! difficulty scale (`LEVELS`), `easy` (40 opening turns), `medium` (20),
//! `hard` (none).
//!
//! # Seeding
//! The task's seed picks the first player, the opening roll and the random
//! opening turns; the episode's seed rolls every later die.
//!
//! # Version history
//! v1: first version.

pub mod board;
pub mod text;

use std::borrow::Cow;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::json;

use self::board::{
    Board, MAX_TURNS, Play, notation, opening_roll, oracle_value, plays, random_turn, roll,
    simple_value,
};
use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{pick, standard_then_graded, win_loss};
use crate::rng::Rng;

const MARKS: [char; 2] = ['X', 'O'];
const MAX_OPENING: usize = 60;
/// Plays written into the observation text: a double can have hundreds,
/// which would make the text several kilobytes (the structured legal-action
/// list keeps them all).
const LISTED_PLAYS: usize = 40;

const HINT: &str = "reply with one legal play like `13/7 8/7`, `bar/22 24/18` or `6/off(2)`";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BackgammonConfig {
    /// Random turns already played (0–60).
    pub opening_turns: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BackgammonTask {
    pub board: Board,
    pub to_move: Player,
    pub dice: [u8; 2],
    /// Turns already played.
    pub turns: u32,
}

#[derive(Clone, Debug)]
pub struct Backgammon {
    pub board: Board,
    pub to_move: Player,
    pub dice: [u8; 2],
    /// Whole turns played (OpenSpiel's `turns_`).
    pub turns: u32,
    /// OpenSpiel's plies: one per turn, two for a double whose first pair
    /// used both dice.
    pub plies: u32,
    pub winner: Option<Player>,
    pub over: bool,
    last: Option<String>,
    rng: Rng,
    /// The plays of the position they were listed for: observing, reading and
    /// applying a turn each need them, and listing a double's plays is most of
    /// a turn's cost. Keyed, so a position changed by hand never reads another's.
    listed: OnceLock<(PlaysKey, Vec<Play>)>,
}

/// What the legal plays depend on: the board, the mover, the dice, the cap.
type PlaysKey = (Board, Player, [u8; 2], bool);

impl Backgammon {
    /// Whether this turn is the last the cap allows (a double then stops
    /// after its first pair, as OpenSpiel ends the game there).
    fn last_turn(&self) -> bool {
        self.turns >= MAX_TURNS
    }

    /// The distinct legal plays of the player to move.
    pub fn legal(&self) -> Cow<'_, [Play]> {
        if self.over {
            return Cow::Owned(Vec::new());
        }
        let key = (self.board, self.to_move, self.dice, self.last_turn());
        let list = || plays(&self.board, self.to_move, self.dice, self.last_turn());
        let (listed_for, listed) = self.listed.get_or_init(|| (key, list()));
        if *listed_for == key {
            Cow::Borrowed(listed)
        } else {
            Cow::Owned(list())
        }
    }

    /// Plays `play` (one of [`Backgammon::legal`]), with `plies` OpenSpiel
    /// actions, then rolls for the next player.
    fn play(&mut self, play: &Play, plies: u32) {
        let p = self.to_move;
        self.listed = OnceLock::new();
        self.board = play.board;
        self.turns += 1;
        self.plies += plies;
        // Written with dashes, in the mover's numbering: the notation of the
        // other side must not read as a play of the seat that sees it.
        self.last = Some(format!(
            "{} rolled {} and played {} (in its own numbering)",
            MARKS[p],
            dice_text(self.dice),
            notation(play).replace('/', "-")
        ));
        if self.board.off(p) == board::CHECKERS {
            self.winner = Some(p);
            self.over = true;
        } else if self.turns > MAX_TURNS {
            self.over = true;
        } else {
            self.to_move = 1 - p;
            self.dice = roll(&mut self.rng);
        }
    }

    /// OpenSpiel's plies for `play` when it was not drawn by
    /// [`random_turn`]: two for a double that used more than two dice.
    fn plies_of(&self, play: &Play) -> u32 {
        if self.dice[0] == self.dice[1] && play.steps.len() > 2 {
            2
        } else if self.dice[0] == self.dice[1] && play.steps.len() == 2 && !self.last_turn() {
            // Both dice of the first pair used: OpenSpiel's second pair
            // follows, a pass.
            2
        } else {
            1
        }
    }

    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// The best play for the mover by `value` of the board it leaves,
    /// ties broken by `rng` (or the first when none).
    fn best(&self, value: impl Fn(&Board, Player) -> i32, rng: Option<&mut Rng>) -> Option<Play> {
        let legal = self.legal();
        let scores: Vec<i32> = legal
            .iter()
            .map(|pl| value(&pl.board, self.to_move))
            .collect();
        let top = *scores.iter().max()?;
        let best: Vec<usize> = (0..legal.len()).filter(|&k| scores[k] == top).collect();
        let k = match rng {
            Some(rng) => best[rng.below(best.len() as u64) as usize],
            None => best[0],
        };
        Some(legal[k].clone())
    }
}

fn dice_text(d: [u8; 2]) -> String {
    format!("{}-{}", d[0], d[1])
}

impl Env for Backgammon {
    type Config = BackgammonConfig;
    type Task = BackgammonTask;
    type Action = Play;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/backgammon-v1",
        kind: EnvKind::Game,
        description: "Backgammon with dice, no doubling cube (OpenSpiel's rules); one-ply oracle over blot-hit odds, pips and points",
        players: 2,
        max_steps: MAX_TURNS as usize + 1,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: false,
        presets: &standard_then_graded(Self::LEVELS),
    };

    /// Fewer random opening turns, more game to play.
    const LEVELS: &'static [&'static str] =
        &[r#"{"opening_turns": 40}"#, r#"{"opening_turns": 20}"#, "{}"];

    /// Pips both sides still have to move.
    fn effort(task: &BackgammonTask) -> Option<f64> {
        Some(f64::from(task.board.pips(0) + task.board.pips(1)))
    }

    fn validate(config: &BackgammonConfig) -> Result<(), ConfigError> {
        if config.opening_turns <= MAX_OPENING {
            Ok(())
        } else {
            Err(format!(
                "opening_turns must be in 0..={MAX_OPENING}, got {}",
                config.opening_turns
            )
            .into())
        }
    }

    fn generate(config: &BackgammonConfig, rng: &mut Rng) -> BackgammonTask {
        let mut board = Board::start();
        let mut to_move = rng.below(2) as Player;
        let mut dice = opening_roll(rng);
        let mut turns = 0;
        while (turns as usize) < config.opening_turns {
            let (play, _) = random_turn(&board, to_move, dice, false, rng);
            if play.board.off(to_move) == board::CHECKERS {
                break;
            }
            board = play.board;
            turns += 1;
            to_move = 1 - to_move;
            dice = roll(rng);
        }
        BackgammonTask {
            board,
            to_move,
            dice,
            turns,
        }
    }

    fn reset(task: &BackgammonTask, rng: Rng) -> Self {
        Backgammon {
            board: task.board,
            to_move: task.to_move,
            dice: task.dice,
            turns: task.turns,
            plies: 0,
            winner: None,
            over: false,
            last: None,
            listed: OnceLock::new(),
            rng,
        }
    }

    fn turn(&self) -> Turn {
        if self.over {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let mine = self.to_move == player && !self.over;
        let legal: Vec<String> = if mine {
            self.legal().iter().map(notation).collect()
        } else {
            Vec::new()
        };
        let status = match self.winner {
            Some(w) if w == player => "Game over: you win.".to_string(),
            Some(_) => "Game over: you lose.".to_string(),
            None if self.over => format!("Game over: a draw after {} turns.", self.turns),
            None if mine => format!(
                "Your roll: {}. Legal plays ({}): {}.\nReply with one play in this notation (the moves \
                 in any order; a checker using both dice may be written from its start to its end).",
                dice_text(self.dice),
                if legal.len() > LISTED_PLAYS {
                    format!(
                        "{}; the first {LISTED_PLAYS} shown, any legal play is read",
                        legal.len()
                    )
                } else {
                    legal.len().to_string()
                },
                legal[..legal.len().min(LISTED_PLAYS)].join(", ")
            ),
            None => format!(
                "Waiting for the opponent ({} rolled {}).",
                MARKS[self.to_move],
                dice_text(self.dice)
            ),
        };
        let last = self
            .last
            .as_ref()
            .map_or(String::new(), |l| format!("Last play: {l}.\n"));
        let q = 1 - player;
        Observation {
            text: format!(
                "Backgammon, no doubling cube. You play {}. Points are numbered from your side: you move \
                 from 24 down to 1 and bear off below 1; your opponent moves the other way, from your 1 \
                 to your 24. Each turn uses both dice if possible (else the larger one that can be used); a \
                 double is played four times. A checker may land on any point not held by two or more \
                 opposing checkers; landing on a single one (a blot) hits it to the bar. Checkers on the bar \
                 must enter first (a die of n enters on your point 25-n); once all 15 are in your home \
                 board (points 1-6) you bear off. First to bear off all 15 wins; a draw after {} turns.\n\
                 {}\nTurn {}.\n{last}{status}",
                MARKS[player],
                MAX_TURNS + 1,
                text::draw(&self.board, player, MARKS),
                self.turns + 1,
            ),
            structured: json!({
                "you": MARKS[player].to_string(),
                "points_yours": (1..=24).map(|i| self.board.c[player][i]).collect::<Vec<_>>(),
                "points_opponent_on_your_numbering": (1..=24).map(|i| self.board.opp(player, i)).collect::<Vec<_>>(),
                "bar": [self.board.c[player][board::BAR], self.board.c[q][board::BAR]],
                "off": [self.board.off(player), self.board.off(q)],
                "pips": [self.board.pips(player), self.board.pips(q)],
                "dice": self.dice,
                "turn": self.turns + 1,
                "to_move": if self.over { json!(null) } else { json!(self.to_move) },
            }),
            legal_actions: Some(legal),
        }
    }

    /// Every stretch of notation in `text` ([`text::stretches`]) that
    /// names a legal play; the shared [`pick`] then refuses a text naming
    /// two different plays. With none legal, the first stretch's reason.
    fn parse_action(&self, player: Player, text: &str) -> Result<Play, InvalidAction> {
        if player != self.to_move || self.over {
            return Err(InvalidAction::new("it is not your turn"));
        }
        let legal = self.legal();
        let index = text::Index::new(&self.board, player, &legal);
        // The first text naming each distinct play (a stretch repeated a
        // thousand times is read once).
        let mut options: Vec<(String, usize)> = Vec::new();
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        let mut first_error: Option<String> = None;
        for w in text::stretches(text) {
            let w = match w {
                Ok(w) if !seen.insert(w.text.to_ascii_lowercase()) => continue,
                other => other,
            };
            match w.and_then(|w| index.resolve(&w).map(|k| (w.text, k))) {
                Ok((t, k)) => {
                    if !options.iter().any(|o| legal[o.1].board == legal[k].board) {
                        options.push((t, k));
                    }
                }
                Err(e) => {
                    if first_error.is_none() {
                        first_error = Some(e);
                    }
                }
            }
        }
        match options.as_slice() {
            [] => Err(InvalidAction::new(match first_error {
                Some(e) => format!("{e} with {}; {HINT}", dice_text(self.dice)),
                None => format!("no play found; {HINT}"),
            })),
            [(_, k)] => Ok(legal[*k].clone()),
            // Two different plays: the shared reader words the refusal (two
            // are enough to show the hedge, and keep it linear in the text).
            [a, b, ..] => match pick(text, [(a.0.as_str(), a.1), (b.0.as_str(), b.1)], HINT) {
                Ok(k) => Ok(legal[k].clone()),
                Err(e) => Err(InvalidAction::ambiguous(e.reason)),
            },
        }
    }

    fn apply(&mut self, player: Player, play: Play) -> Result<Vec<String>, InvalidAction> {
        if player != self.to_move || self.over {
            return Err(InvalidAction::new("it is not your turn"));
        }
        let legal = self.legal();
        let Some(found) = legal.iter().find(|l| l.board == play.board) else {
            return Err(InvalidAction::new(format!(
                "that play is not legal; {HINT}"
            )));
        };
        let plies = self.plies_of(found);
        let found = found.clone();
        self.play(&found, plies);
        Ok(match self.winner {
            Some(w) => vec![format!("{} wins", MARKS[w])],
            None if self.over => vec![format!("draw after {} turns", self.turns)],
            None => Vec::new(),
        })
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner, self.over, player)
            .part("borne_off", f64::from(self.board.off(player)))
    }

    fn oracle(&self, player: Player) -> Option<String> {
        if player != self.to_move || self.over {
            return None;
        }
        self.best(oracle_value, None).map(|pl| notation(&pl))
    }

    /// Greedy on [`simple_value`]: hit, make points, leave few blots, bear
    /// off (random among equals).
    fn heuristic(&self, player: Player, rng: &mut Rng) -> Option<String> {
        if player != self.to_move || self.over {
            return None;
        }
        self.best(simple_value, Some(rng)).map(|pl| notation(&pl))
    }

    /// OpenSpiel's random player: a uniform draw among its actions (ordered
    /// pairs of moves; a double's two pairs drawn one after the other), so
    /// plays reached by more orderings come up more often.
    fn random_action(&self, player: Player, rng: &mut Rng) -> String {
        if player != self.to_move || self.over {
            return rng.range_i64(-20, 20).to_string();
        }
        let (play, _) = random_turn(&self.board, player, self.dice, self.last_turn(), rng);
        notation(&play)
    }

    fn render(&self) -> String {
        format!(
            "{}\n{} to move, dice {}, turn {}",
            text::draw(&self.board, 0, MARKS),
            MARKS[self.to_move],
            dice_text(self.dice),
            self.turns + 1
        )
    }
}

#[cfg(test)]
mod tests;
