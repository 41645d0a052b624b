//! Acquisition order: the oldest and newest live objects, and the one after
//! another, for a pool whose policy keeps that order ([`KeepsOrder`]). A pool
//! whose policy keeps none has no such queries: they would not compile, where
//! they once answered `None` with objects live.

use slotmap::Key;

use super::Pool;
use crate::handle;
use crate::policy::{ExhaustionPolicy, KeepsOrder, LiveObjects};
use crate::slot::SENTINEL;

/// What a policy that says it keeps order but sets `KEEPS_ORDER` to `false`
/// is told when one of the queries below is compiled for it.
const CONTRADICTION: &str = "the pool's policy implements KeepsOrder but its ExhaustionPolicy::KEEPS_ORDER is false: it keeps no acquisition order to query";

impl<T, P: ExhaustionPolicy<T>, K: Key> Pool<T, P, K> {
    /// The live object acquired longest ago: the one [`RecycleOldest`](crate::RecycleOldest)
    /// would recycle next. O(1). Only for a pool whose policy keeps acquisition
    /// order ([`KeepsOrder`]): a [`Strict`](crate::Strict) pool keeps none, and
    /// asking it does not compile.
    ///
    /// ```
    /// use pool_core::{Pool, RecycleOldest};
    ///
    /// let mut pool = Pool::builder(|| 0u32).max_objects(4).policy(RecycleOldest).build().unwrap();
    /// let first = pool.acquire();
    /// let _second = pool.acquire();
    /// assert_eq!(pool.oldest(), Some(first));
    /// ```
    pub fn oldest(&self) -> Option<K>
    where
        P: KeepsOrder,
    {
        const { assert!(P::KEEPS_ORDER, "{}", CONTRADICTION) };
        self.first_in_order()
    }

    /// The live object acquired most recently. O(1). Only for a pool whose
    /// policy keeps acquisition order ([`KeepsOrder`]).
    ///
    /// ```
    /// use pool_core::{Pool, RecycleOldest};
    ///
    /// let mut pool = Pool::builder(|| 0u32).max_objects(4).policy(RecycleOldest).build().unwrap();
    /// let _first = pool.acquire();
    /// let last = pool.acquire();
    /// assert_eq!(pool.newest(), Some(last));
    /// ```
    pub fn newest(&self) -> Option<K>
    where
        P: KeepsOrder,
    {
        const { assert!(P::KEEPS_ORDER, "{}", CONTRADICTION) };
        self.last_in_order()
    }

    /// The live object acquired right after `handle`'s, or `None` if `handle` is the
    /// newest or stale. O(1). A cursor: walk from [`oldest`](Self::oldest) to merge
    /// the live objects of several pools in acquisition order without allocating.
    /// Only for a pool whose policy keeps acquisition order ([`KeepsOrder`]).
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
    pub fn newer(&self, handle: K) -> Option<K>
    where
        P: KeepsOrder,
    {
        const { assert!(P::KEEPS_ORDER, "{}", CONTRADICTION) };
        self.next_in_order(handle)
    }

    /// [`oldest`](Self::oldest) for any policy: `None` where the pool keeps no
    /// order. For the testing kit, which checks every policy's pool.
    pub(crate) fn first_in_order(&self) -> Option<K> {
        self.live_objects().first_in_order()
    }

    /// [`newest`](Self::newest) for any policy, as `first_in_order`.
    pub(crate) fn last_in_order(&self) -> Option<K> {
        self.live_objects().last_in_order()
    }

    /// [`newer`](Self::newer) for any policy, as `first_in_order`.
    #[inline]
    pub(crate) fn next_in_order(&self, handle: K) -> Option<K> {
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
