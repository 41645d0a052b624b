//! User code the pool calls (the acquire and release hooks), run out of line under
//! unwind guards: if a hook panics, the guard puts the pool back in a consistent
//! state before the panic leaves it (see "Panics in user code" in the crate docs).

use slotmap::Key;

use super::Pool;
use crate::policy::ExhaustionPolicy;

impl<T, P: ExhaustionPolicy<T>, K: Key> Pool<T, P, K> {
    /// `activate` with an acquire hook, wholly out of line (see
    /// `deactivate_hooked`). The hook runs between the new generation and the
    /// linking, so a panicking hook leaves an unlinked object to put back.
    #[inline(never)]
    pub(super) fn activate_hooked(&mut self, index: u32) -> K {
        let generation = self.new_generation(index);
        self.run_acquire_hook(index);
        self.link_new(index, generation)
    }

    /// `deactivate` with a release hook, wholly out of line. The hook's unwind
    /// guard writes the pool, so after a call to it the compiler reloads the slot
    /// storage; keeping the whole hooked path apart keeps that reload off the path
    /// without hooks.
    #[inline(never)]
    pub(super) fn deactivate_hooked(&mut self, index: u32) {
        self.end_live(index);
        if let Some(index) = self.end_generation_or_relocate(index) {
            self.push_idle(index);
        }
    }

    /// Unlinks a live object and runs the release hook on it (the hooked paths
    /// and `renew`).
    #[inline(always)]
    pub(super) fn end_live(&mut self, index: u32) {
        self.unlink_live(index);
        self.live -= 1;
        if self.hooks.on_release.is_some() {
            self.run_release_hook(index);
        }
    }

    // Hooks run out of line: an indirect call in the fast path would make every
    // acquire and release save and restore registers, hook or no hook.
    //
    // Each runs under a guard that, if the hook unwinds, puts the pool back in a
    // consistent state before the panic leaves the pool (see "Panics in user
    // code" in the crate docs).
    #[inline(never)]
    pub(super) fn run_acquire_hook(&mut self, index: u32) {
        let undo = UndoActivation { pool: self, index };
        if let (Some(hook), Some(object)) = (
            &mut undo.pool.hooks.on_acquire,
            undo.pool.slots[index as usize].object_mut(),
        ) {
            hook(object);
        }
        core::mem::forget(undo);
    }

    #[inline(never)]
    pub(super) fn run_release_hook(&mut self, index: u32) {
        let destroy = DestroyUnreleased { pool: self, index };
        if let (Some(hook), Some(object)) = (
            &mut destroy.pool.hooks.on_release,
            destroy.pool.slots[index as usize].object_mut(),
        ) {
            hook(object);
        }
        core::mem::forget(destroy);
    }
}

/// Armed while an acquire hook runs. If the hook unwinds, the acquire never
/// happened: the object (not yet linked live) ends its generation and goes back on
/// top of the idle stack, and no handle to it exists.
struct UndoActivation<'a, T, P: ExhaustionPolicy<T>, K: Key> {
    pool: &'a mut Pool<T, P, K>,
    index: u32,
}

impl<T, P: ExhaustionPolicy<T>, K: Key> Drop for UndoActivation<'_, T, P, K> {
    fn drop(&mut self) {
        let pool = &mut *self.pool;
        if pool.end_generation(self.index) {
            pool.push_idle(self.index);
        } else if let Some(moved) = pool.relocate_retired(self.index) {
            pool.push_idle(moved);
        }
    }
}

/// Armed while a release hook runs on an object already unlinked from the live
/// list. If the hook unwinds, the object's state is unknown, so it is not handed
/// out again: it is destroyed (counted in `destroys`; its destroy hook is not run
/// during the unwind), its handle goes stale and its slot becomes vacant.
struct DestroyUnreleased<'a, T, P: ExhaustionPolicy<T>, K: Key> {
    pool: &'a mut Pool<T, P, K>,
    index: u32,
}

impl<T, P: ExhaustionPolicy<T>, K: Key> Drop for DestroyUnreleased<'_, T, P, K> {
    fn drop(&mut self) {
        let pool = &mut *self.pool;
        // The generation first: a slot emptied while live would break the
        // invariant the lookups rely on (`slot.rs`).
        let ended = pool.end_generation(self.index);
        let object = pool.slots[self.index as usize].take();
        if ended {
            pool.push_vacant(self.index);
        }
        if object.is_some() {
            pool.total -= 1;
            pool.stats.destroys += 1;
            pool.live_destroyed += 1;
        }
        drop(object);
    }
}
