// exp and fma on vectors, bit for bit the scalars the core used before it
// had vectors: a lane of exp_lanes() is musl's expf (the one in wasm's libc),
// and a lane of fma_lanes() is std::fma, correctly rounded. Exact lanes keep
// native and wasm training on the same bits, and as PyTorch's kernels are.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tensor/simd.hpp"

namespace attention {

template <int W>
struct simd_double;
template <>
struct simd_double<4> {
  typedef double type __attribute__((vector_size(32)));
  typedef std::uint64_t bits __attribute__((vector_size(32)));
};
template <>
struct simd_double<8> {
  typedef double type __attribute__((vector_size(64)));
  typedef std::uint64_t bits __attribute__((vector_size(64)));
};
template <>
struct simd_double<16> {
  typedef double type __attribute__((vector_size(128)));
  typedef std::uint64_t bits __attribute__((vector_size(128)));
};
template <int W>
using vec_double = typename simd_double<W>::type;  // W doubles
template <int W>
using vec_bits = typename simd_double<W>::bits;    // W 64-bit unsigned integers

namespace exp_data {
// expf of ARM's optimized-routines (MIT), as musl and glibc ship it: x·N/ln 2
// = k + r, e^x = 2^(k/N)·2^(r/N), 2^(k/N) from a table of N = 32 doubles
// (tab[i] = bits of 2^(i/N) − i << 47) and 2^(r/N) a cubic, all in double.
constexpr std::uint64_t tab[32] = {
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51, 0x3fef72b83c7d517b,
    0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1, 0x3fef06fe0a31b715, 0x3feef1a7373aa9cb,
    0x3feedea64c123422, 0x3feece086061892d, 0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429,
    0x3feea47eb03a5585, 0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d, 0x3feee89f995ad3ad,
    0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069, 0x3fef5818dcfba487, 0x3fef7c97337b9b5f,
    0x3fefa4afa2a490da, 0x3fefd0765b6e4540};
constexpr double N = 32;
constexpr double inv_ln2_n = 0x1.71547652b82fep+0 * N;
constexpr double shift = 0x1.8p+52;
constexpr double c0 = 0x1.c6af84b912394p-5 / N / N / N, c1 = 0x1.ebfce50fac4f3p-3 / N / N,
                 c2 = 0x1.62e42ff0c52d6p-1 / N;
constexpr float overflow = 0x1.62e42ep6f;    // above: +inf
constexpr float underflow = -0x1.9fe368p6f;  // below: 0
}  // namespace exp_data

// e^x of each lane: musl's expf, with no fused step (wasm has none), so the
// same bits natively and in wasm. (glibc's FMA build contracts one step of
// it and differs from musl at two floats of [-88, 88], ±1 ulp.)
template <int W>
ATTENTION_INLINE vec<W> exp_lanes(const vec<W>& x) {
  using namespace exp_data;
  const vec_double<W> xd = __builtin_convertvector(x, vec_double<W>);
  const vec_double<W> z = inv_ln2_n * xd;
  vec_double<W> kd = z + shift;  // round z to an integer in the low bits, ties to even
  const vec_bits<W> ki = (vec_bits<W>)kd;  // a vector cast keeps the bits
  kd = kd - shift;
  const vec_double<W> r = z - kd;
  vec_bits<W> t;
#pragma GCC unroll 16
  for (int l = 0; l < W; ++l) t[l] = tab[ki[l] & 31];
  t = t + (ki << 47);
  const vec_double<W> s = (vec_double<W>)t;
  const vec_double<W> cubic = c0 * r + c1;
  const vec_double<W> r2 = r * r;
  vec_double<W> y = c2 * r + 1.0;
  y = cubic * r2 + y;
  y = y * s;
  vec<W> e = __builtin_convertvector(y, vec<W>);
  // musl's special cases: NaN stays NaN (x + x), -inf and underflow give 0, overflow +inf
  e = x > overflow ? vec<W>{} + __builtin_inff() : e;
  e = x < underflow ? vec<W>{} : e;
  e = x != x ? x + x : e;
  return e;
}

// fma(a, b, c) of each lane, rounded once, with no FMA instruction (wasm
// has none, and musl's fmaf is a call per lane): a·b is exact in double and
// a·b + c rounds once to double; rounding that to float is the single
// rounding unless the double sits exactly halfway between two floats. Those
// rare lanes (and float underflow) are redone rounding to odd, which makes
// the second rounding exact.
template <int W>
ATTENTION_INLINE vec<W> fma_by_double(const vec<W>& a, const vec<W>& b, const vec<W>& c) {
  const vec_double<W> ab = __builtin_convertvector(a, vec_double<W>) * __builtin_convertvector(b, vec_double<W>);
  const vec_double<W> cd = __builtin_convertvector(c, vec_double<W>);
  vec_double<W> sum = ab + cd;
  const vec_bits<W> bits = (vec_bits<W>)sum;
  const auto tie = (bits & 0x1fffffff) == 0x10000000;
  const auto tiny = (bits & 0x7ff0000000000000) < (std::uint64_t{1023 - 125} << 52);
  const auto redo = tie | tiny;
  bool any = false;
#pragma GCC unroll 16
  for (int l = 0; l < W; ++l) any = any || redo[l] != 0;
  if (any) {
    // the exact error of the sum (Knuth's two-sum) says which neighbour of
    // the sum the exact value lies toward; an even sum moves there
    const vec_double<W> back = sum - ab;
    const vec_double<W> error = (ab - (sum - back)) + (cd - back);
    vec_bits<W> odd = bits;
#pragma GCC unroll 16
    for (int l = 0; l < W; ++l)
      if (redo[l] && error[l] != 0 && (bits[l] & 1) == 0) odd[l] = (error[l] > 0) == (sum[l] > 0) ? odd[l] + 1 : odd[l] - 1;
    sum = (vec_double<W>)odd;
  }
  return __builtin_convertvector(sum, vec<W>);
}

// fma(a, b, c) of each lane, rounded once: one vector FMA in the AVX2 and
// AVX-512 builds (SSE2's calls libm's fmaf per lane), fma_by_double in wasm.
template <int W>
ATTENTION_INLINE vec<W> fma_lanes(const vec<W>& a, const vec<W>& b, const vec<W>& c) {
#if ATTENTION_X86
  vec<W> r;
#pragma GCC unroll 16
  for (int l = 0; l < W; ++l) r[l] = __builtin_fmaf(a[l], b[l], c[l]);
  return r;
#else
  return fma_by_double<W>(a, b, c);
#endif
}

}  // namespace attention

namespace attention {

// y[i] = e^x[i] as exp_lanes computes it, at simd_lanes() floats; y may be x.
void exp_each(const float* x, float* y, std::size_t n);

// e^x of one float, the same bits: for the scalar code that must agree
// with the vectors (the explanation of a softmax row).
float exp_one(float x);

}  // namespace attention
