//! Plain-text tables: the summary `gym-bench` prints, the per-env
//! leaderboard it prints with `--details`, the audit table `verigym audit`
//! prints, and the column alignment they share.

use std::path::Path;

use verigym_envs::EnvKind;
use verigym_envs::testing::audit::EnvAudit;

use crate::bench::Leaderboard;
use crate::metrics::Rating;
use crate::summary::Summary;

/// The summary as the terminal shows it: agents × families (best first),
/// the skipped envs grouped by reason with their fix, and where the full
/// report is. A few lines per agent and per missing runtime, whatever the
/// number of envs.
pub fn summary(summary: &Summary, report: Option<&Path>) -> String {
    let scored: usize = summary
        .agents
        .iter()
        .map(|a| a.overall.envs)
        .max()
        .unwrap_or(0);
    let mut out = format!(
        "suite `{}`: {} agents; scores are mean pass rates over envs, in % (95% CI: \
         Wilson-based, see --help); skipped envs never count\n\n",
        summary.suite,
        summary.agents.len(),
    );
    out.push_str(&align(&super::summary_rows(summary)));
    if scored > 0 && summary.agents.iter().any(|a| a.overall.envs < scored) {
        out.push_str("(an agent is scored on the envs it played: see the envs column)\n");
    }
    let groups = super::skipped_groups(summary);
    if !groups.is_empty() {
        out.push_str(&format!(
            "\nskipped, not scored ({} of the suite's envs could not run here):\n",
            summary.skipped.len()
        ));
        for (envs, reason, fix) in groups {
            out.push_str(&format!(
                "  {}\n    why: {reason}\n    fix: {fix}\n",
                envs.join(", ")
            ));
        }
    }
    out.push('\n');
    if let Some(path) = report {
        out.push_str(&format!("full report: {}\n", path.display()));
    }
    out
}

/// Plain-text leaderboard: one row per agent and seat, then game ratings.
pub fn leaderboard(board: &Leaderboard) -> String {
    let mut rows = vec![
        [
            "env",
            "line-up",
            "seat",
            "agent",
            "tasks",
            "pass % (95% CI)",
            "pass@k",
            "mean return",
            "win/draw/loss %",
            "invalid %",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for row in &board.rows {
        let game = row.kind == EnvKind::Game;
        let n = (row.wins + row.draws + row.losses).max(1) as f64;
        rows.push(vec![
            row.env.clone(),
            row.lineup.join(" vs "),
            if game {
                row.seat.to_string()
            } else {
                "-".into()
            },
            row.agent.clone(),
            row.tasks.to_string(),
            format!(
                "{:.1} ({:.1}-{:.1})",
                100.0 * row.pass_rate.mean,
                100.0 * row.pass_rate.low,
                100.0 * row.pass_rate.high
            ),
            match row.pass_at_k.last() {
                Some(p) if row.samples > 1 => format!("@{} {:.1}", row.samples, 100.0 * p),
                _ => "-".into(),
            },
            format!("{:+.3}", row.mean_return.mean),
            if game {
                format!(
                    "{:.1}/{:.1}/{:.1}",
                    100.0 * row.wins as f64 / n,
                    100.0 * row.draws as f64 / n,
                    100.0 * row.losses as f64 / n
                )
            } else {
                "-".into()
            },
            format!("{:.1}", 100.0 * row.invalid_rate),
        ]);
    }
    let mut out = align(&rows);
    for game in &board.ratings {
        out.push_str(&format!("\nratings on {} (Elo scale, 95% CI):\n", game.env));
        let mut order: Vec<&Rating> = game.ratings.iter().collect();
        order.sort_by(|a, b| b.elo.total_cmp(&a.elo));
        for r in order {
            out.push_str(&format!(
                "  {:<12} {:+7.0}  ({:+.0} to {:+.0})\n",
                game.agents[r.player], r.elo, r.low, r.high
            ));
        }
    }
    out
}

/// Left-aligns columns with a rule under the header.
pub fn align(rows: &[Vec<String>]) -> String {
    let columns = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
        if i == 0 {
            out.push_str(
                &widths
                    .iter()
                    .map(|w| "-".repeat(*w))
                    .collect::<Vec<_>>()
                    .join("  "),
            );
            out.push('\n');
        }
    }
    out
}

/// The audit as a table, flagged probes marked `FLAG`.
pub fn audits(audits: &[EnvAudit]) -> String {
    let mut rows = vec![
        ["env", "probe", "passed", "rate %", "flag"]
            .map(String::from)
            .to_vec(),
    ];
    for audit in audits {
        for p in &audit.probes {
            rows.push(vec![
                audit.env.clone(),
                p.probe.clone(),
                format!("{}/{}", p.passed, p.tasks),
                format!("{:.1}", 100.0 * p.rate()),
                if p.flagged {
                    "FLAG".into()
                } else {
                    String::new()
                },
            ]);
        }
    }
    align(&rows)
}
