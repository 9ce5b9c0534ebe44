// Each `std::fma` below stands where GCC, compiling PyTorch's AVX2 kernels
// with -mfma and its default -ffp-contract=fast, fuses a multiply whose only
// use is an add or subtract. Plain `*` and `+` are the ones it leaves alone.
#include "random/cephes_float.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace attention::cephes {
namespace {

std::uint32_t bits_of(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

float float_of(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

}  // namespace

float log(float x) {
  if (x <= 0.0f) return std::nanf("");
  const float min_norm_pos = float_of(0x00800000u);
  x = std::fmax(x, min_norm_pos);  // cut off denormals

  const std::int32_t exponent = static_cast<std::int32_t>(bits_of(x) >> 23) - 0x7f;
  x = float_of((bits_of(x) & ~0x7f800000u) | bits_of(0.5f));  // mantissa in [0.5, 1)
  float e = static_cast<float>(exponent) + 1.0f;

  // if x < sqrt(1/2): e -= 1, x = x + x - 1; else x = x - 1
  const bool below = x < 0.707106781186547524f;
  const float tmp = below ? x : 0.0f;
  x = x - 1.0f;
  e = e - (below ? 1.0f : 0.0f);
  x = x + tmp;

  const float z = x * x;
  float y = 7.0376836292E-2f;
  y = std::fma(y, x, -1.1514610310E-1f);
  y = std::fma(y, x, 1.1676998740E-1f);
  y = std::fma(y, x, -1.2420140846E-1f);
  y = std::fma(y, x, +1.4249322787E-1f);
  y = std::fma(y, x, -1.6668057665E-1f);
  y = std::fma(y, x, +2.0000714765E-1f);
  y = std::fma(y, x, -2.4999993993E-1f);
  y = std::fma(y, x, +3.3333331174E-1f);
  y = y * x;
  y = std::fma(y, z, e * -2.12194440e-4f);
  y = std::fma(-z, 0.5f, y);
  x = x + y;
  return std::fma(e, 0.693359375f, x);
}

void sincos(float x, float& sin_out, float& cos_out) {
  const std::uint32_t sign_mask = 0x80000000u;
  std::uint32_t sign_bit_sin = bits_of(x) & sign_mask;
  x = std::fabs(x);

  // scale by 4/pi, then j = (j + 1) & ~1 picks the octant
  const float scaled = x * 1.27323954473516f;
  std::int32_t j = static_cast<std::int32_t>(scaled);  // truncation, as cvttps
  j = (j + 1) & ~1;
  const float y_octant = static_cast<float>(j);

  const std::uint32_t swap_sign_sin = static_cast<std::uint32_t>(j & 4) << 29;
  const bool poly_is_sin = (j & 2) == 0;
  const std::uint32_t sign_bit_cos = static_cast<std::uint32_t>(~(j - 2) & 4) << 29;
  sign_bit_sin ^= swap_sign_sin;

  // extended precision modular arithmetic: x = ((x - y DP1) - y DP2) - y DP3
  x = std::fma(y_octant, -0.78515625f, x);
  x = std::fma(y_octant, -2.4187564849853515625e-4f, x);
  x = std::fma(y_octant, -3.77489497744594108e-8f, x);

  const float z = x * x;
  float y = 2.443315711809948E-005f;  // cosine polynomial, 0 <= x <= pi/4
  y = std::fma(y, z, -1.388731625493765E-003f);
  y = std::fma(y, z, 4.166664568298827E-002f);
  y = y * z;
  y = std::fma(y, z, -(z * 0.5f));
  y = y + 1.0f;

  float y2 = -1.9515295891E-4f;  // sine polynomial
  y2 = std::fma(y2, z, 8.3321608736E-3f);
  y2 = std::fma(y2, z, -1.6666654611E-1f);
  y2 = y2 * z;
  y2 = std::fma(y2, x, x);

  const float sin_abs = poly_is_sin ? y2 : y;
  const float cos_abs = poly_is_sin ? y : y2;
  sin_out = float_of(bits_of(sin_abs) ^ sign_bit_sin);
  cos_out = float_of(bits_of(cos_abs) ^ sign_bit_cos);
}

}  // namespace attention::cephes
