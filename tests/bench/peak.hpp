// The measured single-core peak the GPT bench compares against: a multiply
// and an add per element (the operations the core's products use: no FMA),
// on 128-bit vectors (the native build's SSE2 and wasm's SIMD128), twelve
// independent accumulators so that neither latency nor anything but the two
// arithmetic ports limits it. Built natively into attention-model-bench and
// by emcc into build/bench/peak.wasm for Chromium.
#pragma once

typedef float peak_v4 __attribute__((vector_size(16)));

// n rounds of 12 vector multiply-adds: 96·n float operations; returns a sum
// so the loop is not optimized away.
extern "C" __attribute__((noinline)) inline float peak_multiply_adds(int n) {
  peak_v4 acc[12];
  for (int k = 0; k < 12; ++k) acc[k] = peak_v4{1.0f + k, 2.0f, 3.0f, 4.0f};
  const peak_v4 x = {0.999999f, 0.999998f, 0.999997f, 0.999996f}, y = {1e-7f, 2e-7f, 3e-7f, 4e-7f};
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 12; ++k) acc[k] = acc[k] * x + y;
  float sum = 0;
  for (int k = 0; k < 12; ++k) sum += acc[k][0] + acc[k][1] + acc[k][2] + acc[k][3];
  return sum;
}
