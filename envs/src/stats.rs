//! 95% intervals: of a pass rate (Wilson) and of a mean (normal
//! approximation). The audit flags a probe by its pass rate's interval; the
//! leaderboards report both.

use serde::Serialize;

/// A mean with a 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
