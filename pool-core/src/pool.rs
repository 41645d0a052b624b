//! The pool: what it holds and what it reports. Its operations are one concern
//! a file: handing objects out (`pool/acquire.rs`), giving them back
//! (`pool/release.rs`), reaching them by handle (`pool/lookup.rs`), visiting
//! them all (`pool/iterate.rs`), acquisition order (`pool/order.rs`) and how many
//! it holds (`pool/sizing.rs`). How slots, lists and generations are kept is in
//! `pool/storage.rs`; how hooks run under unwind guards is in `pool/hooks.rs`.

mod acquire;
mod hooks;
mod iterate;
mod lookup;
mod order;
mod release;
mod sizing;
mod storage;

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use slotmap::Key;

use crate::generation::Salt;
use crate::handle::Handle;
use crate::lifecycle::Hooks;
use crate::policy::{ExhaustionPolicy, Strict};
use crate::slot::{NIL, Slot};
use crate::stats::PoolStats;

/// What [`Pool::try_acquire_detailed`] handed out, and which live object it
/// recycled to do so.
///
/// ```
/// use pool_core::{Pool, RecycleOldest};
///
/// let mut pool = Pool::builder(|| 0u8).max_objects(1).policy(RecycleOldest).build().unwrap();
/// let first = pool.acquire();
/// let acquired = pool.try_acquire_detailed().unwrap();
/// assert_eq!(acquired.recycled, Some(first));
/// assert!(pool.contains(acquired.handle));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Acquired<K> {
    /// The handle of the object handed out.
    pub handle: K,
    /// The now-stale handle of the live object that was reset and handed out again,
    /// if the pool was full and its policy recycled one.
    pub recycled: Option<K>,
}

/// A bounded pool of reusable objects with generational handles.
///
/// `T` is the pooled object, `P` the [exhaustion policy](crate::ExhaustionPolicy)
/// (default [`Strict`]), `K` the handle type (default [`Handle`]). See the
/// [crate docs](crate) for the why, the policies and the costs.
///
/// ```
/// use pool_core::Pool;
///
/// let mut pool: Pool<Vec<u8>> = Pool::new(2, 8, || Vec::with_capacity(1024)).unwrap();
/// let buffer = pool.acquire();
/// pool.get_mut(buffer).unwrap().extend_from_slice(b"hello");
/// pool.release(buffer).unwrap();
/// assert_eq!(pool.get(buffer), None); // stale forever
/// ```
pub struct Pool<T, P = Strict, K = Handle> {
    /// Slot 0 is the live ring's sentinel (see `slot.rs`).
    slots: Vec<Slot<T>>,
    /// Most recently made idle: handed out first, while it is warm in cache.
    idle_head: u32,
    vacant_head: u32,
    /// Where this pool's generations start, so another pool's handles miss.
    salt: Salt,
    live: usize,
    /// Live and idle objects; idle is `total - live`.
    total: usize,
    /// Live objects destroyed by `clear(true)`: with the other counters, this gives
    /// `acquires` without counting on the hot path.
    live_destroyed: u64,
    /// What the last `make_room` recycled, or why it refused (`None`: the policy
    /// refused; `Some(None)`: it grew; `Some(Some(victim))`: it recycled). Kept here
    /// so `make_room` can return a bare index in a register.
    last_room: Option<Option<K>>,
    last_room_invalid_victim: bool,
    initial: usize,
    max_objects: usize,
    policy: P,
    hooks: Hooks<T>,
    stats: PoolStats,
    _key: PhantomData<fn() -> K>,
}

impl<T, P: ExhaustionPolicy<T>, K: Key> Pool<T, P, K> {
    /// A pool with no object yet; the builder validated the sizes.
    pub(crate) fn from_parts(
        hooks: Hooks<T>,
        initial: usize,
        max_objects: usize,
        policy: P,
    ) -> Self {
        let mut slots = Vec::with_capacity(initial + 1);
        slots.push(Slot::sentinel());
        Self {
            slots,
            idle_head: NIL,
            vacant_head: NIL,
            salt: Salt::next(),
            live: 0,
            total: 0,
            live_destroyed: 0,
            last_room: None,
            last_room_invalid_victim: false,
            initial,
            max_objects,
            policy,
            hooks,
            stats: PoolStats::default(),
            _key: PhantomData,
        }
    }

