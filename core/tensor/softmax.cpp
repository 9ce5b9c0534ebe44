#include "tensor/softmax.hpp"

#include <cmath>
#include <limits>

#include "errors/check.hpp"
#include "tensor/vector_math.hpp"

namespace attention {
namespace {

void softmax_row(const float* in, float* out, std::size_t n) {
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
  // max subtracted only for stability; a masked entry becomes exactly 0 (e^-inf)
  for (std::size_t j = 0; j < n; ++j) out[j] = in[j] - row_max;
  exp_each(out, out, n);
  float sum = 0.0f;
  for (std::size_t j = 0; j < n; ++j) sum += out[j];
  const float inverse = 1.0f / sum;  // sum >= 1: the max entry contributes exp(0)
  for (std::size_t j = 0; j < n; ++j) out[j] *= inverse;
}

}  // namespace

tensor3 softmax(const tensor3& masked) {
  tensor3 weights(masked.shape());
  const std::size_t n = masked.shape(2);
  const std::size_t rows = masked.size() / n;
  for (std::size_t r = 0; r < rows; ++r) softmax_row(masked.data() + r * n, weights.data() + r * n, n);
  return weights;
}

std::vector<float> softmax(const std::vector<float>& values) {
  ATTENTION_CHECK(!values.empty(), "softmax: expected at least one value");
  std::vector<float> out(values.size());
  softmax_row(values.data(), out.data(), values.size());
  return out;
}

}  // namespace attention
