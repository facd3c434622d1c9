//! List families: filter-and-map, sorting by a key, counting in a sorted window.

use serde_json::{Value, json};
use verigym_sandbox::{CSignature, CType};

use super::family::{CPart, Family, Spec, int_arg, int_list, list_arg, size};
use crate::rng::Rng;

/// Keep `x` with `x % k == r`, map to `x * m + a`.
pub const AFFINE_FILTER: Family = Family {
    name: "affine_filter",
    topic: "list",
    draw: affine_filter,
    has_c: false,
};

fn affine_filter(level: u8, rng: &mut Rng) -> Spec {
    let k = rng.range_i64(2, 5);
    let r = rng.range_i64(0, k - 1);
    let m = *rng.choose(&[-3, -2, -1, 2, 3, 4]).unwrap_or(&2);
    let a = rng.range_i64(-9, 9);
    let n = size(level, [6, 15, 40]);
    Spec {
        entry: "transform",
        signature: "transform(xs: list[int]) -> list[int]".into(),
        description: format!(
            "Return a new list holding, in order, `x * {m} + ({a})` for every element `x` of `xs` \
             whose remainder modulo {k} is {r} (the non-negative remainder, as Python's `%`)."
        ),
        reference: format!(
            "def transform(xs):\n    return [x * {m} + ({a}) for x in xs if x % {k} == {r}]\n"
        ),
        c: None,
        args: Box::new(move |rng| json!([int_list(rng, n, -50, 50)])),
        // Every residue, negative and positive, and one element of each kind alone.
        edges: vec![
            json!([[]]),
            json!([(-2 * k - 1..=2 * k + 1).collect::<Vec<i64>>()]),
            json!([[r]]),
            json!([[r - k, r + 1]]),
        ],
        solve: Box::new(move |args| {
            let out: Vec<i64> = list_arg(args, 0)
                .into_iter()
                .filter(|x| x.rem_euclid(k) == r)
                .map(|x| x * m + a)
                .collect();
            json!(out)
        }),
    }
}

/// Sort by `(key(x) % k) * sign`, ties by `x` ascending or descending.
pub const SORT_BY_KEY: Family = Family {
    name: "sort_by_key",
    topic: "sorting",
    draw: sort_by_key,
    has_c: false,
};

fn sort_by_key(level: u8, rng: &mut Rng) -> Spec {
    let k = rng.range_i64(2, 12);
    let use_abs = rng.chance(0.5);
    let rem_desc = rng.chance(0.5);
    let tie_desc = rng.chance(0.5);
    let n = size(level, [6, 20, 60]);
    let subject = if use_abs { "abs(x)" } else { "x" };
    let order = |desc: bool| if desc { "descending" } else { "ascending" };
    let primary = format!("{}({subject} % {k})", if rem_desc { "-" } else { "" });
    let secondary = if tie_desc { "-x" } else { "x" };
    Spec {
        entry: "sort_items",
        signature: "sort_items(xs: list[int]) -> list[int]".into(),
        description: format!(
            "Return the elements of `xs` sorted by the remainder of `{subject}` modulo {k} \
             (Python's `%`) in {} order, and elements with equal remainders by their value \
             in {} order.",
            order(rem_desc),
            order(tie_desc)
        ),
        reference: format!(
            "def sort_items(xs):\n    return sorted(xs, key=lambda x: ({primary}, {secondary}))\n"
        ),
        c: None,
        args: Box::new(move |rng| json!([int_list(rng, n, -60, 60)])),
        // Every remainder of both signs, in falling order, and ties on the remainder.
        edges: vec![
            json!([[]]),
            json!([(-2 * k - 2..=2 * k + 2).rev().collect::<Vec<i64>>()]),
            json!([[k, 0, 2 * k, -k, k, 1, k + 1, -1, 1 - k]]),
        ],
        solve: Box::new(move |args| {
            let mut xs = list_arg(args, 0);
            xs.sort_by_key(|&x| {
                let rem = if use_abs { x.abs() } else { x }.rem_euclid(k);
                (
                    if rem_desc { -rem } else { rem },
                    if tie_desc { -x } else { x },
                )
            });
            json!(xs)
        }),
    }
}

