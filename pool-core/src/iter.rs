//! Iteration over live objects: in acquisition order (oldest first), or by slot
//! in a pool whose policy keeps no order.

use core::iter::FusedIterator;
use core::marker::PhantomData;

use slotmap::Key;

use crate::handle;
use crate::slot::{SENTINEL, Slot, next_live};

/// A mutable iterator over a pool's live objects and their handles, in slot
/// order, from [`Pool::iter_mut`](crate::Pool::iter_mut).
///
/// ```
/// use pool_core::Pool;
///
/// let mut pool: Pool<u32> = Pool::new(0, 4, || 1).unwrap();
/// let _handles = (pool.acquire(), pool.acquire());
/// let iter = pool.iter_mut();
/// assert_eq!(iter.len(), 2);
/// assert_eq!(iter.map(|(_, value)| *value).sum::<u32>(), 2);
/// ```
pub struct IterMut<'a, T, K> {
    pub(crate) slots: core::iter::Enumerate<core::slice::IterMut<'a, Slot<T>>>,
    pub(crate) remaining: usize,
    pub(crate) _key: PhantomData<fn() -> K>,
}

impl<'a, T, K: Key> Iterator for IterMut<'a, T, K> {
    type Item = (K, &'a mut T);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 {
            return None;
        }
        for (index, slot) in self.slots.by_ref() {
            // Odd generations are live; the sentinel's stays even.
            let generation = slot.generation;
            if let Some(value) = slot.live_object_mut() {
                self.remaining -= 1;
                return Some((handle::make(index as u32, generation), value));
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<T, K: Key> ExactSizeIterator for IterMut<'_, T, K> {}
impl<T, K: Key> FusedIterator for IterMut<'_, T, K> {}

/// An iterator over a pool's live objects and their handles (oldest first where
/// the pool keeps acquisition order, else by slot), from
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
    /// Acquisition order, or slot order (see `ExhaustionPolicy::KEEPS_ORDER`).
    ordered: bool,
    _key: PhantomData<fn() -> K>,
}

impl<'a, T, K> Iter<'a, T, K> {
    pub(crate) fn new(slots: &'a [Slot<T>], len: usize, ordered: bool) -> Self {
        let head = if len == 0 {
            SENTINEL
        } else {
            next_live(slots, ordered, SENTINEL)
        };
        Self {
            slots,
            cursor: head,
            remaining: len,
            ordered,
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
        self.remaining -= 1;
        // Past the last live object, a scan by slot would look at every slot left.
        self.cursor = if self.remaining == 0 {
            SENTINEL
        } else if self.ordered {
            slot.next
        } else {
            next_live(self.slots, false, index)
        };
        let value = slot.live_object()?;
        Some((handle::make(index, slot.generation), value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }

    /// By slot, one pass over the slots left (what `sum`, `for_each` and most
    /// adapters call), without the per-item bookkeeping of `next`.
    fn fold<B, F: FnMut(B, Self::Item) -> B>(mut self, init: B, mut f: F) -> B {
        if self.ordered || self.cursor == SENTINEL {
            let mut acc = init;
            for item in self.by_ref() {
                acc = f(acc, item);
            }
            return acc;
        }
        let start = self.cursor as usize;
        let rest = self.slots.get(start..).unwrap_or_default();
        rest.iter()
            .enumerate()
            .filter(|(_, slot)| slot.generation & 1 == 1)
            .take(self.remaining)
            .fold(init, |acc, (at, slot)| match slot.live_object() {
                Some(value) => f(
                    acc,
                    (handle::make((start + at) as u32, slot.generation), value),
                ),
                None => acc,
            })
    }
}

impl<T, K: Key> ExactSizeIterator for Iter<'_, T, K> {}
impl<T, K: Key> FusedIterator for Iter<'_, T, K> {}

impl<T, K> Clone for Iter<'_, T, K> {
    fn clone(&self) -> Self {
        Self { ..*self }
    }
}
