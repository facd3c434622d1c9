//! The C calling convention: typed signatures, argv encoding of a case and the generated
//! trusted `main`, in C or in C++ (where lists are `std::vector` and strings
//! `std::string`). (The source check is [`crate::source_check`].)

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::compiler::Dialect;

/// The prefix of the one stdout line carrying the result (ASCII RS, then a tag).
pub(crate) const RESULT_MARKER: &str = "\u{1e}verigym-result ";

/// Why a signature or a case cannot be encoded for the trusted `main` (the caller's
/// mistake, reported as [`crate::SandboxError::InvalidInput`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum SignatureError {
    #[error("invalid C function name {0:?}")]
    BadName(String),
    #[error("IntList is not supported as a return type")]
    ListReturn,
    #[error("arguments must be a JSON array, got {0}")]
    NotAnArray(Value),
    #[error("{got} arguments for {params} parameters")]
    Arity { got: usize, params: usize },
    #[error("{value} is not a {ty:?}")]
    WrongType { value: Value, ty: CType },
}

/// A C parameter or return type. wasm32 is ILP32 (`long` is 32-bit), hence `int64_t`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CType {
    /// `int64_t`; JSON integer.
    Int,
    /// `double`; JSON float (`{"$float": "nan"|"inf"|"-inf"}` for non-finite values).
    Float,
    /// `bool` (`<stdbool.h>`); JSON bool.
    Bool,
    /// `const char *` (NUL-terminated UTF-8); JSON string. A NULL return is `null`.
    Str,
    /// Parameter only: two C parameters `const int64_t *xs, size_t n`; JSON int array.
    IntList,
}

impl CType {
    fn c_param(self) -> &'static str {
        match self {
            CType::Int => "int64_t",
            CType::Float => "double",
            CType::Bool => "bool",
            CType::Str => "const char *",
            CType::IntList => "const int64_t *, size_t",
        }
    }

    /// The C++ parameter type: containers by const reference.
    fn cpp_param(self) -> &'static str {
        match self {
            CType::Str => "const std::string &",
            CType::IntList => "const std::vector<int64_t> &",
            other => other.c_param(),
        }
    }

    /// The type a function of `dialect` returns (a C++ string is returned by value).
    fn ret(self, dialect: Dialect) -> &'static str {
        match (dialect, self) {
            (Dialect::Cpp, CType::Str) => "std::string",
            _ => self.c_param(),
        }
    }
}

/// The function a C candidate must define, e.g. `int64_t add(int64_t, int64_t)` is
/// `CSignature { name: "add".into(), params: vec![CType::Int, CType::Int], ret: CType::Int }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CSignature {
    pub name: String,
    pub params: Vec<CType>,
    pub ret: CType,
}

impl CSignature {
    fn prototype(&self, dialect: Dialect) -> Result<String, SignatureError> {
        let ident_ok = !self.name.is_empty()
            && !self.name.starts_with(|c: char| c.is_ascii_digit())
            && self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
            && self.name != "main";
        if !ident_ok {
            return Err(SignatureError::BadName(self.name.clone()));
        }
        if self.ret == CType::IntList {
            return Err(SignatureError::ListReturn);
        }
        let params: Vec<_> = self
            .params
            .iter()
            .map(|t| match dialect {
                Dialect::C => t.c_param(),
                Dialect::Cpp => t.cpp_param(),
            })
            .collect();
        let params = match (params.is_empty(), dialect) {
            (true, Dialect::C) => "void".to_string(),
            _ => params.join(", "),
        };
        Ok(format!("{} {}({params})", self.ret.ret(dialect), self.name))
    }

    /// The candidate's translation unit: standard headers and the prototype first, so a
    /// mismatching definition is a compile error (in C++, a definition with other
    /// parameters is an overload, and linking fails instead), then the source at line 1.
    pub(crate) fn candidate_unit(&self, dialect: Dialect, src: &str) -> String {
        let proto = self.prototype(dialect).unwrap_or_default();
        let headers = match dialect {
            Dialect::C => "#include <stdint.h>\n#include <stdbool.h>\n#include <stddef.h>\n",
            Dialect::Cpp => {
                "#include <cstdint>\n#include <cstddef>\n#include <string>\n#include <vector>\n"
            }
        };
        let name = format!("candidate.{}", dialect.extension());
        format!("{headers}{proto};\n#line 1 \"{name}\"\n{src}\n")
    }

