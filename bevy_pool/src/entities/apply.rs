//! The commands the entity pools queue, and what they do to the world when
//! they apply: each makes an entity match its pool as the pool is then, so
//! commands of different systems applied in any order agree.

use bevy::ecs::entity_disabling::Disabled;
use bevy::prelude::*;

use super::{EntityKind, EntityPoolRegistry, EntityRecycled, Pooled, PooledEntity};

/// An acquisition: build (fresh) or enable and reset, set `Pooled`, insert
/// the caller's bundle; tell the game about a recycled acquisition.
pub(super) struct Activate<B> {
    pub(super) handle: PooledEntity,
    pub(super) fresh: bool,
    pub(super) recycled: Option<PooledEntity>,
    pub(super) bundle: B,
}

impl<B: Bundle> Command for Activate<B> {
    type Out = ();

    fn apply(self, world: &mut World) {
        let Some(registry) = world.get_resource::<EntityPoolRegistry>() else {
            return;
        };
        let live = registry.contains(self.handle);
        // A clone of the kind's function (a reference count), so that the
        // world can be changed while it runs.
        let build = if self.fresh {
            registry.prefab(self.handle.kind).cloned()
        } else {
            registry.reset(self.handle.kind).cloned()
        };
        let entity = self.handle.entity;
        let Ok(mut target) = world.get_entity_mut(entity) else {
            return;
        };
        let pooled = Pooled {
            handle: self.handle,
            leaving: false,
        };
        if let Some(build) = build {
            build(&mut target);
        }
        if self.fresh {
            target.insert((pooled, self.bundle));
        } else {
            match target.get_mut::<Pooled>() {
                Some(mut kept) => *kept = pooled,
                None => {
                    target.insert(pooled);
                }
            }
            target.insert(self.bundle);
        }
        set_enabled(world, entity, live);
        if let Some(stale) = self.recycled {
            world.write_message(EntityRecycled {
                stale,
                handle: self.handle,
            });
        }
    }
}

/// A release: disabled, unless the entity was acquired again since (that
/// acquisition keeps it enabled, whichever command applies first).
pub(super) struct Deactivate {
    pub(super) handle: PooledEntity,
    /// Acquisitions of the entity's slot when it was released.
    pub(super) acquisitions: u32,
}

impl Command for Deactivate {
    type Out = ();

    fn apply(self, world: &mut World) {
        let taken_again = world
            .get_resource::<EntityPoolRegistry>()
            .is_some_and(|registry| registry.acquired_since(self.handle, self.acquisitions));
        if !taken_again {
            set_enabled(world, self.handle.entity, false);
        }
    }
}

/// An idle entity spawned ahead (prewarm, refill): the prefab, disabled.
pub(super) struct Build {
    pub(super) kind: EntityKind,
    pub(super) entity: Entity,
}

impl Command for Build {
    type Out = ();

    fn apply(self, world: &mut World) {
        let Some(prefab) = world
            .get_resource::<EntityPoolRegistry>()
            .and_then(|registry| registry.prefab(self.kind).cloned())
        else {
            return;
        };
        let Ok(mut target) = world.get_entity_mut(self.entity) else {
            return;
        };
        prefab(&mut target);
        target.insert(Pooled {
            handle: PooledEntity {
                kind: self.kind,
                handle: pool_core::Handle::default(),
                entity: self.entity,
            },
            leaving: false,
        });
        set_enabled(world, self.entity, false);
    }
}

/// An idle entity the pool lets go of (trimmed): despawned without counting
/// as the game's despawn.
pub(super) struct DespawnPooled {
    pub(super) entity: Entity,
}

impl Command for DespawnPooled {
    type Out = ();

    fn apply(self, world: &mut World) {
        if let Ok(mut target) = world.get_entity_mut(self.entity) {
            if let Some(mut pooled) = target.get_mut::<Pooled>() {
                pooled.leaving = true;
            }
            target.despawn();
        }
    }
}

/// Adds or removes `Disabled` on `root` and every descendant that does not
/// already match.
fn set_enabled(world: &mut World, root: Entity, enabled: bool) {
    let Ok(mut target) = world.get_entity_mut(root) else {
        return;
    };
    let has_children = target.contains::<Children>();
    switch(&mut target, enabled);
    if !has_children {
        return;
    }
    // The tree below, walked in a list the registry keeps (no allocation once
    // it has held the largest tree).
    let mut tree = world
        .get_resource_mut::<EntityPoolRegistry>()
        .map(|mut registry| core::mem::take(&mut registry.scratch))
        .unwrap_or_default();
    tree.clear();
    tree.push(root);
    let mut at = 0;
    while let Some(&entity) = tree.get(at) {
        if let Some(children) = world.get::<Children>(entity) {
            tree.extend(children.iter());
        }
        at += 1;
    }
    for &entity in &tree[1..] {
        if let Ok(mut target) = world.get_entity_mut(entity) {
            switch(&mut target, enabled);
        }
    }
    if let Some(mut registry) = world.get_resource_mut::<EntityPoolRegistry>() {
        registry.scratch = tree;
    }
}

fn switch(target: &mut EntityWorldMut, enabled: bool) {
    match (enabled, target.contains::<Disabled>()) {
        (true, true) => {
            target.remove::<Disabled>();
        }
        (false, false) => {
            target.insert(Disabled);
        }
        _ => {}
    }
}
