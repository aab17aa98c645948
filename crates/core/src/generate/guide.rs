//! Coverage-guided operation draws (`record --coverage-guided`): the JaCoCo execution data
//! the generation workers hand over as they go is folded into the branches (probes) reached
//! so far per class, and each class that reached new ones earns credit, which decays round
//! by round. Random generation then draws the operations of a class with credit more often,
//! so it keeps extending the part of the API where new behaviour was last found (GRT's and
//! EvoSuite's lesson). The data arrives when workers are asked for it, not in round order,
//! so a seed no longer gives one suite with it.

use super::{Generator, ops};
use crate::pool::Executor;
use rand::distr::weighted::WeightedIndex;
use std::collections::HashMap;

/// What a class's credit keeps from one round to the next.
const DECAY: f64 = 0.9;

/// Probes reached so far and the credit of each top-level class.
#[derive(Debug, Default)]
pub(crate) struct Guide {
    /// Probes reached per JaCoCo class (internal name, nested classes apart).
    reached: HashMap<String, Vec<bool>>,
    /// Decayed count of newly reached probes per top-level class (binary name).
    credit: HashMap<String, f64>,
}

/// A damaged execution-data stream: where it stopped making sense.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("JaCoCo execution data damaged at byte {0}")]
pub(crate) struct Damaged(pub usize);

impl Guide {
    /// Folds `data` (execution data as JaCoCo's agent dumps it) in after a round: credit
    /// decays, and each class earns the probes it reached for the first time. Returns how
    /// many probes were new.
    pub(crate) fn fold(&mut self, data: &[u8]) -> Result<usize, Damaged> {
        for credit in self.credit.values_mut() {
            *credit *= DECAY;
        }
        let mut new = 0;
        for (name, probes) in read_exec(data)? {
            let known = self.reached.entry(name.clone()).or_default();
            if known.len() < probes.len() {
                known.resize(probes.len(), false);
            }
            let gained = probes
                .iter()
                .zip(known.iter_mut())
                .filter(|(hit, seen)| **hit && !**seen)
                .map(|(_, seen)| *seen = true)
                .count();
            if gained > 0 {
                *self.credit.entry(top_level(&name)).or_default() += gained as f64;
                new += gained;
            }
        }
        Ok(new)
    }

    /// How much more often an operation of `class` (binary name) is drawn than one of a
    /// class without credit: `1 + ln(1 + credit)`.
    pub(crate) fn factor(&self, class: &str) -> f64 {
        1.0 + self.credit.get(class).copied().unwrap_or(0.0).ln_1p()
    }
}

impl Generator<'_> {
    /// With a guide, folds in the data `exec` handed over since the last round and draws
    /// the random operations by their class's factor from now on (times their signature
    /// weight with `--ops-by-signature`). Data that does not read is left out.
    pub(super) fn steer(&mut self, exec: &dyn Executor) {
        let Some(guide) = &mut self.guide else {
            return;
        };
        if guide.fold(&exec.coverage_delta()).is_err() {
            return;
        }
        let random = &self.ops[..self.random_ops];
        let mut weights = match self.cfg.ops_by_signature {
            true => ops::signature_weights(random),
            false => vec![1.0; random.len()],
        };
        for (w, class) in weights.iter_mut().zip(&self.op_class) {
            *w *= guide.factor(class.split('$').next().unwrap_or(class));
        }
        self.op_draw = WeightedIndex::new(weights).ok();
    }
}

/// `java/util/HashMap$Node` → `java.util.HashMap`.
fn top_level(internal: &str) -> String {
    let outer = internal.split('$').next().unwrap_or(internal);
    outer.replace('/', ".")
}

/// The classes of a JaCoCo `.exec` stream (blocks appended one after another) with the
/// probes each reached: header (0x01), session (0x10) and execution-data (0x11) blocks.
pub(crate) fn read_exec(data: &[u8]) -> Result<Vec<(String, Vec<bool>)>, Damaged> {
    let mut r = Reader { data, at: 0 };
    let mut classes = Vec::new();
    while r.at < data.len() {
        match r.byte()? {
            0x01 => {
                r.take(4)?;
            }
            0x10 => {
                r.utf()?;
                r.take(16)?;
            }
            0x11 => {
                r.take(8)?;
                let name = r.utf()?;
                classes.push((name, r.booleans()?));
            }
            _ => return Err(Damaged(r.at - 1)),
        }
    }
    Ok(classes)
}

