//! `games/blotto-v1`: Colonel Blotto, one simultaneous allocation.
//!
//! # Task
//! The number of soldiers and battlefields (from the config), plus the seed
//! of the oracle's randomised strategy. Both players have the same army.
//!
//! # Action
//! An allocation: exactly one whole number per battlefield, in order,
//! summing to the army size (`3 3 4`, `allocate: 3, 3, 4`). Both players
//! allocate at once, each without seeing the other's. Any other count or
//! sum is refused, so hedges like "3 3 4 or 4 3 3" never count.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The army size, the battlefields, and after the reveal both allocations.
//! Never the opponent's sealed allocation. Legal allocations are listed
//! when there are at most 300.
//!
//! # Reward
//! A battlefield goes to the player with more soldiers on it (none on a
//! tie); whoever takes more battlefields gets +1, the other −1, 0 on equal
//! counts (zero-sum). `passed` means a win. Breakdown: `win`/`draw`,
//! `fields`.
//!
//! # Episode end
//! After both allocations (2 steps).
//!
//! # Parameters
//! `soldiers` (1–200), `fields` (2–10). Presets `easy` (6 soldiers, 3
//! fields), `medium` (10, 3), `hard` (100, 10).
//!
//! # Seeding
//! Fixed game; the seed only drives the oracle's mixed strategy.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::win_loss;
use crate::rng::{Rng, SEED_MASK};

const MAX_LISTED: u64 = 300;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BlottoConfig {
    pub soldiers: u32,
    pub fields: usize,
}

