// The guesses after one row of logits at a temperature, after top-k and
// top-p: what the Model view's bars show and Generate draws from. run_model
// makes them in its one pass over the logits; tempered_guesses
// (models/generate.hpp) makes the logits again for another temperature.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "transformer/warpers.hpp"

namespace attention {

// Throws unless `temperature` is one the sampling can divide float32 logits
// by: a positive float32 (named "temperature" in the message).
void check_temperature(double temperature);

struct tempered_guess {
  std::int64_t id = 0;
  float probability = 0;  // at the temperature, before top-k and top-p: softmax(logits / T)
  float own = 0;          // at temperature 1: the model's own softmax, as run.top holds it
  bool kept = true;       // top-k and top-p keep it: Generate may draw it
  float drawn = 0;        // what Generate draws it with: sampling_distribution's (0 when not kept)
  std::size_t remaining = 0;  // how many of the V tokens top-k and top-p keep after this position
};

// A temperature and the warpers after it (top_k 0 and top_p 1 are off).
struct tempering {
  double temperature = 1;
  warpers warp;
};

// Appends the k ≤ V tokens of `row` (V logits) most probable at the
// temperature (most probable first, ties by the lower id), each marked kept
// or not by the warpers. Checked by the caller (check_temperature,
// check_warpers).
void append_tempered(const float* row, std::size_t V, const tempering& at, std::size_t k,
                     std::vector<tempered_guess>& guesses);

}  // namespace attention
