#include "cli/folder_commands.hpp"

#include "cli/lens_command.hpp"
#include "lens/lens.hpp"
#include "cli/model_commands.hpp"
#include "errors/check.hpp"
#include "models/folder_read.hpp"
#include "models/folder_trace.hpp"
#include "models/hf_config.hpp"
#include "models/model_stream.hpp"
#include "models/model_trace.hpp"

namespace attention {

void run_folder_command(const arguments& a, std::ostream& out) {
  ATTENTION_CHECK(a.option("--config") == nullptr, "--config: a folder has its own config.json");
  std::string folder = a.path;
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  const std::string name = model_name(folder);
  const std::string text = read_folder_config(folder);
  const family_config config = read_family_config(text);
  if (config.family == model_family::gpt2) {  // gpt-v1's GPT-2, its config.json as overrides
    ATTENTION_CHECK(a.command == "lens" || a.option("--position") == nullptr, "--position: a gpt2 folder's trace is gpt-v1's (the last position)");
    run_gpt_command(a, read_model_file(folder + "/model.safetensors", read_hf_config(text)), name, out);
    return;
  }
  ATTENTION_CHECK(a.option("--text") == nullptr,
                  "--text: the core has no tokenizer for a folder (the page reads its tokenizer.json); give --tokens");
  const loaded_model model = read_folder(folder, config);
  if (a.command == "validate") {
    out << folder_summary(model, name) << "\n";
    return;
  }
  const std::vector<std::int64_t> tokens = tokens_of(*a.option("--tokens"));
  // a lens's own work (an unknown --what is named by run_lens)
  const std::string* what = a.option("--what");
  check_config_tokens(model, tokens, "--tokens", a.command == "lens" && what ? lens_work(*what) : work_kind::run);
  if (a.command == "lens") {  // the request's own checks follow in run_lens
    write_lens(a, model, out);
    return;
  }
  check_model_trace(model.config, tokens.size(), "--tokens");  // before the forward: what it would print
  if (a.command == "model") {
    std::optional<std::size_t> position;
    if (const std::string* p = a.option("--position")) position = *index_option(*p);
    const std::size_t at = trace_position(position, tokens.size());
    write_folder_trace(out, model, run_forward(model, tokens), at);
    return;
  }
  const std::size_t layer = *index_option(*a.option("--layer")), head = *index_option(*a.option("--head"));
  ATTENTION_CHECK(layer < config.layers, "--layer: ", layer, " is outside [0, ", config.layers, ")");
  ATTENTION_CHECK(head < config.heads, "--head: ", head, " is outside [0, ", config.heads, ")");
  check_head_tokens(tokens.size(), "--tokens");
  out << model_head_scenario(model, run_forward(model, tokens), layer, head, name, {}, "--tokens") << "\n";
}

}  // namespace attention
