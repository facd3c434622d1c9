//! Sleeping returns at once inside the sandbox.
//!
//! wasmtime-wasi implements a guest's sleep (`time.sleep`, C `sleep`/`nanosleep`, a timed
//! `poll`) with a real host timer, during which neither fuel nor the epoch deadline can
//! stop it: `time.sleep(10**9)` would hold a worker thread for decades. Here the clock
//! subscriptions are ready immediately instead, and each costs [`SLEEP_FUEL`]: a host call
//! takes real time but no fuel of its own, and a sleep loop must still end in the fuel
//! limit soon (deterministically), not in the wall-clock backstop.
//! The clocks themselves stay as `engine.rs` sets them (frozen wall clock, a monotonic
//! clock stepping 1 µs per reading).

use std::future::Future;
use std::pin::Pin;

use wasmtime::component::{Resource, ResourceTable};
use wasmtime::{Caller, StoreContextMut};
use wasmtime_wasi::WasiView;
use wasmtime_wasi::p2::{DynPollable, Pollable, subscribe};

use crate::SandboxError;

/// The monotonic-clock interface wasmtime-wasi 48 provides (guests importing an older
/// 0.2.x resolve to it).
const MONOTONIC_CLOCK: &str = "wasi:clocks/monotonic-clock@0.2.12";

/// Fuel charged per sleep (per `subscribe-*` call, per `poll_oneoff` subscription): about
/// what the host spends on it, in wasm instructions.
pub(crate) const SLEEP_FUEL: u64 = 100_000;

/// Takes `SLEEP_FUEL × n` from the store; at zero the guest's next instruction traps
/// with out-of-fuel.
fn charge<T: 'static>(
    mut store: impl wasmtime::AsContextMut<Data = T>,
    n: u64,
) -> wasmtime::Result<()> {
    let mut store = store.as_context_mut();
    let left = store.get_fuel()?;
    store.set_fuel(left.saturating_sub(SLEEP_FUEL.saturating_mul(n)))
}

/// A pollable that is always ready.
struct Ready;

impl Pollable for Ready {
    // The expanded form of `#[async_trait] async fn ready(&mut self) {}`.
    fn ready<'a, 'b>(&'a mut self) -> Pin<Box<dyn Future<Output = ()> + Send + 'b>>
    where
        'a: 'b,
        Self: 'b,
    {
        Box::pin(async {})
    }
}

fn ready_now(table: &mut ResourceTable) -> wasmtime::Result<Resource<DynPollable>> {
    let ready = table.push(Ready)?;
    subscribe(table, ready)
}

/// Replaces the component linker's `subscribe-duration` and `subscribe-instant` (call
/// after `wasmtime_wasi::p2::add_to_linker_sync`).
pub(crate) fn component<T: WasiView + 'static>(
    linker: &mut wasmtime::component::Linker<T>,
) -> Result<(), SandboxError> {
    linker.allow_shadowing(true);
    let mut clock = linker
        .instance(MONOTONIC_CLOCK)
        .map_err(SandboxError::engine)?;
    for name in ["subscribe-duration", "subscribe-instant"] {
        clock
            .func_wrap(name, |mut store: StoreContextMut<'_, T>, (_,): (u64,)| {
                charge(&mut store, 1)?;
                Ok((ready_now(store.data_mut().ctx().table)?,))
            })
            .map_err(SandboxError::engine)?;
    }
    linker.allow_shadowing(false);
    Ok(())
}

/// WASI p1 errno values used below.
const ERRNO_SUCCESS: i32 = 0;
const ERRNO_FAULT: i32 = 21;
const ERRNO_INVAL: i32 = 28;
const ERRNO_NOTSUP: i32 = 58;
/// `subscription_t` and `event_t` sizes, and the clock tag, from the p1 ABI.
const SUBSCRIPTION_BYTES: usize = 48;
const EVENT_BYTES: usize = 32;
const EVENTTYPE_CLOCK: u8 = 0;

