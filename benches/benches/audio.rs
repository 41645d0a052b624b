//! Criterion benchmarks of `pool-audio` on the offline backend: the game-thread
//! cost of `play` (free voice, and stealing) beside a raw kira `play`, and `update`
//! with 64 active voices (rendering between batches is not timed); the limiter
//! over one second of audio beside the render of the ten voices it protects;
//! and the voice bank's mixing beside kira's own 32 sounds.

use std::time::Duration;

use benches::{AUDIO_CASES, MIX_CASES, RENDER_CASES, workload};
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

fn mix(c: &mut Criterion) {
    let mut group = c.benchmark_group("mix");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for &name in MIX_CASES.iter().chain(&RENDER_CASES) {
        let mut case = workload(name, 1).expect("every listed case exists");
        group.bench_function(name, |b| b.iter_custom(|cycles| case.timed_run(cycles)));
    }
    group.finish();
}

criterion_group!(benches, audio, mix);
criterion_main!(benches);
