//! `games/pig-v1`: Pig, the push-your-luck dice game.
//!
//! # Task
//! The target score and the turn limit (from the config). Player 0 starts.
//! The dice are rolled during play from the episode's seeded generator.
//!
//! # Action
//! `roll` or `hold`. Each turn starts with a roll; `hold` is legal once you
//! have rolled this turn. Text naming both is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! Both banked scores, your turn total, the last rolls and whose turn it
//! is. Nothing is hidden except future dice.
//!
//! # Reward
//! A roll of 1 ends the turn and loses the turn total; any other roll adds
//! to it. `hold` banks the turn total and passes the turn. Reaching the
//! target (banked plus turn total) wins at once. After the turn limit the
//! higher banked score wins. +1 to the winner, −1 to the loser, 0 each on
//! equal scores (zero-sum). `passed` means a win. Breakdown: `win`/`draw`,
//! `points`.
//!
//! # Episode end
//! The target reached, or the turn limit.
//!
//! # Parameters
//! `target` (10–100), `turns` per player (5–50). Presets `easy` (target 30,
//! 10 turns each), `medium` (50, 20), `hard` (100, 40).
//!
//! # Seeding
//! Fixed start; the seed rolls the dice during play.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{pick, win_loss};
use crate::rng::Rng;

const MAX_TARGET: u32 = 100;
const MAX_TURNS: u32 = 50;
/// Banks the turn total at this much, the classic strong simple strategy.
const HOLD_AT: u32 = 20;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PigConfig {
    pub target: u32,
    pub turns: u32,
}

impl Default for PigConfig {
    fn default() -> Self {
        PigConfig {
            target: 50,
            turns: 20,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PigTask {
    pub target: u32,
    pub turns: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PigMove {
    Roll,
    Hold,
}

#[derive(Clone, Debug)]
pub struct Pig {
    task: PigTask,
    rng: Rng,
    banked: [u32; 2],
    turn_total: u32,
    to_move: Player,
    /// Turns finished so far, both players together.
    turns_done: u32,
    /// Rolls of the current turn, and of the previous turn with its mover.
    rolls: Vec<u32>,
    previous: Option<(Player, Vec<u32>, bool)>,
    winner: Option<Player>,
    over: bool,
}

impl Pig {
    fn legal(&self) -> Vec<PigMove> {
        if self.over {
            Vec::new()
        } else if self.rolls.is_empty() {
            vec![PigMove::Roll]
        } else {
            vec![PigMove::Roll, PigMove::Hold]
        }
    }

    fn end_turn(&mut self, held: bool) {
        let rolls = std::mem::take(&mut self.rolls);
        self.previous = Some((self.to_move, rolls, held));
        self.turn_total = 0;
        self.to_move = 1 - self.to_move;
        self.turns_done += 1;
        if self.turns_done == 2 * self.task.turns {
            self.over = true;
            let [a, b] = self.banked;
            self.winner = (a != b).then_some(usize::from(b > a));
        }
    }

    fn play(&mut self, mv: PigMove) {
        let p = self.to_move;
        match mv {
            PigMove::Roll => {
                let die = self.rng.range_i64(1, 6) as u32;
                self.rolls.push(die);
                if die == 1 {
                    self.end_turn(false);
                } else {
                    self.turn_total += die;
                    if self.banked[p] + self.turn_total >= self.task.target {
                        self.banked[p] += self.turn_total;
                        self.winner = Some(p);
                        self.over = true;
                    }
                }
            }
            PigMove::Hold => {
                self.banked[p] += self.turn_total;
                self.end_turn(true);
            }
        }
    }

    /// Holds at 20, except on its last turn when behind, where it rolls
    /// until it is ahead.
    fn scripted(&self) -> Option<PigMove> {
        let legal = self.legal();
        if legal.len() < 2 {
            return legal.first().copied();
        }
        let p = self.to_move;
        let last_turn = self.turns_done + 2 > 2 * self.task.turns;
        let behind = self.banked[p] + self.turn_total <= self.banked[1 - p];
        Some(
            if (last_turn && behind) || (!last_turn && self.turn_total < HOLD_AT) {
                PigMove::Roll
            } else {
                PigMove::Hold
            },
        )
    }
}

fn rolls_text(rolls: &[u32]) -> String {
    rolls
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Env for Pig {
    type Config = PigConfig;
    type Task = PigTask;
    type Action = PigMove;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/pig-v1",
        kind: EnvKind::Game,
        description: "Pig, the dice game of rolling on or banking; hold-at-20 scripted oracle",
        players: 2,
        max_steps: (2 * MAX_TURNS * (MAX_TARGET / 2 + 2)) as usize,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"target": 30, "turns": 10}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"target": 100, "turns": 40}"#,
            },
        ],
    };

