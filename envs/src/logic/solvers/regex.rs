//! Regular expressions over a few letters, for `logic/regex-synthesis`:
//! the syntax tree, a recursive-descent reader of the stated syntax
//! (letters, `|`, `*`, `+`, `?`, parentheses, classes) and a Thompson NFA
//! simulated on state sets (no backtracking: each letter visits every state
//! and edge at most once).

/// The letters: not `a`, which the one-answer rule reads as the English
/// article (a stated `(a|b)*a` would read as prose).
pub const LETTERS: &[u8] = b"xyz";

/// An expression's syntax tree; `Set` is a letter (one bit) or a class.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ast {
    Set(u8),
    Concat(Box<Ast>, Box<Ast>),
    Alt(Box<Ast>, Box<Ast>),
    Star(Box<Ast>),
    Plus(Box<Ast>),
    Opt(Box<Ast>),
}

impl Ast {
    fn precedence(&self) -> u8 {
        match self {
            Ast::Alt(..) => 0,
            Ast::Concat(..) => 1,
            Ast::Star(_) | Ast::Plus(_) | Ast::Opt(_) => 2,
            Ast::Set(_) => 3,
        }
    }

    pub(crate) fn nullable(&self) -> bool {
        match self {
            Ast::Set(_) => false,
            Ast::Concat(a, b) => a.nullable() && b.nullable(),
            Ast::Alt(a, b) => a.nullable() || b.nullable(),
            Ast::Star(_) | Ast::Opt(_) => true,
            Ast::Plus(a) => a.nullable(),
        }
    }

    /// The expression with the fewest parentheses.
    pub(crate) fn render(&self) -> String {
        let wrap = |a: &Ast, at_least: u8| {
            let text = a.render();
            if a.precedence() < at_least {
                format!("({text})")
            } else {
                text
            }
        };
        match self {
            Ast::Set(mask) if mask.count_ones() == 1 => {
                (LETTERS[mask.trailing_zeros() as usize] as char).to_string()
            }
            Ast::Set(mask) => {
                let letters: String = (0..3)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| LETTERS[i] as char)
                    .collect();
                format!("[{letters}]")
            }
            Ast::Concat(a, b) => format!("{}{}", wrap(a, 1), wrap(b, 1)),
            Ast::Alt(a, b) => format!("{}|{}", wrap(a, 0), wrap(b, 0)),
            Ast::Star(a) => format!("{}*", wrap(a, 2)),
            Ast::Plus(a) => format!("{}+", wrap(a, 2)),
            Ast::Opt(a) => format!("{}?", wrap(a, 2)),
        }
    }
}

/// Reads an expression over the first `alphabet` letters.
pub(crate) fn parse(text: &str, alphabet: usize) -> Result<Ast, String> {
    struct Parser<'a> {
        chars: &'a [char],
        at: usize,
        alphabet: usize,
    }
    impl Parser<'_> {
        fn peek(&self) -> Option<char> {
            self.chars.get(self.at).copied()
        }
        fn letter(&self, c: char) -> Option<u8> {
            LETTERS[..self.alphabet]
                .iter()
                .position(|&l| l as char == c)
                .map(|i| 1 << i)
        }
        fn alt(&mut self) -> Result<Ast, String> {
            let mut left = self.concat()?;
            while self.peek() == Some('|') {
                self.at += 1;
                left = Ast::Alt(Box::new(left), Box::new(self.concat()?));
            }
            Ok(left)
        }
        fn concat(&mut self) -> Result<Ast, String> {
            let mut left: Option<Ast> = None;
            while let Some(c) = self.peek() {
                if c == '|' || c == ')' {
                    break;
                }
                let next = self.repeat()?;
                left = Some(match left {
                    None => next,
                    Some(l) => Ast::Concat(Box::new(l), Box::new(next)),
                });
            }
            left.ok_or_else(|| "an empty alternative (use ? for an optional part)".to_string())
        }
        fn repeat(&mut self) -> Result<Ast, String> {
            let mut atom = self.atom()?;
            while let Some(c) = self.peek() {
                atom = match c {
                    '*' => Ast::Star(Box::new(atom)),
                    '+' => Ast::Plus(Box::new(atom)),
                    '?' => Ast::Opt(Box::new(atom)),
                    _ => break,
                };
                self.at += 1;
            }
            Ok(atom)
        }
        fn atom(&mut self) -> Result<Ast, String> {
            let c = self.peek().ok_or("the expression ends early")?;
            self.at += 1;
            match c {
                '(' => {
                    let inner = self.alt()?;
                    if self.peek() != Some(')') {
                        return Err("an unclosed `(`".into());
                    }
                    self.at += 1;
                    Ok(inner)
                }
                '[' => {
                    let mut mask = 0;
                    loop {
                        match self.peek() {
                            Some(']') if mask != 0 => break,
                            Some(c) => mask |= self.letter(c).ok_or(format!("`{c}` in a class"))?,
                            None => return Err("an unclosed `[`".into()),
                        }
                        self.at += 1;
                    }
                    self.at += 1;
                    Ok(Ast::Set(mask))
                }
                c => self
                    .letter(c)
                    .map(Ast::Set)
                    .ok_or(format!("unexpected `{c}`")),
            }
        }
    }
    let chars: Vec<char> = text.chars().collect();
    let mut parser = Parser {
        chars: &chars,
        at: 0,
        alphabet,
    };
    let ast = parser.alt()?;
    if parser.at < chars.len() {
        return Err(format!("unexpected `{}`", chars[parser.at]));
    }
    Ok(ast)
}

