//! "Did you mean …?" for a mistyped target name: the known name closest by edit distance,
//! when it is close enough to be a typo rather than another name.

/// The known name nearest to `name`, if at most a third of its length (at least one edit)
/// away; of names as near, the one sharing the most letters (`temurin71` is `temurin17`
/// with two digits swapped, not `temurin11` with one changed), then the first.
pub(super) fn closest<'a>(name: &str, known: &'a [String]) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    known
        .iter()
        .map(|k| {
            (
                edit_distance(name, k),
                std::cmp::Reverse(shared_letters(name, k)),
                k,
            )
        })
        .filter(|(d, _, _)| *d <= limit)
        .min_by_key(|(d, shared, _)| (*d, *shared))
        .map(|(_, _, k)| k.as_str())
}

/// Letters `a` and `b` have in common, each counted as often as both have it.
fn shared_letters(a: &str, b: &str) -> usize {
    let mut left: Vec<char> = b.chars().collect();
    a.chars()
        .filter(|c| match left.iter().position(|x| x == c) {
            Some(i) => {
                left.swap_remove(i);
                true
            }
            None => false,
        })
        .count()
}

/// Edits (insert, delete, substitute, or swap two neighbours) that turn `a` into `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![(0..=b.len()).collect::<Vec<usize>>()];
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (rows[i - 1][j] + 1)
                .min(row[j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(rows[i - 2][j - 2] + 1);
            }
        }
        rows.push(row);
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        [
            "openjdk17",
            "temurin11",
            "temurin17",
            "temurin21",
            "temurin25",
        ]
        .map(String::from)
        .to_vec()
    }

    #[test]
    fn a_typo_finds_its_target_and_a_stranger_finds_none() {
        assert_eq!(closest("temurin71", &names()), Some("temurin17"));
        assert_eq!(closest("temurn21", &names()), Some("temurin21"));
        assert_eq!(closest("Temurin25", &names()), Some("temurin25"));
        assert_eq!(closest("graalvm", &names()), None);
        assert_eq!(closest("x", &names()), None);
    }
}
