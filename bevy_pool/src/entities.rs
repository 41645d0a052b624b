//! Pooled entities: bullets, enemies and any prefab, spawned once, disabled
//! while idle and handed out again, with handles that go stale.
//!
//! Each kind of entity (a marker type, or a name) has a `pool_core::Pool` of
//! its entities. Acquiring hands out an idle entity (enabled again, its prefab
//! components restored) or spawns a new one below `max_objects`; on a full
//! pool the kind's [`EntityPolicy`] refuses or recycles a live one. The
//! returned [`PooledEntity`] is the pool's generational handle plus the
//! entity: once the entity is released or recycled, every copy of the handle
//! is stale, and [`EntityPools::get`] answers `None` for it. A raw `Entity`
//! kept from it is the trap this avoids: Bevy's id stays the same while the
//! pool hands the entity to its next user, so a system that kept the id of a
//! released bullet moves the next bullet.
//!
//! Released entities get Bevy's `Disabled` with all their descendants, so they
//! leave every default query (and the renderer's, so they are not drawn).
//! The world changes when the commands the pools queue are applied; what an
//! entity becomes then follows the pool at that moment, so commands of
//! systems that ran in any order leave an entity enabled exactly when its
//! acquisition is live.
//!
//! A game that despawns a pooled entity itself, or removes its [`PoolMember`]
//! component, is noticed (a hook on `PoolMember`): its acquisition ends, the entity
//! leaves the pool, the kind's `despawned` count goes up, and with
//! [`EntityPoolSettings::refill`] the pool spawns a replacement towards
//! `initial` at the next `PreUpdate`.

mod apply;
mod config;

use core::any::TypeId;
use std::sync::Arc;

use bevy::app::{App, Plugin, PreUpdate};
use bevy::ecs::entity::Entities;
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::system::SystemParam;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;
use pool_core::{ExhaustionPolicy, Handle, Key, LiveObjects, Pool, PoolStats, SettingsError};

use apply::{Activate, Build, Deactivate, DespawnPooled};
pub use config::EntityPoolSettings;

/// Spawns a kind's prefab on an entity: its components and its children.
pub type Prefab = Arc<dyn Fn(&mut EntityWorldMut) + Send + Sync>;

/// Which entity pool: a kind registered with [`EntityPoolAppExt::add_entity_pool`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EntityKind(u16);

/// One acquisition of a pooled entity: the kind, the pool's generational
/// handle and the entity. Live until the entity is released or recycled;
/// stale forever after, for every copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PooledEntity {
    kind: EntityKind,
    handle: Handle,
    entity: Entity,
}

impl PooledEntity {
    /// The entity as it was handed out. It stays the same `Entity` after this
    /// acquisition ends, when the pool hands it to its next user: check with
    /// [`EntityPools::get`] before acting on it.
    pub fn entity(&self) -> Entity {
        self.entity
    }

    /// The kind it was acquired from.
    pub fn kind(&self) -> EntityKind {
        self.kind
    }
}

/// On every pooled entity: its current acquisition (live while the entity is
/// in use, stale while it is idle), so systems that see the entity can check it.
///
/// Despawning a pooled entity, or removing this component, takes the entity
/// out of its pool: its acquisition ends (every copy of the handle stale),
/// the kind counts it in [`EntityPoolStats::despawned`], no acquisition hands
/// it out again (not even before the next sweep), and with
/// [`EntityPoolSettings::refill`] a replacement is spawned at the next `PreUpdate`.
#[derive(Component, Debug, Clone, Copy)]
#[component(on_remove = pooled_removed)]
pub struct PoolMember {
    handle: PooledEntity,
    /// Set by the pool before it despawns an entity itself.
    leaving: bool,
}

impl PoolMember {
    /// The entity's latest acquisition (stale while the entity is idle, and
    /// never live for an entity not acquired yet).
    pub fn handle(&self) -> PooledEntity {
        self.handle
    }
}

