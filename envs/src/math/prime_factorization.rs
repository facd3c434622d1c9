//! `math/prime-factorization-v1`: write an integer as a product of prime powers.
//!
//! # Task
//! "Write 1764 as a product of prime powers."
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds a product of primes or
//! prime powers in any order: `2^{2} \cdot 3^{2} \cdot 7^{2}`,
//! `7^2 \times 2^2 \times 3 \cdot 3`.
//!
//! # Observation
//! The number and the answer format.
//!
//! # Reward
//! 1 and `passed` when every base is prime, every exponent a positive
//! integer and the product equals the number, else 0. The number itself,
//! or a product with a composite factor (`4 \cdot 441`), fails. Breakdown:
//! `correct`, `format` (1 when the box holds primes and prime powers only).
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `min_factors`/`max_factors` (prime factors with multiplicity, 2–12),
//! `max_prime` (3–199).
//!
//! # Seeding
//! Numbers are products of at least two primes, so the number is never its
//! own factorisation.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};

use super::effort;
use super::forms::Form;
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PrimeFactorizationConfig {
    pub min_factors: usize,
    pub max_factors: usize,
    pub max_prime: u64,
}

impl Default for PrimeFactorizationConfig {
    fn default() -> Self {
        PrimeFactorizationConfig {
            min_factors: 3,
            max_factors: 6,
            max_prime: 31,
        }
    }
}

pub struct PrimeFactorizationFamily;
pub type PrimeFactorization = MathEnv<PrimeFactorizationFamily>;

fn primes_up_to(n: u64) -> Vec<u64> {
    (2..=n)
        .filter(|&p| (2..).take_while(|d| d * d <= p).all(|d| p % d != 0))
        .collect()
}

/// `2^{3} \cdot 3 \cdot 7` from sorted prime factors with multiplicity.
pub fn latex_factorization(factors: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < factors.len() {
        let p = factors[i];
        let k = factors[i..].iter().take_while(|&&q| q == p).count();
        parts.push(if k == 1 {
            p.to_string()
        } else {
            format!("{p}^{{{k}}}")
        });
        i += k;
    }
    parts.join(" \\cdot ")
}

impl Family for PrimeFactorizationFamily {
    type Config = PrimeFactorizationConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/prime-factorization-v1",
        kind: EnvKind::SingleTurn,
        description: "Write an integer as a product of prime powers; checked structurally and by value",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: prime factors per number (`min_factors`/`max_factors`, 2 → 10) and `max_prime` 7 → 199 grow.
    const LEVELS: &'static [&'static str] = &[
        r#"{"min_factors":2,"max_factors":3,"max_prime":7}"#,
        r#"{"min_factors":2,"max_factors":4,"max_prime":13}"#,
        r#"{"min_factors":3,"max_factors":5,"max_prime":19}"#,
        "{}",
        r#"{"min_factors":4,"max_factors":7,"max_prime":53}"#,
        r#"{"min_factors":4,"max_factors":9,"max_prime":97}"#,
        r#"{"min_factors":5,"max_factors":10,"max_prime":199}"#,
    ];

    /// Digit operations of trial division: every trial divisor up to the
    /// largest prime factor, and every successful division, costs the
    /// digits of what is left to factor.
    fn effort(task: &MathTask) -> Option<f64> {
        let mut n = u64::try_from(*effort::integers_in(&task.question).first()?).ok()?;
        let mut work = 0.0;
        let mut p = 2;
        while n > 1 {
            work += n.to_string().len() as f64;
            if n % p == 0 {
                n /= p;
            } else {
                p += 1;
            }
        }
        Some(work)
    }

    fn validate(config: &PrimeFactorizationConfig) -> Result<(), ConfigError> {
        if !(2..=12).contains(&config.min_factors)
            || !(config.min_factors..=12).contains(&config.max_factors)
        {
            return Err("need 2 <= min_factors <= max_factors <= 12".into());
        }
        if !(3..=199).contains(&config.max_prime) {
            return Err("max_prime must be 3..=199".into());
        }
        Ok(())
    }

    fn draw(config: &PrimeFactorizationConfig, rng: &mut Rng) -> Option<MathTask> {
        let primes = primes_up_to(config.max_prime);
        let count = rng.range_usize(config.min_factors, config.max_factors);
        let mut factors: Vec<u64> = (0..count)
            .map(|_| *rng.choose(&primes).unwrap_or(&2))
            .collect();
        factors.sort_unstable();
        let n: u64 = factors
            .iter()
            .try_fold(1u64, |acc, &p| acc.checked_mul(p))?;
        if n > 10_000_000_000 {
            return None;
        }
        Some(MathTask {
            question: format!(
                "Write {n} as a product of prime powers, for example 2^{{3}} \\cdot 3 \\cdot 5^{{2}} (any order)."
            ),
            answer: latex_factorization(&factors),
            form: Form::PrimeFactors,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::question::check;
    use crate::math::testing;

    #[test]
    fn references_verify_and_do_not_transfer() {
        for preset in PrimeFactorizationFamily::SPEC.presets {
            let config: PrimeFactorizationConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<PrimeFactorizationFamily>(&config, 1000);
            testing::attacks_fail::<PrimeFactorizationFamily>(&tasks[0]);
        }
    }

    #[test]
    fn any_order_passes_but_not_the_number_or_composites() {
        let task = MathTask {
            question: "Write 1764 as a product of prime powers.".into(),
            answer: latex_factorization(&[2, 2, 3, 3, 7, 7]),
            form: Form::PrimeFactors,
        };
        assert_eq!(task.answer, "2^{2} \\cdot 3^{2} \\cdot 7^{2}");
        for good in [
            "\\boxed{7^2 \\times 2^2 \\times 3 \\cdot 3}",
            "\\boxed{2 \\cdot 2 \\cdot 3^{2} \\cdot 7^{2}}",
        ] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{1764}",
            "\\boxed{4 \\cdot 441}",
            "\\boxed{2^{2} \\cdot 3^{2} \\cdot 7}",
            "\\boxed{42^2}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
