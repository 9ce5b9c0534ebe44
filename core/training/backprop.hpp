// The gradient of the mean cross-entropy with respect to every weight, by
// hand, backwards through what forward() kept: the unembedding, each layer's
// projection and residual, each head's weighted sum, causal softmax, scaled
// scores and projections, and the embedding gather. What loss.backward()
// leaves in each parameter's .grad.
#pragma once

#include <cstdint>
#include <vector>

#include "training/model.hpp"

namespace attention {

// grads has model_weights' shapes; targets (B, T) with -100 ignored.
model_weights gradients(const model_weights& w, const model_spec& spec, const forward_pass& pass,
                        const std::vector<std::int64_t>& targets);

}  // namespace attention
