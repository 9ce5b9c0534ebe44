// RMSNorm (transformer/rms_norm.hpp) against the numbers shared/tools/torch_hf.py's
// rms_norm gives in float32 (tests/fixtures/forward_families.json): rows of
// very different sizes, where the eps matters in the small ones.
#include <catch2/catch.hpp>

#include <cmath>

#include "forward_fixture.hpp"
#include "transformer/rms_norm.hpp"

using namespace attention;
using forward_fixture::fixture;

TEST_CASE("RMSNorm is w · (x · rsqrt(mean(x²) + eps)), PyTorch's float32 numbers", "[rms_norm]") {
  for (const auto& c : fixture().at("rms_norm")) {
    const tensor3 x = forward_fixture::as_tensor3(c.at("x"));
    const layer_norm_weights w{forward_fixture::row(c.at("weight")), tensor2()};
    const norm_pass p = rms_norm(x, w, c.at("eps").get<float>());
    const std::vector<float> want = forward_fixture::values(c.at("out"));
    REQUIRE(p.out.size() == want.size());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < want.size(); ++i)  // an ulp or two: PyTorch sums the squares in float32
      wrong += std::fabs(p.out.data()[i] - want[i]) > 3e-7f * std::fabs(want[i]) + 1e-12f;
    INFO("d " << x.shape(2) << ", eps " << c.at("eps").get<float>());
    CHECK(wrong == 0);
    CHECK(p.rstd.size() == x.shape(0) * x.shape(1));
    CHECK(p.mean.empty());
  }
}

TEST_CASE("RMSNorm subtracts no mean and adds no bias: a shifted row is not the row", "[rms_norm]") {
  tensor3 x({1, 2, 4});
  const float rows[2][4] = {{1, 2, 3, 4}, {11, 12, 13, 14}};
  std::copy(&rows[0][0], &rows[0][0] + 8, x.data());
  const layer_norm_weights w{tensor2({1, 4}, 1.0f), tensor2({1, 4}, 5.0f)};  // the bias is ignored
  const norm_pass p = rms_norm(x, w, 0.0f);
  // 1 / √(30 / 4)
  CHECK(p.out(0, 0, 0) == Approx(1.0 / std::sqrt(7.5)).epsilon(1e-6));
  CHECK(p.out(0, 1, 0) == Approx(11.0 / std::sqrt(630.0 / 4)).epsilon(1e-6));
  CHECK(p.out(0, 0, 3) == Approx(4.0 / std::sqrt(7.5)).epsilon(1e-6));
}

TEST_CASE("RMSNorm refuses a weight of another size in words", "[rms_norm]") {
  const layer_norm_weights w{tensor2({1, 3}, 1.0f), tensor2()};
  CHECK_THROWS_WITH(rms_norm(tensor3({1, 2, 4}, 1.0f), w, 1e-6f), "rms_norm: a weight of 3 for rows of 4");
}
