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

#include "models/loaded_model.hpp"
#include "models/model_run.hpp"
#include "models/tempered_row.hpp"
#include "transformer/warpers.hpp"

namespace attention {

// The `count` new ids after `prompt` (checked as run_model checks tokens),
// the tempered logits filtered by top-k and top-p (transformer/warpers.hpp:
// top_k 0 and top_p 1 are off) before each draw. Throws for a temperature
// check_temperature refuses, warpers check_warpers refuses, or a count past
// limits::models::generated.
std::vector<std::int64_t> generate_tokens(const loaded_model& model, const std::vector<std::int64_t>& prompt,
                                          std::size_t count, double temperature, std::uint64_t seed,
                                          const warpers& warp = {});

// (T, k): after each position of `run`, the k tokens most probable at
// `temperature` (most probable first, ties by the lower id), k = min(k, V),
// each marked kept or not by top-k and top-p. After the last position this
// is what generate_tokens draws its first token from. At temperature 1 the
// ids and probabilities are run.top's. Throws as check_temperature and
// check_warpers do.
std::vector<tempered_guess> tempered_guesses(const loaded_model& model, const model_run& run, double temperature,
                                            std::size_t k, const warpers& warp = {});

}  // namespace attention
