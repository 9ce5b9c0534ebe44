// The shared folders against torch_hf.py's traces (models-v2.md
// section 5: the config object exactly, attention 1e-4, logits
// 1e-4 + 1e-4·|x|, loss 1e-5, `last` at its position, no `loss` for BERT,
// no `last` for a BERT without its head), and a head as a scenario whose
// own trace is the model's attention for that head within 1e-4 (rotary and
// grouped-query heads, BERT's and DistilBERT's heads without mask).
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

#include "attention/run.hpp"
#include "folder_support.hpp"
#include "formats/scenario_file.hpp"
#include "models/folder_trace.hpp"
#include "models/model_trace.hpp"

using namespace attention;
using nlohmann::json;

namespace {

std::vector<std::int64_t> tokens_of(const json& trace) { return trace.at("tokens").get<std::vector<std::int64_t>>(); }

json trace_of(const loaded_model& m, const json& want) {
  const std::vector<std::int64_t> tokens = tokens_of(want);
  check_config_tokens(m, tokens, "tokens");
  const std::size_t position = want.contains("last") ? want["last"]["position"].get<std::size_t>() : tokens.size() - 1;
  std::ostringstream out;
  write_folder_trace(out, m, run_forward(m, tokens), position);
  return json::parse(out.str());
}

}  // namespace

TEST_CASE("the trace's config object has exactly the spec's fields", "[folder-trace]") {
  for (const std::string& name : folder_support::golden_folders()) {
    INFO(name);
    const loaded_model m = folder_support::read(folder_support::golden_folder(name));
    const auto want = nlohmann::ordered_json::parse(test_support::read_text(folder_support::golden_trace_path(name)));
    CHECK(folder_config_json(m).dump() == want.at("config").dump());  // the spec's order too
  }
}

TEST_CASE("tokens and positions are checked before the forward", "[folder-trace]") {
  const loaded_model m = folder_support::read(folder_support::golden_folder("llama-gqa"));
  CHECK_THROWS_WITH(check_config_tokens(m, std::vector<std::int64_t>(33, 1), "--tokens"),
                    "--tokens: 33 tokens, beyond config.max_position_embeddings 32");
  CHECK_THROWS_WITH(check_config_tokens(m, {1, 64}, "--tokens"), "--tokens[1]: 64 is outside [0, 64)");
  CHECK_THROWS_WITH(check_config_tokens(m, {}, "--tokens"), "--tokens: empty");
  CHECK(trace_position(std::nullopt, 5) == 4);
  CHECK(trace_position(2, 5) == 2);
  CHECK_THROWS_WITH(trace_position(5, 5), "--position: 5 is outside [0, 5)");
}

TEST_CASE("the shared folders equal torch_hf.py's traces", "[folder-trace][folder-golden]") {
  for (const std::string& name : folder_support::golden_folders()) {
    INFO(name);
    const json want = folder_support::golden_trace(name);
    const json got = trace_of(folder_support::read(folder_support::golden_folder(name)), want);
    CHECK(got.at("config") == want.at("config"));
    CHECK(got.at("tokens") == want.at("tokens"));
    const test_support::comparison a = test_support::compare_tensors(got.at("attention"), want.at("attention"));
    CHECK(a.same_shape);
    INFO("attention's largest difference " << a.largest_difference);
    CHECK(a.largest_difference <= 1e-4);
    CHECK(got.contains("last") == want.contains("last"));
    CHECK(got.contains("loss") == want.contains("loss"));
    if (want.contains("last")) {
      CHECK(got["last"]["position"] == want["last"]["position"]);
      const json &x = got["last"]["logits"]["data"], &y = want["last"]["logits"]["data"];
      REQUIRE(x.size() == y.size());
      for (std::size_t i = 0; i < y.size(); ++i) {
        INFO("logit " << i << ": " << x[i] << " against " << y[i]);
        CHECK(std::fabs(x[i].get<double>() - y[i].get<double>()) <= 1e-4 + 1e-4 * std::fabs(y[i].get<double>()));
      }
      const json &p = got["last"]["top"], &q = want["last"]["top"];
      REQUIRE(p.size() == q.size());
      for (std::size_t i = 0; i < q.size(); ++i) CHECK(std::fabs(p[i][1].get<double>() - q[i][1].get<double>()) <= 1e-4);
    }
    if (want.contains("loss")) CHECK(std::fabs(got["loss"].get<double>() - want["loss"].get<double>()) <= 1e-5);
  }
}

TEST_CASE("a head as a scenario plays the model's attention of that head", "[folder-trace][folder-golden]") {
  struct head {
    std::string name;
    std::size_t layer, head;
  };
  // a rotary head sharing its key/value head, one with biases at θ = 10⁶, BERT and DistilBERT heads without mask
  for (const head& h : std::vector<head>{{"llama-gqa", 1, 3}, {"qwen2-bias-bf16", 0, 5}, {"bert-mlm", 1, 2},
                                          {"bert-base-model-f16", 0, 1}, {"llama-mha-sharded", 2, 0},
                                          {"distilbert-mlm", 1, 1}, {"distilbert-model-f16", 0, 0}}) {
    INFO(h.name << " layer " << h.layer << " head " << h.head);
    const loaded_model m = folder_support::read(folder_support::golden_folder(h.name));
    const json want = folder_support::golden_trace(h.name);
    const model_run run = run_forward(m, tokens_of(want));
    const std::string text = model_head_scenario(m, run, h.layer, h.head, h.name);
    const json scenario = json::parse(text);
    const json& layer = scenario.at("attention");
    CHECK(layer.at("mask") == (m.family->family == model_family::llama ? "causal" : "none"));  // encoders: none
    CHECK(layer.contains("rotary") == (m.family->family == model_family::llama));
    if (layer.contains("rotary")) CHECK(layer["rotary"] == json({{"theta", m.spec.position.theta}, {"offset", 0}}));
    const trace t = attention::run(parse_scenario(text));
    const tensor3& weights = t.layer.heads[0].weights;  // (1, T, T)
    const std::size_t T = run.length(), H = m.spec.heads;
    const json& golden = want.at("attention").at("data");
    double against_golden = 0;
    for (std::size_t i = 0; i < T * T; ++i)
      against_golden = std::max(against_golden, std::fabs(weights.data()[i] -
                                                          golden[(h.layer * H + h.head) * T * T + i].get<double>()));
    CHECK(against_golden <= 1e-4);
  }
}

TEST_CASE("a grouped head's scenario holds its own query and its group's key and value", "[folder-trace][folder-golden]") {
  const loaded_model m = folder_support::read(folder_support::golden_folder("llama-gqa"));  // 4 heads, 2 kv heads
  const model_run run = run_forward(m, {1, 7, 3});
  const json three = json::parse(model_head_scenario(m, run, 0, 3, "m"));
  const json two = json::parse(model_head_scenario(m, run, 0, 2, "m"));
  const json one = json::parse(model_head_scenario(m, run, 0, 1, "m"));
  const auto tensor = [](const json& s, const char* name) {
    for (const json& t : s.at("tensors"))
      if (t.at("name") == name) return t.at("values");
    return json();
  };
  CHECK(tensor(three, "W_key") == tensor(two, "W_key"));  // heads 2 and 3 share key/value head 1
  CHECK(tensor(three, "W_value") == tensor(two, "W_value"));
  CHECK(tensor(three, "W_query") != tensor(two, "W_query"));
  CHECK(tensor(three, "W_key") != tensor(one, "W_key"));
}
