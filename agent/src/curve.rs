//! The learning curve: one CSV row per training iteration and an SVG plot
//! of the evaluation figure and the learner's return against env steps.

use std::fmt::Write as _;
use std::path::Path;

use plotters::prelude::*;

use crate::error::AgentError;

/// One row of the curve.
#[derive(Clone, Debug)]
pub struct CurvePoint {
    pub iteration: usize,
    pub env_steps: u64,
    pub seconds: f64,
    /// Mean return of the learner against non-self opponents.
    pub learner_return: f64,
    pub loss: f64,
    pub entropy: f64,
    /// The headline evaluation figure where one was taken.
    pub eval: Option<f64>,
}

/// Writes the CSV; `eval_name` heads the evaluation column.
///
/// # Errors
/// [`AgentError::Io`].
pub fn write_csv(path: &Path, eval_name: &str, points: &[CurvePoint]) -> Result<(), AgentError> {
    let mut out = format!("iteration,env_steps,seconds,learner_return,loss,entropy,{eval_name}\n");
    for p in points {
        let eval = p.eval.map(|e| format!("{e:.6}")).unwrap_or_default();
        let _ = writeln!(
            out,
            "{},{},{:.3},{:.6},{:.6},{:.6},{eval}",
            p.iteration, p.env_steps, p.seconds, p.learner_return, p.loss, p.entropy
        );
    }
    std::fs::write(path, out).map_err(|e| AgentError::io(path, e))
}

/// Draws the curve as SVG.
///
/// # Errors
/// [`AgentError::Plot`] or [`AgentError::Io`].
pub fn write_svg(
    path: &Path,
    title: &str,
    eval_name: &str,
    points: &[CurvePoint],
) -> Result<(), AgentError> {
    let mut svg = String::new();
    draw(&mut svg, title, eval_name, points).map_err(|message| AgentError::Plot {
        path: path.to_path_buf(),
        message,
    })?;
    std::fs::write(path, svg).map_err(|e| AgentError::io(path, e))
}

fn draw(
    svg: &mut String,
    title: &str,
    eval_name: &str,
    points: &[CurvePoint],
) -> Result<(), String> {
    let e = |e: &dyn std::fmt::Display| e.to_string();
    let root = SVGBackend::with_string(svg, (900, 380)).into_drawing_area();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let max_x = points.iter().map(|p| p.env_steps).max().unwrap_or(1).max(1) as f64;
    let series: [(String, Vec<(f64, f64)>); 2] = [
        (
            eval_name.to_string(),
            points
                .iter()
                .filter_map(|p| Some((p.env_steps as f64, p.eval?)))
                .collect(),
        ),
        (
            "learner return vs opponents".to_string(),
            points
                .iter()
                .map(|p| (p.env_steps as f64, p.learner_return))
                .collect(),
        ),
    ];
    let (lo, hi) = series
        .iter()
        .flat_map(|(_, s)| s.iter().map(|p| p.1))
        .fold((0.0f64, 1.0f64), |(lo, hi), y| (lo.min(y), hi.max(y)));
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(44)
        .build_cartesian_2d(0f64..max_x, lo - 0.05..hi + 0.05)
        .map_err(|x| e(&x))?;
    chart
        .configure_mesh()
        .x_desc("env steps")
        .draw()
        .map_err(|x| e(&x))?;
    for (i, (label, data)) in series.into_iter().enumerate() {
        let colour = [BLUE, RED][i];
        chart
            .draw_series(LineSeries::new(data, colour.stroke_width(2)))
            .map_err(|x| e(&x))?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 14, y)], colour.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()
        .map_err(|x| e(&x))?;
    root.present().map_err(|x| e(&x))?;
    Ok(())
}
