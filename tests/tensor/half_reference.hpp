// F16 and BF16 by their definitions, one number at a time, and random
// matrices of them: what the narrow tests compare the vector code against.
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "tensor/widen.hpp"

namespace test_support {

inline float float_of_bits(std::uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}
inline std::uint32_t bits_of_float(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return bits;
}

// IEEE half: (−1)^s · 2^(e − 15) · 1.m, or m · 2⁻²⁴ when e = 0.
inline float f16_reference(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
  if (exponent == 0) {
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return float_of_bits(sign | 0x7F800000u | (mantissa << 13));
  return float_of_bits(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// BF16: the high half of a float32.
inline float bf16_reference(std::uint16_t h) { return float_of_bits(static_cast<std::uint32_t>(h) << 16); }

inline float half_reference(attention::weight_dtype type, std::uint16_t h) {
  return type == attention::weight_dtype::f16 ? f16_reference(h) : bf16_reference(h);
}

// n finite halves of a weight's sizes (|x| below 2⁶), one in eight a
// subnormal (F16: m · 2⁻²⁴; BF16: below 2⁻¹²⁶), some zeros of either sign.
inline std::vector<std::uint16_t> random_halves(std::mt19937& gen, attention::weight_dtype type, std::size_t n) {
  std::vector<std::uint16_t> out(n);
  const bool f16 = type == attention::weight_dtype::f16;
  const unsigned mantissa_bits = f16 ? 10 : 7, bias = f16 ? 15 : 127;
  for (std::uint16_t& h : out) {
    const std::uint32_t sign = gen() % 2, mantissa = gen() & ((1u << mantissa_bits) - 1);
    std::uint32_t exponent = bias - 12 + gen() % 18;  // 2⁻¹² … 2⁵
    if (gen() % 8 == 0) exponent = 0;                 // subnormal (or zero)
    if (gen() % 50 == 0) exponent = 0;
    h = static_cast<std::uint16_t>((sign << 15) | (exponent << mantissa_bits) |
                                   (exponent == 0 && gen() % 50 == 0 ? 0 : mantissa));
  }
  return out;
}

}  // namespace test_support
