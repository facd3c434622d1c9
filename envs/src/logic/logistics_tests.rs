use super::*;
use crate::logic::solvers::plan::{Domain, breadth_first_plan};
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers, task};

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// One city OAK (airport APT, then BAY and COV); truck TRK at APT; packages
/// XEN and YAK at APT, bound for BAY and COV. Six actions, in several
/// orders.
fn one_city() -> LogisticsTask {
    let mut task = LogisticsTask {
        cities: 1,
        locations: 3,
        planes: 0,
        names: names(&["OAK", "APT", "BAY", "COV", "TRK", "XEN", "YAK"]),
        vehicles_at: vec![0],
        packages_at: vec![0, 0],
        goals: vec![1, 2],
        plan: Vec::new(),
    };
    let world = world(&task);
    let start = world.start(&task.packages_at, &task.vehicles_at);
    let Found::Plan(plan) = shortest_plan(&world, start, 10_000) else {
        panic!("no plan");
    };
    task.plan = plan;
    task
}

/// Cities NOR (airport NAP, then NLO) and SUD (SAP, SLO); trucks NTR at NAP
/// and STR at SAP; airplane JET at NAP; package BOX at NLO, bound for SLO.
fn two_cities() -> LogisticsTask {
    let mut task = LogisticsTask {
        cities: 2,
        locations: 2,
        planes: 1,
        names: names(&[
            "NOR", "SUD", "NAP", "NLO", "SAP", "SLO", "NTR", "STR", "JET", "BOX",
        ]),
        vehicles_at: vec![0, 2, 0],
        packages_at: vec![1],
        goals: vec![3],
        plan: Vec::new(),
    };
    let world = world(&task);
    let start = world.start(&task.packages_at, &task.vehicles_at);
    let Found::Plan(plan) = shortest_plan(&world, start, 10_000) else {
        panic!("no plan");
    };
    task.plan = plan;
    task
}

fn level(i: usize) -> LogisticsConfig {
    serde_json::from_str(Logistics::LEVELS[i]).unwrap()
}

fn simulate(task: &LogisticsTask, plan: &[Action]) -> Option<u64> {
    let world = world(task);
    let start = world.start(&task.packages_at, &task.vehicles_at);
    plan.iter()
        .try_fold(start, |state, &action| world.apply(state, action))
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for i in [0, 3, 6] {
        standard_answers::<Logistics>(&level(i), 6);
    }
}

#[test]
fn every_shortest_plan_passes_in_any_spelling() {
    let task = one_city();
    assert_eq!(task.plan.len(), 6);
    for good in [
        "load(XEN, TRK)\nload(YAK, TRK)\ndrive(TRK, BAY)\nunload(XEN, TRK)\ndrive(TRK, COV)\nunload(YAK, TRK)",
        "load(YAK, TRK)\nload(XEN, TRK)\ndrive(TRK, COV)\nunload(YAK, TRK)\ndrive(TRK, BAY)\nunload(XEN, TRK)",
        "1. load xen into trk 2. load yak into trk 3. drive trk to bay 4. unload xen from trk \
         5. drive trk to cov 6. unload yak from trk",
        "load-truck(XEN, TRK, APT); load-truck(YAK, TRK, APT); drive-truck(TRK, APT, BAY, OAK); \
         unload-truck(XEN, TRK, BAY); drive-truck(TRK, BAY, COV, OAK); unload-truck(YAK, TRK, COV)",
    ] {
        assert!(passes::<Logistics>(&task, good), "{good:?}");
    }
    let task = two_cities();
    assert_eq!(task.plan.len(), 10);
    for good in [
        "drive(NTR, NLO)\nload(BOX, NTR)\ndrive(NTR, NAP)\nunload(BOX, NTR)\nload(BOX, JET)\n\
         fly(JET, SAP)\nunload(BOX, JET)\nload(BOX, STR)\ndrive(STR, SLO)\nunload(BOX, STR)",
        "drive-truck(NTR, NAP, NLO, NOR), load-truck(BOX, NTR, NLO), drive-truck(NTR, NLO, NAP, NOR), \
         unload-truck(BOX, NTR, NAP), load-airplane(BOX, JET, NAP), fly-airplane(JET, NAP, SAP), \
         unload-airplane(BOX, JET, SAP), load-truck(BOX, STR, SAP), drive STR to SLO in SUD, \
         unload-truck(BOX, STR, SLO)",
    ] {
        assert!(passes::<Logistics>(&task, good), "{good:?}");
    }
}

