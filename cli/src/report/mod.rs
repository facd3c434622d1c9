//! Reports of a run: markdown, and a self-contained HTML page with SVG
//! plots (leaderboard table, per-family bars, pass@k curves, accuracy by
//! difficulty), plus a comparison of two runs; [`table`] renders the plain-text
//! tables the CLIs print.

use std::collections::BTreeMap;
use std::fmt::Write;

use plotters::prelude::*;

use verigym_envs::EnvKind;

use crate::bench::{Leaderboard, Row};
use crate::runlog::Manifest;
use table::align;

pub mod table;

/// Mean pass rate of each agent per family, over one-player rows.
pub fn family_means(board: &Leaderboard) -> BTreeMap<String, BTreeMap<String, f64>> {
    let mut sums: BTreeMap<String, BTreeMap<String, (f64, usize)>> = BTreeMap::new();
    for row in board.rows.iter().filter(|r| r.kind != EnvKind::Game) {
        let slot = sums
            .entry(row.agent.clone())
            .or_default()
            .entry(row.family.clone())
            .or_default();
        slot.0 += row.pass_rate.mean;
        slot.1 += 1;
    }
    sums.into_iter()
        .map(|(agent, families)| {
            (
                agent,
                families
                    .into_iter()
                    .map(|(f, (s, n))| (f, s / n as f64))
                    .collect(),
            )
        })
        .collect()
}

