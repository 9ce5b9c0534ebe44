// The Llama family's gated MLP (models-v2.md section 2), SwiGLU:
//   down(silu(gate(x)) · up(x)),  silu(x) = x · sigmoid(x)
// forward() makes gate(x) with the layer's fc and up(x) with its fc_up, and
// down(…) with its fc2; here is the gate: each entry's SiLU rounded to
// float32, then its product with up's entry, as torch_hf.py's
// F.silu(gate) * up.
#pragma once

#include "tensor/tensor.hpp"

namespace attention {

// gate, up: (B, T, I) -> (B, T, I)
tensor3 swiglu(const tensor3& gate, const tensor3& up);

}  // namespace attention
