//! Number-theory and dynamic-programming families (all with a C reference).

use serde_json::json;
use verigym_sandbox::{CSignature, CType};

use super::family::{CPart, Family, Spec, int_arg, size};
use crate::rng::Rng;

fn c_int_part(name: &str, params: usize, prototype: &str, body: String) -> Option<CPart> {
    Some(CPart {
        signature: CSignature {
            name: name.into(),
            params: vec![CType::Int; params],
            ret: CType::Int,
        },
        prototype: prototype.into(),
        reference: format!("{prototype} {{\n{body}}}\n"),
    })
}

/// Sum of `d ** p` over the base-`b` digits of `n`.
pub const DIGIT_POWER_SUM: Family = Family {
    name: "digit_power_sum",
    topic: "number theory",
    draw: digit_power_sum,
    has_c: true,
};

fn digit_power_sum(level: u8, rng: &mut Rng) -> Spec {
    // From base 3: in base 2 every digit is 0 or 1, and the power would not matter.
    let base = rng.range_i64(3, 20);
    let power = rng.range_i64(1, 4) as u32;
    let max = [999, 1_000_000, 1_000_000_000_000][usize::from(level.clamp(1, 3)) - 1];
    let mut edges: Vec<serde_json::Value> = [
        0,
        1,
        base - 1,
        base,
        base + 1,
        base * base - 1,
        base * base,
        base * base + 1,
        max,
    ]
    .into_iter()
    .filter(|&n| n <= max)
    .map(|n| json!([n]))
    .collect();
    edges.dedup();
    Spec {
        entry: "digit_power_sum",
        signature: "digit_power_sum(n: int) -> int".into(),
        description: format!(
            "`n` is a non-negative integer. Write it in base {base} and return the sum of \
             `d ** {power}` over its digits `d` (0 has the single digit 0)."
        ),
        reference: format!(
            "def digit_power_sum(n):\n    total = 0\n    while True:\n        \
             total += (n % {base}) ** {power}\n        n //= {base}\n        \
             if n == 0:\n            return total\n"
        ),
        c: c_int_part(
            "digit_power_sum",
            1,
            "int64_t digit_power_sum(int64_t n)",
            format!(
                "    int64_t total = 0;\n    do {{\n        int64_t d = n % {base}, t = 1;\n        \
                 for (int i = 0; i < {power}; i++) t *= d;\n        total += t;\n        \
                 n /= {base};\n    }} while (n > 0);\n    return total;\n"
            ),
        ),
        args: Box::new(move |rng| json!([rng.range_i64(0, max)])),
        edges,
        solve: Box::new(move |args| {
            let mut n = int_arg(args, 0);
            let mut total = 0;
            loop {
                total += (n % base).pow(power);
                n /= base;
                if n == 0 {
                    return json!(total);
                }
            }
        }),
    }
}

/// Count (or sum, or sum the last digits of) primes `p` in `[lo, hi]` with `p % k == r`.
pub const COUNT_PRIMES: Family = Family {
    name: "count_primes",
    topic: "number theory",
    draw: count_primes,
    has_c: true,
};

