//! The WASI context every instance runs in: no filesystem, network, environment or host
//! randomness; fixed clocks and random bytes; stdin from the host; stdout and stderr
//! captured into capped pipes ([`Captured`]), which the host may refill and empty between
//! runs of one program in one instance ([`Captured::next_run`]).

use std::time::Duration;

use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtxBuilder};

use crate::limits::Limits;
use crate::stdio_pipes::{ClearableOutput, RefillableInput};

/// The standard streams of one instance: captured stdout/stderr and the stdin feed.
#[derive(Clone)]
pub(crate) struct Captured {
    pub(crate) stdout: ClearableOutput,
    pub(crate) stderr: ClearableOutput,
    stdin: RefillableInput,
    cap: usize,
}

impl Captured {
    /// True once either stream has been filled to its cap (later writes were refused).
    pub(crate) fn overflowed(&self) -> bool {
        self.stdout.len() >= self.cap || self.stderr.len() >= self.cap
    }

    pub(crate) fn texts(&self) -> (String, String) {
        let text = |p: &ClearableOutput| String::from_utf8_lossy(&p.contents()).into_owned();
        (text(&self.stdout), text(&self.stderr))
    }

    /// Readies the streams for the next run in the same instance: `input` on stdin (what
    /// the last run left unread is gone), stdout and stderr empty with their whole cap.
    pub(crate) fn next_run(&self, input: &[u8]) {
        self.stdin.refill(input);
        self.stdout.clear();
        self.stderr.clear();
    }
}

/// A WASI context with no filesystem, network, environment or host randomness, and
/// deterministic clocks and random bytes, so the same candidate always behaves the same.
pub(crate) fn sealed_wasi(
    limits: &Limits,
    stdin: &[u8],
    args: &[String],
) -> (WasiCtxBuilder, Captured) {
    // At least one byte: a zero-capacity pipe would count as overflowed before any write.
    let cap = limits.output_bytes.max(1);
    let captured = Captured {
        stdout: ClearableOutput::new(cap),
        stderr: ClearableOutput::new(cap),
        stdin: RefillableInput::new(stdin),
        cap,
    };
    let mut b = WasiCtxBuilder::new();
    b.stdin(captured.stdin.clone())
        .stdout(captured.stdout.clone())
        .stderr(captured.stderr.clone())
        .args(args)
        .secure_random(wasmtime_wasi::Deterministic::new(fixed_random_bytes()))
        .insecure_random(wasmtime_wasi::Deterministic::new(fixed_random_bytes()))
        .insecure_random_seed(0x5eed)
        .wall_clock(FixedWallClock)
        .monotonic_clock(SteppingClock::default())
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false);
    (b, captured)
}

/// 4 KiB of SplitMix64 output from a fixed seed, cycled: deterministic "randomness".
fn fixed_random_bytes() -> Vec<u8> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut out = Vec::with_capacity(4096);
    while out.len() < 4096 {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out
}

/// Wall clock frozen at 2025-01-01T00:00:00Z.
struct FixedWallClock;

impl HostWallClock for FixedWallClock {
    fn resolution(&self) -> Duration {
        Duration::from_nanos(1)
    }
    fn now(&self) -> Duration {
        Duration::from_secs(1_735_689_600)
    }
}

/// Monotonic clock that advances 1 µs per reading: time-based loops still end (and fuel
/// bounds them anyway) while every run sees the same sequence.
#[derive(Default)]
struct SteppingClock(std::sync::atomic::AtomicU64);

impl HostMonotonicClock for SteppingClock {
    fn resolution(&self) -> u64 {
        1_000
    }
    fn now(&self) -> u64 {
        self.0
            .fetch_add(1_000, std::sync::atomic::Ordering::Relaxed)
            + 1_000
    }
}
