//! The effect manager: one pool per kind, the clock, finished events. The draw
//! list that reads it is in `draw.rs`.

use pool_core::{
    AcquireError, AddKindError as PoolAddKindError, Handle, KeyedPool, KindHandle, KindId,
    PolicyChoice, Pool, PoolStats, StaleHandle, TimeError,
};

use crate::clock;
use crate::effect::{Effect, EffectMut, EffectRef, Look, Rgba, Vec2};
use crate::error::{AddKindError, KindScaleError, SpawnError, ViewError};
use crate::kind::{EffectKind, Offscreen, Playback, Timing};
use crate::lane::{Lane, NO_LANE, PARKED};
use crate::view::View;

/// A handle to a live effect: its kind and a generational handle in the kind's
/// pool. `Copy`, 12 bytes. Stale once the effect finished, was stopped, recycled or
/// cleared.
///
/// ```
/// use pool_effects::{EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1))?;
/// let spark = effects.spawn(hit, [0.0, 0.0])?;
/// assert_eq!(spark.kind(), hit);
/// effects.update(0.2)?; // two frames of 0.1 s: done
/// assert!(effects.get(spark).is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EffectHandle(KindHandle<Handle>);

impl EffectHandle {
    pub(crate) fn from_parts(handle: KindHandle<Handle>) -> Self {
        Self(handle)
    }

    /// The effect's kind.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// # let mut effects = Effects::new();
    /// # let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1))?;
    /// assert_eq!(effects.spawn(hit, [0.0, 0.0])?.kind(), hit);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn kind(&self) -> KindId {
        self.0.kind()
    }
}

/// A one-shot effect that ended during the last [`Effects::update`]: a queued
/// message the game reads after the update, instead of a callback from inside it
/// (which could not touch `Effects` while the update holds it).
///
/// ```
/// use pool_effects::{EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let boom = effects.add_kind(EffectKind::new("boom", 3, 0.1))?;
/// let handle = effects.spawn(boom, [5.0, 5.0])?;
/// effects.update(0.3)?;
/// let done = &effects.finished()[0];
/// assert_eq!((done.handle, done.kind), (handle, boom));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Finished {
    /// The effect's (now stale) handle.
    pub handle: EffectHandle,
    /// Its kind.
    pub kind: KindId,
    /// Its tag, to find the game entity it belonged to.
    pub tag: u64,
    /// Where it was.
    pub position: Vec2,
    /// Its rotation, radians.
    pub rotation: f32,
    /// Its scale.
    pub scale: Vec2,
    /// Its tint.
    pub tint: Rgba,
    /// What its kind's [follow-up](EffectKind::follow_up) did.
    pub follow_up: FollowUp,
}

/// What followed an effect that ended: see [`EffectKind::follow_up`].
///
/// ```
/// use pool_effects::{EffectKind, Effects, FollowUp};
///
/// let mut effects = Effects::new();
/// let flash = effects.add_kind(EffectKind::new("flash", 1, 0.05).follow_up("spark"))?;
/// effects.add_kind(EffectKind::new("spark", 2, 0.05).pool(0, 1).strict())?;
/// effects.spawn(flash, [0.0, 0.0])?;
/// effects.spawn(flash, [1.0, 0.0])?;
/// effects.update(0.05)?;
/// // One spark fits its strict pool of 1; the second is refused, and counted.
/// assert!(matches!(effects.finished()[0].follow_up, FollowUp::Spawned(_)));
/// assert!(matches!(effects.finished()[1].follow_up, FollowUp::Refused(_)));
/// assert_eq!(effects.stats(flash).unwrap().follow_ups_refused, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FollowUp {
    /// The kind has no follow-up.
    None,
    /// The follow-up started: its handle.
    Spawned(EffectHandle),
    /// The follow-up kind's pool refused (a strict kind at its cap).
    Refused(AcquireError),
    /// No kind of the follow-up's name has been added.
    Undefined,
}

/// Per-kind numbers for a profiler overlay: the pool's own statistics and the
/// effect counters.
///
/// ```
/// use pool_effects::{EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1).pool(10, 10))?;
/// effects.spawn(hit, [0.0, 0.0])?;
/// let stats = effects.stats(hit).unwrap();
/// assert_eq!((stats.spawns, stats.pool.live, stats.pool.idle), (1, 1, 9));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct KindStats {
    /// The kind's pool: live, idle, peaks, creates, recycles, refusals...
    pub pool: PoolStats,
    /// Effects spawned.
    pub spawns: u64,
    /// One-shots that ended on their own.
    pub finished: u64,
    /// Effects stopped by [`Effects::stop`].
    pub stopped: u64,
    /// Follow-ups started where this kind's effects ended.
    pub follow_ups: u64,
    /// Follow-ups refused (a full strict kind) or undefined (no kind of that name).
    pub follow_ups_refused: u64,
    /// Live effects off-screen and parked now: paused or catching up (their
    /// clocks cost an update nothing), or about to end ([`Offscreen::End`]).
    pub offscreen: usize,
    /// Effects ended because they were off-screen ([`Offscreen::End`]).
    pub culled: u64,
    /// One-shots that ended while off-screen and catching up
    /// ([`Offscreen::CatchUp`]); counted in `finished` too.
    pub ended_offscreen: u64,
}