/// Releases a pooled entity once this much virtual time has passed (counted
/// from the frame it is inserted; give it with each acquisition, in
/// [`EntityPools::acquire_with`] or in the prefab, since an idle entity keeps
/// the value it was released with). `Duration::ZERO` releases it at the next
/// `PreUpdate`.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "reflect",
    derive(Reflect),
    reflect(Component, Debug, PartialEq)
)]
pub struct ReleaseAfter(pub std::time::Duration);

/// Sent when a full pool recycled a live entity for a new acquisition: the
/// acquisition that ended (stale now) and the one that replaced it, so the
/// game can clean up what it kept for the old one.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntityRecycled {
    /// The acquisition that ended.
    pub stale: PooledEntity,
    /// The acquisition that has the entity now.
    pub handle: PooledEntity,
}

/// Why an entity-pool call did nothing.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum EntityPoolError {
    /// No kind is registered for this marker type or name.
    UnknownKind(String),
    /// The kind's pool is full and its policy refused (`EntityPolicy::Strict`).
    Exhausted(EntityKind),
    /// The handle's acquisition has ended (released, recycled, its entity
    /// despawned) or it is not a handle of these pools.
    Stale(PooledEntity),
    /// The kind's sizes are not valid (`pool_core`'s reasons).
    Settings(SettingsError),
    /// A kind of this marker type or name is already registered.
    DuplicateKind(String),
    /// The priority is not a finite number.
    BadPriority(f32),
}

impl core::fmt::Display for EntityPoolError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::UnknownKind(name) => write!(f, "no entity pool is registered for {name}"),
            Self::Exhausted(kind) => write!(f, "entity pool {kind:?} is full and refuses"),
            Self::Stale(handle) => write!(f, "{handle:?} is stale: that acquisition has ended"),
            Self::Settings(error) => write!(f, "entity pool sizes: {error}"),
            Self::DuplicateKind(name) => write!(f, "an entity pool {name} already exists"),
            Self::BadPriority(priority) => write!(f, "priority {priority} is not finite"),
        }
    }
}

impl std::error::Error for EntityPoolError {}

/// What a kind's full pool does (below `max_objects` every kind grows).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum EntityPolicy {
    /// Refuse: [`EntityPoolError::Exhausted`]. For entities the game must keep (enemies).
    #[default]
    Strict,
    /// Recycle the oldest live entity (an [`EntityRecycled`] message says
    /// which acquisition ended). For bullets and debris: the newest matters most.
    RecycleOldest,
    /// Recycle the live entity with the lowest priority the game gave it
    /// ([`EntityPools::set_priority`]; 0 at each acquisition), oldest first
    /// among equals: the game's own victim (the furthest enemy, the faintest
    /// spark). O(live) when full.
    RecycleLowestPriority,
}

/// A pool's object: the entity (a placeholder until spawned) and the priority
/// its victim choice reads.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Member {
    entity: Entity,
    priority: f32,
}

impl Member {
    const UNSPAWNED: Self = Self {
        entity: Entity::PLACEHOLDER,
        priority: 0.0,
    };
}

impl ExhaustionPolicy<Member> for EntityPolicy {
    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, Member, K>) -> Option<K> {
        match self {
            Self::Strict => None,
            Self::RecycleOldest => live.oldest(),
            Self::RecycleLowestPriority => {
                let mut lowest: Option<(K, f32)> = None;
                for (handle, member) in live.iter() {
                    if lowest.is_none_or(|(_, priority)| member.priority < priority) {
                        lowest = Some((handle, member.priority));
                    }
                }
                lowest.map(|(handle, _)| handle)
            }
        }
    }
}

/// A kind's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct EntityPoolStats {
    /// The pool's own counts: live, idle (spawned or waiting to be), acquires,
    /// releases, recycles, creates and destroys.
    pub pool: PoolStats,
    /// Entities the game despawned, or took `PoolMember` from, itself.
    pub despawned: u64,
    /// Idle places whose entity is not spawned yet (prewarm spread over
    /// frames, or a refill).
    pub unspawned: usize,
}

