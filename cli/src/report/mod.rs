//! Reports of a run: markdown, and a self-contained HTML page ([`html`])
//! with SVG plots ([`plots`]); both open with the [`Summary`]; plus a
//! comparison of two runs. [`table`] renders the plain-text tables the CLIs
//! print.

use std::fmt::Write;

use verigym_envs::EnvKind;

use crate::bench::{Leaderboard, Row};
use crate::runlog::Manifest;
use crate::summary::{Summary, interval, percent};

pub mod compare;
pub mod html;
pub mod plots;
pub mod table;

pub use compare::{compare, compare_families};
pub use html::html;

/// The summary table: a header, then one row per agent (best first):
/// overall, its interval, envs played, each family's score, games Elo.
pub fn summary_rows(summary: &Summary) -> Vec<Vec<String>> {
    let mut header: Vec<String> = ["agent", "overall %", "95% CI", "envs"]
        .map(String::from)
        .to_vec();
    header.extend(summary.families.iter().cloned());
    header.push("games Elo".into());
    let mut rows = vec![header];
    for agent in &summary.agents {
        let mut row = vec![
            agent.agent.clone(),
            percent(agent.overall.mean),
            interval(&agent.overall),
            agent.overall.envs.to_string(),
        ];
        for family in &summary.families {
            row.push(
                agent
                    .families
                    .get(family)
                    .map_or_else(|| "-".into(), |s| percent(s.mean)),
            );
        }
        row.push(
            agent
                .games_rating
                .map_or_else(|| "-".into(), |r| format!("{:+.0}", r.elo)),
        );
        rows.push(row);
    }
    rows
}

/// The skipped envs, grouped by reason: (envs, reason, fix command).
pub fn skipped_groups(summary: &Summary) -> Vec<(Vec<String>, String, String)> {
    let mut groups: Vec<(Vec<String>, String, String)> = Vec::new();
    for s in &summary.skipped {
        match groups.iter_mut().find(|g| g.1 == s.reason && g.2 == s.fix) {
            Some(group) => group.0.push(s.env.clone()),
            None => groups.push((vec![s.env.clone()], s.reason.clone(), s.fix.clone())),
        }
    }
    groups
}

/// The per-env table: one row per agent, seat and line-up of `rows`.
fn env_rows<'a>(rows: impl IntoIterator<Item = &'a Row>) -> Vec<Vec<String>> {
    let mut table = vec![
        [
            "env",
            "agent",
            "seat",
            "tasks",
            "pass %",
            "95% CI",
            "pass@k",
            "mean return",
            "W/D/L",
            "invalid %",
            "chars/answer",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for r in rows {
        let game = r.kind == EnvKind::Game;
        table.push(vec![
            r.env.clone(),
            if game {
                format!("{} (vs {})", r.agent, opponents(r))
            } else {
                r.agent.clone()
            },
            if game { r.seat.to_string() } else { "-".into() },
            r.tasks.to_string(),
            format!("{:.1}", 100.0 * r.pass_rate.mean),
            format!(
                "{:.1}-{:.1}",
                100.0 * r.pass_rate.low,
                100.0 * r.pass_rate.high
            ),
            r.pass_at_k
                .iter()
                .enumerate()
                .map(|(k, p)| format!("@{} {:.1}", k + 1, 100.0 * p))
                .collect::<Vec<_>>()
                .join(" "),
            format!(
                "{:+.3} ± {:.3}",
                r.mean_return.mean,
                (r.mean_return.high - r.mean_return.low) / 2.0
            ),
            if game {
                format!("{}/{}/{}", r.wins, r.draws, r.losses)
            } else {
                "-".into()
            },
            format!("{:.1}", 100.0 * r.invalid_rate),
            format!("{:.0}", r.mean_answer_chars),
        ]);
    }
    table
}

fn opponents(row: &Row) -> String {
    row.lineup
        .iter()
        .enumerate()
        .filter(|(s, _)| *s != row.seat)
        .map(|(_, a)| a.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn manifest_lines(manifest: &Manifest) -> Vec<String> {
    vec![
        format!(
            "suite `{}` (hash {})",
            manifest.suite.name,
            &manifest.suite_hash[..16]
        ),
        format!(
            "verigym {} at commit {}",
            manifest.verigym_version, manifest.git_commit
        ),
        format!(
            "seed {}, {} tasks per env, {} samples per task, agents: {}",
            manifest.suite.seed,
            manifest.suite.episodes,
            manifest.suite.samples,
            manifest.agents.join(", ")
        ),
    ]
}

/// Wall-clock figures, kept apart from the scores because they vary from
/// run to run while the scores never do.
fn speed_rows(board: &Leaderboard) -> Vec<Vec<String>> {
    let mut rows = vec![
        [
            "env",
            "line-up",
            "agent seconds",
            "env seconds",
            "env steps/s",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for r in board.rows.iter().filter(|r| r.seat == 0) {
        rows.push(vec![
            r.env.clone(),
            r.lineup.join(" vs "),
            format!("{:.3}", r.agent_seconds),
            format!("{:.3}", r.env_seconds),
            format!("{:.0}", r.env_steps_per_second),
        ]);
    }
    rows
}

/// Heading of the timing section; everything above it is reproducible.
pub const SPEED_HEADING: &str = "## Speed";

fn markdown_table(out: &mut String, rows: &[Vec<String>]) {
    let _ = writeln!(out, "| {} |", rows[0].join(" | "));
    let _ = writeln!(out, "|{}|", vec!["---"; rows[0].len()].join("|"));
    for row in &rows[1..] {
        let _ = writeln!(out, "| {} |", row.join(" | "));
    }
}

/// Ratings best first: (agent, Elo, low, high).
fn ratings_order(game: &crate::bench::GameRatings) -> Vec<(&str, f64, f64, f64)> {
    let mut order: Vec<_> = game
        .ratings
        .iter()
        .map(|r| (game.agents[r.player].as_str(), r.elo, r.low, r.high))
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1));
    order
}

/// The markdown report: summary, skipped envs, ratings, per-env table,
/// then the wall-clock section.
pub fn markdown(manifest: &Manifest, board: &Leaderboard, summary: &Summary) -> String {
    let mut out = String::from("# gym-bench report\n\n");
    for line in manifest_lines(manifest) {
        let _ = writeln!(out, "- {line}");
    }
    let _ = writeln!(
        out,
        "\n## Summary\n\nScore: {}. Interval: {}.\n",
        summary.score, summary.interval
    );
    markdown_table(&mut out, &summary_rows(summary));
    let groups = skipped_groups(summary);
    if !groups.is_empty() {
        out.push_str("\n## Skipped (not scored)\n\n");
        for (envs, reason, fix) in groups {
            let _ = writeln!(out, "- {}: {reason}; fix: `{fix}`", envs.join(", "));
        }
    }
    let games = board.all_games.iter().chain(&board.ratings);
    for game in games {
        let _ = writeln!(out, "\n## Ratings on {} (Elo scale, 95% CI)\n", game.env);
        for (agent, elo, low, high) in ratings_order(game) {
            let _ = writeln!(out, "- {agent}: {elo:+.0} ({low:+.0} to {high:+.0})");
        }
    }
    out.push_str("\n## Per env\n\n");
    markdown_table(&mut out, &env_rows(&board.rows));
    let _ = writeln!(
        out,
        "\n{SPEED_HEADING}\n\nWall-clock time; varies between runs.\n"
    );
    markdown_table(&mut out, &speed_rows(board));
    out
}
