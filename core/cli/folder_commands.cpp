#include "cli/folder_commands.hpp"

#include <string>

#include "errors/check.hpp"
#include "models/folder_read.hpp"
#include "models/hf_config.hpp"
#include "models/model_stream.hpp"

namespace attention {

loaded_model read_command_folder(const arguments& a) {
  ATTENTION_CHECK(a.option("--config") == nullptr, "--config: a folder has its own config.json");
  std::string folder = a.path;
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  const std::string text = read_folder_config(folder);
  const family_config config = read_family_config(text);
  if (config.family == model_family::gpt2) {  // gpt-v1's GPT-2, its config.json as overrides
    ATTENTION_CHECK(a.command == "lens" || a.option("--position") == nullptr,
                    "--position: a gpt2 folder's trace is gpt-v1's (the last position)");
    return read_model_file(folder + "/model.safetensors", read_hf_config(text));
  }
  ATTENTION_CHECK(a.option("--text") == nullptr,
                  "--text: the core has no tokenizer for a folder (the page reads its tokenizer.json); give --tokens");
  return read_folder(folder, config);
}

}  // namespace attention
