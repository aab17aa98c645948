//! The one small stable hash of names: 64-bit FNV-1a, for cache folder names and the short
//! ids of groups (`g-…`) and causes (`c-…`). std's hasher may change between Rust releases,
//! which would orphan every cached JDK and every accepted id. (Suite and list checksums use
//! XXH3 instead, in `suite::checksum`: it runs at memory speed on 100+ MB suites.)
//!
//! And the two hashes of the record's hot paths: [`key128`], the 128-bit XXH3 key of any
//! hashable value (values, behaviours, runs), and [`Prehashed`], the hasher of maps and sets
//! whose keys are such keys already, so they are not hashed a second time.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// 64-bit FNV-1a of `bytes`.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `prefix`, a dash and six hex digits (the top 24 bits) of the FNV-1a hash of `a`, a NUL
/// and `b`: the ids of groups and causes.
pub(crate) fn short_id(prefix: &str, a: &str, b: &str) -> String {
    let hash = fnv1a64(format!("{a}\0{b}").as_bytes());
    format!("{prefix}-{:06x}", hash >> 40)
}

/// The 128-bit XXH3 key of `value`, fed through its `Hash`: one pass at memory speed (it
/// replaced two SipHash passes, the supervisor's largest cost in a record's tail). Keys
/// live only in memory; they never reach a file.
pub(crate) fn key128(value: &impl Hash) -> u128 {
    let mut h = xxhash_rust::xxh3::Xxh3Default::new();
    value.hash(&mut h);
    h.digest128()
}

/// Builds [`KeyHasher`]s: for maps and sets keyed by a [`key128`] or another uniform hash.
pub(crate) type Prehashed = BuildHasherDefault<KeyHasher>;

/// A hash map keyed by uniform hashes.
pub(crate) type PrehashedMap<K, V> = HashMap<K, V, Prehashed>;

/// A hash set of uniform hashes.
pub(crate) type PrehashedSet<K> = HashSet<K, Prehashed>;

/// A key that is already a uniform hash is its own hash (its two halves folded for 128
/// bits); anything else written to it is mixed by XXH3, so a non-hash key still spreads.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = xxhash_rust::xxh3::xxh3_64_with_seed(bytes, self.0);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }

    fn write_u128(&mut self, n: u128) {
        self.0 ^= (n as u64) ^ ((n >> 64) as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_its_own_hash_and_other_input_is_mixed() {
        let hash = |k: &dyn Fn(&mut KeyHasher)| {
            let mut h = KeyHasher::default();
            k(&mut h);
            h.finish()
        };
        assert_eq!(hash(&|h| 7u64.hash(h)), 7);
        assert_eq!(hash(&|h| ((3u128 << 64) | 5).hash(h)), 6);
        let (a, b) = (hash(&|h| "ab".hash(h)), hash(&|h| "ba".hash(h)));
        assert_ne!(a, b);
        let set: PrehashedSet<u64> = [1, 2, 2].into_iter().collect();
        assert_eq!(set.len(), 2);
    }

    #[test]
    fn key128_tells_values_apart_and_is_stable_within_a_build() {
        assert_eq!(key128(&("x", 1u8)), key128(&("x", 1u8)));
        assert_ne!(key128(&("x", 1u8)), key128(&("x", 2u8)));
        assert_ne!(key128(&("ab", "c")), key128(&("a", "bc")));
        assert_ne!(key128(&"x") as u64, (key128(&"x") >> 64) as u64);
    }

    #[test]
    fn fnv_is_stable() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn short_ids_are_the_top_bits_of_the_joined_hash() {
        let hash = fnv1a64(b"java.lang.Double.toString(double)\0value");
        assert_eq!(
            short_id("g", "java.lang.Double.toString(double)", "value"),
            format!("g-{:06x}", hash >> 40)
        );
    }
}
