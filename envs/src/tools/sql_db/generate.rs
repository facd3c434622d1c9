//! Candidate tables and tasks of `tools/sql-db` (the env runs their gold
//! calls and screens them).

use serde_json::json;

use super::sql::{Cell, Db, Table};
use super::task::{SqlDbConfig, SqlDbTask, gold};
use crate::rng::Rng;
use crate::toolkit::final_answer::infeasible_answer;

const DEPTS: &[&str] = &[
    "Research",
    "Sales",
    "Support",
    "Finance",
    "Legal",
    "Design",
    "Logistics",
    "Marketing",
    "Security",
    "Training",
];
const CITIES: &[&str] = &["Lyon", "Porto", "Gdansk", "Leeds", "Turin", "Malmo"];
const FIRST: &[&str] = &[
    "Ann", "Bo", "Cyd", "Dee", "Eli", "Fay", "Gil", "Hal", "Ida", "Jon", "Kit", "Lou", "Mae",
    "Ned", "Oz", "Pia",
];
const LAST: &[&str] = &[
    "Ames", "Birch", "Cole", "Dunn", "Eady", "Frost", "Grey", "Hale", "Irwin", "Judd", "Kerr",
    "Lowe", "Marsh",
];
const PROJECTS: &[&str] = &[
    "Atlas", "Beacon", "Cobalt", "Delta", "Ember", "Fjord", "Garnet", "Harbor", "Iris", "Juniper",
    "Kestrel", "Lumen",
];
const STATUSES: &[&str] = &["active", "planned", "cancelled", "done"];

fn table(columns: &[&str], rows: Vec<Vec<Cell>>) -> Table {
    Table {
        columns: columns.iter().map(|c| c.to_string()).collect(),
        int_columns: rows[0].iter().map(|c| matches!(c, Cell::Int(_))).collect(),
        rows,
    }
}

fn text(s: &str) -> Cell {
    Cell::Text(s.to_string())
}

struct Emp {
    name: String,
    dept: i64,
    salary: i64,
    hired: i64,
}

struct Proj {
    dept: i64,
    status: &'static str,
    budget: i64,
}

/// A candidate task; its `expected` database is the initial one until the
/// env runs the gold calls on it.
pub(super) fn draw(config: &SqlDbConfig, rng: &mut Rng) -> Option<SqlDbTask> {
    let tables = draw_tables(config, rng);
    // A task that does not fit these tables is redrawn on them first.
    (0..8).find_map(|_| draw_task(config, &tables, rng))
}

/// The tables alone (departments, employees, projects), as `tools/sql-db`
/// draws them; `code/sql-query` poses its questions over them.
#[cfg_attr(not(feature = "sandbox"), allow(dead_code))]
pub(crate) fn draw_db(config: &SqlDbConfig, rng: &mut Rng) -> Db {
    draw_tables(config, rng).db
}

struct Tables<'a> {
    used: Vec<&'a str>,
    unused: Vec<&'a str>,
    emps: Vec<Emp>,
    projs: Vec<Proj>,
    db: Db,
}

