//! pool-audio's integration tests, one binary: each module was its own test
//! binary once, and `common` holds the helpers they share. The tests that
//! count heap calls are in `tests/counted`, the binary with the counting
//! global allocator, which takes in `common` by its path.
//!
//! proptest keeps its regressions beside this directory, in
//! `tests/proptest-regressions/<module>.txt`.

mod common;

mod banks;
mod buses;
mod capture;
mod clipping;
mod curve_targets;
mod determinism;
mod distance_priority;
mod doppler;
mod ducking;
mod ended;
mod game_params;
mod headroom;
mod loudness_window;
mod occlusion;
mod owners;
mod reload;
mod remove_sound;
mod reuse;
mod scenes;
mod sends;
mod sidechain;
mod snapshots;
mod spatial;
mod start_times;
mod switches;
mod variations;
mod virtual_voices;
mod voice_bank;
mod voice_limits;
mod voice_table;
mod zones;
