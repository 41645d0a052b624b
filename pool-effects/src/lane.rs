//! Where the clocks live: per kind, a dense array of the live effects' clocks
//! (see [`Clock`]), apart from their drawn data in the kind's pool, and beside it
//! the array of their handles. An update streams the clocks and reads a handle
//! only for an effect that ended. A clock's place is in its effect's `lane`
//! field, and the handle beside each clock names its effect, so either side
//! finds the other in O(1) and a stale `lane` (an idle effect's) is detected,
//! never followed.
//!
//! Off-screen effects of a kind that pauses them are parked: their clocks move
//! to a second pair of arrays that no update streams (`lane` then has
//! [`PARKED`] set). A kind that catches up also keeps, in a min-heap, the kind
//! time at which each parked one-shot would end.
//!
//! Removal moves the last clock into the hole: the arrays are in no particular
//! order, and whatever needs spawn order (the finished events, the draw list)
//! takes it from the pool's live list.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use pool_core::Handle;

use crate::clock;
use crate::effect::Clock;
use crate::kind::Timing;

/// The `lane` of an effect that has no clock (a fresh, idle instance).
pub(crate) const NO_LANE: u32 = u32::MAX;

/// Set in `lane` for a parked clock.
pub(crate) const PARKED: u32 = 1 << 31;

/// A parked clock: as it stopped, when (in kind time), and at what scale of its
/// own it was running then (the catch-up applies that scale).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Parked {
    pub(crate) clock: Clock,
    pub(crate) since: u64,
    pub(crate) scale: u32,
}

impl Parked {
    /// The kind time at which a parked one-shot ends, had it run on: the least
    /// `t` whose catch-up step `((t - since) * scale) >> 16` reaches its end.
    /// `None` for a loop or a stopped clock.
    pub(crate) fn deadline(&self, timing: &Timing) -> Option<u64> {
        if timing.looping || self.scale == 0 {
            return None;
        }
        let remaining =
            (timing.duration + clock::START).saturating_sub(u64::from(self.clock.elapsed));
        let wait = (remaining << 16).div_ceil(u64::from(self.scale));
        Some(self.since + wait)
    }

    /// The clock, caught up to kind time `now`.
    pub(crate) fn caught_up(mut self, now: u64, timing: &Timing) -> Clock {
        let step = (u128::from(now - self.since) * u128::from(self.scale)) >> 16;
        // A spawn offset not yet run out is consumed first.
        let hold = u128::from(clock::START_U32.saturating_sub(self.clock.elapsed));
        let step = if timing.looping && step > hold {
            // Whole cycles change nothing.
            (hold + (step - hold) % u128::from(timing.duration)) as u64
        } else if timing.looping {
            step as u64
        } else {
            // Past the end either way: a one-shot that reaches it ends in the
            // next update.
            step.min(u128::from(u32::MAX)) as u64
        };
        self.clock.advance_by(step, timing);
        self.clock
    }
}

/// One kind's clocks.
#[derive(Debug, Default)]
pub(crate) struct Lane {
    /// The clocks of every live effect that runs, advanced each update.
    pub(crate) clocks: Vec<Clock>,
    /// `handles[i]` is the effect of `clocks[i]`.
    pub(crate) handles: Vec<Handle>,
    /// Parked clocks and their handles.
    pub(crate) parked: Vec<Parked>,
    pub(crate) parked_handles: Vec<Handle>,
    /// The kind's own time: every update's step, at the global and the kind's
    /// scale, summed (microseconds).
    pub(crate) time: u64,
    /// When parked one-shots of a catching-up kind end: (kind time, handle).
    /// Entries of effects that came back or ended otherwise stay until they
    /// surface, and are skipped then.
    pub(crate) deadlines: BinaryHeap<Reverse<(u64, Handle)>>,
}

impl Lane {
    /// The clock at `lane`, if it is the clock of `handle`.
    #[inline]
    pub(crate) fn get(&self, lane: u32, handle: Handle) -> Option<&Clock> {
        let at = (lane & !PARKED) as usize;
        if lane & PARKED == 0 {
            if self.handles.get(at) == Some(&handle) {
                return self.clocks.get(at);
            }
        } else if self.parked_handles.get(at) == Some(&handle) {
            return self.parked.get(at).map(|parked| &parked.clock);
        }
        None
    }

