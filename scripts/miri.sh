#!/usr/bin/env bash
# Miri over the workspace's unsafe code and the tests that exercise it: the counting
# allocator (the only `unsafe` in the workspace), pool-core's unit tests, and the
# allocation tests of pool-core and pool-effects, which run under that allocator.
# Needs the nightly toolchain with the miri component; installs it if missing.
# Not part of CI (it takes minutes); run it after touching alloc-counter or the
# pool's storage.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo +nightly miri --version >/dev/null 2>&1; then
    rustup toolchain install nightly --component miri
fi
cargo +nightly miri setup

# Miri checks for undefined behaviour and leaks; isolation is off because the
# test harness reads the clock.
export MIRIFLAGS="${MIRIFLAGS:-} -Zmiri-disable-isolation"
# Property tests run a few cases under Miri: it is ~1000x slower than native.
export PROPTEST_CASES="${PROPTEST_CASES:-4}"

set -x
cargo +nightly miri test -p alloc-counter
cargo +nightly miri test -p pool-core --lib
cargo +nightly miri test -p pool-core --test no_alloc
cargo +nightly miri test -p pool-effects --test counted -- no_alloc::
