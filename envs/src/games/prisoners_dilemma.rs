//! `games/prisoners-dilemma-v1`: the iterated prisoner's dilemma.
//!
//! # Task
//! The payoff table and the number of rounds. Payoffs are drawn per task
//! (temptation T > reward R > punishment P > sucker S, with 2R > T + S so
//! that taking turns exploiting each other pays less than cooperating),
//! unless `classic_payoffs` fixes them at 5/3/1/0. The rounds are drawn
//! between the config's bounds; players are told the bounds, not the exact
//! count, so the last round is not known in advance (unless the bounds are
//! equal).
//!
//! # Action
//! `cooperate` (also `c`) or `defect` (also `d`), both players at once,
//! each without seeing the other's choice this round.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The payoff table, the round number, the rounds' bounds, every earlier
//! round's choices and payoffs, and your total. Never the opponent's sealed
//! choice.
//!
//! # Reward
//! Per round: both cooperate R each; both defect P each; a defector facing
//! a cooperator T, the cooperator S. The reward is the average payoff per
//! round (0..=10; not zero-sum). `passed` means an average of at least R,
//! the mutual-cooperation payoff. Breakdown: `total`, `rounds`.
//!
//! # Episode end
//! After the drawn number of rounds.
//!
//! # Parameters
//! `min_rounds`, `max_rounds` (1–100; equal bounds announce the horizon),
//! `classic_payoffs`. Presets `easy` (4–6 rounds), `medium` (8–12), `hard`
//! (10–40).
//!
//! # Seeding
//! The seed draws the payoffs and the number of rounds.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::pick;
use crate::rng::Rng;

const MAX_ROUNDS: u32 = 100;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DilemmaConfig {
    pub min_rounds: u32,
    pub max_rounds: u32,
    pub classic_payoffs: bool,
}

