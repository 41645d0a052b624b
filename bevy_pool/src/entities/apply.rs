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
        let Some((prefab, reset)) = registry.prefab(self.handle.kind) else {
            return;
        };
        let entity = self.handle.entity;
        let Ok(mut target) = world.get_entity_mut(entity) else {
            return;
        };
        let pooled = Pooled {
            handle: self.handle,
            leaving: false,
        };
        if self.fresh {
            prefab(&mut target);
            target.insert((pooled, self.bundle));
        } else {
            if let Some(reset) = reset {
                reset(&mut target);
            }
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

/// A release: disabled, unless a later acquisition of the entity has
/// applied already.
pub(super) struct Deactivate {
    pub(super) handle: PooledEntity,
}

impl Command for Deactivate {
    type Out = ();

    fn apply(self, world: &mut World) {
        let entity = self.handle.entity;
        let Some(current) = world.get::<Pooled>(entity).map(|pooled| pooled.handle) else {
            return;
        };
        let taken_again = current != self.handle
            && world
                .get_resource::<EntityPoolRegistry>()
                .is_some_and(|registry| registry.contains(current));
        if !taken_again {
            set_enabled(world, entity, false);
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
        let Some((prefab, _)) = world
            .get_resource::<EntityPoolRegistry>()
            .and_then(|registry| registry.prefab(self.kind))
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
    for &entity in &tree {
        let Ok(mut target) = world.get_entity_mut(entity) else {
            continue;
        };
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
    if let Some(mut registry) = world.get_resource_mut::<EntityPoolRegistry>() {
        registry.scratch = tree;
    }
}
