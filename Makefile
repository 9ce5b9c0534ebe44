# Attention Playground. `make test` and `make serve` install what is missing:
# Debian packages with apt-get (only absent ones), test tooling with npm ci.
SHELL := /bin/bash
BUILD ?= build
NATIVE := $(BUILD)/native
WASM := $(BUILD)/wasm
SANITIZE := $(BUILD)/sanitize
FUZZ := $(BUILD)/fuzz
FUZZ_SECONDS ?= 300
SITE := $(BUILD)/site
JOBS ?= $(shell nproc)
PORT ?= 8000
# Emscripten's optimizing link runs acorn from Debian's node modules.
EMENV := NODE_PATH=/usr/share/nodejs

NATIVE_PACKAGES := cmake make g++ xtensor-dev nlohmann-json3-dev catch2
# libFuzzer and clang's sanitizer runtimes
FUZZ_PACKAGES := cmake make clang libclang-rt-14-dev xtensor-dev nlohmann-json3-dev
WASM_PACKAGES := cmake make emscripten xtensor-dev nlohmann-json3-dev
# python3-torch runs the nanoGPT export script's test (make test-scripts) and
# the bench's PyTorch timings
SCRIPT_PACKAGES := python3-torch
# python3-torch runs the exported PyTorch script in a browser test; mkdocs and
# python3-sphinx build the example documentation sites.
BROWSER_PACKAGES := chromium fonts-dejavu-core python3-torch mkdocs python3-sphinx
# The notebook package (python/): Debian's Python builds and installs it
# offline into a venv that sees Debian's packages, nbconvert executes the
# example notebook with its kernel, nbsphinx builds the notebooks' site.
# Debian's nbconvert HTML loads require.js and MathJax from
# file:///usr/share/javascript/ (libjs-requirejs, libjs-mathjax), which it
# does not depend on: without them the page logs two failed loads. nbsphinx
# converts a notebook's Markdown with pandoc, which it only recommends.
PYTHON_PACKAGES := python3-venv python3-pip python3-setuptools python3-wheel jupyter-nbconvert python3-ipykernel \
                   python3-numpy python3-pytest python3-hypothesis python3-nbsphinx pandoc libjs-requirejs libjs-mathjax chromium fonts-dejavu-core
VENV := $(BUILD)/venv
PYTHON_ASSETS := python/attention_playground/assets
# The documentation site (docs/): Sphinx, MyST Markdown and the furo theme;
# Chromium and its font take the README's pictures from the real page.
DOCS_PACKAGES := python3-sphinx python3-myst-parser furo chromium fonts-dejavu-core
DOCS := $(BUILD)/docs

.PHONY: all native wasm site dist serve test test-native test-sanitize test-fuzz test-wasm test-scripts test-browser \
        fuzz fuzz-build bench clean deps-native deps-fuzz deps-wasm deps-node deps-browser deps-scripts \
        python test-python deps-python docs test-docs deps-docs

all: native site

deps-native:
	@scripts/ensure-packages $(NATIVE_PACKAGES)

deps-fuzz:
	@scripts/ensure-packages $(FUZZ_PACKAGES)

deps-wasm:
	@scripts/ensure-packages $(WASM_PACKAGES)

# Node may come from Debian or elsewhere; install Debian's only if there is none.
deps-node:
	@command -v node >/dev/null && command -v npm >/dev/null || scripts/ensure-packages nodejs npm

deps-browser:
	@scripts/ensure-packages $(BROWSER_PACKAGES)

deps-scripts:
	@scripts/ensure-packages $(SCRIPT_PACKAGES)

deps-python:
	@scripts/ensure-packages $(PYTHON_PACKAGES)

deps-docs:
	@scripts/ensure-packages $(DOCS_PACKAGES)

native: deps-native
	@cmake -S . -B $(NATIVE) -DCMAKE_BUILD_TYPE=Release > /dev/null
	@cmake --build $(NATIVE) -j $(JOBS)

wasm: deps-wasm
	@$(EMENV) emcmake cmake -S . -B $(WASM) -DCMAKE_BUILD_TYPE=Release > /dev/null
	@$(EMENV) cmake --build $(WASM) -j $(JOBS)

site: wasm deps-node node_modules/.package-lock.json
	@node scripts/build-site.mjs $(WASM) $(SITE)

# The folder to copy into a documentation site: the playground, the element,
# the iframe page, the wasm files, the presets, a static SVG figure of each
# preset (figures/) and package.json (vendor it with `npm pack`). Beside it,
# not in the package, docs/: the documentation site with its own playground,
# to be copied anywhere as it is.
dist: site docs
	@rm -rf dist && cp -r $(SITE) dist
	@node scripts/figures.mjs $(WASM) dist/figures
	@node scripts/package-dist.mjs dist
	@node scripts/site-size.mjs dist | tail -2
	@cp -r $(DOCS) dist/docs

