//! Pooled entities, headless: a model-based test of acquire, release, recycle,
//! the game's own despawns, trim and reinitialize; a kept handle of a
//! recycled bullet that moves nothing; and a warm frame of 1,000
//! acquisitions and releases that allocates nothing.

use std::time::Duration;

use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_pool::{
    EntityKind, EntityPolicy, EntityPoolAppExt, EntityPoolError, EntityPoolPlugin,
    EntityPoolRegistry, EntityPoolSettings, EntityPools, EntityRecycled, PoolMember, PooledEntity,
    ReleaseAfter,
};
use proptest::prelude::*;

#[derive(Component, Clone, Default)]
struct Enemy;

#[derive(Component, Clone, Default)]
struct Part;

#[derive(Component, Clone, Default, PartialEq, Debug)]
struct Health(u32);

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((bevy::time::TimePlugin, EntityPoolPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 60.0,
        )));
    app
}

/// An enemy with two children, its health reset at each reuse.
fn enemies(initial: usize, max: usize, policy: EntityPolicy, refill: bool) -> EntityPoolSettings {
    EntityPoolSettings::from_fn("enemy", |enemy| {
        enemy.insert((Enemy, Health(3), Transform::default()));
        enemy.with_children(|parts| {
            parts.spawn(Part);
            parts.spawn(Part);
        });
    })
    .on_reset(|enemy| {
        enemy.insert(Health(3));
    })
    .initial(initial)
    .max_objects(max)
    .policy(policy)
    .refill(refill)
}

fn run<T: 'static>(
    app: &mut App,
    system: impl FnOnce(EntityPools) -> T + Send + Sync + 'static,
) -> T {
    let mut system = Some(system);
    app.world_mut()
        .run_system_once(move |pools: EntityPools| (system.take().unwrap())(pools))
        .unwrap()
}

#[derive(Debug, Clone)]
enum Op {
    Acquire,
    Release(usize),
    /// A release and an acquisition in one system (one command queue).
    ReleaseAcquire(usize),
    ReleaseStale(usize),
    Despawn(usize),
    TakePooled(usize),
    Trim(usize),
    Reinitialize,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => Just(Op::Acquire),
        4 => any::<usize>().prop_map(Op::Release),
        2 => any::<usize>().prop_map(Op::ReleaseAcquire),
        1 => any::<usize>().prop_map(Op::ReleaseStale),
        2 => any::<usize>().prop_map(Op::Despawn),
        1 => any::<usize>().prop_map(Op::TakePooled),
        1 => (0..4usize).prop_map(Op::Trim),
        1 => Just(Op::Reinitialize),
    ]
}

/// What the pool should hold, counted from the outside.
struct Model {
    initial: usize,
    max: usize,
    policy: EntityPolicy,
    refill: bool,
    live: Vec<PooledEntity>,
    stale: Vec<PooledEntity>,
    idle: usize,
    despawned: u64,
}

impl Model {
    fn total(&self) -> usize {
        self.live.len() + self.idle
    }

    /// After a frame's sweep: the pool refills to `initial` if asked.
    fn sweep(&mut self) {
        if self.refill && self.total() < self.initial {
            self.idle = self.initial - self.live.len().min(self.initial);
        }
    }
}

/// Every pooled entity the world holds, enabled or not: (entity, its handle).
fn pooled_entities(app: &mut App) -> Vec<(Entity, PooledEntity, bool)> {
    let world = app.world_mut();
    let mut query = world.query::<(Entity, &PoolMember, Has<Disabled>)>();
    query
        .iter(world)
        .map(|(entity, pooled, disabled)| (entity, pooled.handle(), disabled))
        .collect()
}

fn tree_disabled(world: &World, root: Entity) -> Vec<bool> {
    let mut tree = vec![root];
    let mut at = 0;
    while at < tree.len() {
        if let Some(children) = world.get::<Children>(tree[at]) {
            tree.extend(children.iter());
        }
        at += 1;
    }
    tree.iter()
        .map(|entity| world.get::<Disabled>(*entity).is_some())
        .collect()
}

