//! `<bits/stdc++.h>` for C++ programs, and its precompiled form.
//!
//! Most competitive C++ starts with `#include <bits/stdc++.h>`, a GNU libstdc++ header
//! that libc++ lacks; we supply one (`sandbox/cpp/bits/stdc++.h`: every standard header
//! that libc++ for wasm32-wasi provides). Parsing it is most of a compile (≈1.7 CPU-s of
//! ≈1.9 here), so it is also precompiled once per machine and toolchain, and a program
//! that includes it before any code or macro of its own gets it as `-include-pch`:
//! ≈0.2 CPU-s instead. Both files live in a directory of the cache named by a hash of
//! the toolchain, the flags and the header, and are never rewritten (clang checks the
//! header's timestamp against the PCH).

use std::path::{Path, PathBuf};

use crate::cache::{self, BuildLock};
use crate::compiler::{Clang, Toolchain};
use crate::engine::SandboxInner;
use crate::{SandboxError, source_check};

/// Our `<bits/stdc++.h>`.
const BITS_STDCXX: &str = include_str!("../cpp/bits/stdc++.h");
const HEADER: &str = "bits/stdc++.h";
const PCH: &str = "stdc++.h.pch";

/// Where programs find `<bits/stdc++.h>`, and its precompiled form if building it worked.
pub(crate) struct CppPrelude {
    /// Passed as `-isystem` (and readable by the confined compiler).
    pub(crate) include_dir: PathBuf,
    pch: Option<PathBuf>,
}

impl CppPrelude {
    /// Writes the header and builds the PCH (both cached) for programs compiled with
    /// `compile_flags` (which must not yet name the include directory).
    pub(crate) fn prepare(
        sandbox: &SandboxInner,
        toolchain: &Toolchain,
        compile_flags: &[String],
    ) -> Result<CppPrelude, SandboxError> {
        let key = cache::content_hash(&[
            toolchain.version.as_bytes(),
            toolchain.dialect.base_flags().join(" ").as_bytes(),
            compile_flags.join(" ").as_bytes(),
            BITS_STDCXX.as_bytes(),
        ]);
        let root = sandbox.cache_dir.join("cpp-prelude");
        let include_dir = root.join(&key[..16]);
        let header = include_dir.join(HEADER);
        let pch = include_dir.join(PCH);
        if header.exists() && pch.exists() {
            return Ok(CppPrelude {
                include_dir,
                pch: Some(pch),
            });
        }
        let _lock = BuildLock::acquire(&root)?;
        if !header.exists() {
            cache::write_atomic(&header, BITS_STDCXX.as_bytes())?;
        }
        if !pch.exists() {
            let mut flags = compile_flags.to_vec();
            flags.extend(["-isystem".to_string(), include_dir.display().to_string()]);
            let read = [include_dir.clone()];
            match toolchain.precompile_header(&header, &flags, &read)? {
                Clang::Built(bytes) => cache::write_atomic(&pch, &bytes)?,
                // Programs then compile without it, only slower.
                Clang::Rejected(_) | Clang::TimedOut(_) => {
                    return Ok(CppPrelude {
                        include_dir,
                        pch: None,
                    });
                }
            }
        }
        Ok(CppPrelude {
            include_dir,
            pch: Some(pch),
        })
    }

    /// Extra flags for compiling `src`: `-include-pch` when it includes our header first.
    pub(crate) fn flags_for(&self, src: &str) -> Vec<String> {
        match &self.pch {
            Some(pch) if source_check::includes_first(src, HEADER) => {
                vec!["-include-pch".to_string(), pch.display().to_string()]
            }
            _ => Vec::new(),
        }
    }

    /// `-include-pch` whatever the source: for units that start with our own text (a
    /// function candidate after its prototype), where the header cannot come first.
    pub(crate) fn always_flags(&self) -> Vec<String> {
        self.pch
            .iter()
            .flat_map(|pch| ["-include-pch".to_string(), pch.display().to_string()])
            .collect()
    }

    pub(crate) fn include_dir(&self) -> &Path {
        &self.include_dir
    }
}

/// True when clang refused a PCH itself (e.g. a file it depends on changed): the program
/// is then compiled again without it.
pub(crate) fn pch_refused(diagnostics: &str) -> bool {
    diagnostics.contains("precompiled header") || diagnostics.contains("PCH file")
}
