//! Iteration over live objects in acquisition order (oldest first).

use core::iter::FusedIterator;
use core::marker::PhantomData;

use slotmap::Key;

use crate::handle;
use crate::slot::{SENTINEL, Slot};

/// An iterator over a pool's live objects and their handles, oldest first, from
/// [`Pool::iter`](crate::Pool::iter) or [`LiveObjects::iter`](crate::LiveObjects::iter).
///
/// ```
/// use pool_core::Pool;
///
/// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
/// let first = pool.acquire();
/// let second = pool.acquire();
/// let order: Vec<_> = pool.iter().map(|(handle, _)| handle).collect();
/// assert_eq!(order, [first, second]);
/// ```
pub struct Iter<'a, T, K> {
    slots: &'a [Slot<T>],
    cursor: u32,
    remaining: usize,
    _key: PhantomData<fn() -> K>,
}

impl<'a, T, K> Iter<'a, T, K> {
    pub(crate) fn new(slots: &'a [Slot<T>], len: usize) -> Self {
        let head = slots.first().map_or(SENTINEL, |sentinel| sentinel.next);
        Self {
            slots,
            cursor: head,
            remaining: len,
            _key: PhantomData,
        }
    }
}

impl<'a, T, K: Key> Iterator for Iter<'a, T, K> {
    type Item = (K, &'a T);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.cursor == SENTINEL {
            return None;
        }
        let index = self.cursor;
        let slot = self.slots.get(index as usize)?;
        self.cursor = slot.next;
        self.remaining -= 1;
        let value = slot.value.as_ref()?;
        Some((handle::make(index, slot.generation), value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<T, K: Key> ExactSizeIterator for Iter<'_, T, K> {}
impl<T, K: Key> FusedIterator for Iter<'_, T, K> {}

impl<T, K> Clone for Iter<'_, T, K> {
    fn clone(&self) -> Self {
        Self { ..*self }
    }
}
