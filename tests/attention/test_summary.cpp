#include <catch2/catch.hpp>

#include "attention/run.hpp"
#include "attention/summary.hpp"
#include "formats/scenario_file.hpp"
#include "support.hpp"

using namespace attention;
using nlohmann::json;

namespace {
json summary_of(const std::string& id) {
  const scenario s = parse_scenario(test_support::read_text(test_support::presets_dir() + "/" + id + ".json"));
  return json::parse(summary_json(s, run(s)));
}
}  // namespace

TEST_CASE("a summary lists labels per batch element, lengths and the mask", "[summary]") {
  const json j = summary_of("bank-raw");
  CHECK(j["batch"] == 2);
  CHECK(j["tokens"][1] == json({"money", "bank", "loan"}));
  CHECK(j["mask"] == "none");
  CHECK_FALSE(j.contains("keep"));  // the mask's cells cross as a typed array, not JSON
  CHECK(j["heads"][0]["steps"].contains("q"));
  CHECK_FALSE(j["heads"][0]["steps"].contains("v"));
  CHECK(j["heads"][0]["steps"]["scores"] == json({3, 3}));
  CHECK(j["context_tokens"] == j["tokens"]);  // self-attention: the context is x
}

TEST_CASE("a summary labels positions when the scenario names no tokens", "[summary]") {
  const json j = summary_of("karpathy-value");
  CHECK(j["tokens"].size() == 4);
  CHECK(j["tokens"][3][7] == "7");
}

TEST_CASE("a cross-attention summary has the context's own length and labels", "[summary]") {
  const json j = summary_of("sun-rises-cross");
  CHECK(j["cross"] == true);
  CHECK(j["query_length"] == 6);
  CHECK(j["context_length"] == 8);
  CHECK(j["context_tokens"][0].size() == 8);
  CHECK(j["heads"][0]["steps"]["k"] == json({8, 2}));
}

TEST_CASE("the summary states rotary's theta and offset, and the turned steps' shapes, only with rotary", "[summary][rotary]") {
  const test_support::loaded_preset r = test_support::load_preset("rotary-sun-rises");
  const nlohmann::json j = nlohmann::json::parse(attention::summary_json(r.s, r.t));
  CHECK(j["rotary"] == nlohmann::json({{"theta", 10000.0}, {"offset", 0}}));
  CHECK(j["heads"][1]["steps"]["q_rotated"] == nlohmann::json({6, 4}));
  CHECK(j["heads"][1]["steps"]["k_rotated"] == nlohmann::json({6, 4}));
  const test_support::loaded_preset p = test_support::load_preset("sun-rises-causal");
  const nlohmann::json plain = nlohmann::json::parse(attention::summary_json(p.s, p.t));
  CHECK(plain["rotary"].is_null());
  CHECK_FALSE(plain["heads"][0]["steps"].contains("q_rotated"));
}
