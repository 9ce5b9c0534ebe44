// What flows back through one head's three projections into what the head
// read: d_read += (d q Wqᵀ + d k Wkᵀ) + d v Wvᵀ, in one pass. Each of the
// three is its own sum in order over the head's hs columns (PyTorch's
// dX = dY W), added as autograd adds them; three products of 16-long sums
// and a pass adding them cost more than the sums themselves.
#pragma once

#include <cstddef>

namespace attention {

// d q, d k, d v: (n, hs) each, rows `stride` floats apart; Wq, Wk, Wv:
// (d, hs) row-major, as [in, out]; d_read: (n, d), added to.
struct head_gradients_in {
  const float *d_q, *d_k, *d_v;
  std::size_t stride;
  const float *w_q, *w_k, *w_v;
};
void add_through_head(const head_gradients_in& in, std::size_t n, std::size_t d, std::size_t hs, float* d_read);

}  // namespace attention
