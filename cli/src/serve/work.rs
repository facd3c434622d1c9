//! The bounded work queue: CPU jobs leave the async runtime for the rayon
//! pool, at most `capacity` at a time (running or waiting). A job that finds
//! no slot is refused at once with 503 "busy", so overload costs the server
//! nothing but the refusal, and every admitted job is answered.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;

use super::error::ApiError;

/// Request counters, for `/healthz` and the no-request-lost checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatsSnapshot {
    /// Jobs admitted to the queue.
    pub accepted: u64,
    /// Admitted jobs that ran to the end (even if the client hung up).
    pub finished: u64,
    /// Admitted jobs that finished and whose answer was handed to the
    /// connection (success or a per-request error).
    pub answered: u64,
    /// Jobs refused because the queue was full (503).
    pub busy: u64,
    /// Jobs that panicked (answered 500; counted in `answered` too).
    pub panicked: u64,
    /// Jobs admitted and not yet finished: what holds queue slots.
    pub in_flight: u64,
    pub capacity: u64,
}

pub struct WorkQueue {
    slots: Arc<Semaphore>,
    capacity: usize,
    accepted: AtomicU64,
    finished: Arc<AtomicU64>,
    answered: AtomicU64,
    busy: AtomicU64,
    panicked: AtomicU64,
}

impl WorkQueue {
    pub fn new(capacity: usize) -> Self {
        WorkQueue {
            slots: Arc::new(Semaphore::new(capacity)),
            capacity,
            accepted: AtomicU64::new(0),
            finished: Arc::new(AtomicU64::new(0)),
            answered: AtomicU64::new(0),
            busy: AtomicU64::new(0),
            panicked: AtomicU64::new(0),
        }
    }

    pub fn stats(&self) -> StatsSnapshot {
        let finished = self.finished.load(Ordering::SeqCst);
        let accepted = self.accepted.load(Ordering::SeqCst);
        StatsSnapshot {
            accepted,
            finished,
            answered: self.answered.load(Ordering::SeqCst),
            busy: self.busy.load(Ordering::SeqCst),
            panicked: self.panicked.load(Ordering::SeqCst),
            in_flight: accepted.saturating_sub(finished),
            capacity: self.capacity as u64,
        }
    }

    /// Runs `job` on the rayon pool if a slot is free, else answers busy.
    ///
    /// The slot is held until the job ends, even when the client hangs up
    /// first, so the bound holds for work and not only for connections.
    ///
    /// # Errors
    /// 503 busy when no slot is free; 500 when the job panicked.
    pub async fn run<T, F>(&self, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let Ok(slot) = self.slots.clone().try_acquire_owned() else {
            self.busy.fetch_add(1, Ordering::SeqCst);
            return Err(ApiError::busy(self.capacity));
        };
        self.accepted.fetch_add(1, Ordering::SeqCst);
        let (done, result) = tokio::sync::oneshot::channel();
        let finished = self.finished.clone();
        rayon::spawn(move || {
            let outcome = std::panic::catch_unwind(AssertUnwindSafe(job));
            finished.fetch_add(1, Ordering::SeqCst);
            drop(slot);
            let _ = done.send(outcome);
        });
        let outcome = result.await;
        self.answered.fetch_add(1, Ordering::SeqCst);
        match outcome {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(panic)) => {
                self.panicked.fetch_add(1, Ordering::SeqCst);
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                Err(ApiError::internal(format!(
                    "the job panicked: {what}; this is a verigym bug, please report it"
                )))
            }
            Err(_) => Err(ApiError::internal("the worker pool dropped the job")),
        }
    }
}
