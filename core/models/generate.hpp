// A loaded GPT continuing a token sequence: the training room's sampling
// (gpt-v1.md's samples: logits of the last ≤ Tmax tokens divided by the
// temperature, softmax, torch.rand from a generator seeded with `seed`, the
// first cumulative probability above it), through the one forward().
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/gpt_model.hpp"

namespace attention {

// The `count` new ids after `prompt` (checked as run_model checks tokens).
// Throws for a temperature that is not a positive float32 or a count past
// limits::models::generated.
std::vector<std::int64_t> generate_tokens(const gpt_model& model, const std::vector<std::int64_t>& prompt,
                                          std::size_t count, double temperature, std::uint64_t seed);

}  // namespace attention
