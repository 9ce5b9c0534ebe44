// Every model file of tests/models/ on its golden tokens: the model trace
// against torch_model.py's within gpt-v1.md's tolerances (attention 1e-4,
// logits 1e-4 + 1e-4·|x|, loss 1e-5), and the guesses after every position.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "formats/limits.hpp"
#include "model_support.hpp"
#include "models/model_run.hpp"
#include "models/model_trace.hpp"
#include "training/loss.hpp"

using namespace attention;
using nlohmann::json;

TEST_CASE("every model file matches its golden model trace", "[model-run]") {
  for (const std::string& name : model_support::golden_models()) {
    INFO(name);
    const json want = model_support::golden(name + ".trace.json");
    const loaded_model model = read_model_file(model_support::model_path(name));
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
  const loaded_model model = read_model_file(model_support::model_path("nano-tied-bias"));
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
  const loaded_model model = read_model_file(model_support::model_path("hf-f32"));
  const model_run run = run_model(model, {7});
  CHECK_FALSE(run.loss.has_value());
  for (std::size_t l = 0; l < model.config.layers; ++l)
    for (std::size_t h = 0; h < model.config.heads; ++h) CHECK(run.attention(l, h)[0] == 1.0f);
  std::ostringstream out;
  write_model_trace(out, model, run);
  CHECK_FALSE(json::parse(out.str()).contains("loss"));
}

TEST_CASE("tokens are checked: empty, past Tmax, outside the vocabulary", "[model-run]") {
  const loaded_model model = read_model_file(model_support::model_path("nano-tied-bias"));  // V 29, Tmax 16
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

TEST_CASE("the forward keeps only the attention, what the heads read and what the unembedding reads", "[model-run]") {
  const loaded_model model = read_model_file(model_support::model_path("nano-tied-bias"));
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
  CHECK(run.pass.logits.size() == 0);  // kept as the guesses, the last row and the loss
  CHECK(run.pass.unembedded().size() == 3 * 32);  // (1, T, d): a temperature's guesses make the logits from it
  const tensor3 last = logits_of(model, run, 2, 1);  // (1, 1, V): the same bits as the run's own
  for (std::size_t c = 0; c < 29; ++c) CHECK(last.data()[c] == run.last_logits[c]);
  // kept::attention changes no number: the full forward's attention is the same
  const forward_pass full = forward(model.weights, model.spec, {1, 2, 3}, 1);
  for (std::size_t i = 0; i < 9; ++i) CHECK(full.layers[1].heads[2].weights.data()[i] == run.attention(1, 2)[i]);
}

TEST_CASE("the logits a sequence asks for are bounded before the forward, naming the tokens", "[model-run]") {
  // a 540 KB file can hold V = 262,144 (F16, d 1) and 8,192 positions: 2³¹ logits
  model_config c;
  c.vocab = limits::models::vocab;
  c.length = 8192;
  c.embed = 1;
  c.heads = 1;
  CHECK_THROWS_WITH(check_tokens(c, std::vector<std::int64_t>(8192, 0), "--tokens"),
                    "--tokens: 8192 tokens ask for 2147483648 logits (T · V), beyond the limit of 268435456");
  CHECK_NOTHROW(check_tokens(c, std::vector<std::int64_t>(1024, 0), "--tokens"));
}

TEST_CASE("the logits are made a block of rows at a time, never (T, V) at once", "[model-run]") {
  // V 5,000: a block holds 1,677 rows; 4,000 tokens take three blocks, and agree with the whole forward
  model_support::file_builder f;
  f.add("wte.weight", {5000, 2});
  f.add("wpe.weight", {4000, 2});
  f.metadata["n_head"] = "1";
  const loaded_model model = model_support::model_of(f.bytes());
  std::vector<std::int64_t> tokens(4000);
  for (std::size_t t = 0; t < tokens.size(); ++t) tokens[t] = static_cast<std::int64_t>((t * 37) % 5000);
  const model_run run = run_model(model, tokens, 2);
  CHECK(run.pass.logits.size() == 0);
  const forward_pass full = forward(model.weights, model.spec, tokens, 1);  // (1, T, V) whole
  REQUIRE(run.top.size() == 4000 * 2);
  for (std::size_t t : {0u, 1676u, 1677u, 3354u, 3999u}) {
    const std::vector<token_probability> want = top_probabilities(full.logits.data() + t * 5000, 5000, 2);
    CHECK(run.top[t * 2].id == want[0].id);
    CHECK(run.top[t * 2].probability == Approx(want[0].probability).margin(1e-7));
  }
  std::size_t differ = 0;
  for (std::size_t v = 0; v < 5000; ++v) differ += std::fabs(run.last_logits[v] - full.logits.data()[3999 * 5000 + v]) > 1e-6f;
  CHECK(differ == 0);
  std::vector<std::int64_t> targets(tokens.begin() + 1, tokens.end());
  targets.push_back(-100);
  CHECK(*run.loss == Approx(cross_entropy(full.logits, targets).loss).epsilon(1e-6));
}

TEST_CASE("a forward that overflows float32 names the layer and the head, or the logits", "[model-run]") {
  // keys and queries of 1e20 · x: their products are beyond float32
  model_support::file_builder f = model_support::small_nano();
  for (auto& t : f.tensors)
    if (t.name == "transformer.h.0.attn.c_attn.weight") {
      std::vector<float> big(24 * 8, 1e20f);
      std::memcpy(t.bytes.data(), big.data(), t.bytes.size());
    }
  const loaded_model model = model_support::model_of(f.bytes());
  CHECK_THROWS_WITH(run_model(model, {1, 2}), "overflow: layer 0, head 0: an attention score is not finite in float32 "
                                              "(inf or nan); the weights or inputs are too large");
  // no blocks: tok + pos overflow, and so do the logits
  model_support::file_builder blockless;
  blockless.add("wte.weight", {3, 2}, std::vector<float>(6, 3e38f));
  blockless.add("wpe.weight", {2, 2}, std::vector<float>(4, 3e38f));
  blockless.metadata["n_head"] = "1";
  CHECK_THROWS_WITH(run_model(model_support::model_of(blockless.bytes()), {0, 1}),
                    "overflow: the logits after position 0 are not finite in float32 (inf or nan); the weights or "
                    "inputs are too large");
}
