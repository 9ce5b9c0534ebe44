#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "tensor/transpose.hpp"

using namespace attention;

namespace {
std::uint32_t bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
}  // namespace

TEST_CASE("an 8x8 block transposed in registers: column q of the rows is row q, bit for bit", "[transpose]") {
  // (8, 8) row-major, one row past an unaligned start: every value distinct,
  // among them -0, a NaN with a payload, infinities and a subnormal
  float block[1 + 64];
  for (int i = 0; i < 64; ++i) block[1 + i] = static_cast<float>(i) + 0.25f * static_cast<float>(i % 3);
  block[1 + 9] = -0.0f;
  std::uint32_t payload = 0x7fc01234u;
  std::memcpy(&block[1 + 18], &payload, sizeof payload);
  block[1 + 27] = std::numeric_limits<float>::infinity();
  block[1 + 36] = -std::numeric_limits<float>::infinity();
  block[1 + 45] = std::numeric_limits<float>::denorm_min();
  const float* rows = block + 1;

  floats8 v[8], out[8];
  for (int k = 0; k < 8; ++k) v[k] = load8(rows + 8 * k);
  transpose8(v, out);
  float t[64];
  for (int q = 0; q < 8; ++q) store8(t + 8 * q, out[q]);
  for (int q = 0; q < 8; ++q)
    for (int k = 0; k < 8; ++k) {
      INFO("row " << q << ", column " << k);
      CHECK(bits(t[8 * q + k]) == bits(rows[8 * k + q]));
    }
}

TEST_CASE("transposing twice gives the block back", "[transpose]") {
  floats8 v[8], once[8], twice[8];
  for (int k = 0; k < 8; ++k)
    for (int q = 0; q < 8; ++q) v[k][q] = std::sin(static_cast<float>(8 * k + q));
  transpose8(v, once);
  transpose8(once, twice);
  for (int k = 0; k < 8; ++k)
    for (int q = 0; q < 8; ++q) CHECK(bits(twice[k][q]) == bits(v[k][q]));
}