fn summary_rows(board: &Leaderboard) -> Vec<Vec<String>> {
    let mut rows = vec![
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
    for r in &board.rows {
        let game = r.kind == EnvKind::Game;
        rows.push(vec![
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
    rows
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

/// The markdown report.
pub fn markdown(manifest: &Manifest, board: &Leaderboard) -> String {
    let mut out = String::from("# gym-bench report\n\n");
    for line in manifest_lines(manifest) {
        let _ = writeln!(out, "- {line}");
    }
    out.push_str("\n## Leaderboard\n\n");
    let rows = summary_rows(board);
    let _ = writeln!(out, "| {} |", rows[0].join(" | "));
    let _ = writeln!(out, "|{}|", vec!["---"; rows[0].len()].join("|"));
    for row in &rows[1..] {
        let _ = writeln!(out, "| {} |", row.join(" | "));
    }
    let families = family_means(board);
    if !families.is_empty() {
        out.push_str("\n## Pass rate by family\n\n");
        for (agent, per_family) in &families {
            let cells: Vec<String> = per_family
                .iter()
                .map(|(f, p)| format!("{f} {:.1}%", 100.0 * p))
                .collect();
            let _ = writeln!(out, "- {agent}: {}", cells.join(", "));
        }
    }
    for game in &board.ratings {
        let _ = writeln!(out, "\n## Ratings on {} (Elo scale, 95% CI)\n", game.env);
        let mut order: Vec<_> = game.ratings.iter().collect();
        order.sort_by(|a, b| b.elo.total_cmp(&a.elo));
        for r in order {
            let _ = writeln!(
                out,
                "- {}: {:+.0} ({:+.0} to {:+.0})",
                game.agents[r.player], r.elo, r.low, r.high
            );
        }
    }
    let _ = writeln!(
        out,
        "\n{SPEED_HEADING}\n\nWall-clock time; varies between runs.\n"
    );
    let speed = speed_rows(board);
    let _ = writeln!(out, "| {} |", speed[0].join(" | "));
    let _ = writeln!(out, "|{}|", vec!["---"; speed[0].len()].join("|"));
    for row in &speed[1..] {
        let _ = writeln!(out, "| {} |", row.join(" | "));
    }
    out
}

const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

fn plot_error(e: impl std::fmt::Display) -> String {
    format!("<p>plot failed: {e}</p>")
}

/// Grouped bars: mean pass rate per family, one colour per agent.
fn family_bars_svg(board: &Leaderboard) -> String {
    let means = family_means(board);
    let agents: Vec<&String> = means.keys().collect();
    let families: Vec<String> = {
        let mut f: Vec<String> = means.values().flat_map(|m| m.keys().cloned()).collect();
        f.sort();
        f.dedup();
        f
    };
    if families.is_empty() {
        return String::new();
    }
    let mut svg = String::new();
    let result = (|| -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::with_string(&mut svg, (900, 380)).into_drawing_area();
        root.fill(&WHITE)?;
        let groups = families.len() as f64;
        let mut chart = ChartBuilder::on(&root)
            .caption("Pass rate by family", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(44)
            .build_cartesian_2d(-0.5f64..groups - 0.5, 0f64..100f64)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(4 * families.len() + 1)
            .x_label_formatter(&|x| integer_label(*x, &families))
            .y_desc("pass %")
            .draw()?;
        let width = 0.8 / agents.len() as f64;
        for (a, agent) in agents.iter().enumerate() {
            let colour = PALETTE[a % PALETTE.len()];
            let bars = families.iter().enumerate().filter_map(|(f, family)| {
                let p = *means[*agent].get(family)?;
                let x0 = f as f64 - 0.4 + a as f64 * width;
                Some(Rectangle::new(
                    [(x0, 0.0), (x0 + width * 0.9, 100.0 * p)],
                    colour.filled(),
                ))
            });
            chart
                .draw_series(bars)?
                .label(agent.as_str())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled())
                });
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .draw()?;
        root.present()?;
        Ok(())
    })();
    result.map_or_else(plot_error, |()| svg)
}

/// The label of category `x` when `x` is (close to) a whole number.
fn integer_label(x: f64, labels: &[String]) -> String {
    let i = x.round();
    if (x - i).abs() < 1e-6 && i >= 0.0 {
        labels.get(i as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

/// Line chart of `series` (label, points) with x labelled by `x_labels`.
fn line_chart_svg(
    title: &str,
    x_labels: &[String],
    y_desc: &str,
    series: &[(String, Vec<(usize, f64)>)],
) -> String {
    if series.is_empty() || x_labels.is_empty() {
        return String::new();
    }
    let mut svg = String::new();
    let result = (|| -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::with_string(&mut svg, (900, 380)).into_drawing_area();
        root.fill(&WHITE)?;
        let max_x = (x_labels.len() - 1).max(1) as f64;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(44)
            .build_cartesian_2d(-0.1f64..max_x + 0.1, 0f64..100f64)?;
        chart
            .configure_mesh()
            .x_labels(4 * x_labels.len() + 1)
            .x_label_formatter(&|x| integer_label(*x, x_labels))
            .y_desc(y_desc)
            .draw()?;
        for (i, (label, points)) in series.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let points: Vec<(f64, f64)> =
                points.iter().map(|&(x, y)| (x as f64, 100.0 * y)).collect();
            chart
                .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))?
                .label(label.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 14, y)], colour.stroke_width(2))
                });
            chart.draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 3, colour.filled())),
            )?;
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .draw()?;
        root.present()?;
        Ok(())
    })();
    result.map_or_else(plot_error, |()| svg)
}

/// pass@k curves, one per (env, agent) with more than one sample.
fn pass_at_k_svg(board: &Leaderboard) -> String {
    let rows: Vec<&Row> = board
        .rows
        .iter()
        .filter(|r| r.samples > 1 && r.kind != EnvKind::Game)
        .collect();
    let max_k = rows.iter().map(|r| r.samples).max().unwrap_or(0);
    let labels: Vec<String> = (1..=max_k).map(|k| format!("k={k}")).collect();
    let series: Vec<(String, Vec<(usize, f64)>)> = rows
        .iter()
        .filter(|r| r.agent != "noop")
        .map(|r| {
            (
                format!("{} {}", r.agent, r.env),
                r.pass_at_k.iter().copied().enumerate().collect(),
            )
        })
        .collect();
    line_chart_svg("pass@k", &labels, "pass@k %", &series)
}

