// Rotary positions (models-v2.md section 2, scenario-v1.md "The attention
// layer"): each pair (x[j], x[j + d/2]) of a query or key row is turned by
// an angle that grows with its position, so q·k depends on positions only
// through their offset i − j. Float32 throughout, step by step as Hugging
// Face's Llama (and shared/tools/torch_trace.py) computes it. Arithmetic on
// rows of numbers, below both users: attention/'s rotary layer and the
// one forward() of transformer/ (transformer/self_attention.cpp).
//
// Letters: B batch, T positions, d = d_k (even), d/2 pairs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tensor/tensor.hpp"

namespace attention {

struct rotary_options {
  float theta = 10000.0f;    // the base: pair j turns theta^(−2j/d) radians per position
  std::uint64_t offset = 0;  // the first row's position
};

// inv_freq[j] = 1 / theta^(float(2j) / d), j < d/2: radians per position.  (d/2)
std::vector<float> inverse_frequencies(std::size_t d, float theta);

// angle[t, j] = float(offset + t) · inv_freq[j]: pair j's angle at row t.  (T, d/2)
tensor2 rotary_angles(std::size_t T, std::uint64_t offset, std::size_t d, float theta);

// rotate_half(x) = [−x[d/2:], x[:d/2]] of one row of d numbers, into out
void rotate_half(const float* x, float* out, std::size_t d);

// cos and sin of every angle, float32 as torch's emb.cos(), emb.sin():
// made once, for every head of every layer that turns rows at these positions.
struct rotary_table {
  tensor2 cosines, sines;  // (T, d/2) each
};
rotary_table rotary_table_of(const tensor2& angles);

// x' = x · cos(emb) + rotate_half(x) · sin(emb), emb = [angle, angle], in
// place on `rows` rows of d numbers, row r at position r mod T (T the
// table's rows: B sequences of T one after the other).
void rotate_rows(float* x, std::size_t rows, std::size_t d, const rotary_table& table);

// The same on every row of t (B, T, d), angles (T, d/2).  Returns (B, T, d).
tensor3 rotate(const tensor3& t, const tensor2& angles);

}  // namespace attention
