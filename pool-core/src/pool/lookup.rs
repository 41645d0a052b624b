//! Reaching live objects through their handles: one, or several at once.

use slotmap::Key;

use super::Pool;
use crate::error::StaleHandle;
use crate::handle;
use crate::policy::ExhaustionPolicy;

impl<T, P: ExhaustionPolicy<T>, K: Key> Pool<T, P, K> {
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
        self.slots.get(index as usize)?.live(generation)
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
        match self
            .slots
            .get_mut(index as usize)
            .and_then(|slot| slot.live_mut(generation))
        {
            Some(object) => Ok(object),
            None => {
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

    /// The live objects of `N` handles at once, mutably: two enemies in a
    /// collision, a bullet and its target. `None` if any handle is stale or
    /// foreign, or if a handle appears twice (two `&mut` to one object would be
    /// undefined behaviour, so it is refused, never a panic). O(N²) for the
    /// check that the handles differ; no allocation. A foreign handle is
    /// refused as [`StaleHandle`] says: certainly with a handle type per pool,
    /// by its generation (probabilistic, far apart) between pools that share one.
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
                Some(slot) if slot.live(generation).is_some() => {
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
            objects.push(slot.live_object_mut()?);
        }
        objects.into_inner().ok()
    }
}
