// Products with a narrow weight (narrow.hpp): panels of the weight widened
// into a scratch that stays in cache, each panel's outputs made by the one
// gemm() (gemm.hpp). Every output is still its own sum, in order over the
// whole inner index, a multiply then an add, from +0: a panel holds whole
// sums of some outputs, never part of a sum. So the bits are those of the
// same product on the fully widened float matrix, at every width, natively
// and in wasm, while the weight stays two bytes a number.
#pragma once

#include <cstddef>

#include "tensor/gemm.hpp"
#include "tensor/narrow.hpp"
#include "tensor/tensor.hpp"

namespace attention {

// c (m, n) = a (m, k) @ Wᵀ, W (n, k) stored [out, in] as nn.Linear and an
// embedding keep it; c row-major with ldc floats between rows.
void gemm_narrow_transposed(const matrix_ref& a, const narrow_matrix& w, float* c, std::size_t ldc);

// c (m, n) = a (m, k) @ W, W (k, n) stored [in, out] as GPT-2's Conv1D keeps it.
void gemm_narrow(const matrix_ref& a, const narrow_matrix& w, float* c, std::size_t ldc);

// x @ Wᵀ: (B, T, C) @ (d, C)ᵀ -> (B, T, d); matmul.hpp's project_transposed
// on widened(W), bit for bit.
tensor3 project_transposed(const tensor3& x, const narrow_matrix& w);

// x @ W: (B, T, C) @ (C, d) -> (B, T, d); matmul.hpp's project on widened(W).
tensor3 project(const tensor3& x, const narrow_matrix& w);

// How many outputs one panel widens for an inner size k (a multiple of 32,
// every width's panel of columns; at least 32): tests cross its edges.
std::size_t narrow_panel_outputs(std::size_t k);

}  // namespace attention
