//! Criterion benchmarks: one cycle (acquire, write, release the oldest) of every
//! policy and baseline at every size. The `report` binary prints the same cases as
//! one side-by-side table.

use std::time::Duration;

use benches::{CASES, SIZES, workload};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn pool_cycle(c: &mut Criterion) {
    for size in SIZES {
        let mut group = c.benchmark_group(format!("cycle/{size}"));
        group
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        for name in CASES {
            let mut case = workload(name, size).expect("every listed case exists");
            // One dynamic call per sample; the cycles run in a monomorphized loop.
            group.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter_custom(|cycles| case.timed_run(cycles))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, pool_cycle);
criterion_main!(benches);