pub(crate) struct Kind {
    name: String,
    type_id: Option<TypeId>,
    pool: Pool<Member, EntityPolicy>,
    prefab: Prefab,
    reset: Option<Prefab>,
    initial: usize,
    per_frame: usize,
    refill: bool,
    despawned: u64,
    unspawned: usize,
    /// Acquisitions so far, by the pool's slot index: a release whose
    /// command finds the count moved on was followed by a new acquisition
    /// of the entity, which keeps it enabled.
    acquisitions: Vec<u32>,
}

impl Kind {
    /// Counts an acquisition of the slot of `handle`.
    fn count_acquisition(&mut self, handle: Handle) {
        let index = slot_index(handle);
        if index >= self.acquisitions.len() {
            self.acquisitions.resize(index + 1, 0);
        }
        self.acquisitions[index] = self.acquisitions[index].wrapping_add(1);
    }

    fn acquisitions_of(&self, handle: Handle) -> u32 {
        self.acquisitions
            .get(slot_index(handle))
            .copied()
            .unwrap_or_default()
    }
}

/// The slot index of a pool handle (slotmap's key layout: the index in the
/// low 32 bits).
fn slot_index(handle: Handle) -> usize {
    (handle.data().as_ffi() & 0xFFFF_FFFF) as usize
}

/// Every entity pool: the kinds, their pools and what the game took out of
/// them. Read it as a `Res` (handles, counts); acquire and release through
/// [`EntityPools`].
#[derive(Resource)]
pub struct EntityPoolRegistry {
    kinds: Vec<Kind>,
    /// `Disabled` and `Children`, looked up once: an entity's state is
    /// checked by id on every acquisition and release.
    pub(crate) ids: apply::Ids,
    /// Entities that left the pools since the last sweep (despawned, or
    /// `PoolMember` taken off, by the game).
    dropped: Vec<Entity>,
    /// The tree walked when enabling or disabling an entity.
    pub(crate) scratch: Vec<Entity>,
}

impl FromWorld for EntityPoolRegistry {
    fn from_world(world: &mut World) -> Self {
        Self {
            kinds: Vec::new(),
            ids: apply::Ids::from_world(world),
            dropped: Vec::new(),
            scratch: Vec::new(),
        }
    }
}

impl EntityPoolRegistry {
    /// Registers a kind; `marker` is the type `acquire::<K>()` names it by.
    pub fn add_kind(
        &mut self,
        marker: Option<TypeId>,
        config: EntityPoolSettings,
    ) -> Result<EntityKind, EntityPoolError> {
        let duplicate = self
            .kinds
            .iter()
            .any(|kind| kind.name == config.name || (marker.is_some() && kind.type_id == marker));
        if duplicate {
            return Err(EntityPoolError::DuplicateKind(config.name));
        }
        let index = u16::try_from(self.kinds.len())
            .map_err(|_| EntityPoolError::DuplicateKind(config.name.clone()))?;
        let pool = Pool::builder(|| Member::UNSPAWNED)
            .initial(config.initial)
            .max_objects(config.max_objects)
            .policy(config.policy)
            .build()
            .map_err(EntityPoolError::Settings)?;
        self.kinds.push(Kind {
            name: config.name,
            type_id: marker,
            pool,
            prefab: config.prefab,
            reset: config.reset,
            initial: config.initial,
            per_frame: config.per_frame,
            refill: config.refill,
            despawned: 0,
            unspawned: config.initial,
            acquisitions: Vec::new(),
        });
        Ok(EntityKind(index))
    }

