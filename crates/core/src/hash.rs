//! The one small stable hash of names: 64-bit FNV-1a, for cache folder names and the short
//! ids of groups (`g-…`) and causes (`c-…`). std's hasher may change between Rust releases,
//! which would orphan every cached JDK and every accepted id. (Suite and list checksums use
//! XXH3 instead, in `suite::checksum`: it runs at memory speed on 100+ MB suites.)

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

#[cfg(test)]
mod tests {
    use super::*;

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
