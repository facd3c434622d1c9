//! `logic/slitherlink-v1`: draw one closed loop along the grid lines so that
//! every numbered cell has that many sides on it (Slitherlink); one
//! solution, proven by our own solver when the task is made.
//!
//! # Task
//! An `n × n` grid of cells, some holding a number `0..=3`. Rules: the loop
//! runs along cell sides between grid points, is one single closed loop
//! that never crosses or touches itself, and a numbered cell has exactly
//! that many of its four sides on the loop. The generator grows a random
//! region of cells whose outline is one loop (adding a random neighbouring
//! cell only while the outline stays a single loop), numbers every cell,
//! keeps the grid only when the solver finds exactly one loop, then hides
//! numbers in random order while the loop stays unique, keeping at least
//! `density · n²` of them.
//!
//! # Action
//! The loop, as the cells inside it: `n` rows of `n` digits, `1` for a cell
//! inside the loop and `0` for a cell outside, one row per line (spaces,
//! commas, `|` or nothing between digits), read by
//! `verigym_verifiers::grid::parse_binary_grid`. In `\boxed{…}` or as the
//! whole reply. (Every single loop encloses exactly one such set of cells,
//! so this names the loop.)
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The grid of numbers (`.` for a cell without one). Structured: `n` and
//! the rows as strings.
//!
//! # Reward
//! 1 and `passed` when the outline of the answer's inside cells is one
//! single loop and every number holds (checked directly; the unique solution
//! means this agrees with the reference); else 0. Breakdown: `correct`,
//! `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `n` (4..=8), `density` (least share of cells keeping a number,
//! 0..=0.9).
//!
//! # Seeding
//! The region, the hidden numbers and the redraws come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::grid::parse_binary_grid;

use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// A cell without a number.
const NO_CLUE: u8 = 9;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SlitherlinkConfig {
    pub n: usize,
    pub density: f64,
}

