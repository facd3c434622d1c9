//! The text check every C/C++ source passes before clang sees it: the first of three
//! layers that keep the compiler from reading host files (the others: the `-D` poisoning of
//! the inline-assembly keywords in [`crate::compiler`], and the Landlock confinement of the
//! clang process in [`crate::confine`], which alone would suffice).
//!
//! Rejected: inline assembly (`asm`, `__asm`, `__asm__`: `.incbin "PATH"` pulls any file
//! into the object), `#include` other than `<header>` from the policy's list (quoted,
//! absolute, `..`, macro-expanded such as `#include __FILE__`), `#include_next`,
//! `#import`, `#embed`, `__has_include`, `__has_embed`, `_Pragma`, and `#pragma` except
//! the harmless optimisation hints the policy allows.
//!
//! The check lexes as clang's preprocessor does, so that no byte clang reads as code is
//! taken here for a comment or a literal: line splices (`\`, optional blanks, newline)
//! anywhere except inside raw strings, `//` and `/* */` comments, string and character
//! literals with their prefixes, C++ raw strings `R"d(…)d"` (clang accepts them in the
//! `gnu17`/`gnu++20` modes we compile with), pp-numbers with digit separators (`1'000`),
//! and `%:` for `#`. Where the two could disagree (an unterminated literal, a malformed raw
//! string) the source is rejected.

/// Why a source is refused before clang sees it, phrased for the author of the source
/// (the candidate's compile error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SourceRejected {
    #[error("the source contains a NUL byte")]
    NulByte,
    /// A [`FORBIDDEN_WORDS`] identifier outside literals and comments.
    #[error("{why}")]
    ForbiddenWord { why: &'static str },
    /// `#include_next`, `#import`, `#embed`, or a `#pragma` the policy does not allow.
    #[error("#{name} is not allowed")]
    Directive { name: String },
    /// An `#include` not on the policy's list.
    #[error("#include {shown} is not allowed (allowed: <{}>)", .allowed.join(">, <"))]
    IncludeNotListed {
        shown: String,
        allowed: &'static [&'static str],
    },
    /// An `#include` that is not a plain `<relative/path>`.
    #[error("#include {shown} is not allowed (only standard headers: #include <name>)")]
    IncludeNotStandard { shown: String },
    /// Where our reading of the source could differ from clang's.
    #[error("{0}")]
    Unlexable(Unlexable),
}

/// A construct the check cannot be sure it reads as clang does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Unlexable {
    #[error("unterminated /* comment")]
    Comment,
    #[error("unterminated #include <…>")]
    HeaderName,
    #[error("unterminated string or character literal")]
    Literal,
    #[error("malformed raw string literal")]
    MalformedRawString,
    #[error("unterminated raw string literal")]
    RawString,
}

impl From<Unlexable> for SourceRejected {
    fn from(what: Unlexable) -> Self {
        SourceRejected::Unlexable(what)
    }
}

/// Which headers and pragmas a source may use.
pub(crate) struct SourcePolicy {
    pub(crate) headers: Headers,
    /// Allow `#pragma once` and `#pragma GCC optimize/target/push_options/pop_options/
    /// unroll/ivdep`, common in competitive programming (clang ignores most of them).
    pub(crate) optimisation_pragmas: bool,
}

/// The `#include <…>` rule.
pub(crate) enum Headers {
    /// Exactly these names.
    Only(&'static [&'static str]),
    /// Any relative path of plain components (`[A-Za-z0-9_+-.]`, no `..`): it can only
    /// resolve inside the include directories of the WASI sysroot and the compiler.
    Standard,
}

/// Function-call candidates (`code/functions-c-v2`): libc headers that read no task data.
pub(crate) const FUNCTION_POLICY: SourcePolicy = SourcePolicy {
    headers: Headers::Only(&[
        "assert.h",
        "ctype.h",
        "errno.h",
        "float.h",
        "inttypes.h",
        "iso646.h",
        "limits.h",
        "math.h",
        "stdalign.h",
        "stdarg.h",
        "stdbool.h",
        "stddef.h",
        "stdint.h",
        "stdio.h",
        "stdlib.h",
        "string.h",
        "strings.h",
        "time.h",
    ]),
    optimisation_pragmas: false,
};