fn draw_tables(config: &SqlDbConfig, rng: &mut Rng) -> Tables<'static> {
    let mut depts = DEPTS.to_vec();
    rng.shuffle(&mut depts);
    let (used, unused) = depts.split_at(config.departments);
    let d = config.departments as u64;
    let mut names: Vec<String> = FIRST
        .iter()
        .flat_map(|f| LAST.iter().map(move |l| format!("{f} {l}")))
        .collect();
    rng.shuffle(&mut names);
    let emps: Vec<Emp> = names
        .into_iter()
        .take(config.employees)
        .map(|name| Emp {
            name,
            dept: 1 + rng.below(d) as i64,
            salary: rng.range_i64(20, 99) * 100,
            hired: rng.range_i64(2005, 2024),
        })
        .collect();
    let projs: Vec<Proj> = (0..config.projects)
        .map(|_| Proj {
            dept: 1 + rng.below(d) as i64,
            status: STATUSES[rng.below(4) as usize],
            budget: rng.range_i64(10, 500) * 100,
        })
        .collect();
    let mut db = Db::new();
    db.insert(
        "departments".into(),
        table(
            &["id", "name", "city"],
            (0..used.len())
                .map(|i| {
                    vec![
                        Cell::Int(i as i64 + 1),
                        text(used[i]),
                        text(CITIES[rng.below(6) as usize]),
                    ]
                })
                .collect(),
        ),
    );
    db.insert(
        "employees".into(),
        table(
            &["id", "name", "dept_id", "salary", "hired"],
            emps.iter()
                .enumerate()
                .map(|(i, e)| {
                    vec![
                        Cell::Int(i as i64 + 1),
                        text(&e.name),
                        Cell::Int(e.dept),
                        Cell::Int(e.salary),
                        Cell::Int(e.hired),
                    ]
                })
                .collect(),
        ),
    );
    db.insert(
        "projects".into(),
        table(
            &["id", "name", "dept_id", "status", "budget"],
            projs
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let name = format!(
                        "{} {}",
                        PROJECTS[i % PROJECTS.len()],
                        i / PROJECTS.len() + 1
                    );
                    vec![
                        Cell::Int(i as i64 + 1),
                        text(&name),
                        Cell::Int(p.dept),
                        text(p.status),
                        Cell::Int(p.budget),
                    ]
                })
                .collect(),
        ),
    );
    Tables {
        used: used.to_vec(),
        unused: unused.to_vec(),
        emps,
        projs,
        db,
    }
}

