//! Giving objects back: one by its handle, one renewed for a new owner, or
//! every object that says it is finished.

use slotmap::Key;

use super::Pool;
use crate::error::StaleHandle;
use crate::handle;
use crate::policy::ExhaustionPolicy;
use crate::slot::{SENTINEL, next_live};

impl<T, P: ExhaustionPolicy<T>, K: Key> Pool<T, P, K> {
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
        // A hook to run, or a slot to retire: each a jump of its own to the
        // slow path, out of line, rather than flags combined.
        if self.hooks.on_release.is_some() {
            self.release_slow(index);
            return Ok(());
        }
        let Some(idle) = self.salt.on_release(generation) else {
            self.release_slow(index);
            return Ok(());
        };
        self.stats.releases += 1;
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
        Ok(())
    }

    /// A release with a hook to run or a slot to retire, out of line. Counted
    /// once the hook has returned.
    #[cold]
    #[inline(never)]
    fn release_slow(&mut self, index: u32) {
        self.deactivate(index);
        self.stats.releases += 1;
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
            let done = match slot.live_object_mut() {
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
}
