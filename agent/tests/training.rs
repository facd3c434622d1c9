//! Short training runs (a few seconds each): the learner's return or the
//! exploitability must move the right way, the checkpoint must load as a
//! driver agent, and a seed must reproduce its run. Not timed tests.

use verigym_agent::game::checkpoint::GameCheckpoint;
use verigym_agent::game::codec::GameCodec;
use verigym_agent::game::eval::{Seeds, evaluate, evaluate_on};
use verigym_agent::game::policy_value_net::{NetShape, NetWeights};
use verigym_agent::game::rollout::Opponent;
use verigym_agent::game::trainer::{PpoConfig, train_ppo};
use verigym_agent::text::config::TextConfig;
use verigym_agent::text::trainer::train_text;
use verigym_agent::{Algo, Budget, TrainOptions, load_agent, train};
use verigym_envs::{DriverConfig, Registry, Rng, run_episode};

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

/// The mean over both seats of the metric named `metric` (e.g.
/// `non_loss_vs_random`) over `games` games of `seeds`, for fresh weights
/// and after a short PPO run.
fn before_and_after(
    codec: GameCodec,
    env_id: &str,
    config: &PpoConfig,
    (steps, seed): (u64, u64),
    (metric, games, seeds): (&str, usize, Seeds),
) -> (f64, f64) {
    let measure = |weights: &NetWeights| {
        let metrics = evaluate_on(env_id, codec, weights, games, seeds).unwrap();
        let rates: Vec<f64> = metrics
            .iter()
            .filter(|m| m.name.starts_with(&format!("{metric}_seat")))
            .map(|m| m.value)
            .collect();
        assert_eq!(rates.len(), 2, "{metric}");
        mean(&rates)
    };
    let shape = NetShape {
        inputs: codec.input_size(),
        hidden: config.hidden,
        actions: codec.num_actions(),
    };
    let before = measure(&NetWeights::init(shape, &mut Rng::from_seed(seed)));
    let run = train_ppo(
        env_id,
        codec,
        config,
        Budget::Steps(steps),
        seed,
        "test".into(),
        &mut |_| {},
    )
    .unwrap();
    assert!(
        run.curve
            .iter()
            .all(|p| p.loss.is_finite() && p.entropy.is_finite())
    );
    (before, measure(&run.checkpoint.weights))
}

#[test]
fn tictactoe_play_against_random_improves() {
    let codec = GameCodec::TicTacToe;
    // Against random opponents only, so a few seconds show the trend.
    let config = PpoConfig {
        eval_every: 1000,
        opponent_pairs: vec![(Opponent::Random, 64)],
        ..PpoConfig::for_codec(codec)
    };
    let (before, after) = before_and_after(
        codec,
        "games/tictactoe-v1",
        &config,
        (60_000, 5),
        ("non_loss_vs_random", 200, Seeds::HeldOut),
    );
    eprintln!("non-loss vs random {before:.3} -> {after:.3}");
    assert!(
        after > before + 0.15,
        "non-loss vs random {before:.3} -> {after:.3}"
    );
}

#[test]
fn kuhn_exploitability_falls_from_the_initial_policy() {
    let codec = GameCodec::KuhnPoker;
    let shape = NetShape {
        inputs: codec.input_size(),
        hidden: 32,
        actions: codec.num_actions(),
    };
    let untrained = NetWeights::init(shape, &mut Rng::from_seed(9));
    let before = evaluate("games/kuhn-poker-v1", codec, &untrained, 0).unwrap()[0].value;
    let run = train_ppo(
        "games/kuhn-poker-v1",
        codec,
        &PpoConfig::for_codec(codec),
        Budget::Steps(30_000),
        9,
        "test".into(),
        &mut |_| {},
    )
    .unwrap();
    let after = run.final_metrics[0].value;
    assert!(
        after < before - 0.05,
        "exploitability {before:.3} -> {after:.3}"
    );
}

#[test]
fn connect_four_wins_against_win_or_block_rise() {
    let codec = GameCodec::ConnectFour;
    let config = PpoConfig {
        eval_every: 1000,
        opponent_pairs: vec![(Opponent::WinOrBlock, 16)],
        ..PpoConfig::for_codec(codec)
    };
    let (before, after) = before_and_after(
        codec,
        "games/connect-four-v1",
        &config,
        (40_000, 7),
        ("win_vs_win_or_block", 100, Seeds::Validation),
    );
    eprintln!("wins vs win-or-block {before:.3} -> {after:.3}");
    assert!(
        after > before + 0.1,
        "wins vs win-or-block {before:.3} -> {after:.3}"
    );
}

