// Where is position? With rotary positions (models-v2.md section 2) the
// scores of two tokens depend only on how far apart they are, i − j: the
// same scenario run at positions offset_a + t and offset_b + t turns q and k
// by other angles, yet gives the same scores within float32 rounding. The
// page runs both traces; this compares one step of one head in the two.
#pragma once

#include <cstddef>
#include <string_view>

#include "attention/trace.hpp"

namespace attention {

struct step_comparison {
  float largest_difference = 0;  // max |a − b| over the step's cells
  float largest_value = 0;       // max |a|, to read the difference against
  // torch.allclose(b, a, rtol=1e-5, atol=1e-6): equal up to float32 rounding
  bool agrees = false;
};

// Throws for a head or step that one of the traces lacks, or steps of two shapes.
step_comparison compare_step(const trace& a, const trace& b, std::size_t head, std::string_view step);

}  // namespace attention
