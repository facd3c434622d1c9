//! Candidate tasks of `tools/spreadsheet` (the env screens them): an item
//! table with a locked Totals row and a tax-rate cell, then the requests
//! (or one refused request), applied in a fixed order to a copy of the
//! sheet to make the target, with the reference calls written alongside.

use serde_json::json;

use super::formula::{Addr, fmt_num};
use super::sheet::{Content, Sheet};
use super::task::REASONS;
use super::task::{Outcome, SheetConfig, SheetTask};
use super::{TOOLS, sheet_of};
use crate::rng::Rng;
use crate::toolkit::calls::call_text;
use crate::toolkit::parse::parse_call;

const ITEMS: &[&str] = &[
    "Stapler",
    "Paper clips",
    "Printer paper",
    "Toner",
    "Notebooks",
    "Sticky notes",
    "Envelopes",
    "Highlighters",
    "Markers",
    "Binders",
    "Scissors",
    "Tape",
    "Pens",
    "Pencils",
    "Erasers",
    "Rulers",
    "Calculators",
    "Desk lamps",
    "Mouse pads",
    "USB sticks",
    "Headsets",
    "Webcams",
    "Keyboards",
    "Monitor stands",
    "Cable ties",
    "Batteries",
    "Coffee beans",
    "Tea bags",
    "Paper cups",
    "Hand soap",
    "Label tape",
    "Folders",
    "Glue sticks",
    "Push pins",
    "Rubber bands",
    "Index cards",
    "Clipboards",
    "File boxes",
    "Chalk",
    "Desk trays",
];

/// Sheet title and the headers of columns A to C.
const THEMES: [[&str; 4]; 3] = [
    ["Office supplies order", "Item", "Qty", "Unit cost"],
    ["Warehouse inventory", "Product", "Units", "Price"],
    ["Event purchases", "Article", "Count", "Amount"],
];
const RATES: [f64; 6] = [0.05, 0.07, 0.08, 0.1, 0.12, 0.2];
/// Rows per `read_range` call of the reference.
pub(crate) const READ_ROWS: usize = 12;
pub(crate) const LINE_TOTAL: &str = "Line total";

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    FixValue,
    FixFormula,
    AddRow,
    TotalColumn,
    Aggregate,
}

fn cell(col: char, row: usize) -> String {
    format!("{col}{row}")
}

/// The task as it is built: the initial sheet, the target sheet, and the
/// words and reference writes of each request.
struct Draft {
    initial: Sheet,
    target: Sheet,
    headers: [&'static str; 4],
    /// Item names by row (index 0 is row 2).
    items: Vec<String>,
    /// The Totals row (1-based) in the target so far.
    totals: usize,
    has_e: bool,
    rate_row: usize,
    final_rows: Vec<usize>,
    said: Vec<String>,
    writes: Vec<String>,
    value_only: Vec<String>,
}

impl Draft {
    fn write(&mut self, at: &str, entry: &str) {
        let addr = Addr::parse(at).expect("a cell inside the sheet");
        let content = Content::parse(entry).expect("a valid entry");
        self.target.set(addr, content);
        self.writes
            .push(call_text("set_cell", json!({"cell": at, "content": entry})));
    }

    fn num(&self, at: &str) -> f64 {
        match Addr::parse(at).and_then(|a| self.target.get(a)) {
            Some(Content::Num(n)) => *n,
            _ => 0.0,
        }
    }

    fn item_rows(&self) -> std::ops::RangeInclusive<usize> {
        2..=self.items.len() + 1
    }