/// A Thompson NFA: per state, a letter-set edge and epsilon edges.
pub(crate) struct Nfa {
    on: Vec<Option<(u8, usize)>>,
    eps: Vec<Vec<usize>>,
    start: usize,
    pub(crate) accept: usize,
}

impl Nfa {
    pub(crate) fn new(ast: &Ast) -> Nfa {
        let mut nfa = Nfa {
            on: Vec::new(),
            eps: Vec::new(),
            start: 0,
            accept: 0,
        };
        let (start, accept) = nfa.build(ast);
        nfa.start = start;
        nfa.accept = accept;
        nfa
    }

    fn state(&mut self) -> usize {
        self.on.push(None);
        self.eps.push(Vec::new());
        self.on.len() - 1
    }

    fn build(&mut self, ast: &Ast) -> (usize, usize) {
        match ast {
            Ast::Set(mask) => {
                let (s, e) = (self.state(), self.state());
                self.on[s] = Some((*mask, e));
                (s, e)
            }
            Ast::Concat(a, b) => {
                let (sa, ea) = self.build(a);
                let (sb, eb) = self.build(b);
                self.eps[ea].push(sb);
                (sa, eb)
            }
            Ast::Alt(a, b) => {
                let (sa, ea) = self.build(a);
                let (sb, eb) = self.build(b);
                let (s, e) = (self.state(), self.state());
                self.eps[s].extend([sa, sb]);
                self.eps[ea].push(e);
                self.eps[eb].push(e);
                (s, e)
            }
            Ast::Star(a) | Ast::Plus(a) | Ast::Opt(a) => {
                let (sa, ea) = self.build(a);
                let (s, e) = (self.state(), self.state());
                self.eps[s].push(sa);
                self.eps[ea].push(e);
                if !matches!(ast, Ast::Plus(_)) {
                    self.eps[s].push(e);
                }
                if !matches!(ast, Ast::Opt(_)) {
                    self.eps[ea].push(sa);
                }
                (s, e)
            }
        }
    }

    fn close(&self, set: &mut [bool], stack: &mut Vec<usize>) {
        while let Some(s) = stack.pop() {
            for &t in &self.eps[s] {
                if !set[t] {
                    set[t] = true;
                    stack.push(t);
                }
            }
        }
    }

    /// The states reached on the empty word.
    pub(crate) fn start_set(&self) -> Vec<bool> {
        let mut set = vec![false; self.on.len()];
        set[self.start] = true;
        self.close(&mut set, &mut vec![self.start]);
        set
    }

    /// The states reached from `set` on `letter`.
    pub(crate) fn step(&self, set: &[bool], letter: u8) -> Vec<bool> {
        let mut next = vec![false; set.len()];
        let mut stack = Vec::new();
        for s in (0..set.len()).filter(|&s| set[s]) {
            if let Some((mask, t)) = self.on[s]
                && mask >> letter & 1 == 1
                && !next[t]
            {
                next[t] = true;
                stack.push(t);
            }
        }
        self.close(&mut next, &mut stack);
        next
    }

    /// Whether the whole `word` matches: one pass over the word, each step
    /// at most every state and edge once.
    pub(crate) fn matches(&self, word: &[u8]) -> bool {
        let set = word
            .iter()
            .fold(self.start_set(), |set, &letter| self.step(&set, letter));
        set[self.accept]
    }
}