#[test]
fn illegal_long_short_hedged_and_unknown_plans_fail() {
    let task = one_city();
    let good = [
        "load(XEN, TRK)",
        "load(YAK, TRK)",
        "drive(TRK, BAY)",
        "unload(XEN, TRK)",
        "drive(TRK, COV)",
        "unload(YAK, TRK)",
    ];
    let with = |k: usize, replacement: &str| {
        let mut plan = good.map(String::from).to_vec();
        plan[k] = replacement.to_string();
        plan.join("\n")
    };
    for bad in [
        // Unloading the wrong package, loading where the truck is not, a
        // package as a vehicle, the wrong place said, a truck flown.
        with(3, "unload(YAK, TRK)"),
        with(1, "load(YAK, BAY)"),
        with(0, "load(TRK, XEN)"),
        with(3, "unload(XEN, TRK, COV)"),
        with(2, "fly(TRK, BAY)"),
        with(2, "drive(TRK, APT)"),
        // Short of the goal, and longer than the optimum.
        good[..5].join("\n"),
        format!("{}\ndrive(TRK, APT)", good.join("\n")),
        format!("drive(TRK, BAY)\ndrive(TRK, APT)\n{}", good.join("\n")),
        // Duplicated, hedged, two boxes, unknown names, no verbs.
        format!("{}\n{}", good.join("\n"), good.join("\n")),
        format!("{} or {}", good.join("\n"), good.join("\n")),
        format!(
            "\\boxed{{{}}} \\boxed{{{}}}",
            good.join(", "),
            good[..5].join(", ")
        ),
        with(0, "load(XEN, VAN)"),
        "XEN TRK BAY".to_string(),
        with(0, "load(XEN)"),
        String::new(),
    ] {
        assert!(!passes::<Logistics>(&task, &bad), "{bad:?}");
    }
    assert!(matches!(
        Logistics::check(&task, &with(0, "load(XEN, VAN)")),
        Err(CheckError::Unreadable(_))
    ));
    assert!(!Logistics::check(&task, &with(3, "unload(YAK, TRK)")).unwrap());
    let task = two_cities();
    let flown = "drive(NTR, NLO)\nload(BOX, NTR)\ndrive(NTR, NAP)\nunload(BOX, NTR)\nload(BOX, JET)\n\
                 drive(JET, SAP)\nunload(BOX, JET)\nload(BOX, STR)\ndrive(STR, SLO)\nunload(BOX, STR)";
    assert!(!passes::<Logistics>(&task, flown), "an airplane driven");
    let crossed = flown
        .replace("drive(JET, SAP)", "fly(JET, SAP)")
        .replace("drive(STR, SLO)", "drive(STR, NLO)");
    assert!(
        !passes::<Logistics>(&task, &crossed),
        "a truck out of its city"
    );
}

#[test]
fn a_reordered_shortest_plan_of_a_generated_task_passes() {
    let mut other_plans = 0;
    for i in 0..30 {
        let task = task::<Logistics>(&level(3), 5, i);
        for k in 0..task.plan.len() - 1 {
            let mut plan = task.plan.clone();
            plan.swap(k, k + 1);
            if plan == task.plan || !is_goal_after(&task, &plan) {
                continue;
            }
            let text: Vec<String> = plan.iter().map(|&a| action_text(&task, a)).collect();
            assert!(passes::<Logistics>(&task, &text.join("\n")), "{text:?}");
            other_plans += 1;
        }
    }
    assert!(other_plans > 20, "only {other_plans} reordered plans");
}

