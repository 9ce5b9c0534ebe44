// One head of a GPT as a scenario: what it names, in torch_model.py's order.
#include <catch2/catch.hpp>

#include "attention/run.hpp"
#include "formats/head_scenario.hpp"
#include "formats/scenario_file.hpp"
#include "support.hpp"

using namespace attention;

TEST_CASE("a head's scenario names its weights and the biases it has, and runs", "[head-scenario]") {
  model_head head;
  head.query = tensor2({{1, 0}, {0, 1}, {1, 1}});  // (d 3, hs 2)
  head.key = tensor2({{0, 1}, {1, 0}, {1, -1}});
  head.value = tensor2({{2, 0}, {0, 2}, {1, 1}});
  head.query_bias = tensor2({{0.5f, -0.5f}});
  head.value_bias = tensor2({{1, 2}});
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};  // (T 2, d 3)
  head_scenario_parts parts{"m-layer-0-head-0", "Layer 0, head 0 of m", {"a", "b"}, x.data(), 2, 3, &head};
  const nlohmann::json s = nlohmann::json::parse(head_scenario_text(parts));
  CHECK(s.at("tokens") == nlohmann::json({"a", "b"}));
  std::vector<std::string> names;
  for (const auto& t : s.at("tensors")) names.push_back(t.at("name"));
  CHECK(names == std::vector<std::string>{"x", "W_query", "b_query", "W_key", "W_value", "b_value"});
  CHECK(s.at("attention") == nlohmann::json::parse(R"({"x": "x", "heads": [{"query": "W_query", "query_bias": "b_query",
        "key": "W_key", "value": "W_value", "value_bias": "b_value"}], "mask": "causal", "scale": true})"));
  const trace t = run(parse_scenario(head_scenario_text(parts)));
  // q = x @ W_query + b_query for the first token: [1 + 3 + 0.5, 2 + 3 − 0.5]
  CHECK((*t.layer.heads[0].q)(0, 0, 0) == 4.5f);
  CHECK((*t.layer.heads[0].q)(0, 0, 1) == 4.5f);
  CHECK(t.layer.heads[0].weights(0, 0, 0) == 1.0f);
  parts.labels.clear();
  CHECK_FALSE(nlohmann::json::parse(head_scenario_text(parts)).contains("tokens"));
}
