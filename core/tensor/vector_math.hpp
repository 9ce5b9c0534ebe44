// exp and fma on vectors, bit for bit the scalars the core used before it
// had vectors: a lane of exp_lanes() is musl's expf (the one in wasm's libc),
// and a lane of fma_lanes() is std::fma, correctly rounded; and tanh_lanes()
// from that exp in double, the same bits at every width. Exact lanes keep
// native and wasm training on the same bits, and as PyTorch's kernels are.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tensor/simd.hpp"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

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

#if defined(__wasm_simd128__)
// SIMD128 holds two doubles. LLVM 14 converts a vector of four floats to
// doubles, and back, one lane at a time; two halves of two doubles each
// become f64x2.promote_low_f32x4 and f32x4.demote_f64x2_zero instead.
typedef double double2 __attribute__((vector_size(16)));
typedef std::uint64_t bits2 __attribute__((vector_size(16)));
ATTENTION_INLINE double2 low_half(const vec<4>& x) {
  return (double2)wasm_f64x2_promote_low_f32x4((v128_t)x);
}
ATTENTION_INLINE double2 high_half(const vec<4>& x) {
  return (double2)wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle((v128_t)x, (v128_t)x, 2, 3, 2, 3));
}
ATTENTION_INLINE vec<4> floats_of_halves(const double2& low, const double2& high) {
  return (vec<4>)wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero((v128_t)low),
                                    wasm_f32x4_demote_f64x2_zero((v128_t)high), 0, 1, 4, 5);
}
#endif

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

// tab[i] of each lane: one lane at a time, or (permute: eight lanes in an
// AVX-512 function, compiled by GCC) two two-table permutes and a blend.
template <typename U, bool permute>
ATTENTION_INLINE U table_lookup(const U& i) {
  using namespace exp_data;
#if defined(__GNUC__) && !defined(__clang__) && ATTENTION_X86
  if constexpr (permute && sizeof(U) == 64) {
    const U t0 = {tab[0], tab[1], tab[2], tab[3], tab[4], tab[5], tab[6], tab[7]};
    const U t1 = {tab[8], tab[9], tab[10], tab[11], tab[12], tab[13], tab[14], tab[15]};
    const U t2 = {tab[16], tab[17], tab[18], tab[19], tab[20], tab[21], tab[22], tab[23]};
    const U t3 = {tab[24], tab[25], tab[26], tab[27], tab[28], tab[29], tab[30], tab[31]};
    const U low = __builtin_shuffle(t0, t1, i & 15), high = __builtin_shuffle(t2, t3, i & 15);
    return (U)((i & 16) != 0 ? high : low);
  }
#endif
  U t;
#pragma GCC unroll 16
  for (int l = 0; l < static_cast<int>(sizeof(U) / 8); ++l) t[l] = tab[i[l]];
  return t;
}

// musl's expf after its special cases, in double on a vector D of doubles
// (U: the same width of 64-bit unsigned integers).
template <typename D, typename U, bool permute = false>
ATTENTION_INLINE D exp_in_double(const D& xd) {
  using namespace exp_data;
  const D z = inv_ln2_n * xd;
  D kd = z + shift;  // round z to an integer in the low bits, ties to even
  const U ki = (U)kd;  // a vector cast keeps the bits
  kd = kd - shift;
  const D r = z - kd;
  U t = table_lookup<U, permute>(ki & 31);
  t = t + (ki << 47);
  const D s = (D)t;
  const D cubic = c0 * r + c1;
  const D r2 = r * r;
  D y = c2 * r + 1.0;
  y = cubic * r2 + y;
  return y * s;
}

