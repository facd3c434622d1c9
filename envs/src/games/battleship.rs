//! `games/battleship-v1`: Battleship on a small grid, hidden fleets.
//!
//! # Task
//! Each player's fleet, placed at random by the seed: straight ships of the
//! configured lengths, across or down, not overlapping (they may touch).
//!
//! # Action
//! A cell of the opponent's grid to fire at, like `c3` (column letter, row
//! number from the top), not fired at before. Text naming two cells is
//! refused. Players alternate one shot each, hit or miss.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! Your own grid (your ships, where the opponent hit and missed) and your
//! shots on the opponent's grid (hits, misses, and the cells of ships you
//! have sunk, which are announced). Never the opponent's unsunk ships.
//!
//! # Reward
//! Sinking every cell of the opponent's fleet first wins: +1 to the
//! winner, −1 to the loser (zero-sum). `passed` means a win. Breakdown:
//! `win`, `hits`.
//!
//! # Episode end
//! A fleet sunk (at most one shot per cell each).
//!
//! # Parameters
//! `size` (4–10), `ships` (lengths, 2 to size). Presets `easy` (5×5, ships
//! 3 2), `medium` (6×6, 3 3 2), `hard` (8×8, 4 3 3 2).
//!
//! # Seeding
//! The seed places both fleets.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{pick, win_loss};
use crate::rng::Rng;

const MAX_SIZE: usize = 10;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BattleshipConfig {
    pub size: usize,
    pub ships: Vec<usize>,
}

impl Default for BattleshipConfig {
    fn default() -> Self {
        BattleshipConfig {
            size: 6,
            ships: vec![3, 3, 2],
        }
    }
}

/// Each player's ships, each a list of cells `row * size + col`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleshipTask {
    pub size: usize,
    pub fleets: [Vec<Vec<usize>>; 2],
}

#[derive(Clone, Debug)]
pub struct Battleship {
    size: usize,
    fleets: [Vec<Vec<usize>>; 2],
    /// `shots[p][cell]`: whether player `p` fired at that cell of the
    /// opponent's grid.
    shots: [Vec<bool>; 2],
    /// `ship_cells[p][cell]`: whether player `p` has a ship there.
    ship_cells: [Vec<bool>; 2],
    to_move: Player,
}

fn cell_name(size: usize, i: usize) -> String {
    format!("{}{}", (b'a' + (i % size) as u8) as char, i / size + 1)
}

/// Every straight placement of a ship of `len` on a `size` grid.
fn placements(size: usize, len: usize) -> Vec<Vec<usize>> {
    let mut all = Vec::new();
    for r in 0..size {
        for c in 0..size {
            if c + len <= size {
                all.push((0..len).map(|k| r * size + c + k).collect());
            }
            if r + len <= size && len > 1 {
                all.push((0..len).map(|k| (r + k) * size + c).collect());
            }
        }
    }
    all
}

impl Battleship {
    fn sunk(&self, shooter: Player) -> Vec<&Vec<usize>> {
        self.fleets[1 - shooter]
            .iter()
            .filter(|ship| ship.iter().all(|&c| self.shots[shooter][c]))
            .collect()
    }

    fn hits(&self, shooter: Player) -> usize {
        self.fleets[1 - shooter]
            .iter()
            .flatten()
            .filter(|&&c| self.shots[shooter][c])
            .count()
    }

    fn winner(&self) -> Option<Player> {
        (0..2).find(|&p| self.sunk(p).len() == self.fleets[1 - p].len())
    }

    fn is_ship(&self, owner: Player, cell: usize) -> bool {
        self.ship_cells[owner][cell]
    }

    /// The shooter's picture of the opponent's grid: `X` hit, `#` sunk,
    /// `o` miss, `.` unknown.
    fn target_grid(&self, shooter: Player) -> Vec<char> {
        let sunk: Vec<usize> = self.sunk(shooter).into_iter().flatten().copied().collect();
        (0..self.size * self.size)
            .map(
                |c| match (self.shots[shooter][c], self.is_ship(1 - shooter, c)) {
                    (false, _) => '.',
                    (true, false) => 'o',
                    (true, true) if sunk.contains(&c) => '#',
                    (true, true) => 'X',
                },
            )
            .collect()
    }

    /// The owner's own grid: `S` ship, `X` hit ship, `o` opponent's miss.
    fn home_grid(&self, owner: Player) -> Vec<char> {
        (0..self.size * self.size)
            .map(
                |c| match (self.is_ship(owner, c), self.shots[1 - owner][c]) {
                    (true, true) => 'X',
                    (true, false) => 'S',
                    (false, true) => 'o',
                    (false, false) => '.',
                },
            )
            .collect()
    }

