//! `logic/arc-grid-v1`: ARC-style grid puzzles: infer a composed grid
//! transformation from input/output examples and apply it to a test input.
//!
//! # Task
//! `examples` input/output pairs and a test input. Grids are `min_size` to
//! `max_size` cells a side, digits `0` (background) to `9`, drawn from
//! `colours` non-background colours. One rule maps every input to its
//! output: a composition of `transforms` distinct steps, each one of rotate
//! (90/180/270 degrees), reflect (left-right, up-down, transpose), recolour
//! (swap two colours), gravity (cells fall toward one side), flood fill
//! (background enclosed from the border takes a new colour), copy (a shifted
//! copy of the grid drawn under it) and symmetry completion (background takes
//! its mirror cell's colour). Draws where some output equals its input, the
//! test output equals an example output, or the test output has a single
//! colour are redrawn, so echoing the test input or copying an example never
//! passes.
//!
//! # Action
//! The test output grid: one row per line (or rows separated by `/`, `;` or
//! `\\`), one digit per cell; spaces, `,`, `|`, `&` and brackets between
//! cells, `Row 1:` labels, list numbers and bullets are ignored. In
//! `\boxed{…}` or as the whole reply. Read by the single-turn rule
//! (`crate::single_turn`): reasoning is dropped, then the last `\boxed{…}`
//! counts (boxes that disagree are a hedge and score 0), else the whole
//! reply; prose around the box is ignored.
//!
//! # Observation
//! The examples and the test input, rows as digit strings. Structured: the
//! same grids.
//!
//! # Reward
//! 1 and `passed` when the grid equals the rule applied to the test input
//! (its shape and every cell); else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `min_size` and `max_size` (3..=12, min <= max), `transforms` (1..=3),
//! `colours` (2..=6), `examples` (2..=5).
//!
//! # Seeding
//! The rule, its parameters and every grid come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Rows of cells, `0..=9`.
pub type Grid = Vec<Vec<u8>>;

/// Tasks drawn before giving up.
const MAX_DRAWS: u64 = 500;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ArcGridConfig {
    pub min_size: usize,
    pub max_size: usize,
    pub transforms: usize,
    pub colours: usize,
    pub examples: usize,
}

impl Default for ArcGridConfig {
    fn default() -> Self {
        ArcGridConfig {
            min_size: 4,
            max_size: 6,
            transforms: 2,
            colours: 3,
            examples: 3,
        }
    }
}

/// One step of a rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transform {
    /// Quarter turns clockwise (1..=3).
    Rotate(u8),
    /// 0: left-right, 1: up-down, 2: transpose.
    Reflect(u8),
    /// Swap these two colours.
    Recolour(u8, u8),
    /// Cells fall toward 0: down, 1: up, 2: left, 3: right.
    Gravity(u8),
    /// Background cells not connected to the border through background
    /// take this colour.
    FloodFill(u8),
    /// A copy shifted by (rows, cols) fills background cells.
    Copy(i8, i8),
    /// Background cells take their mirror cell's colour (0: left-right,
    /// 1: up-down).
    Symmetry(u8),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArcGridTask {
    pub examples: Vec<(Grid, Grid)>,
    pub test_input: Grid,
    pub test_output: Grid,
    /// The rule, first step first (never shown).
    pub rule: Vec<Transform>,
}

fn dims(g: &Grid) -> (usize, usize) {
    (g.len(), g[0].len())
}

/// The grid with cell `(r, c)` taken from `at(r, c)` over `rows × cols`.
fn build(rows: usize, cols: usize, at: impl Fn(usize, usize) -> u8) -> Grid {
    (0..rows)
        .map(|r| (0..cols).map(|c| at(r, c)).collect())
        .collect()
}

