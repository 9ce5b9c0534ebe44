# Attention Playground. `make test` and `make serve` install what is missing:
# Debian packages with apt-get (only absent ones), test tooling with npm ci.
SHELL := /bin/bash
BUILD ?= build
NATIVE := $(BUILD)/native
WASM := $(BUILD)/wasm
SITE := $(BUILD)/site
JOBS ?= $(shell nproc)
PORT ?= 8000
# Emscripten's optimizing link runs acorn from Debian's node modules.
EMENV := NODE_PATH=/usr/share/nodejs

NATIVE_PACKAGES := cmake make g++ xtensor-dev nlohmann-json3-dev catch2
WASM_PACKAGES := cmake make emscripten xtensor-dev nlohmann-json3-dev
# python3-torch runs the exported PyTorch script in a browser test.
BROWSER_PACKAGES := chromium fonts-dejavu-core python3-torch mkdocs

.PHONY: all native wasm site dist serve test test-native test-wasm test-browser bench clean \
        deps-native deps-wasm deps-node deps-browser

all: native site

deps-native:
	@scripts/ensure-packages $(NATIVE_PACKAGES)

deps-wasm:
	@scripts/ensure-packages $(WASM_PACKAGES)

# Node may come from Debian or elsewhere; install Debian's only if there is none.
deps-node:
	@command -v node >/dev/null && command -v npm >/dev/null || scripts/ensure-packages nodejs npm

deps-browser:
	@scripts/ensure-packages $(BROWSER_PACKAGES)

native: deps-native
	@cmake -S . -B $(NATIVE) -DCMAKE_BUILD_TYPE=Release > /dev/null
	@cmake --build $(NATIVE) -j $(JOBS)

wasm: deps-wasm
	@$(EMENV) emcmake cmake -S . -B $(WASM) -DCMAKE_BUILD_TYPE=Release > /dev/null
	@$(EMENV) cmake --build $(WASM) -j $(JOBS)

site: wasm deps-node
	@node scripts/build-site.mjs $(WASM) $(SITE)

# The folder to copy into a documentation site: the playground, the element,
# the iframe page, the wasm files and the presets, nothing else.
dist: site
	@rm -rf dist && cp -r $(SITE) dist
	@node scripts/site-size.mjs dist | tail -2

serve: site
	@node scripts/serve.mjs $(SITE) --port $(PORT)

node_modules/.package-lock.json: package.json package-lock.json | deps-node
	npm ci --no-audit --no-fund

# Every test; the first failing group stops the target with its exit code.
test: test-native test-wasm test-browser

test-native: native
	ctest --test-dir $(NATIVE) --output-on-failure -j $(JOBS)

test-wasm: wasm deps-node
	node --test tests/wasm/

test-browser: site deps-browser node_modules/.package-lock.json
	node --test --test-concurrency=1 tests/browser/

# Not part of `make test`: timings on this machine, side by side, against
# the budgets; writes tests/bench/results.json and the README's table.
bench: native site deps-browser node_modules/.package-lock.json
	node tests/bench/bench.mjs $(NATIVE)/attention-bench

clean:
	rm -rf $(BUILD)
