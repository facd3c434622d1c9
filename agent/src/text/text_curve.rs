//! The text run's learning curve: one CSV row per logged warm-start step
//! and per GRPO update, with the diagnostics GRPO needs (share of groups
//! with zero reward variance, entropy, KL to the warm start, the
//! curriculum's level mix); the SVG is the shared [`crate::curve`] plot.

use std::fmt::Write as _;
use std::path::Path;

use crate::curve::CurvePoint;
use crate::error::AgentError;

/// One row of a text run's curve.
#[derive(Clone, Debug)]
pub struct TextCurveRow {
    /// `warm` or `grpo`.
    pub phase: &'static str,
    pub iteration: usize,
    /// Episodes played by GRPO so far.
    pub episodes: u64,
    pub seconds: f64,
    pub loss: f64,
    pub mean_reward: f64,
    pub entropy: f64,
    /// KL(policy ‖ warm start) per sampled token, on measured updates.
    pub kl: Option<f64>,
    pub zero_variance: f64,
    /// GRPO groups per curriculum level in this update, `level:count|…`.
    pub level_mix: String,
    pub held_out_pass_at_1: Option<f64>,
}

impl TextCurveRow {
    /// The row as a point of the shared curve plot.
    pub fn point(&self) -> CurvePoint {
        CurvePoint {
            iteration: self.iteration,
            env_steps: self.episodes,
            seconds: self.seconds,
            learner_return: self.mean_reward,
            loss: self.loss,
            entropy: self.entropy,
            eval: self.held_out_pass_at_1,
        }
    }
}

/// Writes the CSV.
///
/// # Errors
/// [`AgentError::Io`].
pub fn write_text_csv(path: &Path, rows: &[TextCurveRow]) -> Result<(), AgentError> {
    let mut out = String::from(
        "phase,iteration,episodes,seconds,loss,mean_reward,entropy,kl,zero_variance_groups,level_mix,held_out_pass_at_1\n",
    );
    for r in rows {
        let kl = r.kl.map(|k| format!("{k:.5}")).unwrap_or_default();
        let eval = r
            .held_out_pass_at_1
            .map(|e| format!("{e:.4}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{},{},{},{:.2},{:.5},{:.4},{:.4},{kl},{:.3},{},{eval}",
            r.phase,
            r.iteration,
            r.episodes,
            r.seconds,
            r.loss,
            r.mean_reward,
            r.entropy,
            r.zero_variance,
            r.level_mix
        );
    }
    std::fs::write(path, out).map_err(|e| AgentError::io(path, e))
}
