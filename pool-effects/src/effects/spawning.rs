//! Starting effects (at a place, held back by an offset, by name, as a
//! follow-up) and stopping them.

use std::time::Duration;

use pool_core::{AcquireError, Handle, KindHandle, KindId, PolicyChoice, Pool, StaleHandle};

use super::culling::park;
use super::{EffectHandle, Effects, KindEntry, relane, remove_clock};
use crate::clock;
use crate::effect::{Effect, EffectMut, Look, Vec2};
use crate::error::SpawnError;
use crate::kind::Offscreen;
use crate::lane::PARKED;
use crate::view::View;

impl Effects {
    /// Starts an effect of `kind` at `at`, from the kind's pool: an idle instance,
    /// a new one below the cap, or (recycle-oldest kinds) the oldest live one, whose
    /// handle goes stale. O(1); no allocation once the pool has reached its size.
    ///
    /// # Errors
    /// [`SpawnError::BadPosition`] for a NaN or infinite coordinate,
    /// [`SpawnError::UnknownKind`], or [`SpawnError::PoolFull`] for a full strict
    /// kind; nothing changes then.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects, SpawnError};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))?;
    /// let spark = effects.spawn(hit, [3.0, 4.0])?;
    /// assert_eq!(effects.get(spark).unwrap().position.x, 3.0);
    /// let nowhere = effects.spawn(hit, [f32::NAN, 4.0]);
    /// assert!(matches!(nowhere, Err(SpawnError::BadPosition(_))));
    /// assert_eq!(effects.live_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn spawn(&mut self, kind: KindId, at: impl Into<Vec2>) -> Result<EffectHandle, SpawnError> {
        self.spawn_mut(kind, at).map(|(handle, _)| handle)
    }

    /// Like [`spawn`](Self::spawn), and lends the new effect so it can be set up
    /// (rotation, tint, tag) without a second lookup.
    ///
    /// # Errors
    /// The same as [`spawn`](Self::spawn).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))?;
    /// let (spark, mut effect) = effects.spawn_mut(hit, [3.0, 4.0])?;
    /// effect.tag = 17;
    /// assert_eq!(effects.get(spark).unwrap().tag, 17);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn spawn_mut(
        &mut self,
        kind: KindId,
        at: impl Into<Vec2>,
    ) -> Result<(EffectHandle, EffectMut<'_>), SpawnError> {
        self.spawn_held(kind, at.into(), 0)
    }

    /// A spawn held back by `hold` microseconds (at most `START`).
    #[inline(always)]
    fn spawn_held(
        &mut self,
        kind: KindId,
        at: Vec2,
        hold: u32,
    ) -> Result<(EffectHandle, EffectMut<'_>), SpawnError> {
        if !(at.x.is_finite() && at.y.is_finite()) {
            return Err(bad_position(at));
        }
        self.spawn_as(kind, &Look::at(at), hold)
    }

    /// The spawn every entry point ends in, a follow-up's included: an effect
    /// of `kind` that looks as `look` says, held back by `hold` microseconds.
    /// Where nothing is culled (no view, nothing parked), one lookup of the
    /// kind gives both its pool and its clocks, and no other clock moves;
    /// otherwise the spawn may park the new effect or move a parked clock, out
    /// of line.
    #[inline(always)]
    fn spawn_as(
        &mut self,
        kind: KindId,
        look: &Look,
        hold: u32,
    ) -> Result<(EffectHandle, EffectMut<'_>), SpawnError> {
        if self.culls(kind) {
            // Out of line, and given only the place (where it may park): the
            // look is applied here, so the fast path never stores it.
            let handle = self
                .spawn_culled(kind, look.position, hold)
                .map_err(|error| spawn_failed(kind, Some(error)))?;
            let handle = EffectHandle(KindHandle::new(kind, handle));
            let effect = self.get_mut(handle).ok_or(SpawnError::UnknownKind(kind))?;
            let order = effect.spawn_order();
            effect.effect.start_as(look, order);
            return Ok((handle, effect));
        }
        let Self {
            pools, next_spawn, ..
        } = self;
        let Some((pool, entry)) = pools.with_data_mut(kind) else {
            return Err(spawn_failed(kind, None));
        };
        let (handle, effect) = match pool.try_acquire_mut() {
            Ok(acquired) => acquired,
            Err(error) => return Err(spawn_failed(kind, Some(error))),
        };
        effect.start_as(look, *next_spawn);
        *next_spawn += 1;
        // Nothing parked: the recycled effect, if any, was running, and its
        // clock is the one restarted.
        let (clock, _) = entry.lane.start(&mut effect.lane, handle, &entry.timing);
        if hold > 0 {
            clock.hold(hold);
        }
        Ok((
            EffectHandle(KindHandle::new(kind, handle)),
            EffectMut { effect, clock },
        ))
    }

    /// Whether a spawn of `kind` may park its effect or move a parked clock:
    /// a view is set, or the kind has parked effects (one of which a full pool
    /// may recycle).
    #[inline(always)]
    fn culls(&self, kind: KindId) -> bool {
        self.view.is_some()
            || self
                .pools
                .with_data(kind)
                .is_some_and(|(_, entry)| !entry.lane.parked.is_empty())
    }

    /// The spawn where effects are culled: acquires, starts, fixes the clock
    /// that moved (a parked one a recycle took), and parks the new effect if
    /// it starts off-screen. Lends nothing.
    #[inline(never)]
    fn spawn_culled(&mut self, kind: KindId, at: Vec2, hold: u32) -> Result<Handle, AcquireError> {
        let Some((pool, entry)) = self.pools.with_data_mut(kind) else {
            return Err(AcquireError::Exhausted { max_objects: 0 });
        };
        let (handle, effect) = pool.try_acquire_mut()?;
        effect.start_as(&Look::at(at), self.next_spawn);
        self.next_spawn += 1;
        let mut lane = effect.lane;
        let (clock, moved) = entry.lane.start(&mut lane, handle, &entry.timing);
        clock.hold(hold);
        effect.lane = lane;
        relane(pool, moved);
        if parks(entry, self.view, at) {
            park(entry, pool, handle, lane);
        }
        Ok(handle)
    }

    /// Like [`spawn`](Self::spawn), for an effect that starts `offset` seconds
    /// into the coming [`update`](Self::update): that update advances it by
    /// `dt - offset` (by nothing if the offset is longer than `dt`; the rest
    /// holds it back in the updates after, showing its first frame). For
    /// several spawns in one frame at their own moments (the shots of a burst,
    /// the hits of a fast projectile) so they do not step in lock-step.
    ///
    /// # Errors
    /// [`SpawnError::BadOffset`] for an offset above
    /// [`MAX_SPAWN_OFFSET`](crate::MAX_SPAWN_OFFSET), before anything
    /// changes; otherwise as [`spawn`](Self::spawn).
    ///
    /// ```
    /// use std::time::Duration;
    /// use pool_effects::{EffectKind, Effects};
    ///
    /// let mut effects = Effects::new();
    /// let ms = Duration::from_millis;
    /// let flash = effects.add_kind(EffectKind::new("flash", 6, ms(10)))?;
    /// // Three shots within one 30 ms frame, 10 ms apart.
    /// let shots = [0, 10, 20].map(|offset| effects.spawn_offset(flash, [0.0, 0.0], ms(offset)).unwrap());
    /// effects.update(0.03)?;
    /// let frames = shots.map(|shot| effects.get(shot).unwrap().frame());
    /// assert_eq!(frames, [3, 2, 1]);
    /// assert!(effects.spawn_offset(flash, [0.0, 0.0], ms(2000)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn spawn_offset(
        &mut self,
        kind: KindId,
        at: impl Into<Vec2>,
        offset: Duration,
    ) -> Result<EffectHandle, SpawnError> {
        let micros = match clock::duration_micros(offset) {
            micros if micros <= clock::START => micros as u32,
            _ => return Err(SpawnError::BadOffset(offset)),
        };
        self.spawn_held(kind, at.into(), micros)
            .map(|(handle, _)| handle)
    }

    /// [`spawn`](Self::spawn) by name: a convenience for scripts and tools; games
    /// should resolve the name once with [`kind`](Self::kind).
    ///
    /// # Errors
    /// [`SpawnError::UnknownName`], or as [`spawn`](Self::spawn).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))?;
    /// assert!(effects.spawn_named("hit", [0.0, 0.0]).is_ok());
    /// assert!(effects.spawn_named("miss", [0.0, 0.0]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn spawn_named(
        &mut self,
        name: &str,
        at: impl Into<Vec2>,
    ) -> Result<EffectHandle, SpawnError> {
        let kind = self
            .kind(name)
            .ok_or_else(|| SpawnError::UnknownName(name.to_string()))?;
        self.spawn(kind, at)
    }

    /// Stops an effect now (loops end only this way); its handle goes stale.
    ///
    /// # Errors
    /// [`StaleHandle`] if it already ended.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let fire = effects.add_kind(EffectKind::new("fire", 8, Duration::from_millis(100)).looping())?;
    /// let burning = effects.spawn(fire, [0.0, 0.0])?;
    /// effects.stop(burning)?;
    /// assert!(effects.stop(burning).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn stop(&mut self, handle: EffectHandle) -> Result<(), StaleHandle> {
        let (pool, entry) = self.pools.with_data_mut(handle.kind()).ok_or(StaleHandle)?;
        let lane = pool.get(handle.0.handle()).ok_or(StaleHandle)?.lane;
        // Right after the lookup, so that the release's own check of the
        // handle is the lookup's, done once.
        pool.release(handle.0.handle())?;
        let clocks = &mut entry.lane;
        if lane & PARKED == 0 {
            clocks.bury(lane);
        } else {
            stop_parked(clocks, pool, lane);
        }
        Ok(())
    }

    /// Starts the follow-up of kind `kind` where and as `look` says (its place
    /// unchecked: it is where the effect it follows was).
    #[inline(always)]
    pub(super) fn spawn_follow_up(
        &mut self,
        kind: KindId,
        look: &Look,
    ) -> Result<Handle, AcquireError> {
        match self.spawn_as(kind, look, 0) {
            Ok((handle, _)) => Ok(handle.0.handle()),
            Err(SpawnError::PoolFull { error, .. }) => Err(error),
            Err(_) => Err(AcquireError::Exhausted { max_objects: 0 }),
        }
    }
}

/// Whether an effect of `entry`'s kind at `at` is parked: off-screen in a kind
/// that culls.
#[inline(always)]
fn parks(entry: &KindEntry, view: Option<View>, at: Vec2) -> bool {
    entry.offscreen != Offscreen::Simulate
        && view.is_some_and(|view| !view.contains(at, entry.cull_radius))
}

/// A parked effect's stop: its clock leaves the parked ones, out of line.
#[cold]
#[inline(never)]
fn stop_parked(clocks: &mut crate::lane::Lane, pool: &mut Pool<Effect, PolicyChoice>, lane: u32) {
    remove_clock(clocks, pool, lane);
}

/// The error of a spawn at a place that is not finite, out of line.
#[cold]
#[inline(never)]
fn bad_position(at: Vec2) -> SpawnError {
    SpawnError::BadPosition(at)
}

/// The error of a failed spawn, built out of line so the spawn path stays small.
#[cold]
#[inline(never)]
fn spawn_failed(kind: KindId, refused: Option<pool_core::AcquireError>) -> SpawnError {
    match refused {
        None => SpawnError::UnknownKind(kind),
        Some(error) => SpawnError::PoolFull { kind, error },
    }
}
