//! The summary of a run (`summary.json` beside the manifest, the table the
//! terminal shows, the top of the HTML report): one row per agent with an
//! overall score, a score per family, and a rating across all games; and
//! the envs that were skipped because a runtime is missing here.
//!
//! How the numbers are made (also stated in the JSON, [`SCORE_RULE`] and
//! [`INTERVAL_RULE`], and in `gym-bench --help`):
//! - an env's pass rate for an agent is the share of its episodes there
//!   (every task, sample, seat and line-up) that it passed;
//! - a score (overall, or of one family) is the plain mean of those pass
//!   rates over the envs the agent played (a suite entry is one env, so an
//!   env at three presets counts three times); skipped envs never count;
//! - its 95% interval is Wilson-based: each env's Wilson interval gives the
//!   distances below and above its pass rate, combined in quadrature and
//!   divided by the number of envs. It measures the sampling of tasks for
//!   this fixed set of envs, not how the score would vary over other envs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use verigym_envs::stats::{Estimate, wilson_interval};

use crate::availability::Skipped;
use crate::bench::{GameRatings, Leaderboard};

/// The file name of the summary in a run directory.
pub const SUMMARY: &str = "summary.json";

/// Families in the order reports show them; others follow alphabetically.
pub const FAMILY_ORDER: &[&str] = &["math", "logic", "code", "tools", "web", "games", "selfplay"];

/// How a score aggregates pass rates (written into `summary.json`).
pub const SCORE_RULE: &str = "mean over the envs the agent played (each suite entry, \
    so each preset, is one env) of its pass rate there: the share of its episodes \
    (every task, sample, seat and line-up) it passed; skipped envs never count";

/// How a score's interval is made (written into `summary.json`).
pub const INTERVAL_RULE: &str = "95%, Wilson-based: each env's Wilson interval gives the \
    distances below and above its pass rate; they are combined in quadrature and divided \
    by the number of envs (task-sampling uncertainty for this fixed set of envs)";

/// A score with its interval and the number of envs behind it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
    pub envs: usize,
}

/// An Elo-scale rating with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Elo {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// One agent's line of the summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentSummary {
    pub agent: String,
    pub overall: Score,
    /// Only the families the agent played.
    pub families: BTreeMap<String, Score>,
    /// From the one Bradley–Terry fit over the games family; `None` when the
    /// agent played no game against another agent.
    pub games_rating: Option<Elo>,
}

/// The whole summary, as `summary.json` holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub suite: String,
    pub suite_hash: String,
    pub score: String,
    pub interval: String,
    /// Families with at least one scored env, in report order.
    pub families: Vec<String>,
    /// Sorted by overall score, best first (ties by name).
    pub agents: Vec<AgentSummary>,
    /// Per two-player game (the all-games fit is in each agent's line).
    pub game_ratings: Vec<GameRatingsSummary>,
    pub skipped: Vec<Skipped>,
}

/// One game's ratings, agent by agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRatingsSummary {
    pub env: String,
    pub ratings: BTreeMap<String, Elo>,
}

/// Mean of pass rates with the Wilson-based interval of [`INTERVAL_RULE`].
pub fn combine(rates: &[Estimate]) -> Score {
    let n = rates.len();
    if n == 0 {
        return Score {
            mean: 0.0,
            low: 0.0,
            high: 0.0,
            envs: 0,
        };
    }
    let mean = rates.iter().map(|r| r.mean).sum::<f64>() / n as f64;
    let spread = |d: &dyn Fn(&Estimate) -> f64| {
        rates.iter().map(|r| d(r).powi(2)).sum::<f64>().sqrt() / n as f64
    };
    let below = spread(&|r| r.mean - r.low);
    let above = spread(&|r| r.high - r.mean);
    Score {
        mean,
        low: (mean - below).max(0.0),
        high: (mean + above).min(1.0),
        envs: n,
    }
}

fn elo_map(game: &GameRatings) -> BTreeMap<String, Elo> {
    game.ratings
        .iter()
        .map(|r| {
            (
                game.agents[r.player].clone(),
                Elo {
                    elo: r.elo,
                    low: r.low,
                    high: r.high,
                },
            )
        })
        .collect()
}

/// Sorts families by [`FAMILY_ORDER`], unknown ones after, alphabetically.
pub fn family_rank(family: &str) -> (usize, String) {
    let i = FAMILY_ORDER
        .iter()
        .position(|f| *f == family)
        .unwrap_or(FAMILY_ORDER.len());
    (i, family.to_string())
}

