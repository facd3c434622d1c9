//! Bounded cost per row: a row with more tests than [`Options::max_tests`] keeps a
//! deterministic sample of them, drawn with the row's own seed (from its hash, never a
//! global RNG), and its card records which were kept ([`TestSample`]). Without a cap a
//! row of 200,000 tests costs over a minute to import and as long again per answer.
//!
//! [`Options::max_tests`]: crate::Options::max_tests

use verigym_envs::code::dataset::{CodeRow, TestSample, Tests};
use verigym_envs::rng::Rng;

/// Tests kept per row when the caller states no cap (`--max-tests`).
pub const DEFAULT_MAX_TESTS: usize = 100;

/// Which tests to keep of `public` + `hidden` under `max`: the first public tests (the
/// ones the prompt shows), at most half of `max` when there are hidden ones to fill the
/// rest, and a uniform sample of the hidden ones. `None` when all fit (or `max` is 0).
fn choose(public: usize, hidden: usize, max: usize, seed: u64) -> Option<Vec<usize>> {
    if max == 0 || public + hidden <= max {
        return None;
    }
    let hidden_keep = hidden.min(max - public.min(max / 2));
    let public_keep = public.min(max - hidden_keep);
    let mut pool: Vec<usize> = (public..public + hidden).collect();
    let mut rng = Rng::from_seed(seed);
    // A partial Fisher–Yates shuffle: the first `hidden_keep` slots are the sample.
    for i in 0..hidden_keep {
        let j = i + rng.below((pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    let mut kept: Vec<usize> = (0..public_keep).chain(pool.drain(..hidden_keep)).collect();
    kept.sort_unstable();
    Some(kept)
}

fn keep<T>(items: Vec<T>, offset: usize, kept: &[usize]) -> Vec<T> {
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| kept.binary_search(&(i + offset)).is_ok())
        .map(|(_, t)| t)
        .collect()
}

/// Caps `task`'s tests at `max` (0: no cap), recording the sample in the task.
pub fn cap_tests(task: &mut CodeRow, max: usize, seed: u64) {
    let (public, hidden) = match &task.tests {
        Tests::Stdio { public, hidden } => (public.len(), hidden.len()),
        Tests::Call { public, hidden, .. } => (public.len(), hidden.len()),
    };
    let Some(kept) = choose(public, hidden, max, seed) else {
        return;
    };
    match &mut task.tests {
        Tests::Stdio {
            public: p,
            hidden: h,
        } => {
            *p = keep(std::mem::take(p), 0, &kept);
            *h = keep(std::mem::take(h), public, &kept);
        }
        Tests::Call {
            public: p,
            hidden: h,
            ..
        } => {
            *p = keep(std::mem::take(p), 0, &kept);
            *h = keep(std::mem::take(h), public, &kept);
        }
    }
    task.sampled = Some(TestSample {
        total: public + hidden,
        seed,
        kept,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_fill_the_cap_keep_shown_examples_and_depend_on_the_seed_only() {
        assert_eq!(choose(3, 10, 100, 1), None);
        assert_eq!(choose(3, 1000, 0, 1), None);
        for (public, hidden) in [(3, 200_000), (0, 500), (90, 90), (400, 2), (150, 0)] {
            let kept = choose(public, hidden, 100, 7).unwrap();
            assert_eq!(kept.len(), 100, "{public} {hidden}");
            assert!(kept.windows(2).all(|w| w[0] < w[1]));
            assert!(*kept.last().unwrap() < public + hidden);
            // The shown examples (the first public tests) are kept.
            assert!(kept.starts_with(&(0..public.min(50)).collect::<Vec<_>>()));
            assert_eq!(choose(public, hidden, 100, 7).unwrap(), kept);
        }
        let hidden_of = |seed| choose(3, 200_000, 100, seed).unwrap();
        assert_ne!(hidden_of(1), hidden_of(2));
        assert_eq!(hidden_of(1).iter().filter(|&&i| i >= 3).count(), 97);
    }
}
