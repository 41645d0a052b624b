//! Where the clocks live: per kind, a dense array of the live effects' clocks
//! (see [`Clock`]), apart from their drawn data in the kind's pool, and beside it
//! the array of their handles. An update streams the clocks and reads a handle
//! only for an effect that ended. A clock's place is in its effect's `lane`
//! field, and the handle beside each clock names its effect, so either side
//! finds the other in O(1) and a stale `lane` (an idle effect's) is detected,
//! never followed.
//!
//! Removal moves the last clock into the hole: the arrays are in no particular
//! order, and whatever needs spawn order (the finished events, the draw list)
//! takes it from the pool's live list.

use pool_core::Handle;
use slotmap::Key;

use crate::effect::Clock;
use crate::kind::Timing;

/// The `lane` of an effect that has no clock (a fresh, idle instance).
pub(crate) const NO_LANE: u32 = u32::MAX;

/// The slot index within a handle, which a recycled effect keeps under a new
/// generation.
#[inline]
fn slot(handle: Handle) -> u32 {
    handle.data().as_ffi() as u32
}

/// One kind's clocks.
#[derive(Debug, Default)]
pub(crate) struct Lane {
    /// The clocks of every live effect, advanced each update.
    pub(crate) clocks: Vec<Clock>,
    /// `handles[i]` is the effect of `clocks[i]`.
    pub(crate) handles: Vec<Handle>,
}

impl Lane {
    /// The clock at `lane`, if it is the clock of `handle`.
    #[inline]
    pub(crate) fn get(&self, lane: u32, handle: Handle) -> Option<&Clock> {
        let at = lane as usize;
        if self.handles.get(at) == Some(&handle) {
            self.clocks.get(at)
        } else {
            None
        }
    }

    /// The clock at `lane`, mutably, if it is the clock of `handle`.
    #[inline]
    pub(crate) fn get_mut(&mut self, lane: u32, handle: Handle) -> Option<&mut Clock> {
        let at = lane as usize;
        if self.handles.get(at) == Some(&handle) {
            self.clocks.get_mut(at)
        } else {
            None
        }
    }

    /// A fresh clock for the newly spawned effect of `handle`, whose `lane` is
    /// `lane` (updated in place): a recycled effect (the same slot, live until
    /// now) keeps its place, any other gets a new one at the end.
    #[inline]
    pub(crate) fn start(&mut self, lane: &mut u32, handle: Handle, timing: &Timing) -> &mut Clock {
        let at = *lane as usize;
        match self.handles.get_mut(at) {
            Some(owner) if slot(*owner) == slot(handle) => {
                *owner = handle;
                let clock = &mut self.clocks[at];
                *clock = Clock::new(timing);
                clock
            }
            _ => {
                *lane = self.clocks.len() as u32;
                self.handles.push(handle);
                self.clocks.push(Clock::new(timing));
                let last = self.clocks.len() - 1;
                &mut self.clocks[last]
            }
        }
    }

    /// Removes the clock at `lane` (the caller checked it is live) by moving the
    /// last one into its place; returns the moved clock's handle, whose effect's
    /// `lane` must become `lane`.
    #[inline]
    pub(crate) fn remove(&mut self, lane: u32) -> Option<Handle> {
        let at = lane as usize;
        if at >= self.clocks.len() {
            return None;
        }
        self.clocks.swap_remove(at);
        self.handles.swap_remove(at);
        self.handles.get(at).copied()
    }

    /// Room for `instances` clocks, so spawns do not reallocate.
    pub(crate) fn reserve(&mut self, instances: usize) {
        if self.clocks.capacity() < instances {
            self.clocks.reserve(instances - self.clocks.len());
        }
        if self.handles.capacity() < instances {
            self.handles.reserve(instances - self.handles.len());
        }
    }

    /// No live effect (the pool was cleared or reinitialized).
    pub(crate) fn clear(&mut self) {
        self.clocks.clear();
        self.handles.clear();
    }
}
