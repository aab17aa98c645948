//! Numeric and textual edge values, and seeded random values, beyond Randoop's -1..100:
//! the MIN and MAX of every type, ±0.0, NaN, ±Infinity, the smallest subnormal and normal
//! floats, powers of two and of ten across each type's range (and their negations),
//! characters of every Unicode kind the JDK treats specially (controls, surrogates, a
//! combining mark, a non-ASCII digit, the BOM, U+FFFF), and a few Strings of the same sort.
//! Random values come from the generator's seeded RNG, so a seed still gives one suite.
//!
//! [`values`] are the special values, [`ranges`] the magnitudes, [`random`] the random ones;
//! generation draws from each a third of the time.
//!
//! Every value is written as text Java's `valueOf` reads and the suite format keeps
//! (floats in Rust's shortest round-trip form, `NaN`, `Infinity`, `-Infinity`).

#[cfg(test)]
use super::mined::KINDS;
use super::mined::{ByKind, Kind};
use crate::sequence::escape;
use rand::Rng;

/// Characters the JDK treats specially, by UTF-16 unit.
const CHARS: [u16; 18] = [
    0x0000, 0x0009, 0x001F, 0x007F, 0x0080, 0x00A0, 0x00FF, 0x0100, 0x0301, 0x0660, 0x2028, 0xD800,
    0xDBFF, 0xDC00, 0xDFFF, 0xFEFF, 0xFFFD, 0xFFFF,
];

/// Strings that are edges of parsing and case mapping rather than of a type.
const STRINGS: [&str; 14] = [
    " ",
    "  a  ",
    "0",
    "-0",
    "+1",
    "0x1F",
    "1e3",
    "NaN",
    "-Infinity",
    "9223372036854775808",
    "a\\u0000b",
    "\\uD83D\\uDE00",
    "\\uD800",
    "\\u0130\\u0131\\u00DF",
];

/// A float rendered so Java's `Float.valueOf` and the suite format read it back exactly.
pub(crate) fn float_text(v: f32) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        format!("{v:?}")
    }
}

/// A double rendered like [`float_text`].
pub(crate) fn double_text(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        format!("{v:?}")
    }
}