    /// The kind registered for marker type `K`.
    pub fn kind_of<K: 'static>(&self) -> Result<EntityKind, EntityPoolError> {
        let wanted = Some(TypeId::of::<K>());
        self.kinds
            .iter()
            .position(|kind| kind.type_id == wanted)
            .map(|at| EntityKind(at as u16))
            .ok_or_else(|| EntityPoolError::UnknownKind(core::any::type_name::<K>().into()))
    }

    /// The kind registered under this name.
    pub fn kind_named(&self, name: &str) -> Result<EntityKind, EntityPoolError> {
        self.kinds
            .iter()
            .position(|kind| kind.name == name)
            .map(|at| EntityKind(at as u16))
            .ok_or_else(|| EntityPoolError::UnknownKind(name.into()))
    }

    /// The entity of a live acquisition; `None` once it has ended.
    pub fn get(&self, handle: PooledEntity) -> Option<Entity> {
        let kind = self.kinds.get(usize::from(handle.kind.0))?;
        let member = kind.pool.get(handle.handle)?;
        (member.entity == handle.entity).then_some(handle.entity)
    }

    /// Whether the acquisition is live.
    pub fn contains(&self, handle: PooledEntity) -> bool {
        self.get(handle).is_some()
    }

    /// A kind's counts.
    pub fn stats(&self, kind: EntityKind) -> Option<EntityPoolStats> {
        let kind = self.kinds.get(usize::from(kind.0))?;
        Some(EntityPoolStats {
            pool: kind.pool.stats(),
            despawned: kind.despawned,
            unspawned: kind.unspawned,
        })
    }

    fn kind_mut(&mut self, kind: EntityKind) -> Result<&mut Kind, EntityPoolError> {
        self.kinds
            .get_mut(usize::from(kind.0))
            .ok_or_else(|| EntityPoolError::UnknownKind(format!("{kind:?}")))
    }

    pub(crate) fn prefab(&self, kind: EntityKind) -> Option<&Prefab> {
        Some(&self.kinds.get(usize::from(kind.0))?.prefab)
    }

    pub(crate) fn reset(&self, kind: EntityKind) -> Option<&Prefab> {
        self.kinds.get(usize::from(kind.0))?.reset.as_ref()
    }

    /// Whether the entity of `handle` was acquired again after the release
    /// that saw `acquisitions` acquisitions of its slot.
    pub(crate) fn acquired_since(&self, handle: PooledEntity, acquisitions: u32) -> bool {
        self.kinds
            .get(usize::from(handle.kind.0))
            .is_some_and(|kind| kind.acquisitions_of(handle.handle) != acquisitions)
    }

    fn acquire<B: Bundle>(
        &mut self,
        kind: EntityKind,
        bundle: B,
        commands: &mut Commands,
        entities: &Entities,
    ) -> Result<PooledEntity, EntityPoolError> {
        let check_dropped = !self.dropped.is_empty();
        let dropped = &self.dropped;
        let state = self
            .kinds
            .get_mut(usize::from(kind.0))
            .ok_or_else(|| EntityPoolError::UnknownKind(format!("{kind:?}")))?;
        // While idle places wait to be spawned, tell them from a place the
        // pool grew by (counted as a create).
        let creates = (state.unspawned > 0).then(|| state.pool.stats().creates);
        // `pool_core` refuses only when full (a policy that declines).
        let (acquired, member) = state
            .pool
            .try_acquire_detailed_mut()
            .map_err(|_| EntityPoolError::Exhausted(kind))?;
        let unspawned = member.entity == Entity::PLACEHOLDER;
        let gone = !unspawned
            && (!entities.contains(member.entity)
                || (check_dropped && dropped.contains(&member.entity)));
        let fresh = unspawned || gone;
        if fresh {
            member.entity = commands.spawn_empty().id();
        }
        member.priority = 0.0;
        let entity = member.entity;
        state.count_acquisition(acquired.handle);
        if unspawned && creates.is_some_and(|creates| creates == state.pool.stats().creates) {
            state.unspawned -= 1;
        }
        let handle = PooledEntity {
            kind,
            handle: acquired.handle,
            entity,
        };
        let recycled = acquired.recycled.map(|stale| PooledEntity {
            kind,
            handle: stale,
            entity,
        });
        commands.queue(Activate {
            handle,
            fresh,
            recycled,
            bundle,
        });
        Ok(handle)
    }

    fn release(
        &mut self,
        handle: PooledEntity,
        commands: &mut Commands,
    ) -> Result<(), EntityPoolError> {
        if !self.contains(handle) {
            return Err(EntityPoolError::Stale(handle));
        }
        let kind = self.kind_mut(handle.kind)?;
        kind.pool
            .release(handle.handle)
            .map_err(|_| EntityPoolError::Stale(handle))?;
        let acquisitions = kind.acquisitions_of(handle.handle);
        commands.queue(Deactivate {
            handle,
            acquisitions,
        });
        Ok(())
    }

    /// The game despawned `entity` or took its `PoolMember` away.
    fn forget(&mut self, pooled: PooledEntity) {
        let live = self.contains(pooled);
        let Some(kind) = self.kinds.get_mut(usize::from(pooled.kind.0)) else {
            return;
        };
        kind.despawned += 1;
        if live {
            // Idle until the next sweep takes it out; acquisitions before
            // that pass over it (`dropped`).
            let _ = kind.pool.release(pooled.handle);
        }
        self.dropped.push(pooled.entity);
    }

    /// Drops what the game despawned from the idle entities, keeps `initial`
    /// where refill is asked, and spawns unspawned places within each kind's
    /// budget.
    fn maintain(&mut self, commands: &mut Commands) {
        if !self.dropped.is_empty() {
            self.dropped.sort_unstable();
            for kind in &mut self.kinds {
                let dropped = &self.dropped;
                kind.pool
                    .retain_idle(|member| dropped.binary_search(&member.entity).is_err());
                if kind.refill {
                    let before = kind.pool.stats().total;
                    kind.pool.prewarm();
                    kind.unspawned += kind.pool.stats().total - before;
                }
            }
            self.dropped.clear();
        }
        for (index, kind) in self.kinds.iter_mut().enumerate() {
            if kind.unspawned == 0 {
                continue;
            }
            let mut budget = kind.per_frame;
            let mut spawned = 0;
            let kind_id = EntityKind(index as u16);
            kind.pool.retain_idle(|member| {
                if member.entity == Entity::PLACEHOLDER && budget > 0 {
                    budget -= 1;
                    spawned += 1;
                    member.entity = commands.spawn_empty().id();
                    commands.queue(Build {
                        kind: kind_id,
                        entity: member.entity,
                    });
                }
                true
            });
            kind.unspawned -= spawned;
        }
    }
}

