//! A list that grows by fixed-size chunks instead of by doubling one block: appending never
//! copies what is already stored, so a list of tens of megabytes never holds its old and new
//! blocks at once (which a doubling `Vec` does while it grows, raising the process's peak
//! by up to twice the list), and at most one chunk stands unused.

/// Items in one chunk.
const CHUNK: usize = 1 << 12;

/// A growing list of `T` in chunks of [`CHUNK`] items.
pub(crate) struct Chunked<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Chunked<T> {
    pub(crate) fn push(&mut self, item: T) {
        if self.len.is_multiple_of(CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        if let Some(last) = self.chunks.last_mut() {
            last.push(item);
        }
        self.len += 1;
    }

    pub(crate) fn get(&self, i: usize) -> Option<&T> {
        self.chunks.get(i / CHUNK)?.get(i % CHUNK)
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Estimated bytes held: every chunk at its capacity.
    pub(crate) fn heap_bytes(&self) -> u64 {
        (self.chunks.len() * CHUNK * std::mem::size_of::<T>()
            + self.chunks.capacity() * std::mem::size_of::<Vec<T>>()) as u64
    }
}

impl<T> std::ops::Index<usize> for Chunked<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        &self.chunks[i / CHUNK][i % CHUNK]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_read_back_in_order_across_chunks() {
        let mut list = Chunked::default();
        assert!(list.len() == 0 && list.get(0).is_none());
        for i in 0..3 * CHUNK + 5 {
            list.push(i);
        }
        assert_eq!(list.len(), 3 * CHUNK + 5);
        assert_eq!(list[CHUNK], CHUNK);
        assert_eq!(list.get(3 * CHUNK + 4), Some(&(3 * CHUNK + 4)));
        assert_eq!(list.get(3 * CHUNK + 5), None);
        assert!((0..list.len()).all(|i| list[i] == i));
        assert_eq!(list.chunks.len(), 4, "no chunk is copied or left empty");
    }
}
