//! The report's SVG plots (plotters, inline in the HTML): each family's
//! scores per agent with their intervals, pass@k curves, and accuracy by
//! difficulty preset.

use std::collections::BTreeMap;

use plotters::prelude::*;
use verigym_envs::EnvKind;

use crate::bench::Row;
use crate::summary::Summary;

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

/// One family's scores: a bar per agent (best first, as in the summary)
/// with its 95% interval as a whisker. `None` when no agent played it.
pub fn family_scores_svg(summary: &Summary, family: &str) -> Option<String> {
    let bars: Vec<(&str, crate::summary::Score)> = summary
        .agents
        .iter()
        .filter_map(|a| Some((a.agent.as_str(), *a.families.get(family)?)))
        .collect();
    if bars.is_empty() {
        return None;
    }
    let labels: Vec<String> = bars.iter().map(|(a, _)| a.to_string()).collect();
    let envs = bars.iter().map(|(_, s)| s.envs).max().unwrap_or(0);
    let title = format!("{family} ({envs} envs): score % with 95% CI");
    let mut svg = String::new();
    let result = (|| -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::with_string(&mut svg, (440, 260)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&title, ("sans-serif", 15))
            .margin(10)
            .x_label_area_size(28)
            .y_label_area_size(40)
            .build_cartesian_2d(-0.5f64..bars.len() as f64 - 0.5, 0f64..100f64)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(4 * bars.len() + 1)
            .x_label_formatter(&|x| integer_label(*x, &labels))
            .y_desc("score %")
            .draw()?;
        for (i, (agent, score)) in bars.iter().enumerate() {
            // One colour per agent across every family's plot.
            let rank = summary.agents.iter().position(|a| a.agent == *agent);
            let colour = PALETTE[rank.unwrap_or(i) % PALETTE.len()];
            let x = i as f64;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x - 0.3, 0.0), (x + 0.3, 100.0 * score.mean)],
                colour.mix(0.7).filled(),
            )))?;
            let (low, high) = (100.0 * score.low, 100.0 * score.high);
            let whisker = [
                vec![(x, low), (x, high)],
                vec![(x - 0.1, low), (x + 0.1, low)],
                vec![(x - 0.1, high), (x + 0.1, high)],
            ];
            chart.draw_series(
                whisker
                    .into_iter()
                    .map(|points| PathElement::new(points, BLACK.stroke_width(1))),
            )?;
        }
        root.present()?;
        Ok(())
    })();
    Some(result.map_or_else(plot_error, |()| svg))
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
        let root = SVGBackend::with_string(&mut svg, (620, 340)).into_drawing_area();
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

/// pass@k curves of `rows` (one family's), one per one-player env and agent
/// with more than one sample per task (`noop` left out: it is flat at 0).
/// Empty when no row has several samples.
pub fn pass_at_k_svg(family: &str, rows: &[&Row]) -> String {
    let rows: Vec<&&Row> = rows
        .iter()
        .filter(|r| r.samples > 1 && r.kind != EnvKind::Game && r.agent != "noop")
        .collect();
    let max_k = rows.iter().map(|r| r.samples).max().unwrap_or(0);
    let labels: Vec<String> = (1..=max_k).map(|k| format!("k={k}")).collect();
    let series: Vec<(String, Vec<(usize, f64)>)> = rows
        .iter()
        .map(|r| {
            (
                format!("{} {}", r.agent, r.env),
                r.pass_at_k.iter().copied().enumerate().collect(),
            )
        })
        .collect();
    line_chart_svg(&format!("{family}: pass@k"), &labels, "pass@k %", &series)
}

/// Accuracy by difficulty preset in `rows` (one family's): one line per
/// env and agent that played more than one preset of that env. Empty when
/// no env ran at several presets.
pub fn difficulty_svg(family: &str, rows: &[&Row]) -> String {
    let mut by_series: BTreeMap<String, Vec<(&str, f64)>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.kind != EnvKind::Game) {
        let base = r.env.split('@').next().unwrap_or(&r.env);
        by_series
            .entry(format!("{} {base}", r.agent))
            .or_default()
            .push((r.preset.as_str(), r.pass_rate.mean));
    }
    by_series.retain(|_, points| points.len() > 1);
    // The x axis: the presets of the plotted envs, in the suite's order.
    let mut presets: Vec<String> = Vec::new();
    for (preset, _) in by_series.values().flatten() {
        if !presets.iter().any(|p| p == preset) {
            presets.push(preset.to_string());
        }
    }
    let series: Vec<(String, Vec<(usize, f64)>)> = by_series
        .into_iter()
        .map(|(label, points)| {
            let points = points
                .into_iter()
                .map(|(preset, rate)| (presets.iter().position(|p| p == preset).unwrap_or(0), rate))
                .collect();
            (label, points)
        })
        .collect();
    line_chart_svg(
        &format!("{family}: accuracy by difficulty"),
        &presets,
        "pass %",
        &series,
    )
}
