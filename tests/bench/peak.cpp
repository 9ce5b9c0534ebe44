// peak.hpp as a standalone wasm module for Chromium (tests/bench/bench_models.mjs):
//   emcc tests/bench/peak.cpp -O3 -msimd128 -ffp-contract=off --no-entry -sSTANDALONE_WASM -o build/bench/peak.wasm
#include "peak.hpp"

extern "C" __attribute__((export_name("peak"))) float peak(int n) { return peak_multiply_adds(n); }
