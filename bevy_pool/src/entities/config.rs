//! How a kind of pooled entity is made, how many, and what its full pool does.

use std::sync::Arc;

use bevy::prelude::*;

use super::{EntityPolicy, Prefab};

/// How a kind's entities are made, how many, and what its full pool does.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_pool::{EntityPoolSettings, EntityPolicy};
///
/// #[derive(Component, Clone, Default)]
/// struct Bullet { speed: f32 }
///
/// let config = EntityPoolSettings::from_bundle("bullet", (Bullet { speed: 30.0 }, Transform::default()))
///     .initial(256)
///     .max_objects(1024)
///     .policy(EntityPolicy::RecycleOldest);
/// # let _ = config;
/// ```
#[must_use]
pub struct EntityPoolSettings {
    pub(super) name: String,
    pub(super) prefab: Prefab,
    pub(super) reset: Option<Prefab>,
    pub(super) initial: usize,
    pub(super) max_objects: usize,
    pub(super) policy: EntityPolicy,
    pub(super) per_frame: usize,
    pub(super) refill: bool,
}

impl EntityPoolSettings {
    /// A kind whose entities are this bundle: spawned with a clone of it, and
    /// reset to it (a clone inserted again) at each acquisition after the first.
    pub fn from_bundle<B: Bundle + Clone>(name: impl Into<String>, bundle: B) -> Self {
        let reset = bundle.clone();
        Self::from_fn(name, move |entity| {
            entity.insert(bundle.clone());
        })
        .on_reset(move |entity| {
            entity.insert(reset.clone());
        })
    }

    /// A kind whose entities this function builds on a spawned entity (its
    /// components, its children through `with_children`). No reset unless
    /// [`on_reset`](Self::on_reset) gives one. The children are built once:
    /// a child the game despawns stays missing when the entity is reused
    /// (a reset may rebuild it).
    pub fn from_fn(
        name: impl Into<String>,
        prefab: impl Fn(&mut EntityWorldMut) + Send + Sync + 'static,
    ) -> Self {
        Self {
            name: name.into(),
            prefab: Arc::new(prefab),
            reset: None,
            initial: 0,
            max_objects: pool_core::DEFAULT_MAX_OBJECTS,
            policy: EntityPolicy::Strict,
            per_frame: usize::MAX,
            refill: false,
        }
    }

    /// Run on an entity each time it is handed out again (not at its first
    /// acquisition, which finds it as the prefab made it), before the
    /// caller's bundle: restore what the last user changed.
    pub fn on_reset(mut self, reset: impl Fn(&mut EntityWorldMut) + Send + Sync + 'static) -> Self {
        self.reset = Some(Arc::new(reset));
        self
    }

    /// Entities spawned disabled before the first acquisition (default 0).
    pub fn initial(mut self, initial: usize) -> Self {
        self.initial = initial;
        self
    }

    /// The most entities of this kind, live and idle (default
    /// `pool_core::DEFAULT_MAX_OBJECTS`).
    pub fn max_objects(mut self, max_objects: usize) -> Self {
        self.max_objects = max_objects;
        self
    }

    /// What a full pool does (default [`EntityPolicy::Strict`]).
    pub fn policy(mut self, policy: EntityPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Spawn the initial entities over frames, at most this many a frame (at
    /// least 1), instead of all in the first `PreUpdate`. An acquisition that
    /// finds none ready spawns one on the spot.
    pub fn prewarm_per_frame(mut self, per_frame: usize) -> Self {
        self.per_frame = per_frame.max(1);
        self
    }

    /// Spawn a replacement towards `initial` when the game despawns one of
    /// the kind's entities (default: no, the pool shrinks).
    pub fn refill(mut self, refill: bool) -> Self {
        self.refill = refill;
        self
    }
}