    /// The clock at `lane`, mutably, if it is the clock of `handle`.
    #[inline]
    pub(crate) fn get_mut(&mut self, lane: u32, handle: Handle) -> Option<&mut Clock> {
        let at = (lane & !PARKED) as usize;
        if lane & PARKED == 0 {
            if self.handles.get(at) == Some(&handle) {
                return self.clocks.get_mut(at);
            }
        } else if self.parked_handles.get(at) == Some(&handle) {
            return self.parked.get_mut(at).map(|parked| &mut parked.clock);
        }
        None
    }

    /// The clock of `handle` at `lane` if it runs (is not parked): the clocks
    /// drawn.
    #[inline]
    pub(crate) fn running(&self, lane: u32, handle: Handle) -> Option<&Clock> {
        let at = lane as usize;
        if self.handles.get(at) == Some(&handle) {
            self.clocks.get(at)
        } else {
            None
        }
    }

    /// A fresh, running clock for the newly spawned effect of `handle`, whose
    /// `lane` is `lane` (updated in place): a recycled effect (the same slot,
    /// live until now) that was running keeps its place, any other gets a new
    /// one at the end. A recycled effect that was parked leaves the parked
    /// clocks: the handle of the parked clock moved into its place is returned
    /// with that place, for the caller to update that effect's `lane`.
    #[inline(always)]
    pub(crate) fn start(
        &mut self,
        lane: &mut u32,
        handle: Handle,
        timing: &Timing,
    ) -> (&mut Clock, Option<(Handle, u32)>) {
        let at = *lane as usize;
        let mut moved = None;
        match self.handles.get_mut(at) {
            // A recycled effect keeps its slot under a new generation.
            Some(owner) if owner.index() == handle.index() => {
                *owner = handle;
                let clock = &mut self.clocks[at];
                *clock = timing.start;
                return (clock, None);
            }
            _ => {}
        }
        if *lane != NO_LANE
            && *lane & PARKED != 0
            && self
                .parked_handles
                .get((*lane & !PARKED) as usize)
                .is_some_and(|owner| owner.index() == handle.index())
        {
            moved = self.remove(*lane).map(|other| (other, *lane));
        }
        *lane = self.clocks.len() as u32;
        self.handles.push(handle);
        self.clocks.push(timing.start);
        let last = self.clocks.len() - 1;
        (&mut self.clocks[last], moved)
    }

    /// Marks the running clock at `lane` (the caller checked it is live) as
    /// stopped, in place: the next update's stream takes it out. A stop then
    /// writes one clock, where removing it would move another clock and tell
    /// its effect, in cold memory. The stopped effect's `lane` still points
    /// here, so if its slot is handed out again first, the spawn reuses the
    /// place ([`Lane::start`] matches the slot).
    #[inline]
    pub(crate) fn bury(&mut self, lane: u32) {
        if let Some(clock) = self.clocks.get_mut(lane as usize) {
            *clock = Clock::STOPPED;
        }
    }

    /// Removes the clock at `lane` (running or parked; the caller checked it is
    /// live) by moving the last one of its array into its place; returns the
    /// moved clock's handle, whose effect's `lane` must become `lane`.
    #[inline]
    pub(crate) fn remove(&mut self, lane: u32) -> Option<Handle> {
        let at = (lane & !PARKED) as usize;
        if lane & PARKED == 0 {
            if at >= self.clocks.len() {
                return None;
            }
            self.clocks.swap_remove(at);
            self.handles.swap_remove(at);
            self.handles.get(at).copied()
        } else {
            if at >= self.parked.len() {
                return None;
            }
            self.parked.swap_remove(at);
            self.parked_handles.swap_remove(at);
            self.parked_handles.get(at).copied()
        }
    }

