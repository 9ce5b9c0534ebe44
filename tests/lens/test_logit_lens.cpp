// The logit lens (lens-v1.md section 3) against PyTorch: torch_lens.py's
// output on the shipped model and the GPT-2-shaped test files (F32, F16,
// BF16, tied, an unembedding bias, no final norm), and the same definitions
// on torch_hf.py's Llama-family forward (tests/golden-lens/).
#include <catch2/catch.hpp>

#include "lens/logit_lens.hpp"
#include "lens_resid_support.hpp"
#include "models/model_run.hpp"

using namespace attention;
using resid_support::cases_of;
using resid_support::difference;

TEST_CASE("logit lens: every expected case, keys, order and numbers within lens-v1's tolerances") {
  const auto cases = cases_of("logit-lens");
  REQUIRE(cases.size() >= 22);
  for (const auto& c : cases) {
    INFO(c.expected);
    const nlohmann::ordered_json ours = logit_lens(resid_support::model_of(c.model), c.tokens);
    CHECK(difference(ours, resid_support::expected_of(c)) == "");
  }
}

TEST_CASE("logit lens: the last row is the model's own prediction") {
  const loaded_model model = read_model_file(resid_support::root() + "/web/models/text-gpt.safetensors");
  const std::vector<std::int64_t> tokens = {47, 69, 2, 56, 59, 10, 2};
  const nlohmann::ordered_json lens = logit_lens(model, tokens);
  const model_run run = run_model(model, tokens, 5);
  const auto& last = lens["layers"].back();
  REQUIRE(lens["layers"].size() == model.config.layers + 1);
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    for (std::size_t k = 0; k < 5; ++k) {
      CHECK(last[t]["top"][k][0] == run.top[t * 5 + k].id);
      CHECK(last[t]["top"][k][1].get<double>() == Approx(run.top[t * 5 + k].probability).margin(1e-7));
    }
    // the final choice is the last row's first, its probability that row's top
    CHECK(lens["final"][t] == last[t]["top"][0][0]);
    CHECK(last[t]["final"] == last[t]["top"][0][1]);
  }
}

TEST_CASE("logit lens: BERT is refused in one line naming the lens") {
  for (const char* name : {"bert-mlm", "bert-base-model-f16"}) {
    const loaded_model model = resid_support::model_of(std::string("tests/models-v2/") + name);
    CHECK_THROWS_WITH(logit_lens(model, {2, 17, 33}),
                      "logit-lens: BERT is an encoder (no causal mask, a masked-LM head); it has the scores and ablate "
                      "lenses only");
  }
}

TEST_CASE("logit lens: tokens the model cannot read are one line naming the token") {
  const loaded_model model = resid_support::model_of("tests/models/hf-f32.safetensors");
  CHECK_THROWS_WITH(logit_lens(model, {1, 31}), "tokens[1]: 31 is outside [0, 31)");
  CHECK_THROWS_WITH(logit_lens(model, {}), "tokens: empty");
}