/// Whole programs read from stdin (competitive programming): any standard header,
/// `<bits/stdc++.h>` included (supplied by the compiler module), and optimisation pragmas.
pub(crate) const PROGRAM_POLICY: SourcePolicy = SourcePolicy {
    headers: Headers::Standard,
    optimisation_pragmas: true,
};

/// Identifiers that are refused wherever they appear outside literals and comments.
const FORBIDDEN_WORDS: &[(&str, &str)] = &[
    ("asm", "inline assembly is not allowed"),
    ("__asm", "inline assembly is not allowed"),
    ("__asm__", "inline assembly is not allowed"),
    ("_Pragma", "`_Pragma` is not allowed"),
    ("__has_include", "`__has_include` is not allowed"),
    ("__has_include_next", "`__has_include_next` is not allowed"),
    ("__has_embed", "`__has_embed` is not allowed"),
];

const PRAGMA_GCC_ALLOWED: &[&str] = &[
    "optimize",
    "target",
    "push_options",
    "pop_options",
    "unroll",
    "ivdep",
];

/// `Ok` when `src` may be handed to clang under `policy`; else the reason, phrased for
/// the author of the source.
pub(crate) fn check_source(src: &str, policy: &SourcePolicy) -> Result<(), SourceRejected> {
    if src.contains('\0') {
        return Err(SourceRejected::NulByte);
    }
    for line in logical_lines(src)? {
        for tok in &line {
            if let Tok::Ident(word) = tok
                && let Some(&(_, why)) = FORBIDDEN_WORDS.iter().find(|(w, _)| w == word)
            {
                return Err(SourceRejected::ForbiddenWord { why });
            }
        }
        check_directive(&line, policy)?;
    }
    Ok(())
}

/// True when `src` includes `header` before anything but other `#include <…>` and
/// `#pragma` lines (and comments): then including it first, e.g. from a precompiled
/// header, does not change what the source means. Call on checked sources only.
pub(crate) fn includes_first(src: &str, header: &str) -> bool {
    let Ok(lines) = logical_lines(src) else {
        return false;
    };
    for line in lines.iter().filter(|l| !l.is_empty()) {
        match line.as_slice() {
            [Tok::Hash, Tok::Ident(name), Tok::Header(h)] if name == "include" => {
                if h == header {
                    return true;
                }
            }
            [Tok::Hash, Tok::Ident(name), ..] if name == "pragma" => {}
            _ => return false,
        }
    }
    false
}

fn check_directive(line: &[Tok], policy: &SourcePolicy) -> Result<(), SourceRejected> {
    let [Tok::Hash, rest @ ..] = line else {
        return Ok(());
    };
    let Some(Tok::Ident(name)) = rest.first() else {
        return Ok(()); // the null directive, or `# 12 "file"` line markers: harmless
    };
    let args = &rest[1..];
    match name.as_str() {
        "include" => check_include(args, &policy.headers),
        "pragma" if policy.optimisation_pragmas && pragma_allowed(args) => Ok(()),
        "include_next" | "import" | "embed" | "pragma" => {
            Err(SourceRejected::Directive { name: name.clone() })
        }
        _ => Ok(()),
    }
}

fn check_include(args: &[Tok], headers: &Headers) -> Result<(), SourceRejected> {
    let header = match args {
        [Tok::Header(h)] => h.as_str(),
        _ => "",
    };
    let ok = match headers {
        Headers::Only(list) => list.contains(&header),
        Headers::Standard => plain_relative_path(header),
    };
    if ok {
        return Ok(());
    }
    let shown = args.iter().map(Tok::text).collect::<Vec<_>>().join(" ");
    Err(match headers {
        Headers::Only(allowed) => SourceRejected::IncludeNotListed { shown, allowed },
        Headers::Standard => SourceRejected::IncludeNotStandard { shown },
    })
}

fn plain_relative_path(p: &str) -> bool {
    !p.is_empty()
        && p.len() <= 200
        && p.split('/').all(|part| {
            !part.is_empty()
                && part != "."
                && part != ".."
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_+-.".contains(&b))
        })
}

fn pragma_allowed(args: &[Tok]) -> bool {
    match args {
        [Tok::Ident(once)] => once == "once",
        [Tok::Ident(gcc), Tok::Ident(what), ..] => {
            gcc == "GCC" && PRAGMA_GCC_ALLOWED.contains(&what.as_str())
        }
        _ => false,
    }
}

