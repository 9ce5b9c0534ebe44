#include "models/model_plan.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/json_text.hpp"
#include "formats/limits.hpp"
#include "models/plan_biases.hpp"

namespace attention {
namespace {

// GPT's name table: a block's tensors by their name after "h.N." (nanoGPT's
// and Hugging Face's alike), then the model's own; Hugging Face's buffers
// are read past. A layer's weight matrices lie as the file's layout says.
struct gpt_name {
  tensor_slot slot;
  bool used = true;
};

const std::map<std::string, gpt_name>& block_slots() {
  static const std::map<std::string, gpt_name> slots = {
      {"ln_1.weight", {tensor_slot::ln1_weight}},     {"ln_1.bias", {tensor_slot::ln1_bias}},
      {"attn.c_attn.weight", {tensor_slot::qkv}},     {"attn.c_attn.bias", {tensor_slot::qkv_bias}},
      {"attn.c_proj.weight", {tensor_slot::proj}},    {"attn.c_proj.bias", {tensor_slot::proj_bias}},
      {"ln_2.weight", {tensor_slot::ln2_weight}},     {"ln_2.bias", {tensor_slot::ln2_bias}},
      {"mlp.c_fc.weight", {tensor_slot::fc}},         {"mlp.c_fc.bias", {tensor_slot::fc_bias}},
      {"mlp.c_proj.weight", {tensor_slot::fc2}},      {"mlp.c_proj.bias", {tensor_slot::fc2_bias}},
      {"attn.bias", {tensor_slot::tok, false}},       {"attn.masked_bias", {tensor_slot::tok, false}}};
  return slots;
}

const std::map<std::string, gpt_name>& top_slots() {
  static const std::map<std::string, gpt_name> slots = {
      {"wte.weight", {tensor_slot::tok}},          {"wpe.weight", {tensor_slot::pos}},
      {"ln_f.weight", {tensor_slot::ln_f_weight}}, {"ln_f.bias", {tensor_slot::ln_f_bias}}};
  return slots;
}

// the unembedding, never under "transformer."
const std::map<std::string, gpt_name>& head_slots() {
  static const std::map<std::string, gpt_name> slots = {{"lm_head.weight", {tensor_slot::lm_head}},
                                                        {"lm_head.bias", {tensor_slot::unembed_bias}}};
  return slots;
}

// The tensor's key without the optional "transformer." prefix ("h.3.ln_1.weight",
// "lm_head.weight"), its slot and its layer; throws for an unknown name.
struct named {
  std::string key;
  gpt_name slot;
  std::size_t layer;
};

named name_of(const std::string& name) {
  const auto unknown = [&] { detail::fail(tensor_place(name), ": unknown tensor"); };
  const auto head = head_slots().find(name);
  if (head != head_slots().end()) return {name, head->second, 0};
  const std::string prefix = "transformer.";
  const std::string key = name.compare(0, prefix.size(), prefix) == 0 ? name.substr(prefix.size()) : name;
  const auto top = top_slots().find(key);
  if (top != top_slots().end()) return {key, top->second, 0};
  if (key.compare(0, 2, "h.") != 0) unknown();
  // h.N.rest with N as 0 or [1-9][0-9]*
  std::size_t i = 2, layer = 0;
  while (i < key.size() && key[i] >= '0' && key[i] <= '9') {
    if (i - 2 >= 9) detail::fail(tensor_place(name), ": layer beyond the limit of ", limits::models::layers, " layers");
    layer = layer * 10 + static_cast<std::size_t>(key[i] - '0');
    ++i;
  }
  if (i == 2 || i >= key.size() || key[i] != '.' || (key[2] == '0' && i > 3)) unknown();
  const auto slot = block_slots().find(key.substr(i + 1));
  if (slot == block_slots().end()) unknown();
  ATTENTION_CHECK(layer < limits::models::layers, tensor_place(name), ": layer ", layer, " is beyond the limit of ",
                  limits::models::layers, " layers");
  return {key, slot->second, layer};
}

// The tensors the file has, by key, for the checks that follow.
class found_tensors {
 public:
  void add(const std::string& key, const safetensors_tensor& t) {
    const auto [place, fresh] = by_key_.emplace(key, &t);
    ATTENTION_CHECK(fresh, tensor_place(t.name), ": given twice (", tensor_place(place->second->name), ")");
  }
  const safetensors_tensor* get(const std::string& key) const {
    const auto found = by_key_.find(key);
    return found == by_key_.end() ? nullptr : found->second;
  }
  bool has(const std::string& key) const { return get(key) != nullptr; }
  const safetensors_tensor& need(const std::string& key) const {
    const safetensors_tensor* t = get(key);
    ATTENTION_CHECK(t != nullptr, key, ": missing");
    return *t;
  }