impl Default for SlitherlinkConfig {
    fn default() -> Self {
        SlitherlinkConfig { n: 5, density: 0.0 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlitherlinkTask {
    pub n: usize,
    /// Row-major: `0..=3`, or `NO_CLUE`.
    pub clues: Vec<u8>,
    /// Row-major: whether each cell is inside the loop (the solution).
    pub inside: Vec<bool>,
}

/// The lattice of an `n × n` grid: grid points `r * (n + 1) + c`,
/// horizontal sides `r * n + c` (from point `(r, c)` to `(r, c + 1)`), then
/// vertical sides `(n + 1) * n + r * (n + 1) + c` (from `(r, c)` down).
struct Lattice {
    n: usize,
    ends: Vec<(usize, usize)>,
    at_point: Vec<Vec<usize>>,
    of_cell: Vec<[usize; 4]>,
}

impl Lattice {
    fn new(n: usize) -> Self {
        let w = n + 1;
        let h = |r: usize, c: usize| r * n + c;
        let v = |r: usize, c: usize| w * n + r * w + c;
        let mut ends = vec![(0, 0); 2 * w * n];
        for r in 0..w {
            for c in 0..n {
                ends[h(r, c)] = (r * w + c, r * w + c + 1);
                ends[v(c, r)] = (c * w + r, (c + 1) * w + r);
            }
        }
        let mut at_point = vec![Vec::new(); w * w];
        for (e, &(a, b)) in ends.iter().enumerate() {
            at_point[a].push(e);
            at_point[b].push(e);
        }
        let of_cell = (0..n * n)
            .map(|cell| {
                let (r, c) = (cell / n, cell % n);
                [h(r, c), h(r + 1, c), v(r, c), v(r, c + 1)]
            })
            .collect();
        Lattice {
            n,
            ends,
            at_point,
            of_cell,
        }
    }

    /// The outline of the `inside` cells: the sides between an inside cell
    /// and an outside one (beyond the edge is outside).
    fn outline(&self, inside: &[bool]) -> Vec<bool> {
        let mut on = vec![false; self.ends.len()];
        for (cell, sides) in self.of_cell.iter().enumerate() {
            if inside[cell] {
                for &e in sides {
                    on[e] = !on[e];
                }
            }
        }
        on
    }

    /// Whether the `on` sides form one single closed loop.
    fn single_loop(&self, on: &[bool]) -> bool {
        let degree_ok = self
            .at_point
            .iter()
            .all(|es| matches!(es.iter().filter(|&&e| on[e]).count(), 0 | 2));
        let total = on.iter().filter(|&&x| x).count();
        let Some(first) = on.iter().position(|&x| x) else {
            return false;
        };
        if !degree_ok {
            return false;
        }
        let (start, mut point) = self.ends[first];
        let (mut edge, mut walked) = (first, 1);
        while point != start {
            let Some(&next) = self.at_point[point].iter().find(|&&e| on[e] && e != edge) else {
                return false;
            };
            let (a, b) = self.ends[next];
            point = if a == point { b } else { a };
            edge = next;
            walked += 1;
        }
        walked == total
    }

    fn clues_hold(&self, clues: &[u8], on: &[bool]) -> bool {
        clues.iter().zip(&self.of_cell).all(|(&k, sides)| {
            k == NO_CLUE || sides.iter().filter(|&&e| on[e]).count() == k as usize
        })
    }
}

/// Unknown, off and on sides in the solver.
const UNKNOWN: i8 = -1;

/// A point's group in the solver: 0 or 2 of its sides on.
const POINT: u8 = u8::MAX;
/// Added to `k`: a group that must not have `k` sides on (a hidden number
/// whose loop is being looked for elsewhere).
const NOT: u8 = 16;

struct Search<'a> {
    lattice: &'a Lattice,
    clues: &'a [u8],
    /// Each rule's sides and what it wants: a number, or `POINT`.
    groups: Vec<(Vec<usize>, u8)>,
    /// The groups of each side.
    of_side: Vec<Vec<usize>>,
    banned: Option<(usize, u8)>,
    /// The groups of the side the last branch set.
    pending: Vec<usize>,
    found: usize,
    limit: usize,
}

impl Search<'_> {
    /// `banned`: a cell and a count its sides on the loop must not have.
    fn new<'a>(
        lattice: &'a Lattice,
        clues: &'a [u8],
        banned: Option<(usize, u8)>,
        limit: usize,
    ) -> Search<'a> {
        let mut groups: Vec<(Vec<usize>, u8)> = lattice
            .at_point
            .iter()
            .map(|es| (es.clone(), POINT))
            .collect();
        for (sides, &k) in lattice.of_cell.iter().zip(clues) {
            if k != NO_CLUE {
                groups.push((sides.to_vec(), k));
            }
        }
        if let Some((cell, k)) = banned {
            groups.push((lattice.of_cell[cell].to_vec(), NOT + k));
        }
        let mut of_side = vec![Vec::new(); lattice.ends.len()];
        for (g, (sides, _)) in groups.iter().enumerate() {
            for &e in sides {
                of_side[e].push(g);
            }
        }
        Search {
            lattice,
            clues,
            groups,
            of_side,
            banned,
            pending: Vec::new(),
            found: 0,
            limit,
        }
    }

    /// Applies the local rules until nothing changes: a grid point has 0 or
    /// 2 loop sides, a number that many. Starts from the groups in `queue`
    /// (all of them when it is empty). False on a contradiction.
    fn propagate(&self, s: &mut [i8], mut queue: Vec<usize>) -> bool {
        if queue.is_empty() {
            queue = (0..self.groups.len()).collect();
        }
        while let Some(g) = queue.pop() {
            let (group, want) = &self.groups[g];
            let on = group.iter().filter(|&&e| s[e] == 1).count() as u8;
            let open = group.iter().filter(|&&e| s[e] == UNKNOWN).count() as u8;
            // What every open side must be (`None`: nothing yet), or a clash.
            let set = match *want {
                POINT if on > 2 || (on == 1 && open == 0) => return false,
                POINT if on == 2 || (on == 0 && open == 1) => Some(0),
                POINT if on == 1 && open == 1 => Some(1),
                POINT => None,
                k if k >= NOT => match (open, k - NOT) {
                    (0, k) if on == k => return false,
                    (1, k) if on == k => Some(1),
                    (1, k) if on + 1 == k => Some(0),
                    _ => None,
                },
                k if on > k || on + open < k => return false,
                k if on == k => Some(0),
                k if on + open == k => Some(1),
                _ => None,
            };
            let Some(set) = set else { continue };
            for &e in group {
                if s[e] == UNKNOWN {
                    s[e] = set;
                    queue.extend(self.of_side[e].iter().filter(|&&h| h != g));
                }
            }
        }
        true
    }

    /// Whether setting every unknown side off leaves a solution.
    fn closes(&self, s: &[i8]) -> bool {
        let on: Vec<bool> = s.iter().map(|&x| x == 1).collect();
        let allowed = self.banned.is_none_or(|(cell, k)| {
            self.lattice.of_cell[cell]
                .iter()
                .filter(|&&e| on[e])
                .count()
                != k as usize
        });
        allowed && self.lattice.single_loop(&on) && self.lattice.clues_hold(self.clues, &on)
    }

    fn go(&mut self, mut s: Vec<i8>, steps: &mut u64) -> Option<()> {
        *steps = steps.checked_sub(1)?;
        let lat = self.lattice;
        let mut queue = std::mem::take(&mut self.pending);
        loop {
            if !self.propagate(&mut s, std::mem::take(&mut queue)) {
                return Some(());
            }
            // Paths of loop sides, by union-find over grid points; a side
            // joining a path to itself closes a loop.
            let mut parent: Vec<usize> = (0..lat.at_point.len()).collect();
            fn find(parent: &mut [usize], mut x: usize) -> usize {
                while parent[x] != x {
                    parent[x] = parent[parent[x]];
                    x = parent[x];
                }
                x
            }
            for (e, &(a, b)) in lat.ends.iter().enumerate() {
                if s[e] == 1 {
                    let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                    if ra == rb {
                        // A closed loop: the rest must be off.
                        self.found += usize::from(self.closes(&s));
                        return Some(());
                    }
                    parent[ra] = rb;
                }
            }
            let mut forced = false;
            for (e, &(a, b)) in lat.ends.iter().enumerate() {
                if s[e] == UNKNOWN && find(&mut parent, a) == find(&mut parent, b) {
                    // On, it closes the loop and every other side is off.
                    s[e] = 1;
                    self.found += usize::from(self.closes(&s));
                    if self.found >= self.limit {
                        return Some(());
                    }
                    s[e] = 0;
                    queue.extend(&self.of_side[e]);
                    forced = true;
                }
            }
            if !forced {
                break;
            }
        }
        // Branch on a side of the banned cell, else at a path's end, else
        // beside a number, else any.
        let open = |e: &usize| s[*e] == UNKNOWN;
        let of_banned = self
            .banned
            .and_then(|(cell, _)| lat.of_cell[cell].iter().copied().find(open));
        let at_end = || {
            lat.at_point.iter().find_map(|es| {
                (es.iter().filter(|&&e| s[e] == 1).count() == 1)
                    .then(|| es.iter().copied().find(open))
                    .flatten()
            })
        };
        let beside_clue = || {
            lat.of_cell
                .iter()
                .zip(self.clues)
                .filter(|&(_, &k)| k != NO_CLUE)
                .find_map(|(sides, _)| sides.iter().copied().find(open))
        };
        let Some(edge) = of_banned
            .or_else(at_end)
            .or_else(beside_clue)
            .or_else(|| (0..s.len()).find(open))
        else {
            self.found += usize::from(self.closes(&s));
            return Some(());
        };
        for value in [1, 0] {
            let mut next = s.clone();
            next[edge] = value;
            self.pending = self.of_side[edge].clone();
            self.go(next, steps)?;
            if self.found >= self.limit {
                break;
            }
        }
        Some(())
    }
}

