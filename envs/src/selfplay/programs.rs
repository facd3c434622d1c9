//! The seeded program pool: small random Python functions `f(xs)` over a list of ints,
//! written out as Python and mirrored by a Rust evaluator, so a task card can show
//! reference examples (program, input, output) without running anything at generation
//! time, and the scripted proposer has a program whose outputs are known.
//!
//! A program is a pipeline of `stages` list-to-list steps (map, filter, sort, prefix
//! sums, ...) and one final reducer (sum, len, max-or-None, (min, max) tuple, parity
//! counts as a dict, a joined string, or the list itself), so outputs cover the plain
//! value types. Python semantics are mirrored exactly (`%` is floor-mod; `sorted` is
//! ascending; `dict.fromkeys` keeps first occurrences). Values stay far inside i64.

use serde_json::{Value, json};

use crate::rng::Rng;

/// One list-to-list step.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Stage {
    Affine(i64, i64),
    Mod(i64),
    KeepResidue(i64, i64),
    KeepAbove(i64),
    Sort { reverse: bool },
    Reverse,
    PrefixSums,
    Take(usize),
    Drop(usize),
    Differences,
    Abs,
    Dedup,
}

/// The final step.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Reducer {
    List,
    Sum,
    Len,
    MaxOrNone,
    MinMax,
    Parity,
    Join(char),
}

/// A generated program.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    stages: Vec<Stage>,
    reducer: Reducer,
}

impl Program {
    /// A random program of `stages` steps.
    pub fn random(stages: usize, rng: &mut Rng) -> Program {
        let stages = (0..stages).map(|_| random_stage(rng)).collect();
        let reducer = match rng.below(7) {
            0 => Reducer::List,
            1 => Reducer::Sum,
            2 => Reducer::Len,
            3 => Reducer::MaxOrNone,
            4 => Reducer::MinMax,
            5 => Reducer::Parity,
            _ => Reducer::Join(*rng.choose(&['-', ',', ':']).unwrap_or(&'-')),
        };
        Program { stages, reducer }
    }

    /// A random input: one list of `len` small ints, as an argument list.
    pub fn random_input(len: usize, rng: &mut Rng) -> Value {
        let xs: Vec<i64> = (0..len).map(|_| rng.range_i64(-9, 20)).collect();
        json!([xs])
    }

    /// The program as Python source defining `f`.
    pub fn python(&self) -> String {
        let mut src = String::from("def f(xs):\n");
        for stage in &self.stages {
            src.push_str(&stage_python(*stage));
        }
        let ret = match self.reducer {
            Reducer::List => "xs".to_string(),
            Reducer::Sum => "sum(xs)".into(),
            Reducer::Len => "len(xs)".into(),
            Reducer::MaxOrNone => "max(xs) if xs else None".into(),
            Reducer::MinMax => "(min(xs), max(xs)) if xs else (0, 0)".into(),
            Reducer::Parity => {
                "{'even': sum(1 for x in xs if x % 2 == 0), 'odd': sum(1 for x in xs if x % 2 == 1)}"
                    .into()
            }
            Reducer::Join(sep) => format!("'{sep}'.join(str(x) for x in xs)"),
        };
        src.push_str(&format!("    return {ret}\n"));
        src
    }

    /// The program's value on an argument list from [`Program::random_input`], in the
    /// sandbox's tagged encoding; `None` if the input has another shape.
    pub fn eval(&self, args: &Value) -> Option<Value> {
        let mut xs: Vec<i64> = args
            .get(0)?
            .as_array()?
            .iter()
            .map(Value::as_i64)
            .collect::<Option<_>>()?;
        for stage in &self.stages {
            xs = apply(*stage, xs);
        }
        Some(match self.reducer {
            Reducer::List => json!(xs),
            Reducer::Sum => json!(xs.iter().sum::<i64>()),
            Reducer::Len => json!(xs.len()),
            Reducer::MaxOrNone => xs.iter().max().map_or(Value::Null, |m| json!(m)),
            Reducer::MinMax => {
                let (lo, hi) = (xs.iter().min(), xs.iter().max());
                json!({"$tuple": [lo.copied().unwrap_or(0), hi.copied().unwrap_or(0)]})
            }
            Reducer::Parity => {
                let even = xs.iter().filter(|x| x.rem_euclid(2) == 0).count();
                json!({"even": even, "odd": xs.len() - even})
            }
            Reducer::Join(sep) => {
                let parts: Vec<String> = xs.iter().map(i64::to_string).collect();
                json!(parts.join(&sep.to_string()))
            }
        })
    }
}

