//! pool-audio's integration tests, one binary: each module was its own test
//! binary once, and `common` holds the helpers they share. Apart, each its own
//! binary, the tests that install a counting global allocator
//! (`tests/no_alloc.rs`, `tests/music.rs`, `tests/offline.rs`,
//! `tests/loaders.rs`); `no_alloc` and `music` take in `common` by its path.
//!
//! proptest keeps its regressions beside this directory, in
//! `tests/proptest-regressions/<module>.txt`.

mod common;

mod clipping;
mod determinism;
mod distance_priority;
mod doppler;
mod ducking;
mod ended;
mod headroom;
mod loudness_window;
mod occlusion;
mod owners;
mod remove_sound;
mod reuse;
mod scenes;
mod snapshots;
mod spatial;
mod start_times;
mod variations;
mod virtual_voices;
mod voice_bank;
mod voice_limits;
