//! A criterion group to copy for your own policy: your object type and policy in a
//! pool cycle (half live: acquire, write, release the oldest) and full (every
//! acquire asks the policy), beside `RecycleOldest`, at two sizes.
//! `cargo bench -p benches --bench custom_policy`.

use std::time::Duration;

use benches::{PoolFull, PoolHalfLive, Pooled, Workload};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pool_core::{ExhaustionPolicy, Key, LiveObjects, RecycleOldest};

/// Your object: a bullet with a distance to the player.
#[derive(Default)]
struct Bullet {
    distance: f32,
}

impl Pooled for Bullet {
    fn fresh() -> Self {
        Bullet::default()
    }

    fn spawn(&mut self, n: u32) {
        self.distance = (n % 100) as f32;
    }
}

/// Your policy: recycle the bullet furthest from the player.
struct Furthest;

impl ExhaustionPolicy<Bullet> for Furthest {
    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, Bullet, K>) -> Option<K> {
        live.iter()
            .max_by(|(_, a), (_, b)| a.distance.total_cmp(&b.distance))
            .map(|(handle, _)| handle)
    }
}

fn custom_policy(c: &mut Criterion) {
    for size in [64, 1024] {
        let mut group = c.benchmark_group(format!("custom_policy/{size}"));
        group
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        let cases: [(&str, Box<dyn Workload>); 3] = [
            (
                "furthest",
                Box::new(PoolHalfLive::<_, Bullet>::new(size, size, Furthest)),
            ),
            (
                "furthest_full",
                Box::new(PoolFull::<_, Bullet>::new(size, Furthest)),
            ),
            (
                "fifo_recycle_full",
                Box::new(PoolFull::<_, Bullet>::new(size, RecycleOldest)),
            ),
        ];
        for (name, mut case) in cases {
            group.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter_custom(|cycles| case.timed_run(cycles))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, custom_policy);
criterion_main!(benches);