/// A cursor over the stream, each read checked against its end.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Damaged> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.data.len());
        let end = end.ok_or(Damaged(self.at))?;
        let bytes = &self.data[self.at..end];
        self.at = end;
        Ok(bytes)
    }

    fn byte(&mut self) -> Result<u8, Damaged> {
        Ok(self.take(1)?[0])
    }

    /// `DataOutput.writeUTF`: a 2-byte length, then modified UTF-8 (class names are ASCII
    /// in practice; anything else is kept lossily, it only keys the class).
    fn utf(&mut self) -> Result<String, Damaged> {
        let len = u16::from_be_bytes([self.byte()?, self.byte()?]) as usize;
        Ok(String::from_utf8_lossy(self.take(len)?).into_owned())
    }

    /// JaCoCo's variable-length int: 7 bits a byte, low first, high bit for more.
    fn varint(&mut self) -> Result<usize, Damaged> {
        let mut value = 0usize;
        for shift in (0..35).step_by(7) {
            let b = self.byte()?;
            value |= ((b & 0x7f) as usize) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(Damaged(self.at))
    }

    /// A varint count, then the booleans packed 8 a byte, low bit first.
    fn booleans(&mut self) -> Result<Vec<bool>, Damaged> {
        let n = self.varint()?;
        let bytes = self.take(n.div_ceil(8))?;
        Ok((0..n).map(|i| bytes[i / 8] & (1 << (i % 8)) != 0).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream as JaCoCo writes it: header, session, then one block per class.
    fn exec(classes: &[(&str, &[bool])]) -> Vec<u8> {
        let mut out = vec![0x01, 0xc0, 0xc0, 0x10, 0x07];
        out.extend([0x10, 0, 2, b'w', b'1']);
        out.extend([0; 16]);
        for (name, probes) in classes {
            out.push(0x11);
            out.extend([0; 8]);
            out.extend((name.len() as u16).to_be_bytes());
            out.extend(name.as_bytes());
            out.push(probes.len() as u8);
            for chunk in probes.chunks(8) {
                let byte = chunk
                    .iter()
                    .enumerate()
                    .fold(0u8, |b, (i, &hit)| b | ((hit as u8) << i));
                out.push(byte);
            }
        }
        out
    }

    #[test]
    fn a_stream_reads_back_class_by_class() {
        let probes: Vec<bool> = (0..11).map(|i| i % 3 == 0).collect();
        let data = exec(&[("java/util/HashMap$Node", &probes), ("a/B", &[true])]);
        let read = read_exec(&data).unwrap();
        assert_eq!(read[0], ("java/util/HashMap$Node".to_string(), probes));
        assert_eq!(read[1], ("a/B".to_string(), vec![true]));
    }

    #[test]
    fn a_cut_or_foreign_stream_is_damaged() {
        let data = exec(&[("a/B", &[true, false, true])]);
        assert!(read_exec(&data[..data.len() - 1]).is_err());
        assert_eq!(read_exec(&[0x42]), Err(Damaged(0)));
    }

    /// An executor that runs nothing and hands over `0` as its coverage data.
    struct Hands(Vec<u8>);

    impl Executor for Hands {
        fn run(
            &self,
            _: &[crate::message::SeqRequest],
            _: bool,
        ) -> Result<Vec<crate::sequence::SeqResult>, crate::pool::PoolError> {
            Ok(Vec::new())
        }
        fn coverage_delta(&self) -> Vec<u8> {
            self.0.clone()
        }
    }

    #[test]
    fn a_class_that_reached_new_branches_is_drawn_more_often() {
        use rand::SeedableRng;
        use rand::distr::Distribution;
        let model = crate::pool::fake::model();
        let cfg = super::super::GenConfig {
            coverage_guided: true,
            ..Default::default()
        };
        let mut g = Generator::new(&model, cfg).unwrap();
        let util = |g: &Generator, i: usize| g.op_class[i] == "t.Util";
        let uniform =
            (0..g.random_ops).filter(|&i| util(&g, i)).count() as f64 / g.random_ops as f64;
        g.steer(&Hands(exec(&[("t/Util$Inner", &[true; 40])])));
        let draw = g.op_draw.clone().expect("weights after the first data");
        let n = 4000;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let drawn = (0..n).filter(|_| util(&g, draw.sample(&mut rng))).count() as f64 / n as f64;
        assert!(drawn > 2.0 * uniform, "{drawn} vs {uniform}");
    }

    #[test]
    fn only_new_probes_earn_credit_and_credit_decays() {
        let mut guide = Guide::default();
        let first = exec(&[("java/text/ChoiceFormat$X", &[true, false, true])]);
        assert_eq!(guide.fold(&first), Ok(2));
        let credited = guide.factor("java.text.ChoiceFormat");
        assert!((credited - (1.0 + 2f64.ln_1p())).abs() < 1e-9);
        assert_eq!(guide.factor("java.text.Other"), 1.0);
        assert_eq!(guide.fold(&first), Ok(0));
        assert!(guide.factor("java.text.ChoiceFormat") < credited);
        let more = exec(&[("java/text/ChoiceFormat$X", &[false, true, false])]);
        assert_eq!(guide.fold(&more), Ok(1));
    }
}
