//! The bounded work queue: CPU jobs leave the async runtime for a rayon
//! pool, at most `capacity` at a time (running, waiting, or still reading
//! their request body). A request that finds no slot is refused at once
//! with 503 "busy", so overload costs the server nothing but the refusal,
//! and every admitted job is answered.
//!
//! - **Admission before the body.** A request with a body takes its slot
//!   ([`WorkQueue::admit`]) before the body is read and parsed, so 64 large
//!   bodies cost what 64 jobs may cost, never more.
//! - **Two lanes.** Batch work (generate, score, reward) and interactive work
//!   (episode and OpenEnv create and step) run on separate pools, so a long
//!   batch never makes a one-move game wait for a free thread; the OS shares
//!   the cores between them.
//! - **A time budget.** Each job gets a [`Budget`] with the `--job-timeout`
//!   deadline; the request is answered 503 naming the limit when the deadline
//!   passes, and the job stops at its next check (between cards or items).
//!   The slot stays taken until the job has really stopped.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::ApiError;

/// Request counters, for `/healthz` and the no-request-lost checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatsSnapshot {
    /// Requests admitted to the queue.
    pub accepted: u64,
    /// Admitted requests whose work ended (even if the client hung up).
    pub finished: u64,
    /// Admitted requests whose answer was handed to the connection (success
    /// or a per-request error).
    pub answered: u64,
    /// Requests refused because the queue was full (503).
    pub busy: u64,
    /// Jobs that panicked (answered 500; counted in `answered` too).
    pub panicked: u64,
    /// Jobs answered 503 because they ran past `--job-timeout`.
    #[serde(default)]
    pub timed_out: u64,
    /// Admitted and not yet finished: what holds queue slots.
    pub in_flight: u64,
    pub capacity: u64,
}

/// Which pool a job runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// Generate, score, reward: many cards or items per request.
    Batch,
    /// Episode and OpenEnv create and step: one task or one move.
    Interactive,
}

#[derive(Default)]
struct Counters {
    accepted: AtomicU64,
    finished: AtomicU64,
    answered: AtomicU64,
    busy: AtomicU64,
    panicked: AtomicU64,
    timed_out: AtomicU64,
}

/// One admitted request's slot: held while its body is read and parsed and
/// while its job runs; released (and counted finished) when dropped.
pub struct Admission {
    _slot: OwnedSemaphorePermit,
    counters: Arc<Counters>,
    /// Whether the answer was counted by [`WorkQueue::run`]; a request
    /// answered without a job (a bad body, a close) is counted at drop.
    answered: bool,
}

impl Drop for Admission {
    fn drop(&mut self) {
        if !self.answered {
            self.counters.answered.fetch_add(1, Ordering::SeqCst);
        }
        self.counters.finished.fetch_add(1, Ordering::SeqCst);
    }
}

/// A job's limits: its deadline (checked between units of work) and the
/// largest answer it may build.
#[derive(Clone)]
pub struct Budget {
    deadline: Instant,
    timeout: Duration,
    /// Set when the request was answered as timed out; work on other
    /// threads installs it with `verigym_envs::cancel::with_cancel`.
    pub cancelled: Arc<AtomicBool>,
    /// Set when [`Budget::check`] stopped the job: a job that stops itself
    /// at its deadline counts as timed out, as one the server cut off does.
    expired: Arc<AtomicBool>,
    pub max_response: usize,
}

impl Budget {
    /// Whether the job may go on.
    ///
    /// # Errors
    /// 503 naming `--job-timeout` once the deadline has passed or the
    /// request was already answered as timed out.
    pub fn check(&self) -> Result<(), ApiError> {
        if self.cancelled.load(Ordering::Relaxed) || Instant::now() >= self.deadline {
            self.expired.store(true, Ordering::SeqCst);
            return Err(ApiError::timed_out(self.timeout));
        }
        Ok(())
    }

    /// Whether an answer of `bytes` is within `--max-response`.
    ///
    /// # Errors
    /// 413 naming the limit.
    pub fn check_size(&self, bytes: usize) -> Result<(), ApiError> {
        if bytes > self.max_response {
            return Err(ApiError::response_too_large(self.max_response));
        }
        Ok(())
    }
}

