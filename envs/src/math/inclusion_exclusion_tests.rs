use std::collections::BTreeSet;

use super::*;
use crate::math::question::check;
use crate::math::testing;

#[test]
fn references_verify_and_do_not_transfer() {
    for preset in InclusionExclusionFamily::SPEC.presets {
        let config: InclusionExclusionConfig = serde_json::from_str(preset.overrides).unwrap();
        let tasks = testing::references_hold::<InclusionExclusionFamily>(&config, 600);
        testing::attacks_fail::<InclusionExclusionFamily>(&tasks[0]);
    }
}

#[test]
fn divisibility_counts_match_brute_force() {
    let mut rng = Rng::from_seed(11);
    for _ in 0..300 {
        let n = rng.range_i64(1, 3000) as u64;
        let ds: Vec<u64> = (0..rng.range_usize(1, 5))
            .map(|_| rng.range_i64(2, 15) as u64)
            .collect();
        let brute = (1..=n).filter(|x| ds.iter().all(|d| x % d != 0)).count() as u64;
        assert_eq!(divisible_by_none(n, &ds), brute, "n={n} ds={ds:?}");
        // d0 but none of the others, as the generator counts it.
        let reduced: Vec<u64> = ds[1..].iter().map(|&d| d / gcd(d, ds[0])).collect();
        let brute = (1..=n)
            .filter(|x| x % ds[0] == 0 && ds[1..].iter().all(|d| x % d != 0))
            .count() as u64;
        assert_eq!(divisible_by_none(n / ds[0], &reduced), brute, "{ds:?}");
    }
}

#[test]
fn onto_and_fixed_point_counts_match_brute_force() {
    for m in 1..=7u32 {
        for k in 1..=5u64 {
            let brute = (0..k.pow(m))
                .filter(|f| {
                    let mut hit = vec![false; k as usize];
                    let mut f = *f;
                    for _ in 0..m {
                        hit[(f % k) as usize] = true;
                        f /= k;
                    }
                    hit.iter().all(|&h| h)
                })
                .count();
            assert_eq!(onto(m, k), BigInt::from(brute), "m={m} k={k}");
        }
    }
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in permutations(n - 1) {
            for i in 0..=p.len() {
                let mut q = p.clone();
                q.insert(i, n - 1);
                out.push(q);
            }
        }
        out
    }
    for n in 1..=7usize {
        let perms = permutations(n);
        for k in 0..=n {
            let brute = perms.iter().filter(|p| (0..k).all(|i| p[i] != i)).count();
            assert_eq!(
                fixing_none(n as u64, k as u64),
                BigInt::from(brute),
                "n={n} k={k}"
            );
        }
    }
    assert_eq!(fixing_none(20, 20).to_string(), "895014631192902121");
}

#[test]
fn set_sizes_match_real_sets() {
    let mut rng = Rng::from_seed(3);
    for s in [2usize, 3] {
        for _ in 0..50 {
            let regions: Vec<u64> = (0..1usize << s)
                .map(|r| {
                    if r == 0 {
                        0
                    } else {
                        rng.range_i64(0, 9) as u64
                    }
                })
                .collect();
            // Build the sets element by element, region by region.
            let mut sets = vec![BTreeSet::new(); s];
            let mut next = 0;
            for (r, &size) in regions.iter().enumerate() {
                for _ in 0..size {
                    for (i, set) in sets.iter_mut().enumerate() {
                        if r & (1 << i) != 0 {
                            set.insert(next);
                        }
                    }
                    next += 1;
                }
            }
            for (mask, size) in intersections(&regions) {
                let members: Vec<&BTreeSet<i32>> = (0..s)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| &sets[i])
                    .collect();
                let common = (0..next)
                    .filter(|x| members.iter().all(|m| m.contains(x)))
                    .count() as u64;
                assert_eq!(size, common);
            }
            // Inclusion–exclusion over the stated sizes gives the union.
            let union: i64 = intersections(&regions)
                .iter()
                .map(|(mask, size)| {
                    if mask.count_ones() % 2 == 1 {
                        *size as i64
                    } else {
                        -(*size as i64)
                    }
                })
                .sum();
            let real: BTreeSet<i32> = sets.iter().flatten().copied().collect();
            assert_eq!(union, real.len() as i64);
        }
    }
}

#[test]
fn only_the_count_passes() {
    let task = MathTask {
        question: "How many integers from 1 to 100 (inclusive) are divisible by at least one of 2, 3? Give a single integer.".into(),
        answer: (100 - divisible_by_none(100, &[2, 3])).to_string(),
        form: Form::Number,
    };
    assert_eq!(task.answer, "67");
    assert!(check(&task, "\\boxed{67}").0);
    for bad in [
        "\\boxed{66}",
        "\\boxed{33}",
        "\\boxed{67 \\text{ or } 66}",
        "\\boxed{67} \\boxed{66}",
        "\\boxed{50 + 33 - 16}",
    ] {
        assert!(!check(&task, bad).0, "{bad}");
    }
}
