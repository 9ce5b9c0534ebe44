#include <catch2/catch.hpp>

#include <array>

#include "errors/check.hpp"
#include "lessons/renormalize.hpp"
#include "support.hpp"

using namespace attention;

namespace {

test_support::loaded_preset causal() { return test_support::load_preset("sun-rises-causal"); }

tensor2 keep_of(const test_support::loaded_preset& l) {
  return keep_matrix(l.s.attention.mask, l.s.query_length, l.s.context_length);
}

// Notebook 004 (seed 123, "The sun rises in the east"), printed to 4 decimals:
// attn_weights, masked_simple = attn_weights * mask_simple, masked_simple_norm.
constexpr std::array<std::array<float, 6>, 6> unmasked = {{
    {0.1772f, 0.1326f, 0.1831f, 0.1645f, 0.1879f, 0.1547f},
    {0.0386f, 0.6870f, 0.0229f, 0.0840f, 0.0204f, 0.1470f},
    {0.1973f, 0.0247f, 0.2794f, 0.1132f, 0.3102f, 0.0751f},
    {0.1505f, 0.2187f, 0.1463f, 0.1651f, 0.1401f, 0.1793f},
    {0.1965f, 0.0618f, 0.2312f, 0.1452f, 0.2506f, 0.1146f},
    {0.1347f, 0.2758f, 0.1231f, 0.1621f, 0.1162f, 0.1881f},
}};
constexpr std::array<std::array<float, 6>, 6> renormalized = {{
    {1.0000f, 0, 0, 0, 0, 0},
    {0.0532f, 0.9468f, 0, 0, 0, 0},
    {0.3935f, 0.0493f, 0.5572f, 0, 0, 0},
    {0.2211f, 0.3213f, 0.2149f, 0.2426f, 0, 0},
    {0.2220f, 0.0698f, 0.2612f, 0.1640f, 0.2831f, 0},
    {0.1347f, 0.2758f, 0.1231f, 0.1621f, 0.1162f, 0.1881f},
}};

}  // namespace

TEST_CASE("masking after softmax prints notebook 004's numbers: every weight, the hidden ones zeroed, rows renormalized",
          "[renormalize]") {
  const auto l = causal();
  const renormalize_lesson lesson = mask_after_softmax_lesson(l.t, 0, keep_of(l));
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 6; ++j) {
      INFO("row " << i << ", column " << j);
      CHECK(lesson.unmasked(0, i, j) == Approx(unmasked[i][j]).margin(5e-5));
      CHECK(lesson.zeroed(0, i, j) == Approx(j <= i ? unmasked[i][j] : 0.0f).margin(5e-5));
      CHECK(lesson.renormalized(0, i, j) == Approx(renormalized[i][j]).margin(5e-5));
    }
  // row 1 keeps 0.0386 + 0.6870 of the weight
  CHECK(lesson.row_sums(0, 1, 0) == Approx(0.7256f).margin(1e-4));
  CHECK(lesson.row_sums(0, 5, 0) == Approx(1.0f).margin(1e-5));
}

TEST_CASE("renormalizing after softmax gives the masked softmax's weights", "[renormalize]") {
  const auto l = causal();
  const renormalize_lesson lesson = mask_after_softmax_lesson(l.t, 0, keep_of(l));
  CHECK(lesson.agrees);
  CHECK(lesson.largest_difference < 1e-6f);
  // with no mask nothing is hidden: the unmasked softmax is already the answer
  const auto open = test_support::load_preset("sun-rises");
  const renormalize_lesson none = mask_after_softmax_lesson(open.t, 0, keep_of(open));
  CHECK(none.agrees);
  for (std::size_t n = 0; n < none.zeroed.size(); ++n) CHECK(none.zeroed.data()[n] == none.unmasked.data()[n]);
}

TEST_CASE("a head that does not exist, a mask of another size or an empty row is refused with a message", "[renormalize]") {
  const auto l = causal();
  CHECK_THROWS_WITH(mask_after_softmax_lesson(l.t, 3, keep_of(l)), "renormalize: no head 3");
  CHECK_THROWS_WITH(mask_after_softmax_lesson(l.t, 0, causal_mask(5, 6)), "renormalize: the mask is not 6 × 6");
  tensor2 empty = causal_mask(6, 6);
  for (std::size_t j = 0; j < 6; ++j) empty(2, j) = 0.0f;
  CHECK_THROWS_WITH(mask_after_softmax_lesson(l.t, 0, empty), "renormalize: row 2 allows no position");
}
