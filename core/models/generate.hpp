// A loaded GPT continuing a token sequence: the training room's sampling
// (gpt-v1.md's samples: logits of the last ≤ Tmax tokens divided by the
// temperature, softmax, torch.rand from a generator seeded with `seed`, the
// first cumulative probability above it), through the one forward(); and
// what that sampling would draw from after each position of a run, so the
// Model view's bars are the distribution Generate samples.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/gpt_model.hpp"
#include "models/model_run.hpp"

namespace attention {

// Throws unless `temperature` is one the sampling can divide float32 logits
// by: a positive float32 (named "temperature" in the message).
void check_temperature(double temperature);

// The `count` new ids after `prompt` (checked as run_model checks tokens).
// Throws for a temperature check_temperature refuses or a count past
// limits::models::generated.
std::vector<std::int64_t> generate_tokens(const gpt_model& model, const std::vector<std::int64_t>& prompt,
                                          std::size_t count, double temperature, std::uint64_t seed);

struct tempered_guess {
  std::int64_t id = 0;
  float probability = 0;  // at the temperature: sampling_distribution's (training/samples.hpp)
  float own = 0;          // at temperature 1: the model's own softmax, as run.top holds it
};

// (T, k): after each position of `run`, the k tokens most probable at
// `temperature` in the distribution the sampling draws from (most probable
// first, ties by the lower id), k = min(k, V). After the last position this
// is what generate_tokens draws its first token from. At temperature 1 the
// ids and probabilities are run.top's. Throws as check_temperature does.
std::vector<tempered_guess> tempered_guesses(const model_run& run, double temperature, std::size_t k);

}  // namespace attention
