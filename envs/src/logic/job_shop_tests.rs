use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for rest in permutations(n - 1) {
        for at in 0..=rest.len() {
            let mut p = rest.clone();
            p.insert(at, n - 1);
            all.push(p);
        }
    }
    all
}

/// Every semi-active schedule: each operation as early as its job and the
/// chosen job order on its machine allow, over every job order on every
/// machine (orders that deadlock are skipped).
fn all_schedules(ops: &[Vec<(usize, u64)>], machines: usize) -> Vec<Vec<Vec<u64>>> {
    let perms = permutations(ops.len());
    let total = perms.len().pow(machines as u32);
    let mut schedules = Vec::new();
    for code in 0..total {
        let orders: Vec<&Vec<usize>> = (0..machines)
            .map(|m| &perms[code / perms.len().pow(m as u32) % perms.len()])
            .collect();
        let mut next = vec![0; ops.len()];
        let mut at = vec![0; machines];
        let (mut job_ready, mut machine_ready) = (vec![0; ops.len()], vec![0; machines]);
        let mut starts: Vec<Vec<u64>> = ops.iter().map(|job| vec![0; job.len()]).collect();
        let mut progress = true;
        while progress {
            progress = false;
            for m in 0..machines {
                if at[m] == ops.len() {
                    continue;
                }
                let j = orders[m][at[m]];
                if next[j] < ops[j].len() && ops[j][next[j]].0 == m {
                    let s: u64 = job_ready[j].max(machine_ready[m]);
                    starts[j][next[j]] = s;
                    job_ready[j] = s + ops[j][next[j]].1;
                    machine_ready[m] = job_ready[j];
                    next[j] += 1;
                    at[m] += 1;
                    progress = true;
                }
            }
        }
        if at.iter().all(|&a| a == ops.len()) {
            schedules.push(starts);
        }
    }
    schedules
}

fn random_ops(rng: &mut Rng, jobs: usize, machines: usize, max: u64) -> Vec<Vec<(usize, u64)>> {
    (0..jobs)
        .map(|_| {
            let mut order: Vec<usize> = (0..machines).collect();
            rng.shuffle(&mut order);
            order.into_iter().map(|m| (m, 1 + rng.below(max))).collect()
        })
        .collect()
}

/// AAA: M1 for 3, then M2 for 2; BBB: M2 for 2, then M1 for 3. Optimum 6
/// (AAA on M1 first, BBB on M2 first); AAA's second step has slack.
fn small() -> JobShopTask {
    let ops = vec![vec![(0, 3), (1, 2)], vec![(1, 2), (0, 3)]];
    let (makespan, starts) = solve(&ops, 2, MAX_NODES).unwrap();
    JobShopTask {
        names: vec!["AAA".into(), "BBB".into()],
        machine_count: 2,
        ops,
        makespan,
        starts,
    }
}

#[test]
fn the_search_finds_the_optimum_a_brute_force_finds() {
    let mut rng = Rng::from_seed(5);
    for _ in 0..150 {
        let jobs = 2 + rng.below(2) as usize;
        let machines = 2 + rng.below(2) as usize;
        let ops = random_ops(&mut rng, jobs, machines, 9);
        let schedules = all_schedules(&ops, machines);
        let brute = schedules
            .iter()
            .map(|s| makespan_of(&ops, machines, s).expect("semi-active schedules are valid"))
            .min()
            .unwrap();
        let (best, starts) = solve(&ops, machines, MAX_NODES).unwrap();
        assert_eq!(best, brute, "{ops:?}");
        assert_eq!(makespan_of(&ops, machines, &starts), Some(best));
    }
}

#[test]
fn every_optimal_schedule_passes_and_every_slower_one_fails() {
    for level in 0..3 {
        let config: JobShopConfig = serde_json::from_str(JobShop::LEVELS[level]).unwrap();
        let mut rng = Rng::from_seed(17 + level as u64);
        for _ in 0..10 {
            let task = JobShop::generate(&config, &mut rng);
            let (mut optimal, mut slower) = (0, 0);
            for starts in all_schedules(&task.ops, task.machine_count) {
                let answer: Vec<String> = task
                    .names
                    .iter()
                    .zip(&starts)
                    .map(|(name, times)| {
                        let times: Vec<String> = times.iter().map(u64::to_string).collect();
                        format!("{name} {}", times.join(", "))
                    })
                    .collect();
                let answer = answer.join("\n");
                let length = makespan_of(&task.ops, task.machine_count, &starts).unwrap();
                assert!(length >= task.makespan);
                assert_eq!(
                    JobShop::check(&task, &answer).unwrap(),
                    length == task.makespan
                );
                if length == task.makespan {
                    optimal += 1;
                } else {
                    slower += 1;
                }
            }
            assert!(optimal > 0 && slower > 0);
        }
    }
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        let config = serde_json::from_str(JobShop::LEVELS[level]).unwrap();
        standard_answers::<JobShop>(&config, 20);
    }
}