    fn pick_row(&self, rng: &mut Rng, final_row: bool) -> usize {
        let rows: Vec<usize> = self
            .item_rows()
            .filter(|r| self.final_rows.contains(r) == final_row)
            .collect();
        rows[rng.below(rows.len() as u64) as usize]
    }
}

fn price(rng: &mut Rng) -> f64 {
    rng.range_i64(50, 8000) as f64 / 100.0
}

/// The item table: headers, item rows, the Totals row and the tax rate.
fn table(config: &SheetConfig, rng: &mut Rng, has_e: bool) -> Draft {
    let n = config.rows;
    let theme = THEMES[rng.below(THEMES.len() as u64) as usize];
    let mut names: Vec<&str> = ITEMS.to_vec();
    rng.shuffle(&mut names);
    let mut sheet = Sheet::default();
    let mut put = |at: String, entry: String| {
        let addr = Addr::parse(&at).expect("a cell inside the sheet");
        sheet.set(addr, Content::parse(&entry).expect("a valid entry"));
    };
    for (col, header) in ['A', 'B', 'C', 'D']
        .into_iter()
        .zip(theme[1..].iter().chain(&["Status"]))
    {
        put(cell(col, 1), header.to_string());
    }
    let mut finals: Vec<usize> = (2..=n + 1).filter(|_| rng.chance(0.3)).collect();
    if finals.is_empty() {
        finals.push(rng.range_usize(2, n + 1));
    }
    if finals.len() == n {
        finals.remove(rng.below(n as u64) as usize);
    }
    for (i, name) in names.iter().take(n).enumerate() {
        let r = i + 2;
        put(cell('A', r), name.to_string());
        put(cell('B', r), rng.range_i64(1, 60).to_string());
        put(cell('C', r), fmt_num(price(rng)));
        let status = if finals.contains(&r) { "final" } else { "open" };
        put(cell('D', r), status.to_string());
        if has_e {
            put(cell('E', r), format!("=B{r}*C{r}"));
        }
    }
    let t = n + 2;
    put(cell('A', t), "Total".into());
    put(cell('B', t), format!("=SUM(B2:B{})", n + 1));
    if has_e {
        put(cell('E', 1), LINE_TOTAL.into());
        put(cell('E', t), format!("=SUM(E2:E{})", n + 1));
    }
    let rate_row = rng.range_usize(1, 3);
    put(cell('G', rate_row), "Tax rate".into());
    put(
        cell('H', rate_row),
        fmt_num(RATES[rng.below(RATES.len() as u64) as usize]),
    );
    Draft {
        initial: sheet.clone(),
        target: sheet,
        headers: [theme[0], theme[1], theme[2], theme[3]],
        items: names.iter().take(n).map(|s| s.to_string()).collect(),
        totals: t,
        has_e,
        rate_row,
        final_rows: finals,
        said: Vec::new(),
        writes: Vec::new(),
        value_only: Vec::new(),
    }
}

/// A new value for B or C of `row`, different from the old one.
fn new_value(d: &Draft, col: char, row: usize, rng: &mut Rng) -> String {
    let old = d.num(&cell(col, row));
    loop {
        let v = if col == 'B' {
            rng.range_i64(1, 60) as f64
        } else {
            price(rng)
        };
        if v != old {
            return fmt_num(v);
        }
    }
}

/// The column header of B or C, as requests name it.
fn header(d: &Draft, col: char) -> &'static str {
    if col == 'B' {
        d.headers[2]
    } else {
        d.headers[3]
    }
}

fn fix_value(d: &mut Draft, rng: &mut Rng) {
    let row = d.pick_row(rng, false);
    let col = if rng.chance(0.5) { 'B' } else { 'C' };
    let v = new_value(d, col, row, rng);
    let words = format!(
        "The {} of {} is wrong: it should be {v}.",
        header(d, col),
        d.items[row - 2]
    );
    d.said.push(words);
    let at = cell(col, row);
    d.write(&at, &v);
    d.value_only.push(at);
}

fn fix_formula(d: &mut Draft, rng: &mut Rng) {
    let row = rng.range_usize(2, d.items.len() + 1);
    let (b, c) = (d.num(&cell('B', row)), d.num(&cell('C', row)));
    let other = if row == 2 { 3 } else { row - 1 };
    let broken = match rng.below(3) {
        0 if (b * d.num(&cell('C', other)) - b * c).abs() > 1e-9 => format!("=B{row}*C{other}"),
        1 if (b + c - b * c).abs() > 1e-9 => format!("=B{row}+C{row}"),
        _ => fmt_num(((b * c).round() + rng.range_i64(1, 40) as f64).max(1.0) + 0.5),
    };
    let at = cell('E', row);
    let addr = Addr::parse(&at).expect("E is inside the sheet");
    let content = Content::parse(&broken).expect("a valid entry");
    d.initial.set(addr, content.clone());
    d.target.set(addr, content);
    let item = &d.items[row - 2];
    d.said.push(format!(
        "The {LINE_TOTAL} of {item} is wrong: fix it with a formula for {} × {} like the other rows.",
        d.headers[2], d.headers[3]
    ));
    d.write(&at, &format!("=B{row}*C{row}"));
}

