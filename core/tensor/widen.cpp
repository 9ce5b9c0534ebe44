#include "tensor/widen.hpp"

#include <cstring>

#include "errors/check.hpp"
#include "tensor/simd.hpp"

namespace attention {

const char* dtype_name(weight_dtype type) {
  return type == weight_dtype::f32 ? "F32" : type == weight_dtype::f16 ? "F16" : "BF16";
}

std::optional<weight_dtype> dtype_named(const std::string& name) {
  if (name == "F32") return weight_dtype::f32;
  if (name == "F16") return weight_dtype::f16;
  if (name == "BF16") return weight_dtype::bf16;
  return std::nullopt;
}

std::size_t dtype_bytes(weight_dtype type) { return type == weight_dtype::f32 ? 4 : 2; }

namespace {

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

template <int W>
ATTENTION_INLINE void widen_kernel(weight_dtype type, const std::uint16_t* from, float* to, std::size_t n) {
  const bool bf16 = type == weight_dtype::bf16;
  std::size_t i = 0;
  if (bf16)
    for (; i + W <= n; i += W) store<W>(to + i, widen_lanes<W>(true, from + i));
  else
    for (; i + W <= n; i += W) store<W>(to + i, widen_lanes<W>(false, from + i));
  if (i == n) return;
  // the last few through the same lanes, padded, so every number has one formula
  std::uint16_t rest[W] = {};
  float out[W];
  std::memcpy(rest, from + i, (n - i) * sizeof(std::uint16_t));
  store<W>(out, widen_lanes<W>(bf16, rest));
  std::memcpy(to + i, out, (n - i) * sizeof(float));
}

ATTENTION_SIMD_DISPATCH(widen_widest, widen_kernel,
                        (weight_dtype type, const std::uint16_t* from, float* to, std::size_t n),
                        (type, from, to, n))

// The number at i, read as its bits (memcpy: the memory may hold floats).
template <typename Bits>
ATTENTION_INLINE Bits bits_at(const unsigned char* numbers, std::size_t i) {
  Bits b;
  std::memcpy(&b, numbers + i * sizeof(Bits), sizeof(Bits));
  return b;
}

// Whether a number's exponent is all ones: (bits & exponent) + the
// exponent's lowest bit carries into the top bit exactly then. One OR over
// all n, which the compiler vectorizes (this reads every byte of a model
// file), then a search only when one is found.
template <typename Bits>
std::size_t first_of(const void* numbers, std::size_t n, Bits exponent, Bits lowest, Bits top) {
  const auto* x = static_cast<const unsigned char*>(numbers);
  Bits any = 0;
  for (std::size_t i = 0; i < n; ++i) any |= static_cast<Bits>((bits_at<Bits>(x, i) & exponent) + lowest);
  if ((any & top) == 0) return n;
  std::size_t i = 0;
  while ((static_cast<Bits>((bits_at<Bits>(x, i) & exponent) + lowest) & top) == 0) ++i;
  return i;
}

}  // namespace

void widen(weight_dtype type, const std::uint16_t* from, float* to, std::size_t n) {
  ATTENTION_CHECK(type != weight_dtype::f32, "widen: F32 is not narrow");
  widen_widest(type, from, to, n);
}

std::size_t first_not_finite(weight_dtype type, const void* numbers, std::size_t n) {
  if (type == weight_dtype::f32) return first_of<std::uint32_t>(numbers, n, 0x7F800000u, 0x00800000u, 0x80000000u);
  if (type == weight_dtype::f16) return first_of<std::uint16_t>(numbers, n, 0x7C00u, 0x0400u, 0x8000u);
  return first_of<std::uint16_t>(numbers, n, 0x7F80u, 0x0080u, 0x8000u);
}

}  // namespace attention
