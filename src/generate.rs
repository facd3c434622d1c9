//! Batch generation of task cards, shared by `verigym generate` and tests.

use std::io::Write;

use rayon::prelude::*;
use verigym_envs::{DynEnv, TaskCard, mix_seed};

/// Cards per parallel chunk: big enough to keep every core busy, small
/// enough that a million cards never sit in memory at once.
const CHUNK: usize = 4096;

/// The seed of card `index` in a batch generated from `seed`.
pub fn card_seed(seed: u64, index: usize) -> u64 {
    mix_seed(seed, index as u64)
}

/// Cards `0..n` of the batch from `seed`, in order.
pub fn generate_cards(env: &dyn DynEnv, seed: u64, n: usize) -> Vec<TaskCard> {
    (0..n)
        .into_par_iter()
        .map(|i| env.generate(card_seed(seed, i)))
        .collect()
}

/// Writes cards `0..n` as JSONL, in order, calling `progress` with the
/// number written after each chunk. Output is identical for any thread count.
///
/// # Errors
/// Write errors from `out`.
pub fn write_cards(
    env: &dyn DynEnv,
    seed: u64,
    n: usize,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize),
) -> std::io::Result<()> {
    let mut done = 0;
    while done < n {
        let end = (done + CHUNK).min(n);
        let lines: Vec<String> = (done..end)
            .into_par_iter()
            .map(|i| env.generate(card_seed(seed, i)).to_json_line())
            .collect();
        for line in lines {
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")?;
        }
        done = end;
        progress(done);
    }
    Ok(())
}