/// A token as far as the checks need one.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// `#` or `%:` starting a logical line.
    Hash,
    Ident(String),
    /// `<…>` right after `#include`-like directive names.
    Header(String),
    /// A string/char literal or a pp-number (contents irrelevant).
    Literal,
    Punct(char),
}

impl Tok {
    fn text(&self) -> String {
        match self {
            Tok::Hash => "#".into(),
            Tok::Ident(s) => s.clone(),
            Tok::Header(h) => format!("<{h}>"),
            Tok::Literal => "\"…\"".into(),
            Tok::Punct(c) => c.to_string(),
        }
    }
}

/// The source as clang's lexer sees it: one token list per logical line (a directive
/// needs its `#` first on its line). Errors where our reading could differ from clang's.
fn logical_lines(src: &str) -> Result<Vec<Vec<Tok>>, Unlexable> {
    let mut lx = Lexer {
        s: src.as_bytes(),
        i: 0,
    };
    let mut lines = Vec::new();
    let mut line: Vec<Tok> = Vec::new();
    while let Some(c) = lx.peek() {
        let start = lx.i;
        match c {
            b'\n' => {
                lx.bump();
                lines.push(std::mem::take(&mut line));
            }
            b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => lx.bump(),
            b'/' if lx.peek_at(1) == Some(b'/') => {
                while !matches!(lx.peek(), None | Some(b'\n')) {
                    lx.bump();
                }
            }
            b'/' if lx.peek_at(1) == Some(b'*') => {
                lx.bump();
                lx.bump();
                loop {
                    match lx.peek() {
                        None => return Err(Unlexable::Comment),
                        Some(b'*') if lx.peek_at(1) == Some(b'/') => {
                            lx.bump();
                            lx.bump();
                            break;
                        }
                        _ => lx.bump(),
                    }
                }
            }
            b'#' if line.is_empty() => {
                lx.bump();
                line.push(Tok::Hash);
            }
            b'%' if line.is_empty() && lx.peek_at(1) == Some(b':') => {
                lx.bump();
                lx.bump();
                line.push(Tok::Hash);
            }
            b'<' if is_include_like(&line) => {
                lx.bump();
                let mut name = Vec::new();
                while let Some(c) = lx.peek() {
                    if c == b'>' || c == b'\n' {
                        break;
                    }
                    name.push(c);
                    lx.bump();
                }
                if lx.peek() != Some(b'>') {
                    return Err(Unlexable::HeaderName);
                }
                lx.bump();
                line.push(Tok::Header(String::from_utf8_lossy(&name).into_owned()));
            }
            b'"' | b'\'' => {
                lx.quoted(c)?;
                line.push(Tok::Literal);
            }
            c if c.is_ascii_digit() || (c == b'.' && lx.peek_at(1).is_some_and(is_digit)) => {
                lx.pp_number();
                line.push(Tok::Literal);
            }
            c if is_ident_start(c) => {
                let word = lx.ident();
                match lx.peek() {
                    Some(b'"')
                        if word.ends_with('R') && is_encoding_prefix(&word[..word.len() - 1]) =>
                    {
                        lx.raw_string()?;
                        line.push(Tok::Literal);
                    }
                    Some(q @ (b'"' | b'\'')) if is_encoding_prefix(&word) && !word.is_empty() => {
                        lx.quoted(q)?;
                        line.push(Tok::Literal);
                    }
                    _ => line.push(Tok::Ident(word)),
                }
            }
            other => {
                lx.bump();
                line.push(Tok::Punct(other as char));
            }
        }
        debug_assert!(
            lx.i > start || lx.peek().is_none(),
            "lexer made no progress"
        );
    }
    lines.push(line);
    Ok(lines)
}

fn is_include_like(line: &[Tok]) -> bool {
    matches!(line, [Tok::Hash, Tok::Ident(name)]
        if matches!(name.as_str(), "include" | "include_next" | "import" | "embed"))
}

fn is_digit(c: u8) -> bool {
    c.is_ascii_digit()
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80 || c == b'\\'
}

fn is_ident_continue(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

fn is_encoding_prefix(word: &str) -> bool {
    matches!(word, "" | "L" | "u" | "U" | "u8")
}

/// Byte cursor that skips line splices (`\`, optional blanks, `\n`) as clang does in
/// phase 2, except where a caller reads raw bytes (raw string bodies).
struct Lexer<'a> {
    s: &'a [u8],
    i: usize,
}

