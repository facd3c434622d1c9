//! `verigym check math` and `verigym bench math`: the math verifier over
//! JSONL lines `{"gold": …, "prediction": …, "config"?: {…}}`.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Value, json};
use verigym_verifiers::math::{MathConfig, verify};

/// One input line, parsed.
struct CheckLine {
    id: Option<Value>,
    gold: String,
    prediction: String,
    config: MathConfig,
    expected: Option<bool>,
}

fn parse_line(line: &str) -> Result<CheckLine, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let text = |key: &str| -> Result<String, String> {
        value
            .get(key)
            .and_then(Value::as_str)
            .map(String::from)
            .ok_or_else(|| format!("expected a string field `{key}`, as in {{\"gold\": \"1/2\", \"prediction\": \"0.5\"}}"))
    };
    Ok(CheckLine {
        id: value.get("id").cloned(),
        gold: text("gold")?,
        prediction: text("prediction")?,
        config: value
            .get("config")
            .map(MathConfig::from_json)
            .unwrap_or_default(),
        expected: value.get("expected").and_then(Value::as_bool),
    })
}

/// Checks every non-blank line in parallel; results keep input order. An
/// unusable line gives an `Err` naming its 1-based number.
pub fn check_math(jsonl: &str) -> Vec<Result<Value, String>> {
    let lines: Vec<(usize, &str)> = jsonl
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    lines
        .par_iter()
        .map(|(i, line)| {
            let case = parse_line(line).map_err(|e| format!("line {}: {e}", i + 1))?;
            let verdict = verify(&case.gold, &case.prediction, &case.config);
            let mut out = json!({
                "equivalent": verdict.equivalent,
                "gold_parsed": verdict.gold_parsed,
                "prediction_parsed": verdict.prediction_parsed,
                "reason": verdict.reason,
            });
            if let Some(id) = case.id {
                out["id"] = id;
            }
            Ok(out)
        })
        .collect()
}

/// Throughput and latency of the verifier on one thread.
#[derive(Clone, Debug, Serialize)]
pub struct MathBench {
    pub cases: usize,
    pub passes: usize,
    pub verifications: usize,
    pub seconds: f64,
    pub per_second: f64,
    pub mean_us: f64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub max_us: f64,
    /// The slowest case by its median over passes: a worst case that one
    /// preempted measurement on a busy machine cannot inflate.
    pub worst_case_median_us: f64,
    /// The slowest case's gold and prediction.
    pub slowest: (String, String),
    /// Verdicts that match `expected` where the data has it.
    pub agreement: Option<(usize, usize)>,
}

/// Times `passes` rounds of every line's verification on this thread (the
/// way the Python peer script measures Math-Verify: one process, one thread).
///
/// # Errors
/// An unusable line, or no cases.
pub fn bench_math(jsonl: &str, passes: usize) -> Result<MathBench, String> {
    let cases: Vec<CheckLine> = jsonl
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_line(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect::<Result<_, _>>()?;
    if cases.is_empty() || passes == 0 {
        return Err("nothing to time: no cases or zero passes".into());
    }
    let mut latencies = Vec::with_capacity(cases.len() * passes);
    let mut per_case: Vec<Vec<f64>> = vec![Vec::with_capacity(passes); cases.len()];
    let mut agree = (0, 0);
    let started = Instant::now();
    for pass in 0..passes {
        for (i, case) in cases.iter().enumerate() {
            let t = Instant::now();
            let verdict = verify(&case.gold, &case.prediction, &case.config);
            let us = t.elapsed().as_secs_f64() * 1e6;
            latencies.push(us);
            per_case[i].push(us);
            if pass == 0
                && let Some(expected) = case.expected
            {
                agree.0 += usize::from(verdict.equivalent == expected);
                agree.1 += 1;
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let medians: Vec<f64> = per_case
        .iter_mut()
        .map(|l| {
            l.sort_by(f64::total_cmp);
            l[l.len() / 2]
        })
        .collect();
    let slowest = medians.iter().enumerate().fold(
        (0.0, 0),
        |best, (i, &m)| if m > best.0 { (m, i) } else { best },
    );
    latencies.sort_by(f64::total_cmp);
    let quantile = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
    let n = latencies.len();
    Ok(MathBench {
        cases: cases.len(),
        passes,
        verifications: n,
        seconds,
        per_second: n as f64 / seconds,
        mean_us: latencies.iter().sum::<f64>() / n as f64,
        p50_us: quantile(0.5),
        p99_us: quantile(0.99),
        max_us: latencies[n - 1],
        worst_case_median_us: slowest.0,
        slowest: (
            cases[slowest.1].gold.clone(),
            cases[slowest.1].prediction.clone(),
        ),
        agreement: (agree.1 > 0).then_some(agree),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_keeps_order_passes_ids_and_names_bad_lines() {
        let input = r#"{"id": 1, "gold": "1/2", "prediction": "\\boxed{0.5}"}

{"gold": "3", "prediction": "3 or 4"}
{"gold": 3}
{"id": "x", "gold": "x^2-1", "prediction": "(x-1)(x+1)", "config": {"gold_extraction": ["expr"], "pred_extraction": ["expr"]}}"#;
        let out = check_math(input);
        assert_eq!(out.len(), 4);
        assert_eq!(out[0].as_ref().unwrap()["equivalent"], true);
        assert_eq!(out[0].as_ref().unwrap()["id"], 1);
        assert_eq!(out[1].as_ref().unwrap()["equivalent"], false, "a hedge");
        assert!(
            out[2]
                .as_ref()
                .unwrap_err()
                .starts_with("line 4: expected a string field `gold`")
        );
        assert_eq!(out[3].as_ref().unwrap()["equivalent"], true);
    }

    #[test]
    fn bench_reports_agreement_and_latencies() {
        let input = "{\"gold\": \"2\", \"prediction\": \"2\", \"expected\": true}\n{\"gold\": \"2\", \"prediction\": \"3\", \"expected\": true}\n";
        let bench = bench_math(input, 3).unwrap();
        assert_eq!(bench.verifications, 6);
        assert_eq!(bench.agreement, Some((1, 2)));
        assert!(bench.max_us >= bench.p50_us && bench.per_second > 0.0);
        assert!(bench_math("", 1).is_err());
    }
}
