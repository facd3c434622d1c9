//! A host mirror of every mutant of the `min_coins` references (Python and C), to check
//! that its hidden tests kill each mutant that differs from the reference at some amount
//! of the level's range, on many drawn tasks (test-only: nothing here runs model code).
//!
//! The references have a fixed shape; a mutant ([`mutants`]) changes one token of it. The
//! mirror reads each line of the mutated source against that shape, parses the holes
//! (bounds, conditions, assigned values, the coin list) as expressions and evaluates them
//! with the language's semantics: Python's float infinity, negative indices that wrap and
//! `IndexError`; C's int64 arithmetic on a static array that is zero in each case's fresh
//! instance. What the host cannot know (C reads outside an array, a loop that never ends)
//! is reported as unmirrored, never guessed.
//!
//! One run per mutant serves every amount: an iteration of the outer loop reads nothing of
//! `amount`, so the table after iteration `a` is the same for every amount that runs it;
//! each amount then only needs which iterations its loop runs and whether one of them read
//! past its Python list (a crash). A mutant that reads a negative Python index (which wraps
//! to a place that depends on `amount`) is run once per amount instead.

use verigym_sandbox::Language;

use crate::code::mutants::{Mutant, mutants};

mod expr;
#[cfg(test)]
mod tests;

use expr::{Ctx, Expr, Outcome, Parser, Stop, Val, Var};

/// A mutant of one reference, read into its holes.
struct Program {
    python: bool,
    coins: Vec<i64>,
    /// Every run crashes before the loop (a Python `TypeError` on the table's creation).
    crashes: bool,
    array: usize,
    /// Before the loop: best[init.0] = init.1 (C), or best = [init.1] + [INF] * amount.
    init: (Expr, Expr),
    start: Expr,
    /// Python: the range's end; C: the loop condition.
    end: Expr,
    /// C only: the value every cell gets first in its iteration.
    reset: Option<Expr>,
    /// C only: the inner loop's start, condition and step sign.
    inner: Option<(Expr, Expr, i64)>,
    cond: Expr,
    value: Expr,
    ret: (Expr, Option<(Expr, Expr)>),
}

fn between<'s>(line: &'s str, prefix: &str, suffix: &str) -> &'s str {
    line.trim()
        .strip_prefix(prefix)
        .and_then(|l| l.strip_suffix(suffix))
        .unwrap_or_else(|| panic!("mirror: `{line}` is not `{prefix}…{suffix}`"))
}

fn int_list(src: &str) -> Vec<i64> {
    src.split(',')
        .map(|n| n.trim().parse().expect("mirror: a coin list of integers"))
        .collect()
}

