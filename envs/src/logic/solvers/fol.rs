//! First-order formulas over a finite domain whose constants name its
//! elements: syntax, rendering, and model checking by bitsets (a formula
//! evaluates to the set of structures, among a given list or all `2^atoms`,
//! where it holds).

/// Variable names, by index.
pub const VARS: [&str; 3] = ["x", "y", "z"];

#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    Var(usize),
    Const(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Formula {
    /// Predicate (unary ones first, then binary) and its arguments.
    Atom(usize, Vec<Term>),
    Not(Box<Formula>),
    And(Box<Formula>, Box<Formula>),
    Or(Box<Formula>, Box<Formula>),
    Implies(Box<Formula>, Box<Formula>),
    Forall(usize, Box<Formula>),
    Exists(usize, Box<Formula>),
}

/// The vocabulary: domain size and predicate arities.
#[derive(Clone, Debug)]
pub struct Signature {
    pub domain: usize,
    pub unary: usize,
    pub binary: usize,
}

impl Signature {
    pub fn atoms(&self) -> usize {
        self.unary * self.domain + self.binary * self.domain * self.domain
    }

    /// The bit of a ground atom in a structure.
    pub fn atom(&self, pred: usize, args: &[usize]) -> usize {
        let n = self.domain;
        if pred < self.unary {
            pred * n + args[0]
        } else {
            self.unary * n + (pred - self.unary) * n * n + args[0] * n + args[1]
        }
    }

    pub fn arity(&self, pred: usize) -> usize {
        if pred < self.unary { 1 } else { 2 }
    }
}

/// A set of structures (bit `i` = the universe's structure `i`) per ground
/// atom: formulas evaluate to the set of structures where they hold.
pub struct Universe {
    words: usize,
    pub len: usize,
    atoms: Vec<Vec<u64>>,
}

impl Universe {
    /// Every structure of the signature (structure `s` sets atom `a` when
    /// bit `a` of `s` is set).
    pub fn all(sig: &Signature) -> Universe {
        let len = 1usize << sig.atoms();
        let words = len.div_ceil(64);
        let atoms = (0..sig.atoms())
            .map(|a| {
                (0..words)
                    .map(|w| {
                        if a >= 6 {
                            if (w >> (a - 6)) & 1 == 1 { !0 } else { 0 }
                        } else {
                            (0..64u64)
                                .filter(|i| i >> a & 1 == 1)
                                .fold(0, |m, i| m | 1 << i)
                        }
                    })
                    .collect()
            })
            .collect();
        Universe { words, len, atoms }
    }

    /// The given structures, as atom bitmasks.
    pub fn of(sig: &Signature, structures: &[u64]) -> Universe {
        let words = structures.len().div_ceil(64).max(1);
        let atoms = (0..sig.atoms())
            .map(|a| {
                let mut bits = vec![0u64; words];
                for (i, s) in structures.iter().enumerate() {
                    bits[i / 64] |= (s >> a & 1) << (i % 64);
                }
                bits
            })
            .collect();
        Universe {
            words,
            len: structures.len(),
            atoms,
        }
    }

    pub fn full(&self) -> Vec<u64> {
        (0..self.words)
            .map(|w| match self.len.saturating_sub(w * 64) {
                0 => 0,
                left if left >= 64 => !0,
                left => (1u64 << left) - 1,
            })
            .collect()
    }

    /// The structures where `f` holds (free variables as in `assign`).
    pub fn eval(&self, sig: &Signature, f: &Formula, assign: &mut [usize; 3]) -> Vec<u64> {
        let zip = |a: Vec<u64>, b: Vec<u64>, op: fn(u64, u64) -> u64| -> Vec<u64> {
            a.into_iter().zip(b).map(|(x, y)| op(x, y)).collect()
        };
        match f {
            Formula::Atom(p, args) => {
                let ground: Vec<usize> = args
                    .iter()
                    .map(|t| match t {
                        Term::Var(v) => assign[*v],
                        Term::Const(c) => *c,
                    })
                    .collect();
                self.atoms[sig.atom(*p, &ground)].clone()
            }
            Formula::Not(a) => zip(self.full(), self.eval(sig, a, assign), |x, y| x & !y),
            Formula::And(a, b) => zip(
                self.eval(sig, a, assign),
                self.eval(sig, b, assign),
                |x, y| x & y,
            ),
            Formula::Or(a, b) => zip(
                self.eval(sig, a, assign),
                self.eval(sig, b, assign),
                |x, y| x | y,
            ),
            Formula::Implies(a, b) => {
                let not_a = zip(self.full(), self.eval(sig, a, assign), |x, y| x & !y);
                zip(not_a, self.eval(sig, b, assign), |x, y| x | y)
            }
            Formula::Forall(v, body) | Formula::Exists(v, body) => {
                let all = matches!(f, Formula::Forall(..));
                let mut acc = if all {
                    self.full()
                } else {
                    vec![0; self.words]
                };
                for e in 0..sig.domain {
                    assign[*v] = e;
                    let inner = self.eval(sig, body, assign);
                    let op: fn(u64, u64) -> u64 = if all { |x, y| x & y } else { |x, y| x | y };
                    acc = zip(acc, inner, op);
                }
                acc
            }
        }
    }
}

/// The indices of the set bits.
pub fn members(bits: &[u64]) -> Vec<u64> {
    let mut out = Vec::new();
    for (w, &word) in bits.iter().enumerate() {
        let mut rest = word;
        while rest != 0 {
            out.push((w * 64) as u64 + u64::from(rest.trailing_zeros()));
            rest &= rest - 1;
        }
    }
    out
}

pub fn size(f: &Formula) -> usize {
    match f {
        Formula::Atom(..) => 1,
        Formula::Not(a) | Formula::Forall(_, a) | Formula::Exists(_, a) => 1 + size(a),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Implies(a, b) => 1 + size(a) + size(b),
    }
}

pub fn uses(f: &Formula, v: usize) -> bool {
    match f {
        Formula::Atom(_, args) => args.contains(&Term::Var(v)),
        Formula::Not(a) | Formula::Forall(_, a) | Formula::Exists(_, a) => uses(a, v),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Implies(a, b) => uses(a, v) || uses(b, v),
    }
}

/// Every quantifier binds a variable its body uses, and no connective joins
/// a formula with itself.
pub fn no_vacuous(f: &Formula) -> bool {
    match f {
        Formula::Atom(..) => true,
        Formula::Not(a) => no_vacuous(a),
        Formula::Forall(v, a) | Formula::Exists(v, a) => uses(a, *v) && no_vacuous(a),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Implies(a, b) => {
            a != b && no_vacuous(a) && no_vacuous(b)
        }
    }
}

/// `f` with variable `v` replaced by constant `c`.
pub fn substitute(f: &Formula, v: usize, c: usize) -> Formula {
    let sub = |a: &Formula| Box::new(substitute(a, v, c));
    match f {
        Formula::Atom(p, args) => Formula::Atom(
            *p,
            args.iter()
                .map(|t| {
                    if *t == Term::Var(v) {
                        Term::Const(c)
                    } else {
                        t.clone()
                    }
                })
                .collect(),
        ),
        Formula::Not(a) => Formula::Not(sub(a)),
        Formula::And(a, b) => Formula::And(sub(a), sub(b)),
        Formula::Or(a, b) => Formula::Or(sub(a), sub(b)),
        Formula::Implies(a, b) => Formula::Implies(sub(a), sub(b)),
        Formula::Forall(w, a) => Formula::Forall(*w, sub(a)),
        Formula::Exists(w, a) => Formula::Exists(*w, sub(a)),
    }
}

/// Where a formula is written: alone, as a quantifier's body, or as an
/// operand (of a connective or `not`).
#[derive(Clone, Copy, PartialEq)]
pub enum Place {
    Top,
    Body,
    Operand,
}

/// The formula in the prompt's syntax, with `preds` and `elements` names:
/// a connective is parenthesised except at the top, a quantifier except at
/// the top or as another quantifier's body (so no scope can be misread).
pub fn render(f: &Formula, preds: &[String], elements: &[String], place: Place) -> String {
    let r = |a: &Formula, place| render(a, preds, elements, place);
    let wrap = |text: String, bare: bool| if bare { text } else { format!("({text})") };
    let binary = |a: &Formula, op: &str, b: &Formula| {
        let text = format!("{} {op} {}", r(a, Place::Operand), r(b, Place::Operand));
        wrap(text, place == Place::Top)
    };
    match f {
        Formula::Atom(p, args) => {
            let args: Vec<&str> = args
                .iter()
                .map(|t| match t {
                    Term::Var(v) => VARS[*v],
                    Term::Const(c) => elements[*c].as_str(),
                })
                .collect();
            format!("{}({})", preds[*p], args.join(", "))
        }
        Formula::Not(a) => format!("not {}", r(a, Place::Operand)),
        Formula::And(a, b) => binary(a, "and", b),
        Formula::Or(a, b) => binary(a, "or", b),
        Formula::Implies(a, b) => binary(a, "->", b),
        Formula::Forall(v, a) | Formula::Exists(v, a) => {
            let word = if matches!(f, Formula::Forall(..)) {
                "forall"
            } else {
                "exists"
            };
            let text = format!("{word} {}. {}", VARS[*v], r(a, Place::Body));
            wrap(text, place != Place::Operand)
        }
    }
}
