// The MLP's activations of gpt-v1.md and models-v2.md, as PyTorch's CPU
// kernels compute them in float32: ReLU (the lecture's), GELU exact (erf:
// BERT's), GELU's tanh approximation (GPT-2's) and SiLU (the Llama family's
// gate, transformer/swiglu.hpp), with their derivatives for the backward pass.
#pragma once

#include <string>

#include "tensor/tensor.hpp"

namespace attention {

enum class activation_kind { relu, gelu, gelu_tanh, silu };

// "relu", "gelu", "gelu_tanh", as training files name them; "silu".
const char* activation_name(activation_kind kind);

// kept, when given: what the backward pass may reuse (for GELU, the costly
// 1 + erf(x/√2) of each entry; empty for the others).
tensor3 activate(const tensor3& x, activation_kind kind, tensor3* kept = nullptr);

// d x from d y, given the activation's input x (and what activate kept of
// it, or it is computed again).
tensor3 activation_backward(const tensor3& d_y, const tensor3& x, activation_kind kind, const tensor3* kept = nullptr);

}  // namespace attention
