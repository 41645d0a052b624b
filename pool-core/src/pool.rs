//! The pool: slot storage, the live/idle/vacant lists, and every operation on them.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use slotmap::Key;

use crate::builder::PoolBuilder;
use crate::error::{AcquireError, ConfigError, StaleHandle};
use crate::generation;
use crate::handle::{self, Handle};
use crate::iter::Iter;
use crate::policy::{ExhaustionPolicy, LiveObjects, Strict};
use crate::slot::{NIL, SENTINEL, Slot};
use crate::stats::PoolStats;

type Factory<T> = Box<dyn FnMut() -> T + Send + Sync>;
type Hook<T> = Box<dyn FnMut(&mut T) + Send + Sync>;
type DestroyHook<T> = Box<dyn FnMut(T) + Send + Sync>;

pub(crate) struct Hooks<T> {
    pub(crate) factory: Factory<T>,
    pub(crate) on_acquire: Option<Hook<T>>,
    pub(crate) on_release: Option<Hook<T>>,
    pub(crate) on_destroy: Option<DestroyHook<T>>,
}

impl<T> Hooks<T> {
    pub(crate) fn new(factory: Factory<T>) -> Self {
        Self {
            factory,
            on_acquire: None,
            on_release: None,
            on_destroy: None,
        }
    }
}

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

impl<T> Pool<T> {
    /// Starts configuring a pool whose objects `factory` creates.
    ///
    /// ```
    /// use pool_core::{Pool, RecycleOldest};
    ///
    /// let pool = Pool::builder(String::new).initial(4).max_objects(16).policy(RecycleOldest).build();
    /// assert!(pool.is_ok());
    /// ```
    pub fn builder(factory: impl FnMut() -> T + Send + Sync + 'static) -> PoolBuilder<T> {
        PoolBuilder::new(factory)
    }

    /// A strict pool with `initial` objects created now and at most `max_objects`.
    ///
    /// # Errors
    /// A [`ConfigError`] when `max_objects` is 0 or too large, or `initial > max_objects`.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let pool = Pool::new(16, 64, || [0u8; 32]).unwrap();
    /// assert_eq!(pool.stats().idle, 16);
    /// assert!(Pool::new(0, 0, || 0u8).is_err());
    /// ```
    pub fn new(
        initial: usize,
        max_objects: usize,
        factory: impl FnMut() -> T + Send + Sync + 'static,
    ) -> Result<Self, ConfigError> {
        Self::builder(factory)
            .initial(initial)
            .max_objects(max_objects)
            .build()
    }
}

impl<T, P: ExhaustionPolicy<T>, K: Key> Pool<T, P, K> {
    pub(crate) fn from_builder(builder: PoolBuilder<T, P, K>) -> Self {
        let mut slots = Vec::with_capacity(builder.initial + 1);
        slots.push(Slot::sentinel());
        Self {
            slots,
            idle_head: NIL,
            vacant_head: NIL,
            live: 0,
            total: 0,
            live_destroyed: 0,
            last_room: None,
            last_room_invalid_victim: false,
            initial: builder.initial,
            max_objects: builder.max_objects,
            policy: builder.policy,
            hooks: builder.hooks,
            stats: PoolStats::default(),
            _key: PhantomData,
        }
    }