fn add_row(d: &mut Draft, rng: &mut Rng) {
    let name = ITEMS
        .iter()
        .find(|i| !d.items.iter().any(|n| n.as_str() == **i))
        .expect("more names than rows")
        .to_string();
    let (q, p) = (rng.range_i64(1, 60).to_string(), fmt_num(price(rng)));
    let at = d.totals;
    d.target
        .insert_row(at - 1)
        .expect("the sheet has room for a row");
    d.writes.push(call_text("insert_row", json!({"row": at})));
    d.write(&cell('A', at), &name);
    d.write(&cell('B', at), &q);
    d.write(&cell('C', at), &p);
    d.write(&cell('D', at), "open");
    let mut words = format!(
        "Add {name} as a new last item, just above the Totals row: {} {q}, {} {p}, Status open",
        d.headers[2], d.headers[3]
    );
    if d.has_e {
        d.write(&cell('E', at), &format!("=B{at}*C{at}"));
        words.push_str(&format!(
            ", and its {LINE_TOTAL} formula like the other rows"
        ));
    }
    words.push('.');
    d.said.push(words);
    d.items.push(name);
    d.totals += 1;
}

fn total_column(d: &mut Draft, rng: &mut Rng) {
    let tax = rng.chance(0.5);
    let head = if tax { "With tax" } else { LINE_TOTAL };
    d.said.push(format!(
        "Add a column E with the header `{head}` in E1 and, in every item row, a formula for {} × {}{}.",
        d.headers[2],
        d.headers[3],
        if tax { " × (1 + the tax rate)" } else { "" }
    ));
    d.write("E1", head);
    for row in d.item_rows() {
        let f = if tax {
            format!("=B{row}*C{row}*(1+H{})", d.rate_row)
        } else {
            format!("=B{row}*C{row}")
        };
        d.write(&cell('E', row), &f);
    }
}

fn aggregate(d: &mut Draft, rng: &mut Rng) {
    let mut cols = vec!['B', 'C'];
    if d.has_e {
        cols.push('E');
    }
    let col = cols[rng.below(cols.len() as u64) as usize];
    // A sum of unit prices means nothing: prices get the other three.
    let funcs: &[(&str, &str)] = &[
        ("SUM", "total"),
        ("AVERAGE", "average"),
        ("MIN", "lowest"),
        ("MAX", "highest"),
    ];
    let funcs = if col == 'C' { &funcs[1..] } else { funcs };
    let (func, word) = funcs[rng.below(funcs.len() as u64) as usize];
    let name = match col {
        'E' => LINE_TOTAL,
        c => header(d, c),
    };
    let rows: Vec<usize> = (1..=5).filter(|r| *r != d.rate_row).collect();
    let k = rows[rng.below(rows.len() as u64) as usize];
    let formula = rng.chance(0.5);
    let mut label = format!("{word} {name}");
    label[..1].make_ascii_uppercase();
    d.said.push(format!(
        "Put the label `{label}` in G{k} and the {word} {name} over all item rows in H{k}{}.",
        if formula {
            ", as a formula so it updates"
        } else {
            " (the value will do)"
        }
    ));
    d.write(&cell('G', k), &label);
    let at = cell('H', k);
    d.write(&at, &format!("={func}({col}2:{col}{})", d.items.len() + 1));
    if !formula {
        d.value_only.push(at);
    }
}

/// The requests that the policy allows, at most one of each kind; a new
/// column E rules out the kinds that need one already.
fn kinds(config: &SheetConfig, rng: &mut Rng) -> Vec<Kind> {
    let mut pool = vec![
        Kind::FixValue,
        Kind::FixFormula,
        Kind::AddRow,
        Kind::TotalColumn,
        Kind::Aggregate,
    ];
    rng.shuffle(&mut pool);
    let mut chosen: Vec<Kind> = Vec::new();
    for kind in pool {
        let clash = |a: Kind, b: Kind| {
            matches!(
                (a, b),
                (Kind::TotalColumn, Kind::FixFormula | Kind::AddRow)
                    | (Kind::FixFormula | Kind::AddRow, Kind::TotalColumn)
            )
        };
        if chosen.len() < config.requests && !chosen.iter().any(|c| clash(*c, kind)) {
            chosen.push(kind);
        }
    }
    chosen.sort();
    chosen
}

