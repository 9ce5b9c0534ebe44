// A loaded model continuing a sequence: the training room's sampling, so
// the same seed gives the same tokens, and a trained model's file continues
// as the training run that wrote it would.
#include <catch2/catch.hpp>

#include "model_support.hpp"
#include "models/generate.hpp"
#include "models/vocabulary.hpp"
#include "training/samples.hpp"

using namespace attention;

TEST_CASE("generate is the spec's sampling: the same seed, the same tokens", "[generate]") {
  const gpt_model model = read_model_file(model_support::model_path("text-gpt"));
  const std::vector<std::int64_t> prompt = encode_text(model.config, "To be", "--text");
  const std::vector<std::int64_t> a = generate_tokens(model, prompt, 40, 0.8, 7);
  CHECK(a.size() == 40);
  CHECK(a == generate_tokens(model, prompt, 40, 0.8, 7));
  CHECK(a != generate_tokens(model, prompt, 40, 0.8, 8));
  sample_spec s;
  s.length = 40;
  s.temperature = 0.8;
  s.seed = 7;
  s.prompt = prompt;
  CHECK(a == sample_ids(model.weights, model.spec, s));
  // past Tmax (32) the window slides: the last 32 tokens
  CHECK(generate_tokens(model, prompt, 60, 1.0, 1).size() == 60);
  for (std::int64_t id : a) CHECK((id >= 0 && id < 81));
  CHECK_FALSE(decode_ids(model.config, a).empty());
}

TEST_CASE("generate refuses a bad temperature, count or prompt", "[generate]") {
  const gpt_model model = read_model_file(model_support::model_path("hf-f32"));
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 1, 0.0, 0), "temperature: expected a number > 0 that fits in float32, got 0");
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 1, 1e39, 0), Catch::StartsWith("temperature: expected a number > 0"));
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 1, 1e-50, 0), Catch::StartsWith("temperature: expected a number > 0"));
  // below the floor (limits::sampling) the logits could overflow: refused up front, naming the field
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 1, 1e-38, 0), Catch::StartsWith("temperature: 1e-38 is below the floor of 0.001"));
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 1, 1e-40, 0), Catch::StartsWith("temperature: 1e-40 is below the floor of 0.001"));
  CHECK(generate_tokens(model, {1}, 1, 1e-3, 0).size() == 1);
  CHECK_THROWS_WITH(generate_tokens(model, {1}, 5000, 1.0, 0), "count: 5000 is beyond the limit of 4096 tokens");
  CHECK_THROWS_WITH(generate_tokens(model, {}, 1, 1.0, 0), "tokens: empty");
  CHECK(generate_tokens(model, {1}, 0, 1.0, 0).empty());
}
