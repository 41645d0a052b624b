//! pool-core's integration tests, one binary: each module was its own test
//! binary once. The model and the testing kit's own tests need the `testing`
//! feature (`cargo test -p pool-core --features testing`). The allocation
//! counts stay apart (`tests/no_alloc.rs`): they install a counting global
//! allocator.
//!
//! proptest keeps its regressions beside this directory, in
//! `tests/proptest-regressions/<module>.txt`.

mod behaviour;
mod foreign;
#[cfg(feature = "testing")]
mod model;
#[cfg(feature = "testing")]
mod testing_kit;
