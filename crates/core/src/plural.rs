//! Counts with their noun in the right number ("1 group", "2 groups", "3 classes"), for
//! every message and report line that counts something.

/// `n` and `one` in the plural unless `n` is 1: `-es` after s, x, z, ch and sh, else `-s`.
pub fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        return format!("{n} {one}");
    }
    let es = ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|end| one.ends_with(end));
    format!("{n} {one}{}", if es { "es" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::plural;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(plural(1, "group"), "1 group");
        assert_eq!(plural(0, "group"), "0 groups");
        assert_eq!(plural(2, "new cause"), "2 new causes");
        assert_eq!(plural(3, "class"), "3 classes");
        assert_eq!(plural(1, "class"), "1 class");
    }
}
