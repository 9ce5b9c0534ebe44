#include <catch2/catch.hpp>

#include <string>

#include "errors/check.hpp"
#include "lens/lens.hpp"
#include "lens_support.hpp"

using namespace attention;

namespace {

const loaded_model& small() { return lens_support::model_at("tests/models/hf-f32.safetensors"); }  // V 31, T 24

std::string refusal(const lens_request& request, const std::string& prefix = "") {
  try {
    run_lens(small(), request, prefix);
  } catch (const error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("lens/ the committed cases name each model once per lens and every model reads", "[lens]") {
  const auto cases = lens_support::cases();
  REQUIRE(cases.size() >= 50);  // six model files and three folders, scores and ablate
  for (const lens_support::lens_case& c : cases) {
    INFO(c.model);
    CHECK(lens_support::model_at(c.model).config.vocab > 0);
  }
}

TEST_CASE("lens/ bad requests are one line naming the argument, with the CLI's prefix", "[lens]") {
  const std::vector<std::int64_t> tokens{3, 1, 4};
  CHECK(refusal({"nothing", tokens}) == "what: \"nothing\" is not a lens (scores, ablate, logit-lens, attribution)");
  CHECK(refusal({"scores", {}}, "--") == "--tokens: empty");
  CHECK(refusal({"scores", {3, 31}}, "--") == "--tokens[1]: 31 is outside [0, 31)");
  lens_request past{"ablate", tokens, {{0, 0}}};
  past.position = 3;
  CHECK(refusal(past, "--") == "--position: 3 is outside [0, 3)");
  lens_request token{"scores", tokens};
  token.token = 31;
  CHECK(refusal(token, "--") == "--token: 31 is outside [0, 31)");
  token.token = -1;
  CHECK(refusal(token) == "token: -1 is outside [0, 31)");
  CHECK(refusal({"ablate", tokens}, "--") == "--heads: empty; ablate needs at least one head, as L.H (layer.head)");
  const loaded_model& m = small();
  const std::string shape = " is not a head of this model (" + std::to_string(m.config.layers) + " layers of " +
                            std::to_string(m.config.heads) + " heads)";
  CHECK(refusal({"ablate", tokens, {{0, 0}, {m.config.layers, 0}}}, "--") ==
        "--heads: " + std::to_string(m.config.layers) + ".0" + shape);
  CHECK(refusal({"ablate", tokens, {{0, m.config.heads}}}) == "heads: 0." + std::to_string(m.config.heads) + shape);
}

TEST_CASE("lens/ BERT refuses the logit lens and attribution in one line", "[lens]") {
  const loaded_model& bert = lens_support::model_at("tests/models-v2/bert-mlm");
  REQUIRE(is_encoder(bert));
  for (const char* what : {"logit-lens", "attribution"}) {
    try {
      run_lens(bert, {what, {1, 2, 3}}, "--");
      FAIL("no error for " << what);
    } catch (const error& e) {
      CHECK(std::string(e.what()) == std::string("--what: ") + what +
                                         " reads a decoder's next-token logits; BERT supports scores and ablate (lens-v1.md)");
    }
  }
}
