#include "cli/model_commands.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/folder_commands.hpp"
#include "cli/lens_command.hpp"
#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/limits.hpp"
#include "formats/regular_file.hpp"
#include "lens/lens.hpp"
#include "models/folder_read.hpp"
#include "models/folder_trace.hpp"
#include "models/hf_config.hpp"
#include "models/model_stream.hpp"
#include "models/model_trace.hpp"
#include "models/vocabulary.hpp"

namespace attention {
namespace {

// Standard input streams as far as its header says, up to a limit; a file
// streams in chunks from its known size.
loaded_model open_model(const std::string& path, std::string_view first, std::istream& in,
                     const model_overrides& overrides) {
  if (path == "-") return read_model_stream(in, first, limits::models::standard_input, overrides);
  return read_model_file(path, overrides);
}

model_overrides overrides_of(const arguments& a) {
  const std::string* path = a.option("--config");
  if (path == nullptr) return {};
  regular_file_size(*path, "--config: " + quote(*path), "a config.json");  // a FIFO would block the open below
  std::ifstream file(*path, std::ios::binary);
  ATTENTION_CHECK(file.is_open(), quote(*path), ": cannot open");
  std::string text;
  char buffer[1 << 16];
  while (file.read(buffer, sizeof buffer) || file.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(file.gcount()));
    ATTENTION_CHECK(text.size() <= (1u << 20), "config: more than 1048576 bytes");  // GPT-2's is 665
  }
  return read_hf_config(text);
}

}  // namespace

std::vector<std::int64_t> tokens_of(const std::string& text) {
  std::vector<std::int64_t> ids;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const bool minus = !item.empty() && item[0] == '-';
    bool digits = item.size() > (minus ? 1u : 0u);
    for (std::size_t i = minus ? 1 : 0; i < item.size(); ++i) digits = digits && item[i] >= '0' && item[i] <= '9';
    ATTENTION_CHECK(digits, "--tokens: ", quote(text), " is not a comma-separated list of integers");
    ATTENTION_CHECK(item.size() <= 18, "--tokens[", ids.size(), "]: ", quote(item), " is outside the vocabulary");
    ids.push_back(std::stoll(item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return ids;
}

bool looks_like_model(const std::string& path, std::string_view first) {
  const std::string suffix = ".safetensors";
  if (path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) return true;
  return first.substr(0, 8).find('\0') != std::string_view::npos;
}

std::string command_name(const std::string& path) {
  return path == "-" ? "model" : model_name(without_trailing_slashes(path));
}

void run_model_command(const arguments& a, std::string_view first, std::istream& in, std::ostream& out) {
  run_loaded_command(a, read_command_model(a, first, in), command_name(a.path), out);
}

loaded_model read_command_model(const arguments& a, std::string_view first, std::istream& in) {
  if (a.path != "-" && is_folder(a.path)) return read_command_folder(a);
  ATTENTION_CHECK(a.command == "lens" || a.option("--position") == nullptr,
                  "--position: only a model folder takes one (models-v2.md)");
  const model_overrides overrides = overrides_of(a);
  return open_model(a.path, first, in, overrides);
}

void run_loaded_command(const arguments& a, const loaded_model& model, const std::string& name, std::ostream& out) {
  if (a.command == "validate") {
    out << validate_line(model, name) << "\n";
    return;
  }
  if (a.command == "lens") {  // a config.json's own checks first; the request's follow in run_lens
    check_config_tokens(model, tokens_of(*a.option("--tokens")), "--tokens", lens_work(*a.option("--what")));
    write_lens(a, model, out);
    return;
  }
  const std::string* text = a.option("--text");
  const std::vector<std::int64_t> tokens =
      text ? encode_text(model.config, *text, "--text") : tokens_of(*a.option("--tokens"));
  const std::string place = text ? "--text" : "--tokens";
  check_config_tokens(model, tokens, place);
  check_tokens(model, tokens, place);
  // before the forward: what the trace would print (a folder's head is refused where its trace would be)
  if (a.command == "model" || model.trace() == trace_format::folder) check_model_trace(model.config, tokens.size(), place);
  if (a.command == "model") {
    std::optional<std::size_t> position;
    if (const std::string* p = a.option("--position")) position = *index_option(*p);
    const std::size_t at = trace_position(position, tokens.size());
    write_trace(out, model, run_forward(model, tokens), at);
    return;
  }
  // head: the layer and the head are checked before the forward
  const std::size_t layer = *index_option(*a.option("--layer")), head = *index_option(*a.option("--head"));
  ATTENTION_CHECK(layer < model.config.layers, "--layer: ", layer, " is outside [0, ", model.config.layers, ")");
  ATTENTION_CHECK(head < model.config.heads, "--head: ", head, " is outside [0, ", model.config.heads, ")");
  check_head_tokens(tokens.size(), place);
  out << model_head_scenario(model, run_forward(model, tokens), layer, head, name, {}, place) << "\n";
}

}  // namespace attention
