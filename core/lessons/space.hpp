// No notion of space: attention acts on a set. Permute the tokens and, with
// no mask, the outputs permute the same way; add positional encodings first
// and they no longer do (notebooks 000 and 002).
#pragma once

#include <cstddef>
#include <vector>

#include "attention/scenario.hpp"
#include "attention/trace.hpp"

namespace attention {

// The sinusoidal encoding of "Attention is all you need": (T, C),
// PE[p, 2i] = sin(p / 10000^(2i/C)), PE[p, 2i+1] = cos(p / 10000^(2i/C)).
tensor2 positional_encoding(std::size_t T, std::size_t C);

struct space_lesson {
  std::vector<std::size_t> permutation;  // new position t holds old token permutation[t]
  tensor3 out;                          // (B, T, C_out) of x in its order (+ PE when asked)
  tensor3 permuted_out;                 // (B, T, C_out) of x[permutation] (+ PE by slot)
  bool equivariant = false;             // permuted_out[t] == out[permutation[t]] for every t
  float largest_difference = 0;         // max |permuted_out[t] - out[permutation[t]]|
};

// Runs the scenario's layer with the mask removed (a causal mask would break
// the symmetry on purpose) on x and on x with its rows permuted. Throws for a
// permutation that is not one of 0 … T-1, or for cross-attention.
space_lesson permute_tokens(const scenario& s, const trace& t, const std::vector<std::size_t>& permutation,
                            bool add_positions);

}  // namespace attention
