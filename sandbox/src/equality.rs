//! How a call-based test's returned value is compared with the expected one: type-exactly
//! (the default, and every generated task's rule), or as Python's `==` compares them, for
//! imported rows whose data set's own tests compare with `==`.
//!
//! | policy | numbers | tuples and lists |
//! |---|---|---|
//! | `exact` | `1` ≠ `1.0` ≠ `True` | a tuple never equals a list |
//! | `python` (MBPP, HumanEval: `assert f(x) == y`) | by value: `1 == 1.0 == True` | a tuple never equals a list, as in Python |
//! | `python_json` (APPS, TACO, LiveCodeBench: expected values are JSON) | by value | a tuple equals the list of its items (JSON has no tuples; those data sets' judges turn a returned tuple into a list) |
//!
//! In every policy floats compare within the row's tolerance (`float_tol`, relative, and
//! absolute near zero), `nan` equals `nan` (a returned `nan` where `nan` is expected is
//! the intended answer), strings, `None` and dict keys compare exactly by value.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The comparison rule of a call-based test set (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Equality {
    /// Type-exact: `1` ≠ `1.0` ≠ `True`, a tuple never equals a list.
    #[default]
    Exact,
    /// Python's `==`: numbers by value across bool, int and float; tuples ≠ lists.
    Python,
    /// Python's `==` with tuples read as lists, for expected values that come from JSON.
    PythonJson,
}

impl Equality {
    /// True for the default, so cards that do not name a policy keep their meaning.
    pub fn is_exact(&self) -> bool {
        matches!(self, Equality::Exact)
    }
}

/// Whether `got` passes for `expected` under `equality` (values in the tagged wire
/// encoding of the `python` module).
pub fn compare_values(expected: &Value, got: &Value, float_tol: f64, equality: Equality) -> bool {
    match equality {
        Equality::Exact => compare_outputs(expected, got, float_tol),
        Equality::Python => python_eq(expected, got, float_tol, false),
        Equality::PythonJson => python_eq(expected, got, float_tol, true),
    }
}

/// A number as Python sees it: an integer (bools included) by its decimal digits, or a
/// float.
enum Num {
    Int(String),
    Float(f64),
}

fn number(v: &Value) -> Option<Num> {
    Some(match v {
        Value::Bool(b) => Num::Int(if *b { "1" } else { "0" }.into()),
        Value::Number(n) if n.is_f64() => Num::Float(n.as_f64()?),
        Value::Number(n) => Num::Int(n.to_string()),
        Value::Object(m) if m.len() == 1 => match m.iter().next()? {
            (k, Value::String(s)) if k == "$int" => Num::Int(s.clone()),
            (k, Value::String(s)) if k == "$float" => Num::Float(match s.as_str() {
                "nan" => f64::NAN,
                "inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                _ => return None,
            }),
            _ => return None,
        },
        _ => return None,
    })
}

fn numbers_equal(a: &Num, b: &Num, float_tol: f64) -> bool {
    // Integers compare exactly (Python's ints are unbounded); an int against a float by
    // the float's rule, as Python converts the int.
    let as_f64 = |n: &Num| match n {
        Num::Int(s) => s.parse::<f64>().unwrap_or(f64::NAN),
        Num::Float(x) => *x,
    };
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x == y,
        _ => {
            let (x, y) = (as_f64(a), as_f64(b));
            (x.is_nan() && y.is_nan()) || floats_close(x, y, float_tol)
        }
    }
}

/// The items of a list, or of a tuple where tuples read as lists.
fn sequence(v: &Value, tuples_as_lists: bool) -> Option<(&Vec<Value>, bool)> {
    match v {
        Value::Array(items) => Some((items, false)),
        Value::Object(m) if m.len() == 1 => match m.get("$tuple") {
            Some(Value::Array(items)) => Some((items, !tuples_as_lists)),
            _ => None,
        },
        _ => None,
    }
}

