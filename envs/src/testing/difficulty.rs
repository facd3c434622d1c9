//! Difficulty scales: what each level of an env is, and proof that higher
//! levels are harder.
//!
//! Every env has an ordered scale of integer levels (0 = easiest), with the
//! presets `easy`, `medium` and `hard` as named points on it (see
//! [`Env::LEVELS`](crate::Env::LEVELS)). A level's difficulty is measured as the
//! mean [`Env::effort`](crate::Env::effort) of its tasks (the env's own measure:
//! cells to fill, search nodes, moves) or, for envs without one, as the
//! characters the oracle writes over a whole episode with every seat played
//! by the oracle. `verigym levels ID` prints the scale; the per-env trials
//! (`envs/tests/envs.rs`) run [`check_harder`] on every registered env.

use rayon::prelude::*;
use serde::Serialize;
use serde_json::Value;

use crate::driver::{Agent, DriverConfig, OracleAgent, run_episode};
use crate::registry::{NAMED_LEVELS, Registry};
use crate::rng::mix_seed;
use crate::testing::CheckFailure;

/// Fewest levels a scale may have: the three named points.
pub const MIN_LEVELS: usize = 3;

/// How far a level's mean may dip below the one before it (sampling noise
/// in a small number of tasks), as a fraction.
pub const DIP_TOLERANCE: f64 = 0.05;

/// One level of a scale, measured.
#[derive(Clone, Debug, Serialize)]
pub struct LevelReport {
    pub level: usize,
    /// Named presets that sit on this level.
    pub presets: Vec<String>,
    /// The JSON patch over the default config.
    pub patch: Value,
    /// Mean effort over the measured tasks.
    pub effort: f64,
}

/// An env's whole scale, measured.
#[derive(Clone, Debug, Serialize)]
pub struct ScaleReport {
    pub env: String,
    /// `env` (the env's own effort) or `oracle_chars` (the fallback).
    pub measure: String,
    pub tasks_per_level: usize,
    pub levels: Vec<LevelReport>,
    /// Named presets that sit on no level (a scale error unless empty).
    pub off_scale: Vec<String>,
}

/// Measures every level of `id` (an unversioned or versioned env id,
/// without a preset) over `n` tasks from `seed`.
///
/// # Errors
/// Unknown env, a level that does not make an env, or an oracle episode
/// that fails.
pub fn measure_scale(
    registry: &Registry,
    id: &str,
    n: usize,
    seed: u64,
) -> Result<ScaleReport, CheckFailure> {
    let registration = registry.get(id)?;
    let patches = registration.levels();
    let mut measure = "env";
    let mut levels = Vec::new();
    for (level, patch) in patches.iter().enumerate() {
        let config = registration.level_config(level)?;
        let env = (registration.make)(config)?;
        let efforts: Vec<Result<(f64, bool), CheckFailure>> = (0..n)
            .into_par_iter()
            .map(|i| {
                let card = env.generate(mix_seed(seed, i as u64));
                if let Some(effort) = env.effort(&card.task) {
                    return Ok((effort, true));
                }
                let mut episode_env = env.clone_box();
                let mut agents: Vec<Box<dyn Agent>> = (0..env.spec().players)
                    .map(|_| Box::new(OracleAgent) as Box<dyn Agent>)
                    .collect();
                let mut refs: Vec<&mut dyn Agent> = agents
                    .iter_mut()
                    .map(|a| a.as_mut() as &mut dyn Agent)
                    .collect();
                let config = DriverConfig {
                    record_transcript: true,
                    ..DriverConfig::default()
                };
                let result = run_episode(episode_env.as_mut(), &card, &mut refs, &config).map_err(
                    CheckFailure::during(format!("{id} level {level}: oracle episode")),
                )?;
                let chars: usize = result
                    .transcript
                    .iter()
                    .map(|m| m.action.chars().count())
                    .sum();
                Ok((chars as f64, false))
            })
            .collect();
        let efforts = efforts.into_iter().collect::<Result<Vec<_>, _>>()?;
        if efforts.iter().any(|(_, own)| !own) {
            measure = "oracle_chars";
        }
        let mean = efforts.iter().map(|(e, _)| e).sum::<f64>() / efforts.len().max(1) as f64;
        levels.push(LevelReport {
            level,
            presets: Vec::new(),
            patch: serde_json::from_str(patch).unwrap_or(Value::Null),
            effort: mean,
        });
    }
    let mut off_scale = Vec::new();
    for preset in registration.spec.presets {
        match registration.level_of_preset(preset.name) {
            Some(level) => levels[level].presets.push(preset.name.to_string()),
            None if NAMED_LEVELS.contains(&preset.name) => off_scale.push(preset.name.to_string()),
            None => {}
        }
    }
    Ok(ScaleReport {
        env: registration.spec.id.to_string(),
        measure: measure.to_string(),
        tasks_per_level: n,
        levels,
        off_scale,
    })
}

