use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers, task};

fn presets() -> Vec<EigenvaluesConfig> {
    Eigenvalues::SPEC
        .presets
        .iter()
        .map(|p| serde_json::from_str(p.overrides).unwrap())
        .collect()
}

#[test]
fn references_pass_and_degenerate_answers_fail() {
    for config in presets() {
        standard_answers::<Eigenvalues>(&config, 20);
        let rate = cross_reference_rate::<Eigenvalues>(&config, 400);
        assert!(rate < 0.01, "cross-reference rate {rate}");
    }
}

#[test]
fn eigenvalues_are_the_roots_of_the_characteristic_polynomial() {
    // det(A - tI) = Π (λ_i - t) at n + 1 points pins the polynomial, so the
    // listed multiset is exactly the eigenvalues with multiplicity.
    for config in presets() {
        for i in 0..100 {
            let task = task::<Eigenvalues>(&config, 5, i);
            for t in -3..=task.matrix.len() as i64 {
                let expected: num_bigint::BigInt = task
                    .eigenvalues
                    .iter()
                    .map(|&l| num_bigint::BigInt::from(l - t))
                    .product();
                assert_eq!(char_poly_at(&task.matrix, t), expected, "{task:?}");
            }
        }
    }
}

#[test]
fn unimodular_factors_are_inverse() {
    let mut rng = Rng::from_seed(1);
    for n in 2..=5 {
        let (p, inv) = unimodular(&mut rng, n, 8);
        let identity: Mat = (0..n)
            .map(|i| (0..n).map(|j| i64::from(i == j)).collect())
            .collect();
        assert_eq!(product(&p, &inv), identity);
    }
}

#[test]
fn any_order_passes_and_multiplicity_counts() {
    let task = EigenvaluesTask {
        matrix: vec![vec![5, -2, 1], vec![4, -1, 1], vec![0, 0, 3]],
        eigenvalues: vec![1, 3, 3],
    };
    assert_eq!(char_poly_at(&task.matrix, 0), 9.into());
    for good in [
        "\\boxed{1, 3, 3}",
        "\\boxed{3, 1, 3}",
        "\\boxed{\\{3, 3, 1\\}}",
        "\\boxed{3; 3; 1}",
        "\\boxed{\\lambda_1 = 1, \\lambda_2 = 3, \\lambda_3 = 3}",
        "\\boxed{1 3 3}",
        "\\boxed{(1, 3, 3)}",
        "The eigenvalues are \\boxed{3, 3 \\text{ and } 1}",
    ] {
        assert!(passes::<Eigenvalues>(&task, good), "{good}");
    }
    for bad in [
        "\\boxed{1, 3}",
        "\\boxed{1, 1, 3}",
        "\\boxed{1, 3, 3, 3}",
        "\\boxed{1, 3, 3 \\text{ or } 4}",
        "\\boxed{1, 3, 3} \\boxed{1, 3}",
        "\\boxed{5, -1, 3}",
        "\\boxed{x, 3, 3}",
    ] {
        assert!(!passes::<Eigenvalues>(&task, bad), "{bad}");
    }
    assert!(Eigenvalues::check(&task, "three").is_err());
    assert!(matches!(Eigenvalues::check(&task, "1, 3"), Ok(false)));
}