impl Default for DilemmaConfig {
    fn default() -> Self {
        DilemmaConfig {
            min_rounds: 8,
            max_rounds: 12,
            classic_payoffs: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DilemmaTask {
    pub rounds: u32,
    pub min_rounds: u32,
    pub max_rounds: u32,
    /// `[T, R, P, S]`.
    pub payoffs: [u32; 4],
}

/// `true` = cooperate.
#[derive(Clone, Debug)]
pub struct PrisonersDilemma {
    task: DilemmaTask,
    played: Vec<[bool; 2]>,
    sealed: [Option<bool>; 2],
}

fn name(cooperate: bool) -> &'static str {
    if cooperate { "cooperate" } else { "defect" }
}

impl PrisonersDilemma {
    /// Payoff to a player choosing `mine` against `theirs`.
    fn payoff(&self, mine: bool, theirs: bool) -> u32 {
        let [t, r, p, s] = self.task.payoffs;
        match (mine, theirs) {
            (true, true) => r,
            (false, false) => p,
            (false, true) => t,
            (true, false) => s,
        }
    }

    fn over(&self) -> bool {
        self.played.len() as u32 == self.task.rounds
    }

    fn total(&self, player: Player) -> u32 {
        self.played
            .iter()
            .map(|r| self.payoff(r[player], r[1 - player]))
            .sum()
    }
}

impl Env for PrisonersDilemma {
    type Config = DilemmaConfig;
    type Task = DilemmaTask;
    type Action = bool;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/prisoners-dilemma-v1",
        kind: EnvKind::Game,
        description: "Iterated prisoner's dilemma with a hidden horizon; tit-for-tat oracle",
        players: 2,
        max_steps: 2 * MAX_ROUNDS as usize,
        reward_range: (0.0, 10.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"min_rounds": 4, "max_rounds": 6}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"min_rounds": 10, "max_rounds": 40}"#,
            },
        ],
    };

    fn validate(config: &DilemmaConfig) -> Result<(), ConfigError> {
        if config.min_rounds < 1
            || config.min_rounds > config.max_rounds
            || config.max_rounds > MAX_ROUNDS
        {
            return Err(format!("need 1 <= min_rounds <= max_rounds <= {MAX_ROUNDS}").into());
        }
        Ok(())
    }

    fn generate(config: &DilemmaConfig, rng: &mut Rng) -> DilemmaTask {
        let rounds =
            rng.range_i64(i64::from(config.min_rounds), i64::from(config.max_rounds)) as u32;
        let payoffs = if config.classic_payoffs {
            [5, 3, 1, 0]
        } else {
            let s = rng.range_i64(0, 1) as u32;
            let p = s + rng.range_i64(1, 2) as u32;
            let r = p + rng.range_i64(1, 3) as u32;
            // T > R, and 2R > T + S.
            let t = rng.range_i64(i64::from(r) + 1, i64::from(2 * r - s - 1)) as u32;
            [t, r, p, s]
        };
        DilemmaTask {
            rounds,
            min_rounds: config.min_rounds,
            max_rounds: config.max_rounds,
            payoffs,
        }
    }

    fn reset(task: &DilemmaTask, _rng: Rng) -> Self {
        PrisonersDilemma {
            task: task.clone(),
            played: Vec::new(),
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
        let DilemmaTask {
            min_rounds,
            max_rounds,
            ..
        } = self.task;
        let horizon = if min_rounds == max_rounds {
            format!("{min_rounds} rounds")
        } else {
            format!("between {min_rounds} and {max_rounds} rounds (the exact number is not told)")
        };
        let mut text = format!(
            "Iterated prisoner's dilemma, {horizon}. Each round both players choose `cooperate` or `defect` at the \
             same time. Payoffs: both cooperate {r} each; both defect {p} each; defecting against a cooperator {t}, \
             the cooperator {s}. Maximise your own total.\nYou are player {player}.\n",
            t = self.task.payoffs[0],
            r = self.task.payoffs[1],
            p = self.task.payoffs[2],
            s = self.task.payoffs[3],
        );
        for (i, r) in self.played.iter().enumerate() {
            text.push_str(&format!(
                "round {}: you {}, opponent {}: you got {}\n",
                i + 1,
                name(r[player]),
                name(r[1 - player]),
                self.payoff(r[player], r[1 - player])
            ));
        }
        let total = self.total(player);
        text.push_str(&if self.over() {
            format!(
                "Game over after {} rounds. Your total: {total}.",
                self.task.rounds
            )
        } else if let Some(mine) = self.sealed[player] {
            format!(
                "Round {}: you chose {}; waiting for the opponent.",
                self.played.len() + 1,
                name(mine)
            )
        } else {
            format!(
                "Round {}. Your total so far: {total}. Reply `cooperate` or `defect`.",
                self.played.len() + 1
            )
        });
        let legal = if self.over() || self.sealed[player].is_some() {
            Vec::new()
        } else {
            vec!["cooperate".to_string(), "defect".to_string()]
        };
        Observation {
            text,
            structured: json!({
                "you": player,
                "round": self.played.len() + 1,
                "history": self.played.iter().map(|r| [name(r[player]), name(r[1 - player])]).collect::<Vec<_>>(),
                "total": total,
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<bool, InvalidAction> {
        let options = [
            ("cooperate", true),
            ("c", true),
            ("defect", false),
            ("d", false),
        ];
        pick(text, options, "reply `cooperate` or `defect`")
    }

    fn apply(&mut self, player: Player, cooperate: bool) -> Result<Vec<String>, InvalidAction> {
        self.sealed[player] = Some(cooperate);
        if let [Some(a), Some(b)] = self.sealed {
            self.played.push([a, b]);
            self.sealed = [None, None];
            return Ok(vec![format!(
                "round {}: {} / {}",
                self.played.len(),
                name(a),
                name(b)
            )]);
        }
        Ok(Vec::new())
    }

    fn score(&self, player: Player) -> Score {
        let rounds = self.played.len().max(1) as f64;
        let average = f64::from(self.total(player)) / rounds;
        Score::default()
            .with(
                average,
                self.over() && average >= f64::from(self.task.payoffs[1]),
            )
            .part("total", f64::from(self.total(player)))
            .part("rounds", self.played.len() as f64)
    }

    /// Tit-for-tat: cooperate first, then repeat the opponent's last move.
    fn oracle(&self, player: Player) -> Option<String> {
        if self.over() || self.sealed[player].is_some() {
            return None;
        }
        Some(name(self.played.last().is_none_or(|r| r[1 - player])).to_string())
    }

    /// Always defects: the one-shot dominant move, which tit-for-tat
    /// answers in kind.
    fn heuristic(&self, player: Player, _rng: &mut Rng) -> Option<String> {
        (!self.over() && self.sealed[player].is_none()).then(|| name(false).to_string())
    }

    fn render(&self) -> String {
        let rounds: Vec<String> = self
            .played
            .iter()
            .map(|r| {
                format!(
                    "{}{}",
                    if r[0] { 'C' } else { 'D' },
                    if r[1] { 'C' } else { 'D' }
                )
            })
            .collect();
        format!("{} | {}-{}", rounds.join(" "), self.total(0), self.total(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(rounds: u32) -> PrisonersDilemma {
        PrisonersDilemma::reset(
            &DilemmaTask {
                rounds,
                min_rounds: 3,
                max_rounds: 6,
                payoffs: [5, 3, 1, 0],
            },
            Rng::from_seed(0),
        )
    }

    fn round(g: &mut PrisonersDilemma, a: &str, b: &str) {
        let a = g.parse_action(0, a).unwrap();
        g.apply(0, a).unwrap();
        let b = g.parse_action(1, b).unwrap();
        g.apply(1, b).unwrap();
    }

    #[test]
    fn payoffs_match_the_table() {
        let mut g = game(4);
        round(&mut g, "cooperate", "C");
        round(&mut g, "I defect", "cooperate");
        round(&mut g, "d", "defect");
        round(&mut g, "cooperate", "defect");
        assert_eq!(g.render(), "CC DC DD CD | 9-9");
        assert_eq!(g.turn(), Turn::Over);
        assert_eq!(g.score(0).reward, 2.25);
        assert!(!g.score(0).passed);
    }

    #[test]
    fn tit_for_tat_copies_and_sealed_choices_stay_hidden() {
        let mut g = game(3);
        assert_eq!(g.oracle(0).as_deref(), Some("cooperate"));
        g.apply(0, false).unwrap();
        let seen = g.observe(1);
        assert_eq!(
            seen.text,
            "Iterated prisoner's dilemma, between 3 and 6 rounds (the exact number is not told). Each round both \
             players choose `cooperate` or `defect` at the same time. Payoffs: both cooperate 3 each; both defect 1 \
             each; defecting against a cooperator 5, the cooperator 0. Maximise your own total.\nYou are player \
             1.\nRound 1. Your total so far: 0. Reply `cooperate` or `defect`."
        );
        assert!(!seen.structured.to_string().contains("defect"));
        g.apply(1, true).unwrap();
        assert_eq!(g.oracle(1).as_deref(), Some("defect"));
        assert_eq!(g.oracle(0).as_deref(), Some("cooperate"));
        assert!(g.parse_action(0, "cooperate or defect").is_err());
        assert!(g.parse_action(0, "maybe").is_err());
    }

    #[test]
    fn tit_for_tat_cooperates_with_itself_and_limits_losses_to_defectors() {
        let mut g = game(6);
        while !g.over() {
            let (a, b) = (g.oracle(0).unwrap(), g.oracle(1).unwrap());
            round(&mut g, &a, &b);
        }
        assert_eq!(g.score(0).reward, 3.0);
        assert!(g.score(1).passed);
        let mut g = game(6);
        while !g.over() {
            let a = g.oracle(0).unwrap();
            round(&mut g, &a, "defect");
        }
        assert_eq!(g.render(), "CD DD DD DD DD DD | 5-10");
    }

    #[test]
    fn a_forfeit_never_lowers_the_honest_seat_from_either_side() {
        use crate::driver::{Agent, ConstantAgent, DriverConfig, OracleAgent, run_episode};
        let registry = crate::Registry::builtin();
        for honest in 0..2 {
            let mut env = registry.make("games/prisoners-dilemma-v1", None).unwrap();
            let card = env.generate(3);
            let mut oracle = OracleAgent;
            let mut refuser = ConstantAgent("I would rather not play.".into());
            let mut agents: Vec<&mut dyn Agent> = vec![&mut oracle, &mut refuser];
            if honest == 1 {
                agents.reverse();
            }
            let result =
                run_episode(env.as_mut(), &card, &mut agents, &DriverConfig::default()).unwrap();
            assert_eq!(result.forfeited_by, Some(1 - honest));
            assert!(result.passed[honest], "{result:?}");
            assert!(!result.passed[1 - honest]);
            assert!(
                result.returns[honest] > result.returns[1 - honest],
                "{result:?}"
            );
            assert_eq!(result.breakdown[honest].get("opponent_forfeit"), Some(&1.0));
        }
    }
}
