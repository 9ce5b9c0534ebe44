// The wasm SIMD peak (tests/bench/peak.hpp) as a module of its own: no
// glue, two exports, for tests/bench/bench_training.mjs to time in
// Chromium. 8 sums (2 multiplicands × 4 multipliers): 11 of the 16
// registers V8 gives SIMD128, so nothing spills.
#include "peak.hpp"

namespace {
alignas(16) float ones[bench::peak_ones(4, 4)];
volatile float one = 1.0f;  // read at run time: a compiler that knew the ones could drop the multiplies
}  // namespace

extern "C" __attribute__((export_name("peak_mul_add"))) float peak_mul_add(int steps) {
  for (float& o : ones) o = one;
  return bench::peak_loop<4, 2, 4>(steps, ones);
}

// floating-point operations per step of peak_mul_add
extern "C" __attribute__((export_name("peak_flops_per_step"))) int peak_flops_per_step() { return 2 * 4 * 8; }
