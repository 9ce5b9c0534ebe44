// Sums along a matrix's rows or down its columns, each in order from +0 as
// a plain loop adds (PyTorch's and the old loops' bits), but many at once:
// a row sum is a chain of dependent adds, so eight rows run side by side;
// column sums run on vectors, one column per lane.
#pragma once

#include <cstddef>

#include "tensor/gemm.hpp"

namespace attention {

// sums[r] = Σ_j x[r·n + j], in order over j.
void sum_each_row(const float* x, std::size_t rows, std::size_t n, float* sums);

// sums[c] = Σ_r g(r, c), in order over r: a bias's gradient.
void sum_each_column(const matrix_ref& g, float* sums);

}  // namespace attention
