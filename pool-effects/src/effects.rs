//! The effect manager: one pool per kind, the clocks, finished events. Its
//! parts are one concern a file: the handle, the finished events, kinds,
//! spawning and stopping, the update, culling, time scales, the instances kept,
//! and statistics. The draw list that reads it is in `draw.rs`.

mod culling;
mod finished;
mod handle;
mod instances;
mod kinds;
mod spawning;
mod stats;
mod time_scale;
mod update;

use pool_core::{Handle, KeyedPool, KindId, PolicyChoice, Pool};

pub use finished::{Finished, FollowUp};
pub use handle::EffectHandle;
pub use stats::KindStats;

use crate::clock;
use crate::effect::{Effect, EffectMut, EffectRef};
use crate::kind::{EffectKind, Offscreen, Timing};
use crate::lane::Lane;
use crate::view::View;

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
    /// Each kind's pool, and beside it what `Effects` keeps for the kind (its
    /// clocks included): one lookup finds both.
    pools: KeyedPool<Effect, PolicyChoice, Handle, KindEntry>,
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
            finished: Vec::new(),
            ending: Vec::new(),
            ended: Vec::new(),
            draw_order: Vec::new(),
            next_spawn: 0,
            time_scale: clock::SCALE_ONE,
            view: None,
        }
    }

    /// A kind's entry, if this `Effects` defined it (ids know their issuer).
    fn entry(&self, kind: KindId) -> Option<&KindEntry> {
        self.pools.with_data(kind).map(|(_, entry)| entry)
    }

    /// `true` while the effect of `handle` is live: spawned and not yet finished,
    /// stopped, recycled or cleared.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))?;
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
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// assert!(effects.get(spark).is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get(&self, handle: EffectHandle) -> Option<EffectRef<'_>> {
        let (pool, entry) = self.pools.with_data(handle.kind())?;
        let effect = pool.get(handle.0.handle())?;
        let clock = entry.lane.get(effect.lane, handle.0.handle())?;
        Some(EffectRef { effect, clock })
    }

    /// The live effect of `handle`, mutably: move it, tint it, tag it.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// effects.get_mut(spark).unwrap().position.x += 1.0;
    /// assert_eq!(effects.get(spark).unwrap().position.x, 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get_mut(&mut self, handle: EffectHandle) -> Option<EffectMut<'_>> {
        let (pool, entry) = self.pools.with_data_mut(handle.kind())?;
        let effect = pool.get_mut(handle.0.handle())?;
        let clock = entry.lane.get_mut(effect.lane, handle.0.handle())?;
        Some(EffectMut { effect, clock })
    }

    /// Kinds in draw order: by layer, then the order they were added.
    pub(crate) fn draw_order(&self) -> &[KindId] {
        &self.draw_order
    }

    /// The draw layer of a kind this `Effects` issued.
    pub(crate) fn layer_of(&self, kind: KindId) -> i32 {
        self.entry(kind).map_or(0, |entry| entry.definition.layer)
    }

    /// The pool of a kind.
    pub(crate) fn pool(&self, kind: KindId) -> Option<&Pool<Effect, PolicyChoice>> {
        self.pools.pool(kind)
    }

    /// The frame an effect of `kind` shows, `None` if it is not drawn: parked,
    /// or outside the view (the draw list's reading).
    #[inline]
    pub(crate) fn frame_of(&self, kind: KindId, handle: Handle, effect: &Effect) -> Option<u32> {
        let entry = self.entry(kind)?;
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

/// Removes the clock at `lane` and tells the effect whose clock moved into its
/// place where it now is.
#[inline]
fn remove_clock(lane: &mut Lane, pool: &mut Pool<Effect, PolicyChoice>, at: u32) {
    relane(pool, lane.remove(at).map(|moved| (moved, at)));
}
