// The hand-written backward pass equals PyTorch's autograd at step 1: every
// parameter's gradient after the first batch's loss.backward() on the
// initial weights, for three presets (tests/fixtures/gradients.json, made by
// make_gradients.py). A failure names the parameter that broke.
#include <catch2/catch.hpp>

#include <cmath>

#include "support.hpp"
#include "training/backprop.hpp"
#include "training/tasks.hpp"
#include "training/training.hpp"

using namespace attention;
using nlohmann::json;

namespace {

void check_close(const tensor2& got, const json& want, const std::string& name) {
  INFO(name);
  REQUIRE(got.shape()[0] == want.at("shape")[0].get<std::size_t>());
  REQUIRE(got.shape()[1] == want.at("shape")[1].get<std::size_t>());
  const json& data = want.at("data");
  double worst = 0;
  std::size_t where = 0;
  for (std::size_t i = 0; i < data.size(); ++i) {
    const double e = data[i].get<double>();
    const double excess = std::abs(got.data()[i] - e) - (1e-6 + 1e-4 * std::abs(e));
    if (excess > worst) {
      worst = excess;
      where = i;
    }
  }
  INFO("worst at " << where);
  CHECK(worst <= 0);
}

}  // namespace

TEST_CASE("every parameter's gradient at step 1 is autograd's", "[backprop]") {
  const json fixtures = test_support::read_json(test_support::tests_dir() + "/fixtures/gradients.json");
  REQUIRE(fixtures.at("presets").size() == 3);
  for (const json& preset : fixtures.at("presets")) {
    const std::string id = preset.at("id");
    INFO(id);
    const training_spec t = test_support::training_preset(id).spec;
    const task_spec& task = t.task;
    const model_spec spec{task_vocab(task), task_length(task), t.embed, t.heads, t.layers};
    // as torch_train.py: the model, the validation draw off the stream, then the first batch
    generator gen(t.seed);
    const model_weights w = init_weights(gen, spec);
    const generator saved = gen;
    gen.manual_seed(t.eval_seed);
    draw_task(gen, task, t.eval_batch);
    gen = saved;
    const task_batch batch = draw_task(gen, task, t.batch);
    const forward_pass pass = forward(w, spec, batch.x, batch.batch);
    CHECK(std::abs(cross_entropy(pass.logits, batch.y).loss - preset.at("loss").get<double>()) <= 2e-5);  // training-v1.md's loss tolerance
    const model_weights g = gradients(w, spec, pass, batch.y);
    const json& want = preset.at("grads");
    check_close(g.tok, want.at("tok"), "tok");
    check_close(g.pos, want.at("pos"), "pos");
    check_close(g.unembed, want.at("unembed"), "unembed");
    for (std::size_t l = 0; l < spec.layers; ++l) {
      const std::string layer = "layers[" + std::to_string(l) + "]";
      check_close(g.layers[l].proj, want.at("layers")[l].at("proj"), layer + ".proj");
      for (std::size_t h = 0; h < spec.heads; ++h) {
        const json& head = want.at("layers")[l].at("heads")[h];
        const std::string where = layer + ".heads[" + std::to_string(h) + "].";
        check_close(g.layers[l].heads[h].query, head.at("query"), where + "query");
        check_close(g.layers[l].heads[h].key, head.at("key"), where + "key");
        check_close(g.layers[l].heads[h].value, head.at("value"), where + "value");
      }
    }
  }
}
