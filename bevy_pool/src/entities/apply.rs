//! The commands the entity pools queue, and what they do to the world when
//! they apply: each makes an entity match its pool as the pool is then, so
//! commands of different systems applied in any order agree.

use bevy::ecs::component::ComponentId;
use bevy::ecs::entity_disabling::Disabled;
use bevy::prelude::*;

use super::{EntityKind, EntityPoolRegistry, EntityRecycled, PoolMember, PooledEntity};

/// An acquisition: build (fresh) or enable and reset, set `PoolMember`, insert
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
        let ids = registry.ids;
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
        let pooled = PoolMember {
            handle: self.handle,
            leaving: false,
        };
        if let Some(build) = build {
            build(&mut target);
        }
        if self.fresh {
            target.insert((pooled, self.bundle));
        } else {
            match target.get_mut::<PoolMember>() {
                Some(mut kept) => *kept = pooled,
                None => {
                    target.insert(pooled);
                }
            }
            target.insert(self.bundle);
        }
        set_enabled(world, ids, entity, live);
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
        let Some(registry) = world.get_resource::<EntityPoolRegistry>() else {
            return;
        };
        if !registry.acquired_since(self.handle, self.acquisitions) {
            let ids = registry.ids;
            set_enabled(world, ids, self.handle.entity, false);
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
        let Some((prefab, ids)) = world
            .get_resource::<EntityPoolRegistry>()
            .and_then(|registry| Some((registry.prefab(self.kind).cloned()?, registry.ids)))
        else {
            return;
        };
        let Ok(mut target) = world.get_entity_mut(self.entity) else {
            return;
        };
        prefab(&mut target);
        target.insert(PoolMember {
            handle: PooledEntity {
                kind: self.kind,
                handle: pool_core::Handle::default(),
                entity: self.entity,
            },
            leaving: false,
        });
        set_enabled(world, ids, self.entity, false);
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
            if let Some(mut pooled) = target.get_mut::<PoolMember>() {
                pooled.leaving = true;
            }
            target.despawn();
        }
    }
}

/// The component ids an entity's state is read by.
#[derive(Clone, Copy)]
pub(crate) struct Ids {
    disabled: ComponentId,
    children: ComponentId,
}

impl FromWorld for Ids {
    fn from_world(world: &mut World) -> Self {
        Self {
            disabled: world.register_component::<Disabled>(),
            children: world.register_component::<Children>(),
        }
    }
}

/// Adds or removes `Disabled` on `root` and every descendant that does not
/// already match.
fn set_enabled(world: &mut World, ids: Ids, root: Entity, enabled: bool) {
    let Ok(mut target) = world.get_entity_mut(root) else {
        return;
    };
    let has_children = target.contains_id(ids.children);
    switch(&mut target, ids, enabled);
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
            switch(&mut target, ids, enabled);
        }
    }
    if let Some(mut registry) = world.get_resource_mut::<EntityPoolRegistry>() {
        registry.scratch = tree;
    }
}

fn switch(target: &mut EntityWorldMut, ids: Ids, enabled: bool) {
    match (enabled, target.contains_id(ids.disabled)) {
        (true, true) => {
            target.remove::<Disabled>();
        }
        (false, false) => {
            target.insert(Disabled);
        }
        _ => {}
    }
}
