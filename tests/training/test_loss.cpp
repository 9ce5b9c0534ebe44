// Training's loss: the cross-entropy over targets only, and the first index
// on ties for the accuracy.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "training/loss.hpp"

using namespace attention;

TEST_CASE("cross-entropy counts targets only; predictions take the first index on ties", "[model]") {
  tensor3 logits({1, 3, 2});
  logits(0, 0, 0) = 0; logits(0, 0, 1) = 0;           // a tie
  logits(0, 1, 0) = 2; logits(0, 1, 1) = 0;
  logits(0, 2, 0) = 5; logits(0, 2, 1) = 5;
  const loss_value l = cross_entropy(logits, {-100, 1, 0});
  CHECK(l.counted == 2);
  CHECK(l.correct == 1);  // position 2: a tie, argmax 0 = the target
  const double expected = (-std::log(std::exp(0.0) / (std::exp(2.0) + 1)) + std::log(2.0)) / 2;
  CHECK(l.loss == Approx(expected).epsilon(1e-6));
  CHECK(predictions(logits) == std::vector<std::int64_t>{0, 0, 0});
}
