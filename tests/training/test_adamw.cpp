// AdamW's first three steps on fixed tensors equal torch.optim.AdamW's
// (tests/fixtures/gradients.json), for the presets' settings and for
// unusual ones (a large lr, weight decay and eps, small betas).
#include <catch2/catch.hpp>

#include <cmath>

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
