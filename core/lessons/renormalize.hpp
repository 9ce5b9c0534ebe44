// Masking after softmax (notebook 004): softmax over every position, zero
// the weights the mask hides, then divide each row by what is left. The
// long way round to the same weights as masking the scores before softmax.
#pragma once

#include <cstddef>

#include "attention/trace.hpp"
#include "tensor/tensor.hpp"

namespace attention {

struct renormalize_lesson {
  tensor3 unmasked;      // softmax(scaled) over every position (B, Tq, Tkv)
  tensor3 zeroed;        // unmasked · keep: the hidden weights set to 0 (B, Tq, Tkv)
  tensor3 row_sums;      // Σ_j zeroed[b, i, j] (B, Tq, 1)
  tensor3 renormalized;  // zeroed / row_sums (B, Tq, Tkv)
  bool agrees = false;   // torch.allclose(renormalized, the head's weights)
  float largest_difference = 0;  // max |renormalized - weights|
};

// For one head of a trace and its (Tq, Tkv) keep matrix. Throws for a head
// that does not exist or a row the mask leaves empty.
renormalize_lesson mask_after_softmax_lesson(const trace& t, std::size_t head, const tensor2& keep);

}  // namespace attention
