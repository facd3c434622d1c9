//! `gym-bench`'s summary: `summary.json`, the terminal table, the HTML
//! summary, and envs skipped because their runtime is missing.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use verigym_envs::stats::wilson_interval;

use crate::util::{gym_bench, gym_bench_command, stderr, temp_dir};

/// Two one-player envs with exact answers (the oracle always passes, noop
/// never does) and two games, so the all-games fit has two games to join.
const KNOWN_SUITE: &str = r#"
name = "known"
seed = 5
episodes = 30
samples = 2
agents = ["oracle", "random", "noop"]

[[env]]
id = "math/arithmetic-v1@easy"

[[env]]
id = "logic/guess-number-v2@easy"

[[env]]
id = "games/tictactoe-v1"
samples = 1
agents = ["oracle", "random"]

[[env]]
id = "games/nim-v1"
samples = 1
agents = ["oracle", "random"]
"#;

fn write_suite(dir: &Path, text: &str) -> String {
    let path = dir.join("suite.toml");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn agent<'a>(summary: &'a Value, name: &str) -> &'a Value {
    summary["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == name)
        .unwrap_or_else(|| panic!("no agent {name} in {summary}"))
}

fn number(value: &Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

/// Per agent, per env: (family, episodes, passes), from the episode log.
fn tally(run: &Path) -> BTreeMap<String, BTreeMap<String, (usize, usize)>> {
    let mut out: BTreeMap<String, BTreeMap<String, (usize, usize)>> = BTreeMap::new();
    for record in verigym_cli::runlog::read_records(run).unwrap() {
        for (seat, name) in record.key.lineup.iter().enumerate() {
            let slot = out
                .entry(name.clone())
                .or_default()
                .entry(record.key.env.clone())
                .or_default();
            slot.0 += 1;
            slot.1 += usize::from(record.result.passed[seat]);
        }
    }
    out
}

/// The cells of the HTML summary row of `agent`.
fn html_summary_cells(html: &str, agent: &str) -> Vec<String> {
    let table = html
        .split("<table id=\"summary\">")
        .nth(1)
        .and_then(|rest| rest.split("</table>").next())
        .expect("the report has a summary table");
    let row = table
        .split(&format!("<tr data-agent=\"{agent}\">"))
        .nth(1)
        .and_then(|rest| rest.split("</tr>").next())
        .unwrap_or_else(|| panic!("no summary row for {agent}"));
    row.split("<td>")
        .skip(1)
        .map(|cell| cell.trim_end_matches("</td>").to_string())
        .collect()
}

#[test]
fn the_summary_scores_a_known_suite_and_the_html_agrees() {
    let dir = temp_dir("summary-known");
    let suite = write_suite(&dir, KNOWN_SUITE);
    let run = dir.join("run");
    let out = gym_bench(&["suite", &suite, "--out", run.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let summary = read_json(&run.join("summary.json"));
    assert!(
        summary["score"]
            .as_str()
            .unwrap()
            .contains("mean over the envs")
    );
    assert!(summary["interval"].as_str().unwrap().contains("Wilson"));
    assert_eq!(summary["skipped"], Value::Array(vec![]));
    assert_eq!(
        summary["families"],
        serde_json::json!(["math", "logic", "games"])
    );

    let oracle = agent(&summary, "oracle");
    let noop = agent(&summary, "noop");
    for family in ["math", "logic"] {
        assert_eq!(number(&oracle["families"][family]["mean"]), 1.0, "{oracle}");
        assert_eq!(number(&oracle["families"][family]["high"]), 1.0, "{oracle}");
        assert!(number(&oracle["families"][family]["low"]) < 1.0, "{oracle}");
        assert_eq!(number(&noop["families"][family]["mean"]), 0.0, "{noop}");
        assert_eq!(number(&noop["families"][family]["low"]), 0.0, "{noop}");
    }
    assert_eq!(noop["overall"]["mean"], 0.0);
    assert_eq!(noop["overall"]["envs"], 2, "noop plays no game here");
    assert!(noop["families"].get("games").is_none(), "{noop}");

    // Every agent's numbers, recomputed from the episode log: the mean of
    // per-env pass rates, and Wilson distances in quadrature over envs.
    for (name, envs) in tally(&run) {
        let line = agent(&summary, &name);
        let rates: Vec<_> = envs.values().map(|&(n, c)| wilson_interval(c, n)).collect();
        let k = rates.len() as f64;
        let mean = rates.iter().map(|r| r.mean).sum::<f64>() / k;
        let below = rates
            .iter()
            .map(|r| (r.mean - r.low).powi(2))
            .sum::<f64>()
            .sqrt()
            / k;
        let above = rates
            .iter()
            .map(|r| (r.high - r.mean).powi(2))
            .sum::<f64>()
            .sqrt()
            / k;
        let overall = &line["overall"];
        assert!(
            (number(&overall["mean"]) - mean).abs() < 1e-12,
            "{name}: {overall}"
        );
        assert!((number(&overall["low"]) - (mean - below).max(0.0)).abs() < 1e-12);
        assert!((number(&overall["high"]) - (mean + above).min(1.0)).abs() < 1e-12);
        assert_eq!(overall["envs"], envs.len());
    }
    // Sorted best first; the oracle beats random over all games.
    let order: Vec<&str> = summary["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["agent"].as_str().unwrap())
        .collect();
    assert_eq!(order.len(), 3);
    assert_eq!(order[0], "oracle");
    let overall = |name: &str| number(&agent(&summary, name)["overall"]["mean"]);
    assert!(
        order
            .windows(2)
            .all(|w| overall(w[0]) > overall(w[1])
                || (overall(w[0]) == overall(w[1]) && w[0] < w[1])),
        "not sorted by overall: {summary}"
    );
    let elo = |name: &str| number(&agent(&summary, name)["games_rating"]["elo"]);
    assert!(elo("oracle") > elo("random") + 100.0, "{summary}");
    assert!(agent(&summary, "noop")["games_rating"].is_null());
    let per_game = summary["game_ratings"].as_array().unwrap();
    assert_eq!(per_game.len(), 2, "{summary}");

    // The HTML summary shows the same numbers, in the same order.
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    let mut last = usize::MAX;
    for name in order.iter().rev() {
        let at = html.find(&format!("data-agent=\"{name}\"")).unwrap();
        assert!(at < last, "summary rows out of order");
        last = at;
        let line = agent(&summary, name);
        let cells = html_summary_cells(&html, name);
        let pct = |v: &Value| format!("{:.1}", 100.0 * number(v));
        assert_eq!(cells[0], *name);
        assert_eq!(cells[1], pct(&line["overall"]["mean"]), "{name}");
        assert_eq!(
            cells[2],
            format!(
                "{}-{}",
                pct(&line["overall"]["low"]),
                pct(&line["overall"]["high"])
            )
        );
        assert_eq!(cells[3], line["overall"]["envs"].to_string());
        for (i, family) in ["math", "logic", "games"].iter().enumerate() {
            let expected = line["families"]
                .get(family)
                .map_or_else(|| "-".to_string(), |s| pct(&s["mean"]));
            assert_eq!(cells[4 + i], expected, "{name} {family}");
        }
        let elo = line["games_rating"]["elo"]
            .as_f64()
            .map_or_else(|| "-".to_string(), |e| format!("{e:+.0}"));
        assert_eq!(cells[7], elo, "{name}");
        assert_eq!(cells.len(), 8);
    }
    // The report's order: summary, family plots, ratings, per-env details.
    let positions: Vec<usize> = [
        "<table id=\"summary\">",
        "<figure id=\"family-math\">",
        "<figure id=\"family-games\">",
        "id=\"ratings-all-games\"",
        "<details class=\"family\" id=\"details-math\">",
        "<details class=\"family\" id=\"details-games\">",
    ]
    .iter()
    .map(|marker| html.find(marker).unwrap_or_else(|| panic!("no {marker}")))
    .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
}

#[test]
fn the_terminal_shows_the_summary_and_details_add_the_per_env_table() {
    let dir = temp_dir("summary-terminal");
    let suite = write_suite(&dir, KNOWN_SUITE);
    let run = dir.join("run");
    let out = gym_bench(&["suite", &suite, "--out", run.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() <= 20, "{text}");
    let header = lines.iter().position(|l| l.starts_with("agent")).unwrap();
    for family in ["math", "logic", "games"] {
        assert!(lines[header].contains(family), "{text}");
    }
    // Header, rule, then one row per agent, the oracle first.
    assert!(lines[header + 2].starts_with("oracle"), "{text}");
    for agent in ["random", "noop"] {
        assert!(
            lines[header + 3..header + 5]
                .iter()
                .any(|l| l.starts_with(agent)),
            "{text}"
        );
    }
    assert!(
        !text.contains("arithmetic-v1"),
        "per-env rows without --details: {text}"
    );
    let report = run.join("report.html");
    assert!(
        text.contains(&format!("full report: {}", report.display())),
        "{text}"
    );

    let detailed = gym_bench(&["report", run.to_str().unwrap(), "--details"]);
    assert!(detailed.status.success(), "{}", stderr(&detailed));
    let text = String::from_utf8_lossy(&detailed.stdout);
    assert!(text.contains("math/arithmetic-v1@easy"), "{text}");
    assert!(text.contains("ratings on games/nim-v1"), "{text}");
    assert!(text.contains("overall %"), "the summary follows: {text}");
}

/// A C toolchain at a path that does not exist: the C env is skipped with
/// its reason and fix in every output, and no score counts it.
#[test]
fn an_env_whose_runtime_is_missing_is_skipped_not_zero() {
    let dir = temp_dir("summary-skip");
    let suite = write_suite(
        &dir,
        r#"
name = "skip"
episodes = 6
agents = ["oracle", "noop"]

[[env]]
id = "math/arithmetic-v1@easy"

[[env]]
id = "code/functions-c-v2@easy"
"#,
    );
    let run = dir.join("run");
    let out = gym_bench_command()
        .args(["suite", &suite, "--out", run.to_str().unwrap()])
        .env("VERIGYM_CLANG", dir.join("no-such-clang"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("skipped, not scored (1 of the suite's envs"),
        "{text}"
    );
    assert!(text.contains("code/functions-c-v2@easy"), "{text}");
    assert!(text.contains("fix: sandbox/setup.sh c"), "{text}");

    let summary = read_json(&run.join("summary.json"));
    let skipped = summary["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{summary}");
    assert_eq!(skipped[0]["env"], "code/functions-c-v2@easy");
    assert!(
        skipped[0]["reason"]
            .as_str()
            .unwrap()
            .contains("C toolchain missing"),
        "{summary}"
    );
    assert_eq!(skipped[0]["fix"], "sandbox/setup.sh c");
    assert_eq!(summary["families"], serde_json::json!(["math"]));
    let oracle = agent(&summary, "oracle");
    assert_eq!(oracle["overall"]["mean"], 1.0, "not pulled down: {oracle}");
    assert_eq!(oracle["overall"]["envs"], 1);
    assert!(
        verigym_cli::runlog::read_records(&run)
            .unwrap()
            .iter()
            .all(|r| r.key.env == "math/arithmetic-v1@easy"),
        "the skipped env ran"
    );
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    let table = html
        .split("<table id=\"skipped\">")
        .nth(1)
        .expect("a skipped table");
    assert!(table.contains("code/functions-c-v2@easy") && table.contains("sandbox/setup.sh c"));
    let markdown = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(markdown.contains("## Skipped (not scored)"), "{markdown}");
    // Rewriting the reports keeps the skip (it is in the manifest).
    let again = gym_bench(&["report", run.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("fix: sandbox/setup.sh c"));

    // Where the toolchain is installed, the same suite runs the C env and
    // the oracle passes it.
    if verigym_cli::availability::check(verigym_cli::availability::Runtime::C).is_ok() {
        let full = dir.join("full");
        let out = gym_bench(&["suite", &suite, "--out", full.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        let summary = read_json(&full.join("summary.json"));
        assert_eq!(summary["skipped"], Value::Array(vec![]));
        assert_eq!(agent(&summary, "oracle")["families"]["code"]["mean"], 1.0);
    }
}

/// The Python component made unavailable (no builder, an empty cache):
/// the Python code env is skipped with the Python fix.
#[test]
fn the_python_envs_skip_when_the_python_component_cannot_be_built() {
    let dir = temp_dir("summary-skip-python");
    let suite = write_suite(
        &dir,
        "name = 'py'\nepisodes = 4\nagents = ['oracle']\n\
         [[env]]\nid = 'math/arithmetic-v1@easy'\n[[env]]\nid = 'code/functions-v2@easy'\n",
    );
    let run = dir.join("run");
    let out = gym_bench_command()
        .args(["suite", &suite, "--out", run.to_str().unwrap()])
        .env("VERIGYM_CACHE_DIR", dir.join("empty-cache"))
        .env(
            "VERIGYM_COMPONENTIZE_PY",
            dir.join("no-such-componentize-py"),
        )
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let summary = read_json(&run.join("summary.json"));
    let skipped = summary["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{summary}");
    assert_eq!(skipped[0]["env"], "code/functions-v2@easy");
    assert_eq!(skipped[0]["fix"], "sandbox/setup.sh python");
    let reason = skipped[0]["reason"].as_str().unwrap();
    assert!(reason.contains("Python runtime unavailable"), "{reason}");
    assert_eq!(agent(&summary, "oracle")["overall"]["mean"], 1.0);
    assert!(String::from_utf8_lossy(&out.stdout).contains("fix: sandbox/setup.sh python"));
}

/// The rating across all games joins the games family only: with one game
/// and a self-play env, it is exactly that game's own fit.
#[test]
fn the_all_games_rating_leaves_self_play_out() {
    let out = gym_bench(&[
        "run",
        "--env",
        "games/nim-v1",
        "selfplay/math-propose-v1",
        "--agents",
        "oracle,random",
        "--n",
        "10",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let board: Value = serde_json::from_slice(&out.stdout).unwrap();
    let per_game = board["ratings"].as_array().unwrap();
    assert_eq!(per_game.len(), 2, "both are two-player: {board}");
    let nim = per_game
        .iter()
        .find(|g| g["env"] == "games/nim-v1")
        .unwrap();
    assert_eq!(board["all_games"]["agents"], nim["agents"]);
    assert_eq!(board["all_games"]["ratings"], nim["ratings"]);
    let summary = &board["summary"];
    let elo = number(&agent(summary, "oracle")["games_rating"]["elo"]);
    assert_eq!(elo, number(&nim["ratings"][0]["elo"]));
}

/// The text of `<details class="family" id="details-FAMILY">` up to its end.
fn family_section<'a>(html: &'a str, family: &str) -> &'a str {
    let start = format!("<details class=\"family\" id=\"details-{family}\">");
    html.split(&start)
        .nth(1)
        .and_then(|rest| rest.split("</details>").next())
        .unwrap_or_else(|| panic!("no section for {family}"))
}

/// Each family's section holds its own pass@k curves and accuracy by
/// difficulty: a plot where the suite ran several samples or presets, a
/// line saying what is missing where it did not.
#[test]
fn each_familys_details_hold_its_pass_at_k_and_difficulty_plots() {
    let dir = temp_dir("summary-curves");
    let suite = write_suite(
        &dir,
        r#"
name = "curves"
episodes = 8
samples = 3
agents = ["oracle", "random", "noop"]

[[env]]
id = "math/arithmetic-v1@easy"

[[env]]
id = "math/arithmetic-v1@hard"

[[env]]
id = "logic/guess-number-v2@easy"
samples = 1

[[env]]
id = "games/nim-v1"
samples = 1
agents = ["oracle", "random"]
"#,
    );
    let run = dir.join("run");
    let out = gym_bench(&["suite", &suite, "--out", run.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    let math = family_section(&html, "math");
    let table = math.find("<table class=\"envs\">").expect("math's table");
    for kind in ["pass-at-k", "difficulty"] {
        let figure = format!("<figure class=\"{kind}\" id=\"{kind}-math\"><svg");
        let at = math
            .find(&figure)
            .unwrap_or_else(|| panic!("no {kind} plot in math's section"));
        assert!(table < at, "the plots follow the table");
    }
    // The curves name the env and agent they show; noop (flat at 0) is left
    // out of pass@k, and each family's plots show only its own envs.
    let pass_at_k = math
        .split("id=\"pass-at-k-math\"")
        .nth(1)
        .and_then(|rest| rest.split("</figure>").next())
        .unwrap();
    assert!(
        pass_at_k.contains("random math/arithmetic-v1@hard"),
        "{pass_at_k}"
    );
    assert!(pass_at_k.contains("oracle math/arithmetic-v1@easy"));
    assert!(!pass_at_k.contains("noop"));
    assert!(!pass_at_k.contains("guess-number"));
    let difficulty = math
        .split("id=\"difficulty-math\"")
        .nth(1)
        .and_then(|rest| rest.split("</figure>").next())
        .unwrap();
    assert!(
        difficulty.contains("oracle math/arithmetic-v1"),
        "{difficulty}"
    );
    assert!(difficulty.contains("hard"), "the presets label the axis");
    // One sample and one preset: each plot is replaced by what it needs.
    for family in ["logic", "games"] {
        let section = family_section(&html, family);
        assert!(!section.contains("<svg"), "{family}: {section}");
        assert!(
            section.contains(&format!(
                "<p class=\"no-plot pass-at-k\" id=\"pass-at-k-{family}\">"
            )),
            "{section}"
        );
        assert!(section.contains("set `samples` above 1"), "{section}");
        assert!(section.contains(&format!("id=\"difficulty-{family}\"")));
        assert!(section.contains("at several presets"), "{section}");
    }
    // One file: nothing is loaded from elsewhere.
    for outside in ["src=\"", "href=\"http", "<link ", "<script"] {
        assert!(!html.contains(outside), "{outside}");
    }
}