    /// Parks the running clock at `lane` (checked live) at the kind's time;
    /// returns its new `lane`, and the running clock moved into its place with
    /// that place. The caller notes a catching-up one-shot's deadline.
    pub(crate) fn park(&mut self, lane: u32) -> (u32, Option<(Handle, u32)>) {
        // Never move a stopped clock away from its effect's `lane`: take the
        // stopped ones off the end first (their slots get new places when
        // handed out again).
        while self.clocks.last().is_some_and(|clock| clock.is_stopped())
            && self.clocks.len() > lane as usize + 1
        {
            self.clocks.pop();
            self.handles.pop();
        }
        let at = lane as usize;
        let clock = self.clocks[at];
        let handle = self.handles[at];
        let moved = self.remove(lane).map(|other| (other, lane));
        let parked = Parked {
            clock,
            since: self.time,
            scale: clock.time_scale,
        };
        self.parked.push(parked);
        self.parked_handles.push(handle);
        ((self.parked.len() - 1) as u32 | PARKED, moved)
    }

    /// Runs the parked clock at `lane` (checked live) again, caught up to now
    /// if `catch_up`; returns its new `lane`, and the parked clock moved into
    /// its place with that place.
    pub(crate) fn unpark(
        &mut self,
        lane: u32,
        timing: &Timing,
        catch_up: bool,
    ) -> (u32, Option<(Handle, u32)>) {
        let at = (lane & !PARKED) as usize;
        let parked = self.parked[at];
        let handle = self.parked_handles[at];
        let moved = self.remove(lane).map(|other| (other, lane));
        let mut clock = if catch_up {
            parked.caught_up(self.time, timing)
        } else {
            parked.clock
        };
        // The scale the game set while it was parked applies from now.
        clock.time_scale = parked.clock.time_scale;
        self.clocks.push(clock);
        self.handles.push(handle);
        ((self.clocks.len() - 1) as u32, moved)
    }

    /// Notes a deadline; when the heap is at its capacity, first drops the
    /// entries that `valid` says no parked clock stands behind, so it grows
    /// only with the parked clocks, never with the entries that went stale.
    pub(crate) fn note_deadline(
        &mut self,
        deadline: u64,
        handle: Handle,
        valid: impl Fn(u64, Handle, &Lane) -> bool,
    ) {
        if self.deadlines.len() == self.deadlines.capacity() {
            let mut heap = core::mem::take(&mut self.deadlines);
            heap.retain(|Reverse((deadline, handle))| valid(*deadline, *handle, self));
            self.deadlines = heap;
        }
        self.deadlines.push(Reverse((deadline, handle)));
    }

    /// Room for `instances` clocks, so spawns do not reallocate.
    pub(crate) fn reserve(&mut self, instances: usize) {
        fn room<T>(v: &mut Vec<T>, n: usize) {
            if v.capacity() < n {
                v.reserve(n - v.len());
            }
        }
        room(&mut self.clocks, instances);
        room(&mut self.handles, instances);
        room(&mut self.parked, instances);
        room(&mut self.parked_handles, instances);
        if self.deadlines.capacity() < instances + 1 {
            self.deadlines.reserve(instances + 1 - self.deadlines.len());
        }
    }

    /// No live effect (the pool was cleared or reinitialized).
    pub(crate) fn clear(&mut self) {
        self.clocks.clear();
        self.handles.clear();
        self.parked.clear();
        self.parked_handles.clear();
        self.deadlines.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parked_one_shot_is_due_at_the_first_moment_its_catch_up_reaches_its_end() {
        let timing = Timing::new(100, 3, false);
        let end = (timing.duration + clock::START) as u32;
        for scale in [1, 3, 7_777, 32_768, 65_536, 98_304, 1 << 20] {
            for hold in [0, 1, 50] {
                let mut clock = Clock::new(&timing);
                clock.hold(hold);
                let parked = Parked {
                    clock,
                    since: 10,
                    scale,
                };
                let due = parked.deadline(&timing).unwrap();
                assert_eq!(
                    parked.caught_up(due, &timing).elapsed,
                    end,
                    "{scale} {hold}"
                );
                assert!(
                    parked.caught_up(due - 1, &timing).elapsed < end,
                    "{scale} {hold}: one microsecond early"
                );
            }
        }
        let paused = Parked {
            clock: Clock::new(&timing),
            since: 0,
            scale: 0,
        };
        assert_eq!(paused.deadline(&timing), None, "a stopped clock never ends");
    }
}
