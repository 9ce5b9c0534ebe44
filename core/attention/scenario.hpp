// A scenario (format v1, shared/spec/scenario-v1.md): which tensors exist, in
// notebook order, and how one attention layer combines them. Read from JSON
// by formats/scenario_file.hpp, which checks every rule of the spec and every
// size limit before any tensor exists, so a scenario that parses always runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attention/attention.hpp"
#include "tensor/mask.hpp"
#include "tensor/tensor.hpp"

namespace attention {

struct tensor_entry {
  enum class source_kind { values, zeros, ones, rand, randn, randint, linear, embedding, manual_seed };
  source_kind source = source_kind::zeros;
  std::string name;                // empty for manual_seed
  shape_t shape;                   // the shape of the result
  std::vector<float> values;       // values: row-major
  std::int64_t low = 0, high = 0;  // randint: [low, high)
  std::size_t table_rows = 0;      // embedding: num
  std::vector<std::int64_t> ids;   // embedding: rows to look up
  std::uint64_t seed = 0;          // manual_seed
};

struct head_spec {
  std::string query, key, value;  // tensor names; empty = not named
  std::string query_bias, key_bias, value_bias;  // gpt-v1.md section 3; empty = none
};

struct attention_spec {
  std::string x;
  std::string context;  // = x for self-attention
  // "self": true: context holds x's positions (self-attention whose keys and
  // values were drawn apart from the queries, as notebook 003 draws q and k)
  bool self = false;
  std::vector<head_spec> heads;
  mask_spec mask;
  layer_options options;
  std::string output;  // empty = no output projection
  std::string output_bias;  // empty = none; only with an output projection
};

struct scenario {
  std::string id, title, source, description;
  std::optional<std::uint64_t> seed;
  std::vector<std::vector<std::string>> tokens;          // 1 list for every batch element, or B lists
  std::vector<std::vector<std::string>> context_tokens;  // the same, for the context
  std::vector<tensor_entry> tensors;
  attention_spec attention;

  // Derived while validating.
  bool batched = false;  // x is (B, T, C) rather than (T, C)
  std::size_t batch = 1, query_length = 0, context_length = 0;

  bool is_cross() const { return attention.context != attention.x && !attention.self; }
  // Labels of batch element b's queries (or its context), empty when none given.
  const std::vector<std::string>& labels(std::size_t b, bool context = false) const;
};

}  // namespace attention
