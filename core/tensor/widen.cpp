#include "tensor/widen.hpp"

#include <cstring>

#include "errors/check.hpp"
#include "tensor/simd.hpp"
#include "tensor/widen_lanes.hpp"

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
