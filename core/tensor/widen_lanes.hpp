// F16 and BF16 widened W at a time in vector registers (simd.hpp's
// vectors): widen.cpp's loops, and the one-row products that widen a
// narrow weight as they stream it (row_product.cpp). Exact: every F16 and
// BF16 is a float32.
#pragma once

#include <cstdint>

#include "tensor/simd.hpp"

namespace attention {

// W halves, and W unsigned 32-bit lanes for their bits.
template <int W>
struct lanes_of;
template <>
struct lanes_of<4> {
  typedef std::uint16_t halves __attribute__((vector_size(8)));
  typedef std::uint32_t bits __attribute__((vector_size(16)));
};
template <>
struct lanes_of<8> {
  typedef std::uint16_t halves __attribute__((vector_size(16)));
  typedef std::uint32_t bits __attribute__((vector_size(32)));
};
template <>
struct lanes_of<16> {
  typedef std::uint16_t halves __attribute__((vector_size(32)));
  typedef std::uint32_t bits __attribute__((vector_size(64)));
};
template <int W>
using bits_vec = typename lanes_of<W>::bits;

template <int W>
ATTENTION_INLINE bits_vec<W> load_halves(const std::uint16_t* from) {
  typename lanes_of<W>::halves h;
  __builtin_memcpy(&h, from, sizeof h);
  return __builtin_convertvector(h, bits_vec<W>);  // zero-extended
}

// BF16: its 16 bits above 16 zeros.
template <int W>
ATTENTION_INLINE vec<W> widen_bf16(const bits_vec<W>& h) {
  return (vec<W>)(h << 16);
}

// F16: its exponent and mantissa moved into a float32's place read as a
// float32 are the half's value times 2⁻¹¹², so one multiply by 2¹¹² gives
// it exactly (a power of two; subnormal halves arrive as float32
// subnormals, which neither wasm nor this core flushes). An all-ones
// exponent (inf, NaN) gets 255 instead. Then the sign.
template <int W>
ATTENTION_INLINE vec<W> widen_f16(const bits_vec<W>& h) {
  // shifts rather than masks: fewer constants, which V8 rebuilds in every iteration of a loop
  const bits_vec<W> moved = (h << 17) >> 4, sign = (h >> 15) << 31;  // (h & 0x7FFF) << 13, the sign bit
  const vec<W> scaled = (vec<W>)moved * splat<W>(5.192296858534828e+33f);  // 2¹¹²
  const bits_vec<W> infinite = (bits_vec<W>)(scaled >= splat<W>(65536.0f));  // an exponent of 31: 2¹⁶ and up
  return (vec<W>)(((bits_vec<W>)scaled | (infinite & 0x7F800000u)) | sign);
}

template <int W>
ATTENTION_INLINE vec<W> widen_lanes(bool bf16, const std::uint16_t* from) {
  const bits_vec<W> h = load_halves<W>(from);
  return bf16 ? widen_bf16<W>(h) : widen_f16<W>(h);
}

}  // namespace attention
