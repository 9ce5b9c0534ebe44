#include "transformer/head_scores.hpp"

#include <map>

#include "errors/check.hpp"

namespace attention {

attention_patterns patterns_of(const std::vector<std::int64_t>& tokens) {
  attention_patterns p;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i >= 1) p.previous.emplace_back(i, i - 1);
    // a copy right before i points at i itself: no induction there
    for (std::size_t j = 0; j + 1 < i; ++j)
      if (tokens[j] == tokens[i]) p.induction.emplace_back(i, j + 1);
  }
  return p;
}

std::vector<head_score> head_scores(const tensor& attention, const attention_patterns& patterns) {
  ATTENTION_CHECK(attention.dimension() == 4, "head_scores: attention must be (layers, heads, T, T)");
  const std::size_t L = attention.shape(0), H = attention.shape(1), T = attention.shape(2);
  for (const cell_list* cells : {&patterns.previous, &patterns.induction})
    for (const auto& [i, j] : *cells) ATTENTION_CHECK(i < T && j < T, "head_scores: a pattern's cell is outside the sequence");
  // each row's weight on the pattern's cells in it, averaged over the rows that have any
  const auto score = [&](std::size_t l, std::size_t h, const cell_list& cells) {
    std::map<std::size_t, double> rows;
    for (const auto& [i, j] : cells) rows[i] += attention(l, h, i, j);
    double sum = 0;
    for (const auto& [row, weight] : rows) sum += weight;
    return sum / static_cast<double>(rows.size());
  };
  std::vector<head_score> scores;
  for (std::size_t l = 0; l < L; ++l)
    for (std::size_t h = 0; h < H; ++h) {
      head_score s;
      if (!patterns.previous.empty()) s.previous = score(l, h, patterns.previous);
      if (!patterns.induction.empty()) s.induction = score(l, h, patterns.induction);
      scores.push_back(s);
    }
  return scores;
}

}  // namespace attention
