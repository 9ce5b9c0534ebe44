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

// shards: each file's name and checked header, in the order they will be
// fed; index: the folder's model.safetensors.index.json, or null for one
// model.safetensors. Throws one line naming the tensor (and its shards).
// A gpt2 config's folder is read as a model file's GPT over its shards,
// config.json its overrides (plan_model).
model_plan plan_folder(const family_config& config, std::vector<std::pair<std::string, safetensors_header>> shards,
                        const safetensors_index* index);

}  // namespace attention
