use super::formula::*;
use super::sheet::*;
use crate::rng::Rng;

fn sheet(entries: &[(&str, &str)]) -> Sheet {
    let entries: Vec<(String, String)> = entries
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    Sheet::from_entries(&entries).unwrap()
}

fn value(s: &Sheet, cell: &str) -> String {
    s.evaluate().get(Addr::parse(cell).unwrap()).show()
}

#[test]
fn addresses_read_and_print() {
    assert_eq!(Addr::parse("b12"), Some(Addr::new(11, 1)));
    assert_eq!(Addr::parse(" $C$3 "), Some(Addr::new(2, 2)));
    assert_eq!(Addr::parse("L64").unwrap().name(), "L64");
    for bad in ["M1", "A0", "A65", "A", "12", "AA1", "A1B", "", "A-1"] {
        assert_eq!(Addr::parse(bad), None, "{bad}");
    }
}

#[test]
fn entries_read_as_numbers_text_and_formulas() {
    assert_eq!(Content::parse("12.5").unwrap(), Some(Content::Num(12.5)));
    assert_eq!(
        Content::parse("$1,200").unwrap(),
        Some(Content::Num(1200.0))
    );
    assert_eq!(Content::parse("8%").unwrap(), Some(Content::Num(0.08)));
    assert_eq!(Content::parse("   ").unwrap(), None);
    for text in ["NaN", "inf", "infinity", "Total", "1.2.3", "e5"] {
        assert!(
            matches!(Content::parse(text).unwrap(), Some(Content::Text(_))),
            "{text}"
        );
    }
    assert_eq!(
        Content::parse("= b2 * $C$2").unwrap().unwrap().entry(),
        "=B2*C2"
    );
    assert!(Content::parse(&"x".repeat(MAX_ENTRY + 1)).is_err());
}

#[test]
fn arithmetic_precedence_functions_and_comparisons() {
    let s = sheet(&[
        ("A1", "2"),
        ("A2", "3"),
        ("A3", "4"),
        ("B1", "text"),
        ("C1", "=A1+A2*A3"),
        ("C2", "=(A1+A2)*A3"),
        ("C3", "=A3-A2-A1"),
        ("C4", "=A3-(A2-A1)"),
        ("C5", "=SUM(A1:A3)"),
        ("C6", "=AVERAGE(A1:A3, 10)"),
        ("C7", "=MIN(A1:B3)"),
        ("C8", "=MAX(A1:A3)*2"),
        ("C9", "=COUNT(A1:B3)"),
        ("C10", "=IF(A1>A2, \"big\", \"small\")"),
        ("C11", "=ROUND(10/3, 2)"),
        ("C12", "=-A1--A2"),
        ("C13", "=A1<>A2"),
        ("C14", "=A1/(A2-3)"),
        ("C15", "=B1*2"),
        ("C17", "=A60"),
        ("C18", "=IF(A1>=2, A2)"),
        ("C19", "=B1=\"TEXT\""),
    ]);
    let want = [
        ("C1", "14"),
        ("C2", "20"),
        ("C3", "-1"),
        ("C4", "3"),
        ("C5", "9"),
        ("C6", "4.75"),
        ("C7", "2"),
        ("C8", "8"),
        ("C9", "3"),
        ("C10", "small"),
        ("C11", "3.33"),
        ("C12", "1"),
        ("C13", "1"),
        ("C14", "#DIV/0!"),
        ("C15", "#VALUE!"),
        ("C17", "0"),
        ("C18", "3"),
        ("C19", "1"),
    ];
    for (cell, v) in want {
        assert_eq!(value(&s, cell), v, "{cell}");
    }
    // Z9 is no cell: that entry was refused at parse time.
    assert!(Content::parse("=Z9").is_err());
}

#[test]
fn rendering_reads_back_to_the_same_formula() {
    for src in [
        "A3-(A2-A1)",
        "(A1+A2)*A3",
        "A1*(A2/A3)",
        "-(A1+2)",
        "SUM(B2:B9)/COUNT(B2:B9)",
        "IF(A1<=3,\"x\",A2*2)",
        "B2*C2*(1+H1)",
        "(A1>2)+1",
        "A1/(A2*A3)",
    ] {
        let e = parse_formula(src).unwrap();
        assert_eq!(
            parse_formula(&render(&e)).unwrap(),
            e,
            "{src} -> {}",
            render(&e)
        );
    }
}

