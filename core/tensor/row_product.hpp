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
//   b the transpose of W stored [out, in] (nn.Linear, lm_head, a tied
//   embedding, the cache's keys): lanes are neighbouring rows of W, each
//   walking its own row in order, 4 rows' next 4 numbers transposed in
//   registers.
#pragma once

#include <cstddef>

#include "tensor/gemm.hpp"
#include "tensor/narrow.hpp"

namespace attention {

// Whether row_product reads b where it lies: its rows or its columns contiguous.
inline bool row_product_reads(const matrix_ref& b) { return b.col_stride == 1 || b.row_stride == 1; }

// a's first row as k contiguous floats: where it lies, or copied into a
// buffer kept per thread (valid until the next call on this thread).
const float* contiguous_row(const matrix_ref& a);

// c (n floats) = a (k floats, contiguous) @ b (k, n), row_product_reads(b). At simd_lanes().
void row_product(const float* a, const matrix_ref& b, float* c);

// c (n) = a (k) @ W (k, n) for W stored [in, out], or (transposed) a @ Wᵀ
// for W (n, k) stored [out, in]; any dtype.
void row_product(const float* a, const narrow_matrix& w, bool transposed, float* c);

}  // namespace attention