pub(super) fn draw(config: &SheetConfig, rng: &mut Rng) -> SheetTask {
    let refuse = rng.chance(config.refuse_share);
    let kinds = if refuse {
        Vec::new()
    } else {
        kinds(config, rng)
    };
    let has_e = if kinds.contains(&Kind::TotalColumn) {
        false
    } else {
        kinds.contains(&Kind::FixFormula) || rng.chance(0.5)
    };
    let mut d = table(config, rng, has_e);
    let start_totals = d.totals;
    let mut names = Vec::new();
    let expected = if refuse {
        let (reason, at) = if rng.chance(0.5) {
            let v = (rng.range_i64(60, 400)).to_string();
            let words = format!(
                "The total {} in the Totals row looks wrong to me; please just type {v} into it.",
                d.headers[2]
            );
            d.said.push(words);
            names.push("locked_total".to_string());
            ("locked_row", cell('B', d.totals))
        } else {
            let row = d.pick_row(rng, true);
            let col = if rng.chance(0.5) { 'B' } else { 'C' };
            let v = new_value(&d, col, row, rng);
            let words = format!(
                "The {} of {} is wrong: it should be {v}.",
                header(&d, col),
                d.items[row - 2]
            );
            d.said.push(words);
            names.push("final_fix".to_string());
            ("final_row", cell(col, row))
        };
        Outcome::Refuse {
            reason: reason.into(),
            cell: at,
        }
    } else {
        for kind in &kinds {
            match kind {
                Kind::FixValue => fix_value(&mut d, rng),
                Kind::FixFormula => fix_formula(&mut d, rng),
                Kind::AddRow => add_row(&mut d, rng),
                Kind::TotalColumn => total_column(&mut d, rng),
                Kind::Aggregate => aggregate(&mut d, rng),
            }
            names.push(format!("{kind:?}"));
        }
        Outcome::Submit {
            target: d.target.entries(),
            value_only: d.value_only.clone(),
        }
    };
    let mut gold = vec![call_text("sheet_info", json!({}))];
    for start in (1..=start_totals).step_by(READ_ROWS) {
        let end = (start + READ_ROWS - 1).min(start_totals);
        gold.push(call_text(
            "read_range",
            json!({"range": format!("A{start}:H{end}")}),
        ));
    }
    gold.extend(d.writes.iter().cloned());
    gold.push(match &expected {
        Outcome::Submit { .. } => call_text("submit", json!({})),
        Outcome::Refuse { reason, cell } => {
            call_text("refuse", json!({"reason": reason, "cell": cell}))
        }
    });
    SheetTask {
        initial: d.initial.entries(),
        request: format!("Sheet `{}`. {}", d.headers[0], d.said.join(" ")),
        kinds: names,
        totals_row: start_totals,
        final_rows: d.final_rows.clone(),
        expected,
        perturb: rng.next_u64(),
        gold,
    }
}

/// Closing at once; refusing with a wrong reason (at the right cell) or at
/// a guessed cell; carrying out a refused request and then closing either
/// way; and the reference with every asked formula typed as its value.
pub(super) fn degenerate_scripts(task: &SheetTask) -> Vec<Vec<String>> {
    let submit = call_text("submit", json!({}));
    let refuse =
        |reason: &str, cell: &str| call_text("refuse", json!({"reason": reason, "cell": cell}));
    let mut scripts = vec![vec![submit.clone()]];
    scripts.extend(REASONS.iter().map(|r| vec![refuse(r, "B2")]));
    match &task.expected {
        Outcome::Refuse { reason, cell } => {
            for other in REASONS.iter().filter(|r| **r != reason.as_str()) {
                scripts.push(vec![refuse(other, cell)]);
            }
            let doing = call_text("set_cell", json!({"cell": cell, "content": "1"}));
            scripts.push(vec![doing.clone(), submit]);
            scripts.push(vec![doing, refuse(reason, cell)]);
        }
        Outcome::Submit { target, value_only } => {
            let values = sheet_of(target).evaluate();
            let mut typed = false;
            let script: Vec<String> = task
                .gold
                .iter()
                .map(|text| {
                    let Ok(call) = parse_call(text, &TOOLS) else {
                        return text.clone();
                    };
                    let cell = call.str("cell");
                    let asked = call.name == "set_cell"
                        && call.str("content").starts_with('=')
                        && !value_only.iter().any(|v| v == cell);
                    match Addr::parse(cell).filter(|_| asked) {
                        Some(at) => {
                            typed = true;
                            let shown = values.get(at).show();
                            call_text("set_cell", json!({"cell": cell, "content": shown}))
                        }
                        None => text.clone(),
                    }
                })
                .collect();
            if typed {
                scripts.push(script);
            }
        }
    }
    scripts
}