/// Acquire and release pooled entities from a system.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_pool::{EntityPoolSettings, EntityPools, EntityPoolAppExt, EntityPoolPlugin};
///
/// #[derive(Component, Clone, Default)]
/// struct Bullet;
///
/// #[derive(Resource)]
/// struct Kept(bevy_pool::PooledEntity);
///
/// let mut app = App::new();
/// app.add_plugins((bevy::time::TimePlugin, EntityPoolPlugin));
/// app.add_entity_pool::<Bullet>(EntityPoolSettings::from_bundle("bullet", (Bullet, Transform::default())).initial(8))?;
/// app.update(); // the 8 bullets are spawned, disabled
///
/// let fire = |mut pools: EntityPools, mut commands: Commands| {
///     let bullet = pools.acquire_with::<Bullet>(Transform::from_xyz(1.0, 2.0, 0.0)).unwrap();
///     commands.insert_resource(Kept(bullet));
/// };
/// app.world_mut().run_system_once(fire).unwrap();
/// let kept = app.world().resource::<Kept>().0;
/// let mut bullets = app.world_mut().query_filtered::<&Transform, With<Bullet>>();
/// assert_eq!(bullets.iter(app.world()).count(), 1, "one enabled bullet; the other 7 are disabled");
///
/// let hit = move |mut pools: EntityPools| pools.release(kept).unwrap();
/// app.world_mut().run_system_once(hit).unwrap();
/// assert_eq!(bullets.iter(app.world()).count(), 0);
/// assert!(app.world().resource::<bevy_pool::EntityPoolRegistry>().get(kept).is_none(), "stale");
/// # use bevy::ecs::system::RunSystemOnce;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(SystemParam)]
pub struct EntityPools<'w, 's> {
    registry: ResMut<'w, EntityPoolRegistry>,
    commands: Commands<'w, 's>,
    entities: &'w Entities,
}

