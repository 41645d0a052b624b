#!/usr/bin/env bash
# Fuzzes pool-core's Pool and KeyedPool against a model for SECONDS (default 60).
# Needs the nightly toolchain (rustup) and cargo-fuzz; installs cargo-fuzz if it is
# missing. Not part of .ci/run (nightly, and time). Prints libFuzzer's final stats
# (executions, coverage).
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
if ! rustup toolchain list | grep -q '^nightly'; then
    rustup toolchain install nightly --profile minimal
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
cargo +nightly fuzz run pool_ops -- -max_total_time="$seconds" -print_final_stats=1
