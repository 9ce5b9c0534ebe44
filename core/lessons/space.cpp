#include "lessons/space.hpp"

#include <algorithm>
#include <cmath>

#include "attention/run.hpp"
#include "errors/check.hpp"
#include "tensor/mask.hpp"

namespace attention {
namespace {

}  // namespace

tensor2 positional_encoding(std::size_t T, std::size_t C) {
  tensor2 pe({T, C});
  for (std::size_t p = 0; p < T; ++p)
    for (std::size_t c = 0; c < C; ++c) {
      const double rate = std::pow(10000.0, static_cast<double>(c - c % 2) / static_cast<double>(C));
      pe(p, c) = static_cast<float>(c % 2 == 0 ? std::sin(p / rate) : std::cos(p / rate));
    }
  return pe;
}

space_lesson permute_tokens(const scenario& s, const trace& t, const std::vector<std::size_t>& permutation,
                            bool add_positions) {
  ATTENTION_CHECK(!s.is_cross(), "space: the lesson needs self-attention (context = x)");
  const std::size_t T = s.query_length;
  ATTENTION_CHECK(permutation.size() == T, "space: expected a permutation of ", T, " positions, got ",
                  permutation.size());
  std::vector<std::size_t> sorted(permutation);
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < T; ++i)
    ATTENTION_CHECK(sorted[i] == i, "space: the order must list each position 0 … ", T - 1, " once");

  const tensor& x_named = *t.find_tensor(s.attention.x);
  const std::size_t B = s.batch, C = x_named.shape().back();
  tensor3 x({B, T, C}), permuted({B, T, C});
  std::copy(x_named.begin(), x_named.end(), x.begin());
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t p = 0; p < T; ++p)
      for (std::size_t c = 0; c < C; ++c) permuted(b, p, c) = x(b, permutation[p], c);
  if (add_positions) {
    // positions belong to slots, not tokens: slot p gets PE[p] whatever sits there
    const tensor2 pe = positional_encoding(T, C);
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t p = 0; p < T; ++p)
        for (std::size_t c = 0; c < C; ++c) {
          x(b, p, c) += pe(p, c);
          permuted(b, p, c) += pe(p, c);
        }
  }

  const layer_weights weights = layer_weights_of(s, t);
  const tensor2 keep({T, T}, 1.0f);  // no mask: every token sees every token

  space_lesson lesson;
  lesson.permutation = permutation;
  lesson.out = attend_layer(x, x, weights.heads, keep, s.attention.options, weights.output, weights.output_bias).out;
  lesson.permuted_out = attend_layer(permuted, permuted, weights.heads, keep, s.attention.options, weights.output, weights.output_bias).out;

  const std::size_t width = lesson.out.shape(2);
  bool same = true;
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t p = 0; p < T; ++p)
      for (std::size_t c = 0; c < width; ++c) {
        const float a = lesson.permuted_out(b, p, c), e = lesson.out(b, permutation[p], c);
        const float d = std::fabs(a - e);
        lesson.largest_difference = std::max(lesson.largest_difference, d);
        same = same && d <= 1e-5f + 1e-4f * std::fabs(e);  // float sums in another order
      }
  lesson.equivariant = same;
  return lesson;
}

}  // namespace attention
