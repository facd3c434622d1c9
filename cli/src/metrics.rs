//! Leaderboard statistics: pass@k and Bradley–Terry ratings (the 95%
//! intervals of pass rates and means are [`verigym_envs::stats`], shared with
//! the audit).

use serde::Serialize;
use verigym_envs::stats::Z95;

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
