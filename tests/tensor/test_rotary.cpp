// core/tensor/rotary.hpp: the angles, rotate_half and the rotation, against
// numbers PyTorch printed (shared/tools/torch_trace.py's rotary()), and what
// makes rotary positions useful: q·k depends on positions only through i − j.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "errors/check.hpp"
#include "tensor/rotary.hpp"

using namespace attention;

namespace {

// (B, T, d) of varied numbers
tensor3 wave(std::size_t B, std::size_t T, std::size_t d, float step) {
  tensor3 t({B, T, d});
  float v = 0.3f;
  for (float& x : t) x = std::sin(v += step) * 1.5f;
  return t;
}

float dot(const tensor3& a, std::size_t i, const tensor3& b, std::size_t j) {
  float sum = 0;
  for (std::size_t c = 0; c < a.shape(2); ++c) sum += a(0, i, c) * b(0, j, c);
  return sum;
}

}  // namespace

TEST_CASE("inverse frequencies equal PyTorch's float32 values bit for bit", "[rotary]") {
  SECTION("theta 500000 (Llama 3), d 16") {
    const std::vector<float> expected = {0x1.0p+0f, 0x1.8d276p-3f, 0x1.34119p-5f, 0x1.ddee9ep-8f,
                                         0x1.72ba42p-10f, 0x1.1f91fp-12f, 0x1.be2188p-15f, 0x1.5a0f4ep-17f};
    CHECK(inverse_frequencies(16, 500000.0f) == expected);
  }
  SECTION("theta 10000 (Llama 2), d 64") {
    const std::vector<float> got = inverse_frequencies(64, 10000.0f);
    REQUIRE(got.size() == 32);
    CHECK(got[0] == 1.0f);
    CHECK(got[1] == 0x1.7ff222p-1f);
    CHECK(got[8] == 0x1.99999ap-4f);  // 10000^(−16/64) = 0.1
    CHECK(got[16] == 0x1.47ae14p-7f);  // 0.01
    CHECK(got[31] == 0x1.17a8e4p-13f);
  }
}

TEST_CASE("pair j's angle at row t is (offset + t) · inv_freq[j], one float32 product", "[rotary]") {
  const std::vector<float> inv_freq = inverse_frequencies(8, 10000.0f);
  const tensor2 angles = rotary_angles(4, 3, 8, 10000.0f);
  REQUIRE(angles.shape() == std::array<std::size_t, 2>{4, 4});
  for (std::size_t t = 0; t < 4; ++t)
    for (std::size_t j = 0; j < 4; ++j) CHECK(angles(t, j) == static_cast<float>(3 + t) * inv_freq[j]);
  CHECK(angles(0, 0) == 3.0f);  // pair 0 turns one radian per position
}

TEST_CASE("rotate_half moves the second half, negated, before the first", "[rotary]") {
  const float x[6] = {1, 2, 3, 4, 5, 6};
  float out[6];
  rotate_half(x, out, 6);
  CHECK(std::vector<float>(out, out + 6) == std::vector<float>{-4, -5, -6, 1, 2, 3});
}

TEST_CASE("rotation gives PyTorch's numbers at positions 3 to 6", "[rotary]") {
  tensor3 x({1, 4, 8});
  const float row[8] = {0.5f, -1.25f, 2.0f, 0.75f, -0.5f, 1.5f, 0.25f, -2.0f};
  for (std::size_t t = 0; t < 4; ++t)
    for (std::size_t c = 0; c < 8; ++c) x(0, t, c) = row[c];
  const tensor3 r = rotate(x, rotary_angles(4, 3, 8, 10000.0f));
  const float expected[2][8] = {
      {-0.4244362413883209f, -1.637450933456421f, 1.9916012287139893f, 0.7559966444969177f, 0.5655562281608582f,
       1.063604474067688f, 0.30987849831581116f, -1.9977411031723022f},
      {0.3403773903846741f, -1.8786332607269287f, 1.981410026550293f, 0.7619864344596863f, -0.6197928786277771f,
       0.5322003960609436f, 0.36947813630104065f, -1.9954639673233032f}};
  for (std::size_t c = 0; c < 8; ++c) {
    CHECK(r(0, 0, c) == Approx(expected[0][c]).margin(1e-6));
    CHECK(r(0, 3, c) == Approx(expected[1][c]).margin(1e-6));
  }
}

TEST_CASE("position 0 is not turned, and every pair keeps its length", "[rotary]") {
  const tensor3 x = wave(2, 5, 6, 0.37f);
  const tensor3 r = rotate(x, rotary_angles(5, 0, 6, 10000.0f));
  for (std::size_t b = 0; b < 2; ++b) {
    for (std::size_t c = 0; c < 6; ++c) CHECK(r(b, 0, c) == x(b, 0, c));
    for (std::size_t t = 0; t < 5; ++t)
      for (std::size_t j = 0; j < 3; ++j) {
        const float before = std::hypot(x(b, t, j), x(b, t, j + 3)), after = std::hypot(r(b, t, j), r(b, t, j + 3));
        CHECK(after == Approx(before).epsilon(1e-5));
      }
  }
}

TEST_CASE("rotated q·k depends on positions only through i − j", "[rotary]") {
  const tensor3 q = wave(1, 6, 8, 0.53f), k = wave(1, 6, 8, 1.21f);
  const tensor3 q0 = rotate(q, rotary_angles(6, 0, 8, 10000.0f)), k0 = rotate(k, rotary_angles(6, 0, 8, 10000.0f));
  const tensor3 q5 = rotate(q, rotary_angles(6, 5, 8, 10000.0f)), k5 = rotate(k, rotary_angles(6, 5, 8, 10000.0f));
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 6; ++j) CHECK(dot(q5, i, k5, j) == Approx(dot(q0, i, k0, j)).margin(1e-5));
  // while the rotated vectors themselves differ
  CHECK(std::fabs(q5(0, 2, 0) - q0(0, 2, 0)) > 0.01f);
}

TEST_CASE("an odd d_k is refused in words", "[rotary]") {
  CHECK_THROWS_WITH(inverse_frequencies(5, 10000.0f), "rotary: d_k = 5 is odd; rotation turns pairs of numbers");
}

TEST_CASE("rows turned in place with a table made once: row r at position r mod T, rotate()'s bits", "[rotary]") {
  const tensor3 x = wave(3, 5, 8, 0.47f);
  const tensor2 angles = rotary_angles(5, 0, 8, 10000.0f);
  const rotary_table table = rotary_table_of(angles);
  REQUIRE(table.cosines.shape() == angles.shape());
  CHECK(table.cosines(2, 1) == static_cast<float>(std::cos(static_cast<double>(angles(2, 1)))));
  CHECK(table.sines(4, 3) == static_cast<float>(std::sin(static_cast<double>(angles(4, 3)))));
  tensor3 turned = x;
  rotate_rows(turned.data(), 15, 8, table);
  CHECK((turned == rotate(x, angles)));
  // the second sequence starts again at position 0: not turned
  for (std::size_t c = 0; c < 8; ++c) CHECK(turned(1, 0, c) == x(1, 0, c));
  CHECK(turned(1, 1, 0) != x(1, 1, 0));
}
