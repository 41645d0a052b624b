//! Slot generations, isolated here because wrap-around and the pool's salt are
//! the subtle parts.
//!
//! A slot's generation is odd while its object is live and even otherwise, the same
//! convention as slotmap's key versions, so a pool handle is a valid slotmap key and
//! a stale handle (odd, but older) can never equal an idle slot's (even) generation.
//!
//! Each pool counts its generations from its own [`Salt`], an even number that
//! differs widely between pools, so that a handle of another pool of the same
//! handle type names, in this pool, a generation its slot has not reached (see
//! [`Salt`] for how far apart). A slot is handed out with generations `salt + 1`,
//! `salt + 3`, ..., `salt - 1` (wrapping): 2^31 times. After the last one it is
//! retired instead of coming back to `salt + 1`, so an old handle can never alias
//! a new object.

use core::sync::atomic::{AtomicU32, Ordering};

/// The generation a slot takes when its object is handed out. Cannot overflow: an
/// idle generation is even.
#[inline]
pub(crate) fn on_acquire(generation: u32) -> u32 {
    debug_assert!(generation & 1 == 0, "acquiring a live slot");
    generation | 1
}

/// Where one pool's generations start: an even number, drawn when the pool is
/// made. The `n`th pool of the process gets `2 * (n * 0x9E3779B9)` (mod 2^32):
/// consecutive pools start about 2^30 apart, and of any 1,000 pools made one after
/// another no two start closer than 3.1 million. A handle of pool B matches a live
/// object of pool A only where the slot of its index has, in A, a generation
/// exactly the difference of their salts away from the handle's; pools made near
/// each other never get there before one of them has handed that slot out over a
/// million times more than the other (one slot, not the pool), and two pools in
/// general meet by chance about once in 2^31.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Salt(u32);

/// 2^32 divided by the golden ratio, odd: multiplying by it spreads consecutive
/// numbers over the whole range (Fibonacci hashing).
const SPREAD: u32 = 0x9E37_79B9;

impl Salt {
    /// The salt of a new pool.
    pub(crate) fn next() -> Self {
        static POOLS: AtomicU32 = AtomicU32::new(0);
        Self::of(POOLS.fetch_add(1, Ordering::Relaxed))
    }

    /// The salt of the `pool`th pool.
    fn of(pool: u32) -> Self {
        Self(pool.wrapping_mul(SPREAD) << 1)
    }

    /// The generation of a slot that has never been handed out (even).
    #[inline]
    pub(crate) fn fresh(self) -> u32 {
        self.0
    }

    /// The generation a slot takes when its object stops being live, or `None`
    /// when the slot has used all its 2^31 generations and must be retired.
    #[inline]
    pub(crate) fn on_release(self, generation: u32) -> Option<u32> {
        debug_assert!(generation & 1 == 1, "releasing a slot that is not live");
        let next = generation.wrapping_add(1);
        (next != self.0).then_some(next)
    }

    /// A slot's last live generation, after which it retires.
    #[cfg(test)]
    pub(crate) fn last(self) -> u32 {
        self.0.wrapping_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_generations_are_odd_and_idle_ones_even() {
        for salt in [Salt::of(0), Salt::of(1), Salt::of(12_345)] {
            let live = on_acquire(salt.fresh());
            assert_eq!(live, salt.fresh().wrapping_add(1));
            assert_eq!(live & 1, 1);
            let idle = salt.on_release(live).unwrap();
            assert_eq!(idle & 1, 0);
            assert_eq!(on_acquire(idle), live.wrapping_add(2));
        }
    }

    #[test]
    fn the_last_generation_retires_instead_of_wrapping() {
        let salt = Salt::of(7);
        assert_eq!(on_acquire(salt.last() - 1), salt.last());
        assert_eq!(salt.on_release(salt.last()), None);
        assert_eq!(salt.on_release(salt.last() - 2), Some(salt.last() - 1));
        // The first pool's salt is 0: its slots retire at u32::MAX, as before salts.
        assert_eq!(Salt::of(0).on_release(u32::MAX), None);
    }

    #[test]
    fn the_last_generations_of_a_slot_hand_out_then_retire() {
        // Walk the functions through the end of the range: three handouts, then
        // retirement, with the range wrapping past u32::MAX on the way.
        let salt = Salt(4);
        let mut generation = salt.fresh().wrapping_sub(6);
        let mut handouts = 0;
        loop {
            generation = on_acquire(generation);
            handouts += 1;
            match salt.on_release(generation) {
                Some(next) => generation = next,
                None => break,
            }
        }
        assert_eq!(handouts, 3);
        assert_eq!(generation, salt.last());
    }

    #[test]
    fn every_salt_is_even_and_new_pools_draw_new_salts() {
        assert!((0..10_000).all(|pool| Salt::of(pool).fresh() & 1 == 0));
        assert_ne!(Salt::next(), Salt::next());
    }

    #[test]
    fn pools_made_one_after_another_start_their_generations_far_apart() {
        // The distance between two salts, either way round the range.
        let apart = |a: Salt, b: Salt| {
            let d = a.fresh().wrapping_sub(b.fresh());
            d.min(d.wrapping_neg())
        };
        // Salts are linear in the pool's number: the distance of pools `n` and
        // `n + d` is that of pools 0 and `d`.
        assert_eq!(
            apart(Salt::of(1_000), Salt::of(1_007)),
            apart(Salt::of(0), Salt::of(7))
        );
        assert!(apart(Salt::of(0), Salt::of(1)) > 1 << 29, "neighbours");
        let closest = (1..1_000).map(|d| apart(Salt::of(0), Salt::of(d))).min();
        assert!(closest >= Some(3_100_000), "{closest:?}");
    }
}
