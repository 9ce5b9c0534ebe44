// Where is position? With rotary positions (models-v2.md section 2) the
// scores of two tokens depend only on how far apart they are, i − j: the
// same scenario run at positions offset_a + t and offset_b + t turns q and k
// by other angles, yet gives the same scores within float32 rounding.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attention/scenario.hpp"
#include "tensor/tensor.hpp"

namespace attention {

struct position_lesson {
  std::uint64_t offset_a = 0, offset_b = 0;
  tensor3 q_rotated_a, q_rotated_b;  // the head's turned queries at each offset (B, T, d_k)
  tensor3 scores_a, scores_b;        // its scores at each offset (B, T, T)
  float largest_rotated_difference = 0;  // max |q_rotated_a − q_rotated_b|: the vectors moved
  float largest_score_difference = 0;    // max |scores_a − scores_b|: the scores did not
  float largest_score = 0;               // max |scores_a|, to read the difference against
  // torch.allclose(scores_a, scores_b, rtol=1e-5, atol=1e-6): equal up to float32 rounding
  bool agrees = false;
};

// Throws for a scenario without rotary, a head that does not exist, or an
// offset beyond limits::rotary_offset.
position_lesson rotary_offset_lesson(const scenario& s, std::size_t head, std::uint64_t offset_a,
                                     std::uint64_t offset_b);

}  // namespace attention
