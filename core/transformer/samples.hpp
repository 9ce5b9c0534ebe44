// Samples of gpt-v1.md: at each evaluation the model continues a prompt,
// character by character, drawing from its own generator (the training
// stream is left alone), so learners watch noise turn into words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "transformer/model.hpp"
#include "transformer/warpers.hpp"

namespace attention {

struct sample_spec {
  std::size_t length = 200;          // characters to generate
  double temperature = 1.0;          // applied to the logits as float32
  std::uint64_t seed = 42;           // torch.manual_seed before the first draw
  std::vector<std::int64_t> prompt;  // ids; the corpus's first character when not given
  warpers warp;                      // top-k and top-p after the temperature (the Model view's Generate); off in training
  // true: each step computes one position, the window's earlier keys and
  // values kept (transformer/kv_cache.hpp; a causal model's, lens-v1.md section
  // 5); false: forward() over the whole window at every step. The same logits
  // bit for bit, hence the same ids.
  bool cached = true;
};

// The ids generated after the prompt: logits of the last ≤ T ids, divided by
// the temperature, softmax, u = torch.rand(1), and the first index whose
// cumulative probability (summed in double, each partial sum rounded to
// float32, as PyTorch's CPU cumsum) exceeds u, or V − 1 if none does. With
// top-k or top-p on, the tempered logits are filtered first (warpers.hpp)
// and "V − 1" is the last token whose probability is above 0.
// steps, when given: each step's logits before the temperature, (length, V).
std::vector<std::int64_t> sample_ids(const model_weights& w, const model_spec& spec, const sample_spec& sample,
                                     std::vector<float>* steps = nullptr);

// (V): what sample_ids draws from after one position: softmax(logits / T),
// each float32 logit divided by the temperature as float32, then top-k and
// top-p (`warp`; 0 for each token they remove). The Model view's bars at a
// temperature are these numbers (models/generate.hpp).
std::vector<float> sampling_distribution(const float* logits, std::size_t V, double temperature,
                                         const warpers& warp = {});

// (V): the logits that softmax is taken of: each divided by the temperature,
// those top-k and top-p remove -inf.
std::vector<float> warped_logits(const float* logits, std::size_t V, double temperature, const warpers& warp);

}  // namespace attention
