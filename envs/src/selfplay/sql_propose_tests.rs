//! Scripted proposers and solvers on `selfplay/sql-propose-v1`: the learnability reward,
//! invalid proposals with their reasons, solver answers in model styles and solver hacks,
//! and the buffer round trip.

use super::sql_propose::*;
use super::testkit::{assert_refused, play, turn};
use super::{PROPOSER, SOLVER};
use crate::core::Env;
use crate::rng::Rng;

fn task(seed: u64) -> SqlProposeTask {
    super::testkit::task(seed)
}

/// A proposal whose query is `sql`, with a fresh question.
fn proposing(sql: &str) -> String {
    format!("QUESTION: Which rows does this made-up question ask for?\nSQL: {sql}")
}

#[test]
fn scripted_proposals_are_valid_at_every_level() {
    for level in 0..SqlPropose::LEVELS.len() {
        let config: SqlProposeConfig = serde_json::from_str(SqlPropose::LEVELS[level]).unwrap();
        SqlPropose::validate(&config).unwrap();
        for seed in 0..6 {
            let t = SqlPropose::generate(&config, &mut Rng::from_seed(seed));
            let (p, s, events) = play(
                &t,
                &proposal_text(&t.scripted),
                &[t.scripted.sql.as_str(); 4],
            );
            assert_eq!(
                p.breakdown["valid"], 1.0,
                "level {level} seed {seed}: {events:?}"
            );
            assert!(s.passed, "level {level} seed {seed}: {events:?}");
        }
    }
}

#[test]
fn proposer_reward_is_learnability() {
    let t = task(3);
    let right = t.scripted.sql.clone();
    let text = proposal_text(&t.scripted);
    let (p, s, _) = play(&t, &text, &[right.as_str(); 4]);
    assert_eq!(
        (p.reward, s.reward, s.passed),
        (0.0, 1.0, true),
        "always right"
    );
    let (p, s, _) = play(
        &t,
        &text,
        &[&right, "SELECT * FROM departments", &right, "no idea"],
    );
    assert_eq!(
        (p.reward, p.passed, s.reward),
        (0.5, true, 0.5),
        "half right"
    );
    let (p, _, _) = play(
        &t,
        &text,
        &["", "SELECT name FROM employees", "x", &t.scripted.question],
    );
    assert_eq!(p.reward, 0.0, "never right");
}

/// An equivalent query in another form passes: aliases, a reordered condition, a join
/// written the other way round; and every style of reply models write.
#[test]
fn equivalent_queries_in_model_styles_pass() {
    let config = SqlProposeConfig {
        solver_samples: 5,
        ..SqlProposeConfig::default()
    };
    let t = SqlPropose::generate(&config, &mut Rng::from_seed(5));
    let proposal = "Some thoughts first.\n\nQUESTION: Which employees earn more than 5000? List their names.\n\
                    SQL: SELECT name FROM employees WHERE salary > 5000";
    let same = [
        "SELECT e.name FROM employees e WHERE 5000 < e.salary".to_string(),
        "```sql\nSELECT name\nFROM employees\nWHERE salary > 5000;\n```".to_string(),
        "<think>\nThe salary column is an integer, so a strict comparison works.\n</think>\n\nHere is my \
         query:\n\n```sql\nSELECT name FROM employees WHERE salary > 5000\n```\nIt lists the names."
            .to_string(),
        "Action: SELECT name FROM employees WHERE NOT salary <= 5000".to_string(),
        // A reasoning tag mentioned after the answer is text: it erases nothing.
        "<think>A draft.</think>\nSELECT name FROM employees WHERE salary > 5000\n\nI ended my reasoning \
         with </think> above."
            .to_string(),
    ];
    let answers: Vec<&str> = same.iter().map(String::as_str).collect();
    let (p, s, events) = play(&t, proposal, &answers);
    assert_eq!(p.breakdown["valid"], 1.0, "{events:?}");
    assert_eq!(s.breakdown["attempts"], 5.0);
    assert_eq!((s.reward, s.passed), (1.0, true), "{events:?}");
}

