//! `games/kalah-v1`: Kalah, the store-and-capture mancala game.
//!
//! # Task
//! Six pits a side with the configured seeds in each, stores empty. Player
//! 0 (South) moves first. No chance.
//!
//! # Action
//! One of your non-empty pits, numbered 1–6 in sowing order (pit 6 is next
//! to your store): "3", "pit 3". Text naming two pits is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The board from your side (your pits below left to right, the
//! opponent's above right to left, the stores at the ends), the store
//! counts, whose turn it is and the legal pits. Both players see
//! everything.
//!
//! # Reward
//! Sowing drops one seed in each following pit counter-clockwise, your
//! store included, the opponent's store skipped. A last seed in your store
//! gives another move; a last seed in an empty pit of yours captures it and
//! the opposite pit's seeds, if any, into your store. When one side is
//! empty, each player adds their remaining seeds to their store, and the
//! larger store wins: +1 to the winner, −1 to the loser, 0 each on a tie
//! (zero-sum). At the ply limit the same count decides. `passed` means a
//! win. Breakdown: `win`/`draw`, `store`.
//!
//! # Episode end
//! A side empty, or `max_plies` moves.
//!
//! # Parameters
//! `seeds` per pit (2–6), `max_plies` (20–300). Presets `easy` (3 seeds),
//! `medium` (4), `hard` (6).
//!
//! # Seeding
//! Fixed start; the seed matters only to random agents.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{Search, best_move, evaluation_for, pick, win_block_greedy, win_loss};
use crate::rng::Rng;

const PITS: usize = 6;
/// Pits 0–5 and store 6 are South's (player 0), pits 7–12 and store 13
/// North's.
const HOLES: usize = 2 * PITS + 2;
const MAX_PLIES: usize = 300;
const ORACLE_DEPTH: u32 = 6;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct KalahConfig {
    pub seeds: u32,
    pub max_plies: usize,
}