    /// Sizes and counters, for a profiler overlay.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    /// let _handle = pool.acquire();
    /// assert_eq!(pool.stats().peak_live, 1);
    /// ```
    pub fn stats(&self) -> PoolStats {
        // Every acquisition has ended in exactly one of these ways, or is live.
        let acquires =
            self.live as u64 + self.stats.releases + self.stats.recycles + self.live_destroyed;
        PoolStats {
            live: self.live,
            idle: self.total - self.live,
            total: self.total,
            acquires,
            ..self.stats
        }
    }

    /// Objects currently handed out.
    ///
    /// ```
    /// # use pool_core::Pool;
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    /// let _handle = pool.acquire();
    /// assert_eq!(pool.live_count(), 1);
    /// ```
    pub fn live_count(&self) -> usize {
        self.live
    }

    /// `true` when all `max_objects` objects are live: the next request goes to the
    /// exhaustion policy.
    ///
    /// ```
    /// # use pool_core::Pool;
    /// let mut pool: Pool<u32> = Pool::new(0, 1, || 0).unwrap();
    /// let _only = pool.acquire();
    /// assert!(pool.is_full());
    /// ```
    pub fn is_full(&self) -> bool {
        self.live >= self.max_objects
    }

    /// The configured initial size.
    ///
    /// ```
    /// # use pool_core::Pool;
    /// assert_eq!(Pool::new(3, 4, || 0u8).unwrap().initial(), 3);
    /// ```
    pub fn initial(&self) -> usize {
        self.initial
    }

    /// The configured cap on live and idle objects together.
    ///
    /// ```
    /// # use pool_core::Pool;
    /// assert_eq!(Pool::new(3, 4, || 0u8).unwrap().max_objects(), 4);
    /// ```
    pub fn max_objects(&self) -> usize {
        self.max_objects
    }

    /// The exhaustion policy, e.g. to read a custom policy's state.
    ///
    /// ```
    /// # use pool_core::{Pool, PolicyChoice};
    /// let pool = Pool::builder(|| 0u8).max_objects(1).policy(PolicyChoice::Strict).build().unwrap();
    /// assert_eq!(*pool.policy(), PolicyChoice::Strict);
    /// ```
    pub fn policy(&self) -> &P {
        &self.policy
    }

    /// The exhaustion policy, mutably: change its parameters (a listener position
    /// for a "furthest" policy, say) between requests.
    ///
    /// ```
    /// # use pool_core::{Pool, PolicyChoice};
    /// let mut pool = Pool::builder(|| 0u8).max_objects(1).policy(PolicyChoice::Strict).build().unwrap();
    /// let first = pool.acquire();
    /// assert!(pool.try_acquire().is_err());
    /// *pool.policy_mut() = PolicyChoice::RecycleOldest;
    /// assert!(pool.try_acquire().is_ok());
    /// assert!(!pool.contains(first));
    /// ```
    pub fn policy_mut(&mut self) -> &mut P {
        &mut self.policy
    }
}

impl<T, P, K> Drop for Pool<T, P, K> {
    fn drop(&mut self) {
        // Not the sentinel, which holds nothing.
        let objects = self.slots.iter_mut().skip(1).filter_map(Slot::take);
        match &mut self.hooks.on_destroy {
            Some(hook) => objects.for_each(hook),
            None => objects.for_each(drop),
        }
    }
}

impl<T, P: fmt::Debug, K> fmt::Debug for Pool<T, P, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pool")
            .field("live", &self.live)
            .field("idle", &(self.total - self.live))
            .field("initial", &self.initial)
            .field("max_objects", &self.max_objects)
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}
