// Vectors of W floats for the kernels, as GCC and Clang vector extensions:
// one source that becomes SSE, AVX2 or AVX-512 natively and SIMD128 under
// Emscripten. Only a multiply and an add, never a fused one (the core builds
// with -ffp-contract=off): a vector lane computes exactly what the scalar
// loop computes, so every width gives the same bits.
#pragma once

#include <cstddef>

// The kernels are templates inlined into one function per instruction set:
// inlined, they take on that function's target; not inlined, they would run
// AVX-512 vectors through baseline registers.
#define ATTENTION_INLINE inline __attribute__((always_inline))

// Natively, the wider instruction sets are compiled beside the baseline and
// chosen at run time (simd_lanes()), so the binary runs on any x86-64.
#if defined(__x86_64__) || defined(__i386__)
#define ATTENTION_X86 1
#define ATTENTION_TARGET_AVX __attribute__((target("avx")))  // 4 lanes in AVX's three-operand encoding
#define ATTENTION_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define ATTENTION_TARGET_AVX512 __attribute__((target("avx512f")))
#else
#define ATTENTION_X86 0
#endif

// GCC notes that a function returning an AVX vector would change the ABI
// without AVX: these never cross a call, being always inlined.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace attention {

template <int W>
struct simd_vector;
template <>
struct simd_vector<4> {
  typedef float type __attribute__((vector_size(16)));  // SSE2, wasm SIMD128
};
template <>
struct simd_vector<8> {
  typedef float type __attribute__((vector_size(32)));  // AVX2
};
template <>
struct simd_vector<16> {
  typedef float type __attribute__((vector_size(64)));  // AVX-512
};
template <int W>
using vec = typename simd_vector<W>::type;
template <int W>
using vec_int = decltype(vec<W>{} < vec<W>{});  // W int32 lanes: what a compare gives

// The bits of a float vector as ints and back (a vector cast keeps the bits).
template <int W>
ATTENTION_INLINE vec_int<W> bits_of(const vec<W>& v) {
  return (vec_int<W>)v;
}
template <int W>
ATTENTION_INLINE vec<W> floats_of(const vec_int<W>& v) {
  return (vec<W>)v;
}

// Unaligned loads and stores (memcpy compiles to one vector move).
template <int W>
ATTENTION_INLINE vec<W> load(const float* from) {
  vec<W> v;
  __builtin_memcpy(&v, from, sizeof v);
  return v;
}
template <int W>
ATTENTION_INLINE void store(float* to, const vec<W>& v) {
  __builtin_memcpy(to, &v, sizeof v);
}
template <int W>
ATTENTION_INLINE vec<W> splat(float x) {
  return vec<W>{} + x;  // GCC and Clang broadcast a scalar operand
}

// Whether this machine runs vectors of `lanes` floats: 16 (AVX-512F), 8
// (AVX2 and FMA), 4 (SSE2; wasm SIMD128).
bool simd_runs(int lanes);

// The width the kernels run at: the widest this machine runs, asked of the
// CPU once, unless use_simd_lanes() chose another (tests run every kernel at
// every width the machine has and compare the bits; the benchmark too).
int simd_lanes();
void use_simd_lanes(int lanes);

// Whether 4 lanes run in AVX's encoding (where the machine runs 8): the
// same operations, three operands each, as V8 compiles wasm's SIMD128.
// SSE2's two-operand form spends a register copy on each product (a
// multiply-then-add loop ran at 39.5 GFLOP/s in it on this machine, 66 in
// AVX's), so the 128-bit figures natively stand for wasm's.
// Tests run 4 lanes in both encodings (use_simd_vex: AVX's only where the machine runs 8).
bool simd_vex();
void use_simd_vex(bool on);

}  // namespace attention

// Defines `void name params`, which runs `kernel<W> args` at simd_lanes()
// floats, each width compiled for its instruction set (no vector type may
// appear in params: a vector crossing that call would change the ABI).
//   ATTENTION_SIMD_DISPATCH(gelu, gelu_kernel, (const float* x, float* y, std::size_t n), (x, y, n))
#if ATTENTION_X86
#define ATTENTION_SIMD_DISPATCH(name, kernel, params, args) \
  static void name##_4 params { kernel<4> args; }                 \
  static ATTENTION_TARGET_AVX void name##_4_vex params { kernel<4> args; } \
  static ATTENTION_TARGET_AVX2 void name##_8 params { kernel<8> args; }  \
  static ATTENTION_TARGET_AVX512 void name##_16 params { kernel<16> args; } \
  void name params {                                              \
    const int lanes = ::attention::simd_lanes();                  \
    if (lanes == 16) return name##_16 args;                       \
    if (lanes == 8) return name##_8 args;                         \
    if (::attention::simd_vex()) return name##_4_vex args;        \
    name##_4 args;                                                \
  }
#else
#define ATTENTION_SIMD_DISPATCH(name, kernel, params, args) \
  void name params { kernel<4> args; }
#endif
