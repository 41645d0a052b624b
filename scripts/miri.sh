#!/usr/bin/env bash
# Miri over the workspace's unsafe code and the tests that exercise it: pool-core's
# slot storage (its unit tests, the model-based property test that every object
# is dropped exactly once, and the model's replayed cases), the counting allocator, and pool-core's
# allocation tests, which run under that allocator. (pool-effects' allocation
# tests pass under Miri too, in three more minutes: `cargo +nightly miri test -p
# pool-effects --test counted -- no_alloc::`.)
# Needs the nightly toolchain with the miri component; installs it if missing.
# CI runs it (`.ci/run`), beside its other steps: about 3 minutes of one core.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo +nightly miri --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal --component miri,rust-src
fi
cargo +nightly miri setup

# Miri checks for undefined behaviour and leaks; isolation is off because the
# test harness reads the clock.
export MIRIFLAGS="${MIRIFLAGS:-} -Zmiri-disable-isolation"
# Property tests run one case each under Miri: it is ~1000x slower than
# native, and a generated case of 16 steps takes it about 10 s. CI runs the
# script on every change, so every run draws new cases.
export PROPTEST_CASES="${PROPTEST_CASES:-1}"

set -x
cargo +nightly miri test -p alloc-counter
cargo +nightly miri test -p pool-core --lib
# The drop test runs the model (every step compared) on a strict and an
# oldest-recycling pool, with and without hooks, panics injected.
cargo +nightly miri test -p pool-core --features testing --test pool -- \
    model::cases_that_once_failed model::every_object_made_is_dropped_exactly_once
cargo +nightly miri test -p pool-core --test no_alloc
