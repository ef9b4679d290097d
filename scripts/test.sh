#!/usr/bin/env bash
# Runs every check of `make test` in order, keeps going after a failure so one run shows
# everything that is wrong, and ends with one summary line (non-zero exit on failure).
set -uo pipefail
cd "$(dirname "$0")/.."

results=()
failed=0

step() {
  local name=$1
  shift
  printf '\n==> %s\n' "$name"
  local start=$SECONDS
  if "$@"; then
    results+=("ok    $name ($((SECONDS - start))s)")
  else
    results+=("FAIL  $name ($((SECONDS - start))s)")
    failed=$((failed + 1))
  fi
}

# wasm-pack test leaves a Chromium profile per run: keep it out of the real TMPDIR.
browser_tests() {
  local tmp
  tmp=$(mktemp -d)
  TMPDIR=$tmp wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver --mode no-install
  local status=$?
  rm -rf "$tmp"
  return $status
}

step "cargo fmt --check" cargo fmt --check
step "cargo clippy -D warnings" cargo clippy --all-targets --quiet -- -D warnings
step "cargo clippy (wasm32) -D warnings" cargo clippy --target wasm32-unknown-unknown --all-targets --quiet -- -D warnings
step "cargo clippy (each wasm module) -D warnings" bash -c 'for f in core session; do cargo clippy --target wasm32-unknown-unknown --no-default-features --features "$f" --quiet -- -D warnings || exit 1; done'
step "cargo test (native)" cargo test --quiet
step "cargo doc -D warnings (every doc link resolves)" env RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet
step "build pkg (nodejs + web)" make --no-print-directory build
step "wasm-pack test --headless --chrome" browser_tests
step "wasm-pack test --node" wasm-pack test --node --mode no-install
step "node --test (JS against pkg)" node --test tests/js/
# A real model, offline: SmolLM2-135M behind tests/live/server.mjs drives the runner and the
# OpenAI Agents SDK middleware; only invariants are checked (one file at a time: one model each).
step "live model smoke test (tests/live, SmolLM2-135M on the CPU)" node --test --test-concurrency=1 tests/live/
step "tsc --noEmit --strict (every export)" tsc --noEmit -p tests/ts/tsconfig.json
step "packaging (npm pack, then each host and bundler)" bash -c 'node tests/packaging/project.mjs && node --test --test-concurrency=1 tests/packaging/'

printf '\n'
printf '%s\n' "${results[@]}"
total=${#results[@]}
if [ "$failed" -eq 0 ]; then
  echo "make test: all $total steps passed"
else
  echo "make test: $failed of $total steps FAILED"
  exit 1
fi