/// `t` applied to `g`.
pub fn apply(t: &Transform, g: &Grid) -> Grid {
    let (h, w) = dims(g);
    match *t {
        Transform::Rotate(k) => (0..k).fold(g.clone(), |g, _| {
            let (h, w) = dims(&g);
            build(w, h, |r, c| g[h - 1 - c][r])
        }),
        Transform::Reflect(0) => build(h, w, |r, c| g[r][w - 1 - c]),
        Transform::Reflect(1) => build(h, w, |r, c| g[h - 1 - r][c]),
        Transform::Reflect(_) => build(w, h, |r, c| g[c][r]),
        Transform::Recolour(a, b) => build(h, w, |r, c| match g[r][c] {
            x if x == a => b,
            x if x == b => a,
            x => x,
        }),
        Transform::Gravity(dir) => {
            // Gravity toward the left on a grid turned so `dir` is left.
            let (turn, back) = match dir {
                0 => (1, 3),
                1 => (3, 1),
                2 => (0, 0),
                _ => (2, 2),
            };
            let turned = apply(&Transform::Rotate(turn), g);
            let fallen: Grid = turned
                .iter()
                .map(|row| {
                    let mut cells: Vec<u8> = row.iter().copied().filter(|&x| x != 0).collect();
                    cells.resize(row.len(), 0);
                    cells
                })
                .collect();
            apply(&Transform::Rotate(back), &fallen)
        }
        Transform::FloodFill(colour) => {
            let mut outside = vec![vec![false; w]; h];
            let mut stack: Vec<(usize, usize)> = (0..h)
                .flat_map(|r| [(r, 0), (r, w - 1)])
                .chain((0..w).flat_map(|c| [(0, c), (h - 1, c)]))
                .collect();
            while let Some((r, c)) = stack.pop() {
                if g[r][c] != 0 || outside[r][c] {
                    continue;
                }
                outside[r][c] = true;
                if r > 0 {
                    stack.push((r - 1, c));
                }
                if r + 1 < h {
                    stack.push((r + 1, c));
                }
                if c > 0 {
                    stack.push((r, c - 1));
                }
                if c + 1 < w {
                    stack.push((r, c + 1));
                }
            }
            build(h, w, |r, c| {
                if g[r][c] == 0 && !outside[r][c] {
                    colour
                } else {
                    g[r][c]
                }
            })
        }
        Transform::Copy(dr, dc) => build(h, w, |r, c| {
            let (sr, sc) = (r as i64 - i64::from(dr), c as i64 - i64::from(dc));
            let inside = (0..h as i64).contains(&sr) && (0..w as i64).contains(&sc);
            if g[r][c] != 0 || !inside {
                g[r][c]
            } else {
                g[sr as usize][sc as usize]
            }
        }),
        Transform::Symmetry(axis) => build(h, w, |r, c| {
            let mirror = if axis == 0 {
                g[r][w - 1 - c]
            } else {
                g[h - 1 - r][c]
            };
            if g[r][c] != 0 { g[r][c] } else { mirror }
        }),
    }
}

/// The rule applied to `g`, step by step.
pub fn apply_rule(rule: &[Transform], g: &Grid) -> Grid {
    rule.iter().fold(g.clone(), |g, t| apply(t, &g))
}

/// A random step of kind `kind` (0..7) over `palette` (its colours).
fn random_transform(kind: u64, palette: &[u8], spare: u8, rng: &mut Rng) -> Transform {
    match kind {
        0 => Transform::Rotate(1 + rng.below(3) as u8),
        1 => Transform::Reflect(rng.below(3) as u8),
        2 => {
            let a = *rng.choose(palette).expect("colours");
            let others: Vec<u8> = (1..=9).filter(|&x| x != a).collect();
            Transform::Recolour(a, *rng.choose(&others).expect("colours"))
        }
        3 => Transform::Gravity(rng.below(4) as u8),
        4 => Transform::FloodFill(spare),
        5 => loop {
            let (dr, dc) = (rng.range_i64(-2, 2) as i8, rng.range_i64(-2, 2) as i8);
            if (dr, dc) != (0, 0) {
                break Transform::Copy(dr, dc);
            }
        },
        _ => Transform::Symmetry(rng.below(2) as u8),
    }
}

/// A random input for `rule`: sparse cells, with a hollow box when it fills
/// and a partly erased symmetric pattern when it starts with a symmetry
/// completion.
fn random_input(config: &ArcGridConfig, rule: &[Transform], palette: &[u8], rng: &mut Rng) -> Grid {
    let h = rng.range_usize(config.min_size, config.max_size);
    let w = rng.range_usize(config.min_size, config.max_size);
    let density = 0.2 + 0.3 * rng.unit_f64();
    let mut g = build(h, w, |_, _| 0);
    for cell in g.iter_mut().flatten() {
        if rng.chance(density) {
            *cell = *rng.choose(palette).expect("colours");
        }
    }
    if rule.iter().any(|t| matches!(t, Transform::FloodFill(_))) {
        let (bh, bw) = (rng.range_usize(3, h), rng.range_usize(3, w));
        let (top, left) = (rng.range_usize(0, h - bh), rng.range_usize(0, w - bw));
        let colour = *rng.choose(palette).expect("colours");
        for (r, row) in g.iter_mut().enumerate().skip(top).take(bh) {
            for (c, cell) in row.iter_mut().enumerate().skip(left).take(bw) {
                let edge = r == top || r == top + bh - 1 || c == left || c == left + bw - 1;
                *cell = if edge { colour } else { 0 };
            }
        }
    }
    if let Transform::Symmetry(axis) = rule[0] {
        g = apply(&Transform::Symmetry(axis), &g);
        for cell in g.iter_mut().flatten() {
            if rng.chance(0.3) {
                *cell = 0;
            }
        }
    }
    g
}

