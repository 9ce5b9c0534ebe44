// Every model file of tests/models/ on its golden tokens: the model trace
// against torch_model.py's within gpt-v1.md's tolerances (attention 1e-4,
// logits 1e-4 + 1e-4·|x|, loss 1e-5), and the guesses after every position.
#include <catch2/catch.hpp>

#include <cmath>

#include "model_support.hpp"
#include "models/model_run.hpp"
#include "models/model_trace.hpp"

using namespace attention;
using nlohmann::json;

TEST_CASE("every model file matches its golden model trace", "[model-run]") {
  for (const std::string& name : model_support::golden_models()) {
    INFO(name);
    const json want = model_support::golden(name + ".trace.json");
    const gpt_model model = read_model_file(model_support::model_path(name));
    const model_run run = run_model(model, model_support::golden_tokens(name));
    std::ostringstream out;
    write_model_trace(out, model, run);
    const json got = json::parse(out.str());
    CHECK(got.at("version") == 1);
    CHECK(got.at("config") == want.at("config"));  // parameters included: a trained model's zero key biases count
    CHECK(got.at("tokens") == want.at("tokens"));
    REQUIRE(got.at("attention").at("shape") == want.at("attention").at("shape"));
    double attention = 0;
    for (std::size_t i = 0; i < want.at("attention").at("data").size(); ++i)
      attention = std::max(attention, std::fabs(got["attention"]["data"][i].get<double>() -
                                                want["attention"]["data"][i].get<double>()));
    CHECK(attention <= 1e-4);
    const json& logits = got.at("last").at("logits");
    REQUIRE(logits.at("shape") == want.at("last").at("logits").at("shape"));
    std::size_t outside = 0;
    double logit = 0;
    for (std::size_t i = 0; i < logits.at("data").size(); ++i) {
      const double a = logits["data"][i], e = want["last"]["logits"]["data"][i];
      logit = std::max(logit, std::fabs(a - e));
      outside += std::fabs(a - e) > 1e-4 + 1e-4 * std::fabs(e);
    }
    CHECK(outside == 0);
    INFO("largest attention difference " << attention << ", logit " << logit);
    const json& top = got.at("last").at("top");
    REQUIRE(top.size() == want.at("last").at("top").size());
    for (std::size_t k = 0; k < top.size(); ++k) {
      CHECK(top[k][0] == want["last"]["top"][k][0]);
      CHECK(std::fabs(top[k][1].get<double>() - want["last"]["top"][k][1].get<double>()) <= 1e-5);
    }
    CHECK(std::fabs(got.at("loss").get<double>() - want.at("loss").get<double>()) <= 1e-5);
  }
}

TEST_CASE("the guesses after every position are the softmax of that position's logits", "[model-run]") {
  const gpt_model model = read_model_file(model_support::model_path("nano-tied-bias"));
  const std::vector<std::int64_t> tokens = {3, 1, 4, 1, 5};
  const model_run run = run_model(model, tokens, 3);
  REQUIRE(run.top_k == 3);
  REQUIRE(run.top.size() == 5 * 3);
  // the last position's are those of its own logits; a shorter sequence's last are the longer one's
  const std::vector<token_probability> last = top_probabilities(run.last_logits.data(), model.config.vocab, 3);
  for (std::size_t k = 0; k < 3; ++k) CHECK(run.top[4 * 3 + k].id == last[k].id);
  for (std::size_t t = 1; t <= 5; ++t) {
    const model_run prefix = run_model(model, std::vector<std::int64_t>(tokens.begin(), tokens.begin() + t), 3);
    for (std::size_t k = 0; k < 3; ++k) {
      CHECK(prefix.top[(t - 1) * 3 + k].id == run.top[(t - 1) * 3 + k].id);
      CHECK(prefix.top[(t - 1) * 3 + k].probability == Approx(run.top[(t - 1) * 3 + k].probability).margin(1e-6));
    }
  }
  CHECK(run.top[0].probability >= run.top[1].probability);
}

TEST_CASE("a single token has no loss; its attention is 1 on itself", "[model-run]") {
  const gpt_model model = read_model_file(model_support::model_path("hf-f32"));
  const model_run run = run_model(model, {7});
  CHECK_FALSE(run.loss.has_value());
  for (std::size_t l = 0; l < model.config.layers; ++l)
    for (std::size_t h = 0; h < model.config.heads; ++h) CHECK(run.attention(l, h)[0] == 1.0f);
  std::ostringstream out;
  write_model_trace(out, model, run);
  CHECK_FALSE(json::parse(out.str()).contains("loss"));
}

TEST_CASE("tokens are checked: empty, past Tmax, outside the vocabulary", "[model-run]") {
  const gpt_model model = read_model_file(model_support::model_path("nano-tied-bias"));  // V 29, Tmax 16
  const auto refusal = [&](const std::vector<std::int64_t>& tokens) {
    try {
      check_tokens(model.config, tokens, "--tokens");
    } catch (const error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(refusal({}) == "--tokens: empty");
  CHECK(refusal(std::vector<std::int64_t>(17, 1)) == "--tokens: 17 tokens, the model's wpe.weight holds 16 positions");
  CHECK(refusal({1, 29}) == "--tokens[1]: 29 is outside [0, 29)");
  CHECK(refusal({-1}) == "--tokens[0]: -1 is outside [0, 29)");
  CHECK(refusal(std::vector<std::int64_t>(16, 28)).empty());
  CHECK_THROWS_WITH(run_model(model, {}), "tokens: empty");
}

TEST_CASE("the forward keeps only the attention, what the heads read and the logits", "[model-run]") {
  const gpt_model model = read_model_file(model_support::model_path("nano-tied-bias"));
  const model_run run = run_model(model, {1, 2, 3});
  for (const layer_pass& layer : run.pass.layers) {
    CHECK(layer.attended().size() == 3 * 32);  // ln_1's output: (1, T, d)
    CHECK(layer.input.size() == 0);            // the stream itself is not kept
    CHECK(layer.hidden.size() == 0);
    for (const head_pass& head : layer.heads) {
      CHECK(head.weights.size() == 9);
      CHECK(head.q.size() == 0);
    }
  }
  CHECK(run.pass.logits.size() == 3 * 29);  // (1, T, V): a temperature's guesses start from them
  for (std::size_t c = 0; c < 29; ++c) CHECK(run.pass.logits.data()[2 * 29 + c] == run.last_logits[c]);
  // kept::attention changes no number: the full forward's attention is the same
  const forward_pass full = forward(model.weights, model.spec, {1, 2, 3}, 1);
  for (std::size_t i = 0; i < 9; ++i) CHECK(full.layers[1].heads[2].weights.data()[i] == run.attention(1, 2)[i]);
}
