// One row times a matrix: c (1, n) = a (1, k) @ b (k, n), the product of a
// new token's position with every weight when generation keeps a cache.
// Each weight is read once, where it lies (no packing copy, no padding of
// the row), F16 and BF16 widened in registers as they stream: the bound is
// the memory's bandwidth, not the arithmetic.
//
// Every c[j] is gemm's sum (gemm.hpp), bit for bit at every vector width:
// ((0 + a[0]·b[0][j]) + a[1]·b[1][j]) + …, in order over k, each product
// rounded before its add, no FMA. A vector's lanes are neighbouring
// outputs, never parts of one sum:
//   b stored [in, out] (Conv1D, the cache's values): lanes are neighbouring
//   columns of a row of b, the rows streamed in order;
//   b in panels of 16 columns (narrow.hpp): 16 neighbouring columns' sums
//   stay in registers over the whole of k, the weight read in one stream
//   in order (at wasm's 128 bits the other layouts ran at 16-20 GB/s where
//   one stream runs at the memory's 30: tests/bench/row_product_gbps.cpp);
//   b the transpose of W stored [out, in] (nn.Linear, lm_head, a tied
//   embedding, the cache's keys): lanes are neighbouring rows of W, each
//   walking its own row in order, 4 rows' next 4 numbers transposed in
//   registers.
#pragma once

#include <cstddef>

#include "tensor/gemm.hpp"
#include "tensor/narrow.hpp"

namespace attention {

// Whether row_product reads b where it lies: its rows or its columns contiguous, or in panels.
inline bool row_product_reads(const matrix_ref& b) {
  return b.panel_stride != 0 ? b.col_stride == 1 && b.row_stride == panel_columns
                             : b.col_stride == 1 || b.row_stride == 1;
}

// a's first row as k contiguous floats: where it lies, or copied into a
// buffer kept per thread (valid until the next call on this thread).
const float* contiguous_row(const matrix_ref& a);

// c (n floats) = a (k floats, contiguous) @ b (k, n), row_product_reads(b). At simd_lanes().
void row_product(const float* a, const matrix_ref& b, float* c);

// gemm() (gemm.hpp), but one row of a (a new token's position, with a
// key/value cache) streams b once through row_product: the model's products
// call this, so the playground's module, which never has one row, does not
// link the one-row kernels.
void stream_gemm(const matrix_ref& a, const matrix_ref& b, float* c, std::size_t ldc);

// c (n) = a (k) @ W (k, n) for W stored [in, out] or in panels, or (transposed) a @ Wᵀ
// for W (n, k) stored [out, in]; any dtype.
void row_product(const float* a, const narrow_matrix& w, bool transposed, float* c);

}  // namespace attention
