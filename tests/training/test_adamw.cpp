// AdamW's first three steps on fixed tensors equal torch.optim.AdamW's
// (tests/fixtures/gradients.json), for the presets' settings and for
// unusual ones (a large lr, weight decay and eps, small betas).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "support.hpp"
#include "training/adamw.hpp"

using namespace attention;
using nlohmann::json;

namespace {

tensor2 tensor_of(const json& t) {
  tensor2 out({t.at("shape")[0].get<std::size_t>(), t.at("shape")[1].get<std::size_t>()});
  for (std::size_t i = 0; i < out.size(); ++i) out.data()[i] = t.at("data")[i].get<float>();
  return out;
}

}  // namespace

TEST_CASE("AdamW steps as PyTorch 1.13's single-tensor AdamW", "[adamw]") {
  const json fixtures = test_support::read_json(test_support::tests_dir() + "/fixtures/gradients.json");
  REQUIRE(fixtures.at("adamw").size() == 2);
  for (const json& c : fixtures.at("adamw")) {
    INFO(c.at("settings").dump());
    adamw_settings s;
    s.lr = c.at("settings").at("lr");
    s.weight_decay = c.at("settings").at("weight_decay");
    s.beta1 = c.at("settings").at("betas")[0];
    s.beta2 = c.at("settings").at("betas")[1];
    s.eps = c.at("settings").at("eps");
    tensor2 p = tensor_of(c.at("start"));
    adamw_state state;
    for (std::size_t k = 0; k < 3; ++k) {
      const tensor2 g = tensor_of(c.at("grads")[k]);
      adamw_step(s, state, {&p}, {&g});
      const tensor2 want = tensor_of(c.at("after")[k]);
      double worst = 0;
      for (std::size_t i = 0; i < p.size(); ++i) worst = std::max(worst, double(std::abs(p.data()[i] - want.data()[i])));
      INFO("step " << k + 1);
      CHECK(worst <= 1e-6);
    }
    CHECK(state.step == 3);
  }
}

TEST_CASE("AdamW updates every entry as the scalar formula does, bit for bit at every width", "[adamw]") {
  adamw_settings s;
  s.lr = 3e-3;
  s.weight_decay = 0.1;
  const std::size_t rows = 7, cols = 13;  // 91 entries: whole vectors and a last partial one
  tensor2 start({rows, cols}), grad({rows, cols});
  for (std::size_t i = 0; i < start.size(); ++i) {
    start.data()[i] = std::sin(static_cast<float>(i)) * 0.3f;
    grad.data()[i] = std::cos(static_cast<float>(i) * 1.7f) * (i % 5 == 0 ? 1e-6f : 0.02f);
  }
  // the same two steps, one entry at a time
  tensor2 want = start;
  std::vector<float> m(want.size()), v(want.size());
  for (int t = 1; t <= 2; ++t) {
    const auto step_size = static_cast<float>(s.lr / (1.0 - std::pow(s.beta1, t)));
    const auto root2 = static_cast<float>(std::sqrt(1.0 - std::pow(s.beta2, t)));
    for (std::size_t i = 0; i < want.size(); ++i) {
      float& p = want.data()[i];
      const float g = grad.data()[i] * static_cast<float>(t);
      p *= static_cast<float>(1.0 - s.lr * s.weight_decay);
      m[i] = std::fma(g, static_cast<float>(1.0 - s.beta1), m[i] * static_cast<float>(s.beta1));
      v[i] = std::fma(g * g, static_cast<float>(1.0 - s.beta2), v[i] * static_cast<float>(s.beta2));
      p = p - step_size * (m[i] / (std::sqrt(v[i]) / root2 + static_cast<float>(s.eps)));
    }
  }
  test_support::at_every_width([&](int) {
    tensor2 p = start;
    adamw_state state;
    for (int t = 1; t <= 2; ++t) {
      const tensor2 g = grad * static_cast<float>(t);
      adamw_step(s, state, {&p}, {&g});
    }
    CHECK(std::memcmp(p.data(), want.data(), want.size() * sizeof(float)) == 0);
  });
}
