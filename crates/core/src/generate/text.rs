//! Text inputs beyond ASCII, built from the reference's own character data rather than from
//! a list in difftest: the worker reports, for every pair of Unicode script and general
//! category the reference knows, its first, middle and last code point and the unassigned
//! one after its last ([`crate::message::Request::Characters`]). From those,
//! generation draws (with `--text-ratio`) for `String`/`CharSequence` parameters a single
//! code point (supplementary ones as surrogate pairs), a word of one script, a letter with a
//! combining mark, two symbols or letters around a joiner (a format character of the
//! inherited script, as U+200D is), digits of one script, or a code point between ASCII
//! letters; for `char` parameters a BMP code point; for `int` parameters a code point's
//! number. Draws use the generation RNG, so a seed still gives one suite.

use super::mined::Kind;
use crate::sequence::escape;
use rand::Rng;
use std::collections::BTreeMap;

/// `Character.getType` numbers of the general categories the forms use.
mod category {
    pub(super) const UNASSIGNED: u8 = 0;
    pub(super) const LETTERS: std::ops::RangeInclusive<u8> = 1..=5;
    pub(super) const MARKS: std::ops::RangeInclusive<u8> = 6..=8;
    pub(super) const DECIMAL_DIGIT: u8 = 9;
    pub(super) const FORMAT: u8 = 16;
    pub(super) const OTHER_SYMBOL: u8 = 28;
}

/// The script of combining marks and joiners shared by every script.
const INHERITED: &str = "INHERITED";

/// One code point the reference reported.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Point {
    cp: u32,
    category: u8,
    script: usize,
}

/// A line of the reference's answer that is not `HEX TYPE SCRIPT`.
#[derive(Debug, thiserror::Error)]
#[error("the reference's character data, line {line}: {message}")]
pub struct CharDataError {
    /// The line of the character data.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

/// The reference's character data, indexed for drawing.
#[derive(Debug, Default)]
pub struct CharData {
    points: Vec<Point>,
    scripts: Vec<String>,
    /// Points by script index.
    by_script: Vec<Vec<usize>>,
    letters: Vec<usize>,
    marks: Vec<usize>,
    digits: Vec<usize>,
    joiners: Vec<usize>,
    symbols: Vec<usize>,
    bmp: Vec<usize>,
}

impl CharData {
    /// Reads the worker's lines (`1f600 28 COMMON`).
    pub fn parse(lines: &[String]) -> Result<CharData, CharDataError> {
        let mut data = CharData::default();
        let mut script_ids: BTreeMap<String, usize> = BTreeMap::new();
        for (n, line) in lines.iter().enumerate() {
            let bad = |message: &str| CharDataError {
                line: n + 1,
                message: format!("{message}: {}", crate::text::clip(line)),
            };
            let mut parts = line.split(' ');
            let (Some(hex), Some(ty), Some(script), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(bad("expected `HEX TYPE SCRIPT`"));
            };
            let cp = u32::from_str_radix(hex, 16)
                .ok()
                .filter(|&c| c <= 0x10FFFF && !(0xD800..=0xDFFF).contains(&c))
                .ok_or_else(|| bad("not a code point outside the surrogates"))?;
            let category = ty
                .parse::<u8>()
                .ok()
                .filter(|&t| t < 32)
                .ok_or_else(|| bad("not a general category number"))?;
            let next = script_ids.len();
            let id = *script_ids.entry(script.to_string()).or_insert(next);
            if id == data.scripts.len() {
                data.scripts.push(script.to_string());
                data.by_script.push(Vec::new());
            }
            data.add(Point {
                cp,
                category,
                script: id,
            });
        }
        Ok(data)
    }

    fn add(&mut self, p: Point) {
        let i = self.points.len();
        let inherited = self.scripts[p.script] == INHERITED;
        if p.category != category::UNASSIGNED {
            self.by_script[p.script].push(i);
        }
        let list = match p.category {
            c if category::LETTERS.contains(&c) => Some(&mut self.letters),
            c if category::MARKS.contains(&c) => Some(&mut self.marks),
            category::DECIMAL_DIGIT => Some(&mut self.digits),
            category::FORMAT if inherited => Some(&mut self.joiners),
            category::OTHER_SYMBOL => Some(&mut self.symbols),
            _ => None,
        };
        if let Some(list) = list {
            list.push(i);
        }
        if p.cp < 0x10000 {
            self.bmp.push(i);
        }
        self.points.push(p);
    }

    /// How many code points the reference reported.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether no text was found.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// A value for a parameter of `kind` as escaped Java text, or `None` for the kinds text
    /// does not fill (or when the data has nothing for it).
    pub fn draw(&self, kind: Kind, rng: &mut impl Rng) -> Option<String> {
        match kind {
            Kind::Str => self.text(rng),
            Kind::Char => Some(escape([self.cp(pick(&self.bmp, rng)?) as u16])),
            Kind::Int => Some(self.cp(pick(&self.points_all(), rng)?).to_string()),
            _ => None,
        }
    }

    fn points_all(&self) -> std::ops::Range<usize> {
        0..self.points.len()
    }

    fn cp(&self, i: usize) -> u32 {
        self.points[i].cp
    }

    /// One of the text forms the module comment lists, evenly.
    fn text(&self, rng: &mut impl Rng) -> Option<String> {
        let cps: Vec<u32> = match rng.random_range(0..6) {
            0 => vec![self.cp(pick(&self.points_all(), rng)?)],
            1 => self.word(rng)?,
            2 => self.marked(rng)?,
            3 => self.joined(rng)?,
            4 => self.number(rng)?,
            _ => vec![
                'a' as u32,
                self.cp(pick(&self.points_all(), rng)?),
                'b' as u32,
            ],
        };
        Some(escape_code_points(&cps))
    }

