// The tensors a Hugging Face folder's model has, by family (models-v2.md
// sections 2 and 3, models-v3.md section 7): each one's name as files write it, where it goes in
// forward()'s weights, its shape from config.json, and whether it must be
// there. A name in no family's table is either one of the spec's ignored
// buffers or refused by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/family_config.hpp"
#include "models/tensor_slot.hpp"

namespace attention {

// Which tensors must come together: a group is all there or all absent.
enum class tensor_need { required, optional, head };

struct expected_tensor {
  std::string name;                  // as the file names it ("model.layers.0.self_attn.q_proj.weight")
  tensor_slot slot = tensor_slot::tok;
  std::size_t layer = 0;
  std::vector<std::uint64_t> shape;  // from config.json
  tensor_need need = tensor_need::required;
  std::string why;                   // the config fields behind the shape, for messages
};

// The family's tensors, by name. BERT's `prefix` ("bert." or "") is its
// file's; its LayerNorms' older names (gamma, beta) are in `aliases`.
struct tensor_table {
  std::map<std::string, expected_tensor> tensors;
  std::map<std::string, std::string> aliases;  // "…LayerNorm.gamma" -> "…LayerNorm.weight"
  std::string layers_field = "num_hidden_layers";  // the config's layer count, for messages (DistilBERT: n_layers)
  // models-v3.md's families refuse a tensor neither read nor ignored as
  // "NAME: unknown tensor" (section 1); models-v2's name the architecture
  bool unknown_tensor_line = false;
};

tensor_table llama_tensors(const family_config& config);
tensor_table bert_tensors(const family_config& config, const std::string& prefix);
// DistilBERT's: `prefix` "distilbert." or ""; its vocab_* head never prefixed.
tensor_table distilbert_tensors(const family_config& config, const std::string& prefix);

// The family's table for a file holding the tensors `names`: BERT's and
// DistilBERT's prefix is where embeddings.word_embeddings.weight is.
tensor_table family_tensors(const family_config& config, const std::vector<std::string>& names);

// The spec's ignored tensors: rotary inv_freq, BERT's pooler, next-sentence
// head, position_ids and token_type_ids buffers, and the decoder's bias;
// DistilBERT's position_ids. Any dtype (an old file's I64 ids).
bool ignored_tensor(const family_config& config, const std::string& name);

// The most numbers an ignored tensor may declare, from the config, and why:
// a skipped tensor is still streamed past, so a header that declares a
// 16 GiB inv_freq is refused before a byte of it is read, as a read one is.
struct ignored_bound {
  std::uint64_t numbers = 0;
  std::string why;  // "head_dim 64"
};
std::optional<ignored_bound> ignored_tensor_bound(const family_config& config, const std::string& name);

// The most numbers all the ignored tensors of a folder hold together: each
// buffer once (a pooler.* or cls.seq_relationship.* name may be anything,
// so a header of 4,096 pooler-sized entries is refused by this sum).
std::uint64_t ignored_numbers_together(const family_config& config);

}  // namespace attention
