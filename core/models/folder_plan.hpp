// A Hugging Face folder's headers read as its family's model, before one
// weight is allocated: every tensor of every shard named in the family's
// table (or one of the spec's ignored buffers, or refused by name), its
// dtype, its shape against config.json, nothing missing, no tensor in two
// shards, the index's weight_map true to the shards, the parameter limit;
// and forward()'s model_spec from the config.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "formats/safetensors.hpp"
#include "formats/safetensors_index.hpp"
#include "models/family_config.hpp"
#include "models/folder_tensors.hpp"
#include "models/model_plan.hpp"
#include "transformer/model.hpp"

namespace attention {

struct folder_entry {
  safetensors_tensor file;
  bool used = false;  // false: an ignored buffer, read past
  folder_slot slot = folder_slot::tok;
  std::size_t layer = 0;
};

struct folder_shard {
  std::string file;                   // "model.safetensors" or a shard's name
  safetensors_header header;          // its tensors in file order
  std::vector<folder_entry> tensors;  // one per header tensor, in file order
};

struct folder_plan {
  family_config config;
  model_spec spec;         // what forward() reads
  model_config summary;    // gpt-v1's view (V, Tmax, d, heads, layers, MLP width, tied, parameters) for runs and limits
  bool masked_lm = false;  // BERT with its masked-LM head
  bool logits = true;      // the model unembeds (all but a BERT without its head)
  std::vector<folder_shard> shards;
};

// shards: each file's name and checked header, in the order they will be
// fed; index: the folder's model.safetensors.index.json, or null for one
// model.safetensors. Throws one line naming the tensor (and its shards).
folder_plan plan_folder(const family_config& config, std::vector<std::pair<std::string, safetensors_header>> shards,
                        const safetensors_index* index);

}  // namespace attention