    fn draw(&self, cells: &[char]) -> String {
        let letters: Vec<String> = (0..self.size)
            .map(|c| ((b'a' + c as u8) as char).to_string())
            .collect();
        let mut out = format!("   {}", letters.join(" "));
        for (r, row) in cells.chunks(self.size).enumerate() {
            let row: Vec<String> = row.iter().map(char::to_string).collect();
            out.push_str(&format!("\n{:>2} {}", r + 1, row.join(" ")));
        }
        out
    }

    /// Hunt and target by counting, over every placement of each unsunk
    /// ship that fits what the shooter knows, how often each unknown cell
    /// is covered; placements through open hits count far more.
    fn scripted(&self, shooter: Player) -> Option<usize> {
        let view = self.target_grid(shooter);
        let sunk = self.sunk(shooter);
        let mut remaining: Vec<usize> = self.fleets[1 - shooter].iter().map(Vec::len).collect();
        for ship in &sunk {
            if let Some(k) = remaining.iter().position(|&l| l == ship.len()) {
                remaining.swap_remove(k);
            }
        }
        let mut weight = vec![0u64; view.len()];
        for len in remaining {
            for place in placements(self.size, len) {
                if place.iter().any(|&c| view[c] == 'o' || view[c] == '#') {
                    continue;
                }
                let open_hits = place.iter().filter(|&&c| view[c] == 'X').count() as u32;
                for &c in &place {
                    if view[c] == '.' {
                        weight[c] += 50u64.pow(open_hits);
                    }
                }
            }
        }
        (0..view.len())
            .filter(|&c| view[c] == '.')
            .max_by_key(|&c| (weight[c], std::cmp::Reverse(c)))
    }
}

