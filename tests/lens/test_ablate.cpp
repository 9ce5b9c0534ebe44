#include <catch2/catch.hpp>

#include "errors/check.hpp"
#include "lens/ablate.hpp"
#include "lens_support.hpp"

using namespace attention;

TEST_CASE("lens/ ablation equals torch_lens.py's and the families' (zero and mean, grouped heads, BERT)", "[lens]") {
  CHECK(lens_support::check_cases("ablate") >= 30);
}

TEST_CASE("lens/ a head's mean over one position is the head itself: nothing changes", "[lens]") {
  const loaded_model& model = lens_support::model_at("tests/models/nano-tied-bias.safetensors");
  lens_request request{"ablate", {5}, {{0, 0}, {1, 1}}, true};
  const nlohmann::ordered_json out = run_lens(model, request);
  CHECK(out.at("before") == out.at("after"));
  request.mean = false;  // zeros do change it
  CHECK(run_lens(model, request).at("before") != run_lens(model, request).at("after"));
}

TEST_CASE("lens/ BERT's ablation reads its masked-LM head at the position asked for", "[lens]") {
  const loaded_model& bert = lens_support::model_at("tests/models-v2/bert-mlm");
  lens_request request{"ablate", {3, 1, 4, 1, 5}, {{0, 0}}};
  request.position = 1;
  const nlohmann::ordered_json at_one = run_lens(bert, request);
  request.position = 4;
  const nlohmann::ordered_json at_last = run_lens(bert, request);
  CHECK(at_one.at("before").at("logits") != at_last.at("before").at("logits"));
  CHECK(at_one.at("before").at("loss").is_null());
  // a model without the head: refused, named by its family's facts
  const auto ablate_at = [](const char* folder) {
    return run_lens(lens_support::model_at(folder), {"ablate", {1, 2}, {{0, 0}}}, "--");
  };
  CHECK_THROWS_WITH(ablate_at("tests/models-v2/bert-base-model-f16"),
                    "--what: ablate compares next-token guesses, and this BERT has no masked-LM head");
  CHECK_THROWS_WITH(ablate_at("tests/models-v3/distilbert-model-f16"),
                    "--what: ablate compares next-token guesses, and this DistilBERT has no masked-LM head");
}
