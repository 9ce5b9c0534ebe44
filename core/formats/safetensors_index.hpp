// A sharded model's model.safetensors.index.json (Hugging Face's layout):
// "weight_map" names, for every tensor, the shard file in the same folder
// that holds it; "metadata" is the writer's own. Read and checked here:
// JSON within its limit, each shard a plain file name in the folder (no
// path, nothing hidden), at most limits::models::tensors tensors. The
// folder reader then opens every shard listed exactly once.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace attention {

struct safetensors_index {
  std::map<std::string, std::string> weight_map;  // tensor name -> shard file
  std::vector<std::string> shards;                // the distinct shard files, sorted
};

safetensors_index read_safetensors_index(std::string_view text);

}  // namespace attention
