#include "lens/decoder.hpp"

#include "errors/check.hpp"
#include "transformer/norm_check.hpp"
#include "transformer/rms_norm.hpp"

namespace attention {

void check_decoder(const loaded_model& model, const char* lens) {
  ATTENTION_CHECK(model.spec.causal(), lens,
                  ": BERT is an encoder (no causal mask, a masked-LM head); it has the scores and ablate lenses only");
  ATTENTION_CHECK(has_unembedding(model.spec), lens, ": the model has no unembedding");
}

bool has_final_norm(const loaded_model& model) { return model.spec.pre_norm(); }

tensor3 final_norm(const tensor3& x, const loaded_model& model) {
  if (!has_final_norm(model)) return x;
  const model_spec& s = model.spec;
  const bool rms = s.norm.kind == norm_kind::rms;
  const norm_pass p = rms ? rms_norm(x, model.weights.ln_f, s.norm.eps) : layer_norm(x, model.weights.ln_f, s.norm.eps);
  check_norm_rows(p, rms, no_layer, "ln_f");  // a stream the forward's ln_1 passed passes too; checked all the same
  return p.out;
}

std::vector<float> unembedding_row(const loaded_model& model, std::size_t t) {
  std::vector<float> u(model.spec.embed);
  model.weights.unembedding().column(t, u.data());
  return u;
}

}  // namespace attention
