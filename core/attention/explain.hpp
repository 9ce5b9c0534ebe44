// How one cell of one step was computed, term by term, for the page's hover
// and focus details. The core does the arithmetic; the page only prints it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attention/scenario.hpp"
#include "attention/trace.hpp"

namespace attention {

struct product_term {
  float left, right, product;  // left · right
};

struct cell_explanation {
  std::string step;
  std::size_t head = 0, batch = 0, row = 0, column = 0;
  float value = 0;     // the cell itself (-inf for a masked cell)
  std::string formula; // e.g. "scores[i, j] = q[i] · k[j]"

  // q, k, v, scores, out: value = Σ left·right (+ bias for q, k, v when the head has one)
  // q_rotated, k_rotated: value = q·cos + rotate_half(q)·sin, two terms {number, cos or sin, product}
  // and `angle`, the pair's angle at this position
  std::vector<product_term> terms;
  std::optional<float> bias;
  std::optional<float> angle;

  // scaled: value = input · factor / temperature
  float input = 0, factor = 1, temperature = 1;

  // masked: whether the mask lets row see column
  bool kept = true;

  // weights: value = exp(masked - row_max) / Σ exp(row - row_max)
  float row_max = 0, exp_sum = 0;
  std::vector<float> masked_row, exps;  // the masked row and its exps (0 where masked)
};

// Throws attention::error for a head, step or cell that does not exist.
cell_explanation explain_cell(const scenario& s, const trace& t, std::size_t head, std::string_view step,
                              std::size_t batch, std::size_t row, std::size_t column);

std::string explanation_json(const cell_explanation& e);

// Each pair's angle at each position of a rotary scenario's head: row t,
// column j is pair (j, j + d_k/2)'s angle in radians at position offset + t.
// (Tq, d_k/2). Throws for a scenario without rotary or a head that does not exist.
tensor2 rotary_angles_of(const scenario& s, const trace& t, std::size_t head);

}  // namespace attention
