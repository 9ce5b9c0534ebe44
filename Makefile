# Attention Playground. `make test` and `make serve` install what is missing.
SHELL := /bin/bash
BUILD ?= build
NATIVE := $(BUILD)/native
JOBS ?= $(shell nproc)
PORT ?= 8000

NATIVE_PACKAGES := cmake make g++ xtensor-dev nlohmann-json3-dev catch2

.PHONY: all test native deps-native serve bench clean

all: native

deps-native:
	@scripts/ensure-packages $(NATIVE_PACKAGES)

native: deps-native
	@cmake -S . -B $(NATIVE) -DCMAKE_BUILD_TYPE=Release > /dev/null
	@cmake --build $(NATIVE) -j $(JOBS)

# Every test; a failing one fails the target.
test: native
	ctest --test-dir $(NATIVE) --output-on-failure -j $(JOBS)

bench: native
	$(NATIVE)/attention-bench

serve: native
	@echo "The playground page arrives with the next issue; for now: $(NATIVE)/attention-cli trace web/scenarios/sun-rises.json"

clean:
	rm -rf $(BUILD)