impl Default for BlottoConfig {
    fn default() -> Self {
        BlottoConfig {
            soldiers: 10,
            fields: 3,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlottoTask {
    pub soldiers: u32,
    pub fields: usize,
    pub oracle_seed: u64,
}

#[derive(Clone, Debug)]
pub struct Blotto {
    task: BlottoTask,
    sealed: [Option<Vec<u32>>; 2],
}

/// Every allocation of `soldiers` over `fields`, lexicographically.
fn allocations(soldiers: u32, fields: usize) -> Vec<Vec<u32>> {
    if fields == 1 {
        return vec![vec![soldiers]];
    }
    let mut all = Vec::new();
    for first in 0..=soldiers {
        for mut rest in allocations(soldiers - first, fields - 1) {
            rest.insert(0, first);
            all.push(rest);
        }
    }
    all
}

/// The number of allocations, C(soldiers + fields − 1, fields − 1), capped.
fn count(soldiers: u32, fields: usize) -> u64 {
    let mut c: u64 = 1;
    for k in 1..fields as u64 {
        c = c.saturating_mul(u64::from(soldiers) + k) / k;
        if c > 1 << 50 {
            return u64::MAX;
        }
    }
    c
}

/// A uniformly random allocation (stars and bars).
fn random_allocation(soldiers: u32, fields: usize, rng: &mut Rng) -> Vec<u32> {
    let slots = soldiers as usize + fields - 1;
    let mut bars: Vec<usize> = Vec::new();
    while bars.len() < fields - 1 {
        let b = rng.below(slots as u64) as usize;
        if !bars.contains(&b) {
            bars.push(b);
        }
    }
    bars.sort_unstable();
    let mut out = Vec::new();
    let mut prev = 0;
    for &b in &bars {
        out.push((b - prev) as u32);
        prev = b + 1;
    }
    out.push((slots - prev) as u32);
    out
}

/// The most even allocation, larger shares first.
fn even_split(soldiers: u32, fields: usize) -> Vec<u32> {
    let mut even = vec![soldiers / fields as u32; fields];
    for slot in even.iter_mut().take(soldiers as usize % fields) {
        *slot += 1;
    }
    even
}

fn allocation_text(a: &[u32]) -> String {
    a.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

impl Blotto {
    fn over(&self) -> bool {
        self.sealed.iter().all(Option::is_some)
    }

    fn fields_won(&self) -> [u32; 2] {
        let (Some(a), Some(b)) = (&self.sealed[0], &self.sealed[1]) else {
            return [0, 0];
        };
        let mut won = [0, 0];
        for (x, y) in a.iter().zip(b) {
            if x != y {
                won[usize::from(y > x)] += 1;
            }
        }
        won
    }

    fn winner(&self) -> Option<Player> {
        let [a, b] = self.fields_won();
        (self.over() && a != b).then_some(usize::from(b > a))
    }

    /// The best reply to a uniformly random opponent: found exactly over
    /// every allocation when there are few, else an even spread (which
    /// beats the lopsided splits random play makes). Battlefields are then
    /// shuffled by the oracle seed, so the choice cannot be read ahead.
    fn scripted(&self, player: Player) -> Vec<u32> {
        let BlottoTask {
            soldiers,
            fields,
            oracle_seed,
        } = self.task;
        let mut rng = Rng::from_seed(oracle_seed ^ player as u64);
        let mut best = if count(soldiers, fields) <= MAX_LISTED {
            let all = allocations(soldiers, fields);
            let margin = |a: &Vec<u32>| -> i64 {
                all.iter()
                    .map(|b| {
                        let won = a.iter().zip(b).filter(|(x, y)| x > y).count();
                        let lost = a.iter().zip(b).filter(|(x, y)| x < y).count();
                        i64::from(won > lost) - i64::from(won < lost)
                    })
                    .sum()
            };
            all.iter()
                .max_by_key(|a| margin(a))
                .cloned()
                .unwrap_or_default()
        } else {
            even_split(soldiers, fields)
        };
        rng.shuffle(&mut best);
        best
    }
}

impl Env for Blotto {
    type Config = BlottoConfig;
    type Task = BlottoTask;
    type Action = Vec<u32>;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/blotto-v1",
        kind: EnvKind::Game,
        description: "Colonel Blotto: split an army over battlefields, simultaneously; scripted oracle (best reply to random play)",
        players: 2,
        max_steps: 2,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"soldiers": 6, "fields": 3}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"soldiers": 100, "fields": 10}"#,
            },
        ],
    };

    fn validate(config: &BlottoConfig) -> Result<(), ConfigError> {
        if !(1..=200).contains(&config.soldiers) {
            return Err(format!("soldiers must be in 1..=200, got {}", config.soldiers).into());
        }
        if !(2..=10).contains(&config.fields) {
            return Err(format!("fields must be in 2..=10, got {}", config.fields).into());
        }
        Ok(())
    }

    fn generate(config: &BlottoConfig, rng: &mut Rng) -> BlottoTask {
        BlottoTask {
            soldiers: config.soldiers,
            fields: config.fields,
            oracle_seed: rng.next_u64() & SEED_MASK,
        }
    }

    fn reset(task: &BlottoTask, _rng: Rng) -> Self {
        Blotto {
            task: task.clone(),
            sealed: [None, None],
        }
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Simultaneous((0..2).filter(|&p| self.sealed[p].is_none()).collect())
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let BlottoTask {
            soldiers, fields, ..
        } = self.task;
        let mut text = format!(
            "Colonel Blotto. You and your opponent each split {soldiers} soldiers over {fields} battlefields, at the \
             same time. A battlefield goes to whoever puts more soldiers on it (nobody on a tie); taking more \
             battlefields wins. You are player {player}.\n"
        );
        let may_move = self.sealed[player].is_none();
        if self.over() {
            let won = self.fields_won();
            text.push_str(&format!(
                "Your allocation: {}. Opponent's allocation: {}. Battlefields: you {}, opponent {}. {}",
                allocation_text(self.sealed[player].as_deref().unwrap_or_default()),
                allocation_text(self.sealed[1 - player].as_deref().unwrap_or_default()),
                won[player],
                won[1 - player],
                match self.winner() {
                    Some(w) if w == player => "You win.",
                    Some(_) => "You lose.",
                    None => "Draw.",
                }
            ));
        } else if let Some(mine) = &self.sealed[player] {
            text.push_str(&format!(
                "You allocated {}; waiting for the opponent.",
                allocation_text(mine)
            ));
        } else {
            text.push_str(&format!(
                "Reply with {fields} whole numbers, one per battlefield in order, summing to {soldiers} (like `{}`).",
                allocation_text(&even_split(soldiers, fields))
            ));
        }
        let legal = if !may_move || self.over() {
            Some(Vec::new())
        } else if count(soldiers, fields) <= MAX_LISTED {
            Some(
                allocations(soldiers, fields)
                    .iter()
                    .map(|a| allocation_text(a))
                    .collect(),
            )
        } else {
            None
        };
        Observation {
            text,
            structured: json!({
                "you": player,
                "soldiers": soldiers,
                "fields": fields,
                "yours": self.sealed[player],
                "opponent": if self.over() { json!(self.sealed[1 - player]) } else { json!(null) },
            }),
            legal_actions: legal,
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Vec<u32>, InvalidAction> {
        let BlottoTask {
            soldiers, fields, ..
        } = self.task;
        let numbers: Vec<u32> = text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| w.bytes().all(|b| b.is_ascii_digit()) && !w.is_empty())
            .map(|w| w.parse().unwrap_or(u32::MAX))
            .collect();
        if numbers.len() != fields {
            return Err(InvalidAction::new(format!(
                "give exactly {fields} numbers, one per battlefield; found {}",
                numbers.len()
            )));
        }
        let sum: u64 = numbers.iter().map(|&n| u64::from(n)).sum();
        if sum != u64::from(soldiers) {
            return Err(InvalidAction::new(format!(
                "the numbers must sum to {soldiers}, not {sum}"
            )));
        }
        Ok(numbers)
    }

    fn apply(
        &mut self,
        player: Player,
        allocation: Vec<u32>,
    ) -> Result<Vec<String>, InvalidAction> {
        self.sealed[player] = Some(allocation);
        Ok(match (self.over(), self.winner()) {
            (true, Some(w)) => vec![format!("player {w} wins")],
            (true, None) => vec!["draw".to_string()],
            _ => Vec::new(),
        })
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner(), self.over(), player)
            .part("fields", f64::from(self.fields_won()[player]))
    }

    fn oracle(&self, player: Player) -> Option<String> {
        (self.sealed[player].is_none()).then(|| allocation_text(&self.scripted(player)))
    }

    /// The even split, battlefields in order: the first strategy people
    /// try, and one a best reply to it beats.
    fn heuristic(&self, player: Player, _rng: &mut Rng) -> Option<String> {
        (self.sealed[player].is_none())
            .then(|| allocation_text(&even_split(self.task.soldiers, self.task.fields)))
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        allocation_text(&random_allocation(
            self.task.soldiers,
            self.task.fields,
            rng,
        ))
    }

    fn render(&self) -> String {
        let side = |s: &Option<Vec<u32>>| {
            s.as_deref()
                .map_or_else(|| "?".to_string(), allocation_text)
        };
        format!("{} | {}", side(&self.sealed[0]), side(&self.sealed[1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(soldiers: u32, fields: usize) -> Blotto {
        Blotto::reset(
            &BlottoTask {
                soldiers,
                fields,
                oracle_seed: 7,
            },
            Rng::from_seed(0),
        )
    }

    #[test]
    fn majorities_of_fields_win() {
        let mut g = game(10, 3);
        g.apply(0, vec![5, 5, 0]).unwrap();
        assert_eq!(g.turn(), Turn::Simultaneous(vec![1]));
        g.apply(1, vec![4, 4, 2]).unwrap();
        assert_eq!(g.render(), "5 5 0 | 4 4 2");
        assert_eq!(g.winner(), Some(0));
        assert_eq!(g.score(1).reward, -1.0);
        let mut tie = game(10, 3);
        tie.apply(0, vec![5, 5, 0]).unwrap();
        tie.apply(1, vec![5, 0, 5]).unwrap();
        assert_eq!(tie.fields_won(), [1, 1]);
        assert_eq!(tie.score(0).reward, 0.0);
    }

    #[test]
    fn allocations_parse_strictly_and_stay_sealed() {
        let mut g = game(6, 3);
        assert_eq!(g.parse_action(0, "allocate: 1, 2, 3"), Ok(vec![1, 2, 3]));
        assert!(g.parse_action(0, "1 2 3 or 3 2 1").is_err());
        assert!(g.parse_action(0, "1 2 2").is_err());
        assert!(g.parse_action(0, "6").is_err());
        assert_eq!(
            g.observe(0).legal_actions.unwrap().len(),
            28,
            "C(8, 2) allocations"
        );
        g.apply(0, vec![1, 2, 3]).unwrap();
        let other = g.observe(1);
        assert!(!other.text.contains("1 2 3"), "{}", other.text);
        assert_eq!(other.structured["opponent"], json!(null));
        assert!(
            g.observe(0)
                .text
                .ends_with("You allocated 1 2 3; waiting for the opponent.")
        );
        assert_eq!(count(100, 10), 4_263_421_511_271);
        assert!(game(100, 10).observe(0).legal_actions.is_none());
    }

    #[test]
    fn the_oracle_beats_uniform_random_allocations() {
        for (soldiers, fields) in [(10, 3), (100, 10)] {
            let (mut wins, mut losses) = (0, 0);
            for seed in 0..400u64 {
                let mut rng = Rng::from_seed(seed);
                let mut g = Blotto::reset(
                    &BlottoTask {
                        soldiers,
                        fields,
                        oracle_seed: seed,
                    },
                    Rng::from_seed(0),
                );
                let a = g.parse_action(0, &g.oracle(0).unwrap()).unwrap();
                let b = g.parse_action(1, &g.random_action(1, &mut rng)).unwrap();
                g.apply(0, a).unwrap();
                g.apply(1, b).unwrap();
                wins += u32::from(g.winner() == Some(0));
                losses += u32::from(g.winner() == Some(1));
            }
            eprintln!(
                "blotto {soldiers}/{fields}: oracle {wins} wins, {losses} losses of 400 against random"
            );
            assert!(
                wins > 2 * losses,
                "{soldiers}/{fields}: {wins} wins, {losses} losses"
            );
        }
    }
}