/// Checks that a measured scale is a real difficulty scale: at least
/// [`MIN_LEVELS`] levels, `easy`/`medium`/`hard` on it in that order, each
/// level at least as hard as the one before (within [`DIP_TOLERANCE`]), and
/// the hardest strictly harder than the easiest.
///
/// # Errors
/// What is wrong, with the measured table.
pub fn check_harder(report: &ScaleReport) -> Result<(), CheckFailure> {
    let table = render(report);
    let fail = |why: String| Err(format!("{}: {why}\n{table}", report.env).into());
    if report.levels.len() < MIN_LEVELS {
        return fail(format!(
            "{} levels; a scale needs at least {MIN_LEVELS} (declare Env::LEVELS or easy/medium/hard presets)",
            report.levels.len()
        ));
    }
    if !report.off_scale.is_empty() {
        return fail(format!(
            "presets {:?} equal no level of the scale",
            report.off_scale
        ));
    }
    let named: Vec<usize> = NAMED_LEVELS
        .iter()
        .filter_map(|name| {
            report
                .levels
                .iter()
                .find(|l| l.presets.iter().any(|p| p == name))
                .map(|l| l.level)
        })
        .collect();
    if named.len() != NAMED_LEVELS.len() || !named.windows(2).all(|w| w[0] < w[1]) {
        return fail(format!(
            "easy, medium and hard must all be on the scale, in that order (found at {named:?})"
        ));
    }
    for pair in report.levels.windows(2) {
        if pair[1].effort < pair[0].effort * (1.0 - DIP_TOLERANCE) {
            return fail(format!(
                "level {} (effort {:.2}) is easier than level {} (effort {:.2})",
                pair[1].level, pair[1].effort, pair[0].level, pair[0].effort
            ));
        }
    }
    let (first, last) = (&report.levels[0], &report.levels[report.levels.len() - 1]);
    if last.effort <= first.effort {
        return fail(format!(
            "the hardest level (effort {:.2}) is no harder than the easiest ({:.2})",
            last.effort, first.effort
        ));
    }
    Ok(())
}

/// A plain-text table of a scale.
pub fn render(report: &ScaleReport) -> String {
    let mut out = format!(
        "{}  (effort = {}, mean of {} tasks per level)\nlevel  presets        effort      patch\n",
        report.env, report.measure, report.tasks_per_level
    );
    for level in &report.levels {
        out.push_str(&format!(
            "{:<6} {:<14} {:<11.2} {}\n",
            level.level,
            level.presets.join(","),
            level.effort,
            level.patch
        ));
    }
    if !report.off_scale.is_empty() {
        out.push_str(&format!("off the scale: {}\n", report.off_scale.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(efforts: &[f64], named: &[(usize, &str)]) -> ScaleReport {
        let mut levels: Vec<LevelReport> = efforts
            .iter()
            .enumerate()
            .map(|(level, &effort)| LevelReport {
                level,
                presets: Vec::new(),
                patch: Value::Null,
                effort,
            })
            .collect();
        for &(level, name) in named {
            levels[level].presets.push(name.to_string());
        }
        ScaleReport {
            env: "test/scale-v1".into(),
            measure: "env".into(),
            tasks_per_level: 1,
            levels,
            off_scale: Vec::new(),
        }
    }

    const NAMED: [(usize, &str); 3] = [(0, "easy"), (1, "medium"), (3, "hard")];

    #[test]
    fn a_rising_scale_passes() {
        check_harder(&report(&[1.0, 2.0, 2.0, 5.0], &NAMED)).unwrap();
    }

    #[test]
    fn a_falling_or_flat_scale_fails() {
        let err = check_harder(&report(&[1.0, 2.0, 1.0, 5.0], &NAMED)).unwrap_err();
        assert!(err.to_string().contains("easier than level 1"), "{err}");
        let err = check_harder(&report(&[3.0, 3.0, 3.0, 3.0], &NAMED)).unwrap_err();
        assert!(err.to_string().contains("no harder"), "{err}");
    }

    #[test]
    fn short_scales_and_misplaced_presets_fail() {
        let err = check_harder(&report(&[1.0, 2.0], &[(0, "easy"), (1, "hard")])).unwrap_err();
        assert!(err.to_string().contains("at least 3"), "{err}");
        let swapped = [(0, "easy"), (3, "medium"), (1, "hard")];
        let err = check_harder(&report(&[1.0, 2.0, 3.0, 4.0], &swapped)).unwrap_err();
        assert!(err.to_string().contains("in that order"), "{err}");
        let mut off = report(&[1.0, 2.0, 3.0, 4.0], &NAMED);
        off.off_scale.push("medium".into());
        assert!(
            check_harder(&off)
                .unwrap_err()
                .to_string()
                .contains("equal no level")
        );
    }

    #[test]
    fn real_scales_measure_and_pass() {
        let registry = Registry::builtin();
        let scale = measure_scale(&registry, "math/arithmetic-v1", 20, 1).unwrap();
        assert!(scale.levels.len() >= 3);
        assert!(
            scale
                .levels
                .iter()
                .any(|l| l.presets == vec!["hard".to_string()])
        );
        check_harder(&scale).unwrap();
    }
}
