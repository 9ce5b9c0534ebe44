// Direct logit attribution (lens-v1.md section 4) against PyTorch:
// torch_lens.py's output on the shipped model and the GPT-2-shaped test
// files (F32, F16, BF16, tied, an unembedding bias, no final norm: c · u),
// and the Llama family's (RMSNorm, no centring) from torch_hf.py's forward;
// on every one the parts sum to the logit.
#include <catch2/catch.hpp>

#include "lens/attribution.hpp"
#include "lens_resid_support.hpp"

using namespace attention;
using resid_support::cases_of;
using resid_support::difference;

TEST_CASE("attribution: every expected case, keys, order and numbers within lens-v1's tolerances") {
  const auto cases = cases_of("attribution");
  REQUIRE(cases.size() >= 33);
  for (const auto& c : cases) {
    INFO(c.expected);
    const nlohmann::ordered_json ours = attribution(resid_support::model_of(c.model), c.tokens, c.position, c.token);
    CHECK(difference(ours, resid_support::expected_of(c)) == "");
  }
}

TEST_CASE("attribution: the parts sum to the logit on every model, at every position") {
  std::vector<std::string> models;
  for (const auto& c : cases_of("attribution"))
    if (std::find(models.begin(), models.end(), c.model) == models.end()) models.push_back(c.model);
  REQUIRE(models.size() >= 11);
  for (const std::string& path : models) {
    INFO(path);
    const loaded_model model = resid_support::model_of(path);
    std::vector<std::int64_t> tokens;
    for (std::size_t t = 0; t < std::min<std::size_t>(model.config.length, 9); ++t)
      tokens.push_back(static_cast<std::int64_t>((7 * t + 3) % model.config.vocab));
    for (std::int64_t p = 0; p < static_cast<std::int64_t>(tokens.size()); ++p) {
      const nlohmann::ordered_json out = attribution(model, tokens, p, p % 2 ? std::optional<std::int64_t>(p) : std::nullopt);
      double sum = 0;
      for (const auto& part : out["parts"]) sum += part["value"].get<double>();
      CHECK(out["sum"].get<double>() == Approx(sum).margin(1e-9));
      CHECK(std::fabs(sum - out["logit"].get<double>()) <= 1e-3);
    }
  }
}

TEST_CASE("attribution: a position past the tokens or a token past the vocabulary is one line naming the argument") {
  const loaded_model model = resid_support::model_of("tests/models/hf-f32.safetensors");
  const std::vector<std::int64_t> tokens = {5, 1, 3};
  CHECK_THROWS_WITH(attribution(model, tokens, 3), "--position: 3 is outside [0, 3)");
  CHECK_THROWS_WITH(attribution(model, tokens, -1), "--position: -1 is outside [0, 3)");
  CHECK_THROWS_WITH(attribution(model, tokens, std::nullopt, 31), "--token: 31 is outside [0, 31)");
  CHECK_THROWS_WITH(attribution(model, tokens, 0, -2), "--token: -2 is outside [0, 31)");
}

TEST_CASE("attribution: BERT is refused in one line naming the lens") {
  const loaded_model model = resid_support::model_of("tests/models-v2/bert-mlm");
  CHECK_THROWS_WITH(attribution(model, {2, 17, 33}),
                    "attribution: BERT is an encoder (no causal mask, a masked-LM head); it has the scores and ablate "
                    "lenses only");
}
