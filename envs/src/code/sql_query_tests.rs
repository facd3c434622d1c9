use super::*;
use crate::answers::{Role, degenerate_answers};
use crate::single_turn::testing::{cross_reference_rate, passes, task};
use crate::tools::sql_db::questions::{HIDDEN_EMPLOYEES, MAX_ANSWER};
use crate::tools::sql_db::sql::Cell;

fn config(level: usize) -> SqlQueryConfig {
    serde_json::from_str(SqlQuery::LEVELS[level]).unwrap()
}

/// Tasks of every level, from a fixed seed.
fn tasks(per_level: u64) -> Vec<SqlQueryTask> {
    let mut rng = Rng::from_seed(5);
    (0..SqlQuery::LEVELS.len())
        .flat_map(|level| {
            let config = config(level);
            SqlQuery::validate(&config).unwrap();
            (0..per_level)
                .map(|_| SqlQuery::generate(&config, &mut rng))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn unreadable(task: &SqlQueryTask, answer: &str) -> String {
    match SqlQuery::check(task, answer) {
        Err(CheckError::Unreadable(e)) => e.to_string(),
        other => panic!("{answer:?} was read: {other:?}"),
    }
}

/// `WHERE A AND B` with the two conditions swapped (the clause ends at the
/// next keyword or the end).
fn swap_and(sql: &str) -> Option<String> {
    let (head, rest) = sql.split_once(" WHERE ")?;
    let end = [" GROUP BY ", " ORDER BY ", " LIMIT "]
        .iter()
        .filter_map(|k| rest.find(k))
        .min()
        .unwrap_or(rest.len());
    let (cond, tail) = rest.split_at(end);
    let (a, b) = cond.split_once(" AND ")?;
    Some(format!("{head} WHERE {b} AND {a}{tail}"))
}

/// Equivalent rewrites of a reference: another join order, other aliases,
/// swapped conditions, a city as the ids of its departments, lower case,
/// positions in ORDER BY, a fenced block.
fn rewrites(task: &SqlQueryTask) -> Vec<String> {
    let r = &task.reference;
    let mut out = vec![format!("```sql\n{r};\n```")];
    // Lower case changes quoted text too: only without text literals.
    if !r.contains('\'') {
        out.push(r.to_lowercase());
    }
    if let Some(s) = swap_and(r) {
        out.push(s);
    }
    if r.contains("employees e JOIN departments d ON e.dept_id = d.id") {
        out.push(r.replace(
            "employees e JOIN departments d ON e.dept_id = d.id",
            "departments d JOIN employees e ON d.id = e.dept_id",
        ));
        out.push(
            r.replace("e.", "staff.")
                .replace("employees e", "employees AS staff")
                .replace("d.", "dep.")
                .replace("departments d", "departments dep"),
        );
    }
    if let Some(start) = r.find("d.city = '") {
        let city = r[start + 10..].split('\'').next().unwrap();
        let ids: Vec<String> = task.db["departments"]
            .rows
            .iter()
            .filter(|row| row[2] == Cell::Text(city.into()))
            .map(|row| format!("e.dept_id = {}", row[0]))
            .collect();
        out.push(r.replace(
            &format!("d.city = '{city}'"),
            &format!("({})", ids.join(" OR ")),
        ));
    }
    if r.contains("ORDER BY total DESC, d.name") {
        out.push(r.replace("ORDER BY total DESC, d.name", "ORDER BY 2 DESC, 1 ASC"));
    }
    if let Some(at) = r.find("hired >= ") {
        let year: i64 = r[at + 9..].split(' ').next().unwrap().parse().unwrap();
        out.push(r.replace(&format!("hired >= {year}"), &format!("NOT hired < {year}")));
        out.push(r.replace(
            &format!("hired >= {year}"),
            &format!("hired > {}", year - 1),
        ));
    }
    out
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for task in tasks(6) {
        let r = &task.reference;
        for good in [
            fenced(r),
            r.clone(),
            format!("<think>hmm</think>\n{}", fenced(r)),
            format!(
                "Here is the query:\n\n{}\n\nIt keeps the rows asked for.",
                fenced(r)
            ),
            format!("```\n{r}\n```"),
            format!("```sql\n{r};\n```"),
        ] {
            assert!(passes::<SqlQuery>(&task, &good), "{good:?}");
        }
        let other = "SELECT name FROM employees";
        for bad in degenerate_answers(Role::Checker).map(String::from).chain([
            SqlQuery::prompt(&task),
            format!("{r} 1"),
            format!("{r}\n{r}"),
            format!("{}\n{}", fenced(r), fenced(other)),
            format!("{} or {}", fenced(r), fenced(other)),
            fenced(&format!("{r};\n{other}")),
            format!("\\boxed{{{r}}}"),
        ]) {
            assert!(!passes::<SqlQuery>(&task, &bad), "{bad:?} passed");
        }
    }
}

#[test]
fn equivalent_queries_written_otherwise_pass() {
    let mut rewritten = 0;
    for task in tasks(12) {
        for sql in rewrites(&task) {
            assert!(
                passes::<SqlQuery>(&task, &sql),
                "{sql:?} fails; reference {:?}",
                task.reference
            );
            rewritten += 1;
        }
        assert!(passes::<SqlQuery>(&task, &in_prose(&task.reference)));
    }
    assert!(rewritten > 100, "{rewritten}");
}

fn in_prose(sql: &str) -> String {
    format!("So the query is:\n{}\nDone.", fenced(sql))
}

#[test]
fn dropped_conditions_and_trivial_queries_fail() {
    let mut rng = Rng::from_seed(8);
    for level in 0..SqlQuery::LEVELS.len() {
        for _ in 0..10 {
            let config = config(level);
            let task = SqlQuery::generate(&config, &mut rng);
            let draft = draft(config.complexity, &task.db, &mut Rng::from_seed(1));
            for sql in trivial_queries() {
                assert!(!SqlQuery::check(&task, &sql).unwrap(), "{sql}");
            }
            // Another template over the same tables asks another question (the
            // same template with a nearby threshold may hold on every table).
            let head = |sql: &str| sql.split(" WHERE ").next().unwrap().to_string();
            if head(&draft.reference) != head(&task.reference) {
                assert!(
                    !SqlQuery::check(&task, &draft.reference).unwrap_or(false),
                    "{} / {} / {:?}",
                    draft.reference,
                    task.reference,
                    task.expected
                );
            }
        }
    }
}

#[test]
fn a_query_that_hard_codes_the_shown_answer_fails_on_the_hidden_databases() {
    let mut checked = 0;
    for task in tasks(12) {
        if !task
            .reference
            .starts_with("SELECT name FROM employees WHERE")
        {
            continue;
        }
        let names: Vec<String> = task.expected[0]
            .iter()
            .map(|row| format!("name = '{}'", row[0]))
            .collect();
        let sql = format!("SELECT name FROM employees WHERE {}", names.join(" OR "));
        let (_, rows) = run(&task.db, &sql).unwrap();
        assert!(same(false, &rows, &task.expected[0]));
        assert!(!SqlQuery::check(&task, &sql).unwrap(), "{sql}");
        checked += 1;
    }
    assert!(checked > 3, "{checked}");
}

#[test]
fn writes_failures_and_huge_joins_are_refused_with_a_reason() {
    let task = SqlQuery::generate(&SqlQueryConfig::default(), &mut Rng::from_seed(2));
    for write in [
        "DELETE FROM employees",
        "UPDATE employees SET salary = 0",
        "drop table projects",
        "INSERT INTO departments VALUES (9, 'X', 'Y')",
    ] {
        assert!(
            unreadable(&task, write).contains("modifies data"),
            "{write}"
        );
    }
    assert!(unreadable(&task, "SELECT nope FROM employees").contains("failed"));
    assert!(unreadable(&task, "SELECT name FROM staff").contains("no table"));
    assert!(unreadable(&task, "SELECT name FROM employees WHERE salary = 'x'").contains("compare"));
    assert!(unreadable(&task, "SELECT name employees").contains("cannot read"));
    let cross = "SELECT * FROM employees a JOIN employees b ON 1 = 1 JOIN projects c ON 1 = 1";
    let start = std::time::Instant::now();
    assert!(unreadable(&task, cross).contains("join too large"));
    assert!(start.elapsed().as_millis() < 500);
    assert!(unreadable(&task, &"x".repeat(MAX_ANSWER + 1)).contains("longer"));
    assert!(unreadable(&task, "").contains("no query"));
}

#[test]
fn hedges_and_a_last_block_that_disagrees_fail() {
    for task in tasks(3) {
        let r = &task.reference;
        let other = "SELECT name FROM employees";
        for bad in [
            fenced(&format!("{r} or {other}")),
            fenced(&format!("{r}; {other}")),
            fenced(&format!("{r}, {other}")),
            format!("{}\n\nOn second thought:\n{}", fenced(r), fenced(other)),
        ] {
            assert!(!passes::<SqlQuery>(&task, &bad), "{bad:?}");
        }
        // The last block counts, as in the other code envs.
        assert!(passes::<SqlQuery>(
            &task,
            &format!("{}\n{}", fenced(other), fenced(r))
        ));
    }
}

#[test]
fn the_engine_agrees_with_a_direct_computation() {
    let mut rng = Rng::from_seed(13);
    let mut checked = 0;
    for _ in 0..300 {
        let task = SqlQuery::generate(&config(2), &mut rng);
        let r = &task.reference;
        let Some(rest) = r.strip_prefix("SELECT name FROM employees WHERE salary > ") else {
            continue;
        };
        let (x, y) = rest.split_once(" AND hired < ").unwrap();
        let (x, y): (i64, i64) = (x.parse().unwrap(), y.parse().unwrap());
        for (i, expected) in task.expected.iter().enumerate() {
            let db = match i {
                0 => task.db.clone(),
                _ => hidden_db(&task.db, task.hidden_seed, i as u64 - 1),
            };
            let direct: Rows = db["employees"]
                .rows
                .iter()
                .filter(|row| row[3] > Cell::Int(x) && row[4] < Cell::Int(y))
                .map(|row| vec![row[1].clone()])
                .collect();
            assert!(same(false, &direct, expected));
        }
        checked += 1;
    }
    assert!(checked > 20, "{checked}");
}

#[test]
fn another_tasks_reference_rarely_passes() {
    for level in [0, 3, 6] {
        let config = config(level);
        let count = 150;
        // The kit's rate plays the other reference boxed, which this env does not
        // read: here it is played bare and fenced too.
        assert!(cross_reference_rate::<SqlQuery>(&config, 20) == 0.0);
        let tasks: Vec<SqlQueryTask> = (0..=count)
            .map(|i| task::<SqlQuery>(&config, 99, i))
            .collect();
        let passed = tasks
            .windows(2)
            .filter(|pair| {
                passes::<SqlQuery>(&pair[0], &pair[1].reference)
                    || passes::<SqlQuery>(&pair[0], &fenced(&pair[1].reference))
            })
            .count();
        let rate = passed as f64 / count as f64;
        assert!(rate < 0.01, "level {level}: {rate}");
    }
}

#[test]
fn the_hidden_databases_share_the_departments_and_differ_otherwise() {
    for task in tasks(2) {
        assert_eq!(task.expected.len(), 1 + HIDDEN as usize);
        for i in 0..HIDDEN {
            let hidden = hidden_db(&task.db, task.hidden_seed, i);
            assert_eq!(hidden, hidden_db(&task.db, task.hidden_seed, i));
            assert_eq!(hidden["departments"], task.db["departments"]);
            assert_ne!(hidden["employees"], task.db["employees"]);
            assert_eq!(hidden["employees"].rows.len(), HIDDEN_EMPLOYEES);
        }
        let prompt = SqlQuery::prompt(&task);
        assert!(!prompt.contains(&task.reference));
    }
}

/// The code envs' harness hacks (a program where the query belongs) score 0.
#[test]
fn code_hacks_score_zero() {
    let task = tasks(1).remove(3);
    crate::code::hacks::assert_hacks_as_answers_score_zero("answer", |reply| {
        SqlQuery::grade(&task, reply).score
    });
}