impl EntityPools<'_, '_> {
    /// Takes an entity of the kind registered for marker `K`: enabled, reset,
    /// its [`PoolMember`] set, when the system's commands apply.
    pub fn acquire<K: 'static>(&mut self) -> Result<PooledEntity, EntityPoolError> {
        self.acquire_with::<K>(())
    }

    /// [`acquire`](Self::acquire), then `bundle` inserted (its place, its speed).
    pub fn acquire_with<K: 'static>(
        &mut self,
        bundle: impl Bundle,
    ) -> Result<PooledEntity, EntityPoolError> {
        let kind = self.registry.kind_of::<K>()?;
        self.acquire_kind(kind, bundle)
    }

    /// Takes an entity of `kind` (from [`kind_named`](Self::kind_named)), then
    /// inserts `bundle`.
    pub fn acquire_kind<B: Bundle>(
        &mut self,
        kind: EntityKind,
        bundle: B,
    ) -> Result<PooledEntity, EntityPoolError> {
        self.registry
            .acquire(kind, bundle, &mut self.commands, self.entities)
    }

    /// Gives an entity back: disabled with its descendants when the commands
    /// apply, and every copy of `handle` stale from now on.
    pub fn release(&mut self, handle: PooledEntity) -> Result<(), EntityPoolError> {
        self.registry.release(handle, &mut self.commands)
    }

    /// The entity of a live acquisition; `None` once it has ended.
    pub fn get(&self, handle: PooledEntity) -> Option<Entity> {
        self.registry.get(handle)
    }

    /// Whether the acquisition is live.
    pub fn contains(&self, handle: PooledEntity) -> bool {
        self.registry.contains(handle)
    }

    /// The kind registered under this name.
    pub fn kind_named(&self, name: &str) -> Result<EntityKind, EntityPoolError> {
        self.registry.kind_named(name)
    }

    /// The rank [`EntityPolicy::RecycleLowestPriority`] recycles by (lowest
    /// first); every acquisition starts at 0.
    pub fn set_priority(
        &mut self,
        handle: PooledEntity,
        priority: f32,
    ) -> Result<(), EntityPoolError> {
        if !priority.is_finite() {
            return Err(EntityPoolError::BadPriority(priority));
        }
        if !self.registry.contains(handle) {
            return Err(EntityPoolError::Stale(handle));
        }
        let kind = self.registry.kind_mut(handle.kind)?;
        if let Some(member) = kind.pool.get_mut(handle.handle) {
            member.priority = priority;
        }
        Ok(())
    }

    /// Despawns idle entities of `kind` until at most `keep` remain; returns
    /// how many left the pool.
    pub fn trim_idle(&mut self, kind: EntityKind, keep: usize) -> Result<usize, EntityPoolError> {
        let state = self.registry.kind_mut(kind)?;
        let stats = state.pool.stats();
        let mut excess = stats.idle.saturating_sub(keep);
        let commands = &mut self.commands;
        let mut unspawned = 0;
        let dropped = state.pool.retain_idle(|member| {
            if excess == 0 {
                return true;
            }
            excess -= 1;
            if member.entity == Entity::PLACEHOLDER {
                unspawned += 1;
            } else {
                commands.queue(DespawnPooled {
                    entity: member.entity,
                });
            }
            false
        });
        state.unspawned -= unspawned;
        Ok(dropped)
    }

    /// For a level change: every live entity of `kind` released (its handles
    /// stale), the pool back to exactly `initial` entities.
    pub fn reinitialize(&mut self, kind: EntityKind) -> Result<(), EntityPoolError> {
        let state = self.registry.kind_mut(kind)?;
        let commands = &mut self.commands;
        let acquisitions = &state.acquisitions;
        state.pool.reclaim(|handle, member| {
            commands.queue(Deactivate {
                handle: PooledEntity {
                    kind,
                    handle,
                    entity: member.entity,
                },
                acquisitions: acquisitions
                    .get(slot_index(handle))
                    .copied()
                    .unwrap_or_default(),
            });
            true
        });
        let initial = state.initial;
        self.trim_idle(kind, initial)?;
        let state = self.registry.kind_mut(kind)?;
        let before = state.pool.stats().total;
        state.pool.prewarm();
        state.unspawned += state.pool.stats().total - before;
        Ok(())
    }

    /// A kind's counts.
    pub fn stats(&self, kind: EntityKind) -> Option<EntityPoolStats> {
        self.registry.stats(kind)
    }
}