fn draw_task(config: &SqlDbConfig, tables: &Tables<'_>, rng: &mut Rng) -> Option<SqlDbTask> {
    let Tables {
        used,
        unused,
        emps,
        projs,
        db,
    } = tables;
    let d = config.departments as u64;
    let infeasible = rng.chance(config.infeasible_share);
    let kind = if infeasible {
        [1, 3, 4][rng.below(3) as usize]
    } else {
        rng.below(6)
    };
    let dept_id = 1 + rng.below(d) as i64;
    let dept = if infeasible {
        unused[rng.below(unused.len() as u64) as usize]
    } else {
        used[dept_id as usize - 1]
    };
    let lookup = gold(
        "query",
        json!({"sql": format!("SELECT id FROM departments WHERE name = '{dept}'")}),
    );
    let of_dept: Vec<&Emp> = emps.iter().filter(|e| e.dept == dept_id).collect();
    // The evidence that the named department does not exist is the list of
    // those that do, which only a query shows.
    let mut names = used.clone();
    names.sort_unstable();
    let evidence = infeasible_answer(&names.join(", "));
    let list_departments = gold(
        "query",
        json!({"sql": "SELECT name FROM departments ORDER BY name"}),
    );
    let (instruction, mut calls, answer) = match kind {
        0 => {
            let x = of_dept
                .get(rng.below(of_dept.len().max(1) as u64) as usize)?
                .salary
                - 1;
            let mut hits: Vec<&str> = of_dept
                .iter()
                .filter(|e| e.salary > x)
                .map(|e| e.name.as_str())
                .collect();
            hits.sort();
            if hits.len() < 2 {
                return None;
            }
            let sql = format!(
                "SELECT name FROM employees WHERE dept_id = {dept_id} AND salary > {x} ORDER BY name"
            );
            (
                format!(
                    "List the names of the employees of the {dept} department who earn more than {x}, in alphabetical order. Answer with a JSON array of the names, e.g. [\"A B\", \"C D\"]."
                ),
                vec![lookup, gold("query", json!({"sql": sql}))],
                json!(hits).to_string(),
            )
        }
        1 => {
            let status = STATUSES[rng.below(4) as usize];
            let hits: Vec<&Proj> = projs
                .iter()
                .filter(|p| p.dept == dept_id && p.status == status)
                .collect();
            if !infeasible && hits.len() < 2 {
                return None;
            }
            let sql = format!(
                "SELECT SUM(p.budget) FROM projects p JOIN departments d ON p.dept_id = d.id WHERE d.name = '{dept}' AND p.status = '{status}'"
            );
            (
                format!(
                    "What is the total budget of the {status} projects of the {dept} department? Answer with the number."
                ),
                vec![gold("query", json!({"sql": sql}))],
                if infeasible {
                    evidence.clone()
                } else {
                    hits.iter().map(|p| p.budget).sum::<i64>().to_string()
                },
            )
        }
        2 => {
            let mut totals: Vec<(i64, &str)> = (1..=d as i64)
                .map(|id| {
                    (
                        emps.iter().filter(|e| e.dept == id).map(|e| e.salary).sum(),
                        used[id as usize - 1],
                    )
                })
                .collect();
            totals.sort();
            totals.reverse();
            if totals[0].0 == totals[1].0 {
                return None;
            }
            let sql = "SELECT d.name, SUM(e.salary) AS total FROM employees e JOIN departments d ON e.dept_id = d.id GROUP BY d.name ORDER BY total DESC LIMIT 2";
            (
                "Which department has the largest total salary of its employees? Answer with the department's name.".into(),
                vec![gold("query", json!({"sql": sql}))],
                totals[0].1.to_string(),
            )
        }
        3 => {
            let year = rng.range_i64(2008, 2022);
            let salary = rng.range_i64(20, 99) * 100 + 50;
            let hits = of_dept.iter().filter(|e| e.hired < year).count();
            if !infeasible && hits < 2 {
                return None;
            }
            let update = json!({"table": "employees", "column": "salary", "value": salary.to_string(), "where": format!("dept_id = {dept_id} AND hired < {year}")});
            (
                format!(
                    "Set the salary of every employee of the {dept} department hired before {year} to {salary}. Then answer with how many employees you updated."
                ),
                if infeasible {
                    vec![lookup]
                } else {
                    vec![lookup, gold("update_rows", update)]
                },
                if infeasible {
                    evidence.clone()
                } else {
                    hits.to_string()
                },
            )
        }
        4 => {
            let hits = projs
                .iter()
                .filter(|p| p.dept == dept_id && p.status == "cancelled")
                .count();
            if !infeasible && hits < 2 {
                return None;
            }
            let delete = json!({"table": "projects", "where": format!("dept_id = {dept_id} AND status = 'cancelled'")});
            (
                format!(
                    "Delete every cancelled project of the {dept} department. Then answer with how many projects you deleted."
                ),
                if infeasible {
                    vec![lookup]
                } else {
                    vec![lookup, gold("delete_rows", delete)]
                },
                if infeasible {
                    evidence.clone()
                } else {
                    hits.to_string()
                },
            )
        }
        _ => {
            let name = format!(
                "{} {}",
                FIRST[rng.below(FIRST.len() as u64) as usize],
                ["Quill", "Rook", "Sand"][rng.below(3) as usize]
            );
            let (salary, year) = (rng.range_i64(20, 99) * 100, rng.range_i64(2020, 2025));
            let id = emps.len() as i64 + 1;
            let values = json!([id, name, dept_id, salary, year]).to_string();
            (
                format!(
                    "Add a new employee named {name} to the {dept} department with salary {salary}, hired in {year}, using the id one larger than the largest employee id. Then answer with the new employee's id."
                ),
                vec![
                    lookup,
                    gold("query", json!({"sql": "SELECT MAX(id) FROM employees"})),
                    gold(
                        "insert_row",
                        json!({"table": "employees", "values": values}),
                    ),
                ],
                id.to_string(),
            )
        }
    };
    if infeasible {
        calls = vec![list_departments];
    }
    calls.push(gold("answer", json!({"answer": answer})));
    let db = db.clone();
    Some(SqlDbTask {
        instruction,
        expected: db.clone(),
        initial: db,
        answer,
        feasible: !infeasible,
        gold: calls,
    })
}
