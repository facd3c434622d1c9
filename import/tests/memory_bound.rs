//! The memory bound `pickle.rs` and the README state for one row's pickled tests (under
//! 1.2 GiB whatever the input), measured: a counting allocator records the peak of live
//! heap bytes while hostile LiveCodeBench fields (pickles, and the JSON texts they hold)
//! are decoded, and the largest ones accepted. One test in a binary of its
//! own, so that no other test's allocations count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

use base64::Engine;
use verigym_import::pickle::{MAX_BYTES, MAX_MEMO, MAX_OBJECTS, decode_lcb_private};

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

/// The JSON text of a list of `n` zeros: `[0,0,…,0]`.
fn zeros_json(n: usize) -> String {
    let mut s = String::with_capacity(2 * n + 1);
    s.push('[');
    for i in 0..n {
        s.push_str(if i == 0 { "0" } else { ",0" });
    }
    s.push(']');
    s
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
    // a pickle of one small str, the JSON text of 2^25 + 1 zeros: every cap of the pickle
    // holds, the JSON value would take 1 GiB and more
    let zeros = zeros_json((1 << 25) + 1);
    let mut text_case = vec![0x80, 4, b'X'];
    text_case.extend((zeros.len() as u32).to_le_bytes());
    text_case.extend(zeros.as_bytes());
    text_case.push(b'.');
    cases.push(("JSON text of 2^25 + 1 values", text_case));
    // a list of a million dicts of one entry each: few values, but each a map node
    let mut dicts = vec![0x80, 4, b']', b'('];
    for i in 0u32..1_300_000 {
        dicts.extend([b'}', 0x8c, 7]);
        dicts.extend(format!("{i:07}").bytes());
        dicts.extend([b'N', b's']);
    }
    dicts.extend([b'e', b'.']);
    cases.push(("a million one-entry dicts", dicts));
    let mut texts: Vec<(&str, String)> = Vec::new();
    for (name, pickle) in cases {
        texts.push((name, field(&pickle)));
    }
    // the same JSON text not pickled: the field is the JSON itself
    texts.push(("plain JSON text of 2^25 + 1 values", zeros));
    for (name, text) in texts {
        let (peak, result) = peak_while_decoding(&text);
        eprintln!("{name}: peak {} MiB, {result:?}", peak >> 20);
        // The dicts may be read or refused; only their memory is the point.
        assert!(
            result.is_err() || name.contains("dicts"),
            "{name} was accepted"
        );
        assert!(peak < BOUND, "{name}: peak {} MiB", peak >> 20);
    }
    // The largest JSON texts accepted, each at one cap, are read under the bound too.
    let mut largest: Vec<(&str, String)> = Vec::new();
    largest.push((
        "zeros at the value cap",
        zeros_json(MAX_OBJECTS as usize - 1),
    ));
    let mut objects = String::from("[");
    for i in 0..480_000 {
        objects.push_str(if i == 0 { "{\"k\":0}" } else { ",{\"k\":0}" });
    }
    objects.push(']');
    largest.push(("one-entry objects at the size cap", objects));
    // one string as long as the pickle cap allows, pickled
    let long = (MAX_BYTES as usize) - 1024;
    let mut pickle = vec![0x80, 4, b'X'];
    pickle.extend((long as u32 + 2).to_le_bytes());
    pickle.push(b'"');
    pickle.extend(std::iter::repeat_n(b'a', long));
    pickle.extend([b'"', b'.']);
    largest.push(("a pickled string of 256 MiB", field(&pickle)));
    drop(pickle);
    for (name, text) in largest {
        let (peak, result) = peak_while_decoding(&text);
        eprintln!("{name}: peak {} MiB, {result:?}", peak >> 20);
        assert!(result.is_ok(), "{name} was refused");
        assert!(peak < BOUND, "{name}: peak {} MiB", peak >> 20);
    }
}
