#include "cli/folder_commands.hpp"

#include <string>

#include "errors/check.hpp"
#include "models/folder_read.hpp"

namespace attention {

std::string without_trailing_slashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

loaded_model read_command_folder(const arguments& a) {
  ATTENTION_CHECK(a.option("--config") == nullptr, "--config: a folder has its own config.json");
  const std::string folder = without_trailing_slashes(a.path);
  loaded_model model = read_folder(folder, read_family_config(read_folder_config(folder)));
  // what the model's facts rule out of the request
  ATTENTION_CHECK(model.trace() == trace_format::folder || a.command == "lens" || a.option("--position") == nullptr,
                  "--position: a gpt2 folder's trace is gpt-v1's (the last position)");
  ATTENTION_CHECK(model.text() == text_tokenizer::core || a.option("--text") == nullptr,
                  "--text: the core has no tokenizer for a folder (the page reads its tokenizer.json); give --tokens");
  return model;
}

}  // namespace attention