/// In a sorted list, count the elements within `[target - lo, target + hi]`.
pub const SEARCH_WINDOW: Family = Family {
    name: "search_window",
    topic: "searching",
    draw: search_window,
    has_c: true,
};

fn search_window(level: u8, rng: &mut Rng) -> Spec {
    let lo = rng.range_i64(0, 12);
    let hi = rng.range_i64(0, 12);
    let n = size(level, [8, 30, 300]);
    let range = 10 * n as i64;
    Spec {
        entry: "count_window",
        signature: "count_window(xs: list[int], target: int) -> int".into(),
        description: format!(
            "`xs` is sorted in ascending order (it may repeat values). Return how many elements \
             `v` of `xs` satisfy `target - {lo} <= v <= target + {hi}`."
        ),
        reference: format!(
            "import bisect\n\ndef count_window(xs, target):\n    \
             return bisect.bisect_right(xs, {}) - bisect.bisect_left(xs, {})\n",
            offset("target", '+', hi),
            offset("target", '-', lo)
        ),
        c: Some(CPart {
            signature: CSignature {
                name: "count_window".into(),
                params: vec![CType::IntList, CType::Int],
                ret: CType::Int,
            },
            prototype: "int64_t count_window(const int64_t *xs, size_t n, int64_t target)".into(),
            reference: format!(
                "int64_t count_window(const int64_t *xs, size_t n, int64_t target) {{\n    \
                 int64_t count = 0;\n    for (size_t i = 0; i < n; i++)\n        \
                 if (xs[i] >= {} && xs[i] <= {}) count++;\n    \
                 return count;\n}}\n",
                offset("target", '-', lo),
                offset("target", '+', hi)
            ),
        }),
        args: Box::new(move |rng| {
            let mut xs = int_list(rng, n, -range, range);
            let target = match xs.as_slice() {
                [] => rng.range_i64(-range, range),
                _ if rng.chance(0.7) => {
                    xs[rng.below(xs.len() as u64) as usize] + rng.range_i64(-3, 3)
                }
                _ => rng.range_i64(-range, range),
            };
            // Half the lists get values on and just outside both window edges.
            if rng.chance(0.5) {
                for edge in [target - lo - 1, target - lo, target + hi, target + hi + 1] {
                    for _ in 0..rng.range_usize(0, 2) {
                        xs.push(edge);
                    }
                }
            }
            xs.sort_unstable();
            json!([xs, target])
        }),
        edges: window_edges(lo, hi),
        solve: Box::new(move |args: &Value| {
            let target = int_arg(args, 1);
            let count = list_arg(args, 0)
                .iter()
                .filter(|&&v| v >= target - lo && v <= target + hi)
                .count();
            json!(count as i64)
        }),
    }
}

/// `name ± by`, or `name` alone when `by` is 0 (`x - 0` ↔ `x + 0` is no mistake).
fn offset(name: &str, sign: char, by: i64) -> String {
    if by == 0 {
        name.to_string()
    } else {
        format!("{name} {sign} {by}")
    }
}

/// Windows `[t - lo, t + hi]` with values on, and one and two past, each edge (repeated),
/// a window holding only an edge value, and empty or all-outside lists.
fn window_edges(lo: i64, hi: i64) -> Vec<Value> {
    let mut cases = Vec::new();
    for t in [-7, 0, 5] {
        let (a, b) = (t - lo, t + hi);
        cases.push(json!([[a - 2, a - 1, a, a, t, b, b, b + 1, b + 2], t]));
        for only in [a - 1, a, b, b + 1] {
            cases.push(json!([[only], t]));
        }
    }
    cases.push(json!([[], 3]));
    cases.push(json!([[-50, -40, 40, 50], 0]));
    cases
}
