//! Leaderboard statistics: pass@k, intervals, and Bradley–Terry ratings.

use serde::Serialize;

/// Unbiased pass@k from `n` samples of which `c` passed (Chen et al. 2021):
/// `1 - C(n-c, k) / C(n, k)`, computed as a stable product.
///
/// # Panics
/// If `k == 0`, `k > n` or `c > n`.
pub fn pass_at_k(n: usize, c: usize, k: usize) -> f64 {
    assert!(k >= 1 && k <= n && c <= n, "pass_at_k(n={n}, c={c}, k={k})");
    if n - c < k {
        return 1.0;
    }
    let fail_all: f64 = ((n - c + 1)..=n)
        .map(|i| 1.0 - k as f64 / i as f64)
        .product();
    1.0 - fail_all
}

/// A mean with a 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

const Z95: f64 = 1.959_963_984_540_054;

/// Mean of `values` with a normal-approximation 95% interval (sample
/// standard deviation); a single value gets a zero-width interval.
pub fn mean_interval(values: &[f64]) -> Estimate {
    let n = values.len();
    if n == 0 {
        return Estimate {
            mean: 0.0,
            low: 0.0,
            high: 0.0,
        };
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return Estimate {
            mean,
            low: mean,
            high: mean,
        };
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = Z95 * (variance / n as f64).sqrt();
    Estimate {
        mean,
        low: mean - half,
        high: mean + half,
    }
}

/// A proportion with its Wilson 95% interval, which stays inside [0, 1] and
/// behaves at 0% and 100%.
pub fn wilson_interval(successes: usize, trials: usize) -> Estimate {
    if trials == 0 {
        return Estimate {
            mean: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    Estimate {
        mean: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// One pairwise result: `score` is 1 for a win of `a`, 0.5 a draw, 0 a loss.
#[derive(Clone, Copy, Debug)]
pub struct Game {
    pub a: usize,
    pub b: usize,
    pub score: f64,
}

/// Elo-scale Bradley–Terry ratings with 95% intervals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    pub player: usize,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

const ELO_SCALE: f64 = 400.0 / std::f64::consts::LN_10;
/// A weak prior (one draw against a virtual average player each) keeps
/// ratings finite when someone wins every game.
const PRIOR_GAMES: f64 = 1.0;

/// Fits Bradley–Terry strengths by minorise–maximise iterations (draws
/// count as half a win each way), centred so the mean rating is 0, with
/// intervals from the observed Fisher information of each player.
pub fn bradley_terry(players: usize, games: &[Game]) -> Vec<Rating> {
    let mut strength = vec![1.0f64; players];
    let mut wins = vec![PRIOR_GAMES * 0.5; players];
    for g in games {
        wins[g.a] += g.score;
        wins[g.b] += 1.0 - g.score;
    }
    for _ in 0..10_000 {
        let mut next = vec![0.0; players];
        let mut change = 0.0f64;
        for i in 0..players {
            // The prior game is against a virtual player of strength 1.
            let mut denominator = PRIOR_GAMES / (strength[i] + 1.0);
            for g in games.iter().filter(|g| g.a == i || g.b == i) {
                denominator += 1.0 / (strength[g.a] + strength[g.b]);
            }
            next[i] = wins[i] / denominator;
        }
        let log_mean = next.iter().map(|s| s.ln()).sum::<f64>() / players as f64;
        for (i, s) in next.iter_mut().enumerate() {
            *s = (s.ln() - log_mean).exp();
            change = change.max((s.ln() - strength[i].ln()).abs());
        }
        strength = next;
        if change < 1e-10 {
            break;
        }
    }
    (0..players)
        .map(|i| {
            let mut information = PRIOR_GAMES * strength[i] / (strength[i] + 1.0).powi(2);
            for g in games.iter().filter(|g| g.a == i || g.b == i) {
                let (si, sj) = (strength[g.a], strength[g.b]);
                information += si * sj / (si + sj).powi(2);
            }
            let elo = ELO_SCALE * strength[i].ln();
            let half = Z95 * ELO_SCALE / information.sqrt();
            Rating {
                player: i,
                elo,
                low: elo - half,
                high: elo + half,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_at_k_matches_the_combinatorial_definition() {
        fn choose(n: u64, k: u64) -> f64 {
            if k > n {
                return 0.0;
            }
            (0..k).map(|i| (n - i) as f64 / (i + 1) as f64).product()
        }
        for (n, c, k) in [(10, 3, 1), (10, 3, 5), (20, 0, 4), (7, 7, 3), (100, 1, 10)] {
            let exact = 1.0 - choose((n - c) as u64, k as u64) / choose(n as u64, k as u64);
            assert!((pass_at_k(n, c, k) - exact).abs() < 1e-12, "{n} {c} {k}");
        }
        assert!((pass_at_k(5, 2, 1) - 0.4).abs() < 1e-12);
        assert_eq!(pass_at_k(5, 4, 2), 1.0);
    }

    #[test]
    fn intervals_cover_the_mean_and_shrink_with_more_data() {
        let small = mean_interval(&[0.0, 1.0, 1.0, 0.0]);
        let large = mean_interval(&[0.0, 1.0, 1.0, 0.0].repeat(100));
        assert_eq!(small.mean, 0.5);
        assert!(small.low < 0.5 && small.high > 0.5);
        assert!(large.high - large.low < small.high - small.low);
        let all = wilson_interval(20, 20);
        assert_eq!(all.high, 1.0);
        assert!(all.low > 0.8 && all.low < 1.0);
        let none = wilson_interval(0, 20);
        assert_eq!(none.low, 0.0);
        assert!(none.high > 0.0);
    }

    #[test]
    fn bradley_terry_recovers_the_order_and_the_elo_gap() {
        // Player 1 beats player 0 three times in four: a 190-point gap.
        let mut games = Vec::new();
        for i in 0..4000 {
            games.push(Game {
                a: 1,
                b: 0,
                score: if i % 4 == 0 { 0.0 } else { 1.0 },
            });
        }
        let ratings = bradley_terry(2, &games);
        let gap = ratings[1].elo - ratings[0].elo;
        let expected = ELO_SCALE * 3f64.ln();
        assert!((gap - expected).abs() < 5.0, "gap {gap} vs {expected}");
        assert!(ratings[1].low > ratings[0].high);
    }

    #[test]
    fn an_unbeaten_player_gets_a_finite_rating_and_draws_are_even() {
        let games: Vec<Game> = (0..50)
            .map(|_| Game {
                a: 0,
                b: 1,
                score: 1.0,
            })
            .collect();
        let ratings = bradley_terry(2, &games);
        assert!(ratings[0].elo.is_finite() && ratings[0].elo > ratings[1].elo);
        let draws: Vec<Game> = (0..50)
            .map(|_| Game {
                a: 0,
                b: 1,
                score: 0.5,
            })
            .collect();
        let even = bradley_terry(2, &draws);
        assert!((even[0].elo - even[1].elo).abs() < 1e-6);
    }
}