# The documentation site, from docs/ into $(DOCS): the README's pictures
# taken again from the built page (written only when they changed), the
# pages' generated blocks, Sphinx with warnings as errors (its doctrees kept
# outside the site), then the playground copied into $(DOCS)/playground/,
# where every page loads the element from (a relative path: the site works
# offline, under a sub-path, from any host).
docs: site deps-docs node_modules/.package-lock.json
	@node scripts/docs/readme-pictures.mjs $(SITE) docs/images
# ---- generated blocks of docs/*.md, from the code that holds the truth ----
	@node scripts/docs/web-reference.mjs
	@node scripts/docs/wasm-reference.mjs
	@node scripts/docs/limits-reference.mjs
# (the CLI's page needs the native build: `node scripts/docs/cli-reference.mjs`
# rewrites it, and test-docs fails while it differs from the CLI's usage)
# ---- end of the generated blocks ----
	@rm -rf $(DOCS)
	@sphinx-build -q -W -b html -d $(BUILD)/docs-doctrees docs $(DOCS)
	@cp -r $(SITE) $(DOCS)/playground
	@echo "docs: $(DOCS)/index.html"

# The notebook package's page assets: the element bundled into one script
# with its CSS, presets and wasm (esbuild, for the package only: the site
# stays unbundled), and element.json (what Python checks), into
# $(PYTHON_ASSETS) (ignored by git). Then: pip install ./python
python: site
	@node scripts/notebook-bundle.mjs $(SITE) $(PYTHON_ASSETS)

# The playground at / and the documentation at /docs/.
serve: site docs
	@node scripts/serve.mjs $(SITE) --port $(PORT) --mount /docs=$(DOCS)

node_modules/.package-lock.json: package.json package-lock.json | deps-node
	npm ci --no-audit --no-fund

# Every test; the first failing group stops the target with its exit code.
test: test-native test-sanitize test-fuzz test-wasm test-scripts test-browser test-docs test-python

test-native: native
	ctest --test-dir $(NATIVE) --output-on-failure -j $(JOBS)

# The same Catch2 suite built with ASan and UBSan; any report fails it.
test-sanitize: deps-native
	@cmake -S . -B $(SANITIZE) -DCMAKE_BUILD_TYPE=Debug -DATTENTION_SANITIZE=ON > /dev/null
	@cmake --build $(SANITIZE) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(SANITIZE) --output-on-failure -j $(JOBS)

fuzz-build: deps-fuzz
	@CC=clang CXX=clang++ cmake -S . -B $(FUZZ) -DCMAKE_BUILD_TYPE=Release -DATTENTION_FUZZ=ON > /dev/null
	@cmake --build $(FUZZ) -j $(JOBS) --target fuzz_scenario fuzz_training fuzz_model fuzz_config fuzz_folder

# libFuzzer for FUZZ_SECONDS over each of the CLI's inputs: scenarios
# (trace), training files (train, validate) and model files (model, head,
# validate), the JSON beside a model file (config.json), and whole
# Hugging Face folders (validate, model, lens). Each fails on a crash, a
# leak, a sanitizer report, a broken contract, one input over
# FUZZ_INPUT_SECONDS or over 1 GB. Each target runs only inputs whose work is
# small (tests/fuzz/README.md), so a slow valid input is never a finding.
# New inputs go to $(FUZZ)/<target>-corpus, never into the committed seeds; a
# failure's input is in $(FUZZ)/artifacts (tests/fuzz/README.md: minimize it,
# add it as a regression).
FUZZ_INPUT_SECONDS ?= 10
fuzz: fuzz-build
	@tests/fuzz/run $(FUZZ) scenario $(FUZZ_SECONDS) $(FUZZ_INPUT_SECONDS) tests/fuzz/scenario.dict tests/fuzz/corpus tests/fuzz/regressions
	@tests/fuzz/run $(FUZZ) training $(FUZZ_SECONDS) $(FUZZ_INPUT_SECONDS) tests/fuzz/training.dict tests/fuzz/training/corpus tests/fuzz/training/regressions
	@tests/fuzz/run $(FUZZ) model $(FUZZ_SECONDS) $(FUZZ_INPUT_SECONDS) tests/fuzz/model.dict tests/fuzz/model/corpus tests/fuzz/model/regressions
	@tests/fuzz/run $(FUZZ) config $(FUZZ_SECONDS) $(FUZZ_INPUT_SECONDS) tests/fuzz/config.dict tests/fuzz/config/corpus tests/fuzz/config/regressions
	@tests/fuzz/run $(FUZZ) folder $(FUZZ_SECONDS) $(FUZZ_INPUT_SECONDS) tests/fuzz/folder.dict tests/fuzz/folder/corpus tests/fuzz/folder/regressions

