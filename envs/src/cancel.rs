//! Cooperative cancellation of long generator searches.
//!
//! A server that gave up on a request (its time budget ran out) sets a flag;
//! generators whose search can run long poll [`cancelled`] between draws and
//! stop. The flag only ever aborts a search, it never changes what a search
//! finds, so generation stays a pure function of config and seed. It is
//! per thread ([`with_cancel`] installs it around one piece of work on the
//! thread that runs it), never global.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `work` with `flag` as this thread's cancel flag (the previous one is
/// restored after).
pub fn with_cancel<T>(flag: &Arc<AtomicBool>, work: impl FnOnce() -> T) -> T {
    let previous = FLAG.with(|f| f.replace(Some(flag.clone())));
    // Restores the previous flag even when `work` panics.
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            FLAG.with(|f| *f.borrow_mut() = previous);
        }
    }
    let _restore = Restore(previous);
    work()
}

/// Whether the work running on this thread was cancelled.
pub fn cancelled() -> bool {
    FLAG.with(|f| {
        f.borrow()
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    })
}

/// The message a search that stopped on [`cancelled`] returns.
pub const CANCELLED: &str = "the search was cancelled: the caller's time budget ran out";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_is_seen_inside_and_gone_after() {
        let flag = Arc::new(AtomicBool::new(false));
        assert!(!cancelled());
        with_cancel(&flag, || {
            assert!(!cancelled());
            flag.store(true, Ordering::Relaxed);
            assert!(cancelled());
        });
        assert!(!cancelled());
    }
}
