//! Culling: the view, the effects parked outside it, and what their kinds do
//! off-screen (see the crate docs' "Culling").

use pool_core::{Handle, KindId, PolicyChoice, Pool};

use super::update::finished_event;
use super::{Effects, Finished, FollowUp, KindEntry, relane, remove_clock};
use crate::effect::Effect;
use crate::error::ViewError;
use crate::kind::{Offscreen, Timing};
use crate::lane::{Lane, NO_LANE, PARKED};
use crate::view::View;

impl Effects {
    /// Sets what is on screen (`None`: everything, the default), and sorts every
    /// live effect of the kinds that cull
    /// ([`EffectKind::offscreen`](crate::EffectKind::offscreen)) into on- and
    /// off-screen now: off-screen ones are parked (their clocks stop, and
    /// updates do not touch them), parked ones back in view run again (caught
    /// up, for [`Offscreen::CatchUp`]). The draw list holds only effects in the
    /// view. An effect's place is decided when it spawns and at each
    /// `set_view`; an effect the game moves keeps its place until the next
    /// `set_view`. A game with a moving camera calls this once a frame, before
    /// `update`: that costs a pass over the culling kinds' live effects,
    /// reading each one's position (see the crate docs' "Culling").
    ///
    /// # Errors
    /// [`ViewError`] for a corner that is NaN or infinite, or `min` above
    /// `max`; the view and every effect are unchanged.
    ///
    /// ```
    /// # use std::time::Duration;
    /// use pool_effects::{DrawList, EffectKind, Effects, Offscreen, View};
    ///
    /// let mut effects = Effects::new();
    /// let smoke = effects.add_kind(EffectKind::new("smoke", 10, Duration::from_millis(100)).offscreen(Offscreen::CatchUp))?;
    /// let near = effects.spawn(smoke, [10.0, 10.0])?;
    /// let far = effects.spawn(smoke, [900.0, 10.0])?;
    /// effects.set_view(View::new([0.0, 0.0], [320.0, 180.0]))?;
    /// effects.update(0.25)?;
    /// assert_eq!(DrawList::new().fill(&effects).len(), 1, "only the near one is drawn");
    /// assert_eq!(effects.get(far).unwrap().frame(), 0, "parked");
    /// effects.set_view(View::new([600.0, 0.0], [920.0, 180.0]))?; // the camera pans
    /// assert_eq!(effects.get(far).unwrap().frame(), 2, "caught up: 0.25 s in");
    /// assert_eq!(effects.get(near).unwrap().frame(), 2, "parked now, at the frame it had");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_view(&mut self, view: impl Into<Option<View>>) -> Result<(), ViewError> {
        let view = view.into().map(View::validate).transpose()?;
        self.view = view;
        for (_, pool, entry) in self.pools.iter_with_data_mut() {
            if entry.offscreen != Offscreen::Simulate {
                sort_into_view(entry, pool, view);
            }
        }
        Ok(())
    }

    /// What is on screen, as last set; `None`: everything.
    pub fn view(&self) -> Option<View> {
        self.view
    }
}

/// Parks the running effect of `handle`, whose clock is at `lane`, and notes
/// when a catching-up one-shot would end.
pub(super) fn park(
    entry: &mut KindEntry,
    pool: &mut Pool<Effect, PolicyChoice>,
    handle: Handle,
    lane: u32,
) {
    let (parked, moved) = entry.lane.park(lane);
    if let Some(effect) = pool.get_mut(handle) {
        effect.lane = parked;
    }
    relane(pool, moved);
    if entry.offscreen != Offscreen::CatchUp {
        return;
    }
    let at = (parked & !PARKED) as usize;
    let timing = entry.timing;
    if let Some(deadline) = entry.lane.parked[at].deadline(&timing) {
        entry
            .lane
            .note_deadline(deadline, handle, |deadline, handle, lane| {
                still_due(pool, lane, &timing, deadline, handle).is_some()
            });
    }
}

/// Where the parked clock of `handle` is, if it is parked and `deadline` is
/// still when it ends (it did not come back, end, or get parked again since).
fn still_due(
    pool: &Pool<Effect, PolicyChoice>,
    lane: &Lane,
    timing: &Timing,
    deadline: u64,
    handle: Handle,
) -> Option<u32> {
    let effect = pool.get(handle)?;
    let at = effect.lane;
    if at == NO_LANE || at & PARKED == 0 {
        return None;
    }
    let index = (at & !PARKED) as usize;
    (lane.parked_handles.get(index) == Some(&handle)
        && lane.parked[index].deadline(timing) == Some(deadline))
    .then_some(at)
}

/// Sorts one culling kind's live effects into running (in `view`) and parked.
fn sort_into_view(
    entry: &mut KindEntry,
    pool: &mut Pool<Effect, PolicyChoice>,
    view: Option<View>,
) {
    let radius = entry.cull_radius;
    let seen = |pool: &Pool<Effect, PolicyChoice>, handle: Handle| {
        view.is_none_or(|view| {
            pool.get(handle)
                .is_some_and(|effect| view.contains(effect.position, radius))
        })
    };
    let catch_up = entry.offscreen == Offscreen::CatchUp;
    let timing = entry.timing;
    // Parked ones in view run again, at the end of the running clocks...
    let mut at = 0;
    while at < entry.lane.parked.len() {
        let handle = entry.lane.parked_handles[at];
        if !seen(pool, handle) {
            at += 1;
            continue;
        }
        let (lane, moved) = entry.lane.unpark(at as u32 | PARKED, &timing, catch_up);
        if let Some(effect) = pool.get_mut(handle) {
            effect.lane = lane;
        }
        relane(pool, moved);
    }
    // ...where this pass finds them in view.
    let mut at = 0;
    while at < entry.lane.clocks.len() {
        let handle = entry.lane.handles[at];
        // A stopped clock stays where it is until the update takes it out.
        if entry.lane.clocks[at].is_stopped() || seen(pool, handle) {
            at += 1;
            continue;
        }
        park(entry, pool, handle, at as u32);
    }
}

/// Ends every parked effect of an [`Offscreen::End`] kind: released, no event.
pub(super) fn end_culled(entry: &mut KindEntry, pool: &mut Pool<Effect, PolicyChoice>) {
    for handle in entry.lane.parked_handles.drain(..) {
        if pool.release(handle).is_ok() {
            entry.culled += 1;
        }
    }
    entry.lane.parked.clear();
    entry.lane.deadlines.clear();
}

/// Ends the parked one-shots of an [`Offscreen::CatchUp`] kind whose end has
/// come in kind time, as the update would have had they run.
pub(super) fn end_caught_up(
    entry: &mut KindEntry,
    pool: &mut Pool<Effect, PolicyChoice>,
    kind: KindId,
    follow_up: FollowUp,
    ending: &mut Vec<(u64, Finished)>,
) {
    let timing = entry.timing;
    while let Some(&core::cmp::Reverse((deadline, handle))) = entry.lane.deadlines.peek() {
        if deadline > entry.lane.time {
            break;
        }
        entry.lane.deadlines.pop();
        let Some(at) = still_due(pool, &entry.lane, &timing, deadline, handle) else {
            continue;
        };
        remove_clock(&mut entry.lane, pool, at);
        if let Some(effect) = pool.get(handle) {
            ending.push((
                effect.spawn_order(),
                finished_event(kind, handle, effect, follow_up),
            ));
        }
        let _ = pool.release(handle);
        entry.ended_offscreen += 1;
    }
}