fn check(app: &mut App, kind: EntityKind, model: &Model) -> Result<(), TestCaseError> {
    let stats = app
        .world()
        .resource::<EntityPoolRegistry>()
        .stats(kind)
        .unwrap();
    prop_assert_eq!(stats.pool.live, model.live.len(), "live");
    prop_assert_eq!(stats.pool.idle, model.idle, "idle");
    prop_assert_eq!(stats.despawned, model.despawned, "despawned");
    prop_assert_eq!(stats.unspawned, 0, "every idle place spawned after a frame");
    let registry = app.world().resource::<EntityPoolRegistry>();
    for handle in &model.live {
        prop_assert_eq!(registry.get(*handle), Some(handle.entity()));
    }
    for handle in &model.stale {
        prop_assert_eq!(registry.get(*handle), None, "stale stays stale");
    }
    let entities = pooled_entities(app);
    let world = app.world();
    let mut idle = 0;
    for (entity, handle, _) in &entities {
        let disabled = tree_disabled(world, *entity);
        prop_assert_eq!(disabled.len(), 3, "an enemy and its two parts");
        if model.live.contains(handle) {
            prop_assert!(
                disabled.iter().all(|d| !d),
                "a live enemy is enabled, parts too"
            );
        } else {
            idle += 1;
            prop_assert!(
                disabled.iter().all(|d| *d),
                "an idle enemy is disabled, parts too"
            );
        }
    }
    prop_assert_eq!(idle, model.idle, "idle entities in the world");
    let live_entities: std::collections::HashSet<Entity> =
        model.live.iter().map(|h| h.entity()).collect();
    prop_assert_eq!(
        live_entities.len(),
        model.live.len(),
        "distinct live entities"
    );
    Ok(())
}