fn dedup(v: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in v {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

fn integer_specials(min: i64, max: i64) -> Vec<String> {
    dedup([min, max, min + 1, max - 1, -2, 2].map(|n| n.to_string()))
}

fn integers(min: i64, max: i64, bits: u32, tens: u32) -> Vec<String> {
    let mut v: Vec<i64> = Vec::new();
    for k in 1..bits {
        v.extend([1i64 << k, -(1i64 << k)]);
        v.push((1i64 << k) - 1);
    }
    for k in 2..=tens {
        let p = 10i64.pow(k);
        // A power of ten and its neighbours: rounding and carrying happen at both sides.
        v.extend([p, -p, p - 1, p + 1, 1 - p]);
    }
    dedup(
        v.into_iter()
            .filter(|n| (min..=max).contains(n))
            .map(|n| n.to_string()),
    )
}

/// The special values of every kind (index with [`Kind::index`]): MIN, MAX and their
/// neighbours, NaN, the infinities, -0.0, the smallest subnormal and normal values,
/// special characters and Strings.
pub(crate) fn values() -> ByKind {
    let mut out: ByKind = Default::default();
    out[Kind::Byte.index()] = integer_specials(i8::MIN.into(), i8::MAX.into());
    out[Kind::Short.index()] = integer_specials(i16::MIN.into(), i16::MAX.into());
    out[Kind::Int.index()] = integer_specials(i32::MIN.into(), i32::MAX.into());
    out[Kind::Long.index()] = integer_specials(i64::MIN, i64::MAX);
    let floats: Vec<f32> = vec![
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -0.0,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        -f32::from_bits(1),
        f32::MAX,
        f32::MIN,
        f32::EPSILON,
        0.1,
        0.5,
        -0.5,
    ];
    let doubles: Vec<f64> = vec![
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.0,
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        -f64::from_bits(1),
        f64::MAX,
        f64::MIN,
        f64::EPSILON,
        0.1,
        0.5,
        -0.5,
        f64::from(f32::MAX),
        f64::from(f32::from_bits(1)),
    ];
    out[Kind::Float.index()] = dedup(floats.into_iter().map(float_text));
    out[Kind::Double.index()] = dedup(doubles.into_iter().map(double_text));
    out[Kind::Char.index()] = CHARS.iter().map(|&u| escape([u])).collect();
    out[Kind::Str.index()] = STRINGS.iter().map(|s| s.to_string()).collect();
    out
}

/// Magnitudes across each numeric type's range: powers of two and of ten, negated too
/// (and 2^k - 1 for integers).
pub(crate) fn ranges() -> ByKind {
    let mut out: ByKind = Default::default();
    out[Kind::Byte.index()] = integers(i8::MIN.into(), i8::MAX.into(), 7, 2);
    out[Kind::Short.index()] = integers(i16::MIN.into(), i16::MAX.into(), 15, 4);
    out[Kind::Int.index()] = integers(i32::MIN.into(), i32::MAX.into(), 31, 9);
    out[Kind::Long.index()] = integers(i64::MIN, i64::MAX, 63, 18);
    let mut floats: Vec<f32> = Vec::new();
    for k in (-149..=127).step_by(8) {
        floats.extend([2f32.powi(k), -(2f32.powi(k))]);
    }
    for k in (-45..=38).step_by(6) {
        floats.push(format!("1e{k}").parse().unwrap_or(1.0));
    }
    let mut doubles: Vec<f64> = Vec::new();
    for k in (-1074..=1023).step_by(64) {
        doubles.extend([2f64.powi(k), -(2f64.powi(k))]);
    }
    for k in (-320..=300).step_by(20) {
        doubles.push(format!("1e{k}").parse().unwrap_or(1.0));
    }
    out[Kind::Float.index()] = dedup(floats.into_iter().map(float_text));
    out[Kind::Double.index()] = dedup(doubles.into_iter().map(double_text));
    out
}

/// A random value of `kind` from the seeded generator; `None` for `boolean`.
pub(crate) fn random(kind: Kind, rng: &mut impl Rng) -> Option<String> {
    Some(match kind {
        Kind::Boolean => return None,
        Kind::Byte => (magnitude(rng, 8) as i8).to_string(),
        Kind::Short => (magnitude(rng, 16) as i16).to_string(),
        Kind::Int => (magnitude(rng, 32) as i32).to_string(),
        Kind::Long => magnitude(rng, 64).to_string(),
        Kind::Float if rng.random_bool(0.5) => float_text(rng.random_range(-1000.0f32..1000.0)),
        Kind::Float => float_text(f32::from_bits(rng.random())),
        Kind::Double if rng.random_bool(0.5) => double_text(rng.random_range(-1000.0f64..1000.0)),
        Kind::Double => double_text(f64::from_bits(rng.random())),
        Kind::Char => escape([magnitude(rng, 16) as u16]),
        Kind::Str => {
            let len = rng.random_range(0..=8);
            let units: Vec<u16> = (0..len)
                .map(|_| {
                    if rng.random_bool(0.8) {
                        rng.random_range(0x20u16..0x7f)
                    } else {
                        CHARS[rng.random_range(0..CHARS.len())]
                    }
                })
                .collect();
            escape(units)
        }
    })
}

/// A value of a `bits`-wide integer type whose magnitude is spread evenly over the bit
/// lengths (log-uniform): as many values below 2^8 as between 2^16 and 2^17, so every
/// range an API distinguishes (bytes, chars, code points, years, epoch seconds, sizes) is
/// reached, not only the widest. Negative a quarter of the time; truncated to the type by
/// the caller.
fn magnitude(rng: &mut impl Rng, bits: u32) -> i64 {
    let len = rng.random_range(0..bits);
    let v = if len == 0 {
        0
    } else {
        let top = 1u64 << (len - 1);
        (top | (rng.random::<u64>() & (top - 1))) as i64
    };
    if rng.random_bool(0.25) {
        v.wrapping_neg()
    } else {
        v
    }
}

#[cfg(test)]
pub(crate) fn covers_every_kind(v: &ByKind) -> bool {
    KINDS
        .iter()
        .all(|&k| k == Kind::Boolean || !v[k.index()].is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn edges_span_each_type() {
        let v = values();
        assert!(covers_every_kind(&v));
        let int = &v[Kind::Int.index()];
        for s in ["-2147483648", "2147483647", "-2147483647"] {
            assert!(int.contains(&s.to_string()), "{s}");
        }
        let r = ranges();
        for s in ["1073741824", "-1000000000", "65535"] {
            assert!(r[Kind::Int.index()].contains(&s.to_string()), "{s}");
        }
        assert!(r[Kind::Double.index()].contains(&"1e300".to_string()));
        assert!(
            r[Kind::Byte.index()]
                .iter()
                .all(|s| s.parse::<i8>().is_ok())
        );
        let long = &v[Kind::Long.index()];
        assert!(long.contains(&"-9223372036854775808".to_string()));
        let d = &v[Kind::Double.index()];
        for s in [
            "NaN",
            "Infinity",
            "-Infinity",
            "-0.0",
            "5e-324",
            "1.7976931348623157e308",
        ] {
            assert!(d.contains(&s.to_string()), "{s}");
        }
        let f = &v[Kind::Float.index()];
        for s in ["1e-45", "3.4028235e38", "1.1754944e-38"] {
            assert!(f.contains(&s.to_string()), "{s}");
        }
        assert!(
            v[Kind::Byte.index()]
                .iter()
                .all(|s| s.parse::<i8>().is_ok())
        );
        assert!(v[Kind::Char.index()].contains(&"\\uD800".to_string()));
    }

    #[test]
    fn texts_read_back_exactly() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..2000 {
            let f: f32 = f32::from_bits(rng.random());
            let d: f64 = f64::from_bits(rng.random());
            if !f.is_nan() {
                assert_eq!(
                    float_text(f).replace("Infinity", "inf").parse::<f32>(),
                    Ok(f)
                );
            }
            if !d.is_nan() {
                assert_eq!(
                    double_text(d).replace("Infinity", "inf").parse::<f64>(),
                    Ok(d)
                );
            }
        }
    }

    #[test]
    fn random_values_are_seeded() {
        let draw = |seed| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            KINDS
                .iter()
                .map(|&k| random(k, &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(1), draw(1));
        assert_ne!(draw(1), draw(2));
        assert_eq!(draw(1)[Kind::Boolean.index()], None);
    }
}
