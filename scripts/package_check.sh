#!/usr/bin/env bash
# The four library crates as crates.io would get them: each package holds only
# what belongs (its Cargo.toml, README, sources and the examples that build from
# crates.io alone; the tests and the other examples need the workspace's
# unpublished crates), and `cargo publish --dry-run` packages and builds all four
# in dependency order, each against the others as packaged.
set -euo pipefail
cd "$(dirname "$0")/.."

for crate in pool-core pool-effects pool-audio bevy_pool; do
    files="$(cargo package --list --allow-dirty -p "$crate" 2>/dev/null)"
    stray="$(grep -vE '^(\.cargo_vcs_info\.json|Cargo\.lock|Cargo\.toml|Cargo\.toml\.orig|README\.md|src/.*\.rs|examples/(device|bevy_device)\.rs)$' <<<"$files" || true)"
    if [ -n "$stray" ]; then
        echo "package_check: $crate would publish files that do not belong:"
        echo "$stray"
        exit 1
    fi
    for needed in Cargo.toml README.md src/lib.rs; do
        if ! grep -qx "$needed" <<<"$files"; then
            echo "package_check: $crate's package has no $needed"
            exit 1
        fi
    done
    # crates.io needs these in the manifest (cargo only warns without them).
    for field in description license readme documentation keywords categories; do
        if ! grep -qE "^$field(\.workspace)? *=" "$crate/Cargo.toml"; then
            echo "package_check: $crate/Cargo.toml has no $field"
            exit 1
        fi
    done
    echo "package_check: $crate: $(wc -l <<<"$files") files, all belonging"
done

cargo publish --workspace --dry-run --allow-dirty --quiet
echo "package_check: cargo publish --dry-run passed for all four"
