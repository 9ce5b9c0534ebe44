#include <catch2/catch.hpp>

#include <cmath>

#include "support.hpp"
#include "tensor/mask.hpp"
#include "tensor/softmax.hpp"

using namespace attention;

TEST_CASE("the causal mask is torch.tril(torch.ones(Tq, Tkv))", "[mask]") {
  const tensor2 keep = causal_mask(3, 5);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 5; ++j) CHECK(keep(i, j) == (j <= i ? 1.0f : 0.0f));
}

TEST_CASE("keep_matrix gives ones for none and the given cells for custom", "[mask]") {
  mask_spec none{mask_spec::kind::none, {}};
  const tensor2 all = keep_matrix(none, 2, 3);
  for (float v : all) CHECK(v == 1.0f);

  mask_spec custom{mask_spec::kind::custom, tensor2{{1, 0}, {0, 1}}};
  CHECK(keep_matrix(custom, 2, 2)(0, 1) == 0.0f);
  CHECK_THROWS_WITH(keep_matrix(custom, 3, 2), Catch::Contains("expected 3 × 2"));
}

TEST_CASE("mask_fill puts -inf exactly where the mask is 0, in every batch element", "[mask]") {
  const tensor3 scaled({2, 2, 2}, 0.25f);
  const tensor3 masked = mask_fill(scaled, causal_mask(2, 2));
  for (std::size_t b = 0; b < 2; ++b) {
    CHECK(masked(b, 0, 0) == 0.25f);
    CHECK(std::isinf(masked(b, 0, 1)));
    CHECK(masked(b, 0, 1) < 0);
    CHECK(masked(b, 1, 1) == 0.25f);
  }
}

TEST_CASE("masking after softmax and renormalizing equals masking before softmax", "[mask]") {
  // the sun-rises notebook, both ways: its unmasked scaled scores from the golden trace
  const auto golden = test_support::read_json(test_support::tests_dir() + "/golden/sun-rises.trace.json");
  const auto& scaled_json = golden["heads"][0]["scaled"];
  tensor3 scaled({1, 6, 6});
  for (std::size_t i = 0; i < 36; ++i) scaled.data()[i] = scaled_json["data"][i].get<float>();

  const tensor2 keep = causal_mask(6, 6);
  const tensor3 after = mask_after_softmax(softmax(scaled), keep);
  const tensor3 before = softmax(mask_fill(scaled, keep));
  for (std::size_t i = 0; i < 36; ++i) CHECK(after.data()[i] == Approx(before.data()[i]).margin(1e-6));

  // the numbers the notebook printed for masked_simple_norm
  CHECK(after(0, 1, 0) == Approx(0.0532).margin(5e-5));
  CHECK(after(0, 1, 1) == Approx(0.9468).margin(5e-5));
  CHECK(after(0, 2, 0) == Approx(0.3935).margin(5e-5));
  CHECK(after(0, 4, 4) == Approx(0.2831).margin(5e-5));
}