/// Builds the summary of a leaderboard; rows of skipped envs are ignored.
pub fn summarize(
    suite: &str,
    suite_hash: &str,
    board: &Leaderboard,
    skipped: &[Skipped],
) -> Summary {
    // (agent, env) -> (family, episodes, passes), envs in suite order.
    let mut per_env: BTreeMap<&str, Vec<(&str, &str, usize, usize)>> = BTreeMap::new();
    for row in &board.rows {
        if skipped.iter().any(|s| s.env == row.env) {
            continue;
        }
        let envs = per_env.entry(&row.agent).or_default();
        match envs.iter_mut().find(|(env, ..)| *env == row.env) {
            Some(slot) => {
                slot.2 += row.episodes;
                slot.3 += row.passes;
            }
            None => envs.push((&row.env, &row.family, row.episodes, row.passes)),
        }
    }
    let all_games = board.all_games.as_ref().map(elo_map).unwrap_or_default();
    let mut families: Vec<String> = Vec::new();
    let mut agents: Vec<AgentSummary> = per_env
        .into_iter()
        .map(|(agent, envs)| {
            let rate = |(_, _, n, c): &(&str, &str, usize, usize)| wilson_interval(*c, *n);
            let overall = combine(&envs.iter().map(rate).collect::<Vec<_>>());
            let mut by_family: BTreeMap<String, Vec<Estimate>> = BTreeMap::new();
            for env in &envs {
                by_family
                    .entry(env.1.to_string())
                    .or_default()
                    .push(rate(env));
            }
            for family in by_family.keys() {
                if !families.contains(family) {
                    families.push(family.clone());
                }
            }
            AgentSummary {
                agent: agent.to_string(),
                overall,
                families: by_family
                    .into_iter()
                    .map(|(family, rates)| (family, combine(&rates)))
                    .collect(),
                games_rating: all_games.get(agent).copied(),
            }
        })
        .collect();
    agents.sort_by(|a, b| {
        b.overall
            .mean
            .total_cmp(&a.overall.mean)
            .then_with(|| a.agent.cmp(&b.agent))
    });
    families.sort_by_key(|f| family_rank(f));
    Summary {
        suite: suite.to_string(),
        suite_hash: suite_hash.to_string(),
        score: SCORE_RULE.to_string(),
        interval: INTERVAL_RULE.to_string(),
        families,
        agents,
        game_ratings: board
            .ratings
            .iter()
            .map(|g| GameRatingsSummary {
                env: g.env.clone(),
                ratings: elo_map(g),
            })
            .collect(),
        skipped: skipped.to_vec(),
    }
}

/// A score as the reports print it: a percentage with one decimal.
pub fn percent(value: f64) -> String {
    format!("{:.1}", 100.0 * value)
}

/// A score's interval as the reports print it.
pub fn interval(score: &Score) -> String {
    format!("{}-{}", percent(score.low), percent(score.high))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn estimate(c: usize, n: usize) -> Estimate {
        wilson_interval(c, n)
    }

    #[test]
    fn combining_one_env_keeps_its_wilson_interval() {
        let one = combine(&[estimate(30, 100)]);
        let wilson = estimate(30, 100);
        assert_eq!(
            (one.mean, one.low, one.high),
            (0.3, wilson.low, wilson.high)
        );
        assert_eq!(one.envs, 1);
    }

    #[test]
    fn combining_averages_and_narrows_and_stays_in_range() {
        let rates = [estimate(100, 100), estimate(0, 100)];
        let both = combine(&rates);
        assert_eq!(both.mean, 0.5);
        // Only the perfect env is uncertain below, only the null one above:
        // each distance is halved by the two envs.
        let below = (rates[0].mean - rates[0].low) / 2.0;
        let above = (rates[1].high - rates[1].mean) / 2.0;
        assert!((both.mean - both.low - below).abs() < 1e-12, "{both:?}");
        assert!((both.high - both.mean - above).abs() < 1e-12, "{both:?}");
        // Two equal envs: sqrt(2) d / 2, narrower than one env's d.
        let twice = combine(&[estimate(30, 100), estimate(30, 100)]);
        let d = 0.3 - estimate(30, 100).low;
        assert!(
            (0.3 - twice.low - d / 2f64.sqrt()).abs() < 1e-12,
            "{twice:?}"
        );
        let all = combine(&[estimate(50, 50), estimate(50, 50)]);
        assert_eq!(all.high, 1.0);
        assert!(all.low < 1.0 && all.low > 0.9, "{all:?}");
        let none = combine(&[estimate(0, 50)]);
        assert_eq!((none.mean, none.low), (0.0, 0.0));
        assert!(none.high > 0.0);
    }
}
