//! Acquisition order: the oldest and newest live objects, and the one after
//! another, for a pool whose policy keeps that order.

use slotmap::Key;

use super::Pool;
use crate::handle;
use crate::policy::{ExhaustionPolicy, LiveObjects};
use crate::slot::SENTINEL;

impl<T, P: ExhaustionPolicy<T>, K: Key> Pool<T, P, K> {
    /// The live object acquired longest ago: the one [`RecycleOldest`](crate::RecycleOldest)
    /// would recycle next. O(1). `None` in a pool whose policy keeps no order
    /// ([`ExhaustionPolicy::KEEPS_ORDER`], [`Strict`](crate::Strict)'s case).
    ///
    /// ```
    /// use pool_core::{Pool, RecycleOldest};
    ///
    /// let mut pool = Pool::builder(|| 0u32).max_objects(4).policy(RecycleOldest).build().unwrap();
    /// let first = pool.acquire();
    /// pool.acquire();
    /// assert_eq!(pool.oldest(), Some(first));
    /// ```
    pub fn oldest(&self) -> Option<K> {
        self.live_objects().oldest()
    }

    /// The live object acquired most recently. O(1). `None` in a pool whose
    /// policy keeps no order ([`ExhaustionPolicy::KEEPS_ORDER`]).
    ///
    /// ```
    /// use pool_core::{Pool, RecycleOldest};
    ///
    /// let mut pool = Pool::builder(|| 0u32).max_objects(4).policy(RecycleOldest).build().unwrap();
    /// pool.acquire();
    /// let last = pool.acquire();
    /// assert_eq!(pool.newest(), Some(last));
    /// ```
    pub fn newest(&self) -> Option<K> {
        self.live_objects().newest()
    }

    /// The live object acquired right after `handle`'s, or `None` if `handle` is the
    /// newest or stale. O(1). A cursor: walk from [`oldest`](Self::oldest) to merge
    /// the live objects of several pools in acquisition order without allocating.
    /// `None` in a pool whose policy keeps no order ([`ExhaustionPolicy::KEEPS_ORDER`]).
    ///
    /// ```
    /// use pool_core::{Pool, RecycleOldest};
    ///
    /// let mut pool = Pool::builder(|| 0u32).max_objects(4).policy(RecycleOldest).build().unwrap();
    /// let first = pool.acquire();
    /// let second = pool.acquire();
    /// assert_eq!(pool.newer(first), Some(second));
    /// assert_eq!(pool.newer(second), None);
    /// ```
    #[inline]
    pub fn newer(&self, handle: K) -> Option<K> {
        if !P::KEEPS_ORDER {
            return None;
        }
        let index = self.live_index(handle)?;
        let next = self.slots[index as usize].next;
        if next == SENTINEL {
            return None;
        }
        Some(handle::make(next, self.slots[next as usize].generation))
    }

    fn live_objects(&self) -> LiveObjects<'_, T, K> {
        LiveObjects::new(&self.slots, self.live, P::KEEPS_ORDER)
    }
}
