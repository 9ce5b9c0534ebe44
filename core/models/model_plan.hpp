// One model's plan, whatever it came from: every tensor of every file in
// file order with the slot it goes to (or read past), forward()'s block
// description and gpt-v1's summary of the config. Two readers make it, one
// per way a model says what it is, and one loader (model_loader.hpp)
// allocates from it:
// - plan_model, here: a model file's header read as a GPT (gpt-v1.md
//   section 2). A GPT file has no config.json (or one that only overrides):
//   its header is its config, so the sizes are read off the tensors'
//   shapes as each is checked against the others and the metadata. Its
//   names are GPT's table (nanoGPT's and Hugging Face's) below.
// - plan_folder (folder_plan.hpp): a folder's shards checked against the
//   table its config.json gives (folder_tensors.hpp).
// Both check every size before one weight is allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/safetensors.hpp"
#include "models/family_config.hpp"
#include "models/model_config.hpp"
#include "models/tensor_slot.hpp"
#include "transformer/model.hpp"

namespace attention {

struct planned_tensor {
  safetensors_tensor file;  // its name, dtype, shape and bytes
  bool used = false;        // false: a buffer the model skips, read past
  tensor_slot slot = tensor_slot::tok;
  std::size_t layer = 0;    // a block's tensor: which block
  weight_layout layout = weight_layout::linear_panels;  // a layer's weight matrix: as the file lays it out
};

struct planned_shard {
  std::string file;                    // a folder's "model.safetensors" or a shard's name; "" for a lone model file
  safetensors_header header;           // its tensors in file order
  std::vector<planned_tensor> tensors;  // one per header tensor, in file order
};

struct model_plan {
  model_config config;     // gpt-v1's view: a file's own, a folder's summary
  model_spec spec;         // what forward() reads
  // config.json's family when it describes the model beyond gpt-v1 (a
  // folder of the Llama family, BERT, DistilBERT); none for a GPT.
  std::optional<family_config> family;
  family_facts facts;  // what the page and the messages call it: the family's, GPT-2's for a GPT
  std::vector<planned_shard> shards;  // in the order they will be fed
};

// forward()'s block description of a file's config: gpt-v1's block
// (transformer/block.hpp's gpt_block), its MLP as wide as c_fc's outputs.
inline model_spec spec_of(const model_config& c) {
  return gpt_block(c.vocab, c.length, c.embed, c.heads, c.layers, c.mlp_width, c.norm, c.bias, c.activation);
}

// What both readers check of every tensor the model reads, and of their
// sum (`place` names the sum: "header", "model"), in one line each.
void check_weight_dtype(const safetensors_tensor& t);
void check_parameter_limit(std::uint64_t parameters, const char* place);

// Checks a header as a GPT, in torch_model.py's order, and says where every
// tensor goes. Throws one line naming the tensor or the metadata field.
model_plan plan_model(const safetensors_header& header, const model_overrides& overrides = {});

// A GPT-2 folder's shards (each file's name and header), read as one GPT
// over the union of their tensors; the shards checked against each other
// and an index by the caller (plan_folder).
model_plan plan_model(std::vector<std::pair<std::string, safetensors_header>> shards,
                      const model_overrides& overrides);

}  // namespace attention
