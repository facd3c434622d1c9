//! The memory bound `pickle.rs` and the README state for one row's pickled tests (under
//! 1.2 GiB whatever the input), measured: a counting allocator records the peak of live
//! heap bytes while hostile LiveCodeBench fields are decoded. One test in a binary of its
//! own, so that no other test's allocations count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

use base64::Engine;
use verigym_import::pickle::{MAX_BYTES, MAX_MEMO, decode_lcb_private};

/// The stated bound.
const BOUND: usize = 1200 << 20;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

struct Counting;

impl Counting {
    fn grew(by: usize) {
        let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
        PEAK.fetch_max(live, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded to the system allocator unchanged; only counts are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            Counting::grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            Counting::grew(new_size);
        }
        q
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// LiveCodeBench's encoding: base64 of zlib of the pickle.
fn field(pickle: &[u8]) -> String {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(pickle).unwrap();
    base64::engine::general_purpose::STANDARD.encode(z.finish().unwrap())
}

/// Peak live heap bytes while decoding `text`, above what was live before.
fn peak_while_decoding(text: &str) -> (usize, Result<(), String>) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let result = decode_lcb_private(text).map(drop);
    (PEAK.load(Ordering::Relaxed) - before, result)
}

#[test]
fn hostile_pickles_stay_under_the_stated_memory_bound() {
    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
    // a million lists, each appended to the one before
    let mut deep = vec![0x80, 4];
    deep.extend(std::iter::repeat_n(b']', 1_000_000));
    deep.extend(std::iter::repeat_n(b'a', 999_999));
    deep.push(b'.');
    cases.push(("deep nesting", deep));
    // a memoised list held twice by the next, 60 times: 2^60 leaves
    let mut doubling = vec![0x80, 4, b']', 0x94];
    for i in 0u32..60 {
        doubling.extend([b']', b'(', b'j']);
        doubling.extend(i.to_le_bytes());
        doubling.push(b'j');
        doubling.extend(i.to_le_bytes());
        doubling.extend([b'e', 0x94]);
    }
    doubling.push(b'.');
    cases.push(("memo doubling", doubling));
    // one memo entry past the cap
    let mut memo = vec![0x80, 4, b'N'];
    memo.extend(std::iter::repeat_n(0x94, MAX_MEMO + 1));
    memo.push(b'.');
    cases.push(("memo entries", memo));
    // a shared list of 2^21 items copied on every append
    let mut cow = vec![0x80, 4, b']', 0x94, b'('];
    cow.extend(std::iter::repeat_n(b'N', 1 << 21));
    cow.extend([b'e', 0x94]);
    for _ in 0..4 {
        cow.extend([b'h', 1, b'N', b'a']);
    }
    cow.push(b'.');
    cases.push(("copy on write", cow));
    // a zlib bomb: more than the largest pickle accepted, from a few hundred KB
    cases.push(("zlib bomb", vec![b'N'; MAX_BYTES as usize + (1 << 20)]));
    for (name, pickle) in cases {
        let text = field(&pickle);
        drop(pickle);
        let (peak, result) = peak_while_decoding(&text);
        eprintln!("{name}: peak {} MiB, {result:?}", peak >> 20);
        assert!(result.is_err(), "{name} was accepted");
        assert!(peak < BOUND, "{name}: peak {} MiB", peak >> 20);
    }
}
