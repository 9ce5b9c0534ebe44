// A Hugging Face folder on disk (models-v2.md section 1), for the command
// line and the tests: config.json (at most 1 MiB, read first), then
// model.safetensors or model.safetensors.index.json and each shard it
// lists, every one opened exactly once; all headers are planned before
// any weight is allocated, then each shard's data streams into place.
#pragma once

#include <string>

#include "models/family_config.hpp"
#include "models/loaded_model.hpp"

namespace attention {

// Whether a path names a directory (a folder, not a model file).
bool is_folder(const std::string& path);

// FOLDER/config.json's text: missing, a directory, unreadable or over
// 1 MiB is one line naming it.
std::string read_folder_config(const std::string& folder);

// The folder's model as config.json's family says (not gpt2, which the GPT
// reader opens with config.json as overrides).
loaded_model read_folder(const std::string& folder, const family_config& config);

}  // namespace attention
