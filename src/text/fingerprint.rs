//! FNV-1a: a small, fixed, non-cryptographic 64-bit hash, so the same bytes always give
//! the same fingerprint on every machine and in every version.

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

/// The largest integer a JS number (and so a JSON snapshot) carries exactly.
pub const SAFE_INTEGER_MASK: u64 = (1 << 53) - 1;

pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(OFFSET, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(PRIME))
}

/// A fingerprint that survives a trip through JSON unchanged.
pub fn fnv1a_53(text: &str) -> u64 {
    fnv1a(text.as_bytes()) & SAFE_INTEGER_MASK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_test_vectors() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
        assert!(fnv1a_53("foobar") <= SAFE_INTEGER_MASK);
    }
}
