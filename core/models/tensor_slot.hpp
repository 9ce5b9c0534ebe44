// Where one tensor of a file goes in forward()'s weights (model_weights and
// model_layer in transformer/model.hpp), whichever family's name table
// named it, and how a weight matrix lies in the file.
#pragma once

namespace attention {

enum class tensor_slot {
  tok, pos, token_type, ln_e_weight, ln_e_bias,
  ln1_weight, ln1_bias,
  qkv, qkv_bias,  // GPT's c_attn: [q | k | v] in one matrix, each H heads of hs
  query, query_bias, key, key_bias, value, value_bias, proj, proj_bias,
  ln2_weight, ln2_bias, fc, fc_bias, fc_up, fc_up_bias, fc2, fc2_bias,
  ln_f_weight, ln_f_bias, transform, transform_bias, transform_ln_weight, transform_ln_bias, unembed_bias, lm_head,
};

// A layer's weight matrix as the file stores it: nn.Linear's [out, in],
// turned into [in, out] panels as it loads (the Llama family, BERT) or kept
// as it is (nanoGPT's files), or Conv1D's [in, out] (Hugging Face's GPT-2).
enum class weight_layout { linear_panels, linear_kept, conv1d };

}  // namespace attention
