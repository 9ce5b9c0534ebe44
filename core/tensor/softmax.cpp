#include "tensor/softmax.hpp"

#include <cmath>
#include <limits>

#include "errors/check.hpp"
#include "tensor/simd.hpp"
#include "tensor/sums.hpp"
#include "tensor/vector_math.hpp"

namespace attention {
namespace {

constexpr float minus_inf = -std::numeric_limits<float>::infinity();

// Each row's max, with the checks; out = in − max (max subtracted only for
// stability; a masked entry stays −inf, and exp makes it exactly 0). W
// lanes of a row at a time: a max is the same whichever order it is taken
// in, but for the sign of a zero, which x − max only passes on to exp(±0) = 1.
// Returns the first row's problem, or none.
enum class row_problem { none, not_finite, all_masked };
template <int W>
ATTENTION_INLINE row_problem shift_rows_kernel(const float* in, float* out, std::size_t rows, std::size_t n) {
  constexpr float largest = std::numeric_limits<float>::max();
  for (std::size_t r = 0; r < rows; ++r, in += n, out += n) {
    // One select per compare: AVX-512F has no instruction that turns a
    // compare into a vector of ints, which GCC would build lane by lane.
    // +inf is the max when there is one; NaN never wins a compare, so a
    // lane of `nan` marks it.
    const vec<W> one = splat<W>(1.0f);
    vec<W> most = splat<W>(minus_inf), nan{};
    std::size_t j = 0;
    for (; j + W <= n; j += W) {
      const vec<W> x = load<W>(in + j);
      most = x > most ? x : most;  // a compare, not fmaxf
      nan = x == x ? nan : one;
    }
    float row_max = minus_inf;
#pragma GCC unroll 16
    for (int l = 0; l < W; ++l) {
      if (most[l] > row_max) row_max = most[l];
      if (nan[l] != 0.0f) return row_problem::not_finite;
    }
    if (!(row_max <= largest) && row_max != minus_inf) return row_problem::not_finite;  // +inf
    bool finite = true;
    for (; j < n; ++j) {
      if (in[j] > row_max) row_max = in[j];
      if (!(std::fabs(in[j]) <= largest) && in[j] != minus_inf) finite = false;
    }
    // NaN never wins a compare: without this, a row of NaN would read as fully masked
    if (!finite) return row_problem::not_finite;
    if (row_max == minus_inf) return row_problem::all_masked;
    for (j = 0; j < n; ++j) out[j] = in[j] - row_max;
  }
  return row_problem::none;
}

template <int W>
ATTENTION_INLINE void shift_kernel(const float* in, float* out, std::size_t rows, std::size_t n, row_problem* problem) {
  *problem = shift_rows_kernel<W>(in, out, rows, n);
}
ATTENTION_SIMD_DISPATCH(shift_rows_at, shift_kernel,
                        (const float* in, float* out, std::size_t rows, std::size_t n, row_problem* problem),
                        (in, out, rows, n, problem))

// rows of n: each row's e^(x − max) divided by its sum, in place.
void softmax_rows(const float* in, float* out, std::size_t rows, std::size_t n) {
  row_problem problem = row_problem::none;
  shift_rows_at(in, out, rows, n, &problem);
  ATTENTION_CHECK(problem != row_problem::not_finite,
                  "softmax: a score is not finite (inf or nan): the numbers overflow float32");
  ATTENTION_CHECK(problem != row_problem::all_masked, "softmax: a row allows no position (every entry is -inf)");
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
