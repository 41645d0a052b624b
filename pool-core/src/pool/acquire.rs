//! Handing objects out: an idle one, a new one below the cap, or one the
//! policy recycles when the pool is full.

use slotmap::Key;

use super::{Acquired, Pool};
use crate::error::AcquireError;
use crate::generation;
use crate::handle;
use crate::policy::{ExhaustionPolicy, LiveObjects};
use crate::slot::{NIL, SENTINEL};

impl<T, P: ExhaustionPolicy<T>, K: Key> Pool<T, P, K> {
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
        if self.hooks.on_acquire.is_some() {
            return self.try_acquire_mut_hooked();
        }
        let index = self.idle_head;
        // `NIL` is past every slot: one comparison finds both an empty idle
        // stack and the slot on top, and the compiler knows `index` in bounds
        // from here on.
        if index as usize >= self.slots.len() {
            let Some(index) = self.make_room() else {
                return Err(self.refusal());
            };
            return self.activate_lend(index);
        }
        self.idle_head = self.slots[index as usize].next;
        self.activate_lend(index)
    }

    /// `try_acquire_mut` with an acquire hook, out of line as the hook is.
    #[inline(never)]
    fn try_acquire_mut_hooked(&mut self) -> Result<(K, &mut T), AcquireError> {
        let index = match self.pop_idle() {
            Some(index) => index,
            None => match self.make_room() {
                Some(index) => index,
                None => return Err(self.refusal()),
            },
        };
        let handle = self.activate_hooked(index);
        match self.slots[index as usize].live_object_mut() {
            Some(object) => Ok((handle, object)),
            // A live slot always holds its object.
            None => Err(AcquireError::InvalidVictim),
        }
    }

    /// Hands out the idle object in slot `index` (off the idle stack, no
    /// acquire hook) and lends it: `activate` and the lookup in one pass over
    /// the slots. The new object's slot is indexed first: once `index` is
    /// known to be below the length, so is the sentinel's 0, and the compiler
    /// checks only the tail's index again.
    #[inline(always)]
    fn activate_lend(&mut self, index: u32) -> Result<(K, &mut T), AcquireError> {
        let slots = self.slots.as_mut_slice();
        // The handle from the new generation in a register: read back after
        // the store, the generation became a byte-wide `or` in memory and a
        // 4-byte load of it, which store forwarding cannot serve (seen in an
        // effect spawn; `report --run effects_spawn 1024 30000000`, best of 5:
        // 0.51 s before, 0.49 s after).
        debug_assert!(slots[index as usize].holds(), "handing out an empty slot");
        let generation = generation::on_acquire(slots[index as usize].generation);
        let tail = if P::KEEPS_ORDER {
            let tail = slots[SENTINEL as usize].prev;
            slots[tail as usize].next = index;
            slots[SENTINEL as usize].prev = index;
            tail
        } else {
            NIL
        };
        let slot = &mut slots[index as usize];
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
        match slot.live_object_mut() {
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
        let (index, recycled) = self.room_detailed()?;
        Ok(Acquired {
            handle: self.activate(index),
            recycled,
        })
    }

    /// Like [`try_acquire_detailed`](Self::try_acquire_detailed), and also lends
    /// the object, as [`try_acquire_mut`](Self::try_acquire_mut) does: set up
    /// the new user's object at once, and learn whose it was if it was recycled.
    ///
    /// # Errors
    /// The same as [`try_acquire`](Self::try_acquire).
    ///
    /// ```
    /// use pool_core::{Pool, RecycleOldest};
    ///
    /// #[derive(Default)]
    /// struct Voice { owner: u32 }
    ///
    /// let mut voices = Pool::builder(Voice::default).max_objects(1).policy(RecycleOldest).build()?;
    /// let (first, voice) = voices.try_acquire_detailed_mut()?;
    /// voice.owner = 7;
    /// assert_eq!(first.recycled, None);
    /// let (second, voice) = voices.try_acquire_detailed_mut()?;
    /// assert_eq!(second.recycled, Some(first.handle), "the full pool recycled the first");
    /// assert_eq!(voice.owner, 7, "no release hook: the object is as its last user left it");
    /// voice.owner = 8;
    /// assert_eq!(voices.get(second.handle).unwrap().owner, 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    #[must_use = "a handle is the only way to release its object: dropping it leaks the object until `clear` or `reclaim`"]
    pub fn try_acquire_detailed_mut(&mut self) -> Result<(Acquired<K>, &mut T), AcquireError> {
        let (index, recycled) = self.room_detailed()?;
        let handle = self.activate(index);
        match self.slots[index as usize].live_object_mut() {
            Some(object) => Ok((Acquired { handle, recycled }, object)),
            // A live slot always holds its object.
            None => Err(AcquireError::InvalidVictim),
        }
    }

    /// The slot to hand out and the live object recycled for it, if any.
    #[inline(always)]
    fn room_detailed(&mut self) -> Result<(u32, Option<K>), AcquireError> {
        match self.pop_idle() {
            Some(index) => Ok((index, None)),
            None => match self.make_room() {
                Some(index) => Ok((index, self.last_room.flatten())),
                None => Err(self.refusal()),
            },
        }
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
}

#[cold]
#[inline(never)]
#[track_caller]
fn acquire_failed(error: AcquireError) -> ! {
    panic!("Pool::acquire: {error}")
}