    /// The trusted `main`: argv → typed arguments → call → one marker line of JSON. The
    /// same text is C and C++ but for the prototype, the containers and the string
    /// result.
    pub(crate) fn main_unit(&self, dialect: Dialect) -> String {
        let proto = self.prototype(dialect).unwrap_or_default();
        let cpp = dialect == Dialect::Cpp;
        let mut decls = String::new();
        let mut call_args = Vec::new();
        for (i, t) in self.params.iter().enumerate() {
            let a = format!("argv[{}]", i + 1);
            match t {
                CType::Int => call_args.push(format!("(int64_t)strtoll({a}, NULL, 10)")),
                CType::Float => call_args.push(format!("strtod({a}, NULL)")),
                CType::Bool => call_args.push(format!("({a}[0] == '1')")),
                CType::Str => call_args.push(a),
                CType::IntList => {
                    decls.push_str(&format!(
                        "    int64_t *l{i}; size_t n{i} = parse_list({a}, &l{i});\n"
                    ));
                    call_args.push(if cpp {
                        format!("std::vector<int64_t>(l{i}, l{i} + n{i})")
                    } else {
                        format!("l{i}, n{i}")
                    });
                }
            }
        }
        let put = match self.ret {
            CType::Int => "printf(\"%lld\", (long long)r)",
            CType::Float => "put_float(r)",
            CType::Bool => "fputs(r ? \"true\" : \"false\", stdout)",
            CType::Str if cpp => "put_str(r.c_str())",
            CType::Str => "put_str(r)",
            CType::IntList => "",
        };
        let marker = RESULT_MARKER.replace('\u{1e}', "\\x1e");
        format!(
            r#"{cpp_headers}#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

{proto};

static size_t parse_list(const char *s, int64_t **out) {{
    size_t n = 0;
    if (*s) {{ n = 1; for (const char *p = s; *p; p++) n += (*p == ','); }}
    *out = (int64_t *)malloc((n ? n : 1) * sizeof(int64_t));
    if (!*out) {{ fputs("harness: out of memory\n", stderr); abort(); }}
    char *end = (char *)s;
    for (size_t i = 0; i < n; i++) {{ (*out)[i] = strtoll(end, &end, 10); if (*end == ',') end++; }}
    return n;
}}

static void put_float(double d) {{
    if (isnan(d)) {{ fputs("{{\"$float\":\"nan\"}}", stdout); return; }}
    if (isinf(d)) {{ fputs(d > 0 ? "{{\"$float\":\"inf\"}}" : "{{\"$float\":\"-inf\"}}", stdout); return; }}
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", d);
    fputs(buf, stdout);
    if (!strpbrk(buf, ".e")) fputs(".0", stdout); /* keep it a JSON float */
}}

static void put_str(const char *s) {{
    if (!s) {{ fputs("null", stdout); return; }}
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {{
        if (*p == '"' || *p == '\\') {{ putchar('\\'); putchar(*p); }}
        else if (*p < 0x20) printf("\\u%04x", *p);
        else putchar(*p);
    }}
    putchar('"');
}}

int main(int argc, char **argv) {{
    if (argc != {argc}) return 2;
{decls}    {ret} r = {name}({args});
    fflush(stdout);
    fputs("\n{marker}", stdout);
    {put};
    fputs("\n", stdout);
    fflush(stdout);
    return 0;
}}
"#,
            argc = self.params.len() + 1,
            cpp_headers = if cpp {
                "#include <string>\n#include <vector>\n"
            } else {
                ""
            },
            ret = self.ret.ret(dialect),
            name = self.name,
            args = call_args.join(", "),
        )
    }

    /// argv for one case (argv[0] is the program name); checks the JSON against the types.
    pub(crate) fn argv(&self, args: &Value) -> Result<Vec<String>, SignatureError> {
        self.prototype(Dialect::C)?;
        let Value::Array(args) = args else {
            return Err(SignatureError::NotAnArray(args.clone()));
        };
        if args.len() != self.params.len() {
            return Err(SignatureError::Arity {
                got: args.len(),
                params: self.params.len(),
            });
        }
        let mut argv = vec!["candidate".to_string()];
        for (t, v) in self.params.iter().zip(args) {
            let bad = || SignatureError::WrongType {
                value: v.clone(),
                ty: *t,
            };
            argv.push(match (t, v) {
                (CType::Int, Value::Number(n)) => n.as_i64().ok_or_else(bad)?.to_string(),
                (CType::Float, Value::Number(n)) => format!("{:?}", n.as_f64().ok_or_else(bad)?),
                (CType::Float, Value::Object(o)) => match o.get("$float").and_then(Value::as_str) {
                    Some(s @ ("nan" | "inf" | "-inf")) if o.len() == 1 => s.to_string(),
                    _ => return Err(bad()),
                },
                (CType::Bool, Value::Bool(b)) => (if *b { "1" } else { "0" }).to_string(),
                (CType::Str, Value::String(s)) if !s.contains('\0') => s.clone(),
                (CType::IntList, Value::Array(xs)) => xs
                    .iter()
                    .map(|x| x.as_i64().map(|x| x.to_string()).ok_or_else(bad))
                    .collect::<Result<Vec<_>, _>>()?
                    .join(","),
                _ => return Err(bad()),
            });
        }
        Ok(argv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argv_encoding() {
        let sig = CSignature {
            name: "f".into(),
            params: vec![
                CType::Int,
                CType::Float,
                CType::Bool,
                CType::Str,
                CType::IntList,
            ],
            ret: CType::Int,
        };
        let argv = sig
            .argv(&serde_json::json!([-3, 0.5, true, "hi", [1, -2]]))
            .unwrap();
        assert_eq!(argv, ["candidate", "-3", "0.5", "1", "hi", "1,-2"]);
        assert!(
            sig.argv(&serde_json::json!([1.5, 0.5, true, "hi", []]))
                .is_err()
        );
        assert!(sig.argv(&serde_json::json!([1])).is_err());
    }
}