fn is_prime(n: i64) -> bool {
    if n < 2 {
        return false;
    }
    let mut d = 2;
    while d * d <= n {
        if n % d == 0 {
            return false;
        }
        d += 1;
    }
    true
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn count_primes(level: u8, rng: &mut Rng) -> Spec {
    let k = rng.range_i64(3, 16);
    let mut r = rng.range_i64(1, k - 1);
    while gcd(r, k) != 1 {
        r = rng.range_i64(1, k - 1);
    }
    // What each prime adds: 1 (a count), itself (a sum), or its last digit.
    let mode = rng.below(3);
    let (what, py_term, c_term) = match mode {
        0 => ("how many prime numbers `p` satisfy", "1", "1"),
        1 => ("the sum of the prime numbers `p` that satisfy", "p", "p"),
        _ => (
            "the sum of the last decimal digits of the prime numbers `p` that satisfy",
            "p % 10",
            "p % 10",
        ),
    };
    let (span, top) =
        [(60, 300), (300, 20_000), (2_000, 1_000_000)][usize::from(level.clamp(1, 3)) - 1];
    Spec {
        entry: "count_primes",
        signature: "count_primes(lo: int, hi: int) -> int".into(),
        description: format!(
            "Return {what} `lo <= p <= hi` and `p % {k} == {r}`. \
             (`lo` may exceed `hi`; then the answer is 0.)"
        ),
        reference: format!(
            "def count_primes(lo, hi):\n    def is_prime(n):\n        if n < 2:\n            \
             return False\n        d = 2\n        while d * d <= n:\n            \
             if n % d == 0:\n                return False\n            d += 1\n        \
             return True\n    return sum({py_term} for p in range(lo, hi + 1) if p % {k} == {r} and is_prime(p))\n"
        ),
        c: c_int_part(
            "count_primes",
            2,
            "int64_t count_primes(int64_t lo, int64_t hi)",
            format!(
                "    int64_t count = 0;\n    for (int64_t p = lo < 2 ? 2 : lo; p <= hi; p++) {{\n        \
                 if (p % {k} != {r}) continue;\n        bool prime = true;\n        \
                 for (int64_t d = 2; d * d <= p; d++) if (p % d == 0) {{ prime = false; break; }}\n        \
                 if (prime) count += {c_term};\n    }}\n    return count;\n"
            ),
        ),
        args: Box::new(move |rng| {
            let lo = rng.range_i64(-5, top);
            json!([lo, lo + rng.range_i64(-2, span)])
        }),
        edges: prime_edges(k, r),
        solve: Box::new(move |args| {
            let (lo, hi) = (int_arg(args, 0), int_arg(args, 1));
            let primes = (lo..=hi).filter(|&p| p.rem_euclid(k) == r && is_prime(p));
            json!(match mode {
                0 => primes.count() as i64,
                1 => primes.sum::<i64>(),
                _ => primes.map(|p| p % 10).sum::<i64>(),
            })
        }),
    }
}

/// Ranges that start, end, or just miss primes of the residue class, the smallest numbers
/// (0, 1, 2 and the negatives), the squares of primes in the class, and empty ranges.
fn prime_edges(k: i64, r: i64) -> Vec<serde_json::Value> {
    let in_class = |p: &i64| p.rem_euclid(k) == r && is_prime(*p);
    let primes: Vec<i64> = (2..400).filter(in_class).take(4).collect();
    let mut cases = vec![
        json!([-5, 2]),
        json!([0, 1]),
        json!([1, 1]),
        json!([2, 2]),
        json!([3, 3]),
        json!([-5, 140]),
        json!([10, 9]),
    ];
    for &p in &primes {
        cases.extend([
            json!([p, p]),
            json!([p - 4, p - 1]),
            json!([p + 1, p + 4]),
            json!([p, p - 1]),
        ]);
    }
    // A prime's square in the class: trial division must test the square root itself.
    if let Some(q) = (2..1000)
        .filter(|&q| is_prime(q))
        .find(|q| (q * q) % k == r)
    {
        cases.push(json!([q * q, q * q]));
    }
    cases
}

/// Ordered ways to climb `n` steps with the given step sizes, modulo `m`.
pub const COUNT_CLIMBS: Family = Family {
    name: "count_climbs",
    topic: "dynamic programming",
    draw: count_climbs,
    has_c: true,
};

fn count_climbs(level: u8, rng: &mut Rng) -> Spec {
    let mut steps: Vec<i64> = (1..=8).collect();
    rng.shuffle(&mut steps);
    steps.truncate(rng.range_usize(2, 3));
    steps.sort_unstable();
    let modulus = *rng
        .choose(&[997, 1009, 10_007, 65_521, 1_000_000_007])
        .unwrap_or(&997);
    let max_n = size(level, [25, 60, 400]) as i64;
    let list = format!("{steps:?}");
    let c_list = list.trim_matches(['[', ']']).to_string();
    let count = steps.len();
    Spec {
        entry: "count_climbs",
        signature: "count_climbs(n: int) -> int".into(),
        description: format!(
            "A staircase has `n` steps (n >= 0). Each move climbs a number of steps from \
             {list}. Return the number of different ordered sequences of moves that end \
             exactly on step `n`, modulo {modulus}. (For n = 0 there is one: the empty sequence.)"
        ),
        reference: format!(
            "def count_climbs(n):\n    ways = [1] + [0] * n\n    for i in range(1, n + 1):\n        \
             ways[i] = sum(ways[i - s] for s in {list} if s <= i) % {modulus}\n    return ways[n]\n"
        ),
        c: c_int_part(
            "count_climbs",
            1,
            "int64_t count_climbs(int64_t n)",
            format!(
                "    static int64_t ways[100000];\n    const int64_t steps[] = {{{c_list}}};\n    \
                 ways[0] = 1;\n    for (int64_t i = 1; i <= n; i++) {{\n        ways[i] = 0;\n        \
                 for (int j = 0; j < {count}; j++)\n            \
                 if (steps[j] <= i) ways[i] = (ways[i] + ways[i - steps[j]]) % {modulus};\n    }}\n    \
                 return ways[n];\n"
            ),
        ),
        args: Box::new(move |rng| json!([rng.range_i64(0, max_n)])),
        edges: small_and_largest(&steps, max_n),
        solve: Box::new(move |args| {
            let n = int_arg(args, 0).max(0) as usize;
            let mut ways = vec![0i64; n + 1];
            ways[0] = 1;
            for i in 1..=n {
                ways[i] = steps
                    .iter()
                    .filter(|&&s| s as usize <= i)
                    .map(|&s| ways[i - s as usize])
                    .sum::<i64>()
                    % modulus;
            }
            json!(ways[n])
        }),
    }
}

/// Every argument up to the largest part plus two, and the largest arguments: the small
/// cases where parts just fit or just miss, and the large ones where a modulus bites.
pub(super) fn small_and_largest(parts: &[i64], max: i64) -> Vec<serde_json::Value> {
    let top = parts.iter().max().copied().unwrap_or(1) + 2;
    (0..=top.min(max))
        .chain((max - 2).max(top + 1)..=max)
        .map(|n| json!([n]))
        .collect()
}

/// Fewest coins summing to an amount, or -1.
pub const MIN_COINS: Family = Family {
    name: "min_coins",
    topic: "dynamic programming",
    draw: min_coins,
    has_c: true,
};

/// The largest amount min_coins draws, per level.
pub(super) const MIN_COINS_MAX: [usize; 3] = [30, 120, 2_000];

fn min_coins(level: u8, rng: &mut Rng) -> Spec {
    let mut coins: Vec<i64> = Vec::new();
    let want = rng.range_usize(2, 4);
    while coins.len() < want {
        let c = rng.range_i64(2, 25);
        if !coins.contains(&c) {
            coins.push(c);
        }
    }
    coins.sort_unstable();
    let max_amount = size(level, MIN_COINS_MAX) as i64;
    let list = format!("{coins:?}");
    let c_list = list.trim_matches(['[', ']']).to_string();
    let count = coins.len();
    Spec {
        entry: "min_coins",
        signature: "min_coins(amount: int) -> int".into(),
        description: format!(
            "Coins come in the values {list}, with an unlimited supply of each. Return the \
             fewest coins whose values sum exactly to `amount` (amount >= 0; 0 needs no coins), \
             or -1 when no combination does."
        ),
        reference: format!(
            "def min_coins(amount):\n    INF = float('inf')\n    best = [0] + [INF] * amount\n    \
             for a in range(1, amount + 1):\n        for c in {list}:\n            \
             if c <= a and best[a - c] + 1 < best[a]:\n                best[a] = best[a - c] + 1\n    \
             return -1 if best[amount] == INF else best[amount]\n"
        ),
        c: c_int_part(
            "min_coins",
            1,
            "int64_t min_coins(int64_t amount)",
            format!(
                "    static int64_t best[100000];\n    const int64_t coins[] = {{{c_list}}};\n    \
                 best[0] = 0;\n    for (int64_t a = 1; a <= amount; a++) {{\n        best[a] = -1;\n        \
                 for (int j = 0; j < {count}; j++) {{\n            int64_t c = coins[j];\n            \
                 if (c <= a && best[a - c] >= 0 && (best[a] < 0 || best[a - c] + 1 < best[a]))\n                \
                 best[a] = best[a - c] + 1;\n        }}\n    }}\n    return best[amount];\n"
            ),
        ),
        args: Box::new(move |rng| json!([rng.range_i64(0, max_amount)])),
        edges: coin_edges(&coins, max_amount),
        solve: Box::new(move |args| {
            let amount = int_arg(args, 0).max(0) as usize;
            json!(fewest_coins(&coins, amount)[amount].unwrap_or(-1))
        }),
    }
}

/// The fewest coins for every amount up to `max` (`None`: unreachable).
pub(super) fn fewest_coins(coins: &[i64], max: usize) -> Vec<Option<i64>> {
    let mut best: Vec<Option<i64>> = vec![None; max + 1];
    best[0] = Some(0);
    for a in 1..=max {
        best[a] = coins
            .iter()
            .filter(|&&c| c as usize <= a)
            .filter_map(|&c| best[a - c as usize].map(|b| b + 1))
            .min();
    }
    best
}

/// How far above the fewest count a coin's choice is still told apart in [`coin_edges`].
const CHOICE_GAP_CAP: i64 = 3;

/// The small and largest amounts ([`small_and_largest`]), and the first amount at which
/// each *choice pattern* occurs: per coin (in the listed order), whether it fits, whether
/// the rest is reachable, and how many coins more than the fewest taking it last costs
/// (0 when it is an optimal last coin, up to [`CHOICE_GAP_CAP`]).
///
/// Why: a DP whose update rule is slightly wrong (ties taken, an improvement by one
/// missed, the largest or the first fitting coin trusted, a cell off by one read) decides
/// each amount from the choices it sees there, and agrees with the fewest counts below
/// its first mistake; so it first goes wrong at an amount whose pattern is new. These are
/// the amounts where two coins tie, where a later coin improves the count by exactly one,
/// and where the greedy (largest) coin is not optimal. Deterministic; at most a few dozen
/// amounts (the patterns of at most 4 coins that a range holds), all within `0..=max`.
fn coin_edges(coins: &[i64], max: i64) -> Vec<serde_json::Value> {
    let best = fewest_coins(coins, max.max(0) as usize);
    let mut amounts: std::collections::BTreeSet<i64> = small_and_largest(coins, max)
        .iter()
        .map(|n| n[0].as_i64().unwrap_or_default())
        .collect();
    let mut seen = std::collections::HashSet::new();
    for (a, fewest) in best.iter().enumerate() {
        let pattern: Vec<i64> = coins
            .iter()
            .map(|&c| match (a.checked_sub(c as usize), fewest) {
                (None, _) => -2,
                (Some(rest), Some(fewest)) => {
                    best[rest].map_or(-1, |b| (b + 1 - fewest).min(CHOICE_GAP_CAP))
                }
                (Some(_), None) => -1,
            })
            .collect();
        if seen.insert(pattern) {
            amounts.insert(a as i64);
        }
    }
    amounts.into_iter().map(|n| json!([n])).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use verigym_sandbox::TestCase;

    use super::super::mutation::{TRIAL_LEVELS, TRIAL_SEED};
    use super::super::{build_task_and_spec, family};
    use crate::rng::Rng;

    /// The fewest-coins table up to `max` (-1: unreachable) as the min_coins mutant
    /// `variant` (a fragment of its mutated line; `ref` for none) computes it: `python`
    /// runs the Python loop from `start` with a float infinity for unreachable, else the C
    /// loop from 1 in a fresh instance (a zeroed static array: a cell above `a` reads 0).
    // The mutated conditions are mirrored as written, `x + 1 <= y` included.
    #[allow(clippy::int_plus_one)]
    fn coins_table(
        coins: &[usize],
        max: usize,
        python: bool,
        start: usize,
        variant: &str,
    ) -> Vec<i64> {
        if python {
            let mut best = vec![f64::INFINITY; max + 1];
            best[0] = 0.0;
            for a in start..=max {
                for &c in coins {
                    if c > a {
                        continue;
                    }
                    let (x, y) = (best[a - c], best[a]);
                    let update = match variant {
                        "- 1 <" => x - 1.0 < y,
                        "+ 2 <" => x + 2.0 < y,
                        "+ 0 <" => x < y,
                        "+ 1 <=" => x + 1.0 <= y,
                        _ => x + 1.0 < y,
                    };
                    if update {
                        best[a] = x + 1.0;
                    }
                }
            }
            return best
                .iter()
                .map(|&b| if b.is_finite() { b as i64 } else { -1 })
                .collect();
        }
        let mut best = vec![0i64; max + coins.iter().max().unwrap_or(&0) + 2];
        best[usize::from(variant == "best[1] = 0")] = 0;
        for a in 1..=max {
            best[a] = -1;
            for &c in coins {
                if c > a || best[a - c] < 0 {
                    continue;
                }
                let x = if variant == "best[a + c]" {
                    best[a + c]
                } else {
                    best[a - c]
                };
                let y = best[a];
                let update = match variant {
                    "best[a] <= 0" => y <= 0 || x + 1 < y,
                    "best[a] < 1" => y < 1 || x + 1 < y,
                    "- 1 <" => y < 0 || x - 1 < y,
                    "+ 2 <" => y < 0 || x + 2 < y,
                    "+ 0 <" => y < 0 || x < y,
                    "+ 1 <=" => y < 0 || x + 1 <= y,
                    _ => y < 0 || x + 1 < y,
                };
                if update {
                    best[a] = best[a - c] + 1;
                }
            }
        }
        best.truncate(max + 1);
        best
    }

    /// The reviewed min_coins mutants on the trial's tasks: each either fails one of the
    /// task's hidden tests or agrees with the Rust mirror on every amount the task can
    /// draw (up to its largest edge), which is what their
    /// [`EQUIVALENT`](super::super::mutation::EQUIVALENT) reasons claim.
    #[test]
    fn reviewed_min_coins_mutants_fail_or_agree_on_every_amount() {
        let family = family("min_coins").unwrap();
        let python = [
            (0, "ref"),
            (2, "ref"),
            (1, "- 1 <"),
            (1, "+ 2 <"),
            (1, "+ 0 <"),
            (1, "+ 1 <="),
        ];
        let c = [
            "best[1] = 0",
            "best[a] <= 0",
            "best[a] < 1",
            "best[a + c]",
            "- 1 <",
            "+ 2 <",
            "+ 0 <",
            "+ 1 <=",
        ];
        let mut agreeing = 0;
        for (level, hidden) in TRIAL_LEVELS {
            let mut rng = Rng::from_seed(TRIAL_SEED + u64::from(level));
            let (task, spec) = build_task_and_spec(family, level, 3, hidden, &mut rng);
            let list = task
                .description
                .split('[')
                .nth(1)
                .and_then(|s| s.split(']').next())
                .unwrap();
            let coins: Vec<usize> = serde_json::from_str(&format!("[{list}]")).unwrap();
            let amount = |t: &TestCase| t.args[0].as_u64().unwrap() as usize;
            let max = task.tests.iter().map(amount).max().unwrap();
            let want: Vec<i64> = (0..=max)
                .map(|a| (spec.solve)(&json!([a])).as_i64().unwrap())
                .collect();
            assert_eq!(coins_table(&coins, max, true, 1, "ref"), want, "{coins:?}");
            assert_eq!(coins_table(&coins, max, false, 1, "ref"), want, "{coins:?}");
            let variants = python
                .iter()
                .map(|&(start, v)| (true, start, v))
                .chain(c.iter().map(|&v| (false, 1, v)));
            for (is_python, start, variant) in variants {
                let got = coins_table(&coins, max, is_python, start, variant);
                let killed = task
                    .tests
                    .iter()
                    .any(|t| json!(got[amount(t)]) != t.expected);
                if !killed {
                    let differ: Vec<usize> = (0..=max).filter(|&a| got[a] != want[a]).collect();
                    assert!(
                        differ.is_empty(),
                        "level {level}, coins {coins:?}: the mutant `{variant}` (Python: \
                         {is_python}) passes the hidden tests but differs at {differ:?}"
                    );
                    agreeing += 1;
                }
            }
        }
        // The mutants the trials list as equivalent: 6 + 8 at level 1, 5 + 7 at level 2, 6 + 8
        // at level 3 (`+ 2 <` is killed at level 2).
        assert_eq!(agreeing, 40);
    }
}
