//! `games/nim-v1`: Nim, normal or misère play.
//!
//! # Task
//! A row of heaps of stones, sizes drawn at random. Player 0 moves first.
//!
//! # Action
//! `take N from heap H` (also `remove N from heap H` or `heap H take N`):
//! remove 1 to all of the stones of one heap. Text naming two different
//! moves is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The heaps, the rule variant, whose turn it is and every legal move.
//! Both players see everything.
//!
//! # Reward
//! +1 to the winner, −1 to the loser (zero-sum): under normal play whoever
//! takes the last stone wins; under misère play they lose. `passed` means a
//! win. Breakdown: `win`.
//!
//! # Episode end
//! When no stones are left (at most one move per stone).
//!
//! # Parameters
//! `heaps` (1–8), `max_heap` (1–15), `misere`. Presets `easy` (3 heaps of
//! up to 5), `medium` (4 of up to 7), `hard` (6 of up to 12), `misere`
//! (medium, misère play).
//!
//! # Seeding
//! The seed picks the heap sizes.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{pick, win_loss};
use crate::rng::Rng;

const MAX_HEAPS: usize = 8;
const MAX_HEAP: u32 = 15;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NimConfig {
    pub heaps: usize,
    pub max_heap: u32,
    pub misere: bool,
}

impl Default for NimConfig {
    fn default() -> Self {
        NimConfig {
            heaps: 4,
            max_heap: 7,
            misere: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NimTask {
    pub heaps: Vec<u32>,
    pub misere: bool,
}

/// Take `count` stones from heap `heap` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take {
    pub heap: usize,
    pub count: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    heaps: Vec<u32>,
    misere: bool,
    to_move: Player,
}

impl Nim {
    fn over(&self) -> bool {
        self.heaps.iter().all(|&h| h == 0)
    }

    /// Once the heaps are empty: the player who took the last stone is the
    /// previous mover, who wins under normal play and loses under misère.
    fn winner(&self) -> Option<Player> {
        let last_mover = 1 - self.to_move;
        self.over().then_some(if self.misere {
            self.to_move
        } else {
            last_mover
        })
    }

    fn legal(&self) -> Vec<Take> {
        let mut moves = Vec::new();
        for (heap, &size) in self.heaps.iter().enumerate() {
            moves.extend((1..=size).map(|count| Take { heap, count }));
        }
        moves
    }

    fn play(&mut self, mv: Take) {
        self.heaps[mv.heap] -= mv.count;
        self.to_move = 1 - self.to_move;
    }

    /// A winning move when there is one, else taking one stone from the
    /// largest heap (to prolong the game and invite a mistake).
    fn perfect_move(&self) -> Option<Take> {
        if self.over() {
            return None;
        }
        let nim_sum = self.heaps.iter().fold(0, |a, &h| a ^ h);
        let big = self.heaps.iter().filter(|&&h| h >= 2).count();
        let winning = if self.misere && big <= 1 {
            // With at most one heap above 1, leave an odd number of 1-heaps.
            let ones = self.heaps.iter().filter(|&&h| h == 1).count();
            match self.heaps.iter().position(|&h| h >= 2) {
                Some(heap) => {
                    let keep = if ones % 2 == 0 { 1 } else { 0 };
                    Some(Take {
                        heap,
                        count: self.heaps[heap] - keep,
                    })
                }
                None if ones % 2 == 0 => self
                    .heaps
                    .iter()
                    .position(|&h| h == 1)
                    .map(|heap| Take { heap, count: 1 }),
                None => None,
            }
        } else {
            // Normal play, and misère with two or more big heaps: leave a
            // zero nim-sum (which then keeps a big heap on the board).
            self.heaps
                .iter()
                .position(|&h| h ^ nim_sum < h)
                .map(|heap| Take {
                    heap,
                    count: self.heaps[heap] - (self.heaps[heap] ^ nim_sum),
                })
        };
        winning.or_else(|| {
            let largest =
                (0..self.heaps.len()).max_by_key(|&i| (self.heaps[i], std::cmp::Reverse(i)))?;
            Some(Take {
                heap: largest,
                count: 1,
            })
        })
    }
}

fn move_text(mv: Take) -> String {
    format!("take {} from heap {}", mv.count, mv.heap + 1)
}

impl Env for Nim {
    type Config = NimConfig;
    type Task = NimTask;
    type Action = Take;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/nim-v1",
        kind: EnvKind::Game,
        description: "Nim with random heaps, normal or misère play; perfect oracle (nim-sum)",
        players: 2,
        max_steps: MAX_HEAPS * MAX_HEAP as usize,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"heaps": 3, "max_heap": 5}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"heaps": 6, "max_heap": 12}"#,
            },
            Preset {
                name: "misere",
                overrides: r#"{"misere": true}"#,
            },
        ],
    };

    fn validate(config: &NimConfig) -> Result<(), ConfigError> {
        if !(1..=MAX_HEAPS).contains(&config.heaps) {
            return Err(format!("heaps must be in 1..={MAX_HEAPS}, got {}", config.heaps).into());
        }
        if !(1..=MAX_HEAP).contains(&config.max_heap) {
            return Err(format!(
                "max_heap must be in 1..={MAX_HEAP}, got {}",
                config.max_heap
            )
            .into());
        }
        Ok(())
    }

    fn generate(config: &NimConfig, rng: &mut Rng) -> NimTask {
        let heaps = (0..config.heaps)
            .map(|_| rng.range_i64(1, i64::from(config.max_heap)) as u32)
            .collect();
        NimTask {
            heaps,
            misere: config.misere,
        }
    }

    fn reset(task: &NimTask, _rng: Rng) -> Self {
        Nim {
            heaps: task.heaps.clone(),
            misere: task.misere,
            to_move: 0,
        }
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let rule = if self.misere {
            "misère play: whoever takes the last stone LOSES"
        } else {
            "normal play: whoever takes the last stone wins"
        };
        let heaps: Vec<String> = self
            .heaps
            .iter()
            .enumerate()
            .map(|(i, h)| format!("heap {}: {h}", i + 1))
            .collect();
        let legal: Vec<String> = if self.to_move == player {
            self.legal().into_iter().map(move_text).collect()
        } else {
            Vec::new()
        };
        let status = match self.winner() {
            Some(w) => format!(
                "Game over: {}.",
                if w == player { "you win" } else { "you lose" }
            ),
            None if self.to_move == player => {
                "Your move. Reply like `take 2 from heap 1` (1 up to the whole heap).".to_string()
            }
            None => "Waiting for the opponent.".to_string(),
        };
        Observation {
            text: format!(
                "Nim, {rule}. Players take turns removing stones from one heap. You are player {player}.\n{}\n{status}",
                heaps.join(", ")
            ),
            structured: json!({"heaps": self.heaps, "misere": self.misere, "you": player, "to_move": self.to_move}),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Take, InvalidAction> {
        let mut phrases = Vec::new();
        for heap in 0..self.heaps.len() {
            for count in 1..=MAX_HEAP {
                let mv = Take { heap, count };
                let (h, n) = (heap + 1, count);
                phrases.push((move_text(mv), mv));
                phrases.push((format!("remove {n} from heap {h}"), mv));
                phrases.push((format!("heap {h} take {n}"), mv));
            }
        }
        pick(
            text,
            phrases.iter().map(|(p, m)| (p.as_str(), *m)),
            "reply like `take 2 from heap 1`",
        )
    }

    fn apply(&mut self, _player: Player, mv: Take) -> Result<Vec<String>, InvalidAction> {
        let size = self.heaps[mv.heap];
        if mv.count > size {
            return Err(InvalidAction::new(format!(
                "heap {} has only {size} stones",
                mv.heap + 1
            )));
        }
        self.play(mv);
        Ok(match self.winner() {
            Some(w) => vec![format!("player {w} wins")],
            None => Vec::new(),
        })
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner(), self.over(), player)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        self.perfect_move().map(move_text)
    }

    /// Finishes a last heap when that wins (under misère, leaves its last
    /// stone), otherwise halves the largest heap: no nim-sum arithmetic.
    fn heuristic(&self, _player: Player, _rng: &mut Rng) -> Option<String> {
        let open: Vec<usize> = (0..self.heaps.len())
            .filter(|&h| self.heaps[h] > 0)
            .collect();
        let heap = *open
            .iter()
            .max_by_key(|&&h| (self.heaps[h], std::cmp::Reverse(h)))?;
        let size = self.heaps[heap];
        let count = match (open.len(), self.misere) {
            (1, false) => size,
            (1, true) => (size - 1).max(1),
            _ => size.div_ceil(2),
        };
        Some(move_text(Take { heap, count }))
    }

    fn render(&self) -> String {
        let heaps: Vec<String> = self.heaps.iter().map(u32::to_string).collect();
        format!("{} ({} to move)", heaps.join(" "), self.to_move)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn nim(heaps: &[u32], misere: bool) -> Nim {
        Nim::reset(
            &NimTask {
                heaps: heaps.to_vec(),
                misere,
            },
            Rng::from_seed(0),
        )
    }

    /// Whether the mover wins with perfect play, by brute force.
    fn mover_wins(game: &Nim, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
        if game.over() {
            return game.winner() == Some(game.to_move);
        }
        if let Some(&known) = memo.get(&game.heaps) {
            return known;
        }
        let wins = game.legal().into_iter().any(|mv| {
            let mut next = game.clone();
            next.play(mv);
            !mover_wins(&next, memo)
        });
        memo.insert(game.heaps.clone(), wins);
        wins
    }

    #[test]
    fn the_oracle_never_loses_a_winnable_position() {
        for misere in [false, true] {
            let mut memo = HashMap::new();
            let mut winnable = 0;
            for a in 0..=6 {
                for b in 0..=6 {
                    for c in 0..=5 {
                        for d in 0..=3 {
                            let game = nim(&[a, b, c, d], misere);
                            if game.over() || !mover_wins(&game, &mut memo) {
                                continue;
                            }
                            winnable += 1;
                            let mv = game.perfect_move().unwrap();
                            let mut next = game.clone();
                            next.apply(0, mv).unwrap();
                            assert!(
                                !mover_wins(&next, &mut memo),
                                "misere={misere} {:?}: {mv:?}",
                                game.heaps
                            );
                        }
                    }
                }
            }
            assert!(winnable > 800, "{winnable}");
        }
    }

    #[test]
    fn winners_follow_the_variant_and_text_is_exact() {
        let mut game = nim(&[1, 2], false);
        assert_eq!(
            game.observe(0).text,
            "Nim, normal play: whoever takes the last stone wins. Players take turns removing stones from one heap. \
             You are player 0.\nheap 1: 1, heap 2: 2\nYour move. Reply like `take 2 from heap 1` (1 up to the whole heap)."
        );
        assert_eq!(
            game.observe(0).legal_actions.unwrap(),
            vec![
                "take 1 from heap 1",
                "take 1 from heap 2",
                "take 2 from heap 2"
            ]
        );
        assert_eq!(game.oracle(0).as_deref(), Some("take 1 from heap 2"));
        for (p, mv) in [
            (0, "take 1 from heap 2"),
            (1, "heap 1 take 1"),
            (0, "Remove 1 from heap 2."),
        ] {
            let mv = game.parse_action(p, mv).unwrap();
            game.apply(p, mv).unwrap();
        }
        assert_eq!(game.render(), "0 0 (1 to move)");
        assert_eq!(game.winner(), Some(0));
        assert_eq!(game.score(1).reward, -1.0);
        let mut misere = nim(&[1], true);
        misere.apply(0, Take { heap: 0, count: 1 }).unwrap();
        assert_eq!(
            misere.winner(),
            Some(1),
            "taking the last stone loses misère"
        );
    }

    #[test]
    fn illegal_and_ambiguous_moves_are_refused() {
        let mut game = nim(&[3, 4], false);
        assert!(game.apply(0, Take { heap: 0, count: 4 }).is_err());
        assert!(game.parse_action(0, "take 1 from heap 3").is_err());
        assert!(
            game.parse_action(0, "take 1 from heap 1 or take 2 from heap 2")
                .is_err()
        );
        assert!(game.parse_action(0, "1").is_err());
        assert_eq!(
            game.parse_action(0, "take 4 from heap 2"),
            Ok(Take { heap: 1, count: 4 })
        );
        assert_eq!(game.heaps, vec![3, 4]);
    }
}