fn step(app: &mut App, kind: EntityKind, model: &mut Model, op: &Op) -> Result<(), TestCaseError> {
    match *op {
        Op::Acquire => {
            let got = run(app, move |mut pools| pools.acquire::<Enemy>());
            app.update();
            let recycled: Vec<EntityRecycled> = app
                .world_mut()
                .resource_mut::<Messages<EntityRecycled>>()
                .drain()
                .collect();
            if model.idle > 0 || model.total() < model.max {
                let handle = got.map_err(|e| TestCaseError::fail(format!("{e}")))?;
                if model.idle > 0 {
                    model.idle -= 1;
                }
                model.live.push(handle);
                prop_assert!(recycled.is_empty());
            } else if model.policy == EntityPolicy::RecycleOldest {
                let handle = got.map_err(|e| TestCaseError::fail(format!("{e}")))?;
                let oldest = model.live.remove(0);
                prop_assert_eq!(oldest.entity(), handle.entity(), "the oldest is reused");
                prop_assert_eq!(
                    recycled,
                    vec![EntityRecycled {
                        stale: oldest,
                        handle
                    }]
                );
                model.stale.push(oldest);
                model.live.push(handle);
            } else {
                prop_assert_eq!(got, Err(EntityPoolError::Exhausted(kind)));
            }
        }
        Op::Release(pick) if !model.live.is_empty() => {
            let handle = model.live.remove(pick % model.live.len());
            run(app, move |mut pools| pools.release(handle))
                .map_err(|e| TestCaseError::fail(format!("{e}")))?;
            app.update();
            model.stale.push(handle);
            model.idle += 1;
        }
        Op::ReleaseAcquire(pick) if !model.live.is_empty() => {
            let handle = model.live.remove(pick % model.live.len());
            let got = run(app, move |mut pools| {
                pools.release(handle).unwrap();
                pools.acquire::<Enemy>()
            })
            .map_err(|e| TestCaseError::fail(format!("{e}")))?;
            app.update();
            prop_assert_eq!(got.entity(), handle.entity(), "the entity just released");
            model.stale.push(handle);
            model.live.push(got);
        }
        Op::ReleaseStale(pick) if !model.stale.is_empty() => {
            let handle = model.stale[pick % model.stale.len()];
            let got = run(app, move |mut pools| pools.release(handle));
            prop_assert_eq!(got, Err(EntityPoolError::Stale(handle)));
            app.update();
        }
        Op::Despawn(pick) | Op::TakePooled(pick) => {
            let entities = pooled_entities(app);
            if entities.is_empty() {
                return Ok(());
            }
            let (entity, _, _) = entities[pick % entities.len()];
            if let Some(at) = model.live.iter().position(|h| h.entity() == entity) {
                model.stale.push(model.live.remove(at));
            } else {
                model.idle -= 1;
            }
            model.despawned += 1;
            if matches!(op, Op::Despawn(_)) {
                app.world_mut().entity_mut(entity).despawn();
            } else {
                app.world_mut().entity_mut(entity).remove::<PoolMember>();
            }
            app.update();
            model.sweep();
        }
        Op::Trim(keep) => {
            let dropped = run(app, move |mut pools| pools.trim_idle(kind, keep)).unwrap();
            app.update();
            prop_assert_eq!(dropped, model.idle.saturating_sub(keep));
            model.idle = model.idle.min(keep);
        }
        Op::Reinitialize => {
            run(app, move |mut pools| pools.reinitialize(kind)).unwrap();
            app.update();
            model.idle += model.live.len();
            model.stale.append(&mut model.live);
            model.idle = model.initial.max(model.idle.min(model.initial));
        }
        _ => {}
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn entity_pools_match_the_model(
        initial in 0..4usize,
        extra in 1..4usize,
        recycle in any::<bool>(),
        refill in any::<bool>(),
        ops in prop::collection::vec(op(), 1..40),
    ) {
        let policy = if recycle { EntityPolicy::RecycleOldest } else { EntityPolicy::Strict };
        let mut app = app();
        let kind = app.add_entity_pool::<Enemy>(enemies(initial, initial + extra, policy, refill)).unwrap();
        app.update();
        let mut model = Model {
            initial, max: initial + extra, policy, refill,
            live: Vec::new(), stale: Vec::new(), idle: initial, despawned: 0,
        };
        check(&mut app, kind, &model)?;
        for op in &ops {
            step(&mut app, kind, &mut model, op)?;
            check(&mut app, kind, &model)?;
        }
    }
}

#[derive(Component, Clone, Default)]
struct Bullet;

#[derive(Resource, Default)]
struct Fired(Vec<PooledEntity>);

/// The trap a pool of plain entities sets, and how a `PooledEntity` avoids it.
#[test]
fn a_kept_handle_of_a_recycled_bullet_moves_nothing() {
    let mut app = app();
    app.add_entity_pool::<Bullet>(
        EntityPoolSettings::from_bundle("bullet", (Bullet, Transform::default()))
            .max_objects(1)
            .policy(EntityPolicy::RecycleOldest),
    )
    .unwrap();
    app.update();
    let first = run(&mut app, |mut pools| {
        pools.acquire_with::<Bullet>(Transform::from_xyz(1.0, 0.0, 0.0))
    })
    .unwrap();
    let second = run(&mut app, |mut pools| {
        pools.acquire_with::<Bullet>(Transform::from_xyz(5.0, 0.0, 0.0))
    })
    .unwrap();
    app.update();
    // The pool had one bullet: the second shot recycled the first.
    assert_eq!(first.entity(), second.entity());
    let recycled: Vec<_> = app
        .world_mut()
        .resource_mut::<Messages<EntityRecycled>>()
        .drain()
        .collect();
    assert_eq!(
        recycled,
        vec![EntityRecycled {
            stale: first,
            handle: second
        }]
    );
    // A system that kept the first bullet's handle moves nothing...
    let moved = app
        .world_mut()
        .run_system_once(
            move |pools: EntityPools, mut transforms: Query<&mut Transform>| {
                let Some(entity) = pools.get(first) else {
                    return false;
                };
                transforms.get_mut(entity).unwrap().translation.x += 100.0;
                true
            },
        )
        .unwrap();
    assert!(!moved);
    let x = |app: &App| {
        app.world()
            .get::<Transform>(second.entity())
            .unwrap()
            .translation
            .x
    };
    assert_eq!(x(&app), 5.0, "the second bullet stays where it was fired");
    // ...while the raw `Entity` kept from it is the second bullet now: this is
    // the trap (documented on `PooledEntity::entity`).
    app.world_mut()
        .get_mut::<Transform>(first.entity())
        .unwrap()
        .translation
        .x += 100.0;
    assert_eq!(
        x(&app),
        105.0,
        "a raw Entity moves whoever has the entity now"
    );
    // Releasing with the stale handle is refused and changes nothing.
    assert_eq!(
        run(&mut app, move |mut pools| pools.release(first)),
        Err(EntityPoolError::Stale(first))
    );
    assert!(
        app.world()
            .resource::<EntityPoolRegistry>()
            .contains(second)
    );
}

#[test]
fn lifetimes_release_in_their_time() {
    let mut app = app();
    app.add_entity_pool::<Bullet>(
        EntityPoolSettings::from_bundle("bullet", (Bullet, Transform::default())).initial(2),
    )
    .unwrap();
    app.update();
    let short = run(&mut app, |mut pools| {
        pools.acquire_with::<Bullet>(ReleaseAfter(std::time::Duration::from_millis(100)))
    })
    .unwrap();
    let now = run(&mut app, |mut pools| {
        pools.acquire_with::<Bullet>(ReleaseAfter(std::time::Duration::ZERO))
    })
    .unwrap();
    app.update();
    fn registry(app: &App) -> &EntityPoolRegistry {
        app.world().resource::<EntityPoolRegistry>()
    }
    assert!(
        !registry(&app).contains(now),
        "a zero lifetime releases at the next update"
    );
    // 0.1 s at 60 frames a second: live for 5 more frames, released by the 7th.
    for _ in 0..4 {
        app.update();
    }
    assert!(registry(&app).contains(short));
    for _ in 0..3 {
        app.update();
    }
    assert!(!registry(&app).contains(short));
    assert!(
        app.world().get::<Disabled>(short.entity()).is_some(),
        "released entities are disabled"
    );
}

#[test]
fn the_lowest_priority_is_recycled_and_strict_pools_refuse() {
    let mut app = app();
    app.add_entity_pool::<Enemy>(enemies(0, 3, EntityPolicy::RecycleLowestPriority, false))
        .unwrap();
    let handles: Vec<PooledEntity> = run(&mut app, |mut pools| {
        let handles: Vec<_> = (0..3).map(|_| pools.acquire::<Enemy>().unwrap()).collect();
        for (handle, priority) in handles.iter().zip([5.0, -1.0, 2.0]) {
            pools.set_priority(*handle, priority).unwrap();
        }
        assert!(matches!(
            pools.set_priority(handles[0], f32::NAN),
            Err(EntityPoolError::BadPriority(p)) if p.is_nan()
        ));
        handles
    });
    let newest = run(&mut app, |mut pools| pools.acquire::<Enemy>()).unwrap();
    app.update();
    let registry = app.world().resource::<EntityPoolRegistry>();
    assert!(!registry.contains(handles[1]), "priority -1 was the lowest");
    assert!(registry.contains(handles[0]) && registry.contains(handles[2]));
    assert_eq!(newest.entity(), handles[1].entity());
    assert_eq!(
        app.world().get::<Health>(newest.entity()),
        Some(&Health(3)),
        "the reset hook ran"
    );
}

/// A frame that acquires 1,000 bullets and releases the 1,000 of the frame
/// before allocates what the same frame allocates without the pools.
#[test]
fn a_warm_frame_of_1000_acquisitions_and_releases_allocates_nothing() {
    fn frame_app(with_pools: bool) -> App {
        let mut app = app();
        app.init_resource::<Fired>();
        if with_pools {
            app.add_entity_pool::<Bullet>(
                EntityPoolSettings::from_bundle("bullet", (Bullet, Transform::default()))
                    .initial(2_000)
                    .max_objects(2_000),
            )
            .unwrap();
            app.add_systems(
                Update,
                |mut pools: EntityPools, mut fired: ResMut<Fired>| {
                    for handle in fired.0.drain(..) {
                        pools.release(handle).unwrap();
                    }
                    for i in 0..1_000 {
                        let at = Transform::from_xyz(i as f32, 0.0, 0.0);
                        fired.0.push(pools.acquire_with::<Bullet>(at).unwrap());
                    }
                },
            );
        } else {
            app.add_systems(Update, |mut fired: ResMut<Fired>| {
                fired.0.clear();
            });
        }
        app
    }
    let per_frames = |app: &mut App| {
        for _ in 0..30 {
            app.update();
        }
        alloc_counter::allocations_during(|| {
            for _ in 0..30 {
                app.update();
            }
        })
    };
    let without = per_frames(&mut frame_app(false));
    let with = per_frames(&mut frame_app(true));
    assert!(
        with <= without,
        "30 frames allocated {with} times with 1,000 acquisitions and releases each, {without} without"
    );
}

/// An idle entity the game despawned is not handed out, even before the
/// pools' next sweep: the acquisition gets a new entity, enabled.
#[test]
fn an_idle_entity_despawned_by_the_game_is_replaced_at_once() {
    let mut app = app();
    let kind = app
        .add_entity_pool::<Enemy>(enemies(1, 2, EntityPolicy::Strict, false))
        .unwrap();
    app.update();
    let idle = pooled_entities(&mut app)[0].0;
    app.world_mut().entity_mut(idle).despawn();
    let handle = run(&mut app, |mut pools| pools.acquire::<Enemy>()).unwrap();
    assert_ne!(handle.entity(), idle);
    assert_eq!(tree_disabled(app.world(), handle.entity()), vec![false; 3]);
    app.update();
    let stats = app
        .world()
        .resource::<EntityPoolRegistry>()
        .stats(kind)
        .unwrap();
    assert_eq!(
        (stats.pool.live, stats.pool.idle, stats.despawned),
        (1, 0, 1)
    );
}

/// Commands of two systems applied in the other order than the systems ran
/// (a release in one, the same entity acquired in the next): the entity ends
/// up as its pool says, enabled.
#[test]
fn commands_applied_out_of_order_leave_the_entity_as_the_pool_says() {
    use bevy::ecs::system::SystemState;
    let mut app = app();
    app.add_entity_pool::<Bullet>(
        EntityPoolSettings::from_bundle("bullet", (Bullet, Transform::default())).max_objects(1),
    )
    .unwrap();
    let first = run(&mut app, |mut pools| pools.acquire::<Bullet>()).unwrap();
    let world = app.world_mut();
    let mut releasing = SystemState::<EntityPools>::new(world);
    let mut acquiring = SystemState::<EntityPools>::new(world);
    releasing.get_mut(world).unwrap().release(first).unwrap();
    let second = acquiring
        .get_mut(world)
        .unwrap()
        .acquire::<Bullet>()
        .unwrap();
    assert_eq!(first.entity(), second.entity());
    acquiring.apply(world);
    releasing.apply(world);
    assert!(
        world.get::<Disabled>(second.entity()).is_none(),
        "live, so enabled"
    );
    assert_eq!(
        world.get::<PoolMember>(second.entity()).unwrap().handle(),
        second
    );
}

/// A prewarm spread over frames spawns its budget a frame; an acquisition
/// that finds no entity ready spawns one on the spot.
#[test]
fn a_prewarm_over_frames_spawns_its_budget_a_frame() {
    let mut app = app();
    let kind = app
        .add_entity_pool::<Enemy>(enemies(5, 8, EntityPolicy::Strict, false).prewarm_per_frame(2))
        .unwrap();
    let stats = |app: &App| {
        app.world()
            .resource::<EntityPoolRegistry>()
            .stats(kind)
            .unwrap()
    };
    assert_eq!(stats(&app).unspawned, 5);
    let handle = run(&mut app, |mut pools| pools.acquire::<Enemy>()).unwrap();
    assert_eq!(tree_disabled(app.world(), handle.entity()), vec![false; 3]);
    assert_eq!(stats(&app).unspawned, 4);
    app.update();
    assert_eq!(stats(&app).unspawned, 2);
    assert_eq!(pooled_entities(&mut app).len(), 3);
    app.update();
    app.update();
    let stats = stats(&app);
    assert_eq!(
        (stats.unspawned, stats.pool.live, stats.pool.idle),
        (0, 1, 4)
    );
    assert_eq!(pooled_entities(&mut app).len(), 5);
}

/// Bad requests are typed errors and change nothing.
#[test]
fn bad_requests_are_typed_errors_and_change_nothing() {
    let mut app = app();
    let kind = app
        .add_entity_pool::<Enemy>(enemies(1, 1, EntityPolicy::Strict, false))
        .unwrap();
    assert!(matches!(
        app.add_entity_pool::<Enemy>(enemies(1, 1, EntityPolicy::Strict, false)),
        Err(EntityPoolError::DuplicateKind(_))
    ));
    assert!(matches!(
        app.add_entity_pool::<Bullet>(
            EntityPoolSettings::from_bundle("bullet", Bullet)
                .initial(5)
                .max_objects(2)
        ),
        Err(EntityPoolError::Settings(_))
    ));
    app.update();
    let before = app
        .world()
        .resource::<EntityPoolRegistry>()
        .stats(kind)
        .unwrap();
    assert!(matches!(
        run(&mut app, |mut pools| pools.acquire::<Bullet>()),
        Err(EntityPoolError::UnknownKind(_))
    ));
    assert!(matches!(
        run(&mut app, |pools| pools.kind_named("nothing")),
        Err(EntityPoolError::UnknownKind(name)) if name == "nothing"
    ));
    let live = run(&mut app, |mut pools| pools.acquire::<Enemy>()).unwrap();
    assert_eq!(
        run(&mut app, |mut pools| pools.acquire::<Enemy>()),
        Err(EntityPoolError::Exhausted(kind))
    );
    run(&mut app, move |mut pools| pools.release(live)).unwrap();
    assert_eq!(
        run(&mut app, move |mut pools| pools.release(live)),
        Err(EntityPoolError::Stale(live)),
        "a double release"
    );
    assert_eq!(
        run(&mut app, move |mut pools| pools.set_priority(live, 1.0)),
        Err(EntityPoolError::Stale(live))
    );
    app.update();
    let after = app
        .world()
        .resource::<EntityPoolRegistry>()
        .stats(kind)
        .unwrap();
    assert_eq!(
        (
            after.pool.live,
            after.pool.idle,
            after.pool.acquires,
            after.pool.releases
        ),
        (
            before.pool.live,
            before.pool.idle,
            before.pool.acquires + 1,
            before.pool.releases + 1
        ),
        "one acquisition and one release, nothing from the refused calls"
    );
}
