//! Seeds and the one random generator every env uses.
//!
//! [`Rng`] is ChaCha8 keyed by a SplitMix64 expansion of a 64-bit seed, with
//! our own sampling functions on top, so the stream depends only on code in
//! this file and the pinned `rand_chacha` core — not on `rand`'s
//! distribution code, which changes between versions. It is passed in
//! explicitly; there is no global or thread-local generator anywhere.
//!
//! Seeds for a batch come from [`mix_seed`], never `seed + index`: adjacent
//! indices give unrelated seeds, and `(seed, index)` pairs do not collide
//! the way sums do.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// Seeds in task cards stay below 2^53 so that every JSON reader (including
/// JavaScript's doubles) reads them back exactly.
pub const SEED_MASK: u64 = (1 << 53) - 1;

/// One SplitMix64 step: a bijective 64-bit mixer with good avalanche.
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of item `index` of a batch generated from `seed`.
pub fn mix_seed(seed: u64, index: u64) -> u64 {
    splitmix64(splitmix64(seed) ^ splitmix64(index.wrapping_add(0xA076_1D64_78BD_642F))) & SEED_MASK
}

/// A probability as the bound [`Rng::hit`] compares 53 random bits with:
/// `m · 2⁻⁵³ < p` exactly when `m < ⌈p · 2⁵³⌉` (the product is exact, a
/// power-of-two scaling; a `p` at or below 0, or NaN, gives 0 and never hits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chance(u64);

impl Chance {
    pub fn new(p: f64) -> Chance {
        Chance((p * (1u64 << 53) as f64).ceil() as u64)
    }
}

/// A seeded, portable, cloneable random generator.
#[derive(Clone, Debug)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    pub fn from_seed(seed: u64) -> Self {
        let mut key = [0u8; 32];
        let mut state = seed;
        for chunk in key.chunks_mut(8) {
            state = splitmix64(state);
            chunk.copy_from_slice(&state.to_le_bytes());
        }
        Rng(ChaCha8Rng::from_seed(key))
    }

    /// An independent generator for a sub-purpose (`stream` names it), so
    /// adding draws in one place does not shift another's sequence.
    pub fn fork(&mut self, stream: u64) -> Rng {
        Rng::from_seed(self.next_u64() ^ splitmix64(stream))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` without modulo bias (Lemire's method).
    ///
    /// # Panics
    /// If `n == 0`.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        let threshold = n.wrapping_neg() % n;
        loop {
            let wide = u128::from(self.next_u64()) * u128::from(n);
            if (wide as u64) >= threshold {
                return (wide >> 64) as u64;
            }
        }
    }

    /// Uniform in the closed range `lo..=hi`.
    ///
    /// # Panics
    /// If `lo > hi`.
    pub fn range_i64(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi, "Rng::range_i64({lo}, {hi})");
        let span = (hi as i128 - lo as i128 + 1) as u128;
        if span > u128::from(u64::MAX) {
            return self.next_u64() as i64;
        }
        (lo as i128 + self.below(span as u64) as i128) as i64
    }

    /// Uniform in `lo..=hi` for sizes and indices.
    pub fn range_usize(&mut self, lo: usize, hi: usize) -> usize {
        self.range_i64(lo as i64, hi as i64) as usize
    }

    /// Uniform in `[0, 1)` with 53 random bits.
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit_f64() < p
    }

    /// [`Rng::chance`] for a probability made a [`Chance`] once: the same
    /// outcome from the same stream, as one integer comparison, so a loop
    /// drawing every cell of a grid has no float work and no branch per
    /// draw.
    pub fn hit(&mut self, chance: Chance) -> bool {
        (self.next_u64() >> 11) < chance.0
    }

    /// A uniformly chosen element, or `None` for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.below(items.len() as u64) as usize])
        }
    }

    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `hit` decides as `chance` does on the same stream, for probabilities
    /// on and between the 2⁻⁵³ steps, at the ends and beyond them, and at
    /// the random values on either side of each bound.
    #[test]
    fn hit_is_chance_with_the_probability_made_an_integer_bound() {
        let step = 1.0 / (1u64 << 53) as f64;
        let mut ps = vec![
            0.0,
            -0.0,
            -0.5,
            f64::NAN,
            step,
            0.5 * step,
            1.0,
            1.0 - step,
            1.5,
            0.45,
        ];
        let mut draw = Rng::from_seed(3);
        ps.extend((0..200).map(|_| draw.unit_f64()));
        ps.extend((0..50).map(|k| f64::from(k) * 0.01));
        for p in ps {
            let bound = Chance::new(p);
            for m in [
                0,
                1,
                bound.0.saturating_sub(1),
                bound.0,
                bound.0 + 1,
                (1 << 53) - 1,
            ] {
                let m = m.min((1 << 53) - 1);
                assert_eq!(m < bound.0, (m as f64) * step < p, "p {p}, m {m}");
            }
            let (mut a, mut b) = (Rng::from_seed(9), Rng::from_seed(9));
            for _ in 0..200 {
                assert_eq!(a.chance(p), b.hit(bound), "p {p}");
            }
        }
    }

    #[test]
    fn the_stream_is_pinned() {
        // A change here changes every generated task: bump every env version.
        let mut rng = Rng::from_seed(7);
        let draws: Vec<u64> = (0..3).map(|_| rng.below(1000)).collect();
        assert_eq!(draws, vec![382, 406, 301]);
        assert_eq!(mix_seed(7, 0), 6_720_981_976_341_623);
        assert_eq!(mix_seed(7, 1), 3_797_970_862_954_473);
        assert_ne!(mix_seed(7, 1), mix_seed(8, 0), "mixing is not addition");
        assert!(mix_seed(u64::MAX, u64::MAX) <= SEED_MASK);
    }

    #[test]
    fn below_is_uniform_enough_and_in_range() {
        let mut rng = Rng::from_seed(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[rng.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "counts {counts:?}");
        }
        for _ in 0..1000 {
            let x = rng.range_i64(-3, 3);
            assert!((-3..=3).contains(&x));
        }
        assert_eq!(rng.range_i64(5, 5), 5);
    }

    #[test]
    fn forks_are_independent_of_later_draws() {
        let mut a = Rng::from_seed(3);
        let mut b = Rng::from_seed(3);
        let mut fa = a.fork(1);
        let _ = b.next_u64();
        let mut fb = Rng::from_seed(3).fork(1);
        assert_eq!(fa.next_u64(), fb.next_u64());
        assert_ne!(a.fork(2).next_u64(), Rng::from_seed(3).fork(1).next_u64());
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = Rng::from_seed(9);
        let mut v: Vec<u32> = (0..50).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
