// The gradient of the mean cross-entropy with respect to every weight, by
// hand, backwards through what forward() kept: the unembedding and ln_f, each
// layer's MLP, ln2, projection and residual, each head's weighted sum, causal
// softmax, scaled scores and projections, ln1, and the embedding gather. What
// loss.backward() leaves in each parameter's .grad (zeros where it leaves none).
#pragma once

#include <cstdint>
#include <vector>

#include "training/loss.hpp"
#include "transformer/model.hpp"

namespace attention {

// grads has model_weights' shapes; targets (B, T) with -100 ignored. exps:
// the loss's exps_of(pass.logits) when the caller has them, else computed.
model_weights gradients(const model_weights& w, const model_spec& spec, const forward_pass& pass,
                        const std::vector<std::int64_t>& targets, const logit_exps* exps = nullptr);

}  // namespace attention