    /// Two to four assigned code points of one script.
    fn word(&self, rng: &mut impl Rng) -> Option<Vec<u32>> {
        let scripts: Vec<&Vec<usize>> = self.by_script.iter().filter(|s| !s.is_empty()).collect();
        if scripts.is_empty() {
            return None;
        }
        let script = scripts[rng.random_range(0..scripts.len())];
        let n = rng.random_range(2..=4);
        (0..n).map(|_| Some(self.cp(pick(script, rng)?))).collect()
    }

    /// A letter followed by a mark of its own script or of the inherited one.
    fn marked(&self, rng: &mut impl Rng) -> Option<Vec<u32>> {
        let letter = pick(&self.letters, rng)?;
        let script = self.points[letter].script;
        let fits: Vec<usize> = self
            .marks
            .iter()
            .copied()
            .filter(|&m| {
                let s = self.points[m].script;
                s == script || self.scripts[s] == INHERITED
            })
            .collect();
        Some(vec![self.cp(letter), self.cp(pick(&fits, rng)?)])
    }

    /// Two symbols (or two letters) around a joiner.
    fn joined(&self, rng: &mut impl Rng) -> Option<Vec<u32>> {
        let joiner = pick(&self.joiners, rng)?;
        let side = if rng.random_bool(0.5) {
            &self.symbols
        } else {
            &self.letters
        };
        Some(vec![
            self.cp(pick(side, rng)?),
            self.cp(joiner),
            self.cp(pick(side, rng)?),
        ])
    }

    /// One to four decimal digits of one script, sometimes signed.
    fn number(&self, rng: &mut impl Rng) -> Option<Vec<u32>> {
        let first = pick(&self.digits, rng)?;
        let script = self.points[first].script;
        let same: Vec<usize> = self
            .digits
            .iter()
            .copied()
            .filter(|&d| self.points[d].script == script)
            .collect();
        let mut out = Vec::new();
        if rng.random_bool(0.25) {
            out.push('-' as u32);
        }
        out.push(self.cp(first));
        for _ in 0..rng.random_range(0..=3) {
            out.push(self.cp(pick(&same, rng)?));
        }
        Some(out)
    }
}

/// A random element of `from` (a list of indices, or a range of them).
fn pick<L: Indices + ?Sized>(from: &L, rng: &mut impl Rng) -> Option<usize> {
    let n = from.count();
    (n > 0).then(|| from.at(rng.random_range(0..n)))
}

/// Lists of point indices [`pick`] draws from.
trait Indices {
    fn count(&self) -> usize;
    fn at(&self, k: usize) -> usize;
}

impl Indices for Vec<usize> {
    fn count(&self) -> usize {
        self.len()
    }
    fn at(&self, k: usize) -> usize {
        self[k]
    }
}

impl Indices for std::ops::Range<usize> {
    fn count(&self) -> usize {
        self.len()
    }
    fn at(&self, k: usize) -> usize {
        self.start + k
    }
}

/// Code points as escaped Java text (supplementary ones as surrogate pairs).
fn escape_code_points(cps: &[u32]) -> String {
    let mut units = Vec::with_capacity(cps.len() * 2);
    for &cp in cps {
        match char::from_u32(cp) {
            Some(c) => units.extend(c.encode_utf16(&mut [0u16; 2]).iter().copied()),
            None => units.push(cp as u16),
        }
    }
    escape(units)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn sample() -> CharData {
        let lines = [
            "41 1 LATIN",
            "61 2 LATIN",
            "300 6 INHERITED",
            "660 9 ARABIC",
            "661 9 ARABIC",
            "628 5 ARABIC",
            "200d 16 INHERITED",
            "1f600 28 COMMON",
            "1fa7d 0 UNKNOWN",
        ];
        CharData::parse(&lines.map(String::from)).unwrap()
    }

    #[test]
    fn every_form_comes_from_the_reported_points() {
        let data = sample();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..2000 {
            seen.insert(
                data.draw(Kind::Str, &mut rng)
                    .expect("every form has points"),
            );
        }
        assert!(
            seen.contains("\\uD83D\\uDE00"),
            "a supplementary point as a pair"
        );
        assert!(
            seen.iter().any(|s| s.contains("\\u0300")),
            "a combining mark"
        );
        assert!(seen.iter().any(|s| s.contains("\\u200D")), "a joiner");
        assert!(
            seen.iter().any(|s| s.starts_with("-\\u066")),
            "signed Arabic digits"
        );
        assert!(
            seen.contains("a\\uD83E\\uDE7Db"),
            "the unassigned point between letters"
        );
        let c = data.draw(Kind::Char, &mut rng).unwrap();
        assert!(!c.contains("\\uD8"), "chars are BMP points: {c}");
        let n: u32 = data.draw(Kind::Int, &mut rng).unwrap().parse().unwrap();
        assert!(data.points.iter().any(|p| p.cp == n));
        assert_eq!(data.draw(Kind::Double, &mut rng), None);
    }

    #[test]
    fn malformed_lines_are_named() {
        let bad = |l: &str| CharData::parse(&[String::from("41 1 LATIN"), l.into()]).unwrap_err();
        assert_eq!(bad("zz 1 LATIN").line, 2);
        assert!(bad("d800 19 UNKNOWN").message.contains("code point"));
        assert!(bad("41 99 LATIN").message.contains("category"));
        assert!(bad("41 1").message.contains("HEX TYPE SCRIPT"));
    }
}
