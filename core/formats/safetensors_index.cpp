#include "formats/safetensors_index.hpp"

#include <set>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/json_fields.hpp"
#include "formats/json_text.hpp"
#include "formats/limits.hpp"
#include "formats/safetensors.hpp"

namespace attention {
namespace {

// Qwen2.5-72B's index is 80 KB; a header may name 4096 tensors of long names.
constexpr std::size_t index_bytes = 4u << 20;
constexpr const char* place = "model.safetensors.index.json";

// A file beside the index: a name, never a path out of the folder.
bool plain_file(const std::string& name) {
  if (name.empty() || name.size() > 255 || name[0] == '.') return false;
  for (char c : name)
    if (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return false;
  return true;
}

}  // namespace

safetensors_index read_safetensors_index(std::string_view text) {
  ATTENTION_CHECK(text.size() <= index_bytes, place, ": ", text.size(), " bytes, beyond the limit of ", index_bytes);
  const nlohmann::json index = read_json(text, place, index_bytes, limits::json_depth);
  ATTENTION_CHECK(index.is_object(), place, ": not a JSON object");
  ATTENTION_CHECK(index.contains("weight_map"), place, ": no weight_map (tensor name -> shard file)");
  const nlohmann::json& map = index.at("weight_map");
  ATTENTION_CHECK(map.is_object() && !map.empty(), place, ".weight_map: expected an object naming each tensor's shard");
  ATTENTION_CHECK(map.size() <= limits::models::tensors, place, ".weight_map: ", map.size(),
                  " tensors, beyond the limit of ", limits::models::tensors);
  safetensors_index result;
  std::set<std::string> shards;
  for (const auto& item : map.items()) {
    const std::string where = std::string(place) + ".weight_map." + tensor_place(item.key());
    ATTENTION_CHECK(item.value().is_string(), where, ": expected a shard's file name, got ", shown(item.value()));
    const std::string& file = item.value().get_ref<const std::string&>();
    ATTENTION_CHECK(plain_file(file), where, ": ", quote(file), " is not a file name in the folder");
    result.weight_map.emplace(item.key(), file);
    shards.insert(file);
  }
  result.shards.assign(shards.begin(), shards.end());
  return result;
}

}  // namespace attention