/// The `(key, value)` pairs of a dict, str-keyed (a JSON object) or tagged `$dict`.
fn dict_pairs(v: &Value) -> Option<Vec<(Value, &Value)>> {
    let Value::Object(m) = v else { return None };
    if m.len() == 1
        && let Some(Value::Array(pairs)) = m.get("$dict")
    {
        return pairs
            .iter()
            .map(|kv| match kv {
                Value::Array(kv) if kv.len() == 2 => Some((kv[0].clone(), &kv[1])),
                _ => None,
            })
            .collect();
    }
    if m.len() == 1
        && (m.contains_key("$tuple") || m.contains_key("$int") || m.contains_key("$float"))
    {
        return None;
    }
    Some(
        m.iter()
            .map(|(k, x)| (Value::String(k.clone()), x))
            .collect(),
    )
}

fn python_eq(expected: &Value, got: &Value, tol: f64, tuples_as_lists: bool) -> bool {
    if let (Some(a), Some(b)) = (number(expected), number(got)) {
        return numbers_equal(&a, &b, tol);
    }
    match (expected, got) {
        (Value::Null, Value::Null) => return true,
        (Value::String(a), Value::String(b)) => return a == b,
        _ => {}
    }
    if let (Some((a, a_tuple)), Some((b, b_tuple))) = (
        sequence(expected, tuples_as_lists),
        sequence(got, tuples_as_lists),
    ) {
        return a_tuple == b_tuple
            && a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| python_eq(x, y, tol, tuples_as_lists));
    }
    if let (Some(a), Some(b)) = (dict_pairs(expected), dict_pairs(got)) {
        // Keys by value (Python: {1: x} == {1.0: x} == {True: x}), each expected pair
        // matching a distinct returned one.
        if a.len() != b.len() {
            return false;
        }
        let mut used = vec![false; b.len()];
        return a.iter().all(|(ka, va)| {
            let hit = b.iter().enumerate().position(|(i, (kb, vb))| {
                !used[i]
                    && python_eq(ka, kb, 0.0, tuples_as_lists)
                    && python_eq(va, vb, tol, tuples_as_lists)
            });
            hit.map(|i| used[i] = true).is_some()
        });
    }
    false
}

/// Type-exact comparison of two values in the tagged wire encoding.
///
/// * integers equal integers only (`1` ≠ `1.0` ≠ `true`); big integers are `{"$int": "…"}`;
/// * floats equal floats when `|a − b| ≤ float_tol · max(1, |a|, |b|)` (so `float_tol` is
///   absolute near zero and relative elsewhere; `0.0` means exact); `{"$float": "nan"}`
///   equals itself and the infinities equal themselves;
/// * strings, bools and null compare exactly; arrays element-wise with equal length;
///   tuples (`{"$tuple": […]}`) never equal lists; objects need the same key set;
///   dicts with non-str keys (`{"$dict": [[k, v], …]}`) compare as unordered pairs.
pub fn compare_outputs(expected: &Value, got: &Value, float_tol: f64) -> bool {
    match (expected, got) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Number(a), Value::Number(b)) => match (a.is_f64(), b.is_f64()) {
            (false, false) => a == b,
            (true, true) => match (a.as_f64(), b.as_f64()) {
                (Some(x), Some(y)) => floats_close(x, y, float_tol),
                _ => false,
            },
            _ => false,
        },
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| compare_outputs(x, y, float_tol))
        }
        (Value::Object(a), Value::Object(b)) if a.len() == 1 && b.len() == 1 => {
            match (tagged_dict(a), tagged_dict(b)) {
                (Some(x), Some(y)) => dict_pairs_equal(x, y, float_tol),
                (None, None) => objects_equal(a, b, float_tol),
                _ => false,
            }
        }
        (Value::Object(a), Value::Object(b)) => objects_equal(a, b, float_tol),
        _ => false,
    }
}

type Map = serde_json::Map<String, Value>;

fn objects_equal(a: &Map, b: &Map, float_tol: f64) -> bool {
    a.len() == b.len()
        && a.iter().all(|(k, x)| match b.get(k) {
            Some(y) => compare_outputs(x, y, float_tol),
            None => false,
        })
}

