// What training_trace writes besides the whole trace (tested against
// PyTorch's in tests/formats/test_training_file.cpp): a trained head as a
// scenario the playground runs, and one evaluation as JSON.
#include <catch2/catch.hpp>

#include <sstream>

#include "attention/run.hpp"
#include "formats/scenario_file.hpp"
#include "formats/training_trace.hpp"
#include "support.hpp"

using namespace attention;
using nlohmann::json;

TEST_CASE("a trained head opens as a scenario whose weights are the training's attention", "[training-trace]") {
  const training_file file = test_support::training_preset("induction");
  training_run run(file.spec);
  for (int k = 0; k < 300; ++k) run.step();
  const std::vector<std::int64_t> probe(run.validation().x.begin(), run.validation().x.begin() + 16);
  const evaluation e = run.evaluate();
  for (std::size_t layer = 0; layer < 2; ++layer) {
    const scenario s = parse_scenario(head_scenario_json(file, run, probe, layer, 0));
    const trace t = attention::run(s);
    const tensor3& weights = *t.layer.heads[0].step("weights");
    double worst = 0;
    for (std::size_t i = 0; i < 16; ++i)
      for (std::size_t j = 0; j < 16; ++j) worst = std::max(worst, double(std::abs(weights(0, i, j) - e.attention(layer, 0, i, j))));
    INFO("layer " << layer);
    CHECK(worst <= 5e-3);
  }
}

TEST_CASE("a GPT's trained head opens with its layer's ln1 output as x and its biases", "[training-trace]") {
  const training_file file = test_support::training_preset("text-gpt");
  training_run run(file.spec);
  for (int k = 0; k < 3; ++k) run.step();
  const std::vector<std::int64_t> probe(run.validation().x.begin(), run.validation().x.begin() + 12);
  const evaluation e = run.attend(probe);
  const forward_pass pass = run.forward_one(probe);
  for (std::size_t layer = 0; layer < 2; ++layer) {
    const json text = json::parse(head_scenario_json(file, run, probe, layer, 3));
    CHECK(text.at("attention").at("heads")[0].at("query_bias") == "b_query");
    CHECK(text.at("attention").at("heads")[0].at("value_bias") == "b_value");
    CHECK_FALSE(text.at("attention").at("heads")[0].contains("key_bias"));
    const scenario s = parse_scenario(text.dump());
    const trace t = attention::run(s);
    // x is ln1's output, not the residual stream
    const tensor& x = *t.find_tensor("x");
    for (std::size_t n = 0; n < x.size(); ++n) CHECK(x.data()[n] == pass.layers[layer].ln1.out.data()[n]);
    const tensor3& weights = *t.layer.heads[0].step("weights");
    double worst = 0;
    for (std::size_t i = 0; i < 12; ++i)
      for (std::size_t j = 0; j < 12; ++j)
        worst = std::max(worst, double(std::abs(weights(0, i, j) - e.attention(layer, 3, i, j))));
    INFO("layer " << layer);
    CHECK(worst <= 1e-5);
  }
}

TEST_CASE("an evaluation as JSON: its step, loss, accuracy, attention and predictions", "[training-trace]") {
  training_run run(test_support::training_preset("previous-token").spec);
  run.step();
  const evaluation e = run.evaluate();
  std::ostringstream out;
  write_evaluation(out, e);
  const json j = json::parse(out.str());
  CHECK(j.at("step") == 1);
  CHECK(j.at("loss").get<float>() == e.loss);
  CHECK(j.at("accuracy").get<double>() == Approx(e.accuracy));
  CHECK(j.at("attention").at("shape") == json({1, 1, 16, 16}));
  CHECK(j.at("attention").at("data").size() == 256);
  CHECK(j.at("predictions").size() == 16);
}
