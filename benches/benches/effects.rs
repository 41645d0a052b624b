//! Criterion benchmarks of `pool-effects`: one update over 10 000 and 100 000 live
//! effects, and a spawn-then-stop cycle, next to a naive `Vec<Box<Effect>>`. The
//! `report` binary prints the same cases per live effect, side by side.

use std::time::Duration;

use benches::{EFFECTS_SPAWN_SIZE, EFFECTS_UPDATE_SIZES, workload};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn effects(c: &mut Criterion) {
    let mut group = c.benchmark_group("effects");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    let cases = EFFECTS_UPDATE_SIZES
        .iter()
        .flat_map(|size| [("effects_update", *size), ("naive_effects_update", *size)])
        .chain([
            ("effects_spawn", EFFECTS_SPAWN_SIZE),
            ("naive_effects_spawn", EFFECTS_SPAWN_SIZE),
        ]);
    for (name, size) in cases {
        let mut case = workload(name, size).expect("every listed case exists");
        // One dynamic call per sample; the cycles run in a monomorphized loop.
        group.bench_function(BenchmarkId::new(name, size), |b| {
            b.iter_custom(|cycles| case.timed_run(cycles))
        });
    }
    group.finish();
}

criterion_group!(benches, effects);
criterion_main!(benches);