    /// Hands out an idle object, creates one if fewer than `max_objects` exist, or
    /// asks the policy to recycle a live one. O(1) for the built-in policies, and no
    /// heap allocation once the pool has reached its size.
    ///
    /// # Errors
    /// [`AcquireError::Exhausted`] when the pool is full and the policy refuses;
    /// [`AcquireError::InvalidVictim`] when a custom policy names a non-live object.
    ///
    /// ```
    /// use pool_core::{AcquireError, Pool};
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 1, || 0).unwrap();
    /// let handle = pool.try_acquire().unwrap();
    /// assert_eq!(pool.try_acquire(), Err(AcquireError::Exhausted { max_objects: 1 }));
    /// pool.release(handle).unwrap();
    /// assert!(pool.try_acquire().is_ok());
    /// ```
    #[inline(always)]
    pub fn try_acquire(&mut self) -> Result<K, AcquireError> {
        let index = match self.pop_idle() {
            Some(index) => index,
            None => match self.make_room() {
                Some(index) => index,
                None => return Err(self.refusal()),
            },
        };
        Ok(self.activate(index))
    }

    /// Like [`try_acquire`](Self::try_acquire), and also lends the object so it can
    /// be initialized at once, without a second lookup (slotmap's `insert` takes the
    /// value; a pool's objects already exist, so it hands them over instead).
    ///
    /// # Errors
    /// The same as [`try_acquire`](Self::try_acquire).
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// #[derive(Default)]
    /// struct Bullet { x: f32, y: f32 }
    ///
    /// let mut bullets = Pool::new(0, 64, Bullet::default).unwrap();
    /// let (handle, bullet) = bullets.try_acquire_mut().unwrap();
    /// bullet.x = 3.0;
    /// assert_eq!(bullets.get(handle).unwrap().x, 3.0);
    /// ```
    #[inline(always)]
    pub fn try_acquire_mut(&mut self) -> Result<(K, &mut T), AcquireError> {
        let handle = self.try_acquire()?;
        let (index, _) = handle::split(handle);
        match self.slots[index as usize].value.as_mut() {
            Some(object) => Ok((handle, object)),
            // A live slot always holds its object.
            None => Err(AcquireError::InvalidVictim),
        }
    }

    /// Like [`try_acquire_mut`](Self::try_acquire_mut).
    ///
    /// # Panics
    /// When [`try_acquire`](Self::try_acquire) would return an error: a full pool
    /// whose policy refuses.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<[u8; 4]> = Pool::new(0, 2, || [0; 4]).unwrap();
    /// let (handle, bytes) = pool.acquire_mut();
    /// bytes[0] = 9;
    /// assert_eq!(pool.get(handle).unwrap()[0], 9);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn acquire_mut(&mut self) -> (K, &mut T) {
        match self.try_acquire_mut() {
            Ok(acquired) => acquired,
            Err(error) => acquire_failed(error),
        }
    }

    /// Like [`try_acquire`](Self::try_acquire), and also tells which live object was
    /// recycled, so the caller can forget or notify its previous owner.
    ///
    /// # Errors
    /// The same as [`try_acquire`](Self::try_acquire).
    ///
    /// ```
    /// use pool_core::{Pool, RecycleOldest};
    ///
    /// let mut pool = Pool::builder(|| 0u8).max_objects(2).policy(RecycleOldest).build().unwrap();
    /// let first = pool.acquire();
    /// assert_eq!(pool.try_acquire_detailed().unwrap().recycled, None);
    /// assert_eq!(pool.try_acquire_detailed().unwrap().recycled, Some(first));
    /// ```
    #[inline]
    pub fn try_acquire_detailed(&mut self) -> Result<Acquired<K>, AcquireError> {
        let (index, recycled) = match self.pop_idle() {
            Some(index) => (index, None),
            None => match self.make_room() {
                Some(index) => (index, self.last_room.flatten()),
                None => return Err(self.refusal()),
            },
        };
        Ok(Acquired {
            handle: self.activate(index),
            recycled,
        })
    }

    /// No idle object: create one below the cap, else let the policy pick a victim
    /// and reset it. Returns the slot to hand out, not yet live, or `None` when
    /// refused. Out of line, and returning a bare index (in a register) rather than
    /// a handle in a struct: a handle written to memory as two halves and read back
    /// whole stalls on store forwarding, which measurably doubled the recycle cost.
    #[inline(never)]
    fn make_room(&mut self) -> Option<u32> {
        if self.total < self.max_objects
            && let Some(index) = self.create_object()
        {
            self.last_room = Some(None);
            return Some(index);
        }
        self.last_room = None;
        self.last_room_invalid_victim = false;
        let live = LiveObjects::new(&self.slots, self.live);
        let Some(victim) = self.policy.choose_victim(live) else {
            self.stats.refusals += 1;
            return None;
        };
        let Some(index) = self.live_index(victim) else {
            self.stats.refusals += 1;
            self.last_room_invalid_victim = true;
            return None;
        };
        if self.hooks.on_release.is_some() {
            return self.recycle_hooked(index, victim);
        }
        self.unlink_live(index);
        self.live -= 1;
        self.recycle_unlinked(index, victim)
    }

    /// The end of a recycle, once the victim is unlinked (and reset).
    #[inline(always)]
    fn recycle_unlinked(&mut self, index: u32, victim: K) -> Option<u32> {
        self.stats.recycles += 1;
        let index = self.end_generation_or_relocate(index);
        if index.is_some() {
            self.last_room = Some(Some(victim));
        }
        index
    }

    /// A recycle with a release hook, out of line: see `deactivate_hooked`.
    #[inline(never)]
    fn recycle_hooked(&mut self, index: u32, victim: K) -> Option<u32> {
        self.end_live(index);
        self.recycle_unlinked(index, victim)
    }

    /// Why the last `make_room` returned `None`.
    #[cold]
    fn refusal(&self) -> AcquireError {
        if self.last_room_invalid_victim {
            AcquireError::InvalidVictim
        } else {
            AcquireError::Exhausted {
                max_objects: self.max_objects,
            }
        }
    }

    /// Like [`try_acquire`](Self::try_acquire), for pools that are sized never to
    /// run out or whose policy always recycles.
    ///
    /// # Panics
    /// When [`try_acquire`](Self::try_acquire) would return an error: a full pool
    /// whose policy refuses.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 2, || 0).unwrap();
    /// let handle = pool.acquire();
    /// assert_eq!(pool.get(handle), Some(&0));
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn acquire(&mut self) -> K {
        match self.try_acquire() {
            Ok(handle) => handle,
            Err(error) => acquire_failed(error),
        }
    }

    /// Gives a live object back: it is reset by the release hook, becomes idle, and
    /// `handle` becomes stale. O(1).
    ///
    /// # Errors
    /// [`StaleHandle`] if the object is not live (double release included); the
    /// pool is unchanged apart from its `stale_handle_uses` counter.
    ///
    /// ```
    /// use pool_core::{Pool, StaleHandle};
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 2, || 0).unwrap();
    /// let handle = pool.acquire();
    /// assert_eq!(pool.release(handle), Ok(()));
    /// assert_eq!(pool.release(handle), Err(StaleHandle));
    /// assert_eq!(pool.stats().idle, 1);
    /// ```
    #[inline(always)]
    pub fn release(&mut self, handle: K) -> Result<(), StaleHandle> {
        match self.live_index(handle) {
            Some(index) => {
                self.deactivate(index);
                self.stats.releases += 1;
                Ok(())
            }
            None => {
                self.stats.stale_handle_uses += 1;
                Err(StaleHandle)
            }
        }
    }

    /// Gives a live object a new handle and makes it the newest: exactly a
    /// [`release`](Self::release) followed by an acquire of the same object (both
    /// hooks run, and it counts as one release and one acquire), without the object
    /// passing through the idle stack. The old handle is stale. O(1). For a caller
    /// that hands the same object to a new owner, so the old owner's handle must stop
    /// working.
    ///
    /// # Errors
    /// [`StaleHandle`] if the object is not live; nothing changes.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    /// let first = pool.acquire();
    /// let second = pool.acquire();
    /// *pool.get_mut(first).unwrap() = 7;
    /// let renewed = pool.renew(first)?;
    /// assert!(!pool.contains(first));
    /// assert_eq!(pool.get(renewed), Some(&7), "the same object");
    /// assert_eq!(pool.newest(), Some(renewed));
    /// assert_eq!(pool.oldest(), Some(second));
    /// # Ok::<(), pool_core::StaleHandle>(())
    /// ```
    pub fn renew(&mut self, handle: K) -> Result<K, StaleHandle> {
        let Some(index) = self.live_index(handle) else {
            self.stats.stale_handle_uses += 1;
            return Err(StaleHandle);
        };
        self.end_live(index);
        self.stats.releases += 1;
        match self.end_generation_or_relocate(index) {
            Some(index) => Ok(self.activate(index)),
            // Only after ~2^62 handouts: the object had no slot left and is gone.
            None => Err(StaleHandle),
        }
    }

    /// Releases, in one pass over the live objects (O(live), oldest first), every
    /// object for which `finished` returns `true`, and returns how many. This is how
    /// objects that end on their own (a sound that stopped, an animation past its
    /// last frame) go back without callbacks into the pool. `finished` may also
    /// update the objects it keeps.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut sparks: Pool<f32> = Pool::new(0, 8, || 0.0).unwrap();
    /// let short = sparks.acquire();
    /// let long = sparks.acquire();
    /// *sparks.get_mut(long).unwrap() = 1.0;
    /// let done = sparks.reclaim(|_, remaining| { *remaining -= 0.5; *remaining <= 0.0 });
    /// assert_eq!(done, 1);
    /// assert!(!sparks.contains(short) && sparks.contains(long));
    /// ```
    pub fn reclaim(&mut self, finished: impl FnMut(K, &mut T) -> bool) -> usize {
        // Two copies of the loop: without a release hook it calls nothing that
        // could move the slot storage, so the compiler keeps it in registers.
        if self.hooks.on_release.is_some() {
            self.reclaim_with::<true>(finished)
        } else {
            self.reclaim_with::<false>(finished)
        }
    }

    #[inline(always)]
    fn reclaim_with<const HOOKED: bool>(
        &mut self,
        mut finished: impl FnMut(K, &mut T) -> bool,
    ) -> usize {
        let mut released = 0;
        let mut cursor = self.slots[SENTINEL as usize].next;
        while cursor != SENTINEL {
            let index = cursor;
            let slot = &mut self.slots[index as usize];
            cursor = slot.next;
            let handle = handle::make(index, slot.generation);
            let done = match slot.value.as_mut() {
                Some(object) => finished(handle, object),
                None => false,
            };
            if done {
                if HOOKED {
                    self.deactivate_hooked(index);
                } else {
                    self.deactivate_unhooked(index);
                }
                self.stats.releases += 1;
                released += 1;
            }
        }
        released
    }

    /// The live object of `handle`, or `None` if the handle is stale. O(1).
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 2, || 5).unwrap();
    /// let handle = pool.acquire();
    /// assert_eq!(pool.get(handle), Some(&5));
    /// ```
    #[inline]
    pub fn get(&self, handle: K) -> Option<&T> {
        let (index, generation) = handle::split(handle);
        let slot = self.slots.get(index as usize)?;
        if slot.generation == generation {
            slot.value.as_ref()
        } else {
            None
        }
    }

    /// The live object of `handle`, mutably, or `None` if the handle is stale (which
    /// counts in `stale_handle_uses`). O(1).
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 2, || 0).unwrap();
    /// let handle = pool.acquire();
    /// *pool.get_mut(handle).unwrap() += 1;
    /// assert_eq!(pool.get(handle), Some(&1));
    /// ```
    #[inline]
    pub fn get_mut(&mut self, handle: K) -> Option<&mut T> {
        self.try_get_mut(handle).ok()
    }

    /// Like [`get_mut`](Self::get_mut) with a typed error, for `?`.
    ///
    /// # Errors
    /// [`StaleHandle`] if the object is not live.
    ///
    /// ```
    /// use pool_core::{Pool, StaleHandle};
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 2, || 0).unwrap();
    /// let handle = pool.acquire();
    /// pool.release(handle)?;
    /// assert_eq!(pool.try_get_mut(handle), Err(StaleHandle));
    /// # Ok::<(), StaleHandle>(())
    /// ```
    #[inline]
    pub fn try_get_mut(&mut self, handle: K) -> Result<&mut T, StaleHandle> {
        let (index, generation) = handle::split(handle);
        match self.slots.get_mut(index as usize) {
            Some(slot) if slot.generation == generation => match slot.value.as_mut() {
                Some(object) => Ok(object),
                None => Err(StaleHandle),
            },
            _ => {
                self.stats.stale_handle_uses += 1;
                Err(StaleHandle)
            }
        }
    }

    /// `true` if `handle`'s object is live. O(1).
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 2, || 0).unwrap();
    /// let handle = pool.acquire();
    /// assert!(pool.contains(handle));
    /// pool.release(handle).unwrap();
    /// assert!(!pool.contains(handle));
    /// ```
    #[inline]
    pub fn contains(&self, handle: K) -> bool {
        self.get(handle).is_some()
    }

    /// The live objects and their handles, oldest first.
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
        Iter::new(&self.slots, self.live)
    }

    /// Calls `f` on every live object, mutably, oldest first. (A callback rather than
    /// an `iter_mut` iterator: walking the acquisition-order links while lending
    /// `&mut` references would need `unsafe`, and this crate has none.)
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    /// pool.acquire();
    /// pool.acquire();
    /// pool.for_each_mut(|_, value| *value += 10);
    /// assert!(pool.iter().all(|(_, value)| *value == 10));
    /// ```
    pub fn for_each_mut(&mut self, mut f: impl FnMut(K, &mut T)) {
        let mut cursor = self.slots[SENTINEL as usize].next;
        while cursor != SENTINEL {
            let slot = &mut self.slots[cursor as usize];
            let handle = handle::make(cursor, slot.generation);
            cursor = slot.next;
            if let Some(object) = slot.value.as_mut() {
                f(handle, object);
            }
        }
    }

    /// The live object acquired longest ago: the one [`RecycleOldest`](crate::RecycleOldest)
    /// would recycle next. O(1).
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    /// let first = pool.acquire();
    /// pool.acquire();
    /// assert_eq!(pool.oldest(), Some(first));
    /// ```
    pub fn oldest(&self) -> Option<K> {
        self.live_objects().oldest()
    }

    /// The live object acquired most recently. O(1).
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
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
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    /// let first = pool.acquire();
    /// let second = pool.acquire();
    /// assert_eq!(pool.newer(first), Some(second));
    /// assert_eq!(pool.newer(second), None);
    /// ```
    #[inline]
    pub fn newer(&self, handle: K) -> Option<K> {
        let index = self.live_index(handle)?;
        let next = self.slots[index as usize].next;
        if next == SENTINEL {
            return None;
        }
        Some(handle::make(next, self.slots[next as usize].generation))
    }

    fn live_objects(&self) -> LiveObjects<'_, T, K> {
        LiveObjects::new(&self.slots, self.live)
    }

    /// The oldest live object's slot, or `SENTINEL` when none is live.
    fn live_head(&self) -> u32 {
        self.slots[SENTINEL as usize].next
    }

    /// Source 000's `Reinitialize`: every live object is reset (release hook) and
    /// made idle, every outstanding handle becomes stale, and the pool returns to
    /// exactly `initial` objects, destroying the surplus or creating the shortfall.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(2, 8, || 0).unwrap();
    /// let handles: Vec<_> = (0..5).map(|_| pool.acquire()).collect();
    /// pool.reinitialize();
    /// assert!(handles.iter().all(|handle| !pool.contains(*handle)));
    /// let stats = pool.stats();
    /// assert_eq!((stats.live, stats.idle), (0, 2));
    /// ```
    pub fn reinitialize(&mut self) {
        while self.live_head() != SENTINEL {
            self.deactivate(self.live_head());
            self.stats.releases += 1;
        }
        while self.total > self.initial {
            match self.pop_idle() {
                Some(index) => self.destroy(index),
                None => break,
            }
        }
        self.prewarm();
    }

    /// Source 004's `Clear`: drops every idle object, and with `include_live` every
    /// live one too (their handles become stale; the release hook is not run, the
    /// destroy hook is). Slots are kept for reuse; the pool grows again on demand.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(4, 8, || 0).unwrap();
    /// let kept = pool.acquire();
    /// pool.clear(false);
    /// assert_eq!((pool.stats().live, pool.stats().idle), (1, 0));
    /// pool.clear(true);
    /// assert!(!pool.contains(kept));
    /// assert_eq!(pool.stats().total, 0);
    /// ```
    pub fn clear(&mut self, include_live: bool) {
        if include_live {
            while self.live_head() != SENTINEL {
                let index = self.live_head();
                self.unlink_live(index);
                self.live -= 1;
                self.live_destroyed += 1;
                if self.end_generation(index) {
                    self.destroy(index);
                } else {
                    let object = self.slots[index as usize].value.take();
                    self.destroy_object(object);
                }
            }
        }
        self.trim_idle(0);
    }

    /// Drops idle objects until at most `keep` remain; returns how many were dropped.
    /// Use it after a burst to give memory back.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(10, 10, || 0).unwrap();
    /// assert_eq!(pool.trim_idle(4), 6);
    /// assert_eq!(pool.stats().idle, 4);
    /// ```
    pub fn trim_idle(&mut self, keep: usize) -> usize {
        let mut dropped = 0;
        while self.total - self.live > keep {
            match self.pop_idle() {
                Some(index) => self.destroy(index),
                None => break,
            }
            dropped += 1;
        }
        dropped
    }

    /// Creates at most `budget` objects towards the `initial` size and returns how
    /// many are still missing (0 when done). Call it once a frame after
    /// [`PoolBuilder::build_lazy`] to spread a large prewarm over frames.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool = Pool::builder(|| 0u8).initial(10).max_objects(10).build_lazy().unwrap();
    /// assert_eq!(pool.prewarm_step(4), 6);
    /// assert_eq!(pool.prewarm_step(4), 2);
    /// assert_eq!(pool.prewarm_step(4), 0);
    /// assert_eq!(pool.stats().idle, 10);
    /// ```
    pub fn prewarm_step(&mut self, budget: usize) -> usize {
        let mut created = 0;
        while created < budget && self.total < self.initial {
            match self.create_object() {
                Some(index) => self.push_idle(index),
                None => break,
            }
            created += 1;
        }
        self.initial.saturating_sub(self.total)
    }

    /// Creates every object still missing from the `initial` size.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool = Pool::builder(|| 0u8).initial(10).max_objects(10).build_lazy().unwrap();
    /// pool.prewarm();
    /// assert_eq!(pool.stats().idle, 10);
    /// ```
    pub fn prewarm(&mut self) {
        self.prewarm_step(usize::MAX);
    }

    /// Sizes and counters, for a profiler overlay.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    /// pool.acquire();
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
    /// pool.acquire();
    /// assert_eq!(pool.live_len(), 1);
    /// ```
    pub fn live_len(&self) -> usize {
        self.live
    }

    /// `true` when all `max_objects` objects are live: the next request goes to the
    /// exhaustion policy.
    ///
    /// ```
    /// # use pool_core::Pool;
    /// let mut pool: Pool<u32> = Pool::new(0, 1, || 0).unwrap();
    /// pool.acquire();
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
    /// *pool.policy_mut() = PolicyChoice::RecycleOldest;
    /// ```
    pub fn policy_mut(&mut self) -> &mut P {
        &mut self.policy
    }

    // ---- internals ------------------------------------------------------------

    /// The slot index of a live handle.
    #[inline]
    fn live_index(&self, handle: K) -> Option<u32> {
        let (index, generation) = handle::split(handle);
        let slot = self.slots.get(index as usize)?;
        // Handle generations are odd, so a match means the slot is live.
        (slot.generation == generation).then_some(index)
    }

    /// Hands out the idle object in slot `index` (already off the idle stack).
    #[inline(always)]
    fn activate(&mut self, index: u32) -> K {
        if self.hooks.on_acquire.is_some() {
            return self.activate_hooked(index);
        }
        let generation = self.new_generation(index);
        self.link_new(index, generation)
    }

    /// `activate` with an acquire hook, wholly out of line (see
    /// `deactivate_hooked`). The hook runs between the new generation and the
    /// linking, so a panicking hook leaves an unlinked object to put back.
    #[inline(never)]
    fn activate_hooked(&mut self, index: u32) -> K {
        let generation = self.new_generation(index);
        self.run_acquire_hook(index);
        self.link_new(index, generation)
    }

    /// Gives slot `index` its next (live, odd) generation.
    #[inline(always)]
    fn new_generation(&mut self, index: u32) -> u32 {
        let slot = &mut self.slots[index as usize];
        slot.generation = generation::on_acquire(slot.generation);
        slot.generation
    }

    /// Links slot `index`, already in its live generation, as the newest live
    /// object, and makes its handle.
    #[inline(always)]
    fn link_new(&mut self, index: u32, generation: u32) -> K {
        self.link_live_tail(index);
        self.live += 1;
        if self.live > self.stats.peak_live {
            self.stats.peak_live = self.live;
        }
        handle::make(index, generation)
    }

    /// Takes the live object in slot `index` out of the live list, resets it and
    /// pushes it on the idle stack (in a new slot if this one retires).
    #[inline(always)]
    fn deactivate(&mut self, index: u32) {
        if self.hooks.on_release.is_some() {
            self.deactivate_hooked(index);
        } else {
            self.deactivate_unhooked(index);
        }
    }

    #[inline(always)]
    fn deactivate_unhooked(&mut self, index: u32) {
        self.unlink_live(index);
        self.live -= 1;
        if let Some(index) = self.end_generation_or_relocate(index) {
            self.push_idle(index);
        }
    }

    /// `deactivate` with a release hook, wholly out of line. The hook's unwind
    /// guard writes the pool, so after a call to it the compiler reloads the slot
    /// storage; keeping the whole hooked path apart keeps that reload off the path
    /// without hooks.
    #[inline(never)]
    fn deactivate_hooked(&mut self, index: u32) {
        self.end_live(index);
        if let Some(index) = self.end_generation_or_relocate(index) {
            self.push_idle(index);
        }
    }

    /// Ends the generation of the object in slot `index`: the slot it is in now
    /// (a fresh one if `index` retired), or `None` if no slot was left for it.
    #[inline(always)]
    fn end_generation_or_relocate(&mut self, index: u32) -> Option<u32> {
        if self.end_generation(index) {
            Some(index)
        } else {
            self.relocate_retired(index)
        }
    }

    /// Unlinks a live object and runs the release hook on it (the hooked paths
    /// and `renew`).
    #[inline(always)]
    fn end_live(&mut self, index: u32) {
        self.unlink_live(index);
        self.live -= 1;
        if self.hooks.on_release.is_some() {
            self.run_release_hook(index);
        }
    }

    // Hooks run out of line: an indirect call in the fast path would make every
    // acquire and release save and restore registers, hook or no hook.
    //
    // Each runs under a guard that, if the hook unwinds, puts the pool back in a
    // consistent state before the panic leaves the pool (see "Panics in user
    // code" in the crate docs).
    #[inline(never)]
    fn run_acquire_hook(&mut self, index: u32) {
        let undo = UndoActivation { pool: self, index };
        if let (Some(hook), Some(object)) = (
            &mut undo.pool.hooks.on_acquire,
            undo.pool.slots[index as usize].value.as_mut(),
        ) {
            hook(object);
        }
        core::mem::forget(undo);
    }

    #[inline(never)]
    fn run_release_hook(&mut self, index: u32) {
        let destroy = DestroyUnreleased { pool: self, index };
        if let (Some(hook), Some(object)) = (
            &mut destroy.pool.hooks.on_release,
            destroy.pool.slots[index as usize].value.as_mut(),
        ) {
            hook(object);
        }
        core::mem::forget(destroy);
    }

    #[inline(always)]
    fn end_generation(&mut self, index: u32) -> bool {
        let slot = &mut self.slots[index as usize];
        match generation::on_release(slot.generation) {
            Some(next) => {
                slot.generation = next;
                true
            }
            None => {
                slot.generation = generation::FRESH;
                self.stats.retired_slots += 1;
                false
            }
        }
    }

    /// Moves the object of a retired slot into a fresh slot, linked into no list,
    /// and returns that slot.
    #[cold]
    fn relocate_retired(&mut self, retired: u32) -> Option<u32> {
        let object = self.slots[retired as usize].value.take();
        match self.new_slot() {
            Some(index) => {
                self.slots[index as usize].value = object;
                Some(index)
            }
            // Only after ~2^62 handouts: no index is left, so the object goes.
            None => {
                self.destroy_object(object);
                None
            }
        }
    }

    /// Creates one object in a vacant or new slot, linked into no list yet.
    fn create_object(&mut self) -> Option<u32> {
        if self.vacant_head == NIL && self.slots.len() >= NIL as usize {
            return None;
        }
        // The factory before any bookkeeping: if it panics, nothing has changed.
        let object = (self.hooks.factory)();
        let index = self.new_slot()?;
        self.slots[index as usize].value = Some(object);
        self.stats.creates += 1;
        self.total += 1;
        if self.total > self.stats.peak_total {
            self.stats.peak_total = self.total;
        }
        Some(index)
    }

    /// A slot without an object: a vacant one, or a new one at the end.
    fn new_slot(&mut self) -> Option<u32> {
        if self.vacant_head != NIL {
            let index = self.vacant_head;
            self.vacant_head = self.slots[index as usize].next;
            return Some(index);
        }
        let index = u32::try_from(self.slots.len()).ok().filter(|i| *i < NIL)?;
        self.slots.push(Slot {
            value: None,
            generation: generation::FRESH,
            prev: NIL,
            next: NIL,
        });
        Some(index)
    }

    /// Drops the object of a (non-live, unlinked) slot and makes the slot vacant.
    fn destroy(&mut self, index: u32) {
        let object = self.slots[index as usize].value.take();
        self.push_vacant(index);
        self.destroy_object(object);
    }

    fn push_vacant(&mut self, index: u32) {
        self.slots[index as usize].next = self.vacant_head;
        self.vacant_head = index;
    }

    /// Counts the object out, then runs the destroy hook: the last thing done, so
    /// a panicking hook leaves the pool consistent.
    fn destroy_object(&mut self, object: Option<T>) {
        if let Some(object) = object {
            self.total -= 1;
            self.stats.destroys += 1;
            if let Some(hook) = &mut self.hooks.on_destroy {
                hook(object);
            }
        }
    }

    #[inline(always)]
    fn push_idle(&mut self, index: u32) {
        self.slots[index as usize].next = self.idle_head;
        self.idle_head = index;
    }

    #[inline(always)]
    fn pop_idle(&mut self) -> Option<u32> {
        if self.idle_head == NIL {
            return None;
        }
        let index = self.idle_head;
        self.idle_head = self.slots[index as usize].next;
        Some(index)
    }

    #[inline(always)]
    fn link_live_tail(&mut self, index: u32) {
        let tail = self.slots[SENTINEL as usize].prev;
        let slot = &mut self.slots[index as usize];
        slot.prev = tail;
        slot.next = SENTINEL;
        self.slots[tail as usize].next = index;
        self.slots[SENTINEL as usize].prev = index;
    }

    #[inline(always)]
    fn unlink_live(&mut self, index: u32) {
        let slot = &self.slots[index as usize];
        let (prev, next) = (slot.prev, slot.next);
        self.slots[prev as usize].next = next;
        self.slots[next as usize].prev = prev;
    }

    #[cfg(test)]
    pub(crate) fn set_generation_for_test(&mut self, handle: K, generation: u32) -> K {
        let (index, _) = handle::split(handle);
        self.slots[index as usize].generation = generation;
        handle::make(index, generation)
    }

    #[cfg(test)]
    pub(crate) fn slot_count(&self) -> usize {
        self.slots.len() - 1 // not the sentinel
    }
}

