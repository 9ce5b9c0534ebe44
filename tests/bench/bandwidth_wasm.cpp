// make bench's memory bound for cached generation (bench_generate.mjs): one
// thread's read bandwidth in wasm, a plain SIMD128 loop summing an array
// as large as a model's weights. A bare module, no glue: grow_floats() takes
// the pages from memory.grow itself (no allocator), read_sum() reads them.
#include <wasm_simd128.h>

#include <cstddef>

// n floats at the end of memory, each set (every page touched once before
// any timing): their byte offset, or 0 when memory cannot grow that far.
extern "C" __attribute__((export_name("grow_floats"))) float* grow_floats(int n) {
  const std::size_t bytes = static_cast<std::size_t>(n) * 4;
  const long old = __builtin_wasm_memory_grow(0, (bytes + 65535) / 65536);
  if (old < 0) return nullptr;
  float* p = reinterpret_cast<float*>(static_cast<std::size_t>(old) * 65536);
  for (int i = 0; i < n; ++i) p[i] = 1.0f / static_cast<float>(1 + (i & 1023));
  return p;
}

// The sum of p[0 … n), n a multiple of 16: four independent sums of four
// lanes, so the adds never wait on each other and the reads set the pace.
extern "C" __attribute__((export_name("read_sum"))) float read_sum(const float* p, int n) {
  v128_t s0 = wasm_f32x4_splat(0), s1 = s0, s2 = s0, s3 = s0;
  for (int i = 0; i < n; i += 16) {
    s0 = wasm_f32x4_add(s0, wasm_v128_load(p + i));
    s1 = wasm_f32x4_add(s1, wasm_v128_load(p + i + 4));
    s2 = wasm_f32x4_add(s2, wasm_v128_load(p + i + 8));
    s3 = wasm_f32x4_add(s3, wasm_v128_load(p + i + 12));
  }
  const v128_t s = wasm_f32x4_add(wasm_f32x4_add(s0, s1), wasm_f32x4_add(s2, s3));
  return wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 1) + wasm_f32x4_extract_lane(s, 2) +
         wasm_f32x4_extract_lane(s, 3);
}
