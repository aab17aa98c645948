//! Numbers of every magnitude in their textual forms, for `String` parameters, so parsers
//! (`Integer.parseInt`, `new BigDecimal`, `Double.valueOf`, `DecimalFormat.parse`,
//! `Duration.parse` …) see the edges of their ranges and of their syntax. A value is drawn
//! by a general rule — a power of two or of ten across the widest range a Java number type
//! has (`1e-400` to `1e400`, `2^0` to `2^64`), or one of a type's limits or one past it — and
//! written in one of the forms Java's parsers accept or reject at their edges: plain, signed,
//! with leading zeros, scientific (`e`, `E`, a signed exponent), hexadecimal (`0x7fffffff`,
//! `0x1.0p-1074`), grouped by thousands, with a type suffix, or padded with a space. Draws
//! use the generation RNG (`--numeral-ratio`), so a seed still gives one suite.

use rand::Rng;

/// A numeral text for a `String` parameter.
pub(crate) fn draw(rng: &mut impl Rng) -> String {
    match rng.random_range(0..3) {
        0 => integer_form(integer(rng), rng),
        1 => decimal_form(rng.random_range(-400i32..=400), rng),
        _ => hex_float(rng),
    }
}

/// A power of two or ten, or a limit of `byte`, `short`, `int` or `long` or one past it,
/// with either sign.
fn integer(rng: &mut impl Rng) -> i128 {
    let v: i128 = match rng.random_range(0..3) {
        0 => 1i128 << rng.random_range(0..=64),
        1 => 10i128.pow(rng.random_range(0..=20)),
        _ => {
            let bits = [8u32, 16, 32, 64][rng.random_range(0..4)];
            let max = (1i128 << (bits - 1)) - 1;
            max + rng.random_range(0..=2)
        }
    };
    if rng.random_bool(0.5) { -v } else { v }
}

/// An integer written plainly, signed, with leading zeros, grouped, in hex, with a suffix
/// or padded.
fn integer_form(v: i128, rng: &mut impl Rng) -> String {
    let sign = if v < 0 { "-" } else { "" };
    let digits = v.unsigned_abs().to_string();
    match rng.random_range(0..7) {
        0 => v.to_string(),
        1 if v >= 0 => format!("+{digits}"),
        2 => format!("{sign}00{digits}"),
        3 => format!("{sign}{}", grouped(&digits)),
        4 => format!("{sign}0x{:x}", v.unsigned_abs()),
        5 => format!(
            "{v}{}",
            ["L", "l", "d", "f", ".0", "."][rng.random_range(0..6)]
        ),
        _ => format!(" {v} "),
    }
}

/// `10^exp` (a decimal power from `1e-400` to `1e400`) in a decimal or scientific form.
fn decimal_form(exp: i32, rng: &mut impl Rng) -> String {
    let sign = ["", "-", "+"][rng.random_range(0..3)];
    let mantissa = [
        "1",
        "9.999999999999999",
        "4.9",
        "2.2250738585072014",
        "1.7976931348623157",
    ][rng.random_range(0..5)];
    match rng.random_range(0..4) {
        0 => format!("{sign}{mantissa}e{exp}"),
        1 => format!("{sign}{mantissa}E{}{exp}", if exp >= 0 { "+" } else { "" }),
        2 if (-30..=30).contains(&exp) => format!("{sign}{}", plain_power(exp)),
        _ => format!("{sign}{mantissa}E{exp}"),
    }
}

/// `10^exp` without an exponent: `1000`, `0.001`.
fn plain_power(exp: i32) -> String {
    if exp >= 0 {
        format!("1{}", "0".repeat(exp as usize))
    } else {
        format!("0.{}1", "0".repeat((-exp - 1) as usize))
    }
}

/// A hexadecimal floating-point text (`0x1.0p-1074`, `-0X1.FFFFFEP127`) around the limits
/// of `float` and `double`.
fn hex_float(rng: &mut impl Rng) -> String {
    let exp = [-1075, -1074, -1022, -149, -126, 0, 127, 128, 1023, 1024][rng.random_range(0..10)];
    let mantissa =
        ["1.0", "1.fffffffffffff", "1.fffffe", "0.0000000000001"][rng.random_range(0..4)];
    let sign = if rng.random_bool(0.5) { "-" } else { "" };
    if rng.random_bool(0.5) {
        format!("{sign}0x{mantissa}p{exp}")
    } else {
        format!("{sign}0X{}P{exp}", mantissa.to_uppercase())
    }
}

/// Digits grouped by thousands with commas.
fn grouped(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn numerals_span_magnitudes_and_forms() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let all: Vec<String> = (0..3000).map(|_| draw(&mut rng)).collect();
        let has = |f: &dyn Fn(&str) -> bool| all.iter().any(|s| f(s));
        assert!(
            has(&|s| s == "2147483648" || s == "-2147483649"),
            "one past int"
        );
        assert!(
            has(&|s| s.contains("e-3") || s.contains("E-3")),
            "tiny decimals"
        );
        assert!(has(&|s| s.contains("0x1.0p-1074")), "hex floats");
        assert!(has(&|s| s.contains(",000")), "grouped");
        assert!(has(&|s| s.starts_with(' ')), "padded");
        assert!(all.iter().all(|s| s.is_ascii() && !s.contains('\\')));
        assert_eq!(grouped("1234567"), "1,234,567");
        assert_eq!(plain_power(-3), "0.001");
    }
}
