use super::*;
use crate::code::hacks::assert_hacks_as_answers_score_zero;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn config(level: usize) -> InputPredictionConfig {
    serde_json::from_str(InputPrediction::LEVELS[level]).unwrap()
}

/// Tasks of every level, from a fixed seed.
fn tasks(per_level: u64) -> Vec<InputTask> {
    let mut rng = Rng::from_seed(5);
    (0..InputPrediction::LEVELS.len())
        .flat_map(|level| {
            let config = config(level);
            InputPrediction::validate(&config).unwrap();
            (0..per_level)
                .map(|_| InputPrediction::generate(&config, &mut rng))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn references_pass_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        standard_answers::<InputPrediction>(&config(level), 8);
    }
}

/// Inputs other than the drawn one that reach the target: ignored
/// characters or filtered-out elements appended.
fn other_inputs(task: &InputTask) -> Vec<Value> {
    let spec = task.spec().unwrap();
    let w = &task.witness;
    let mut out = Vec::new();
    if let Some(s) = w[0].as_str() {
        for tail in [" .", "x", "!", "?"] {
            out.push(json!([format!("{s}{tail}")]));
        }
    }
    if let Some(xs) = w[0].as_array() {
        for x in -9..=9 {
            let mut ys = xs.clone();
            ys.insert(0, json!(x));
            out.push(json!([ys]));
        }
    }
    out.into_iter()
        .filter(|a| {
            a != w
                && in_domain(&spec, &task.family, a)
                && compare_outputs(&task.target, &(spec.solve)(a), 0.0)
        })
        .collect()
}

#[test]
fn any_input_reaching_the_target_passes() {
    let mut other = 0;
    for task in tasks(12) {
        for args in other_inputs(&task) {
            let call = format!("{}({})", task.entry, arguments(&args));
            assert!(
                passes::<InputPrediction>(&task, &format!("\\boxed{{{call}}}")),
                "{call}"
            );
            // The sandbox agrees with the mirror.
            let ran = run(&task, &args, true).unwrap().unwrap();
            assert!(compare_outputs(&task.target, &ran, 0.0), "{call}: {ran}");
            other += 1;
        }
        let bare = arguments(&task.witness);
        assert!(
            passes::<InputPrediction>(&task, &format!("\\boxed{{{bare}}}")),
            "{bare}"
        );
        let f = format!("f({bare})");
        assert!(
            passes::<InputPrediction>(&task, &format!("The answer is {f}.")),
            "{f}"
        );
    }
    assert!(other > 20, "{other}");
}

/// On the mirror's domain the mirror and CPython agree, on drawn inputs and
/// on odd ones (all printable ASCII, the ends of the int range).
#[test]
fn mirrors_agree_with_the_programs_on_their_domain() {
    let mut rng = Rng::from_seed(3);
    let mut checked = 0;
    let mut families = std::collections::BTreeSet::new();
    for task in tasks(8) {
        let spec = task.spec().unwrap();
        let printable: String = (32u8..127).map(char::from).collect();
        let mut inputs = vec![task.witness.clone(), (spec.args)(&mut rng)];
        inputs.extend(spec.edges.iter().take(3).cloned());
        inputs.push(json!([printable]));
        inputs.push(json!([[999_999, -999_999, 0, 7]]));
        for args in inputs
            .into_iter()
            .filter(|a| in_domain(&spec, &task.family, a))
        {
            let ran = run(&task, &args, true).unwrap();
            let mirrored = run(&task, &args, false).unwrap();
            assert_eq!(ran, mirrored, "{} on {args}", task.program);
            checked += 1;
            families.insert(task.family.clone());
        }
    }
    assert!(checked > 60, "{checked}");
    assert_eq!(families.len(), pool(&[]).len(), "{families:?}");
}

/// Arguments of a kind the program cannot take fail in CPython too.
#[test]
fn arguments_of_the_wrong_kind_fail_in_the_sandbox_too() {
    let mut checked = std::collections::BTreeSet::new();
    for task in tasks(6) {
        for odd in [
            json!(null),
            json!(true),
            json!(0),
            json!(7),
            json!(2.5),
            json!(""),
            json!("%d"),
            json!([]),
            json!([3]),
            json!({"a": 1}),
            json!({"$tuple": [1, 2]}),
        ] {
            let args = json!([odd]);
            if surely_wrong(&task.family, &args) {
                let ran = run(&task, &args, true).unwrap();
                assert!(
                    ran.as_ref()
                        .is_none_or(|v| !compare_outputs(&task.target, v, 0.0)),
                    "{} on {args}: {ran:?}",
                    task.program
                );
                assert!(
                    ran.is_none() || task.family == "parse_records",
                    "{args}: {ran:?}"
                );
                checked.insert(task.family.clone());
            }
        }
    }
    assert!(checked.len() >= 6, "{checked:?}");
}

#[test]
fn trivial_and_wrong_inputs_fail() {
    for task in tasks(6) {
        let spec = task.spec().unwrap();
        for args in spec.edges.iter().chain([&json!([task.target.clone()])]) {
            let call = format!("{}({})", task.entry, arguments(args));
            if task.arity() == args.as_array().unwrap().len() {
                assert!(!passes::<InputPrediction>(&task, &call), "{call} passed");
            }
        }
    }
}

#[test]
fn malformed_answers_are_unreadable_and_outside_inputs_run_in_the_sandbox() {
    let task = tasks(4)
        .into_iter()
        .find(|t| {
            t.family == "count_climbs" || t.family == "digit_power_sum" || t.family == "min_coins"
        })
        .expect("an int family");
    let unreadable = |answer: &str| match InputPrediction::check(&task, answer) {
        Err(CheckError::Unreadable(_)) => {}
        other => panic!("{answer:?} was read: {other:?}"),
    };
    let e = &task.entry;
    for bad in [
        format!("{e}()"),
        format!("{e}(1, 2)"),
        format!("{e}(x)"),
        format!("{e}(2 + 3)"),
        format!("{e}(int('7'))"),
        "__import__('os')".into(),
        format!("{e}({})", "9".repeat(MAX_ARGS + 5)),
        String::new(),
    ] {
        unreadable(&bad);
    }
    // Negative, huge and mistyped arguments run in the sandbox, where the
    // program raises or runs out of fuel: wrong, quickly.
    for odd in ["-5", "10**9", "123456789012", "'7'", "[7]", "7.0", "None"] {
        let got = InputPrediction::check(&task, &format!("{e}({odd})"));
        assert!(
            matches!(got, Ok(false) | Err(CheckError::Unreadable(_))),
            "{odd}: {got:?}"
        );
    }
}

#[test]
fn statements_and_boxes_agree_by_arguments() {
    let tasks = tasks(6);
    for pair in tasks.windows(2) {
        let (task, r, o) = (
            &pair[0],
            InputPrediction::reference(&pair[0]),
            InputPrediction::reference(&pair[1]),
        );
        let bare = arguments(&task.witness);
        for good in [
            format!("So the answer is {r}.\n\n\\boxed{{{bare}}}"),
            format!("\\boxed{{{r}}}\n\n**Final answer: f({bare})**"),
        ] {
            assert!(passes::<InputPrediction>(task, &good), "{good:?}");
        }
        for bad in [
            format!("\\boxed{{{r}}}\n\nFinal answer:\n{o}"),
            format!("The final answer is:\n{o}\n\n\\boxed{{{r}}}"),
            format!("\\boxed{{{r}}}\n\nFinal answer: {r} or {o}"),
            format!("\\boxed{{{r}}} \\boxed{{{o}}}"),
        ] {
            assert!(!passes::<InputPrediction>(task, &bad), "{bad:?} passed");
        }
    }
}

#[test]
fn tasks_of_one_seed_rarely_share_answers() {
    for level in [0, 3, 6] {
        let rate = cross_reference_rate::<InputPrediction>(&config(level), 150);
        assert!(rate < 0.01, "level {level}: {rate}");
    }
}

/// Every code hack (a program in place of arguments) scores 0.
#[test]
fn code_hacks_score_zero() {
    let task = tasks(1).remove(3);
    assert_hacks_as_answers_score_zero(&task.entry, |reply| {
        InputPrediction::grade(&task, reply).score
    });
}

#[test]
fn bad_configs_are_refused() {
    for bad in [
        r#"{"level":0}"#,
        r#"{"min_input":0}"#,
        r#"{"min_input":50,"max_input":40}"#,
        r#"{"families":["sort_by_key"]}"#,
        r#"{"families":["nope"]}"#,
    ] {
        let config: InputPredictionConfig = serde_json::from_str(bad).unwrap();
        assert!(InputPrediction::validate(&config).is_err(), "{bad}");
    }
}
