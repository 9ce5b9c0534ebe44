// attention-bench --narrow: products with narrow (BF16, F16) weights beside
// the same products on the widened float weights (tensor/narrow_matmul.hpp).
#pragma once

namespace bench {

// Prints JSON: per shape and dtype the GFLOP/s of both, and the bytes each
// weight takes. Returns 0, or 1 when a narrow product's bits differ.
int narrow_products();

}  // namespace bench
