// The machine's single-core peak for the operations the kernels use: X·Y
// independent sums s = s + x·y on vectors of W floats, a multiply then an
// add each, as the GEMM's micro-kernel does (its multiplicands in
// registers, its multipliers loaded). The X multiplicands stay in
// registers; each step loads the Y multipliers from a small table of ones,
// at places that move with the step, so no compiler can hoist a product out
// of the loop, and all X·Y products are distinct. The one peak of `make
// bench`: natively in attention-bench --peak (every width the machine runs,
// and fused for comparison), in wasm as peak_wasm.cpp, timed in Chromium by
// peaks.mjs; the training and the model benches both read that.
#pragma once

#include "tensor/simd.hpp"

namespace bench {

using attention::vec;

// The floats the loop's multipliers come from, for W lanes and Y of them a step.
constexpr int peak_ones(int W, int Y) { return (8 * Y + 8) * W; }

// One step: Y multipliers from `at`, each times the X multiplicands x
// into its sums s (X·Y). A function, not a lambda: a lambda would not
// take the target (AVX2, AVX-512) of the loop that inlines it.
template <int W, int X, int Y>
ATTENTION_INLINE void peak_step(vec<W>* s, const vec<W>* x, const float* at) {
#pragma GCC unroll 16
  for (int j = 0; j < Y; ++j) {
    const vec<W> y = attention::load<W>(at + j * W);
#pragma GCC unroll 8
    for (int i = 0; i < X; ++i) s[i * Y + j] = s[i * Y + j] + x[i] * y;
  }
}

// ones: peak_ones(W, Y) floats, each 1, written at run time (a compiler
// that knew them could drop the multiplies). Built with
// -ffp-contract=off each sum's step is a multiply then an add; a caller
// that allows contraction gets one FMA. steps: a multiple of 8 (whole
// turns; the callers' 5,000,000 and 10,000 are).
template <int W, int X, int Y>
ATTENTION_INLINE float peak_loop(long steps, const float* ones) {
  vec<W> s[X * Y], x[X];
  for (int i = 0; i < X * Y; ++i) s[i] = attention::splat<W>(0.0f);
  for (int i = 0; i < X; ++i) x[i] = attention::load<W>(ones) * (static_cast<float>(i + 1) * 1e-3f);
  // Each step's Y multipliers from places of their own, 8 steps' worth,
  // then from a base one vector on: no product repeats in 8 steps or
  // leaves the loop (places that stayed, or repeated within an unrolled
  // turn, let the compiler hoist or share products, leaving mostly adds).
  // A turn of 8 steps, each not unrolled (unrolled, GCC hoists the loads
  // and spills the sums), its places one add apart: the scalar work a step
  // stays small (a rebase computed each step held wasm to 45-50 GFLOP/s
  // of the 66 V8's code reaches, and native 128-bit code to 54).
#pragma GCC unroll 1
  for (long k = 0; k + 8 <= steps; k += 8) {
    const float* at = ones + ((k >> 3) & 7) * W;
#pragma GCC unroll 1
    for (int q = 0; q < 8; ++q, at += Y * W) peak_step<W, X, Y>(s, x, at);
  }
  // the sums' total, every index a constant once unrolled: Clang for wasm
  // kept 6 of the 8 sums in memory, stored every step, while a loop read
  // them by a variable index (45 GFLOP/s of the 128-bit peak's 66)
  vec<W> sum = s[0];
#pragma GCC unroll 64
  for (int i = 1; i < X * Y; ++i) sum = sum + s[i];
  float total = 0;
#pragma GCC unroll 16
  for (int l = 0; l < W; ++l) total += sum[l];
  return total;
}

// The 128-bit loop (8 sums: SSE2's 16 registers) as the kernels run 4
// lanes here: in AVX's encoding where the machine has it (simd_vex()), as
// V8 compiles wasm's SIMD128 (SSE2's two-operand form copies a register
// for each product).
#if ATTENTION_X86
ATTENTION_TARGET_AVX inline float peak_loop_128_vex(long steps, const float* ones) {
  return peak_loop<4, 2, 4>(steps, ones);
}
#endif
inline float peak_loop_128(long steps, const float* ones) {
#if ATTENTION_X86
  if (attention::simd_vex()) return peak_loop_128_vex(steps, ones);
#endif
  return peak_loop<4, 2, 4>(steps, ones);
}

// Floating-point operations of one call: two per lane of each sum per step.
constexpr double peak_flops(long steps, int W, int sums) { return 2.0 * static_cast<double>(steps) * W * sums; }

}  // namespace bench