impl Default for KalahConfig {
    fn default() -> Self {
        KalahConfig {
            seeds: 4,
            max_plies: 200,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KalahTask {
    pub seeds: u32,
    pub max_plies: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kalah {
    holes: [u32; HOLES],
    to_move: Player,
    plies: usize,
    max_plies: usize,
}

fn store(player: Player) -> usize {
    PITS + player * (PITS + 1)
}

/// The hole index of `player`'s pit `k` (0-based, in sowing order).
fn pit(player: Player, k: usize) -> usize {
    player * (PITS + 1) + k
}

impl Kalah {
    fn new(seeds: u32, max_plies: usize) -> Self {
        let mut holes = [seeds; HOLES];
        holes[store(0)] = 0;
        holes[store(1)] = 0;
        Kalah {
            holes,
            to_move: 0,
            plies: 0,
            max_plies,
        }
    }

    fn side_empty(&self, player: Player) -> bool {
        (0..PITS).all(|k| self.holes[pit(player, k)] == 0)
    }

    fn over(&self) -> bool {
        self.side_empty(0) || self.side_empty(1) || self.plies >= self.max_plies
    }

    /// Each player's store plus the seeds still on their side.
    fn totals(&self) -> [u32; 2] {
        [0, 1].map(|p| self.holes[store(p)] + (0..PITS).map(|k| self.holes[pit(p, k)]).sum::<u32>())
    }

    fn winner(&self) -> Option<Player> {
        let [a, b] = self.totals();
        (self.over() && a != b).then_some(usize::from(b > a))
    }

    fn legal(&self) -> Vec<usize> {
        if self.over() {
            return Vec::new();
        }
        (0..PITS)
            .filter(|&k| self.holes[pit(self.to_move, k)] > 0)
            .collect()
    }

    /// Sows pit `k` of the mover; returns whether they move again.
    fn sow(&mut self, k: usize) -> bool {
        let me = self.to_move;
        let mut at = pit(me, k);
        let mut seeds = std::mem::take(&mut self.holes[at]);
        while seeds > 0 {
            at = (at + 1) % HOLES;
            if at == store(1 - me) {
                continue;
            }
            self.holes[at] += 1;
            seeds -= 1;
        }
        self.plies += 1;
        let own_pit = (pit(me, 0)..pit(me, PITS)).contains(&at);
        if own_pit && self.holes[at] == 1 && self.holes[2 * PITS - at] > 0 {
            let opposite = 2 * PITS - at;
            self.holes[store(me)] += self.holes[at] + self.holes[opposite];
            self.holes[at] = 0;
            self.holes[opposite] = 0;
        }
        let again = at == store(me) && !self.over();
        if !again {
            self.to_move = 1 - me;
        }
        again
    }

    fn row(&self, player: Player, reversed: bool) -> String {
        let mut cells: Vec<String> = (0..PITS)
            .map(|k| format!("{:>2}", self.holes[pit(player, k)]))
            .collect();
        if reversed {
            cells.reverse();
        }
        cells.join(" ")
    }

    /// The board as `player` sees it: the opponent's pits on top.
    fn board(&self, player: Player) -> String {
        format!(
            "   {}\n{:>2}{}{:>2}\n   {}",
            self.row(1 - player, true),
            self.holes[store(1 - player)],
            " ".repeat(3 * PITS + 1),
            self.holes[store(player)],
            self.row(player, false)
        )
    }
}

impl Search for Kalah {
    type Move = usize;

    fn mover(&self) -> Player {
        self.to_move
    }

    /// Moves ending in the store first.
    fn moves(&self) -> Vec<usize> {
        let mut moves = self.legal();
        let lands_in_store = |k: usize| self.holes[pit(self.to_move, k)] as usize == PITS - k;
        moves.sort_by_key(|&k| !lands_in_store(k));
        moves
    }

    fn play(&mut self, k: usize) {
        self.sow(k);
    }

    fn outcome(&self) -> Option<Option<Player>> {
        self.over().then(|| self.winner())
    }

    /// Store difference, plus a little for seeds kept on one's side.
    fn evaluate(&self) -> i32 {
        let [a, b] = self.totals();
        let stores = self.holes[store(0)] as i32 - self.holes[store(1)] as i32;
        4 * stores + (a as i32 - b as i32)
    }
}

impl Env for Kalah {
    type Config = KalahConfig;
    type Task = KalahTask;
    type Action = usize;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/kalah-v1",
        kind: EnvKind::Game,
        description: "Kalah (mancala), six pits a side; alpha-beta oracle (6 plies, store difference)",
        players: 2,
        max_steps: MAX_PLIES,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"seeds": 3}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"seeds": 6}"#,
            },
        ],
    };

    fn validate(config: &KalahConfig) -> Result<(), ConfigError> {
        if !(2..=6).contains(&config.seeds) {
            return Err(format!("seeds must be in 2..=6, got {}", config.seeds).into());
        }
        if !(20..=MAX_PLIES).contains(&config.max_plies) {
            return Err(format!(
                "max_plies must be in 20..={MAX_PLIES}, got {}",
                config.max_plies
            )
            .into());
        }
        Ok(())
    }

    fn generate(config: &KalahConfig, _rng: &mut Rng) -> KalahTask {
        KalahTask {
            seeds: config.seeds,
            max_plies: config.max_plies,
        }
    }

    fn reset(task: &KalahTask, _rng: Rng) -> Self {
        Kalah::new(task.seeds, task.max_plies)
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let legal: Vec<String> = if self.to_move == player {
            self.legal().iter().map(|k| (k + 1).to_string()).collect()
        } else {
            Vec::new()
        };
        let [mine, theirs] = [self.totals()[player], self.totals()[1 - player]];
        let status = match self.winner() {
            Some(w) if w == player => format!("Game over: you win {mine} to {theirs}."),
            Some(_) => format!("Game over: you lose {mine} to {theirs}."),
            None if self.over() => format!("Game over: draw {mine} to {theirs}."),
            None if self.to_move == player => {
                format!("Your move. Legal pits: {}.", legal.join(", "))
            }
            None => "Waiting for the opponent.".to_string(),
        };
        Observation {
            text: format!(
                "Kalah. Your pits are the bottom row, numbered 1 to 6 from left to right; your store is on the \
                 right, the opponent's on the left, and seeds go counter-clockwise (along your row to your store, \
                 then along the top row). Pick a pit: its seeds are sown one per hole, skipping the opponent's \
                 store. Ending in your store gives another move; ending in an empty pit of yours captures it and \
                 the pit opposite. When a side is empty, remaining seeds go to their side's store; the larger store \
                 wins. Ply {} of at most {}.\n{}\n{status}",
                self.plies + 1,
                self.max_plies,
                self.board(player),
            ),
            structured: json!({
                "your_pits": (0..PITS).map(|k| self.holes[pit(player, k)]).collect::<Vec<_>>(),
                "opponent_pits": (0..PITS).map(|k| self.holes[pit(1 - player, k)]).collect::<Vec<_>>(),
                "stores": [self.holes[store(player)], self.holes[store(1 - player)]],
                "to_move": self.to_move,
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<usize, InvalidAction> {
        let names: Vec<String> = (1..=PITS).map(|k| k.to_string()).collect();
        pick(
            text,
            names.iter().enumerate().map(|(k, n)| (n.as_str(), k)),
            "reply with one pit number 1-6",
        )
    }

    fn apply(&mut self, player: Player, k: usize) -> Result<Vec<String>, InvalidAction> {
        if self.holes[pit(player, k)] == 0 {
            return Err(InvalidAction::new(format!("pit {} is empty", k + 1)));
        }
        Ok(if self.sow(k) {
            vec!["another move".to_string()]
        } else {
            Vec::new()
        })
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner(), self.over(), player).part("store", f64::from(self.totals()[player]))
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        best_move(self, ORACLE_DEPTH).map(|k| (k + 1).to_string())
    }

    /// Greedy: the sowing that leaves the best store and seed lead one
    /// move on (a win at once first; random among equals).
    fn heuristic(&self, _player: Player, rng: &mut Rng) -> Option<String> {
        win_block_greedy(self, rng, evaluation_for).map(|k| (k + 1).to_string())
    }

    fn render(&self) -> String {
        self.board(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(seeds: u32, pits: &[usize]) -> Kalah {
        let mut g = Kalah::new(seeds, 200);
        for &k in pits {
            g.apply(g.to_move, k - 1).unwrap();
        }
        g
    }

    #[test]
    fn sowing_extra_moves_and_captures() {
        // Pit 3 with 4 seeds ends in the store: another move.
        let g = play(4, &[3]);
        assert_eq!(g.to_move, 0);
        assert_eq!(
            g.render(),
            "    4  4  4  4  4  4\n 0                    1\n    4  4  0  5  5  5"
        );
        // South's pit 1 with 1 seed lands in the empty pit 2 and captures
        // the 4 seeds opposite it (North's pit 5).
        let mut g = Kalah::new(4, 200);
        g.holes[pit(0, 0)] = 1;
        g.holes[pit(0, 1)] = 0;
        g.apply(0, 0).unwrap();
        assert_eq!(g.holes[store(0)], 5);
        assert_eq!(g.holes[pit(1, 4)], 0);
        assert_eq!(g.to_move, 1);
        // Sowing skips the opponent's store: 13 seeds from South's pit 6
        // go round once and land back in pit 6.
        let mut g = Kalah::new(4, 200);
        g.holes[pit(0, 5)] = 13;
        g.apply(0, 5).unwrap();
        assert_eq!(g.holes[store(1)], 0);
        assert_eq!(
            g.holes[store(0)],
            2 + 5,
            "one seed per lap plus the capture of pit 6 and its opposite"
        );
    }

    #[test]
    fn an_empty_side_ends_the_game_and_sweeps_the_rest() {
        let mut g = Kalah::new(4, 200);
        g.holes = [0, 0, 0, 0, 0, 1, 20, 3, 0, 0, 0, 0, 0, 24];
        g.apply(0, 5).unwrap();
        assert!(g.over(), "South's side is empty");
        assert_eq!(g.totals(), [21, 27]);
        assert_eq!(g.winner(), Some(1));
        assert_eq!(g.score(0).reward, -1.0);
        assert!(g.observe(1).text.ends_with("Game over: you win 27 to 21."));
    }

    #[test]
    fn empty_pits_and_hedges_are_refused_and_text_is_exact() {
        let mut g = play(4, &[3]);
        assert!(g.apply(0, 2).is_err());
        assert!(g.parse_action(0, "pit 1 or pit 2").is_err());
        assert!(g.parse_action(0, "7").is_err());
        assert_eq!(g.parse_action(0, "pit 6"), Ok(5));
        let g = play(4, &[3, 1]);
        assert_eq!(
            g.observe(1)
                .text
                .lines()
                .skip(1)
                .collect::<Vec<_>>()
                .join("\n"),
            // South sowed pit 3 (into its store, moving again) then pit 1.
            "    5  6  6  1  5  0\n 1                    0\n    4  4  4  4  4  4\nYour move. Legal pits: 1, 2, 3, 4, 5, 6."
        );
    }

    #[test]
    fn the_oracle_beats_random_play_from_both_seats() {
        const GAMES: u64 = 20;
        for seat in 0..2 {
            let mut wins = 0;
            for seed in 0..GAMES {
                let mut rng = Rng::from_seed(seed);
                let mut g = Kalah::new(4, 200);
                while !g.over() {
                    let k = if g.to_move == seat {
                        best_move(&g, ORACLE_DEPTH).unwrap()
                    } else {
                        *rng.choose(&g.legal()).unwrap()
                    };
                    g.sow(k);
                }
                wins += u64::from(g.winner() == Some(seat));
            }
            eprintln!("kalah: oracle in seat {seat} won {wins}/{GAMES} against random");
            assert!(wins * 100 >= GAMES * 95, "seat {seat}: {wins}/{GAMES}");
        }
    }
}
