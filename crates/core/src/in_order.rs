//! Work on many items on every core, taken in order: items are mapped a batch at a time in
//! parallel (rayon), and each mapped batch is handed on in the items' order while the next
//! batch is mapped. A pass holds two batches, whatever the number of items, and what it
//! hands on does not depend on the cores. Record's passes over the kept tests after
//! generation (reduction, settling the reruns' findings) read every test back from disk
//! while the workers are idle: reading and keying a test is most of their work.

use rayon::prelude::*;

/// Items mapped at once: enough to keep the cores busy, few enough to hold two batches.
pub(crate) const BATCH: usize = 1024;

/// Maps every item of `items` with `map` on rayon's threads, [`BATCH`] at a time, and
/// passes each result to `each` in the items' order; `each` takes a batch while the next
/// one is mapped. Stops at the first error, in the items' order.
pub(crate) fn for_each<I, T, E>(
    items: impl IntoIterator<Item = I>,
    map: impl Fn(I) -> Result<T, E> + Sync,
    each: impl FnMut(T) -> Result<(), E> + Send,
) -> Result<(), E>
where
    I: Send,
    T: Send,
    E: Send,
{
    for_each_in(items, BATCH, map, each)
}

/// [`for_each`] with batches of `batch` items.
fn for_each_in<I, T, E>(
    items: impl IntoIterator<Item = I>,
    batch: usize,
    map: impl Fn(I) -> Result<T, E> + Sync,
    mut each: impl FnMut(T) -> Result<(), E> + Send,
) -> Result<(), E>
where
    I: Send,
    T: Send,
    E: Send,
{
    let mut items = items.into_iter();
    let mut take = || items.by_ref().take(batch.max(1)).collect::<Vec<I>>();
    let mapped = |chunk: Vec<I>| {
        chunk
            .into_par_iter()
            .map(&map)
            .collect::<Result<Vec<T>, E>>()
    };
    let mut current = mapped(take())?;
    while !current.is_empty() {
        let next = take();
        let each = &mut each;
        let (ahead, done) = rayon::join(|| mapped(next), || current.into_iter().try_for_each(each));
        done?;
        current = ahead?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_order_across_batches() {
        let mut seen = Vec::new();
        let out: Result<(), ()> = for_each_in(
            0..1000u32,
            7,
            |i| Ok(i * 2),
            |v| {
                seen.push(v);
                Ok(())
            },
        );
        assert_eq!(out, Ok(()));
        assert_eq!(seen, (0..1000).map(|i| i * 2).collect::<Vec<_>>());
    }

    #[test]
    fn no_items_is_no_call() {
        let mut calls = 0;
        let out: Result<(), ()> = for_each(
            Vec::<u8>::new(),
            |_| Ok(()),
            |_| {
                calls += 1;
                Ok(())
            },
        );
        assert_eq!((out, calls), (Ok(()), 0));
    }

    #[test]
    fn the_first_error_in_order_wins_and_nothing_after_it_is_taken() {
        let mut taken = Vec::new();
        let out = for_each_in(
            0..100u32,
            10,
            |i| if i == 35 || i == 72 { Err(i) } else { Ok(i) },
            |v| {
                taken.push(v);
                if v == 55 { Err(1000) } else { Ok(()) }
            },
        );
        assert_eq!(out, Err(35), "a mapping error before any taking error");
        assert_eq!(
            taken,
            (0..30).collect::<Vec<_>>(),
            "the batch holding it is not taken"
        );
        taken.clear();
        let out = for_each_in(0..100u32, 10, Ok, |v| {
            taken.push(v);
            if v == 55 { Err(1000) } else { Ok(()) }
        });
        assert_eq!(out, Err(1000));
        assert_eq!(
            taken.last(),
            Some(&55),
            "nothing after the failing item is taken"
        );
    }
}