/// What `Effects` keeps per kind besides its pool. Spawns and stops are not
/// counted here: they are the pool's acquires and releases, so the hot paths touch
/// only the pool.
struct KindEntry {
    definition: EffectKind,
    timing: Timing,
    finished: u64,
    /// Live effects ended by `reinitialize` (pool releases that were not stops).
    reinitialized: u64,
    /// `definition.follow_up`, once a kind of that name exists.
    follow_up: Option<KindId>,
    /// The kind's time scale, 16.16 fixed point.
    time_scale: u32,
    follow_ups: u64,
    follow_ups_refused: u64,
    /// The clocks of the kind's live effects.
    lane: Lane,
    culled: u64,
    ended_offscreen: u64,
    /// `definition.offscreen` and `definition.cull_radius`, at hand.
    offscreen: Offscreen,
    cull_radius: f32,
}

/// Pooled sprite-animation effects, one pool per kind.
///
/// Add kinds once; then every frame `spawn` effects, call [`update`](Self::update)
/// once, read [`finished`](Self::finished), and draw what a
/// [`DrawList`](crate::DrawList) collects.
/// None of these allocate once the pools have reached their size. See the
/// [crate docs](crate) for a game loop.
pub struct Effects {
    pools: KeyedPool<Effect, PolicyChoice>,
    kinds: Vec<KindEntry>,
    finished: Vec<Finished>,
    /// One kind's ended effects in an update, with their spawn order, sorted
    /// before they join `finished` (the clocks are in no particular order).
    ending: Vec<(u64, Finished)>,
    /// Where clocks ended in one kind's stream, in an update.
    ended: Vec<u32>,
    /// Kinds sorted by layer, then the order they were added.
    draw_order: Vec<KindId>,
    next_spawn: u64,
    /// The global time scale, 16.16 fixed point.
    time_scale: u32,
    /// What is on screen; `None`: everything.
    view: Option<View>,
}

impl Default for Effects {
    fn default() -> Self {
        Self::new()
    }
}

impl Effects {
    /// No kinds yet.
    ///
    /// ```
    /// # use pool_effects::Effects;
    /// let effects = Effects::new();
    /// assert_eq!(effects.live_count(), 0);
    /// ```
    pub fn new() -> Self {
        Self {
            pools: KeyedPool::new(),
            kinds: Vec::new(),
            finished: Vec::new(),
            ending: Vec::new(),
            ended: Vec::new(),
            draw_order: Vec::new(),
            next_spawn: 0,
            time_scale: clock::SCALE_ONE,
            view: None,
        }
    }

    /// Adds a kind and creates its `initial` instances now.
    ///
    /// # Errors
    /// [`AddKindError`] for a duplicate name, no frames, an interval that is not a
    /// finite number of seconds above 0, or invalid pool sizes. Nothing is added
    /// then.
    ///
    /// ```
    /// use pool_effects::{EffectKind, Effects};
    ///
    /// let mut effects = Effects::new();
    /// let explosion = effects.add_kind(EffectKind::new("explosion", 12, 1.0 / 30.0).pool(1000, 1000))?;
    /// assert_eq!(effects.stats(explosion).unwrap().pool.idle, 1000);
    /// assert!(effects.add_kind(EffectKind::new("explosion", 1, 0.1)).is_err());
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn add_kind(&mut self, kind: EffectKind) -> Result<KindId, AddKindError> {
        self.insert(kind, true)
    }

    /// Like [`add_kind`](Self::add_kind) but creates no instance yet: spread the
    /// `initial` instances over frames with [`prewarm_step`](Self::prewarm_step).
    ///
    /// # Errors
    /// The same as [`add_kind`](Self::add_kind).
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let smoke = effects.add_kind_lazy(EffectKind::new("smoke", 8, 0.1).pool(1000, 1000))?;
    /// assert_eq!(effects.stats(smoke).unwrap().pool.total, 0);
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn add_kind_lazy(&mut self, kind: EffectKind) -> Result<KindId, AddKindError> {
        self.insert(kind, false)
    }