// e^x of each lane: musl's expf, with no fused step (wasm has none), so the
// same bits natively and in wasm. (glibc's FMA build contracts one step of
// it and differs from musl at two floats of [-88, 88], ±1 ulp.)
template <int W>
ATTENTION_INLINE vec<W> exp_lanes(const vec<W>& x) {
  vec<W> e;
#if defined(__wasm_simd128__)
  if constexpr (W == 4)
    e = floats_of_halves(exp_in_double<double2, bits2>(low_half(x)), exp_in_double<double2, bits2>(high_half(x)));
  else
#elif defined(__GNUC__) && !defined(__clang__) && ATTENTION_X86
  if constexpr (W == 16) {  // two halves of eight doubles, one AVX-512 register each
    typedef float float8 __attribute__((vector_size(32)));
    typedef double double8 __attribute__((vector_size(64)));
    typedef std::uint64_t bits8 __attribute__((vector_size(64)));
    const float8 low = __builtin_shufflevector(x, x, 0, 1, 2, 3, 4, 5, 6, 7);
    const float8 high = __builtin_shufflevector(x, x, 8, 9, 10, 11, 12, 13, 14, 15);
    const float8 e_low = __builtin_convertvector(
        (exp_in_double<double8, bits8, true>(__builtin_convertvector(low, double8))), float8);
    const float8 e_high = __builtin_convertvector(
        (exp_in_double<double8, bits8, true>(__builtin_convertvector(high, double8))), float8);
    e = __builtin_shufflevector(e_low, e_high, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  } else
#endif
    e = __builtin_convertvector(
        (exp_in_double<vec_double<W>, vec_bits<W>>(__builtin_convertvector(x, vec_double<W>))), vec<W>);
  // musl's special cases: NaN stays NaN (x + x), -inf and underflow give 0, overflow +inf
  e = x > exp_data::overflow ? vec<W>{} + __builtin_inff() : e;
  e = x < exp_data::underflow ? vec<W>{} : e;
  e = x != x ? x + x : e;
  return e;
}

namespace tanh_data {
// tanh x = x + x³·(c1 + c2·x² + … + c8·x¹⁴) + O(x¹⁹): its Taylor series,
// 2²ⁿ(2²ⁿ − 1)·B₂ₙ/(2n)!, below 0.3 (error < 1e-13 there)
constexpr double c1 = -1.0 / 3, c2 = 2.0 / 15, c3 = -17.0 / 315, c4 = 62.0 / 2835, c5 = -1382.0 / 155925,
                 c6 = 21844.0 / 6081075, c7 = -929569.0 / 638512875, c8 = 6404582.0 / 10854718875;
constexpr double series_below = 0.3;
constexpr double saturated = 10;  // tanh of more is 1 in float32, and e^(2·10) fits
}  // namespace tanh_data

// tanh a in double for a = |x| ≥ 0 on a vector D of doubles: the series
// near 0, else 1 − 2/(e^(2a) + 1) with e^(2a) musl's expf before its last
// rounding (relative error < 2e-10), so the float32 of it is within 0.51
// ulp of tanh.
template <typename D, typename U>
ATTENTION_INLINE D tanh_in_double(const D& a) {
  using namespace tanh_data;
  const D s = a * a;
  D p = c8 * s + c7;
  p = p * s + c6;
  p = p * s + c5;
  p = p * s + c4;
  p = p * s + c3;
  p = p * s + c2;
  p = p * s + c1;
  const D series = a + (a * s) * p;
  const D e = exp_in_double<D, U>(2.0 * (a < saturated ? a : saturated + D{}));
  const D from_exp = 1.0 - 2.0 / (e + 1.0);
  return a < series_below ? series : from_exp;
}

// tanh of each lane, the same bits at every width and in wasm (double
// arithmetic without fused steps), within 0.51 ulp of the true tanh: PyTorch's
// AVX2 kernels use SLEEF's (≤ 1 ulp), its scalar loops glibc's tanhf, and
// wasm's musl another, so none of theirs is the one all agree on.
template <int W>
ATTENTION_INLINE vec<W> tanh_lanes(const vec<W>& x) {
  const vec_int<W> sign = bits_of<W>(x) & static_cast<int>(0x80000000u);
  const vec<W> a = floats_of<W>(bits_of<W>(x) & 0x7fffffff);
  vec<W> t;
#if defined(__wasm_simd128__)
  if constexpr (W == 4)
    t = floats_of_halves(tanh_in_double<double2, bits2>(low_half(a)), tanh_in_double<double2, bits2>(high_half(a)));
  else
#endif
    t = __builtin_convertvector(
        (tanh_in_double<vec_double<W>, vec_bits<W>>(__builtin_convertvector(a, vec_double<W>))), vec<W>);
  t = floats_of<W>(bits_of<W>(t) | sign);  // tanh is odd: −0 stays −0
  return x != x ? x + x : t;               // NaN stays NaN
}

// Whether any lane of a mask is set.
template <int W>
ATTENTION_INLINE bool any_lane(const vec_bits<W>& mask) {
  std::uint64_t any = 0;
#pragma GCC unroll 16
  for (int l = 0; l < W; ++l) any |= mask[l];
  return any != 0;
}

// fma(a, b, c) of each lane rounded through double, with no FMA instruction
// (wasm has none, and musl's fmaf is a call per lane): a·b is exact in
// double and a·b + c rounds once to double; rounding that to float is the
// single rounding unless the double sits exactly halfway between two floats
// or down where floats lose bits. Such lanes are marked in `doubtful`, to be
// redone exactly (fma_by_double); a chain of steps checks once at its end.
template <typename D, typename U>
ATTENTION_INLINE D sum_marking_doubt(const D& a, const D& b, const D& c, U& doubtful) {
  const D sum = a * b + c;
  const U bits = (U)sum;
  doubtful |= (U)((bits & 0x1fffffff) == 0x10000000);
  doubtful |= (U)((D)(bits & 0x7fffffffffffffff) < 0x1p-125);  // |sum|; doubles compared: wasm has no unsigned i64x2 compare
  return sum;
}
template <int W>
ATTENTION_INLINE vec<W> fma_rounded_twice(const vec<W>& a, const vec<W>& b, const vec<W>& c, vec_bits<W>& doubtful) {
#if defined(__wasm_simd128__)
  if constexpr (W == 4) {
    bits2 doubt{};
    const double2 low = sum_marking_doubt<double2, bits2>(low_half(a), low_half(b), low_half(c), doubt);
    const double2 high = sum_marking_doubt<double2, bits2>(high_half(a), high_half(b), high_half(c), doubt);
    doubtful[0] |= doubt[0] | doubt[1];  // only whether any lane is doubtful counts
    return floats_of_halves(low, high);
  }
#endif
  return __builtin_convertvector(
      (sum_marking_doubt<vec_double<W>, vec_bits<W>>(__builtin_convertvector(a, vec_double<W>),
                                                     __builtin_convertvector(b, vec_double<W>),
                                                     __builtin_convertvector(c, vec_double<W>), doubtful)),
      vec<W>);
}

// fma(a, b, c) of each lane, rounded once, with no FMA instruction: the
// doubtful lanes of fma_rounded_twice are redone rounding to odd, which
// makes the second rounding exact.
template <int W>
ATTENTION_INLINE vec<W> fma_by_double(const vec<W>& a, const vec<W>& b, const vec<W>& c) {
  vec_bits<W> doubtful{};
  const vec<W> quick = fma_rounded_twice<W>(a, b, c, doubtful);
  if (!any_lane<W>(doubtful)) return quick;
  const vec_double<W> ab = __builtin_convertvector(a, vec_double<W>) * __builtin_convertvector(b, vec_double<W>);
  const vec_double<W> cd = __builtin_convertvector(c, vec_double<W>);
  const vec_double<W> sum = ab + cd;
  // the exact error of the sum (Knuth's two-sum) says which neighbour of
  // the sum the exact value lies toward; an even sum moves there (an
  // infinite sum has a NaN error, and stays)
  const vec_double<W> back = sum - ab;
  const vec_double<W> error = (ab - (sum - back)) + (cd - back);
  const vec_bits<W> bits = (vec_bits<W>)sum;
  vec_bits<W> odd = bits;
#pragma GCC unroll 16
  for (int l = 0; l < W; ++l)
    if (error[l] != 0 && error[l] == error[l] && (bits[l] & 1) == 0) odd[l] = (error[l] > 0) == (sum[l] > 0) ? odd[l] + 1 : odd[l] - 1;
  return __builtin_convertvector((vec_double<W>)odd, vec<W>);
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

// y[i] = tanh x[i] as tanh_lanes computes it, at simd_lanes() floats; y may be x.
void tanh_each(const float* x, float* y, std::size_t n);
float tanh_one(float x);

}  // namespace attention
