//! stdin looks like the regular file a judge redirects it from (`./prog < input`).
//!
//! wasmtime-wasi gives the stdio descriptors a `filestat` with an unknown file type and
//! size 0, so the common fast-input idiom `fstat(0, &st); read(0, buf, st.st_size)` reads
//! nothing (a zero-length read even fails with `EINVAL`). Here `fd_filestat_get` on
//! descriptor 0, while it is still the stdin stream, reports a regular file whose size is
//! the input's length. Every other call, and the rest of the answer, is wasmtime-wasi's.
//! (The Python harness does the same for `os.fstat`, in `python/app.py`.)

use wasmtime::{Caller, Linker};
use wasmtime_wasi::p1::{WasiP1Ctx, wasi_snapshot_preview1};
use wiggle::GuestMemory;

use crate::SandboxError;

/// The `filestat` layout of the p1 ABI: `filetype` (one byte) at 16, `size` (u64) at 32.
const FILETYPE_AT: usize = 16;
const SIZE_AT: usize = 32;
const FILESTAT_BYTES: usize = 64;
/// p1 file types: what wasmtime-wasi gives a non-terminal stdio stream, and a regular file.
const FILETYPE_UNKNOWN: u8 = 0;
const FILETYPE_REGULAR_FILE: u8 = 4;
const ERRNO_SUCCESS: i32 = 0;
const ERRNO_FAULT: i32 = 21;

/// What the replacement needs from a store's data.
pub(crate) trait StdinFile {
    /// The length of this run's input.
    fn stdin_len(&self) -> u64;
    fn wasi(&mut self) -> &mut WasiP1Ctx;
}

/// Replaces the core linker's `fd_filestat_get` (call after
/// `wasmtime_wasi::p1::add_to_linker_sync`).
pub(crate) fn core<T: StdinFile + Send + 'static>(
    linker: &mut Linker<T>,
) -> Result<(), SandboxError> {
    linker.allow_shadowing(true);
    linker
        .func_wrap(
            "wasi_snapshot_preview1",
            "fd_filestat_get",
            |mut caller: Caller<'_, T>, fd: i32, buf: i32| -> wasmtime::Result<i32> {
                let Some(memory) = caller.get_export("memory").and_then(|e| e.into_memory()) else {
                    wasmtime::bail!("missing required memory export");
                };
                let (mem, data) = memory.data_and_store_mut(&mut caller);
                let len = data.stdin_len();
                // wasmtime-wasi's own implementation, as its linker would call it (the
                // generated ABI function; it only awaits for real files, which programs
                // do not have).
                let errno =
                    wasmtime_wasi::runtime::in_tokio(wasi_snapshot_preview1::fd_filestat_get(
                        data.wasi(),
                        &mut GuestMemory::Unshared(mem),
                        fd,
                        buf,
                    ))?;
                if fd != 0 || errno != ERRNO_SUCCESS {
                    return Ok(errno);
                }
                Ok(as_regular_file(mem, buf as u32, len))
            },
        )
        .map_err(SandboxError::engine)?;
    linker.allow_shadowing(false);
    Ok(())
}

/// Rewrites the `filestat` wasmtime-wasi wrote at `at` for descriptor 0 into a regular
/// file of `len` bytes, unless descriptor 0 is no longer the stdin stream (a program may
/// renumber another descriptor onto it).
fn as_regular_file(mem: &mut [u8], at: u32, len: u64) -> i32 {
    let at = at as usize;
    let Some(stat) = at
        .checked_add(FILESTAT_BYTES)
        .and_then(|end| mem.get_mut(at..end))
    else {
        return ERRNO_FAULT;
    };
    if stat[FILETYPE_AT] == FILETYPE_UNKNOWN {
        stat[FILETYPE_AT] = FILETYPE_REGULAR_FILE;
        stat[SIZE_AT..SIZE_AT + 8].copy_from_slice(&len.to_le_bytes());
    }
    ERRNO_SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_filestat_becomes_a_regular_file_of_the_input_length() {
        let mut mem = vec![0u8; 100];
        assert_eq!(as_regular_file(&mut mem, 8, 1234), ERRNO_SUCCESS);
        assert_eq!(mem[8 + FILETYPE_AT], FILETYPE_REGULAR_FILE);
        assert_eq!(&mem[8 + SIZE_AT..8 + SIZE_AT + 8], &1234u64.to_le_bytes());
        // Anything but the stream (here a character device) is left as it is.
        let mut mem = vec![0u8; 64];
        mem[FILETYPE_AT] = 2;
        assert_eq!(as_regular_file(&mut mem, 0, 9), ERRNO_SUCCESS);
        assert_eq!((mem[FILETYPE_AT], mem[SIZE_AT]), (2, 0));
        assert_eq!(as_regular_file(&mut mem, 1, 9), ERRNO_FAULT);
    }
}
