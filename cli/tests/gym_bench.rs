//! `gym-bench`: leaderboards, suites, run directories, resume and replay.

use std::path::Path;

use serde_json::Value;

use crate::util::{gym_bench, gym_bench_command, stderr, temp_dir};

fn board(args: &[&str]) -> Value {
    let out = gym_bench(args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("--json prints one leaderboard")
}

fn rows(board: &Value) -> &Vec<Value> {
    board["rows"].as_array().unwrap()
}

/// An agent's Elo-scale rating in one game's ratings.
fn elo_of(ratings: &Value, name: &str) -> f64 {
    let i = ratings["agents"]
        .as_array()
        .unwrap()
        .iter()
        .position(|a| a == name)
        .unwrap();
    ratings["ratings"][i]["elo"].as_f64().unwrap()
}

const SMALL_SUITE: &str = r#"
name = "small"
seed = 3
episodes = 40
samples = 3
agents = ["oracle", "random", "noop"]

[[env]]
id = "math/arithmetic-v1@easy"

[[env]]
id = "logic/guess-number-v2@easy"
config = { extra_guesses = 1 }

[[env]]
id = "games/tictactoe-v1"
samples = 1
"#;

fn small_suite(dir: &Path) -> String {
    let path = dir.join("small.toml");
    std::fs::write(&path, SMALL_SUITE).unwrap();
    path.to_string_lossy().into_owned()
}

/// The report without its wall-clock section.
fn scores_of(report: &Path) -> String {
    let text = std::fs::read_to_string(report).unwrap();
    text.split(verigym_cli::report::SPEED_HEADING)
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn random_tictactoe_matches_the_exact_outcome_rates() {
    let board = board(&[
        "run",
        "--env",
        "games/tictactoe-v1",
        "--agents",
        "random,random",
        "--n",
        "20000",
        "--seed",
        "1",
        "--json",
    ]);
    let first_seat = &rows(&board)[0];
    assert_eq!(first_seat["seat"], 0);
    let rate = |key: &str| 100.0 * first_seat[key].as_f64().unwrap() / 20000.0;
    // Exact values by enumeration: X wins 58.49%, O 28.79%, draws 12.70%.
    for (key, exact) in [("wins", 58.49), ("losses", 28.79), ("draws", 12.70)] {
        assert!(
            (rate(key) - exact).abs() < 1.5,
            "{key}: {:.2}% vs exact {exact}%",
            rate(key)
        );
    }
}

#[test]
fn the_tictactoe_oracle_never_loses_to_random_in_either_seat() {
    let board = board(&[
        "run",
        "--env",
        "games/tictactoe-v1",
        "--agents",
        "oracle,random",
        "--n",
        "2000",
        "--json",
    ]);
    let oracle_rows: Vec<&Value> = rows(&board)
        .iter()
        .filter(|r| r["agent"] == "oracle")
        .collect();
    assert_eq!(oracle_rows.len(), 2, "both seatings are played");
    for row in oracle_rows {
        assert_eq!(row["losses"], 0, "{row}");
        assert!(row["wins"].as_u64().unwrap() > 1500, "{row}");
    }
    let ratings = &board["ratings"][0];
    let elo = |name: &str| elo_of(ratings, name);
    assert!(elo("oracle") > elo("random") + 200.0, "{ratings}");
}

#[test]
fn the_default_suite_writes_reports_and_oracles_beat_baselines() {
    let dir = temp_dir("default");
    let out = gym_bench(&["--n", "20", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let summary = String::from_utf8_lossy(&out.stdout);
    let lines = summary.lines().count();
    assert!(lines <= 60, "the summary takes {lines} lines:\n{summary}");
    assert!(summary.contains("full report:"), "{summary}");
    for file in [
        "manifest.json",
        "episodes.jsonl",
        "summary.json",
        "report.md",
        "report.html",
    ] {
        assert!(dir.join(file).exists(), "{file} not written");
    }
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("<table id=\"summary\">"));
    assert!(html.matches("<svg").count() >= 7, "plots missing");
    let board = board(&["--n", "20", "--out", dir.to_str().unwrap(), "--json"]);
    // Every registered env ran, unless the summary says it was skipped.
    let skipped = board["summary"]["skipped"].as_array().unwrap();
    for id in verigym_envs::Registry::builtin()
        .entries()
        .iter()
        .map(|r| r.spec.id)
    {
        let ran = rows(&board)
            .iter()
            .any(|r| r["env"].as_str().unwrap().split('@').next() == Some(id));
        let skip = skipped
            .iter()
            .any(|s| s["env"].as_str().unwrap().split('@').next() == Some(id));
        assert!(ran != skip, "{id}: ran {ran}, skipped {skip}");
    }
    // An entry that shows a trained reference agent plays the setting it
    // was trained in (e.g. guess-number in 1..=16), which need not be hard
    // for the baselines: the baseline bound skips those entries.
    let reference_entries: Vec<&str> = rows(&board)
        .iter()
        .filter(|r| r["agent"].as_str().unwrap().starts_with("burn:"))
        .map(|r| r["env"].as_str().unwrap())
        .collect();
    for row in rows(&board).iter().filter(|r| r["kind"] != "game") {
        let pass = row["pass_rate"]["mean"].as_f64().unwrap();
        let reference_entry = reference_entries.contains(&row["env"].as_str().unwrap());
        // Tool and web envs pass an infeasible task on a random `infeasible`
        // answer (a known flag), so the baseline bound covers the families
        // with exact answers only.
        let exact_answers = matches!(row["family"].as_str(), Some("math" | "logic"));
        match row["agent"].as_str().unwrap() {
            "oracle" => assert_eq!(pass, 1.0, "{row}"),
            "noop" => assert_eq!(pass, 0.0, "{row}"),
            // Baselines only: a trained reference agent may do better.
            agent if exact_answers && !reference_entry && !agent.starts_with("burn:") => {
                assert!(pass < 0.15, "{row}")
            }
            _ => {}
        }
    }
}

#[test]
fn scores_do_not_depend_on_the_thread_count() {
    let dir = temp_dir("threads");
    let suite = small_suite(&dir);
    let strip_timing = |mut board: Value| {
        for row in board["rows"].as_array_mut().unwrap() {
            for key in ["agent_seconds", "env_seconds", "env_steps_per_second"] {
                row.as_object_mut().unwrap().remove(key);
            }
        }
        board
    };
    let one = board(&[
        "suite",
        &suite,
        "--out",
        dir.join("one").to_str().unwrap(),
        "--threads",
        "1",
        "--json",
    ]);
    let two = board(&[
        "suite",
        &suite,
        "--out",
        dir.join("two").to_str().unwrap(),
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(strip_timing(one), strip_timing(two));
    assert_eq!(
        scores_of(&dir.join("one/report.md")),
        scores_of(&dir.join("two/report.md"))
    );
}

#[test]
fn an_interrupted_run_resumes_to_the_same_report() {
    let dir = temp_dir("resume");
    let suite = small_suite(&dir);
    let whole = dir.join("whole");
    let cut = dir.join("cut");
    assert!(
        gym_bench(&["suite", &suite, "--out", whole.to_str().unwrap()])
            .status
            .success()
    );
    assert!(
        gym_bench(&["suite", &suite, "--out", cut.to_str().unwrap()])
            .status
            .success()
    );
    // Interrupt: keep a third of the episodes and a half-written line.
    let log = cut.join("episodes.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let kept = lines[..lines.len() / 3].join("\n") + "\n" + &lines[lines.len() / 3][..40];
    std::fs::write(&log, kept).unwrap();
    let out = gym_bench(&["suite", &suite, "--out", cut.to_str().unwrap(), "--resume"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("resuming: {} episodes done", lines.len() / 3)),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(&log).unwrap().lines().count(),
        lines.len()
    );
    assert_eq!(
        scores_of(&whole.join("report.md")),
        scores_of(&cut.join("report.md"))
    );

    let other = std::fs::read_to_string(&suite)
        .unwrap()
        .replace("seed = 3", "seed = 4");
    std::fs::write(&suite, other).unwrap();
    let out = gym_bench(&["suite", &suite, "--out", cut.to_str().unwrap(), "--resume"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holds a run of another suite"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_killed_run_keeps_its_finished_episodes_and_resumes() {
    let dir = temp_dir("kill");
    let suite_path = dir.join("big.toml");
    std::fs::write(
        &suite_path,
        SMALL_SUITE.replace("episodes = 40", "episodes = 600"),
    )
    .unwrap();
    let suite = suite_path.to_str().unwrap();
    let out_dir = dir.join("run");
    let mut child = gym_bench_command()
        .args([
            "suite",
            suite,
            "--out",
            out_dir.to_str().unwrap(),
            "--threads",
            "1",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let log = out_dir.join("episodes.jsonl");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&log).map_or(0, |t| t.lines().count()) < 50
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let saved = verigym_cli::runlog::read_records(&out_dir).unwrap().len();
    assert!(
        saved >= 50,
        "only {saved} episodes were saved before the kill"
    );
    let out = gym_bench(&[
        "suite",
        suite,
        "--out",
        out_dir.to_str().unwrap(),
        "--resume",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let replayed = gym_bench(&["replay", out_dir.to_str().unwrap()]);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(
        stderr(&replayed).contains("0 differ from the log"),
        "{}",
        stderr(&replayed)
    );
}

#[test]
fn replay_detects_a_tampered_log_and_compare_diffs_runs() {
    let dir = temp_dir("replay");
    let suite = small_suite(&dir);
    let run = dir.join("run");
    assert!(
        gym_bench(&["suite", &suite, "--out", run.to_str().unwrap()])
            .status
            .success()
    );
    let ok = gym_bench(&["replay", run.to_str().unwrap()]);
    assert!(
        ok.status.success() && stderr(&ok).contains("0 differ"),
        "{}",
        stderr(&ok)
    );
    // Claim a pass that did not happen.
    let log = run.join("episodes.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    let mut record: Value = serde_json::from_str(first).unwrap();
    record["result"]["returns"][0] = Value::from(1.0);
    record["result"]["passed"][0] = Value::from(true);
    record["result"]["transcript"][0]["action"] = Value::from("tampered");
    std::fs::write(&log, format!("{record}\n{rest}")).unwrap();
    let bad = gym_bench(&["replay", run.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stderr(&bad).contains("1 differ from the log"),
        "{}",
        stderr(&bad)
    );

    let base = dir.join("base");
    let noop_only = dir.join("noop");
    assert!(
        gym_bench(&["suite", &suite, "--out", base.to_str().unwrap()])
            .status
            .success()
    );
    assert!(
        gym_bench(&[
            "suite",
            &suite,
            "--out",
            noop_only.to_str().unwrap(),
            "--agents",
            "noop,oracle"
        ])
        .status
        .success()
    );
    let diff = gym_bench(&[
        "report",
        base.to_str().unwrap(),
        "--compare",
        noop_only.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&diff.stdout);
    assert!(diff.status.success(), "{}", stderr(&diff));
    assert!(
        text.contains("math/arithmetic-v1@easy") && text.contains("significant"),
        "{text}"
    );
    // Same tasks: a one-player family's scores are unchanged (the games
    // differ, as the oracle meets other opponents).
    let per_family = text.split("per env:").next().unwrap();
    for agent in ["oracle", "noop"] {
        let math = per_family
            .lines()
            .find(|l| l.starts_with(agent) && l.split_whitespace().nth(1) == Some("math"))
            .unwrap_or_else(|| panic!("no math row for {agent}: {text}"));
        assert!(math.contains("+0.0") && math.ends_with("no"), "{math}");
    }
    let games = per_family
        .lines()
        .find(|l| l.starts_with("oracle") && l.split_whitespace().nth(1) == Some("games"))
        .unwrap_or_else(|| panic!("no games row: {text}"));
    assert!(!games.contains("+0.0"), "the opponents changed: {games}");
}

#[test]
fn the_shipped_burn_checkpoint_plays_as_an_agent() {
    let checkpoint = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../datasets/agents/tictactoe.json"
    );
    let agent = format!("burn:{checkpoint}");
    let lineup = format!("{agent},random");
    let board = board(&[
        "run",
        "--env",
        "games/tictactoe-v1",
        "--agents",
        &lineup,
        "--n",
        "100",
        "--json",
    ]);
    let first_seat = rows(&board)
        .iter()
        .find(|r| r["agent"] == agent.as_str() && r["seat"] == 0)
        .unwrap();
    assert_eq!(first_seat["losses"], 0, "{first_seat}");
    assert!(first_seat["wins"].as_u64().unwrap() > 80, "{first_seat}");
    let out = gym_bench(&[
        "run",
        "--env",
        "games/tictactoe-v1",
        "--agents",
        "burn:/no/such/file.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot load the burn agent"),
        "{}",
        stderr(&out)
    );
    // A checkpoint plays only the env it was trained on.
    let out = gym_bench(&["run", "--env", "games/connect-four-v1", "--agents", &lineup]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("was trained on games/tictactoe-v1 and cannot play games/connect-four-v1"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_connect_four_ladder_orders_random_heuristic_oracle() {
    let board = board(&[
        "run",
        "--env",
        "games/connect-four-v1",
        "--agents",
        "oracle,heuristic,random",
        "--n",
        "100",
        "--json",
    ]);
    let row = |agent: &str, opponent: &str, seat: u64| {
        rows(&board)
            .iter()
            .find(|r| {
                r["agent"] == agent
                    && r["seat"] == seat
                    && r["lineup"][1 - seat as usize] == opponent
            })
            .unwrap_or_else(|| panic!("no row {agent} vs {opponent} seat {seat}: {board}"))
            .clone()
    };
    for seat in 0..2 {
        let oracle = row("oracle", "heuristic", seat);
        assert!(
            oracle["wins"].as_u64().unwrap() >= 90,
            "oracle beats win-or-block >= 90% from seat {seat}: {oracle}"
        );
        let heuristic = row("heuristic", "random", seat);
        assert!(heuristic["wins"].as_u64().unwrap() >= 80, "{heuristic}");
    }
    let ratings = &board["ratings"][0];
    let elo = |name: &str| elo_of(ratings, name);
    assert!(elo("oracle") > elo("heuristic"), "{ratings}");
    assert!(elo("heuristic") > elo("random"), "{ratings}");
}

#[test]
fn exploit_scores_policy_files_and_the_shipped_kuhn_agent() {
    let dir = temp_dir("exploit");
    let out = gym_bench(&["exploit", "--env", "games/kuhn-poker-v1", "--template"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let template: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(template.as_object().unwrap().len(), 12);
    // Always bet or call: exploitable by exactly 1/3 chip per hand.
    let mut always_bet = template.clone();
    for row in always_bet.as_object_mut().unwrap().values_mut() {
        for (action, p) in row.as_object_mut().unwrap() {
            *p = Value::from(u8::from(action == "bet" || action == "call"));
        }
    }
    let file = dir.join("always-bet.json");
    std::fs::write(&file, always_bet.to_string()).unwrap();
    let scored = board(&[
        "exploit",
        "--env",
        "games/kuhn-poker-v1",
        "--policy",
        file.to_str().unwrap(),
        "--json",
    ]);
    let exploitability = scored["exploitability"].as_f64().unwrap();
    assert!((exploitability - 1.0 / 3.0).abs() < 1e-9, "{scored}");
    let checkpoint = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../datasets/agents/kuhn-poker.json"
    );
    let burn = board(&[
        "exploit",
        "--env",
        "games/kuhn-poker-v1",
        "--policy",
        &format!("burn:{checkpoint}"),
        "--json",
    ]);
    assert_eq!(burn["covered"], 12, "{burn}");
    // A bare name is the shipped checkpoint, from any directory.
    let by_name = board(&[
        "exploit",
        "--env",
        "games/kuhn-poker-v1",
        "--policy",
        "burn:kuhn-poker",
        "--json",
    ]);
    assert_eq!(by_name, burn);
    let out = gym_bench(&["exploit", "--env", "games/nim-v1", "--template"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("kuhn"), "{}", stderr(&out));
}
