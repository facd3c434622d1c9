//! Short text runs (seconds, debug build): GRPO must raise the sampled
//! reward over its warm start on a tiny setting, the curriculum must move
//! the level mix in a real run, and a multi-turn checkpoint must play
//! through the episode driver as gym-bench loads it.

use std::path::Path;

use burn::tensor::Device;
use verigym_agent::text::checkpoint::TextCheckpoint;
use verigym_agent::text::config::TextConfig;
use verigym_agent::text::curriculum::CurriculumKind;
use verigym_agent::text::eval::held_out_passes;
use verigym_agent::text::text_curve::TextCurveRow;
use verigym_agent::text::trainer::train_text;
use verigym_agent::{Algo, Budget, TrainOptions, load_agent, train};
use verigym_envs::{DriverConfig, Registry, run_episode};

fn tiny() -> TextConfig {
    TextConfig {
        d_model: 32,
        heads: 2,
        layers: 1,
        d_ff: 64,
        warm_batch: 32,
        eval_tasks: 50,
        curve_eval_tasks: 20,
        eval_every: 5,
        ..TextConfig::default()
    }
}

/// Warm-start steps and GRPO updates of the guessing-game test.
const WARM: usize = 15;
const UPDATES: usize = 48;

fn mean_reward(rows: &[&TextCurveRow]) -> f64 {
    rows.iter().map(|r| r.mean_reward).sum::<f64>() / rows.len().max(1) as f64
}

/// Guess a number in 1..=8 with 4 guesses (exactly binary search): a
/// barely warm-started policy wins some episodes, and GRPO, rewarded once
/// per episode, must win clearly more of them on the same seed.
#[test]
fn grpo_raises_the_episode_reward_on_a_tiny_guessing_game() {
    let config = TextConfig {
        warm_steps: WARM,
        prompts_per_step: 8,
        group: 8,
        grpo_lr: 3e-3,
        view_lines: 3,
        curriculum: CurriculumKind::Fixed,
        ..tiny()
    };
    let overrides = serde_json::json!({"low": 1, "high": 8, "extra_guesses": 0});
    let run = train_text(
        "logic/guess-number-v2",
        Some(&overrides),
        &config,
        Budget::Steps(64 * UPDATES as u64),
        5,
        "test".into(),
        &mut |_| {},
    )
    .unwrap();
    let grpo: Vec<&TextCurveRow> = run.curve.iter().filter(|r| r.phase == "grpo").collect();
    assert_eq!(grpo.len(), UPDATES);
    assert!(
        grpo.iter()
            .all(|r| r.kl.is_none_or(f64::is_finite) && r.entropy.is_finite())
    );
    assert!(grpo.iter().any(|r| r.kl.is_some()));
    let window = UPDATES / 4;
    let (first, last) = (
        mean_reward(&grpo[..window]),
        mean_reward(&grpo[UPDATES - window..]),
    );
    eprintln!(
        "mean episode reward {first:.3} -> {last:.3}; held-out greedy {:.3} -> {:.3}",
        run.warm_eval.rate(),
        run.last_eval.rate()
    );
    assert!(last > first + 0.15, "reward {first:.3} -> {last:.3}");
    // Loaded from its file as `text_eval` loads it, the final checkpoint
    // plays the held-out tasks exactly as the trainer measured them.
    let text = serde_json::to_string(&run.last).unwrap();
    let (checkpoint, model) = TextCheckpoint::parse(Path::new("last.json"), &text).unwrap();
    let setup = checkpoint.setup(Some(&overrides)).unwrap();
    let passes = held_out_passes(
        &model,
        &setup,
        config.eval_tasks,
        config.max_turns,
        &Device::flex(),
    );
    assert_eq!(passes, run.last_eval.passes);
}

/// Two levels of single-digit sums, one always solved after the warm start
/// and one seldom: the band sampler starts every run at level 0 and the
/// curve's level mix must show it moving on.
#[test]
fn the_band_curriculum_moves_the_level_mix_during_training() {
    let config = TextConfig {
        warm_steps: 150,
        prompts_per_step: 4,
        group: 4,
        // Any pass moves the sampler up: the test is about the mix moving.
        band_low: 0.0,
        band_high: 0.01,
        band_window: 16,
        levels: vec![
            serde_json::json!({"min_terms": 2, "max_terms": 2, "operators": "+"}),
            serde_json::json!({"min_terms": 4, "max_terms": 4, "operators": "+-"}),
        ],
        curriculum: CurriculumKind::Band,
        ..tiny()
    };
    let overrides = serde_json::json!({"digits": 1, "parentheses": false});
    let run = train_text(
        "math/arithmetic-v1",
        Some(&overrides),
        &config,
        Budget::Steps(16 * 30),
        2,
        "test".into(),
        &mut |_| {},
    )
    .unwrap();
    let mixes: Vec<&str> = run
        .curve
        .iter()
        .filter(|r| r.phase == "grpo")
        .map(|r| r.level_mix.as_str())
        .collect();
    assert_eq!(mixes[0], "0:4|1:0", "every run starts at the easiest level");
    assert!(
        mixes.iter().any(|m| m.ends_with("|1:4")),
        "the sampler never left level 0: {mixes:?}"
    );
}

/// A multi-turn checkpoint written by `train` loads as `burn:PATH` does in
/// gym-bench and plays whole episodes through the driver.
#[test]
fn a_multi_turn_checkpoint_plays_through_the_driver() {
    let dir = std::env::temp_dir().join(format!("verigym-text-test-{}", std::process::id()));
    let overrides = serde_json::json!({"low": 1, "high": 8, "extra_guesses": 1});
    let opts = TrainOptions {
        env_id: "logic/guess-number-v2".into(),
        algo: Algo::Grpo,
        steps_or_minutes: Budget::Steps(32),
        seed: 1,
        output: dir.join("guess.json"),
        config: Some(overrides.clone()),
        hyper: Some(serde_json::json!({
            "d_model": 32, "heads": 2, "layers": 1, "d_ff": 64, "warm_steps": 30,
            "warm_batch": 32, "prompts_per_step": 4, "group": 4, "eval_tasks": 20,
            "curve_eval_tasks": 10, "pass_k_tasks": 4, "pass_k_samples": 4
        })),
    };
    let report = train(&opts, &mut |_| {}).unwrap();
    let names: Vec<&str> = report.metrics.iter().map(|m| m.name.as_str()).collect();
    for name in [
        "warm_start_pass_at_1",
        "warm_start_sampled_pass_at_4",
        "grpo_pass_at_1",
        "paired_gain_ci95_half_width",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let csv = std::fs::read_to_string(&report.curve_csv).unwrap();
    assert!(csv.starts_with("phase,iteration,episodes"), "{csv}");
    let mut agent = load_agent(&report.checkpoint).unwrap();
    let registry = Registry::builtin();
    let mut env = registry
        .make("logic/guess-number-v2", Some(&overrides))
        .unwrap();
    for seed in 0..4 {
        let card = env.generate(seed);
        let result = run_episode(
            env.as_mut(),
            &card,
            &mut [agent.as_mut()],
            &DriverConfig::default(),
        )
        .unwrap();
        // The driver asked the policy (an answer it refused counts too).
        assert!(
            result.steps + result.invalid_actions[0] as usize >= 1,
            "{seed}: the agent was never asked"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