fn is_goal_after(task: &LogisticsTask, plan: &[Action]) -> bool {
    simulate(task, plan).is_some_and(|state| world(task).is_goal(state))
}

/// The world without the search's pruning: every legal action.
struct Unpruned<'a>(World<'a>);

impl Domain for Unpruned<'_> {
    type Action = Action;
    fn successors(&self, state: u64, out: &mut Vec<(Action, u64)>) {
        let world = &self.0;
        for vehicle in 0..world.vehicles() {
            let actions = (0..world.packages())
                .flat_map(|package| {
                    [
                        Action::Load { package, vehicle },
                        Action::Unload { package, vehicle },
                    ]
                })
                .chain((0..world.places()).map(|to| Action::Go { vehicle, to }));
            for action in actions {
                if let Some(next) = world.apply(state, action) {
                    out.push((action, next));
                }
            }
        }
    }
    fn is_goal(&self, state: u64) -> bool {
        self.0.is_goal(state)
    }
    fn lower_bound(&self, _: u64) -> u32 {
        0
    }
}

#[test]
fn a_star_agrees_with_breadth_first_search_and_the_bound_never_overestimates() {
    let mut rng = Rng::from_seed(21);
    for round in 0..40 {
        let (cities, locations) = (1 + round % 3, 1 + (round / 3) % 3);
        let config = LogisticsConfig {
            cities,
            locations,
            planes: 1 + round % 2,
            packages: if cities * locations > 6 {
                2
            } else {
                1 + (round / 9) % 3
            },
            min_actions: 1,
        };
        if Logistics::validate(&config).is_err() {
            continue;
        }
        let task = Logistics::draw(&config, &mut rng).expect("a small task is solved");
        let full = Unpruned(world(&task));
        let world = world(&task);
        let start = world.start(&task.packages_at, &task.vehicles_at);
        let Found::Plan(blind) = breadth_first_plan(&full, start, 2_000_000) else {
            panic!("breadth-first search found no plan: {config:?}");
        };
        assert_eq!(task.plan.len(), blind.len(), "{config:?}");
        let mut state = start;
        for (done, &action) in blind.iter().enumerate() {
            assert!(
                world.lower_bound(state) as usize <= blind.len() - done,
                "{config:?}"
            );
            state = world.apply(state, action).unwrap();
        }
        assert!(world.is_goal(state));
        assert!(is_goal_after(&task, &task.plan));
    }
}

#[test]
fn levels_validate_and_bad_configs_are_refused() {
    for (i, patch) in Logistics::LEVELS.iter().enumerate() {
        let config = level(i);
        Logistics::validate(&config).unwrap_or_else(|e| panic!("{patch}: {e}"));
        let task = task::<Logistics>(&config, 3, 0);
        assert!(task.plan.len() >= config.min_actions);
        let reserved = |n: &String| RESERVED.iter().any(|w| w.eq_ignore_ascii_case(n));
        assert!(!task.names.iter().any(reserved));
    }
    for bad in [
        r#"{"cities":2,"planes":0}"#,
        r#"{"cities":1,"locations":1}"#,
        r#"{"packages":5}"#,
        r#"{"cities":4}"#,
        r#"{"min_actions":0}"#,
    ] {
        let config: LogisticsConfig = serde_json::from_str(bad).unwrap();
        assert!(Logistics::validate(&config).is_err(), "{bad}");
    }
}

#[test]
fn another_tasks_reference_never_passes() {
    for i in [0, 3] {
        let rate = cross_reference_rate::<Logistics>(&level(i), 200);
        assert!(rate < 0.01, "{i}: {rate}");
    }
}
