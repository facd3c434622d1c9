use super::*;
use crate::single_turn::boxed;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers, task};

fn config(level: usize) -> RegexExtractConfig {
    serde_json::from_str(RegexExtract::LEVELS[level]).unwrap()
}

#[test]
fn references_pass_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        standard_answers::<RegexExtract>(&config(level), 10);
    }
}

/// Other working patterns pass: a lazy catch-all after the key, a class of
/// the separator's complement, the key matched as a whole word.
#[test]
fn other_working_patterns_pass() {
    for level in [0, 3, 6] {
        for i in 0..10 {
            let t = task::<RegexExtract>(&config(level), 5, i);
            let key = regex::escape(&t.keys[t.target]);
            let kv = regex::escape(&t.kv);
            let sp = if t.level >= 3 { " *" } else { "" };
            let first = t.sep.chars().find(|c| *c != ' ').unwrap_or(' ');
            let others = [
                format!(
                    r"\b{key}{sp}{kv}{sp}([^{}\s]+)",
                    regex::escape(&first.to_string())
                ),
                format!(r"(?:^|\s|[^a-z]){key}{sp}{kv}{sp}(\w(?:[\w-]*\w)?)"),
            ];
            for other in others {
                assert!(
                    passes::<RegexExtract>(&t, &boxed(&other)),
                    "{other} failed on {:?}",
                    t.hidden[0]
                );
            }
        }
    }
}

/// A pattern hard-coding the visible values fails on the hidden records, as
/// do the value's kind alone, catch-alls, malformed and huge expressions.
#[test]
fn hard_coded_and_blind_patterns_fail() {
    for level in [0, 3, 6] {
        for i in 0..10 {
            let t = task::<RegexExtract>(&config(level), 9, i);
            let visible: Vec<String> = t.examples.iter().map(|r| regex::escape(&r.value)).collect();
            let hard = format!("({})", visible.join("|"));
            assert!(extracts(&hard, &t.examples).unwrap());
            assert!(!passes::<RegexExtract>(&t, &boxed(&hard)), "{hard}");
            let kind = KIND_PATTERNS[t.kinds[t.target]];
            for bad in [".*", "(.*)", kind, "", "(", "a{99999}{99999}"] {
                assert!(!passes::<RegexExtract>(&t, &boxed(bad)), "{bad} passed");
            }
            assert!(RegexExtract::check(&t, "(").is_err());
            assert!(RegexExtract::check(&t, &"a".repeat(600)).is_err());
        }
    }
}

#[test]
fn tasks_rarely_share_answers() {
    assert!(cross_reference_rate::<RegexExtract>(&RegexExtractConfig::default(), 200) < 0.01);
}

#[test]
fn validate_names_the_field() {
    for (bad, field) in [
        (r#"{"level":0}"#, "level"),
        (r#"{"fields":2}"#, "fields"),
        (r#"{"fields":9}"#, "fields"),
        (r#"{"examples":1}"#, "examples"),
        (r#"{"hidden":4}"#, "hidden"),
    ] {
        let config: RegexExtractConfig = serde_json::from_str(bad).unwrap();
        let err = RegexExtract::validate(&config).unwrap_err().to_string();
        assert!(err.contains(field), "{bad}: {err}");
    }
}

/// A reply whose box and final-answer statement hold different expressions
/// holds two answers and fails; agreeing ones pass.
#[test]
fn a_statement_disagreeing_with_the_box_fails() {
    let c = RegexExtractConfig::default();
    for i in 0..10 {
        let t = task::<RegexExtract>(&c, 3, i);
        let right = RegexExtract::reference(&t);
        let other = RegexExtract::reference(&task::<RegexExtract>(&c, 4, i));
        if other == right {
            continue;
        }
        for reply in [
            format!("{}\n\nFinal answer:\n{other}", boxed(&right)),
            format!("The final answer is:\n{other}\n\n{}", boxed(&right)),
        ] {
            assert!(!passes::<RegexExtract>(&t, &reply), "{reply}");
        }
        let agree = format!("{}\n\nFinal answer:\n{right}", boxed(&right));
        assert!(passes::<RegexExtract>(&t, &agree), "{agree}");
    }
}

/// The code envs' harness hacks (a program where the pattern belongs) score
/// 0.
#[test]
fn code_hacks_score_zero() {
    let t = task::<RegexExtract>(&config(3), 9, 0);
    crate::code::hacks::assert_hacks_as_answers_score_zero("extract", |reply| {
        RegexExtract::grade(&t, reply).score
    });
}