/// Registers entity pools on an `App`.
pub trait EntityPoolAppExt {
    /// Registers a kind, named by marker type `K` (usually a component of its
    /// prefab) and by the config's name. Its `initial` entities are spawned,
    /// disabled, from the next `PreUpdate` on.
    fn add_entity_pool<K: 'static>(
        &mut self,
        config: EntityPoolSettings,
    ) -> Result<EntityKind, EntityPoolError>;
}

impl EntityPoolAppExt for App {
    fn add_entity_pool<K: 'static>(
        &mut self,
        config: EntityPoolSettings,
    ) -> Result<EntityKind, EntityPoolError> {
        self.world_mut()
            .get_resource_or_init::<EntityPoolRegistry>()
            .add_kind(Some(TypeId::of::<K>()), config)
    }
}

/// The entity pools' systems, in `PreUpdate`: despawned entities swept, idle
/// entities spawned (prewarm, refill), then expired [`ReleaseAfter`] lifetimes
/// released.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct EntityPoolSystems;

/// Pooled entities: the [`EntityPoolRegistry`] resource, the
/// [`EntityRecycled`] message, and the systems of
/// [`EntityPoolSystems`]. Needs Bevy's `TimePlugin` for lifetimes.
///
/// Released entities get Bevy's `Disabled`, and so do all their
/// descendants: they leave every default query, the renderer's too. The
/// world changes when the commands of the system that acquired or released
/// apply, and an entity then becomes what its pool says at that moment, so
/// commands of systems applied in any order leave it enabled exactly while
/// an acquisition of it is live. An entity released and acquired again
/// before the commands apply (in one system, or in systems with no sync
/// point between them) never goes disabled, which saves Bevy two archetype
/// moves per entity of its tree: the workspace's `docs/benchmarks.md`
/// ("Pooled entities") measures both ways against spawning and despawning.
pub struct EntityPoolPlugin;

impl Plugin for EntityPoolPlugin {
    fn build(&self, app: &mut App) {
        #[cfg(feature = "reflect")]
        app.register_type::<ReleaseAfter>();
        app.init_resource::<EntityPoolRegistry>()
            .add_message::<EntityRecycled>()
            .add_systems(
                PreUpdate,
                (maintain, expire).chain().in_set(EntityPoolSystems),
            );
    }
}

fn maintain(mut registry: ResMut<EntityPoolRegistry>, mut commands: Commands) {
    registry.maintain(&mut commands);
}

fn expire(
    time: Res<Time>,
    mut pools: EntityPools,
    mut lives: Query<(&PoolMember, &mut ReleaseAfter)>,
) {
    let dt = time.delta();
    for (pooled, mut left) in &mut lives {
        if !pools.contains(pooled.handle) {
            continue;
        }
        left.0 = left.0.saturating_sub(dt);
        if left.0.is_zero() {
            let _ = pools.release(pooled.handle);
        }
    }
}

fn pooled_removed(mut world: DeferredWorld, context: HookContext) {
    let Some(pooled) = world.get::<PoolMember>(context.entity).copied() else {
        return;
    };
    if pooled.leaving {
        return;
    }
    if let Some(mut registry) = world.get_resource_mut::<EntityPoolRegistry>() {
        registry.forget(pooled.handle);
    }
}
