//! Once a pool has reached its size, its hot paths never touch the heap. Proven by
//! counting every allocation this thread makes through a counting global allocator.

use pool_core::{KeyedPool, PolicyChoice, Pool, RecycleLowest, RecycleOldest, Strict};

#[global_allocator]
static GLOBAL: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;

/// Frames per test: fewer under Miri, which interprets every instruction.
const FRAMES: u32 = if cfg!(miri) { 20 } else { 1000 };

use alloc_counter::allocations_during;

#[derive(Default)]
struct Particle {
    position: [f32; 2],
    life: f32,
    trail: Vec<[f32; 2]>,
}

#[test]
fn hot_paths_do_not_allocate_once_the_pool_has_reached_its_size() {
    // Grown on demand (initial 0), then warm: every slot exists.
    let mut pool = Pool::builder(|| Particle {
        trail: Vec::with_capacity(16),
        ..Particle::default()
    })
    .max_objects(256)
    .policy(RecycleOldest)
    .on_release(|p| {
        p.trail.clear();
        p.life = 0.0;
    })
    .build()
    .unwrap();
    let mut handles = Vec::with_capacity(1024);
    for _ in 0..256 {
        handles.push(pool.acquire());
    }
    for handle in handles.drain(..) {
        pool.release(handle).unwrap();
    }

    let count = allocations_during(|| {
        for frame in 0..FRAMES {
            // acquire and write
            for _ in 0..80 {
                let handle = pool.acquire();
                let particle = pool.get_mut(handle).unwrap();
                particle.life = 1.0 + (frame % 7) as f32;
                particle.trail.push([0.0, 1.0]);
                handles.push(handle);
            }
            // recycle-oldest path: the pool is full half the time
            let acquired = pool.try_acquire_detailed().unwrap();
            handles.push(acquired.handle);
            let (acquired, particle) = pool.try_acquire_detailed_mut().unwrap();
            particle.trail.push([1.0, 0.0]);
            handles.push(acquired.handle);
            // release by hand, including stale handles
            for handle in handles.drain(..10) {
                let _ = pool.release(handle);
            }
            let _ = pool.get(handles[0]);
            let _ = pool.contains(handles[1]);
            if let Some([a, b]) = pool.get_disjoint_mut([handles[0], handles[1]]) {
                std::mem::swap(&mut a.life, &mut b.life);
            }
            for (_, particle) in pool.iter_mut() {
                particle.life += 0.5;
            }
            // reclaim finished ones, update the rest
            pool.reclaim(|_, p| {
                p.life -= 1.0;
                p.life <= 0.0
            });
            pool.for_each_mut(|_, p| p.position[0] += 1.0);
            let _live: usize = pool.iter().count();
            let _ = pool.oldest();
            handles.retain(|h| pool.contains(*h));
        }
    });
    assert_eq!(count, 0, "allocations in warm frames");
    assert!(pool.stats().recycles > 0, "the recycle path was exercised");
}

#[test]
fn strict_and_custom_policies_do_not_allocate_when_refusing_or_recycling() {
    let mut strict = Pool::builder(|| 0u64)
        .initial(64)
        .max_objects(64)
        .policy(Strict)
        .build()
        .unwrap();
    let mut lowest = Pool::builder(|| 0u64)
        .initial(64)
        .max_objects(64)
        .policy(RecycleLowest(|v: &u64| *v))
        .build()
        .unwrap();
    for _ in 0..64 {
        let _ = strict.acquire();
        let _ = lowest.acquire();
    }
    let count = allocations_during(|| {
        for i in 0..u64::from(FRAMES) * 10 {
            assert!(strict.try_acquire().is_err());
            let handle = lowest.acquire();
            *lowest.get_mut(handle).unwrap() = i % 13;
        }
    });
    assert_eq!(count, 0);
    assert_eq!(strict.stats().refusals, u64::from(FRAMES) * 10);
}

#[test]
fn keyed_pools_do_not_allocate_on_the_hot_path() {
    let mut pools: KeyedPool<u32> = KeyedPool::new();
    let kinds: Vec<_> = ["explosion", "bite", "spark"]
        .iter()
        .map(|name| {
            pools
                .add_kind(
                    name,
                    Pool::builder(|| 0)
                        .initial(100)
                        .max_objects(100)
                        .policy(PolicyChoice::RecycleOldest),
                )
                .unwrap()
        })
        .collect();
    let count = allocations_during(|| {
        for frame in 0..FRAMES {
            for kind in &kinds {
                let handle = pools.acquire(*kind);
                *pools.get_mut(handle).unwrap() = frame;
            }
            pools.reclaim(|_, _, spawned| frame - *spawned > 5);
        }
    });
    assert_eq!(count, 0);
}
