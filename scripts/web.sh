#!/usr/bin/env bash
# The web example: the showcase's level in a browser (pool_audio::web).
#
#   bash scripts/web.sh            build the page into target/web/www
#   bash scripts/web.sh --serve    build it and serve it on http://127.0.0.1:8765/
#   bash scripts/web.sh --measure [SECONDS]
#                                  build it, then drive headless Chromium through
#                                  it (60 s runs by default) and print the figures
#
# Installs what it lacks: the wasm32 target (rustup), wasm-bindgen-cli at the
# version in Cargo.lock (crates.io), and for --measure Chromium and Node.js
# (Debian's packages, as root) and playwright-core (npm) into target/web/driver.
# --measure prints a table of the figures (docs/benchmarks.md, "The web") and
# compares the browser's output with the offline render of the same calls.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/target/web
port=${PORT:-8765}

rustup target list --installed | grep -qx wasm32-unknown-unknown ||
    rustup target add wasm32-unknown-unknown
version=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$version" ]; then
    cargo install wasm-bindgen-cli --version "$version"
fi

cargo build --release --target wasm32-unknown-unknown -p pool-web-example --lib
rm -rf "$out/www"
mkdir -p "$out/www"
wasm-bindgen --target web --no-typescript --out-dir "$out/www/pkg" \
    target/wasm32-unknown-unknown/release/pool_web_example.wasm
cp web/www/index.html web/www/main.js web/www/instrument.js "$out/www/"
wasm=$out/www/pkg/pool_web_example_bg.wasm
echo "wasm: $(stat -c %s "$wasm") bytes, $(gzip -9c "$wasm" | wc -c) gzipped"

case "${1:-}" in
--serve)
    exec python3 scripts/web/serve.py "$out/www" "$port"
    ;;
--measure)
    seconds=${2:-60}
    command -v "${CHROMIUM:-chromium}" >/dev/null || {
        apt-get update -qq && apt-get install -y -qq chromium
    }
    command -v npm >/dev/null || {
        apt-get update -qq && apt-get install -y -qq nodejs npm
    }
    if [ ! -d "$out/driver/node_modules/playwright-core" ]; then
        mkdir -p "$out/driver"
        (cd "$out/driver" && npm init -y >/dev/null && npm install --silent playwright-core@1)
    fi
    cp scripts/web/drive.mjs "$out/driver/"
    mkdir -p "$out/www/results"
    python3 scripts/web/serve.py "$out/www" "$port" &
    server=$!
    trap 'kill $server' EXIT
    sleep 1
    CHROMIUM=$(command -v "${CHROMIUM:-chromium}") \
        node "$out/driver/drive.mjs" "http://127.0.0.1:$port/" "$out/www/results" "$seconds"
    # The browser's output against the offline render of the same calls.
    cargo build --release -p showcase -p pool-web-example --bins
    target/release/showcase replay "$out/www/results/web.capture.txt" --out "$out/replay" >/dev/null
    target/release/compare "$out/www/results/web.f32" "$out/replay/replay.wav"
    ;;
"") ;;
*)
    echo "usage: scripts/web.sh [--serve | --measure [SECONDS]]" >&2
    exit 2
    ;;
esac
