//! One storage cell of a pool. The links thread it through exactly one of the pool's
//! lists: live objects (doubly linked, in acquisition order), idle objects (a
//! stack) or vacant slots (a stack); a retired slot is in none.
//!
//! The object is stored without a tag of its own (the crate's only `unsafe`,
//! slotmap's own layout): an `Option<T>` costs up to `align_of::<T>()` bytes a slot
//! and a check on every lookup that the generation has already answered. Whether
//! a slot holds its object is told by two fields the pool keeps anyway:
//!
//! - **Invariant H**: a slot other than the sentinel holds an initialized object
//!   if and only if its `prev` is not [`NIL`]. Only [`Slot::put`] and
//!   [`Slot::take`] change whether it holds one, and they set `prev` with it; the
//!   links never write `NIL` into a `prev` (a link is a slot index, below `NIL`),
//!   and `Slot::vacant` starts it at `NIL`.
//! - **Invariant L**: a slot whose generation is odd (live) holds its object.
//!   The pool makes a generation odd only on a slot it hands out from the idle
//!   stack (which holds objects), and takes an object out only after its
//!   generation has ended (even) or from a slot that never went live; the
//!   sentinel's generation stays 0.
//!
//! L lets a lookup by handle skip the second check, as slotmap's does; H lets
//! the rest ask. Miri runs the pool's tests and its model-based property tests
//! over these paths in CI (`scripts/miri.sh`).

use core::mem::MaybeUninit;

/// The end of the idle and vacant stacks, and the `prev` of a slot that holds no
/// object (invariant H). Never a slot index: a handle index is always below
/// `u32::MAX`.
pub(crate) const NIL: u32 = u32::MAX;

/// Slot 0 holds no object: it closes the live list into a ring (its `next` is the
/// oldest live object, its `prev` the newest), so linking and unlinking never branch
/// on the ends of the list. Its generation stays 0, even, so no handle reaches it.
pub(crate) const SENTINEL: u32 = 0;

pub(crate) struct Slot<T> {
    /// Initialized while `prev != NIL` (invariant H) and always while `generation`
    /// is odd (invariant L); never in the sentinel.
    value: MaybeUninit<T>,
    /// Odd while live (see `generation.rs`).
    pub(crate) generation: u32,
    /// The previous (older) live object in an ordered pool; otherwise any index
    /// while the slot holds an object, and `NIL` while it holds none (never write
    /// `NIL` here: [`Slot::take`] does).
    pub(crate) prev: u32,
    /// The next (newer) live object, or the next slot of the idle or vacant stack.
    pub(crate) next: u32,
}

impl<T> Slot<T> {
    pub(crate) fn sentinel() -> Self {
        Self {
            value: MaybeUninit::uninit(),
            generation: 0,
            prev: SENTINEL,
            next: SENTINEL,
        }
    }

    /// A slot with no object, linked into no list.
    pub(crate) fn vacant(generation: u32) -> Self {
        Self {
            value: MaybeUninit::uninit(),
            generation,
            prev: NIL,
            next: NIL,
        }
    }

    /// Whether the slot holds an object. Not to be asked of the sentinel.
    #[inline]
    pub(crate) fn holds(&self) -> bool {
        self.prev != NIL
    }

    /// Puts `object` in a slot that holds none (a vacant or new one, never the
    /// sentinel). A slot that holds one already drops it first.
    #[inline]
    pub(crate) fn put(&mut self, object: T) {
        if self.holds() {
            drop(self.take());
        }
        self.value.write(object);
        // Not `NIL`: the slot holds an object now (invariant H). Any index will do
        // until a live list links it.
        self.prev = SENTINEL;
    }

    /// Takes the object out of a slot that is not live (or is about to be
    /// unlinked from the live list), leaving it empty. Not for the sentinel.
    #[inline]
    pub(crate) fn take(&mut self) -> Option<T> {
        if !self.holds() {
            return None;
        }
        self.prev = NIL;
        // SAFETY: `prev` was not `NIL`, so the value is initialized (invariant
        // H); `prev` is `NIL` now, so nothing reads it again before a `put`.
        Some(unsafe { self.value.assume_init_read() })
    }

    /// The object of a slot known to hold one, or `None`. Not for the sentinel.
    #[inline]
    pub(crate) fn object_mut(&mut self) -> Option<&mut T> {
        // SAFETY: `holds` means initialized (invariant H).
        self.holds()
            .then(|| unsafe { self.value.assume_init_mut() })
    }

    /// The object, if the slot is live in `generation`, a handle's (odd).
    ///
    /// A handle's generation is its slotmap `KeyData`'s version, which is odd
    /// for every key there can be: each of `KeyData`'s constructors sets the
    /// low bit, and slotmap's own lookups rely on it in the same way (a vacant
    /// slot of a `SlotMap` has an even version and no value); the `Key` trait
    /// is `unsafe` to implement, bound to behave as a `KeyData`. The test
    /// `handle::tests::every_key_has_an_odd_generation` pins it.
    #[inline(always)]
    pub(crate) fn live(&self, generation: u32) -> Option<&T> {
        debug_assert!(generation & 1 == 1, "a handle's generation is odd");
        // SAFETY: an odd generation matched, so the slot is live, and a live
        // slot holds its object (invariant L). The sentinel's 0 is even.
        (self.generation == generation).then(|| unsafe { self.value.assume_init_ref() })
    }

    /// The object, mutably, if the slot is live in `generation` (a handle's).
    #[inline(always)]
    pub(crate) fn live_mut(&mut self, generation: u32) -> Option<&mut T> {
        debug_assert!(generation & 1 == 1, "a handle's generation is odd");
        // SAFETY: as in `live`.
        (self.generation == generation).then(|| unsafe { self.value.assume_init_mut() })
    }

    /// The object of a live slot (`None` for a slot that is not).
    #[inline(always)]
    pub(crate) fn live_object(&self) -> Option<&T> {
        // SAFETY: an odd generation is a live slot's, which holds its object
        // (invariant L).
        (self.generation & 1 == 1).then(|| unsafe { self.value.assume_init_ref() })
    }

    /// The object of a live slot, mutably (`None` for a slot that is not).
    #[inline(always)]
    pub(crate) fn live_object_mut(&mut self) -> Option<&mut T> {
        // SAFETY: as in `live_object`.
        (self.generation & 1 == 1).then(|| unsafe { self.value.assume_init_mut() })
    }
}

/// The live slot after `after` in the order the pool keeps: the next in
/// acquisition order (`ordered`), or the next live slot by index; `SENTINEL`
/// after the last. From `SENTINEL`, the first.
#[inline]
pub(crate) fn next_live<T>(slots: &[Slot<T>], ordered: bool, after: u32) -> u32 {
    if ordered {
        return slots.get(after as usize).map_or(SENTINEL, |slot| slot.next);
    }
    let start = after as usize + 1;
    slots
        .get(start..)
        .and_then(|rest| rest.iter().position(|slot| slot.generation & 1 == 1))
        .map_or(SENTINEL, |at| (start + at) as u32)
}
