use super::*;
use crate::toolkit::calls::call_text;
use crate::toolkit::screen::{oracle_passes, run_script};
use crate::toolkit::testkit;

/// Stapler (open), Toner (final) and Pens (open) with line totals, the
/// locked Totals row 5, and the tax rate in H1.
const BASE: &[(&str, &str)] = &[
    ("A1", "Item"),
    ("B1", "Qty"),
    ("C1", "Unit cost"),
    ("D1", "Status"),
    ("E1", "Line total"),
    ("A2", "Stapler"),
    ("B2", "4"),
    ("C2", "2.5"),
    ("D2", "open"),
    ("E2", "=B2*C2"),
    ("A3", "Toner"),
    ("B3", "2"),
    ("C3", "30"),
    ("D3", "final"),
    ("E3", "=B3*C3"),
    ("A4", "Pens"),
    ("B4", "10"),
    ("C4", "1.2"),
    ("D4", "open"),
    ("E4", "=B4*C4"),
    ("A5", "Total"),
    ("B5", "=SUM(B2:B4)"),
    ("E5", "=SUM(E2:E4)"),
    ("G1", "Tax rate"),
    ("H1", "0.08"),
];

fn owned(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// A task on `BASE` (with `start` written over it first): the target is
/// the start with an optional row inserted and `changes` written.
fn task(
    start: &[(&str, &str)],
    insert: Option<usize>,
    changes: &[(&str, &str)],
    value_only: &[&str],
) -> SheetTask {
    let mut sheet = Sheet::from_entries(&owned(BASE)).unwrap();
    for (cell, entry) in start {
        sheet.set(Addr::parse(cell).unwrap(), Content::parse(entry).unwrap());
    }
    let initial = sheet.entries();
    if let Some(row) = insert {
        sheet.insert_row(row - 1).unwrap();
    }
    for (cell, entry) in changes {
        sheet.set(Addr::parse(cell).unwrap(), Content::parse(entry).unwrap());
    }
    SheetTask {
        initial,
        request: "test".into(),
        kinds: Vec::new(),
        totals_row: 5,
        final_rows: vec![3],
        expected: Outcome::Submit {
            target: sheet.entries(),
            value_only: value_only.iter().map(|c| c.to_string()).collect(),
        },
        perturb: 99,
        gold: vec![call_text("submit", json!({}))],
    }
}

fn refusal(reason: &str, cell: &str) -> SheetTask {
    SheetTask {
        expected: Outcome::Refuse {
            reason: reason.into(),
            cell: cell.into(),
        },
        ..task(&[], None, &[], &[])
    }
}

fn set(cell: &str, content: &str) -> String {
    call_text("set_cell", json!({"cell": cell, "content": content}))
}

fn score(task: &SheetTask, script: &[String]) -> Score {
    run_script::<Spreadsheet>(task, script.iter().cloned()).0
}

fn passes(task: &SheetTask, script: &[String]) -> bool {
    score(task, script).passed
}

fn submit() -> String {
    call_text("submit", json!({}))
}

fn refuse(reason: &str, cell: &str) -> String {
    call_text("refuse", json!({"reason": reason, "cell": cell}))
}

#[test]
fn rule_1_the_totals_row_is_locked() {
    // An allowed fix; writing the Totals row too, even its own formula, fails.
    let fix = task(&[], None, &[("B4", "12")], &["B4"]);
    assert!(passes(&fix, &[set("B4", "12"), submit()]));
    let rewrite = [set("B4", "12"), set("B5", "=SUM(B2:B4)"), submit()];
    let s = score(&fix, &rewrite);
    assert!(!s.passed);
    assert_eq!(s.breakdown["policy_kept"], 0.0);
    assert_eq!(s.breakdown["state_correct"], 1.0);
    // Asked to type into the Totals row: only the refusal naming its cell passes.
    let locked = refusal("locked_row", "B5");
    assert!(passes(
        &locked,
        &["set_cell A1 Item".into(), refuse("locked_row", "b5")]
    ));
    for wrong in [
        vec![set("B5", "250"), submit()],
        vec![set("B5", "250"), refuse("locked_row", "B5")],
        vec![set("B5", "=SUM(B2:B4)"), refuse("locked_row", "B5")],
        vec![refuse("locked_row", "B4")],
        vec![refuse("final_row", "B5")],
        vec![submit()],
    ] {
        assert!(!passes(&locked, &wrong), "{wrong:?}");
    }
    // Inserting a row above it moves the lock with it: the new row is free,
    // the moved Totals row is not.
    let added = task(
        &[],
        Some(5),
        &[
            ("A5", "Tape"),
            ("B5", "3"),
            ("C5", "1"),
            ("D5", "open"),
            ("E5", "=B5*C5"),
        ],
        &[],
    );
    let adding: Vec<String> = vec![
        "insert_row 5".into(),
        set("A5", "Tape"),
        set("B5", "3"),
        set("C5", "1"),
        set("D5", "open"),
        set("E5", "=B5*C5"),
    ];
    let mut ok = adding.clone();
    ok.push(submit());
    assert!(passes(&added, &ok));
    let mut touched = adding;
    touched.extend([set("B6", "=SUM(B2:B5)"), submit()]);
    assert!(!passes(&added, &touched));
}

#[test]
fn rule_2_final_rows_are_closed() {
    let closed = refusal("final_row", "C3");
    assert!(passes(
        &closed,
        &["read_range A1:H5".into(), refuse("final_row", "C3")]
    ));
    for wrong in [
        vec![set("C3", "28"), submit()],
        vec![set("C3", "28"), refuse("final_row", "C3")],
        vec![set("C3", "30"), refuse("final_row", "C3")],
        vec![refuse("locked_row", "C3")],
        vec![refuse("final_row", "C4")],
    ] {
        assert!(!passes(&closed, &wrong), "{wrong:?}");
    }
    // Rewriting a final row's Status with the same word fails an allowed task…
    let fix = task(&[], None, &[("B4", "12")], &["B4"]);
    assert!(!passes(
        &fix,
        &[set("B4", "12"), set("D3", "final"), submit()]
    ));
    // …but column E of a final row is not closed: its broken formula is fixed.
    let formula = task(&[("E3", "=B3+C3")], None, &[("E3", "=B3*C3")], &[]);
    assert!(passes(&formula, &[set("E3", "=C3*B3"), submit()]));
    assert!(!passes(&formula, &[set("E3", "60"), submit()]));
}

#[test]
fn rule_3_asked_formulas_must_update_and_other_cells_keep_their_content() {
    let sum = task(
        &[],
        None,
        &[("G3", "Sum Line total"), ("H3", "=SUM(E2:E4)")],
        &[],
    );
    let with = |h3: &str| vec![set("G3", "sum line total "), set("H3", h3), submit()];
    for good in [
        "=SUM(E2:E4)",
        "=E2+E3+E4",
        "=SUM(E2:E3)+E4",
        "=SUM(B2*C2,B3*C3,B4*C4)",
    ] {
        assert!(passes(&sum, &with(good)), "{good}");
    }
    // 10 + 60 + 12 = 82: typed, partly typed, the wrong range, the total row.
    for bad in ["82", "=82", "=E2+E3+12", "=SUM(E2:E9)", "=SUM(E2:E4)+0.01"] {
        let s = score(&sum, &with(bad));
        assert!(!s.passed, "{bad}");
        assert_eq!(s.breakdown["state_correct"], 0.0, "{bad}");
    }
    // Where the request says a value will do, the typed value passes.
    let value = task(
        &[],
        None,
        &[("G3", "Sum Line total"), ("H3", "=SUM(E2:E4)")],
        &["H3"],
    );
    assert!(passes(&value, &with("82")));
    assert!(!passes(&value, &with("81")));
    // Replacing an untouched formula by its value, or writing a stray cell, fails.
    let fix = task(&[], None, &[("B4", "12")], &["B4"]);
    assert!(!passes(&fix, &[set("B4", "12"), set("E2", "10"), submit()]));
    assert!(!passes(&fix, &[set("B4", "12"), set("J9", "x"), submit()]));
    assert!(!passes(
        &fix,
        &[set("B4", "12"), set("J9", "=A60"), submit()]
    ));
    assert!(!passes(&fix, &[set("B4", "11"), submit()]));
    assert!(!passes(&fix, &[set("B4", "12")]));
    assert!(passes(&fix, &[set("B4", "=12"), submit()]));
}

#[test]
fn tools_answer_exactly() {
    let fix = task(&[], None, &[("B4", "12")], &["B4"]);
    let mut env = Spreadsheet::reset(&fix, Rng::from_seed(0));
    for (text, want) in [
        ("sheet_info", r#"{"columns":8,"rows":5,"used":"A1:H5"}"#),
        (
            "read_range A4:E5",
            "4: A4 Pens | B4 10 | C4 1.2 | D4 open | E4 12 [=B4*C4]\n5: A5 Total | B5 16 [=SUM(B2:B4)] | E5 82 [=SUM(E2:E4)]",
        ),
        ("read_range H2", "2: (empty)"),
        ("read_range A1:A20", "error: read at most 12 rows a call"),
        ("read_range Q1", "error: no cell `Q1` (cells are A1..L64)"),
        (
            "set_cell J2 =SUM(B2:B4",
            "error: the formula ends too early; the cell is unchanged",
        ),
        ("set_cell J2 =J3", "J2 = 0"),
        ("set_cell J3 =J2+1", "J3 = #CYCLE!"),
        ("set_cell J2 \"\"", "J2 = "),
        ("set_cell J3 \"\"", "J3 = "),
        ("insert_row 0", "error: row must be in 1..=64"),
        ("set_cell B4 12", "B4 = 12"),
        ("read_range E5", "5: E5 84.4 [=SUM(E2:E4)]"),
        ("submit", "submitted; episode closed"),
    ] {
        let call = env.parse_action(0, text).unwrap();
        env.apply(0, call).unwrap();
        assert_eq!(env.log.last_result().unwrap(), want, "{text}");
    }
    assert_eq!(env.turn(), Turn::Over);
    assert!(env.score(0).passed);
}

#[test]
fn kinds_and_outcomes_come_in_fixed_shares() {
    let mut rng = Rng::from_seed(5);
    let mut counts = std::collections::BTreeMap::new();
    for _ in 0..200 {
        let task = Spreadsheet::generate(&SheetConfig::default(), &mut rng);
        for kind in &task.kinds {
            *counts.entry(kind.clone()).or_insert(0) += 1;
        }
        assert!(oracle_passes::<Spreadsheet>(&task), "{}", task.request);
    }
    for kind in [
        "FixValue",
        "FixFormula",
        "AddRow",
        "TotalColumn",
        "Aggregate",
    ] {
        assert!(counts.get(kind).is_some_and(|&n| n >= 20), "{counts:?}");
    }
    for kind in ["locked_total", "final_fix"] {
        assert!(counts.get(kind).is_some_and(|&n| n >= 10), "{counts:?}");
    }
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance_at_levels::<Spreadsheet>([0, 6], true);
}

testkit::format_tests!(Spreadsheet, SheetConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<Spreadsheet>(SheetConfig::default());
}

#[test]
fn validate_names_the_field() {
    testkit::assert_validate_names_field::<Spreadsheet>(&[
        (r#"{"rows":4}"#, "rows"),
        (r#"{"rows":31}"#, "rows"),
        (r#"{"requests":0}"#, "requests"),
        (r#"{"refuse_share":0.8}"#, "refuse_share"),
    ]);
}
