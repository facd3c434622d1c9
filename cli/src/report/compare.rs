//! Two runs side by side: per agent and family (from their summaries), and
//! per env, line-up and seat.

use verigym_envs::stats::Z95;

use crate::bench::Leaderboard;
use crate::summary::{Score, Summary, percent};

use super::table::align;

/// The standard error behind a 95% interval (its half-width over z).
fn standard_error(score: &Score) -> f64 {
    (score.high - score.low) / (2.0 * Z95)
}

/// Whether two scores differ at the 5% level: a two-sided z-test on the
/// difference, with each score's standard error read off its interval
/// (the runs are independent samples of tasks).
pub fn differs(before: &Score, after: &Score) -> bool {
    let se = standard_error(before).hypot(standard_error(after));
    let diff = after.mean - before.mean;
    if se == 0.0 {
        return diff != 0.0;
    }
    (diff / se).abs() > Z95
}

/// Per agent and family (and overall), the score before and after, the
/// change and whether it is significant, for the agents and families both
/// runs have.
pub fn compare_families(base: &Summary, other: &Summary) -> String {
    let mut rows = vec![
        [
            "agent",
            "family",
            "before %",
            "after %",
            "change",
            "significant",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for new in &other.agents {
        let Some(old) = base.agents.iter().find(|a| a.agent == new.agent) else {
            continue;
        };
        let mut pairs = vec![("overall".to_string(), old.overall, new.overall)];
        for family in &other.families {
            if let (Some(b), Some(a)) = (old.families.get(family), new.families.get(family)) {
                pairs.push((family.clone(), *b, *a));
            }
        }
        for (family, before, after) in pairs {
            rows.push(vec![
                new.agent.clone(),
                family,
                percent(before.mean),
                percent(after.mean),
                format!("{:+.1}", 100.0 * (after.mean - before.mean)),
                if differs(&before, &after) {
                    "yes"
                } else {
                    "no"
                }
                .into(),
            ]);
        }
    }
    align(&rows)
}

/// Rows of two runs side by side, matched by env, line-up and seat;
/// significant means disjoint 95% intervals (conservative).
pub fn compare(base: &Leaderboard, other: &Leaderboard) -> String {
    let mut rows = vec![
        [
            "env",
            "line-up",
            "seat",
            "agent",
            "pass % before",
            "pass % after",
            "change",
            "significant",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for new in &other.rows {
        let Some(old) = base
            .rows
            .iter()
            .find(|r| r.env == new.env && r.lineup == new.lineup && r.seat == new.seat)
        else {
            continue;
        };
        // Disjoint 95% intervals: a conservative test of a real change.
        let significant =
            new.pass_rate.low > old.pass_rate.high || new.pass_rate.high < old.pass_rate.low;
        rows.push(vec![
            new.env.clone(),
            new.lineup.join(" vs "),
            new.seat.to_string(),
            new.agent.clone(),
            format!("{:.1}", 100.0 * old.pass_rate.mean),
            format!("{:.1}", 100.0 * new.pass_rate.mean),
            format!("{:+.1}", 100.0 * (new.pass_rate.mean - old.pass_rate.mean)),
            if significant {
                "yes".into()
            } else {
                "no".into()
            },
        ]);
    }
    align(&rows)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use verigym_envs::stats::wilson_interval;

    use super::*;
    use crate::summary::{AgentSummary, combine};

    fn score(passes: usize, trials: usize) -> Score {
        combine(&[wilson_interval(passes, trials)])
    }

    fn summary(math: Score, logic: Score) -> Summary {
        let families = BTreeMap::from([("math".to_string(), math), ("logic".to_string(), logic)]);
        Summary {
            suite: "s".into(),
            suite_hash: "h".into(),
            score: String::new(),
            interval: String::new(),
            families: vec!["math".into(), "logic".into()],
            agents: vec![AgentSummary {
                agent: "model".into(),
                overall: combine(&[wilson_interval(1, 2)]),
                families,
                games_rating: None,
            }],
            game_ratings: vec![],
            skipped: vec![],
        }
    }

    #[test]
    fn a_large_change_is_significant_and_a_small_one_is_not() {
        // 50% -> 70% of 400 tasks: z about 5.9.
        assert!(differs(&score(200, 400), &score(280, 400)));
        // 50% -> 52% of 400 tasks: z about 0.6.
        assert!(!differs(&score(200, 400), &score(208, 400)));
        // The same data never differs; the test is symmetric.
        assert!(!differs(&score(30, 100), &score(30, 100)));
        assert_eq!(
            differs(&score(10, 100), &score(25, 100)),
            differs(&score(25, 100), &score(10, 100))
        );
        // 0% -> 100% of a few tasks still differs.
        assert!(differs(&score(0, 10), &score(10, 10)));
    }

    #[test]
    fn families_are_compared_per_agent_with_the_change() {
        let before = summary(score(200, 400), score(100, 400));
        let after = summary(score(280, 400), score(104, 400));
        let table = compare_families(&before, &after);
        let line = |family: &str| {
            table
                .lines()
                .find(|l| l.split_whitespace().nth(1) == Some(family))
                .unwrap_or_else(|| panic!("no {family} row:\n{table}"))
                .split_whitespace()
                .collect::<Vec<_>>()
        };
        assert_eq!(line("math")[2..], ["50.0", "70.0", "+20.0", "yes"]);
        assert_eq!(line("logic")[2..], ["25.0", "26.0", "+1.0", "no"]);
        assert_eq!(line("overall")[5], "no");
    }
}
