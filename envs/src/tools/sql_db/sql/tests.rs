use super::*;
use crate::toolkit::tool_env::ToolError;

fn db() -> Db {
    let t = |cols: &[&str], rows: Vec<Vec<Cell>>| Table {
        columns: cols.iter().map(|c| c.to_string()).collect(),
        int_columns: rows[0].iter().map(|c| matches!(c, Cell::Int(_))).collect(),
        rows,
    };
    let (i, s) = (Cell::Int, |x: &str| Cell::Text(x.into()));
    let mut db = Db::new();
    db.insert(
        "dept".into(),
        t(
            &["id", "name"],
            vec![vec![i(1), s("ops")], vec![i(2), s("lab")]],
        ),
    );
    db.insert(
        "emp".into(),
        t(
            &["id", "name", "dept_id", "salary"],
            vec![
                vec![i(1), s("Ann"), i(1), i(300)],
                vec![i(2), s("Bo"), i(2), i(500)],
                vec![i(3), s("Cy"), i(2), i(100)],
                vec![i(4), s("O'Neil"), i(1), i(700)],
            ],
        ),
    );
    db
}

fn run(sql: &str) -> Result<String, ToolError> {
    let (cols, rows) = execute(&db(), &parse_query(sql)?)?;
    let rows: Vec<String> = rows
        .iter()
        .map(|r| r.iter().map(Cell::to_string).collect::<Vec<_>>().join("|"))
        .collect();
    Ok(format!("{} : {}", cols.join(","), rows.join(" ; ")))
}

#[test]
fn queries_give_exact_result_sets() {
    assert_eq!(
        run("select name from emp where salary > 200 and not name = 'Bo' order by name").unwrap(),
        "name : Ann ; O'Neil"
    );
    assert_eq!(
        run("SELECT d.name, COUNT(*) AS n, SUM(e.salary) FROM emp e JOIN dept d ON e.dept_id = d.id GROUP BY d.name ORDER BY n DESC, 1").unwrap(),
        "name,n,sum(salary) : lab|2|600 ; ops|2|1000"
    );
    assert_eq!(
        run("select max(salary), min(name) from emp where dept_id = 9").unwrap(),
        "max(salary),min(name) : 0|0"
    );
    assert_eq!(
        run("select count(*) from emp where name = 'O''Neil' or (salary <= 100)").unwrap(),
        "count(*) : 2"
    );
    assert_eq!(
        run("select * from dept order by id desc limit 1").unwrap(),
        "id,name : 2|lab"
    );
}

#[test]
fn errors_say_what_is_wrong() {
    for (sql, want) in [
        ("select nope from emp", "no column nope"),
        ("select id from emp join dept on dept_id = id", "ambiguous"),
        ("select name from emp where salary > 'x'", "cannot compare"),
        (
            "select name from staff",
            "no table staff; tables: dept, emp",
        ),
        (
            "select name from emp where",
            "expected a value near the end",
        ),
        ("delete from emp", "expected SELECT"),
        ("select name from emp; drop table emp", "unexpected `;`"),
        ("select name from emp;", "name"),
        ("select name from emp where name = 'x", "unclosed string"),
    ] {
        let got = run(sql).unwrap_or_else(|e| e.message);
        assert!(got.contains(want), "{sql}: {got}");
    }
}

/// SQL-shaped text: keywords, names, symbols and literals in any order.
fn sql_tokens() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let token = prop::sample::select(vec![
        "select",
        "from",
        "where",
        "and",
        "or",
        "not",
        "join",
        "on",
        "order",
        "by",
        "desc",
        "limit",
        "count",
        "(",
        ")",
        "*",
        ",",
        "=",
        "<",
        ">=",
        "!=",
        ";",
        "'x'",
        "'",
        "1",
        "-7",
        "99999999999999999999",
        "emp",
        "dept",
        "name",
        "salary",
        "id",
        "dept_id",
        "emp.id",
        ".",
        "null",
        "like",
        "%",
    ]);
    prop::collection::vec(token, 0..60).prop_map(|tokens| tokens.join(" "))
}

proptest::proptest! {
    /// Any text and any token soup: an answer or an error, never a panic,
    /// and an error that stays short.
    #[test]
    fn the_sql_parser_never_panics(text in proptest::prelude::any::<String>(), soup in sql_tokens()) {
        for sql in [text.as_str(), soup.as_str()] {
            if let Err(e) = run(sql) {
                proptest::prop_assert!(e.to_string().len() < 2_000, "{sql}: {e}");
            }
            let _ = parse_condition(sql);
        }
    }
}

/// Nesting to the length cap, in conditions and around values, is refused or
/// parsed without exhausting the stack.
#[test]
fn deep_nesting_is_bounded() {
    for depth in [10usize, 500, 1_990] {
        for shape in [
            format!(
                "select name from emp where {}1 = 1{}",
                "(".repeat(depth),
                ")".repeat(depth)
            ),
            format!(
                "select name from emp where {}salary > 1",
                "not ".repeat(depth)
            ),
            format!("select name from emp where {}", "(".repeat(depth * 2)),
        ] {
            let sql: String = shape.chars().take(4_000).collect();
            let result = run(&sql);
            let _ = parse_condition(&sql);
            if depth > 32 {
                let error = result.expect_err("too deep to be read");
                assert!(
                    error.to_string().contains("nested deeper than 32 levels"),
                    "{error}"
                );
            }
        }
    }
}