/// The `[key, value]` pairs of a `{"$dict": [...]}` (a dict with non-str keys).
fn tagged_dict(m: &Map) -> Option<&Vec<Value>> {
    m.get("$dict")?.as_array()
}

/// Dict equality ignores order, like Python's: each expected pair must match a distinct
/// got pair (quadratic, but these dicts are small and keys are plain values).
fn dict_pairs_equal(expected: &[Value], got: &[Value], float_tol: f64) -> bool {
    if expected.len() != got.len() {
        return false;
    }
    let mut used = vec![false; got.len()];
    expected.iter().all(|e| {
        let hit = got
            .iter()
            .enumerate()
            .position(|(i, g)| !used[i] && compare_outputs(e, g, float_tol));
        hit.map(|i| used[i] = true).is_some()
    })
}

pub(crate) fn floats_close(x: f64, y: f64, tol: f64) -> bool {
    if x == y {
        return true;
    }
    if !x.is_finite() || !y.is_finite() {
        return false; // infinities were equal above or differ; NaN never reaches here (tagged)
    }
    (x - y).abs() <= tol * 1f64.max(x.abs()).max(y.abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn eq(e: Value, g: Value, policy: Equality) -> bool {
        compare_values(&e, &g, 1e-6, policy)
    }

    #[test]
    fn python_numbers_compare_by_value() {
        for policy in [Equality::Python, Equality::PythonJson] {
            assert!(eq(json!(1), json!(1.0), policy));
            assert!(eq(json!(1), json!(true), policy));
            assert!(eq(json!(0.0), json!(false), policy));
            assert!(eq(json!([1, 2.0]), json!([1.0, 2]), policy));
            assert!(eq(
                json!({"$int": "123456789012345678901234"}),
                json!({"$int": "123456789012345678901234"}),
                policy
            ));
            assert!(eq(json!(0.3), json!(0.1 + 0.2), policy));
            assert!(eq(
                json!({"$float": "nan"}),
                json!({"$float": "nan"}),
                policy
            ));
            assert!(!eq(json!(1), json!(2.0), policy));
            assert!(!eq(json!(1), json!("1"), policy));
            assert!(!eq(json!(null), json!(0), policy));
            assert!(!eq(json!(null), json!(false), policy));
            assert!(!eq(
                json!({"$int": "123456789012345678901234"}),
                json!({"$int": "123456789012345678901235"}),
                policy
            ));
            assert!(!eq(json!([1, 2]), json!([1, 2, 3]), policy));
            // dict keys by value, order-free
            assert!(eq(
                json!({"$dict": [[1, "a"], [2, "b"]]}),
                json!({"$dict": [[2.0, "b"], [true, "a"]]}),
                policy
            ));
            assert!(eq(
                json!({"a": 1, "b": 2}),
                json!({"b": 2.0, "a": 1}),
                policy
            ));
            assert!(!eq(json!({"$dict": [[1, "a"]]}), json!({"1": "a"}), policy));
        }
        // The exact policy keeps its meaning.
        assert!(!eq(json!(1), json!(1.0), Equality::Exact));
        assert!(!eq(json!(1), json!(true), Equality::Exact));
    }

    #[test]
    fn tuples_equal_lists_only_where_the_expected_side_is_json() {
        let list = json!([1, [2, 3]]);
        let tuple = json!({"$tuple": [1, {"$tuple": [2, 3]}]});
        assert!(!eq(list.clone(), tuple.clone(), Equality::Python));
        assert!(!eq(list.clone(), tuple.clone(), Equality::Exact));
        assert!(eq(list.clone(), tuple.clone(), Equality::PythonJson));
        assert!(eq(tuple.clone(), tuple.clone(), Equality::Python));
        assert!(eq(
            json!({"$tuple": [1, 1]}),
            json!({"$tuple": [1.0, true]}),
            Equality::Python
        ));
        assert!(!eq(
            json!({"$tuple": [1, 2]}),
            json!([1, 2]),
            Equality::Python
        ));
    }
}