/// Sets a job's cancel flag when dropped while armed.
struct CancelOnDrop(Option<Arc<AtomicBool>>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(flag) = self.0.take() {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

pub struct WorkQueue {
    slots: Arc<Semaphore>,
    capacity: usize,
    counters: Arc<Counters>,
    batch: rayon::ThreadPool,
    interactive: rayon::ThreadPool,
    timeout: Duration,
    max_response: usize,
}

impl WorkQueue {
    /// # Errors
    /// A thread pool cannot start.
    pub fn new(
        capacity: usize,
        timeout: Duration,
        max_response: usize,
    ) -> Result<Self, rayon::ThreadPoolBuildError> {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let pool = |name: &'static str| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(move |i| format!("verigym-{name}-{i}"))
                .build()
        };
        Ok(WorkQueue {
            slots: Arc::new(Semaphore::new(capacity)),
            capacity,
            counters: Arc::default(),
            batch: pool("batch")?,
            interactive: pool("interactive")?,
            timeout,
            max_response,
        })
    }

    pub fn stats(&self) -> StatsSnapshot {
        let c = &self.counters;
        let finished = c.finished.load(Ordering::SeqCst);
        let accepted = c.accepted.load(Ordering::SeqCst);
        StatsSnapshot {
            accepted,
            finished,
            answered: c.answered.load(Ordering::SeqCst),
            busy: c.busy.load(Ordering::SeqCst),
            panicked: c.panicked.load(Ordering::SeqCst),
            timed_out: c.timed_out.load(Ordering::SeqCst),
            in_flight: accepted.saturating_sub(finished),
            capacity: self.capacity as u64,
        }
    }

    /// Takes a slot for one request, or answers busy.
    ///
    /// # Errors
    /// 503 busy when no slot is free.
    pub fn admit(&self) -> Result<Admission, ApiError> {
        let Ok(slot) = self.slots.clone().try_acquire_owned() else {
            self.counters.busy.fetch_add(1, Ordering::SeqCst);
            return Err(ApiError::busy(self.capacity));
        };
        self.counters.accepted.fetch_add(1, Ordering::SeqCst);
        Ok(Admission {
            _slot: slot,
            counters: self.counters.clone(),
            answered: false,
        })
    }

    /// Runs `job` on `lane`'s pool under `admission`'s slot and a fresh
    /// [`Budget`].
    ///
    /// The slot is held until the job ends, even when the client hangs up
    /// or the request is answered as timed out first, so the bound holds
    /// for work and not only for connections.
    ///
    /// # Errors
    /// 503 past `--job-timeout`; 500 when the job panicked.
    pub async fn run<T, F>(
        &self,
        mut admission: Admission,
        lane: Lane,
        job: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Budget) -> T + Send + 'static,
    {
        admission.answered = true;
        let counters = self.counters.clone();
        let budget = Budget {
            deadline: Instant::now() + self.timeout,
            timeout: self.timeout,
            cancelled: Arc::new(AtomicBool::new(false)),
            expired: Arc::new(AtomicBool::new(false)),
            max_response: self.max_response,
        };
        let cancelled = budget.cancelled.clone();
        // Counted once, by whichever comes first: the job stopping itself at
        // its deadline, or the timer below answering for it.
        let timed_out = Arc::new(AtomicBool::new(false));
        let count_time_out = {
            let (timed_out, counters) = (timed_out.clone(), counters.clone());
            move || {
                if !timed_out.swap(true, Ordering::SeqCst) {
                    counters.timed_out.fetch_add(1, Ordering::SeqCst);
                }
            }
        };
        let count_in_job = count_time_out.clone();
        let (done, result) = tokio::sync::oneshot::channel();
        let pool = match lane {
            Lane::Batch => &self.batch,
            Lane::Interactive => &self.interactive,
        };
        pool.spawn(move || {
            // Generators poll the flag between draws (verigym_envs::cancel),
            // so a search past the deadline stops inside a single task too.
            let flag = budget.cancelled.clone();
            let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
                verigym_envs::cancel::with_cancel(&flag, || job(&budget))
            }));
            // Before the slot is freed, so the count is in place once it is.
            if budget.expired.load(Ordering::SeqCst) {
                count_in_job();
            }
            drop(admission);
            let _ = done.send(outcome);
        });
        // A client that hangs up drops this future: its job is cancelled
        // like a timed-out one, since nobody will read the answer.
        let mut hang_up = CancelOnDrop(Some(cancelled.clone()));
        let outcome = tokio::time::timeout(self.timeout, result).await;
        hang_up.0 = None;
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(_) => {
                cancelled.store(true, Ordering::Relaxed);
                count_time_out();
                counters.answered.fetch_add(1, Ordering::SeqCst);
                return Err(ApiError::timed_out(self.timeout));
            }
        };
        counters.answered.fetch_add(1, Ordering::SeqCst);
        match outcome {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(panic)) => {
                counters.panicked.fetch_add(1, Ordering::SeqCst);
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

    /// [`WorkQueue::admit`] then [`WorkQueue::run`], for work with no
    /// request body to read first (WebSocket messages).
    ///
    /// # Errors
    /// As both.
    pub async fn admit_and_run<T, F>(&self, lane: Lane, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Budget) -> T + Send + 'static,
    {
        let admission = self.admit()?;
        self.run(admission, lane, job).await
    }
}
