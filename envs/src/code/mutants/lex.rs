//! A small lexer for Python and C/C++ source text: just enough to find the integer
//! literals, operators and names that the mutation operators change, while skipping
//! comments, string and character literals and (in C) preprocessor lines, so that no
//! mutant edits text the compiler or interpreter does not read as code.
//!
//! It never needs to be complete: a token it misreads at worst yields a mutant that does
//! not compile, which the mutation check counts as stillborn, never as a survivor.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A decimal integer literal (digits only, C suffixes such as `LL` excluded).
    Int,
    /// A name or keyword.
    Name,
    /// An operator or punctuation.
    Op,
}

/// A token: its kind and its byte range in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tok {
    pub(crate) kind: Kind,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// Which lexical rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    Python,
    C,
}

const PY_OPS: &[&str] = &[
    "**=", "//=", ">>=", "<<=", "**", "//", "==", "!=", "<=", ">=", "->", "+=", "-=", "*=", "/=",
    "%=", "&=", "|=", "^=", "<<", ">>", ":=",
];
const C_OPS: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
    "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", "::",
];

/// The code tokens of `src`.
pub(crate) fn tokens(src: &str, syntax: Syntax) -> Vec<Tok> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let at_line_start = std::mem::replace(&mut line_start, false);
        match syntax {
            Syntax::Python if c == b'#' => {
                i = skip_line(b, i);
                continue;
            }
            Syntax::C if c == b'#' && at_line_start => {
                i = skip_directive(b, i);
                continue;
            }
            Syntax::C if b[i..].starts_with(b"//") => {
                i = skip_line(b, i);
                continue;
            }
            Syntax::C if b[i..].starts_with(b"/*") => {
                i = b[i + 2..]
                    .windows(2)
                    .position(|w| w == b"*/")
                    .map_or(b.len(), |p| i + 2 + p + 2);
                continue;
            }
            _ => {}
        }
        if c == b'"' || c == b'\'' {
            i = skip_string(b, i, syntax);
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let start = i;
            // A pp-number: digits, letters, `.`, `_`, `'` and signs after an exponent.
            while i < b.len() {
                let d = b[i];
                let exp_sign = (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E');
                if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' || d == b'\'' || exp_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            let text = &src[start..i];
            let digits = text.trim_end_matches(['l', 'L', 'u', 'U']);
            let kind = if !digits.is_empty()
                && digits.bytes().all(|d| d.is_ascii_digit())
                && (digits == "0" || !digits.starts_with('0'))
            {
                Kind::Int
            } else {
                Kind::Op // a float, hex or octal literal: never mutated
            };
            out.push(Tok {
                kind,
                start,
                end: start
                    + if kind == Kind::Int {
                        digits.len()
                    } else {
                        text.len()
                    },
            });
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            // A Python string prefix (r'', b"", f'') or a C encoding prefix (L"", u8"").
            if i < b.len() && (b[i] == b'"' || b[i] == b'\'') && i - start <= 2 {
                i = skip_string(b, i, syntax);
                continue;
            }
            out.push(Tok {
                kind: Kind::Name,
                start,
                end: i,
            });
            continue;
        }
        let ops = match syntax {
            Syntax::Python => PY_OPS,
            Syntax::C => C_OPS,
        };
        let len = ops
            .iter()
            .find(|op| b[i..].starts_with(op.as_bytes()))
            .map_or_else(
                || src[i..].chars().next().map_or(1, char::len_utf8),
                |op| op.len(),
            );
        out.push(Tok {
            kind: Kind::Op,
            start: i,
            end: i + len,
        });
        i += len;
    }
    out
}

fn skip_line(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| i + p)
}

/// A preprocessor directive, with its `\` line continuations.
fn skip_directive(b: &[u8], mut i: usize) -> usize {
    loop {
        let end = skip_line(b, i);
        let spliced = b[i..end].iter().rev().find(|c| !c.is_ascii_whitespace()) == Some(&b'\\');
        if !spliced || end >= b.len() {
            return end;
        }
        i = end + 1;
    }
}

/// Past the string or character literal opening at `i` (Python triple quotes included).
fn skip_string(b: &[u8], i: usize, syntax: Syntax) -> usize {
    let q = b[i];
    if syntax == Syntax::Python && b[i..].starts_with(&[q, q, q]) {
        let mut j = i + 3;
        while j < b.len() {
            if b[j] == b'\\' {
                j += 2;
            } else if b[j..].starts_with(&[q, q, q]) {
                return j + 3;
            } else {
                j += 1;
            }
        }
        return b.len();
    }
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            c if c == q => return j + 1,
            b'\n' => return j,
            _ => j += 1,
        }
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str, syntax: Syntax) -> Vec<(Kind, &str)> {
        tokens(src, syntax)
            .into_iter()
            .map(|t| (t.kind, &src[t.start..t.end]))
            .collect()
    }

    #[test]
    fn python_skips_comments_and_strings() {
        let src = "x = 3 # 4 < 5\ns = 'a<1' + r\"2\" + '''7\n<8'''\nif x <= 10: y = x ** 2.5\n";
        let ints: Vec<&str> = texts(src, Syntax::Python)
            .into_iter()
            .filter(|(k, _)| *k == Kind::Int)
            .map(|(_, t)| t)
            .collect();
        assert_eq!(ints, ["3", "10"]);
        assert!(texts(src, Syntax::Python).contains(&(Kind::Op, "<=")));
        assert!(texts(src, Syntax::Python).contains(&(Kind::Op, "**")));
    }

    #[test]
    fn c_skips_directives_comments_literals_and_keeps_suffixes_out() {
        let src = "#include <stdio.h>\n#define N \\\n 5\n/* 6 < 7 */ int a = 8LL; // 9\n\
                   char c = '1'; const char *s = \"2<3\"; if (a >= 0x10 && a < 11) a++;\n";
        let t = texts(src, Syntax::C);
        let ints: Vec<&str> = t
            .iter()
            .filter(|(k, _)| *k == Kind::Int)
            .map(|(_, s)| *s)
            .collect();
        assert_eq!(ints, ["8", "11"]);
        assert!(t.contains(&(Kind::Op, ">=")) && t.contains(&(Kind::Op, "&&")));
        assert!(t.contains(&(Kind::Op, "++")) && !t.contains(&(Kind::Op, "<<")));
    }
}
