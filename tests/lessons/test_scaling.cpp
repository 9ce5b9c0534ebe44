#include <catch2/catch.hpp>

#include "lessons/scaling.hpp"

using namespace attention;

TEST_CASE("softmax of the notebook's vector, and of it times 8, as printed", "[scaling]") {
  const std::vector<float> tmp = {0.1f, -0.2f, 0.3f, -0.2f, 0.5f};
  const std::vector<float> diffuse = softmax_with_factor(tmp, 1.0f);
  const std::vector<float> peaky = softmax_with_factor(tmp, 8.0f);
  const float printed_diffuse[] = {0.1925f, 0.1426f, 0.2351f, 0.1426f, 0.2872f};
  const float printed_peaky[] = {0.0326f, 0.0030f, 0.1615f, 0.0030f, 0.8000f};
  for (std::size_t i = 0; i < 5; ++i) {
    CHECK(diffuse[i] == Approx(printed_diffuse[i]).margin(5e-5));
    CHECK(peaky[i] == Approx(printed_peaky[i]).margin(5e-5));
  }
  CHECK(variance(tmp) == Approx(0.0950).margin(5e-5));
  std::vector<float> times8 = tmp;
  for (float& v : times8) v *= 8;
  CHECK(variance(times8) == Approx(6.0800).margin(5e-4));
}

TEST_CASE("unscaled score variance is near head_size, scaled near 1", "[scaling]") {
  for (std::size_t head_size : {16, 64, 256}) {
    generator gen(1337);
    const score_variance v = measure_score_variance(gen, 16, 64, head_size);
    INFO("head_size " << head_size << ": scores " << v.scores << ", scaled " << v.scaled);
    CHECK(v.k == Approx(1.0).margin(0.05));
    CHECK(v.q == Approx(1.0).margin(0.05));
    CHECK(v.scores == Approx(static_cast<double>(head_size)).epsilon(0.1));
    CHECK(v.scaled == Approx(1.0).margin(0.1));
  }
}

TEST_CASE("variance is torch.var's unbiased estimate", "[scaling]") {
  CHECK(variance({1.0f, 2.0f, 3.0f, 4.0f}) == Approx(5.0 / 3.0));
  CHECK_THROWS(variance({1.0f}));
}
