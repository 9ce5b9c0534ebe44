// Top-k and top-p as Hugging Face transformers' TopKLogitsWarper and
// TopPLogitsWarper define them (generation/logits_process.py), applied to
// the tempered logits before the softmax the sampling draws from, in
// transformers' order: temperature, then top-k, then top-p. A removed token's
// logit becomes -inf, so its probability is exactly 0.
#pragma once

#include <cstddef>
#include <vector>

namespace attention {

struct warpers {
  std::size_t top_k = 0;  // 0: off
  double top_p = 1.0;     // 1: off
  bool off() const { return top_k == 0 && top_p == 1.0; }
};

// Throws unless top_k ≤ V and top_p is in (0, 1], one line naming the field.
void check_warpers(const warpers& w, std::size_t V);

// (V) in place: every logit below the k-th largest becomes -inf (ties with
// the k-th are kept, so more than k may remain). k = 0 or k ≥ V: nothing.
void top_k_filter(std::vector<float>& logits, std::size_t k);

// (V) in place, as TopPLogitsWarper: the logits sorted ascending, their
// softmax's cumulative sum (PyTorch's: in double, each partial rounded to
// float32), every token whose cumulative sum is ≤ float32(1 − p) removed but
// the last (most probable) one. p = 1: nothing. Equal logits at the edge:
// the lower id is kept (PyTorch's unstable sort leaves that unspecified).
void top_p_filter(std::vector<float>& logits, double p);

// Both, in transformers' order (top-k, then top-p).
void apply_warpers(std::vector<float>& logits, const warpers& w);

}  // namespace attention