#[test]
fn text_warm_start_loss_falls_and_grpo_runs() {
    // A small model and budget: the supervised loss must fall, and the
    // GRPO phase must run on the verifier's rewards without NaNs.
    let config = TextConfig {
        d_model: 32,
        heads: 2,
        layers: 1,
        d_ff: 64,
        warm_steps: 600,
        warm_batch: 32,
        prompts_per_step: 4,
        group: 4,
        eval_tasks: 20,
        curve_eval_tasks: 10,
        eval_every: 2,
        ..TextConfig::default()
    };
    let overrides = serde_json::json!({"digits": 1, "min_terms": 2, "max_terms": 2});
    let run = train_text(
        "math/arithmetic-v1",
        Some(&overrides),
        &config,
        Budget::Steps(64),
        3,
        "test".into(),
        &mut |_| {},
    )
    .unwrap();
    let warm: Vec<f64> = run
        .curve
        .iter()
        .filter(|p| p.phase == "warm")
        .map(|p| p.loss)
        .collect();
    assert!(warm.len() >= 3, "{warm:?}");
    let (first, last) = (warm[0], warm[warm.len() - 1]);
    eprintln!("warm-start loss {first:.3} -> {last:.3}");
    assert!(
        last < first - 0.3,
        "warm-start loss {first:.3} -> {last:.3}"
    );
    let grpo: Vec<_> = run.curve.iter().filter(|p| p.phase == "grpo").collect();
    assert!(!grpo.is_empty());
    assert!(
        grpo.iter().all(|p| p.loss.is_finite()
            && p.entropy.is_finite()
            && p.kl.is_none_or(f64::is_finite))
    );
    assert!(grpo.iter().all(|p| (0.0..=1.0).contains(&p.mean_reward)));
}

#[test]
fn train_writes_a_checkpoint_that_plays_and_reproduces() {
    let dir = std::env::temp_dir().join(format!("verigym-agent-test-{}", std::process::id()));
    let run = |name: &str| {
        let opts = TrainOptions {
            env_id: "games/connect-four-v1".into(),
            algo: Algo::Ppo,
            steps_or_minutes: Budget::Steps(1_500),
            seed: 3,
            output: dir.join(name),
            config: None,
            hyper: None,
        };
        let mut iterations = 0;
        let report = train(&opts, &mut |_| iterations += 1).unwrap();
        assert_eq!(report.iterations, iterations);
        report
    };
    let a = run("a.json");
    let b = run("b.json");
    for report in [&a, &b] {
        assert!(report.curve_csv.exists() && report.curve_svg.exists());
    }
    let (wa, wb) = (
        GameCheckpoint::load(&a.checkpoint).unwrap().weights,
        GameCheckpoint::load(&b.checkpoint).unwrap().weights,
    );
    assert_eq!(wa, wb, "same seed, same weights");
    let mut agent = load_agent(&a.checkpoint).unwrap();
    assert!(agent.name().starts_with("burn:"));
    let registry = Registry::builtin();
    let mut env = registry.make("games/connect-four-v1", None).unwrap();
    let card = env.generate(11);
    let mut other = verigym_envs::driver::RandomAgent::new(1);
    let result = run_episode(
        env.as_mut(),
        &card,
        &mut [agent.as_mut(), &mut other],
        &DriverConfig::default(),
    )
    .unwrap();
    assert_eq!(result.invalid_actions[0], 0, "masking keeps moves legal");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unsupported_envs_are_a_typed_error() {
    let opts = TrainOptions {
        env_id: "games/hex-v1".into(),
        algo: Algo::Ppo,
        steps_or_minutes: Budget::Steps(10),
        seed: 0,
        output: std::env::temp_dir().join("never-written.json"),
        config: None,
        hyper: None,
    };
    assert!(matches!(
        train(&opts, &mut |_| {}),
        Err(verigym_agent::AgentError::Unsupported { .. })
    ));
}