 private:
  std::map<std::string, const safetensors_tensor*> by_key_;
};

void check_shape(const safetensors_tensor& t, const std::vector<std::uint64_t>& expected) {
  ATTENTION_CHECK(t.shape == expected, tensor_place(t.name), ": shape ", shape_text(t.shape), ", expected ",
                  shape_text(expected));
}

void check_rank(const safetensors_tensor& t, std::size_t rank) {
  ATTENTION_CHECK(t.shape.size() == rank, tensor_place(t.name), ": shape ", shape_text(t.shape), ", expected rank ",
                  rank);
}

// A buffer the model skips is still read past, so its size is bounded as
// GPT-2's files have it: attn.bias a causal mask of at most [1, 1, Tmax,
// Tmax], attn.masked_bias one number; a header can declare no more.
void check_buffer(const safetensors_tensor& t, std::uint64_t length) {
  const bool mask = t.name.size() >= 10 && t.name.compare(t.name.size() - 10, 10, ".attn.bias") == 0;
  if (mask) {
    const std::vector<std::uint64_t>& s = t.shape;
    const bool within = s.size() == 4 && s[0] == 1 && s[1] == 1 && s[2] <= length && s[3] <= length;
    ATTENTION_CHECK(within, tensor_place(t.name), ": shape ", shape_text(s), ", a mask buffer of at most ",
                    shape_text(std::vector<std::uint64_t>{1, 1, length, length}), " (wpe.weight's ", length, " positions)");
  } else {
    ATTENTION_CHECK(t.elements <= 1, tensor_place(t.name), ": shape ", shape_text(t.shape),
                    ", a buffer of at most one number");
  }
}

std::optional<activation_kind> activation_named(const std::string& name) {
  if (name == "relu") return activation_kind::relu;
  if (name == "gelu") return activation_kind::gelu;
  if (name == "gelu_tanh") return activation_kind::gelu_tanh;
  return std::nullopt;
}

// Each block's tensors against d, the MLP's width and the layout.
void check_block(const found_tensors& found, std::size_t i, model_config& c) {
  const std::string p = "h." + std::to_string(i) + ".";
  const std::uint64_t d = c.embed;
  found.need(p + "attn.c_attn.weight");
  found.need(p + "attn.c_proj.weight");
  const safetensors_tensor* fc = found.get(p + "mlp.c_fc.weight");
  ATTENTION_CHECK((fc != nullptr) == found.has(p + "mlp.c_proj.weight"), p,
                  "mlp: needs both c_fc.weight and c_proj.weight, or neither");
  std::uint64_t width = 0;
  if (fc != nullptr) {
    check_rank(*fc, 2);
    width = c.conv1d ? fc->shape[1] : fc->shape[0];
    ATTENTION_CHECK(width != 0, tensor_place(fc->name), ": shape ", shape_text(fc->shape), " is empty");
  }
  if (i == 0) c.mlp_width = static_cast<std::size_t>(width);  // < 2³¹
  ATTENTION_CHECK(width == c.mlp_width, p, "mlp: width ", width, ", h.0's is ", c.mlp_width);
  const std::map<std::string, std::vector<std::uint64_t>> expected = {
      {"ln_1.weight", {d}},           {"ln_1.bias", {d}},        {"ln_2.weight", {d}},   {"ln_2.bias", {d}},
      {"attn.c_attn.weight", {3 * d, d}}, {"attn.c_attn.bias", {3 * d}}, {"attn.c_proj.weight", {d, d}},
      {"attn.c_proj.bias", {d}},      {"mlp.c_fc.weight", {width, d}}, {"mlp.c_fc.bias", {width}},
      {"mlp.c_proj.weight", {d, width}}, {"mlp.c_proj.bias", {d}}};
  for (const auto& [key, want] : expected) {
    const safetensors_tensor* t = found.get(p + key);
    if (t == nullptr) continue;
    const bool is_bias = key.compare(key.size() - 5, 5, ".bias") == 0;
    if (is_bias) {
      const std::string owner = key.substr(0, key.size() - 4);  // "attn.c_attn." of "attn.c_attn.bias"
      ATTENTION_CHECK(found.has(p + owner + "weight"), tensor_place(t->name), ": a bias without its weight");
      if (key.compare(0, 3, "ln_") != 0) c.bias = true;
    }
    const bool conv1d_weight = c.conv1d && !is_bias && key.compare(0, 3, "ln_") != 0;
    check_shape(*t, conv1d_weight ? std::vector<std::uint64_t>{want[1], want[0]} : want);
  }
  // LayerNorm is the model's or not: every block's ln_1, ln_2 beside an MLP
  const auto norm_needed = [&](const std::string& key) {
    ATTENTION_CHECK(found.has(p + key) == c.norm, p, key, c.norm ? ": missing (the model has LayerNorms: every block needs ln_1, ln_2 before its MLP, and ln_f)"
                                                             : ": a LayerNorm in a model without ln_f (LayerNorms are the whole model's or none)");
  };
  norm_needed("ln_1.weight");
  if (fc != nullptr || !c.norm) norm_needed("ln_2.weight");
}

void read_metadata(const std::map<std::string, std::string>& meta, const model_overrides& overrides, model_config& c) {
  const auto found = [&](const char* key) -> const std::string* {
    const auto it = meta.find(key);
    return it == meta.end() ? nullptr : &it->second;
  };
  if (const std::string* s = found("n_head")) {
    bool digits = !s->empty() && s->size() <= 6 && (*s)[0] != '0';
    for (char ch : *s) digits = digits && ch >= '0' && ch <= '9';
    ATTENTION_CHECK(digits && c.embed % std::stoul(*s) == 0, "__metadata__.n_head: ", quote(*s),
                    " is not a positive integer dividing embed ", c.embed);
    c.heads = std::stoul(*s);
  } else if (!overrides.heads) {
    ATTENTION_CHECK(c.embed % 64 == 0, "__metadata__.n_head: absent, and embed ", c.embed,
                    " is not a multiple of 64 (GPT-2's head size)");
    c.heads = c.embed / 64;
  }
  if (overrides.heads) {
    ATTENTION_CHECK(c.embed % *overrides.heads == 0, "config.n_head: ", *overrides.heads, " does not divide embed ",
                    c.embed);
    c.heads = *overrides.heads;
  }
  c.activation = c.conv1d ? activation_kind::gelu_tanh : activation_kind::gelu;
  if (const std::string* s = found("activation")) {
    const auto kind = activation_named(*s);
    ATTENTION_CHECK(kind.has_value(), "__metadata__.activation: unknown ", quote(*s), " (relu, gelu or gelu_tanh)");
    c.activation = *kind;
  }
  if (overrides.activation) c.activation = *overrides.activation;
  const std::string* vocab = found("vocab");
  const std::string* tokenizer = found("tokenizer");
  ATTENTION_CHECK(!(vocab && tokenizer), "__metadata__: both vocab and tokenizer; a model has one tokenizer");
  if (vocab) {
    const nlohmann::json list = read_json(*vocab, "__metadata__.vocab", limits::models::header_bytes, 2);
    bool strings = list.is_array() && list.size() == c.vocab;
    for (std::size_t i = 0; strings && i < list.size(); ++i) strings = list[i].is_string();
    ATTENTION_CHECK(strings, "__metadata__.vocab: expected a JSON list of ", c.vocab, " strings");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string& s = list[i].get_ref<const std::string&>();
      ATTENTION_CHECK(s.size() <= limits::label_bytes, "__metadata__.vocab[", i, "]: ", s.size(),
                      " bytes, beyond the limit of ", limits::label_bytes, " for one token");
      c.vocabulary.push_back(s);
    }
    c.tokenizer = tokenizer_kind::characters;
  } else if (tokenizer) {
    ATTENTION_CHECK(*tokenizer == "gpt2", "__metadata__.tokenizer: unknown ", quote(*tokenizer), " (gpt2)");
    ATTENTION_CHECK(c.vocab >= 50257, "__metadata__.tokenizer: \"gpt2\" needs a vocabulary of at least 50257 tokens, the model has ",
                    c.vocab);
    c.tokenizer = tokenizer_kind::gpt2;
  } else if (c.vocab == 50257) {
    c.tokenizer = tokenizer_kind::gpt2;  // GPT-2's vocabulary: its tokenizer, unless said otherwise
  }
}

// What config.json says of the sizes must be what the file holds.
void check_overrides(const model_overrides& o, const model_config& c) {
  const auto agree = [](const std::optional<std::uint64_t>& said, std::uint64_t has, const char* key, const char* what) {
    ATTENTION_CHECK(!said || *said == has, "config.", key, ": ", said.value_or(0), ", but the file's ", what, " is ", has);
  };
  agree(o.vocab, c.vocab, "vocab_size", "vocabulary (wte.weight's rows)");
  agree(o.length, c.length, "n_positions", "length (wpe.weight's rows)");
  agree(o.embed, c.embed, "n_embd", "embedding (wte.weight's columns)");
  agree(o.layers, c.layers, "n_layer", "number of blocks");
  agree(o.mlp_width, c.mlp_width, "n_inner", "MLP width (mlp.c_fc's outputs)");
}

}  // namespace