fn colour_count(g: &Grid) -> usize {
    let mut seen = [false; 10];
    g.iter()
        .flatten()
        .for_each(|&x| seen[usize::from(x)] = true);
    seen.iter().filter(|&&s| s).count()
}

fn draw(config: &ArcGridConfig, rng: &mut Rng) -> Option<ArcGridTask> {
    let mut colours: Vec<u8> = (1..=9).collect();
    rng.shuffle(&mut colours);
    let (palette, rest) = colours.split_at(config.colours);
    let mut kinds: Vec<u64> = (0..7).collect();
    rng.shuffle(&mut kinds);
    let rule: Vec<Transform> = kinds[..config.transforms]
        .iter()
        .map(|&k| random_transform(k, palette, rest[0], rng))
        .collect();
    let mut pairs = Vec::with_capacity(config.examples + 1);
    for _ in 0..=config.examples {
        let input = random_input(config, &rule, palette, rng);
        let output = apply_rule(&rule, &input);
        if output == input {
            return None;
        }
        pairs.push((input, output));
    }
    let (test_input, test_output) = pairs.pop().expect("a test pair");
    if colour_count(&test_output) < 2 || pairs.iter().any(|(_, out)| *out == test_output) {
        return None;
    }
    // Every step shows in some example and matters to the test output.
    for skip in 0..rule.len() {
        let without: Vec<Transform> = rule
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != skip)
            .map(|(_, t)| t.clone())
            .collect();
        let shows = pairs
            .iter()
            .any(|(input, output)| apply_rule(&without, input) != *output);
        if !shows || apply_rule(&without, &test_input) == test_output {
            return None;
        }
    }
    Some(ArcGridTask {
        examples: pairs,
        test_input,
        test_output,
        rule,
    })
}