#[test]
fn parse_errors_are_refused_with_a_reason() {
    for (src, want) in [
        ("A1+", FormulaError::End),
        ("SUM(A1:A3", FormulaError::End),
        ("FOO(1)", FormulaError::Unknown("FOO".into())),
        ("A1:A3", FormulaError::RangeOutside),
        ("IF(A1:A3, 1)", FormulaError::RangeOutside),
        ("ROUND(1)", FormulaError::Arity("ROUND", "2")),
        ("1 2", FormulaError::Unexpected("2".into())),
        ("A1 & A2", FormulaError::Unexpected("&".into())),
        ("\"open", FormulaError::End),
    ] {
        assert_eq!(parse_formula(src), Err(want), "{src}");
    }
    let deep = format!("{}1{}", "(".repeat(40), ")".repeat(40));
    assert_eq!(parse_formula(&deep), Err(FormulaError::TooDeep));
    assert_eq!(parse_formula(&"-".repeat(40)), Err(FormulaError::TooDeep));
    assert_eq!(parse_formula(&"1+".repeat(150)), Err(FormulaError::TooLong));
}

#[test]
fn cycles_and_long_chains_are_error_values() {
    let s = sheet(&[
        ("A1", "=B1+1"),
        ("B1", "=A1*2"),
        ("C1", "=A1"),
        ("D1", "=D1"),
    ]);
    for cell in ["A1", "B1", "C1", "D1"] {
        assert_eq!(value(&s, cell), "#CYCLE!", "{cell}");
    }
    // A chain through every cell of column A: deep ones are #DEPTH!, never a
    // stack overflow.
    let mut entries: Vec<(String, String)> = (1..64)
        .map(|r| (format!("A{r}"), format!("=A{}+1", r + 1)))
        .collect();
    entries.push(("A64".into(), "1".into()));
    let s = Sheet::from_entries(&entries).unwrap();
    let values = s.evaluate();
    assert_eq!(values.get(Addr::new(62, 0)).show(), "2");
    assert!(
        (0..63).any(|r| values.get(Addr::new(r, 0)).show() == "#DEPTH!"),
        "no depth cap hit"
    );
}

#[test]
fn inserting_a_row_moves_cells_and_references_and_grows_ranges_ending_above() {
    let mut s = sheet(&[
        ("B2", "1"),
        ("B3", "2"),
        ("B4", "=SUM(B2:B3)"),
        ("C2", "=B3*2"),
        ("D4", "=SUM(B4:C4)"),
        ("H1", "=B2"),
    ]);
    s.insert_row(3).unwrap(); // before row 4
    let entries = s.entries();
    let get = |cell: &str| {
        entries
            .iter()
            .find(|(c, _)| c == cell)
            .map(|(_, e)| e.as_str())
    };
    assert_eq!(get("B5"), Some("=SUM(B2:B4)"));
    assert_eq!(get("D5"), Some("=SUM(B5:C5)"));
    assert_eq!(get("C2"), Some("=B3*2"));
    assert_eq!(get("H1"), Some("=B2"));
    assert_eq!(get("B4"), None);
    let mut full = sheet(&[("A64", "1")]);
    assert_eq!(full.insert_row(0), Err(SheetError::Full));
    let mut refers = sheet(&[("A1", "=A64")]);
    assert_eq!(refers.insert_row(0), Err(SheetError::Full));
}

/// Random entries (junk, deep nesting, long sums, references in loops) never
/// panic, parse within the caps, and evaluate in bounded time.
#[test]
fn fuzzed_entries_and_sheets_never_panic_or_hang() {
    const PIECES: &[&str] = &[
        "A1", "B2", "$C$3", "L64", "A1:L64", "B2:B9", "SUM(", "AVERAGE(", "MIN(", "MAX(", "COUNT(",
        "IF(", "ROUND(", "(", ")", ",", "+", "-", "*", "/", "=", "<>", "<=", ">", "1", "0", "2.5",
        "\"x\"", ":", " ", "9e9", "FOO(", "A0", "\"", "%", "$",
    ];
    let mut rng = Rng::from_seed(37);
    let started = std::time::Instant::now();
    for round in 0..300 {
        let mut sheet = Sheet::default();
        for _ in 0..40 {
            let n = rng.range_usize(0, 60);
            let text: String = (0..n)
                .map(|_| PIECES[rng.below(PIECES.len() as u64) as usize])
                .collect();
            let entry = format!("={text}");
            let at = Addr::new(
                rng.below(MAX_ROWS as u64) as usize,
                rng.below(MAX_COLS as u64) as usize,
            );
            match Content::parse(&entry) {
                Ok(content) => {
                    if let Some(c) = &content {
                        // Rendered formulas read back as themselves.
                        assert_eq!(
                            Content::parse(&c.entry()).unwrap().as_ref(),
                            Some(c),
                            "{entry}"
                        );
                    }
                    sheet.set(at, content);
                }
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
        let values = sheet.evaluate();
        for a in sheet.cells.keys() {
            let _ = values.get(*a).show();
        }
        if round % 10 == 0 {
            let _ = sheet.insert_row(rng.below(MAX_ROWS as u64) as usize);
            let _ = sheet.evaluate();
        }
    }
    assert!(
        started.elapsed().as_secs() < 20,
        "fuzzing took {:?}",
        started.elapsed()
    );
}
