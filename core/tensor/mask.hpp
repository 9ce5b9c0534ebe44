// Which positions a query may attend to. keep(i, j) = 1 lets query i read
// position j of the context; 0 hides it (-inf before softmax).
#pragma once

#include <cstddef>

#include "tensor/tensor.hpp"

namespace attention {

struct mask_spec {
  enum class kind { causal, none, custom };
  kind type = kind::causal;
  tensor2 custom;  // (Tq, Tkv) of 0/1, only for kind::custom
};

// torch.tril(torch.ones(Tq, Tkv)): row i keeps positions 0..i
tensor2 causal_mask(std::size_t Tq, std::size_t Tkv);

// The (Tq, Tkv) keep matrix a spec stands for.
tensor2 keep_matrix(const mask_spec& spec, std::size_t Tq, std::size_t Tkv);

// scaled.masked_fill(keep == 0, -inf): (B, Tq, Tkv) -> (B, Tq, Tkv)
tensor3 mask_fill(const tensor3& scaled, const tensor2& keep);

// The other way to be causal: softmax first, then zero the hidden weights
// and renormalize each row (the sun-rises notebook). Equals softmax(mask_fill).
tensor3 mask_after_softmax(const tensor3& weights, const tensor2& keep);

}  // namespace attention
