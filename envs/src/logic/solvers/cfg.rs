//! Small context-free grammars: random drawing, random leftmost
//! derivations, the Chomsky normal form and CYK membership. The grammars
//! have no empty and no unit rules (every one-symbol right-hand side is a
//! terminal), so the CNF conversion only names terminals and splits long
//! right-hand sides, and every derivation step lengthens the form or adds a
//! terminal.

use serde::{Deserialize, Serialize};

use crate::rng::Rng;

/// Nonterminal names; index 0 (`S`) is the start symbol.
pub const NONTERMINALS: &[u8] = b"SABCDEFG";
/// Terminal names.
pub const TERMINALS: &[u8] = b"abc";

/// One grammar symbol: a terminal or nonterminal index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Sym {
    T(u8),
    N(u8),
}

impl Sym {
    pub fn letter(self) -> char {
        match self {
            Sym::T(t) => TERMINALS[t as usize] as char,
            Sym::N(n) => NONTERMINALS[n as usize] as char,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Grammar {
    pub nonterminals: usize,
    pub terminals: usize,
    /// `(lhs, rhs)`, grouped by `lhs` in order.
    pub rules: Vec<(u8, Vec<Sym>)>,
}

impl Grammar {
    /// The rules as lines `S -> aSb | AB`, one per nonterminal.
    pub fn lines(&self) -> Vec<String> {
        (0..self.nonterminals as u8)
            .map(|n| {
                let alternatives: Vec<String> = self
                    .rules
                    .iter()
                    .filter(|(lhs, _)| *lhs == n)
                    .map(|(_, rhs)| rhs.iter().map(|s| s.letter()).collect())
                    .collect();
                format!("{} -> {}", Sym::N(n).letter(), alternatives.join(" | "))
            })
            .collect()
    }

    /// The symbol a letter names, if the grammar has it.
    pub fn symbol(&self, letter: char) -> Option<Sym> {
        let byte = u8::try_from(letter).ok()?;
        if let Some(t) = TERMINALS[..self.terminals].iter().position(|&c| c == byte) {
            return Some(Sym::T(t as u8));
        }
        NONTERMINALS[..self.nonterminals]
            .iter()
            .position(|&c| c == byte)
            .map(|n| Sym::N(n as u8))
    }

    /// Per nonterminal: the length of its shortest terminal yield
    /// (`usize::MAX` when it derives no terminal string).
    pub fn min_yield(&self) -> Vec<usize> {
        let mut best = vec![usize::MAX; self.nonterminals];
        loop {
            let mut changed = false;
            for (lhs, rhs) in &self.rules {
                let len = rhs.iter().try_fold(0usize, |acc, s| match s {
                    Sym::T(_) => Some(acc + 1),
                    Sym::N(n) => (best[*n as usize] != usize::MAX).then(|| acc + best[*n as usize]),
                });
                if let Some(len) = len
                    && len < best[*lhs as usize]
                {
                    best[*lhs as usize] = len;
                    changed = true;
                }
            }
            if !changed {
                return best;
            }
        }
    }

    /// Every nonterminal reachable from `S` and productive.
    fn is_proper(&self) -> bool {
        if self.min_yield().contains(&usize::MAX) {
            return false;
        }
        let mut seen = vec![false; self.nonterminals];
        let mut stack = vec![0u8];
        seen[0] = true;
        while let Some(n) = stack.pop() {
            for (_, rhs) in self.rules.iter().filter(|(lhs, _)| *lhs == n) {
                for s in rhs {
                    if let Sym::N(m) = *s
                        && !seen[m as usize]
                    {
                        seen[m as usize] = true;
                        stack.push(m);
                    }
                }
            }
        }
        seen.iter().all(|&s| s)
    }
}

/// A random grammar: 2..=3 rules per nonterminal, each a terminal or two
/// to three symbols; `None` when some nonterminal is unreachable or
/// unproductive (the caller redraws).
pub fn draw_grammar(nonterminals: usize, terminals: usize, rng: &mut Rng) -> Option<Grammar> {
    let mut rules = Vec::new();
    for lhs in 0..nonterminals as u8 {
        let count = rng.range_usize(2, 3);
        let mut own: Vec<Vec<Sym>> = Vec::new();
        while own.len() < count {
            let rhs: Vec<Sym> = if rng.chance(0.3) {
                vec![Sym::T(rng.below(terminals as u64) as u8)]
            } else {
                let len = if rng.chance(0.6) { 2 } else { 3 };
                (0..len)
                    .map(|_| {
                        if rng.chance(0.5) {
                            Sym::N(rng.below(nonterminals as u64) as u8)
                        } else {
                            Sym::T(rng.below(terminals as u64) as u8)
                        }
                    })
                    .collect()
            };
            if !own.contains(&rhs) {
                own.push(rhs);
            }
        }
        own.sort();
        rules.extend(own.into_iter().map(|rhs| (lhs, rhs)));
    }
    let grammar = Grammar {
        nonterminals,
        terminals,
        rules,
    };
    grammar.is_proper().then_some(grammar)
}

/// A random leftmost derivation from `S` of a string of at most `max_len`
/// symbols: the sentential forms, `S` first and the terminal string last
/// (each rule is picked among those that can still finish within the
/// length). `None` when `S` cannot yield a string that short.
pub fn random_derivation(
    grammar: &Grammar,
    max_len: usize,
    rng: &mut Rng,
) -> Option<Vec<Vec<Sym>>> {
    let min = grammar.min_yield();
    let cost = |s: &Sym| match s {
        Sym::T(_) => 1,
        Sym::N(n) => min[*n as usize],
    };
    if min[0] > max_len {
        return None;
    }
    let mut form = vec![Sym::N(0)];
    let mut forms = vec![form.clone()];
    while let Some(i) = form.iter().position(|s| matches!(s, Sym::N(_))) {
        let Sym::N(n) = form[i] else { unreachable!() };
        let rest: usize = form.iter().map(cost).sum::<usize>() - min[n as usize];
        let fitting: Vec<&Vec<Sym>> = grammar
            .rules
            .iter()
            .filter(|(lhs, rhs)| *lhs == n && rest + rhs.iter().map(cost).sum::<usize>() <= max_len)
            .map(|(_, rhs)| rhs)
            .collect();
        let rhs = (*rng.choose(&fitting)?).clone();
        form.splice(i..=i, rhs);
        forms.push(form.clone());
    }
    Some(forms)
}

/// The grammar in Chomsky normal form: binary rules `A -> B C` and
/// terminal rules `A -> t` over the original nonterminals, one per
/// terminal (`T_t`) and the helpers that split three-symbol sides.
pub struct Cnf {
    pub symbols: usize,
    pub binary: Vec<(usize, usize, usize)>,
    pub unary: Vec<(usize, u8)>,
}

pub fn to_cnf(grammar: &Grammar) -> Cnf {
    let n = grammar.nonterminals;
    let term_symbol = |t: u8| n + t as usize;
    let mut symbols = n + grammar.terminals;
    let mut binary = Vec::new();
    let mut unary: Vec<(usize, u8)> = (0..grammar.terminals as u8)
        .map(|t| (term_symbol(t), t))
        .collect();
    let as_symbol = |s: &Sym| match *s {
        Sym::T(t) => term_symbol(t),
        Sym::N(m) => m as usize,
    };
    for (lhs, rhs) in &grammar.rules {
        let lhs = *lhs as usize;
        match rhs.as_slice() {
            [Sym::T(t)] => unary.push((lhs, *t)),
            [a, b] => binary.push((lhs, as_symbol(a), as_symbol(b))),
            [a, b, c] => {
                let helper = symbols;
                symbols += 1;
                binary.push((lhs, as_symbol(a), helper));
                binary.push((helper, as_symbol(b), as_symbol(c)));
            }
            _ => unreachable!("no empty, unit or long rules are drawn"),
        }
    }
    Cnf {
        symbols,
        binary,
        unary,
    }
}

impl Cnf {
    /// CYK: whether `S` derives `word` (terminal indices); `cell(i, len)`
    /// holds the symbols that derive `word[i..i + len]` as a bit set.
    pub fn accepts(&self, word: &[u8]) -> bool {
        let n = word.len();
        if n == 0 {
            return false;
        }
        assert!(self.symbols <= 128, "CYK bit sets hold 128 symbols");
        let mut table = vec![0u128; n * (n + 1)];
        let at = |i: usize, len: usize| i * (n + 1) + len;
        for (i, &t) in word.iter().enumerate() {
            for &(a, u) in &self.unary {
                if u == t {
                    table[at(i, 1)] |= 1 << a;
                }
            }
        }
        for len in 2..=n {
            for i in 0..=n - len {
                let mut cell = 0u128;
                for split in 1..len {
                    let (left, right) = (table[at(i, split)], table[at(i + split, len - split)]);
                    for &(a, b, c) in &self.binary {
                        if left >> b & 1 == 1 && right >> c & 1 == 1 {
                            cell |= 1 << a;
                        }
                    }
                }
                table[at(i, len)] = cell;
            }
        }
        table[at(0, n)] & 1 == 1
    }
}

/// A word as text.
pub fn word_text(word: &[u8]) -> String {
    word.iter()
        .map(|&t| TERMINALS[t as usize] as char)
        .collect()
}

/// A sentential form as text.
pub fn form_text(form: &[Sym]) -> String {
    form.iter().map(|s| s.letter()).collect()
}

/// Every word of at most `max_len` symbols the grammar derives, by
/// expanding leftmost nonterminals breadth first (for tests).
#[cfg(test)]
pub fn all_words(grammar: &Grammar, max_len: usize) -> std::collections::BTreeSet<Vec<u8>> {
    let mut words = std::collections::BTreeSet::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut stack = vec![vec![Sym::N(0)]];
    while let Some(form) = stack.pop() {
        let Some(i) = form.iter().position(|s| matches!(s, Sym::N(_))) else {
            words.insert(
                form.iter()
                    .map(|s| match s {
                        Sym::T(t) => *t,
                        Sym::N(_) => 0,
                    })
                    .collect(),
            );
            continue;
        };
        let Sym::N(n) = form[i] else { unreachable!() };
        for (_, rhs) in grammar.rules.iter().filter(|(lhs, _)| *lhs == n) {
            let mut next = form.clone();
            next.splice(i..=i, rhs.iter().copied());
            if next.len() <= max_len && seen.insert(next.clone()) {
                stack.push(next);
            }
        }
    }
    words
}
