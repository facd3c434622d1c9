//! Short training runs (a few seconds each): the learner's return or the
//! exploitability must move the right way, the checkpoint must load as a
//! driver agent, and a seed must reproduce its run. Not timed tests.

use verigym_agent::checkpoint::GameCheckpoint;
use verigym_agent::codec::GameCodec;
use verigym_agent::eval::evaluate;
use verigym_agent::net::{NetShape, NetWeights};
use verigym_agent::selfplay::{Budget, PpoConfig, train_ppo};
use verigym_agent::{Algo, TrainOptions, load_agent, train};
use verigym_envs::{DriverConfig, Registry, Rng, run_episode};

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

#[test]
fn tictactoe_return_against_opponents_rises() {
    let codec = GameCodec::TicTacToe;
    let config = PpoConfig {
        eval_every: 1000,
        eval_games: 20,
        ..PpoConfig::for_codec(codec)
    };
    let run = train_ppo(
        "games/tictactoe-v1",
        codec,
        &config,
        Budget::Steps(25_000),
        5,
        "test".into(),
        &mut |_| {},
    )
    .unwrap();
    let returns: Vec<f64> = run.curve.iter().map(|p| p.learner_return).collect();
    let k = returns.len() / 4;
    assert!(k >= 2, "{} iterations", returns.len());
    let (early, late) = (mean(&returns[..k]), mean(&returns[returns.len() - k..]));
    assert!(late > early + 0.1, "return {early:.3} -> {late:.3}");
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
fn train_writes_a_checkpoint_that_plays_and_reproduces() {
    let dir = std::env::temp_dir().join(format!("verigym-agent-test-{}", std::process::id()));
    let run = |name: &str| {
        let opts = TrainOptions {
            env_id: "games/connect-four-v1".into(),
            algo: Algo::Ppo,
            steps_or_minutes: Budget::Steps(1_500),
            seed: 3,
            output: dir.join(name),
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
    };
    assert!(matches!(
        train(&opts, &mut |_| {}),
        Err(verigym_agent::AgentError::Unsupported { .. })
    ));
}
