//! How a pool keeps its objects: a `Vec` of slots threaded into three lists (live
//! objects, doubly linked in acquisition order; idle objects, a stack; vacant slots,
//! a stack), slot generations, and the retirement of a slot whose generation would
//! wrap around.

use slotmap::Key;

use super::Pool;
use crate::generation;
use crate::handle;
use crate::policy::ExhaustionPolicy;
use crate::slot::{NIL, SENTINEL, Slot};

impl<T, P: ExhaustionPolicy<T>, K: Key> Pool<T, P, K> {
    /// The slot index of a live handle.
    #[inline]
    pub(super) fn live_index(&self, handle: K) -> Option<u32> {
        let (index, generation) = handle::split(handle);
        let slot = self.slots.get(index as usize)?;
        // Handle generations are odd, so a match means the slot is live.
        (slot.generation == generation).then_some(index)
    }

    /// Hands out the idle object in slot `index` (already off the idle stack).
    #[inline(always)]
    pub(super) fn activate(&mut self, index: u32) -> K {
        if self.hooks.on_acquire.is_some() {
            return self.activate_hooked(index);
        }
        let generation = self.new_generation(index);
        self.link_new(index, generation)
    }

    /// Gives slot `index` its next (live, odd) generation.
    #[inline(always)]
    pub(super) fn new_generation(&mut self, index: u32) -> u32 {
        let slot = &mut self.slots[index as usize];
        debug_assert!(slot.holds(), "handing out an empty slot");
        let generation = generation::on_acquire(slot.generation);
        slot.generation = generation;
        generation
    }

    /// Links slot `index`, already in its live generation, as the newest live
    /// object, and makes its handle.
    #[inline(always)]
    pub(super) fn link_new(&mut self, index: u32, generation: u32) -> K {
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
    pub(super) fn deactivate(&mut self, index: u32) {
        if self.hooks.on_release.is_some() {
            self.deactivate_hooked(index);
        } else {
            self.deactivate_unhooked(index);
        }
    }

    #[inline(always)]
    pub(super) fn deactivate_unhooked(&mut self, index: u32) {
        self.unlink_live(index);
        self.live -= 1;
        if let Some(index) = self.end_generation_or_relocate(index) {
            self.push_idle(index);
        }
    }

    /// Ends the generation of the object in slot `index`: the slot it is in now
    /// (a fresh one if `index` retired), or `None` if no slot was left for it.
    #[inline(always)]
    pub(super) fn end_generation_or_relocate(&mut self, index: u32) -> Option<u32> {
        if self.end_generation(index) {
            Some(index)
        } else {
            self.relocate_retired(index)
        }
    }

    #[inline(always)]
    pub(super) fn end_generation(&mut self, index: u32) -> bool {
        let slot = &mut self.slots[index as usize];
        match self.salt.on_release(slot.generation) {
            Some(next) => {
                slot.generation = next;
                true
            }
            None => {
                slot.generation = self.salt.fresh();
                self.stats.retired_slots += 1;
                false
            }
        }
    }

    /// Moves the object of a retired slot into a fresh slot, linked into no list,
    /// and returns that slot. Never a slot without an object: the idle stack
    /// holds only slots that hold one (`slot.rs`).
    #[cold]
    pub(super) fn relocate_retired(&mut self, retired: u32) -> Option<u32> {
        let object = self.slots[retired as usize].take();
        debug_assert!(object.is_some(), "a retired slot holds its object");
        let object = object?;
        match self.new_slot() {
            Some(index) => {
                self.slots[index as usize].put(object);
                Some(index)
            }
            // Only after ~2^62 handouts: no index is left, so the object goes.
            None => {
                self.destroy_object(Some(object));
                None
            }
        }
    }

    /// Creates one object in a vacant or new slot, linked into no list yet.
    pub(super) fn create_object(&mut self) -> Option<u32> {
        if self.vacant_head == NIL && self.slots.len() >= NIL as usize {
            return None;
        }
        // The factory before any bookkeeping: if it panics, nothing has changed.
        let object = (self.hooks.factory)();
        let index = self.new_slot()?;
        self.slots[index as usize].put(object);
        self.stats.creates += 1;
        self.total += 1;
        if self.total > self.stats.peak_total {
            self.stats.peak_total = self.total;
        }
        Some(index)
    }

    /// A slot without an object: a vacant one, or a new one at the end.
    pub(super) fn new_slot(&mut self) -> Option<u32> {
        if self.vacant_head != NIL {
            let index = self.vacant_head;
            self.vacant_head = self.slots[index as usize].next;
            return Some(index);
        }
        let index = u32::try_from(self.slots.len()).ok().filter(|i| *i < NIL)?;
        self.slots.push(Slot::vacant(self.salt.fresh()));
        Some(index)
    }

    /// Drops the object of a (non-live, unlinked) slot and makes the slot vacant.
    pub(super) fn destroy(&mut self, index: u32) {
        let object = self.slots[index as usize].take();
        self.push_vacant(index);
        self.destroy_object(object);
    }

    pub(super) fn push_vacant(&mut self, index: u32) {
        self.slots[index as usize].next = self.vacant_head;
        self.vacant_head = index;
    }

    /// Counts the object out, then runs the destroy hook: the last thing done, so
    /// a panicking hook leaves the pool consistent.
    pub(super) fn destroy_object(&mut self, object: Option<T>) {
        if let Some(object) = object {
            self.total -= 1;
            self.stats.destroys += 1;
            if let Some(hook) = &mut self.hooks.on_destroy {
                hook(object);
            }
        }
    }

    #[inline(always)]
    pub(super) fn push_idle(&mut self, index: u32) {
        self.slots[index as usize].next = self.idle_head;
        self.idle_head = index;
    }

    #[inline(always)]
    pub(super) fn pop_idle(&mut self) -> Option<u32> {
        let index = self.idle_head;
        // `NIL` is never a slot's index: one bounds check finds both an empty
        // stack and the slot on top.
        self.idle_head = self.slots.get(index as usize)?.next;
        Some(index)
    }

    #[inline(always)]
    pub(super) fn link_live_tail(&mut self, index: u32) {
        if !P::KEEPS_ORDER {
            return;
        }
        let tail = self.slots[SENTINEL as usize].prev;
        let slot = &mut self.slots[index as usize];
        slot.prev = tail;
        slot.next = SENTINEL;
        self.slots[tail as usize].next = index;
        self.slots[SENTINEL as usize].prev = index;
    }

    #[inline(always)]
    pub(super) fn unlink_live(&mut self, index: u32) {
        if !P::KEEPS_ORDER {
            return;
        }
        let slot = &self.slots[index as usize];
        let (prev, next) = (slot.prev, slot.next);
        self.slots[prev as usize].next = next;
        self.slots[next as usize].prev = prev;
    }

    /// Puts the live object of `handle` in its slot's last generation, as if
    /// the slot had been handed out 2^31 times; returns its handle now.
    #[cfg(test)]
    pub(crate) fn set_last_generation_for_test(&mut self, handle: K) -> K {
        let (index, _) = handle::split(handle);
        let last = self.salt.last();
        self.slots[index as usize].generation = last;
        handle::make(index, last)
    }

    #[cfg(test)]
    pub(crate) fn slot_count(&self) -> usize {
        self.slots.len() - 1 // not the sentinel
    }
}