impl Lexer<'_> {
    /// Length of a line splice starting at `j`, if there is one.
    fn splice_at(&self, j: usize) -> Option<usize> {
        if self.s.get(j) != Some(&b'\\') {
            return None;
        }
        let mut k = j + 1;
        while matches!(self.s.get(k), Some(b' ' | b'\t' | b'\x0b' | b'\x0c')) {
            k += 1;
        }
        if self.s.get(k) == Some(&b'\r') {
            k += 1;
        }
        (self.s.get(k) == Some(&b'\n')).then_some(k + 1 - j)
    }

    /// Index of the `n`-th logical byte from the cursor.
    fn logical_index(&self, n: usize) -> usize {
        let mut j = self.i;
        let mut left = n;
        loop {
            while let Some(len) = self.splice_at(j) {
                j += len;
            }
            if left == 0 {
                return j;
            }
            j += 1;
            left -= 1;
        }
    }

    fn peek_at(&self, n: usize) -> Option<u8> {
        self.s.get(self.logical_index(n)).copied()
    }

    fn peek(&self) -> Option<u8> {
        self.peek_at(0)
    }

    fn bump(&mut self) {
        self.i = (self.logical_index(0) + 1).min(self.s.len());
    }

    fn ident(&mut self) -> String {
        let mut word = Vec::new();
        while let Some(c) = self.peek().filter(|&c| is_ident_continue(c)) {
            word.push(c);
            self.bump();
        }
        String::from_utf8_lossy(&word).into_owned()
    }

    fn pp_number(&mut self) {
        self.bump();
        while let Some(c) = self.peek() {
            let next = self.peek_at(1);
            let sign_after_exp =
                matches!(c, b'e' | b'E' | b'p' | b'P') && matches!(next, Some(b'+' | b'-'));
            // A digit separator only between alphanumerics: `1'000`, not `1'a'`'s quote.
            let separator =
                c == b'\'' && next.is_some_and(|n| n.is_ascii_alphanumeric() || n == b'_');
            if sign_after_exp {
                self.bump();
                self.bump();
            } else if separator || c == b'.' || is_ident_continue(c) {
                self.bump();
            } else {
                break;
            }
        }
    }

    /// A "…" or '…' literal; it may not run past its logical line.
    fn quoted(&mut self, quote: u8) -> Result<(), Unlexable> {
        self.bump();
        loop {
            match self.peek() {
                None | Some(b'\n') => return Err(Unlexable::Literal),
                Some(b'\\') => {
                    self.bump();
                    if self.peek().is_some_and(|c| c != b'\n') {
                        self.bump();
                    }
                }
                Some(c) => {
                    self.bump();
                    if c == quote {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// `R"delim( … )delim"`, cursor on the `"`. Read raw from the quote on: clang reverts
    /// line splices inside raw string literals, delimiters included.
    fn raw_string(&mut self) -> Result<(), Unlexable> {
        let quote = self.logical_index(0);
        let rest = &self.s[quote + 1..];
        let Some(open) = rest.iter().position(|&c| c == b'(') else {
            return Err(Unlexable::MalformedRawString);
        };
        let delim = &rest[..open];
        if delim.len() > 16 || delim.iter().any(|c| b" \\)\t\n\r\x0b\x0c\"".contains(c)) {
            return Err(Unlexable::MalformedRawString);
        }
        let mut close = vec![b')'];
        close.extend_from_slice(delim);
        close.push(b'"');
        let body = &rest[open + 1..];
        match body
            .windows(close.len())
            .position(|w| w == close.as_slice())
        {
            Some(at) => {
                self.i = quote + 1 + open + 1 + at + close.len();
                Ok(())
            }
            None => Err(Unlexable::RawString),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Result<(), SourceRejected> {
        check_source(src, &PROGRAM_POLICY)
    }

    #[test]
    fn function_policy() {
        let ok = |s: &str| check_source(s, &FUNCTION_POLICY);
        assert!(ok("#include <stdio.h>\nint f(void){return 1;}").is_ok());
        assert!(ok("int f(void){ return '#'; } // #include \"x\"").is_ok());
        for bad in [
            "#include \"/etc/passwd\"",
            "  #  include </etc/passwd>",
            "#define P \"/etc/passwd\"\n#include P",
            "/* x */ #include \"a.h\"",
            "#inc\\\nlude \"a.h\"",
            "#inc\\  \nlude \"a.h\"",
            "%:include \"a.h\"",
            "#embed \"/etc/passwd\"",
            "#if __has_include(\"/etc/passwd\")\n#endif",
            "#pragma clang __debug crash",
            "#pragma GCC optimize(\"O2\")",
            "_Pragma(\"clang __debug crash\")",
            "#include_next <stdio.h>",
            "#include <vector>",
            "#include __FILE__",
        ] {
            assert!(ok(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn program_policy_accepts_competitive_programming_code() {
        for good in [
            "#include <bits/stdc++.h>\nusing namespace std;\nint main(){int n; cin >> n;}",
            "#pragma GCC optimize(\"O3,unroll-loops\")\n#pragma GCC target(\"avx2\")\n\
             #include <iostream>\nint main(){}",
            "#pragma once\n#include <sys/types.h>\n#include <ext/algorithm>\nint x = 1'000'000;",
            "const char *s = R\"x(a \" // not a comment )\" )x\"; int asmx; int _asm;",
            "char c = '\\''; const char *t = \"asm(\\\"x\\\")\"; // __asm__\n/* asm */",
            "auto s = u8\"x\"; auto w = L'x'; double d = 1e+5, h = 0x1p-3; int y = 0'1;",
        ] {
            assert_eq!(program(good), Ok(()), "{good}");
        }
    }

    #[test]
    fn every_escape_is_rejected() {
        for bad in [
            // inline assembly, however spelled
            "__asm__(\".incbin \\\"/etc/hostname\\\"\");",
            "asm(\".incbin \\\"/etc/hostname\\\"\");",
            "void f(void) { __asm volatile(\"\"); }",
            "__as\\\nm__(\".incbin \\\"x\\\"\");",
            "#define A __asm__\nA(\"x\");",
            "#undef __asm__",
            // a digit separator must not open a char literal that hides code
            "int x = 1'0; __asm__(\"x\"); int y = 2'0;",
            // includes and embeds of host files
            "#include </etc/passwd>",
            "#include <../../../etc/passwd>",
            "#include <bits/./stdc++.h>",
            "#define F </etc/hostname>\n#include F",
            "#line 1 \"/etc/passwd\"\n#include __FILE__",
            "#embed </etc/hostname>",
            "%:embed \"/etc/hostname\"",
            "#if __has_embed(\"/etc/hostname\")\n#endif",
            "#import <stdio.h>",
            "#pragma GCC dependency \"/etc/passwd\"",
            "#pragma GCC poison x",
            "#pragma push_macro(\"__asm__\")",
            // our reading and clang's must agree, or we refuse
            "const char *s = \"unterminated;\n__asm__(\"x\");",
            "const char *s = R\"(never closed",
            "const char *s = R\"a b(x)a b\"; __asm__(\"x\");",
            "/* unterminated",
            "int a\0;",
        ] {
            assert!(program(bad).is_err(), "accepted: {bad}");
        }
    }

    #[test]
    fn header_first_only_before_any_code_or_macro() {
        let first = |s: &str| includes_first(s, "bits/stdc++.h");
        assert!(first("#include <bits/stdc++.h>\nusing namespace std;"));
        assert!(first(
            "// solution\n#pragma GCC optimize(\"O3\")\n#include <iostream>\n\n\
             /* c */ #include <bits/stdc++.h>\nint main() {}"
        ));
        assert!(!first("#define int long long\n#include <bits/stdc++.h>"));
        assert!(!first("using namespace std;\n#include <bits/stdc++.h>"));
        assert!(!first("#include <vector>\nint main() {}"));
        assert!(!first("#ifdef X\n#include <bits/stdc++.h>\n#endif"));
    }

    #[test]
    fn raw_string_bodies_keep_their_splices() {
        // clang reverts the splice inside the raw string, so `)x\<newline>"` does not close
        // it; reading it as closed would hide the asm that follows the real close from us.
        let src = "const char *s = R\"x( )x\\\n\" )x\" __asm__(\"y\");";
        assert!(program(src).is_err());
        // and a well-formed one with a splice-looking body is fine
        assert_eq!(program("const char *s = R\"x(a\\\nb)x\";"), Ok(()));
    }
}
