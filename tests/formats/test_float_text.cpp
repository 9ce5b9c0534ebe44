#include <catch2/catch.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "formats/float_text.hpp"

using namespace attention;

namespace {
std::string portable(float value) {
  char buffer[32];
  return std::string(buffer, float_text_portable(buffer, sizeof buffer, value));
}
std::string native(float value) {
  char buffer[32];
  return std::string(buffer, static_cast<std::size_t>(std::to_chars(buffer, buffer + sizeof buffer, value).ptr - buffer));
}
}  // namespace

TEST_CASE("floats print in the fewest digits that read back as the same float32", "[float_text]") {
  for (float v : {0.1f, 1.0f / 3.0f, 0.8822692632675171f, -2.5e-38f, 3.4028235e38f, 1e-45f, 0.0f, 16.0f}) {
    const std::string text = float_text(v);
    INFO(text);
    CHECK(std::strtof(text.c_str(), nullptr) == v);
  }
  CHECK(float_text(0.1f) == "0.1");
  CHECK(float_text(1.0f) == "1");
}

TEST_CASE("the portable text (the wasm build's) is to_chars's, on edge values", "[float_text]") {
  const float edges[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.1f, 0.5f, 9.5f, 9.999999f, 10.0f, 99.99999f, 100.0f, 1e7f, 1.5e7f,
                         123456789.0f, 1e-5f, 0.0001f, 0.001f, 1e10f, 1e-10f, 3.4028235e38f, 1.17549435e-38f, 1e-45f,
                         1.4e-45f, 2.8e-45f, 1e38f, 9.9999e37f, 0.3f, 2.0f / 3.0f, 16777216.0f, 16777217.0f, 8388608.5f};
  for (float v : edges) {
    INFO(native(v));
    CHECK(portable(v) == native(v));
    CHECK(portable(-v) == native(-v));
  }
}

TEST_CASE("the portable text reads back exactly over all float bit patterns, nearly always as to_chars", "[float_text]") {
  std::uint32_t bits = 0x3f800001u;
  std::size_t checked = 0, longer = 0;
  for (int i = 0; i < 2000000; ++i) {
    bits = bits * 1664525u + 1013904223u;  // wander over all float bit patterns
    float value;
    std::memcpy(&value, &bits, sizeof value);
    if (!std::isfinite(value)) continue;
    const std::string p = portable(value), n = native(value);
    INFO(p << " vs " << n);
    REQUIRE(std::strtof(p.c_str(), nullptr) == value);
    REQUIRE(p.size() <= 15);  // "-1.17549435e-38" is the longest
    if (p != n) {
      // near the edge of a rounding interval it keeps one more (exact) digit
      REQUIRE(p.size() > n.size());
      ++longer;
    }
    ++checked;
  }
  CHECK(longer * 100000 < checked);  // fewer than 1 in 100,000
  WARN(longer << " of " << checked << " longer than to_chars");
}