impl Env for Battleship {
    type Config = BattleshipConfig;
    type Task = BattleshipTask;
    type Action = usize;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/battleship-v1",
        kind: EnvKind::Game,
        description: "Battleship on 5x5 to 8x8 grids with hidden fleets; probability-density hunt/target oracle",
        players: 2,
        max_steps: 2 * MAX_SIZE * MAX_SIZE,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"size": 5, "ships": [3, 2]}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"size": 8, "ships": [4, 3, 3, 2]}"#,
            },
        ],
    };

    fn validate(config: &BattleshipConfig) -> Result<(), ConfigError> {
        if !(4..=MAX_SIZE).contains(&config.size) {
            return Err(format!("size must be in 4..={MAX_SIZE}, got {}", config.size).into());
        }
        if config.ships.is_empty() || config.ships.iter().any(|&l| l < 2 || l > config.size) {
            return Err(format!(
                "ships must be a non-empty list of lengths 2..={}",
                config.size
            )
            .into());
        }
        if config.ships.iter().sum::<usize>() * 2 > config.size * config.size {
            return Err("the ships may cover at most half the grid".into());
        }
        Ok(())
    }

    fn generate(config: &BattleshipConfig, rng: &mut Rng) -> BattleshipTask {
        let mut fleet = || loop {
            let mut used: Vec<usize> = Vec::new();
            let mut ships = Vec::new();
            for &len in &config.ships {
                let options: Vec<Vec<usize>> = placements(config.size, len)
                    .into_iter()
                    .filter(|p| p.iter().all(|c| !used.contains(c)))
                    .collect();
                let Some(place) = rng.choose(&options) else {
                    break;
                };
                used.extend(place);
                ships.push(place.clone());
            }
            if ships.len() == config.ships.len() {
                break ships;
            }
        };
        let first = fleet();
        BattleshipTask {
            size: config.size,
            fleets: [first, fleet()],
        }
    }

    fn reset(task: &BattleshipTask, _rng: Rng) -> Self {
        let cells = task.size * task.size;
        let ship_cells = |p: Player| {
            let mut map = vec![false; cells];
            for &c in task.fleets[p].iter().flatten() {
                map[c] = true;
            }
            map
        };
        Battleship {
            size: task.size,
            fleets: task.fleets.clone(),
            shots: [vec![false; cells], vec![false; cells]],
            ship_cells: [ship_cells(0), ship_cells(1)],
            to_move: 0,
        }
    }

    fn turn(&self) -> Turn {
        if self.winner().is_some() {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let lengths: Vec<String> = self.fleets[player]
            .iter()
            .map(|s| s.len().to_string())
            .collect();
        let sunk: Vec<String> = self
            .sunk(player)
            .iter()
            .map(|s| {
                format!(
                    "length {} at {}",
                    s.len(),
                    s.iter()
                        .map(|&c| cell_name(self.size, c))
                        .collect::<Vec<_>>()
                        .join(" ")
                )
            })
            .collect();
        let legal: Vec<String> = if self.to_move == player && self.winner().is_none() {
            (0..self.size * self.size)
                .filter(|&c| !self.shots[player][c])
                .map(|c| cell_name(self.size, c))
                .collect()
        } else {
            Vec::new()
        };
        let status = match self.winner() {
            Some(w) if w == player => {
                "Game over: you sank the whole enemy fleet. You win.".to_string()
            }
            Some(_) => "Game over: your fleet is sunk. You lose.".to_string(),
            None if self.to_move == player => {
                "Your shot: reply with one cell you have not fired at, like `c3`.".to_string()
            }
            None => "Waiting for the opponent.".to_string(),
        };
        Observation {
            text: format!(
                "Battleship on a {n}x{n} grid. Each fleet has ships of lengths {}. Players take turns firing one \
                 shot at the other's grid; sink every enemy ship cell first to win.\nYou are player {player}.\n\
                 Your grid (S ship, X hit, o enemy miss):\n{}\nYour shots (X hit, # sunk ship, o miss):\n{}\n\
                 Enemy ships sunk: {}.\n{status}",
                lengths.join(" "),
                self.draw(&self.home_grid(player)),
                self.draw(&self.target_grid(player)),
                if sunk.is_empty() {
                    "none".to_string()
                } else {
                    sunk.join("; ")
                },
                n = self.size,
            ),
            structured: json!({
                "you": player,
                "your_grid": self.home_grid(player).chunks(self.size).map(|r| r.iter().collect::<String>()).collect::<Vec<_>>(),
                "your_shots": self.target_grid(player).chunks(self.size).map(|r| r.iter().collect::<String>()).collect::<Vec<_>>(),
                "to_move": self.to_move,
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<usize, InvalidAction> {
        let names: Vec<String> = (0..self.size * self.size)
            .map(|i| cell_name(self.size, i))
            .collect();
        pick(
            text,
            names.iter().enumerate().map(|(i, n)| (n.as_str(), i)),
            "reply with one cell like `c3`",
        )
    }

    fn apply(&mut self, player: Player, cell: usize) -> Result<Vec<String>, InvalidAction> {
        if self.shots[player][cell] {
            return Err(InvalidAction::new(format!(
                "you already fired at {}",
                cell_name(self.size, cell)
            )));
        }
        let sunk_before = self.sunk(player).len();
        self.shots[player][cell] = true;
        self.to_move = 1 - player;
        let mut events = vec![format!(
            "{} {}",
            cell_name(self.size, cell),
            if self.is_ship(1 - player, cell) {
                "hit"
            } else {
                "miss"
            }
        )];
        if self.sunk(player).len() > sunk_before {
            events.push("ship sunk".to_string());
        }
        Ok(events)
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner(), self.winner().is_some(), player)
            .part("hits", self.hits(player) as f64)
    }

    fn oracle(&self, player: Player) -> Option<String> {
        if self.to_move != player || self.winner().is_some() {
            return None;
        }
        self.scripted(player).map(|c| cell_name(self.size, c))
    }

    /// Hunt and target without counting: fires next to an open hit when
    /// there is one, else at a random unknown cell.
    fn heuristic(&self, player: Player, rng: &mut Rng) -> Option<String> {
        if self.to_move != player || self.winner().is_some() {
            return None;
        }
        let view = self.target_grid(player);
        let n = self.size;
        let next_to_hit = |c: usize| {
            let (r, col) = (c / n, c % n);
            [
                c.checked_sub(n),
                (r + 1 < n).then_some(c + n),
                (col > 0).then_some(c.wrapping_sub(1)),
                (col + 1 < n).then_some(c + 1),
            ]
            .into_iter()
            .flatten()
            .any(|d| view[d] == 'X')
        };
        let unknown: Vec<usize> = (0..view.len()).filter(|&c| view[c] == '.').collect();
        let targets: Vec<usize> = unknown
            .iter()
            .copied()
            .filter(|&c| next_to_hit(c))
            .collect();
        let pool = if targets.is_empty() {
            &unknown
        } else {
            &targets
        };
        rng.choose(pool).map(|&c| cell_name(n, c))
    }

    fn random_action(&self, player: Player, rng: &mut Rng) -> String {
        let open: Vec<usize> = (0..self.size * self.size)
            .filter(|&c| !self.shots[player][c])
            .collect();
        rng.choose(&open)
            .map_or_else(String::new, |&c| cell_name(self.size, c))
    }

    fn render(&self) -> String {
        let grid = |p: Player| -> String {
            self.home_grid(p)
                .chunks(self.size)
                .map(|r| r.iter().collect::<String>())
                .collect::<Vec<_>>()
                .join("\n")
        };
        format!("{}\n\n{}", grid(0), grid(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Player 0: a 3-ship across a1-c1 and a 2-ship down e1-e2; player 1:
    /// a 3-ship down b2-b4 and a 2-ship across d5-e5.
    fn game() -> Battleship {
        let task = BattleshipTask {
            size: 5,
            fleets: [
                vec![vec![0, 1, 2], vec![4, 9]],
                vec![vec![6, 11, 16], vec![23, 24]],
            ],
        };
        Battleship::reset(&task, Rng::from_seed(0))
    }

    fn fire(g: &mut Battleship, cells: &[&str]) {
        for c in cells {
            let cell = g.parse_action(g.to_move, c).unwrap();
            g.apply(g.to_move, cell).unwrap();
        }
    }

    #[test]
    fn hits_sink_ships_and_the_last_ship_wins() {
        let mut g = game();
        fire(&mut g, &["b2", "a1", "b3", "e5", "b4", "c3"]);
        assert_eq!(
            g.render(),
            "XSS.S\n....S\n..o..\n.....\n....o\n\n.....\n.X...\n.X...\n.X...\n...SS"
        );
        assert_eq!(g.sunk(0).len(), 1);
        assert!(
            g.observe(0)
                .text
                .contains("Enemy ships sunk: length 3 at b2 b3 b4.")
        );
        fire(&mut g, &["d5", "a2", "e5"]);
        assert_eq!(g.winner(), Some(0));
        assert_eq!(g.turn(), Turn::Over);
        assert_eq!(g.score(1).reward, -1.0);
        assert_eq!(g.score(0).breakdown["hits"], 5.0);
    }

    #[test]
    fn the_enemy_fleet_stays_hidden() {
        let mut g = game();
        fire(&mut g, &["b2"]);
        let seen = g.observe(1);
        assert_eq!(
            seen.text,
            "Battleship on a 5x5 grid. Each fleet has ships of lengths 3 2. Players take turns firing one shot at \
             the other's grid; sink every enemy ship cell first to win.\nYou are player 1.\nYour grid (S ship, X \
             hit, o enemy miss):\n   a b c d e\n 1 . . . . .\n 2 . X . . .\n 3 . S . . .\n 4 . S . . .\n 5 . . . S \
             S\nYour shots (X hit, # sunk ship, o miss):\n   a b c d e\n 1 . . . . .\n 2 . . . . .\n 3 . . . . .\n 4 \
             . . . . .\n 5 . . . . .\nEnemy ships sunk: none.\nYour shot: reply with one cell you have not fired \
             at, like `c3`."
        );
        // Player 0 sees its one hit on player 1's grid and nothing of the
        // rest of player 1's fleet; player 1 has fired nothing yet.
        assert_eq!(
            g.observe(0).structured["your_shots"],
            json!([".....", ".X...", ".....", ".....", "....."])
        );
        assert_eq!(
            seen.structured["your_shots"],
            json!([".....", ".....", ".....", ".....", "....."])
        );
    }

    #[test]
    fn repeated_shots_and_hedges_are_refused() {
        let mut g = game();
        fire(&mut g, &["b2", "a1"]);
        assert!(g.apply(0, 6).is_err());
        assert!(g.parse_action(0, "c3 or c4").is_err());
        assert!(g.parse_action(0, "f1").is_err());
    }

    #[test]
    fn the_density_oracle_beats_random_fire() {
        let config = BattleshipConfig::default();
        let (mut wins, games) = (0, 60);
        for seed in 0..games {
            let mut rng = Rng::from_seed(seed);
            let task = Battleship::generate(&config, &mut rng);
            let mut g = Battleship::reset(&task, Rng::from_seed(0));
            let seat = (seed % 2) as usize;
            while g.winner().is_none() {
                let p = g.to_move;
                let text = if p == seat {
                    g.oracle(p).unwrap()
                } else {
                    g.random_action(p, &mut rng)
                };
                let cell = g.parse_action(p, &text).unwrap();
                g.apply(p, cell).unwrap();
            }
            wins += u32::from(g.winner() == Some(seat));
        }
        eprintln!("battleship 6x6: oracle won {wins}/{games} against random");
        assert!(wins * 100 >= 90 * games as u32, "{wins}/{games}");
    }
}