    fn insert(&mut self, kind: EffectKind, prewarm: bool) -> Result<KindId, AddKindError> {
        let timing = validate(&kind)?;
        let time_scale =
            clock::fixed_scale(kind.time_scale).map_err(|_| AddKindError::BadTimeScale {
                name: kind.name.clone(),
                scale: kind.time_scale,
            })?;
        if !(kind.cull_radius.is_finite() && kind.cull_radius >= 0.0) {
            return Err(AddKindError::BadCullRadius {
                name: kind.name.clone(),
                radius: kind.cull_radius,
            });
        }
        if self.pools.kind(&kind.name).is_some() {
            return Err(AddKindError::DuplicateName(kind.name));
        }
        let builder = Pool::builder(Effect::idle)
            .initial(kind.initial)
            .max_objects(kind.max_objects)
            .policy(kind.policy);
        let added = if prewarm {
            self.pools.add_kind(&kind.name, builder)
        } else {
            self.pools.add_kind_lazy(&kind.name, builder)
        };
        let id = added.map_err(|error| registry_error(&kind.name, error))?;
        // Resolve chains both ways: this kind's follow-up, and the kinds whose
        // follow-up is this kind.
        let follow_up = kind
            .follow_up
            .as_deref()
            .and_then(|name| self.pools.kind(name));
        for entry in &mut self.kinds {
            if entry.definition.follow_up.as_deref() == Some(kind.name.as_str()) {
                entry.follow_up = Some(id);
            }
        }
        self.kinds.push(KindEntry {
            timing,
            finished: 0,
            reinitialized: 0,
            follow_up,
            time_scale,
            follow_ups: 0,
            follow_ups_refused: 0,
            lane: Lane::default(),
            culled: 0,
            ended_offscreen: 0,
            offscreen: kind.offscreen,
            cull_radius: kind.cull_radius,
            definition: kind,
        });
        self.reserve_for_instances();
        self.draw_order.push(id);
        let kinds = &self.kinds;
        self.draw_order
            .sort_by_key(|kind| (kinds[kind.index()].definition.layer, kind.index()));
        Ok(id)
    }

    /// Room in the finished list for every instance that exists (live or idle): it
    /// never holds more entries than that, so no push reallocates. Memory follows the instances that exist, not the caps: a cap
    /// is a ceiling, not an allocation. O(kinds).
    fn reserve_for_instances(&mut self) {
        let instances = self.instances();
        // `reserve` counts from `len` and grows at least twofold: amortized O(1).
        if self.finished.capacity() < instances {
            self.finished.reserve(instances - self.finished.len());
        }
        for ((_, pool), entry) in self.pools.iter().zip(&mut self.kinds) {
            let total = pool.stats().total;
            entry.lane.reserve(total);
            if self.ending.capacity() < total {
                self.ending.reserve(total - self.ending.len());
            }
            if self.ended.capacity() < total {
                self.ended.reserve(total - self.ended.len());
            }
        }
    }

    /// The id of the kind named `name`. Resolve once, keep the id.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1))?;
    /// assert_eq!(effects.kind("hit"), Some(hit));
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn kind(&self, name: &str) -> Option<KindId> {
        self.pools.kind(name)
    }

