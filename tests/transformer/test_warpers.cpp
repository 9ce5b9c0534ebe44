// Top-k and top-p as transformers' warpers define them: top-k keeps every
// logit ≥ the k-th largest (ties too), top-p the smallest most probable set
// whose probabilities reach p (at least one token), the rest -inf. The
// tokens they give against PyTorch are in tests/models/test_generate.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "tensor/softmax.hpp"
#include "transformer/samples.hpp"
#include "transformer/warpers.hpp"

using namespace attention;

namespace {
const float gone = -std::numeric_limits<float>::infinity();
}

TEST_CASE("top-k keeps every logit at least the k-th largest, ties included", "[warpers]") {
  std::vector<float> logits = {1.0f, 3.0f, 2.0f, 3.0f, 0.5f, 2.0f};
  top_k_filter(logits, 2);  // the 2nd largest is 3 (twice)
  CHECK(logits == std::vector<float>{gone, 3.0f, gone, 3.0f, gone, gone});
  logits = {1.0f, 3.0f, 2.0f, 3.0f, 0.5f, 2.0f};
  top_k_filter(logits, 3);  // the 3rd largest is 2: both 2s stay, four tokens
  CHECK(logits == std::vector<float>{gone, 3.0f, 2.0f, 3.0f, gone, 2.0f});
  logits = {1.0f, 3.0f, 2.0f};
  top_k_filter(logits, 1);  // greedy
  CHECK(logits == std::vector<float>{gone, 3.0f, gone});
  // 0 and k ≥ V are off
  for (const std::size_t k : {0, 3, 4}) {
    logits = {1.0f, 3.0f, 2.0f};
    top_k_filter(logits, k);
    CHECK(logits == std::vector<float>{1.0f, 3.0f, 2.0f});
  }
}

TEST_CASE("top-p keeps the smallest most probable set reaching p, at least one", "[warpers]") {
  // probabilities 0.1, 0.2, 0.3, 0.4 (ids 0..3): ascending cumulative 0.1, 0.3, 0.6, 1
  const std::vector<float> base = {std::log(0.1f), std::log(0.2f), std::log(0.3f), std::log(0.4f)};
  const auto kept = [&](double p) {
    std::vector<float> logits = base;
    top_p_filter(logits, p);
    std::vector<int> ids;
    for (int i = 0; i < 4; ++i)
      if (logits[static_cast<std::size_t>(i)] != gone) ids.push_back(i);
    return ids;
  };
  CHECK(kept(1.0) == std::vector<int>{0, 1, 2, 3});  // off
  CHECK(kept(0.95) == std::vector<int>{0, 1, 2, 3});
  CHECK(kept(0.8) == std::vector<int>{1, 2, 3});     // 0.4 + 0.3 = 0.7 < 0.8: 0.2 joins
  CHECK(kept(0.6) == std::vector<int>{2, 3});        // 0.4 + 0.3 ≥ 0.6
  CHECK(kept(0.4) == std::vector<int>{3});           // 0.4 alone reaches 0.4
  CHECK(kept(0.01) == std::vector<int>{3});          // never fewer than one
  // equal probabilities at the edge: the lower ids stay, as the bars list them first
  std::vector<float> four(4, 0.5f);
  top_p_filter(four, 0.5);
  CHECK(four == std::vector<float>{0.5f, 0.5f, gone, gone});
  // a kept logit is untouched
  std::vector<float> logits = base;
  top_p_filter(logits, 0.6);
  CHECK(logits[3] == base[3]);
}

TEST_CASE("the warpers run after the temperature, top-k before top-p", "[warpers]") {
  const std::vector<float> logits = {0.0f, 1.0f, 2.0f, 3.0f, 4.0f};
  // top-k 3 first: top-p then reads the softmax of the three left, renormalized
  const std::vector<float> p = sampling_distribution(logits.data(), 5, 1.0, {3, 0.7});
  const std::vector<float> three = softmax(std::vector<float>{2.0f, 3.0f, 4.0f});  // 0.09, 0.24, 0.67
  CHECK(p[0] == 0.0f);
  CHECK(p[1] == 0.0f);
  CHECK(p[2] == 0.0f);  // 0.67 < 0.7 needs 0.24 too, never 0.09
  CHECK(p[3] > 0.0f);
  CHECK(p[4] > 0.0f);
  CHECK(p[3] + p[4] == Approx(1.0f));
  CHECK(three[2] < 0.7f);
  // a high temperature flattens the logits first, so top-p keeps more
  const std::vector<float> hot = sampling_distribution(logits.data(), 5, 10.0, {0, 0.5});
  int left = 0;
  for (float x : hot) left += x > 0;
  CHECK(left == 3);
  // off: the temperature's softmax, bit for bit
  CHECK(sampling_distribution(logits.data(), 5, 0.7, {}) == sampling_distribution(logits.data(), 5, 0.7));
}

TEST_CASE("warpers refuse a top-k past the vocabulary and a top-p outside (0, 1]", "[warpers]") {
  CHECK_NOTHROW(check_warpers({0, 1.0}, 81));
  CHECK_NOTHROW(check_warpers({81, 1e-9}, 81));
  CHECK_THROWS_WITH(check_warpers({82, 1.0}, 81), "top_k: 82 is more than the vocabulary's 81 tokens (0 turns it off)");
  CHECK_THROWS_WITH(check_warpers({0, 0.0}, 81), "top_p: expected a number in (0, 1], got 0 (1 turns it off)");
  CHECK_THROWS_WITH(check_warpers({0, 1.5}, 81), "top_p: expected a number in (0, 1], got 1.5 (1 turns it off)");
  CHECK_THROWS_WITH(check_warpers({0, -0.5}, 81), Catch::StartsWith("top_p: expected a number in (0, 1]"));
  CHECK_THROWS_WITH(check_warpers({0, std::nan("")}, 81), Catch::StartsWith("top_p: expected a number in (0, 1]"));
}
