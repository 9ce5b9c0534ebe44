// An 8×8 block of floats transposed in registers (24 shuffles): for code
// that must read along one axis and write along the other, eight floats
// at a time instead of one (gemm's packing of a transposed operand,
// LayerNorm's rows side by side). Moves bits only.
#pragma once

#include "tensor/simd.hpp"

namespace attention {

typedef float floats8 __attribute__((vector_size(32)));

ATTENTION_INLINE floats8 load8(const float* at) {
  floats8 v;
  __builtin_memcpy(&v, at, sizeof v);
  return v;
}
ATTENTION_INLINE void store8(float* at, const floats8& v) { __builtin_memcpy(at, &v, sizeof v); }

// v[k] is row k; out[q] is column q.
ATTENTION_INLINE void transpose8(const floats8 v[8], floats8 out[8]) {
  floats8 t[8], u[8];
  for (int k = 0; k < 8; k += 2) {  // pairs of rows interleaved
    t[k] = __builtin_shufflevector(v[k], v[k + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    t[k + 1] = __builtin_shufflevector(v[k], v[k + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
  for (int k = 0; k < 8; k += 4)  // then pairs of pairs
    for (int h = 0; h < 2; ++h) {
      u[k + 2 * h] = __builtin_shufflevector(t[k + h], t[k + h + 2], 0, 1, 8, 9, 4, 5, 12, 13);
      u[k + 2 * h + 1] = __builtin_shufflevector(t[k + h], t[k + h + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    }
  for (int q = 0; q < 4; ++q) {  // then the halves of rows 0-3 and 4-7
    out[q] = __builtin_shufflevector(u[q], u[q + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    out[q + 4] = __builtin_shufflevector(u[q], u[q + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}

}  // namespace attention
