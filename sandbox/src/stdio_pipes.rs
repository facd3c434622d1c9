//! The standard streams of an instance, as the host sees them: a stdin the host can refill
//! and capped stdout/stderr captures it can read and empty, so that one instance can run a
//! program on test after test, each with its own input and output. Between refills they
//! behave exactly as wasmtime-wasi's `MemoryInputPipe` and `MemoryOutputPipe`.

use std::sync::{Arc, Mutex, MutexGuard};

use bytes::{Bytes, BytesMut};
use wasmtime::format_err;
use wasmtime_wasi::cli::{IsTerminal, StdinStream, StdoutStream};
use wasmtime_wasi::p2::{InputStream, OutputStream, Pollable, StreamError};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Stdin: the bytes left to read. Reading past the end is end-of-file (`Closed`), which
/// the guest's libc does not remember: after [`RefillableInput::refill`] reads go on.
#[derive(Clone, Default)]
pub(crate) struct RefillableInput(Arc<Mutex<Bytes>>);

impl RefillableInput {
    pub(crate) fn new(bytes: &[u8]) -> Self {
        RefillableInput(Arc::new(Mutex::new(Bytes::copy_from_slice(bytes))))
    }

    /// Replaces whatever was left unread with `bytes`.
    pub(crate) fn refill(&self, bytes: &[u8]) {
        *lock(&self.0) = Bytes::copy_from_slice(bytes);
    }
}

impl InputStream for RefillableInput {
    fn read(&mut self, size: usize) -> Result<Bytes, StreamError> {
        let mut left = lock(&self.0);
        if left.is_empty() {
            return Err(StreamError::Closed);
        }
        let size = size.min(left.len());
        Ok(left.split_to(size))
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for RefillableInput {
    async fn ready(&mut self) {}
}

impl tokio::io::AsyncRead for RefillableInput {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let mut left = lock(&self.0);
        let size = buf.remaining().min(left.len());
        buf.put_slice(&left.split_to(size));
        std::task::Poll::Ready(Ok(()))
    }
}

impl IsTerminal for RefillableInput {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdinStream for RefillableInput {
    fn p2_stream(&self) -> Box<dyn InputStream> {
        Box::new(self.clone())
    }
    fn async_stream(&self) -> Box<dyn tokio::io::AsyncRead + Send + Sync> {
        Box::new(self.clone())
    }
}

/// Stdout or stderr: everything written, up to `capacity` bytes. A write that does not fit
/// is a trap and a full pipe reports `Closed`, as with wasmtime-wasi's memory pipe.
#[derive(Clone)]
pub(crate) struct ClearableOutput {
    capacity: usize,
    buffer: Arc<Mutex<BytesMut>>,
}

impl ClearableOutput {
    pub(crate) fn new(capacity: usize) -> Self {
        ClearableOutput {
            capacity,
            buffer: Arc::default(),
        }
    }

    pub(crate) fn contents(&self) -> Bytes {
        lock(&self.buffer).clone().freeze()
    }

    pub(crate) fn len(&self) -> usize {
        lock(&self.buffer).len()
    }

    /// Forgets everything written: the next run's output starts empty, with the whole cap.
    pub(crate) fn clear(&self) {
        lock(&self.buffer).clear();
    }
}

impl OutputStream for ClearableOutput {
    fn write(&mut self, bytes: Bytes) -> Result<(), StreamError> {
        let mut buf = lock(&self.buffer);
        if bytes.len() > self.capacity - buf.len() {
            return Err(StreamError::Trap(format_err!(
                "write beyond the output cap of {} bytes",
                self.capacity
            )));
        }
        buf.extend_from_slice(&bytes);
        Ok(())
    }

    fn flush(&mut self) -> Result<(), StreamError> {
        Ok(())
    }

    fn check_write(&mut self) -> Result<usize, StreamError> {
        let used = lock(&self.buffer).len();
        if used < self.capacity {
            Ok(self.capacity - used)
        } else {
            Err(StreamError::Closed)
        }
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for ClearableOutput {
    async fn ready(&mut self) {}
}

impl tokio::io::AsyncWrite for ClearableOutput {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let mut buffer = lock(&self.buffer);
        let n = buf.len().min(self.capacity - buffer.len());
        buffer.extend_from_slice(&buf[..n]);
        std::task::Poll::Ready(Ok(n))
    }
    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}

impl IsTerminal for ClearableOutput {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for ClearableOutput {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }
    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_reads_to_the_end_then_reads_the_refill() {
        let mut input = RefillableInput::new(b"abc");
        assert_eq!(&input.read(2).unwrap()[..], b"ab");
        assert_eq!(&input.read(10).unwrap()[..], b"c");
        assert!(matches!(input.read(1), Err(StreamError::Closed)));
        input.refill(b"xy");
        assert_eq!(&input.read(10).unwrap()[..], b"xy");
        // A refill replaces what was left unread.
        input.refill(b"123");
        input.refill(b"9");
        assert_eq!(&input.read(10).unwrap()[..], b"9");
    }

    #[test]
    fn output_keeps_its_cap_and_clearing_restores_it() {
        let out = ClearableOutput::new(4);
        let mut stream = out.p2_stream();
        stream.write(Bytes::from_static(b"abc")).unwrap();
        assert!(stream.write(Bytes::from_static(b"de")).is_err());
        stream.write(Bytes::from_static(b"d")).unwrap();
        assert!(matches!(stream.check_write(), Err(StreamError::Closed)));
        assert_eq!(&out.contents()[..], b"abcd");
        out.clear();
        assert_eq!(stream.check_write().unwrap(), 4);
        stream.write(Bytes::from_static(b"z")).unwrap();
        assert_eq!((&out.contents()[..], out.len()), (&b"z"[..], 1));
    }
}
