// How close each head's attention is to the two patterns the toy tasks are
// about (Elhage et al. 2021; Olsson et al. 2022): a previous-token head
// attends from each position to the one before it; an induction head from a
// token to the positions just after its earlier copies (a repeated pattern
// has several, each as good). A score is a row's weight on its pattern's
// cells, averaged over the rows that have any: 1 is the pattern exactly, and
// a head that spreads its weight evenly over the causal past scores about
// the mean of (cells in the row)/(i + 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "tensor/tensor.hpp"

namespace attention {

using cell_list = std::vector<std::pair<std::size_t, std::size_t>>;  // (query row, key column)

struct attention_patterns {
  cell_list previous;   // (i, i − 1) for every i ≥ 1
  cell_list induction;  // (i, j + 1) for every earlier j holding tokens[i] with j + 1 < i, row by row
};

// The patterns' cells for one sequence of token ids.
attention_patterns patterns_of(const std::vector<std::int64_t>& tokens);

struct head_score {
  double previous = 0;                // mean weight on (i, i − 1); 0 for a sequence of one token
  std::optional<double> induction;    // mean over rows of their weight on the induction cells; none when no token repeats
};

// attention: (layers, heads, T, T), one sequence's weights; scores per head,
// layer by layer, head by head.
std::vector<head_score> head_scores(const tensor& attention, const attention_patterns& patterns);

}  // namespace attention
