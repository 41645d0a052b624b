//! The update: every clock advanced, ended one-shots back to their pools as
//! finished events, their follow-ups started.

use pool_core::{Handle, KindHandle, KindId, TimeError};

use super::culling::{end_caught_up, end_culled};
use super::{EffectHandle, Effects, Finished, FollowUp, remove_clock};
use crate::clock;
use crate::effect::{Effect, Look};
use crate::kind::Offscreen;

impl Effects {
    /// Advances every live effect by `dt` seconds (times its own time scale). The
    /// frame shown becomes `floor(elapsed / interval)`, skipping frames for a large
    /// `dt`; a one-shot whose last frame has been shown for its full interval goes
    /// back to its pool in this update, its handle goes stale, and it is listed in
    /// [`finished`](Self::finished) until the next update. O(live), no allocation.
    /// A `dt` longer than [`MAX_DURATION`](crate::MAX_DURATION)
    /// counts as that long (it ends every one-shot all the same).
    ///
    /// # Errors
    /// [`TimeError`] for a NaN, infinite or negative `dt`; no effect is touched.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 3, Duration::from_millis(100)))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// effects.update(0.25)?;
    /// assert_eq!(effects.get(spark).unwrap().frame(), 2);
    /// effects.update(0.05)?; // 0.3 s: the third frame has been shown for 0.1 s
    /// assert!(effects.get(spark).is_none());
    /// assert!(effects.update(f64::NAN).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn update(&mut self, dt: f64) -> Result<(), TimeError> {
        let dt = clock::step(dt)?;
        let global = self.time_scale;
        self.finished.clear();
        self.reserve_for_instances();
        let Self {
            pools,
            finished,
            ending,
            ended,
            ..
        } = self;
        for (kind, pool, entry) in pools.iter_with_data_mut() {
            let timing = entry.timing;
            // The global and the kind's scale, once per kind; each effect's own
            // scale applies in `advance`. Each scaling floors to the microsecond.
            let dt = clock::scaled_step(clock::scaled_step(dt, global), entry.time_scale);
            let follow_up = if entry.definition.follow_up.is_some() {
                // Resolved below, once no pool is borrowed.
                FollowUp::Undefined
            } else {
                FollowUp::None
            };
            entry.lane.time += u64::from(dt);
            if !entry.lane.parked.is_empty() {
                match entry.offscreen {
                    Offscreen::End => end_culled(entry, pool),
                    Offscreen::CatchUp => {
                        end_caught_up(entry, pool, kind, follow_up, ending);
                    }
                    Offscreen::Simulate | Offscreen::Pause => {}
                }
            }
            // The stream: advance every clock, note where one-shots ended.
            for (at, clock) in entry.lane.clocks.iter_mut().enumerate() {
                if clock.advance(dt, &timing) {
                    ended.push(at as u32);
                }
            }
            // From the last: the clock moved into a hole is never one that ended
            // (those above the hole are gone already).
            while let Some(at) = ended.pop() {
                let handle = entry.lane.handles[at as usize];
                let stopped = entry.lane.clocks[at as usize].is_stopped();
                remove_clock(&mut entry.lane, pool, at);
                if stopped {
                    // Stopped since the last update: already released.
                    continue;
                }
                if let Some(effect) = pool.get(handle) {
                    ending.push((
                        effect.spawn_order(),
                        finished_event(kind, handle, effect, follow_up),
                    ));
                }
                let _ = pool.release(handle);
            }
            entry.finished += ending.len() as u64;
            // Spawn order within the kind, as the clocks' order is not.
            ending.sort_unstable_by_key(|(order, _)| *order);
            finished.extend(ending.drain(..).map(|(_, done)| done));
        }
        self.spawn_follow_ups();
        Ok(())
    }

    /// Starts the follow-ups of the effects that ended in this update, in the
    /// order they ended. They start at time 0 and are not advanced in this
    /// update (so a chain advances one link per update, whatever its length).
    fn spawn_follow_ups(&mut self) {
        for at in 0..self.finished.len() {
            let done = &self.finished[at];
            if done.follow_up == FollowUp::None {
                continue;
            }
            let from = done.kind;
            let look = Look {
                position: done.position,
                rotation: done.rotation,
                scale: done.scale,
                tint: done.tint,
                tag: done.tag,
            };
            let follow_up = match self.entry(from).and_then(|entry| entry.follow_up) {
                None => FollowUp::Undefined,
                Some(next) => match self.spawn_follow_up(next, &look) {
                    Ok(handle) => FollowUp::Spawned(EffectHandle(KindHandle::new(next, handle))),
                    Err(error) => FollowUp::Refused(error),
                },
            };
            self.finished[at].follow_up = follow_up;
            if let Some((_, entry)) = self.pools.with_data_mut(from) {
                if matches!(follow_up, FollowUp::Spawned(_)) {
                    entry.follow_ups += 1;
                } else {
                    entry.follow_ups_refused += 1;
                }
            }
        }
    }

    /// Moves the finished list of the last update into `out` (cleared first) and
    /// leaves [`finished`](Self::finished) empty: for a game that spawns or stops
    /// effects while it reads them, which a loop over `finished()` cannot (it
    /// borrows the `Effects`). Allocation-free once `out` has grown: the two
    /// lists swap their storage.
    ///
    /// ```
    /// # use std::time::Duration;
    /// use pool_effects::{EffectKind, Effects};
    ///
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 1, Duration::from_millis(100)))?;
    /// let ring = effects.add_kind(EffectKind::new("ring", 4, Duration::from_millis(100)))?;
    /// effects.spawn(hit, [2.0, 0.0])?;
    /// effects.update(0.1)?;
    /// let mut done = Vec::new(); // kept by the game from frame to frame
    /// effects.take_finished(&mut done);
    /// for finished in &done {
    ///     effects.spawn(ring, finished.position)?; // the game's own chaining
    /// }
    /// assert_eq!(effects.live_count(), 1);
    /// assert!(effects.finished().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn take_finished(&mut self, out: &mut Vec<Finished>) {
        out.clear();
        core::mem::swap(out, &mut self.finished);
    }

    /// The one-shots that ended during the last [`update`](Self::update), in kind
    /// order then spawn order. Replaced by the next update.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 1, Duration::from_millis(100)))?;
    /// effects.spawn(hit, [0.0, 0.0])?;
    /// effects.update(0.1)?;
    /// assert_eq!(effects.finished().len(), 1);
    /// effects.update(0.1)?;
    /// assert!(effects.finished().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finished(&self) -> &[Finished] {
        &self.finished
    }
}

/// The finished event of an effect that ended.
#[inline]
pub(super) fn finished_event(
    kind: KindId,
    handle: Handle,
    effect: &Effect,
    follow_up: FollowUp,
) -> Finished {
    Finished {
        handle: EffectHandle(KindHandle::new(kind, handle)),
        kind,
        tag: effect.tag,
        position: effect.position,
        rotation: effect.rotation,
        scale: effect.scale,
        tint: effect.tint,
        follow_up,
    }
}
