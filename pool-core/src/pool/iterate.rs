//! Visiting every live object: in acquisition order where the pool keeps it,
//! else by slot.

use core::marker::PhantomData;

use slotmap::Key;

use super::Pool;
use crate::handle;
use crate::iter::{Iter, IterMut};
use crate::policy::ExhaustionPolicy;
use crate::slot::{SENTINEL, next_live};

impl<T, P: ExhaustionPolicy<T>, K: Key> Pool<T, P, K> {
    /// The live objects and their handles: oldest first, in O(live); by slot, in
    /// O(slots), in a pool whose policy keeps no order
    /// ([`Strict`](crate::Strict)'s case, see [`ExhaustionPolicy::KEEPS_ORDER`]).
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    /// for value in 1..=3 {
    ///     let handle = pool.acquire();
    ///     *pool.get_mut(handle).unwrap() = value;
    /// }
    /// let values: Vec<u32> = pool.iter().map(|(_, value)| *value).collect();
    /// assert_eq!(values, [1, 2, 3]);
    /// ```
    pub fn iter(&self) -> Iter<'_, T, K> {
        Iter::new(&self.slots, self.live, P::KEEPS_ORDER)
    }

    /// The live objects and their handles, mutably, in slot order (not
    /// acquisition order: [`for_each_mut`](Self::for_each_mut) walks oldest
    /// first where the pool keeps that order). O(slots): it visits every slot the pool has made, live or not,
    /// which is what lending `&mut` references without more `unsafe` allows.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    /// let a = pool.acquire();
    /// let b = pool.acquire();
    /// pool.release(a).unwrap(); // idle objects are not visited
    /// for (handle, value) in pool.iter_mut() {
    ///     *value += 10;
    ///     assert_eq!(handle, b);
    /// }
    /// assert_eq!(pool.get(b), Some(&10));
    /// ```
    pub fn iter_mut(&mut self) -> IterMut<'_, T, K> {
        IterMut {
            slots: self.slots.iter_mut().enumerate(),
            remaining: self.live,
            _key: PhantomData,
        }
    }

    /// Calls `f` on every live object, mutably, in [`iter`](Self::iter)'s order
    /// (oldest first where the pool keeps that order). ([`iter_mut`](Self::iter_mut)
    /// is an iterator, in slot order: walking the acquisition-order links while
    /// lending `&mut` references would need `unsafe` beyond the slot's storage.)
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    /// let (a, b) = (pool.acquire(), pool.acquire());
    /// pool.for_each_mut(|_, value| *value += 10);
    /// assert_eq!((pool.get(a), pool.get(b)), (Some(&10), Some(&10)));
    /// ```
    pub fn for_each_mut(&mut self, mut f: impl FnMut(K, &mut T)) {
        let mut cursor = self.first_live();
        while cursor != SENTINEL {
            let index = cursor;
            cursor = next_live(&self.slots, P::KEEPS_ORDER, index);
            let slot = &mut self.slots[index as usize];
            let handle = handle::make(index, slot.generation);
            if let Some(object) = slot.live_object_mut() {
                f(handle, object);
            }
        }
    }

    /// The first live object's slot in the pool's order, or `SENTINEL`.
    pub(super) fn first_live(&self) -> u32 {
        if self.live == 0 {
            SENTINEL
        } else {
            next_live(&self.slots, P::KEEPS_ORDER, SENTINEL)
        }
    }
}