/// Replaces the core linker's `poll_oneoff` (call after
/// `wasmtime_wasi::p1::add_to_linker_sync`): clock subscriptions are ready at once;
/// waiting on file descriptors is not supported (stdin and stdout are in-memory, so
/// programs have no reason to).
pub(crate) fn core<T: 'static>(linker: &mut wasmtime::Linker<T>) -> Result<(), SandboxError> {
    linker.allow_shadowing(true);
    linker
        .func_wrap(
            "wasi_snapshot_preview1",
            "poll_oneoff",
            |mut caller: Caller<'_, T>, subs: i32, events: i32, n: i32, nevents: i32| -> i32 {
                let Some(memory) = caller.get_export("memory").and_then(|e| e.into_memory()) else {
                    return ERRNO_FAULT;
                };
                if charge(&mut caller, u64::from(n.max(1) as u32)).is_err() {
                    return ERRNO_FAULT;
                }
                let data = memory.data_mut(&mut caller);
                poll_clocks_now(data, subs as u32, events as u32, n as u32, nevents as u32)
            },
        )
        .map_err(SandboxError::engine)?;
    linker.allow_shadowing(false);
    Ok(())
}

/// Answers every clock subscription as fired; the p1 ABI's layouts by hand.
fn poll_clocks_now(mem: &mut [u8], subs: u32, events: u32, n: u32, nevents: u32) -> i32 {
    if n == 0 {
        return ERRNO_INVAL;
    }
    let n = n as usize;
    let range = |at: u32, len: usize| {
        let start = at as usize;
        start
            .checked_add(len)
            .filter(|&end| end <= mem.len())
            .map(|end| start..end)
    };
    let (Some(subs), Some(events), Some(count)) = (
        range(subs, n.saturating_mul(SUBSCRIPTION_BYTES)),
        range(events, n.saturating_mul(EVENT_BYTES)),
        range(nevents, 4),
    ) else {
        return ERRNO_FAULT;
    };
    let subscriptions = mem[subs].to_vec();
    if subscriptions
        .chunks_exact(SUBSCRIPTION_BYTES)
        .any(|sub| sub[8] != EVENTTYPE_CLOCK)
    {
        return ERRNO_NOTSUP;
    }
    let out = &mut mem[events];
    out.fill(0);
    for (sub, event) in subscriptions
        .chunks_exact(SUBSCRIPTION_BYTES)
        .zip(out.chunks_exact_mut(EVENT_BYTES))
    {
        event[..8].copy_from_slice(&sub[..8]); // userdata
        event[10] = EVENTTYPE_CLOCK; // error (bytes 8..10) stays 0 = success
    }
    mem[count].copy_from_slice(&(n as u32).to_le_bytes());
    ERRNO_SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_subscriptions_fire_at_once_and_fd_waits_are_refused() {
        let mut mem = vec![0u8; 512];
        // two clock subscriptions with userdata 7 and 9 at offset 0
        mem[0..8].copy_from_slice(&7u64.to_le_bytes());
        mem[48..56].copy_from_slice(&9u64.to_le_bytes());
        assert_eq!(poll_clocks_now(&mut mem, 0, 200, 2, 400), ERRNO_SUCCESS);
        assert_eq!(u32::from_le_bytes(mem[400..404].try_into().unwrap()), 2);
        assert_eq!(&mem[200..208], &7u64.to_le_bytes());
        assert_eq!(&mem[232..240], &9u64.to_le_bytes());
        assert_eq!((mem[208], mem[209], mem[210]), (0, 0, EVENTTYPE_CLOCK));
        // an fd_read subscription
        mem[56] = 1;
        assert_eq!(poll_clocks_now(&mut mem, 0, 200, 2, 400), ERRNO_NOTSUP);
        assert_eq!(poll_clocks_now(&mut mem, 0, 200, 0, 400), ERRNO_INVAL);
        assert_eq!(poll_clocks_now(&mut mem, 500, 200, 1, 400), ERRNO_FAULT);
        assert_eq!(poll_clocks_now(&mut mem, 0, u32::MAX, 1, 400), ERRNO_FAULT);
    }
}
