//! Compares two text checkpoints of one env (say a warm start and the
//! policy GRPO made of it) on the trainer's held-out tasks: greedy pass@1
//! and sampled pass@1 at temperature 1, with the paired gain and its 95 %
//! interval clustered by task (see `verigym_agent::text::eval::paired_gain`).
//!
//! ```text
//! cargo run --release -p verigym-agent --example text_eval -- BEFORE.json AFTER.json CONFIG_JSON TASKS [SAMPLES] [MAX_TURNS]
//! ```
//!
//! `CONFIG_JSON` is the run's `--config` (held-out tasks play it); `TASKS`
//! held-out tasks are played greedily, and with `SAMPLES` > 0 the first
//! `TASKS` are also played `SAMPLES` times each, sampled (seed 3).

use std::path::Path;

use burn::tensor::Device;
use verigym_agent::text::checkpoint::TextCheckpoint;
use verigym_agent::text::eval::{
    PairedGain, held_out_passes, held_out_task_keys, paired_gain, pass_rates, pass_scores,
    sampled_passes,
};
use verigym_envs::Rng;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !(4..=6).contains(&args.len()) {
        return Err(
            "usage: text_eval BEFORE.json AFTER.json CONFIG_JSON TASKS [SAMPLES] [MAX_TURNS]"
                .into(),
        );
    }
    let load = |path: &str| {
        let text = std::fs::read_to_string(path)?;
        Ok::<_, Box<dyn std::error::Error>>(TextCheckpoint::parse(Path::new(path), &text)?)
    };
    let (before, before_model) = load(&args[0])?;
    let (after, after_model) = load(&args[1])?;
    if before.env_id != after.env_id {
        return Err(format!(
            "the checkpoints play {} and {}",
            before.env_id, after.env_id
        )
        .into());
    }
    let config: serde_json::Value = serde_json::from_str(&args[2])?;
    let tasks: usize = args[3].parse()?;
    let samples: usize = args.get(4).map_or(Ok(0), |s| s.parse())?;
    let max_turns: usize = args.get(5).map_or(Ok(16), |s| s.parse())?;
    let device = Device::flex();
    let setups = [before.setup(Some(&config))?, after.setup(Some(&config))?];
    let keys = held_out_task_keys(&setups[0], tasks);
    let mut greedy = Vec::new();
    let mut sampled = Vec::new();
    for (setup, model) in setups.iter().zip([&before_model, &after_model]) {
        let passes = held_out_passes(model, setup, tasks, max_turns, &device);
        greedy.push(pass_scores(&passes));
        if samples > 0 {
            let mut rng = Rng::from_seed(3);
            let counts = sampled_passes(
                model,
                setup,
                (tasks, samples),
                max_turns,
                1.0,
                &mut rng,
                &device,
            );
            sampled.push(pass_rates(&counts, samples));
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    // `per_task`: episodes behind each task's score (1 greedy, `samples` sampled).
    let show = |what: &str, scores: &[Vec<f64>], per_task: usize| {
        let gain: PairedGain = paired_gain(&scores[0], &scores[1], &keys);
        println!(
            "{what}: {:.2} % -> {:.2} %, gain {:+.2} ± {:.2} points ({:.2}x the half-width), \
             {} episodes per checkpoint, {} distinct tasks",
            100.0 * mean(&scores[0]),
            100.0 * mean(&scores[1]),
            100.0 * gain.mean,
            100.0 * gain.half_width,
            gain.mean / gain.half_width,
            gain.episodes * per_task,
            gain.tasks,
        );
    };
    show("greedy pass@1", &greedy, 1);
    if samples > 0 {
        show("sampled pass@1 (temperature 1)", &sampled, samples);
    }
    Ok(())
}
