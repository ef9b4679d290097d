#!/usr/bin/env bash
# Installs everything `make test` and `make demo` need, from the package registries only.
# Idempotent and non-interactive: each step checks first, so a second run is a quick no-op.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_PACK_VERSION=0.15.1
say() { printf 'setup: %s\n' "$*"; }

# The CLI must equal the crate version exactly, or wasm-pack would try to download one.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

export PATH="$HOME/.cargo/bin:$PATH"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  say "installing chromium and chromium-driver (apt)"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y --no-install-recommends chromium chromium-driver; then
    apt-get update
    apt-get install -y --no-install-recommends chromium chromium-driver
  fi
fi

# tests/linear.rs counts the instructions each call runs (work, not time) under valgrind.
if ! command -v valgrind >/dev/null; then
  say "installing valgrind (apt)"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y --no-install-recommends valgrind; then
    apt-get update
    apt-get install -y --no-install-recommends valgrind
  fi
fi

want_bindgen=$(wasm_bindgen_version)
have_bindgen=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_bindgen" != "$want_bindgen" ]; then
  say "installing wasm-bindgen-cli $want_bindgen (was: ${have_bindgen:-none})"
  # Not --locked: the CLI's own lock file pins a crate version the registry no longer serves.
  cargo install wasm-bindgen-cli --version "=$want_bindgen" --force
fi

have_pack=$(wasm-pack --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_pack" != "$WASM_PACK_VERSION" ]; then
  say "installing wasm-pack $WASM_PACK_VERSION (was: ${have_pack:-none})"
  cargo install wasm-pack --version "=$WASM_PACK_VERSION" --force
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund
fi

# Debian's wasm-opt 108 corrupts wasm-bindgen output; the Makefile puts this one first on PATH.
wasm_opt_major=$(node_modules/.bin/wasm-opt --version | grep -oE '[0-9]+' | head -1)
if [ "$wasm_opt_major" -lt 116 ]; then
  echo "setup: node_modules/.bin/wasm-opt is version $wasm_opt_major; 116 or newer is required" >&2
  exit 1
fi
say "toolchain ready (wasm-bindgen $want_bindgen, wasm-pack $WASM_PACK_VERSION, wasm-opt $wasm_opt_major)"
