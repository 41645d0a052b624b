//! Pooled entities against spawning and despawning, in a Bevy `World`: each
//! frame (one run of a one-system schedule, commands applied) gives back the
//! last frame's batch, takes a new batch placed by a `Transform`, and moves
//! every live one. Per entity, for three prefabs:
//!
//! | prefab | components |
//! |---|---|
//! | `bare` | `Transform` and three small components |
//! | `sprite` | the same with a `Sprite` holding a strong image handle (and the components `Sprite` requires) |
//! | `enemy` | `Transform`, two small components and four children, each a `Transform` and a marker |
//!
//! `entity_pool_cycle_{prefab}` releases the last frame's batch and acquires
//! through [`EntityPools`] (the prefab's components restored by the kind's
//! reset): the pool hands out the entities it was just given, which never
//! go disabled. `entity_pool_idle_{prefab}` acquires first, then releases the
//! last frame's batch: each entity spends a frame disabled, so each pays
//! `Disabled` inserted and removed (two archetype moves, per child too), the
//! pool's worst case. `spawn_despawn_{prefab}` spawns the prefab and despawns
//! it (its children with it).

use bevy::asset::{Assets, Handle};
use bevy::image::Image;
use bevy::prelude::*;
use bevy::sprite::Sprite;
use bevy_pool::{EntityPoolRegistry, EntityPoolSettings, EntityPools, PooledEntity};

use crate::Workload;

/// The prefabs measured, in the report's order.
pub const ENTITY_PREFABS: [&str; 3] = ["bare", "sprite", "enemy"];

/// Entities taken and given back a frame.
pub const ENTITY_BATCHES: [usize; 3] = [1, 100, 10_000];

#[derive(Component, Clone, Default)]
struct Bullet {
    speed: f32,
}

