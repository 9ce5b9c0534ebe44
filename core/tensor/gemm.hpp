// The one matrix product every other product runs on: c = a @ b for
// matrices read through strides, so a transpose (kᵀ, Wᵀ of a weight stored
// [out, in], the rows of xᵀ) is a view, never a copy. Cache-blocked and
// register-blocked, at the widest vector width of the machine.
//
// Every c[i][j] is the sum PyTorch's float32 `@` forms here (netlib BLAS):
// ((0 + a[i][0]·b[0][j]) + a[i][1]·b[1][j]) + …, in order over the inner
// index, each product rounded before its add, no FMA. A vector holds
// neighbouring outputs, never parts of one sum, so the bits are the same at
// every width, natively and in wasm, and the same as a plain loop's.
#pragma once

#include <cstddef>

namespace attention {

// A (rows, cols) matrix in memory: element (r, c) at data[r·row_stride + c·col_stride],
// or, for a weight kept in panels of panel_columns columns (narrow.hpp; panel_stride
// > 0), at data[r·row_stride + (c / panel_columns)·panel_stride + (c % panel_columns)·col_stride].
constexpr std::size_t panel_columns = 16;
struct matrix_ref {
  const float* data = nullptr;
  std::size_t rows = 0, cols = 0;
  std::size_t row_stride = 0, col_stride = 0;
  std::size_t panel_stride = 0;  // 0: no panels

  // the transpose, the same memory (not of a panelled weight)
  matrix_ref t() const { return {data, cols, rows, col_stride, row_stride}; }
};

// A row-major (rows, cols) block with `stride` floats between rows (cols when packed).
inline matrix_ref row_major(const float* data, std::size_t rows, std::size_t cols, std::size_t stride) {
  return {data, rows, cols, stride, 1};
}
inline matrix_ref row_major(const float* data, std::size_t rows, std::size_t cols) {
  return row_major(data, rows, cols, cols);
}
// A (rows, cols) weight kept in panels: panel J is columns [16·J, 16·J + 16)
// as a (rows, 16) row-major block, the panels one after another (the last
// padded to 16 columns).
inline matrix_ref in_panels(const float* data, std::size_t rows, std::size_t cols) {
  return {data, rows, cols, panel_columns, 1, panel_columns * rows};
}

// c (m, n) = a (m, k) @ b (k, n); c is row-major with ldc floats between rows
// and must not overlap a or b. k = 0 writes zeros. At simd_lanes() floats.
void gemm(const matrix_ref& a, const matrix_ref& b, float* c, std::size_t ldc);

// What a product of causal attention may skip. An exact zero of a (a
// masked weight, or its gradient) adds +0 to a sum that is never −0 (it
// starts at +0, and x + (−x) is +0), so leaving out zeros at either end of
// a sum changes no bit while the other operand is finite; outputs that the
// mask overwrites, or that nothing reads, need not be computed.
//   lower_c: c (T, T) is only read on and below its diagonal (q kᵀ, d w);
//   lower_a: a (m, T) is 0 above its diagonal, a[i][p > i] (w @ v);
//   upper_a: a (m, T) is 0 below its diagonal, a[i][p < i] (wᵀ @ d out).
// A part left out is a whole tile of registers at a time, so c above the
// diagonal may still be written, with the product's own values.
enum class causal_part { none, lower_c, lower_a, upper_a };

// One product per sequence: for s < count, c + s·c_step = (a + s·a_step) @
// (b + s·b_step), a, b and c as above. One call for a batch's sequences,
// which are too small for a call each.
struct gemm_batch {
  std::size_t count = 1, a_step = 0, b_step = 0, c_step = 0;
  causal_part part = causal_part::none;
};
void gemm(const matrix_ref& a, const matrix_ref& b, float* c, std::size_t ldc, const gemm_batch& batch);

}  // namespace attention
