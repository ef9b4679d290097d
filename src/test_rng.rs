//! The tests' one pseudo-random generator (xorshift64): small and deterministic, so a
//! failure is reproducible from its seed. Unit tests reach it as `crate::test_rng`;
//! the integration tests include this file (`tests/support`, `tests/common`). Each test
//! crate uses part of it.
#![allow(dead_code)]

pub struct Rng(pub u64);

impl Rng {
    /// A generator for `seed` (any value; it is spread over the state).
    pub fn seeded(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}
