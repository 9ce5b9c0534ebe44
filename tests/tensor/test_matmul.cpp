#include <catch2/catch.hpp>

#include "tensor/matmul.hpp"

using namespace attention;

namespace {
tensor3 numbered(std::size_t B, std::size_t T, std::size_t C, float start = 1.0f) {
  tensor3 t({B, T, C});
  float v = start;
  for (float& x : t) x = (v += 0.5f) * (static_cast<int>(v) % 3 == 0 ? -1.0f : 1.0f);
  return t;
}
}  // namespace

TEST_CASE("a @ b with ones sums the columns of b (the notebook's first demo)", "[matmul]") {
  const tensor2 a({3, 3}, 1.0f);
  const tensor2 b = {{2, 7}, {6, 4}, {6, 5}};
  const tensor2 c = matmul(a, b);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(c(i, 0) == 14.0f);
    CHECK(c(i, 1) == 16.0f);
  }
}

TEST_CASE("project applies the same weight to every batch element and position", "[matmul]") {
  const tensor3 x = numbered(2, 3, 4);
  const tensor2 w = {{1, 0}, {0, 1}, {2, 0}, {0, -1}};
  const tensor3 out = project(x, w);
  REQUIRE(out.shape() == std::array<std::size_t, 3>{2, 3, 2});
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t t = 0; t < 3; ++t) {
      CHECK(out(b, t, 0) == Approx(x(b, t, 0) + 2 * x(b, t, 2)));
      CHECK(out(b, t, 1) == Approx(x(b, t, 1) - x(b, t, 3)));
    }
}

TEST_CASE("scores_of is q @ kᵀ per batch element, never across", "[matmul]") {
  const tensor3 q = numbered(3, 2, 5), k = numbered(3, 4, 5, 9.0f);
  const tensor3 s = scores_of(q, k);
  REQUIRE(s.shape() == std::array<std::size_t, 3>{3, 2, 4});
  for (std::size_t b = 0; b < 3; ++b)
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t j = 0; j < 4; ++j) {
        float dot = 0;
        for (std::size_t c = 0; c < 5; ++c) dot += q(b, i, c) * k(b, j, c);
        CHECK(s(b, i, j) == Approx(dot));
      }
}

TEST_CASE("weighted_sum mixes rows of v by the weights", "[matmul]") {
  tensor3 w({1, 2, 3}, 0.0f);
  w(0, 0, 0) = 1.0f;                  // row 0 copies v0
  w(0, 1, 1) = w(0, 1, 2) = 0.5f;     // row 1 averages v1 and v2
  const tensor3 v = {{{1, 2}, {3, 4}, {5, 8}}};
  const tensor3 out = weighted_sum(w, v);
  CHECK(out(0, 0, 0) == 1.0f);
  CHECK(out(0, 0, 1) == 2.0f);
  CHECK(out(0, 1, 0) == 4.0f);
  CHECK(out(0, 1, 1) == 6.0f);
}

TEST_CASE("project_transposed is x @ Wᵀ, bit for bit project's on W transposed, at every width", "[matmul]") {
  // widths around the 64-column panel, and 1
  for (std::size_t d : {1u, 3u, 63u, 64u, 65u, 130u}) {
    INFO("d = " << d);
    const tensor3 x = numbered(2, 3, 5);
    tensor2 w({d, 5});  // [out, in]
    float v = 0.25f;
    for (float& e : w) e = (v += 0.375f) * (static_cast<int>(v) % 2 == 0 ? -1.0f : 1.0f);
    tensor2 w_t({5, d});
    for (std::size_t o = 0; o < d; ++o)
      for (std::size_t i = 0; i < 5; ++i) w_t(i, o) = w(o, i);
    const tensor3 got = project_transposed(x, w), want = project(x, w_t);
    REQUIRE(got.shape() == want.shape());
    for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got.data()[i] == want.data()[i]);
  }
}