impl Program {
    fn read(language: Language, src: &str) -> Program {
        let lines: Vec<&str> = src.lines().collect();
        if language == Language::Python {
            let table = between(lines[2], "best = [", "");
            let (init, crashes) = match table.strip_suffix("] + [INF] * amount") {
                Some(n) => (Parser::parse(n), false),
                // `[0] - [INF] * amount`, `[INF] // amount`: a TypeError.
                None => (Expr::Int(0), true),
            };
            let range = between(lines[3], "for a in range(", "):");
            let (start, end) = range.split_once(", ").expect("mirror: range(start, end)");
            let (left, right) = between(lines[7], "return ", "").split_once(" if ").unwrap();
            let (test, other) = right.split_once(" else ").unwrap();
            return Program {
                python: true,
                coins: int_list(between(lines[4], "for c in [", "]:")),
                crashes,
                array: 0,
                init: (Expr::Int(0), init),
                start: Parser::parse(start),
                end: Parser::parse(end),
                reset: None,
                inner: None,
                cond: Parser::parse(between(lines[5], "if ", ":")),
                value: Parser::parse(between(lines[6], "best[a] = ", "")),
                ret: (
                    Parser::parse(other),
                    Some((Parser::parse(test), Parser::parse(left))),
                ),
            };
        }
        let (index, value) = between(lines[3], "best[", ";").split_once("] = ").unwrap();
        let outer = between(lines[4], "for (int64_t a = ", ") {");
        let [start, cond, step]: [&str; 3] =
            outer.split("; ").collect::<Vec<_>>().try_into().unwrap();
        assert!(step == "a++" || step == "a--", "mirror: step `{step}`");
        let inner = between(lines[6], "for (int j = ", ") {");
        let [j0, jcond, jstep]: [&str; 3] =
            inner.split("; ").collect::<Vec<_>>().try_into().unwrap();
        Program {
            python: false,
            coins: int_list(between(lines[2], "const int64_t coins[] = {", "};")),
            crashes: false,
            array: between(lines[1], "static int64_t best[", "];")
                .parse()
                .unwrap(),
            init: (Parser::parse(index), Parser::parse(value)),
            start: Parser::parse(start),
            // A loop that counts down never ends (or reads below the array): unmirrored.
            end: if step == "a++" {
                Parser::parse(cond)
            } else {
                Expr::Coins(Box::new(Expr::Int(-1)))
            },
            reset: Some(Parser::parse(between(lines[5], "best[a] = ", ";"))),
            inner: Some((
                Parser::parse(j0),
                Parser::parse(jcond),
                if jstep == "j++" { 1 } else { -1 },
            )),
            cond: Parser::parse(between(lines[8], "if (", ")")),
            value: Parser::parse(between(lines[9], "best[a] = ", ";")),
            ret: (Parser::parse(between(lines[12], "return ", ";")), None),
        }
    }

    fn ctx<'a>(&'a self, best: &'a mut Vec<Val>, amount: i64) -> Ctx<'a> {
        Ctx {
            python: self.python,
            best,
            coins: &self.coins,
            a: 0,
            c: 0,
            j: 0,
            amount,
            max_index: -1,
            negative: false,
            only: None,
        }
    }

    /// The table before the loop, with `len` cells (Python) or the array (C).
    fn initial(&self, len: usize) -> Result<Vec<Val>, Stop> {
        if self.crashes {
            return Err(Stop::Crash);
        }
        let (fill, len) = if self.python {
            (Val::Inf, len)
        } else {
            (Val::Int(0), self.array)
        };
        let mut best = vec![fill; len];
        let mut ctx = self.ctx(&mut best, 0);
        let i = ctx.int(&self.init.0)?;
        let v = ctx.eval(&self.init.1)?;
        let k = ctx.index(i)?;
        best[k] = v;
        Ok(best)
    }

    /// Iteration `a` of the outer loop; returns the highest index it touched and whether
    /// it read a negative Python index.
    fn iterate(&self, best: &mut Vec<Val>, a: i64) -> Result<(i64, bool), Stop> {
        let mut ctx = self.ctx(best, i64::MIN);
        ctx.a = a;
        if let Some(reset) = &self.reset {
            let v = ctx.eval(reset)?;
            let k = ctx.index(a)?;
            ctx.best[k] = v;
        }
        let visit = |ctx: &mut Ctx, c: i64| -> Result<(), Stop> {
            ctx.c = c;
            if ctx.truthy(&self.cond)? {
                let v = ctx.eval(&self.value)?;
                let k = ctx.index(a)?;
                ctx.best[k] = v;
            }
            Ok(())
        };
        match &self.inner {
            None => {
                for &c in &self.coins {
                    visit(&mut ctx, c)?;
                }
            }
            Some((j0, jcond, step)) => {
                ctx.j = ctx.int(j0)?;
                let mut steps = 0;
                while ctx.truthy(jcond)? {
                    let c = ctx.eval(&Expr::Coins(Box::new(Expr::Var(Var::J))))?;
                    let Val::Int(c) = c else { unreachable!() };
                    visit(&mut ctx, c)?;
                    ctx.j += step;
                    steps += 1;
                    if steps > 64 {
                        return Err(Stop::Unmirrored);
                    }
                }
            }
        }
        Ok((ctx.max_index, ctx.negative))
    }

