//! pool-effects' integration tests, one binary: each module was its own test
//! binary once. The tests that count allocations are in `tests/counted`, the
//! binary with the counting global allocator.
//!
//! proptest keeps its regressions beside this directory, in
//! `tests/proptest-regressions/<module>.txt`.

mod behaviour;
mod model;