#[test]
fn spellings_pass_and_wrong_schedules_fail() {
    let task = small();
    assert_eq!(task.makespan, 6);
    for good in [
        "AAA: 0 3; BBB: 0 3",
        "AAA: 0 4\nBBB: 0 3",
        "bbb: 0, 3\naaa: 0, 3",
        "Job AAA: [0, 3] | Job BBB: [0, 3]",
        "AAA 0 3 BBB 0 3",
        "AAA: 0 3 \\\\ BBB: 0 3",
        "\\boxed{AAA: 0 3; BBB: 0 3}",
    ] {
        assert!(passes::<JobShop>(&task, good), "{good:?}");
    }
    for bad in [
        // Slower, overlapping, out of order, missing, repeated, padded.
        "AAA: 0 5; BBB: 0 3",
        "AAA: 2 5; BBB: 0 2",
        "AAA: 0 2; BBB: 0 3",
        "AAA: 0 3",
        "AAA: 0 3; BBB: 0 3; AAA: 0 3",
        "AAA: 0 3 1; BBB: 0 3",
        "AAA: 0; BBB: 0 3",
        "AAA: 0 3; BBB: 0 3 or AAA: 0 4; BBB: 0 3",
        "\\boxed{AAA: 0 3; BBB: 0 3} \\boxed{AAA: 0 4; BBB: 0 3}",
        "AAA: 0 3; CCC: 0 3",
        "0 3 0 3",
        "6",
        "",
    ] {
        assert!(!passes::<JobShop>(&task, bad), "{bad:?}");
    }
    assert!(JobShop::check(&task, "AAA: 0 3; XYZ: 0 3").is_err());
    assert!(JobShop::check(&task, "0 3; BBB 0 3").is_err());
    assert!(JobShop::check(&task, "AAA: 99999999999999999999").is_err());
    assert!(!JobShop::check(&task, "AAA: 0 3").unwrap());
}

#[test]
fn back_to_back_and_one_after_another_never_pass() {
    let mut rng = Rng::from_seed(8);
    for level in JobShop::LEVELS {
        let config: JobShopConfig = serde_json::from_str(level).unwrap();
        JobShop::validate(&config).unwrap();
        for _ in 0..5 {
            let task = JobShop::generate(&config, &mut rng);
            let (mut eager, mut sequential, mut clock) = (Vec::new(), Vec::new(), 0);
            for (name, job) in task.names.iter().zip(&task.ops) {
                let (mut own, mut e, mut s) = (0, Vec::new(), Vec::new());
                for &(_, p) in job {
                    e.push(own.to_string());
                    s.push(clock.to_string());
                    own += p;
                    clock += p;
                }
                eager.push(format!("{name}: {}", e.join(" ")));
                sequential.push(format!("{name}: {}", s.join(" ")));
            }
            assert!(!JobShop::check(&task, &eager.join("\n")).unwrap());
            assert!(!JobShop::check(&task, &sequential.join("\n")).unwrap());
        }
    }
}

#[test]
fn out_of_range_configs_are_refused() {
    for bad in [
        r#"{"jobs":1}"#,
        r#"{"jobs":7}"#,
        r#"{"machines":1}"#,
        r#"{"machines":7}"#,
        r#"{"max_duration":1}"#,
        r#"{"max_duration":100}"#,
    ] {
        let config: JobShopConfig = serde_json::from_str(bad).unwrap();
        assert!(JobShop::validate(&config).is_err(), "{bad}");
    }
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let config = serde_json::from_str(JobShop::LEVELS[level]).unwrap();
        let rate = cross_reference_rate::<JobShop>(&config, 1000);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
