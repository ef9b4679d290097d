# planloop: `make demo` shows it working, `make test` checks everything, `make bench`
# measures it against JSON.parse + zod. Each target installs what it needs first.

SHELL := /bin/bash
# npm's wasm-opt (binaryen >= 116) must come before any Debian wasm-opt 108.
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)

.PHONY: setup build demo demo-live demo-cli test bench fuzz clean

setup:
	@./scripts/setup.sh

# pkg/ is the npm package: the Node build at its root, the browser (ES module) build in pkg/web,
# each over two wasm modules (the primitives, and the session engine loaded on first use).
# The reference chain runner (www/runner, TypeScript) compiles to target/www; the editor-plugin
# bundle (one file, wasm inlined, runner included) is pkg/planloop.bundle.js.
build: setup
	node scripts/build.mjs
	tsc -p www/tsconfig.json
	tsc -p www/cli/tsconfig.json
	node scripts/package.mjs
	node scripts/bundle.mjs

# The browser demo page, served on 127.0.0.1 (the address is printed).
demo: build
	node scripts/serve.mjs $(or $(PORT),8080)

# The demo page driven by a tiny local model (SmolLM2-135M on the CPU, through the live-model
# test server in tests/live); the address is printed. Opt-in: not part of `make demo` or `make test`.
demo-live: build
	node scripts/demo-live.mjs $(or $(PORT),8080)

# The terminal walkthrough.
demo-cli: build
	node www/demo-cli.mjs

test: setup
	@./scripts/test.sh

bench: build
	node scripts/bench.mjs

# The randomized tests of `make test` at length, from a fresh seed: every native Rust one (the
# sessions' property tests, the fast readers against the general path, the number and
# text helpers against std) FACTOR times as long (default 100), then the JS ones: the zod
# differential test over PAYLOADS payloads (default 5,000,000), and the crossings over
# CROSSINGS session turns (default 300,000) and COMPOSES composePrompt inputs
# (default 1,000,000), and DRIVES careless drives of a session (default 50,000).
# PLANLOOP_FUZZ_SEED=<n> repeats a run.
fuzz: build
	@seed=$${PLANLOOP_FUZZ_SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}; \
	echo "make fuzz: PLANLOOP_FUZZ_SEED=$$seed (set it to repeat this run)"; \
	PLANLOOP_FUZZ_SEED=$$seed PLANLOOP_FUZZ_FACTOR=$(or $(FACTOR),100) cargo test --release --quiet -- --nocapture && \
	PLANLOOP_FUZZ_SEED=$$seed node scripts/fuzz.mjs

clean:
	rm -rf pkg target/ts target/readme target/www
