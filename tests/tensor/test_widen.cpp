// widen() against the plain formulas, for every one of the 65,536 bit
// patterns of F16 and of BF16, at every vector width the machine has (the
// tail of a row included); first_not_finite() on each format's edges.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "errors/check.hpp"
#include "half_reference.hpp"
#include "support.hpp"
#include "tensor/widen.hpp"

using namespace attention;

using test_support::bf16_reference;
using test_support::f16_reference;
using test_support::float_of_bits;

namespace {
std::uint32_t bits_of(float v) { return test_support::bits_of_float(v); }
}  // namespace

TEST_CASE("widen gives every F16 and BF16 exactly, subnormals, zeros, infinities and NaNs included", "[widen]") {
  std::vector<std::uint16_t> all(65536);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint16_t>(i);
  for (weight_dtype type : {weight_dtype::f16, weight_dtype::bf16}) {
    INFO(dtype_name(type));
    test_support::at_every_width([&](int) {
      // offsets 0 to 16 and lengths that leave 0 to 16 in the tail: every lane of every width
      for (std::size_t skip = 0; skip <= 16; ++skip) {
        const std::size_t n = all.size() - skip - skip / 2;
        std::vector<float> got(n + 1, -7.0f);
        widen(type, all.data() + skip, got.data(), n);
        std::size_t wrong = 0, first_wrong = n;
        for (std::size_t i = 0; i < n; ++i) {
          const auto h = static_cast<std::uint16_t>(i + skip);
          const float expected = type == weight_dtype::f16 ? f16_reference(h) : bf16_reference(h);
          if (bits_of(got[i]) != bits_of(expected)) {
            if (wrong++ == 0) first_wrong = i + skip;
          }
        }
        INFO("skip " << skip << ", first wrong half 0x" << std::hex << first_wrong);
        CHECK(wrong == 0);
        CHECK(bits_of(got[n]) == bits_of(-7.0f));  // nothing written past n
      }
    });
  }
}

TEST_CASE("widen keeps an F16 subnormal's value: 2^-24 and the largest subnormal", "[widen]") {
  const std::uint16_t halves[] = {0x0001, 0x03FF, 0x8001, 0x0400, 0x7BFF, 0x8000};
  float got[6];
  widen(weight_dtype::f16, halves, got, 6);
  CHECK(got[0] == 5.9604644775390625e-8f);      // 2⁻²⁴
  CHECK(got[1] == 1023 * 5.9604644775390625e-8f);
  CHECK(got[2] == -5.9604644775390625e-8f);
  CHECK(got[3] == 6.103515625e-05f);            // the smallest normal, 2⁻¹⁴
  CHECK(got[4] == 65504.0f);                    // the largest half
  CHECK(bits_of(got[5]) == 0x80000000u);        // −0
}

TEST_CASE("widen refuses F32, which is not narrow", "[widen]") {
  const std::uint16_t h = 0;
  float f;
  CHECK_THROWS_AS(widen(weight_dtype::f32, &h, &f, 1), error);
}

TEST_CASE("first_not_finite finds the first all-ones exponent of each format, and only those", "[widen]") {
  // the largest finite number of each format, then an infinity, then a NaN
  std::vector<std::uint16_t> f16 = {0x7BFF, 0xFBFF, 0x0001, 0x7C00, 0x7E00};
  CHECK(first_not_finite(weight_dtype::f16, f16.data(), 3) == 3);
  CHECK(first_not_finite(weight_dtype::f16, f16.data(), 5) == 3);
  CHECK(first_not_finite(weight_dtype::f16, f16.data() + 4, 1) == 0);
  std::vector<std::uint16_t> bf16 = {0x7F7F, 0xFF7F, 0x0001, 0xFF80, 0x7FC1};
  CHECK(first_not_finite(weight_dtype::bf16, bf16.data(), 3) == 3);
  CHECK(first_not_finite(weight_dtype::bf16, bf16.data(), 5) == 3);
  CHECK(first_not_finite(weight_dtype::bf16, bf16.data() + 4, 1) == 0);
  const std::vector<float> f32 = {3.4028235e38f, -3.4028235e38f, 1e-45f, float_of_bits(0xFF800000u), float_of_bits(0x7FC00000u)};
  CHECK(first_not_finite(weight_dtype::f32, f32.data(), 3) == 3);
  CHECK(first_not_finite(weight_dtype::f32, f32.data(), 5) == 3);
  CHECK(first_not_finite(weight_dtype::f32, f32.data() + 4, 1) == 0);
  // every half: exactly those with an all-ones exponent
  for (std::uint32_t h = 0; h < 65536; ++h) {
    const auto half = static_cast<std::uint16_t>(h);
    const bool f16_bad = (h & 0x7C00u) == 0x7C00u, bf16_bad = (h & 0x7F80u) == 0x7F80u;
    if ((first_not_finite(weight_dtype::f16, &half, 1) == 0) != f16_bad) FAIL("F16 0x" << std::hex << h);
    if ((first_not_finite(weight_dtype::bf16, &half, 1) == 0) != bf16_bad) FAIL("BF16 0x" << std::hex << h);
  }
}

TEST_CASE("dtype names are safetensors' and nothing else", "[widen]") {
  CHECK(dtype_named("F16") == weight_dtype::f16);
  CHECK(dtype_named("BF16") == weight_dtype::bf16);
  CHECK(dtype_named("F32") == weight_dtype::f32);
  CHECK_FALSE(dtype_named("F64").has_value());
  CHECK_FALSE(dtype_named("bf16").has_value());
  CHECK(std::string(dtype_name(weight_dtype::bf16)) == "BF16");
  CHECK(dtype_bytes(weight_dtype::f16) == 2);
  CHECK(dtype_bytes(weight_dtype::f32) == 4);
}