/// Armed while an acquire hook runs. If the hook unwinds, the acquire never
/// happened: the object (not yet linked live) ends its generation and goes back on
/// top of the idle stack, and no handle to it exists.
struct UndoActivation<'a, T, P: ExhaustionPolicy<T>, K: Key> {
    pool: &'a mut Pool<T, P, K>,
    index: u32,
}

impl<T, P: ExhaustionPolicy<T>, K: Key> Drop for UndoActivation<'_, T, P, K> {
    fn drop(&mut self) {
        let pool = &mut *self.pool;
        if pool.end_generation(self.index) {
            pool.push_idle(self.index);
        } else if let Some(moved) = pool.relocate_retired(self.index) {
            pool.push_idle(moved);
        }
    }
}

/// Armed while a release hook runs on an object already unlinked from the live
/// list. If the hook unwinds, the object's state is unknown, so it is not handed
/// out again: it is destroyed (counted in `destroys`; its destroy hook is not run
/// during the unwind), its handle goes stale and its slot becomes vacant.
struct DestroyUnreleased<'a, T, P: ExhaustionPolicy<T>, K: Key> {
    pool: &'a mut Pool<T, P, K>,
    index: u32,
}

impl<T, P: ExhaustionPolicy<T>, K: Key> Drop for DestroyUnreleased<'_, T, P, K> {
    fn drop(&mut self) {
        let pool = &mut *self.pool;
        let object = pool.slots[self.index as usize].value.take();
        if pool.end_generation(self.index) {
            pool.push_vacant(self.index);
        }
        if object.is_some() {
            pool.total -= 1;
            pool.stats.destroys += 1;
            pool.live_destroyed += 1;
        }
        drop(object);
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn acquire_failed(error: AcquireError) -> ! {
    panic!("Pool::acquire: {error}")
}

impl<T, P, K> Drop for Pool<T, P, K> {
    fn drop(&mut self) {
        if let Some(hook) = &mut self.hooks.on_destroy {
            for slot in &mut self.slots {
                if let Some(object) = slot.value.take() {
                    hook(object);
                }
            }
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