#[derive(Component, Clone, Default)]
struct Damage(#[expect(dead_code, reason = "a game's payload, never read here")] u32);

#[derive(Component, Clone, Default)]
struct Team(#[expect(dead_code, reason = "a game's payload, never read here")] u8);

#[derive(Component, Clone, Default)]
struct Part;

/// The prefabs leave `Transform` out: both sides insert it, placed, with each entity.
fn bare() -> impl Bundle + Clone {
    (Bullet { speed: 30.0 }, Damage(5), Team(1))
}

fn sprite(image: &Handle<Image>) -> impl Bundle + Clone {
    (bare(), Sprite::from_image(image.clone()))
}

fn enemy_body() -> impl Bundle + Clone {
    (Bullet { speed: 4.0 }, Damage(20))
}

fn enemy_parts(entity: &mut EntityWorldMut) {
    entity.with_children(|parts| {
        for i in 0..4 {
            parts.spawn((Transform::from_xyz(i as f32, 1.0, 0.0), Part));
        }
    });
}

/// One of the prefabs, pooled or spawned, `batch` entities a frame.
pub struct EntityFrame {
    world: World,
    schedule: Schedule,
    batch: usize,
}

#[derive(Resource)]
struct Batch(usize);

#[derive(Resource)]
struct Image_(Handle<Image>);

impl EntityFrame {
    /// `prefab` is one of [`ENTITY_PREFABS`]; `pooled` chooses the pool
    /// (`Some(idle)`: with each entity idle a frame between uses) or spawn
    /// and despawn (`None`). `None` for an unknown prefab.
    pub fn new(prefab: &str, pooled: Option<bool>, batch: usize) -> Option<Self> {
        let mut world = World::new();
        let mut images = Assets::<Image>::default();
        let image = images.add(Image::default());
        world.insert_resource(images);
        world.insert_resource(Image_(image.clone()));
        world.insert_resource(Batch(batch));
        let mut schedule = Schedule::default();
        if let Some(idle) = pooled {
            let config = match prefab {
                "bare" => EntityPoolSettings::from_bundle("bullet", bare()),
                "sprite" => EntityPoolSettings::from_bundle("bullet", sprite(&image)),
                "enemy" => EntityPoolSettings::from_fn("enemy", |enemy| {
                    enemy.insert(enemy_body());
                    enemy_parts(enemy);
                })
                .on_reset(|enemy| {
                    enemy.insert(enemy_body());
                }),
                _ => return None,
            };
            let mut registry = EntityPoolRegistry::from_world(&mut world);
            registry
                .add_kind(
                    Some(core::any::TypeId::of::<Bullet>()),
                    config.max_objects(2 * batch),
                )
                .ok()?;
            world.insert_resource(registry);
            if idle {
                schedule.add_systems((cycle_pool_idle, move_bullets).chain());
            } else {
                schedule.add_systems((cycle_pool, move_bullets).chain());
            }
        } else {
            match prefab {
                "bare" => schedule.add_systems((spawn_bare, move_bullets).chain()),
                "sprite" => schedule.add_systems((spawn_sprite, move_bullets).chain()),
                "enemy" => schedule.add_systems((spawn_enemy, move_bullets).chain()),
                _ => return None,
            };
        }
        let mut frame = Self {
            world,
            schedule,
            batch,
        };
        // Warm: the pool at its size, the archetypes, tables and queues grown.
        for _ in 0..8 {
            frame.cycle();
        }
        Some(frame)
    }

    /// Bullets (or enemies) enabled, and the prefab's entities in the world,
    /// disabled ones and children included.
    pub fn counts(&mut self) -> (usize, usize) {
        use bevy::ecs::entity_disabling::Disabled;
        let enabled = self.world.query::<&Bullet>().iter(&self.world).count();
        let all = self
            .world
            .query_filtered::<Has<Disabled>, Or<(With<Bullet>, With<Part>)>>()
            .iter(&self.world)
            .count();
        (enabled, all)
    }
}

impl Workload for EntityFrame {
    fn cycle(&mut self) {
        self.schedule.run(&mut self.world);
        // As `App::update` does after each frame: without it the removed
        // components' messages (a despawn's, a `Disabled` removed) pile up.
        self.world.clear_trackers();
    }

    fn items_per_cycle(&self) -> u64 {
        self.batch as u64
    }
}

fn place(i: usize) -> Transform {
    Transform::from_xyz(i as f32, 0.0, 0.0)
}

fn cycle_pool(mut pools: EntityPools, mut live: Local<Vec<PooledEntity>>, batch: Res<Batch>) {
    for handle in live.drain(..) {
        let _ = pools.release(handle);
    }
    for i in 0..batch.0 {
        if let Ok(handle) = pools.acquire_with::<Bullet>(place(i)) {
            live.push(handle);
        }
    }
}

fn cycle_pool_idle(mut pools: EntityPools, mut live: Local<Vec<PooledEntity>>, batch: Res<Batch>) {
    let last = live.len();
    for i in 0..batch.0 {
        if let Ok(handle) = pools.acquire_with::<Bullet>(place(i)) {
            live.push(handle);
        }
    }
    for handle in live.drain(..last) {
        let _ = pools.release(handle);
    }
}

fn despawn_all(commands: &mut Commands, live: &mut Vec<Entity>) {
    for entity in live.drain(..) {
        commands.entity(entity).despawn();
    }
}

fn spawn_bare(mut commands: Commands, mut live: Local<Vec<Entity>>, batch: Res<Batch>) {
    despawn_all(&mut commands, &mut live);
    for i in 0..batch.0 {
        live.push(commands.spawn((bare(), place(i))).id());
    }
}

fn spawn_sprite(
    mut commands: Commands,
    mut live: Local<Vec<Entity>>,
    batch: Res<Batch>,
    image: Res<Image_>,
) {
    despawn_all(&mut commands, &mut live);
    for i in 0..batch.0 {
        live.push(commands.spawn((sprite(&image.0), place(i))).id());
    }
}

fn spawn_enemy(mut commands: Commands, mut live: Local<Vec<Entity>>, batch: Res<Batch>) {
    despawn_all(&mut commands, &mut live);
    for i in 0..batch.0 {
        let enemy = commands
            .spawn((enemy_body(), place(i)))
            .with_children(|parts| {
                for part in 0..4 {
                    parts.spawn((Transform::from_xyz(part as f32, 1.0, 0.0), Part));
                }
            })
            .id();
        live.push(enemy);
    }
}

fn move_bullets(mut bullets: Query<(&mut Transform, &Bullet)>) {
    for (mut transform, bullet) in &mut bullets {
        transform.translation.x += bullet.speed / 60.0;
    }
}

/// `entity_pool_cycle_{prefab}` or `spawn_despawn_{prefab}` at `batch`.
pub fn entity_case(name: &str, batch: usize) -> Option<Box<dyn Workload>> {
    let (prefab, pooled) = if let Some(prefab) = name.strip_prefix("entity_pool_cycle_") {
        (prefab, Some(false))
    } else if let Some(prefab) = name.strip_prefix("entity_pool_idle_") {
        (prefab, Some(true))
    } else {
        (name.strip_prefix("spawn_despawn_")?, None)
    };
    EntityFrame::new(prefab, pooled, batch).map(|f| Box::new(f) as Box<dyn Workload>)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frames hold the same scene: a batch enabled and moving, nothing
    /// else (the pool hands the batch it took back out again), or the last
    /// batch idle beside it.
    #[test]
    fn both_frames_hold_a_batch_of_each_prefab() {
        for prefab in ENTITY_PREFABS {
            let per_entity = if prefab == "enemy" { 5 } else { 1 };
            let mut pooled = EntityFrame::new(prefab, Some(false), 100).unwrap();
            let mut idle = EntityFrame::new(prefab, Some(true), 100).unwrap();
            let mut spawned = EntityFrame::new(prefab, None, 100).unwrap();
            assert_eq!(pooled.counts(), (100, 100 * per_entity), "{prefab}");
            assert_eq!(
                idle.counts(),
                (100, 200 * per_entity),
                "{prefab}: a batch idle"
            );
            assert_eq!(spawned.counts(), (100, 100 * per_entity), "{prefab}");
        }
    }
}
