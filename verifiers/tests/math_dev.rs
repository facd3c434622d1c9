//! The Math-Verify-derived dev set (`verifiers/data/math-verify/dev.jsonl`): every case whose
//! harness is `compare_strings`, `parse_default` or `expr_only` is run through
//! [`verify`], and the agreement with the expected verdict must stay at or above the
//! target. Remaining disagreements are listed explicitly below, with the reason we
//! disagree on purpose (or the gap we accept); any other disagreement fails the test,
//! and so does a listed case that starts agreeing (so the table stays honest).

use serde::Deserialize;
use std::collections::BTreeMap;
use verigym_verifiers::math::{MathConfig, extract_choice, verify, verify_choice};

#[derive(Deserialize)]
struct Case {
    id: String,
    category: String,
    harness: String,
    gold: String,
    prediction: String,
    expected: bool,
    config: serde_json::Value,
    #[serde(default)]
    expected_extraction: Vec<String>,
}

/// Cases where we knowingly differ from Math-Verify: (index in dev.jsonl, reason).
const DELIBERATE: &[(usize, &str)] = &[
    (
        3,
        "`2,74` against gold 2.74: a comma is never a decimal point by default (`(3,4)` is a \
         pair, not 3.4); data written with decimal commas sets `decimal_comma`",
    ),
    (11, "gold `0,111` against 0.111: a decimal comma, as in #3"),
    (
        130,
        "`\\text{13}` against 13: a number written inside `\\text{}` is that number",
    ),
    (
        71,
        "gold `1 = \\zzz = x = 0` uses an unknown command; unknown commands fail the parse \
         by design (no answer is guessed from LaTeX we cannot read)",
    ),
    (
        148,
        "gold has an unclosed `\\\\boxed{` and the prediction glues \"or\" to the next \
         word (`W(x)=1orW(x)=-1`); neither side reads as the two equations, and we do \
         not guess (an earlier version agreed only by reading -1 from both)",
    ),
    (
        230,
        "`11\\n5/6` against gold 5: a fraction on its own line is 5/6, not a mixed number \
         and not 5; Math-Verify's expected `true` looks like an artefact of its regex",
    ),
    (232, "`11\\r\\n5/6` against gold 5: same as #230"),
    (
        250,
        "`4 4/9 2` against gold 2: a row of numbers offers several candidates where one is \
         asked (a hedge); no number is taken out of it",
    ),
];

const TARGET_AGREEMENT: f64 = 0.96;

fn config(v: &serde_json::Value) -> MathConfig {
    MathConfig::from_json(v)
}

fn load() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/math-verify/dev.jsonl");
    let text = std::fs::read_to_string(path).expect("dev.jsonl is shipped with the repo");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("valid case"))
        .collect()
}

#[test]
fn dev_set_agreement() {
    let cases = load();
    let mut per_group: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut unexpected = Vec::new();
    let mut now_agreeing = Vec::new();
    let (mut total, mut agree) = (0usize, 0usize);
    for (i, case) in cases.iter().enumerate() {
        if !matches!(
            case.harness.as_str(),
            "compare_strings" | "parse_default" | "expr_only"
        ) {
            continue;
        }
        let verdict = verify(&case.gold, &case.prediction, &config(&case.config));
        let ok = verdict.equivalent == case.expected;
        total += 1;
        agree += usize::from(ok);
        for key in [
            format!("harness {}", case.harness),
            format!("category {}", case.category),
        ] {
            let e = per_group.entry(key).or_default();
            e.0 += usize::from(ok);
            e.1 += 1;
        }
        let listed = DELIBERATE.iter().any(|(k, _)| *k == i);
        if !ok && !listed {
            unexpected.push(format!(
                "#{i} {} expected {} got {}: gold {:?} -> {:?}; pred -> {:?}; {}",
                case.id,
                case.expected,
                verdict.equivalent,
                case.gold.chars().take(80).collect::<String>(),
                verdict.gold_parsed,
                verdict.prediction_parsed,
                verdict.reason
            ));
        }
        if ok && listed {
            now_agreeing.push(i);
        }
    }
    println!(
        "dev-set agreement: {agree}/{total} = {:.1}%",
        100.0 * agree as f64 / total as f64
    );
    for (k, (a, n)) in &per_group {
        println!("  {k:<40} {a:>3}/{n:<3}");
    }
    for (i, why) in DELIBERATE {
        println!("  deliberate #{i}: {why}");
    }
    assert!(
        unexpected.is_empty(),
        "{} unexpected disagreements:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(
        now_agreeing.is_empty(),
        "listed cases now agree, remove them: {now_agreeing:?}"
    );
    assert!(
        agree as f64 >= TARGET_AGREEMENT * total as f64,
        "agreement below target"
    );
}

/// The `extraction` harness: multiple-choice letters (`string_config.strings`).
#[test]
fn dev_set_choices() {
    let cases = load();
    let mut n = 0;
    for (i, case) in cases
        .iter()
        .enumerate()
        .filter(|(_, c)| c.harness == "extraction")
    {
        let strings: Vec<String> = case.config["string_config"]["strings"]
            .as_array()
            .expect("strings")
            .iter()
            .filter_map(|s| s.as_str().map(str::to_string))
            .collect();
        let choices: Vec<&str> = strings.iter().map(String::as_str).collect();
        let picked = extract_choice(&case.prediction, &choices);
        let want = case.expected_extraction.get(1).cloned();
        assert_eq!(picked, want, "#{i} {} extraction", case.id);
        let v = verify_choice(&case.gold, &case.prediction, &choices);
        assert_eq!(v.equivalent, case.expected, "#{i} {} verdict", case.id);
        n += 1;
    }
    println!("extraction harness: {n}/{n} agree");
    assert!(n >= 6);
}

/// Debug aid: `MATH_DEV_SHOW=3,17 cargo test --test math_dev show -- --ignored --nocapture`.
#[test]
#[ignore]
fn show() {
    let cases = load();
    let wanted: Vec<usize> = std::env::var("MATH_DEV_SHOW")
        .unwrap_or_default()
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    for i in wanted {
        let c = &cases[i];
        let v = verify(&c.gold, &c.prediction, &config(&c.config));
        println!("#{i} expected {} -> {v:?}", c.expected);
    }
}

/// Timing aid: `cargo test --release --test math_dev timing -- --ignored --nocapture`.
#[test]
#[ignore]
fn timing() {
    let cases = load();
    let mut times: Vec<(std::time::Duration, usize)> = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let cfg = config(&c.config);
        let start = std::time::Instant::now();
        for _ in 0..20 {
            std::hint::black_box(verify(&c.gold, &c.prediction, &cfg));
        }
        times.push((start.elapsed() / 20, i));
    }
    times.sort();
    let total: std::time::Duration = times.iter().map(|t| t.0).sum();
    println!(
        "mean {:?}, median {:?}, p99 {:?}, max {:?} (#{})",
        total / times.len() as u32,
        times[times.len() / 2].0,
        times[times.len() * 99 / 100].0,
        times.last().unwrap().0,
        times.last().unwrap().1
    );
    for t in times.iter().rev().take(5) {
        println!("  #{} {:?}", t.1, t.0);
    }
}
