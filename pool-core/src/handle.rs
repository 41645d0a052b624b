//! Generational handles: slotmap keys, so a pool handle is 8 bytes, `Copy`, and
//! usable as the key of a slotmap `SecondaryMap` to attach side data to objects.

use slotmap::{Key, KeyData};

slotmap::new_key_type! {
    /// The default handle type of a [`Pool`](crate::Pool): a slot index and a
    /// generation, 8 bytes, `Copy`.
    ///
    /// A handle stays valid while its object is live, and becomes stale forever once
    /// the object is released, recycled, cleared or reinitialized. Another pool's
    /// handle is refused by its generation, probabilistically (see
    /// [`StaleHandle`](crate::StaleHandle)); define a handle type per pool with
    /// [`new_handle_type!`](crate::new_handle_type) so handles of two pools cannot
    /// be mixed up at all.
    ///
    /// ```
    /// use pool_core::{Handle, Pool};
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    /// let handle: Handle = pool.acquire();
    /// assert_eq!(std::mem::size_of::<Handle>(), 8);
    /// pool.release(handle).unwrap();
    /// assert!(!pool.contains(handle));
    /// ```
    pub struct Handle;
}

impl Handle {
    /// The index of the slot the handle's object is in (thunderdome's
    /// `Index::slot`): what a dense side array beside the pool is indexed by, a
    /// `Vec` with an entry per slot where a slotmap `SecondaryMap` would hash or
    /// check a version. Slot indices start at 1 and stay at most `max_objects`
    /// (unless a slot retires after 2^31 handouts: its object moves to a new
    /// slot past them); the null handle's is `u32::MAX`.
    ///
    /// An index is not an identity: when its object is released, the slot (and
    /// its index) goes to the next object handed out from it, under a new
    /// generation. A side array's entry belongs to whichever object holds the
    /// slot now, so write it when an object is acquired, or keep the full handle
    /// beside it to tell the objects apart.
    ///
    /// ```
    /// use pool_core::{Handle, Pool};
    ///
    /// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    /// // Per-slot data kept apart from the objects: a target for each bullet.
    /// let mut targets = vec![None; pool.max_objects() + 1];
    /// let bullet: Handle = pool.acquire();
    /// targets[bullet.index()] = Some((7.0, 3.0));
    /// assert_eq!(targets[bullet.index()], Some((7.0, 3.0)));
    /// pool.release(bullet).unwrap();
    /// let next = pool.acquire();
    /// assert_eq!(next.index(), bullet.index(), "the slot is handed out again");
    /// assert_ne!(next, bullet, "under a new generation");
    /// ```
    #[inline]
    pub fn index(self) -> usize {
        split(self).0 as usize
    }
}

/// Packs a slot index and an (odd) generation into a key of type `K`.
#[inline]
pub(crate) fn make<K: Key>(index: u32, generation: u32) -> K {
    K::from(KeyData::from_ffi(
        (u64::from(generation) << 32) | u64::from(index),
    ))
}

/// Splits a key into its slot index and generation.
#[inline]
pub(crate) fn split<K: Key>(key: K) -> (u32, u32) {
    let bits = key.data().as_ffi();
    (bits as u32, (bits >> 32) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handle_round_trips_its_index_and_generation() {
        let key: Handle = make(7, 41);
        assert_eq!(split(key), (7, 41));
        let key: Handle = make(u32::MAX - 1, u32::MAX);
        assert_eq!(split(key), (u32::MAX - 1, u32::MAX));
    }

    #[test]
    fn the_null_handle_points_past_every_slot() {
        let (index, _) = split(Handle::null());
        assert_eq!(index, u32::MAX);
        assert_eq!(Handle::null().index(), u32::MAX as usize);
    }

    #[test]
    fn every_key_has_an_odd_generation() {
        // The pool's lookups rely on it (`slot.rs`): a key made from any bits,
        // an even version included, the null key and the default one.
        for bits in [
            0,
            1 << 32,
            (2 << 32) | 7,
            u64::MAX - (1 << 32),
            0x1234_5678_9abc_def0,
        ] {
            let key: Handle = KeyData::from_ffi(bits).into();
            assert_eq!(split(key).1 & 1, 1, "{bits:#x}");
        }
        assert_eq!(split(Handle::null()).1 & 1, 1);
        assert_eq!(split(Handle::default()).1 & 1, 1);
        assert_eq!(
            split(make::<Handle>(3, 8)).1,
            9,
            "made even, it comes out odd"
        );
    }

    #[test]
    fn a_handle_tells_its_slot_index() {
        let key: Handle = make(7, 41);
        assert_eq!(key.index(), 7);
    }
}
