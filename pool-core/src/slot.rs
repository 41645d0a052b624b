//! One storage cell of a pool. The links thread it through exactly one of the pool's
//! lists: live objects (doubly linked, in acquisition order), idle objects (a
//! stack) or vacant slots (a stack); a retired slot is in none.

/// The end of the idle and vacant stacks. Never a slot index: a handle index is
/// always below `u32::MAX`.
pub(crate) const NIL: u32 = u32::MAX;

/// Slot 0 holds no object: it closes the live list into a ring (its `next` is the
/// oldest live object, its `prev` the newest), so linking and unlinking never branch
/// on the ends of the list. Its generation stays 0, even, so no handle reaches it.
pub(crate) const SENTINEL: u32 = 0;

pub(crate) struct Slot<T> {
    /// `Some` for live and idle objects, `None` for vacant and retired slots.
    pub(crate) value: Option<T>,
    /// Odd while live (see `generation.rs`).
    pub(crate) generation: u32,
    /// The previous (older) live object; unused otherwise.
    pub(crate) prev: u32,
    /// The next (newer) live object, or the next slot of the idle or vacant stack.
    pub(crate) next: u32,
}

impl<T> Slot<T> {
    pub(crate) fn sentinel() -> Self {
        Self {
            value: None,
            generation: 0,
            prev: SENTINEL,
            next: SENTINEL,
        }
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
