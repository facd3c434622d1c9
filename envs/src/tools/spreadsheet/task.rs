//! The config, task, policy and final-sheet check of `tools/spreadsheet`.

use serde::{Deserialize, Serialize};

use super::formula::Addr;
use super::sheet::{Content, Sheet, Values};
use crate::rng::splitmix64;

/// The refusal reasons, one per policy rule a request can break.
pub(crate) const REASONS: [&str; 2] = ["locked_row", "final_row"];

pub(crate) const POLICY: &str = "Sheet policy:\n\
1. The Totals row (labelled `Total` in column A, right under the item rows) is locked: never write any cell of it. Inserting a row above it is fine (its sums take the new row in). A request to change a cell of it is refused with `locked_row`.\n\
2. A row whose Status (column D) is `final` is closed: never change its cells in columns A to D. A request to change one of them is refused with `final_row`.\n\
3. Change only what the request asks; every other cell keeps its content. Where the request asks for a formula, write one (starting with `=`) that refers to the input cells, so it updates when they change: a typed number is wrong there.\n\
4. Formulas: numbers, cell references (B2), ranges (B2:B9) inside SUM, AVERAGE, MIN, MAX and COUNT, + - * / and parentheses, one comparison (= <> < > <= >=, giving 1 or 0), IF(test, then, else), ROUND(x, digits) and \"text\" in quotes.\n\
5. When done, call submit. To refuse, call refuse(reason, cell) with the cell the request would change; a refused request changes nothing.";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SheetConfig {
    /// Item rows of the table.
    pub rows: usize,
    /// Requests in one task that the policy allows (a refused task has one).
    pub requests: usize,
    /// Share of tasks whose one request the policy refuses.
    pub refuse_share: f64,
}

impl Default for SheetConfig {
    fn default() -> Self {
        SheetConfig {
            rows: 12,
            requests: 2,
            refuse_share: 0.25,
        }
    }
}

/// What the policy makes of the request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Carry it out: the sheet must end as `target` (cell, entry) and be
    /// submitted. Cells in `value_only` may hold a typed value (the request
    /// did not ask for a formula there).
    Submit {
        target: Vec<(String, String)>,
        value_only: Vec<String>,
    },
    /// Refuse with `reason`, naming `cell`; the sheet stays as it was.
    Refuse { reason: String, cell: String },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SheetTask {
    /// The sheet at the start, as (cell, entry) pairs.
    pub initial: Vec<(String, String)>,
    /// The user's words.
    pub request: String,
    /// The request kinds, in the order the request states them.
    pub kinds: Vec<String>,
    /// The Totals row (1-based).
    pub totals_row: usize,
    /// Rows whose Status is `final` (1-based).
    pub final_rows: Vec<usize>,
    pub expected: Outcome,
    /// Seeds the perturbed recomputations of the check.
    pub perturb: u64,
    /// The reference calls, the closing call last.
    pub gold: Vec<String>,
}

/// How many perturbed recomputations the check makes besides the plain one.
const PERTURBED_RUNS: u64 = 2;

/// The number that input cell `addr` holds in perturbed run `run`: a
/// different factor and offset per cell and run, so formulas that read the
/// wrong cell or type a constant come out different.
fn perturbed(x: f64, seed: u64, run: u64, addr: Addr) -> f64 {
    let h = splitmix64(seed ^ splitmix64(run * 4096 + (addr.row * 64 + addr.col) as u64));
    let factor = 1.3 + (h % 1000) as f64 / 1000.0;
    let offset = 1.0 + ((h >> 20) % 7) as f64;
    x * factor + offset
}

/// The sheet an episode must end with, and its values as they are and in
/// the perturbed recomputations (computed once per episode).
#[derive(Debug)]
pub(crate) struct Target {
    sheet: Sheet,
    /// The numbers typed in the target: what the perturbed runs replace.
    inputs: Vec<(Addr, f64)>,
    /// Exempt from the perturbed runs: the request said a value will do.
    value_only: Vec<Addr>,
    seed: u64,
    /// The target's values in each run (the plain one first).
    runs: Vec<Values>,
}

impl Target {
    pub(crate) fn new(sheet: Sheet, value_only: Vec<Addr>, seed: u64) -> Self {
        let inputs: Vec<(Addr, f64)> = sheet
            .cells
            .iter()
            .filter_map(|(a, c)| match c {
                Content::Num(n) => Some((*a, *n)),
                _ => None,
            })
            .collect();
        let mut target = Target {
            sheet,
            inputs,
            value_only,
            seed,
            runs: Vec::new(),
        };
        target.runs = (0..=PERTURBED_RUNS)
            .map(|run| target.perturb(&target.sheet, run).evaluate())
            .collect();
        target
    }

    /// `sheet` with every input of the target replaced as run `run` says
    /// (unchanged in run 0).
    fn perturb(&self, sheet: &Sheet, run: u64) -> Sheet {
        let mut out = sheet.clone();
        if run > 0 {
            for &(a, x) in &self.inputs {
                out.set(a, Some(Content::Num(perturbed(x, self.seed, run, a))));
            }
        }
        out
    }

    /// Whether `got` ends as the target: every cell's value equal, first as
    /// they are, then with every number typed in the target replaced (in
    /// both sheets) by perturbed numbers, where the cells in `value_only`
    /// are not compared. A formula replaced by its value, or a formula
    /// reading the wrong cells, fails a perturbed run.
    pub(crate) fn matches(&self, got: &Sheet) -> bool {
        if got.cells == self.sheet.cells {
            return true;
        }
        let mut cells: Vec<Addr> = got
            .cells
            .keys()
            .chain(self.sheet.cells.keys())
            .copied()
            .collect();
        cells.sort();
        cells.dedup();
        (0..=PERTURBED_RUNS).all(|run| {
            let values = if run == 0 {
                got.evaluate()
            } else {
                self.perturb(got, run).evaluate()
            };
            let want = &self.runs[run as usize];
            cells
                .iter()
                .filter(|a| run == 0 || !self.value_only.contains(*a))
                .all(|a| values.get(*a).same(want.get(*a)))
        })
    }
}
