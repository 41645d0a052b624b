#!/usr/bin/env bash
# A Bevy game outside the workspace, written from the README alone: the
# dependency lines and the `main` under "## In a Bevy game", with the README's
# `../pool/` paths pointed at this clone. It must build, and run for a few
# seconds without a panic (a game's `main` runs until it is closed). The game
# loads its sounds through Bevy's asset server, from a copy of the workspace's
# `assets/` beside its `Cargo.toml`.
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

# Bevy finds `assets/` under BEVY_ASSET_ROOT, else CARGO_MANIFEST_DIR (set by
# `cargo run`), else the executable's folder: the binary runs directly here.
cp -r "$root/assets" "$dir/assets"
export BEVY_ASSET_ROOT="$dir"

# The workspace's versions and build artifacts: nothing is fetched or rebuilt
# that the workspace already has.
cp "$root/Cargo.lock" "$dir/Cargo.lock"
export CARGO_TARGET_DIR="$root/target"
(cd "$dir" && { cargo build --quiet --offline 2>&1 || cargo build --quiet; })
status=0
timeout 5 "$root/target/debug/outside-readme" > "$dir/run.log" 2>&1 || status=$?
if [ "$status" != 124 ]; then
    echo "the README's Bevy game stopped (exit $status) within 5 s:"
    cat "$dir/run.log"
    exit 1
fi
echo "the README's Bevy game built from its two blocks alone and ran 5 s"

# A file the asset server cannot find is an error nobody sees (the game has no
# log plugin) in a game that runs on, silent. So the same game again, with one
# more system that prints the sound effects' statistics after 2 s: it must
# have played.
check="$root/target/outside-crate-check"
rm -rf "$check"
cp -r "$dir" "$check"
sed -i 's/^name = "outside-readme"/name = "outside-readme-check"/' "$check/Cargo.toml"
python3 - "$check/src/main.rs" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
assert text.count("App::new()") == 1, "the README's Bevy game makes one App"
text = text.replace("App::new()", "App::new().add_systems(bevy::app::Update, outside_check)")
text += '''
fn outside_check(
    sfx: bevy::ecs::system::Res<bevy_pool::Sfx>,
    time: bevy::ecs::system::Res<bevy::time::Time>,
    mut done: bevy::ecs::system::Local<bool>,
) {
    if time.elapsed_secs() > 2.0 && !*done {
        *done = true;
        println!("plays {}, real voices {}", sfx.stats().plays, sfx.stats().real_voices);
    }
}
'''
open(path, "w").write(text)
PY
(cd "$check" && { cargo build --quiet --offline 2>&1 || cargo build --quiet; })
status=0
timeout 4 "$root/target/debug/outside-readme-check" > "$check/run.log" 2>&1 || status=$?
if [ "$status" != 124 ] || ! grep -qE "^plays [1-9]" "$check/run.log"; then
    echo "the README's Bevy game played nothing in 2 s (exit $status; its assets: $dir/assets):"
    cat "$check/run.log"
    exit 1
fi
echo "and it plays: $(cat "$check/run.log")"
