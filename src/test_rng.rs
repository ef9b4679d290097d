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

    /// A test's generator: from state `fixed` in `make test`, so every run draws the same;
    /// under `make fuzz`, from the run's seed mixed with `fixed` (see [`fuzz`]).
    pub fn for_test(fixed: u64) -> Rng {
        match fuzz() {
            Some((seed, _)) => Rng::seeded(seed ^ fixed),
            None => Rng(fixed),
        }
    }
}

/// `make fuzz`'s settings, `None` in `make test`: the run's seed and how many times
/// longer each randomized test runs. `PLANLOOP_FUZZ_FACTOR=<k>` turns it on and
/// `PLANLOOP_FUZZ_SEED=<n>` gives the seed (`make fuzz` draws one and prints it; 1 when
/// none is given), so that a failing run can be repeated.
fn fuzz() -> Option<(u64, u64)> {
    static SETTINGS: std::sync::OnceLock<Option<(u64, u64)>> = std::sync::OnceLock::new();
    *SETTINGS.get_or_init(|| {
        let number = |name: &str| std::env::var(name).ok().and_then(|text| text.trim().parse::<u64>().ok());
        let factor = number("PLANLOOP_FUZZ_FACTOR")?.max(1);
        Some((number("PLANLOOP_FUZZ_SEED").unwrap_or(1), factor))
    })
}

/// How many rounds a randomized test runs: `n` in `make test`, `n` times the factor
/// under `make fuzz`.
pub fn rounds(n: usize) -> usize {
    fuzz().map_or(n, |(_, factor)| n.saturating_mul(factor as usize))
}

/// The seeds a property test runs: `1..=fixed` in `make test`; under `make fuzz`,
/// `fixed` times the factor, from the run's seed.
pub fn seeds(fixed: u64) -> std::ops::RangeInclusive<u64> {
    match fuzz() {
        Some((seed, factor)) => seed..=seed.saturating_add(fixed.saturating_mul(factor).saturating_sub(1)),
        None => 1..=fixed,
    }
}
