//! Criterion benchmarks of `pool-audio` on the offline backend: the game-thread
//! cost of `play` (free voice, and stealing) beside a raw kira `play`, and `update`
//! with 64 active voices. Rendering between batches is not timed.

use std::time::Duration;

use benches::{AUDIO_CASES, workload};
use criterion::{Criterion, criterion_group, criterion_main};

fn audio(c: &mut Criterion) {
    let mut group = c.benchmark_group("audio");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for name in AUDIO_CASES {
        let mut case = workload(name, 64).expect("every listed case exists");
        group.bench_function(name, |b| b.iter_custom(|cycles| case.timed_run(cycles)));
    }
    group.finish();
}

criterion_group!(benches, audio);
criterion_main!(benches);