void check_weight_dtype(const safetensors_tensor& t) {
  ATTENTION_CHECK(t.dtype == "F32" || t.dtype == "F16" || t.dtype == "BF16", tensor_place(t.name), ": dtype ", t.dtype,
                  ", expected F32, F16 or BF16");
}

void check_parameter_limit(std::uint64_t parameters, const char* place) {
  ATTENTION_CHECK(parameters <= limits::models::parameters, place, ": ", parameters, " parameters, beyond the limit of ",
                  limits::models::parameters, " (2 GiB as float32)");
}

const char* tokenizer_name(tokenizer_kind kind) {
  switch (kind) {
    case tokenizer_kind::characters: return "characters";
    case tokenizer_kind::gpt2: return "gpt2";
    case tokenizer_kind::ids: break;
  }
  return "ids";
}

model_plan plan_model(const safetensors_header& header, const model_overrides& overrides) {
  return plan_model({{"", header}}, overrides);
}

model_plan plan_model(std::vector<std::pair<std::string, safetensors_header>> shards, const model_overrides& overrides) {
  model_plan plan;
  plan.facts = facts_of("gpt2");
  for (auto& [file, header] : shards) plan.shards.push_back({file, std::move(header), {}});
  found_tensors found;
  std::size_t layers = 0;
  std::set<std::size_t> blocks;  // the blocks that have a tensor
  for (planned_shard& s : plan.shards)
    for (const safetensors_tensor& t : s.header.tensors) {
      const named n = name_of(t.name);
      s.tensors.push_back({t, n.slot.used, n.slot.slot, n.layer});
      if (!n.slot.used) continue;
      check_weight_dtype(t);
      found.add(n.key, t);
      if (n.key.compare(0, 2, "h.") == 0) {
        layers = std::max(layers, n.layer + 1);
        blocks.insert(n.layer);
      }
    }
  model_config& c = plan.config;
  const safetensors_tensor& wte = found.need("wte.weight");
  const safetensors_tensor& wpe = found.need("wpe.weight");
  for (std::size_t i = 0; i < layers; ++i)
    ATTENTION_CHECK(blocks.count(i) != 0, "h.", i, ": missing (layers must be numbered 0, 1, 2, ...)");
  c.layers = layers;
  check_rank(wte, 2);
  ATTENTION_CHECK(wte.shape[0] >= 1 && wte.shape[1] >= 1, tensor_place(wte.name), ": shape ", shape_text(wte.shape),
                  " is empty");
  ATTENTION_CHECK(wte.shape[0] <= limits::models::vocab, tensor_place(wte.name), ": a vocabulary of ", wte.shape[0],
                  " tokens, beyond the limit of ", limits::models::vocab);
  ATTENTION_CHECK(wte.shape[1] <= limits::models::embed, tensor_place(wte.name), ": embed ", wte.shape[1],
                  " is beyond the limit of ", limits::models::embed);
  c.vocab = static_cast<std::size_t>(wte.shape[0]);
  c.embed = static_cast<std::size_t>(wte.shape[1]);
  check_rank(wpe, 2);
  check_shape(wpe, {wpe.shape[0], c.embed});
  ATTENTION_CHECK(wpe.shape[0] >= 1, tensor_place(wpe.name), ": shape ", shape_text(wpe.shape), " is empty");
  ATTENTION_CHECK(wpe.shape[0] <= limits::models::length, tensor_place(wpe.name), ": ", wpe.shape[0],
                  " positions, beyond the limit of ", limits::models::length);
  c.length = static_cast<std::size_t>(wpe.shape[0]);
  for (const planned_shard& s : plan.shards)
    for (const planned_tensor& t : s.tensors)
      if (!t.used) check_buffer(t.file, c.length);
  const std::uint64_t d = c.embed;
  // the layout from h.0's c_attn, whatever the prefix: [d, 3d] is Conv1D
  if (layers) c.conv1d = found.need("h.0.attn.c_attn.weight").shape == std::vector<std::uint64_t>{d, 3 * d};
  // ln_f says whether the model has LayerNorms; then every block must agree
  c.norm = found.has("ln_f.weight");
  for (const char* key : {"ln_f.weight", "ln_f.bias"})
    if (const safetensors_tensor* t = found.get(key)) check_shape(*t, {d});
  ATTENTION_CHECK(!found.has("ln_f.bias") || c.norm, tensor_place(found.need("ln_f.bias").name),
                  ": a bias without its weight");
  for (std::size_t i = 0; i < layers; ++i) check_block(found, i, c);
  c.tied = !found.has("lm_head.weight");
  if (!c.tied) check_shape(found.need("lm_head.weight"), {c.vocab, d});
  if (const safetensors_tensor* t = found.get("lm_head.bias")) {
    check_shape(*t, {c.vocab});
    c.bias = true;
  }
  for (const planned_shard& s : plan.shards)
    for (const planned_tensor& t : s.tensors)
      if (t.used) c.parameters += t.file.elements;
  check_parameter_limit(c.parameters, "header");
  read_metadata(plan.shards[0].header.metadata, overrides, c);
  check_overrides(overrides, c);
  // a layer's weight matrices as the layout lies: Conv1D's [in, out], or nanoGPT's Linear kept [out, in]
  for (planned_shard& s : plan.shards)
    for (planned_tensor& t : s.tensors)
      if (t.slot == tensor_slot::qkv || t.slot == tensor_slot::proj || t.slot == tensor_slot::fc || t.slot == tensor_slot::fc2)
        t.layout = c.conv1d ? weight_layout::conv1d : weight_layout::linear_kept;
  plan.spec = spec_of(c);
  plan.spec.biases = biases_of(plan);  // the file's own, part by part
  return plan;
}

}  // namespace attention