# 30 s a target: two and a half minutes in all
test-fuzz:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=30

test-wasm: wasm deps-node node_modules/.package-lock.json
	node --test tests/wasm/ tests/tools/

# The scripts users run (scripts/export-nanogpt.py), on files the test makes
# with PyTorch, checked through the native CLI.
test-scripts: native deps-scripts
	/usr/bin/python3 tests/scripts/test_export_nanogpt.py $(NATIVE)/attention-cli

# Two test files at once, each its own Chromium and server: a file spends
# much of its time waiting on its page (animations, a worker training), so
# two overlap on two cores (1,529 -> 1,102 s). No test reads the clock
# against the machine; BROWSER_JOBS=1 runs one file at a time.
BROWSER_JOBS ?= 2
test-browser: site deps-browser node_modules/.package-lock.json
	node --test --test-concurrency=$(BROWSER_JOBS) tests/browser/

# The documentation site: its links and anchors, its pages in headless
# Chromium under a sub-path and the strict CSP, the commands its pages show
# run through the native CLI, its reference pages against the code.
test-docs: docs native deps-browser node_modules/.package-lock.json
	ATTENTION_NATIVE_DIR=$(abspath $(NATIVE)) ATTENTION_DOCS_DIR=$(abspath $(DOCS)) \
	  node --test --test-concurrency=1 tests/docs/

# The notebook package, offline: installed into $(VENV) as python/README.md
# says, its pytest suite, then the example notebooks executed by nbconvert
# and built into a Sphinx site by nbsphinx, both opened in headless Chromium
# from file:// with every request refused (tests/python/).
test-python: python deps-python node_modules/.package-lock.json
	@rm -rf $(VENV) $(BUILD)/notebooks python/build
	/usr/bin/python3 -m venv --system-site-packages $(VENV)
	$(VENV)/bin/pip install --quiet --no-index --no-build-isolation ./python
	PYDEVD_DISABLE_FILE_VALIDATION=1 $(VENV)/bin/python -m ipykernel install --sys-prefix --name python3 > /dev/null
	cd python && $(abspath $(VENV))/bin/python -m pytest -q -p no:cacheprovider tests
	PATH=$(abspath $(VENV))/bin:$$PATH tests/python/build-notebooks $(BUILD)/notebooks
	ATTENTION_NOTEBOOKS_DIR=$(abspath $(BUILD))/notebooks node --test --test-concurrency=1 tests/python/

# Not part of `make test`: timings on this machine, side by side, against
# the budgets; writes tests/bench/*results.json and the README's tables.
# The single-core peaks are measured once, first, for every part. Each part
# runs even when one before it missed a budget; the target then fails.
# BENCH=core, training, model or page runs one part (the README's figures
# come from one run of all of them). page: the timings tests may not assert
# (a busy machine must fail no test), tests/bench/bench_page.mjs.
BENCH ?= core training model page
bench: native site deps-browser deps-scripts node_modules/.package-lock.json
	node tests/bench/peaks.mjs $(NATIVE)/attention-bench
	@missed=0; \
	if [[ " $(BENCH) " == *" core "* ]]; then node tests/bench/bench.mjs $(NATIVE)/attention-bench || missed=1; fi; \
	if [[ " $(BENCH) " == *" training "* ]]; then node tests/bench/bench_training.mjs $(NATIVE)/attention-bench || missed=1; fi; \
	if [[ " $(BENCH) " == *" training "* ]]; then node tests/bench/bench_at_limit.mjs $(NATIVE)/attention-cli || missed=1; fi; \
	if [[ " $(BENCH) " == *" model "* ]]; then node tests/bench/bench_models.mjs $(NATIVE)/attention-model-bench $(NATIVE)/attention-bench || missed=1; fi; \
	if [[ " $(BENCH) " == *" model "* ]]; then node tests/bench/bench_peer.mjs $(NATIVE)/attention-model-split $(NATIVE)/attention-bench || missed=1; fi; \
	if [[ " $(BENCH) " == *" model "* ]]; then node tests/bench/bench_families.mjs $(NATIVE)/attention-families-bench $(NATIVE)/attention-bench || missed=1; fi; \
	if [[ " $(BENCH) " == *" model "* ]]; then node tests/bench/bench_generate.mjs $(NATIVE)/attention-model-split || missed=1; fi; \
	if [[ " $(BENCH) " == *" model "* ]]; then node tests/bench/bench_lens.mjs || missed=1; fi; \
	if [[ " $(BENCH) " == *" page "* ]]; then node tests/bench/bench_page.mjs || missed=1; fi; \
	exit $$missed

clean:
	rm -rf $(BUILD)
