//! Tables of answer pairs, each with the verdict we want, by topic; the new rules of the
//! numeric, comma, domain and hedge policies are also tested as properties over their
//! classes.

use verigym_verifiers::math::{MathConfig, verify};

mod commas;
mod domains;
mod hedges;
mod notation;
mod numbers;
mod typical;
mod upstream;
mod values;

/// Checks each `(gold, prediction, want)` with the default config.
pub fn check(cases: &[(&str, &str, bool)]) {
    check_with(cases, &MathConfig::default());
}

/// Checks each `(gold, prediction, want)` with `cfg`, reporting every miss at once.
pub fn check_with(cases: &[(&str, &str, bool)], cfg: &MathConfig) {
    let mut bad = Vec::new();
    for (g, p, want) in cases {
        let v = verify(g, p, cfg);
        if v.equivalent != *want {
            bad.push(format!("{g:?} vs {p:?}: want {want} -> {v:?}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The verdict with the default config.
pub fn eq(gold: &str, pred: &str) -> bool {
    verify(gold, pred, &MathConfig::default()).equivalent
}

/// 64 cases by default; `PROPTEST_CASES=5000` for a longer run.
pub fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}