    fn validate(config: &PigConfig) -> Result<(), ConfigError> {
        if !(10..=MAX_TARGET).contains(&config.target) {
            return Err(
                format!("target must be in 10..={MAX_TARGET}, got {}", config.target).into(),
            );
        }
        if !(5..=MAX_TURNS).contains(&config.turns) {
            return Err(format!("turns must be in 5..={MAX_TURNS}, got {}", config.turns).into());
        }
        Ok(())
    }

    fn generate(config: &PigConfig, _rng: &mut Rng) -> PigTask {
        PigTask {
            target: config.target,
            turns: config.turns,
        }
    }

    fn reset(task: &PigTask, rng: Rng) -> Self {
        Pig {
            task: task.clone(),
            rng,
            banked: [0, 0],
            turn_total: 0,
            to_move: 0,
            turns_done: 0,
            rolls: Vec::new(),
            previous: None,
            winner: None,
            over: false,
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
        let PigTask { target, turns } = self.task;
        let mut text = format!(
            "Pig. On your turn roll a die as often as you like: a 1 ends your turn and loses this turn's points; \
             any other roll adds to your turn total. Say `hold` to bank the turn total and pass the turn. First to \
             {target} points wins; after {turns} turns each, the higher banked score wins.\nYou are player {player}. \
             Banked: you {}, opponent {}.\n",
            self.banked[player],
            self.banked[1 - player],
        );
        if let Some((who, rolls, held)) = &self.previous {
            let who = if *who == player {
                "You"
            } else {
                "Your opponent"
            };
            let end = if *held { "held" } else { "rolled a 1" };
            text.push_str(&format!(
                "Last turn: {who} rolled {} and {end}.\n",
                rolls_text(rolls)
            ));
        }
        let legal: Vec<String> = if self.to_move == player {
            self.legal()
                .iter()
                .map(|m| if *m == PigMove::Roll { "roll" } else { "hold" }.to_string())
                .collect()
        } else {
            Vec::new()
        };
        let status = if self.over {
            match self.winner {
                Some(w) if w == player => "Game over: you win.".to_string(),
                Some(_) => "Game over: you lose.".to_string(),
                None => "Game over: draw.".to_string(),
            }
        } else if self.to_move == player {
            let rolls = if self.rolls.is_empty() {
                "none".to_string()
            } else {
                rolls_text(&self.rolls)
            };
            format!(
                "Your turn {} of {turns}. Rolls this turn: {rolls}. Turn total: {}. Reply `{}`.",
                self.turns_done / 2 + 1,
                self.turn_total,
                legal.join("` or `"),
            )
        } else {
            "Waiting for the opponent.".to_string()
        };
        text.push_str(&status);
        Observation {
            text,
            structured: json!({
                "you": player,
                "banked": [self.banked[player], self.banked[1 - player]],
                "turn_total": self.turn_total,
                "rolls": self.rolls,
                "to_move": self.to_move,
                "target": target,
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<PigMove, InvalidAction> {
        pick(
            text,
            [("roll", PigMove::Roll), ("hold", PigMove::Hold)],
            "reply `roll` or `hold`",
        )
    }

    fn apply(&mut self, _player: Player, mv: PigMove) -> Result<Vec<String>, InvalidAction> {
        if !self.legal().contains(&mv) {
            return Err(InvalidAction::new("roll at least once before holding"));
        }
        self.play(mv);
        Ok(match (mv, self.rolls.last(), &self.previous) {
            (PigMove::Roll, Some(d), _) => vec![format!("rolled {d}")],
            (PigMove::Roll, None, Some((_, rolls, _))) => {
                vec![format!("rolled {}", rolls.last().unwrap_or(&0))]
            }
            _ => vec!["held".to_string()],
        })
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner, self.over, player).part("points", f64::from(self.banked[player]))
    }

    fn oracle(&self, player: Player) -> Option<String> {
        if self.to_move != player {
            return None;
        }
        self.scripted()
            .map(|m| if m == PigMove::Roll { "roll" } else { "hold" }.to_string())
    }

    /// A timid rule: holds once the turn has 10 points (the oracle waits
    /// for 20 and chases a lead on its last turn).
    fn heuristic(&self, player: Player, _rng: &mut Rng) -> Option<String> {
        if self.to_move != player {
            return None;
        }
        let legal = self.legal();
        let mv = if legal.len() < 2 {
            *legal.first()?
        } else if self.turn_total < 10 {
            PigMove::Roll
        } else {
            PigMove::Hold
        };
        Some(if mv == PigMove::Roll { "roll" } else { "hold" }.to_string())
    }

    fn render(&self) -> String {
        format!(
            "{}-{} turn {} player {} total {} [{}]",
            self.banked[0],
            self.banked[1],
            self.turns_done,
            self.to_move,
            self.turn_total,
            rolls_text(&self.rolls)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(target: u32, turns: u32, seed: u64) -> Pig {
        Pig::reset(&PigTask { target, turns }, Rng::from_seed(seed))
    }

    #[test]
    fn every_roll_follows_the_rules() {
        for seed in 0..200 {
            let mut g = game(30, 10, seed);
            let mut rng = Rng::from_seed(seed);
            while !g.over {
                let before = g.clone();
                let mv = if rng.chance(0.7) || g.rolls.is_empty() {
                    PigMove::Roll
                } else {
                    PigMove::Hold
                };
                g.apply(g.to_move, mv).unwrap();
                let p = before.to_move;
                match mv {
                    PigMove::Hold => {
                        assert_eq!(g.banked[p], before.banked[p] + before.turn_total);
                        assert_eq!(g.to_move, 1 - p);
                    }
                    PigMove::Roll => {
                        let (_, rolls, held) = g.previous.clone().unwrap_or((p, vec![0], false));
                        // A roll that ended the turn moved into `previous`.
                        let die = *g.rolls.last().or(rolls.last()).unwrap();
                        assert!((1..=6).contains(&die));
                        if die == 1 {
                            assert!(!held);
                            assert_eq!(g.banked, before.banked, "a 1 banks nothing");
                            assert_eq!(g.turn_total, 0);
                        } else if g.over && g.winner == Some(p) {
                            assert!(g.banked[p] >= 30);
                            assert_eq!(g.banked[p], before.banked[p] + before.turn_total + die);
                        } else {
                            assert_eq!(g.turn_total, before.turn_total + die);
                        }
                    }
                }
            }
            assert!(g.turns_done <= 20);
            assert_eq!(g.score(0).reward + g.score(1).reward, 0.0);
        }
    }

    #[test]
    fn holding_needs_a_roll_and_text_is_exact() {
        let mut g = game(30, 10, 3);
        assert!(g.apply(0, PigMove::Hold).is_err());
        assert!(g.parse_action(0, "roll or hold").is_err());
        assert_eq!(
            g.observe(0).text,
            "Pig. On your turn roll a die as often as you like: a 1 ends your turn and loses this turn's points; any \
             other roll adds to your turn total. Say `hold` to bank the turn total and pass the turn. First to 30 \
             points wins; after 10 turns each, the higher banked score wins.\nYou are player 0. Banked: you 0, \
             opponent 0.\nYour turn 1 of 10. Rolls this turn: none. Turn total: 0. Reply `roll`."
        );
        assert_eq!(g.observe(0).legal_actions, Some(vec!["roll".to_string()]));
        // The dice come from the episode's generator: the same seed replays them.
        let mut again = game(30, 10, 3);
        for _ in 0..5 {
            if !g.over && g.to_move == again.to_move {
                let mv = PigMove::Roll;
                g.apply(g.to_move, mv).unwrap();
                again.apply(again.to_move, mv).unwrap();
            }
        }
        assert_eq!(g.render(), again.render());
    }

    #[test]
    fn the_turn_limit_ends_the_game_on_banked_scores() {
        let mut g = game(100, 5, 1);
        while !g.over {
            let mv = if g.rolls.is_empty() {
                PigMove::Roll
            } else {
                PigMove::Hold
            };
            g.apply(g.to_move, mv).unwrap();
        }
        assert_eq!(g.turns_done, 10);
        let [a, b] = g.banked;
        assert_eq!(g.winner, (a != b).then_some(usize::from(b > a)));
    }

    #[test]
    fn holding_at_twenty_beats_random_play() {
        let (mut wins, games) = (0, 200);
        for seed in 0..games {
            let mut g = game(50, 20, seed);
            let mut rng = Rng::from_seed(seed ^ 99);
            let oracle_seat = (seed % 2) as usize;
            while !g.over {
                let p = g.to_move;
                let text = if p == oracle_seat {
                    g.oracle(p).unwrap()
                } else {
                    g.random_action(p, &mut rng)
                };
                let mv = g.parse_action(p, &text).unwrap();
                g.apply(p, mv).unwrap();
            }
            wins += u32::from(g.winner == Some(oracle_seat));
        }
        eprintln!("pig: oracle won {wins}/{games} against random");
        assert!(wins * 100 >= 75 * games as u32, "{wins}/{games}");
    }
}
