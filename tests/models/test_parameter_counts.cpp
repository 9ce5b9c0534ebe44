// What a model file's parameter count holds, and the heads' scores on a run:
// text-gpt's file counts its 128 zero key biases (2 layers × d 64), which the
// training room's 112,465 weights leave out; a file without c_attn.bias has
// none; the scores are the training room's on the same attention.
#include <catch2/catch.hpp>

#include "model_support.hpp"
#include "models/model_run.hpp"
#include "models/model_stream.hpp"
#include "models/parameter_counts.hpp"

using namespace attention;

TEST_CASE("text-gpt's file holds 128 zero key biases beside its 112,465 trained weights", "[parameter-counts]") {
  const loaded_model model = read_model_file(model_support::model_path("text-gpt"));
  const parameter_counts counts = count_parameters(model);
  CHECK(counts.file == 112593);
  CHECK(counts.zero_key_biases == model.config.layers * model.config.embed);
  CHECK(counts.others() == 112465);
}

TEST_CASE("a file without c_attn.bias has no zero key biases", "[parameter-counts]") {
  const loaded_model model = read_model_file(model_support::model_path("nano-f16-nobias"));
  const parameter_counts counts = count_parameters(model);
  CHECK(counts.zero_key_biases == 0);
  CHECK(counts.others() == counts.file);
}

TEST_CASE("a run's head scores are each head's weight one token back", "[parameter-counts]") {
  const loaded_model model = read_model_file(model_support::model_path("text-gpt"));
  const std::vector<std::int64_t> tokens = model_support::golden_tokens("text-gpt");
  const model_run run = run_model(model, tokens);
  const std::vector<head_score> scores = run_head_scores(run);
  REQUIRE(scores.size() == model.config.layers * model.config.heads);
  const std::size_t T = run.length();
  for (std::size_t l = 0; l < model.config.layers; ++l)
    for (std::size_t h = 0; h < model.config.heads; ++h) {
      const float* w = run.attention(l, h);  // (T, T)
      double sum = 0;
      for (std::size_t i = 1; i < T; ++i) sum += w[i * T + i - 1];
      CHECK(scores[l * model.config.heads + h].previous == Approx(sum / static_cast<double>(T - 1)).epsilon(1e-6));
    }
}
