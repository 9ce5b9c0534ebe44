// The hand-written backward pass equals PyTorch's autograd at step 1: every
// parameter's gradient after the first batch's loss.backward() on the
// initial weights, for the presets, the ladder, and small models with every
// gpt-v1.md option (tests/fixtures/gradients.json, made by make_gradients.py).
// A failure names the parameter that broke.
#include <catch2/catch.hpp>

#include <cmath>

#include "support.hpp"
#include "training/backprop.hpp"
#include "training/init_weights.hpp"
#include "training/loss.hpp"
#include "training/tasks.hpp"
#include "training/training.hpp"
#include "formats/training_file.hpp"

using namespace attention;
using nlohmann::json;

namespace {

void check_close(const tensor2& got, const json& want, const std::string& name) {
  INFO(name);
  // [in, out], or [n] for a bias or a LayerNorm (held as (1, n))
  const json& shape = want.at("shape");
  REQUIRE(got.shape()[0] == (shape.size() == 2 ? shape[0].get<std::size_t>() : 1));
  REQUIRE(got.shape()[1] == shape.back().get<std::size_t>());
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
  // the presets, the lecture's ladder, and small models with every gpt-v1.md option
  REQUIRE(fixtures.at("presets").size() == 13);
  const std::string folder = test_support::tests_dir() + "/golden-training/";
  for (const json& preset : fixtures.at("presets")) {
    const std::string id = preset.at("id");
    INFO(id);
    const training_spec t = parse_training(preset.at("file").dump(), [&](const std::string& name) {
                              return test_support::read_text(folder + name);
                            }).spec;
    const model_spec spec = training_run::model_of(t);
    // as torch_train.py: the model, the validation draw off the stream, then the first batch
    generator gen(t.seed);
    const model_weights w = init_weights(gen, spec);
    const generator saved = gen;
    gen.manual_seed(t.eval_seed);
    draw_task(gen, t.task, t.eval_batch, true);
    gen = saved;
    const task_batch batch = draw_task(gen, t.task, t.batch);
    const forward_pass pass = forward(w, spec, batch.x, batch.batch);
    CHECK(std::abs(cross_entropy(pass.logits, batch.y).loss - preset.at("loss").get<double>()) <= 2e-5);  // training-v1.md's loss tolerance
    const model_weights g = gradients(w, spec, pass, batch.y);
    const std::size_t checked = test_support::for_each_weight(g, preset.at("grads"), [](const tensor2& got, const json& want, const std::string& name) {
      check_close(got, want, name);
    });
    CHECK(checked == w.all().size());
  }
}