/// Accuracy across presets of each env, per agent.
fn difficulty_svg(board: &Leaderboard) -> String {
    let mut presets: Vec<String> = Vec::new();
    let mut by_series: BTreeMap<String, Vec<(usize, f64)>> = BTreeMap::new();
    for r in board.rows.iter().filter(|r| r.kind != EnvKind::Game) {
        let base = r.env.split('@').next().unwrap_or(&r.env);
        let x = presets
            .iter()
            .position(|p| *p == r.preset)
            .unwrap_or_else(|| {
                presets.push(r.preset.clone());
                presets.len() - 1
            });
        by_series
            .entry(format!("{} {base}", r.agent))
            .or_default()
            .push((x, r.pass_rate.mean));
    }
    let series: Vec<(String, Vec<(usize, f64)>)> =
        by_series.into_iter().filter(|(_, p)| p.len() > 1).collect();
    line_chart_svg("Accuracy by difficulty", &presets, "pass %", &series)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The self-contained HTML report (inline CSS and SVG; nothing fetched).
pub fn html(manifest: &Manifest, board: &Leaderboard) -> String {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gym-bench report</title>\n<style>\
         body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;font-size:13px}\
         th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}th{background:#eee}\
         .plots svg{margin:8px 0;display:block}</style></head><body>\n<h1>gym-bench report</h1>\n<ul>\n",
    );
    for line in manifest_lines(manifest) {
        let _ = writeln!(out, "<li>{}</li>", escape(&line));
    }
    out.push_str("</ul>\n<h2>Leaderboard</h2>\n<table id=\"leaderboard\">\n");
    for (i, row) in summary_rows(board).iter().enumerate() {
        let tag = if i == 0 { "th" } else { "td" };
        let cells: String = row
            .iter()
            .map(|c| format!("<{tag}>{}</{tag}>", escape(c)))
            .collect();
        let _ = writeln!(out, "<tr>{cells}</tr>");
    }
    out.push_str("</table>\n");
    for game in &board.ratings {
        let _ = writeln!(
            out,
            "<h2>Ratings on {} (Elo scale, 95% CI)</h2>\n<table class=\"ratings\"><tr><th>agent</th><th>Elo</th><th>95% CI</th></tr>",
            escape(&game.env)
        );
        let mut order: Vec<_> = game.ratings.iter().collect();
        order.sort_by(|a, b| b.elo.total_cmp(&a.elo));
        for r in order {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{:+.0}</td><td>{:+.0} to {:+.0}</td></tr>",
                escape(&game.agents[r.player]),
                r.elo,
                r.low,
                r.high
            );
        }
        out.push_str("</table>\n");
    }
    out.push_str("<h2>Plots</h2>\n<div class=\"plots\">\n");
    for svg in [
        family_bars_svg(board),
        pass_at_k_svg(board),
        difficulty_svg(board),
    ] {
        out.push_str(&svg);
        out.push('\n');
    }
    out.push_str("</div>\n<h2>Speed</h2>\n<p>Wall-clock time; varies between runs.</p>\n<table class=\"speed\">\n");
    for (i, row) in speed_rows(board).iter().enumerate() {
        let tag = if i == 0 { "th" } else { "td" };
        let cells: String = row
            .iter()
            .map(|c| format!("<{tag}>{}</{tag}>", escape(c)))
            .collect();
        let _ = writeln!(out, "<tr>{cells}</tr>");
    }
    out.push_str("</table>\n</body></html>\n");
    out
}

/// Rows of two runs side by side, matched by env, line-up and seat.
pub fn compare(base: &Leaderboard, other: &Leaderboard) -> String {
    let mut rows = vec![
        [
            "env",
            "line-up",
            "seat",
            "agent",
            "pass % before",
            "pass % after",
            "change",
            "significant",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for new in &other.rows {
        let Some(old) = base
            .rows
            .iter()
            .find(|r| r.env == new.env && r.lineup == new.lineup && r.seat == new.seat)
        else {
            continue;
        };
        // Disjoint 95% intervals: a conservative test of a real change.
        let significant =
            new.pass_rate.low > old.pass_rate.high || new.pass_rate.high < old.pass_rate.low;
        rows.push(vec![
            new.env.clone(),
            new.lineup.join(" vs "),
            new.seat.to_string(),
            new.agent.clone(),
            format!("{:.1}", 100.0 * old.pass_rate.mean),
            format!("{:.1}", 100.0 * new.pass_rate.mean),
            format!("{:+.1}", 100.0 * (new.pass_rate.mean - old.pass_rate.mean)),
            if significant {
                "yes".into()
            } else {
                "no".into()
            },
        ]);
    }
    align(&rows)
}