/// Joins of employees with projects fit the join cap on the hidden databases.
#[test]
fn employees_join_projects() {
    let t = task(2);
    let proposal = "QUESTION: How many (employee, project) pairs share a department?\n\
                    SQL: SELECT COUNT(*) FROM employees e JOIN projects p ON e.dept_id = p.dept_id";
    let answer = "SELECT COUNT(*) FROM projects p JOIN employees e ON p.dept_id = e.dept_id";
    let (p, s, events) = play(&t, proposal, &[answer; 4]);
    assert_eq!(p.breakdown["valid"], 1.0, "{events:?}");
    assert!(s.passed, "{events:?}");
}

#[test]
fn a_multi_line_query_in_a_fence_after_an_empty_sql_line_is_read() {
    let t = task(6);
    let proposal = format!(
        "QUESTION: {}\nSQL:\n```sql\n{}\n```",
        t.scripted.question,
        t.scripted.sql.replace(" WHERE", "\nWHERE")
    );
    let (p, s, events) = play(&t, &proposal, &[t.scripted.sql.as_str(); 4]);
    assert_eq!(p.breakdown["valid"], 1.0, "{events:?}");
    assert!(s.passed, "{events:?}");
}

#[test]
fn invalid_proposals_are_penalised_with_a_reason() {
    let t = task(4);
    let r = &t.references[0];
    let cases = [
        ("".to_string(), "format"),
        ("QUESTION: Who earns the most?".to_string(), "format"),
        (format!("SQL: {}", t.scripted.sql), "format"),
        (
            format!("QUESTION: short\nSQL: {}", t.scripted.sql),
            "format",
        ),
        (
            format!(
                "{}\n{}",
                proposal_text(&t.scripted),
                "SQL: SELECT * FROM projects"
            ),
            "format",
        ),
        ("x".repeat(9_000), "size"),
        (
            format!("QUESTION: {}\nSQL: {}", "q".repeat(1_001), t.scripted.sql),
            "format",
        ),
        (
            proposing(&format!(
                "SELECT name FROM employees WHERE {}",
                "salary > 1 AND ".repeat(200) + "1 = 1"
            )),
            "format",
        ),
        (proposing("SELECT nme FROM employees"), "sql"),
        (proposing("SELECT name FROM staff"), "sql"),
        (proposing("DELETE FROM employees"), "sql"),
        (
            proposing("SELECT name FROM employees; DROP TABLE employees"),
            "sql",
        ),
        (
            proposing("SELECT name FROM employees WHERE salary > 'x'"),
            "sql",
        ),
        (
            proposing(
                "SELECT * FROM employees a JOIN employees b ON 1 = 1 JOIN projects c ON 1 = 1",
            ),
            "sql",
        ),
        (
            proposing("SELECT name FROM employees WHERE salary < 0"),
            "empty",
        ),
        (proposal_text(r), "copy"),
        (
            format!(
                "QUESTION: {}\nSQL: SELECT 1 FROM employees",
                r.question.to_uppercase()
            ),
            "copy",
        ),
        // Another question over the same query: the same results as the reference.
        (proposing(&r.sql), "copy"),
        (proposing("SELECT name FROM employees LIMIT 2"), "ambiguous"),
        (
            proposing("SELECT name FROM employees ORDER BY dept_id"),
            "ambiguous",
        ),
    ];
    for (text, code) in cases {
        assert_refused(&play(&t, &text, &[]), &text, code);
    }
}

/// The result's order counts exactly when the proposer's query orders it.
#[test]
fn order_counts_only_for_an_ordered_query() {
    let t = task(7);
    let unordered = "QUESTION: List the id and name of every department.\nSQL: SELECT id, name FROM departments";
    let (_, s, events) = play(
        &t,
        unordered,
        &["SELECT id, name FROM departments ORDER BY name DESC"],
    );
    assert_eq!(s.breakdown["attempt_0"], 1.0, "{events:?}");
    let ordered = "QUESTION: List the id and name of every department, by id.\nSQL: SELECT id, name FROM departments ORDER BY id";
    let (_, s, events) = play(
        &t,
        ordered,
        &["SELECT id, name FROM departments ORDER BY id DESC"],
    );
    assert_eq!(s.breakdown["attempt_0"], 0.0, "{events:?}");
}

