//! Slot generations, isolated here because wrap-around is the one subtle part.
//!
//! A slot's generation is odd while its object is live and even otherwise, the same
//! convention as slotmap's key versions, so a pool handle is a valid slotmap key and
//! a stale handle (odd, but older) can never equal an idle slot's (even) generation.
//! A slot is handed out with generations 1, 3, ..., `u32::MAX`: 2^31 times. After the
//! last one it is retired instead of wrapping to 0, so an old handle can never alias a
//! new object.

/// The generation of a slot that has never been handed out.
pub(crate) const FRESH: u32 = 0;

/// The generation a slot takes when its object is handed out. Cannot overflow: the
/// largest even `u32` is `u32::MAX - 1`.
#[inline]
pub(crate) fn on_acquire(generation: u32) -> u32 {
    debug_assert!(generation & 1 == 0, "acquiring a live slot");
    generation | 1
}

/// The generation a slot takes when its object stops being live, or `None` when the
/// slot has used all its generations and must be retired.
#[inline]
pub(crate) fn on_release(generation: u32) -> Option<u32> {
    debug_assert!(generation & 1 == 1, "releasing a slot that is not live");
    generation.checked_add(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_generations_are_odd_and_idle_ones_even() {
        let live = on_acquire(FRESH);
        assert_eq!(live, 1);
        assert_eq!(on_release(live), Some(2));
        assert_eq!(on_acquire(2), 3);
    }

    #[test]
    fn the_last_generation_retires_instead_of_wrapping() {
        assert_eq!(on_acquire(u32::MAX - 1), u32::MAX);
        assert_eq!(on_release(u32::MAX), None);
        assert_eq!(on_release(u32::MAX - 2), Some(u32::MAX - 1));
    }

    #[test]
    fn the_last_generations_of_a_slot_hand_out_then_retire() {
        // Walk the functions through the top of the range: handouts at
        // u32::MAX - 4, u32::MAX - 2 and u32::MAX, then retirement.
        let mut generation = u32::MAX - 5;
        let mut handouts = 0;
        loop {
            generation = on_acquire(generation);
            handouts += 1;
            match on_release(generation) {
                Some(next) => generation = next,
                None => break,
            }
        }
        assert_eq!(handouts, 3);
        assert_eq!(generation, u32::MAX);
    }
}
