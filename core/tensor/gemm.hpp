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

// A (rows, cols) matrix in memory: element (r, c) at data[r·row_stride + c·col_stride].
struct matrix_ref {
  const float* data = nullptr;
  std::size_t rows = 0, cols = 0;
  std::size_t row_stride = 0, col_stride = 0;

  // the transpose, the same memory
  matrix_ref t() const { return {data, cols, rows, col_stride, row_stride}; }
};

// A row-major (rows, cols) block with `stride` floats between rows (cols when packed).
inline matrix_ref row_major(const float* data, std::size_t rows, std::size_t cols, std::size_t stride) {
  return {data, rows, cols, stride, 1};
}
inline matrix_ref row_major(const float* data, std::size_t rows, std::size_t cols) {
  return row_major(data, rows, cols, cols);
}

// c (m, n) = a (m, k) @ b (k, n); c is row-major with ldc floats between rows
// and must not overlap a or b. k = 0 writes zeros. At simd_lanes() floats.
void gemm(const matrix_ref& a, const matrix_ref& b, float* c, std::size_t ldc);

}  // namespace attention
