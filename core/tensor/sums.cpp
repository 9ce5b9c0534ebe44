#include "tensor/sums.hpp"

#include "tensor/simd.hpp"

namespace attention {
namespace {

template <int W>
ATTENTION_INLINE void column_sums_kernel(const matrix_ref& g, float* sums) {
  constexpr std::size_t V = 4;  // vectors of columns per pass over the rows
  std::size_t c = 0;
  for (; c + V * W <= g.cols; c += V * W) {
    vec<W> sum[V] = {};
    for (std::size_t r = 0; r < g.rows; ++r)
#pragma GCC unroll 4
      for (std::size_t v = 0; v < V; ++v) sum[v] = sum[v] + load<W>(g.data + r * g.row_stride + c + v * W);
#pragma GCC unroll 4
    for (std::size_t v = 0; v < V; ++v) store<W>(sums + c + v * W, sum[v]);
  }
  for (; c + W <= g.cols; c += W) {
    vec<W> sum = {};
    for (std::size_t r = 0; r < g.rows; ++r) sum = sum + load<W>(g.data + r * g.row_stride + c);
    store<W>(sums + c, sum);
  }
  for (; c < g.cols; ++c) {
    float sum = 0.0f;
    for (std::size_t r = 0; r < g.rows; ++r) sum += g.data[r * g.row_stride + c];
    sums[c] = sum;
  }
}

ATTENTION_SIMD_DISPATCH(column_sums_widest, column_sums_kernel, (const matrix_ref& g, float* sums), (g, sums))

}  // namespace

void sum_each_row(const float* x, std::size_t rows, std::size_t n, float* sums) {
  constexpr std::size_t group = 8;
  std::size_t r0 = 0;
  for (; r0 + group <= rows; r0 += group) {
    float sum[group] = {};
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t k = 0; k < group; ++k) sum[k] += x[(r0 + k) * n + j];
    for (std::size_t k = 0; k < group; ++k) sums[r0 + k] = sum[k];
  }
  for (; r0 < rows; ++r0) {
    float sum = 0.0f;
    for (std::size_t j = 0; j < n; ++j) sum += x[r0 * n + j];
    sums[r0] = sum;
  }
}

void sum_each_column(const matrix_ref& g, float* sums) {
  if (g.col_stride == 1) return column_sums_widest(g, sums);
  for (std::size_t c = 0; c < g.cols; ++c) {
    float sum = 0.0f;
    for (std::size_t r = 0; r < g.rows; ++r) sum += g.data[r * g.row_stride + c * g.col_stride];
    sums[c] = sum;
  }
}

}  // namespace attention