#[test]
fn solver_hacks_fail() {
    let t = task(8);
    let env = {
        let mut env = SqlPropose::reset(&t, Rng::from_seed(0));
        turn(&mut env, PROPOSER, &proposal_text(&t.scripted));
        env
    };
    let observation = env.observe(SOLVER).text;
    assert!(
        !observation.contains(&t.scripted.sql),
        "the solver never sees the query"
    );
    let sql = &t.scripted.sql;
    let hacks = [
        String::new(),
        "   ".to_string(),
        observation.clone(),
        t.scripted.question.clone(),
        // Hedged: two different queries.
        format!("```sql\n{sql}\n```\nor maybe\n```sql\nSELECT name FROM employees\n```"),
        format!("{sql}\nSELECT * FROM projects"),
        // Padded: the query beside prose on its line.
        format!("My query is {sql} and that is final."),
        "SELECT * FROM employees".to_string(),
        "SELECT name FROM employees".to_string(),
        "DELETE FROM employees".to_string(),
        format!("{sql} {sql}"),
        "x".repeat(3_000),
    ];
    for hack in hacks {
        let mut played = env.clone();
        let events = turn(&mut played, SOLVER, &hack);
        assert_eq!(
            played.score(SOLVER).breakdown["attempt_0"],
            0.0,
            "{hack:.200} verified: {events:?}"
        );
    }
}

/// A query that reproduces the shown result without the question's condition (the
/// answer hard-coded as a filter on this database) fails on the hidden databases.
#[test]
fn hard_coding_the_shown_answer_fails_on_hidden_databases() {
    let t = task(9);
    let proposal = "QUESTION: List the name of every employee hired before 2015.\nSQL: SELECT name FROM employees WHERE hired < 2015";
    let mut env = SqlPropose::reset(&t, Rng::from_seed(0));
    env.apply(PROPOSER, proposal.to_string()).unwrap();
    let names: Vec<String> = t.db["employees"]
        .rows
        .iter()
        .filter(|row| row[4] < crate::tools::sql_db::sql::Cell::Int(2015))
        .map(|row| match &row[1] {
            crate::tools::sql_db::sql::Cell::Text(s) => format!("name = '{s}'"),
            other => panic!("{other:?}"),
        })
        .collect();
    assert!(!names.is_empty());
    let hard_coded = format!("SELECT name FROM employees WHERE {}", names.join(" OR "));
    let events = env.apply(SOLVER, hard_coded).unwrap();
    assert!(events[0].contains("hidden database"), "{events:?}");
}

/// Validated proposals go into a buffer (duplicates refused), come back as the reference
/// examples of new tasks through `reference_pool`, and a copy of one is refused.
#[test]
fn buffer_feeds_reference_examples() {
    use crate::selfplay::buffer::{Proposal, TaskBuffer};
    let mut buffer = TaskBuffer::new(16);
    for seed in 0..6 {
        let t = task(seed);
        assert!(buffer.insert(t.scripted.clone()));
        let mut reworded = t.scripted.clone();
        reworded.question = format!("  {}  ", reworded.question.to_uppercase());
        assert!(
            !buffer.insert(reworded),
            "case and spacing do not make a new question"
        );
    }
    let config = SqlProposeConfig {
        reference_pool: buffer.items(),
        ..SqlProposeConfig::default()
    };
    let t = SqlPropose::generate(&config, &mut Rng::from_seed(9));
    assert_eq!(
        t,
        SqlPropose::generate(&config, &mut Rng::from_seed(9)),
        "deterministic"
    );
    assert_eq!(t.references.len(), 2);
    assert!(t.references.iter().all(|r| buffer.contains(r)));
    assert!(t.references.iter().all(|r| r.key() != t.scripted.key()));
    let copy = proposal_text(&t.references[1]);
    let (p, _, events) = play(&t, &copy, &[]);
    assert_eq!(p.breakdown.get("rejected_copy"), Some(&1.0), "{events:?}");
    let text = SqlPropose::reset(&t, Rng::from_seed(0))
        .observe(PROPOSER)
        .text;
    assert!(text.contains(&t.references[0].question));
}
