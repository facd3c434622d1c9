use super::*;
use crate::logic::solvers::cfg::{all_words, to_cnf};
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn config(level: usize) -> CfgDerivationConfig {
    serde_json::from_str(CfgDerivation::LEVELS[level]).unwrap()
}

/// `S -> SS | a`, `A` unused but drawn in the grammar letters: S alone.
fn ambiguous(word: &str) -> CfgDerivationTask {
    let grammar = Grammar {
        nonterminals: 2,
        terminals: 2,
        rules: vec![
            (0, vec![Sym::N(0), Sym::N(0)]),
            (0, vec![Sym::T(0)]),
            (0, vec![Sym::N(1), Sym::T(1)]),
            (1, vec![Sym::T(0)]),
            (1, vec![Sym::T(1), Sym::T(1)]),
        ],
    };
    CfgDerivationTask {
        grammar,
        word: word.into(),
        derivation: Vec::new(),
    }
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        standard_answers::<CfgDerivation>(&config(level), 20);
    }
}

#[test]
fn every_leftmost_derivation_passes_and_others_fail() {
    let task = ambiguous("aaa");
    for good in [
        "S => SS => SSS => aSS => aaS => aaa",
        "S => SS => aS => aSS => aaS => aaa",
        "SS -> aS -> aSS -> aaS -> aaa",
        "S ⇒ S S ⇒ a S ⇒ a S S ⇒ a a S ⇒ a a a",
        "S\nSS\naS\naSS\naaS\naaa",
    ] {
        assert!(passes::<CfgDerivation>(&task, good), "{good:?}");
    }
    for bad in [
        // Rewrites the rightmost S.
        "S => SS => Sa => SSa => aSa => aaa",
        // Skips a step, ends early, goes on after the string, ends elsewhere.
        "S => SS => aS => aaa",
        "S => SS => aS => aSS => aaS",
        "S => SS => aS => aSS => aaS => aaa => aaa",
        "S => SS => aS => aa",
        "aaa",
        "S => SS => SSS => aSS => aaS => aaa or S => a",
    ] {
        assert!(!passes::<CfgDerivation>(&task, bad), "{bad:?}");
    }
    assert!(matches!(
        CfgDerivation::check(&task, "S => SX"),
        Err(CheckError::Unreadable(_))
    ));
    assert!(matches!(
        CfgDerivation::check(&task, "S => Sc"),
        Err(CheckError::Unreadable(_))
    ));
    let task = ambiguous("abbb");
    assert!(passes::<CfgDerivation>(
        &task,
        "S => SS => aS => aAb => abbb"
    ));
    assert!(!passes::<CfgDerivation>(
        &task,
        "S => SS => SAb => aAb => abbb"
    ));
}

#[test]
fn generated_strings_are_in_the_language_and_long_enough() {
    let mut rng = Rng::from_seed(2);
    for level in [0, 1, 2] {
        let config = config(level);
        for _ in 0..20 {
            let task = CfgDerivation::generate(&config, &mut rng);
            let word: Vec<u8> = task.word.bytes().map(|b| b - b'a').collect();
            assert!((config.min_len..=config.max_len).contains(&word.len()));
            assert!(all_words(&task.grammar, config.max_len).contains(&word));
            assert!(to_cnf(&task.grammar).accepts(&word));
            assert!(!CfgDerivation::check(&task, &task.word).unwrap());
        }
    }
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let rate = cross_reference_rate::<CfgDerivation>(&config(level), 500);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
