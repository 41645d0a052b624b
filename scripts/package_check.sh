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
    stray="$(grep -vE '^(\.cargo_vcs_info\.json|Cargo\.lock|Cargo\.toml|Cargo\.toml\.orig|README\.md|src/.*\.rs|src/web/[a-z]+\.js|examples/(device|bevy_device)\.rs)$' <<<"$files" || true)"
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

# Cargo extracts the crates of the dry-run's temporary registry into its own
# registry cache once per registry path, and reuses that copy while the version
# is the same: a later dry-run from the same path would build the workspace's
# crates as they were the first time. Remove those copies first. (A second
# run in one target directory also reuses the first run's builds of them:
# `cargo clean -p pool-core -p pool-effects -p pool-audio -p bevy_pool` first.)
for dir in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/; do
    for crate in pool-core pool-effects pool-audio bevy_pool; do
        rm -rf "$dir$crate"-[0-9]*
    done
done
cargo publish --workspace --dry-run --allow-dirty --quiet
echo "package_check: cargo publish --dry-run passed for all four"
