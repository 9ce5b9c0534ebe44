// What the logit lens and direct logit attribution (lens-v1.md sections 3
// and 4) read of a decoder beyond its forward: its final norm, applied to
// any residual stream, and one token's unembedding row. BERT (an encoder
// with a masked-LM head) has neither lens: it is refused in one line.
#pragma once

#include <cstddef>
#include <vector>

#include "models/loaded_model.hpp"
#include "tensor/tensor.hpp"

namespace attention {

// Throws one line naming the lens when the model is not a decoder with an unembedding.
void check_decoder(const loaded_model& model, const char* lens);

// Whether the model has a final norm (ln_f, or the Llama family's model.norm).
bool has_final_norm(const loaded_model& model);

// The final norm of x, (1, T, d) -> (1, T, d), as forward() applies it
// (LayerNorm or RMSNorm with the model's eps); x itself without one.
tensor3 final_norm(const tensor3& x, const loaded_model& model);

// Token t's unembedding row u, (d,): column t of the model's unembedding
// (model_weights::unembedding), widened when the file keeps it narrow.
std::vector<float> unembedding_row(const loaded_model& model, std::size_t t);

}  // namespace attention
