#!/usr/bin/env bash
# A Bevy game outside the workspace, written from the README alone: the
# dependency lines and the `main` under "## In a Bevy game", with the README's
# `../pool/` paths pointed at this clone. It must build, and run for a few
# seconds without a panic (a game's `main` runs until it is closed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/target/outside-crate"
rm -rf "$dir"
mkdir -p "$dir/src"

# The first ```toml and the first ```rust block after the Bevy heading.
python3 - "$root/README.md" "$dir" "$root" <<'EOF'
import re, sys
readme, out, root = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(readme).read().split("## In a Bevy game", 1)[1]
toml = re.search(r"```toml\n(.*?)```", text, re.S).group(1)
rust = re.search(r"```rust[^\n]*\n(.*?)```", text, re.S).group(1)
deps = [line for line in toml.splitlines() if line.strip() and not line.startswith("#")]
deps = [line.replace("../pool/", root + "/") for line in deps]
open(out + "/Cargo.toml", "w").write(
    '[package]\nname = "outside-readme"\nversion = "0.0.0"\nedition = "2024"\n\n'
    + "\n".join(deps) + "\n\n[workspace]\n")
open(out + "/src/main.rs", "w").write(rust)
EOF

# The workspace's versions and build artifacts: nothing is fetched or rebuilt
# that the workspace already has.
cp "$root/Cargo.lock" "$dir/Cargo.lock"
export CARGO_TARGET_DIR="$root/target"
(cd "$dir" && cargo build --quiet --offline 2>&1 || cargo build --quiet)
status=0
timeout 5 "$root/target/debug/outside-readme" > "$dir/run.log" 2>&1 || status=$?
if [ "$status" != 124 ]; then
    echo "the README's Bevy game stopped (exit $status) within 5 s:"
    cat "$dir/run.log"
    exit 1
fi
echo "the README's Bevy game built from its two blocks alone and ran 5 s"
