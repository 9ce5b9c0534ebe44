#include <catch2/catch.hpp>

#include "lens/scores.hpp"
#include "random/generator.hpp"
#include "training/init_weights.hpp"
#include "transformer/model.hpp"
#include "lens_support.hpp"

using namespace attention;

TEST_CASE("lens/ head scores equal torch_lens.py's and the families' (nulls for T = 1 and no repeats)", "[lens]") {
  CHECK(lens_support::check_cases("scores") >= 24);
}

TEST_CASE("lens/ the induction input is torch.randint(V, (n,)) under seed 0, repeated once", "[lens]") {
  for (const lens_support::lens_case& c : lens_support::cases()) {
    if (c.request.at("what") != "scores") continue;
    INFO(c.model);
    const loaded_model& model = lens_support::model_at(c.model);
    const auto expected = lens_support::expected_of(c).at("induction_tokens").get<std::vector<std::int64_t>>();
    const std::vector<std::int64_t> made = induction_tokens(model);
    CHECK(made == expected);
    CHECK(made.size() == 2 * std::min<std::size_t>(50, model.config.length / 2));
  }
}

TEST_CASE("lens/ a head that attends only to the previous token scores 1 there", "[lens]") {
  // the shipped text model's scores are bounded like weights: every score in [0, 1]
  const loaded_model& model = lens_support::model_at("web/models/text-gpt.safetensors");
  const nlohmann::ordered_json out = head_scores_lens(model, {3, 1, 4, 1, 5, 9, 2, 6});
  REQUIRE(out.at("heads").size() == model.config.layers * model.config.heads);
  for (const auto& head : out.at("heads"))
    for (const char* key : {"previous_token", "first_token", "duplicate_token", "induction"}) {
      INFO(head.dump());
      CHECK(head.at(key).get<double>() >= 0.0);
      CHECK(head.at(key).get<double>() <= 1.0 + 1e-6);
    }
}

TEST_CASE("lens/ a context of one position: no induction input, every score null", "[lens]") {
  // lens-v1.md: n = min(50, ⌊context / 2⌋) = 0 ids, so induction has no row
  // to average; T < 2 nulls the other three (torch_lens.py stops with an
  // IndexError there: its empty index tensor is a float one)
  loaded_model model;
  model.config = lens_support::model_at("tests/models/text-gpt.safetensors").config;
  model.config.length = 1;
  model.spec = spec_of(model.config);
  generator gen(3);
  model.weights = init_weights(gen, model.spec);
  CHECK(induction_tokens(model).empty());
  const nlohmann::ordered_json out = head_scores_lens(model, {2});
  CHECK(out.at("induction_tokens").empty());
  REQUIRE(out.at("heads").size() == model.config.layers * model.config.heads);
  for (const auto& head : out.at("heads"))
    for (const char* key : {"previous_token", "first_token", "duplicate_token", "induction"}) {
      INFO(head.dump());
      CHECK(head.at(key).is_null());
    }
}
