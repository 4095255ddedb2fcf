//! A tiny deterministic random number generator (SplitMix64) for Zobrist keys, seeded test
//! positions and random openings. Not for cryptography.

/// SplitMix64 by Sebastiano Vigna: a 64-bit state advanced by a constant, then mixed.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed`; equal seeds give equal sequences.
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The generator of stream number `stream` under `seed` (a game, an iteration): its
    /// starting state is a mix of both, so no two streams run along the same sequence. (A
    /// state of `seed ^ stream · 0x9E37…` does not do: the generator steps by that constant,
    /// so stream `k + 1` then replays stream `k` one draw later, or nearly.)
    pub const fn stream(seed: u64, stream: u64) -> Self {
        let mut mixer = SplitMix64::new(stream);
        let mut mixed = SplitMix64::new(seed ^ mixer.next_u64());
        SplitMix64::new(mixed.next_u64())
    }

    /// The next 64 random bits.
    #[inline]
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        Self::mix(self.state)
    }

    /// SplitMix64's finalizer: every bit of `z` mixed into every bit of the result (also a
    /// hash's finisher, where a weak hash leaves its low bits poor).
    #[inline]
    pub const fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound > 0`), by multiply-shift (bias below 2⁻³²).
    #[inline]
    pub fn below(&mut self, bound: usize) -> usize {
        debug_assert!(bound > 0);
        ((u128::from(self.next_u64()) * bound as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_do_not_replay_each_other() {
        // The first draws of 200 streams under a small seed: no stream's first draw appears
        // among the first ten of another (a shifted replay would).
        let draws: Vec<Vec<u64>> = (0..200)
            .map(|k| {
                let mut rng = SplitMix64::stream(3, k);
                (0..10).map(|_| rng.next_u64()).collect()
            })
            .collect();
        for (a, first) in draws.iter().enumerate() {
            for (b, other) in draws.iter().enumerate() {
                assert!(a == b || !other.contains(&first[0]), "stream {a} replays in {b}");
            }
        }
        // Equal seeds and streams give equal sequences.
        assert_eq!(SplitMix64::stream(3, 7).next_u64(), SplitMix64::stream(3, 7).next_u64());
    }

    #[test]
    fn matches_the_published_splitmix64_sequence() {
        // First outputs for seed 1234567 from the reference C implementation.
        let mut rng = SplitMix64::new(1_234_567);
        assert_eq!(rng.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = SplitMix64::new(42);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = rng.below(7);
            seen[v] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