fn random_stage(rng: &mut Rng) -> Stage {
    match rng.below(12) {
        0 => Stage::Affine(rng.range_i64(-3, 4), rng.range_i64(-5, 5)),
        1 => Stage::Mod(rng.range_i64(2, 9)),
        2 => {
            let m = rng.range_i64(2, 4);
            Stage::KeepResidue(m, rng.range_i64(0, m - 1))
        }
        3 => Stage::KeepAbove(rng.range_i64(-5, 10)),
        4 => Stage::Sort {
            reverse: rng.chance(0.5),
        },
        5 => Stage::Reverse,
        6 => Stage::PrefixSums,
        7 => Stage::Take(rng.range_usize(2, 6)),
        8 => Stage::Drop(rng.range_usize(1, 3)),
        9 => Stage::Differences,
        10 => Stage::Abs,
        _ => Stage::Dedup,
    }
}

fn stage_python(stage: Stage) -> String {
    match stage {
        Stage::Affine(a, b) => format!("    xs = [x * {a} + {b} for x in xs]\n"),
        Stage::Mod(m) => format!("    xs = [x % {m} for x in xs]\n"),
        Stage::KeepResidue(m, r) => format!("    xs = [x for x in xs if x % {m} == {r}]\n"),
        Stage::KeepAbove(t) => format!("    xs = [x for x in xs if x > {t}]\n"),
        Stage::Sort { reverse: false } => "    xs = sorted(xs)\n".into(),
        Stage::Sort { reverse: true } => "    xs = sorted(xs, reverse=True)\n".into(),
        Stage::Reverse => "    xs = xs[::-1]\n".into(),
        Stage::PrefixSums => "    acc, out = 0, []\n    for x in xs:\n        acc += x\n        out.append(acc)\n    xs = out\n".into(),
        Stage::Take(k) => format!("    xs = xs[:{k}]\n"),
        Stage::Drop(k) => format!("    xs = xs[{k}:]\n"),
        Stage::Differences => "    xs = [b - a for a, b in zip(xs, xs[1:])]\n".into(),
        Stage::Abs => "    xs = [abs(x) for x in xs]\n".into(),
        Stage::Dedup => "    xs = list(dict.fromkeys(xs))\n".into(),
    }
}

fn apply(stage: Stage, xs: Vec<i64>) -> Vec<i64> {
    match stage {
        Stage::Affine(a, b) => xs.iter().map(|x| x * a + b).collect(),
        Stage::Mod(m) => xs.iter().map(|x| x.rem_euclid(m)).collect(),
        Stage::KeepResidue(m, r) => xs.into_iter().filter(|x| x.rem_euclid(m) == r).collect(),
        Stage::KeepAbove(t) => xs.into_iter().filter(|x| *x > t).collect(),
        Stage::Sort { reverse } => {
            let mut xs = xs;
            xs.sort_unstable();
            if reverse {
                xs.reverse();
            }
            xs
        }
        Stage::Reverse => xs.into_iter().rev().collect(),
        Stage::PrefixSums => xs
            .iter()
            .scan(0i64, |acc, x| {
                *acc += x;
                Some(*acc)
            })
            .collect(),
        Stage::Take(k) => xs.into_iter().take(k).collect(),
        Stage::Drop(k) => xs.into_iter().skip(k).collect(),
        Stage::Differences => xs.windows(2).map(|w| w[1] - w[0]).collect(),
        Stage::Abs => xs.iter().map(|x| x.abs()).collect(),
        Stage::Dedup => {
            let mut seen = std::collections::BTreeSet::new();
            xs.into_iter().filter(|x| seen.insert(*x)).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandboxed::python;
    use crate::selfplay::validate::proposal_limits;

    /// The Rust mirror agrees with CPython in the sandbox on random programs and inputs.
    #[test]
    fn mirror_matches_python() {
        let py = python().expect("Python sandbox (run sandbox/setup.sh)");
        let mut rng = Rng::from_seed(7);
        for _ in 0..40 {
            let program = Program::random(rng.range_usize(1, 6), &mut rng);
            let inputs: Vec<Value> = (0..4)
                .map(|_| Program::random_input(rng.range_usize(0, 10), &mut rng))
                .collect();
            let report = py
                .run_cases(&program.python(), "f", &inputs, &proposal_limits())
                .unwrap();
            for (input, outcome) in inputs.iter().zip(&report.outcomes) {
                let want = program.eval(input).unwrap();
                assert_eq!(
                    outcome,
                    &verigym_sandbox::CaseOutcome::Returned(want),
                    "{}\non {input}",
                    program.python()
                );
            }
        }
    }
}