    /// The name a kind was added under (`None` for another `Effects`' id).
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1))?;
    /// assert_eq!(effects.name(hit), Some("hit"));
    /// assert_eq!(Effects::new().name(hit), None);
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn name(&self, kind: KindId) -> Option<&str> {
        self.pools.name(kind)
    }

    /// The definition of a kind.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1))?;
    /// assert_eq!(effects.definition(hit).unwrap().name, "hit");
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn definition(&self, kind: KindId) -> Option<&EffectKind> {
        self.entry(kind).map(|entry| &entry.definition)
    }

    /// A kind's entry, if this `Effects` defined it (ids know their issuer).
    fn entry(&self, kind: KindId) -> Option<&KindEntry> {
        if self.pools.contains_kind(kind) {
            self.kinds.get(kind.index())
        } else {
            None
        }
    }

    /// Every defined kind, in definition order.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let a = effects.add_kind(EffectKind::new("a", 2, 0.1))?;
    /// let b = effects.add_kind(EffectKind::new("b", 2, 0.1))?;
    /// assert!(effects.kinds().eq([a, b]));
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn kinds(&self) -> impl ExactSizeIterator<Item = KindId> + '_ {
        self.pools.kinds()
    }

    /// Starts an effect of `kind` at `at`, from the kind's pool: an idle instance,
    /// a new one below the cap, or (recycle-oldest kinds) the oldest live one, whose
    /// handle goes stale. O(1); no allocation once the pool has reached its size.
    ///
    /// # Errors
    /// [`SpawnError::UnknownKind`], or [`SpawnError::PoolFull`] for a full strict kind.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1))?;
    /// let spark = effects.spawn(hit, [3.0, 4.0])?;
    /// assert_eq!(effects.get(spark).unwrap().position.x, 3.0);
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
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1))?;
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
        let Some(pool) = self.pools.pool(kind) else {
            return Err(spawn_failed(kind, None));
        };
        // The pool issued the kind: its entry exists.
        let entry = &self.kinds[kind.index()];
        if self.settles(entry, pool, at) {
            let handle = self
                .spawn_settled(kind, at, hold)
                .map_err(|error| spawn_failed(kind, Some(error)))?;
            let handle = EffectHandle(KindHandle::new(kind, handle));
            let effect = self.get_mut(handle).ok_or(SpawnError::UnknownKind(kind))?;
            return Ok((handle, effect));
        }
        let Some(pool) = self.pools.pool_mut(kind) else {
            return Err(spawn_failed(kind, None));
        };
        let (handle, effect) = match pool.try_acquire_mut() {
            Ok(acquired) => acquired,
            Err(error) => return Err(spawn_failed(kind, Some(error))),
        };
        effect.start(at, self.next_spawn);
        self.next_spawn += 1;
        let entry = &mut self.kinds[kind.index()];
        // Not parked, and not recycling a parked effect: no other effect moves.
        let (clock, _) = entry.lane.start(&mut effect.lane, handle, &entry.timing);
        if hold > 0 {
            clock.hold(hold);
        }
        Ok((
            EffectHandle(KindHandle::new(kind, handle)),
            EffectMut { effect, clock },
        ))
    }

    /// Whether a spawn of `entry`'s kind at `at` takes the slow path: it is
    /// parked as it starts (off-screen, in a kind that culls), or the pool is
    /// full and would recycle its oldest effect, which is parked (its clock
    /// leaves the parked ones, and another parked clock moves).
    #[inline(always)]
    fn settles(&self, entry: &KindEntry, pool: &Pool<Effect, PolicyChoice>, at: Vec2) -> bool {
        if entry.lane.parked.is_empty() && self.view.is_none() {
            return false;
        }
        parks(entry, self.view, at)
            || (!entry.lane.parked.is_empty()
                && pool.live_count() == pool.max_objects()
                && pool
                    .oldest()
                    .and_then(|oldest| pool.get(oldest))
                    .is_some_and(|victim| victim.lane != NO_LANE && victim.lane & PARKED != 0))
    }

    /// The slow spawn: acquires, starts, fixes the clock that moved, and parks
    /// the new effect if it starts off-screen. Lends nothing.
    #[inline(never)]
    fn spawn_settled(&mut self, kind: KindId, at: Vec2, hold: u32) -> Result<Handle, AcquireError> {
        let Some(pool) = self.pools.pool_mut(kind) else {
            return Err(AcquireError::Exhausted { max_objects: 0 });
        };
        let (handle, effect) = pool.try_acquire_mut()?;
        effect.start(at, self.next_spawn);
        self.next_spawn += 1;
        let entry = &mut self.kinds[kind.index()];
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
    /// [`SpawnError::BadOffset`] for an offset that is NaN, infinite, negative
    /// or above [`MAX_SPAWN_OFFSET_SECONDS`](crate::MAX_SPAWN_OFFSET_SECONDS),
    /// before anything changes; otherwise as [`spawn`](Self::spawn).
    ///
    /// ```
    /// use pool_effects::{EffectKind, Effects};
    ///
    /// let mut effects = Effects::new();
    /// let flash = effects.add_kind(EffectKind::new("flash", 6, 0.01))?;
    /// // Three shots within one 30 ms frame, 10 ms apart.
    /// let shots = [0.0, 0.01, 0.02].map(|offset| effects.spawn_offset(flash, [0.0, 0.0], offset).unwrap());
    /// effects.update(0.03)?;
    /// let frames = shots.map(|shot| effects.get(shot).unwrap().frame());
    /// assert_eq!(frames, [3, 2, 1]);
    /// assert!(effects.spawn_offset(flash, [0.0, 0.0], f64::NAN).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn spawn_offset(
        &mut self,
        kind: KindId,
        at: impl Into<Vec2>,
        offset: f64,
    ) -> Result<EffectHandle, SpawnError> {
        let micros = match pool_core::seconds_to_micros(offset) {
            Ok(micros) if micros <= clock::START => micros as u32,
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
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// effects.add_kind(EffectKind::new("hit", 2, 0.1))?;
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
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let fire = effects.add_kind(EffectKind::new("fire", 8, 0.1).looping())?;
    /// let burning = effects.spawn(fire, [0.0, 0.0])?;
    /// effects.stop(burning)?;
    /// assert!(effects.stop(burning).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn stop(&mut self, handle: EffectHandle) -> Result<(), StaleHandle> {
        let pool = self.pools.pool_mut(handle.kind()).ok_or(StaleHandle)?;
        let lane = pool.get(handle.0.handle()).ok_or(StaleHandle)?.lane;
        let clocks = &mut self.kinds[handle.kind().index()].lane;
        if lane & PARKED == 0 {
            clocks.bury(lane);
        } else {
            remove_clock(clocks, pool, lane);
        }
        pool.release(handle.0.handle())
    }

    /// `true` while the effect of `handle` is live: spawned and not yet finished,
    /// stopped, recycled or cleared.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// assert!(effects.contains(spark));
    /// effects.update(0.2)?;
    /// assert!(!effects.contains(spark));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn contains(&self, handle: EffectHandle) -> bool {
        self.pools.contains(handle.0)
    }

    /// The live effect of `handle`, or `None` if it ended.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// assert!(effects.get(spark).is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get(&self, handle: EffectHandle) -> Option<EffectRef<'_>> {
        let effect = self.pools.get(handle.0)?;
        let clock = self.kinds[handle.kind().index()]
            .lane
            .get(effect.lane, handle.0.handle())?;
        Some(EffectRef { effect, clock })
    }

    /// The live effect of `handle`, mutably: move it, tint it, tag it.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// effects.get_mut(spark).unwrap().position.x += 1.0;
    /// assert_eq!(effects.get(spark).unwrap().position.x, 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get_mut(&mut self, handle: EffectHandle) -> Option<EffectMut<'_>> {
        let effect = self.pools.get_mut(handle.0)?;
        let clock = self.kinds[handle.kind().index()]
            .lane
            .get_mut(effect.lane, handle.0.handle())?;
        Some(EffectMut { effect, clock })
    }

    /// Advances every live effect by `dt` seconds (times its own time scale). The
    /// frame shown becomes `floor(elapsed / interval)`, skipping frames for a large
    /// `dt`; a one-shot whose last frame has been shown for its full interval goes
    /// back to its pool in this update, its handle goes stale, and it is listed in
    /// [`finished`](Self::finished) until the next update. O(live), no allocation.
    /// A `dt` longer than [`MAX_DURATION_SECONDS`](crate::MAX_DURATION_SECONDS)
    /// counts as that long (it ends every one-shot all the same).
    ///
    /// # Errors
    /// [`TimeError`] for a NaN, infinite or negative `dt`; no effect is touched.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 3, 0.1))?;
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
            kinds,
            finished,
            ending,
            ended,
            ..
        } = self;
        for ((kind, pool), entry) in pools.iter_mut().zip(kinds.iter_mut()) {
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
            let from = done.kind.index();
            let look = Look {
                position: done.position,
                rotation: done.rotation,
                scale: done.scale,
                tint: done.tint,
                tag: done.tag,
            };
            let follow_up = match self.kinds[from].follow_up {
                None => FollowUp::Undefined,
                Some(next) => match self.spawn_follow_up(next, &look) {
                    Ok(handle) => FollowUp::Spawned(EffectHandle(KindHandle::new(next, handle))),
                    Err(error) => FollowUp::Refused(error),
                },
            };
            self.finished[at].follow_up = follow_up;
            let entry = &mut self.kinds[from];
            if matches!(follow_up, FollowUp::Spawned(_)) {
                entry.follow_ups += 1;
            } else {
                entry.follow_ups_refused += 1;
            }
        }
    }

    /// Starts the follow-up of kind `kind` where and as `look` says.
    #[inline(always)]
    fn spawn_follow_up(&mut self, kind: KindId, look: &Look) -> Result<Handle, AcquireError> {
        let unknown = AcquireError::Exhausted { max_objects: 0 };
        let pool = self.pools.pool(kind).ok_or(unknown)?;
        let entry = &self.kinds[kind.index()];
        if self.settles(entry, pool, look.position) {
            let handle = self.spawn_settled(kind, look.position, 0)?;
            if let Some(effect) = self
                .pools
                .pool_mut(kind)
                .and_then(|pool| pool.get_mut(handle))
            {
                let order = effect.spawn_order();
                effect.start_as(look, order);
            }
            return Ok(handle);
        }
        let pool = self.pools.pool_mut(kind).ok_or(unknown)?;
        let (handle, effect) = pool.try_acquire_mut()?;
        effect.start_as(look, self.next_spawn);
        self.next_spawn += 1;
        let entry = &mut self.kinds[kind.index()];
        entry.lane.start(&mut effect.lane, handle, &entry.timing);
        Ok(handle)
    }

    /// How fast every effect runs (1 by default; 0 pauses them all: a pause
    /// menu, a hit-stop; 0.25 is slow motion). It multiplies each kind's scale
    /// ([`EffectKind::time_scale`]) and each effect's own. Kept to 1/65536.
    ///
    /// # Errors
    /// [`TimeError`] for a NaN, infinite or negative scale; nothing changes.
    ///
    /// ```
    /// use pool_effects::{EffectKind, Effects};
    ///
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 4, 0.1))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// effects.set_time_scale(0.0)?; // hit-stop
    /// effects.update(1.0)?;
    /// assert_eq!(effects.get(spark).unwrap().elapsed(), 0.0);
    /// effects.set_time_scale(0.5)?;
    /// effects.update(0.2)?;
    /// assert_eq!(effects.get(spark).unwrap().frame(), 1);
    /// assert!(effects.set_time_scale(f32::NAN).is_err());
    /// assert_eq!(effects.time_scale(), 0.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_time_scale(&mut self, scale: f32) -> Result<(), TimeError> {
        self.time_scale = clock::fixed_scale(scale)?;
        Ok(())
    }

    /// The global time scale (see [`set_time_scale`](Self::set_time_scale)).
    pub fn time_scale(&self) -> f32 {
        clock::scale_to_f32(self.time_scale)
    }

    /// Sets one kind's time scale (see [`EffectKind::time_scale`]): slow one
    /// kind down, or pause it, while the rest play on.
    ///
    /// # Errors
    /// [`KindScaleError::UnknownKind`] for an id this `Effects` did not issue,
    /// [`KindScaleError::Time`] for a NaN, infinite or negative scale; nothing
    /// changes.
    ///
    /// ```
    /// use pool_effects::{EffectKind, Effects};
    ///
    /// let mut effects = Effects::new();
    /// let smoke = effects.add_kind(EffectKind::new("smoke", 4, 0.1))?;
    /// let puff = effects.spawn(smoke, [0.0, 0.0])?;
    /// effects.set_kind_time_scale(smoke, 0.0)?;
    /// effects.update(1.0)?;
    /// assert_eq!(effects.get(puff).unwrap().frame(), 0);
    /// assert_eq!(effects.kind_time_scale(smoke), Some(0.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_kind_time_scale(&mut self, kind: KindId, scale: f32) -> Result<(), KindScaleError> {
        let fixed = clock::fixed_scale(scale).map_err(KindScaleError::Time)?;
        if !self.pools.contains_kind(kind) {
            return Err(KindScaleError::UnknownKind(kind));
        }
        let entry = &mut self.kinds[kind.index()];
        entry.time_scale = fixed;
        entry.definition.time_scale = scale;
        Ok(())
    }

    /// A kind's time scale, `None` for an id this `Effects` did not issue.
    pub fn kind_time_scale(&self, kind: KindId) -> Option<f32> {
        self.entry(kind)
            .map(|entry| clock::scale_to_f32(entry.time_scale))
    }

    /// Sets what is on screen (`None`: everything, the default), and sorts every
    /// live effect of the kinds that cull ([`EffectKind::offscreen`]) into on-
    /// and off-screen now: off-screen ones are parked (their clocks stop, and
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
    /// use pool_effects::{DrawList, EffectKind, Effects, Offscreen, View};
    ///
    /// let mut effects = Effects::new();
    /// let smoke = effects.add_kind(EffectKind::new("smoke", 10, 0.1).offscreen(Offscreen::CatchUp))?;
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
        for ((_, pool), entry) in self.pools.iter_mut().zip(&mut self.kinds) {
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

    /// Moves the finished list of the last update into `out` (cleared first) and
    /// leaves [`finished`](Self::finished) empty: for a game that spawns or stops
    /// effects while it reads them, which a loop over `finished()` cannot (it
    /// borrows the `Effects`). Allocation-free once `out` has grown: the two
    /// lists swap their storage.
    ///
    /// ```
    /// use pool_effects::{EffectKind, Effects};
    ///
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 1, 0.1))?;
    /// let ring = effects.add_kind(EffectKind::new("ring", 4, 0.1))?;
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
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 1, 0.1))?;
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

    /// Kinds in draw order: by layer, then the order they were added.
    pub(crate) fn draw_order(&self) -> &[KindId] {
        &self.draw_order
    }

    /// The draw layer of a kind this `Effects` issued.
    pub(crate) fn layer_of(&self, kind: KindId) -> i32 {
        self.kinds[kind.index()].definition.layer
    }

    /// The pool of a kind.
    pub(crate) fn pool(&self, kind: KindId) -> Option<&Pool<Effect, PolicyChoice>> {
        self.pools.pool(kind)
    }

    /// The frame an effect of `kind` shows, `None` if it is not drawn: parked,
    /// or outside the view (the draw list's reading).
    #[inline]
    pub(crate) fn frame_of(&self, kind: KindId, handle: Handle, effect: &Effect) -> Option<u32> {
        let entry = &self.kinds[kind.index()];
        if let Some(view) = self.view
            && !view.contains(effect.position, entry.cull_radius)
        {
            return None;
        }
        entry
            .lane
            .running(effect.lane, handle)
            .map(|clock| clock.frame)
    }

    /// Instances that exist, live and idle, of all kinds: the most a draw list or
    /// the finished list ever holds.
    pub(crate) fn instances(&self) -> usize {
        self.pools.iter().map(|(_, pool)| pool.stats().total).sum()
    }

    /// Live effects of all kinds.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1))?;
    /// effects.spawn(hit, [0.0, 0.0])?;
    /// assert_eq!(effects.live_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn live_count(&self) -> usize {
        self.pools.iter().map(|(_, pool)| pool.live_count()).sum()
    }

    /// Per-kind statistics.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1).pool(0, 1))?;
    /// effects.spawn(hit, [0.0, 0.0])?;
    /// effects.spawn(hit, [0.0, 0.0])?; // recycles the first
    /// assert_eq!(effects.stats(hit).unwrap().pool.recycles, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stats(&self, kind: KindId) -> Option<KindStats> {
        let entry = self.entry(kind)?;
        let pool = self.pools.stats(kind)?;
        Some(KindStats {
            pool,
            // Every acquire is a spawn; every release a finish, a stop or a
            // reinitialize.
            spawns: pool.acquires,
            finished: entry.finished,
            stopped: pool.releases - entry.finished - entry.reinitialized - entry.culled,
            follow_ups: entry.follow_ups,
            follow_ups_refused: entry.follow_ups_refused,
            offscreen: entry.lane.parked.len(),
            culled: entry.culled,
            ended_offscreen: entry.ended_offscreen,
        })
    }

    /// Creates at most `budget` instances in all towards each kind's `initial`
    /// size; returns how many are still missing (0 when done).
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// for name in ["explosion", "bite", "spark"] {
    ///     effects.add_kind_lazy(EffectKind::new(name, 8, 0.05).pool(1000, 1000))?;
    /// }
    /// let mut frames = 1;
    /// while effects.prewarm_step(500) > 0 { frames += 1; }
    /// assert_eq!(frames, 6); // 3000 instances, 500 a frame
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn prewarm_step(&mut self, budget: usize) -> usize {
        let missing = self.pools.prewarm_step(budget);
        self.reserve_for_instances();
        missing
    }

    /// Creates at most `budget` instances of one kind towards its `initial` size;
    /// returns how many are still missing.
    ///
    /// # Errors
    /// [`SpawnError::UnknownKind`] for an id this `Effects` did not issue.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let smoke = effects.add_kind_lazy(EffectKind::new("smoke", 8, 0.1).pool(1000, 1000))?;
    /// assert_eq!(effects.prewarm_kind_step(smoke, 400)?, 600);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prewarm_kind_step(&mut self, kind: KindId, budget: usize) -> Result<usize, SpawnError> {
        let pool = self
            .pools
            .pool_mut(kind)
            .ok_or(SpawnError::UnknownKind(kind))?;
        let missing = pool.prewarm_step(budget);
        self.reserve_for_instances();
        Ok(missing)
    }

    /// Drops every instance of one kind, live and idle, when the kind is no longer
    /// needed (the kind stays added and its pool grows again
    /// on demand). Handles of its live effects go stale.
    ///
    /// # Errors
    /// [`SpawnError::UnknownKind`] for an id this `Effects` did not issue.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1).pool(100, 100))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// effects.destroy_kind(hit)?;
    /// assert!(effects.get(spark).is_none());
    /// assert_eq!(effects.stats(hit).unwrap().pool.total, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn destroy_kind(&mut self, kind: KindId) -> Result<(), SpawnError> {
        let pool = self
            .pools
            .pool_mut(kind)
            .ok_or(SpawnError::UnknownKind(kind))?;
        pool.clear();
        self.kinds[kind.index()].lane.clear();
        Ok(())
    }

    /// For every kind: drops idle instances; live effects play on. Returns how
    /// many were dropped. To end every effect as well, [`clear`](Self::clear).
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1).pool(10, 10))?;
    /// effects.spawn(hit, [0.0, 0.0])?;
    /// assert_eq!(effects.clear_idle(), 9);
    /// assert_eq!(effects.stats(hit).unwrap().pool.total, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn clear_idle(&mut self) -> usize {
        self.pools
            .iter_mut()
            .map(|(_, pool)| pool.clear_idle())
            .sum()
    }

    /// For every kind: every live effect ends (its handle goes stale, no finished
    /// event is reported) and every instance is dropped; kinds stay added and
    /// their pools grow again on demand.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1).pool(10, 10))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// effects.clear();
    /// assert!(!effects.contains(spark));
    /// assert_eq!(effects.stats(hit).unwrap().pool.total, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn clear(&mut self) {
        for ((_, pool), entry) in self.pools.iter_mut().zip(&mut self.kinds) {
            pool.clear();
            entry.lane.clear();
        }
    }

    /// For every kind: every live effect ends (its handle
    /// goes stale) and each pool returns to its `initial` size. For a level change.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, 0.1).pool(4, 10))?;
    /// for _ in 0..8 { effects.spawn(hit, [0.0, 0.0])?; }
    /// effects.reinitialize();
    /// let pool = effects.stats(hit).unwrap().pool;
    /// assert_eq!((pool.live, pool.idle), (0, 4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reinitialize(&mut self) {
        for ((_, pool), entry) in self.pools.iter_mut().zip(&mut self.kinds) {
            entry.reinitialized += pool.live_count() as u64;
            pool.reinitialize();
            entry.lane.clear();
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

/// Tells the effect whose clock moved where it now is.
#[inline]
fn relane(pool: &mut Pool<Effect, PolicyChoice>, moved: Option<(Handle, u32)>) {
    if let Some((handle, lane)) = moved
        && let Some(effect) = pool.get_mut(handle)
    {
        effect.lane = lane;
    }
}

/// Parks the running effect of `handle`, whose clock is at `lane`, and notes
/// when a catching-up one-shot would end.
fn park(entry: &mut KindEntry, pool: &mut Pool<Effect, PolicyChoice>, handle: Handle, lane: u32) {
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
fn end_culled(entry: &mut KindEntry, pool: &mut Pool<Effect, PolicyChoice>) {
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
fn end_caught_up(
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

/// The finished event of an effect that ended.
#[inline]
fn finished_event(kind: KindId, handle: Handle, effect: &Effect, follow_up: FollowUp) -> Finished {
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

/// Removes the clock at `lane` and tells the effect whose clock moved into its
/// place where it now is.
#[inline]
fn remove_clock(lane: &mut Lane, pool: &mut Pool<Effect, PolicyChoice>, at: u32) {
    relane(pool, lane.remove(at).map(|moved| (moved, at)));
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

fn validate(kind: &EffectKind) -> Result<Timing, AddKindError> {
    if kind.frame_count == 0 {
        return Err(AddKindError::NoFrames {
            name: kind.name.clone(),
        });
    }
    let interval = match pool_core::seconds_to_micros(kind.frame_interval) {
        Ok(micros) if micros > 0 => micros,
        _ => {
            return Err(AddKindError::BadInterval {
                name: kind.name.clone(),
                interval: kind.frame_interval,
            });
        }
    };
    let duration = interval
        .checked_mul(u64::from(kind.frame_count))
        .filter(|duration| *duration <= u64::from(u32::MAX) - clock::START)
        .ok_or_else(|| AddKindError::BadInterval {
            name: kind.name.clone(),
            interval: kind.frame_interval,
        })?;
    Ok(Timing {
        interval,
        frames: kind.frame_count,
        duration,
        looping: kind.playback == Playback::Loop,
    })
}
/// The effects' own error for what the kinds' registry refused.
fn registry_error(name: &str, error: PoolAddKindError) -> AddKindError {
    match error {
        PoolAddKindError::Config(error) => AddKindError::Pool {
            name: name.to_string(),
            error,
        },
        PoolAddKindError::DuplicateName(name) => AddKindError::DuplicateName(name),
        PoolAddKindError::TooManyKinds => AddKindError::TooManyKinds,
        other => AddKindError::Registry(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_registry_is_reported_as_too_many_kinds_not_a_duplicate_name() {
        let full = registry_error("spark", PoolAddKindError::TooManyKinds);
        assert_eq!(full, AddKindError::TooManyKinds);
        assert!(full.to_string().contains("at most 65536 kinds"), "{full}");
        let taken = registry_error("spark", PoolAddKindError::DuplicateName("spark".into()));
        assert_eq!(taken, AddKindError::DuplicateName("spark".into()));
    }

    #[test]
    fn a_finished_event_takes_88_bytes() {
        // The crate docs' memory figures use this size.
        assert_eq!(core::mem::size_of::<Finished>(), 88);
    }
}