/// Counts loops up to `limit`; spends one of `steps` per search node,
/// `None` when they run out.
fn count_solutions(
    lattice: &Lattice,
    clues: &[u8],
    limit: usize,
    steps: &mut u64,
) -> Option<usize> {
    let mut search = Search::new(lattice, clues, None, limit);
    search.go(vec![UNKNOWN; lattice.ends.len()], steps)?;
    Some(search.found)
}

/// Whether hiding the number `k` of `cell` (already hidden in `clues`)
/// keeps the loop unique: no loop meeting the other numbers has another
/// count there. `None` when the steps run out.
fn hides(lattice: &Lattice, clues: &[u8], cell: usize, k: u8, steps: &mut u64) -> Option<bool> {
    let mut search = Search::new(lattice, clues, Some((cell, k)), 1);
    search.go(vec![UNKNOWN; lattice.ends.len()], steps)?;
    Some(search.found == 0)
}

/// Solver steps for a draw's uniqueness check, and for each hidden number.
const MAX_STEPS: u64 = 2_000;
const HIDE_STEPS: u64 = 150;

pub struct Slitherlink;

pub type SlitherlinkEnv = SingleTurn<Slitherlink>;

impl Slitherlink {
    /// A random region of about half the cells whose outline is one loop.
    fn grow(lattice: &Lattice, rng: &mut Rng) -> Vec<bool> {
        let n = lattice.n;
        let target = rng.range_usize(n * n * 2 / 5, n * n * 3 / 5);
        let mut inside = vec![false; n * n];
        inside[rng.range_usize(0, n * n - 1)] = true;
        for _ in 1..target {
            let mut options: Vec<usize> = (0..n * n)
                .filter(|&cell| {
                    let (r, c) = (cell / n, cell % n);
                    !inside[cell]
                        && [
                            (r > 0).then(|| cell - n),
                            (r + 1 < n).then(|| cell + n),
                            (c > 0).then(|| cell - 1),
                            (c + 1 < n).then(|| cell + 1),
                        ]
                        .into_iter()
                        .flatten()
                        .any(|o| inside[o])
                })
                .collect();
            rng.shuffle(&mut options);
            let added = options.into_iter().find(|&cell| {
                inside[cell] = true;
                let ok = lattice.single_loop(&lattice.outline(&inside));
                inside[cell] = ok;
                ok
            });
            if added.is_none() {
                break;
            }
        }
        inside
    }

