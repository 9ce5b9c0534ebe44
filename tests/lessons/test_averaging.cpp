#include <catch2/catch.hpp>

#include "lessons/averaging.hpp"
#include "random/generator.hpp"
#include "random/sampling.hpp"

using namespace attention;

namespace {
// The notebook's x: torch.manual_seed(42); torch.rand(4, 8, 2)
tensor3 notebook_x() {
  generator gen(42);
  tensor3 x({4, 8, 2});
  fill_uniform(gen, x.data(), x.size(), 0.0f, 1.0f);
  return x;
}
}  // namespace

TEST_CASE("the loop average matches the notebook's printed xbow of batch element 0", "[averaging]") {
  const tensor3 xbow = average_loop(notebook_x());
  const float printed[8][2] = {{0.8823f, 0.9150f}, {0.6326f, 0.9372f}, {0.5519f, 0.8251f}, {0.4780f, 0.8172f},
                               {0.5706f, 0.6804f}, {0.6313f, 0.6659f}, {0.6653f, 0.6519f}, {0.6748f, 0.6241f}};
  for (std::size_t t = 0; t < 8; ++t)
    for (std::size_t c = 0; c < 2; ++c) CHECK(xbow(0, t, c) == Approx(printed[t][c]).margin(5e-5));
}

TEST_CASE("the three ways to average the past agree (allclose)", "[averaging]") {
  const averaging_lesson lesson = average_three_ways(notebook_x());
  CHECK(lesson.tril_agrees);
  CHECK(lesson.softmax_agrees);
}

TEST_CASE("normalized tril and masked softmax give the same weights, rows 1, 1/2, 1/3 …", "[averaging]") {
  const tensor2 tril = tril_average_weights(8), soft = softmax_average_weights(8);
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < 8; ++j) {
      const float expected = j <= i ? 1.0f / static_cast<float>(i + 1) : 0.0f;
      CHECK(tril(i, j) == Approx(expected));
      CHECK(soft(i, j) == Approx(expected));
    }
}

TEST_CASE("allclose notices a difference beyond its tolerance", "[averaging]") {
  const tensor3 a({1, 2, 2}, 1.0f);
  tensor3 b = a;
  CHECK(all_close(a, b));
  b(0, 1, 1) += 1e-3f;
  CHECK_FALSE(all_close(a, b));
  CHECK_FALSE(all_close(a, tensor3({1, 2, 3}, 1.0f)));
}