    /// The outer loop's iterations for `amount`: `start..end`.
    fn span(&self, amount: i64, limit: i64) -> Result<(i64, i64), Stop> {
        let mut scratch = Vec::new();
        let mut ctx = self.ctx(&mut scratch, amount);
        let start = ctx.int(&self.start)?;
        if self.python {
            return Ok((start, ctx.int(&self.end)?));
        }
        let mut a = start;
        loop {
            ctx.a = a;
            if !ctx.truthy(&self.end)? {
                return Ok((start, a));
            }
            a += 1;
            if a > limit {
                return Err(Stop::Unmirrored);
            }
        }
    }

    /// The return statement, `best[amount]` holding `cell`.
    fn answer(&self, cell: Val, amount: i64) -> Outcome {
        let mut none = Vec::new();
        let mut ctx = self.ctx(&mut none, amount);
        ctx.only = Some((amount, cell));
        match &self.ret.1 {
            Some((test, then)) if ctx.truthy(test)? => ctx.eval(then),
            _ => ctx.eval(&self.ret.0),
        }
    }

    /// One run for `amount` alone (a fresh table of `amount + 1` cells in Python).
    fn run_one(&self, amount: i64) -> Outcome {
        let mut best = self.initial(amount as usize + 1)?;
        let (start, end) = self.span(amount, amount + 1000)?;
        for a in start..end {
            self.iterate(&mut best, a)?;
        }
        let k = self.ctx(&mut best, amount).index(amount)?;
        self.answer(best[k], amount)
    }

    /// What the program returns for every amount in `0..=max`.
    fn outcomes(&self, max: i64) -> Vec<Outcome> {
        let spans: Vec<Result<(i64, i64), Stop>> = (0..=max)
            .map(|amount| self.span(amount, max + 1000))
            .collect();
        let top = spans
            .iter()
            .flatten()
            .map(|s| s.1)
            .max()
            .unwrap_or(0)
            .max(max + 1);
        let first = spans.iter().flatten().map(|s| s.0).min().unwrap_or(0);
        let initial = match self.initial(top as usize + 64) {
            Ok(initial) => initial,
            Err(stop) => return vec![Err(stop); max as usize + 1],
        };
        let mut best = initial.clone();
        // Per iteration from `first`: the highest index it touched, or why it stopped.
        let mut reach: Vec<Result<i64, Stop>> = Vec::new();
        for a in first..top.max(first) {
            match self.iterate(&mut best, a) {
                Ok((_, true)) => return (0..=max).map(|n| self.run_one(n)).collect(),
                Ok((m, false)) => reach.push(Ok(m)),
                Err(stop) => {
                    reach.push(Err(stop));
                    break;
                }
            }
        }
        spans
            .iter()
            .zip(0..=max)
            .map(|(span, amount)| {
                let (start, end) = (*span)?;
                for a in start..end {
                    match reach
                        .get((a - first) as usize)
                        .copied()
                        .unwrap_or(Err(Stop::Unmirrored))
                    {
                        Ok(m) if self.python && m > amount => return Err(Stop::Crash),
                        Ok(_) => {}
                        Err(stop) => return Err(stop),
                    }
                }
                let ran = (start..end).contains(&amount);
                let table = if ran { &best } else { &initial };
                self.answer(table[amount as usize], amount)
            })
            .collect()
    }
}

/// Every mutant of `reference` with its outcome at each amount in `0..=max`.
pub(super) fn mutant_outcomes(
    language: Language,
    reference: &str,
    max: i64,
) -> Vec<(Mutant, Vec<Outcome>)> {
    mutants(language, reference)
        .into_iter()
        .map(|m| {
            let out = Program::read(language, &m.source).outcomes(max);
            (m, out)
        })
        .collect()
}

/// The reference's own outcomes (to check the mirror against the Rust mirror).
pub(super) fn reference_outcomes(language: Language, reference: &str, max: i64) -> Vec<Outcome> {
    Program::read(language, reference).outcomes(max)
}