    fn draw(config: &SlitherlinkConfig, rng: &mut Rng) -> Option<SlitherlinkTask> {
        let n = config.n;
        let lattice = Lattice::new(n);
        let inside = Self::grow(&lattice, rng);
        let on = lattice.outline(&inside);
        let mut clues: Vec<u8> = lattice
            .of_cell
            .iter()
            .map(|sides| sides.iter().filter(|&&e| on[e]).count() as u8)
            .collect();
        let mut steps = MAX_STEPS;
        if count_solutions(&lattice, &clues, 2, &mut steps)? != 1 {
            return None;
        }
        let keep = (config.density * (n * n) as f64).ceil() as usize;
        let mut shown = n * n;
        let mut order: Vec<usize> = (0..n * n).collect();
        rng.shuffle(&mut order);
        for cell in order {
            if shown <= keep {
                break;
            }
            let number = clues[cell];
            clues[cell] = NO_CLUE;
            let mut steps = HIDE_STEPS;
            if hides(&lattice, &clues, cell, number, &mut steps) == Some(true) {
                shown -= 1;
            } else {
                clues[cell] = number;
            }
        }
        Some(SlitherlinkTask { n, clues, inside })
    }

    fn rows(task: &SlitherlinkTask) -> Vec<String> {
        task.clues
            .chunks(task.n)
            .map(|row| {
                row.iter()
                    .map(|&k| match k {
                        NO_CLUE => ".".to_string(),
                        k => k.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }
}

impl Question for Slitherlink {
    type Config = SlitherlinkConfig;
    type Task = SlitherlinkTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/slitherlink-v1",
        kind: EnvKind::SingleTurn,
        description: "Slitherlink: draw one closed loop along the grid lines so each numbered cell has that many sides on it; answer the cells inside the loop; unique solution",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 2, 4]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"n":4,"density":0.8}"#,
        r#"{"n":5,"density":0.7}"#,
        "{}",
        r#"{"n":6}"#,
        r#"{"n":7,"density":0.5}"#,
        r#"{"n":7}"#,
        r#"{"n":8,"density":0.6}"#,
    ];

    /// Sides of the grid plus the cells without a number.
    fn effort(task: &SlitherlinkTask) -> Option<f64> {
        let hidden = task.clues.iter().filter(|&&k| k == NO_CLUE).count();
        Some((2 * task.n * (task.n + 1) + hidden) as f64)
    }

    fn validate(config: &SlitherlinkConfig) -> Result<(), ConfigError> {
        if !(4..=8).contains(&config.n) {
            return Err("n must be in 4..=8".into());
        }
        if !(0.0..=0.9).contains(&config.density) {
            return Err("density must be in 0..=0.9".into());
        }
        Ok(())
    }

    fn generate(config: &SlitherlinkConfig, rng: &mut Rng) -> SlitherlinkTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &SlitherlinkConfig, rng: &mut Rng) -> Result<SlitherlinkTask, NoTask> {
        draw_until(
            2000,
            || Self::draw(config, rng),
            || "no loop in 2000 draws was proven unique; lower n".into(),
        )
    }

    fn prompt(task: &SlitherlinkTask) -> String {
        let n = task.n;
        format!(
            "Slitherlink: draw one single closed loop along the lines of this {n}x{n} grid of cells. The loop \
             runs along cell sides from grid point to grid point, never crosses or touches itself (it passes \
             each grid point at most once), and a cell with a number has exactly that many of its four sides \
             on the loop; a cell with . may have any number of sides on it. The solution is unique.\n\n{}\n\n\
             Answer with the cells inside the loop: {n} lines of {n} digits, 1 for a cell inside the loop and \
             0 for a cell outside it, inside \\boxed{{}}.",
            Self::rows(task).join("\n")
        )
    }

    fn structured(task: &SlitherlinkTask) -> Value {
        json!({ "n": task.n, "rows": Self::rows(task) })
    }

    fn reference(task: &SlitherlinkTask) -> String {
        task.inside
            .chunks(task.n)
            .map(|row| {
                row.iter()
                    .map(|&x| if x { "1" } else { "0" })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &SlitherlinkTask, answer: &str) -> Result<bool, CheckError> {
        let n = task.n;
        // A sentence's period after the last row is no cell.
        let answer = answer.trim_end();
        let answer = answer.strip_suffix('.').unwrap_or(answer);
        let grid = parse_binary_grid(answer, n, n).map_err(|e| e.to_string())?;
        let inside: Vec<bool> = grid.iter().map(|&g| g == 1).collect();
        let lattice = Lattice::new(n);
        let on = lattice.outline(&inside);
        Ok(lattice.single_loop(&on) && lattice.clues_hold(&task.clues, &on))
    }
}

#[cfg(test)]
#[path = "slitherlink_tests.rs"]
mod tests;
