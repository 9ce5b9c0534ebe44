#include "lens/decoder.hpp"

#include "errors/check.hpp"
#include "transformer/norm_check.hpp"

namespace attention {

void check_decoder(const loaded_model& model, const char* lens) {
  ATTENTION_CHECK(model.spec.causal(), lens,
                  ": BERT is an encoder (no causal mask, a masked-LM head); it has the scores and ablate lenses only");
  ATTENTION_CHECK(has_unembedding(model.spec), lens, ": the model has no unembedding");
}

bool has_final_norm(const loaded_model& model) { return model.spec.pre_norm(); }

tensor3 final_norm(const tensor3& x, const loaded_model& model) {
  if (!has_final_norm(model)) return x;
  // a stream the forward's ln_1 passed passes too; checked all the same
  return norm_of(x, model.weights.ln_f, model.spec, no_layer, "ln_f").out;
}

std::vector<float> unembedding_row(const loaded_model& model, std::size_t t) {
  std::vector<float> u(model.spec.embed);
  model.weights.unembedding().column(t, u.data());
  return u;
}

}  // namespace attention
