//! Once warm, a frame of effects (spawn, update, finished events, draw list, stop)
//! never touches the heap: counted through a counting global allocator.

use pool_effects::{DrawList, EffectKind, Effects};
use std::time::Duration;

const FRAMES: u32 = if cfg!(miri) { 30 } else { 600 };

#[test]
fn a_warm_frame_of_effects_does_not_allocate() {
    let mut effects = Effects::new();
    let explosion = effects
        .add_kind(
            EffectKind::new("explosion", 12, Duration::from_secs_f64(1.0 / 30.0))
                .layer(1)
                .pool(200, 200),
        )
        .unwrap();
    let bite = effects
        .add_kind(
            EffectKind::new("bite", 6, Duration::from_millis(50))
                .layer(1)
                .pool(200, 200),
        )
        .unwrap();
    let fire = effects
        .add_kind(
            EffectKind::new("fire", 8, Duration::from_millis(50))
                .layer(0)
                .looping()
                .pool(50, 50),
        )
        .unwrap();
    let mut loops = Vec::with_capacity(64);
    // The draw list makes room for every instance at its first fill.
    let mut draw = DrawList::new();
    assert!(draw.fill(&effects).is_empty());

    let before = alloc_counter::thread_allocations();
    let mut drawn = 0;
    for frame in 0..FRAMES {
        // Explosions overflow their pool and recycle; bites finish on their own.
        for i in 0..30 {
            let boom = effects.spawn(explosion, [i as f32, frame as f32]).unwrap();
            effects.get_mut(boom).unwrap().tag = u64::from(frame);
            if i < 5 {
                effects.spawn(bite, [0.0, 0.0]).unwrap();
            }
        }
        if frame % 10 == 0 && loops.len() < 40 {
            loops.push(effects.spawn(fire, [0.0, 0.0]).unwrap());
        }
        if frame % 25 == 0
            && let Some(handle) = loops.pop()
        {
            effects.stop(handle).unwrap();
        }
        effects.update(1.0 / 60.0).unwrap();
        drawn += effects.finished().len();
        drawn += draw.fill(&effects).len();
    }
    let count = alloc_counter::thread_allocations() - before;
    assert_eq!(count, 0, "allocations in {FRAMES} frames");
    assert!(drawn > 0);
    assert!(
        effects.stats(explosion).unwrap().pool.recycles > 0,
        "recycling exercised"
    );
    assert!(
        effects.stats(bite).unwrap().finished > 0,
        "finishing exercised"
    );
}

#[test]
fn a_warm_frame_of_chained_effects_and_taken_events_does_not_allocate() {
    let mut effects = Effects::new();
    let boom = effects
        .add_kind(
            EffectKind::new("explosion", 6, Duration::from_secs_f64(1.0 / 30.0)).follow_up("smoke"),
        )
        .unwrap();
    // A full strict smoke pool refuses some follow-ups: refusals allocate nothing.
    let smoke = effects
        .add_kind(
            EffectKind::new("smoke", 12, Duration::from_secs_f64(1.0 / 30.0))
                .pool(0, 100)
                .strict(),
        )
        .unwrap();
    let ring = effects
        .add_kind(EffectKind::new("ring", 3, Duration::from_millis(50)))
        .unwrap();
    let mut done = Vec::new();
    let frame = |effects: &mut Effects, done: &mut Vec<_>, frame: u32| {
        for i in 0..20 {
            effects.spawn(boom, [i as f32, frame as f32]).unwrap();
        }
        effects.update(1.0 / 60.0).unwrap();
        effects.take_finished(done);
        for finished in done.iter() {
            if finished.kind == smoke {
                effects.spawn(ring, finished.position).unwrap();
            }
        }
    };
    // Warm up: the pools and both finished lists reach their size.
    for f in 0..120 {
        frame(&mut effects, &mut done, f);
    }
    let allocations = alloc_counter::allocations_during(|| {
        for f in 120..120 + FRAMES {
            frame(&mut effects, &mut done, f);
        }
    });
    assert_eq!(allocations, 0, "allocations in {FRAMES} frames");
    let stats = effects.stats(boom).unwrap();
    assert!(
        stats.follow_ups > 0 && stats.follow_ups_refused > 0,
        "{stats:?}"
    );
    assert!(effects.stats(ring).unwrap().spawns > 0);
}

#[test]
fn memory_follows_the_instances_not_the_cap() {
    let mut effects = Effects::new();
    // A cap of a billion instances: defining it allocates for none of them.
    let defined = alloc_counter::allocations_during(|| {
        effects
            .add_kind(EffectKind::new("spark", 4, Duration::from_millis(50)).pool(0, 1_000_000_000))
            .unwrap();
    });
    assert!(
        defined < 20,
        "{defined} allocations to define an empty kind"
    );
    let spark = effects.kind("spark").unwrap();
    let mut draw = DrawList::new();
    // Growing by spawning: a frame after the kind grew may grow the buffers once;
    // frames at the same size allocate nothing.
    let mut grown = 0;
    let mut steady = 0;
    for frame in 0..120 {
        let growing = frame < 60;
        let allocations = alloc_counter::allocations_during(|| {
            if growing {
                for _ in 0..50 {
                    effects.spawn(spark, [0.0, 0.0]).unwrap();
                }
            }
            effects.update(1.0 / 60.0).unwrap();
            let _ = draw.fill(&effects).len();
        });
        if growing {
            grown += allocations;
        } else {
            steady += allocations;
        }
    }
    assert_eq!(steady, 0, "frames after the pool stopped growing");
    assert!(grown > 0, "the pool and its buffers grew");
}
