#include "models/folder_plan.hpp"

#include <map>
#include <set>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/limits.hpp"
#include "models/loaded_model.hpp"
#include "models/plan_biases.hpp"
#include "tensor/tensor.hpp"

namespace attention {
namespace {

const char* index_name = "model.safetensors.index.json";

// Each name in at most one shard; with an index, every tensor where its weight_map says, and nothing more.
void check_shards(const std::vector<planned_shard>& shards, const safetensors_index* index) {
  std::map<std::string, const std::string*> shard_of;
  for (const planned_shard& s : shards)
    for (const safetensors_tensor& t : s.header.tensors) {
      const auto [at, fresh] = shard_of.emplace(t.name, &s.file);
      ATTENTION_CHECK(fresh, tensor_place(t.name), ": in two shards, ", quote(*at->second, 200), " and ", quote(s.file, 200));
    }
  if (index == nullptr) return;
  for (const auto& [name, file] : shard_of) {
    const auto listed = index->weight_map.find(name);
    ATTENTION_CHECK(listed != index->weight_map.end(), tensor_place(name), ": in ", quote(*file, 200), " but not in ",
                    index_name, "'s weight_map");
    ATTENTION_CHECK(listed->second == *file, tensor_place(name), ": in ", quote(*file, 200), ", but ", index_name,
                    " puts it in ", quote(listed->second, 200));
  }
  for (const auto& [name, file] : index->weight_map)
    ATTENTION_CHECK(shard_of.count(name) != 0, tensor_place(name), ": ", index_name, " puts it in ", quote(file, 200),
                    ", which does not hold it");
}

std::string architecture_name(const family_config& c) { return c.family == model_family::bert ? "bert" : c.model_type; }

}  // namespace

model_plan plan_folder(const family_config& c, std::vector<std::pair<std::string, safetensors_header>> files,
                        const safetensors_index* index) {
  model_plan plan;
  std::vector<std::string> names;  // every shard's: they decide a prefix
  for (auto& [file, header] : files) {
    for (const safetensors_tensor& t : header.tensors) names.push_back(t.name);
    plan.shards.push_back({file, std::move(header), {}});
  }
  check_shards(plan.shards, index);
  if (c.family == model_family::gpt2) {  // gpt-v1's GPT-2: its header is its config, config.json overrides
    std::vector<std::pair<std::string, safetensors_header>> checked;
    for (planned_shard& s : plan.shards) checked.emplace_back(s.file, std::move(s.header));
    return plan_model(std::move(checked), c.overrides);
  }
  plan.family = c;
  plan.facts = c.facts;
  const tensor_table table = family_tensors(c, names);
  std::map<std::string, const std::string*> found;  // canonical name -> the name the file used
  bool head = false, lm_head = false;
  std::uint64_t parameters = 0, skipped = 0;
  for (planned_shard& s : plan.shards)
    for (const safetensors_tensor& t : s.header.tensors) {
      planned_tensor entry{t};
      const auto alias = table.aliases.find(t.name);
      const std::string& key = alias == table.aliases.end() ? t.name : alias->second;
      const auto expected = table.tensors.find(key);
      if (expected == table.tensors.end()) {
        const bool layered = t.name.find("layers.") != std::string::npos || t.name.find("layer.") != std::string::npos;
        const std::optional<ignored_bound> bound = ignored_tensor_bound(c, t.name);
        ATTENTION_CHECK(bound.has_value(), tensor_place(t.name),
                        table.unknown_tensor_line ? std::string(": unknown tensor")
                                                  : ": a tensor the " + architecture_name(c) + " architecture does not use",
                        layered ? " (config." + table.layers_field + " is " + std::to_string(c.block.layers) + ")" : std::string());
        ATTENTION_CHECK(t.elements <= bound->numbers, tensor_place(t.name), ": ", t.elements,
                        " numbers, beyond the ", bound->numbers, " this skipped buffer may hold (config's ",
                        bound->why, ")");
        skipped += t.elements;  // each ≤ d² ≤ 2^26 and at most 4,096 a shard, 256 shards: no overflow
        ATTENTION_CHECK(skipped <= ignored_numbers_together(c), tensor_place(t.name), ": the skipped buffers reach ",
                        skipped, " numbers with it, beyond the ", ignored_numbers_together(c),
                        " the config's buffers hold together");
        s.tensors.push_back(entry);
        continue;
      }
      const expected_tensor& e = expected->second;
      const auto [at, fresh] = found.emplace(key, &t.name);
      ATTENTION_CHECK(fresh, tensor_place(t.name), ": given twice (as ", tensor_place(*at->second), " too)");
      check_weight_dtype(t);
      ATTENTION_CHECK(t.shape == e.shape, tensor_place(t.name), ": shape ", shape_text(t.shape), ", expected ",
                      shape_text(e.shape), " (config's ", e.why, ")");
      entry.used = true;
      entry.slot = e.slot;
      entry.layer = e.layer;
      s.tensors.push_back(entry);
      parameters += t.elements;
      head = head || e.need == tensor_need::head;
      lm_head = lm_head || e.slot == tensor_slot::lm_head;
    }
  for (const auto& [name, e] : table.tensors) {
    if (found.count(name) != 0) continue;
    const bool needed = e.need == tensor_need::required || (e.need == tensor_need::head && head);
    ATTENTION_CHECK(!needed, tensor_place(name), ": missing",
                    e.need == tensor_need::head ? " (the masked-LM head's other tensors are there)" : "");
  }
  check_parameter_limit(parameters, "model");
  // forward()'s block as the config describes it; a BERT file without its
  // masked-LM head's tensors (the table's `head` group) has no output head
  plan.spec = c.block;
  const bool headless = c.block.output == output_head::bert_transform && !head;
  if (headless) plan.spec.output = output_head::none;
  model_config& g = plan.config;
  g.vocab = c.block.vocab;
  g.length = c.block.length;
  g.embed = c.block.embed;
  g.heads = c.block.heads;
  g.layers = c.block.layers;
  g.mlp_width = c.block.mlp.width;
  g.activation = activation_kind::gelu;  // BERT's, the erf form; the Llama family's SwiGLU reads none
  plan.spec.biases = biases_of(plan);  // the config's and any optional ones given
  g.bias = plan.spec.biases.any_linear();
  g.norm = true;
  g.tied = has_unembedding(plan.spec) && !lm_head;
  g.parameters = parameters;
  return plan;
}

}  // namespace attention
