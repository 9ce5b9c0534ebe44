#include "tensor/softmax.hpp"

#include <cmath>
#include <limits>

#include "errors/check.hpp"
#include "tensor/sums.hpp"
#include "tensor/vector_math.hpp"

namespace attention {
namespace {

// One row's max, with the checks; out = in − max (max subtracted only for
// stability; a masked entry stays −inf, and exp makes it exactly 0).
void shift_row(const float* in, float* out, std::size_t n) {
  constexpr float minus_inf = -std::numeric_limits<float>::infinity();
  float row_max = minus_inf;
  bool finite = true;  // -inf (masked) aside
  for (std::size_t j = 0; j < n; ++j) {
    if (in[j] > row_max) row_max = in[j];  // a compare, not fmaxf: a call per element
    if (!(std::fabs(in[j]) <= std::numeric_limits<float>::max()) && in[j] != minus_inf) finite = false;
  }
  // NaN never wins a compare: without this, a row of NaN would read as fully masked
  ATTENTION_CHECK(finite, "softmax: a score is not finite (inf or nan): the numbers overflow float32");
  ATTENTION_CHECK(row_max != minus_inf, "softmax: a row allows no position (every entry is -inf)");
  for (std::size_t j = 0; j < n; ++j) out[j] = in[j] - row_max;
}

// rows of n: each row's e^(x − max) divided by its sum, in place.
void softmax_rows(const float* in, float* out, std::size_t rows, std::size_t n) {
  for (std::size_t r = 0; r < rows; ++r) shift_row(in + r * n, out + r * n, n);
  exp_each(out, out, rows * n);  // every row at once
  std::vector<float> sums(rows);
  sum_each_row(out, rows, n, sums.data());
  for (std::size_t r = 0; r < rows; ++r) {
    const float inverse = 1.0f / sums[r];  // sum >= 1: the max entry contributes exp(0)
    for (std::size_t j = 0; j < n; ++j) out[r * n + j] *= inverse;
  }
}

}  // namespace

tensor3 softmax(const tensor3& masked) {
  tensor3 weights(masked.shape());
  const std::size_t n = masked.shape(2);
  if (n != 0) softmax_rows(masked.data(), weights.data(), masked.size() / n, n);
  return weights;
}

std::vector<float> softmax(const std::vector<float>& values) {
  ATTENTION_CHECK(!values.empty(), "softmax: expected at least one value");
  std::vector<float> out(values.size());
  softmax_rows(values.data(), out.data(), 1, values.size());
  return out;
}

}  // namespace attention