fn grid_text(g: &Grid) -> String {
    g.iter()
        .map(|row| {
            row.iter()
                .map(|&x| char::from(b'0' + x))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One answer row: a `Row 1:` label, a list number or bullet stripped, then
/// digits with spaces, `,`, `|` and `&` between them.
fn parse_row(line: &str) -> Result<Option<Vec<u8>>, CheckError> {
    let mut line = line.trim().trim_matches('`').trim();
    if let Some((_, after)) = line.rsplit_once(':') {
        line = after.trim();
    }
    for bullet in ["- ", "* ", "• "] {
        line = line.strip_prefix(bullet).unwrap_or(line);
    }
    if let Some((number, after)) = line.split_once(['.', ')'])
        && !number.is_empty()
        && number.len() <= 2
        && number.bytes().all(|b| b.is_ascii_digit())
        && after.starts_with(' ')
    {
        line = after;
    }
    let mut row = Vec::new();
    for ch in line.chars() {
        match ch {
            '0'..='9' => row.push(ch as u8 - b'0'),
            c if c.is_whitespace() || ",|&[]".contains(c) => {}
            c => return Err(format!("`{c}` is not a cell: write each cell as a digit 0-9").into()),
        }
    }
    Ok((!row.is_empty()).then_some(row))
}

/// Reads a grid answer (see the module's `# Action`).
pub fn parse_grid(answer: &str) -> Result<Grid, CheckError> {
    let mut text = answer.trim().trim_end_matches('.').to_string();
    for env in ["matrix", "bmatrix", "pmatrix", "array"] {
        text = text
            .replace(&format!("\\begin{{{env}}}"), "")
            .replace(&format!("\\end{{{env}}}"), "");
    }
    // A bracketed row ends at its `]`: `[[0,1],[2,3]]`.
    let text = text.replace("\\\\", "\n").replace(['/', ';', ']'], "\n");
    let mut lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    // Rows on one line separated by commas: `012, 345`.
    let split_commas;
    if lines.len() == 1 {
        split_commas = lines[0].split(',').map(str::trim).collect::<Vec<_>>();
        if split_commas.len() > 1
            && split_commas
                .iter()
                .all(|p| p.chars().filter(char::is_ascii_digit).count() > 1)
        {
            lines = split_commas;
        }
    }
    let mut grid = Vec::new();
    for line in lines {
        if let Some(row) = parse_row(line)? {
            grid.push(row);
        }
    }
    if grid.is_empty() {
        return Err("no grid rows: write one row of digits per line".into());
    }
    if grid.iter().any(|row| row.len() != grid[0].len()) {
        return Err("rows of different lengths".into());
    }
    Ok(grid)
}

pub struct ArcGrid;

pub type ArcGridEnv = SingleTurn<ArcGrid>;

impl Question for ArcGrid {
    type Config = ArcGridConfig;
    type Task = ArcGridTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/arc-grid-v1",
        kind: EnvKind::SingleTurn,
        description: "ARC-style grid puzzles: infer a composed grid transformation from examples and apply it to a test input",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"min_size":3,"max_size":4,"transforms":1,"colours":2,"examples":3}"#,
        r#"{"min_size":3,"max_size":5,"transforms":1,"colours":3,"examples":3}"#,
        r#"{"min_size":4,"max_size":6,"transforms":1,"colours":3,"examples":3}"#,
        "{}",
        r#"{"min_size":5,"max_size":7,"transforms":2,"colours":4,"examples":3}"#,
        r#"{"min_size":5,"max_size":8,"transforms":3,"colours":4,"examples":4}"#,
        r#"{"min_size":6,"max_size":10,"transforms":3,"colours":5,"examples":4}"#,
    ];

    fn effort(task: &ArcGridTask) -> Option<f64> {
        let (h, w) = dims(&task.test_output);
        Some((task.rule.len() * h * w) as f64)
    }

    fn validate(config: &ArcGridConfig) -> Result<(), ConfigError> {
        if !(3..=12).contains(&config.min_size)
            || !(config.min_size..=12).contains(&config.max_size)
            || !(1..=3).contains(&config.transforms)
            || !(2..=6).contains(&config.colours)
            || !(2..=5).contains(&config.examples)
        {
            return Err(
                "need 3 <= min_size <= max_size <= 12, 1 <= transforms <= 3, 2 <= colours <= 6, \
                        2 <= examples <= 5"
                    .into(),
            );
        }
        Ok(())
    }

    fn generate(config: &ArcGridConfig, rng: &mut Rng) -> ArcGridTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(config: &ArcGridConfig, rng: &mut Rng) -> Result<ArcGridTask, NoTask> {
        draw_until(
            MAX_DRAWS,
            || draw(config, rng),
            || {
                format!(
                    "no rule changed every grid and gave a new, many-coloured test output in {MAX_DRAWS} draws: \
                     raise max_size or colours"
                )
            },
        )
    }

    fn prompt(task: &ArcGridTask) -> String {
        let mut text = String::from(
            "Each example shows an input grid and its output grid (digits are colours, 0 is the background). \
             One rule maps every input to its output: a composition of simple steps such as rotating, \
             reflecting, recolouring, letting cells fall to one side, filling enclosed background, copying the \
             pattern with a shift, or completing a mirror symmetry. Apply the same rule to the test input.\n",
        );
        for (i, (input, output)) in task.examples.iter().enumerate() {
            text.push_str(&format!(
                "\nExample {}\nInput:\n{}\nOutput:\n{}\n",
                i + 1,
                grid_text(input),
                grid_text(output)
            ));
        }
        text.push_str(&format!(
            "\nTest input:\n{}\n\nAnswer with the test output grid, one row of digits per line, inside \\boxed{{}}.",
            grid_text(&task.test_input)
        ));
        text
    }

    fn structured(task: &ArcGridTask) -> Value {
        let examples: Vec<Value> = task
            .examples
            .iter()
            .map(|(input, output)| json!({"input": input, "output": output}))
            .collect();
        json!({ "examples": examples, "test_input": task.test_input })
    }

    fn reference(task: &ArcGridTask) -> String {
        grid_text(&task.test_output)
    }

    fn check(task: &ArcGridTask, answer: &str) -> Result<bool, CheckError> {
        Ok(parse_grid(answer)? == apply_rule(&task.rule, &task.test_input))
    }
}

#[cfg(test)]
#[path = "arc_grid_tests.rs"]
mod tests;
