//! The pool's public operations: acquire, release, reclaim, lookups, reinitialize,
//! clear, trim and prewarm. How slots, lists and generations are kept is in
//! `pool/storage.rs`; how hooks run under unwind guards is in `pool/hooks.rs`.

mod hooks;
mod storage;

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use slotmap::Key;

use crate::error::{AcquireError, StaleHandle};
use crate::generation;
use crate::handle::{self, Handle};
use crate::iter::{Iter, IterMut};
use crate::lifecycle::Hooks;
use crate::policy::{ExhaustionPolicy, LiveObjects, Strict};
use crate::slot::{NIL, SENTINEL, Slot, next_live};
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
        let index = match self.pop_idle() {
            Some(index) => index,
            None => match self.make_room() {
                Some(index) => index,
                None => return Err(self.refusal()),
            },
        };
        if self.hooks.on_acquire.is_some() {
            let handle = self.activate_hooked(index);
            return match self.slots[index as usize].value.as_mut() {
                Some(object) => Ok((handle, object)),
                // A live slot always holds its object.
                None => Err(AcquireError::InvalidVictim),
            };
        }
        // `activate` and the lookup in one pass over the slots: each index is
        // checked against the slice's length once.
        let slots = self.slots.as_mut_slice();
        let tail = if P::KEEPS_ORDER {
            let tail = slots[SENTINEL as usize].prev;
            slots[tail as usize].next = index;
            slots[SENTINEL as usize].prev = index;
            tail
        } else {
            NIL
        };
        let slot = &mut slots[index as usize];
        // The handle from the new generation in a register: read back after
        // the store, the generation became a byte-wide `or` in memory and a
        // 4-byte load of it, which store forwarding cannot serve (seen in an
        // effect spawn; `report --run effects_spawn 1024 30000000`, best of 5:
        // 0.51 s before, 0.49 s after).
        let generation = generation::on_acquire(slot.generation);
        let handle = handle::make(index, generation);
        slot.generation = generation;
        if P::KEEPS_ORDER {
            slot.prev = tail;
            slot.next = SENTINEL;
        }
        self.live += 1;
        if self.live > self.stats.peak_live {
            self.stats.peak_live = self.live;
        }
        match slot.value.as_mut() {
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
    #[must_use = "a handle is the only way to release its object: dropping it leaks the object until `clear` or `reclaim`"]
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
    #[must_use = "a handle is the only way to release its object: dropping it leaks the object until `clear` or `reclaim`"]
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
        let live = LiveObjects::new(&self.slots, self.live, P::KEEPS_ORDER);
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
    #[must_use = "a handle is the only way to release its object: dropping it leaks the object until `clear` or `reclaim`"]
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
        let (index, generation) = handle::split(handle);
        let slots = self.slots.as_mut_slice();
        // Handle generations are odd, so a match means the slot is live.
        let Some(slot) = slots
            .get(index as usize)
            .filter(|s| s.generation == generation)
        else {
            self.stats.stale_handle_uses += 1;
            return Err(StaleHandle);
        };
        let (prev, next) = (slot.prev, slot.next);
        // Counted here, where the compiler keeps the fast path shortest; the
        // slow path counts only once its hook has returned.
        self.stats.releases += 1;
        match generation::on_release(generation) {
            Some(idle) if self.hooks.on_release.is_none() => {
                // `deactivate` in one pass over the slots.
                if P::KEEPS_ORDER {
                    slots[prev as usize].next = next;
                    slots[next as usize].prev = prev;
                }
                let slot = &mut slots[index as usize];
                slot.generation = idle;
                slot.next = self.idle_head;
                self.idle_head = index;
                self.live -= 1;
            }
            // A hook to run, or a slot to retire.
            _ => {
                self.stats.releases -= 1;
                self.deactivate(index);
                self.stats.releases += 1;
            }
        }
        Ok(())
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
    /// use pool_core::{Pool, RecycleOldest};
    ///
    /// let mut pool = Pool::builder(|| 0u32).max_objects(4).policy(RecycleOldest).build().unwrap();
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
    #[must_use = "the renewed object has a new handle; the old one is stale"]
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

    /// Releases, in one pass over the live objects (oldest first in O(live); by
    /// slot in O(slots) for a policy that keeps no order, see
    /// [`ExhaustionPolicy::KEEPS_ORDER`]), every
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
        let mut cursor = self.first_live();
        while cursor != SENTINEL {
            let index = cursor;
            // Before `finished` and the release: neither moves a later object.
            cursor = next_live(&self.slots, P::KEEPS_ORDER, index);
            let slot = &mut self.slots[index as usize];
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

    /// The live objects and their handles: oldest first, in O(live); by slot, in
    /// O(slots), in a pool whose policy keeps no order ([`Strict`]'s case, see
    /// [`ExhaustionPolicy::KEEPS_ORDER`]).
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
    /// which is what lending `&mut` references without `unsafe` allows.
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

    /// The live objects of `N` handles at once, mutably: two enemies in a
    /// collision, a bullet and its target. `None` if any handle is stale or
    /// foreign, or if a handle appears twice (two `&mut` to one object would be
    /// undefined behaviour, so it is refused, never a panic). O(N²) for the
    /// check that the handles differ; no allocation.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    /// let (a, b) = (pool.acquire(), pool.acquire());
    /// let [x, y] = pool.get_disjoint_mut([a, b]).unwrap();
    /// (*x, *y) = (1, 2);
    /// assert_eq!((pool.get(a), pool.get(b)), (Some(&1), Some(&2)));
    /// assert!(pool.get_disjoint_mut([a, a]).is_none(), "the same object twice");
    /// pool.release(b).unwrap();
    /// assert!(pool.get_disjoint_mut([a, b]).is_none(), "a stale handle");
    /// ```
    pub fn get_disjoint_mut<const N: usize>(&mut self, handles: [K; N]) -> Option<[&mut T; N]> {
        let mut indices = [0usize; N];
        for (at, handle) in indices.iter_mut().zip(handles) {
            let (index, generation) = handle::split(handle);
            match self.slots.get(index as usize) {
                Some(slot) if slot.generation == generation && slot.value.is_some() => {
                    *at = index as usize;
                }
                _ => {
                    self.stats.stale_handle_uses += 1;
                    return None;
                }
            }
        }
        // Refuses a repeated index (and, impossibly here, one out of bounds).
        let slots = self.slots.get_disjoint_mut(indices).ok()?;
        let mut objects = arrayvec::ArrayVec::<&mut T, N>::new();
        for slot in slots {
            objects.push(slot.value.as_mut()?);
        }
        objects.into_inner().ok()
    }

    /// Calls `f` on every live object, mutably, in [`iter`](Self::iter)'s order
    /// (oldest first where the pool keeps that order). ([`iter_mut`](Self::iter_mut)
    /// is an iterator, in slot order: walking the acquisition-order links while
    /// lending `&mut` references would need `unsafe`, and this crate has none.)
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
        let mut cursor = self.first_live();
        while cursor != SENTINEL {
            let index = cursor;
            cursor = next_live(&self.slots, P::KEEPS_ORDER, index);
            let slot = &mut self.slots[index as usize];
            let handle = handle::make(index, slot.generation);
            if let Some(object) = slot.value.as_mut() {
                f(handle, object);
            }
        }
    }

    /// The live object acquired longest ago: the one [`RecycleOldest`](crate::RecycleOldest)
    /// would recycle next. O(1). `None` in a pool whose policy keeps no order
    /// ([`ExhaustionPolicy::KEEPS_ORDER`], [`Strict`]'s case).
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

    /// The first live object's slot in the pool's order, or `SENTINEL`.
    fn first_live(&self) -> u32 {
        if self.live == 0 {
            SENTINEL
        } else {
            next_live(&self.slots, P::KEEPS_ORDER, SENTINEL)
        }
    }

    /// For a level change: every live object is reset (release hook) and
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
        let mut cursor = self.first_live();
        while cursor != SENTINEL {
            let index = cursor;
            // Before the release: it moves no later object.
            cursor = next_live(&self.slots, P::KEEPS_ORDER, index);
            self.deactivate(index);
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

    /// Drops every object, live and idle: live handles become stale (the release
    /// hook is not run, the destroy hook is). Slots are kept for reuse; the pool
    /// grows again on demand. To drop only idle objects, [`clear_idle`](Self::clear_idle).
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(4, 8, || 0).unwrap();
    /// let gone = pool.acquire();
    /// pool.clear();
    /// assert!(!pool.contains(gone));
    /// assert_eq!(pool.stats().total, 0);
    /// ```
    pub fn clear(&mut self) {
        let mut cursor = self.first_live();
        while cursor != SENTINEL {
            let index = cursor;
            cursor = next_live(&self.slots, P::KEEPS_ORDER, index);
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
        self.trim_idle(0);
    }

    /// Drops every idle object; live objects and their handles stay. Returns how
    /// many were dropped (it is [`trim_idle(0)`](Self::trim_idle)).
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut pool: Pool<u32> = Pool::new(4, 8, || 0).unwrap();
    /// let kept = pool.acquire();
    /// assert_eq!(pool.clear_idle(), 3);
    /// assert!(pool.contains(kept));
    /// assert_eq!((pool.stats().live, pool.stats().idle), (1, 0));
    /// ```
    pub fn clear_idle(&mut self) -> usize {
        self.trim_idle(0)
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
    /// [`PoolBuilder::build_lazy`](crate::PoolBuilder::build_lazy) to spread a large prewarm over frames.
    ///
    /// The objects one call makes are handed out first, in the order they were
    /// made. When one call makes them all (what [`build`](crate::PoolBuilder::build)
    /// does), that is slot order: a game that takes them one after another
    /// walks its objects in ascending addresses.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let mut made = 0;
    /// let factory = move || { made += 1; made };
    /// let mut pool = Pool::builder(factory).initial(10).max_objects(10).build_lazy().unwrap();
    /// assert_eq!(pool.prewarm_step(4), 6);
    /// assert_eq!(pool.prewarm_step(4), 2);
    /// assert_eq!(pool.prewarm_step(4), 0);
    /// assert_eq!(pool.stats().idle, 10);
    /// let (_, first) = pool.acquire_mut();
    /// assert_eq!(*first, 9, "the last call's first object");
    /// let (_, second) = pool.acquire_mut();
    /// assert_eq!(*second, 10);
    /// ```
    pub fn prewarm_step(&mut self, budget: usize) -> usize {
        let mut created = 0;
        // Each new object goes below the one made before it on the idle stack.
        // Measured (the report's `--run`, best of 5, 3 * 10^8 cycles): a strict
        // pool of 64-byte objects 4-6% faster than with the reverse order, no
        // difference beyond the noise at 16 and 32 bytes.
        let mut above = NIL;
        while created < budget && self.total < self.initial {
            let Some(index) = self.create_object() else {
                break;
            };
            if above == NIL {
                self.push_idle(index);
            } else {
                let slots = self.slots.as_mut_slice();
                slots[index as usize].next = slots[above as usize].next;
                slots[above as usize].next = index;
            }
            above = index;
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
